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
from bisect import bisect_right
from collections import deque
from collections.abc import Iterator, Sequence
from functools import cache
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
    prepared, cued = _prepared(document)
    cues_of_lines = iter(_line_cues(cued))  # of each statement with a digit, in order
    heading = ""
    recent: deque[str] = deque(maxlen=_TOPIC_LINES)  # the section's last lines, for the topic
    section = -1
    for block, statements, rows, opening in prepared:
        if block.section != section:
            section, heading = block.section, ""
            recent.clear()
        if block.kind == "heading":
            heading = " ".join(line.text for line in block.lines)
        if block.table is not None:  # a row is about what its header names
            recent.append(block.table.row_source(block.table.header))
        if not rows:
            # No statement here (every relation claims a number, and reading LaTeX as plain
            # text adds no digit): only its last lines are read, as what a later one is about.
            recent.extend(_readable(source)[0] for source, _ in statements[-_TOPIC_LINES:])
            continue
        previous_line = chain = ""
        header = " ".join(block.table.header) if block.table is not None else ""
        header_cues = _header_cues(header)
        paragraph = block.kind == "paragraph"
        continues = False  # whether the line continues the worked calculation above
        for source, number, text, where, digit in rows:
            if paragraph:
                before = previous_line
            else:
                continues = _CONTINUES.match(text) is not None
                if not continues:
                    chain = ""
                before = chain or opening
            offered = _offered(next(cues_of_lines), before, header_cues) if digit else ()
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
            recent.append(text)
            if paragraph:
                # The paragraph so far (its last few hundred characters): a sentence wrapped
                # over three lines ("So per / token and per layer … / = 512 bytes") starts in it.
                previous_line = (
                    f"{previous_line} {text}"[-_SENTENCE_REACH:] if previous_line else text
                )
            else:  # the worked calculation so far (read only outside a paragraph)
                chain = f"{chain} {text}" if chain and continues else text
            opening = ""


_Row = tuple[str, int, str, Sequence[int] | None, bool]
"""A statement as the relations read it: its source (a table row as ``| a | b |``), its
1-based line, its text as a reader sees its LaTeX with the source offset of each character
(None when the text is the source: :func:`_readable`), and whether the text holds a digit
(every relation claims a number)."""

_Prepared = tuple[Block, list[tuple[str, int]], list[_Row], str]
"""A block, its statements (:func:`_statements`), them read (none when no statement holds a
digit), and for a display formula the sentence the paragraph before leaves open for it."""


def _prepared(document: Document) -> tuple[list[_Prepared], list[str]]:
    """Every block of the lesson with its statements read, and what the cues of each statement
    with a digit are searched in (the statement, after the sentence that leads into it for a
    display formula's first line): the cues of all of them are searched at once
    (:func:`_line_cues`)."""
    prepared: list[_Prepared] = []
    cued: list[str] = []
    section = -1
    previous: Block | None = None  # the block before, in this section
    for block in document.blocks:
        if block.section != section:
            section, previous = block.section, None
        statements = _statements(block)
        rows: list[_Row] = []
        opening = ""
        if _DIGIT.search(_SEPARATOR.join([source for source, _ in statements])):
            # the last line of the paragraph just before, for a display formula (read only
            # before one: few blocks are display formulas)
            if block.kind == "math" and previous is not None:
                opening = _lead_in(previous)
            # LaTeX is read as a reader sees it ("2\ \text{字节}" is "2 字节"), and a draft's
            # quote is mapped back to the source.
            for source, number in statements:
                text, where = _readable(source)
                digit = _DIGIT.search(text) is not None
                if digit:  # a display formula's subject is in the sentence that leads into it
                    cued.append(f"{opening} {text}" if opening and not rows else text)
                rows.append((source, number, text, where, digit))
        prepared.append((block, statements, rows, opening))
        previous = block
    return prepared, cued


def _readable(source: str) -> tuple[str, Sequence[int] | None]:
    """A statement's text as a reader sees its LaTeX (:func:`checkers.extract.latex.plain`),
    with the source offset of each character; None for a line without LaTeX (read as it is)."""
    return plain(source) if "$" in source or "\\" in source else (source, None)


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


_Cue = tuple[re.Pattern[str], bool, tuple[str, ...]]
"""A cue as it is searched: its pattern (:func:`_lowered`), whether it reads the lowered line,
and the words one of which every text it matches holds (lower case; () when it names none)."""


def _cue_of(relation: Relation) -> _Cue:
    return (*_lowered(relation.CUE), tuple(getattr(relation, "WORDS", ())))


_DISTINCT_CUES: tuple[_Cue, ...] = tuple(
    dict.fromkeys(_cue_of(relation) for relation in ALL_RELATIONS.values())
)
"""Each cue once: relations share cues (the three memory relations read one byte-size cue),
and every line with a digit was searched with it once per relation. A cue is named by its
index here: hashing a compiled pattern hashes its whole program."""

_OFFERS = tuple(
    (
        relation,
        _DISTINCT_CUES.index(_cue_of(relation)),
        bool(getattr(relation, "CUE_BEFORE", False)),
        bool(getattr(relation, "CUE_HEADER", False)),
    )
    for relation in ALL_RELATIONS.values()
)
"""Each relation with its cue (an index of :data:`_DISTINCT_CUES`), whether the cue may be in
the line before (a sentence wrapped across lines: "… the active count per token is" / "$9.2 ×
2/16 ≈ 1.15$B"), and whether it may be in a table row's header ("params (non-embedding)")."""


def _words_of(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """The words of a cue as one pattern of literals (None when it names none): one search in
    C (its first characters are skipped to) rather than a Python-level ``in`` per word."""
    return re.compile("|".join(map(re.escape, words))) if words else None


_CUE_WORDS = tuple(_words_of(words) for _, _, words in _DISTINCT_CUES)
"""The words of each cue of :data:`_DISTINCT_CUES`, as one pattern (:func:`_words_of`)."""


def _matches(index: int, text: str, lowered: str) -> bool:
    """Whether cue ``index`` matches ``text`` (``lowered``: it in lower case). A text holding
    none of the cue's words is not searched with it: a search for literals is a fast scan, an
    alternation is tried at every position."""
    cue, reads_lowered, _ = _DISTINCT_CUES[index]
    words = _CUE_WORDS[index]
    return (words is None or words.search(lowered) is not None) and (
        cue.search(lowered if reads_lowered else text) is not None
    )


_SEPARATOR = "\0"
"""What a lesson's lines are joined by, so that each cue word is looked for in all of them at
once (:func:`_line_cues`): a character no cue word holds."""


def _word_cues() -> tuple[tuple[str, int], ...]:
    """Each cue word (:data:`_DISTINCT_CUES`) with the cues that name it, as a bit mask."""
    cues: dict[str, int] = {}
    for index, (_, _, words) in enumerate(_DISTINCT_CUES):
        for word in words:
            cues[word] = cues.get(word, 0) | 1 << index
    return tuple(cues.items())


_WORD_CUES = _word_cues()
_UNWORDED = sum(1 << index for index, (_, _, words) in enumerate(_DISTINCT_CUES) if not words)
"""The cues that name no words: every line is searched with them."""


def _line_cues(texts: list[str]) -> list[int]:
    """For each of ``texts`` (a lesson's lines with a digit), the cues it matches, as a bit
    mask of indices of :data:`_DISTINCT_CUES`.

    A line is searched only with the cues one of whose words it holds (an alternation is tried
    at every character; most lines hold no word of most cues). Which line holds a word is found
    by looking for the word in all the lines joined (a fast scan, once per word and line that
    holds it) rather than in every line: lines times words costs more than the searches."""
    lowered_texts = [text.lower() for text in texts]
    lowered = _SEPARATOR.join(lowered_texts)
    starts = _starts(lowered_texts)
    last = len(texts) - 1
    worded = [_UNWORDED] * len(texts)  # the cues whose words each line holds
    for word, cues in _WORD_CUES:
        at = lowered.find(word)
        while at >= 0:
            line = bisect_right(starts, at) - 1
            worded[line] |= cues
            if line == last:
                break
            at = lowered.find(word, starts[line + 1])
    return [
        _matched(cues, text, lowered_text) if cues else 0
        for cues, text, lowered_text in zip(worded, texts, lowered_texts, strict=True)
    ]


def _matched(cues: int, text: str, lowered: str) -> int:
    """Those of ``cues`` (a bit mask) that match ``text`` (``lowered``: it in lower case)."""
    found = 0
    for bit, cue, reads_lowered in _searches(cues):
        if cue.search(lowered if reads_lowered else text) is not None:
            found |= bit
    return found


@cache
def _searches(cues: int) -> tuple[tuple[int, re.Pattern[str], bool], ...]:
    """The cues of a bit mask, each with its bit, its pattern and whether it reads the lowered
    line (a few masks recur on every line)."""
    return tuple(
        (1 << index, cue, reads_lowered)
        for index, (cue, reads_lowered, _) in enumerate(_DISTINCT_CUES)
        if cues >> index & 1
    )


def _starts(texts: list[str]) -> list[int]:
    """Where each of ``texts`` starts when they are joined by :data:`_SEPARATOR`."""
    starts = []
    offset = 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + len(_SEPARATOR)
    return starts


_HEADER_CUES = tuple(dict.fromkeys(index for _, index, _, header in _OFFERS if header))
"""The cues of the relations offered a table row when its header matches (``CUE_HEADER``)."""
_BEFORE_CUES = tuple(dict.fromkeys(index for _, index, before, _ in _OFFERS if before))
"""The cues of the relations offered a line when the line before matches (``CUE_BEFORE``)."""


def _header_cues(header: str) -> int:
    """Those of :data:`_HEADER_CUES` a table's header (its cells joined) matches, as a bit
    mask: read once for all the table's rows."""
    if not header:
        return 0
    lowered = header.lower()
    return sum(1 << index for index in _HEADER_CUES if _matches(index, header, lowered))


def _offered(cues: int, before: str, header_cues: int) -> tuple[Relation, ...]:
    """The relations whose cue the line matches (``cues``: a mask of :func:`_line_cues`), or
    the line before for those that say so (``before``), or the row's header for those that say
    so (``header_cues``: a mask of :func:`_header_cues`)."""
    before_cues = 0
    if before:
        lowered = before.lower()
        for index in _BEFORE_CUES:
            if not cues >> index & 1 and _matches(index, before, lowered):
                before_cues |= 1 << index
    return _relations_of(cues, before_cues, header_cues) if cues | before_cues | header_cues else ()


@cache
def _relations_of(cues: int, before_cues: int, header_cues: int) -> tuple[Relation, ...]:
    """The relations offered a line whose text, line before and header match these cues (bit
    masks): few combinations recur."""
    return tuple(
        relation
        for relation, index, reads_before, reads_header in _OFFERS
        if (cues | (before_cues if reads_before else 0) | (header_cues if reads_header else 0))
        >> index
        & 1
    )


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
