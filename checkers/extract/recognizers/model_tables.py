"""Recogniser ``model_tables``: model-size tables, recognised by their headers.

Recognises a GFM table whose first column names models and whose other headers include at least
two of, in Chinese or English:

* layers — 层数, 层, layers, n_layers, L
* heads — 头数, 注意力头数, heads, n_heads, attention heads
* hidden — 隐藏维度, 隐藏层维度, 维度, hidden, hidden size, d_model, width
* context — 上下文, 上下文长度, context, context length, seq len
* params — 参数, 参数量, params, parameters, size

Each row whose model the reference table knows (``checkers/data/models.yaml``) becomes a
``model_config`` claim; rows naming unknown models are left alone rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import find_model, size_in_name
from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft
from checkers.numbers import NumberError, parse_printed

__all__ = ["recognize"]

NAME = "model_tables"

_HEADERS: dict[str, re.Pattern[str]] = {
    "layers": re.compile(r"^(层数|层|layers?|n_layers|num_layers|#\s*layers|l)$"),
    "heads": re.compile(r"^((注意力)?头数|(attention\s+)?heads?|n_heads|num_heads|h)$"),
    "hidden": re.compile(
        r"^(隐藏(层)?维度|隐层维度|维度|hidden(\s+size)?|d_model|dmodel|d|width|embedding\s+dim)$"
    ),
    "head_dim": re.compile(r"^(d/h|d_head|d_k|head\s+(size|dim)|头维度|每头维度|每个头的维度)$"),
    "context": re.compile(r"^(上下文(长度)?|context(\s+length)?|seq(uence)?\s+len(gth)?)$"),
    "params": re.compile(r"^(参数量?|参数规模|params|parameters|size|model\s+size)$"),
}
_NUMBER = re.compile(r"^\s*\d[\d,]*(\.\d+)?\s*([kKMBT]|亿|万)?\s*$")


def _reads(cell: str) -> bool:
    """The cell is a number the claim will accept (``1,2801`` matches _NUMBER but is not one:
    a draft the kind refuses would turn an odd cell into an error of the whole scan)."""
    try:
        parse_printed(cell.strip())
    except NumberError:
        return False
    return True


def _columns(table: Table) -> dict[int, str]:
    columns: dict[int, str] = {}
    for index, header in enumerate(table.header[1:], start=1):
        label = re.sub(r"[`*（(].*$", "", header.replace("$", "")).strip().lower()
        for field, pattern in _HEADERS.items():
            if pattern.match(label):
                columns[index] = field
                break
    return columns


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``model_config`` claim for every known model's row in a model-size table."""
    for block in document.blocks:
        table = block.table
        if table is None or len(table.header) < 3:
            continue
        columns = _columns(table)
        if len(set(columns.values()) - {"params", "head_dim"}) < 2:
            continue
        for cells, line in table.rows:
            name = cells[0].strip().strip("*")
            if not name or find_model(name).spec is None:
                continue
            fields: dict[str, object] = {"name": name}
            for index, field in columns.items():
                if index < len(cells) and _NUMBER.match(cells[index]) and _reads(cells[index]):
                    fields[field] = cells[index].strip()
            if size_in_name(name) is not None:
                fields.pop("params", None)  # the name states the size; the kind reads it there
            if len(fields) < 3:
                continue
            quote = document.source_line(line) or table.row_source(cells)
            yield Draft(
                kind="model_config",
                quote=quote,
                line=line,
                fields=fields,
                confidence=0.9,
                recognizer=NAME,
                slug=name,
            )
