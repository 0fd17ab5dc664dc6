"""Recogniser ``table_shapes``: a parameter-count column beside a column of tensor shapes.

Recognises a GFM table with a column headed Shape (``Shape``, ``Dims``, ``Dimensions``, ``形状``,
``维度``) and a column headed Parameters (``Params``, ``#Params``, ``Parameters``, ``Param
count``, ``Elements``, ``参数量``, ``参数``): each row's count is the number of entries of its
shapes — the product of a shape's sizes, a multiple of it (``4 x (768, 768)``), or a sum of
shapes (``(768, 3072) + (3072, 768)``). The row becomes an ``arithmetic`` claim quoting the row,
with the shape written as the product it stands for (``(50257×768)``).

Only shapes of printed whole numbers are read: a shape of names (``(hidden, 3, patch, patch)``),
a count written as a formula or with words (``0 (computed, not learned)``), and a total row
(whose shape cell is empty) are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "table_shapes"

_SHAPE_HEADER = re.compile(r"^(?:shapes?|dims|dimensions|tensor shape|形状|维度)$", re.IGNORECASE)
_COUNT_HEADER = re.compile(
    r"^(?:#\s*)?(?:params|parameters|param(?:eter)? count|elements|参数量|参数|参数个数)$",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"\*\*|__|`")
_DIMS = r"\d+(?:\s*,\s*\d+)*"
# A shape cell: terms joined by +, each "N x (a, b)", "(a, b)", "[a, b]" or "a x b x …".
_TERM = rf"(?:\d+\s*[x×*]\s*)?(?:\(\s*{_DIMS}\s*,?\s*\)|\[\s*{_DIMS}\s*\]|\d+(?:\s*[x×*]\s*\d+)*)"
_SHAPE_CELL = re.compile(rf"^\s*{_TERM}(?:\s*\+\s*{_TERM})*\s*$")
_COUNT_CELL = re.compile(r"^\s*(\d{1,3}(?:,\d{3})+|\d+)\s*$")
_BRACKETS = re.compile(r"[(\[]\s*(" + _DIMS + r")\s*,?\s*[)\]]")


def _expression(shape: str) -> str:
    """The shape cell as arithmetic: each bracketed shape the product of its sizes."""
    text = _BRACKETS.sub(
        lambda m: "(" + "×".join(d.strip() for d in m.group(1).split(",")) + ")", shape
    )
    return re.sub(r"\s*[x*]\s*", "×", text).strip()


def _columns(table: Table) -> tuple[int, int] | None:
    labels = [_MARKUP.sub("", h).strip() for h in table.header]
    shapes = [i for i, h in enumerate(labels) if _SHAPE_HEADER.match(h)]
    counts = [i for i, h in enumerate(labels) if _COUNT_HEADER.match(h)]
    if len(shapes) != 1 or len(counts) != 1:
        return None
    return shapes[0], counts[0]


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every row whose parameter count its shapes give."""
    for block in document.blocks:
        table = block.table
        if table is None or len(table.header) < 2:
            continue
        columns = _columns(table)
        if columns is None:
            continue
        shape_column, count_column = columns
        for row, line in table.rows:
            if max(shape_column, count_column) >= len(row):
                continue
            shape = _MARKUP.sub("", row[shape_column])
            count = _COUNT_CELL.match(_MARKUP.sub("", row[count_column]))
            if count is None or not _SHAPE_CELL.match(shape):
                continue
            expression = _expression(shape)
            if "×" not in expression and "+" not in expression:
                continue  # one size alone states no product
            yield Draft(
                kind="arithmetic",
                quote=document.source_line(line) or table.row_source(row),
                line=line,
                fields={"expression": expression, "claimed": count.group(1)},
                confidence=0.8,
                recognizer=NAME,
                slug="shape-params",
            )
