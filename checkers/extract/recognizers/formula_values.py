"""Recogniser ``formula_values``: a formula with named variables, their values, and its value.

Recognises, within one section of prose, the way authors work a formula through:

* a formula in inline code or prose, written with named variables and saying what it counts
  (``12 * B * L * d`` floats per layer, ``2 × L × d_model`` values);
* then, in the same paragraph or a later one of the section, every one of its variables
  assigned a number (``d=8192, L=8192, B=1``);
* and, in the sentence of those assignments, the value stated for it: ``that's 800 MB/layer
  in BF16`` (the formula's count × the bytes of the number type the sentence names, from
  ``checkers/data/dtypes.yaml``), or a count (``12 * d^2`` parameters … ``with d=4096, that
  is 201M/layer``);
* a follow-on in the same paragraph that scales the value just stated by a count of what it
  was stated per: ``A 64-layer model is 51 GB`` after ``800 MB/layer`` → 800 MB × 64.

The formula is parsed and evaluated by :mod:`checkers.expr` only (the claim carries it with
its variables in ``where:``), never executed. A variable the text does not assign, a variable
assigned two different values, a formula counting bytes while a number type is also named, or
a byte value without a number type (bytes per value unknown) means no draft.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from checkers.data import dtype_table
from checkers.expr import ExprError, names, parse
from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.kinds.base import RESERVED_NAMES

__all__ = ["recognize"]

NAME = "formula_values"

_VARIABLE = r"[A-Za-z](?:_[A-Za-z0-9]+)?"
_FACTOR = r"(?:\d+(?:\.\d+)?|" + _VARIABLE + r")"
# "12 * B * L * d", "2 × L × d_model": factors joined by products (and sums of products).
_PROSE_FORMULA = re.compile(
    r"(?<![\w.])" + _FACTOR + r"(?:\s*[*×·⋅/+]\s*" + _FACTOR + r"){1,11}(?![\w.(])"
)
_CODE = re.compile(r"`([^`\n]{3,120})`")
_COUNTS = re.compile(
    r"^\W{0,3}\s*(?:(?:floats?|values?|elements?|numbers?|activations?|entries|parameters|"
    r"params|weights|FLOPs?|flops|MACs|multiply-adds|operations)|(bytes?))\b",
    re.IGNORECASE,
)
_ASSIGNMENT = re.compile(
    r"(?<![\w.])(" + _VARIABLE + r")\s*=\s*(\d[\d,]*(?:\.\d+)?)(?![\d.]|\s*[*×/+^-]\s*\d)"
)
_APPROX = r"(?:~|≈|about\s+|roughly\s+|approximately\s+|around\s+)?"
# A value in bytes (``800 MB``) or a scaled count (``6.4B``, ``805 million``): what a formula of
# named variables is worked out to.
_UNIT = r"([KMGT]i?B|[KMBT](?![A-Za-z])|\s(?:thousand|million|billion|trillion))(?![A-Za-z])"
_SCALES = {"K": "1e3", "M": "1e6", "B": "1e9", "T": "1e12", "thousand": "1e3"}
_SCALES |= {"million": "1e6", "billion": "1e9", "trillion": "1e12"}
_BYTE_VALUE = re.compile(
    r"(?i:that's|that is|this is|which is|gives|giving|comes to|we get|=|≈|is)\s*"
    + _APPROX
    + r"(\d[\d,]*(?:\.\d+)?)\s*"
    + _UNIT
    + r"(\s*(?:/|per\s+)([a-z]+))?"
)
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)")
_FOLLOW_ON = (
    r"(\d[\d,]*)[-\s](?i:{noun})s?\b[^.\d]{{0,40}}?"
    r"(?:is|are|has|have|needs?|takes?|comes to|uses?|holds?|=|≈|totals?)\s*"
    + _APPROX
    + r"(\d[\d,]*(?:\.\d+)?)\s*"
    + _UNIT
)
"""The follow-on of a value stated per ``{noun}`` (a layer, a token…), formatted per noun."""


@lru_cache(maxsize=64)
def _follow_on_pattern(noun: str) -> re.Pattern[str]:
    return re.compile(_FOLLOW_ON.format(noun=re.escape(noun)))


@dataclass(frozen=True)
class _Formula:
    """A formula the section states, with what it counts."""

    text: str
    """The formula as written (``12 * B * L * d``)."""
    variables: frozenset[str]
    """Its variable names."""
    counts_bytes: bool
    """True when the text says the formula counts bytes (else values of some number type)."""


def _formula(text: str, after: str) -> _Formula | None:
    """The formula ``text`` if it parses, has variables and at least one operator, and the
    words right after it say what it counts."""
    counts = _COUNTS.match(after)
    if counts is None:
        return None
    try:
        tree = parse(text)
    except ExprError:
        return None
    variables = frozenset(names(tree))
    if not variables or variables & RESERVED_NAMES or not re.search(r"[*×·⋅/+]", text):
        return None
    return _Formula(text.strip(), variables, counts.group(1) is not None)


def _formulas(text: str) -> Iterator[tuple[int, _Formula]]:
    """(end offset, formula) of every formula a paragraph states."""
    for match in _CODE.finditer(text):
        found = _formula(match.group(1), text[match.end() :])
        if found is not None:
            yield match.end(), found
    stripped = _CODE.sub(lambda m: " " * len(m.group(0)), text)
    for match in _PROSE_FORMULA.finditer(stripped):
        found = _formula(match.group(0), stripped[match.end() :])
        if found is not None:
            yield match.end(), found


def _bytes_per_value(sentence: str) -> tuple[str, float] | None:
    """The one number type a sentence names (``in BF16``), with its bytes per value."""
    table = dtype_table()
    found: dict[str, float] = {}
    # Only names with a width in them (BF16, fp32, int8): "half" or "double" are also words.
    for word in re.findall(r"(?<![A-Za-z0-9])[A-Za-z]{2,5}-?\d{1,2}(?![A-Za-z0-9])", sentence):
        entry = table.find(word)
        if entry is not None and entry.bits % 8 == 0:
            found[entry.name] = entry.bytes
    if len(found) != 1:
        return None  # none, or two (fp32 master weights vs bf16 activations): a guess
    return next(iter(found.items()))


def _paragraphs(blocks: Sequence[Block]) -> list[tuple[str, int]]:
    return [
        (" ".join(line.text.strip() for line in block.lines), block.line)
        for block in blocks
        if block.kind == "paragraph" and block.lines
    ]


def _section_drafts(paragraphs: list[tuple[str, int]]) -> Iterator[Draft]:
    known: list[_Formula] = []
    for text, line in paragraphs:
        formulas = list(_formulas(text))
        earlier = list(known)
        known.extend(formula for _, formula in formulas)
        assignments: dict[str, str] = {}
        conflicting: set[str] = set()
        for match in _ASSIGNMENT.finditer(text):
            name, value = match.group(1), match.group(2)
            if assignments.get(name, value) != value:
                conflicting.add(name)
            assignments[name] = value
        if not assignments:
            continue
        last = max(m.end() for m in _ASSIGNMENT.finditer(text))
        sentence_end = _SENTENCE_END.search(text, last)
        stop = sentence_end.start() if sentence_end else len(text)
        value = _BYTE_VALUE.search(text, last, stop)
        if value is None or re.search(r"\d", text[last : value.start()]):
            continue  # no value in the sentence, or another number stands before it
        candidates = [f for _, f in formulas if _ < value.start()] + earlier
        usable = [
            f
            for f in reversed(candidates)
            if f.variables <= assignments.keys() and not f.variables & conflicting
        ]
        if not usable:
            continue  # a variable the text does not assign: nothing to evaluate
        formula = usable[0]
        sentence_start = max(text.rfind(". ", 0, last) + 1, 0)
        sentence = text[sentence_start:stop]
        unit = value.group(2).strip()
        in_bytes = unit not in _SCALES
        dtype = _bytes_per_value(sentence) if in_bytes else None
        if in_bytes and formula.counts_bytes == (dtype is not None):
            continue  # bytes twice, or values without their width
        if not in_bytes and formula.counts_bytes:
            continue  # a formula of bytes stated as a count
        where = {name: assignments[name].replace(",", "") for name in sorted(formula.variables)}
        factor = ""
        if dtype is not None:
            # The width is a named input, so the verdict shows what the 2 is: bytes per bf16.
            width = f"bytes_{dtype[0]}"
            factor = f" × {width}"
            where[width] = _short(dtype[1])
        first = min(
            m.start() for m in _ASSIGNMENT.finditer(text) if m.group(1) in formula.variables
        )
        claimed = text[value.start(1) : value.end(2)].strip()
        yield Draft(
            kind="arithmetic",
            quote=text[first : value.end(2)].strip(),
            line=line,
            fields={
                "expression": f"({formula.text}){factor}",
                "claimed": claimed,
                "where": where,
                **({"prefixes": "either"} if in_bytes else {}),
            },
            confidence=0.6,
            recognizer=NAME,
            slug=f"{formula.text}-{claimed}",
        )
        noun = value.group(4)
        if noun:
            # What the stated value was computed from, in its unit, so that a follow-on that
            # goes on from a wrong value is reported as carrying that error.
            computed = f"({formula.text}){factor}"
            for name, number in where.items():
                computed = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", number, computed)
            source = f"{computed} / {_SCALES.get(unit, unit)}"
            yield from _follow_on(text, line, value.end(), (value.group(1), unit), noun, source)


def _follow_on(
    text: str, line: int, start: int, per_value: tuple[str, str], noun: str, source: str
) -> Iterator[Draft]:
    """``A 64-layer model is 51 GB`` right after ``800 MB/layer``: the stated value × 64."""
    match = _follow_on_pattern(noun.lower()).search(text, start)
    if match is None or re.search(r"(?<![A-Za-z\d])\d", text[start : match.start()]):
        return  # another number between them (a type's width, "fp16", is not one)
    number, unit = per_value
    count = match.group(1)
    term = f"({number}*{_SCALES.get(unit, unit)})"
    yield Draft(
        kind="arithmetic",
        quote=text[match.start() : match.end()].strip(),
        line=line,
        fields={
            "expression": f"{term} × {count}",
            "claimed": text[match.start(2) : match.end(3)].strip(),
            **({"prefixes": "either"} if unit not in _SCALES else {}),
            "upstream": {number.replace(",", ""): source},
        },
        confidence=0.6,
        recognizer=NAME,
        slug=f"{number}{unit}-x-{count}",
    )


def _short(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``arithmetic`` claims for formulas whose variables and value the prose states."""
    if "=" not in document.text:
        return
    for section in document.sections():
        if not any(
            "=" in line.text
            for block in section
            if block.kind == "paragraph"
            for line in block.lines
        ):
            continue  # no assignment in its prose: the paragraphs are not even joined
        paragraphs = _paragraphs(section)
        if any("=" in text and _ASSIGNMENT.search(text) for text, _ in paragraphs):
            yield from _section_drafts(paragraphs)  # formulas are read only where values are
