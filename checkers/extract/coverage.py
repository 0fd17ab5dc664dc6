"""How much of a lesson ``scan`` read: the numbers it saw, checked, and why it left the rest.

Reads the lesson's :class:`~checkers.extract.document.Document` (every line of every block:
paragraphs, list items, headings, table cells, display math, code and text blocks; front matter
is not lesson text) and the drafted claims that ``scan`` checked. Recognises nothing itself.

- **Seen**: every printed number of that text, as :func:`checkers.numbers.number_tokens` reads
  printed numbers (the one reading of numbers in running text: ``x1``, ``W₂`` and ``10⁻⁵``'s
  exponent are not numbers; ``4,096`` is two tokens, ``4`` and ``096``, which always stand in the
  same place and so in the same bucket).
- **Checked**: a number whose printed characters lie inside the quote of a drafted claim that
  reached a verdict (any verdict but ``error`` or ``stale``), or inside a statement that claim
  read an input from (``params = 13e9`` for ``weights = params * 2  # 26 GB``: the draft's
  ``inputs``); for a claim whose quote holds numbers no check reads, only the statements of
  it the draft names (its ``counted``: a calculation worked over lines restates its left side,
  the ``1`` of ``f(1) =``, on every line). The quote is located as the claim
  loader anchors it (:meth:`checkers.lesson.Lesson.anchor`: whitespace and width folded, its
  ``occurrence``), and its span runs from its first to its last character. So a table-row quote
  counts every number of that row, and an equation chain every number of the chain: the
  figure says what the checks stood on, an upper bound of what they recomputed.
- **Skipped**: every other number, in the first of these buckets that applies (:data:`REASONS`):
  ``identifier`` (a date, year, version, section or step label, a model name such as GPT-4, a
  URL), ``table`` (a table cell), ``code`` (a line of a code or text block, or inline code),
  ``latex`` (display math, or inline ``$…$``/``\\(…\\)`` math in prose), ``definition`` (a
  value given to a name in prose, ``d_model = 512``: an input, not a claim), ``prose-relation``
  (a sentence with an equality, approximation, arrow or an operator between numbers, which no
  recogniser drafted), ``prose`` (a sentence that states a number with no relation).

Written by hand: what a number means to the checker is the drafts' business; this is only
bookkeeping of positions, and no library knows either of the two.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from checkers.extract.document import Block, Document
from checkers.lesson import AnchorError, Lesson
from checkers.numbers import Token, number_tokens

__all__ = [
    "REASONS",
    "UNCHECKED_VERDICTS",
    "CoverageTotal",
    "LessonCoverage",
    "NumberSeen",
    "lesson_coverage",
    "numbers_seen",
    "report_section",
    "total",
]

REASONS: dict[str, str] = {
    "identifier": "a date, version, label, name or URL",
    "table": "a table cell",
    "code": "code or an output block",
    "latex": "LaTeX",
    "definition": "a value given to a name in prose (d_model = 512)",
    "prose-relation": "prose with a relation no recogniser drafted",
    "prose": "prose with no relation",
}
"""Why a number was not checked, by key (as in the JSON report) → how it is printed; in the
order they are tried."""

UNCHECKED_VERDICTS = frozenset({"error", "stale"})
"""Verdicts of a drafted claim whose numbers do not count as checked: the check did not run to
the end (a time limit, a quote that could not be anchored)."""


@dataclass(frozen=True)
class NumberSeen:
    """A printed number of the lesson and what ``scan`` did with it."""

    line: int
    """1-based line in the lesson."""
    column: int
    """1-based column of its first character in that line (0 when not found in the source)."""
    text: str
    """The number as printed."""
    place: str
    """The kind of block it stands in (``paragraph``, ``heading``, ``table``, ``fence``,
    ``math``)."""
    checked: bool
    """Inside the quote of a drafted claim that was checked."""
    reason: str | None
    """Why it was skipped (a key of :data:`REASONS`), None when checked."""


@dataclass(frozen=True)
class LessonCoverage:
    """The coverage of one lesson."""

    source: str
    """The lesson, as findings name it."""
    numbers: int
    """Printed numbers seen."""
    checked: int
    """Of those, inside a checked claim's quote."""
    skipped: Mapping[str, int] = field(default_factory=dict)
    """Numbers not checked, per reason (keys of :data:`REASONS`), most common first."""

    def to_json(self) -> dict[str, Any]:
        """The lesson's entry of the report's ``coverage.lessons``."""
        return {
            "source": self.source,
            "numbers": self.numbers,
            "checked": self.checked,
            "skipped": dict(self.skipped),
        }

    def line(self) -> str:
        """One line for the terminal: counts and the three most common reasons."""
        reasons = ", ".join(f"{key} {count}" for key, count in list(self.skipped.items())[:3])
        skipped = f"; skipped: {reasons}" if reasons else ""
        return (
            f"{self.source}: {self.numbers} numbers, {self.checked} checked "
            f"({_share(self.checked, self.numbers)}){skipped}"
        )


@dataclass(frozen=True)
class CoverageTotal:
    """The coverage of a run: its lessons, summed."""

    lessons: int
    """Lessons scanned."""
    lessons_checked: int
    """Lessons with at least one checked number."""
    numbers: int
    """Printed numbers seen in all of them."""
    checked: int
    """Of those, checked."""
    skipped: Mapping[str, int]
    """Numbers not checked, per reason, most common first."""

    def to_json(self) -> dict[str, Any]:
        """The report's ``coverage.total``."""
        return {
            "lessons": self.lessons,
            "lessons_checked": self.lessons_checked,
            "numbers": self.numbers,
            "checked": self.checked,
            "skipped": dict(self.skipped),
        }

    def lines(self) -> list[str]:
        """The run's coverage for the terminal: shares, then every reason with its count."""
        return [
            f"coverage: {self.lessons_checked} of {self.lessons} lessons with a checked number "
            f"({_share(self.lessons_checked, self.lessons)}); {self.numbers} numbers seen, "
            f"{self.checked} checked ({_share(self.checked, self.numbers)})",
            *(
                f"  skipped {count:>7}  {key}: {REASONS[key]}"
                for key, count in self.skipped.items()
            ),
        ]


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def total(lessons: Sequence[LessonCoverage]) -> CoverageTotal:
    """The lessons' coverage summed."""
    skipped: Counter[str] = Counter()
    for lesson in lessons:
        skipped.update(lesson.skipped)
    return CoverageTotal(
        lessons=len(lessons),
        lessons_checked=sum(1 for lesson in lessons if lesson.checked),
        numbers=sum(lesson.numbers for lesson in lessons),
        checked=sum(lesson.checked for lesson in lessons),
        skipped=_ordered(skipped),
    )


def report_section(lessons: Sequence[LessonCoverage]) -> dict[str, Any]:
    """The JSON report's ``coverage`` section: the reasons' meanings, the total, each lesson."""
    return {
        "reasons": dict(REASONS),
        "total": total(lessons).to_json(),
        "lessons": [lesson.to_json() for lesson in lessons],
    }


def _ordered(counts: Counter[str]) -> dict[str, int]:
    order = list(REASONS)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], order.index(item[0]))))


def lesson_coverage(
    source: str,
    document: Document,
    lesson: Lesson,
    claims: Iterable[Mapping[str, Any]],
    verdicts: Mapping[str, str],
    *,
    inputs: Mapping[str, Sequence[tuple[int, str]]] | None = None,
    counted: Mapping[str, Sequence[tuple[int, str]]] | None = None,
) -> LessonCoverage:
    """The coverage of one lesson from its drafted ``claims`` (claim mappings with ``id``,
    ``quote`` and maybe ``occurrence``), the ``verdicts`` their checks reached, by id, the
    statements each claim read inputs from (``inputs``, by id: (line, text on that line)), and
    for a claim not every number of whose quote counts, the statements of it that do
    (``counted``, by id, alike: :attr:`~checkers.extract.draft.Draft.counted`)."""
    spans = _checked_spans(lesson, claims, verdicts, inputs, counted)
    skipped: Counter[str] = Counter()
    seen = checked = 0
    for number in numbers_seen(document, lesson, spans):
        seen += 1
        if number.checked:
            checked += 1
        elif number.reason is not None:
            skipped[number.reason] += 1
    return LessonCoverage(source, seen, checked, _ordered(skipped))


def _checked_spans(
    lesson: Lesson,
    claims: Iterable[Mapping[str, Any]],
    verdicts: Mapping[str, str],
    inputs: Mapping[str, Sequence[tuple[int, str]]] | None = None,
    counted: Mapping[str, Sequence[tuple[int, str]]] | None = None,
) -> list[tuple[int, int]]:
    """Source (start, end) offsets of the quotes of checked claims (or of the statements of a
    quote that count, ``counted``) and of the statements they read inputs from, merged and
    sorted."""
    spans: list[tuple[int, int]] = []
    for claim in claims:
        key = str(claim.get("id"))
        verdict = verdicts.get(key)
        if verdict is None or verdict in UNCHECKED_VERDICTS:
            continue
        own = (counted or {}).get(key)
        for line, text in [*(inputs or {}).get(key, ()), *(own or ())]:
            found = _input_span(lesson, line, text)
            if found is not None:
                spans.append(found)
        if own is not None:
            continue  # the statements of its quote that count stand for the quote
        try:
            spans.append(lesson.span(str(claim.get("quote", "")), claim.get("occurrence") or 1))
        except AnchorError:
            continue
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _input_span(lesson: Lesson, line: int, text: str) -> tuple[int, int] | None:
    """Source offsets of ``text`` in line ``line``, None when it is not written there."""
    starts = lesson.line_starts
    if not text or not 0 < line <= len(starts):
        return None
    end = starts[line] if line < len(starts) else len(lesson.readable)
    found = lesson.readable.find(text, starts[line - 1], end)
    return None if found == -1 else (found, found + len(text))


_FAR = 1 << 62


def _inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    index = bisect.bisect_right(spans, (start, _FAR)) - 1
    return index >= 0 and spans[index][0] <= start and end <= spans[index][1]


def numbers_seen(
    document: Document, lesson: Lesson, spans: list[tuple[int, int]]
) -> Iterator[NumberSeen]:
    """Every printed number of the document in reading order, checked when it lies inside one of
    ``spans`` (sorted, disjoint source offsets), else with the reason it was skipped."""
    starts = lesson.line_starts
    for block in document.blocks:
        sentences = _Sentences(block) if block.kind in _PROSE else None
        cursor: dict[int, int] = {}  # per source line: where the previous cell ended
        for index, line in enumerate(block.lines):
            if _DIGIT.search(line.text) is None:  # most lines: a scan in C, not the tokeniser
                continue
            tokens = number_tokens(line.text)
            if not tokens:
                continue
            column = _column(lesson, line.number, line.text, cursor)
            places = _Places(line.text, block.kind)
            for token in tokens:
                offset = None
                if column is not None:
                    offset = starts[line.number - 1] + column + token.start
                checked = offset is not None and _inside(
                    spans, offset, offset + token.end - token.start
                )
                reason = None
                if not checked:
                    reason = places.reason(token)
                    if reason is None and sentences is not None:
                        relation = sentences.relation(index, token.start)
                        reason = "prose-relation" if relation else "prose"
                yield NumberSeen(
                    line=line.number,
                    column=0 if column is None else column + token.start + 1,
                    text=token.text,
                    place=block.kind,
                    checked=checked,
                    reason=reason,
                )


_PROSE = ("paragraph", "heading")
_DIGIT = re.compile("[0-9０-９]")


def _column(lesson: Lesson, number: int, text: str, cursor: dict[int, int]) -> int | None:
    """0-based column of ``text`` in source line ``number`` (after the previous cell of the same
    line), or None when the line is not where the document says (a lesson with bare ``\\r``
    line breaks)."""
    starts = lesson.line_starts
    if not 0 < number <= len(starts):
        return None
    end = starts[number] if number < len(starts) else len(lesson.readable)
    source = lesson.readable[starts[number - 1] : end]
    found = source.find(text, cursor.get(number, 0))
    if found == -1:
        found = source.find(text)
    if found == -1:
        return None
    cursor[number] = found + len(text)
    return found


_LABEL_WORDS = (
    "step|phase|part|chapter|lesson|section|module|week|day|figure|fig\\.|table|exercise|"
    "example|eq\\.|equation|appendix|level|stage|task|lab|problem|question|version|release"
)
_IDENTIFIER_PATTERN = (
    r"(?=[\w\]#(\\])(?:"  # every form starts with one of these: a cheap first test
    r"https?://\S+"  # a URL
    r"|\]\([^)\s]*\)"  # a link target
    r"|(?<![\d.])\d+(?:\.\d+){2,}"  # a version: 0.7.1, 2.1.0.post1
    r"|\b[vV]\d+(?:\.\d+)*"  # v2, V1.5
    r"|\b(?:19|20)\d\d(?:[-/年.]\d{1,2}(?:[-/月.]\d{1,2}日?)?|年)"  # 2023-05-01, 2024年
    r"|\d{1,2}\s*[月日号]"  # 5 月, 3日
    r"|\bet al\.?,?\s*(?:19|20)\d\d"  # a citation: Vaswani et al., 2017
    r"|\(\s*(?:19|20)\d\d[a-z]?(?=\s*[),;])"  # (2017), (2020a; …)
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?"
    r"(?:19|20)\d\d"  # May 2024, March 3, 2023
    r"|\b[A-Za-z][A-Za-z0-9]*[-_]\d+(?:[.-]\d+)*"  # GPT-4, Llama-3.1, layer_3, gpt-4-0613
    rf"|\b(?:{_LABEL_WORDS})\s*#?\s*\d+(?:\.\d+)*(?:\s*·\s*\d+)?"  # Step 3, Lab 3.2, Phase 2 · 07
    r"|第\s*\d+\s*[章节步课讲部篇周天轮期]"  # 第 3 章
    r"|[图表例式]\s*\d+(?:[.-]\d+)*"  # 图 3, 表 2-1
    r"|#\d+)"  # an issue or pull request
)
_IDENTIFIER = re.compile(_IDENTIFIER_PATTERN)  # on lower-cased text, which is faster than
_IDENTIFIER_ANY_CASE = re.compile(_IDENTIFIER_PATTERN, re.IGNORECASE)  # this, kept for the
# few texts that lower-casing lengthens (İ), where offsets would no longer agree
_SECTION_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*[.、:)]?(?=\s|$)")
_ORDINAL = re.compile(r"(?:st|nd|rd|th|D)\b")  # 3rd, 4th, 2D


class _Spans:
    """Spans of a text (merged where they overlap), asked whether they hold a character range:
    a bisection, so a line of many numbers and many spans stays linear."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        self._spans = merged

    def holds(self, start: int, end: int) -> bool:
        return _inside(self._spans, start, end)


class _Places:
    """Where the numbers of one line stand: its identifiers, inline code and math, and the values
    of its definitions, each found once per line (when a number of it is first asked about)."""

    def __init__(self, text: str, kind: str) -> None:
        self._text = text
        self._kind = kind
        self._identifiers: _Spans | None = None
        self._inline: tuple[_Spans, _Spans] | None = None
        self._definitions: _Spans | None = None

    def reason(self, token: Token) -> str | None:
        """The reason ``token`` was skipped, or None for prose (decided by its sentence)."""
        text, kind = self._text, self._kind
        if self._identifiers is None:
            self._identifiers = _Spans(_identifier_spans(text, heading=kind == "heading"))
        if self._identifiers.holds(token.start, token.end) or _ORDINAL.match(text, token.end):
            return "identifier"
        if kind == "table":
            return "table"
        if kind == "fence":
            return "code"
        if kind == "math":
            return "latex"
        if self._inline is None:
            found = [(m.lastgroup, m.span()) for m in _INLINE.finditer(text)]
            self._inline = (
                _Spans(span for group, span in found if group == "code"),
                _Spans(span for group, span in found if group == "math"),
            )
        if self._inline[0].holds(token.start, token.end):
            return "code"
        if self._inline[1].holds(token.start, token.end):
            return "latex"
        if self._definitions is None:
            self._definitions = _Spans(m.span("value") for m in _DEFINITION.finditer(text))
        if self._definitions.holds(token.start, token.end):
            return "definition"
        return None


def _identifier_spans(text: str, *, heading: bool) -> list[tuple[int, int]]:
    """Where ``text`` names rather than states: dates, versions, labels, names, URLs."""
    lowered = text.lower()
    if len(lowered) == len(text):
        found = [m.span() for m in _IDENTIFIER.finditer(lowered)]
    else:
        found = [m.span() for m in _IDENTIFIER_ANY_CASE.finditer(text)]
    if heading:
        section = _SECTION_NUMBER.match(text)
        if section is not None:
            found.append(section.span())
    return found


# Each form is bounded so that a hostile line of unclosed backticks or \( stays linear.
_INLINE = re.compile(
    r"(?P<code>(`+)[^`]{1,1000}\2(?!`))"  # inline code
    r"|(?P<math>\$(?=\S)[^$]{0,1000}?(?<=\S)\$(?!\d)|\\\(.{0,1000}?\\\)|\\\[.{0,1000}?\\\])"
)


_DEFINITION = re.compile(
    r"(?<![\w.])[A-Za-z_\u0370-\u03ff][\w\u2080-\u2089']*"  # d_k, N, W₁, α
    r"(?:\([\w, ]*\))?\s*[=＝]\s*"  # F(x) =
    r"(?P<value>[-−]?\d[\d.,]*(?:\s*[A-Za-z%万亿]+(?!\w))?|\[[\d.,\s−-]*\])"  # 512, 4K, [0.5]
    r"(?!\s*[=＝≈×*/+^·−-]\s*[\d(\w])"  # not the start of a chain: d = 4 × 16
)
_SENTENCE_END = re.compile(r"[。！？；]|[.!?;](?=\s|$)")
_RELATION = re.compile(
    r"[=＝≈≃≅≒→⇒×÷]|约|等于|\d\s*[*/+^]\s*\d|\d·\d|\d\s+[-−]\s+\d|\d\s*−\s*\d"
    r"|\\(?:times|approx|frac|cdot|div|sqrt|simeq)"
)


class _Sentences:
    """The sentences of a prose block, so a number is judged by the sentence it stands in."""

    def __init__(self, block: Block) -> None:
        self._block = block
        self._text = ""
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._relations: dict[int, bool] = {}

    def _split(self) -> None:
        block = self._block
        pieces: list[str] = []
        offset = 0
        for line in block.lines:
            self._starts.append(offset)
            pieces.append(line.text)
            offset += len(line.text) + 1
        self._text = "\n".join(pieces)
        self._ends = [m.end() for m in _SENTENCE_END.finditer(self._text)]

    def relation(self, line_index: int, column: int) -> bool:
        """Whether the sentence holding the character at ``column`` of the block's line
        ``line_index`` states a relation."""
        if not self._starts:
            self._split()
        position = self._starts[line_index] + column
        index = bisect.bisect_right(self._ends, position)
        known = self._relations.get(index)
        if known is None:
            start = self._ends[index - 1] if index else 0
            end = self._ends[index] if index < len(self._ends) else len(self._text)
            known = self._relations[index] = _RELATION.search(self._text, start, end) is not None
        return known
