"""Kind ``attention``: a worked self-attention example, stage by stage, and multi-head sizes.

X → Q, K, V → scores = Q·Kᵀ → scaled = scores / √d_k → weights = softmax(row) → output =
weights·V. Every stage the lesson prints is checked; a stage is recomputed from the previous
stage *as printed* where it is printed (so 0.78 / 1.41 = 0.55 is judged from the printed 0.78,
and a wrong value is reported once, where it first appears), and from recomputed values where
it is not. The details also give what the later stages would be from unrounded, correct values.

YAML fields:

``tokens``
    Names of the positions (``[猫, 追, 老鼠]``), for messages and as row keys.
``X``
    The input rows (one per token) as printed, when Q/K/V are computed from it.
``W_q``, ``W_k``, ``W_v``
    Projection matrices as printed; with ``X`` they give Q, K and V.
``Q``, ``K``, ``V``
    Query/key/value rows given as printed inputs (instead of X with a W).
``d_k``
    The key dimension (defaults to the width of the K rows).
``scale``
    ``sqrt_dk`` (default) divides scores by √d_k exactly; ``none`` does not scale.
``divide_by``
    The divisor as printed (``1.41``), used as printed; with ``d_k`` it is checked against √d_k.
``mask``
    ``none`` (default) or ``causal`` (row i only sees positions j ≤ i).
``weights``
    Optional weight rows given as printed *inputs* (all rows, or token → row), for an output the
    lesson computes from printed weights (``output_猫 = 0.30×V_猫 + 0.35×V_追 + 0.35×V_老鼠``);
    then only V is needed. Weights to be *checked* go under ``claimed`` instead.
``claimed``
    The printed stages, any subset of ``Q``, ``K``, ``V`` (only those computed from X·W),
    ``scores``, ``scaled``, ``weights``, ``output``. Each is a list with one row per token, or a
    mapping token (or 0-based row) → row for the rows the lesson prints.
``heads``, ``d_model``, ``d_head``, ``d_v``, ``concat_dim``
    Multi-head sizes as printed: d_model = heads × d_head (d_head = d_model / heads must be a
    whole number), and the concatenated heads have heads × d_v dimensions (d_v defaults to
    d_head). These are exact integer checks; a claim may hold only these fields.

Example (a single row of a worked example, K and V given)::

    kind: attention
    tokens: [我, 吃]
    Q: [[0.6, 0.2], [0.3, 0.9]]
    K: [[0.4, 0.7], [0.1, 0.5]]
    V: [[0.8, 0.3], [0.6, 0.2]]
    divide_by: 1.41
    d_k: 2
    claimed:
      scores: {我: [0.38, 0.16]}
      scaled: {我: [0.27, 0.11]}
      weights: {我: [0.54, 0.46]}
      output: {我: [0.71, 0.25]}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, model_validator

from checkers.formulas import UndefinedError, softmax
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, error
from checkers.kinds.matrices import (
    Check,
    Matrix,
    PrintedMatrix,
    PrintedRows,
    Row,
    combine,
    divisor_checks,
    number_text,
    select_rows,
    vector_text,
)
from checkers.kinds.probability import compare_probability, probability_decimals, sum_problem
from checkers.numbers import Tolerance, compare, parse_printed

__all__ = ["Input", "Stages", "check"]

STAGES = ("Q", "K", "V", "scores", "scaled", "weights", "output")
"""The stages a claim may print, in the order they are computed."""

EXACT = Tolerance(absolute=0.0, relative=0.0, reason="exact: dimensions are whole numbers")


class Stages(KindInput):
    """The printed stages of the computation, each all rows or some rows."""

    Q: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed query rows (checked against X·W_q)."""
    K: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed key rows (checked against X·W_k)."""
    V: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed value rows (checked against X·W_v)."""
    scores: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed rows of Q·Kᵀ."""
    scaled: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed rows of Q·Kᵀ / √d_k."""
    weights: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed softmax rows."""
    output: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Printed output rows, weights·V."""


class Input(KindInput):
    """Fields of an ``attention`` claim."""

    tokens: tuple[str, ...] = ()
    """Names of the positions."""
    X: PrintedMatrix | None = None
    """Input rows, one per token."""
    W_q: PrintedMatrix | None = None
    """Query projection."""
    W_k: PrintedMatrix | None = None
    """Key projection."""
    W_v: PrintedMatrix | None = None
    """Value projection."""
    Q: PrintedMatrix | None = None
    """Query rows given as inputs."""
    K: PrintedMatrix | None = None
    """Key rows given as inputs."""
    V: PrintedMatrix | None = None
    """Value rows given as inputs."""
    d_k: int | None = Field(default=None, ge=1)
    """Key dimension."""
    scale: Literal["sqrt_dk", "none"] = "sqrt_dk"
    """Divide scores by √d_k (exact) or not at all."""
    divide_by: PrintedNumber | None = None
    """The printed divisor, used as printed."""
    mask: Literal["none", "causal"] = "none"
    """Causal: row i sees only j ≤ i."""
    weights: PrintedRows | None = Field(default=None, union_mode="left_to_right")
    """Weight rows given as printed inputs, for an output computed from printed weights."""
    claimed: Stages | None = None
    """The printed stages."""
    heads: int | None = Field(default=None, ge=1)
    """Number of heads."""
    d_model: int | None = Field(default=None, ge=1)
    """Model width."""
    d_head: int | None = Field(default=None, ge=1)
    """Per-head width (d_k of one head)."""
    d_v: int | None = Field(default=None, ge=1)
    """Per-head value width; defaults to d_head."""
    concat_dim: int | None = Field(default=None, ge=1)
    """Width of the concatenated heads."""

    @model_validator(mode="after")
    def _consistent(self) -> Input:
        claimed = self.claimed or Stages()
        printed = {stage for stage in STAGES if getattr(claimed, stage) is not None}
        dims = any(
            v is not None
            for v in (self.heads, self.d_model, self.d_head, self.d_v, self.concat_dim)
        )
        if not printed and not dims:
            raise ValueError("nothing to check: give claimed stages or multi-head sizes")
        for letter in ("q", "k", "v"):
            weight = getattr(self, f"W_{letter}")
            given = getattr(self, letter.upper())
            if weight is not None and given is not None:
                raise ValueError(
                    f"give W_{letter} (with X) or {letter.upper()} as an input, not both; "
                    f"a printed {letter.upper()} to check goes under claimed"
                )
            if weight is not None and self.X is None:
                raise ValueError(f"W_{letter} needs X to project")
            if weight is not None and self.X is not None and len(weight) != len(self.X[0]):
                raise ValueError(
                    f"X rows have {len(self.X[0])} numbers but W_{letter} has {len(weight)} rows"
                )
            if letter.upper() in printed and weight is None:
                raise ValueError(
                    f"claimed {letter.upper()} is checked against X·W_{letter}: "
                    f"give X and W_{letter}"
                )
        if self.weights is not None and "weights" in printed:
            raise ValueError(
                "weights are either given (inputs, top level) or claimed (checked), not both"
            )
        output_needs = "V" if self.weights is not None else "QKV"
        needs = {"scores": "QK", "scaled": "QK", "weights": "QK", "output": output_needs}
        for stage, letters in needs.items():
            if stage in printed:
                for letter in letters:
                    if (
                        getattr(self, letter) is None
                        and getattr(self, f"W_{letter.lower()}") is None
                    ):
                        raise ValueError(
                            f"claimed {stage} needs {letter} (or X and W_{letter.lower()})"
                        )
        if self.scale == "none" and self.divide_by is not None:
            raise ValueError("scale: none divides by nothing; drop divide_by")
        rows = self._row_count()
        if self.tokens and rows is not None and len(self.tokens) != rows:
            raise ValueError(f"tokens names {len(self.tokens)} positions but there are {rows} rows")
        return self

    def _row_count(self) -> int | None:
        for matrix in (self.X, self.Q, self.K, self.V):
            if matrix is not None:
                return len(matrix)
        return None


@dataclass(frozen=True)
class _Value:
    """A number used in a later stage: the printed one where printed, else the recomputed one."""

    value: float
    text: str


_Rows = list[list[_Value]]


def _from_printed(matrix: Matrix) -> _Rows:
    return [[_Value(p.value, p.text) for p in row] for row in matrix]


def _from_floats(rows: Sequence[Sequence[float]]) -> _Rows:
    return [[_Value(v, number_text(v)) for v in row] for row in rows]


def _project(inputs: Matrix, weight: Matrix) -> list[list[float]]:
    return [
        [
            math.fsum(x.value * weight[i][j].value for i, x in enumerate(row))
            for j in range(len(weight[0]))
        ]
        for row in inputs
    ]


def _texts(row: Sequence[_Value]) -> str:
    return "[" + ", ".join(v.text for v in row) + "]"


class _Run:
    """The computation, stage by stage, collecting checks."""

    def __init__(self, fields: Input, context: Context) -> None:
        self.fields = fields
        self.context = context
        self.items: list[Check | str] = []
        self.details: list[str] = []
        self.last: list[float] = []
        self.stages = fields.claimed or Stages()
        self.count = fields._row_count() or 0

    def name(self, index: int) -> str:
        return self.fields.tokens[index] if self.fields.tokens else str(index)

    def given_weights(self) -> list[tuple[int, Row]]:
        """Weight rows the claim gives as inputs."""
        if self.fields.weights is None:
            return []
        return select_rows(self.fields.weights, self.fields.tokens, self._key_count())

    def _key_count(self) -> int:
        for matrix in (self.fields.V, self.fields.K, self.fields.X):
            if matrix is not None:
                return len(matrix)
        return self.count

    def printed(self, stage: str) -> list[tuple[int, Row]]:
        rows = getattr(self.stages, stage)
        if rows is None:
            return []
        return select_rows(rows, self.fields.tokens, self.count)

    def projection(self, letter: str) -> tuple[_Rows, list[list[float]]]:
        """(rows used downstream, true rows) of Q, K or V."""
        weight = getattr(self.fields, f"W_{letter.lower()}")
        if weight is None:
            given: Matrix | None = getattr(self.fields, letter)
            if given is None:
                raise ValueError(
                    f"{letter} is needed here: give {letter}, or X and W_{letter.lower()}"
                )
            values = [[p.value for p in row] for row in given]
            return _from_printed(given), values
        inputs = self.fields.X or ()
        true = _project(inputs, weight)
        used = _from_floats(true)
        for i, row in self.printed(letter):
            label = f"{letter}_{self.name(i)}"
            if len(row) != len(true[i]):
                raise ValueError(
                    f"{label} has {len(row)} printed numbers but X·W has {len(true[i])}"
                )
            self.items.append(
                Check(
                    label,
                    tuple(
                        compare(p, v, self.context.tolerance)
                        for p, v in zip(row, true[i], strict=True)
                    ),
                    vector=True,
                    how=f"x_{self.name(i)}·W_{letter.lower()}",
                )
            )
            used[i] = [_Value(p.value, p.text) for p in row]
            self.last = list(true[i])
        return used, true

    def matrix_stage(
        self,
        stage: str,
        computed: list[list[float]],
        how: Sequence[Sequence[str]],
        used: _Rows,
        label_word: str,
    ) -> None:
        """Compare printed entries one by one (scores, scaled) and substitute them downstream."""
        for i, row in self.printed(stage):
            if len(row) != len(computed[i]):
                raise ValueError(
                    f"{stage} row {self.name(i)} has {len(row)} entries, "
                    f"expected {len(computed[i])}"
                )
            for j, p in enumerate(row):
                label = f"{label_word}({self.name(i)}, {self.name(j)})"
                self.items.append(
                    Check(
                        label,
                        (compare(p, computed[i][j], self.context.tolerance),),
                        how=how[i][j],
                    )
                )
                used[i][j] = _Value(p.value, p.text)
            self.last = list(computed[i])


def _visible(fields: Input, i: int, j: int) -> bool:
    return fields.mask != "causal" or j <= i


def _softmax_row(fields: Input, i: int, row: Sequence[float]) -> list[float]:
    masked = [v if _visible(fields, i, j) else -math.inf for j, v in enumerate(row)]
    return [float(w) for w in softmax(masked)]


def check(fields: Input, context: Context) -> Outcome:
    """Check each printed stage from the stage before it, and the multi-head sizes."""
    run = _Run(fields, context)
    try:
        if fields.claimed is not None and any(
            getattr(fields.claimed, s) is not None for s in STAGES
        ):
            _stages(run)
    except UndefinedError as undefined:
        return error(str(undefined))
    except ValueError as problem:
        return error(str(problem))
    _dimensions(run)
    what = "the attention example" if fields.claimed is not None else "each multi-head size"
    return combine(
        run.items,
        what=what,
        details=run.details,
        value=tuple(run.last) if run.last else None,
    )


def _stages(run: _Run) -> None:
    stages = run.stages
    given_weights = dict(run.given_weights())
    attends = any(getattr(stages, s) is not None for s in ("scores", "scaled", "weights")) or (
        stages.output is not None and any(i not in given_weights for i, _ in run.printed("output"))
    )
    needs_q = attends or stages.Q is not None
    needs_k = attends or stages.K is not None
    needs_v = stages.output is not None or stages.V is not None
    Q_used, Q_true = run.projection("Q") if needs_q else ([], [])
    K_used, K_true = run.projection("K") if needs_k else ([], [])
    V_used, V_true = run.projection("V") if needs_v else ([], [])
    weights_used: dict[int, list[_Value]] = {}
    if attends:
        weights_used, exact_divisor = _attend(run, Q_used, K_used)
        _true_chain(run, Q_true, K_true, V_true, exact_divisor)
    # Weights the claim gives as printed inputs win over recomputed ones.
    for i, row in given_weights.items():
        weights_used[i] = [_Value(p.value, p.text) for p in row]
    if stages.output is not None:
        _output(run, weights_used, V_used)


def _attend(run: _Run, Q_used: _Rows, K_used: _Rows) -> tuple[dict[int, list[_Value]], float]:
    """Scores, scaled scores and weights; returns the weights as used and the exact divisor."""
    fields, context = run.fields, run.context
    n, m = len(Q_used), len(K_used)
    names = [run.name(i) for i in range(max(n, m))]
    width = len(K_used[0])
    # Stage 1: scores = Q·Kᵀ, from Q and K as used (printed where printed).
    scores = [
        [
            math.fsum(q.value * k.value for q, k in zip(Q_used[i], K_used[j], strict=True))
            for j in range(m)
        ]
        for i in range(n)
    ]
    score_how = [
        [
            f"Q_{names[i]}·K_{names[j]} = "
            + " + ".join(f"{q.text}×{k.text}" for q, k in zip(Q_used[i], K_used[j], strict=True))
            for j in range(m)
        ]
        for i in range(n)
    ]
    scores_used = _from_floats(scores)
    run.matrix_stage("scores", scores, score_how, scores_used, "score")
    # Stage 2: scaled = scores / divisor, from the scores as used.
    divisor, divisor_text, divisor_items = divisor_checks(
        fields.divide_by, fields.scale, fields.d_k, width, context
    )
    run.items.extend(divisor_items)
    scaled = [[s.value / divisor for s in row] for row in scores_used]
    scaled_how = [
        [f"{s.text} / {divisor_text}" if divisor_text else s.text for s in row]
        for row in scores_used
    ]
    scaled_used = _from_floats(scaled)
    run.matrix_stage("scaled", scaled, scaled_how, scaled_used, "scaled")
    # Stage 3: weights = softmax of each row, from the scaled scores as used.
    weights_used: dict[int, list[_Value]] = {}
    printed_weights = dict(run.printed("weights"))
    decimals = probability_decimals(list(printed_weights.values()))
    for i in range(n):
        weights = _softmax_row(fields, i, [s.value for s in scaled_used[i]])
        weights_used[i] = [_Value(w, number_text(w)) for w in weights]
        if i not in printed_weights:
            continue
        printed = printed_weights[i]
        if len(printed) != len(weights):
            raise ValueError(
                f"weights row {names[i]} has {len(printed)} entries, expected {len(weights)}"
            )
        label = f"weights({names[i]})"
        shown = [s.text if _visible(fields, i, j) else "−∞" for j, s in enumerate(scaled_used[i])]
        run.items.append(
            Check(
                label,
                tuple(
                    compare_probability(p, w, decimals, context)
                    for p, w in zip(printed, weights, strict=True)
                ),
                vector=True,
                how=f"softmax([{', '.join(shown)}])",
                element_names=tuple(f"weight({names[i]}, {names[j]})" for j in range(m)),
            )
        )
        problem = sum_problem(label, printed, decimals, context)
        if problem:
            run.items.append(problem)
        weights_used[i] = [_Value(p.value, p.text) for p in printed]
        run.last = weights
    # The unrounded chain divides by √d_k itself where the printed divisor stands for it.
    if fields.divide_by is not None:
        exact_divisor = math.sqrt(fields.d_k) if fields.d_k is not None else divisor
    elif fields.scale == "sqrt_dk":
        exact_divisor = math.sqrt(fields.d_k if fields.d_k is not None else width)
    else:
        exact_divisor = 1.0
    return weights_used, exact_divisor


def _output(run: _Run, weights_used: dict[int, list[_Value]], V_used: _Rows) -> None:
    """Stage 4: output = weights·V, from the weights as used (the lesson's printed 0.30 …)."""
    for i, printed in run.printed("output"):
        name = run.name(i)
        weights = weights_used.get(i)
        if weights is None:
            raise ValueError(f"output row {name} needs its weights (given, or Q and K)")
        if len(weights) != len(V_used):
            raise ValueError(
                f"weights row {name} has {len(weights)} entries, V has {len(V_used)} rows"
            )
        output = [
            math.fsum(w.value * V_used[j][c].value for j, w in enumerate(weights))
            for c in range(len(V_used[0]))
        ]
        if len(printed) != len(output):
            raise ValueError(
                f"output row {name} has {len(printed)} numbers, expected {len(output)}"
            )
        run.items.append(
            Check(
                f"output_{name}",
                tuple(
                    compare(p, v, run.context.tolerance)
                    for p, v in zip(printed, output, strict=True)
                ),
                vector=True,
                how=" + ".join(f"{w.text}×V_{run.name(j)}" for j, w in enumerate(weights)),
            )
        )
        run.details.append(
            f"output_{name} = "
            + " + ".join(f"{w.text}×{_texts(V_used[j])}" for j, w in enumerate(weights))
            + f" = {vector_text(output)}"
        )
        run.last = output


def _true_chain(
    run: _Run,
    Q: Sequence[Sequence[float]],
    K: Sequence[Sequence[float]],
    V: Sequence[Sequence[float]],
    divisor: float,
) -> None:
    """Details: every printed stage recomputed from unrounded, correct values end to end."""
    fields = run.fields
    rows = sorted(
        {i for stage in ("scores", "scaled", "weights", "output") for i, _ in run.printed(stage)}
    )
    for i in rows:
        name = run.name(i)
        scores = [math.fsum(q * k for q, k in zip(Q[i], K[j], strict=True)) for j in range(len(K))]
        scaled = [s / divisor for s in scores]
        weights = _softmax_row(fields, i, scaled)
        parts = [
            f"scores {vector_text(scores)}",
            f"scaled {vector_text(scaled)}",
            f"weights {vector_text(weights)}",
        ]
        if V:
            output = [
                math.fsum(weights[j] * V[j][c] for j in range(len(V))) for c in range(len(V[0]))
            ]
            parts.append(f"output {vector_text(output)}")
        run.details.append(f"from unrounded values, row {name}: " + ", ".join(parts))


def _dimensions(run: _Run) -> None:
    """Exact multi-head size checks."""
    fields = run.fields
    heads = fields.heads
    if heads is None:
        if fields.concat_dim is not None or (
            fields.d_head is not None and fields.d_model is not None
        ):
            run.items.append("multi-head sizes need heads: the number of heads")
        return
    d_head = fields.d_head
    if fields.d_model is not None:
        if fields.d_model % heads:
            run.items.append(
                f"d_model = {fields.d_model} does not split into {heads} heads: "
                f"{fields.d_model} / {heads} = {number_text(fields.d_model / heads)} is not a "
                "whole number"
            )
        elif d_head is not None:
            run.items.append(
                Check(
                    "d_head",
                    (compare(parse_printed(d_head), fields.d_model / heads, EXACT),),
                    how=f"d_model / heads = {fields.d_model} / {heads}",
                )
            )
        else:
            d_head = fields.d_model // heads
            run.details.append(f"d_head = {fields.d_model} / {heads} = {d_head}")
    if fields.concat_dim is not None:
        d_v = fields.d_v if fields.d_v is not None else d_head
        if d_v is None:
            run.items.append("concat_dim needs d_v or d_head (or d_model) to recompute heads × d_v")
            return
        source = "d_v" if fields.d_v is not None else "d_head"
        run.items.append(
            Check(
                "concat_dim",
                (compare(parse_printed(fields.concat_dim), heads * d_v, EXACT),),
                how=f"heads × {source} = {heads} × {d_v}",
            )
        )
