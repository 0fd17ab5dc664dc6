"""``pytest claims/`` per claim, against plain pytest running as many trivial tests (the floor).

Both run in subprocesses with the same flags (``-q -p no:cacheprovider``); the floor also
disables the lessoncheck plugin (``-p no:lessoncheck``), so it is pytest alone.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, compare, pytest_command, run_timed
from benchmarks.make_course import Course

__all__ = ["TARGET", "run", "write_floor"]

TARGET = 1.2
"""Most the per-claim cost may be, as a multiple of plain pytest's per-test cost."""

_FLOOR = """import pytest


@pytest.mark.parametrize("i", range({count}))
def test_item(i):
    pass
"""


def write_floor(folder: Path, count: int) -> Path:
    """A test file of ``count`` trivial parametrized tests."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "test_floor.py"
    path.write_text(_FLOOR.format(count=count), encoding="utf-8")
    return path


def _failed(output: str) -> int:
    found = re.search(r"(\d+) failed", output)
    return int(found.group(1)) if found else 0


def run(course: Course, repeats: int) -> list[Row]:
    """Time both runs ``repeats`` times; one row with the per-item medians and their ratio."""
    root = course.root
    floor = write_floor(root / "floor", course.claims)
    claims_command = pytest_command("claims")
    floor_command = pytest_command(str(floor.relative_to(root)), "-p", "no:lessoncheck")
    _, output = run_timed(claims_command, root)  # check the outcome first
    if _failed(output) != len(course.failing):
        raise RuntimeError(f"expected {len(course.failing)} failing claims:\n{output[-3000:]}")
    timings = compare(
        {"claims": (claims_command, (0, 1)), "floor": (floor_command, (0,))}, root, repeats
    )
    claims, plain = timings["claims"], timings["floor"]
    count = course.claims
    ratio = claims.wall / plain.wall
    return [
        Row(
            figure=f"`pytest claims/`, per claim ({count:,} claims)",
            value=f"{claims.wall / count * 1e6:.0f} µs, CPU {claims.cpu / count * 1e6:.0f} µs",
            baseline=(
                f"{plain.wall / count * 1e6:.0f} µs, CPU {plain.cpu / count * 1e6:.0f} µs: "
                "plain pytest, as many trivial tests"
            ),
            ratio=f"{ratio:.2f}× (CPU {claims.cpu / plain.cpu:.2f}×)",
            target=f"≤ {TARGET}×",
            met=ratio <= TARGET,
        )
    ]


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("pytest")
