"""A finding as an author reads it in a terminal or a pytest failure.

::

    content/transformer-fundamentals.md:143  score(猫, 猫) = … = 0.78
      claimed     0.78   (±0.005: 2 printed decimals)
      recomputed  0.7966 → 0.80
      fix         … = 0.80
"""

from __future__ import annotations

from checkers.finding import Finding

__all__ = ["format_finding", "printable", "shorten"]

QUOTE_WIDTH = 72
"""Longest quote shown on the headline; longer quotes keep their end, where the number is."""


def shorten(quote: str, width: int = QUOTE_WIDTH) -> str:
    """One line; when too long keep the end (the claimed number) and mark the cut with …."""
    flat = " ".join(quote.split())
    return flat if len(flat) <= width else "… " + flat[-(width - 2) :]


_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    """Lesson text made safe for a terminal: control and bidi characters shown escaped, so a
    quote cannot clear the screen, retitle the window or reorder what the reader sees."""
    if text.isprintable() and not _BIDI.intersection(text):
        return text
    return "".join(
        ch if ch.isprintable() and ch not in _BIDI else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def format_finding(finding: Finding) -> str:
    """Several lines: where, the quote, claimed vs recomputed with the tolerance, the fix."""
    return "\n".join(printable(line) for line in _lines(finding))


def _lines(finding: Finding) -> list[str]:
    head = f"{finding.where}  {shorten(finding.quote)}" if finding.quote else finding.where
    lines = [head]
    label = {"fail": "wrong", "stale": "stale", "error": "error", "pass": "holds"}[finding.verdict]
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
