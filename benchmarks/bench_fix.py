"""``lessoncheck fix`` on one claim file of many failing claims, against ``check`` on it.

The course is one lesson of ``n`` independent worked sums, each printed wrong by 1
(``s7 = 7×0.5 + 0.25 = 4.75``), and one claim file with a claim for each, so every claim fails
and every fix is a plain number replacement. ``fix --diff`` plans and verifies all ``n`` rewrites;
``check`` only recomputes them. Before the planner indexed a round's lookups and applied its
edits together, ``fix`` grew with the square of the claims (100 / 200 / 400 / 800 claims: 1.1 /
3.3 / 17.9 / 88.9 s).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, cli, compare

__all__ = ["SIZES", "TARGET_RATIO", "make_fix_course", "run"]

SIZES = (100, 200, 400, 800)
"""Failing claims in the one claim file, smallest first."""
TARGET_RATIO = 5.0
"""``fix`` on the largest file may take at most this many times ``check`` on it."""


def make_fix_course(root: Path, claims: int) -> Path:
    """A project with one lesson of ``claims`` wrong sums and their claim file; returns it."""
    (root / "content").mkdir(parents=True, exist_ok=True)
    (root / "claims").mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    lesson = ["# Many worked sums", ""]
    yaml = ["lesson: content/sums.md", "claims:"]
    for index in range(claims):
        wrong = f"{index * 0.5 + 0.25 + 1:.2f}"
        quote = f"s{index} = {index}×0.5 + 0.25 = {wrong}"
        lesson += [quote, ""]
        yaml += [
            f"  - id: s{index}",
            "    kind: arithmetic",
            f'    quote: "{quote}"',
            f"    expression: {index}×0.5 + 0.25",
            f"    claimed: {wrong}",
        ]
    (root / "content" / "sums.md").write_text("\n".join(lesson) + "\n", encoding="utf-8")
    (root / "claims" / "sums.yaml").write_text("\n".join(yaml) + "\n", encoding="utf-8")
    return root


def run(workdir: Path, repeats: int, sizes: tuple[int, ...] = SIZES) -> list[Row]:
    """One row per size (fix and check, wall and CPU), the last with the target."""
    rows: list[Row] = []
    for size in sizes:
        root = make_fix_course(workdir / f"fix-{size}", size)
        timings = compare(
            {
                "fix": ([*cli(), "fix", "--diff"], (0,)),
                "check": ([*cli(), "check", "claims", "-q"], (1,)),
            },
            root,
            repeats,
        )
        fix, check = timings["fix"], timings["check"]
        last = size == sizes[-1]
        rows.append(
            Row(
                figure=f"`lessoncheck fix --diff`, {size} failing claims in one file",
                value=f"{fix.wall:.2f} s (CPU {fix.cpu:.2f} s)",
                baseline=f"{check.wall:.2f} s (CPU {check.cpu:.2f} s): `check` on the same file",
                ratio=f"{fix.wall / check.wall:.1f}× (CPU {fix.cpu / check.cpu:.1f}×)",
                target=f"≤ {TARGET_RATIO:g}×" if last else "",
                met=fix.wall <= TARGET_RATIO * check.wall if last else None,
            )
        )
    return rows


if __name__ == "__main__":
    from benchmarks.run import standalone

    standalone("fix")
