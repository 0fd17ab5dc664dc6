"""Lining texts up: a quote in its lesson (folded as anchoring folds it), the quote's numbers
in the lesson's own characters, and a claim's expression in its quote.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from checkers.fix.plan import FixProblem
from checkers.fix.tokens import norm
from checkers.lesson import AnchorError, Lesson, fold
from checkers.numbers import Token, number_tokens

__all__ = ["IDENTIFIER", "Alignment", "align", "lesson_ranges", "quote_span", "renumbered"]

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A name in an expression (a ``uses:`` variable)."""


def quote_span(lesson: Lesson, quote: str, occurrence: int | None, *, explain: bool = True) -> int:
    """Folded offset in the lesson where ``quote`` starts (unique, or the occurrence asked).

    Raises :class:`FixProblem` when the quote is gone or ambiguous, with the anchoring message
    when ``explain`` (finding the closest line takes a while).
    """
    needle = fold(quote)[0]
    found: list[int] = []
    start = lesson.folded.find(needle) if needle else -1
    while start != -1:
        found.append(start)
        start = lesson.folded.find(needle, start + 1)
    index = occurrence or 1
    if found and (occurrence is not None or len(found) == 1) and index <= len(found):
        return found[index - 1]
    if explain:
        try:
            lesson.anchor(quote, occurrence)
        except AnchorError as error:
            raise FixProblem(error.message) from None
    raise FixProblem("the quote is not found once in the lesson")


def _folded_range(text: str, token: Token) -> tuple[int, int]:
    _, offsets = fold(text)
    inside = [i for i, offset in enumerate(offsets) if token.start <= offset < token.end]
    if not inside or inside != list(range(inside[0], inside[-1] + 1)):
        raise FixProblem(f"cannot place the number {token.text}")
    return inside[0], inside[-1] + 1


def _is_number_edge(text: str, start: int, end: int) -> bool:
    before = text[start - 1 : start]
    after = text[end : end + 1]
    after_two = text[end : end + 2]
    if before and (before.isdigit() or before in ".．"):
        return False
    if after and after.isdigit():
        return False
    return not (after in (".", "．") and len(after_two) == 2 and after_two[1].isdigit())


def lesson_ranges(lesson: Lesson, start: int, quote: str, indexes: Iterable[int]) -> list[Token]:
    """Where the quote's numbers ``indexes`` sit in the lesson text (as Tokens of the lesson)."""
    tokens = number_tokens(quote)
    placed: list[Token] = []
    for index in indexes:
        low, high = _folded_range(quote, tokens[index])
        first = lesson.offsets[start + low]
        last = lesson.offsets[start + high - 1] + 1
        raw = lesson.text[first:last]
        if norm(raw) != tokens[index].norm or not _is_number_edge(lesson.text, first, last):
            raise FixProblem(
                f"the number {tokens[index].text} of the quote is part of a longer number "
                "in the lesson"
            )
        placed.append(Token(first, last, raw))
    return placed


def _substituted(expression: str, values: dict[str, str]) -> tuple[str, list[int], list[int]]:
    """The expression with the ``uses:`` names written as their printed values.

    Returns the text, the position in it of each character of ``expression`` (-1 for names
    replaced) and, per replaced name occurrence, the start of its value.
    """
    pieces: list[str] = []
    where: list[int] = []
    starts: list[int] = []
    cursor = 0
    length = 0
    for match in IDENTIFIER.finditer(expression):
        if match.group() not in values:
            continue
        literal = expression[cursor : match.start()]
        where.extend(range(length, length + len(literal)))
        pieces.append(literal)
        length += len(literal)
        where.extend([-1] * (match.end() - match.start()))
        starts.append(length)
        value = values[match.group()]
        pieces.append(value)
        length += len(value)
        cursor = match.end()
    literal = expression[cursor:]
    where.extend(range(length, length + len(literal)))
    pieces.append(literal)
    return "".join(pieces), where, starts


@dataclass(frozen=True)
class Alignment:
    """An expression lined up with the quote it was copied from."""

    literal: dict[int, int]
    """Number token of the expression → number token of the quote."""
    names: list[tuple[str, list[int]]]
    """Each replaced name occurrence: (name, the quote's number tokens inside its value)."""


def align(expression: str, quote: str, values: dict[str, str]) -> Alignment | None:
    """Line ``expression`` (names written as ``values``) up with ``quote``; None if not found."""
    text, where, starts = _substituted(expression, values)
    needle, needle_offsets = fold(text)
    haystack, quote_offsets = fold(quote)
    if not needle or haystack.count(needle) != 1:
        return None
    base = haystack.find(needle)
    quote_tokens = number_tokens(quote)
    by_start = {t.start: i for i, t in enumerate(quote_tokens)}

    def quote_token(position: int) -> int | None:
        """The quote token starting at substituted-text character ``position``."""
        folded = [i for i, offset in enumerate(needle_offsets) if offset == position]
        if not folded:
            return None
        return by_start.get(quote_offsets[base + folded[0]])

    literal: dict[int, int] = {}
    for index, token in enumerate(number_tokens(expression)):
        position = where[token.start]
        found = quote_token(position) if position >= 0 else None
        if found is not None and quote_tokens[found].norm == token.norm:
            literal[index] = found
    names: list[tuple[str, list[int]]] = []
    occurrences = [m for m in IDENTIFIER.finditer(expression) if m.group() in values]
    for match, start in zip(occurrences, starts, strict=True):
        value = values[match.group()]
        inside = [
            found
            for token in number_tokens(value)
            if (found := quote_token(start + token.start)) is not None
        ]
        names.append((match.group(), inside))
    return Alignment(literal, names)


_NUMBER_AT = (
    r"((?<![0-9０-９.．])[-−]?[0-9０-９]+(?:[.．][0-9０-９]+)?(?![0-9０-９]|[.．][0-9０-９]))"
)
"""A printed number standing on its own in lesson text (not part of a longer number)."""


def _literal(piece: str) -> str:
    """A pattern for text around numbers: its characters as written, with any whitespace
    (or none) at its ends and where it has whitespace (a reflowed line), as anchoring ignores
    whitespace."""
    words = piece.split()
    return r"\s*" + r"\s*".join(map(re.escape, words)) + r"\s*" if words else r"\s*"


def renumbered(lesson: Lesson, quote: str) -> dict[int, str]:
    """The numbers the lesson now prints where ``quote`` stood, when the lesson holds the quote
    exactly once with only its numbers changed: {number token of the quote: the lesson's
    number, as printed there}. :class:`FixProblem` when it does not, or when nothing changed."""
    tokens = number_tokens(quote)
    if not tokens:
        raise FixProblem("the quote prints no number")
    # Text before, between and after the numbers: it must be in the lesson as it is.
    around = [
        quote[: tokens[0].start],
        *(quote[a.end : b.start] for a, b in itertools.pairwise(tokens)),
        quote[tokens[-1].end :],
    ]
    if not any(piece.strip() for piece in around):
        raise FixProblem("the quote is only numbers; it cannot be found with other numbers")
    # No whitespace pattern at either end: a search must not rescan a long run of spaces.
    pattern = _NUMBER_AT.join(_literal(piece) for piece in around)
    pattern = pattern.removeprefix(r"\s*").removesuffix(r"\s*")
    found = re.compile(pattern).finditer(lesson.text)
    first, second = next(found, None), next(found, None)
    if first is None or second is not None:
        raise FixProblem("the quote is not in the lesson once, even with other numbers")
    changes = {
        index: new
        for index, (token, new) in enumerate(zip(tokens, first.groups(), strict=True))
        if norm(token.text) != norm(new)
    }
    if not changes:
        raise FixProblem("the quote is in the lesson as it is")
    return changes
