"""Kind ``sum_range``: printed terms whose sum a lesson states as a range (``~8-10 hours``).

A schedule lists its parts (``~3 hr``, ``~2 hr`` …) and states the total as a range. Each term
stands for what its printed digits allow (``~2`` for [1.5, 2.5], as ``≈`` numbers are read to
their significant figures; ``2.5`` for [2.45, 2.55]), so the sum stands for an interval; the
claim holds when that interval meets the stated range, widened by the range's own printed
precision (``8-10`` is [7.5, 10.5]). It fails when no reading of the terms reaches the range.

YAML fields:

``terms``
    The printed terms, each as printed (``[~3, ~2, 2.5]``), in one unit.
``low``, ``high``
    The two ends of the stated range as printed (``8``, ``10``).

Example::

    - id: total-time
      kind: sum_range
      quote: "**Total time**: ~8-10 hours"
      terms: [~3, ~2, ~2]
      low: 6
      high: 8
"""

from __future__ import annotations

from pydantic import model_validator

from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, PrintedVector
from checkers.numbers import Printed, printed_tolerance

__all__ = ["Input", "check"]


class Input(KindInput):
    """Fields of a ``sum_range`` claim."""

    terms: PrintedVector
    """The printed terms of the sum."""
    low: PrintedNumber
    """The stated range's lower end, as printed."""
    high: PrintedNumber
    """The stated range's upper end, as printed."""

    @model_validator(mode="after")
    def _a_range(self) -> Input:
        if len(self.terms) < 2:
            raise ValueError("a sum needs at least two terms")
        if self.low.value > self.high.value:
            raise ValueError(f"the range {self.low.text}-{self.high.text} runs backwards")
        return self

    @property
    def printed(self) -> Printed:
        """The stated range's upper end (the figure a reader compares with)."""
        return self.high


def _short(value: float) -> str:
    return f"{value:.4g}"


def check(fields: Input, context: Context) -> Outcome:
    """The sum's interval under the terms' printed precision must meet the stated range."""
    del context
    total = sum(t.value for t in fields.terms)
    spread = sum(printed_tolerance(t).absolute for t in fields.terms)
    low = fields.low.value - printed_tolerance(fields.low).absolute
    high = fields.high.value + printed_tolerance(fields.high).absolute
    terms = " + ".join(t.text for t in fields.terms)
    claimed = f"{fields.low.text}-{fields.high.text}"
    reach = f"[{_short(total - spread)}, {_short(total + spread)}]"
    tolerance = (
        f"each term as its printed digits allow (the sum {reach}); the range as printed "
        f"([{_short(low)}, {_short(high)}])"
    )
    if total - spread <= high and total + spread >= low:
        return Outcome(
            verdict="pass",
            claimed=claimed,
            expected=_short(total),
            tolerance=tolerance,
            message=f"{terms} = {_short(total)} ({reach} as printed) meets {claimed}",
            value=total,
        )
    return Outcome(
        verdict="fail",
        claimed=claimed,
        expected=_short(total),
        tolerance=tolerance,
        message=f"{terms} = {_short(total)} ({reach} as printed), outside {claimed}",
        value=total,
    )
