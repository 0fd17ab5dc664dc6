"""Kind ``renormalised``: the top-k entries of a probability row, renormalised to sum to 1.

Mixture-of-experts routers and top-k sampling keep the k largest probabilities and divide each
by their total. YAML fields:

``top_k``
    How many entries are kept (k ≥ 1).
``claimed``
    The printed renormalised weights: k entries, either in the order the kept entries stand in
    the row or largest first (both are how lessons print them; either reading may hold).
``row``
    Optional: the probability row as the lesson printed it, which the weights are renormalised
    from. The check recomputes from this row as printed.
``scores``
    Optional: the scores the row is the softmax of (``temperature`` optional T, default 1).
    Without ``row``, the weights are recomputed from softmax(scores / T). With both, a row that
    is not the softmax of its scores makes the weights *carried*: right from the printed row,
    they pass and the message says so, with what the scores would give.

``carried_from``
    Optional: where the row was printed when that is another lesson of the course
    (``04_the_gate.md:41``, the lesson this one says it continues). A row that is wrong in its
    own lesson is reported there, so weights that carry it pass here; a row from another lesson
    is reported in that lesson's report only, so weights carried from it *fail* here, with the
    message naming the row's lesson and line and what the scores give — the mistake is that
    row's, and fixing it there fixes these weights.

At least one of ``row`` and ``scores`` is required. Each weight is compared at its printed
precision (a whole 0 or 1 read at the row's decimals, as for every probability row).

Example::

    kind: renormalised
    top_k: 2
    row: [0.12, 0.18, 0.30, 0.40]
    claimed: [0.43, 0.57]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from pydantic import Field, model_validator

from checkers.formulas import UndefinedError, softmax
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedVector,
    PrintedWholeNumber,
    error,
)
from checkers.kinds.matrices import Check, combine, printed_text, vector_text
from checkers.kinds.probability import compare_probability, probability_decimals, sum_problem
from checkers.numbers import Printed

__all__ = ["Input", "check"]


class Input(KindInput):
    """Fields of a ``renormalised`` claim."""

    top_k: PrintedWholeNumber
    """How many of the largest entries are kept."""
    claimed: PrintedVector
    """The printed renormalised weights (k entries)."""
    row: PrintedVector | None = None
    """The printed probability row they are renormalised from."""
    scores: PrintedVector | None = None
    """The scores that row is the softmax of."""
    temperature: PrintedNumber | None = None
    """T in softmax(scores / T)."""
    carried_from: str | None = Field(default=None, max_length=200)
    """Where the row was printed when that is another lesson (``04_the_gate.md:41``)."""

    @model_validator(mode="after")
    def _shapes_agree(self) -> Input:
        if self.top_k.unit is not None or self.top_k.value > 4096:
            raise ValueError("top_k is a plain count of kept entries (at most 4096)")
        if self.row is None and self.scores is None:
            raise ValueError("give the row the weights come from (row:) or its scores (scores:)")
        if len(self.claimed) != self.k:
            raise ValueError(f"top_k is {self.k} but {len(self.claimed)} weights are claimed")
        for name, values in (("row", self.row), ("scores", self.scores)):
            if values is not None and len(values) < self.k:
                raise ValueError(f"{name} has {len(values)} entries, fewer than top_k")
        if self.row is not None and self.scores is not None and len(self.row) != len(self.scores):
            raise ValueError(f"row has {len(self.row)} entries but scores {len(self.scores)}")
        if self.temperature is not None and (self.scores is None or self.temperature.value <= 0):
            raise ValueError("temperature needs scores and must be positive")
        return self

    @property
    def k(self) -> int:
        """``top_k`` as a count."""
        return int(self.top_k.value)


def _kept(values: Sequence[float], k: int) -> list[int]:
    """Indices of the k largest values, in row order (earlier first among equals)."""
    ranked = sorted(range(len(values)), key=lambda i: (-values[i], i))[:k]
    return sorted(ranked)


def _renormalised(values: Sequence[float], k: int) -> tuple[list[int], list[float]]:
    kept = _kept(values, k)
    total = math.fsum(values[i] for i in kept)
    if total <= 0:
        raise UndefinedError("the kept entries sum to 0: nothing to renormalise")
    return kept, [values[i] / total for i in kept]


def _best_order(
    claimed: Sequence[Printed],
    kept: list[int],
    weights: list[float],
    decimals: int,
    context: Context,
) -> tuple[Check, str]:
    """The check of the claimed weights in row order, or largest first when only that holds."""
    names = tuple(f"entry {i + 1}" for i in kept)
    in_row = Check(
        "renormalised",
        tuple(
            compare_probability(p, w, decimals, context)
            for p, w in zip(claimed, weights, strict=True)
        ),
        vector=True,
        element_names=names,
    )
    if in_row.ok:
        return in_row, "in row order"
    order = sorted(range(len(kept)), key=lambda j: (-weights[j], j))
    largest_first = Check(
        "renormalised",
        tuple(
            compare_probability(p, weights[j], decimals, context)
            for p, j in zip(claimed, order, strict=True)
        ),
        vector=True,
        element_names=tuple(names[j] for j in order),
    )
    return (largest_first, "largest first") if largest_first.ok else (in_row, "in row order")


def _row_holds(fields: Input, temperature: float, decimals: int, context: Context) -> bool:
    """True when the printed row is the softmax of its scores at its printed precision."""
    if fields.row is None or fields.scores is None:
        return True
    truth = softmax([s.value for s in fields.scores], temperature)
    return all(
        compare_probability(p, float(w), decimals, context).ok
        for p, w in zip(fields.row, truth, strict=True)
    )


def check(fields: Input, context: Context) -> Outcome:
    """Renormalise the top-k entries of the printed row (or of softmax(scores)) and compare."""
    claimed = list(fields.claimed)
    decimals = probability_decimals([claimed, *([list(fields.row)] if fields.row else [])])
    temperature = fields.temperature.value if fields.temperature is not None else 1.0
    from_scores: tuple[list[int], list[float]] | None = None
    try:
        if fields.scores is not None:
            probabilities = [
                float(p) for p in softmax([s.value for s in fields.scores], temperature)
            ]
            from_scores = _renormalised(probabilities, fields.k)
        if fields.row is not None:
            kept, weights = _renormalised([p.value for p in fields.row], fields.k)
            source = f"the printed row {printed_text(fields.row)}"
        else:
            assert from_scores is not None
            kept, weights = from_scores
            over_t = f" / {fields.temperature.text}" if fields.temperature is not None else ""
            source = f"softmax({printed_text(fields.scores or ())}{over_t})"
    except UndefinedError as undefined:
        return error(str(undefined), printed_text(claimed))
    result, order = _best_order(claimed, kept, weights, decimals, context)
    how = (
        f"top {fields.k} of {source} (entries {', '.join(str(i + 1) for i in kept)}) "
        f"divided by their total, {order}"
    )
    result = Check(
        result.label,
        result.comparisons,
        vector=True,
        how=how,
        element_names=result.element_names,
    )
    items: list[Check | str] = [result]
    problem = sum_problem("renormalised weights", claimed, decimals, context)
    if problem:
        items.append(problem)
    outcome = combine(items, what=f"top-{fields.k} renormalised weights", value=tuple(weights))
    if fields.row is None or from_scores is None:
        return outcome
    true_kept, true_weights = from_scores
    if _row_holds(fields, temperature, decimals, context) or (
        _best_order(claimed, true_kept, true_weights, decimals, context)[0].ok
    ):
        return outcome
    carried = (
        f"the printed row is not the softmax of its scores {printed_text(fields.scores or ())}: "
        f"from the scores the top {fields.k} are entries "
        f"{', '.join(str(i + 1) for i in true_kept)}, renormalised {vector_text(true_weights)}"
    )
    if outcome.verdict == "pass" and fields.carried_from is not None:
        return replace(
            outcome,
            verdict="fail",
            severity="error",
            corrections=(),
            expected=f"{vector_text(true_weights)} (from the scores: entries "
            f"{', '.join(str(i + 1) for i in true_kept)})",
            value=tuple(true_weights),
            message=f"{outcome.message}, but the row is the one printed in {fields.carried_from}, "
            f"carried into this lesson with its error: {carried}",
            details=(*outcome.details, f"carried from {fields.carried_from}: {carried}"),
        )
    if outcome.verdict == "pass":
        return replace(
            outcome,
            message=f"{outcome.message}; carried from the wrong row: {carried}",
            details=(*outcome.details, f"carried: {carried}"),
        )
    return replace(outcome, message=f"{outcome.message}; {carried}")
