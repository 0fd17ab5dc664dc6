"""``report.md``: the findings as GitHub-flavoured Markdown, ready to paste as a PR comment.

A title, the totals, a table of every claim that needs attention (where, quote, claimed,
recomputed, fix or problem) and a collapsed ``<details>`` list of claims that pass but carry an
upstream mistake. Lesson text arrives in pull requests, so every piece of it is escaped: it
cannot break the table, open a code span, inject HTML, render as math or mention anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote as url_quote

from checkers.files import write_atomic
from checkers.finding import Finding, summarize
from checkers.report import location, needs_attention, ordered
from checkers.report.text import inert, shorten

__all__ = ["MAX_ROWS", "escape", "link", "render", "write"]

MAX_ROWS = 100
"""Rows shown per table; GitHub refuses comments over 65,536 characters."""

QUOTE_WIDTH = 60
"""Longest quote or fix in a cell; longer ones keep their end, where the number is."""

_INHERITS = "inherits: "

_LABELS = {"fail": "❌ fail", "stale": "⚠️ stale", "error": "💥 error", "pass": "✅ pass"}

# Backslash-escaped: every ASCII character that can open an inline construct in GFM (emphasis,
# code, links, strikethrough, table cells, math on GitHub, @mentions). Block-level markers
# (#, -, +, 1.) are harmless inside a table cell and stay readable.
_BACKSLASHED = frozenset("\\`*_[]|~$@")
# As entities: raw HTML must never reach the renderer, and "&" so that "&lt;" stays literal.
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def escape(text: str) -> str:
    """Lesson or claim text made inert inside a Markdown table cell (one line, no markup).

    The job summary is this Markdown, so the text first goes through the output rule every
    printed text follows (:func:`checkers.report.text.inert`)."""
    flat = inert(" ".join(text.split()))
    out: list[str] = []
    for char in flat:
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
        elif char in _BACKSLASHED:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def link(finding: Finding, base: str = "") -> str:
    """``[content/x.md:130](content/x.md#L130)``; with ``base`` (a blob URL ending in ``/``)
    an absolute link that opens the source view at that line."""
    path, line, _ = location(finding)
    if not path:
        return "—"
    text = f"{path}:{line}" if line else path
    target = url_quote(path, safe="/")
    if base:
        # Rendered Markdown has no line anchors on GitHub; the plain view does.
        target = base + target + ("?plain=1" if path.endswith((".md", ".markdown")) else "")
    if line:
        target += f"#L{line}"
    return f"[{escape(text)}]({target})"


def _cell(text: str | None, width: int = QUOTE_WIDTH) -> str:
    return escape(shorten(text, width)) if text else "—"


def _totals(findings: Sequence[Finding]) -> str:
    counts = summarize(list(findings))
    return (
        f"{counts['pass']} passed, {counts['fail']} failed, {counts['stale']} stale, "
        f"{counts['error']} errors"
    )


def _problem_table(problems: list[Finding], base: str) -> list[str]:
    lines = [
        "| | Where | Quote | Claimed | Recomputed | Fix or problem |",
        "|---|---|---|---|---|---|",
    ]
    for finding in problems[:MAX_ROWS]:
        where = f"{link(finding, base)}<br>{escape(finding.id)}"
        # A fix is the whole answer for a wrong number; otherwise say what is wrong.
        remedy = _cell(finding.fix) if finding.fix else f"*{_cell(finding.message, 200)}*"
        lines.append(
            f"| {_LABELS[finding.verdict]} | {where} | {_cell(finding.quote)} "
            f"| {_cell(finding.claimed, 40)} | {_cell(finding.expected, 40)} | {remedy} |"
        )
    if len(problems) > MAX_ROWS:
        lines.append("")
        lines.append(f"… and {len(problems) - MAX_ROWS} more; see report.html for all of them.")
    return lines


def _inherited_section(carriers: list[Finding], base: str) -> list[str]:
    plural = "s" if len(carriers) != 1 else ""
    lines = [
        "<details>",
        f"<summary>{len(carriers)} claim{plural} pass but carry an upstream error</summary>",
        "",
        "| Where | Quote | Carries the error of | Note |",
        "|---|---|---|---|",
    ]
    for finding in carriers[:MAX_ROWS]:
        upstream = ", ".join(escape(name) for name in finding.inherits)
        # The runner states the carried error on its own in a detail line; the message repeats
        # the (passing) check first, which is noise here.
        note = next(
            (d.removeprefix(_INHERITS) for d in finding.details if d.startswith(_INHERITS)),
            finding.message,
        )
        lines.append(
            f"| {link(finding, base)}<br>{escape(finding.id)} | {_cell(finding.quote)} "
            f"| {upstream} | {_cell(note, 300)} |"
        )
    if len(carriers) > MAX_ROWS:
        lines.append("")
        lines.append(f"… and {len(carriers) - MAX_ROWS} more.")
    lines.extend(["", "</details>"])
    return lines


def render(findings: Sequence[Finding], link_base: str = "") -> str:
    """The Markdown report. ``link_base`` turns the relative lesson links into absolute ones
    (e.g. ``https://github.com/o/r/blob/<sha>/``)."""
    problems = needs_attention(findings)
    carriers = [f for f in ordered(findings) if f.verdict == "pass" and f.inherits]
    total = len(findings)
    lines = ["## lessoncheck report", ""]
    if not total:
        lines.append("No claims were checked.")
    elif problems:
        lines.append(
            f"❌ **{len(problems)} of {total} claims need attention** — {_totals(findings)}"
        )
    else:
        lines.append(f"✅ **All {total} claims hold** — {_totals(findings)}")
    if problems:
        lines.append("")
        lines.extend(_problem_table(problems, link_base))
    if carriers:
        lines.append("")
        lines.extend(_inherited_section(carriers, link_base))
    return "\n".join(lines) + "\n"


def write(path: Path, findings: Sequence[Finding]) -> None:
    """Write the Markdown report atomically."""
    write_atomic(path, render(findings))
