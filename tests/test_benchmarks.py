"""The benchmark course generator makes courses that load cleanly (no timings are tested here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_pytest import write_floor
from benchmarks.make_course import load_cases, make_big_lesson, make_course
from checkers.claims import load_claims_file
from checkers.kinds import ALL_KINDS
from checkers.runner import run_file
from checkers.scan import scan_lesson


def test_every_registered_kind_has_cases_that_pass_and_fail() -> None:
    cases = load_cases()
    assert set(cases) == set(ALL_KINDS)
    for kind, found in cases.items():
        assert {c.expect for c in found} == {"pass", "fail"}, kind


def test_course_loads_anchors_and_fails_where_expected(tmp_path: Path) -> None:
    course = make_course(tmp_path, lessons=2, claims=2 * len(ALL_KINDS) + 6, fail_every=5)
    assert course.kinds == set(ALL_KINDS)
    assert len(course.lessons) == len(course.claim_files) == 2
    failing: set[str] = set()
    total = 0
    for path in course.claim_files:
        claims_file = load_claims_file(path)
        assert claims_file.problems == ()
        assert all(claim.anchor is not None for claim in claims_file.claims)
        total += len(claims_file.claims)
        failing |= {
            f"claims/{path.name}::{finding.id}"
            for finding in run_file(claims_file)
            if finding.verdict != "pass"
        }
    assert total == course.claims
    assert failing == course.failing
    assert 0 < len(failing) < total


@pytest.mark.parametrize("lessons", [1, 3])
def test_claims_are_spread_over_the_lessons(tmp_path: Path, lessons: int) -> None:
    course = make_course(tmp_path, lessons=lessons, claims=10)
    counts = [len(load_claims_file(path).claims) for path in course.claim_files]
    assert sum(counts) == 10 and max(counts) - min(counts) <= 1


def test_big_lesson_stays_under_its_size_and_scans(tmp_path: Path) -> None:
    lesson = make_big_lesson(tmp_path / "big.md", size=20_000)
    assert 15_000 < lesson.stat().st_size <= 20_000
    findings = scan_lesson(lesson)
    assert findings and all(f.id != "(lesson)" for f in findings)
    assert any(f.verdict == "pass" for f in findings)
    assert any(f.verdict == "fail" for f in findings)


@pytest.mark.parametrize("failing", [0, 3])
def test_pytest_floor_fails_as_many_tests_as_asked(pytester: pytest.Pytester, failing: int) -> None:
    floor = write_floor(pytester.path, 20, failing)
    result = pytester.runpytest(str(floor), "-p", "no:lessoncheck")
    result.assert_outcomes(passed=20 - failing, failed=failing)


def test_the_fix_course_fails_every_claim_and_fix_rewrites_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.bench_fix import make_fix_course
    from checkers.fix import plan_fix

    root = make_fix_course(tmp_path / "fix", 12)
    monkeypatch.chdir(root)
    plan = plan_fix([Path("claims")])
    assert [f.verdict for f in plan.before] == ["fail"] * 12
    assert [f.verdict for f in plan.after] == ["pass"] * 12
    assert len(plan.rewrites) == 12


def test_realworld_triage_takes_the_corpus_key_first_then_the_project_labels(
    tmp_path: Path,
) -> None:
    from benchmarks.realworld import triage

    key, ours = tmp_path / "key.yaml", tmp_path / "ours.yaml"
    key.write_text("a.md:\n  3: {label: wrong}\n  5: {label: correct}\n", encoding="utf-8")
    ours.write_text(
        "a.md:\n  5: {label: wrong, what: ignored, the key labels it}\n"
        "b.md:\n  7: {label: debatable, what: 1/3 printed 0.33}\n  9: {label: wrong}\n",
        encoding="utf-8",
    )
    flagged = [("a.md", 3), ("a.md", 5), ("b.md", 7), ("b.md", 9), ("c.md", 1)]
    report = {"findings": [{"source": s, "line": n, "verdict": "fail"} for s, n in flagged]}
    report["findings"].append({"source": "c.md", "line": 2, "verdict": "pass"})
    more = tmp_path / "more"
    more.mkdir()
    (more / "area.yaml").write_text("c.md:\n  1: {label: correct}\n", encoding="utf-8")
    result = triage(report, key, ours, more)
    assert result.real == ("a.md:3", "b.md:9")
    assert result.debatable == ("b.md:7",)
    assert result.false_alarms == ("a.md:5", "c.md:1")
    assert result.unlabelled == ()
    assert result.real_share == 2 / 4


def test_realworld_labels_that_disagree_stop_the_evaluation(tmp_path: Path) -> None:
    from benchmarks.realworld import project_labels

    ours, more = tmp_path / "ours.yaml", tmp_path / "more"
    more.mkdir()
    ours.write_text("a.md:\n  3: {label: wrong}\n", encoding="utf-8")
    (more / "x.yaml").write_text("a.md:\n  3: {label: correct}\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"a\.md:3 is labelled both 'wrong' and 'correct'"):
        project_labels(ours, more)


def test_scan_since_runs_each_version_from_its_own_tree_with_one_worker() -> None:
    from benchmarks.scan_since import _scan_command

    command = _scan_command("py", ["a.md", "b/c.md"], {"PYTHONPATH": "/rev"})
    assert command == [
        "env", "PYTHONPATH=/rev", "py", "-m", "checkers", "scan", "-j", "1", "-q", "a.md", "b/c.md"
    ]  # fmt: skip
    assert _scan_command("py", ["a.md"], {})[:2] == ["py", "-m"]  # no env prefix when not needed
