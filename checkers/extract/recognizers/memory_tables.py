"""Recogniser ``memory_tables``: weight-memory tables by parameter count and storage type.

Recognises a GFM table in one of three layouts, every cell with a byte unit (``14 GB``,
``3.5 GiB``, or a plain number under a header naming the unit: ``Memory (GB)``) becoming a
``memory`` claim, params × bytes per parameter:

* the first column holds parameter counts (``7B``, ``70 亿``) or model names with a size
  (``LLaMA-2 7B``), and other headers name storage types (``fp32``, ``FP16``, ``bf16``,
  ``int8``, ``int4``, optionally with bytes: ``fp16 (2 B)``);
* a params column (``Params``, ``Total Params``, ``参数量``) holds the count, and a header names
  a storage type together with what is stored, weights or memory (``Weights (FP16)``, ``Memory
  (BF16)``, ``显存 (BF16)``, ``Gradients (FP16)``); headers about optimizer states, caches,
  activations, training or peak use are not weights and are left alone;
* a header names the count (``Memory (70B)``, ``Typical Memory (8B model)``) and each row's first
  cell names the storage type (``FP32``, ``FP16/BF16``, ``INT4``).

Approximate cells (``~16 GB``) are left alone: they estimate more than the weights.

A fourth layout is training memory by component: headers name components (``Weights``,
``Gradients``, ``Optimizer``/``Adam``; :data:`checkers.extract.relations.training_memory.
COMPONENTS`) and a ``Total``, and a row's first cell names a storage setup. A row that names an
fp32 master copy (``Mixed (BF16 + FP32 master)``) in a table with no master-copy column must
count it in its total: total = the row's component cells + the master copy, 4 bytes per
parameter, i.e. the weights cell × 4 / the bytes of the row's weight type (2 for fp16/bf16;
Micikevicius et al. 2018, ZeRO §3). Other rows are sums that the totals recognisers check.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import dtype_table, parse_count, size_in_name
from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft
from checkers.extract.relations.training_memory import COMPONENTS

__all__ = ["recognize"]

NAME = "memory_tables"

_DTYPE = re.compile(r"\b(" + "|".join(dtype_table().written) + r")\b", re.IGNORECASE)
_BYTES = re.compile(r"^\s*\d[\d,]*(?:\.\d+)?\s*(?:KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$")
_PLAIN = re.compile(r"^\s*\d[\d,]*(?:\.\d+)?\s*$")
_HEADER_BYTES = re.compile(r"[（(]\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*[)）]")
_PARAMS_HEADER = re.compile(
    r"^(?:total\s+)?(?:params|parameters|参数量?|总参数量?|参数规模)$", re.IGNORECASE
)
_STORED = re.compile(r"weights?|memory|size|storage|gradients?|显存|内存|权重|存储|梯度", re.I)
_NOT_WEIGHTS = re.compile(
    r"optim|adam|state|kv|cache|activation|train|peak|vram|total|lora|full|overhead|usage|"
    r"inference|优化器|缓存|激活|训练|峰值",
    re.IGNORECASE,
)
_COUNT_IN_HEADER = re.compile(r"[（(]\s*(\d+(?:\.\d+)?\s*[BMbm])(?:\s*(?:model|模型))?\s*[)）]")
_MARKUP = re.compile(r"\*\*|__|`")


def _claimed(cell: str, header: str) -> str | None:
    """The cell as a printed size with its byte unit (from the header when the cell has none)."""
    text = _MARKUP.sub("", cell).strip()
    if _BYTES.match(text):
        return text
    unit = _HEADER_BYTES.search(header)
    if unit is not None and _PLAIN.match(text):
        return f"{text} {unit.group(1)}"
    return None


def _draft(
    document: Document,
    table: Table,
    cells: tuple[str, ...],
    line: int,
    params: str,
    dtype: str,
    claimed: str,
) -> Draft:
    return Draft(
        kind="memory",
        quote=document.source_line(line) or table.row_source(cells),
        line=line,
        fields={"params": params, "dtype": dtype, "claimed": claimed},
        confidence=0.85,
        recognizer=NAME,
        slug=f"{params}-{dtype}",
    )


def _by_first_column(document: Document, table: Table) -> Iterator[Draft]:
    dtypes = {
        i: match.group(1).lower()
        for i, header in enumerate(table.header)
        if i > 0 and (match := _DTYPE.search(header))
    }
    params_column = next(
        (
            i
            for i, header in enumerate(table.header)
            if i > 0 and _PARAMS_HEADER.match(_MARKUP.sub("", header).strip())
        ),
        None,
    )
    if params_column is not None:
        # A params column: only headers that say weights or memory are stored in the type.
        dtypes = {
            i: dtype
            for i, dtype in dtypes.items()
            if _STORED.search(table.header[i]) and not _NOT_WEIGHTS.search(table.header[i])
        }
    if not dtypes:
        return
    for cells, line in table.rows:
        source = cells[0] if params_column is None else cells[params_column]
        first = _MARKUP.sub("", source).strip()
        params = parse_count(first) or (size_in_name(first) if params_column is None else None)
        if params is None:
            continue
        for index, dtype in dtypes.items():
            if index >= len(cells):
                continue
            if params_column is None and not _BYTES.match(cells[index]):
                continue
            claimed = _claimed(cells[index], table.header[index])
            if claimed is not None:
                yield _draft(document, table, cells, line, params.text, dtype, claimed)


def _by_header_count(document: Document, table: Table) -> Iterator[Draft]:
    for index, header in enumerate(table.header):
        count = _COUNT_IN_HEADER.search(header)
        if index == 0 or count is None or not _STORED.search(header):
            continue
        if _NOT_WEIGHTS.search(header) or _DTYPE.search(header):
            continue
        params = parse_count(count.group(1))
        if params is None:
            continue
        for cells, line in table.rows:
            if index >= len(cells):
                continue
            name = _MARKUP.sub("", cells[0]).strip().split("/")[0].strip()
            dtype = dtype_table().find(name)
            claimed = _claimed(cells[index], header)
            if dtype is None or claimed is None:
                continue
            yield _draft(document, table, cells, line, params.text, dtype.name, claimed)


_TOTAL_HEADER = re.compile(r"^\s*\**\s*(?:total|sum|合计|总计|总共|总显存)\b", re.IGNORECASE)
_SIZE_CELL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B)\s*$")


def _by_training_components(document: Document, table: Table) -> Iterator[Draft]:
    total = next((i for i, h in enumerate(table.header) if _TOTAL_HEADER.match(h)), None)
    if total is None or total == 0:
        return
    columns: dict[int, str] = {}
    for index, header in enumerate(table.header[1:], start=1):
        if index == total:
            continue
        name = next((n for n, p in COMPONENTS if p.search(header)), None)
        if name is None and _OPTIMIZER_HEADER.search(header):
            name = "adam"
        if name is None:
            return  # a column the total may sum that is not a training component
        columns[index] = name
    names = set(columns.values())
    if "master" in names or not {"weights", "gradients", "adam"} <= names:
        return
    master = COMPONENTS[0][1]
    for cells, line in table.rows:
        if len(cells) != len(table.header) or not master.search(cells[0]):
            continue
        dtype = dtype_table().find(
            next(
                (m.group(1) for m in _DTYPE.finditer(cells[0]) if m.group(1).lower() != "fp32"), ""
            )
        )
        sizes = {i: _SIZE_CELL.match(_MARKUP.sub("", cells[i])) for i in (*columns, total)}
        if dtype is None or dtype.bytes >= 4 or any(m is None for m in sizes.values()):
            continue
        units = {m.group(2) for m in sizes.values() if m is not None}
        if len(units) != 1:
            continue
        where = {
            _WHERE_NAMES[columns[i]]: f"{m.group(1)} {m.group(2)}"
            for i, m in sizes.items()
            if m is not None and i != total
        }
        weight_bytes = f"{dtype.bytes:g}"
        claimed = sizes[total]
        assert claimed is not None
        yield Draft(
            kind="arithmetic",
            quote=document.source_line(line) or table.row_source(cells),
            line=line,
            fields={
                "expression": " + ".join(where) + f" + weights × 4 / {weight_bytes}",
                "where": where,
                "claimed": f"{claimed.group(1)} {claimed.group(2)}",
                "prefixes": "either" if document.byte_prefixes == "either" else "decimal",
            },
            confidence=0.6,
            recognizer=NAME,
            slug=f"training-total-{claimed.group(0).strip()}",
            note=(
                f"the row names an fp32 master copy ({cells[0].strip()}) and no column holds it: "
                f"4 bytes per parameter, the {dtype.name} weights × 4 / {weight_bytes} "
                "(mixed precision, Micikevicius et al. 2018; ZeRO §3)"
            ),
        )


_OPTIMIZER_HEADER = re.compile(r"optimi[sz]er|adam|优化器", re.IGNORECASE)
_WHERE_NAMES = {"weights": "weights", "gradients": "gradients", "adam": "optimizer_states"}


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``memory`` claim for every size in a params × dtype table, and an ``arithmetic``
    claim for the total of a training-memory row that names a master copy."""
    for block in document.blocks:
        table = block.table
        if table is None or len(table.header) < 2:
            continue
        yield from _by_first_column(document, table)
        yield from _by_header_count(document, table)
        yield from _by_training_components(document, table)
