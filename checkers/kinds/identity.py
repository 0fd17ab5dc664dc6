"""Kind ``identity``: an exact statement such as ``512 = 8 × 64`` or ``3072 = 768 × 4``.

YAML fields:

``statement``
    An equation chain whose sides must all be *exactly* equal (rational arithmetic, no
    rounding): ``512 = 8 × 64``, ``(1+2+3+4+5) = 15``, ``4096 / 32 = 128``. Sides that are not
    rational (``√2``) are compared in floating point to 1e-12 relative, and the verdict says so.

Example::

    - id: head-width
      kind: identity
      quote: "8 个头，每个头 64 维：512 = 8 × 64"
      statement: 512 = 8 × 64
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from checkers.expr import evaluate, evaluate_exact, parse, split_chain
from checkers.kinds.base import Context, KindInput, Outcome, error

__all__ = ["Input", "check"]

FLOAT_RELATIVE = 1e-12
"""Relative tolerance for sides that have no exact rational value."""


class Input(KindInput):
    """Fields of an ``identity`` claim."""

    statement: str = Field(min_length=3, max_length=2000)
    """The exact equation as printed, at least two sides."""


def _fraction_text(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator} = {float(value):.6g}"


def check(fields: Input, context: Context) -> Outcome:
    """Every side of the statement must have the same exact value."""
    sides = split_chain(fields.statement)
    if len(sides) < 2:
        return error(
            f"an identity needs at least two sides joined by '=', got {fields.statement!r}"
        )
    bad_relation = [rel for rel, _, _ in sides[1:] if rel != "="]
    if bad_relation:
        return error(f"an identity is exact; use 'arithmetic' for '{bad_relation[0]}'")
    trees = [parse(side) for _, side, _ in sides]
    exact = [evaluate_exact(tree, None) for tree in trees]
    texts = [" ".join(side.split()) for _, side, _ in sides]
    statement = " = ".join(texts)
    if all(value is not None for value in exact):
        values = [v for v in exact if v is not None]
        reference = values[0]
        for text, value in zip(texts[1:], values[1:], strict=True):
            if value != reference:
                fix: tuple[tuple[str, str], ...] = ()
                if texts[0].replace(",", "").isdigit() and value.denominator == 1:
                    fix = ((texts[0], str(value.numerator)),)
                return Outcome(
                    verdict="fail",
                    claimed=statement,
                    expected=_fraction_text(value),
                    tolerance="exact (rational arithmetic)",
                    message=f"{text} = {_fraction_text(value)}, not {_fraction_text(reference)}",
                    corrections=fix,
                    value=float(value),
                )
        return Outcome(
            verdict="pass",
            claimed=statement,
            expected=_fraction_text(reference),
            tolerance="exact (rational arithmetic)",
            message=f"{statement} holds exactly",
            value=float(reference),
        )
    floats = [evaluate(tree, None) for tree in trees]
    if any(isinstance(v, tuple) for v in floats):
        return error("an identity compares numbers, not vectors")
    numbers = [float(v) for v in floats if not isinstance(v, tuple)]
    reference_float = numbers[0]
    # Irrational sides: no exact arithmetic, so compare in floating point and say so.
    tolerance = (
        f"±{FLOAT_RELATIVE:g} relative: the sides are irrational, compared in floating point"
    )
    for text, number in zip(texts[1:], numbers[1:], strict=True):
        if abs(number - reference_float) > FLOAT_RELATIVE * max(abs(reference_float), 1e-300):
            return Outcome(
                verdict="fail",
                claimed=statement,
                expected=f"{number:.12g}",
                tolerance=tolerance,
                message=f"{text} = {number:.12g}, not {reference_float:.12g}",
                value=number,
            )
    del context
    return Outcome(
        verdict="pass",
        claimed=statement,
        expected=f"{reference_float:.12g}",
        tolerance=tolerance,
        message=f"{statement} holds",
        value=reference_float,
    )
