"""Recogniser ``length_ratios``: a length ratio stated on an intro line, carried into its list.

Reads a paragraph that ends with a colon and speaks of a length (``context``, ``sequence``,
``tokens``, ``上下文``, ``长度``, ``序列``…), and the list items right under it (same section,
no other block between). Recognises, in the intro, the ratio of two lengths:

* a change from one length to another: ``from a 4K to a 32K context``, ``2,048 → 8,192 tokens``,
  ``从 4K 扩展到 32K`` (both with the same suffix, or none: the ratio is then the same whether
  ``K`` means 1000 or 1024), the larger over the smaller;
* a ratio said of the length itself: ``(8× longer)``, ``8 times the length``, ``长度变为 8 倍``.

and, in each item under it, one factor (``8×``, ``64 倍``, ``8-fold``, ``8 times``) with a cue
of how that quantity grows with the length:

* linear: ``linear``, ``linearly``, ``线性``, ``O(n)``, ``proportional to the length``, ``成正比``:
  the factor is the ratio;
* quadratic: ``quadratic``, ``平方``, ``二次``, ``n²``, ``L^2``, ``n × n``, ``O(n²)``: the factor is
  the ratio squared.

Each such item becomes an ``arithmetic`` claim (``32/4`` or ``(32/4)²`` against the item's
factor) whose note names the intro line and the reading its cue chose. When the intro states
both the change and a ratio of the length, that is a claim too (``32/4`` against ``8×``); if
the two disagree the items are left alone (which ratio they carry would be a guess).

A relation is drafted only where the text states it, under the one reading its cue names:

* an item with no cue, with both cues (``linear, not quadratic``), with a negated or qualified
  cue (``not quadratic``, ``sub-quadratic``, ``nonlinear``, ``log-linear``, ``而非线性``) or a
  cue that names a thing (``linear layers``, ``线性层``) is not drafted;
* so is an item with no factor, with more than one, with a factor of 1 (``unchanged``, per
  token) or a bound (``up to 8×``, ``超过 8 倍``);
* a factor said as an increase (``增长 63 倍``, ``63 times more``) also reads as ratio − 1, and
  is not drafted when that reading makes it right;
* an intro with no ratio of lengths (``from 7B to 70B parameters``, a year range) carries none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.lesson import caseless

__all__ = ["recognize"]

NAME = "length_ratios"
DEFERS = True
_SQUARED_FORMS = ("²", "^2", "^{2}", "×@", " × @", "·@", " · @", " \\times @", " \\cdot @")
_SQUARED = tuple(side + form.replace("@", side) for side in "nlt" for form in _SQUARED_FORMS)
_CUE_WORDS = (
    "linear",
    "线性",
    "o(n)",
    "o(l)",
    "o(t)",
    "正比",
    "proportional",
    "quadratic",
    "平方",
    "二次",
)
_CUE_SPELLINGS = (*_CUE_WORDS, *_SQUARED)
"""Every cue of an item holds one of them as written (:data:`_LINEAR`, :data:`_QUADRATIC`): a
word, or a length squared or times itself (``n²``, ``L^{2}``, ``n × n``, ``n \\times n``); an
item whose source holds none is not read (:func:`_cue`)."""
NEEDS = (*_CUE_WORDS, "²", "^2", "^{2}", "×", "·", "\\times", "\\cdot")
"""Strings one of which each of :data:`_CUE_SPELLINGS` holds (each squared form holds its mark):
seventeen searches of a lesson instead of thirty-seven, for a gate that lets more lessons by."""

MAX_INTRO_CHARS = 300
"""Longest intro line read: every pattern below is tried on a short line only."""
MAX_ITEM_CHARS = 400
"""Longest list item read."""
MAX_ITEMS = 16
"""Most items read under one intro."""

_LENGTH_WORD = re.compile(
    r"context|sequence|length|tokens?\b|seq_?len|window|prompt|上下文|长度|序列|token|窗口",
    re.IGNORECASE,
)
_LIST_MARKER = re.compile(r"\s{0,12}(?:[-*+]|\d{1,3}[.)])\s")
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_SUFFIX = r"(?:[KkM](?![A-Za-z])|万)?"
_FROM_TO = re.compile(
    r"(?:(?<![A-Za-z])from|从|由)\s*(?:an?\s+)?(?P<a>" + _NUMBER + r")(?P<sa>" + _SUFFIX + r")"
    r"(?:-?\s?tokens?\b|\s?个\s?token)?(?:\s(?:context|上下文))?\s*"
    r"(?:to|→|->|⟶|扩展到|扩展至|扩大到|延长到|拉长到|增加到|增长到|增至|提升到|提高到|变为|变成|到|至)"
    r"\s*(?:an?\s+)?(?P<b>" + _NUMBER + r")(?P<sb>" + _SUFFIX + r")(?![\d.,])"
    r"|(?<![\w.,])(?P<a2>" + _NUMBER + r")(?P<sa2>" + _SUFFIX + r")(?:-?\s?tokens?\b)?\s*"
    r"(?:→|->|⟶)\s*(?P<b2>" + _NUMBER + r")(?P<sb2>" + _SUFFIX + r")(?![\d.,])",
    re.IGNORECASE,
)
_STATED_LENGTH_RATIO = re.compile(
    r"(?<![\d.,])(?P<n>\d+(?:\.\d+)?)\s*(?:×|x|times)\s*(?:longer|as\s+long|the\s+length"
    r"|(?:the\s+)?(?:longer\s+)?(?:context|sequence|length)s?\b)"
    r"|长度\s*(?:变为|变成|为|是|扩大为|扩大到|增加到|增至|增加为)?\s*(?:原来的\s*)?"
    r"(?P<zh>\d+(?:\.\d+)?)\s*倍",
    re.IGNORECASE,
)
_YEAR = re.compile(r"19[5-9]\d|20[0-3]\d")
"""A year, not a length (2048 and 1024 are lengths)."""

# One factor of an item: a number with ×, x, 倍, -fold or "times", not a term of a product
# ("2 × 32 × 8") nor followed by another number. Matched from a number's first digit only.
_FACTOR = re.compile(
    r"(?<![\d.,×*·/^])(?<![×*·]\s)(?P<n>\d+(?:\.\d+)?)\s?"
    r"(?P<mark>×|倍|-fold|x(?![A-Za-z\d])|times\b)(?!\s?[\d$\\])"
)
_FACTOR_MARK = re.compile(r"\d\s?(?:×|倍|-fold|x|times)")
_BOUND_BEFORE = re.compile(
    r"(?:up\s+to|at\s+(?:least|most)|more\s+than|less\s+than|over|under|nearly|almost|超过|不到"
    r"|最多|至少|高达|近|<|>|≤|≥)\s*$",
    re.IGNORECASE,
)
_BOUND_AFTER = re.compile(r"\s?(?:以上|以下|or\s+more|or\s+less|\+)", re.IGNORECASE)
# "增长 8 倍" may mean ×9 (an increase by 8 times), "8 times more" too.
_INCREASE_BEFORE = re.compile(r"(?:增长|增加|提高|提升|扩大|上升)了?\s*$")
_INCREASE_AFTER = re.compile(r"\s?(?:more|larger|bigger|greater|higher)\b", re.IGNORECASE)
_UNCHANGED = re.compile(r"unchanged|the\s+same|constant|per[\s-]token|不变|每个?\s*token", re.I)

_LINEAR = re.compile(
    r"(?<![A-Za-z-])linear(?:ly)?(?!\s*(?:layers?|projections?|maps?|transform|attention|probe"
    r"|warm-?up|decay|schedule|algebra|regression|models?|heads?)\b)(?![A-Za-z-])"
    r"|(?<![非亚超次近])线性(?![层投变注代回映预衰])"
    r"|\bO\((?:n|N|L|T)\)|正比|proportional(?:ly)?\s+(?:to|with)\b",
    re.IGNORECASE,
)
_QUADRATIC = re.compile(
    r"(?<![A-Za-z-])quadratic(?:ally)?(?![A-Za-z-])|平方|二次"
    r"|(?<![A-Za-z_])(?:n|N|L|T|seq_?len|length)\s*(?:²|\^\s*[({]?\s*2\b)"
    r"|(?<![A-Za-z_])(?P<side>[nNLT])\s*(?:×|\\times|·|\\cdot)\s*(?P=side)(?![A-Za-z_])",
)
_NEGATION = re.compile(
    r"(?:\bnot|\bno|n't|rather\s+than|instead\s+of|\bthan|\bnor|而非|不是|并非|而不是|不再|非|不)"
    r"\s*(?:\w+\s+)?[\s(（]*$",
    re.IGNORECASE,
)
_NEGATION_REACH = 16
"""Characters before a cue that may negate it ("not quadratic", "rather than linear")."""


@dataclass(frozen=True)
class _Ratio:
    """The ratio of lengths an intro states: the expression that computes it, and its value."""

    expression: str
    value: float
    said: str
    """How the intro said it, for the note (``32K/4K``, ``8× longer``)."""


def _squeezed(text: str) -> str:
    """``text`` with each run of whitespace one space: no pattern here meets a long run (the
    quotes are the lines as written, so no offset is kept)."""
    return " ".join(text.split())


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _from_to(text: str) -> _Ratio | None:
    """The one change of length the intro states, larger over smaller; None when it states none,
    several, or two lengths with different suffixes or that look like years."""
    found = list(_FROM_TO.finditer(text))
    if len(found) != 1:
        return None
    match = found[0]
    a, sa = match.group("a") or match.group("a2"), match.group("sa") or match.group("sa2") or ""
    b, sb = match.group("b") or match.group("b2"), match.group("sb") or match.group("sb2") or ""
    if sa.lower() != sb.lower() or (not sa and _YEAR.fullmatch(a) and _YEAR.fullmatch(b)):
        return None
    low, high = sorted(((_number(a), a), (_number(b), b)))
    if low[0] <= 0 or low[0] == high[0]:
        return None
    expression = f"{high[1].replace(',', '')}/{low[1].replace(',', '')}"
    return _Ratio(expression, high[0] / low[0], f"{high[1]}{sb}/{low[1]}{sa}")


def _stated(text: str) -> _Ratio | None:
    """The one ratio of the length the intro says (``8× longer``, ``长度变为 8 倍``)."""
    found = list(_STATED_LENGTH_RATIO.finditer(text))
    if len(found) != 1:
        return None
    value = found[0].group("n") or found[0].group("zh")
    if _number(value) <= 1:
        return None
    return _Ratio(value, _number(value), found[0].group(0).strip())


def _cue(source: str) -> str | None:
    """``linear`` or ``quadratic`` when the item (as written) names exactly one of them,
    unnegated, in one of the spellings of :data:`_CUE_SPELLINGS`."""
    if len(source) > MAX_ITEM_CHARS:
        return None
    folded = caseless(source)
    if not any(need in folded for need in _CUE_SPELLINGS):
        return None
    text = _squeezed(plain(source)[0])
    cues: set[str] = set()
    for name, pattern in (("linear", _LINEAR), ("quadratic", _QUADRATIC)):
        for match in pattern.finditer(text):
            before = text[max(0, match.start() - _NEGATION_REACH) : match.start()]
            if _NEGATION.search(before):
                return None  # "not quadratic": the item says how it does not grow
            cues.add(name)
    return cues.pop() if len(cues) == 1 else None


def _factor(text: str) -> re.Match[str] | None:
    """The item's one factor, when it states exactly one and not as a bound."""
    if not _FACTOR_MARK.search(text):
        return None
    found = list(_FACTOR.finditer(text))
    if len(found) != 1:
        return None
    match = found[0]
    spaced = match.group("mark") in ("×", "x") and " " in match.group(0)
    if spaced and re.match(r"\s?[(（]", text[match.end() :]):
        return None  # "2 × (n × n)": a term of a product, not a factor ("64× (n × n)" is)
    if _BOUND_BEFORE.search(text[max(0, match.start() - 12) : match.start()]):
        return None
    if _BOUND_AFTER.match(text, match.end()):
        return None
    return match


def _printed_ok(claimed: str, expected: float) -> bool:
    """``claimed`` is ``expected`` at the precision printed (half a unit of its last digit)."""
    decimals = len(claimed.split(".")[1]) if "." in claimed else 0
    return abs(_number(claimed) - expected) <= 0.5 * 10.0**-decimals + 1e-12


def _items(document: Document, index: int) -> Iterator[Block]:
    """The list items right under the block at ``index``: same section, nothing between, nested
    deeper than the intro when it is an item itself, up to the next item that ends with a colon
    (the intro of a list of its own)."""
    intro = document.blocks[index]
    end = intro.lines[-1].number
    marker = _LIST_MARKER.match(document.raw_line(intro.line))
    depth = len(marker.group(0)) - len(marker.group(0).lstrip()) if marker else -1
    for block in document.blocks[index + 1 : index + 1 + MAX_ITEMS]:
        if block.kind != "paragraph" or block.section != intro.section or not block.lines:
            return
        item = _LIST_MARKER.match(document.raw_line(block.line))
        if block.line - end > 2 or item is None:
            return
        if len(item.group(0)) - len(item.group(0).lstrip()) <= depth:
            return  # the next item of the list the intro is in: no longer under it
        if _ends_with_colon(block.lines[-1].text):
            return
        end = block.lines[-1].number
        yield block


def _ends_with_colon(text: str) -> bool:
    """The line ends with a colon, perhaps inside emphasis (``**Costs:**``)."""
    return text.rstrip().rstrip("*_").rstrip().endswith((":", "："))


def _joined(block: Block) -> str:
    return " ".join(line.text.strip() for line in block.lines)


def _item_draft(block: Block, ratio: _Ratio, intro_line: int, intro_text: str) -> Draft | None:
    source = _joined(block)
    if len(source) > MAX_ITEM_CHARS:
        return None
    text = _squeezed(plain(source)[0])
    factor = _factor(text)
    cue = _cue(source) if factor is not None else None
    if factor is None or cue is None or _UNCHANGED.search(text):
        return None
    claimed = factor.group("n")
    if _number(claimed) == 1:
        return None
    power = 2 if cue == "quadratic" else 1
    expected = ratio.value**power
    increase = _INCREASE_BEFORE.search(text[: factor.start()]) or (
        factor.group("mark") == "times" and _INCREASE_AFTER.match(text, factor.end())
    )
    if increase and not _printed_ok(claimed, expected) and _printed_ok(claimed, expected - 1):
        return None  # "增长 63 倍" of 64×: right when read as an increase by 63 times
    expression = f"({ratio.expression})²" if power == 2 else ratio.expression
    grows = "the ratio squared" if power == 2 else "the ratio itself"
    return Draft(
        kind="arithmetic",
        quote=source,
        line=block.line,
        fields={"expression": expression, "claimed": claimed + "×"},
        confidence=0.6,
        recognizer=NAME,
        slug=f"length-{cue}",
        note=(
            f"length ratio {ratio.said} from line {intro_line}; read as {cue} in the length "
            f"(the item's cue), so the factor is {grows}"
        ),
        inputs=((intro_line, intro_text),),
    )


def _intro_ratio(source: str, line: int) -> tuple[_Ratio | None, Draft | None]:
    """The ratio an intro line carries, and the claim of the intro itself when it states both
    the change of length and its ratio (None when it does not; the ratio is None when the
    two disagree)."""
    text = _squeezed(plain(source)[0])
    change, stated = _from_to(text), _stated(text)
    if change is None or stated is None:
        return change or stated, None
    claim = Draft(
        kind="arithmetic",
        quote=source,
        line=line,
        fields={"expression": change.expression, "claimed": stated.expression + "×"},
        confidence=0.6,
        recognizer=NAME,
        slug="length-ratio",
        note=f"the lengths {change.said} and the ratio stated with them ({stated.said})",
    )
    agree = _printed_ok(stated.expression, change.value)
    return (change if agree else None), claim


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``arithmetic`` claims for the factors of list items that carry the length ratio
    of the intro line above them, and for that intro's own ratio."""
    blocks = document.blocks
    for index, block in enumerate(blocks):
        if block.kind != "paragraph" or not block.lines:
            continue
        last = block.lines[-1].text
        if (":" not in last and "：" not in last) or not _ends_with_colon(last):
            continue  # an intro ends with a colon: most paragraphs are passed over here
        source = _joined(block)
        if len(source) > MAX_INTRO_CHARS:
            continue
        if not _LENGTH_WORD.search(source):
            continue
        items = list(_items(document, index))
        if not items:
            continue
        ratio, claim = _intro_ratio(source, block.line)
        drafts: list[Draft] = []
        if ratio is not None:
            for item in items:
                draft = _item_draft(item, ratio, block.line, source)
                if draft is not None:
                    drafts.append(draft)
        cued = drafts or any(_cue(_joined(item)) for item in items)
        if claim is not None and cued:
            yield claim
        yield from drafts
