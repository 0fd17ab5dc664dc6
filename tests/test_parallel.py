"""Runs over many files in worker processes (``checkers.parallel``): the findings and their order
are a serial run's, whatever happens to the workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.make_course import make_course
from checkers import parallel, runner
from checkers.finding import Finding
from checkers.runner import run_paths


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
