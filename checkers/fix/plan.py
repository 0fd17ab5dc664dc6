"""What ``fix`` reports: the rewrites, the claims left alone and why, the diff, the lines for
the terminal. Nothing here reads lessons or runs checks.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from checkers.files import write_all_or_none
from checkers.finding import Finding, summary_line

__all__ = ["FixPlan", "FixProblem", "NotFixed", "Rewrite", "describe", "display"]


class FixProblem(Exception):
    """Why a claim cannot be rewritten; the message is shown to the author."""


@dataclass(frozen=True)
class Rewrite:
    """One number rewritten in a lesson."""

    lesson: str
    """The lesson, as displayed (relative to the working folder when inside it)."""
    line: int
    """Lesson line of the number (before rewriting)."""
    old: str
    """The number as it was printed."""
    new: str
    """The number as it is now printed."""
    claim: str
    """``claims/x.yaml::id`` of the claim whose quote holds it."""


@dataclass(frozen=True)
class NotFixed:
    """A failing claim that ``fix`` leaves alone, and why."""

    claim: str
    """``claims/x.yaml::id``."""
    where: str
    """``content/x.md:12``."""
    kind: str
    """The claim kind."""
    reason: str
    """Why it was not rewritten."""


@dataclass
class FixPlan:
    """What ``fix`` would change (``--diff``) or changed (``--write``)."""

    originals: dict[Path, str]
    """Text of every file read, as read (BOM removed)."""
    texts: dict[Path, str]
    """New text of every file that changes."""
    boms: set[Path]
    """Files that started with a UTF-8 byte-order mark (kept when writing)."""
    fixed: list[str]
    """Claims that failed and hold after the rewrite."""
    carried: list[str]
    """Claims rewritten because an input they print changed (they hold after the rewrite)."""
    rewrites: list[Rewrite]
    """Every number rewritten in a lesson."""
    not_fixed: list[NotFixed]
    """Failing claims left alone, with the reason."""
    hints: list[str]
    """Numbers that changed and are still printed near by, outside every claim."""
    before: list[Finding]
    """Findings before the rewrite."""
    after: list[Finding]
    """Findings after the rewrite (what ``lessoncheck check`` will report)."""

    def changed_files(self) -> list[Path]:
        """Files that change: lessons first, then claim files, each sorted."""
        return sorted(self.texts, key=lambda p: (p.suffix in (".yaml", ".yml"), str(p)))

    def diff(self) -> str:
        """A unified diff (``a/`` and ``b/`` paths relative to the working folder)."""
        chunks: list[str] = []
        for path in self.changed_files():
            name = display(path)
            lines = difflib.unified_diff(
                _lines(self.originals[path]),
                _lines(self.texts[path]),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
            )
            for line in lines:
                chunks.append(
                    line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                )
        return "".join(chunks)

    def write(self) -> None:
        """Write every changed lesson and claim file, or none (:func:`write_all_or_none`):
        a lesson rewritten without its claim file would leave its claims stale."""
        write_all_or_none(
            {
                path: ("\ufeff" if path in self.boms else "") + self.texts[path]
                for path in self.changed_files()
            }
        )


def _lines(text: str) -> list[str]:
    """Lines ending at ``\n`` only, as ``patch`` and ``git apply`` count them."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def describe(plan: FixPlan, *, written: bool) -> list[str]:
    """Lines for the terminal: what was (or would be) rewritten, what was not and why."""

    verb = "rewrote" if written else "would rewrite"
    lines: list[str] = []
    if plan.texts:
        lessons = len({r.lesson for r in plan.rewrites})
        lines.append(
            f"{verb} {_count(len(plan.rewrites), 'number')} in {_count(lessons, 'lesson')}: "
            f"{_count(len(plan.fixed), 'failing claim')} fixed, {len(plan.carried)} carried along"
        )
    lines.extend(f"  fixed      {label}" for label in plan.fixed)
    lines.extend(f"  carried    {label} (a number it prints changed)" for label in plan.carried)
    lines.extend(
        f"  not fixed  {item.where}  {item.claim} ({item.kind}): {item.reason}"
        for item in plan.not_fixed
    )
    lines.extend(f"  hint       {hint}" for hint in plan.hints)
    prefix = "after the rewrite: " if plan.texts else "nothing to rewrite: "
    lines.append(prefix + summary_line(plan.after))
    return lines
