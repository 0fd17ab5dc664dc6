"""Kind ``softmax``: printed weights are the softmax of printed scores, and each row sums to 1.

YAML fields:

``scores``
    The scores softmax is applied to, as printed: one row (``[0.55, 0.69, 0.68]``) or a table
    (a list of rows). Masked (−∞) scores belong to kind ``masked_softmax``.
``claimed``
    The printed weights, same shape as ``scores``; elements are compared in order.
``temperature``
    Optional T: the weights are softmax(scores / T). Default 1.
``claimed_only``
    ``true`` for illustrative weights printed without any scores (a table the lesson says it made
    up): then only "each row sums to 1" and "0 ≤ p ≤ 1" are checked, and the verdict says so.
``exp_values``, ``sum``
    Optional intermediates of a worked single-row example: the printed exp(score) values and
    their printed total (``exp(0.55) = 1.73 … 总和 = 5.69``). Each exp value is checked against
    exp(score / T); the total may be the exact total or the total of the printed exp values
    (both at the total's printed precision); a weight may then follow from printed exp / printed
    total. Plain arithmetic steps such as ``1.73 / 5.69 = 0.30`` can also be checked by kind
    ``arithmetic``; this kind checks them as part of the softmax.
``name``
    Optional name of a single row (``猫 的注意力权重``), for messages.
``tokens``, ``key_tokens``
    Optional names of the rows and of the columns (``key_tokens`` defaults to ``tokens``).

Every claimed row must also sum to 1 within the rounding of its printed entries: n entries
printed to ±h each may sum to anything in [1 − n·h, 1 + n·h]. A whole-number 0 or 1 among
printed probabilities (a masked weight, a certain one) is read at the finest decimals printed in
the claim (2 when none), since it states an exact value, not a value rounded to units.

Example::

    kind: softmax
    scores: [0.55, 0.69, 0.68]
    exp_values: [1.73, 1.99, 1.97]
    sum: 5.69
    claimed: [0.30, 0.35, 0.35]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pydantic import Field, field_validator, model_validator

from checkers.formulas import UndefinedError, softmax
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, PrintedVector, error
from checkers.kinds.matrices import (
    Check,
    Matrix,
    PrintedMatrix,
    Row,
    combine,
    number_text,
    printed_text,
    vector_text,
)
from checkers.kinds.probability import (
    compare_probability,
    places,
    probability_decimals,
    range_problems,
    sum_problem,
)
from checkers.numbers import Comparison, Printed, compare, printed_tolerance

__all__ = ["Input", "check"]


def _no_masked_scores(value: Any) -> Any:
    def masked(item: Any) -> bool:
        return isinstance(item, str) and ("∞" in item or "inf" in item.lower())

    rows = value if isinstance(value, list) else [value]
    for row in rows:
        items = row if isinstance(row, list) else [row]
        if any(masked(item) for item in items):
            raise ValueError("−∞ scores are masked: use kind masked_softmax for them")
    return value


class Input(KindInput):
    """Fields of a ``softmax`` claim."""

    scores: PrintedVector | PrintedMatrix | None = Field(default=None, union_mode="left_to_right")
    """The printed scores: one row or a table of rows."""
    claimed: PrintedVector | PrintedMatrix = Field(union_mode="left_to_right")
    """The printed weights, in the same shape as the scores."""
    temperature: PrintedNumber | None = None
    """T in softmax(scores / T)."""
    claimed_only: bool = False
    """True for illustrative weights without scores: only sums and ranges are checked."""
    exp_values: PrintedVector | None = None
    """Printed exp(score) values of a single-row worked example."""
    sum: PrintedNumber | None = None
    """The printed total of the exp values."""
    name: str | None = Field(default=None, max_length=80)
    """Name of a single row, for messages."""
    tokens: tuple[str, ...] = ()
    """Names of the rows."""
    key_tokens: tuple[str, ...] = ()
    """Names of the columns; defaults to ``tokens``."""

    _scores_are_finite = field_validator("scores", mode="before")(_no_masked_scores)

    @model_validator(mode="after")
    def _shapes_agree(self) -> Input:
        claimed = _rows(self.claimed)
        if self.claimed_only:
            if self.scores is not None or self.exp_values is not None or self.sum is not None:
                raise ValueError("claimed_only means no scores are given: drop scores/exp/sum")
            if self.temperature is not None:
                raise ValueError("claimed_only has no scores for a temperature to apply to")
        else:
            if self.scores is None:
                raise ValueError(
                    "scores are required (or claimed_only: true for illustrative weights)"
                )
            scores = _rows(self.scores)
            if _is_matrix(self.scores) != _is_matrix(self.claimed):
                raise ValueError("scores and claimed must both be one row or both be tables")
            if len(scores) != len(claimed):
                raise ValueError(f"{len(scores)} score rows but {len(claimed)} claimed rows")
            for index, (s, c) in enumerate(zip(scores, claimed, strict=True)):
                if len(s) != len(c):
                    raise ValueError(f"row {index}: {len(s)} scores but {len(c)} weights")
        if self.exp_values is not None or self.sum is not None:
            if len(claimed) != 1 or _is_matrix(self.claimed):
                raise ValueError("exp_values and sum belong to a single-row example")
            if self.exp_values is not None and len(self.exp_values) != len(claimed[0]):
                raise ValueError(f"{len(self.exp_values)} exp values but {len(claimed[0])} weights")
        if self.temperature is not None and self.temperature.value <= 0:
            raise ValueError("temperature must be positive")
        if _is_matrix(self.claimed):
            if self.tokens and len(self.tokens) != len(claimed):
                raise ValueError(
                    f"tokens names {len(self.tokens)} rows but there are {len(claimed)}"
                )
            # tokens name the rows; they name the columns too when the table is square.
            square = len(self.tokens) == len(claimed[0])
            columns = self.key_tokens or (self.tokens if square else ())
        else:
            columns = self.key_tokens or self.tokens
        if columns and len(columns) != len(claimed[0]):
            raise ValueError(
                f"{len(columns)} column names (key_tokens/tokens) but rows have "
                f"{len(claimed[0])} entries"
            )
        return self


def _is_matrix(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and isinstance(value[0], tuple)


def _rows(value: Row | Matrix) -> list[Row]:
    if _is_matrix(value):
        return [row for row in value if isinstance(row, tuple)]
    return [tuple(p for p in value if isinstance(p, Printed))]


def _row_names(fields: Input, count: int) -> list[str]:
    """How each row is named: its token, its 0-based index, or (one row) the claim's name."""
    if not _is_matrix(fields.claimed):
        return [fields.name or "softmax"]
    if len(fields.tokens) == count:
        return list(fields.tokens)
    return [str(i) for i in range(count)]


def _column_names(fields: Input, width: int) -> list[str]:
    if fields.key_tokens:
        return list(fields.key_tokens)
    if len(fields.tokens) == width:
        return list(fields.tokens)
    return [str(j) for j in range(width)]


def _element_names(fields: Input, row_name: str, columns: Sequence[str]) -> tuple[str, ...]:
    if _is_matrix(fields.claimed):
        return tuple(f"weight({row_name}, {column})" for column in columns)
    return tuple(f"{row_name}[{column}]" for column in columns)


def _label(fields: Input, row_name: str) -> str:
    return f"row {row_name}" if _is_matrix(fields.claimed) else row_name


def check(fields: Input, context: Context) -> Outcome:
    """Recompute softmax of each printed score row and compare; check every row sums to 1."""
    claimed_rows = _rows(fields.claimed)
    decimals = probability_decimals(claimed_rows)
    row_names = _row_names(fields, len(claimed_rows))
    columns = _column_names(fields, len(claimed_rows[0]))
    if fields.claimed_only or fields.scores is None:
        return _claimed_only(fields, claimed_rows, row_names, columns, decimals, context)
    temperature = fields.temperature.value if fields.temperature is not None else 1.0
    over_t = f" / {fields.temperature.text}" if fields.temperature is not None else ""
    items: list[Check | str] = []
    details: list[str] = []
    values: list[float] = []
    chain_ok = False
    if fields.exp_values is not None or fields.sum is not None:
        intermediates = _intermediates(
            fields, _rows(fields.scores)[0], temperature, context, details
        )
        items.extend(intermediates)
        chain_ok = all(isinstance(i, Check) and i.ok for i in intermediates)
    for row_name, scores, row in zip(row_names, _rows(fields.scores), claimed_rows, strict=True):
        label = _label(fields, row_name)
        try:
            weights = [float(w) for w in softmax([s.value for s in scores], temperature)]
        except UndefinedError as undefined:
            return error(f"{label}: {undefined}", printed_text(row))
        names = _element_names(fields, row_name, columns)
        comparisons: list[Comparison] = []
        notes: list[str] = []
        for j, (p, w) in enumerate(zip(row, weights, strict=True)):
            comparison = compare_probability(p, w, decimals, context)
            if not comparison.ok and chain_ok and fields.exp_values and fields.sum:
                chained = compare_probability(
                    p, fields.exp_values[j].value / fields.sum.value, decimals, context
                )
                if chained.ok:
                    # A faithful step from the printed exp value and total, both checked above.
                    comparison = chained
                    notes.append(
                        f"{names[j]} follows from the printed "
                        f"{fields.exp_values[j].text} / {fields.sum.text}"
                    )
            comparisons.append(comparison)
        items.append(
            Check(
                label,
                tuple(comparisons),
                vector=True,
                how=f"softmax({printed_text(scores)}{over_t})",
                element_names=names,
                note="; ".join([*notes, *_order_hint(comparisons)]),
            )
        )
        items.extend(range_problems(label, row, names))
        problem = sum_problem(label, row, decimals, context)
        if problem:
            items.append(problem)
        values.extend(weights)
    what = fields.name or ("softmax" if not _is_matrix(fields.claimed) else "softmax table")
    return combine(items, what=what, details=details, value=tuple(values))


def _claimed_only(
    fields: Input,
    claimed_rows: Sequence[Row],
    row_names: Sequence[str],
    columns: Sequence[str],
    decimals: int,
    context: Context,
) -> Outcome:
    """Illustrative weights: only each row's sum and range can be checked."""
    problems: list[Check | str] = []
    for row_name, row in zip(row_names, claimed_rows, strict=True):
        label = _label(fields, row_name)
        problems.extend(range_problems(label, row, _element_names(fields, row_name, columns)))
        problem = sum_problem(label, row, decimals, context)
        if problem:
            problems.append(problem)
    only = (
        "only the sums to 1 and 0 ≤ p ≤ 1 could be checked: no scores are given, "
        "so the weights themselves cannot be recomputed"
    )
    half = number_text(0.5 * 10.0**-decimals)
    precision = places(decimals)
    tolerance = (
        context.tolerance.reason
        if context.tolerance is not None
        else f"each row may sum to 1 ± n × ±{half} (n entries printed to {precision})"
    )
    claimed_text = ", ".join(printed_text(row) for row in claimed_rows)
    if not problems:
        return Outcome(
            verdict="pass",
            claimed=claimed_text,
            expected="each row sums to 1, every entry in [0, 1]",
            tolerance=tolerance,
            message=f"every row sums to 1 and every weight is in [0, 1] ({tolerance}); {only}",
        )
    outcome = combine(
        problems,
        what="the illustrative weights",
        claimed=claimed_text,
        expected="each row sums to 1, every entry in [0, 1]",
        tolerance=tolerance,
    )
    return replace(outcome, message=f"{outcome.message} ({only})")


def _order_hint(comparisons: Sequence[Comparison]) -> list[str]:
    """A note when the printed values are right but in another order (vectors are ordered)."""
    if all(c.ok for c in comparisons):
        return []
    printed = sorted(c.printed.text for c in comparisons)
    corrected = sorted(c.corrected for c in comparisons)
    if printed == corrected:
        return ["the printed values are right but in a different order"]
    return []


def _intermediates(
    fields: Input,
    scores: Row,
    temperature: float,
    context: Context,
    details: list[str],
) -> list[Check | str]:
    """Checks of the printed exp values and their printed total."""
    exact = [math.exp(s.value / temperature) for s in scores]
    total = math.fsum(exact)
    over_t = "(s/T)" if temperature != 1 else ""
    details.append(f"exp{over_t}: {vector_text(exact)}, total {number_text(total)}")
    items: list[Check | str] = []
    if fields.exp_values is not None:
        names = tuple(f"exp({s.text})" for s in scores)
        items.append(
            Check(
                "exp(scores)",
                tuple(
                    compare(p, v, context.tolerance)
                    for p, v in zip(fields.exp_values, exact, strict=True)
                ),
                vector=True,
                element_names=names,
            )
        )
    if fields.sum is not None:
        against_exact = compare(fields.sum, total, context.tolerance)
        note = ""
        problem = ""
        if not against_exact.ok and fields.exp_values is not None:
            printed_total = math.fsum(p.value for p in fields.exp_values)
            against_printed = compare(fields.sum, printed_total, context.tolerance)
            # The printed terms stand for intervals; their total's interval must hold the truth.
            spread = math.fsum(printed_tolerance(p).absolute for p in fields.exp_values)
            if against_printed.ok and abs(printed_total - total) <= spread + 1e-12:
                note = (
                    f"{fields.sum.text} is the total of the printed exp values "
                    f"{' + '.join(p.text for p in fields.exp_values)}; the exact total "
                    f"{against_exact.describe()} lies within their rounding"
                )
                items.append(
                    Check("sum of exp", (against_printed,), how="Σ printed exp values", note=note)
                )
                return items
            if not against_printed.ok:
                problem = (
                    f"the total {fields.sum.text} is neither the exact Σexp = "
                    f"{against_exact.describe()} nor the total of the printed exp values "
                    f"({number_text(printed_total)})"
                )
        items.append(Check("sum of exp", (against_exact,), how="Σ exp(scores)", problem=problem))
    return items
