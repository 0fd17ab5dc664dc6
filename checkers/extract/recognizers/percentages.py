"""Recogniser ``percentages``: savings, increases and ratios stated from two counts.

Recognises, within one sentence:

* two counts with the same unit word and a saving stated as a percentage after them:
  ``不缓存的话累计 15 次，缓存之后只要 5 次，省 67%`` → 1 − 5/15;
  ``from 20 steps to 5 steps, a saving of 75%``;
* ``from A to B`` / ``从 A 降到 B`` with a percentage: a decrease 1 − B/A, an increase B/A − 1
  (``提升``, ``增加``, ``increase``, ``more``, ``faster``, ``growth``);
* the same two counts with a ratio ``N×`` / ``N 倍`` / ``N-fold`` (``shrinks by 8×``,
  ``快 3 倍``): the larger count over the smaller.

Sentences with more or fewer than two such counts are left alone: which two a percentage
compares would be a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "percentages"

_SENTENCE = re.compile(r"[^。！？!?\n]+(?:[。！？!?]|$)")
_COUNT = re.compile(
    r"(?<![\d.,^/])(\d[\d,]*(?:\.\d+)?)\s*"
    r"(次|步|个|秒|毫秒|天|小时|分钟|倍数|steps?|times|tokens?|passes|calls|ms|seconds?|s|hours?|minutes?|GB|MB|KB|GiB|MiB)"
    r"(?![A-Za-z])"
)
_FROM_TO = re.compile(
    r"(?:from|从)\s*(\d[\d,]*(?:\.\d+)?)\s*((?:[A-Za-z/]+\s+){0,3}|%|[\u4e00-\u9fff]{1,3})?\s*"
    r"(?:to|降到|降至|减到|减少到|缩到|缩减到|增加到|提升到|升到|到|至)\s*"
    r"(\d[\d,]*(?:\.\d+)?)"
)
# A number is matched from its first digit only ("(?<!\d)"), never again from each later
# digit: the leftmost match is the same, and a lesson line of 500 000 digits stays linear.
_PERCENT = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*%")
_SHARE_OF = re.compile(
    r"(?<!\d)(?<!\d,)(\d[\d,]*(?:\.\d+)?)\s+of\s+(?:the\s+)?(\d[\d,]*(?:\.\d+)?)\b"
)
_ANY_NUMBER = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?![\d%])")
_FRACTION_LEFT = re.compile(
    r"(?:原来的\s*)?(?<!\d)(\d+)\s*分之\s*(一|\d+)|(?:to|为|到|至)\s*(?:原来的\s*)?(\d+)\s*/\s*(\d+)"
)
_RATIO = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(?:×|x|倍|-fold)(?![\dA-Za-z])")
_DOWN = re.compile(
    r"省|节省|减少|降低|下降|缩小|缩减|saving|saves?|reduc|fewer|less|cut|drop|shrink"
)
_QUADRATIC = re.compile(
    r"attention\s+(?:cost|compute|flops|matrix|scores?)|注意力(?:计算量|矩阵|分数矩阵|成本|开销)"
    r"|n²|n\^2|n\s*[×x]\s*n|平方|quadratic",
    re.IGNORECASE,
)
_UP = re.compile(
    r"提升|增加|增长|提高|加快|increase|more|faster|growth|gain|speed-?up|multipl|grows?"
)


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _draft(sentence: str, line: int, first: str, second: str, rest: str) -> Draft | None:
    a, b = _number(first), _number(second)
    if a <= 0 or b <= 0 or a == b:
        return None
    percent = _PERCENT.search(rest)
    ratio = _RATIO.search(rest)
    if percent is not None and _DOWN.search(sentence) and b < a:
        expression, claimed, end = f"1 − {second}/{first}", percent.group(0), percent.end()
    elif percent is not None and _UP.search(sentence) and b > a:
        expression, claimed, end = f"{second}/{first} − 1", percent.group(0), percent.end()
    elif ratio is not None and (_DOWN.search(sentence) or _UP.search(sentence)):
        big, small = (first, second) if a > b else (second, first)
        # Attention's cost grows with the square of the length: "from 1,024 to 8,192 tokens
        # multiplies the attention cost by 64×".
        power = "²" if _QUADRATIC.search(sentence) else ""
        expression, claimed, end = f"({big}/{small}){power}", ratio.group(1) + "×", ratio.end()
    else:
        return None
    start = sentence.find(first)
    quote = sentence[start : len(sentence) - len(rest) + end].strip()
    return Draft(
        kind="arithmetic",
        quote=quote,
        line=line,
        fields={"expression": expression, "claimed": claimed},
        confidence=0.7,
        recognizer=NAME,
        slug=expression,
    )


def _share(sentence: str, line: int) -> Draft | None:
    """``36 of 64 entries are kept, leaving 28 masked, i.e. 35% of the matrix``: a percentage
    of the whole named by "of N", for the count nearest before it."""
    whole = _SHARE_OF.search(sentence)
    percent = _PERCENT.search(sentence, whole.end()) if whole else None
    if whole is None or percent is None or len(_SHARE_OF.findall(sentence)) != 1:
        return None
    total = whole.group(2)
    before = [
        m.group(0)
        for m in _ANY_NUMBER.finditer(sentence, whole.start(), percent.start())
        if m.group(0) != total and m.start() != whole.start(2)
    ]
    if not before or _number(before[-1]) > _number(total) or _number(total) == 0:
        return None
    part = before[-1]
    return Draft(
        kind="arithmetic",
        quote=sentence[whole.start() : percent.end()].strip(),
        line=line,
        fields={"expression": f"{part}/{total}", "claimed": percent.group(0)},
        confidence=0.6,
        recognizer=NAME,
        slug=f"{part}-of-{total}",
    )


def _fraction_saving(sentence: str, line: int) -> Draft | None:
    """``缩小为原来的 4 分之一，节省了 75%``: shrinking to 1/N saves 1 − 1/N."""
    fraction = _FRACTION_LEFT.search(sentence)
    percent = _PERCENT.search(sentence, fraction.end()) if fraction else None
    if fraction is None or percent is None or not _DOWN.search(sentence[fraction.end() :]):
        return None
    if fraction.group(1):
        denominator = fraction.group(1)
        numerator = "1" if fraction.group(2) == "一" else fraction.group(2)
    else:
        numerator, denominator = fraction.group(3), fraction.group(4)
    if _number(denominator) == 0:
        return None
    return Draft(
        kind="arithmetic",
        quote=sentence[fraction.start() : percent.end()].strip(),
        line=line,
        fields={"expression": f"1 − {numerator}/{denominator}", "claimed": percent.group(0)},
        confidence=0.6,
        recognizer=NAME,
        slug=f"saving-{numerator}-{denominator}",
    )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for a percentage or ratio stated from two counts."""
    for text, number in logical_lines(document):
        if not (_PERCENT.search(text) or _RATIO.search(text)):
            continue  # no sentence of the line can match either (most lines of a lesson)
        for match in _SENTENCE.finditer(text):
            sentence = match.group(0)
            if not (_PERCENT.search(sentence) or _RATIO.search(sentence)):
                continue
            special = _share(sentence, number) or _fraction_saving(sentence, number)
            if special is not None:
                yield special
                continue
            span = _FROM_TO.search(sentence)
            if span is not None:
                draft = _draft(
                    sentence, number, span.group(1), span.group(3), sentence[span.end() :]
                )
            else:
                by_unit: dict[str, list[re.Match[str]]] = {}
                for count in _COUNT.finditer(sentence):
                    by_unit.setdefault(count.group(2), []).append(count)
                pairs = [found for found in by_unit.values() if len(found) == 2]
                if len(pairs) != 1 or any(len(f) > 2 for f in by_unit.values()):
                    continue
                counts = pairs[0]
                draft = _draft(
                    sentence,
                    number,
                    counts[0].group(1),
                    counts[1].group(1),
                    sentence[counts[1].end() :],
                )
            if draft is not None:
                yield draft
