from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.make_course import make_course
from checkers import parallel, runner
from checkers.claims import load_claims_file
from checkers.finding import Finding, summarize
from checkers.runner import run_file, run_paths


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
    assert counts == {"total": 4, "pass": 3, "fail": 1, "stale": 0, "error": 0}


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


def _course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Finding]:
    course = make_course(tmp_path / "course", lessons=6, claims=120)
    monkeypatch.chdir(course.root)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)  # workers even for this small course
    serial = run_paths([Path("claims")])
    assert {f.verdict for f in serial} == {"pass", "fail"}
    return serial


def test_parallel_run_reports_what_a_serial_run_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = _course(tmp_path, monkeypatch)
    assert run_paths([Path("claims")], jobs=2) == serial


_CHECK_ONE_FILE = runner._check_one_file


def _dies_on_lesson_3(path: Path) -> list[Finding]:
    """Stands in for the workers' task (module level, so it pickles by name)."""
    if str(os.getpid()) != os.environ["TEST_PARENT_PID"]:
        with open(os.environ["TEST_WORKER_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {path.name}\n")
        if path.name == "lesson-0003.yaml":
            os._exit(3)  # as the kernel's OOM killer would end it
    return _CHECK_ONE_FILE(path)


def test_a_dead_worker_loses_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    serial = _course(tmp_path, monkeypatch)
    workers = tmp_path / "workers.txt"
    monkeypatch.setenv("TEST_PARENT_PID", str(os.getpid()))
    monkeypatch.setenv("TEST_WORKER_LOG", str(workers))
    monkeypatch.setattr(runner, "_check_one_file", _dies_on_lesson_3)
    assert run_paths([Path("claims")], jobs=2) == serial
    assert "lesson-0003.yaml" in workers.read_text(encoding="utf-8")  # it did go to a worker


def test_no_worker_processes_means_a_serial_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = _course(tmp_path, monkeypatch)

    class NoProcesses:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise OSError("no /dev/shm here")

    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", NoProcesses)
    assert run_paths([Path("claims")], jobs=2) == serial


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
