"""What every relation shares: the statement it is offered, the value it claims, and the reading
under which a drafted claim is checked.

A relation (one module of this package, listed in :data:`checkers.extract.relations.
ALL_RELATIONS`) is offered a :class:`Statement` (one source line of a section) with the
section's :class:`~checkers.extract.scope.Scope`. It derives which quantity the statement gives
from the statement's own words, takes the other inputs from the scope, and drafts a claim of an
existing kind — or returns None when the statement does not say which quantity it gives.

Where a lesson's conventions allow several readings (a batch the statement does not name, GB or
GiB, fp16 or bf16 when the section names both), :func:`first_holding` drafts the claim under the
first reading under which it holds, so a claim fails only when it is wrong under every reading,
and its note says which reading was used.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from checkers.extract.latex import plain
from checkers.extract.scope import Quantity, Scope
from checkers.kinds import ALL_KINDS
from checkers.kinds.base import Context, Outcome
from checkers.lesson import caseless
from checkers.numbers import NumberError, Printed, parse_printed

__all__ = [
    "BYTE_UNIT",
    "SIZE_CUE",
    "SIZE_WORDS",
    "Claimed",
    "Part",
    "Reading",
    "Statement",
    "bracketed_counts",
    "claimed_value",
    "clause_after",
    "clause_start",
    "describe",
    "first_holding",
    "holding",
    "on_line",
    "parameters_cell",
    "readable",
    "sentence",
    "sentence_end",
    "sentence_start",
    "statement_value",
]

SIZE_CUE = re.compile(r"\d\s*(?:[KMGTP]i?B|bytes?|字节)(?![A-Za-z])", re.IGNORECASE)
SIZE_WORDS = ("b", "字节")
"""What every match of :data:`SIZE_CUE` holds, in lower case (the relations' line filter): its
unit ends in B or starts "byte", or is 字节. Two short words rather than one per unit: each
word costs a scan of the lesson, and the cue itself is cheap to search (it opens with a
digit)."""
"""The cue of the memory relations (KV cache, weights, training): a size in bytes is printed."""
BYTE_UNIT = re.compile(r"[KMGTP]i?B|bytes?|字节", re.IGNORECASE)
"""A byte unit, as :func:`claimed_value` looks for the size a statement claims."""

MAX_READINGS = 16
"""Most readings a relation tries for one statement (each is one check of its kind)."""


@dataclass(frozen=True)
class Statement:
    """One source line of a lesson section, offered to every relation."""

    text: str
    """The line as written (inline Markdown kept; a table row as ``| a | b |``)."""
    line: int
    """Its 1-based line in the lesson."""
    section: int
    """The section it is in (:attr:`checkers.extract.document.Block.section`)."""
    topic: str
    """What the statement is about when its own line does not say: the section's heading and
    the lines just before it in its block (a list under "KV cache per token:")."""
    byte_prefixes: str
    """``either`` when the lesson never writes KiB/GiB (a GB may be 10^9 or 2^30 bytes),
    ``decimal`` when it does (:attr:`checkers.extract.document.Document.byte_prefixes`)."""
    header: tuple[str, ...] = ()
    """For a table row: its table's header cells (what each column holds); () otherwise."""
    before: str = ""
    """The paragraph's text before this line, its last few hundred characters ("" for a
    block's first line): a sentence soft-wrapped across lines starts there. For a display
    formula, the last line of the paragraph that leads into it ("The MLP of one block holds"
    before ``$$ … $$``)."""
    recent: tuple[str, ...] = ()
    """The section's lines just before it, as in ``topic`` but one by one (the rows of a log
    above a log line)."""


@dataclass(frozen=True)
class Claimed:
    """The value a statement claims: the printed number at the end of its relation."""

    printed: Printed
    """The number as printed, with its unit."""
    text: str
    """It as written in the statement (``16 GB``, ``≈ 14 GB``)."""
    start: int
    """Offset of its first character in the statement."""
    end: int
    """Offset just after it."""


@dataclass(frozen=True)
class Reading:
    """One way to read a statement: the kind's fields, and what was assumed, in words."""

    fields: Mapping[str, Any]
    """The claim kind's fields."""
    assumed: str = ""
    """What this reading assumes that the text does not state ("batch 1"), "" if nothing."""


# A claimed value follows the statement's relation: "=", "≈", ":", "is", "为", "takes"…
_MARK = (
    r"(?:[=＝≈≃~∼:：→]|\b(?:is|are|takes?|needs?|requires?|uses?|occup(?:y|ies)|of|has|have"
    r"|holds?|contains?|costs?|adds?|be|becomes?|reach(?:es)?)\b|为|是|约|需要|占用?|有|含)"
)
_APPROX = r"(?:≈|~|∼|约|大约|about\s|roughly\s|approximately\s|around\s)?"


@lru_cache(maxsize=64)
def claimed_value(text: str, unit: re.Pattern[str]) -> Claimed | None:
    """The last number in ``text`` whose unit ``unit`` matches, printed after a relation mark
    (``= 16 GB``, ``takes about 14 GB``, ``为 3 GB``) or opening a table cell; None if none.

    Cached by the text and unit (a :class:`Claimed` is frozen): the three memory relations
    are offered the same lines and each reads its byte size first."""
    found: Claimed | None = None
    if text.lstrip().startswith("|"):
        cells = [c for c in text.strip().strip("|").split("|") if _CELL_VALUE.search(c)]
        values = [c for c in cells if unit.fullmatch(_CELL_VALUE.search(c).group("unit") or "")]  # type: ignore[union-attr]
        if len(values) > 1:
            return None  # a row of several sizes: which column is the claim needs its header
    for match in _CANDIDATE.finditer(text):
        if not unit.fullmatch(match.group("unit") or ""):
            continue
        lead = _LEAD.search(text, max(0, match.start() - 32), match.start())
        if lead is None:
            continue  # no relation mark before it: not the statement's claimed value
        start = lead.start("approx") if lead.group("approx") else match.start()
        mark = _APPROX_MARK.search(text, max(0, start - 3), start)
        if mark is not None:  # "~90 GB": the mark that relates is also the one that rounds
            start = mark.start()
        end = match.end("unit") if match.group("unit") else match.end("number")
        written = text[start:end]
        try:
            printed = parse_printed(written.replace("\u00a0", " "))
        except NumberError:
            continue
        found = Claimed(printed, written.strip(), start, end)
    if found is None and _mentions_counted(text):
        # "LoRA trains 1.57M parameters": a count that names what it counts
        for match in _COUNTED.finditer(text):
            if not unit.fullmatch(match.group("unit") or ""):
                continue
            end = match.end("unit") if match.group("unit") else match.end("number")
            written = text[match.start("number") : end]
            try:
                printed = parse_printed(written)
            except NumberError:
                continue
            found = Claimed(printed, written.strip(), match.start("number"), end)
    return found


# A number (with its unit), found first; then the few characters before it must end with a
# relation mark (or open a table cell): scanning every position for the marks costs far more.
# It opens with its first digit (the character before it is looked at after), so that the
# search skips to the digits of the line instead of trying the pattern at every character.
_CANDIDATE = re.compile(
    r"(?P<number>\d(?<![\w.]\d)(?:\d{0,2}(?:,\d{3})+(?:\.\d+)?|\d*(?:\.\d+)?))"
    r"\s*(?P<unit>[KMGTP]i?B|bytes?|字节|[KMBT]|万亿|亿|万|million|billion|trillion)?(?!\w|\.\d)",
    re.IGNORECASE,
)
_APPROX_MARK = re.compile(r"[≈~∼约]\s*$")
_LEAD = re.compile(
    rf"(?:{_MARK}|^\s*\|?|\|)\s*\**\s*(?P<approx>{_APPROX})\s*$",
    re.IGNORECASE,
)


_COUNTED = re.compile(
    rf"(?P<number>{_APPROX}\s*(?<![\w.,])\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|{_APPROX}\s*(?<![\w.,])"
    r"\d+(?:\.\d+)?)\s*(?P<unit>[KMBT]|万亿|亿|万|million|billion|thousand)?"
    r"\s*(?:(?:trainable|new|extra|LoRA|adapter)\s+|个\s*)*(?:parameters|params|参数|weights)",
    re.IGNORECASE,
)


_COUNTED_WORDS = ("param", "参数", "weight")
"""What every match of :data:`_COUNTED` holds, in the text lowered by
:func:`~checkers.lesson.caseless` (which reads "ı" and "ſ" as ``re.IGNORECASE`` does): its last
word is parameters, params, 参数 or weights. The pattern opens with an optional part, so its
search is tried at every character: a line without these words is not searched."""


def _mentions_counted(text: str) -> bool:
    lowered = caseless(text)
    return any(word in lowered for word in _COUNTED_WORDS)


_CELL_VALUE = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*\s*(?P<unit>[KMGTP]i?B|bytes?|字节|[KMBT]|万亿|亿|万|million|billion)?"
    r"(?![\w])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Part:
    """A size a statement gives in brackets right after the part it counts."""

    claimed: Claimed
    """The size, offsets in the statement's text (``~`` read as ``≈``)."""
    clause: str
    """The part's own words: the statement's text from the last ``+``, comma, colon or
    semicolon before the bracket (``dense MLP``, ``256 experts each``)."""
    qualifier: str
    """What the bracket adds after the size (``per block``, ``apiece``), "" if nothing."""


_BRACKETED = re.compile(
    r"\(\s*(?P<count>(?:[~≈约]\s*)?\d+(?:\.\d+)?\s*(?:[KMB]|million|billion)(?![A-Za-z]))"
    r"\s*(?P<qualifier>per\s+(?:block|layer|expert)|apiece|each|parameters|params)?\s*\)",
    re.IGNORECASE,
)
_CLAUSE_MARKS = ("+", ",", ":", ";", "，", "：", "；")


def bracketed_counts(statement: Statement) -> list[Part]:
    """The sizes the statement puts in brackets after the parts it sums (``attention with MLA
    (~144M per block) + dense MLP (~260M per block)``, ``256 experts each (30M apiece)``): each
    part's count belongs to the part's own clause, not to the whole line."""
    text = statement.text
    if "(" not in text:
        return []
    found = []
    for match in _BRACKETED.finditer(text):
        count = match.group("count")
        bare = count.lstrip("~≈约 ")
        try:
            printed = parse_printed(bare)
        except NumberError:
            continue
        start = max(text.rfind(mark, 0, match.start()) for mark in _CLAUSE_MARKS) + 1
        written = "≈ " + bare if count[0] in "~≈约" else count.strip()
        claimed = Claimed(printed, written, match.start("count"), match.end("count"))
        found.append(Part(claimed, text[start : match.start()], match.group("qualifier") or ""))
    return found


_PARAMETERS_HEADER = re.compile(r"param(?:eter)?s|weights|参数|count", re.IGNORECASE)
_HEADER_SCALE = re.compile(r"[(（]\s*(M|B|millions?|billions?|百万|亿)\s*[)）]", re.IGNORECASE)
_HEADER_UNITS = {"m": "M", "million": "M", "millions": "M", "百万": "M", "b": "B"}
_HEADER_UNITS |= {"billion": "B", "billions": "B", "亿": " 亿"}


def parameters_cell(statement: Statement) -> tuple[Claimed, str] | None:
    """The count in a table row's one parameters column (``parameters``, ``weights``,
    ``参数``; a header's ``(M)``, ``(millions)`` or ``(亿)`` is the cells' scale), with the row's
    label cell and the header, the words that say what it counts; None for any other row.
    The count's offsets are 0: the row is quoted whole."""
    cells = [c.strip() for c in statement.text.strip().strip("|").split("|")]
    header = statement.header
    if len(cells) != len(header) or len(cells) < 2:
        return None
    columns = [i for i, name in enumerate(header) if _PARAMETERS_HEADER.search(name)]
    if len(columns) != 1 or columns[0] == 0:
        return None
    written = cells[columns[0]].strip("* ")
    scale = _HEADER_SCALE.search(header[columns[0]])
    if scale is not None:
        written += _HEADER_UNITS[scale.group(1).lower()]
    try:
        printed = parse_printed(written)
    except NumberError:
        return None
    if printed.value < 1000:
        return None
    return Claimed(printed, written, 0, 0), f"{cells[0]} ({' '.join(header)})"


_CLAUSE_BREAK = re.compile(r"[,;]\s|[，；。]|\.\s")
"""Where a clause of a statement ends: an ASCII comma or semicolon before a space (the comma of
``1,000`` is a thousands separator), a Chinese comma, semicolon or full stop, a full stop before
a space (the point of ``0.13`` is a decimal one)."""


def clause_start(text: str, end: int) -> int:
    """Where the clause that runs up to offset ``end`` starts (0: the line's first): what a
    statement's claimed value is computed from is said in its own clause (``14 GFLOPs × 1,000
    tokens`` after "…per token, and")."""
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, end)]
    return starts[-1] if starts else 0


def clause_after(text: str, start: int) -> str:
    """The rest of the clause from offset ``start`` on: the unit of a claimed size may follow it
    there (``≈ 0.13 MB per token, i.e. …``)."""
    found = _CLAUSE_BREAK.search(text, start)
    return text[start : found.start() if found else len(text)]


_SENTENCE_END = re.compile(r"[.!?;][*_)\"'”’]*(?:\s|$)|[。！？；]")
"""A sentence ends at a full stop (or !, ?, ;) before a space, closing markup allowed
(``**GQA is the win.** MHA …``), or at a Chinese one."""


def readable(text: str) -> tuple[str, Sequence[int]]:
    """``text`` with its inline LaTeX made plain (``$4.2\\times10^{13}$`` → ``4.2×10^(13)``,
    :func:`checkers.extract.latex.plain`), and for each character the source offset it stands
    for; a line without LaTeX is returned as it is."""
    if "$" not in text and "\\" not in text:
        return text, range(len(text))
    return plain(text)


def sentence(statement: Statement, end: int) -> str:
    """The sentence of the statement that runs up to offset ``end`` of its line, from its start
    on the previous line of the paragraph when the line continues it."""
    text = statement.text
    start = sentence_start(text, end)
    if start == 0 and statement.before:
        previous = statement.before
        return previous[sentence_start(previous, len(previous)) :] + " " + text[:end]
    return text[start:end]


def sentence_start(text: str, end: int) -> int:
    """Where the sentence that runs up to offset ``end`` starts (0: the line's first)."""
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, end)]
    return starts[-1] if starts else 0


def sentence_end(text: str, start: int) -> int:
    """Where the sentence that holds offset ``start`` ends (the line's length when it runs on)."""
    found = _SENTENCE_END.search(text, start)
    return found.start() if found else len(text)


def on_line(scope: Scope, role: str, line: int) -> tuple[Quantity, ...]:
    """The quantities of ``role`` the statement's own line states (a model named on it brings
    its published values, but those are the model's, not the statement's: its context is not
    the statement's token count)."""
    return tuple(q for q in scope.of(role) if q.line == line and not q.published)


def statement_value(scope: Scope, role: str, line: int) -> Quantity | None:
    """The value of ``role`` for a statement: the one its line states, else the published one
    of the model its line names (a line about "LLaMA-2 7B" is not about the 13B above it),
    else the section's (:meth:`Scope.value`)."""
    for published in (False, True):
        found = [q for q in scope.of(role) if q.line == line and q.published == published]
        if found and len({q.value for q in found}) == 1:
            return found[0]
    return scope.value(role, before=line)


def describe(quantities: Iterable[Quantity | None], *extra: str) -> str:
    """The note of a draft: where each input was read, then what was assumed."""
    parts = [q.describe() for q in quantities if q is not None]
    return ", ".join([*parts, *(e for e in extra if e)])


def first_holding(
    kind: str, readings: Iterable[Reading], *, nearest_failing: bool = False
) -> Reading | None:
    """The first reading whose fields the kind accepts and under which the claim holds; when
    none holds, the first the kind accepts (the claim then fails under every reading), or with
    ``nearest_failing`` the failing reading whose value comes nearest the printed one (readings
    that differ in what the statement counts, per token or per context: the message then shows
    the one the author most likely meant; the first of equals); None when the kind accepts
    none."""
    nearest: tuple[float, Reading] | None = None
    for reading, outcome in _outcomes(kind, readings):
        if outcome.verdict == "pass":
            return reading
        if outcome.verdict == "fail":
            distance = (
                _distance(outcome.value, reading.fields.get("claimed"))
                if nearest_failing
                else (0.0 if nearest is None else math.inf)
            )
            if nearest is None or distance < nearest[0]:
                nearest = (distance, reading)
    return nearest[1] if nearest is not None else None


def holding(kind: str, readings: Iterable[Reading]) -> Reading | None:
    """The first reading under which the claim holds, or None when it holds under none."""
    return next((r for r, outcome in _outcomes(kind, readings) if outcome.verdict == "pass"), None)


def _outcomes(kind: str, readings: Iterable[Reading]) -> Iterator[tuple[Reading, Outcome]]:
    """Each reading the kind accepts, with its outcome (at most :data:`MAX_READINGS`)."""
    checker = ALL_KINDS[kind]
    for count, reading in enumerate(readings):
        if count >= MAX_READINGS:
            break
        try:
            fields = checker.Input.model_validate(dict(reading.fields))
            outcome = checker.check(fields, Context())
        except (ValidationError, ValueError, TypeError, ArithmeticError):
            continue
        yield reading, outcome


def _distance(value: object, claimed: object) -> float:
    """How far a recomputed value is from the printed one, as a ratio (inf when unknown)."""
    if not isinstance(value, (int, float)) or value <= 0:
        return math.inf
    try:
        printed = parse_printed(str(claimed)).value
    except NumberError:
        return math.inf
    return abs(math.log(value / printed)) if printed > 0 else math.inf
