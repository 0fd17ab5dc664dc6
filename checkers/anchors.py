"""Quote anchoring: find a claim's quote in its lesson and derive the lesson line.

Claims never store line numbers. The quote is searched in the lesson with whitespace ignored and
full-width characters folded to half-width (``０．５`` matches ``0.5``), but digits, signs and
superscripts must match: a changed number is a changed claim. A quote that is no longer in the
lesson makes its claim *stale*; a quote that occurs more than once needs ``occurrence:``.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Anchor", "AnchorError", "Lesson", "fold", "load_lesson"]

MAX_LESSON_BYTES = 5_000_000
"""Largest lesson read; a long course chapter is well under a megabyte."""

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


def fold(text: str) -> tuple[str, list[int]]:
    """Text with whitespace removed and full-width folded, and each folded char's source offset."""
    out: list[str] = []
    offsets: list[int] = []
    for index, char in enumerate(text):
        for piece in _fold_char(char):
            out.append(piece)
            offsets.append(index)
    return "".join(out), offsets


@dataclass(frozen=True)
class Anchor:
    """Where a quote sits in its lesson."""

    line: int
    """1-based line of the quote's first character."""
    column: int
    """1-based column of the quote's first character."""
    occurrences: int
    """How many times the quote occurs in the lesson."""


class AnchorError(ValueError):
    """The quote could not be anchored; ``stale`` tells a vanished quote from an ambiguous one."""

    def __init__(self, message: str, *, stale: bool) -> None:
        super().__init__(message)
        self.message = message
        self.stale = stale


@dataclass(frozen=True)
class Lesson:
    """A lesson read once and folded once, shared by all claims that quote it."""

    path: Path
    """Where the lesson was read from."""
    text: str
    """The lesson as the author wrote it."""
    folded: str
    """The text folded for matching (see :func:`fold`)."""
    offsets: tuple[int, ...]
    """Source offset of each folded character."""
    line_starts: tuple[int, ...]
    """Source offset at which each line starts."""

    @classmethod
    def from_text(cls, path: Path, text: str) -> Lesson:
        """Fold a lesson's text and index its lines."""
        folded, offsets = fold(text)
        starts = [0]
        starts.extend(i + 1 for i, char in enumerate(text) if char == "\n")
        return cls(path, text, folded, tuple(offsets), tuple(starts))

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a source offset."""
        import bisect

        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def anchor(self, quote: str, occurrence: int | None = None) -> Anchor:
        """Find ``quote``; raise :class:`AnchorError` when it is gone or ambiguous."""
        needle, _ = fold(quote)
        if not needle:
            raise AnchorError("the quote is empty", stale=False)
        found: list[int] = []
        start = self.folded.find(needle)
        while start != -1:
            found.append(start)
            start = self.folded.find(needle, start + 1)
        if not found:
            raise AnchorError(self._stale_message(quote), stale=True)
        if occurrence is None and len(found) > 1:
            lines = ", ".join(str(self.position(self.offsets[f])[0]) for f in found[:10])
            raise AnchorError(
                f"the quote occurs {len(found)} times in {self.path.name} (lines {lines}); "
                "add `occurrence: N` (1 = first) or quote more of the sentence",
                stale=False,
            )
        index = 1 if occurrence is None else occurrence
        if not 1 <= index <= len(found):
            raise AnchorError(
                f"occurrence {index} requested but the quote occurs {len(found)} time(s)",
                stale=True,
            )
        line, column = self.position(self.offsets[found[index - 1]])
        return Anchor(line=line, column=column, occurrences=len(found))

    def _stale_message(self, quote: str) -> str:
        lines = self.text.splitlines()
        folded_quote = fold(quote)[0]
        best_ratio, best_line = 0.0, 0
        for number, line in enumerate(lines, start=1):
            candidate = fold(line)[0]
            if not candidate:
                continue
            ratio = difflib.SequenceMatcher(None, folded_quote, candidate).quick_ratio()
            if ratio > best_ratio:
                ratio = difflib.SequenceMatcher(None, folded_quote, candidate).ratio()
                if ratio > best_ratio:
                    best_ratio, best_line = ratio, number
        hint = ""
        if best_ratio >= 0.6:
            hint = f"; closest is line {best_line}: {lines[best_line - 1].strip()[:120]!r}"
        return f"the quote is no longer in {self.path.name} (was the sentence edited?){hint}"


class LessonError(ValueError):
    """A lesson file that cannot be read as UTF-8 text."""


@lru_cache(maxsize=256)
def _load(path: Path, mtime_ns: int, size: int) -> Lesson:
    if size > MAX_LESSON_BYTES:
        raise LessonError(f"{path}: lesson is larger than {MAX_LESSON_BYTES:,} bytes")
    data = path.read_bytes()
    if b"\x00" in data:
        raise LessonError(f"{path}: not a text file (contains NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LessonError(
            f"{path}: not valid UTF-8 (byte {error.start}: {data[error.start : error.start + 1]!r})"
        ) from None
    return Lesson.from_text(path, text)


def load_lesson(path: Path) -> Lesson:
    """Read and fold a lesson once per run (cached on path, size and modification time)."""
    try:
        stat = path.stat()
    except OSError as error:
        raise LessonError(f"{path}: cannot read lesson ({error.strerror})") from None
    return _load(path, stat.st_mtime_ns, stat.st_size)
