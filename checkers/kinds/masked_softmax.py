"""Kind ``masked_softmax``: weights after masking a score matrix, and the mask itself.

YAML fields:

``scores``
    The score matrix (rows = queries, columns = keys) as printed. Cells may be ``−∞``/``-inf``
    (the lesson's own masked matrix, when only that is printed) or ``?`` (a score the lesson does
    not give).
``masked_scores``
    Optional: the masked matrix as the lesson prints it (``−∞`` in hidden cells), when it prints
    the original ``scores`` too. Its −∞ cells are the lesson's actual mask; its other cells must
    equal ``scores``.
``mask``
    The mask the lesson names: ``causal`` (row i hides every column j > i), ``padding`` (hides the
    key columns that are padding, see ``valid``), ``causal+padding``, ``none``, or an explicit
    matrix of 1/0 (true/false) where **1 = may attend, 0 = hidden** (the convention of PyTorch's
    ``scaled_dot_product_attention`` boolean mask and of Hugging Face ``attention_mask``). When
    omitted, the −∞ cells of the printed matrix are the mask.
``valid``
    For ``padding``: the number of real (non-padding) tokens, which come first, or a list of 1/0
    per key position (1 = real token).
``fill``
    What hidden cells are set to before softmax: ``-inf`` (the default, the correct choice) or a
    number such as ``0``, to check a lesson's "what if we filled with 0 instead" contrast.
``unknown_scores``
    ``true`` when the lesson gives no scores at all (then give ``size``): every visible score is
    unknown, and a row passes if *some* scores reproduce it (solved exactly, see below).
``size``
    The number of positions, when no matrix is given.
``claimed``
    The printed weight rows, one per query row.
``rows``
    Instead of ``claimed``: some rows only, as 0-based row index (or token) → printed row, e.g.
    ``{2: [0.25, 0.38, 0.37, 0]}``; ``null`` for a row the lesson prints no numbers for.
``tokens``
    Optional names of the positions, for messages and as row keys.

Checks, in order:

(a) the mask named by ``mask`` is the one the printed matrix applies: for ``causal``, exactly the
    cells j > i are −∞; every cell that differs is named;
(b) each claimed row equals softmax over its row with hidden cells set to ``fill``;
(c) a row whose every score is −∞ has no softmax (0/0): printing numbers for it fails, and when
    the named mask would have left that row visible, the message gives the weights it yields;
    a claimed ``null`` row that is undefined is reported as an error (nothing to check);
(d) with unknown scores, a row passes when some value of the unknown scores gives weights that
    round to the printed ones. The row's known weights all scale with one factor t = 1/Σ, so the
    printed intervals bound t, and the unknown weights take up 1 − t·Σknown: the row is feasible
    exactly when these intervals meet. Equal known scores give equal weights, so they must be
    printed equal.

Example (the contrast "filling with 0 instead of −∞ gives [0.45, 0.27, 0.27]")::

    kind: masked_softmax
    mask: causal
    size: 3
    unknown_scores: true
    fill: 0
    rows: {0: [0.45, 0.27, 0.27]}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

import numpy as np
from pydantic import Field, PlainValidator, WithJsonSchema, model_validator

from checkers.formulas import UndefinedError, softmax, softmax_rows
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, PrintedVector, error
from checkers.kinds.matrices import (
    Check,
    PrintedMatrix,
    Row,
    combine,
    number_text,
    printed_text,
    resolve_row,
    vector_text,
)
from checkers.kinds.probability import (
    compare_probability,
    probability_decimals,
    probability_tolerance,
    range_problems,
    sum_problem,
)
from checkers.numbers import NumberError, Printed, parse_printed

if TYPE_CHECKING:
    from checkers.formulas import FloatArray

__all__ = ["Input", "check"]

NEG_INF_TEXTS = frozenset({"-∞", "−∞", "-inf", "−inf", "-infinity", "−infinity", "-Infinity"})
"""How a lesson (or a claim file) writes a masked score."""

Cell = Printed | None
"""One printed score: a number, −∞ (value −inf), or None for a score the lesson does not give."""


def _cell(value: Any) -> Cell:
    if value is None:
        return None
    if isinstance(value, float) and math.isinf(value) and value < 0:
        return Printed(text="−∞", value=-math.inf, decimals=0, exponent=0, unit=None)
    text = str(value).strip()
    if text == "?":
        return None
    if text in NEG_INF_TEXTS or text.lower() in NEG_INF_TEXTS:
        return Printed(text="−∞", value=-math.inf, decimals=0, exponent=0, unit=None)
    try:
        return parse_printed(text)
    except NumberError as problem:
        raise ValueError(
            f"{problem.message}; a masked score is written −∞ or -inf, an unknown one ?"
        ) from None


def _score_matrix(value: Any) -> tuple[tuple[Cell, ...], ...]:
    if isinstance(value, tuple):
        return value
    if not isinstance(value, list) or not value or not all(isinstance(r, list) for r in value):
        raise ValueError(
            "expected a score matrix as a list of rows, e.g. [[0.5, -inf], [0.2, 0.6]]"
        )
    rows = []
    for index, row in enumerate(value):
        try:
            rows.append(tuple(_cell(item) for item in row))
        except ValueError as problem:
            raise ValueError(f"row {index}: {problem}") from None
    if len({len(row) for row in rows}) != 1:
        raise ValueError("every row of the score matrix needs the same number of entries")
    return tuple(rows)


ScoreMatrix = Annotated[
    tuple[tuple[Cell, ...], ...],
    PlainValidator(_score_matrix),
    WithJsonSchema(
        {
            "title": "score matrix (−∞ masked, ? not given)",
            "type": "array",
            "minItems": 1,
            "items": {"type": "array", "items": {"type": ["number", "string", "null"]}},
        }
    ),
]
"""A score matrix whose cells may be −∞ (masked) or ``?`` (not given)."""

MaskName = Literal["causal", "padding", "causal+padding", "none"]


class Input(KindInput):
    """Fields of a ``masked_softmax`` claim."""

    scores: ScoreMatrix | None = None
    """The score matrix as printed (cells may be −∞ or ?)."""
    masked_scores: ScoreMatrix | None = None
    """The lesson's printed masked matrix, when it prints the original scores too."""
    mask: MaskName | tuple[tuple[bool, ...], ...] | None = Field(
        default=None, union_mode="left_to_right"
    )
    """The named mask, or an explicit matrix (1 = may attend, 0 = hidden)."""
    valid: int | tuple[bool, ...] | None = Field(default=None, union_mode="left_to_right")
    """For padding: how many leading tokens are real, or 1/0 per key position."""
    fill: PrintedNumber | None = None
    """The value hidden cells get (None: −∞)."""
    unknown_scores: bool = False
    """True when no scores are given: visible scores are unknowns."""
    size: int | None = Field(default=None, ge=1, le=4096)
    """Number of positions when no matrix is given."""
    claimed: PrintedMatrix | None = None
    """Every printed weight row."""
    rows: dict[int | str, PrintedVector | None] | None = None
    """Some printed weight rows: row key → row (null: no numbers printed)."""
    tokens: tuple[str, ...] = ()
    """Names of the positions."""

    @model_validator(mode="before")
    @classmethod
    def _fill_text(cls, data: Any) -> Any:
        # "fill: -inf" is the default; keep it readable in YAML without a special type.
        if isinstance(data, dict) and str(data.get("fill", "")).strip() in NEG_INF_TEXTS:
            data = {key: value for key, value in data.items() if key != "fill"}
        return data

    @model_validator(mode="after")
    def _shapes_agree(self) -> Input:
        if (self.claimed is None) == (self.rows is None):
            raise ValueError("give claimed (every row) or rows (some rows), exactly one")
        shape = self.shape()
        if shape is None:
            raise ValueError("give scores, masked_scores, an explicit mask matrix, or size")
        n_rows, n_cols = shape
        for name, matrix in (("scores", self.scores), ("masked_scores", self.masked_scores)):
            if matrix is not None and (len(matrix), len(matrix[0])) != shape:
                raise ValueError(
                    f"{name} is {len(matrix)}×{len(matrix[0])}, expected {n_rows}×{n_cols}"
                )
        if isinstance(self.mask, tuple) and (len(self.mask), len(self.mask[0])) != shape:
            raise ValueError(f"the mask matrix is not {n_rows}×{n_cols} like the scores")
        if self.mask in ("padding", "causal+padding") and self.valid is None:
            raise ValueError("a padding mask needs valid: the number of real tokens or 1/0 per key")
        if isinstance(self.valid, tuple) and len(self.valid) != n_cols:
            raise ValueError(f"valid lists {len(self.valid)} positions but there are {n_cols} keys")
        if self.unknown_scores and (self.scores is not None or self.masked_scores is not None):
            raise ValueError(
                "unknown_scores means no scores are given; mark single unknowns with ?"
            )
        if self.tokens and len(self.tokens) not in (n_rows, n_cols):
            raise ValueError(
                f"tokens names {len(self.tokens)} positions, the matrix is {n_rows}×{n_cols}"
            )
        if self.claimed is not None and (len(self.claimed), len(self.claimed[0])) != shape:
            raise ValueError(
                f"claimed is {len(self.claimed)}×{len(self.claimed[0])}, expected {n_rows}×{n_cols}"
            )
        for key, row in (self.rows or {}).items():
            index = resolve_row(key, self.tokens, n_rows)
            if row is not None and len(row) != n_cols:
                raise ValueError(f"row {index} has {len(row)} weights but there are {n_cols} keys")
        return self

    def shape(self) -> tuple[int, int] | None:
        """(query rows, key columns)."""
        for matrix in (self.scores, self.masked_scores):
            if matrix is not None:
                return len(matrix), len(matrix[0])
        if isinstance(self.mask, tuple):
            return len(self.mask), len(self.mask[0])
        if self.size is not None:
            return self.size, self.size
        return None


@dataclass(frozen=True)
class _Grid:
    """Everything known about the score matrix, cell by cell."""

    raw: list[list[float | None]]
    """Unmasked scores (None: not given)."""
    printed_hidden: list[list[bool]] | None
    """Cells the lesson's printed matrix sets to −∞ (None: no masked matrix printed)."""
    named_visible: list[list[bool]] | None
    """Cells the named mask lets a row attend to (None: no mask named)."""

    def visible(self) -> list[list[bool]]:
        """The mask the weights are checked against: the named one, else the printed one."""
        if self.named_visible is not None:
            return self.named_visible
        if self.printed_hidden is not None:
            return [[not hidden for hidden in row] for row in self.printed_hidden]
        return [[True] * len(row) for row in self.raw]


def _named_mask(fields: Input, n_rows: int, n_cols: int) -> list[list[bool]] | None:
    if fields.mask is None:
        return None
    if isinstance(fields.mask, tuple):
        return [list(row) for row in fields.mask]
    if isinstance(fields.valid, int):
        real = [j < fields.valid for j in range(n_cols)]
    elif isinstance(fields.valid, tuple):
        real = list(fields.valid)
    else:
        real = [True] * n_cols
    causal = "causal" in fields.mask
    padding = "padding" in fields.mask
    return [
        [(not causal or j <= i) and (not padding or real[j]) for j in range(n_cols)]
        for i in range(n_rows)
    ]


def _grid(fields: Input, n_rows: int, n_cols: int) -> tuple[_Grid, list[str]]:
    """The cell-by-cell picture, and problems where the two printed matrices disagree."""
    problems: list[str] = []
    raw: list[list[float | None]] = [[None] * n_cols for _ in range(n_rows)]
    printed_hidden: list[list[bool]] | None = None
    masked = fields.masked_scores
    scores = fields.scores
    if (
        scores is not None
        and masked is None
        and any(c is not None and math.isinf(c.value) for row in scores for c in row)
    ):
        # Only the lesson's masked matrix is printed: its −∞ cells are its mask.
        masked, scores = scores, None
    if scores is not None:
        for i, row in enumerate(scores):
            for j, cell in enumerate(row):
                raw[i][j] = None if cell is None else cell.value
    if masked is not None:
        printed_hidden = [
            [cell is not None and math.isinf(cell.value) for cell in row] for row in masked
        ]
        for i, row in enumerate(masked):
            for j, cell in enumerate(row):
                if cell is None or math.isinf(cell.value):
                    continue
                if raw[i][j] is None:
                    raw[i][j] = cell.value
                elif raw[i][j] != cell.value:
                    problems.append(
                        f"cell {_cell_name(fields, i, j)} reads {cell.text} in the masked matrix "
                        f"but {number_text(raw[i][j] or 0.0)} in the scores: masking only sets "
                        "hidden cells to −∞"
                    )
    return _Grid(raw, printed_hidden, _named_mask(fields, n_rows, n_cols)), problems


def _name(fields: Input, index: int) -> str:
    return fields.tokens[index] if index < len(fields.tokens) else str(index)


def _cell_name(fields: Input, i: int, j: int) -> str:
    return f"({_name(fields, i)}, {_name(fields, j)})"


def _mask_description(fields: Input) -> str:
    if isinstance(fields.mask, tuple):
        return "the given mask matrix"
    if fields.mask == "causal":
        return "mask: causal hides exactly the cells j > i"
    if fields.mask == "padding":
        return "mask: padding hides exactly the padding key columns"
    if fields.mask == "causal+padding":
        return "mask: causal+padding hides exactly the cells j > i and the padding columns"
    return "mask: none hides no cell"


def _mask_short(fields: Input) -> str:
    if isinstance(fields.mask, tuple):
        return "the given mask"
    return {"causal": "a causal mask", "padding": "the padding mask"}.get(
        str(fields.mask), f"the {fields.mask} mask"
    )


def _mask_problem(fields: Input, grid: _Grid) -> str | None:
    """(a): where the printed −∞ cells differ from the named mask, or None."""
    if grid.named_visible is None or grid.printed_hidden is None:
        return None
    exposed: list[str] = []
    over_hidden: list[str] = []
    for i, (visible_row, hidden_row) in enumerate(
        zip(grid.named_visible, grid.printed_hidden, strict=True)
    ):
        for j, (visible, hidden) in enumerate(zip(visible_row, hidden_row, strict=True)):
            if not visible and not hidden:
                exposed.append(_cell_name(fields, i, j))
            elif visible and hidden:
                over_hidden.append(_cell_name(fields, i, j))
    if not exposed and not over_hidden:
        return None
    parts = []
    if exposed:
        parts.append(f"leaves {', '.join(exposed)} visible")
    if over_hidden:
        parts.append(f"hides {', '.join(over_hidden)}, which {_mask_short(fields)} keeps visible")
    return f"{_mask_description(fields)}, but the printed matrix {' and '.join(parts)}"


def _claimed_rows(fields: Input, n_rows: int) -> list[tuple[int, Row | None]]:
    if fields.claimed is not None:
        return list(enumerate(fields.claimed))
    return [
        (resolve_row(key, fields.tokens, n_rows), row) for key, row in (fields.rows or {}).items()
    ]


def check(fields: Input, context: Context) -> Outcome:
    """Check the named mask against the printed one, then each claimed row's weights."""
    shape = fields.shape()
    if shape is None:
        return error("give scores, masked_scores, an explicit mask matrix, or size")
    n_rows, n_cols = shape
    grid, items_text = _grid(fields, n_rows, n_cols)
    items: list[Check | str] = list(items_text)
    mask_problem = _mask_problem(fields, grid)
    if mask_problem:
        items.append(mask_problem)
    visible = grid.visible()
    fill = fields.fill.value if fields.fill is not None else -math.inf
    fill_text = fields.fill.text if fields.fill is not None else "−∞"
    claimed = _claimed_rows(fields, n_rows)
    decimals = probability_decimals([row for _, row in claimed if row is not None])
    undefined: list[str] = []
    values: list[float] = []
    details: list[str] = []
    free_rows = False
    notes: list[str] = []
    for i, printed in claimed:
        label = f"row {_name(fields, i)}"
        row_scores: list[float | None] = [
            (grid.raw[i][j] if visible[i][j] else fill) for j in range(n_cols)
        ]
        unknown = [j for j in range(n_cols) if visible[i][j] and grid.raw[i][j] is None]
        printed_row_hidden = grid.printed_hidden[i] if grid.printed_hidden else None
        if (
            printed_row_hidden is not None
            and all(printed_row_hidden)
            and not all(not v for v in visible[i])
        ):
            # (c) the lesson's own matrix masks the whole row although the named mask does not.
            items.extend(
                _undefined_in_print(fields, i, printed, row_scores, unknown, decimals, context)
            )
            continue
        if all(math.isinf(s) for s in row_scores if s is not None) and not unknown:
            # Every score is −∞ under the mask being checked: softmax is 0/0.
            why = f"{label}: every score is −∞ (fully masked), so softmax is 0/0 and undefined"
            if printed is None:
                undefined.append(why + "; nothing to check")
            else:
                items.append(f"{why}, yet the lesson prints {printed_text(printed)}")
            continue
        if printed is None:
            details.append(f"{label}: no numbers printed; nothing to check")
            continue
        names = tuple(f"weight({_name(fields, i)}, {_name(fields, j)})" for j in range(n_cols))
        if unknown and not fields.unknown_scores and _hidden_by_print(grid, i, unknown):
            items.append(
                f"{label}: the printed matrix hides scores "
                f"{', '.join(_cell_name(fields, i, j) for j in unknown)} that the named mask "
                "keeps, and their values are not given, so the correct weights cannot be "
                "recomputed (give the original scores)"
            )
            continue
        if unknown:
            free_rows = True
            items.extend(
                _free_row(
                    fields,
                    label,
                    i,
                    printed,
                    row_scores,
                    unknown,
                    names,
                    fill_text,
                    decimals,
                    context,
                    notes,
                )
            )
        else:
            known = [s if s is not None else fill for s in row_scores]
            weights = [float(w) for w in softmax(known)]
            items.append(
                Check(
                    label,
                    tuple(
                        compare_probability(p, w, decimals, context)
                        for p, w in zip(printed, weights, strict=True)
                    ),
                    vector=True,
                    how=f"softmax({vector_text(known)})",
                    element_names=names,
                )
            )
            equal = _equal_score_problem(label, printed, known, names)
            if equal:
                items.append(equal)
            values.extend(weights)
        items.extend(range_problems(label, printed, names))
        problem = sum_problem(label, printed, decimals, context)
        if problem:
            items.append(problem)
    if free_rows:
        notes.append(
            "the scores are not given, so only the existence of such scores could be checked"
        )
    elif fields.fill is not None:
        notes.append(f"hidden cells filled with {fill_text}")
    has_comparisons = any(isinstance(item, Check) for item in items)
    outcome = combine(
        items,
        what="the masked softmax",
        details=[*details, *undefined, *notes],
        value=None if free_rows or not values else tuple(values),
        pass_note="; ".join(notes),
        claimed=None
        if has_comparisons
        else "; ".join(printed_text(row) for _, row in claimed if row is not None),
        expected=None if has_comparisons else "weights some choice of the unknown scores gives",
        tolerance=None
        if has_comparisons
        else f"each printed weight ± its rounding ({decimals} decimals)",
    )
    if outcome.verdict == "pass" and undefined:
        return error("; ".join(undefined))
    if outcome.verdict == "fail" and undefined:
        return Outcome(
            verdict=outcome.verdict,
            claimed=outcome.claimed,
            expected=outcome.expected,
            tolerance=outcome.tolerance,
            message=f"{outcome.message}; {'; '.join(undefined)}",
            corrections=outcome.corrections,
            details=outcome.details,
            value=outcome.value,
        )
    return outcome


def _hidden_by_print(grid: _Grid, i: int, unknown: Sequence[int]) -> bool:
    return grid.printed_hidden is not None and any(grid.printed_hidden[i][j] for j in unknown)


def _undefined_in_print(
    fields: Input,
    i: int,
    printed: Row | None,
    row_scores: Sequence[float | None],
    unknown: Sequence[int],
    decimals: int,
    context: Context,
) -> list[Check | str]:
    """(c): the printed matrix masks row i entirely; the named mask would not."""
    label = f"row {_name(fields, i)}"
    why = f"{label}: the printed matrix sets every score to −∞, so its softmax is 0/0 and undefined"
    if printed is None:
        return [f"{why}; nothing is printed for it"]
    why += f", yet the lesson prints {printed_text(printed)}"
    kept = [_name(fields, j) for j, s in enumerate(row_scores) if s is None or not math.isinf(s)]
    if unknown:
        return [
            f"{why}; {_mask_description(fields)}, which would leave {label} seeing "
            f"{', '.join(kept)}, but those scores are not given, so the correct weights cannot "
            "be recomputed"
        ]
    known = [s if s is not None else -math.inf for s in row_scores]
    try:
        weights = [float(w) for w in softmax(known)]
    except UndefinedError as undefined:
        return [f"{why}; under the named mask too: {undefined}"]
    correct = [
        compare_probability(p, w, decimals, context) for p, w in zip(printed, weights, strict=True)
    ]
    corrected = "[" + ", ".join(c.corrected for c in correct) + "]"
    problem = (
        f"{why}; {_mask_description(fields)}, which leaves {label} seeing {', '.join(kept)}: "
        f"softmax({vector_text(known)}) = {corrected}"
    )
    names = tuple(f"weight({_name(fields, i)}, {_name(fields, j)})" for j in range(len(row_scores)))
    return [
        Check(
            label,
            tuple(correct),
            vector=True,
            how=f"softmax({vector_text(known)})",
            problem=problem,
            element_names=names,
        )
    ]


def _equal_score_problem(
    label: str, printed: Row, scores: Sequence[float], names: Sequence[str]
) -> str | None:
    """Equal scores give equal weights, so (at equal printed precision) equal printed values."""
    for a in range(len(scores)):
        for b in range(a + 1, len(scores)):
            same_score = scores[a] == scores[b] and not math.isinf(scores[a])
            same_precision = printed[a].decimals == printed[b].decimals
            if same_score and same_precision and printed[a].value != printed[b].value:
                return (
                    f"{label}: {names[a]} and {names[b]} have the same score "
                    f"{number_text(scores[a])}, so the same weight, but are printed "
                    f"{printed[a].text} and {printed[b].text}"
                )
    return None


def _interval(printed: Printed, decimals: int, context: Context) -> tuple[float, float]:
    tolerance = probability_tolerance(printed, decimals, context)
    width = max(tolerance.absolute, tolerance.relative * abs(printed.value))
    slack = 1e-9 * width + 1e-15
    return printed.value - width - slack, printed.value + width + slack


def _free_row(
    fields: Input,
    label: str,
    i: int,
    printed: Row,
    row_scores: Sequence[float | None],
    unknown: Sequence[int],
    names: Sequence[str],
    fill_text: str,
    decimals: int,
    context: Context,
    notes: list[str],
) -> list[Check | str]:
    """(d): is there any value of the unknown scores whose softmax rounds to the printed row?"""
    intervals = [_interval(p, decimals, context) for p in printed]
    problems: list[Check | str] = []
    # Masked cells (−∞) get exactly 0.
    for j, score in enumerate(row_scores):
        if score is not None and math.isinf(score):
            low, high = intervals[j]
            if not low <= 0.0 <= high:
                problems.append(
                    f"{names[j]} is masked (−∞), so its weight is 0, not {printed[j].text}"
                )
    fixed = [j for j, s in enumerate(row_scores) if s is not None and not math.isinf(s)]
    free = list(unknown)
    known_only = [
        score if score is not None and j in fixed else math.nan
        for j, score in enumerate(row_scores)
    ]
    equal = _equal_score_problem(label, printed, known_only, names)
    if equal:
        problems.append(equal)
    free_low = math.fsum(max(intervals[j][0], 0.0) for j in free)
    free_high = math.fsum(min(intervals[j][1], 1.0) for j in free)
    if any(intervals[j][1] <= 0.0 for j in free):
        problems.append(
            f"{label}: an unknown (finite) score always gets a positive weight, but "
            + ", ".join(
                f"{names[j]} is printed {printed[j].text}" for j in free if intervals[j][1] <= 0
            )
        )
        return problems
    scale_low, scale_high = 0.0, math.inf
    peak = max((row_scores[j] or 0.0) for j in fixed) if fixed else 0.0
    weights = {j: math.exp((row_scores[j] or 0.0) - peak) for j in fixed}
    total_fixed = math.fsum(weights.values())
    if fixed:
        # Every known weight is w_j · t with t = 1/Σ: each printed interval bounds t …
        for j in fixed:
            scale_low = max(scale_low, intervals[j][0] / weights[j])
            scale_high = min(scale_high, intervals[j][1] / weights[j])
        # … and the unknown weights must take up the rest: Σfree = 1 − t·Σknown.
        scale_low = max(scale_low, (1.0 - free_high) / total_fixed)
        scale_high = min(scale_high, (1.0 - free_low) / total_fixed)
        feasible = scale_low <= scale_high and scale_high > 0
    else:
        feasible = free_low <= 1.0 <= free_high
    unknown_cells = ", ".join(_cell_name(fields, i, j) for j in free)
    filled = f" with hidden cells filled with {fill_text}" if fields.fill is not None else ""
    if feasible and not problems:
        if len(free) == 1 and fixed:
            t_low = max(scale_low, 1e-300)
            high = peak + math.log(max(1.0 - t_low * total_fixed, 1e-300) / t_low)
            low = peak + math.log(max(1.0 - scale_high * total_fixed, 1e-300) / scale_high)
            span = f"any score {number_text(low)} ≤ s ≤ {number_text(high)} at {unknown_cells}"
        else:
            span = f"some value of the unknown scores at {unknown_cells}"
        notes.append(f"{label}: {span} gives {printed_text(printed)}{filled}")
        return []
    if not feasible:
        best = _best_fit(row_scores, free, printed) if len(free) == 1 and fixed else None
        message = (
            f"{label}: no value of the unknown score(s) at {unknown_cells} gives "
            f"{printed_text(printed)}{filled}"
        )
        if fixed:
            message += (
                f": the known scores {', '.join(number_text(row_scores[j] or 0.0) for j in fixed)} "
                "fix the ratios of their weights"
            )
        if best is None:
            problems.append(message)
        else:
            score, fitted = best
            comparisons = tuple(
                compare_probability(p, w, decimals, context)
                for p, w in zip(printed, fitted, strict=True)
            )
            corrected = "[" + ", ".join(c.corrected for c in comparisons) + "]"
            message += f"; the closest is s = {number_text(score)}, giving {corrected}"
            problems.append(
                Check(
                    label,
                    comparisons,
                    vector=True,
                    how="softmax",
                    problem=message,
                    element_names=tuple(names),
                )
            )
    return problems


def _best_fit(
    row_scores: Sequence[float | None], free: Sequence[int], printed: Row
) -> tuple[float, list[float]] | None:
    """The single unknown score whose softmax is nearest the printed row (least squares).

    The loss is evaluated on whole grids at once: 601 candidates 0.1 apart over [−30, 30], then
    finer grids around the best one, each 100 times finer, down to steps of 10⁻⁹.
    """
    (slot,) = free
    base = np.array([v if v is not None else -math.inf for v in row_scores], dtype=np.float64)
    target = np.array([p.value for p in printed], dtype=np.float64)

    def weights(candidates: FloatArray) -> FloatArray:
        rows = np.tile(base, (candidates.size, 1))
        rows[:, slot] = candidates
        return softmax_rows(rows)

    def nearest(candidates: FloatArray) -> float:
        loss = ((weights(candidates) - target) ** 2).sum(axis=1)
        return float(candidates[int(np.argmin(loss))])

    best = nearest(np.linspace(-30.0, 30.0, 601))
    step = 0.1
    while step > 1e-9:
        best = nearest(np.linspace(best - step, best + step, 201))
        step /= 100
    return best, [float(w) for w in weights(np.array([best]))[0]]
