"""Recogniser ``masks``: a masked score matrix in a section that says the mask is causal.

Recognises a square score matrix printed with −∞ (``-∞``, ``−∞``, ``-inf``) in its hidden cells —
in a text block with row and column labels (``位置0  0.5  -∞``), as bracketed rows
(``[[0.5, -inf], [0.2, 0.6]]``, one row a line or all on one), or as a Markdown table whose
first column labels the rows — when the section it stands in (its own text and the headings
above it) states the causal rule: ``causal``/``因果``/``look-ahead``, "cannot see the future",
``未来``, ``j > i``, ``上三角``, or "positions i+1, i+2, … are set to −∞". The claim is that the
printed matrix applies that mask, i.e. hides exactly the cells j > i (``masked_softmax`` with
``mask: causal``); when the unmasked scores are printed just before it with the same shape they
are given too, so a visible cell that changed is caught as well.

Not drafted: a section that also speaks of padding, a sliding window or a prefix (another mask,
or a causal one combined with it), a matrix with no −∞ cell, and a matrix that is not square.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Block, Document, Line
from checkers.extract.draft import Draft

__all__ = ["recognize", "score_matrices"]

NAME = "masks"
NEEDS = ("∞", "-inf", "−inf")
"""A masked matrix prints −∞ in one of these spellings (:data:`_NEG_INF`)."""

_NUMBER = r"[-−]?\d+(?:\.\d+)?"
_NEG_INF = r"(?:[-−]\s?∞|[-−]inf(?:inity)?|float\(['\"]-inf['\"]\))"
_CELL = re.compile(rf"^(?:{_NUMBER}|{_NEG_INF})$", re.I)
_IS_INF = re.compile(_NEG_INF, re.I)
_ENTRY = rf"(?:{_NUMBER}|{_NEG_INF})"
_BRACKET_ROW = re.compile(rf"\[\s*({_ENTRY}(?:\s*,\s*{_ENTRY})+)\s*\]")
_CAUSAL = re.compile(
    r"causal|因果|look[- ]?ahead|future|subsequent|未来|"
    r"之后的(?:词|位置|token)|后面的(?:词|位置|token)|"
    r"j\s*>\s*i|i\s*<\s*j|上三角|upper[- ]triangular|i\s*\+\s*1\s*[,，、]\s*i\s*\+\s*2",
    re.I,
)
_OTHER_MASK = re.compile(r"padding|填充|\bpad\b|sliding|滑动窗口|local window|prefix|前缀", re.I)
_MAX_SIZE = 64
"""Largest matrix read: lessons print 3–8 positions."""


def _prints_minus_infinity(text: str) -> bool:
    return "∞" in text or "-inf" in text or "−inf" in text or "-INF" in text


def _cell(text: str) -> str:
    return "-∞" if _IS_INF.fullmatch(text.strip()) else text.strip().replace("−", "-")


_Found = tuple[list[list[str]], list[Line], int]
"""A matrix read from a block: its cells, the line of each row, how many lines it took."""


def _labelled(lines: tuple[Line, ...], start: int) -> _Found | None:
    """A labelled matrix whose header is ``lines[start]``."""
    header = lines[start].text.split()
    size = len(header)
    if not 2 <= size <= _MAX_SIZE or start + size >= len(lines):
        return None
    rows: list[list[str]] = []
    for line in lines[start + 1 : start + 1 + size]:
        tokens = re.sub(r"(?<=[-−])\s+(?=∞)", "", line.text).split()
        if len(tokens) != size + 1 or not all(_CELL.match(t) for t in tokens[1:]):
            return None
        rows.append([_cell(t) for t in tokens[1:]])
    if len(rows) != size:
        return None
    return rows, list(lines[start + 1 : start + 1 + size]), size + 1


def _bracketed(lines: tuple[Line, ...], start: int) -> _Found | None:
    """Rows ``[a, b, c]`` on consecutive lines (or all on the first line)."""
    found = list(_BRACKET_ROW.finditer(lines[start].text))
    if len(found) >= 2:
        rows = [[_cell(c) for c in m.group(1).split(",")] for m in found]
        return (rows, [lines[start]] * len(rows), 1) if len(rows) == len(rows[0]) else None
    if len(found) != 1:
        return None
    rows = []
    used = 0
    for line in lines[start:]:
        matches = list(_BRACKET_ROW.finditer(line.text))
        if len(matches) != 1:
            break
        rows.append([_cell(c) for c in matches[0].group(1).split(",")])
        used += 1
        if used > _MAX_SIZE:
            return None
    if len(rows) < 2 or len(rows) != len(rows[0]):
        return None
    return rows, list(lines[start : start + used]), used


def _square(rows: list[list[str]]) -> bool:
    return len(rows) >= 2 and all(len(row) == len(rows) for row in rows)


def quoted_row(document: Document, block: Block, line: Line) -> Line:
    """The line a draft quotes for one row of a score matrix: a table row as the lesson writes
    it (its cells joined back with their pipes), any other line as it is."""
    if block.kind == "table":
        return Line(document.source_line(line.number), line.number)
    return line


def score_matrices(block: Block) -> Iterator[tuple[list[list[str]], list[Line]]]:
    """Every score matrix the block prints, with the line of each row."""
    if block.kind == "table" and block.table is not None:
        table = block.table
        rows = [list(cells[1:]) for cells, _ in table.rows]
        if (
            len(table.header) == len(rows) + 1
            and _square(rows)
            and all(_CELL.match(c.strip()) for row in rows for c in row)
        ):
            lines = [Line(table.row_source(cells), line) for cells, line in table.rows]
            yield [[_cell(c) for c in row] for row in rows], lines
        return
    if block.kind != "fence":
        return
    index = 0
    while index < len(block.lines):
        found = _labelled(block.lines, index) or _bracketed(block.lines, index)
        if found is None or not _square(found[0]):
            index += 1
            continue
        rows, lines, used = found
        yield rows, lines
        index += used


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``masked_softmax`` claim that a matrix the section calls causal is causal."""
    if not _prints_minus_infinity(document.text):
        return  # a substring test first: most lessons print no −∞
    sections: dict[int, list[Block]] = {}
    for block in document.blocks:
        sections.setdefault(block.section, []).append(block)
    for number, blocks in sections.items():
        text = " ".join(line.text for block in blocks for line in block.lines)
        if not _prints_minus_infinity(text):
            continue
        context = document.heading_chains.get(number, "") + " " + text
        if not _CAUSAL.search(context) or _OTHER_MASK.search(context):
            continue
        previous: list[list[str]] | None = None
        for block in blocks:
            for rows, lines in score_matrices(block):
                if not any("-∞" in row for row in rows):
                    previous = rows
                    continue
                fields: dict[str, object] = {"mask": "causal", "rows": {}}
                if previous is not None and len(previous) == len(rows):
                    fields["scores"] = previous
                    fields["masked_scores"] = rows
                else:
                    fields["scores"] = rows
                # The line of the first row that is not causal (or changes a visible score),
                # so the failure points at it.
                wrong = [
                    i
                    for i, row in enumerate(rows)
                    if any((cell == "-∞") != (j > i) for j, cell in enumerate(row))
                    or (
                        previous is not None
                        and len(previous) == len(rows)
                        and any(
                            c != "-∞" and c != p for c, p in zip(row, previous[i], strict=False)
                        )
                    )
                ]
                row_line = quoted_row(document, block, lines[wrong[0] if wrong else 0])
                yield Draft(
                    kind="masked_softmax",
                    quote=row_line.text.strip(),
                    line=row_line.number,
                    fields=fields,
                    confidence=0.7,
                    recognizer=NAME,
                    slug="causal-mask",
                )
                previous = None
