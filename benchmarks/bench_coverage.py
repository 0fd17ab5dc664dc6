"""``lessoncheck scan`` of a folder of lessons with and without ``--stats``, and the parse floor.

``python benchmarks/bench_coverage.py FOLDER [--repeats N]`` times, in this process and in
alternating rounds after one untimed warm-up round: markdown-it-py parsing every ``*.md`` under
FOLDER (configured as :mod:`checkers.extract.document` configures it), ``lessoncheck scan -q -j 1``
of the same files, and the same with ``--stats``. Each figure is a median of wall and CPU seconds
(CPU is what a busy machine distorts least). The command sets the garbage collector's threshold
for its process; the parse is timed after it did, under the same setting.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_check import reset_caches
from benchmarks.common import Timing, background_load, machine, medians

__all__ = ["main", "measure"]


def _timed(run: Callable[[], object]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu)


def measure(files: Sequence[Path], repeats: int) -> dict[str, Timing]:
    """Median timings of the parse, the scan and the scan with ``--stats`` of ``files``."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    from checkers.cli import main

    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    parser = (
        MarkdownIt("commonmark", {"html": False})
        .enable("table")
        .use(dollarmath_plugin)
        .use(front_matter_plugin)
    )
    names = [str(path) for path in files]

    def parse() -> None:
        for text in texts:
            parser.parse(text)

    def scan(*options: str) -> Callable[[], None]:
        def run() -> None:
            reset_caches()
            with contextlib.redirect_stdout(io.StringIO()):
                main(["scan", "-q", "-j", "1", *options, *names])

        return run

    runs = {"parse": parse, "scan": scan(), "scan --stats": scan("--stats")}
    timings: dict[str, list[Timing]] = {name: [] for name in runs}
    for round_ in range(repeats + 1):
        for name, run in runs.items():
            timing = _timed(run)
            if round_:
                timings[name].append(timing)
    return medians(timings)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the three timings and the ratios that matter, with the machine's state."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of lessons (*.md, searched deeply)")
    parser.add_argument("--repeats", type=int, default=3, help="timed rounds (default 3)")
    args = parser.parse_args(argv)
    files = sorted(args.folder.rglob("*.md"))
    if not files:
        print(f"no *.md under {args.folder}", file=sys.stderr)
        return 2
    busy = background_load()
    found = measure(files, args.repeats)
    print(f"{len(files)} lessons; {machine()}")
    if busy is not None:
        print(f"CPUs busy with other work before the run: {busy:.0%}")
    print("| run | wall (median) | CPU (median) | CPU ÷ parse |")
    print("|---|---:|---:|---:|")
    for name, timing in found.items():
        ratio = timing.cpu / found["parse"].cpu
        print(f"| {name} | {timing.wall:.2f} s | {timing.cpu:.2f} s | {ratio:.2f}× |")
    extra = found["scan --stats"].cpu / found["scan"].cpu - 1
    print(f"--stats costs {extra:+.0%} CPU over the scan")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
