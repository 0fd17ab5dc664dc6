"""Recogniser ``laws``: a stated size law tested on the model table it comments on.

Recognises a law of the parameter count in terms of table columns — ``参数 ≈ 层数 × 隐藏维度 ×
常数``, ``params ≈ 12 × layers × d_model²``, ``参数量 ∝ L · d²``, ``N ~ n_layers × hidden``
(the left side a parameter count, the right a product of column names, powers and constants) —
in the same section as a model table whose columns include every factor of the law and whose
rows give the size (a params column, or the size in the model's name, ``GPT-2 (1.5B)``). Each
such pair becomes a ``scaling`` claim (law form) over the table's rows: the constant
params / product must agree across rows within the kind's ±20%.

Rows of mixture-of-experts models (``Mixtral 8x7B``, ``MoE``, ``A14B``) are left out: their total
count does not follow a dense law. So are rows under 1B parameters: their embeddings (a third of
GPT-2 small's 124M) lie outside any law of depth and width, and a law such as 12·L·d² leaves
them out on purpose. A law whose right side names no table column, and a table
with fewer than two usable rows, are not drafted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import parse_count, size_in_name
from checkers.extract.document import Block, Document, Table
from checkers.extract.draft import Draft
from checkers.kinds.scaling import column_name, parse_law

__all__ = ["recognize"]

NAME = "laws"

_LEFT = r"(?:参数量?|参数规模|模型参数|params|parameters|parameter count|#\s*params|N)"
_FACTOR = r"(?:[\w\u4e00-\u9fff]+(?:\s*(?:\^|\*\*)\s*\d|[²³])?|\d+(?:\.\d+)?)"
_LAW = re.compile(
    rf"(?<![A-Za-z0-9_]){_LEFT}\s*(?P<relation>≈|∝|~|∼|=|约等于|约为|大约是)\s*"
    rf"(?P<right>{_FACTOR}(?:\s*[×*·⋅]\s*{_FACTOR})+)",
    re.IGNORECASE,
)
_MOE = re.compile(r"moe|mixtral|\d+\s*[x×]\s*\d+(?:\.\d+)?\s*[bm]\b|\ba\d+(?:\.\d+)?b\b", re.I)
_NUMBER = re.compile(r"^\s*\d[\d,]*(?:\.\d+)?\s*$")
MIN_PARAMS = 1e9
"""Smallest model a law is tested on (see the module docstring)."""


def _header_columns(table: Table) -> dict[str, int]:
    """Canonical column (``layers``, ``hidden``, ``params``…) → its index."""
    columns: dict[str, int] = {}
    for index, header in enumerate(table.header):
        label = re.sub(r"[`*$（(].*$", "", header).strip()
        canonical = column_name(label)
        if canonical != label or label.lower() in ("params", "layers", "hidden", "heads"):
            columns.setdefault(canonical, index)
    return columns


def _rows(table: Table, factors: list[str], columns: dict[str, int]) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for cells, _line in table.rows:
        name = cells[0].strip().strip("*")
        if not name or _MOE.search(name):
            continue
        row: dict[str, str] = {"name": name}
        for factor in factors:
            index = columns[factor]
            cell = cells[index].strip() if index < len(cells) else ""
            if not _NUMBER.match(cell):
                break
            row[factor] = cell.replace(",", "")
        else:
            params_cell = cells[columns["params"]].strip() if "params" in columns else ""
            size = parse_count(params_cell) if params_cell else size_in_name(name)
            if size is None or size.value < MIN_PARAMS:
                continue
            row["params"] = size.text
            rows.append(row)
    return rows


def _section_laws(blocks: list[Block]) -> Iterator[tuple[str, int]]:
    for block in blocks:
        if block.kind == "table":
            continue
        for line in block.lines:
            for match in _LAW.finditer(line.text):
                yield match.group(0).strip(), line.number


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``scaling`` law claim for each stated law next to a model table."""
    sections: dict[int, list[Block]] = {}
    for block in document.blocks:
        sections.setdefault(block.section, []).append(block)
    for blocks in sections.values():
        tables = [b.table for b in blocks if b.table is not None]
        if not tables:
            continue
        for law_text, line in _section_laws(blocks):
            try:
                law = parse_law(law_text)
            except ValueError:
                continue
            if law.left != "params":
                continue
            factors = [name for name, power in law.factors if power]
            for table in tables:
                columns = _header_columns(table)
                if not all(f in columns for f in factors):
                    continue
                rows = _rows(table, factors, columns)
                if len(rows) < 2:
                    continue
                yield Draft(
                    kind="scaling",
                    quote=law_text,
                    line=line,
                    fields={"law": law_text, "rows": rows},
                    confidence=0.6,
                    recognizer=NAME,
                    slug="params-law",
                )
