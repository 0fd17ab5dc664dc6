"""Start-up: a one-lesson, 10-claim run, wall time, and what it imports.

``pytest`` is compared with plain pytest running 10 trivial tests in the same environment:
its own start-up (and that of installed plugins such as hypothesis's) is not lessoncheck's.

``python -X importtime`` shows every module a run imports. Heavy libraries are imported only
when a claim needs them: sympy only for ``statistic`` claims, jinja2 only for the HTML report,
markdown-it only for ``scan``/``extract``.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_pytest import write_floor
from benchmarks.common import Row, cli, compare, pytest_command, run_timed
from benchmarks.make_course import Course, load_cases, make_course

__all__ = ["HEAVY", "TARGET_SECONDS", "imports", "run"]

TARGET_SECONDS = 0.5
"""Most a 10-claim lesson may take to check, wall time."""

HEAVY = ("sympy", "mpmath", "numpy", "jinja2", "markdown_it", "pydantic", "yaml")
"""Libraries whose import is worth reporting."""


def imports(course: Course) -> tuple[float, dict[str, float]]:
    """(total import seconds, cumulative seconds per top-level package) of ``lessoncheck check``."""
    command = [sys.executable, "-X", "importtime", "-m", "checkers", "check", "claims", "-q"]
    _, log = run_timed(command, course.root, stderr=True)
    total = 0.0
    packages: dict[str, float] = {}
    for line in log.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, own, cumulative, name = (part.strip() for part in line.replace(":", "|", 1).split("|"))
        total += int(own) / 1e6
        if "." not in name:  # a package (or plain module), wherever it was first imported
            packages[name] = packages.get(name, 0.0) + int(cumulative) / 1e6
    return total, packages


def _heavy(packages: dict[str, float]) -> str:
    found = [f"{name} {packages[name] * 1e3:.0f} ms" for name in HEAVY if name in packages]
    return ", ".join(found) or "none"


def run(workdir: Path, repeats: int) -> list[Row]:
    """Rows: CLI and pytest wall for 10 claims; imports without and with a sympy claim."""
    course = make_course(workdir / "startup", lessons=1, claims=10)
    cases = load_cases()
    sympy_course = make_course(
        workdir / "startup-statistic",
        lessons=1,
        claims=2,
        cases={"statistic": cases["statistic"]},
    )
    floor = write_floor(course.root / "floor", course.claims)
    floor_command = pytest_command(str(floor.relative_to(course.root)), "-p", "no:lessoncheck")
    timings = compare(
        {
            "check": ([*cli(), "check", "claims", "-q"], (0, 1)),
            "pytest": (pytest_command("claims"), (0, 1)),
            "floor": (floor_command, (0,)),
        },
        course.root,
        repeats,
    )
    check_wall, pytest_wall = timings["check"].wall, timings["pytest"].wall
    floor_wall = timings["floor"].wall
    above = pytest_wall - floor_wall
    total, packages = imports(course)
    _, with_sympy = imports(sympy_course)
    kinds = ", ".join(sorted(course.kinds))
    return [
        Row(
            figure="`lessoncheck check`, one lesson of 10 claims, wall",
            value=f"{check_wall:.2f} s (CPU {timings['check'].cpu:.2f} s)",
            target=f"< {TARGET_SECONDS} s",
            met=check_wall < TARGET_SECONDS,
        ),
        Row(
            figure="`pytest claims/`, one lesson of 10 claims, wall",
            value=f"{pytest_wall:.2f} s ({above:+.2f} s)",
            baseline=f"{floor_wall:.2f} s: plain pytest, 10 trivial tests",
            ratio=f"{pytest_wall / floor_wall:.2f}×",
            target=f"< {TARGET_SECONDS} s above plain pytest",
            met=above < TARGET_SECONDS,
        ),
        Row(
            figure=f"imports of that run (kinds {kinds})",
            value=f"{total * 1e3:.0f} ms in all; {_heavy(packages)}",
            target="no sympy",
            met="sympy" not in packages,
        ),
        Row(
            figure="imports of a run with `statistic` claims",
            value=f"{_heavy(with_sympy)}",
            target="sympy (needed)",
            met="sympy" in with_sympy,
        ),
    ]


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("startup")
