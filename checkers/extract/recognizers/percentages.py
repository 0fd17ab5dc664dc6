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

from checkers.extract.document import Document
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
    r"(?:from|从)\s*(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z]+|[\u4e00-\u9fff])?\s*"
    r"(?:to|降到|降至|减到|减少到|缩到|缩减到|增加到|提升到|升到|到|至)\s*"
    r"(\d[\d,]*(?:\.\d+)?)"
)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_RATIO = re.compile(r"(\d+(?:\.\d+)?)\s*(?:×|x|倍|-fold)(?![\dA-Za-z])")
_DOWN = re.compile(
    r"省|节省|减少|降低|下降|缩小|缩减|saving|saves?|reduc|fewer|less|cut|drop|shrink"
)
_UP = re.compile(r"提升|增加|增长|提高|加快|increase|more|faster|growth|gain|speed-?up")


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
        expression, claimed, end = f"{big}/{small}", ratio.group(1) + "×", ratio.end()
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


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for a percentage or ratio stated from two counts."""
    for block, line in document.lines():
        if block.kind == "table":
            continue
        for match in _SENTENCE.finditer(line.text):
            sentence = match.group(0)
            if not (_PERCENT.search(sentence) or _RATIO.search(sentence)):
                continue
            span = _FROM_TO.search(sentence)
            if span is not None:
                draft = _draft(
                    sentence, line.number, span.group(1), span.group(3), sentence[span.end() :]
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
                    line.number,
                    counts[0].group(1),
                    counts[1].group(1),
                    sentence[counts[1].end() :],
                )
            if draft is not None:
                yield draft
