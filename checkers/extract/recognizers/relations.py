"""Recogniser ``relations``: statements whose value a Transformer relation recomputes.

Recognises the statements a relation recomputes: every source line of a section that matches a
relation's ``CUE`` is offered to that relation (:data:`checkers.extract.relations.
ALL_RELATIONS`) with the section's scope of quantities (:func:`checkers.extract.scope.
section_scope`, read only for sections with such a line). A relation drafts a claim of an
existing kind when the statement says which quantity it gives; the draft's note says where
each input was read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from typing import Any, cast

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.latex import plain, widened
from checkers.extract.relations import ALL_RELATIONS, Relation, Statement
from checkers.extract.scope import Quantity, Scope, section_scope

__all__ = ["recognize"]

NAME = "relations"

_TOPIC_LINES = 3
"""Lines before a statement, in its section, that may say what it is about (a list's
lead-in, the row above in a table)."""


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a claim for every statement a relation recomputes."""
    heading = ""
    recent: list[str] = []  # the section's last lines, for what a statement is about
    section = -1
    previous: Block | None = None  # the block before, in this section
    for block in document.blocks:
        if block.section != section:
            section, recent, heading, previous = block.section, [], "", None
        if block.kind == "heading":
            heading = " ".join(line.text for line in block.lines)
        if block.table is not None:  # a row is about what its header names
            recent = [*recent, block.table.row_source(block.table.header)][-_TOPIC_LINES:]
        previous_line = chain = ""
        # the last line of the paragraph just before, for a display formula (read only
        # before one: few blocks are display formulas)
        opening = _lead_in(previous) if block.kind == "math" and previous is not None else ""
        header = " ".join(block.table.header) if block.table is not None else ""
        # LaTeX is read as a reader sees it ("2\ \text{字节}" is "2 字节"), and a draft's
        # quote is mapped back to the source.
        rows = [
            (
                source,
                number,
                *(plain(source) if "$" in source or "\\" in source else (source, None)),
            )
            for source, number in _statements(block)
        ]
        # a display formula's subject is in the sentence that leads into it
        searched = [f"{opening} {rows[0][2]}" if opening else rows[0][2]] if rows else []
        searched += [text for _, _, text, _ in rows[1:]]
        cues = _cues_in([text for text in searched if _DIGIT.search(text)])
        for (source, number, text, where), cued in zip(rows, searched, strict=True):
            if not _CONTINUES.match(text):
                chain = ""
            before = previous_line if block.kind == "paragraph" else chain or opening
            offered = _offered(cued, before, header, cues) if _DIGIT.search(text) else []
            if offered:
                statement = Statement(
                    text=text,
                    line=number,
                    section=block.section,
                    topic=" ".join([heading, *recent]),
                    byte_prefixes=document.byte_prefixes,
                    header=block.table.header if block.table is not None else (),
                    before=before,
                    recent=tuple(recent),
                )
                scope = cast(Scope, _Deferred(document, block.section))
                for relation in offered:
                    draft = relation.relate(statement, scope)
                    if draft is not None:
                        draft = _with_inputs(draft, section_scope(document, block.section))
                        yield draft if where is None else _quoted(draft, text, source, where)
            recent = [*recent[-(_TOPIC_LINES - 1) :], text] if _TOPIC_LINES > 1 else [text]
            # The paragraph so far (its last few hundred characters): a sentence wrapped over
            # three lines ("So per / token and per layer … / = 512 bytes") starts in it.
            previous_line = f"{previous_line} {text}"[-_SENTENCE_REACH:] if previous_line else text
            chain = f"{chain} {text}" if chain and _CONTINUES.match(text) else text
            opening = ""
        previous = block


def _quoted(draft: Draft, text: str, source: str, where: Sequence[int]) -> Draft:
    """The draft with its quote of the plain text replaced by the source it was read from."""
    start = text.find(draft.quote)
    if start < 0 or not draft.quote:
        return draft
    begin, end = widened(source, where[start], where[start + len(draft.quote) - 1] + 1)
    return dataclasses.replace(draft, quote=source[begin:end].strip())


def _with_inputs(draft: Draft, scope: Scope) -> Draft:
    """The draft with the lesson's numbers its note names as inputs (``heads 32 (line 12)``)
    as statements it reads (:attr:`Draft.inputs`), so ``scan --stats`` counts them as checked:
    a wrong input there would have made the check fail, as a wrong number of the quote would.
    A published value (a named model's configuration) and a dtype (its bytes are not printed
    on its line) are not numbers of the lesson."""
    if not draft.note:
        return draft
    read = tuple(
        # the words with the number ("32 heads"), so "32 layers" before it is not taken for it
        (quantity.line, _named(quantity))
        for quantity in scope.quantities
        if not quantity.model
        and quantity.role != "dtype"
        and quantity.line != draft.line
        and quantity.describe() in draft.note
    )
    return dataclasses.replace(draft, inputs=(*draft.inputs, *read)) if read else draft


def _named(quantity: Quantity) -> str:
    """The text that names a quantity with its number, else the number as printed."""
    return quantity.written if quantity.printed.text in quantity.written else quantity.printed.text


class _Deferred:
    """A section's scope, read when a relation first looks at it: a relation reads the
    statement's own words first, and most lines with a cue are not its statements; reading a
    section's quantities costs more than all of a relation's other work."""

    def __init__(self, document: Document, section: int) -> None:
        self._document = document
        self._section = section

    def __getattr__(self, name: str) -> Any:
        return getattr(section_scope(self._document, self._section), name)


_SENTENCE_REACH = 400
"""Characters of a paragraph before a statement in which its sentence may start."""
_DIGIT = re.compile(r"\d")
_UPPER_ESCAPE = re.compile(r"\\[A-Z]")


def _lowered(cue: re.Pattern[str]) -> tuple[re.Pattern[str], bool]:
    """A case-insensitive cue as a plain pattern over the lowered line (Python's
    ``re.IGNORECASE`` alternations cost about twice as much), with whether it reads the
    lowered line; a case-sensitive cue, or one with an escape that lowering would change
    (``\\S``, ``\\D``), is kept as it is."""
    if cue.flags & re.IGNORECASE and not _UPPER_ESCAPE.search(cue.pattern):
        return re.compile(cue.pattern.lower()), True
    return cue, False


_CUES = [
    (
        relation,
        *_lowered(relation.CUE),
        getattr(relation, "CUE_BEFORE", False),
        getattr(relation, "CUE_HEADER", False),
        tuple(getattr(relation, "WORDS", ())),
    )
    for relation in ALL_RELATIONS.values()
]
"""Each relation with the cue it is offered a line by, whether the cue may be in the line
before (a sentence wrapped across lines: "… the active count per token is" / "$9.2 × 2/16 ≈
1.15$B"), whether it may be in a table row's header ("params (non-embedding)"), and the words
one of which its cue needs (lower case; () when it names none)."""


_DISTINCT_CUES = tuple(
    dict.fromkeys((cue, reads_lowered, words) for _, cue, reads_lowered, _, _, words in _CUES)
)
"""Each cue once: relations share cues (the three memory relations read one byte-size cue),
and every line with a digit was searched with it once per relation."""


_Cue = tuple[re.Pattern[str], bool, tuple[str, ...]]


def _cues_in(texts: list[str]) -> tuple[_Cue, ...]:
    """The cues of :data:`_DISTINCT_CUES` that one of ``texts`` (a block's lines) may match:
    those that match the lines joined by NUL, a character no cue looks for or looks around
    for, so that a cue matching a line matches the joined text there. A block of many lines
    is searched once per cue rather than once per line and cue."""
    if len(texts) < 2:
        return _DISTINCT_CUES
    joined = "\0".join(texts)
    lowered = "\0".join(text.lower() for text in texts)
    return tuple(
        (cue, reads_lowered, words)
        for cue, reads_lowered, words in _DISTINCT_CUES
        if (not words or any(word in lowered for word in words))
        and cue.search(lowered if reads_lowered else joined)
    )


def _offered(text: str, before: str, header: str, cues: tuple[_Cue, ...]) -> list[Relation]:
    """The relations whose cue the line matches (or the line before, or the row's header, for
    those that say so), of ``cues`` for the cues the line's own text may match
    (:func:`_cues_in`); a line holding none of a cue's words is not searched with it (``in``
    is a fast scan, an alternation is tried at every position)."""
    lowered = text.lower()
    matched = {
        (cue, reads_lowered)
        for cue, reads_lowered, words in cues
        if (not words or any(word in lowered for word in words))
        and cue.search(lowered if reads_lowered else text)
    }
    lowered_before = before.lower() if before else ""
    lowered_header = header.lower() if header else ""
    offered = []
    for relation, cue, reads_lowered, reads_before, reads_header, _ in _CUES:
        if (
            (cue, reads_lowered) in matched
            or (reads_before and before and cue.search(lowered_before if reads_lowered else before))
            or (reads_header and header and cue.search(lowered_header if reads_lowered else header))
        ):
            offered.append(relation)
    return offered


def _lead_in(block: Block) -> str:
    """The sentence a paragraph leaves open for the display formula after it ("The MLP of
    one block holds", "so the attention has:"): its last line when that does not end a
    sentence; "" for any other block."""
    if block.kind != "paragraph" or not block.lines:
        return ""
    last = plain(block.lines[-1].text)[0].rstrip()  # read as the statements are
    return "" if _CLOSED.search(last) else last


_CLOSED = re.compile(r"[.!?。！？]\s*\**\s*$")

_CONTINUES = re.compile(r"^\s*(?:=|≈|＝)")
"""A line of a worked calculation that continues the one above (``= 524,288 bytes``)."""


def _statements(block: Block) -> list[tuple[str, int]]:
    """The block's statements: its source lines, a table's rows as written."""
    if block.table is not None:
        return [(block.table.row_source(cells), line) for cells, line in block.table.rows]
    return [(line.text, line.number) for line in block.lines]
