"""``lessoncheck scan`` of a ~1 MB lesson against markdown-it-py merely parsing the same text.

Both in this process; the parser is configured as :mod:`checkers.extract.document` configures it
(CommonMark, tables, ``$…$`` math, front matter), so the floor is the parse a scan cannot avoid.
"""

from __future__ import annotations

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
    """One row: scan time, parse time, ratio."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

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

    def scan() -> None:
        reset_caches()
        scan_lesson(lesson)

    parse_seconds = median_seconds(lambda: parser.parse(text), repeats)
    scan_seconds = median_seconds(scan, repeats)
    ratio = scan_seconds / parse_seconds
    failed = sum(f.verdict != "pass" for f in findings)
    return [
        Row(
            figure=(
                f"`lessoncheck scan`, {lesson.stat().st_size / 1e6:.1f} MB lesson "
                f"({len(findings):,} drafts, {failed} not passing)"
            ),
            value=f"{scan_seconds:.2f} s",
            baseline=f"{parse_seconds:.2f} s: markdown-it-py parse",
            ratio=f"{ratio:.1f}×",
            target=f"≤ {TARGET:g}×",
            met=ratio <= TARGET,
        )
    ]


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("scan")
