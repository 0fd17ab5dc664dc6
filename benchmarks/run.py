"""Run every benchmark and print one Markdown table: figure, baseline, ratio, target.

``python benchmarks/run.py`` times 10,000 claims in 100 lessons and a 1 MB lesson, medians of 5
runs (a few minutes); ``--quick`` uses 2,000 claims and medians of 3. ``--only`` picks benchmarks
(``pytest``, ``check``, ``scan``, ``startup``, ``xdist``, ``fix``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, background_load, machine, table
from benchmarks.make_course import Course, make_course

__all__ = ["BENCHMARKS", "main", "run_all", "standalone"]

BENCHMARKS = ("pytest", "check", "scan", "startup", "xdist", "fix")
"""Benchmark names, in the order of the table."""


def run_all(
    workdir: Path, *, quick: bool, only: Sequence[str] = BENCHMARKS, log: bool = True
) -> list[Row]:
    """Generate the courses under ``workdir`` and run the chosen benchmarks."""
    from benchmarks import (
        bench_check,
        bench_fix,
        bench_pytest,
        bench_scan,
        bench_startup,
        bench_xdist,
    )

    repeats = 3 if quick else 5
    claims, lessons = (2_000, 20) if quick else (10_000, 100)
    course: Course | None = None
    if set(only) & {"pytest", "check", "xdist"}:
        course = make_course(workdir / "course", lessons=lessons, claims=claims)
    rows: list[Row] = []
    for name in only:
        started = time.perf_counter()
        found: list[Row] = []
        try:
            if name == "pytest" and course is not None:
                found = bench_pytest.run(course, repeats)
            elif name == "check" and course is not None:
                found = bench_check.run(course, repeats)
            elif name == "scan":
                found = bench_scan.run(workdir / "scan", repeats)
            elif name == "startup":
                found = bench_startup.run(workdir, repeats)
            elif name == "xdist" and course is not None:
                found = bench_xdist.run(course, repeats)
            elif name == "fix":
                found = bench_fix.run(workdir / "fix", repeats)
        except Exception as problem:  # one broken benchmark must not lose the others' figures
            first = str(problem).strip().splitlines()[:1] or [type(problem).__name__]
            found = [Row(figure=f"{name} benchmark", value=f"failed: {first[0][:200]}", met=False)]
        rows += found
        if log:
            print(f"[{name}: {time.perf_counter() - started:.0f} s]", file=sys.stderr)
            print(table(found), file=sys.stderr)
    return rows


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="smaller course, medians of 3")
    parser.add_argument("--only", nargs="+", choices=BENCHMARKS, default=list(BENCHMARKS))
    parser.add_argument("--keep", type=Path, metavar="DIR", help="generate into DIR and keep it")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the machine and the table; exit 1 when a target is missed."""
    args = _arguments(argv)
    load_before = background_load()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        rows = run_all(args.keep, quick=args.quick, only=args.only)
    else:
        with tempfile.TemporaryDirectory(prefix="lessoncheck-bench-") as folder:
            rows = run_all(Path(folder), quick=args.quick, only=args.only)
    mode = "quick: 2,000 claims, medians of 3" if args.quick else "10,000 claims, medians of 5"
    loads = [load for load in (load_before, background_load()) if load is not None]
    busy = " and ".join(f"{load:.0%}" for load in loads)
    print(f"Machine: {machine()}; {mode}")
    if busy:
        print(f"CPUs busy with other work before and after the run: {busy}")
    print()
    print(table(rows))
    return 0 if all(row.met is not False for row in rows) else 1


def standalone(name: str) -> None:
    """Entry point of one ``bench_*.py`` script run on its own."""
    argv = [arg for arg in sys.argv[1:]]
    raise SystemExit(main([*argv, "--only", name]))


if __name__ == "__main__":
    raise SystemExit(main())
