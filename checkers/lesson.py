"""A lesson: its text read once and folded once, and where a claim's quote sits in it.

:class:`Lesson` is what every part that reads lessons shares (claim loading, ``scan``,
``extract``, ``fix``); :func:`load_lesson` reads one from disk (through :mod:`checkers.files`)
or takes text already in memory, so ``fix`` checks its edits without writing copies to disk.

Anchoring lives here too, because it is a question asked of a lesson's folded text and its
caches (:meth:`Lesson.anchor`, :meth:`Lesson.occurrences`), not a separate step. Claims never
store line numbers. The quote is searched in the lesson with whitespace ignored and
full-width characters folded to half-width (``０．５`` matches ``0.5``), but digits, signs and
superscripts must match: a changed number is a changed claim. A quote that is no longer in the
lesson makes its claim *stale*; a quote that occurs more than once needs ``occurrence:``.
"""

from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import compress
from operator import not_
from pathlib import Path

from checkers.files import (
    MAX_LESSON_BYTES,
    NotText,
    decode_text,
    not_a_lesson,
    read_regular_file,
    search_root,
)
from checkers.formats import CellLine, FormatError, LessonSource, read_source

__all__ = [
    "MAX_OCCURRENCES",
    "Anchor",
    "AnchorError",
    "Lesson",
    "LessonError",
    "caseless",
    "fold",
    "fold_text",
    "load_lesson",
]

MAX_OCCURRENCES = 1000
"""Occurrences of one quote counted; a quote that appears more often must quote more text."""
FOUND_BUDGET = 200_000
"""Offsets one lesson remembers for :meth:`Lesson.occurrences`, over all quotes (a few MB at
most: 20 000 quotes that each occur a thousand times cannot make the memory grow)."""
HINT_BUDGET = 10_000_000
"""Characters a lesson may compare, over all its stale quotes, to find "closest is line N"
hints (about 10 s of difflib); after that, stale messages come without a hint. 50 000 stale
quotes against a long lesson would otherwise take hours."""
_HINT_CLIP = 300
"""Characters of a quote and of a line compared for a hint (difflib is quadratic)."""

_LONG_LINE = 2000
"""A line longer than this (characters) is not read on its own to place a folded offset:
:attr:`Lesson.offsets` are built instead, once for the lesson."""

_KEEP = set("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺₀₁₂₃₄₅₆₇₈₉")


def _fold_char(char: str) -> str:
    if char.isspace():
        return ""
    if char in _KEEP:
        # NFKC would turn 0.9⁵⁰ into 0.950: keep superscripts distinct from digits.
        return char
    if "\uff01" <= char <= "\uff5e":
        return unicodedata.normalize("NFKC", char)
    if char in "−–":
        return "-"
    return char


# What _fold_char does to non-space characters, as a table: every full-width character maps to
# one character (checked when the table is built), so folding keeps one offset per character.
_FOLD_TABLE: dict[str, str] = {
    char: _fold_char(char)
    for char in (*map(chr, range(0xFF01, 0xFF5F)), "−", "–")
    if _fold_char(char) != char
}
if any(len(piece) != 1 for piece in _FOLD_TABLE.values()):  # pragma: no cover - Unicode data
    raise RuntimeError("a full-width character folds to more than one character")
_FOLDABLE = re.compile("[" + "".join(map(re.escape, _FOLD_TABLE)) + "]")


def _fold_match(match: re.Match[str]) -> str:
    return _FOLD_TABLE[match.group()]


def fold_text(text: str) -> str:
    """``fold(text)[0]``, without the offsets: what a quote is matched as."""
    # str.split() drops exactly the characters str.isspace() names, as _fold_char does.
    joined = "".join(text.split())
    return _FOLDABLE.sub(_fold_match, joined) if _FOLDABLE.search(joined) else joined


_CASELESS = str.maketrans({"İ": "i", "ı": "i", "ſ": "s"})
"""The characters a case-insensitive pattern takes for an ASCII letter that do not lower-case
to it (the dotted and dotless i, the long s; the Kelvin sign lower-cases to k)."""


def caseless(text: str) -> str:
    """``text`` lower-cased as a case-insensitive pattern reads ASCII letters, one character
    for one (offsets and line breaks kept): a word of ASCII letters (and signs or CJK, which
    have no case) is in it, in lower case, exactly where a case-insensitive search of ``text``
    finds it (a test sweeps Unicode both ways), and ``in`` finds a word hundreds of times
    faster than such a search."""
    traps = "İ" in text or "ı" in text or "ſ" in text  # three scans: translate is slower
    return (text.translate(_CASELESS) if traps else text).lower()


def fold(text: str) -> tuple[str, list[int]]:
    """Text with whitespace removed and full-width folded, and each folded char's source offset.

    The same as applying :func:`_fold_char` character by character, done by C loops: a
    megabyte lesson folds in tens of milliseconds.
    """
    return fold_text(text), _fold_offsets(text)


def _fold_offsets(text: str) -> list[int]:
    """``fold(text)[1]``: the source offset of each character :func:`fold_text` keeps (folding
    maps one character to one, so only whitespace moves offsets)."""
    return list(compress(range(len(text)), map(not_, map(str.isspace, text))))


@dataclass(frozen=True)
class Anchor:
    """Where a quote sits in its lesson."""

    line: int
    """1-based line of the quote's first character."""
    column: int
    """1-based column of the quote's first character."""
    occurrences: int
    """How many times the quote occurs in the lesson."""


class LessonError(ValueError):
    """A lesson file that cannot be read: not UTF-8 text, or not what its format expects."""


class AnchorError(ValueError):
    """The quote could not be anchored; ``stale`` tells a vanished quote from an ambiguous one."""

    def __init__(self, message: str, *, stale: bool) -> None:
        super().__init__(message)
        self.message = message
        self.stale = stale


@dataclass(frozen=True)
class Lesson:
    """A lesson read once and folded once, shared by all claims that quote it.

    The folded text, its offsets and the line index are computed on first use and then kept
    (:attr:`folded`, :attr:`offsets`, :attr:`line_starts`): ``scan`` reads every lesson but
    anchors drafts in about a third of them, and the offsets (one int per character) were a
    twentieth of the scan for lessons that never needed them."""

    path: Path
    """Where the lesson was read from."""
    text: str
    """The lesson as the author wrote it."""
    source: LessonSource
    """The file as its format reads it: what a reader sees of ``text`` (anchoring and
    drafting read that), and for a notebook where each line lies in the file."""
    hint_budget: list[int] = field(default_factory=lambda: [HINT_BUDGET], compare=False)
    """What is left of :data:`HINT_BUDGET` (mutable: the lesson is cached and shared)."""
    found: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    """Folded offsets of each quote searched so far (see :meth:`occurrences`)."""
    found_budget: list[int] = field(
        default_factory=lambda: [FOUND_BUDGET], compare=False, repr=False
    )
    """What is left of :data:`FOUND_BUDGET`."""

    @classmethod
    def from_text(cls, path: Path, content: str) -> Lesson:
        """The lesson in ``content`` (the file at ``path``, decoded), read by its format
        (:func:`checkers.formats.read_source`; a notebook becomes Markdown text). Raises
        :class:`LessonError` when the file is not what its name says."""
        try:
            source = read_source(path, content)
        except FormatError as error:
            raise LessonError(f"{path}: {error}") from None
        return cls.from_source(path, source)

    @classmethod
    def from_source(cls, path: Path, source: LessonSource) -> Lesson:
        """The lesson of a source already read by its format."""
        return cls(path, source.text, source)

    @cached_property
    def folded(self) -> str:
        """The readable text folded for matching (see :func:`fold`; what is hidden from
        readers never anchors a quote)."""
        return fold_text(self.source.readable)

    @cached_property
    def offsets(self) -> tuple[int, ...]:
        """Source offset of each character of :attr:`folded`."""
        return tuple(_fold_offsets(self.source.readable))

    def source_offset(self, folded: int) -> int:
        """The source offset of character ``folded`` of :attr:`folded`: ``offsets[folded]``,
        found from the lines' folded starts unless the offsets are already built (``scan``
        anchors a few quotes per lesson, and one int per character cost more than the rest of
        anchoring)."""
        built = self.__dict__.get("offsets")
        if built is not None:
            return int(built[folded])
        folded_starts, source_starts = self._folded_lines
        line = bisect.bisect_right(folded_starts, folded) - 1
        begin = source_starts[line]
        end = source_starts[line + 1] if line + 1 < len(source_starts) else None
        if (end or len(self.source.readable)) - begin > _LONG_LINE:
            return self.offsets[folded]  # a hostile line read per quote would be quadratic
        return begin + _fold_offsets(self.source.readable[begin:end])[folded - folded_starts[line]]

    @cached_property
    def _folded_lines(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(offset in :attr:`folded`, offset in the readable text) where each of its lines
        starts (a line without a kept character starts where the next one does)."""
        folded_starts: list[int] = []
        source_starts: list[int] = []
        folded = source = 0
        for line in self.source.readable.split("\n"):
            folded_starts.append(folded)
            source_starts.append(source)
            folded += sum(map(len, line.split()))  # what fold_text keeps of the line
            source += len(line) + 1
        return tuple(folded_starts), tuple(source_starts)

    @cached_property
    def line_starts(self) -> tuple[int, ...]:
        """Source offset at which each line starts."""
        text = self.text
        starts = [0]
        newline = text.find("\n")
        while newline != -1:
            starts.append(newline + 1)
            newline = text.find("\n", newline + 1)
        return tuple(starts)

    def edited(self, text: str) -> Lesson:
        """This lesson with its text edited in place (numbers replaced, lines kept), as
        ``fix`` checks a rewrite before writing it."""
        return Lesson.from_source(self.path, self.source.with_text(text))

    @property
    def readable(self) -> str:
        """The text with what no reader sees (comments, MDX tags) blanked, offsets kept: what
        recognisers read."""
        return self.source.readable

    def file_position(self, line: int, column: int | None) -> tuple[int | None, int | None]:
        """(line, column) in the lesson file of a (line, column) of :attr:`text`: the same but
        for notebooks, where it is the line of the ``.ipynb`` holding that text."""
        start = self.line_starts[line - 1] if 0 < line <= len(self.line_starts) else 0
        end = self.text.find("\n", start)
        return self.source.file_position(line, column, self.text[start : end if end >= 0 else None])

    def cell_line(self, line: int) -> CellLine | None:
        """For a notebook, the cell and line a line of :attr:`text` comes from."""
        return self.source.cell_line(line)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a source offset."""
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def anchor(self, quote: str, occurrence: int | None = None) -> Anchor:
        """Find ``quote``; raise :class:`AnchorError` when it is gone or ambiguous."""
        start, _, count = self._locate(quote, occurrence)
        line, column = self.position(self.source_offset(start))
        return Anchor(line=line, column=column, occurrences=count)

    def span(self, quote: str, occurrence: int | None = None) -> tuple[int, int]:
        """Source (start, end) offsets of the text ``quote`` anchors to, from its first to just
        after its last character, found as :meth:`anchor` finds it (same errors): what a claim
        stands on, whichever lines of a wrapped paragraph or a fenced block it spans."""
        start, length, _ = self._locate(quote, occurrence)
        return self.source_offset(start), self.source_offset(start + length - 1) + 1

    def _locate(self, quote: str, occurrence: int | None) -> tuple[int, int, int]:
        """(folded start, folded length, occurrences) of ``quote``'s anchored occurrence."""
        needle = fold_text(quote)
        if not needle:
            raise AnchorError("the quote is empty", stale=False)
        wanted = MAX_OCCURRENCES if occurrence is None else min(occurrence, MAX_OCCURRENCES)
        found = self.occurrences(needle)[: wanted + 1]
        if not found:
            raise AnchorError(self._stale_message(quote), stale=True)
        if occurrence is None and len(found) > 1:
            count = f"more than {MAX_OCCURRENCES}" if len(found) > MAX_OCCURRENCES else len(found)
            lines = ", ".join(str(self.position(self.source_offset(f))[0]) for f in found[:10])
            raise AnchorError(
                f"the quote occurs {count} times in {self.path.name} (lines {lines}); "
                "add `occurrence: N` (1 = first) or quote more of the sentence",
                stale=False,
            )
        if occurrence is not None and occurrence > MAX_OCCURRENCES:
            raise AnchorError(
                f"occurrence {occurrence} is beyond the {MAX_OCCURRENCES} counted; "
                "quote more of the sentence",
                stale=False,
            )
        index = 1 if occurrence is None else occurrence
        if not 1 <= index <= len(found):
            raise AnchorError(
                f"occurrence {index} requested but the quote occurs {len(found)} time(s)",
                stale=True,
            )
        return found[index - 1], len(needle), len(found)

    def occurrences(self, needle: str) -> tuple[int, ...]:
        """Folded offsets where ``needle`` (already folded) starts, the first
        ``MAX_OCCURRENCES + 1`` of them: enough to tell "too many", and a one-character quote in
        a megabyte lesson must not cost a list of a million offsets.

        Remembered per needle: ``scan`` asks twice per draft (which occurrence, then the
        anchor), and a megabyte lesson is worth searching once.
        """
        known = self.found.get(needle)
        if known is not None:
            return known
        starts: list[int] = []
        start = self.folded.find(needle)
        while start != -1 and len(starts) <= MAX_OCCURRENCES:
            starts.append(start)
            start = self.folded.find(needle, start + 1)
        result = tuple(starts)
        if len(result) <= self.found_budget[0]:
            self.found_budget[0] -= len(result) + 1
            self.found[needle] = result
        return result

    @cached_property
    def _hint_lines(self) -> list[tuple[int, str]]:
        """(line number, folded start of the line) of every non-blank line, folded once."""
        folded = ((n, fold_text(line[: _HINT_CLIP * 4])[:_HINT_CLIP]) for n, line in self._lines)
        return [(number, text) for number, text in folded if text]

    @cached_property
    def _lines(self) -> list[tuple[int, str]]:
        return list(enumerate(self.text.splitlines(), start=1))

    def _stale_message(self, quote: str) -> str:
        folded_quote = fold_text(quote[: _HINT_CLIP * 4])[:_HINT_CLIP]
        best_ratio, best_line = 0.0, 0
        for number, candidate in self._hint_lines if self.hint_budget[0] > 0 else ():
            # quick_ratio is linear; ratio (run only on improvement) is up to quadratic.
            self.hint_budget[0] -= len(candidate) + len(folded_quote)
            if self.hint_budget[0] <= 0:
                best_ratio = 0.0  # the search did not finish: no hint rather than a poor one
                break
            ratio = difflib.SequenceMatcher(None, folded_quote, candidate).quick_ratio()
            if ratio > best_ratio:
                self.hint_budget[0] -= len(candidate) * len(folded_quote) // 8
                ratio = difflib.SequenceMatcher(None, folded_quote, candidate).ratio()
                if ratio > best_ratio:
                    best_ratio, best_line = ratio, number
        hint = ""
        if best_ratio >= 0.6:
            line = self._lines[best_line - 1][1]
            hint = f"; closest is line {best_line}: {line.strip()[:120]!r}"
        return f"the quote is no longer in {self.path.name} (was the sentence edited?){hint}"


@lru_cache(maxsize=256)
def _load(path: Path, mtime_ns: int, size: int) -> Lesson:
    try:
        data = read_regular_file(path, MAX_LESSON_BYTES)
    except ValueError as error:
        raise LessonError(f"{path}: cannot read lesson: {error}") from None
    except OSError as error:
        raise LessonError(f"{path}: cannot read lesson ({error.strerror})") from None
    try:
        text = decode_text(data)
    except NotText as error:
        if error.start is None:
            hint = "; it looks like UTF-16: save it as UTF-8" if error.utf16 else ""
            raise LessonError(f"{path}: not a text file (contains NUL bytes){hint}") from None
        raise LessonError(f"{path}:{error.line}:{error.column}: {error}") from None
    return Lesson.from_text(path, text)


def load_lesson(path: Path, text: str | None = None) -> Lesson:
    """Read and fold a lesson once per run (cached on path, size and modification time).

    With ``text``, the lesson at ``path`` is that text, as ``fix`` holds it while rewriting:
    nothing is read, and nothing is cached (the caller knows when its text changes)."""
    if text is not None:
        return Lesson.from_text(path, text)
    refused = not_a_lesson(path, search_root(path))
    if refused is not None:
        raise LessonError(f"{path}: {refused}; only lesson files are read")
    try:
        info = path.stat()
    except OSError as error:
        raise LessonError(f"{path}: cannot read lesson ({error.strerror})") from None
    return _load(path, info.st_mtime_ns, info.st_size)
