"""``lessoncheck check`` without pytest: claims per second in-process (runner) and CLI wall."""

from __future__ import annotations

import os
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, cli, median_seconds, median_wall
from benchmarks.make_course import Course

__all__ = ["TARGET", "reset_caches", "run"]

TARGET = 10_000
"""Claims per second ``lessoncheck check`` should reach."""


def reset_caches() -> None:
    """Forget lessons read and outcomes computed, so each timed run starts from the files."""
    from checkers import anchors, runner

    for holder, name in ((anchors, "_load"), (anchors, "load_lesson")):
        clear = getattr(getattr(holder, name, None), "cache_clear", None)
        if clear is not None:
            clear()
    runs = getattr(runner, "_RUNS", None)
    if isinstance(runs, dict):
        runs.clear()


def run(course: Course, repeats: int) -> list[Row]:
    """Rows for the in-process runner and for the command line."""
    from checkers.runner import run_paths

    claims_dir = course.root / "claims"
    here = Path.cwd()
    os.chdir(course.root)
    try:
        findings = run_paths([claims_dir])  # warm-up: imports, kind caches
        failed = {
            f"claims/{Path(f.claims_file).name}::{f.id}" for f in findings if f.verdict != "pass"
        }
        if failed != course.failing:
            raise RuntimeError(f"unexpected verdicts: {sorted(failed ^ course.failing)[:10]}")

        def once() -> None:
            reset_caches()
            run_paths([claims_dir])

        seconds = median_seconds(once, repeats)
    finally:
        os.chdir(here)
    wall = median_wall([*cli(), "check", "claims", "-q"], course.root, repeats)
    rate, cli_rate = course.claims / seconds, course.claims / wall
    return [
        Row(
            figure=f"`lessoncheck check`, in-process runner ({course.claims:,} claims)",
            value=f"{rate:,.0f} claims/s ({seconds:.2f} s)",
            target=f"≥ {TARGET:,} claims/s",
            met=rate >= TARGET,
        ),
        Row(
            figure=f"`lessoncheck check` CLI wall ({course.claims:,} claims)",
            value=f"{cli_rate:,.0f} claims/s ({wall:.2f} s)",
            target=f"≥ {TARGET:,} claims/s",
            met=cli_rate >= TARGET,
        ),
    ]


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("check")
