"""The finding model (``checkers.finding``): the shape of every report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from checkers.finding import (
    FILE_LABEL,
    Finding,
    Suppression,
    fails_run,
    problem_finding,
    relative_to_root,
    summarize,
    summary_line,
)


def _finding(**changes: object) -> Finding:
    values: dict[str, object] = {
        "id": "score",
        "kind": "arithmetic",
        "claims_file": "claims/a.yaml",
        "source": "content/a.md",
        "line": 12,
        "quote": "0.5 × 0.5 = 0.3",
        "verdict": "fail",
        "claimed": "0.3",
        "expected": "0.25 → 0.3",
        "tolerance": "±0.05: 1 printed decimal",
        "message": "0.5 × 0.5 is 0.25",
        "fix": "0.5 × 0.5 = 0.2",
        "details": ("one", "two"),
        "column": 3,
    }
    values.update(changes)
    return Finding(**values)  # type: ignore[arg-type]


def test_json_round_trip_keeps_every_field() -> None:
    finding = _finding(inherits=("upstream",))
    data = json.loads(json.dumps(finding.to_json()))
    assert data["details"] == ["one", "two"] and data["inherits"] == ["upstream"]
    assert list(data) == list(Finding.__dataclass_fields__)
    assert Finding.from_json(data) == finding


def test_where_points_at_the_lesson_or_the_claim_file() -> None:
    assert _finding().where == "content/a.md:12"
    assert _finding(line=None).where == "content/a.md"
    assert _finding(location_kind="claims").where == "claims/a.yaml:12:3"


def test_summaries_count_every_verdict() -> None:
    findings = [_finding(verdict=v) for v in ("pass", "pass", "fail", "stale", "error")]
    assert summarize(findings) == {
        "total": 5,
        "pass": 2,
        "fail": 1,
        "stale": 1,
        "error": 1,
        "slip": 0,
        "suppressed": 0,
        "marked_wrong": 0,
    }
    assert summary_line(findings) == "2 passed, 1 failed, 1 stale, 1 errors"


def test_slips_are_fails_counted_apart_and_quiet_verdicts_are_named() -> None:
    findings = [
        _finding(severity="slip"),
        _finding(severity="error"),
        _finding(verdict="suppressed", severity="error"),
        _finding(verdict="marked_wrong", severity=None),
    ]
    counts = summarize(findings)
    assert (counts["fail"], counts["slip"], counts["suppressed"], counts["marked_wrong"]) == (
        2,
        1,
        1,
        1,
    )
    assert summary_line(findings) == (
        "0 passed, 2 failed (1 slip), 0 stale, 0 errors, 1 suppressed, 1 marked wrong by the author"
    )


def test_which_findings_fail_a_run() -> None:
    assert fails_run(_finding(severity="error"))
    assert fails_run(_finding())  # a finding without severity (an older report) is an error
    assert not fails_run(_finding(severity="slip"))
    assert fails_run(_finding(severity="slip"), strict=True)
    assert fails_run(_finding(verdict="stale"))
    for quiet in ("pass", "error", "suppressed", "marked_wrong"):
        assert not fails_run(_finding(verdict=quiet, severity="error"), strict=True)


def test_suppression_round_trips_through_json() -> None:
    finding = _finding(
        verdict="suppressed",
        severity="slip",
        suppression=Suppression("external", ".lessoncheck.toml: ignore 'content/*'"),
    )
    data = json.loads(json.dumps(finding.to_json()))
    assert data["suppression"] == {
        "kind": "external",
        "justification": ".lessoncheck.toml: ignore 'content/*'",
    }
    assert Finding.from_json(data) == finding


@dataclass(frozen=True)
class _Position:
    line: int
    column: int


@dataclass(frozen=True)
class _Problem:
    position: _Position | None
    message: str

    def location(self) -> str:
        return f"claims/a.yaml:{self.position.line}" if self.position else "claims/a.yaml"


def test_a_claim_that_did_not_load_is_one_error_with_the_rest_as_details(tmp_path: Path) -> None:
    problems = [_Problem(_Position(4, 5), "unknown kind 'arithmatic'"), _Problem(None, "more")]
    finding = problem_finding(
        problems,
        FILE_LABEL,
        claims_file=tmp_path / "claims" / "a.yaml",
        lesson=None,
        root=tmp_path.resolve(),
    )
    assert (finding.id, finding.verdict, finding.location_kind) == (FILE_LABEL, "error", "claims")
    assert (finding.line, finding.column) == (4, 5)
    assert finding.claims_file == "claims/a.yaml" and finding.source == ""
    assert finding.message == "unknown kind 'arithmatic'"
    assert finding.details == ("claims/a.yaml: more",)


def test_paths_outside_the_root_stay_as_given(tmp_path: Path) -> None:
    assert relative_to_root(Path("/elsewhere/x.md"), tmp_path.resolve()) == "/elsewhere/x.md"
    assert relative_to_root(None, tmp_path) == ""
