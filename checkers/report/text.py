"""A finding as an author reads it in a terminal or a pytest failure.

::

    content/transformer-fundamentals.md:143  score(猫, 猫) = … = 0.78
      claimed     0.78   (±0.005: 2 printed decimals)
      recomputed  0.7966 → 0.80
      fix         … = 0.80
"""

from __future__ import annotations

import unicodedata

from checkers.finding import Finding

__all__ = ["format_finding", "inert", "shorten", "verdict_label"]

QUOTE_WIDTH = 72
"""Longest quote shown on the headline; longer quotes keep their end, where the number is."""


def shorten(quote: str, width: int = QUOTE_WIDTH) -> str:
    """One line; when too long keep the end (the claimed number) and mark the cut with …."""
    flat = " ".join(quote.split())
    return flat if len(flat) <= width else "… " + flat[-(width - 2) :]


def _escape_char(char: str) -> str:
    if char == "\t" or char.isprintable() or unicodedata.category(char) == "Zs":
        return char  # a tab or a space moves the cursor forward, nothing more
    return char.encode("unicode_escape").decode("ascii")


def inert(text: str) -> str:
    """``text`` made safe to print into a terminal or a CI log, wherever it lands in a line.

    The one rule for everything lessoncheck prints (lesson text, paths, claim ids, messages),
    used on every route — command output, pytest node ids and reasons, GitHub annotations and
    the job summary:

    * every character that is neither printable nor a tab or a space — control characters
      (ESC, CR, LF, BEL, backspace), format characters (bidi overrides, zero-width ones), line
      and paragraph separators — is shown as its Python escape (``\\x1b``, ``\\n``,
      ``\\u202e``), so the text is one line that cannot clear the screen, retitle the window,
      move the cursor or reorder what the reader sees;
    * ``##[`` anywhere becomes ``#\\x23[``: the GitHub runner reads its legacy command syntax
      ``##[command]`` anywhere in a line;
    * a ``::`` that starts the text (after blanks) becomes ``\\x3a:``: the runner reads
      ``::command::`` at the start of a line after trimming blanks, and this text may be the
      start of one.

    Idempotent (what it returns it returns unchanged), and the identity on ordinary text.
    """
    if not text.isprintable():
        text = "".join(map(_escape_char, text))
    if "##[" in text:
        text = text.replace("##[", "#\\x23[")
    stripped = text.lstrip()
    if stripped.startswith("::"):
        blanks = len(text) - len(stripped)
        text = text[:blanks] + "\\x3a" + text[blanks + 1 :]
    return text


_LABELS = {
    "fail": "wrong",
    "stale": "stale",
    "error": "error",
    "pass": "holds",
    "suppressed": "suppressed",
    "marked_wrong": "marked",
}


def verdict_label(finding: Finding) -> str:
    """One word for the verdict line: ``wrong`` for an error, ``slip`` when only the last
    printed digit is off, ``marked`` for a statement the author marked wrong, …"""
    return "slip" if finding.is_slip else _LABELS[finding.verdict]


def format_finding(finding: Finding) -> str:
    """Several lines: where, the quote, claimed vs recomputed with the tolerance, the fix."""
    return "\n".join(inert(line) for line in _lines(finding))


def _lines(finding: Finding) -> list[str]:
    head = f"{finding.where}  {shorten(finding.quote)}" if finding.quote else finding.where
    lines = [head]
    label = verdict_label(finding)
    if finding.claimed:
        tolerance = f"   ({finding.tolerance})" if finding.tolerance else ""
        lines.append(f"  claimed     {finding.claimed}{tolerance}")
    if finding.expected:
        lines.append(f"  recomputed  {finding.expected}")
    if finding.fix:
        lines.append(f"  fix         {shorten(finding.fix)}")
    lines.append(f"  {label:<11} {finding.message}")
    if finding.location_kind == "claims" and finding.claims_file:
        lines.append(f"  claim file  {finding.claims_file}")
    lines.extend(f"  {'':<11} {detail}" for detail in finding.details)
    return lines
