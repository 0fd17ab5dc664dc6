"""Recogniser ``matrix_memory``: the memory of a weight matrix of a stated shape and storage type.

Recognises, within one clause of a logical line (prose, a list item, a line of a diagram), a
shape ``N × M`` (or ``N × M × K``), the storage type its numbers are kept in, and the memory it
takes: ``a 1000 × 1000 matrix of fp32 weights takes 4 MB``, ``a 4096×4096 weight matrix in fp16
needs 32 MiB``, ``一个 4096 × 4096 的 fp16 权重矩阵占 32 MB``. The memory is N·M·bytes per number
of the type (``checkers/data/dtypes.yaml``) → an ``arithmetic`` claim, KB/MB/GB read as the
lesson's prefixes allow.

Where the clause names no type (``a 1000 × 1000 matrix takes 4 GB``), every storage type is a
reading (int4 0.5 … fp64 8 bytes per number): the claim fails only when the memory is N·M·b
for none of them, and its note says so; such a clause that counts more than one matrix
(``per layer``, ``for the batch``, ``heads``, ``cache``), or that no word calls a matrix
(``7 × 16 = 112 GB``), is not drafted. A shape followed by ``bytes`` or by
another factor (``1000 × 1000 × 4 bytes = 4 MB``) is an equation chain's, and another number
between the shape and the memory (``… with 16 heads …``) makes the relation unclear: neither
is drafted.

In a box drawing, a shape drawn inside a box (``│ 1000 × 1000 │``) and a memory printed under
that box (``4 GB memory`` on the line below its bottom border, within the box's columns) are
one statement, read the same way (``1000 × 1000 … 4 GB`` would need 4,000 bytes a number). A
box with more than one shape or another number, or a caption with more than one size under
it, is left alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from checkers.data import StorageType, dtype_table
from checkers.extract.document import Document, Line, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.extract.recognizers.dtype_savings import TYPE_PATTERN
from checkers.extract.relations.base import Reading, first_holding

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
    yield from _boxes(document)
    prefixes = document.byte_prefixes
    for source, line in logical_lines(document):
        if "B" not in source or not _QUICK.search(source):
            continue  # no shape and byte unit: most lines end here, at a substring test
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
            if len({t.lower() for t in types}) > 1:
                continue  # two types named: which one stores the matrix is unclear
            if re.search(r"\d", _TYPE.sub("", between)):
                continue  # another number between the shape and its memory
            found = dtype_table().find(types[0]) if types else None
            if types and found is None:
                continue
            if found is None and (
                _MULTIPLIES.search(between + clause[memory.end() :])
                or not _MATRIX.search(text[max(0, shape.start() - 40) : shape.end()] + between)
                or between.lstrip().startswith("=")
            ):
                # "per layer", "for the batch": the memory may count more matrices; a product
                # that no word calls a matrix ("7 × 16 = 112 GB") is a chain's arithmetic
                continue
            factors = [f.replace(",", "") for f in shape.groups() if f]
            start, stop = shape.start(), shape.end() + memory.end()
            draft = _draft(
                factors,
                memory.group(1),
                found,
                prefixes,
                source[where[start] : where[stop - 1] + 1],
                line,
                "",
            )
            if draft is not None:
                yield draft


_BOTTOM = re.compile(r"└[─━═]*┘")
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB|bytes)(?![A-Za-z])")
_ANY_NUMBER = re.compile(r"\d")
_MULTIPLIES = re.compile(
    r"\b(?:per|each|every|all|total|batch|heads?|layers?|tokens?|sequences?|across|over|times"
    r"|activations?|gradients?|optimi[sz]er|cache|KV)\b|每|层|头|批|总|全部|激活|梯度|缓存",
    re.IGNORECASE,
)
"""Words by which an untyped matrix's memory may count more than the one matrix."""
_MATRIX = re.compile(r"matri(?:x|ces)|tensor|weights?|block|\bW\b|矩阵|权重|张量", re.IGNORECASE)
"""Words that say a shape is a matrix of numbers (for a clause that names no type)."""
_BOX_LINES = 24
"""Lines a box may span above its bottom border (a taller drawing is not a box of one matrix)."""
_WIDTHS = (("int4", 0.5), ("int8", 1.0), ("fp16", 2.0), ("fp32", 4.0), ("fp64", 8.0))
"""The storage widths a matrix of no named type may have, narrowest to widest."""


def _columns(text: str) -> list[int]:
    """The display column where each character of ``text`` starts (wide CJK take two)."""
    columns, at = [], 0
    for char in text:
        columns.append(at)
        at += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return columns


def _span(text: str, columns: list[int], start: int, stop: int) -> str:
    """The characters of ``text`` whose display column lies in [start, stop)."""
    return "".join(c for c, at in zip(text, columns, strict=False) if start <= at < stop)


def _boxes(document: Document) -> Iterator[Draft]:
    """Shapes drawn in a box and the memory printed under it (see the module docstring)."""
    if "└" not in document.text:
        return  # no box's bottom corner: most lessons draw none
    for block in document.blocks:
        if block.kind != "fence" or "└" not in "".join(line.text for line in block.lines):
            continue
        lines = block.lines
        for index, bottom in enumerate(lines):
            for border in _BOTTOM.finditer(bottom.text):
                columns = _columns(bottom.text)
                start, stop = columns[border.start()], columns[border.end() - 1] + 1
                yield from _box(document, lines, index, start, stop)


def _box(
    document: Document, lines: tuple[Line, ...], bottom: int, start: int, stop: int
) -> Iterator[Draft]:
    if bottom + 1 >= len(lines) or _SIZE.search(lines[bottom + 1].text) is None:
        return  # no size printed under the box (looked for before the box's columns)
    inside: list[tuple[Line, str]] = []
    for line in reversed(lines[max(0, bottom - _BOX_LINES) : bottom]):
        cell = _span(line.text, _columns(line.text), start, stop)
        if "┌" in cell or not cell.startswith("│"):
            break
        inside.append((line, cell.strip("│ ")))
    if bottom + 1 >= len(lines) or not inside:
        return
    caption = lines[bottom + 1]
    at = _columns(caption.text)
    under = _span(caption.text, at, start, stop)
    # a size belongs to the box it starts under (its unit may run past the box's edge)
    sizes = [m for m in _SIZE.finditer(caption.text) if start <= at[m.start()] < stop]
    shapes = [(line, m) for line, cell in inside for m in _SHAPE.finditer(cell)]
    if len(sizes) != 1 or len(shapes) != 1:
        return
    line, shape = shapes[0]
    others = [cell for _, cell in inside if _ANY_NUMBER.search(_SHAPE.sub("", cell))]
    if others:
        return  # another number in the box: which the memory is of is unclear
    words = " ".join(cell for _, cell in inside) + " " + under
    named = {t.lower() for t in _TYPE.findall(words)}
    if len(named) > 1:
        return
    found = dtype_table().find(named.pop()) if named else None
    if found is None and (_MULTIPLIES.search(words) or "=" in words):
        return  # the memory may count more than one matrix, or the box computes it
    factors = [f.replace(",", "") for f in shape.groups() if f]
    claimed = f"{sizes[0].group(1)} {sizes[0].group(2)}"
    draft = _draft(
        factors,
        claimed,
        found,
        document.byte_prefixes,
        caption.text.strip(),
        caption.number,
        f"the box drawn on line {line.number} holds a {' × '.join(factors)} matrix and the "
        "line under it its memory",
    )
    if draft is not None:
        yield draft


def _draft(
    factors: list[str],
    claimed: str,
    found: StorageType | None,
    prefixes: str,
    quote: str,
    line: int,
    where: str,
) -> Draft | None:
    """The claim N × M × bytes = memory, under the type named, else under every width (the
    note says which was shown)."""
    widths = [(found.name, found.bytes)] if found is not None else list(_WIDTHS)
    readings = [
        Reading(
            {
                "expression": " × ".join([*factors, f"{width:g}"]),
                "claimed": claimed,
                "prefixes": prefixes,
            },
            f"{name}, {width:g} bytes per number",
        )
        for name, width in widths
    ]
    chosen = first_holding("arithmetic", readings, nearest_failing=True)
    if chosen is None:
        return None
    stored = (
        f"stored as {chosen.assumed}"
        if found is not None
        else "no storage type is named, so every width from int4 (0.5 bytes) to fp64 (8) was "
        f"tried; shown: {chosen.assumed}"
    )
    return Draft(
        kind="arithmetic",
        quote=quote,
        line=line,
        fields=dict(chosen.fields),
        confidence=0.6 if found is not None else 0.5,
        recognizer=NAME,
        slug=f"{'x'.join(factors)}-{found.name if found is not None else 'any-type'}",
        note="; ".join(part for part in (where, stored) if part),
    )
