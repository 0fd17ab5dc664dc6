"""Inline LaTeX and Markdown emphasis as plain arithmetic, remembering where each character
came from.

Lessons write ``$12 \\times 24 \\times 1024^2 = 301{,}989{,}888$``, ``$e^{0.5} ≈ 1.65$``,
``$\\sqrt{96} ≈ 9.8$`` and ``$\\frac{1}{8}$``. The recognisers read numbers from the plain form
(``12 × 24 × 1024^2 = 301,989,888``) but quote the lesson as written, so :func:`plain` returns,
for every character of its output, the offset of the source character it stands for.

Also: ``\\text{GB}``, ``\\mathrm{M}`` and the other text commands keep their words without
braces (``402\\text{M}`` reads ``402M``); a function applied to a bare number gets its brackets
(``\\ln 32000`` → ``ln(32000)``, ``\\log_2 8`` → ``log2(8)``); ``\\cdots``/``\\ldots`` are an
ellipsis; the alignment ``&`` and the line break ``\\\\`` of ``aligned``/``align`` vanish, as do
``\\begin{aligned}`` and its kin (``\\begin{bmatrix}`` stays: a matrix is not arithmetic
here, the ``latex_matrices`` recogniser reads it).

Unknown commands are kept as written, so an expression that uses them does not parse and is
skipped rather than guessed.

Bold and strong emphasis around numbers (``**85,054,464 + 39,383,808 = 124,438,272**``) is
dropped, so that the markers are not read as ``**`` (a power) and do not cut a number at its
separator. A marker pair counts only when it opens after a space or punctuation and closes
before one, as CommonMark requires, so ``2**10`` and ``a ** b`` in code stay arithmetic.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["plain", "widened"]

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
    "cdots": "⋯",
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
    "rm": "",
    "big": "",
    "Big": "",
    "bigg": "",
    "Bigg": "",
    "bigl": "",
    "bigr": "",
    "Bigl": "",
    "Bigr": "",
    "bf": "",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    " ": " ",
    "%": "%",
    "$": "",
    "quad": " ",
    "qquad": " ",
    "\\": " ",  # a line break of aligned/align: the chain goes on
    "approxeq": "≈",
    "thinspace": " ",
}
# Commands whose braced argument is words (units, labels), kept without the braces so that
# "402\text{M}" is 402M, not 402(M).
_TEXT_COMMANDS = frozenset(
    {"text", "mathrm", "textrm", "mathbf", "textbf", "mathit", "boldsymbol", "mbox", "operatorname"}
)
# Functions that LaTeX applies to a bare argument (\ln 2, \sin 0.5): brackets are added.
_BARE_FUNCTIONS = frozenset({"sin", "cos", "tan", "tanh", "exp", "ln", "log"})
# Not before another factor of the argument (\sin 2\pi, \sin 2x, \ln 2^3): that is guessing.
_BARE_ARGUMENT = re.compile(
    r"(_(?:\{(2|10)\}|(2)))?(\s*)(\d+(?:\.\d+)?)(?![\d.,^_{(]|\s*(?:\\pi|[A-Za-z(]))"
)
# "&=" and "& \approx": the alignment point of a line of aligned/align, outside the environment's
# first line too (a matrix separates cells with "&", never before a relation).
_ALIGNED_RELATION = re.compile(r"&\s*(?:=|≈|\\approx)")
# Environments that only lay out equations (their "&" and "\\" vanish); matrices are not here.
_LAYOUT = re.compile(
    r"\\(?:begin|end)\{(?:aligned|align\*?|alignat\*?|equation\*?|gather\*?|gathered|split|"
    r"eqnarray\*?|multline\*?)\}(?:\{\d+\})?"
)
# DOTALL and "|$": a backslash before a line break or at the very end of a lesson is a
# (one-character) command too, not a failed match.
_COMMAND = re.compile(r"\\([A-Za-z]+|.|$)", re.DOTALL)


@lru_cache(maxsize=1 << 15)
def plain(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` with inline LaTeX made plain, and the source offset of each output character.

    Cached by the text (so the offsets are a tuple): a dozen recognisers read the same lines
    of a lesson, and converting a line costs more than all but the first reading of it; the
    cache holds more lines than the longest lesson has."""
    emphasis = _emphasis(text) if ("**" in text or "__" in text) else set()
    if "\\" not in text and "$" not in text and "{" not in text and "&" not in text:
        if not emphasis:
            return text, tuple(range(len(text)))
        return _without(text, sorted(emphasis))
    out: list[str] = []
    where: list[int] = []
    # Open \frac groups: [brace depth of their arguments, 0 in the numerator / 1 in the
    # denominator], so "}{" between the two arguments becomes ")/(".
    fractions: list[list[int]] = []
    quiet: set[int] = set()  # brace depths opened by a text command: no brackets emitted
    layout = "&" in text and _LAYOUT.search(text) is not None
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
            environment = _LAYOUT.match(text, index)
            if environment is not None:
                emit(" ", index)
                index = environment.end()
                continue
            match = _COMMAND.match(text, index)
            assert match is not None
            name = match.group(1)
            bare = _BARE_ARGUMENT.match(text, match.end()) if name in _BARE_FUNCTIONS else None
            if name in _TEXT_COMMANDS and text[match.end() : match.end() + 1] == "{":
                depth += 1
                quiet.add(depth)
                index = match.end() + 1
                continue
            if bare is not None and (bare.group(4) or not bare.group(1)):
                # \ln 32000, \log_2 8: the argument's brackets, which the grammar needs
                base = bare.group(2) or bare.group(3) or ""
                emit(name + base + "(", index)
                emit(bare.group(5), bare.start(5))
                where[-len(bare.group(5)) :] = range(bare.start(5), bare.end(5))
                emit(")", bare.end(5) - 1)
                index = bare.end()
                continue
            if name == "sqrt" and text[match.end() : match.end() + 1] == "[":
                emit(match.group(0), index)  # \sqrt[3]{…}: a root we do not read
                index = match.end()
                continue
            if name in ("frac", "dfrac", "tfrac"):
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
            # "$… 64.3$M": a unit written right after the closing dollar belongs to the number
            glued = bool(out) and out[-1].isdigit()
            if not (glued and text[index + 1 : index + 2].isalpha()):
                emit(" ", index)
            index += 1
        elif char == "&" and (layout or _ALIGNED_RELATION.match(text, index)):
            index += 1  # an alignment point of aligned/align
        elif char == "{":
            depth += 1
            emit("(", index)
            index += 1
        elif char == "}" and depth in quiet:
            quiet.discard(depth)
            depth -= 1
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
    return "".join(out), tuple(where)


_MARKER = re.compile(r"\*\*|__")


def _without(text: str, markers: list[int]) -> tuple[str, tuple[int, ...]]:
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
    return "".join(out), tuple(where)


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


_OPENING_COMMAND = re.compile(r"\\[A-Za-z]+\{$")


def widened(source: str, start: int, stop: int) -> tuple[int, int]:
    """``source[start:stop]`` widened to whole brace groups, for quoting: a claim read from
    ``\\mathrm{7B} \\times 2 = 15\\,\\mathrm{GB}`` quotes ``\\mathrm{7B}`` and ``\\mathrm{GB}``
    whole, not ``7B}`` and ``\\mathrm{GB``."""
    unclosed = unopened = 0
    for char in source[start:stop]:
        if char == "{":
            unclosed += 1
        elif char == "}":
            if unclosed:
                unclosed -= 1
            else:
                unopened += 1
    while unclosed and stop < len(source) and source[stop] == "}":
        stop, unclosed = stop + 1, unclosed - 1
    while unopened and start > 0 and source[start - 1] == "{":
        command = _OPENING_COMMAND.search(source, max(0, start - 40), start)
        start = command.start() if command is not None else start - 1
        unopened -= 1
    return start, stop
