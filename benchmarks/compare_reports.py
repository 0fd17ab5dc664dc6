"""Compare what two versions of lessoncheck report on this repository's own course.

``python benchmarks/compare_reports.py REV`` checks out ``REV`` into a temporary git worktree and
runs, there and in the working tree, with the same interpreter and the same hash seed:

* ``pytest claims/ --report-dir DIR`` (the main job: report.json, .md, .html, .sarif);
* ``lessoncheck scan content/*.md --json FILE`` (claims drafted and checked in memory);
* ``lessoncheck fix --diff`` (what ``fix`` would rewrite);
* with ``--corpus``, ``pytest tests/test_corpus.py -s`` (the corpus figures the README carries).

It prints, for each output, whether the two are byte-identical (and the first differing line
when not), and exits 1 when ``report.json`` or the scan report differ: a refactoring that keeps
every behaviour must leave them alone. Each version runs from its own source tree (``PYTHONPATH``
first), so the installed package decides nothing.
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["main", "outputs"]

ROOT = Path(__file__).resolve().parent.parent
MUST_MATCH = ("report.json", "scan.json")
"""Outputs whose difference fails the comparison (the JSON contract)."""


def _run(tree: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    env.pop("GITHUB_ACTIONS", None)  # no workflow commands in the outputs compared
    return subprocess.run(
        [sys.executable, *command],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def _corpus_figures(output: str) -> str:
    """The figure lines ``tests/test_corpus.py -s`` prints (its table), without pytest's own."""
    keep = [line for line in output.splitlines() if line.startswith(("|", "False", "Missed"))]
    return "\n".join(keep) + "\n"


def outputs(tree: Path, scratch: Path, *, corpus: bool) -> dict[str, str]:
    """Every compared output of the version in ``tree`` (files written under ``scratch``)."""
    where = _run(tree, ["-c", "import checkers; print(checkers.__file__)"]).stdout.strip()
    if not Path(where).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"{tree}: imports checkers from {where}, not from its own tree")
    reports = scratch / "reports"
    scan = scratch / "scan.json"
    _run(
        tree,
        ["-m", "pytest", "claims/", "-q", "-p", "no:cacheprovider", "--report-dir", str(reports)],
    )
    lessons = sorted(str(p.relative_to(tree)) for p in (tree / "content").glob("*.md"))
    _run(tree, ["-m", "checkers", "scan", "-q", "--json", str(scan), *lessons])
    found = {
        name: (reports / name).read_text(encoding="utf-8")
        for name in ("report.json", "report.md", "report.html", "report.sarif")
        if (reports / name).exists()
    }
    if scan.exists():
        found["scan.json"] = scan.read_text(encoding="utf-8")
    found["fix --diff"] = _run(tree, ["-m", "checkers", "fix", "--diff"]).stdout
    if corpus:
        done = _run(
            tree, ["-m", "pytest", "tests/test_corpus.py", "-s", "-q", "-p", "no:cacheprovider"]
        )
        found["corpus figures"] = _corpus_figures(done.stdout)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="git revision to compare the working tree with")
    parser.add_argument("--corpus", action="store_true", help="also compare the corpus figures")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lessoncheck-compare-") as temporary:
        base = Path(temporary) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(base), args.rev],
            cwd=ROOT,
            check=True,
        )
        try:
            before = outputs(base, Path(temporary) / "out-base", corpus=args.corpus)
            after = outputs(ROOT, Path(temporary) / "out-tree", corpus=args.corpus)
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False
            )
    failed = False
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old is None or new is None:
            print(f"{name:16} missing in {'the revision' if old is None else 'the working tree'}")
            failed |= name in MUST_MATCH
            continue
        if old == new:
            print(f"{name:16} identical ({len(new.encode('utf-8')):,} bytes)")
            continue
        failed |= name in MUST_MATCH
        first = next(
            (
                line
                for line in difflib.unified_diff(old.splitlines(), new.splitlines(), n=0)
                if line[:1] in "+-" and not line.startswith(("+++", "---"))
            ),
            "",
        )
        print(f"{name:16} DIFFERENT: {first[:200]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
