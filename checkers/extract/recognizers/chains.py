"""Recogniser ``chains``: equation chains whose sides evaluate.

Recognises, in any line of prose, list item, table cell, heading, math or fenced text:

* ``0.58×0.71 + 0.74×0.52 = 0.78``, ``0.9⁵⁰ ≈ 0.005``, ``(1+2+3+4+5)=15 次``, ``√2≈1.41``,
  ``exp(0.55) = 1.73``, ``sin(3) ≈ 0.14``, ``e^(-∞)=0``, ``0.54×[0.8, 0.3] + … ≈ [0.71, 0.25]``;
* chains over several lines in fenced blocks, where a line starting with ``=`` continues the
  one above (``Q[0] = 0.5×0.1 + …`` / ``= 0.05 + …`` / ``= 0.58``);
* relations ``=``, ``≈``, ``≃``, ``≅``, ``≒``, full-width ``＝``, and ``约`` / ``约为`` /
  ``约等于`` before a number.

Sides with unknown symbols (``Q_猫 · K_猫``, ``d_k``) are skipped and the rest of the chain is
still checked. A chain becomes an ``arithmetic`` claim when at least one side is computed (has
an operator or a function) and another side is a printed number or vector, the claimed value.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from checkers.expr import (
    FUNCTIONS,
    Binary,
    Call,
    ExprError,
    Node,
    Number,
    Unary,
    Vector,
    evaluate,
    evaluate_exact,
    names,
    parse,
    split_chain,
)
from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain, widened
from checkers.numbers import (
    BYTE_PREFIXES,
    UNITS,
    NumberError,
    byte_units,
    compare,
    group_scientific,
    parse_printed,
    parse_printed_vector,
    read_binary,
    significant_digits,
)
from checkers.readings import FLOAT_TYPES, KILO, changed_by_storage

__all__ = ["recognize"]

NAME = "chains"

_APPROX_WORD = r"(?:~|∼|约|about|roughly|approximately|around)"
_NOT_AFTER = r"[<>!=:+\-*/]"  # what an equals sign of a relation does not follow (<=, ==, :=)
# Each alternative starts with its sign, the lookbehind written after it, so that the search
# skips at once to the characters a relation can start with.
_RELATION_SIGN = re.compile(
    # "= ~15.9B", "= about 40B": an equals sign whose value is printed as approximate is one
    # relation, ≈, so the value reads to its significant figures (tried before a plain "=").
    rf"=(?<!{_NOT_AFTER}=)\s*{_APPROX_WORD}(?=\s*[-−+]?\d)"
    rf"|＝(?<!{_NOT_AFTER}＝)\s*{_APPROX_WORD}(?=\s*[-−+]?\d)"
    r"|约等于|约为|约(?=\s*[-−+]?\d)"
    rf"|=(?<!{_NOT_AFTER}=)(?![=>])|＝(?<!{_NOT_AFTER}＝)(?![=>])"
    r"|≈|≃|≅|≒"
)
_RELATION_WORDS = ("about", "roughly", "approximately", "around")
_RELATION = re.compile(
    _RELATION_SIGN.pattern
    # "is about 40": only in a text holding one of _RELATION_WORDS; elsewhere _RELATION_SIGN
    # finds the same relations some ten times faster (this alternative is tried at every
    # character). "(?<![\s,])": the spaces before "which" are matched from the first one
    # only, so a line of a million spaces costs a million steps, not a million squared.
    + r"|(?:,|(?<![\s,]))\s*(?:which |that )?(?:is|are|comes to|totals) "
    r"(?:about|roughly|approximately|around)(?=\s*[-−+]?\d)"
)


def _relations(text: str) -> Iterator[re.Match[str]]:
    """The relations of ``text`` (:data:`_RELATION`), left to right."""
    if any(word in text for word in _RELATION_WORDS):
        return _RELATION.finditer(text)
    return _RELATION_SIGN.finditer(text)


def _may_relate(text: str) -> bool:
    """False when ``text`` holds no relation (:data:`_RELATION`): every match holds one of
    these marks, and looking for each with ``in`` is some ten times cheaper than the search,
    which tries its lookbehinds at every character of every line (or a search for the marks)."""
    return (
        "=" in text
        or "≈" in text
        or "about" in text
        or "around" in text
        or "roughly" in text
        or "approximately" in text
        or "＝" in text
        or "约" in text
        or "≃" in text
        or "≅" in text
        or "≒" in text
    )


_MAX_SIDE = 240
_MAX_EXPRESSION = 2000  # longest expression an arithmetic claim accepts
PARSE_BUDGET = 1_000_000
"""Characters of candidate sides one lesson may send to the expression parser (about 3 s of
work; the longest real lesson uses 30 000). A hostile lesson of 100 000 equations drafts
what the budget covers and no more."""
_budget = [PARSE_BUDGET]  # what is left of it for the lesson being recognised
# Unit names a drafted expression may use, with their plainest reading (the arithmetic kind
# tries the others: checkers.readings).
_UNIT_VALUES = {**byte_units("decimal"), KILO: 1000.0}
_UNIT_NAMES = frozenset(_UNIT_VALUES)
_MULTIPLY_X = re.compile(r"(?<=\d)\s+[x×X]\s+(?=\d)")
_NUMBER = r"(\d[\d,]*(?:\.\d+)?)"
# A number followed by a unit becomes arithmetic: "70 亿" → (70*1e8), "320 KB" → (320*KB); the
# byte units stay names so the arithmetic kind can read them as powers of 1000 or of 1024.
_BYTE_UNIT = re.compile(_NUMBER + r"\s*(KiB|MiB|GiB|TiB|KB|MB|GB|TB|PB)(?![A-Za-z])")
_BYTES_WORD = re.compile(_NUMBER + r"\s*(?:bytes?|字节)(?![A-Za-z])")
_COUNT_WORD = re.compile(
    _NUMBER + r"\s*(万亿|千万|百万|亿|万|千|thousand|million|billion|trillion)(?![A-Za-z])"
)
_BYTES_AFTER_GROUP = re.compile(r"(?<=\))\s*(?:bytes?|字节)(?![A-Za-z])")
_FLOPS = re.compile(_NUMBER + r"\s*([GTPE]?)FLOPs?(?![A-Za-z/])")
# Nouns that only say what a number counts: "× 1,000 tokens", "32 层 × 2".
_COUNT_NOUN = re.compile(
    r"(?:(?<=[\d)万亿千kKMBT])|(?<=illion)|(?<=thousand))\s*(?:tokens?|steps?|layers?|heads?|GPUs?|params|parameters|"
    r"个|层|头|次|步|张卡|张)(?![A-Za-z])"
)
_COUNT_LETTER = re.compile(_NUMBER + r"([kKMBT])(?![A-Za-z])")
# What a factor counts, written between it and the next operator: a lowercase noun
# ("240 frames × 1920") or words in brackets ("2 (bf16 bytes) * 2 (keys+values)"). A word of
# one or two letters may be a variable (x, dk) and a bracket without a word is arithmetic, so
# neither is a label. The label then belongs to the statement and is dropped from its sum.
_NOUN_LABEL = re.compile(r"(?<=\d)(?:\s+[a-z]{3,}){1,2}(?=\s*[×*/+−-])")


def _drop_noun_label(match: re.Match[str]) -> str:
    """Nothing for a label of one or two nouns ("240 frames", "256 output tokens"); the words
    themselves when one is arithmetic ("3 plus" is not what 3 counts)."""
    return match.group(0) if set(match.group(0).split()) & _NOT_LABELS else ""


# A time after a number reads in seconds ("4.2 ms" → (4.2*1e-3), "0.54 s"), as parse_printed
# reads a claimed "1.08 s"; a rate in tokens per second is a count per second and keeps its
# number alone ("7,700 tokens/s × 86,400 s"). A side that writes a conversion factor itself
# ("2 s × 1000 = 2000 ms") multiplies numbers as printed, and is not read in seconds (its "s"
# stays a free word).
_TIME_UNIT = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s*(ms|s)(?![A-Za-z/])")
_PER_SECOND = re.compile(r"(?<=\d)\s*tokens?\s*/\s*s(?![A-Za-z])")
_TIME_FACTOR = re.compile(
    r"(?<![\d.,])(?:1,?000|1e3|10\^3|60|3,?600|86,?400)(?![\d.,])(?!\s*m?s\b)"
)
_TIME_SCALE = {"ms": "1e-3", "s": "1"}
_TIME_MARK = re.compile(r"\d\s*m?s(?![A-Za-z])")
# "ln 2", "exp 1.5": a function of one printed number, written without brackets.
_BARE_FUNCTION_MARK = re.compile("(?:ln|log|exp|sqrt) ")
_BARE_FUNCTION = re.compile(r"(?<![A-Za-z])(ln|log|exp|sqrt)\s+(\d+(?:\.\d+)?)(?![\d.,(])")
_BRACKET_LABEL = re.compile(
    r"(?<=\d)\s*\((?=[^()]*[A-Za-z]{3})[^()\d]*(?:\d+[^()\d]*)*\)(?=\s*[×*/+−-])"
)
# A quantity with a scale or unit ("26B", "14 GB", "70 亿") names what it counts after it, in
# any case and up to three words or a bracket ("26B core + 14B MTP", "28 GB (weights) +
# 14 GB (grads)", "2 GB per layer × 32"): after a scaled quantity a word cannot be a factor
# (nobody writes 14B × MTP as "14B MTP"). Words that are arithmetic themselves (times, plus…)
# or known names (functions, units) are not labels, and the quantity keeps its unit.
_SCALED_QUANTITY = (
    r"\d(?:\s*(?:[KMGTP]i?B|bytes?|字节|万亿|千万|百万|亿|万|thousand|million|billion|trillion)"
    r"|[kKMBT])(?![A-Za-z])"
)
_LABEL_WORDS = (
    r"(?:(?:\s+[A-Za-z][A-Za-z'-]+){1,3}|\s*[\u4e00-\u9fff]{1,6})"
    r"(?:\s*(?:\([^()]*[A-Za-z]{2}[^()]*\)|（[^（）]*）))?"
)
_LABEL_BRACKET = r"\s*(?:\([^()]*[A-Za-z]{2}[^()]*\)|[(（][^()（）]*[\u4e00-\u9fff][^()（）]*[)）])"
_SCALED_LABEL = re.compile(
    "(" + _SCALED_QUANTITY + ")(" + _LABEL_WORDS + "|" + _LABEL_BRACKET + r")(?=\s*[×*/+−-])"
)
_TRAILING_LABEL = re.compile(
    "(" + _SCALED_QUANTITY + r"|\d)(" + _LABEL_WORDS + "|" + _LABEL_BRACKET + r")\s*$"
)
_CJK_OPERATOR = re.compile(r"[乘加减除倍约]")
_NOT_LABELS = frozenset(
    {"times", "plus", "minus", "over", "divided", "and", "or", "vs", "versus", "than", "to"}
)


def _drop_label(match: re.Match[str]) -> str:
    """The quantity of ``match`` without its label, unless the label is arithmetic."""
    label = match.group(2).split("(")[0]
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", label)}
    if words & _NOT_LABELS or words & _KNOWN_LOWER or _CJK_OPERATOR.search(label):
        return match.group(0)
    return match.group(1)


def _without_trailing_label(text: str) -> str:
    """``text`` without a label after its last quantity (``14B MTP (trained)``, ``3 × 56 GB
    (Adam)``): the side of a relation ends at the quantity, not at the words about it. A label
    after a plain number must be a bracket or be preceded by a scaled quantity's unit."""
    match = _TRAILING_LABEL.search(text)
    if match is None:
        return text
    if not re.search(_SCALED_QUANTITY + "$", match.group(1)) and "(" not in match.group(2):
        return text  # "3 apples": a plain number's word may be a variable or the subject
    kept = _drop_label(match)
    return text if kept == match.group(0) else text[: match.start()] + kept


_SCALE = {
    "one": "1",
    "G": "1e9",
    "P": "1e15",
    "E": "1e18",
    "万亿": "1e12",
    "千万": "1e7",
    "百万": "1e6",
    "亿": "1e8",
    "万": "1e4",
    "千": "1e3",
    "k": KILO,
    "K": KILO,
    "M": "1e6",
    "B": "1e9",
    "T": "1e12",
    "thousand": "1e3",
    "million": "1e6",
    "billion": "1e9",
    "trillion": "1e12",
}


# Fast refusals, so that prose around an equation costs a regex search rather than a parse.
# A CJK ideograph that no unit or count word above uses can be neither read by parse_printed
# nor tokenised by checkers.expr (it is its own NFKC form, and no name or number): a side that
# contains one never evaluates.
_UNIT_WORDS = "".join((*UNITS, *_SCALE)) + "".join(
    pattern.pattern for pattern in (_BYTES_WORD, _COUNT_WORD, _COUNT_NOUN, _BYTES_AFTER_GROUP)
)
_UNIT_IDEOGRAPHS = sorted({c for c in _UNIT_WORDS if "\u3400" <= c <= "\u9fff"})
_FOREIGN_IDEOGRAPH = re.compile(
    "(?![" + "".join(_UNIT_IDEOGRAPHS) + "])[\u3400-\u4dbf\u4e00-\u9fff]"
)
# An ASCII word with ASCII (or nothing) on both sides is one name token of checkers.expr, and
# not a digit's exponent (1e5, 1.e5); unless it is a function, a constant or a byte unit, the
# expression has a free variable and _evaluable refuses it, so it need not be parsed.
_ASCII_WORD = re.compile(
    r"(?<![A-Za-z0-9_.])(?<![^\x00-\x7f])[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])(?![^\x00-\x7f])"
)
_KNOWN_WORDS = FUNCTIONS | {"e", "pi", "inf"} | _UNIT_NAMES
_KNOWN_LOWER = frozenset(word.lower() for word in _KNOWN_WORDS) | {"kb", "mb", "gb", "tb"}


def _has_free_word(candidate: str) -> bool:
    return any(word not in _KNOWN_WORDS for word in _ASCII_WORD.findall(candidate))


# Most candidate sides are prose ("5 candidates for each prompt") that _has_free_word refuses
# only after _as_expression has rewritten them, at some ten times the cost of looking. A free
# word that none of those rewrites can delete, join to a neighbour or rename is left in the
# rewritten side, so the side can be refused as it stands (_keeps_free_word). What a rewrite
# can touch, read from its pattern: a word holding a digit (a number's pattern may start
# inside it); the words the rewrites read (units, scale words, count nouns, "x"); a word
# ending in a letter a count noun's lookbehind accepts (kKMBT, "…illion", "thousand"); a word
# between an opening and a closing bracket (a bracketed label, once the brackets inside it
# are gone); and a label word (_SCALED_LABEL, _NOUN_LABEL), which follows a digit within
# three words of letters, quotes, hyphens, spaces or non-ASCII text (a count noun or bytes
# word between them may be deleted first) and is followed by more such text or an operator.
# The rewrites leave everything else as it was: their matches cannot start or end beside
# such a word.
_PLAIN_WORD = re.compile(r"[A-Za-z_]+")
_REWRITE_VOCABULARY = re.compile(
    r"token|step|layer|head|gpu|param|byte|flop|thousand|illion|^[kmgtp]i?b(?![a-z])"
    r"|^(?:ln|log|exp|sqrt)$"
)
# A character that ends a label's run back to its number: ASCII other than letters, quotes,
# hyphens and spaces, and every digit (\d, as the rewrites' patterns read digits).
_LABEL_STOP = re.compile(r"[^\sA-Za-z'\-\x80-\U0010ffff]|\d")
_LABEL_GOES_ON = re.compile(r"\s*[A-Za-z'\-(（×*/+−]")
_OPENERS = re.compile("[(（]")
_TIME_BEFORE = re.compile(r"[\d/]\s*\Z")


# Everything up to the last _LABEL_STOP (matched within the text before a word).
_UP_TO_LAST_STOP = re.compile("(?s:.*)(?:" + _LABEL_STOP.pattern + ")")


def _keeps_free_word(text: str) -> bool:
    """True when ``text`` has a free word that :func:`_as_expression` leaves as it is, so that
    ``_has_free_word(_as_expression(text))`` is true (see the note above; a test checks it)."""
    return _free_word(text) is not None


@lru_cache(maxsize=8192)
def _free_word(text: str, last: bool = False) -> tuple[int, int] | None:
    """Where the first (or the ``last``) free word of :func:`_keeps_free_word` starts and ends
    in ``text``, None when it has none. Every start of the text that holds a free word whole
    keeps it too (a shorter text has no more closing brackets and no more text after the word
    for a label to go on in), which :func:`_prefix` relies on; so does every end of it (a
    later start has no earlier opening bracket, and the number a label or a time runs from is
    still before the word or cut off with it), which :func:`_suffix` relies on. Cached: the
    sides of a statement share their starts. Whether a word is free does not depend on the
    other words, so the last one is the first met from the end."""
    opener = _OPENERS.search(text)
    last_closer = max(text.rfind(")"), text.rfind("）"))
    matches = _ASCII_WORD.finditer(text)
    for match in reversed(list(matches)) if last else matches:
        word, start = match.group(), match.start()
        if not _may_be_free(word):
            continue
        if word in ("s", "ms") and _TIME_BEFORE.search(text, 0, start):
            continue  # "4.2 ms", "tokens/s": a time the rewrite reads
        if opener is not None and opener.start() < start and last_closer > start:
            continue  # possibly inside a bracket
        stop = _UP_TO_LAST_STOP.match(text, 0, start)
        if stop is not None and text[stop.end() - 1].isdecimal():  # a label may run from it
            gap = text[stop.end() : start]
            words = gap.split()
            if gap and not gap[-1].isspace():
                words = words[:-1]  # the part of a hyphenated label word before this one
            if len(words) < 4 and _LABEL_GOES_ON.match(text, match.end()):
                continue
        return match.span()
    return None


@lru_cache(maxsize=8192)
def _may_be_free(word: str) -> bool:
    """True when no rewrite of :func:`_as_expression` reads ``word`` (an :data:`_ASCII_WORD`)
    and it names nothing the grammar knows. Cached: prose repeats its words."""
    if word in _KNOWN_WORDS or word in ("x", "X") or not _PLAIN_WORD.fullmatch(word):
        return False
    return not (word[-1] in "kKMBT" or _REWRITE_VOCABULARY.search(word.lower()))


_ASCII_LETTER = re.compile("[A-Za-z]")


def _has_letter_or_times(text: str) -> bool:
    """True when ``text`` has a letter (``str.isalpha``) or ``×``; ASCII text by a regex."""
    if text.isascii():
        return _ASCII_LETTER.search(text) is not None
    return any(char.isalpha() or char == "×" for char in text)


def _as_expression(text: str) -> str:
    """Lesson notation that our grammar reads differently: ``2 x 3``, units after numbers."""
    if not _has_letter_or_times(text):
        return text  # every rewrite below needs a letter (a unit, a noun) or "×"
    # Each rewrite runs only when the text holds a character or word its pattern cannot match
    # without: most candidate sides are prose, and ten substitutions that find nothing cost
    # more than the parse they prepare.
    text = _SCALED_LABEL.sub(_drop_label, text)
    if "(" in text:
        text = _BRACKET_LABEL.sub("", text)
    if "x" in text or "×" in text or "X" in text:
        text = _MULTIPLY_X.sub(" × ", text)
    text = group_scientific(text)
    if "s" in text and _TIME_MARK.search(text) and not _TIME_FACTOR.search(text):
        text = _PER_SECOND.sub("", text)
        text = _TIME_UNIT.sub(lambda m: f"({m.group(1)}*{_TIME_SCALE[m.group(2)]})", text)
    if "B" in text:
        text = _BYTE_UNIT.sub(r"(\1*\2)", text)
    bytes_word = "byte" in text or "字节" in text
    if bytes_word:
        text = _BYTES_WORD.sub(r"\1", text)
    if "FLOP" in text:
        text = _FLOPS.sub(lambda m: f"({m.group(1)}*{_SCALE[m.group(2) or 'one']})", text)
    if _COUNT_WORD_MARK.search(text):
        text = _COUNT_WORD.sub(lambda m: f"({m.group(1)}*{_SCALE[m.group(2)]})", text)
    if bytes_word and ")" in text:
        text = _BYTES_AFTER_GROUP.sub("", text)
    if _COUNT_NOUN_MARK.search(text):
        text = _COUNT_NOUN.sub("", text)
    if _OPERATOR_MARK.search(text):
        text = _NOUN_LABEL.sub(_drop_noun_label, text)  # after the units it must not take
    if _SCALE_LETTER_MARK.search(text):
        text = _COUNT_LETTER.sub(lambda m: f"({m.group(1)}*{_SCALE[m.group(2)]})", text)
    if _BARE_FUNCTION_MARK.search(text) and _BARE_FUNCTION.search(text):
        text = _BARE_FUNCTION.sub(r"\1(\2)", text)
    return text


# What the rewrites of _as_expression cannot match without (their words without lookarounds).
_COUNT_WORD_MARK = re.compile("[万亿千]|thousand|illion")
_COUNT_NOUN_MARK = re.compile("token|step|layer|head|GPU|param|[个层头次步张]")
_OPERATOR_MARK = re.compile("[×*/+−-]")
_SCALE_LETTER_MARK = re.compile("[kKMBT]")


@lru_cache(maxsize=4096)
def _is_breaker(char: str) -> bool:
    """Characters at which an expression may start or end inside prose."""
    if char.isspace() or char in ',;:|"`，。；：、（）【】“”‘’《》！？$':
        return True
    if _DIAGRAM.match(char):
        return True  # a box border or an arrow of a diagram: never part of a number or operator
    return unicodedata.category(char) == "Lo"  # CJK ideographs and other letters without case


# Box drawing, block elements, geometric shapes (►, ▶) and arrows (→, ⟶, ⤷).
_DIAGRAM = re.compile("[\u2500-\u25ff\u2190-\u21ff\u27f0-\u27ff\u2900-\u297f]")
# The cuts of a side are found by a regex rather than a loop over every character: the ASCII
# breakers are spelled out (taken from _is_breaker itself), and a character outside ASCII is a
# candidate that _is_breaker decides (once per character, cached).
_ASCII_BREAKERS = "".join(c for c in map(chr, range(128)) if _is_breaker(c))
_END_CUT = re.compile("[" + re.escape(_ASCII_BREAKERS) + r")]|[^\x00-\x7f]")
_START_CUT = re.compile("[" + re.escape(_ASCII_BREAKERS) + r"(]|[^\x00-\x7f]")
# What _evaluable requires a side to contain: a digit (str.isdigit, so also ², ₂ and ①) or ∞, π.
# "\d" finds the decimal digits; the few other digits are looked for only in text outside ASCII.
_DECIMAL_OR_SYMBOL = re.compile(r"[\d∞π]")


def _has_digit(text: str) -> bool:
    """True when ``text`` has a character ``str.isdigit`` accepts, or ∞ or π."""
    if _DECIMAL_OR_SYMBOL.search(text):
        return True
    return not text.isascii() and any(ch.isdigit() for ch in text)


@dataclass(frozen=True)
class _Side:
    """One side of a chain that evaluates."""

    text: str
    start: int
    end: int
    relation: str
    value: float | tuple[float, ...]
    printed: bool  # a bare printed number or vector: the kind of side a lesson claims


def _evaluable(text: str) -> tuple[float | tuple[float, ...], bool] | None:
    """(value, is a bare printed number) when ``text`` is arithmetic we can evaluate alone."""
    return _evaluate_side(text) if _charged(text) else None


def _charged(text: str) -> bool:
    """True when ``text`` is worth evaluating as a side (short enough, with a digit) and the
    lesson's parse budget covers it, which it is charged with."""
    if not text or len(text) > _MAX_SIDE or not _has_digit(text):
        return False
    _budget[0] -= len(text)
    return _budget[0] >= 0


_RATIO_ENDS = "×倍xX%"
"""What a printed ratio ends with ("64×", "8 倍"), read by parse_printed, not the grammar."""


@lru_cache(maxsize=8192)
def _evaluate_side(text: str) -> tuple[float | tuple[float, ...], bool] | None:
    """The work of :func:`_evaluable`, a pure function of the text: lessons repeat their
    numbers (``√d_k``, ``0.78``), and each is read once. The budget is still charged per try."""
    if _FOREIGN_IDEOGRAPH.search(text) and _FOREIGN_IDEOGRAPH.search(
        _SCALED_LABEL.sub(_drop_label, text)
    ):
        return None  # an ideograph outside a label ("120 亿（主干）+ …" has it in a label)
    if text[-1] in _RATIO_ENDS:
        # "64×", "8 倍": a printed ratio our grammar does not read as arithmetic.
        try:
            return parse_printed(text).value, True
        except NumberError:
            return None
    if _keeps_free_word(text):
        return None  # what the two lines below find, without rewriting the side first
    candidate = _as_expression(text)
    if _has_free_word(candidate):
        return None
    try:
        tree = parse(candidate)
        if names(tree) - _UNIT_NAMES:
            return None
        value = evaluate(tree, _UNIT_VALUES)
    except (ExprError, ArithmeticError, ValueError, RecursionError):
        return None
    bare = _COUNT_NOUN.sub("", text).strip()
    return value, _is_printed(text) or _is_printed(bare) or _is_literal(tree)


def _is_literal(tree: Node) -> bool:
    """A number as written (``1,024`` once ``GPUs`` is dropped), not something computed."""
    if isinstance(tree, Unary) and tree.op in "+-":
        tree = tree.operand
    if isinstance(tree, Vector):
        return all(_is_literal(item) for item in tree.items)
    return isinstance(tree, Number)


def _is_printed(text: str) -> bool:
    try:
        if text.lstrip().startswith("["):
            parse_printed_vector(text)
        else:
            parse_printed(text)
    except NumberError:
        return False
    return True


def _ends(text: str, limit: int) -> list[int]:
    """Where a prefix may end, up to ``limit``: before each breaker or ``)``, longest first
    (``(8 x 16 = 128)`` holds a whole statement)."""
    cuts = {len(text)} if len(text) <= limit else set()
    for match in _END_CUT.finditer(text, 0, limit + 1):
        char = match.group()
        if char.isascii() or _is_breaker(char):
            cuts.add(match.start())
    return sorted((c for c in cuts if c > 0), reverse=True)


def _starts(text: str, first: int) -> list[int]:
    """Where a suffix may start, from ``first`` on: after each breaker or ``(``, longest first."""
    cuts = {0} if first <= 0 else set()
    for match in _START_CUT.finditer(text, max(first - 1, 0)):
        char = match.group()
        if char.isascii() or _is_breaker(char):
            cuts.add(match.end())
    return sorted(c for c in cuts if c < len(text))


def _first_digit(text: str, limit: int) -> int:
    """The index of the first character of ``text[:limit]`` that :func:`_has_digit` accepts,
    or ``limit`` when there is none."""
    window = text[:limit]
    found = _DECIMAL_OR_SYMBOL.search(window)
    bound = found.start() if found else len(window)
    if not window[:bound].isascii():
        bound = next((i for i, ch in enumerate(window[:bound]) if ch.isdigit()), bound)
    return bound if bound < len(window) else limit


def _last_digit(text: str, first: int) -> int:
    """The index of the last character of ``text[first:]`` that :func:`_has_digit` accepts, or
    -1 when there is none."""
    begin = max(first, 0)
    window = text[begin:]
    found = _DECIMAL_OR_SYMBOL.search(window[::-1])
    bound = len(window) - 1 - found.start() if found else -1
    rest = window[bound + 1 :]
    if not rest.isascii():
        bound = next((i for i in range(len(window) - 1, bound, -1) if window[i].isdigit()), bound)
    return begin + bound if bound >= 0 else -1


def _prefix(text: str, offset: int, relation: str) -> _Side | None:
    """The longest evaluable start of ``text`` (the side after a relation), unless the
    statement runs on past it (:func:`_runs_on`): then the side is not the whole statement
    and none of its shorter starts is either."""
    # A side is at most _MAX_SIDE long (plus a full stop), so ends further out can only give
    # a side too long or, inside trailing whitespace, the same side as an earlier end; skipping
    # them keeps a megabyte of "a a a …" linear instead of quadratic.
    limit = len(text) - len(text.lstrip()) + _MAX_SIDE + 2
    digit = _first_digit(text, limit)
    if digit >= limit:
        return None  # no start of the text has a digit (the loop below would stop at once)
    free: int | None = None  # a length from which on every start keeps a free word
    for end in _ends(text, limit):
        if end <= digit:
            break  # this start of the text and every shorter one has no digit: none evaluates
        piece = text[:end].rstrip()
        if piece.endswith(".") and not piece[:-1].endswith("."):
            piece = piece[:-1]  # a sentence's full stop, not a decimal point
        stripped = piece.lstrip()
        if free is not None and len(stripped) >= free and stripped[-1] not in _RATIO_ENDS:
            # a start of the side that failed, holding its free word (_free_word): it does
            # not evaluate either, and is charged as if it had been tried
            _charged(stripped)
            continue
        found = _evaluable(stripped)
        if found is None and stripped:
            span = _free_word(stripped)
            free = None if span is None else span[1]
        if found is not None:
            if _runs_on(text[len(piece) :]):
                return None
            start = offset + len(piece) - len(stripped)
            return _Side(stripped, start, offset + len(piece), relation, found[0], found[1])
    return None


def _suffix(text: str, offset: int, relation: str) -> _Side | None:
    """The longest evaluable end of ``text`` (the side before a relation), unless the
    statement reaches back past it (:func:`_reaches_back`)."""
    first = len(text.rstrip()) - _MAX_SIDE - 1  # earlier starts give sides too long (_prefix)
    digit = _last_digit(text, first)
    if digit < 0:
        return None  # no end of the text has a digit (the loop below would stop at once)
    # Every candidate ends where the text does, so a label after its last quantity ("26B core +
    # 14B MTP (trained) ≈ 37B") is found once, not once per start.
    unlabelled = (
        _without_trailing_label(text.rstrip())
        if text.rstrip()[-1:].isalpha() or (text.rstrip()[-1:] in ")）")
        else None
    )
    # Where in the text the last free word (_free_word) of an end starts, with and without the
    # label: every end of the text that starts there or before holds the word whole, and when
    # the side does not end in a printed ratio (which is not read for words) it keeps the word
    # and does not evaluate, so it is only charged as if it had been tried.
    free = free_unlabelled = -1
    reads_words = text.rstrip()[-1:] not in _RATIO_ENDS
    unlabelled_reads_words = (unlabelled or "").rstrip()[-1:] not in _RATIO_ENDS
    for start in _starts(text, first):
        if start > digit:
            break  # this end of the text (labelled or not) and every shorter one has no digit
        piece = text[start:].strip()
        if start > free and piece and reads_words:
            free = _free_start(text, start, piece, free)  # looked for before it is tried
        if start <= free:
            _charged(piece)
            found = None
        else:
            found = _evaluable(piece)
        if found is None and unlabelled is not None and start < len(unlabelled):
            shorter = unlabelled[start:].strip()
            if shorter != piece:
                if start > free_unlabelled and shorter and unlabelled_reads_words:
                    free_unlabelled = _free_start(text, start, shorter, free_unlabelled)
                if start <= free_unlabelled:
                    _charged(shorter)
                else:
                    found = _evaluable(shorter)
                piece = shorter
            if found is not None and found[1]:
                found = None  # "32K context = 1B …": a labelled number alone is no statement
        if found is not None:
            if _reaches_back(text[:start], piece):
                return None
            begin = offset + start + (len(text[start:]) - len(text[start:].lstrip()))
            return _Side(piece, begin, begin + len(piece), relation, found[0], found[1])
    return None


def _free_start(text: str, start: int, piece: str, known: int) -> int:
    """Where in ``text`` the last free word of ``piece``, the stripped ``text[start:]``,
    starts (:func:`_free_word`); ``known`` when it has none."""
    span = _free_word(piece, True)
    if span is None:
        return known
    return start + len(text[start:]) - len(text[start:].lstrip()) + span[0]


# What lies at the edge of a side when the side is only part of the statement. An operator
# (``2*x1 + 2 + 2``, ``A @ [1,1]``, ``240 frames × 1920``), a number cut at its separator
# (``85,|054,464``, ``16|,384``), a name applied to a bracket (``B (768×16)``, ``f(2)``) or a
# scale word left behind (``524 million``): the evaluable part is a fragment, and its value is
# not what the text claims. Hyphens and dashes count only after an operand (prose uses them
# as dashes), and a sign only after a number, a bracket or a name that is not a prose word
# (one letter, ALL CAPS, or with a digit or underscore: ``x``, ``x1``, ``W_q``, ``KB``).
_OPERATORS = "+−×*/÷·⋅^@=<>∗"
_DASHES = "-–—"
_NUMBER_END = re.compile(r"[\d)\]%∞π²³⁰¹⁴⁵⁶⁷⁸⁹]$")
_NAME_END = re.compile(r"(?:(?<![A-Za-z])[A-Za-z]|[A-Za-z]*[_\d][A-Za-z_\d]*|[A-Z]{2,})$")
_SCALE_WORD = re.compile(
    r"(?i:thousand|million|billion|trillion)(?![A-Za-z])|[kKMBGT](?![A-Za-z0-9])|[千万亿]"
)
_RUNS_ON = re.compile(r"[−×*/÷·⋅^@∗⁰¹²³⁴⁵⁶⁷⁸⁹]|\+(?!\s*$)|[-–]\s*[\d(]|[xX]\s+[\d(]")


def _operand_end(text: str) -> bool:
    return bool(_NUMBER_END.search(text) or _NAME_END.search(text))


_OPERATOR_WORD = re.compile(
    r"(?:\b(?:times|plus|minus|over|divided\s+by|multiplied\s+by|by)|乘以|乘|加上|加|减去|减|除以)\s*$",
    re.IGNORECASE,
)


def _reaches_back(before: str, side: str) -> bool:
    """True when the text before a side belongs to its statement (see :data:`_OPERATORS`);
    an operator written as a word (``20B times 2 + 4B``) is one too."""
    if _OPERATOR_WORD.search(before[-24:]):
        return True
    if before[-1:] in ",." and before[-2:-1].isdigit() and side[:1].isdigit():
        return True  # 85,|054,464: the side starts inside a number
    if before[-1:] in "([":
        return _operand_end(before[:-1])  # f(2 + 3 …: an argument; (8 x 16 …: a group
    rest = before.rstrip()
    if not rest:
        return False
    last = rest[-1]
    if last in _OPERATORS or (last in _DASHES and _operand_end(rest[:-1].rstrip())):
        return True
    if side[:1] in "+-−–([":
        return _operand_end(rest)  # 2*x + 3 ("+ 3"), B (768×16): the side continues a term
    return side[:1].isdigit() and last.isdigit()  # "12 34 + 5": two numbers side by side


def _runs_on(after: str) -> bool:
    """True when the text after a side continues its statement (see :data:`_OPERATORS`)."""
    if after[:1] in ",." and after[1:2].isdigit():
        return True  # 16|,384: the side ends inside a number
    rest = after.lstrip()
    return bool(rest) and bool(_RUNS_ON.match(rest) or _SCALE_WORD.match(rest))


def _chains(text: str) -> Iterator[list[_Side]]:
    """Runs of evaluable sides joined by relations, within one logical line."""
    pieces: list[tuple[str, int, str]] = []  # (text, start offset, relation before it)
    cursor, relation = 0, ""
    for match in _relations(text):
        pieces.append((text[cursor : match.start()], cursor, relation))
        cursor, relation = match.end(), match.group()
    pieces.append((text[cursor:], cursor, relation))
    if len(pieces) < 2:
        return
    chain: list[_Side] = []
    for index, (piece, offset, before) in enumerate(pieces):
        first, last = index == 0, index == len(pieces) - 1
        whole = None if first or last else _evaluable(piece.strip())
        if whole is not None:
            stripped = piece.strip()
            start = offset + len(piece) - len(piece.lstrip())
            side = _Side(stripped, start, start + len(stripped), before, *whole)
            done, chain = _running(chain, side)
            if done is not None:
                yield done
            continue
        if chain:
            # the start of this piece ends the chain so far; with no chain before it, a side
            # found there would stand alone, so it is not looked for (nor charged)
            head = _prefix(piece, offset, before)
            if head is not None:
                done, chain = _running(chain, head)
                if done is not None:
                    yield done
        if len(chain) >= 2:
            yield chain
        chain = []
        if not last:
            tail = _suffix(piece, offset, "")
            if tail is not None:
                chain.append(tail)
    if len(chain) >= 2:
        yield chain


_LEAD = re.compile(
    r"([-−]?\d[\d,]*(?:\.\d+)?(?:\s*(?:[KMGTP]i?B|bytes?|字节|万亿|亿|万)(?![A-Za-z])|[kKMBT](?![A-Za-z]))?)"
    r"(?:" + _LABEL_BRACKET + r")?\s*[×*/÷+−-]"
)


def _running(chain: list[_Side], side: _Side) -> tuple[list[_Side] | None, list[_Side]]:
    """(a finished chain or None, the chain to go on with) once ``side`` is added.

    ``2 × 3 = 6 × 4 = 24`` is a running computation, not a chain whose sides are all equal: the
    side ``6 × 4`` starts with the value of the one before it (``6``, or ``32MB (per layer) ×
    32`` after a product of 33,554,432 bytes) and goes on from it. The chain then ends at that
    value, ``2 × 3 = 6``, and a new one starts, ``6 × 4 = 24``."""
    lead = _LEAD.match(side.text)
    if not chain or side.printed or lead is None or isinstance(chain[-1].value, tuple):
        return None, [*chain, side]
    if not _stands_for(lead.group(1), chain[-1].value):
        return None, [*chain, side]
    value = _evaluable(lead.group(1))
    if value is None:
        return None, [*chain, side]
    end = side.start + len(lead.group(1))
    result = _Side(lead.group(1), side.start, end, side.relation, value[0], True)
    done = [*chain, result] if len(chain) >= 1 else None
    return done, [dataclasses.replace(side, relation="")]


def _stands_for(printed_text: str, value: float) -> bool:
    """True when the printed number is ``value`` at its printed precision, its unit read as
    written, as powers of 1024 (``32MB`` for 33,554,432 bytes), or left implied (``6 GB`` after
    ``2 × 3``)."""
    try:
        printed = parse_printed(printed_text)
    except NumberError:
        return False
    readings = [printed, read_binary(printed)]
    if printed.unit is not None and printed.unit.family in ("bytes", "count"):
        readings.append(parse_printed(printed_text[: -len(printed.unit.symbol)].strip()))
    return any(
        compare(reading, value).ok and abs(reading.value - value) <= _RUNNING_CLOSE * abs(value)
        for reading in readings
    )


_RUNNING_CLOSE = 0.025
"""How close (relative) the value a side starts with must be to the side before it for the
side to continue from it: ``1/(1 + e^(-3)) = 1/(1 + 0.050)`` starts with 1, a rounding of
0.9526 to a whole number, and is the same value written another way, not a continuation."""


def _claimed_text(claimed: str, value: float | tuple[float, ...]) -> str:
    """The claimed value in the unit the arithmetic works in.

    ``7 × 16 = 112 GB`` computes in gigabytes without writing them on the left, while
    ``175 × 10^9 × 2 = 350 GB`` computes in bytes: whichever reading of the printed number is
    closer in magnitude to the computed value is the one the lesson means.
    """
    claimed = _COUNT_NOUN.sub("", claimed).strip()  # "15 个", "2.78 万 GPU": just the number
    try:
        printed = parse_printed(claimed)
    except NumberError:
        return claimed
    if (
        isinstance(value, tuple)
        or printed.unit is None
        or printed.unit.family
        in (
            "percent",
            "ratio",
        )
    ):
        return claimed
    mantissa = printed.value / printed.unit.factor
    if value == 0 or mantissa == 0:
        return claimed
    as_printed = abs(math.log10(abs(value) / abs(printed.value)))
    as_number = abs(math.log10(abs(value) / abs(mantissa)))
    if as_number >= as_printed:
        return claimed
    return claimed.strip()[: -len(printed.unit.symbol)].rstrip()


_EXACT = ("", "=", "＝")


def _approximate(claimed: str) -> str:
    """The claimed value marked as stated with ``≈`` where that changes how it reads (a whole
    number ending in zeros, ``≈ 9800``: see :func:`checkers.numbers.significant_digits`)."""
    marked = "≈ " + claimed
    try:
        return marked if significant_digits(parse_printed(marked)) is not None else claimed
    except NumberError:
        return claimed


def _converts(first: str, second: str) -> bool:
    """Two printed quantities of one kind in different units (bytes, counts, FLOPs)."""
    try:
        a, b = parse_printed(first), parse_printed(second)
    except NumberError:
        return False
    return (
        a.unit is not None
        and b.unit is not None
        and a.unit.family == b.unit.family
        and a.unit.family in ("bytes", "count", "flops")
        and a.unit.symbol != b.unit.symbol
    )


def _stored_differently(expression: str, dtype: str) -> bool:
    """True when ``dtype`` stores a literal of the expression as another number."""
    try:
        return changed_by_storage(parse(split_chain(expression)[0][1]), dtype)
    except ExprError:
        return False


def _draft(
    sides: list[_Side],
    line: int,
    source: str,
    where: Sequence[int],
    document: Document,
) -> Draft | None:
    """The claim a chain makes in ``document``; ``where`` maps the plain text of ``source``
    back to it."""
    computed = [s for s in sides if not s.printed]
    if not computed:
        # "819,200 字节约为 8.2 MB", "14 GB ≈ 13.0 GiB": a unit conversion between printed values.
        if not _converts(sides[0].text, sides[-1].text):
            return None
        chain, claimed = [sides[0]], sides[-1]
    elif sides[-1].printed:
        claimed, rest = sides[-1], sides[:-1]
        chain = rest[next(i for i, s in enumerate(rest) if not s.printed) :]
    elif sides[0].printed:
        claimed, rest = sides[0], sides[1:]
        chain = rest[next(i for i, s in enumerate(rest) if not s.printed) :]
    else:
        return None
    if isinstance(claimed.value, tuple) != isinstance(chain[0].value, tuple):
        return None
    expression = chain[0].text + "".join(f" {s.relation or '='} {s.text}" for s in chain[1:])
    if len(expression) > _MAX_EXPRESSION:
        return None  # the arithmetic kind would refuse it; a hostile "1+1 = 1+1 = …" line
    used = [*chain, claimed]
    begin = min(s.start for s in used)
    end = max(s.end for s in used)
    claimed_field: str | list[str] = _claimed_text(claimed.text, chain[0].value)
    if claimed.text.lstrip().startswith("["):
        claimed_field = [p.strip() for p in claimed.text.strip()[1:-1].split(",")]
    elif (claimed.relation if claimed is sides[-1] else sides[1].relation) not in _EXACT:
        claimed_field = _approximate(_claimed_text(claimed.text, chain[0].value))
    uses_function = any(ch.isalpha() for ch in expression)
    arithmetic = _as_expression(expression)
    fields: dict[str, object] = {"expression": arithmetic, "claimed": claimed_field}
    if any(symbol in arithmetic or symbol in str(claimed_field) for symbol in BYTE_PREFIXES):
        fields["prefixes"] = document.byte_prefixes
    if any(_stored_differently(arithmetic, t) for t in FLOAT_TYPES):
        # only then are the types the lesson names looked for, in all of its text: most
        # expressions have no literal that any floating-point type stores differently
        stored_as = [t for t in document.float_types if _stored_differently(arithmetic, t)]
        if stored_as:
            fields["stored_as"] = stored_as
    return Draft(
        kind="arithmetic",
        quote=source[slice(*widened(source, where[begin], where[end - 1] + 1))],
        line=line,
        fields=fields,
        confidence=0.8 if uses_function else 0.9,
        recognizer=NAME,
        slug=expression,
    )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every evaluable equation chain in the lesson."""
    rounded: set[str] = set()  # results printed with decimals so far, without their sign
    results: dict[str, tuple[int, str]] = {}  # a result printed so far → (section, expression)
    section_of: dict[int, int] | None = None  # built for the first draft: most lessons have none
    _budget[0] = PARSE_BUDGET
    for source, line in logical_lines(document):
        if "." in source and _ROUNDED_CELL.fullmatch(source):  # (every match holds a ".")
            # a table cell holding a computed value printed with decimals (p_i = 0.612): a
            # later statement may use it as the rounded value it is
            rounded.add(source.strip().lstrip("-−+"))
            continue
        if "\\" not in source and not (_may_relate(source) and _has_digit(source)):
            # no relation, or no digit (every side of a chain holds one), and no LaTeX that
            # could write either (\approx, \infty)
            continue
        text, where = plain(source)
        if text is not source and not (_may_relate(text) and _has_digit(text)):
            continue  # (the same text is the source, already tested)
        for sides in _chains(text):
            draft = _draft(sides, line, source, where, document)
            if draft is None:
                continue
            carried = _carried(draft.fields["expression"], rounded)
            if carried:
                draft = dataclasses.replace(draft, fields={**draft.fields, "carried": carried})
            if section_of is None:
                section_of = {row.number: block.section for block, row in document.lines()}
            section = section_of.get(line, -1)
            upstream = _upstream(draft.fields["expression"], results, section)
            if upstream:
                draft = dataclasses.replace(draft, fields={**draft.fields, "upstream": upstream})
            if _rounds(draft):
                rounded.add(str(draft.fields["claimed"]).lstrip("-−+"))
            claimed = draft.fields["claimed"]
            if isinstance(claimed, str) and _CARRIED_RESULT.fullmatch(claimed.lstrip("-−+")):
                first = split_chain(str(draft.fields["expression"]))[0][1]
                results[claimed.lstrip("-−+")] = (section, first)
            yield draft


_ROUNDED_RESULT = re.compile(r"[-−+]?\d+\.\d+")
_ROUNDED_CELL = re.compile(r"\s*[-−+]?\d+\.\d{2,}\s*")
"""A claimed value printed with decimals, which a later statement may use as rounded."""


def _rounds(draft: Draft) -> bool:
    """True when the draft claims a rounded result: printed with decimals, and not exactly
    what it computes (``cos(4) = -0.654``, not ``1/2 = 0.5``)."""
    claimed, expression = draft.fields["claimed"], draft.fields["expression"]
    if not (isinstance(claimed, str) and _ROUNDED_RESULT.fullmatch(claimed)):
        return False
    printed = Fraction(claimed.replace("−", "-"))
    try:
        tree = parse(split_chain(str(expression))[0][1])
        exact = evaluate_exact(tree, {name: Fraction(v) for name, v in _UNIT_VALUES.items()})
        if exact is not None:  # rational arithmetic: 5.0 + 1.6 - 8.0 is exactly -1.4
            return exact != printed
        value = evaluate(tree, _UNIT_VALUES)
    except (ExprError, ArithmeticError, ValueError):
        return False
    return isinstance(value, float) and abs(value - float(printed)) > 1e-12 * abs(value)


_CARRIED_RESULT = re.compile(r"\d+\.\d+|\d{3,}")
"""A result a later statement may take as its input and be said to carry: printed with
decimals or with three digits or more (a ``2`` or ``6`` recurs by coincidence)."""


def _literals(expression: str) -> list[str]:
    """The literals of an expression as written, without sign, in order."""
    try:
        tree = parse(split_chain(expression)[0][1])
    except ExprError:
        return []
    found: list[str] = []
    stack: list[Node] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Number):
            found.append(node.text.lstrip("-−+"))
        elif isinstance(node, Binary):
            stack += (node.right, node.left)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Call):
            stack += reversed(node.args)
    return found


def _upstream(
    expression: object, results: dict[str, tuple[int, str]], section: int
) -> dict[str, str]:
    """The literals of ``expression`` that an earlier statement of the same section printed as
    its result, with that statement's expression (the arithmetic kind's ``upstream``)."""
    if not results or not isinstance(expression, str):
        return {}
    return {
        literal: results[literal][1]
        for literal in _literals(expression)
        if literal in results and results[literal][0] == section
    }


def _carried(expression: object, rounded: set[str]) -> list[str]:
    """The literals of ``expression`` that an earlier chain of the lesson printed as its
    (rounded) result, so that the arithmetic kind may carry them unrounded."""
    if not rounded or not isinstance(expression, str):
        return []
    try:
        tree = parse(split_chain(expression)[0][1])
    except ExprError:
        return []
    found: list[str] = []
    stack: list[Node] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Number):
            if node.text in rounded and node.text not in found:
                found.append(node.text)
        elif isinstance(node, Binary):
            stack += (node.right, node.left)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Call):
            stack += reversed(node.args)
    return sorted(found)
