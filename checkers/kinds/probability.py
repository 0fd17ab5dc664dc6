"""Printed probabilities: the precision a row of weights is read at, and the checks every
probability row must pass (each entry in [0, 1], the row summing to 1 within its rounding).

Shared by the kinds that print softmax weights (``softmax``, ``masked_softmax``, ``attention``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from checkers.kinds.base import Context
from checkers.kinds.matrices import number_text, printed_text, with_decimals
from checkers.numbers import Comparison, Printed, Tolerance, compare, printed_tolerance

__all__ = [
    "DEFAULT_DECIMALS",
    "compare_probability",
    "places",
    "probability_decimals",
    "probability_tolerance",
    "range_problems",
    "sum_problem",
]

DEFAULT_DECIMALS = 2
"""Decimals a whole-number 0 or 1 is read at when no printed probability has decimals."""


def probability_decimals(rows: Sequence[Sequence[Printed]]) -> int:
    """The finest decimals printed among the probabilities of a claim (2 when all are whole)."""
    decimals = [p.decimals for row in rows for p in row if p.decimals > 0 and p.exponent == 0]
    return max(decimals) if decimals else DEFAULT_DECIMALS


def _whole(printed: Printed) -> bool:
    return printed.decimals == 0 and printed.exponent == 0 and printed.unit is None


def probability_tolerance(printed: Printed, decimals: int, context: Context) -> Tolerance:
    """The tolerance of one printed probability (a claim's override first)."""
    if context.tolerance is not None:
        return context.tolerance
    if _whole(printed) and printed.value in (0.0, 1.0):
        half = 0.5 * 10.0**-decimals
        return Tolerance(
            absolute=half,
            relative=0.0,
            reason=(
                f"±{number_text(half)}: a printed whole 0 or 1 among probabilities is exact, "
                f"read at {places(decimals)}"
            ),
            last_place=2 * half,
        )
    return printed_tolerance(printed)


def compare_probability(
    printed: Printed, value: float, decimals: int, context: Context
) -> Comparison:
    """Compare a printed probability, reading a whole-number 0 or 1 at ``decimals`` decimals."""
    tolerance = probability_tolerance(printed, decimals, context)
    if _whole(printed) and printed.value in (0.0, 1.0):
        # Keep the printed text; only the precision (and so the suggested fix) changes.
        comparison = compare(with_decimals(printed, decimals), value, tolerance)
        return comparison if not comparison.ok else replace(comparison, corrected=printed.text)
    return compare(printed, value, tolerance)


def places(decimals: int) -> str:
    """``1 decimal``, ``3 decimals``: how a precision is named in messages."""
    return "1 decimal" if decimals == 1 else f"{decimals} decimals"


def sum_problem(label: str, row: Sequence[Printed], decimals: int, context: Context) -> str | None:
    """Why a printed probability row cannot sum to 1 within its rounding, or None."""
    total = math.fsum(p.value for p in row)
    slack = math.fsum(
        probability_tolerance(p, decimals, context).absolute
        if context.tolerance is None or context.tolerance.relative == 0
        else max(context.tolerance.absolute, context.tolerance.relative * abs(p.value))
        for p in row
    )
    if abs(total - 1.0) <= slack + 1e-12:
        return None
    return (
        f"{label} {printed_text(row)} sums to {number_text(total)}, not 1: {len(row)} printed "
        f"entries may move the sum by at most ±{number_text(slack)} (each entry's rounding)"
    )


def range_problems(label: str, row: Sequence[Printed], names: Sequence[str]) -> list[str]:
    """A message for every printed probability outside [0, 1]."""
    return [
        f"{names[j] if j < len(names) else f'{label}[{j}]'} = {p.text} is not a probability "
        "(outside [0, 1])"
        for j, p in enumerate(row)
        if p.value < 0 or p.value > 1
    ]
