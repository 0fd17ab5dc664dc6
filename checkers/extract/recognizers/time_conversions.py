"""Recogniser ``time_conversions``: a duration restated in another unit of time in the same clause.

Reads prose, headings, list items, math blocks and plain-text fences (not tables, not code in a
programming language), inline LaTeX as plain text. Recognises a printed duration followed at
once by the same duration in another unit, joined by words or signs that say it is the same
time: ``4.3 × 10⁵ s, or 5.0 days.``, ``about 120 hours, i.e. 5 days``, ``7.26×10⁵ s ≈ 8.4 天``,
``7.26 × 10^5 秒，即约 201.6 小时``, ``90 minutes (1.5 h)``, ``3,400 seconds = ~57 minutes``,
``36 小时，也就是 1.5 天``, ``7,200 s, which is 2 hours``, ``5,400 s (= 1.5 h)``, ``30 小时（约合
1.25 天）``, ``100 秒，约等于 1.7 分钟``. The second duration is the claim: the
first one converted, ``4.3e5 / 86400`` against ``5.0``, an ``arithmetic`` claim.

Units: ms, s (sec, second, 秒), min (minute, 分钟), h (hr, hour, 小时), day (天) and week (周,
星期), with 1 min = 60 s, 1 h = 3,600 s, 1 day = 86,400 s, 1 week = 7 days; months and years
(of 28 to 31, 365 or 365.25 days) are not read. The tolerance is the claimed number's printed
digits, or its significant figures when it is marked approximate (``about``, ``约``, ``≈``,
``~``); a first duration printed with decimals or marked approximate stands for anything its
digits round from (``carried``), so a second one computed from the unrounded time holds.

Only a relation the text states is read: the two durations stand next to each other,
joined by ``is``, ``i.e.``, ``that is``, ``which is``, ``in other words``, ``即``,
``也就是``, ``约合``, ``折合``, ``相当于``, ``换算成``, ``约等于``, ``=``, ``≈`` or brackets around
the second (``(1.5 h)``, ``(= 1.5 h)``), with at most what the time is of between
(``of training``, ``of wall-clock time``). Not read: a duration that is an operand of
arithmetic (``2 × 3 h``), an end of a range (``2–3 h (150 min)``, ``90 min (1–2 h)``),
a time per something (``0.5 s per step, i.e. 500 ms/step``), two durations with other
words between (``30 minutes on a GPU and 5 hours on a CPU``), and a bare ``or`` except
after a comma with nothing but the end of the clause after the second time, within a
factor of 2 of the first converted (``30 minutes, or 2 hours on a CPU`` offers a
choice). A time restated across lines, or after words that the recogniser ``rates``
reads, is ``rates``'s: this one defers to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction

from checkers.extract.document import Block, Document, line_at
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.extract.recognizers.byte_conversions import time_cue_lines, two_within

__all__ = ["recognize"]

NAME = "time_conversions"
DEFERS = True
"""A time ``rates`` already restates on its line (``折合约 6.27 小时``) is left to it."""

_SECONDS: dict[str, Fraction] = {
    "ms": Fraction(1, 1000),
    "s": Fraction(1),
    "min": Fraction(60),
    "h": Fraction(3600),
    "day": Fraction(86400),
    "week": Fraction(604800),
}
_NAMES = {"ms": "ms", "s": "s", "min": "min", "h": "h", "day": "days", "week": "weeks"}
_UNIT_WORDS = {
    "ms": r"ms|milliseconds?|毫秒",
    "s": r"s|secs?|seconds?|Seconds?|秒",
    "min": r"mins?|minutes?|Minutes?|分钟",
    "h": r"h|hrs?|hours?|Hours?|小时",
    "day": r"days?|Days?|天",
    "week": r"weeks?|Weeks?|周|星期",
}
_APPROX = r"(?:about|roughly|approximately|around|nearly|almost|约|大约|~|∼|≈)"
_MANTISSA = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_EXPONENT = r"e[+-]?\d+|\s*[×x*·]\s*10(?:\^\(?[-+−]?\d+\)?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"


def _quantity(tag: str) -> str:
    """A duration: group ``tag`` its number, ``tag + "exp"`` a power of ten after it, ``tag +
    unit`` its unit, ``tag + "q"`` all of it."""
    units = "|".join(f"(?P<{tag}{key}>{words})" for key, words in _UNIT_WORDS.items())
    return (
        f"(?P<{tag}q>(?P<{tag}>{_MANTISSA})(?P<{tag}exp>{_EXPONENT})?\\s*(?:个\\s*)?(?:{units}))"
        r"(?![A-Za-z0-9_])"
    )


_PAIR = re.compile(
    # not an operand (× 3 h), a range's end (2–3 h, 2 to 3 h), a decimal's tail or a word's
    r"(?<![\w.,^×*/+−–—~-])(?<![×*/+−–—-]\s)(?<!\bto\s)(?<![至到]\s)(?<![至到])"
    + _quantity("a")
    + r"(?:\s+of\s+(?:the\s+)?(?:training|wall[-\s]?clock(?:\s+time)?|compute|run\s*time|runtime)"
    r"|\s*的?(?:训练|墙钟)?时间)?"
    r"(?:"
    # no two runs of white space side by side with nothing required between: a long run would
    # be split every way (quadratic in its length)
    r"\s*(?P<link>(?:[,，]\s*)?(?:is|are|i\.e\.,?|that\s+is,?|in\s+other\s+words,?"
    r"|(?:which|that)\s+(?:is|are|comes\s+to|works\s+out\s+to)|that['’]s|(?P<bare_or>or)"
    r"|即|也就是说?|约合|折合|相当于|换算成|换算为|大约是|约是|约等于|约为|大约为|差不多是?)"
    r"|=|≈|≃|~=|＝)"
    rf"\s*(?:(?P<approx>{_APPROX})\s*)?"
    + _quantity("b")
    + r"|\s*[(（]\s*(?:(?:=|＝|i\.e\.,?|即|合|约合|折合)\s*)?(?:(?P<paren_approx>"
    + _APPROX
    + r")\s*)?"
    + _quantity("c")
    + r"\s*[)）]"
    r")",
)
_APPROX_BEFORE = re.compile(_APPROX + r"\Z", re.IGNORECASE)
_AFTER = re.compile(
    r"\s*(?:[-–—~]\s*\d|to\s+\d|[至到]|/|per\b|each\b|every\b|a\s+(?:step|token|batch|day|epoch)\b"
    r"|每|[×*]|[,，]?\s*(?:or|and)\s+\d)"
)
"""What after the second duration makes it something else: a range (``2–3 h``), a time per
something (``500 ms/step``, ``每步``), an operand, the first of a list."""
_CLAUSE_END = re.compile(r"\s*(?:[.;:!?。；：！？)）]|,(?!\d)|，|$)")
_OR_BAND = 2.0
"""Most a second time after a bare ``, or`` may be off the first one converted (either way) to
be read as its restatement: a slip (7.5 for 5.5 days) stays within it, a choice offered
(``30 minutes, or 2 hours``) mostly does not."""
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_TEXT_FENCES = frozenset({"", "text", "txt", "plain", "plaintext", "output", "console"})


def _pieces(block: Block) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """The text a reader follows (a paragraph's wrapped lines joined), with (offset, line) of
    each source line in it."""
    if block.kind in ("paragraph", "heading", "math"):
        text, starts = "", []
        for line in block.lines:
            starts.append((len(text), line.number))
            text += line.text.strip() + " "
        yield text, starts
    elif block.kind == "fence" and block.info.split(" ")[0].lower() in _TEXT_FENCES:
        for line in block.lines:
            yield line.text, [(0, line.number)]


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for each duration restated in another unit of time."""
    cues = time_cue_lines(document)  # one pass over the lesson, shared with byte_conversions
    if len(cues) < 2:
        return
    for block in document.blocks:
        if not two_within(cues, block):
            continue  # fewer than two durations in the block
        for source, starts in _pieces(block):
            text, where = plain(source)
            for match in _PAIR.finditer(text):
                draft = _draft(match, text, where, source, starts)
                if draft is not None:
                    yield draft


def _unit(match: re.Match[str], tag: str) -> str:
    return next(key for key in _UNIT_WORDS if match[tag + key] is not None)


def _term(match: re.Match[str], tag: str) -> tuple[str, str]:
    """The duration's number as a term of an expression (``4.3e5``), and its literal."""
    printed = match[tag]
    literal = printed.replace(",", "")
    exponent = match[tag + "exp"]
    if exponent and exponent.startswith("e"):
        literal += exponent
    elif exponent:
        power = exponent.translate(_SUPERSCRIPT).replace("−", "-").split("10", 1)[1]
        literal += "e" + re.sub(r"[^\d+-]", "", power)
    return literal, printed


def _draft(
    match: re.Match[str],
    text: str,
    where: tuple[int, ...],
    source: str,
    starts: list[tuple[int, int]],
) -> Draft | None:
    tag = "c" if match["c"] is not None else "b"
    first_unit, second_unit = _unit(match, "a"), _unit(match, tag)
    if first_unit == second_unit:
        return None
    if tag == "b" and _AFTER.match(text, match.end()):
        return None  # a range, a rate or a list: not the same one time
    first, first_printed = _term(match, "a")
    second, second_printed = _term(match, tag)
    approx = match["paren_approx"] if tag == "c" else match["approx"]
    if tag == "b" and re.search(r"[≈≃~]|约|大约|差不多", match["link"]):
        approx = "≈"  # "7.26×10⁵ s ≈ 8.4 天", "约等于": the link marks the value approximate
    ratio = _SECONDS[first_unit] / _SECONDS[second_unit]
    if ratio.denominator == 1:
        operator = f" * {ratio.numerator}"
    elif ratio.numerator == 1:
        operator = f" / {ratio.denominator}"
    else:
        operator = f" * {ratio.numerator} / {ratio.denominator}"
    expression = f"{first}{operator}"
    if match["bare_or"] is not None:
        if not match["link"].startswith((",", "，")) or not _CLAUSE_END.match(text, match.end()):
            return None  # "30 minutes, or 2 hours on a CPU": a choice
        value, claimed_value = float(first) * float(ratio), float(second)
        if value <= 0 or not 1 / _OR_BAND <= claimed_value / value <= _OR_BAND:
            return None
    claimed = second if match[tag + "exp"] else second_printed
    if approx:
        claimed = f"≈ {claimed}"
    fields: dict[str, object] = {"expression": expression, "claimed": claimed}
    before = text[max(0, match.start("a") - 16) : match.start("a")].rstrip()
    if "." in first_printed or _APPROX_BEFORE.search(before):
        fields["carried"] = [first]
    begin, end = where[match.start()], where[match.end() - 1] + 1
    line = line_at(starts, where[match.start(tag)])[0]
    factor = (
        f"1 {_NAMES[second_unit].rstrip('s')} = {_count(1 / ratio)} {_NAMES[first_unit]}"
        if ratio < 1
        else f"1 {_NAMES[first_unit].rstrip('s')} = {_count(ratio)} {_NAMES[second_unit]}"
    )
    return Draft(
        kind="arithmetic",
        quote=source[begin:end].strip(),
        line=line,
        fields=fields,
        confidence=0.8,
        recognizer=NAME,
        slug=f"{first_printed}-{first_unit}-in-{second_unit}",
        note=f"{match['aq'].strip()} restated in {_NAMES[second_unit]} ({factor})",
    )


def _count(value: Fraction) -> str:
    return f"{value.numerator:,}" if value.denominator == 1 else f"{float(value):g}"
