"""``report.md``: the findings as GitHub-flavoured Markdown, ready to paste as a PR comment.

A title, the totals, a table of every claim that needs attention (where, quote, claimed,
recomputed, fix or problem; slips — only the last printed digit off — labelled as such), a
collapsed ``<details>`` list of suppressed failures and statements the author marked wrong (with
what silenced them), and one of claims that pass but carry an upstream mistake. Lesson text
arrives in pull requests, so every piece of it is escaped: it cannot break the table, open a
code span, inject HTML, render as math or mention anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote as url_quote

from checkers.files import write_atomic
from checkers.finding import Finding, counts_line, summarize
from checkers.report import changed_span, location, needs_attention, ordered, quieted, shown_verdict
from checkers.report.text import inert

__all__ = ["MAX_ROWS", "escape", "link", "render", "shorten_cell", "write"]

MAX_ROWS = 100
"""Rows shown per table; GitHub refuses comments over 65,536 characters."""

QUOTE_WIDTH = 60
"""Longest quote or fix in a cell (see :func:`shorten_cell`)."""

CONTEXT = 12
"""Characters kept before a changed number when a cell has to start after its beginning."""

_INHERITS = "inherits: "

_LABELS = {
    "fail": "❌ fail",
    "slip": "🟡 slip",
    "stale": "⚠️ stale",
    "error": "💥 error",
    "pass": "✅ pass",
    "suppressed": "🔇 suppressed",
    "marked_wrong": "✍️ marked wrong",
}

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
    if finding.cell and finding.location_kind == "lesson":
        text += f" ({finding.cell})"  # a notebook: the line is the .ipynb's, the cell the reader's
    target = url_quote(path, safe="/")
    if base:
        # Rendered Markdown has no line anchors on GitHub; the plain view does.
        rendered = (".md", ".markdown", ".mdx", ".ipynb")  # GitHub renders these: no line anchors
        target = base + target + ("?plain=1" if path.endswith(rendered) else "")
    if line:
        target += f"#L{line}"
    return f"[{escape(text)}]({target})"


def _joins(left: str, right: str) -> bool:
    """Whether a cut between these two characters would split a number or a word: both are
    digits, Latin letters or the marks inside a number (``1,600``, ``0.78``, ``d_model``)."""

    def inside(char: str) -> bool:
        return char.isdigit() or (char.isascii() and char.isalpha()) or char in "._,%．，"

    return inside(left) and inside(right)


def _boundary_before(text: str, index: int) -> int:
    """``index`` moved left until a cut there splits no number or word (``index`` itself when
    the word runs to the start: a cut inside it cannot be avoided)."""
    cut = index
    while 0 < cut < len(text) and _joins(text[cut - 1], text[cut]):
        cut -= 1
    return cut if cut > 0 else index


def _boundary_after(text: str, index: int) -> int:
    """``index`` moved right until a cut there splits no number or word."""
    cut = index
    while 0 < cut < len(text) and _joins(text[cut - 1], text[cut]):
        cut += 1
    return cut


def shorten_cell(text: str, width: int, keep: tuple[int, int] | None = None) -> str:
    """``text`` on one line in at most ``width`` characters: cut at the end, marked ``…``,
    never inside a number or word. When ``keep`` (a span of the flattened text, such as the
    corrected number) would be cut off, the cell instead starts shortly before it, marked with
    a leading ``…``."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    start = 0
    if keep is not None and keep[1] > width - 1:
        start = _boundary_before(flat, max(0, keep[0] - CONTEXT))
        if len(flat) - start + 1 <= width:  # the rest fits: show as much of it as the width allows
            start = _boundary_after(flat, len(flat) - width + 1)
            return "…" + flat[start:].lstrip()
        while start < len(flat) and flat[start] == " ":
            start += 1
    room = width - (1 if start == 0 else 2)
    end = _boundary_before(flat, start + room)
    head = flat[start:end].rstrip()
    return ("…" if start else "") + head + "…"


def _cell(text: str | None, width: int = QUOTE_WIDTH, keep: tuple[int, int] | None = None) -> str:
    return escape(shorten_cell(text, width, keep)) if text else "—"


def _totals(findings: Sequence[Finding]) -> str:
    return counts_line(summarize(list(findings)))


def _problem_table(problems: list[Finding], base: str) -> list[str]:
    lines = [
        "| | Where | Quote | Claimed | Recomputed | Fix or problem |",
        "|---|---|---|---|---|---|",
    ]
    for finding in problems[:MAX_ROWS]:
        where = f"{link(finding, base)}<br>{escape(finding.id)}"
        # A fix is the whole answer for a wrong number; otherwise say what is wrong.
        # Quote and fix show the same stretch of the line: the one the fix changes.
        in_quote, in_fix = changed_span(
            " ".join(finding.quote.split()), " ".join((finding.fix or finding.quote).split())
        )
        remedy = (
            _cell(finding.fix, keep=in_fix) if finding.fix else f"*{_cell(finding.message, 200)}*"
        )
        lines.append(
            f"| {_LABELS[shown_verdict(finding)]} | {where} "
            f"| {_cell(finding.quote, keep=in_quote)} "
            f"| {_cell(finding.claimed, 40)} | {_cell(finding.expected, 40)} | {remedy} |"
        )
    if len(problems) > MAX_ROWS:
        lines.append("")
        lines.append(f"… and {len(problems) - MAX_ROWS} more; see report.html for all of them.")
    return lines


def _quiet_section(quiet: list[Finding], base: str) -> list[str]:
    plural = "s" if len(quiet) != 1 else ""
    lines = [
        "<details>",
        f"<summary>{len(quiet)} finding{plural} suppressed or marked wrong by the author "
        "(not failing)</summary>",
        "",
        "| | Where | Quote | Claimed | Recomputed | Why quiet |",
        "|---|---|---|---|---|---|",
    ]
    for finding in quiet[:MAX_ROWS]:
        if finding.suppression is not None:
            why = finding.suppression.justification
        elif finding.severity is None:
            why = f"marked wrong by the author ({finding.marked}), but it holds"
        else:
            why = f"marked wrong by the author ({finding.marked})"
        lines.append(
            f"| {_LABELS[finding.verdict]} | {link(finding, base)}<br>{escape(finding.id)} "
            f"| {_cell(finding.quote)} | {_cell(finding.claimed, 40)} "
            f"| {_cell(finding.expected, 40)} | {_cell(why, 200)} |"
        )
    if len(quiet) > MAX_ROWS:
        lines.append("")
        lines.append(f"… and {len(quiet) - MAX_ROWS} more.")
    lines.extend(["", "</details>"])
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
    quiet = quieted(findings)
    carriers = [f for f in ordered(findings) if f.verdict == "pass" and f.inherits]
    total = len(findings)
    slips = sum(f.is_slip for f in problems)
    lines = ["## lessoncheck report", ""]
    if not total:
        lines.append("No claims were checked.")
    elif len(problems) > slips:
        lines.append(
            f"❌ **{len(problems)} of {total} claims need attention** — {_totals(findings)}"
        )
    elif slips:
        lines.append(
            f"🟡 **{slips} of {total} claims are slips** (only the last printed digit is off; "
            f"they fail only with --strict) — {_totals(findings)}"
        )
    else:
        lines.append(f"✅ **All {total} claims hold** — {_totals(findings)}")
    if problems:
        lines.append("")
        lines.extend(_problem_table(problems, link_base))
    if quiet:
        lines.append("")
        lines.extend(_quiet_section(quiet, link_base))
    if carriers:
        lines.append("")
        lines.extend(_inherited_section(carriers, link_base))
    return "\n".join(lines) + "\n"


def write(path: Path, findings: Sequence[Finding]) -> None:
    """Write the Markdown report atomically."""
    write_atomic(path, render(findings))
