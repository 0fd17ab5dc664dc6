"""Tests of the report writers, built from hand-made findings (no claim is run here)."""

from __future__ import annotations

from dataclasses import replace

from checkers.finding import Finding, Suppression

LESSON_PATH = "content/demo.md"
CLAIMS_PATH = "claims/demo.yaml"

EVIL_QUOTE = "a | b <script>alert(1)</script> `x` = 0.52"
"""A quote full of Markdown and HTML metacharacters, as a pull request could contain."""

LESSON = (
    "\n".join(
        [
            "# Demo lesson",  # 1
            "",  # 2
            "Q我·K我 = 0.6×0.4 + 0.2×0.7 = 0.38",  # 3
            "",  # 4
            "score = 0.5×0.5 + 0.5×0.5 = 0.52",  # 5
            "",  # 6
            EVIL_QUOTE,  # 7
            "",  # 8
            "scaled = 0.52 / 2 = 0.26",  # 9
            "",  # 10
            "A very long line " + "that keeps going " * 30,  # 11
        ]
    )
    + "\n"
)


def _finding(**values: object) -> Finding:
    base: dict[str, object] = {
        "id": "x",
        "kind": "arithmetic",
        "claims_file": CLAIMS_PATH,
        "source": LESSON_PATH,
        "line": 1,
        "quote": "",
        "verdict": "pass",
        "claimed": "",
        "expected": "",
        "tolerance": "",
        "message": "",
        "fix": None,
        "column": 1,
    }
    base.update(values)
    return Finding(**base)  # type: ignore[arg-type]


PASS = _finding(
    id="dot-right",
    line=3,
    quote="Q我·K我 = 0.6×0.4 + 0.2×0.7 = 0.38",
    claimed="0.38",
    expected="0.38 → 0.38",
    tolerance="±0.005: 2 printed decimals",
    message="0.6×0.4 + 0.2×0.7 = 0.38 holds (±0.005: 2 printed decimals)",
)
FAIL = _finding(
    id="dot-wrong",
    line=5,
    quote="score = 0.5×0.5 + 0.5×0.5 = 0.52",
    verdict="fail",
    claimed="0.52",
    expected="0.5 → 0.50",
    tolerance="±0.005: 2 printed decimals",
    message="0.5×0.5 + 0.5×0.5 is 0.5 → 0.50, not 0.52",
    fix="score = 0.5×0.5 + 0.5×0.5 = 0.50",
)
EVIL = _finding(
    id="evil|<b>`id`",
    line=7,
    column=3,
    quote=EVIL_QUOTE,
    verdict="fail",
    claimed="0.52",
    expected="0.5 → 0.50",
    tolerance="±0.005: 2 printed decimals",
    message="x <img src=x onerror=alert(1)> is 0.50, not 0.52 | 100% wrong, really: yes",
    fix=EVIL_QUOTE.replace("0.52", "0.50"),
    details=("line one\nline two",),
)
CARRIER = _finding(
    id="scaled",
    line=9,
    quote="scaled = 0.52 / 2 = 0.26",
    claimed="0.26",
    expected="0.26 → 0.26",
    tolerance="±0.005: 2 printed decimals",
    message="s / 2 = 0.26 holds; right given its printed inputs, but carries the error of "
    "dot-wrong; from the true upstream values it would be 0.25 → 0.25",
    details=(
        "inherits: right given its printed inputs, but carries the error of dot-wrong; "
        "from the true upstream values it would be 0.25 → 0.25",
    ),
    inherits=("dot-wrong",),
)
STALE = _finding(
    id="gone",
    line=24,
    column=13,
    location_kind="claims",
    quote="this sentence was edited = 0.7",
    verdict="stale",
    claimed="0.7",
    message="the quote is no longer in demo.md (was the sentence edited?)",
)
ERROR = _finding(
    id="bad-claim",
    kind="",
    line=30,
    column=5,
    location_kind="claims",
    verdict="error",
    message="unknown kind 'arithmatic'; did you mean 'arithmetic'?",
)
FILE_ERROR = _finding(
    id="(file)",
    kind="",
    claims_file="claims/broken.yaml",
    source="",
    line=None,
    column=None,
    location_kind="claims",
    verdict="error",
    message="YAML syntax error",
)

FINDINGS = [PASS, FAIL, EVIL, CARRIER, STALE, ERROR, FILE_ERROR]
PROBLEMS = [f for f in FINDINGS if f.verdict != "pass"]


def many_failures(count: int) -> list[Finding]:
    """``count`` failing findings on consecutive lines."""
    return [replace(FAIL, id=f"wrong-{n}", line=n + 1) for n in range(count)]


# Severities and quiet findings (not in FINDINGS, so the tests above keep their counts).
SLIP = _finding(
    id="share-truncated",
    line=5,
    quote="share = 2 / 7 = 0.28",
    verdict="fail",
    severity="slip",
    claimed="0.28",
    expected="0.2857 → 0.29",
    tolerance="±0.005: 2 printed decimals",
    message="2 / 7 is 0.2857 → 0.29, not 0.28",
    fix="share = 2 / 7 = 0.29",
)
SEVERE = replace(FAIL, severity="error")
SUPPRESSED = _finding(
    id="legacy",
    line=9,
    quote="9 × 9 = 80",
    verdict="suppressed",
    severity="error",
    suppression=Suppression("inSource", "<!-- lessoncheck: ignore --> on line 8"),
    claimed="80",
    expected="81 → 81",
    message="suppressed by <!-- lessoncheck: ignore --> on line 8: 9 × 9 is 81 → 81, not 80",
)
CONFIG_SUPPRESSED = replace(
    SUPPRESSED,
    id="old",
    suppression=Suppression("external", ".lessoncheck.toml: ignore 'content/*.md'"),
)
MARKED = _finding(
    id="quarter-four",
    line=3,
    quote="4 × 0.25 = 1.5",
    verdict="marked_wrong",
    severity="error",
    marked="❌ on line 2",
    claimed="1.5",
    expected="1 → 1.0",
    message="marked wrong by the author (❌ on line 2): 4 × 0.25 is 1 → 1.0, not 1.5",
)
MARKED_HOLDS = _finding(
    id="quarter-eight",
    line=3,
    quote="8 × 0.25 = 2",
    verdict="marked_wrong",
    marked="❌ on line 2",
    claimed="2",
    expected="2 → 2",
    message="marked wrong by the author (❌ on line 2), but it holds: 8 × 0.25 = 2 holds",
)
QUIET = [PASS, SLIP, SEVERE, SUPPRESSED, CONFIG_SUPPRESSED, MARKED, MARKED_HOLDS]
