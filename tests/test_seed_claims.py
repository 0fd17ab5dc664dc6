"""The seed course: the exact set of claims that fail, so a checker regression is caught.

The verdicts come from recomputation by the kinds; this list only pins what they found (each
entry was checked by hand against the lesson, see README "What the seed lessons get wrong").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checkers.finding import Finding
from checkers.runner import run_paths

ROOT = Path(__file__).resolve().parent.parent

EXPECTED_FAILURES = {
    "transformer-explained.yaml": {
        "model-gpt2-1.5b",
        "params-scaling-law",
    },
    "transformer-fundamentals.yaml": {
        "score-cat-cat",
        "score-cat-chase",
        "score-cat-mouse",
        "q-chase-vector",
        "q-mouse-vector",
        "pe-index-range",
        "pe-0-2",
        "pe-0-3",
        "pe-1-2",
        "pe-1-3",
        "pe-1-vector",
        "pe-property-table",
        "pe-box-table",
        "ffn-gelu-values",
        "mask-is-not-causal",
        "masked-row-2",
        "masked-row-3",
        "qk-mean",
        "qk-std",
        "qk-scale-by-sqrt-2dk",
    },
    "attention-in-six-questions.yaml": set(),
}


@pytest.fixture(scope="module")
def findings(request: pytest.FixtureRequest) -> list[Finding]:
    del request
    import os

    previous = Path.cwd()
    os.chdir(ROOT)
    try:
        return run_paths([ROOT / "claims"])
    finally:
        os.chdir(previous)


def test_exactly_the_known_errors_fail(findings: list[Finding]) -> None:
    failing: dict[str, set[str]] = {name: set() for name in EXPECTED_FAILURES}
    for finding in findings:
        if finding.verdict != "pass":
            failing.setdefault(Path(finding.claims_file).name, set()).add(finding.id)
    assert failing == EXPECTED_FAILURES


def test_no_claim_is_stale_or_broken(findings: list[Finding]) -> None:
    assert [f.id for f in findings if f.verdict in ("stale", "error")] == []


def test_every_failure_says_where_and_what(findings: list[Finding]) -> None:
    for finding in findings:
        if finding.verdict == "fail":
            assert finding.source.startswith("content/") and finding.line, finding.id
            assert finding.claimed and finding.message, finding.id


def test_inherited_steps_pass_and_name_their_source(findings: list[Finding]) -> None:
    by_id = {f.id: f for f in findings}
    scaled = by_id["scaled-cat-cat"]
    assert scaled.verdict == "pass"
    assert scaled.inherits == ("score-cat-cat",)


def test_every_seed_failure_is_an_error_not_a_slip(findings: list[Finding]) -> None:
    """None of the 22 is only a last-digit slip: the closest, score-cat-mouse, prints 0.96 for
    0.8962 (six units of its last place off), and pe-1-2 prints 0.0001 for 0.0100."""
    failing = [f for f in findings if f.verdict == "fail"]
    assert len(failing) == 22
    assert {f.id: f.severity for f in failing} == {f.id: "error" for f in failing}
    by_id = {f.id: f for f in failing}
    assert (by_id["score-cat-mouse"].claimed, by_id["score-cat-mouse"].expected) == (
        "0.96",
        "0.8962 → 0.90",
    )


def test_no_seed_claim_is_marked_wrong_or_suppressed(findings: list[Finding]) -> None:
    assert [f.id for f in findings if f.verdict in ("marked_wrong", "suppressed")] == []


def test_extract_check_passes_on_the_seed_lessons(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed claim files are in step with their lessons: no draft ``extract`` would add is
    already claimed by hand (the hand claims whose quotes span several lines of a fenced block
    included), and none would be dropped. Read-only: ``--check`` changes nothing."""
    from checkers.cli import main

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    lessons = sorted(str(p) for p in Path("content").glob("*.md"))
    assert len(lessons) == 3
    assert main(["extract", "--check", *lessons]) == 0
