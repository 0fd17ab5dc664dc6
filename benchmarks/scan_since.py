"""``lessoncheck scan`` on the real corpus by an earlier version and by this one, in one run.

``python benchmarks/scan_since.py [REV] [--corpus PATH] [--repeats N] [--python PY]`` checks out
``REV`` (default :data:`PRECISION_ISSUE_START`) into a temporary git worktree, installs it into
a temporary virtual environment (its own dependencies, which were not always this version's),
and times ``lessoncheck scan -j 1 -q`` on every ``*.md`` under ``PATH/files`` (default
``../shared/realworld``) with each version, interleaved (REV, this tree, REV, …) after one
untimed warm-up round so that load from elsewhere hits both alike. It prints the medians of wall
and CPU time (user + system of the process, start-up included for both), each version's summary
line, and the ratio of this version's time to REV's.

This is how "scan takes no more than today's time" is measured: the same files, the same
machine, the same moment, the two programs as a user would run them (one worker each, so a
second CPU helps neither). ``--python`` names an interpreter that already has REV's
dependencies, to skip the install (REV's source still comes first on its path).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Timing, machine, medians, run_timed

__all__ = ["PRECISION_ISSUE_START", "main"]

ROOT = Path(__file__).resolve().parent.parent
PRECISION_ISSUE_START = "a6b3431"
"""``main`` when the precision issue ("never cry wolf on real lessons") was filed: the version
whose scan time that issue's acceptance says scan must not exceed."""
DEFAULT_CORPUS = Path("../shared/realworld")
_OK = (0, 1, 2)
"""Exit codes of a finished scan: 0 nothing wrong, 1 a number is wrong, 2 a lesson it could
not read (an earlier version refuses some real lessons that this one reads)."""


def _interpreter(tree: Path, scratch: Path, given: str | None) -> tuple[str, dict[str, str]]:
    """The Python that runs REV's tree, and the environment additions that make it do so."""
    if given:
        return given, {"PYTHONPATH": str(tree)}
    venv = scratch / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(tree)],
        check=True,
    )
    return python, {}


def _scan_command(python: str, files: Sequence[str], extra_env: dict[str, str]) -> list[str]:
    """``env VARS python -m checkers scan -j 1 -q FILES`` as one argument list."""
    assignments = [f"{name}={value}" for name, value in extra_env.items()]
    env = ["env", *assignments] if assignments else []
    return [*env, python, "-m", "checkers", "scan", "-j", "1", "-q", *files]


def main(argv: Sequence[str] | None = None) -> int:
    """Time both versions' scans of the corpus; print the medians and their ratio."""
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("rev", nargs="?", default=PRECISION_ISSUE_START)
    options.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    options.add_argument("--repeats", type=int, default=3, help="timed runs of each (median)")
    options.add_argument("--python", help="an interpreter with REV's dependencies installed")
    args = options.parse_args(argv)
    corpus: Path = args.corpus.resolve()
    if args.corpus == DEFAULT_CORPUS and not corpus.is_dir():
        corpus = (ROOT / ".." / DEFAULT_CORPUS).resolve()
    files_root = corpus / "files"
    if not files_root.is_dir():
        print(f"{files_root}: no such folder (expected the corpus's files/)", file=sys.stderr)
        return 2
    files = sorted(str(path.relative_to(files_root)) for path in files_root.rglob("*.md"))
    with tempfile.TemporaryDirectory() as temporary:
        scratch = Path(temporary)
        tree = scratch / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach", str(tree), args.rev],
            check=True,
        )
        try:
            python, rev_env = _interpreter(tree, scratch, args.python)
            commands = {
                args.rev: _scan_command(python, files, rev_env),
                "this tree": _scan_command(sys.executable, files, {"PYTHONPATH": str(ROOT)}),
            }
            runs: dict[str, list[Timing]] = {name: [] for name in commands}
            summaries: dict[str, str] = {}
            for round_ in range(max(args.repeats, 1) + 1):  # round 0 warms the caches
                for name, command in commands.items():
                    timing, output = run_timed(command, files_root, ok=_OK)
                    summaries[name] = (output.strip().splitlines() or [""])[-1]
                    if round_:
                        runs[name].append(timing)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )
    timed = medians(runs)
    before, now = timed[args.rev], timed["this tree"]
    print(f"{len(files)} files; {machine()}; medians of {len(runs[args.rev])} interleaved runs")
    for name, timing in timed.items():
        print(f"  {name}: wall {timing.wall:.2f} s, CPU {timing.cpu:.2f} s — {summaries[name]}")
    print(
        f"this tree / {args.rev}: wall {now.wall / before.wall:.2f}×, CPU "
        f"{now.cpu / before.cpu:.2f}× ({'not more' if now.cpu <= before.cpu else 'MORE'} than "
        f"{args.rev}'s CPU time)"
    )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
