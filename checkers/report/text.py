"""A finding as an author reads it in a terminal or a pytest failure.

::

    content/transformer-fundamentals.md:143  score(猫, 猫) = … = 0.78
      claimed     0.78   (±0.005: 2 printed decimals)
      recomputed  0.7966 → 0.80
      fix         … = 0.80
"""

from __future__ import annotations

from checkers.runner import Finding

__all__ = ["format_finding", "shorten"]

QUOTE_WIDTH = 72
"""Longest quote shown on the headline; longer quotes keep their end, where the number is."""


def shorten(quote: str, width: int = QUOTE_WIDTH) -> str:
    """One line; when too long keep the end (the claimed number) and mark the cut with …."""
    flat = " ".join(quote.split())
    return flat if len(flat) <= width else "… " + flat[-(width - 2) :]


def format_finding(finding: Finding) -> str:
    """Several lines: where, the quote, claimed vs recomputed with the tolerance, the fix."""
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
    return "\n".join(lines)
