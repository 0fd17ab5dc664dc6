from __future__ import annotations

from pathlib import Path

from checkers.claims import load_claims_file
from checkers.finding import summarize
from checkers.runner import run_file


def findings(project: Path) -> dict[str, object]:
    return {f.id: f for f in run_file(load_claims_file(project / "claims" / "demo.yaml"))}


def test_verdicts_and_fix(project: Path) -> None:
    result = findings(project)
    right, wrong = result["dot-right"], result["dot-wrong"]
    assert right.verdict == "pass"  # type: ignore[attr-defined]
    assert wrong.verdict == "fail"  # type: ignore[attr-defined]
    assert wrong.line == 5  # type: ignore[attr-defined]
    assert wrong.expected == "0.5 → 0.50"  # type: ignore[attr-defined]
    assert wrong.fix == "score = 0.5×0.5 + 0.5×0.5 = 0.50"  # type: ignore[attr-defined]
    assert wrong.tolerance == "±0.005: 2 printed decimals"  # type: ignore[attr-defined]


def test_inherited_error_is_told_apart_from_the_first_wrong_step(project: Path) -> None:
    scaled = findings(project)["scaled"]
    assert scaled.verdict == "pass"  # type: ignore[attr-defined]
    assert scaled.inherits == ("dot-wrong",)  # type: ignore[attr-defined]
    assert "carries the error of dot-wrong" in scaled.message  # type: ignore[attr-defined]
    assert "0.25" in scaled.message  # type: ignore[attr-defined]  # 0.50 / 2 from the true value


def test_edited_lesson_makes_claim_stale(project: Path) -> None:
    lesson = project / "content" / "demo.md"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("= 0.38", "= 0.39"), "utf-8")
    assert findings(project)["dot-right"].verdict == "stale"  # type: ignore[attr-defined]


def test_summary_counts(project: Path) -> None:
    counts = summarize(run_file(load_claims_file(project / "claims" / "demo.yaml")))
    assert counts == {
        "total": 4,
        "pass": 3,
        "fail": 1,
        "stale": 0,
        "error": 0,
        "slip": 0,
        "suppressed": 0,
        "marked_wrong": 0,
    }


def write_claims(project: Path, claims: str) -> None:
    """Replace the demo claim file's claims with ``claims`` (YAML list items)."""
    path = project / "claims" / "demo.yaml"
    path.write_text(f"lesson: content/demo.md\nclaims:\n{claims}", encoding="utf-8")


def test_uses_cycle_is_an_error_not_a_hang(project: Path) -> None:
    write_claims(
        project,
        "  - {id: a, kind: arithmetic, quote: '512/8=64', uses: {x: b}, expression: x,"
        " claimed: 1}\n"
        "  - {id: b, kind: arithmetic, quote: '512/8=64', uses: {x: a}, expression: x,"
        " claimed: 1}\n",
    )
    result = findings(project)
    assert {f.verdict for f in result.values()} == {"error"}  # type: ignore[attr-defined]


def test_a_stale_matrix_claim_still_shows_what_it_claimed(project: Path) -> None:
    write_claims(
        project,
        "  - id: causal\n    kind: masked_softmax\n    quote: 'a sentence no longer there'\n"
        "    scores: [['1', '5'], ['0', '0']]\n    mask: causal\n"
        "    claimed: [['1', '0'], ['0.50', '0.50']]\n",
    )
    (finding,) = findings(project).values()
    assert finding.verdict == "stale"  # type: ignore[attr-defined]
    assert finding.claimed == "[[1, 0], [0.50, 0.50]]"  # type: ignore[attr-defined]


def test_every_finding_passes_through_its_lessons_marks(quiet_project: Path) -> None:
    """run_file and check_claim both apply the lesson's marks (by the claim's anchored line)."""
    from checkers.runner import check_claim

    claims_file = load_claims_file(quiet_project / "claims" / "quiet.yaml")
    by_id = {f.id: f for f in run_file(claims_file)}
    assert {i: (f.verdict, f.severity) for i, f in by_id.items()} == {
        "share-truncated": ("fail", "slip"),
        "share-wrong": ("fail", "error"),
        "rows-marked": ("marked_wrong", "error"),
        "rows-corrected": ("pass", None),
        "quarter-four": ("marked_wrong", "error"),
        "quarter-eight": ("marked_wrong", None),
        "quarter-six": ("fail", "error"),
        "legacy": ("suppressed", "error"),
        "next-figure": ("fail", "error"),
    }
    one = check_claim(claims_file, next(c for c in claims_file.claims if c.id == "legacy"))
    assert one.verdict == "suppressed"
    assert "2 / 7 is 0.2857 → 0.29, not 0.28" in by_id["share-truncated"].message
