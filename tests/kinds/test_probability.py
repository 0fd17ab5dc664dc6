"""Printed probabilities (``checkers.kinds.probability``), shared by the softmax-shaped kinds."""

from __future__ import annotations

from checkers.kinds.base import Context
from checkers.kinds.probability import (
    compare_probability,
    probability_decimals,
    range_problems,
    sum_problem,
)
from checkers.numbers import parse_printed


def _row(*texts: str) -> list:  # type: ignore[type-arg]
    return [parse_printed(t) for t in texts]


def test_a_whole_zero_or_one_is_read_at_the_finest_printed_decimals() -> None:
    row = _row("0.25", "0.750", "0")
    assert probability_decimals([row]) == 3
    assert probability_decimals([_row("0", "1")]) == 2  # none printed: 2 decimals
    # 0 read at ±0.0005: 0.0004 holds, 0.0006 does not (and the fix keeps the printed "0").
    assert compare_probability(row[2], 0.0004, 3, Context()).ok
    wrong = compare_probability(row[2], 0.0006, 3, Context())
    assert not wrong.ok


def test_a_row_must_sum_to_one_within_its_rounding() -> None:
    # 3 entries at ±0.005 each: the printed sum may be 1 ± 0.015.
    assert sum_problem("row", _row("0.33", "0.33", "0.33"), 2, Context()) is None
    problem = sum_problem("row", _row("0.30", "0.30", "0.30"), 2, Context())
    assert problem is not None and "sums to 0.9, not 1" in problem


def test_entries_outside_zero_and_one_are_named() -> None:
    problems = range_problems("row", _row("1.2", "-0.2"), ["猫", "狗"])
    assert problems == [
        "猫 = 1.2 is not a probability (outside [0, 1])",
        "狗 = -0.2 is not a probability (outside [0, 1])",
    ]
