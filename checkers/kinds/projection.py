"""Kind ``projection``: a vector claimed to be x·W for a stated row vector x and matrix W.

YAML fields:

``x``
    The input row vector as printed (1×n), e.g. ``[0.5, 0.2, 0.8, 0.1]``.
``X``
    Instead of ``x``: several input rows, one per token; ``claimed`` is then one row per token.
``W``
    The weight matrix as printed, n rows of m numbers: ``[[0.1, 0.2], [0.3, 0.4], …]``.
``claimed``
    The result as printed: a vector of m numbers (``[0.58, 0.74]``); with ``component``, one
    number; with ``X``, a list of rows, or a mapping token (or 0-based row) → row to claim only
    some rows.
``component``
    Optional 0-based index of one element, as lessons write it: ``Q_猫[0] = 0.58`` is
    ``component: 0, claimed: 0.58``.
``name``
    Optional name of the result in the lesson (``Q_追``; with ``X``, ``Q``), used in messages.
``tokens``
    Optional names of the rows of ``X`` (``[猫, 追, 老鼠]``), used in messages and as row keys.

Example (a vector that claims to come from W_q but does not)::

    kind: projection
    name: Q_追
    x: [0.3, 0.7, 0.2, 0.6]
    W: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]]
    claimed: [0.62, 0.81]

The product is computed from x and W as printed (the lesson's stated inputs, taken as exact);
each claimed element is compared at its own printed precision.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from pydantic import Field, model_validator

from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedVector,
    error,
)
from checkers.kinds.matrices import (
    Check,
    Matrix,
    PrintedMatrix,
    PrintedRows,
    Row,
    combine,
    number_text,
    select_rows,
)
from checkers.numbers import Printed, compare

__all__ = ["Input", "check"]


class Input(KindInput):
    """Fields of a ``projection`` claim."""

    x: PrintedVector | None = None
    """The input row vector as printed (1×n)."""
    X: PrintedMatrix | None = None
    """Several input rows (one per token), instead of ``x``."""
    W: PrintedMatrix
    """The weight matrix as printed: n rows of m numbers."""
    claimed: PrintedNumber | PrintedVector | PrintedRows = Field(union_mode="left_to_right")
    """The printed result: a vector, one number (with ``component``), or rows (with ``X``)."""
    component: int | None = Field(default=None, ge=0)
    """0-based index of the single element claimed (``Q_猫[0]``)."""
    name: str | None = Field(default=None, max_length=80)
    """The result's name in the lesson (``Q_追``), for messages."""
    tokens: tuple[str, ...] = ()
    """Names of the rows of ``X``, for messages and as row keys of ``claimed``."""

    @model_validator(mode="after")
    def _shapes_agree(self) -> Input:
        if (self.x is None) == (self.X is None):
            raise ValueError("give exactly one of x (one row vector) or X (one row per token)")
        inner = len(self.W)
        width = len(self.W[0])
        inputs = [self.x] if self.x is not None else list(self.X or ())
        for index, row in enumerate(inputs):
            if len(row) != inner:
                where = "x" if self.x is not None else f"X row {index}"
                raise ValueError(
                    f"{where} has {len(row)} numbers but W has {inner} rows; x·W needs them equal"
                )
        if self.component is not None and self.component >= width:
            raise ValueError(
                f"component {self.component} is outside 0..{width - 1} (W has {width} columns)"
            )
        if self.X is not None:
            if self.tokens and len(self.tokens) != len(self.X):
                raise ValueError(f"tokens names {len(self.tokens)} rows but X has {len(self.X)}")
            if isinstance(self.claimed, Printed) or _is_vector(self.claimed):
                raise ValueError("with X, claimed must be rows: a list of rows or token → row")
            if self.component is not None:
                raise ValueError("component applies to a single x, not to X")
            select_rows(_rows_field(self.claimed), self.tokens, len(self.X))
        elif isinstance(self.claimed, Printed):
            if self.component is None and width != 1:
                raise ValueError(
                    f"claimed is one number but x·W has {width} elements: say which with component"
                )
        elif _is_vector(self.claimed):
            if self.component is not None:
                raise ValueError("with component, claimed is one number, not a vector")
            if len(self.claimed) != width:
                raise ValueError(f"claimed has {len(self.claimed)} elements but x·W has {width}")
        else:
            raise ValueError("with x, claimed is a vector (or one number with component)")
        return self


def _is_vector(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(v, Printed) for v in value)


def _rows_field(value: object) -> Matrix | Mapping[int | str, Row]:
    """A :data:`PrintedRows` value, narrowed for the type checker."""
    if isinstance(value, Mapping):
        return value
    if isinstance(value, tuple):
        return value
    raise TypeError("expected printed rows")


def _element_working(x: Row, W: Matrix, column: int) -> str:
    return " + ".join(f"{xi.text}×{W[i][column].text}" for i, xi in enumerate(x))


def _project(x: Row, W: Matrix) -> list[float]:
    return [math.fsum(xi.value * W[i][j].value for i, xi in enumerate(x)) for j in range(len(W[0]))]


def check(fields: Input, context: Context) -> Outcome:
    """Recompute x·W from the printed x and W and compare with the printed result."""
    name = fields.name or "x·W"
    if fields.x is not None:
        product = _project(fields.x, fields.W)
        workings = [
            f"{name}[{j}] = {_element_working(fields.x, fields.W, j)} = {number_text(v)}"
            for j, v in enumerate(product)
        ]
        if isinstance(fields.claimed, Printed):
            column = fields.component if fields.component is not None else 0
            one = Check(
                f"{name}[{column}]",
                (compare(fields.claimed, product[column], context.tolerance),),
                how=_element_working(fields.x, fields.W, column),
            )
            return combine([one], what=f"{name}[{column}]", details=workings, value=product[column])
        if not _is_vector(fields.claimed):
            return error("with x, claimed is a vector (or one number with component)")
        row = tuple(p for p in fields.claimed if isinstance(p, Printed))
        whole = Check(
            name,
            tuple(compare(p, v, context.tolerance) for p, v in zip(row, product, strict=True)),
            vector=True,
            how="x·W" if fields.name else "",
        )
        return combine([whole], what=name, details=workings, value=tuple(product))
    inputs = fields.X or ()
    rows = select_rows(_rows_field(fields.claimed), fields.tokens, len(inputs))
    checks: list[Check | str] = []
    details: list[str] = []
    values: list[float] = []
    for index, printed_row in rows:
        label = fields.tokens[index] if fields.tokens else str(index)
        if fields.tokens:
            row_name = f"{name}_{label}"
        else:
            row_name = f"{fields.name}[{index}]" if fields.name else f"(X·W)[{index}]"
        product = _project(inputs[index], fields.W)
        if len(printed_row) != len(product):
            return error(
                f"{row_name} has {len(printed_row)} printed elements but x·W has {len(product)}"
            )
        checks.append(
            Check(
                row_name,
                tuple(
                    compare(p, v, context.tolerance)
                    for p, v in zip(printed_row, product, strict=True)
                ),
                vector=True,
                how=f"x_{label}·W" if fields.tokens else f"X[{index}]·W",
            )
        )
        details.extend(
            f"{row_name}[{j}] = {_element_working(inputs[index], fields.W, j)} = {number_text(v)}"
            for j, v in enumerate(product)
        )
        values.extend(product)
    return combine(checks, what=name, details=details, value=tuple(values))
