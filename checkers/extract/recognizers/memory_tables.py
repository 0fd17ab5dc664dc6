"""Recogniser ``memory_tables``: weight-memory tables by parameter count and storage type.

Recognises a GFM table whose first column holds parameter counts (``7B``, ``70 亿``, ``13B``) or
model names with a size (``LLaMA-2 7B``), and whose other headers name storage types (``fp32``,
``FP16``, ``bf16``, ``int8``, ``int4``, optionally with bytes: ``fp16 (2 B)``). Every cell with a
byte unit (``14 GB``, ``3.5 GiB``) becomes a ``memory`` claim: params × bytes per parameter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import dtype_table, parse_count, size_in_name
from checkers.extract.document import Document
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "memory_tables"

_DTYPE = re.compile(r"\b(" + "|".join(dtype_table().written) + r")\b", re.IGNORECASE)
_BYTES = re.compile(r"^\s*\d[\d,]*(?:\.\d+)?\s*(?:KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$")


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``memory`` claim for every size in a params × dtype table."""
    for block in document.blocks:
        table = block.table
        if table is None:
            continue
        dtypes = {
            i: match.group(1).lower()
            for i, header in enumerate(table.header)
            if i > 0 and (match := _DTYPE.search(header))
        }
        if not dtypes:
            continue
        for cells, line in table.rows:
            first = cells[0].strip()
            params = parse_count(first) or size_in_name(first)
            if params is None:
                continue
            for index, dtype in dtypes.items():
                if index >= len(cells) or not _BYTES.match(cells[index]):
                    continue
                yield Draft(
                    kind="memory",
                    quote=document.source_line(line) or table.row_source(cells),
                    line=line,
                    fields={"params": params.text, "dtype": dtype, "claimed": cells[index].strip()},
                    confidence=0.85,
                    recognizer=NAME,
                    slug=f"{params.text}-{dtype}",
                )
