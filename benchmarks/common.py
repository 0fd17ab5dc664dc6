"""What the benchmark scripts share: timing, subprocesses, the machine, and the result table.

Wall time is what the targets are about, but a shared machine makes it noisy: runs that are
compared are interleaved (A, B, A, B, …) so that background load hits both alike, every
subprocess figure also carries its CPU time (user + system of the whole process tree, which
load from elsewhere barely changes), and the table's caption states how busy the CPUs were
with other work just before the run.
"""

from __future__ import annotations

import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Row",
    "Timing",
    "background_load",
    "clean_env",
    "cli",
    "compare",
    "machine",
    "median_seconds",
    "medians",
    "pytest_command",
    "run_timed",
    "table",
]


@dataclass(frozen=True)
class Row:
    """One figure of the table, with its floor and target."""

    figure: str
    """What was measured."""
    value: str
    """The measurement (median)."""
    baseline: str = ""
    """The floor it is compared with (median), when there is one."""
    ratio: str = ""
    """value / baseline (or the speed-up), as the target states it."""
    target: str = ""
    """What the figure should be."""
    met: bool | None = None
    """Whether the target is met (None when the row has no target)."""


@dataclass(frozen=True)
class Timing:
    """Medians of one command's runs."""

    wall: float
    """Wall-clock seconds."""
    cpu: float
    """CPU seconds (user + system) of the process and everything it waited for."""


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``run()`` over ``repeats`` calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def clean_env() -> dict[str, str]:
    """The environment for benchmark subprocesses: no CI annotations, no extra pytest options,
    and bytecode caches written and read as on a normal install (a sandbox that sets
    PYTHONDONTWRITEBYTECODE would otherwise compile, and pytest assertion-rewrite, every
    lessoncheck module at each start; the untimed warm-up round fills the caches)."""
    env = dict(os.environ)
    for name in (
        "GITHUB_ACTIONS",
        "PYTEST_ADDOPTS",
        "PYTEST_PLUGINS",
        "PYTHONPROFILEIMPORTTIME",
        "PYTHONDONTWRITEBYTECODE",
    ):
        env.pop(name, None)
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(
    command: Sequence[str], cwd: Path, *, ok: Sequence[int] = (0, 1), stderr: bool = False
) -> tuple[Timing, str]:
    """Run ``command``; its (wall, CPU) seconds and its stdout (or stderr when asked)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        list(command), cwd=cwd, env=clean_env(), capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    if done.returncode not in ok:
        raise RuntimeError(
            f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-2000:]}"
            f"\n{done.stderr[-2000:]}"
        )
    return Timing(wall, cpu), done.stderr if stderr else done.stdout


def compare(
    commands: Mapping[str, tuple[Sequence[str], Sequence[int]]], cwd: Path, repeats: int
) -> dict[str, Timing]:
    """Median timings of several commands (name → (command, accepted exit codes)), run in
    turn ``repeats`` times after one untimed warm-up round."""
    runs: dict[str, list[Timing]] = {name: [] for name in commands}
    for round_ in range(repeats + 1):
        for name, (command, ok) in commands.items():
            timing, _ = run_timed(command, cwd, ok=ok)
            if round_:
                runs[name].append(timing)
    return medians(runs)


def medians(runs: Mapping[str, Sequence[Timing]]) -> dict[str, Timing]:
    """The median wall and CPU time of each name's runs."""
    return {
        name: Timing(
            statistics.median(t.wall for t in timings), statistics.median(t.cpu for t in timings)
        )
        for name, timings in runs.items()
    }


def cli() -> list[str]:
    """The ``lessoncheck`` console script of this interpreter's environment."""
    script = Path(sys.executable).parent / "lessoncheck"
    if script.exists():
        return [str(script)]
    found = shutil.which("lessoncheck")
    return [found] if found else [sys.executable, "-m", "checkers"]


def pytest_command(*args: str) -> list[str]:
    """``python -m pytest ARGS -q -p no:cacheprovider`` with this interpreter."""
    return [sys.executable, "-m", "pytest", *args, "-q", "-p", "no:cacheprovider"]


def _cpu_counts() -> tuple[int, int] | None:
    try:
        fields = Path("/proc/stat").read_text(encoding="utf-8").splitlines()[0].split()[1:]
    except (OSError, IndexError):
        return None
    values = [int(v) for v in fields]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return sum(values) - idle, sum(values)


def background_load(seconds: float = 2.0) -> float | None:
    """Fraction of all CPUs busy with other work while this process sleeps (Linux only)."""
    before = _cpu_counts()
    time.sleep(seconds)
    after = _cpu_counts()
    if before is None or after is None or after[1] == before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def machine() -> str:
    """CPUs available, CPU model and Python version, for the table's caption."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 0
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpus} CPUs (nproc), {model}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.machine()}"
    )


def table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [
        "| figure | value | baseline | ratio | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        met = "" if row.met is None else ("yes" if row.met else "**no**")
        lines.append(
            f"| {row.figure} | {row.value} | {row.baseline} | {row.ratio} | {row.target} | {met} |"
        )
    return "\n".join(lines)
