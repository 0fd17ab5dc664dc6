"""What the benchmark scripts share: timing, subprocesses, the machine, and the result table."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Row",
    "clean_env",
    "cli",
    "machine",
    "median_seconds",
    "median_wall",
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


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``run()`` over ``repeats`` calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def clean_env() -> dict[str, str]:
    """The environment for benchmark subprocesses: no CI annotations, no extra pytest options."""
    env = dict(os.environ)
    for name in ("GITHUB_ACTIONS", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONPROFILEIMPORTTIME"):
        env.pop(name, None)
    return env


def run_timed(
    command: Sequence[str], cwd: Path, *, ok: Sequence[int] = (0, 1), stderr: bool = False
) -> tuple[float, str]:
    """Run ``command`` and return (wall seconds, stdout — or stderr when asked)."""
    start = time.perf_counter()
    done = subprocess.run(
        list(command), cwd=cwd, env=clean_env(), capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode not in ok:
        raise RuntimeError(
            f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-2000:]}"
            f"\n{done.stderr[-2000:]}"
        )
    return wall, done.stderr if stderr else done.stdout


def median_wall(
    command: Sequence[str], cwd: Path, repeats: int, *, ok: Sequence[int] = (0, 1)
) -> float:
    """Median wall time of a subprocess over ``repeats`` runs."""
    return statistics.median(run_timed(command, cwd, ok=ok)[0] for _ in range(repeats))


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
