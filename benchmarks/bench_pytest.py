"""``pytest claims/`` per claim, against plain pytest running as many trivial tests (the floor).

Both run in subprocesses with the same flags (``-q -p no:cacheprovider``); the floor also
disables the lessoncheck plugin (``-p no:lessoncheck``), so it is pytest alone. Two floors: all
tests passing, and as many failing as the course has failing claims (``pytest.fail`` with a
one-line message and no traceback, pytest's cheapest failure). pytest's own cost grows with
failures × tests (its failure summary looks for each failure's teardown report among all of
them), so only the second floor does the same work pytest does for the claims.
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
    if i < {failing}:
        pytest.fail(f"claim {{i}} does not hold: printed 0.38, recomputed 0.40", pytrace=False)
"""


def write_floor(folder: Path, count: int, failing: int = 0, name: str = "test_floor.py") -> Path:
    """A test file of ``count`` trivial parametrized tests, the first ``failing`` of them
    failing."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(_FLOOR.format(count=count, failing=failing), encoding="utf-8")
    return path


def _failed(output: str) -> int:
    found = re.search(r"(\d+) failed", output)
    return int(found.group(1)) if found else 0


def run(course: Course, repeats: int) -> list[Row]:
    """Time the three runs ``repeats`` times; one row per floor with per-item medians and the
    ratio."""
    root = course.root
    count, failing = course.claims, len(course.failing)
    floors = {  # label → (test file, how many of its tests fail)
        "all passing": (write_floor(root / "floor", count), 0),
        f"{failing:,} failing": (
            write_floor(root / "floor", count, failing, name="test_floor_failing.py"),
            failing,
        ),
    }
    claims_command = pytest_command("claims")
    _, output = run_timed(claims_command, root)  # check the outcome first
    if _failed(output) != failing:
        raise RuntimeError(f"expected {failing} failing claims:\n{output[-3000:]}")
    commands = {"claims": (claims_command, (0, 1))}
    for label, (floor, fails) in floors.items():
        command = pytest_command(str(floor.relative_to(root)), "-p", "no:lessoncheck")
        commands[label] = (command, (1,) if fails else (0,))
    timings = compare(commands, root, repeats)
    claims = timings["claims"]
    rows = []
    for label in floors:
        plain = timings[label]
        ratio = claims.wall / plain.wall
        rows.append(
            Row(
                figure=f"`pytest claims/`, per claim ({count:,} claims, {failing:,} failing)",
                value=(
                    f"{claims.wall / count * 1e6:.0f} µs, CPU {claims.cpu / count * 1e6:.0f} µs"
                ),
                baseline=(
                    f"{plain.wall / count * 1e6:.0f} µs, CPU {plain.cpu / count * 1e6:.0f} µs: "
                    f"plain pytest, as many trivial tests, {label}"
                ),
                ratio=f"{ratio:.2f}× (CPU {claims.cpu / plain.cpu:.2f}×)",
                target=f"≤ {TARGET}×",
                met=ratio <= TARGET,
            )
        )
    return rows


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("pytest")
