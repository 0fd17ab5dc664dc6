"""What ``fix`` does with the printed numbers of a text: which ones a suggested fix changes,
rewriting them by index, and writing a new number the way the old one was written.

Finding the numbers is :func:`checkers.numbers.number_tokens`.
"""

from __future__ import annotations

from collections.abc import Sequence

from checkers.lesson import fold_text
from checkers.numbers import Token, number_tokens

__all__ = ["norm", "number_changes", "replace_numbers", "styled"]


def norm(text: str) -> str:
    """Text as numbers are compared: whitespace removed, full-width folded (as quotes are)."""
    return fold_text(text)


def _skeleton(text: str, tokens: Sequence[Token]) -> str:
    pieces: list[str] = []
    cursor = 0
    for token in tokens:
        pieces.append(text[cursor : token.start])
        pieces.append("\x00")
        cursor = token.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def number_changes(quote: str, fix: str) -> dict[int, str] | None:
    """Which numbers of ``quote`` the suggested ``fix`` changes: {token index: new text}.

    None when the fix changes anything besides numbers (then it is not a number replacement).
    """
    old, new = number_tokens(quote), number_tokens(fix)
    if len(old) != len(new) or _skeleton(quote, old) != _skeleton(fix, new):
        return None
    return {i: b.text for i, (a, b) in enumerate(zip(old, new, strict=True)) if a.text != b.text}


def replace_numbers(text: str, changes: dict[int, str]) -> str:
    """``text`` with its numbers ``changes`` (by index) replaced."""
    for index, token in reversed(list(enumerate(number_tokens(text)))):
        if index in changes:
            text = text[: token.start] + changes[index] + text[token.end :]
    return text


def styled(new: str, original: str) -> str:
    """``new`` written the way ``original`` was: full-width digits, unicode minus."""
    if any("０" <= c <= "９" for c in original):
        new = "".join(
            chr(ord(c) - ord("0") + ord("０")) if c.isdigit() else ("．" if c == "." else c)
            for c in new
        )
    if "−" in original:
        new = new.replace("-", "−")
    elif "-" in original:
        new = new.replace("−", "-")
    return new
