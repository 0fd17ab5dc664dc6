"""``pytest claims/ -n 2`` against ``-n 0``, and the JSON reports of both, byte for byte.

For scale, plain pytest's own gain from ``-n 2`` on as many trivial tests is measured too: it is
the most xdist can give items that cost almost nothing on this machine (each worker collects
everything, and the controller handles every report).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_pytest import write_floor
from benchmarks.common import Row, compare, pytest_command
from benchmarks.make_course import Course

__all__ = ["TARGET", "run"]

TARGET = 1.6
"""Least speed-up of two workers over a serial run."""


def run(course: Course, repeats: int, *, workers: int = 2) -> list[Row]:
    """Rows: the speed-up, and whether the two reports are identical."""
    root = course.root
    serial_dir, parallel_dir = root / "report-n0", root / "report-n2"
    for folder in (serial_dir, parallel_dir):
        shutil.rmtree(folder, ignore_errors=True)
    serial_command = pytest_command("claims", "-n", "0", "--report-dir", serial_dir.name)
    parallel_command = pytest_command(
        "claims", "-n", str(workers), "--report-dir", parallel_dir.name
    )
    floor = str(write_floor(root / "floor", course.claims).relative_to(root))
    plain = ("-p", "no:lessoncheck")
    timings = compare(
        {
            "serial": (serial_command, (0, 1)),
            "parallel": (parallel_command, (0, 1)),
            "floor serial": (pytest_command(floor, "-n", "0", *plain), (0,)),
            "floor parallel": (pytest_command(floor, "-n", str(workers), *plain), (0,)),
        },
        root,
        repeats,
    )
    serial, parallel = timings["serial"], timings["parallel"]
    floor_serial, floor_parallel = timings["floor serial"], timings["floor parallel"]
    speedup = serial.wall / parallel.wall
    reports = [folder / "report.json" for folder in (serial_dir, parallel_dir)]
    missing = [str(path.relative_to(root)) for path in reports if not path.is_file()]
    if missing:
        raise RuntimeError(f"no report written: {', '.join(missing)}")
    same = reports[0].read_bytes() == reports[1].read_bytes()
    return [
        Row(
            figure=f"`pytest claims/ -n {workers}` ({course.claims:,} claims)",
            value=f"{parallel.wall:.2f} s (CPU {parallel.cpu:.2f} s)",
            baseline=f"{serial.wall:.2f} s (CPU {serial.cpu:.2f} s): `-n 0`",
            ratio=f"{speedup:.2f}× faster",
            target=f"≥ {TARGET}× faster",
            met=speedup >= TARGET,
        ),
        Row(
            figure=f"plain pytest `-n {workers}` on {course.claims:,} trivial tests (for scale)",
            value=f"{floor_parallel.wall:.2f} s (CPU {floor_parallel.cpu:.2f} s)",
            baseline=f"{floor_serial.wall:.2f} s (CPU {floor_serial.cpu:.2f} s): `-n 0`",
            ratio=f"{floor_serial.wall / floor_parallel.wall:.2f}× faster",
        ),
        Row(
            figure=f"`report.json` of `-n {workers}` and `-n 0`",
            value="identical" if same else "different",
            target="identical bytes",
            met=same,
        ),
    ]


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("xdist")
