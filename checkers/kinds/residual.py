"""Kind ``residual``: a residual (skip) connection's output F(x) + x, element by element.

YAML fields:

``x``
    The sublayer's input as printed.
``f_x``
    The sublayer's output F(x) as printed.
``claimed``
    The printed residual output F(x) + x.

The sum is recomputed from ``x`` and ``f_x`` as printed, so a lesson that adds its own printed
numbers is consistent. When the claimed vector is F(x) alone, x alone, or F(x) − x, the message
says so (the skip connection was dropped or subtracted).

Example::

    - id: residual-sum
      kind: residual
      quote: "= [1.2, 0.5, 1.4, 0.3]"
      x: [0.5, 0.2, 0.8, 0.1]
      f_x: [0.7, 0.3, 0.6, 0.2]
      claimed: [1.2, 0.5, 1.4, 0.3]
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import model_validator

from checkers.kinds.base import Context, KindInput, Outcome, PrintedVector, from_comparisons
from checkers.numbers import compare

__all__ = ["Input", "check"]


class Input(KindInput):
    """Fields of a ``residual`` claim."""

    x: PrintedVector
    """The sublayer input x, as printed."""
    f_x: PrintedVector
    """The sublayer output F(x), as printed."""
    claimed: PrintedVector
    """The printed F(x) + x."""

    @model_validator(mode="after")
    def _same_length(self) -> Input:
        lengths = {"x": len(self.x), "f_x": len(self.f_x), "claimed": len(self.claimed)}
        if len(set(lengths.values())) != 1:
            listed = ", ".join(f"{name} has {n}" for name, n in lengths.items())
            raise ValueError(f"x, f_x and claimed must have the same length: {listed}")
        return self


def check(fields: Input, context: Context) -> Outcome:
    """F(x) + x from the printed vectors, compared element by element."""
    x = [p.value for p in fields.x]
    f_x = [p.value for p in fields.f_x]
    total = [a + b for a, b in zip(f_x, x, strict=True)]
    comparisons = [
        compare(p, v, context.tolerance) for p, v in zip(fields.claimed, total, strict=True)
    ]
    x_text = "[" + ", ".join(p.text for p in fields.x) + "]"
    f_text = "[" + ", ".join(p.text for p in fields.f_x) + "]"
    outcome = from_comparisons(
        comparisons,
        what=f"F(x) + x = {f_text} + {x_text}",
        vector=True,
    )
    if outcome.ok:
        return outcome
    difference = [a - b for a, b in zip(f_x, x, strict=True)]
    slips = (
        ("F(x) alone: the skip connection x was not added", f_x),
        ("x alone: F(x) was not added", x),
        ("F(x) − x: x was subtracted instead of added", difference),
    )
    for description, values in slips:
        if all(
            compare(p, v, context.tolerance).ok for p, v in zip(fields.claimed, values, strict=True)
        ):
            message = f"{outcome.message} — the claimed values are {description}"
            return replace(outcome, message=message)
    return outcome
