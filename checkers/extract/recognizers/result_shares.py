"""Recogniser ``result_shares``: a share whose part is the result printed just before it.

Reads each sentence that opens by pointing back (``That is…``, ``This is…``, ``which is…``,
``这…``, ``即…``, ``相对于…``) and states a percentage of one total, and the sentence right
before it (the same paragraph, or the line or list item just above, in the same section).
Recognises:

* ``That is about 0.06% of the 6.74B total``, ``which is 0.3% of the model's 1.3B
  parameters``: the percentage of a whole ``of`` (a total word before or after it:
  ``total``, ``model``, ``parameters``, ``base``, ``full``…);
* ``相对于约 67.4 亿的总参数量，约占 0.6%``, ``这占 6.74B 总参数的 0.06%``, ``约占 7B 模型的
  0.06%``: the same said with 占 (a total word with the whole: ``总``, ``全部``, ``模型``,
  ``参数``);

where the sentence before ends its figures with a result ``= N`` (or ``≈ N``), perhaps
restated rounded (``= 4,194,304，约 419 万``). Each becomes an ``arithmetic`` claim N / whole
against the percentage; the whole's scale (``K``, ``M``, ``B``, ``T``, ``million``, ``billion``,
``万``, ``亿``) is read as a power of ten, and the whole, printed rounded, is carried (it may
stand for any value it rounds from). The note names the line the part was read from.

The relation is drafted only where the text states it: a sentence with any other number (the
part stated in it: ``32 层合计 159,907,840，占 2.37%``), a percentage that is a bound
(``under 0.1%``) or a range, a whole with no total word (``10% of the 35M tokens``), a
sentence that does not point back, or a result that is not the last figure before it, means no
draft; so does a part larger than the whole.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.numbers import count_scale

__all__ = ["recognize"]

NAME = "result_shares"
DEFERS = True
NEEDS = ("%",)
"""Every share is a percentage (:data:`_SHARE_EN`, :data:`_SHARE_ZH`)."""

MAX_SENTENCE_CHARS = 240
"""Longest sentence read as a share or as the result before one."""
MAX_GAP_LINES = 3
"""Most source lines between the result's block and the share's (a blank line, a fence's
closing line)."""

_SENTENCE = re.compile(r"(?:[^。；;！？!?.\n]|\.(?!\s+[A-Z\u4e00-\u9fff]|\s*$))+[。；;！？!?.]?")
_NUMBER = r"\d(?:[\d,]*\d)?(?:\.\d+)?"
_SCALE_EN = r"(?:[KMBT](?![A-Za-z])|\s?(?:thousand|million|billion|trillion)\b)"
_SCALE_ZH = r"(?:[KMBT](?![A-Za-z])|万|亿)"
_ABOUT_EN = r"(?:(?:about|roughly|approximately|around|only|just|some)\s+|[~≈]\s*)?"
_TOTAL_BEFORE_EN = (
    r"(?:the\s+|all\s+|a\s+)?(?:(?:model's|base\s+model's|full|whole|entire|total)\s+)?"
)
_TOTAL_AFTER_EN = (
    r"\s*-?\s*(?:total|parameters|params|weights|(?:base\s+)?model|overall|in\s+total)\b"
)
_TOTAL_WORD_EN = re.compile(r"model's|full|whole|entire|total", re.IGNORECASE)
_SHARE_EN = re.compile(
    r"^\W{0,6}(?:so\s+|thus\s+|hence\s+)?(?:that|this|which|it|these|those)\s*"
    r"(?:'s|is|are|was|were|comes?\s+to|amounts?\s+to|represents?|makes?\s+up|accounts?\s+for)"
    r"\s+" + _ABOUT_EN + r"(?P<p>\d+(?:\.\d+)?)\s*%\s+of\s+(?P<before>" + _TOTAL_BEFORE_EN + r")"
    r"(?:about\s+|roughly\s+|~\s*|≈\s*)?(?P<w>" + _NUMBER + r")(?P<ws>" + _SCALE_EN + r")?"
    r"(?P<after>" + _TOTAL_AFTER_EN + r")?",
    re.IGNORECASE,
)
_TOTAL_ZH = r"(?:全部|总共|总|整个|所有|模型|参数)"
_SHARE_ZH = re.compile(
    # 这占 6.74B 总参数的 0.06% / 约占 7B 模型的 0.06%
    r"^\W{0,6}(?:这|这些|其|即|它们?)?\s*(?:相当于|大约|约|仅|只)?\s*(?:约占|只占|仅占|占)了?\s*"
    r"(?P<t1>"
    + _TOTAL_ZH
    + r"{0,2})\s*(?:约\s*)?(?P<w>"
    + _NUMBER
    + r")\s*(?P<ws>"
    + _SCALE_ZH
    + r")?\s*个?\s*(?P<t2>[\u4e00-\u9fff]{0,6}?)\s*的\s*(?:约\s*)?(?P<p>\d+(?:\.\d+)?)\s*%"
    # 相对于约 67.4 亿的总参数量，约占 0.6%
    r"|^\W{0,6}(?:这|即)?\s*(?:相对于|相比于|相比|对比)\s*(?:约|大约)?\s*(?P<w2>" + _NUMBER + r")"
    r"\s*(?P<ws2>" + _SCALE_ZH + r")?\s*个?\s*的?\s*(?P<t3>[\u4e00-\u9fff]{0,8}?)\s*(?:而言|来说)?"
    r"\s*[，,]\s*(?:大约|约|仅|只)?\s*(?:约占|只占|仅占|占)了?\s*(?:约\s*)?(?P<p2>\d+(?:\.\d+)?)\s*%"
)
_RESULT = re.compile(
    r"(?:=|＝|≈)\s*(?:约\s*|about\s+|~\s*)?(?<![\d.,])(?P<n>" + _NUMBER + r")"
    r"(?P<ns>" + _SCALE_EN + r"|万|亿)?(?!\d|[.,]\d|\s*[×*/^+−-])"
)
_ANY_NUMBER = re.compile(
    r"(?<![\d.,])(?P<n>" + _NUMBER + r")(?P<ns>\s?(?:[KMBT](?![A-Za-z])|万|亿|million|billion))?"
)
_BOUND = re.compile(
    r"(?:under|below|over|above|less\s+than|more\s+than|nearly|almost|up\s+to|at\s+(?:most|least)"
    r"|不到|超过|至少|最多|低于|高于|近)\s*$",
    re.IGNORECASE,
)
_RANGE_AFTER = re.compile(r"\s?%?\s?(?:[-–—~～]|to)\s?\d")
_RESTATED = 0.01
"""How far a rounded restatement after a result may be from it (``4,194,304，约 419 万``)."""


def _power(scale: str | None) -> str | None:
    """The power of ten a scale after a number stands for (:func:`checkers.numbers.
    count_scale`), a letter read in either case as the patterns match it; None for none."""
    word = (scale or "").strip()
    if not word:
        return None
    return count_scale(word.upper() if len(word) == 1 and word.isascii() else word.lower())


def _value(number: str, scale: str | None) -> float:
    power = _power(scale)
    return float(number.replace(",", "")) * (float(power) if power else 1.0)


def _scaled(number: str, scale: str | None) -> str:
    """``number`` as an expression, its scale a power of ten (``(6.74*1e9)``)."""
    power = _power(scale)
    return f"({number}*{power})" if power else number


def _result(sentence: str) -> tuple[str, str | None] | None:
    """The result the sentence ends its figures with: the last ``= N``, every number after it
    a restatement of it (within 1%)."""
    results = list(_RESULT.finditer(sentence))
    if not results:
        return None
    found = results[-1]
    value = _value(found.group("n"), found.group("ns"))
    for later in _ANY_NUMBER.finditer(sentence, found.end()):
        restated = _value(later.group("n"), later.group("ns"))
        if value == 0 or abs(restated - value) > _RESTATED * value:
            return None  # another figure follows: the result is not what "that" points at
    return found.group("n"), found.group("ns")


def _share(sentence: str) -> tuple[re.Match[str], str, str | None, str] | None:
    """(match, whole, its scale, percentage) of a share that points back, when the sentence
    states it with a total word and holds no number but the two."""
    match = _SHARE_EN.search(sentence)
    if match is not None:
        if not (_TOTAL_WORD_EN.search(match.group("before")) or match.group("after")):
            return None  # "10% of the 35M tokens": a share of something else
        whole, scale, percent = match.group("w"), match.group("ws"), match.group("p")
    else:
        match = _SHARE_ZH.search(sentence)
        if match is None:
            return None
        if match.group("w") is not None:
            words = match.group("t1") + match.group("t2")
            whole, scale, percent = match.group("w"), match.group("ws"), match.group("p")
        else:
            words = match.group("t3")
            whole, scale, percent = match.group("w2"), match.group("ws2"), match.group("p2")
        if not re.search(_TOTAL_ZH, words):
            return None
    at = match.start("p") if match.group("p") is not None else match.start("p2")
    if _BOUND.search(sentence[max(0, at - 12) : at]) or _RANGE_AFTER.match(sentence, match.end()):
        return None
    if len(_ANY_NUMBER.findall(sentence)) != 2:
        return None  # the part, or another figure, stated in the sentence itself
    return match, whole, scale, percent


@dataclass(frozen=True)
class _Sentence:
    """A sentence as read (inline LaTeX made plain, each run of whitespace one space, so that
    no pattern meets a long run), with where it is in the lesson."""

    text: str
    piece: str
    """The source text it was read from (a logical line, or one line of a paragraph)."""
    plain: str
    """The plain text of ``piece``, runs of whitespace kept."""
    where: tuple[int, ...]
    """The offset in ``piece`` of each character of ``plain``."""
    start: int
    """Where ``text`` starts in ``plain`` with its runs squeezed."""
    line: int
    """The source line ``piece`` starts on."""

    def quote(self, begin: int, end: int) -> str:
        """The source text of ``text[begin:end]``."""
        at = _unsqueezed(self.plain, self.start + begin)
        upto = _unsqueezed(self.plain, self.start + end - 1)
        return self.piece[self.where[at] : self.where[upto] + 1].strip()


_RUN = re.compile(r"\s{2,}|[^\S ]")
"""A run of whitespace squeezed to one space (a single tab or line break too)."""


def _unsqueezed(text: str, offset: int) -> int:
    """The offset in ``text`` of the character at ``offset`` of ``text`` squeezed by
    :data:`_RUN`."""
    shift = 0
    for run in _RUN.finditer(text):
        if run.start() - shift >= offset:
            break
        shift += len(run.group(0)) - 1
    return offset + shift


_BREAK_BEFORE = re.compile(r"[\d$]\s*$")
_BREAK_AFTER = re.compile(r"^\s*[A-Z\u4e00-\u9fff]")


def _pieces(source: str, number: int, block: Block | None) -> list[tuple[str, int]]:
    """The logical line cut where a paragraph's source line ends on a figure and the next
    starts a sentence (``… = 4,194,304`` / ``This is 0.06% …``): a line break there ends
    a sentence that no full stop ends."""
    if block is None or block.kind != "paragraph" or len(block.lines) < 2:
        return [(source, number)]
    pieces: list[tuple[str, int]] = []
    current: list[str] = []
    first = number
    for line in block.lines:
        text = line.text.strip()
        if current and _BREAK_BEFORE.search(current[-1]) and _BREAK_AFTER.match(text):
            pieces.append((" ".join(current), first))
            current, first = [], line.number
        current.append(text)
    pieces.append((" ".join(current), first))
    return pieces


def _sentences(pieces: list[tuple[str, int]]) -> list[_Sentence]:
    found: list[_Sentence] = []
    for piece, line in pieces:
        text, where = plain(piece)
        squeezed = _RUN.sub(" ", text)
        for match in _SENTENCE.finditer(squeezed):
            if match.group(0).strip():
                sentence = _Sentence(match.group(0), piece, text, where, match.start(), line)
                found.append(sentence)
    return found


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim result / whole for each share that points back at the
    result printed just before it."""
    lines = document.logical
    starts: list[int] | None = None
    # Every share holds a percentage: most lines are passed over here, in one comprehension.
    for at in [at for at, (text, _) in enumerate(lines) if "%" in text]:
        source, number = lines[at]
        if "占" not in source and "of" not in source.lower():
            continue  # a share says "% of" or 占
        if starts is None:
            starts = [block.line for block in document.blocks]
        block = _block_of(document, starts, number)
        sentences = _sentences(_pieces(source, number, block))
        for index, sentence in enumerate(sentences):
            if "%" not in sentence.text or len(sentence.text) > MAX_SENTENCE_CHARS:
                continue
            share = _share(sentence.text)
            if share is None:
                continue
            if index > 0:
                prior, prior_line = sentences[index - 1].text, sentences[index - 1].line
            elif at > 0 and _adjacent(
                earlier_block := _block_of(document, starts, lines[at - 1][1]), block, number
            ):
                before, before_line = lines[at - 1]
                earlier = _sentences(_pieces(before, before_line, earlier_block))
                if not earlier:
                    continue
                prior, prior_line = earlier[-1].text, earlier[-1].line
            else:
                continue
            result = _result(prior) if len(prior) <= MAX_SENTENCE_CHARS else None
            if result is None:
                continue
            match, whole, scale, percent = share
            part, part_scale = result
            if _value(whole, scale) <= 0 or _value(part, part_scale) >= _value(whole, scale):
                continue
            quote = sentence.quote(match.start(), match.end())
            carried = sorted({whole} | ({part} if part_scale else set()))
            yield Draft(
                kind="arithmetic",
                quote=quote,
                line=_source_line(block, quote, sentence.line),
                fields={
                    "expression": f"{_scaled(part, part_scale)}/{_scaled(whole, scale)}",
                    "claimed": percent + "%",
                    "carried": carried,
                },
                confidence=0.6,
                recognizer=NAME,
                slug="result-share",
                note=(
                    f"the part {part}{part_scale or ''} is the result on line {prior_line}; "
                    f"the whole {whole}{scale or ''} is read as printed, rounded"
                ),
                inputs=((prior_line, document.source_line(prior_line)),),
            )


def _block_of(document: Document, starts: list[int], line: int) -> Block:
    """The block the logical line starting at ``line`` is in (``starts``: each block's first
    line, in order)."""
    return document.blocks[max(0, bisect_right(starts, line) - 1)]


def _adjacent(first: Block, second: Block, line: int) -> bool:
    """The logical line in ``first`` is right above the one at ``line`` in ``second``: in the
    same block, or in a block of the same section that ends at most a few lines above."""
    if first.section != second.section or not first.lines:
        return False
    return first is second or 0 < line - first.lines[-1].number <= MAX_GAP_LINES


def _source_line(block: Block, quote: str, first: int) -> int:
    """The source line of ``block`` the quote starts on (a paragraph runs over several)."""
    head = quote[:24]
    return next((line.number for line in block.lines if head in line.text), first)
