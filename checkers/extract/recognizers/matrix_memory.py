"""Recogniser ``matrix_memory``: the memory of a weight matrix of a stated shape and storage type.

Recognises, within one clause of a logical line (prose, a list item, a line of a diagram), a
shape ``N × M`` (or ``N × M × K``), the storage type its numbers are kept in, and the memory it
takes: ``a 1000 × 1000 matrix of fp32 weights takes 4 MB``, ``a 4096×4096 weight matrix in fp16
needs 32 MiB``, ``一个 4096 × 4096 的 fp16 权重矩阵占 32 MB``. The memory is N·M·bytes per number
of the type (``checkers/data/dtypes.yaml``) → an ``arithmetic`` claim, KB/MB/GB read as the
lesson's prefixes allow.

Only where the type is named in the clause: without it (``a 1000 × 1000 matrix: 4 MB``) the bytes
per number are the reader's guess, and nothing is drafted. A shape followed by ``bytes`` or by
another factor (``1000 × 1000 × 4 bytes = 4 MB``) is an equation chain's, and another number
between the shape and the memory (``… with 16 heads …``) makes the relation unclear: neither
is drafted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import dtype_table
from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.extract.recognizers.dtype_savings import TYPE_PATTERN

__all__ = ["recognize"]

NAME = "matrix_memory"

_FACTOR = r"(\d{1,6}(?:,\d{3})*)"
_SHAPE = re.compile(
    r"(?<![\d.,×xX*])" + _FACTOR + r"\s*[×xX*]\s*" + _FACTOR + r"(?:\s*[×xX*]\s*" + _FACTOR + r")?"
    r"(?![\d.,])(?!\s*[×xX*/+]\s*\d)(?!\s*(?:bytes?|字节|B\b))"
)
_TYPE = re.compile(TYPE_PATTERN, re.IGNORECASE)
_MEMORY = re.compile(
    r"(?:(?:takes?|needs?|requires?|occupies|uses|is|=|≈|[:：]|占用?|需要|约为|为|是|约|→)\s*)"
    r"(?:about|roughly|around|约|大约|≈|~)?\s*"
    r"(\d+(?:\.\d+)?\s*(?:KB|MB|GB|TB|KiB|MiB|GiB|TiB))(?![A-Za-z])",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[;；。!?！？]|\.(?!\d)|,\s+(?:and|but|so|while)\b|，")
_QUICK = re.compile(r"\d\s*[×xX*]\s*\d[^\n]*?[KMGT]i?B")
_GAP = 80
"""Characters a clause may run from the shape to its memory."""


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``arithmetic`` claims N × M × bytes per number = the printed memory."""
    if not _TYPE.search(document.text):
        return  # no storage type named anywhere in the lesson
    prefixes = document.byte_prefixes
    for source, line in logical_lines(document):
        if not _QUICK.search(source) or not _TYPE.search(source):
            continue  # no shape and byte unit: most lines end here, at one cheap search
        text, where = plain(source)
        for shape in _SHAPE.finditer(text):
            rest = text[shape.end() : shape.end() + _GAP]
            end = _CLAUSE_END.search(rest)
            clause = rest[: end.start()] if end is not None else rest
            memory = _MEMORY.search(clause)
            if memory is None:
                continue
            between = clause[: memory.start()]
            types = _TYPE.findall(between)
            if len({t.lower() for t in types}) != 1:
                continue  # no type named, or two: which one stores the matrix is unclear
            if re.search(r"\d", _TYPE.sub("", between)):
                continue  # another number between the shape and its memory
            found = dtype_table().find(types[0])
            if found is None:
                continue
            factors = [f.replace(",", "") for f in shape.groups() if f]
            start, stop = shape.start(), shape.end() + memory.end()
            yield Draft(
                kind="arithmetic",
                quote=source[where[start] : where[stop - 1] + 1],
                line=line,
                fields={
                    "expression": " × ".join([*factors, f"{found.bytes:g}"]),
                    "claimed": memory.group(1),
                    "prefixes": prefixes,
                },
                confidence=0.6,
                recognizer=NAME,
                slug=f"{'x'.join(factors)}-{types[0].lower()}",
            )
