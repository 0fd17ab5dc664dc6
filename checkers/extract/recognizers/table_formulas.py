"""Recogniser ``table_formulas``: table columns whose header is a formula of another column.

Recognises a GFM table where one header is a plain variable (``$d_k$``, ``x``, ``n``) and other
headers are arithmetic in that variable (``$\\sqrt{d_k}$``, ``$1/\\sqrt{d_k}$``, ``GELU($x$)``,
``$e^x$``, ``n²``): every body cell under a formula header becomes an ``arithmetic`` claim with
the row's variable as a named input. Only plain numbers are read; a cell with a unit or words
(``1k 词``, ``64×``) is left alone, since its scale would be a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.expr import FUNCTIONS, ExprError, Node, names, parse
from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft
from checkers.extract.latex import plain

__all__ = ["recognize"]

NAME = "table_formulas"

_VARIABLE = re.compile(r"^[A-Za-z](?:_[A-Za-z0-9]+)?$")
_PLAIN_NUMBER = re.compile(r"^[-−]?\d[\d,]*(?:\.\d+)?$")
_RESERVED = FUNCTIONS | {"e", "pi", "inf"}


def _header_text(header: str) -> str:
    text = plain(header)[0].strip()
    # Function names in headers are often capitalised (GELU(x), Sigmoid(x)).
    return re.sub(
        r"[A-Za-z]+(?=\s*\()",
        lambda m: m.group(0).lower() if m.group(0).lower() in FUNCTIONS else m.group(0),
        text,
    )


def _formula(text: str, variables: set[str]) -> Node | None:
    try:
        tree = parse(text)
    except ExprError:
        return None
    free = names(tree)
    return tree if free and free <= variables else None


def _columns(table: Table) -> tuple[dict[int, str], dict[int, str]]:
    """(variable columns: index → name, formula columns: index → expression text)."""
    headers = [_header_text(h) for h in table.header]
    variables = {i: h for i, h in enumerate(headers) if _VARIABLE.match(h) and h not in _RESERVED}
    formulas = {
        i: h
        for i, h in enumerate(headers)
        if i not in variables and _formula(h, set(variables.values())) is not None
    }
    return variables, formulas


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every cell under a formula header."""
    for block in document.blocks:
        table = block.table
        if table is None:
            continue
        variables, formulas = _columns(table)
        if not variables or not formulas:
            continue
        for cells, line in table.rows:
            values = {
                name: cells[i].strip()
                for i, name in variables.items()
                if i < len(cells) and _PLAIN_NUMBER.match(cells[i].strip())
            }
            for index, expression in formulas.items():
                if index >= len(cells) or not _PLAIN_NUMBER.match(cells[index].strip()):
                    continue
                tree = _formula(expression, set(values))
                if tree is None:
                    continue
                used = {name: values[name] for name in sorted(names(tree))}
                yield Draft(
                    kind="arithmetic",
                    quote=document.source_line(line) or table.row_source(cells),
                    line=line,
                    fields={
                        "expression": expression,
                        "where": used,
                        "claimed": cells[index].strip(),
                    },
                    confidence=0.8,
                    recognizer=NAME,
                    slug=f"{expression}-{'-'.join(used.values())}",
                )
