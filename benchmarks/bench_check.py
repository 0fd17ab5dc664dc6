"""``lessoncheck check`` without pytest: claims per second in-process (runner) and CLI wall."""

from __future__ import annotations

import os
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, cli, compare, median_seconds
from benchmarks.make_course import Course

__all__ = ["TARGET", "reset_caches", "run"]

TARGET = 10_000
"""Claims per second ``lessoncheck check`` should reach."""


def reset_caches() -> None:
    """Forget everything the checkers modules cached (lessons read, values derived
    and parsed), so each timed run starts as a fresh process would, imports aside."""
    for name, module in list(sys.modules.items()):
        if name != "checkers" and not name.startswith("checkers."):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


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
    command = [*cli(), "check", "claims", "-q"]
    timing = compare({"check": (command, (0, 1))}, course.root, repeats)["check"]
    rate, cli_rate = course.claims / seconds, course.claims / timing.wall
    return [
        Row(
            figure=f"`lessoncheck check`, in-process runner ({course.claims:,} claims)",
            value=f"{rate:,.0f} claims/s ({seconds:.2f} s)",
            target=f"≥ {TARGET:,} claims/s",
            met=rate >= TARGET,
        ),
        Row(
            figure=f"`lessoncheck check` CLI wall ({course.claims:,} claims)",
            value=f"{cli_rate:,.0f} claims/s ({timing.wall:.2f} s, CPU {timing.cpu:.2f} s)",
            target=f"≥ {TARGET:,} claims/s",
            met=cli_rate >= TARGET,
        ),
    ]


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("check")
