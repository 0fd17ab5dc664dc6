"""Named vectors and matrices a lesson prints, and the chapter they hold in.

Worked examples name their inputs once and use them later: ``x_猫 = [0.5, 0.2, 0.8, 0.1]``,
``W_q = [[0.1, 0.2], …]`` spread over four lines, an embedding list ``猫 → [0.5, …]``, and steps
that substitute a value for its name (``output = hidden · W₂ + b₂ = [0.65, 0, …] · W₂ + b₂``
prints ``hidden``). :func:`bindings` reads them, each with its line, so a recogniser can
relate a printed result to the inputs the lesson stated before it. Only printed numbers are
read — nothing is evaluated — and a name keeps the last value printed for it above a line.

A chapter is the stretch under one top-level section heading (the shallowest level the lesson
uses for more than one heading, ``##`` in most lessons; else its shallowest heading): a worked
example's subsections share its inputs, a new chapter starts afresh.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Block, Document, line_at

__all__ = ["Binding", "bindings", "chapters", "vector_values"]

_NUMBER = r"[-−]?\d+(?:\.\d+)?"
_ELISION = r"(?:\.\.\.|…|⋯)(?:[^\[\]\n]{0,12}?(?:\.\.\.|…|⋯))?"
VECTOR = re.compile(
    rf"\[\s*{_NUMBER}(?:\s*[,，]\s*{_NUMBER})*(?:\s*[,，]\s*{_ELISION})?\s*\](?!\s*\[)"
)
"""A printed vector, maybe elided at its end (``[0.65, 0, 0.45, ...16个值...]``)."""
_NAME = r"[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff₀-₉']*(?:\^\{?\w+\}?)?"
_ASSIGNED = re.compile(rf"(?<![\w\u4e00-\u9fff.\]])({_NAME})\s*(?:=|→|->|:|：)\s*(?=\[)")
_MATRIX_START = re.compile(rf"(?<![\w\u4e00-\u9fff.])({_NAME})\s*=\s*\[\s*\[")
_ROW = re.compile(rf"\[\s*({_NUMBER}(?:\s*[,，]\s*{_NUMBER})*)\s*\]")
_SIDES = re.compile(r"\s*(?:=|≈)\s*")
_OPERATORS = frozenset("+-−*/·×@⋅=≈")
_MAX_MATRIX_LINES = 32
"""Lines a printed matrix may span (lessons print 2–8 rows)."""


@dataclass(frozen=True)
class Binding:
    """A name the lesson gives a printed vector or matrix."""

    name: str
    """The name as written (``x_猫``, ``W_q``, ``hidden``)."""
    text: str
    """The value as printed: ``[0.5, 0.2]`` or, for a matrix, its rows ``[[0.1, 0.2], …]``."""
    rows: tuple[tuple[str, ...], ...]
    """The numbers as printed, one tuple per row (one row for a vector)."""
    line: int
    """1-based lesson line where the value is printed."""
    column: int
    """Offset of the value in that line's text (for a matrix, of its first row)."""
    is_matrix: bool
    """True for ``[[…], …]``."""
    substituted: bool = False
    """True when the value was printed in place of the name inside a step."""


def vector_values(text: str) -> tuple[str, ...]:
    """The numbers of a printed vector (elision dropped)."""
    return tuple(v.strip().replace("−", "-") for v in re.findall(_NUMBER, text))


def _heading_level(block: Block) -> int:
    return int(block.info[1:]) if block.info[1:].isdigit() else 6


def chapters(document: Document) -> Iterator[tuple[Block, ...]]:
    """The blocks of each chapter, in lesson order (see the module docstring)."""
    levels = [_heading_level(b) for b in document.blocks if b.kind == "heading"]
    repeated = sorted({lv for lv in levels if levels.count(lv) > 1})
    top = repeated[0] if repeated else min(levels, default=1)
    current: list[Block] = []
    for block in document.blocks:
        if block.kind == "heading" and _heading_level(block) <= top and current:
            yield tuple(current)
            current = []
        current.append(block)
    if current:
        yield tuple(current)


def _matrix(block: Block, index: int, name: str, column: int) -> tuple[Binding, int] | None:
    """A matrix ``name = [[…], […], …]`` starting at line ``index`` of the block."""
    rows: list[tuple[str, ...]] = []
    depth = 0
    pieces: list[str] = []
    for offset, line in enumerate(block.lines[index : index + _MAX_MATRIX_LINES]):
        text = line.text[column:] if offset == 0 else line.text
        end = None
        for position, char in enumerate(text):
            depth += char == "["
            depth -= char == "]"
            if depth == 0 and char == "]":
                end = position + 1
                break
        piece = text if end is None else text[:end]
        pieces.append(piece)
        rows.extend(tuple(vector_values(m.group(1))) for m in _ROW.finditer(piece))
        if end is not None:
            if len(rows) < 1 or len({len(r) for r in rows}) != 1:
                return None
            value = "[" + ", ".join("[" + ", ".join(r) + "]" for r in rows) + "]"
            first = block.lines[index]
            return Binding(name, value, tuple(rows), first.number, column, True), offset + 1
    return None


def _substitutions(text: str, number: int) -> Iterator[Binding]:
    """``a = f(h) = f([…])``: the vector printed where a name stood in the side before."""
    sides = _SIDES.split(text)
    position = 0
    starts: list[int] = []
    for match in _SIDES.finditer(text):
        starts.append(position)
        position = match.end()
    starts.append(position)
    for before, after, start in zip(sides, sides[1:], starts[1:], strict=False):
        for vector in VECTOR.finditer(after):
            prefix = after[: vector.start()].strip()
            suffix = after[vector.end() :].strip()
            squeezed = before.strip()
            if not (squeezed.startswith(prefix) and squeezed.endswith(suffix)):
                continue
            middle = squeezed[len(prefix) : len(squeezed) - len(suffix)].strip()
            if not (prefix or suffix) or not re.fullmatch(_NAME, middle):
                continue
            rows = (vector_values(vector.group()),)
            yield Binding(middle, vector.group(), rows, number, start + vector.start(), False, True)


_CONTINUES = re.compile(r"^\s*(?:=|≈)")


def _statements(block: Block) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """The block's lines with continuation lines (starting with ``=``) joined: (text, (offset in
    text, line number) of each joined line)."""
    text = ""
    starts: list[tuple[int, int]] = []
    for line in block.lines:
        if starts and block.kind == "fence" and _CONTINUES.match(line.text):
            text += " "
        elif starts:
            yield text, starts
            text, starts = "", []
        starts.append((len(text), line.number))
        text += line.text
    if starts:
        yield text, starts


def bindings(blocks: tuple[Block, ...]) -> list[Binding]:
    """Every named vector and matrix the blocks print, in lesson order."""
    found: list[Binding] = []
    for block in blocks:
        if block.kind == "table" or not any("[" in line.text for line in block.lines):
            continue
        index = 0
        while index < len(block.lines):
            line = block.lines[index]
            start = _MATRIX_START.search(line.text) if "[" in line.text else None
            if start is not None:
                column = line.text.index("[", start.start())
                matrix = _matrix(block, index, start.group(1), column)
                if matrix is not None:
                    found.append(matrix[0])
                    index += matrix[1]
                    continue
            index += 1
        for text, starts in _statements(block):
            if "[" not in text or "[[" in text.replace(" ", ""):
                continue
            found.extend(_named(text, starts))
    found.sort(key=lambda b: (b.line, b.column))
    return found


def _named(text: str, starts: list[tuple[int, int]]) -> Iterator[Binding]:
    for match in _ASSIGNED.finditer(text):
        vector = VECTOR.match(text, match.end())
        if text[: match.start()].rstrip()[-1:] in _OPERATORS:
            continue  # ``… + b₁ = […]`` names the whole side, not b₁
        if vector is not None:
            line, column = line_at(starts, vector.start())
            rows = (vector_values(vector.group()),)
            yield Binding(match.group(1), vector.group(), rows, line, column, False)
    # A chain ending in a vector names its left side: ``h = x · W + b = […]``.
    sides = _SIDES.split(text)
    head = re.fullmatch(rf"\s*({_NAME})\s*", sides[0]) if len(sides) > 2 else None
    last = VECTOR.fullmatch(sides[-1].strip()) if len(sides) > 2 else None
    if head is not None and last is not None:
        line, column = line_at(starts, text.rindex(last.group()))
        rows = (vector_values(last.group()),)
        yield Binding(head.group(1), last.group(), rows, line, column, False)
    for binding in _substitutions(text, 0):
        line, column = line_at(starts, binding.column)
        yield Binding(binding.name, binding.text, binding.rows, line, column, False, True)
