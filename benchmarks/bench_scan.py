"""``lessoncheck scan`` of a ~1 MB lesson against markdown-it-py merely parsing the same text.

Both in this process: the command as ``lessoncheck scan -q`` runs it (:func:`checkers.cli.main`,
output discarded), imports already done; the parser is configured as
:mod:`checkers.extract.document` configures it (CommonMark, tables, ``$…$`` math, front matter),
so the floor is the parse a scan cannot avoid. The command sets the garbage collector's
threshold for its process, so the floor is timed after it did, under the same setting.
"""

from __future__ import annotations

import contextlib
import gc
import io
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_check import reset_caches
from benchmarks.common import Row, median_seconds
from benchmarks.make_course import make_big_lesson

__all__ = ["TARGET", "run"]

TARGET = 3.0
"""Most a scan may take, as a multiple of parsing the lesson."""


def run(workdir: Path, repeats: int, *, size: int = 990_000) -> list[Row]:
    """Two rows, scan time against parse time: with Python's default garbage-collector
    settings (the library call :func:`checkers.scan.scan_lesson`), and with the setting the
    ``lessoncheck`` command gives its own process (the command itself). The collector's
    threshold changes the parse more than the scan, so each pair is timed under one setting."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    from checkers.cli import main
    from checkers.scan import scan_lesson

    lesson = make_big_lesson(workdir / "content" / "big.md", size=size)
    text = lesson.read_text(encoding="utf-8")
    parser = (
        MarkdownIt("commonmark", {"html": False})
        .enable("table")
        .use(dollarmath_plugin)
        .use(front_matter_plugin)
    )
    parser.parse(text)
    findings = scan_lesson(lesson)  # warm-up
    unread = [f.message for f in findings if f.id == "(lesson)"]
    if unread or not findings:
        raise RuntimeError(f"scan found nothing to check: {unread[:1]}")
    failed = sum(f.verdict != "pass" for f in findings)
    what = (
        f"`lessoncheck scan`, {lesson.stat().st_size / 1e6:.1f} MB lesson "
        f"({len(findings):,} drafts, {failed} not passing)"
    )

    def library() -> None:
        reset_caches()
        scan_lesson(lesson)

    def command() -> None:
        reset_caches()
        with contextlib.redirect_stdout(io.StringIO()):
            main(["scan", "-q", str(lesson)])

    default = gc.get_threshold()
    rows = []
    try:
        for setting, scan in (("default GC", library), ("GC as the command sets it", command)):
            gc.set_threshold(*default)
            scan()  # warm-up; the command also sets its GC threshold, which the parse then shares
            parse_seconds = median_seconds(lambda: parser.parse(text), repeats)
            scan_seconds = median_seconds(scan, repeats)
            ratio = scan_seconds / parse_seconds
            rows.append(
                Row(
                    figure=f"{what}, {setting}",
                    value=f"{scan_seconds:.2f} s",
                    baseline=f"{parse_seconds:.2f} s: markdown-it-py parse",
                    ratio=f"{ratio:.1f}×",
                    target=f"≤ {TARGET:g}×",
                    met=ratio <= TARGET,
                )
            )
    finally:
        gc.set_threshold(*default)
    return rows


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("scan")
