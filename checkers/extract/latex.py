"""Inline LaTeX and Markdown emphasis as plain arithmetic, remembering where each character
came from.

Lessons write ``$12 \\times 24 \\times 1024^2 = 301{,}989{,}888$``, ``$e^{0.5} ≈ 1.65$``,
``$\\sqrt{96} ≈ 9.8$`` and ``$\\frac{1}{8}$``. The recognisers read numbers from the plain form
(``12 × 24 × 1024^2 = 301,989,888``) but quote the lesson as written, so :func:`plain` returns,
for every character of its output, the offset of the source character it stands for.

Unknown commands are kept as written, so an expression that uses them does not parse and is
skipped rather than guessed.

Bold and strong emphasis around numbers (``**85,054,464 + 39,383,808 = 124,438,272**``) is
dropped, so that the markers are not read as ``**`` (a power) and do not cut a number at its
separator. A marker pair counts only when it opens after a space or punctuation and closes
before one, as CommonMark requires, so ``2**10`` and ``a ** b`` in code stay arithmetic.
"""

from __future__ import annotations

import re

__all__ = ["plain"]

_COMMANDS: dict[str, str] = {
    "times": "×",
    "cdot": "·",
    "div": "÷",
    "approx": "≈",
    "simeq": "≃",
    "sqrt": "√",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "tanh": "tanh",
    "exp": "exp",
    "ln": "ln",
    "log": "log",
    "max": "max",
    "min": "min",
    "pi": "π",
    "infty": "∞",
    "in": "∈",
    "ldots": "…",
    "dots": "…",
    "cdots": "…",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "lt": "<",
    "left": "",
    "right": "",
    "mathrm": "",
    "text": "",
    "operatorname": "",
    "displaystyle": "",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    " ": " ",
    "%": "%",
    "$": "",
    "quad": " ",
    "qquad": " ",
}
# DOTALL and "|$": a backslash before a line break or at the very end of a lesson is a
# (one-character) command too, not a failed match.
_COMMAND = re.compile(r"\\([A-Za-z]+|.|$)", re.DOTALL)


def plain(text: str) -> tuple[str, list[int]]:
    """``text`` with inline LaTeX made plain, and the source offset of each output character."""
    emphasis = _emphasis(text) if ("**" in text or "__" in text) else set()
    if "\\" not in text and "$" not in text and "{" not in text:
        if not emphasis:
            return text, list(range(len(text)))
        return _without(text, sorted(emphasis))
    out: list[str] = []
    where: list[int] = []
    # Open \frac groups: [brace depth of their arguments, 0 in the numerator / 1 in the
    # denominator], so "}{" between the two arguments becomes ")/(".
    fractions: list[list[int]] = []
    depth = 0
    index = 0

    def emit(piece: str, at: int) -> None:
        out.extend(piece)
        where.extend([at] * len(piece))

    while index < len(text):
        char = text[index]
        if index in emphasis:
            index += 2
        elif text.startswith("{,}", index):
            emit(",", index)
            index += 3
        elif char == "\\":
            match = _COMMAND.match(text, index)
            assert match is not None
            name = match.group(1)
            if name == "frac":
                fractions.append([depth + 1, 0])
                emit("(", index)
            elif name == "sigma" and text[match.end() : match.end() + 1] == "(":
                emit("sigmoid", index)  # σ(x) with a numeric argument is the logistic sigmoid
            elif name in _COMMANDS:
                emit(_COMMANDS[name], index)
            else:
                emit(match.group(0), index)
            index = match.end()
        elif char == "$":
            emit(" ", index)
            index += 1
        elif char == "{":
            depth += 1
            emit("(", index)
            index += 1
        elif char == "}":
            frac = fractions[-1] if fractions and fractions[-1][0] == depth else None
            if frac is not None and frac[1] == 0 and text[index + 1 : index + 2] == "{":
                emit(")/(", index)
                frac[1] = 1
                index += 2
                continue
            if frac is not None and frac[1] == 1:
                fractions.pop()
                emit("))", index)
            else:
                emit(")", index)
            depth = max(0, depth - 1)
            index += 1
        else:
            emit(char, index)
            index += 1
    return "".join(out), where


_MARKER = re.compile(r"\*\*|__")


def _without(text: str, markers: list[int]) -> tuple[str, list[int]]:
    """``text`` without the two-character markers starting at ``markers``, with offsets."""
    out: list[str] = []
    where: list[int] = []
    cursor = 0
    for start in markers:
        out.append(text[cursor:start])
        where.extend(range(cursor, start))
        cursor = start + 2
    out.append(text[cursor:])
    where.extend(range(cursor, len(text)))
    return "".join(out), where


def _emphasis(text: str) -> set[int]:
    """Offsets of the ``**``/``__`` markers that open or close a strong-emphasis span."""
    openers: dict[str, int] = {}
    markers: set[int] = set()
    for match in _MARKER.finditer(text):
        start, end = match.start(), match.end()
        before, after = text[start - 1 : start], text[end : end + 1]
        if before == match.group()[0] or after == match.group()[0]:
            continue  # part of a longer run (``***``, ``____``)
        opens = after.strip() != "" and (not before or not _operand(before))
        closes = before.strip() != "" and (not after or not _operand(after, opening=True))
        marker = match.group()
        if opens and not closes:
            openers[marker] = start
        elif closes and not opens and marker in openers:
            markers.update((openers.pop(marker), start))
    return markers


def _operand(char: str, *, opening: bool = False) -> bool:
    """A character that an arithmetic operator may follow (or precede, when ``opening``)."""
    return char.isalnum() or char in ("([" if opening else ")]")
