"""``pytest claims/ -n 2`` against ``-n 0``, and the JSON reports of both, byte for byte."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, median_wall, pytest_command, run_timed
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
    run_timed(serial_command, root)
    run_timed(parallel_command, root)
    serial = median_wall(serial_command, root, repeats)
    parallel = median_wall(parallel_command, root, repeats)
    speedup = serial / parallel
    reports = [folder / "report.json" for folder in (serial_dir, parallel_dir)]
    missing = [str(path.relative_to(root)) for path in reports if not path.is_file()]
    if missing:
        raise RuntimeError(f"no report written: {', '.join(missing)}")
    same = reports[0].read_bytes() == reports[1].read_bytes()
    return [
        Row(
            figure=f"`pytest claims/ -n {workers}` ({course.claims:,} claims)",
            value=f"{parallel:.2f} s",
            baseline=f"{serial:.2f} s: `-n 0`",
            ratio=f"{speedup:.2f}× faster",
            target=f"≥ {TARGET}× faster",
            met=speedup >= TARGET,
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
