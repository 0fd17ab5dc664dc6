"""Kind ``matrix_arithmetic``: a sum, product, multiple or transpose of printed matrices.

YAML fields:

``expression``
    The operation over the named matrices and plain numbers: ``A + B``, ``A - B``, ``2 * A``,
    ``A B`` or ``A @ B`` (a matrix product; ``*``, ``×`` and ``·`` between two matrices are
    one too), ``A^T`` (the transpose), with brackets. A number times a matrix scales it.
``matrices``
    Each name's matrix as printed: a list of equally long rows. A cell is a printed number or
    arithmetic the lesson wrote in it (``sin(1/10000^0)``), read by our own parser, never eval.
``claimed``
    The printed result: every row (a list of rows), or some rows as 0-based row → row, as a
    lesson's printed matrix is checked one row per line.

Example (the second row of a sum printed with one wrong cell)::

    kind: matrix_arithmetic
    quote: "0.5 & 1.1"
    expression: A + B
    matrices: {A: [["1", "2"], ["0.2", "0.4"]], B: [["0", "1"], ["0.3", "0.6"]]}
    claimed: {1: ["0.5", "1.1"]}

The result is computed from the operands as printed (the lesson's stated inputs, taken as
exact); each claimed cell is compared at its own printed precision, and a failure names the
cell (row, column, from 0), the recomputed value and the tolerance it was read with.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import Field, field_validator, model_validator

from checkers.expr import ExprError, evaluate_text
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedVector,
    error,
    severity_of,
)
from checkers.kinds.matrices import Check, PrintedMatrix, combine, number_text
from checkers.numbers import compare

__all__ = ["Input", "check"]

MAX_CELLS = 4096
"""Cells one operand may hold; lesson matrices are a few dozen."""
MAX_CELL_TEXT = 200
"""Characters of arithmetic one operand cell may hold."""

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,40}")
_TOKEN = re.compile(
    r"\s*(?:(?P<name>[A-Za-z][A-Za-z0-9_]*)|(?P<number>\d+(?:\.\d+)?)|(?P<op>\^T|[-+*/@×·()]))"
)

Grid = list[list[float]]


class Input(KindInput):
    """Fields of a ``matrix_arithmetic`` claim."""

    expression: str = Field(min_length=1, max_length=200)
    """The operation over the named matrices (``A + B``, ``x W``, ``A^T``, ``2 * A``)."""
    matrices: dict[str, list[list[str]]]
    """Each operand's cells as printed: numbers, or arithmetic written in the cell."""
    claimed: PrintedMatrix | dict[int, PrintedVector] = Field(union_mode="left_to_right")
    """The printed result: all rows, or 0-based row → printed row."""

    @field_validator("matrices", mode="before")
    @classmethod
    def _cells_as_text(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError("matrices maps a name to its rows, e.g. {A: [[1, 2], [3, 4]]}")
        return {
            name: [[str(cell) for cell in row] if isinstance(row, list) else row for row in rows]
            if isinstance(rows, list)
            else rows
            for name, rows in value.items()
        }

    @model_validator(mode="after")
    def _operands_are_matrices(self) -> Input:
        for name, rows in self.matrices.items():
            if not _NAME.fullmatch(name):
                raise ValueError(f"matrix name {name!r} is not a name (letters, digits, _)")
            widths = {len(row) for row in rows}
            if not rows or len(widths) != 1 or 0 in widths:
                raise ValueError(f"matrix {name} needs equally long, non-empty rows")
            if len(rows) * len(rows[0]) > MAX_CELLS:
                raise ValueError(f"matrix {name} has more than {MAX_CELLS} cells")
            if any(len(cell) > MAX_CELL_TEXT for row in rows for cell in row):
                raise ValueError(f"a cell of {name} is longer than {MAX_CELL_TEXT} characters")
        return self


def check(fields: Input, context: Context) -> Outcome:
    """Compute the expression from the printed operands and compare every claimed cell."""
    try:
        operands = {name: _grid(name, rows) for name, rows in fields.matrices.items()}
        result = _Evaluator(fields.expression, operands).run()
    except _MatrixError as problem:
        return error(problem.message, "")
    if isinstance(result, float):
        return error(f"{fields.expression} is a number, not a matrix", "")
    claimed = (
        dict(fields.claimed)
        if isinstance(fields.claimed, Mapping)
        else dict(enumerate(fields.claimed))
    )
    checks: list[Check | str] = []
    for row, printed in claimed.items():
        if not 0 <= row < len(result):
            return error(f"row {row} is outside the result's rows 0 … {len(result) - 1}", "")
        if len(printed) != len(result[row]):
            return error(
                f"row {row} prints {len(printed)} cells, but {fields.expression} has "
                f"{len(result[row])} columns",
                "",
            )
        comparisons = tuple(
            compare(p, v, context.tolerance) for p, v in zip(printed, result[row], strict=True)
        )
        wrong = "; ".join(
            f"cell ({row}, {column}) is {number_text(c.recomputed, 6)} → {c.corrected}, "
            f"not {c.printed.text} ({c.tolerance.reason})"
            for column, c in enumerate(comparisons)
            if not c.ok
        )
        checks.append(
            Check(
                f"row {row} of {fields.expression}",
                comparisons,
                vector=True,
                element_names=tuple(f"cell ({row}, {j})" for j in range(len(printed))),
                problem=f"row {row} of {fields.expression}: {wrong}" if wrong else "",
            )
        )
    shape = f"{len(result)}×{len(result[0])}"
    outcome = combine(checks, what=f"{fields.expression} ({shape})")
    cells = [c for item in checks if isinstance(item, Check) for c in item.comparisons]
    return replace(outcome, severity=severity_of(cells))


class _MatrixError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _grid(name: str, rows: list[list[str]]) -> Grid:
    grid: Grid = []
    for i, row in enumerate(rows):
        values: list[float] = []
        for j, cell in enumerate(row):
            try:
                value = evaluate_text(cell.replace("−", "-"))
            except (ExprError, ArithmeticError, ValueError, RecursionError) as problem:
                raise _MatrixError(
                    f"cell ({i}, {j}) of {name}, {cell!r}, cannot be read: {problem}"
                ) from None
            if isinstance(value, tuple) or not math.isfinite(value):
                raise _MatrixError(f"cell ({i}, {j}) of {name}, {cell!r}, is not one number")
            values.append(value)
        grid.append(values)
    return grid


Value = float | Grid


class _Evaluator:
    """Recursive descent over ``sum := term (± term)*``, ``term := factor ((*|@|/)? factor)*``,
    ``factor := primary (^T)*``, ``primary := name | number | ( sum ) | - factor``."""

    def __init__(self, text: str, operands: Mapping[str, Grid]) -> None:
        self.tokens: list[str] = []
        position = 0
        stripped = text.strip()
        while position < len(stripped):
            match = _TOKEN.match(stripped, position)
            if match is None or match.end() == position:
                raise _MatrixError(
                    f"cannot read {stripped[position : position + 12]!r} in the expression"
                )
            self.tokens.append(match.group(match.lastgroup or "op"))
            position = match.end()
            while position < len(stripped) and stripped[position].isspace():
                position += 1
        self.operands = operands
        self.index = 0

    def run(self) -> Value:
        value = self._sum()
        if self.index != len(self.tokens):
            raise _MatrixError(f"unexpected {self.tokens[self.index]!r} in the expression")
        return value

    def _peek(self) -> str:
        return self.tokens[self.index] if self.index < len(self.tokens) else ""

    def _sum(self) -> Value:
        value = self._term()
        while self._peek() in ("+", "-"):
            op = self.tokens[self.index]
            self.index += 1
            value = _add(value, self._term(), -1.0 if op == "-" else 1.0)
        return value

    def _term(self) -> Value:
        value = self._factor()
        while True:
            op = self._peek()
            if op in ("*", "@", "×", "·", "/"):
                self.index += 1
            elif not op or op in ("+", "-", ")"):
                return value
            # anything else starts a factor: an implicit product ("x W", "2 A")
            right = self._factor()
            value = _divide(value, right) if op == "/" else _multiply(value, right)

    def _factor(self) -> Value:
        value = self._primary()
        while self._peek() == "^T":
            self.index += 1
            if isinstance(value, float):
                raise _MatrixError("^T applies to a matrix, not a number")
            value = [list(column) for column in zip(*value, strict=True)]
        return value

    def _primary(self) -> Value:
        token = self._peek()
        self.index += 1
        if token == "(":
            value = self._sum()
            if self._peek() != ")":
                raise _MatrixError("a bracket is not closed in the expression")
            self.index += 1
            return value
        if token == "-":
            return _scale(self._factor(), -1.0)
        if token and (token[0].isdigit()):
            return float(token)
        if token in self.operands:
            return [list(row) for row in self.operands[token]]
        raise _MatrixError(f"{token!r} is not one of the matrices ({', '.join(self.operands)})")


def _shape(grid: Grid) -> str:
    return f"{len(grid)}×{len(grid[0])}"


def _scale(value: Value, factor: float) -> Value:
    if isinstance(value, float):
        return value * factor
    return [[cell * factor for cell in row] for row in value]


def _add(left: Value, right: Value, sign: float) -> Value:
    if isinstance(left, float) and isinstance(right, float):
        return left + sign * right
    if isinstance(left, float) or isinstance(right, float):
        raise _MatrixError("a number is added to a matrix")
    if len(left) != len(right) or len(left[0]) != len(right[0]):
        raise _MatrixError(f"cannot add a {_shape(left)} and a {_shape(right)} matrix")
    return [
        [a + sign * b for a, b in zip(ra, rb, strict=True)]
        for ra, rb in zip(left, right, strict=True)
    ]


def _multiply(left: Value, right: Value) -> Value:
    if isinstance(left, float):
        return _scale(right, left)
    if isinstance(right, float):
        return _scale(left, right)
    if len(left[0]) != len(right):
        raise _MatrixError(f"cannot multiply a {_shape(left)} by a {_shape(right)} matrix")
    columns = list(zip(*right, strict=True))
    return [
        [math.fsum(a * b for a, b in zip(row, column, strict=True)) for column in columns]
        for row in left
    ]


def _divide(left: Value, right: Value) -> Value:
    if not isinstance(right, float) or right == 0:
        raise _MatrixError("a matrix can be divided only by a non-zero number")
    return _scale(left, 1.0 / right)
