"""The progress line of long command-line runs (``checkers.progress``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from checkers import parallel
from checkers.cli import main
from checkers.progress import DELAY, Progress, wanted


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_appears_only_after_the_delay_and_is_erased() -> None:
    stream, clock = Terminal(), Clock()
    progress = Progress(stream, "claim files", clock=clock)
    progress(1, 10)
    clock.now += DELAY - 0.1
    progress(2, 10)
    assert stream.getvalue() == ""  # a short run never shows it
    clock.now += 0.2
    progress(3, 10)
    assert stream.getvalue() == "\rlessoncheck: 3 of 10 claim files checked (2 s)"
    clock.now += 0.01
    progress(4, 10)  # too soon to redraw
    assert stream.getvalue().count("\r") == 1
    clock.now += 1
    progress(10, 10)
    assert stream.getvalue().endswith("\rlessoncheck: 10 of 10 claim files checked (3 s)")
    progress.close()
    assert stream.getvalue().endswith(
        "\r" + " " * len("lessoncheck: 10 of 10 claim files checked (3 s)") + "\r"
    )


def test_close_writes_nothing_when_nothing_was_shown() -> None:
    stream = Terminal()
    progress = Progress(stream, clock=Clock())
    progress(1, 2)
    progress.close()
    assert stream.getvalue() == ""


@pytest.mark.parametrize(
    ("tty", "environ", "quiet", "expected"),
    [
        (True, {}, False, True),
        (True, {"CI": "false"}, False, True),
        (True, {"CI": "true"}, False, False),  # GitHub Actions, GitLab, ... set CI
        (True, {"CI": "1"}, False, False),
        (True, {}, True, False),  # -q
        (False, {}, False, False),  # piped or redirected
    ],
)
def test_wanted_only_on_a_watched_terminal(
    tty: bool, environ: dict[str, str], quiet: bool, expected: bool
) -> None:
    stream = Terminal() if tty else io.StringIO()
    assert wanted(stream, environ, quiet) is expected


def test_map_files_reports_each_file_done(tmp_path: Path) -> None:
    files = [tmp_path / f"{n}.yaml" for n in range(3)]
    seen: list[tuple[int, int]] = []
    assert parallel.map_files(_nothing, files, progress=lambda d, t: seen.append((d, t))) == []
    assert seen == [(1, 3), (2, 3), (3, 3)]


def _nothing(path: Path) -> list:  # type: ignore[type-arg]
    return []


def test_map_files_in_workers_reports_each_file_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    files = [tmp_path / f"{n}.yaml" for n in range(4)]
    seen: list[tuple[int, int]] = []
    parallel.map_files(_nothing, files, jobs=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_check_says_where_the_reports_went_and_shows_no_progress_when_piped(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.delenv("CI", raising=False)
    assert main(["check", "--report-dir", "out"]) == 1
    captured = capsys.readouterr()
    assert "lessoncheck: reports written: out/report.html (open it in a browser), " in captured.out
    assert "out/report.sarif" in captured.out
    assert captured.err == ""  # stderr is not a terminal here: no progress line
    assert main(["check", "-q", "--report-dir", "out"]) == 1
    assert "reports written" not in capsys.readouterr().out


def test_check_on_a_terminal_shows_the_line_then_erases_it(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr("checkers.progress.DELAY", 0.0)  # as if the run were long
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["check"]) == 1
    shown = terminal.getvalue()
    assert shown.startswith("\rlessoncheck: 1 of 1 claim files checked (")
    assert shown.endswith(" \r")
    terminal.truncate(0)
    terminal.seek(0)
    assert main(["check", "-q"]) == 1
    assert terminal.getvalue() == ""
    capsys.readouterr()
