"""Recogniser ``softmax_rows``: attention weights printed next to their scores, or alone.

Recognises:

* a score vector and a weight vector of the same length on one line, joined by ``softmax`` or an
  arrow (``scores [1, 2, 3] → softmax → [0.09, 0.24, 0.67]``, ``分数 [2.0, 1.0] 过 softmax 得到
  [0.73, 0.27]``) → a ``softmax`` claim;
* a vector presented as weights or probabilities (``权重 [0.54, 0.46]``, ``probabilities
  [0.2, 0.5, 0.3]``) whose entries all lie in [0, 1] → a ``softmax`` claim that the row sums to 1
  (``claimed_only``: no scores, so that is all that can be checked);
* a score matrix printed in a text block with row and column labels and ``−∞`` in masked cells,
  followed by weight rows ``位置2: [0.25, 0.38, 0.37, 0]`` → a ``masked_softmax`` claim per row,
  against the lesson's own masked scores (a fully masked row printed with numbers is wrong).

A list is a probability row only with evidence: a softmax, attention or probability word in its
line or the lines just above it (or scores beside it, joined by ``softmax``), and at least one
entry strictly between 0 and 1. Code identifiers (``or_gate.weights = [1.0, 1.0]``,
``attn_weights[0, 0]``, an index right after a name), one-hot and all-zero lists are no rows.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "softmax_rows"

_NUMBER = r"[-−]?\d+(?:\.\d+)?"
_VECTOR = re.compile(r"\[\s*(" + _NUMBER + r"(?:\s*,\s*" + _NUMBER + r")+)\s*\]")
_JOIN = re.compile(r"softmax|→|->|⟶|得到|变成|gives|becomes", re.IGNORECASE)
# The word must stand alone (not ``attn_weights``, ``gate.weights``) and be apart from the
# bracket (``weights[0, 0]`` is an index).
_WEIGHT_WORD = re.compile(
    r"(?:(?:权重|概率|分布|注意力)\s*(?:为|是|=|:|：)?\s*|"
    r"(?<![\w.])(?:weights?|probabilit(?:y|ies)|distribution)(?:\s*(?:=|:)\s*|\s+))$",
    re.IGNORECASE,
)
_EVIDENCE = re.compile(r"softmax|attention|probabilit|注意力|概率", re.IGNORECASE)
_CONTEXT_LINES = 3
"""Lines above a row (in its block) that may carry its softmax or attention word."""
_CELL = re.compile(r"^(?:" + _NUMBER + r"|[-−]∞|-inf)$")
_WEIGHT_HEADER = re.compile(r"softmax|weights?|probabilit|权重|概率|分布", re.IGNORECASE)
_ROW_CLAIM = re.compile(r"^\s*(\S+?)\s*[:：]\s*(\[[^\]]*\])")


def _is_argument(text: str, vector: re.Match[str]) -> bool:
    """True for the ``[…]`` in ``softmax([…])``: an input, not a printed result."""
    return text[: vector.start()].rstrip().lower().endswith("softmax(")


def _values(match: re.Match[str]) -> list[str]:
    return [v.strip() for v in match.group(1).split(",")]


def _is_row(weights: list[str]) -> bool:
    """Entries a probability row can print: all in [0, 1], at least one strictly between
    (a list of 0s and 1s is a mask, a one-hot vector or an index)."""
    values = [float(w.replace("−", "-")) for w in weights]
    return all(0 <= v <= 1 for v in values) and any(0 < v < 1 for v in values)


def _line_drafts(text: str, line: int, context: str = "") -> Iterator[Draft]:
    """Drafts for one line; ``context`` is the text of the lines just above it."""
    vectors = list(_VECTOR.finditer(text))
    if not vectors or not _EVIDENCE.search(context + " " + text):
        return
    used: set[int] = set()
    for first, second in itertools.pairwise(vectors):
        between = text[first.end() : second.start()]
        scores, weights = _values(first), _values(second)
        if len(scores) != len(weights) or not _JOIN.search(between):
            continue
        if _is_argument(text, second) or _is_argument(text, first):
            continue  # softmax([…]) = […] is an equation chain's business
        if not _is_row(weights):
            continue
        used.update({first.start(), second.start()})
        yield Draft(
            kind="softmax",
            quote=text[first.start() : second.end()],
            line=line,
            fields={"scores": scores, "claimed": weights},
            confidence=0.8,
            recognizer=NAME,
            slug="softmax-" + "-".join(scores),
        )
    for vector in vectors:
        if vector.start() in used or not _WEIGHT_WORD.search(text[: vector.start()]):
            continue
        weights = _values(vector)
        if text[: vector.start()].rstrip().endswith("softmax("):
            continue
        if not _is_row(weights):
            continue
        yield Draft(
            kind="softmax",
            quote=vector.group(0),
            line=line,
            fields={"claimed": weights, "claimed_only": "true"},
            confidence=0.6,
            recognizer=NAME,
            slug="weights-" + "-".join(weights),
        )


def _matrix(lines: list[str]) -> tuple[list[str], list[list[str]]] | None:
    """(row labels, cells) of a labelled score matrix with at least one −∞ cell, if any."""
    if len(lines) < 3:
        return None
    header = lines[0].split()
    labels: list[str] = []
    rows: list[list[str]] = []
    for text in lines[1:]:
        tokens = text.split()
        if len(tokens) != len(header) + 1 or not all(_CELL.match(t) for t in tokens[1:]):
            return None
        labels.append(tokens[0])
        rows.append(["-∞" if "∞" in t or "inf" in t else t for t in tokens[1:]])
    if len(rows) != len(header) or not any("-∞" in row for row in rows):
        return None
    return labels, rows


def _table_drafts(document: Document, block: Block) -> Iterator[Draft]:
    """Rows of a table with a scores column and a softmax/weights column of vectors."""
    table = block.table
    if table is None:
        return
    weight_columns = [i for i, h in enumerate(table.header) if _WEIGHT_HEADER.search(h)]
    if len(weight_columns) != 1:
        return
    column = weight_columns[0]
    for cells, line in table.rows:
        vectors = [_VECTOR.fullmatch(c.strip()) for c in cells]
        weights = vectors[column] if column < len(vectors) else None
        scores = [v for i, v in enumerate(vectors) if v is not None and i != column]
        if weights is None or len(scores) != 1:
            continue
        claimed, given = _values(weights), _values(scores[0])
        if len(claimed) != len(given):
            continue
        yield Draft(
            kind="softmax",
            quote=document.source_line(line),
            line=line,
            fields={"scores": given, "claimed": claimed},
            confidence=0.8,
            recognizer=NAME,
            slug="softmax-" + "-".join(given),
        )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``softmax`` and ``masked_softmax`` claims for weights the lesson prints."""
    masked: tuple[list[str], list[list[str]]] | None = None
    for block in document.blocks:
        if block.kind == "table":
            yield from _table_drafts(document, block)
            continue
        if block.kind == "fence":
            found = _matrix([line.text for line in block.lines])
            if found is not None:
                masked = found
                continue
        for position, line in enumerate(block.lines):
            claim = _ROW_CLAIM.match(line.text) if masked is not None else None
            if masked is not None and claim is not None and claim.group(1) in masked[0]:
                weights = [v.strip() for v in claim.group(2)[1:-1].split(",")]
                index = masked[0].index(claim.group(1))
                if len(weights) == len(masked[1][index]):
                    yield Draft(
                        kind="masked_softmax",
                        quote=claim.group(0).strip(),
                        line=line.number,
                        fields={"scores": masked[1], "rows": {str(index): weights}},
                        confidence=0.8,
                        recognizer=NAME,
                        slug=f"masked-row-{index}",
                    )
                    continue
            above = block.lines[max(0, position - _CONTEXT_LINES) : position]
            yield from _line_drafts(line.text, line.number, " ".join(p.text for p in above))
