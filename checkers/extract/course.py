"""The lesson a lesson continues: the course's previous lesson, when the text says it carries on
that lesson's example.

Courses split a worked example over lessons: one lesson computes a router's gate weights, the
next "continues with our example from the previous lesson" and renormalises two of them. A
mistake in the first lesson's row is reported there; the next lesson's weights carry it, which
only a reader of both lessons sees. This module decides whether a lesson says it continues the
previous one (:func:`continues_previous`: "from the previous lesson", "上一课的例子"…, and
weights renormalised, the only relation read across lessons today) and which rows of that
lesson are carried (:func:`carried_rows`: the probability rows the ``softmax_rows`` recogniser
reads against their scores there). Which file is the previous lesson is a file rule
(:func:`checkers.files.numbered_predecessor`); ``scan`` and ``extract`` read it only for a
lesson that says so, so a course costs one more parse per such lesson.
"""

from __future__ import annotations

import re

from checkers.extract.document import CarriedRow, Document
from checkers.extract.recognizers import softmax_rows
from checkers.lesson import caseless

__all__ = ["carried_rows", "continues_previous"]

_CONTINUES = re.compile(
    r"(?:from|in|of)\s+the\s+(?:previous|last|preceding)\s+(?:lesson|chapter|section|part|notebook)"
    r"|上一(?:课|节|讲|章|篇)|上节课|前一(?:课|节|讲|章)",
    re.IGNORECASE,
)
_RENORMALISES = re.compile(r"re-?normali[sz]|重新归一化|归一化", re.IGNORECASE)


def continues_previous(text: str) -> bool:
    """True when the lesson says it continues the previous lesson's example and renormalises
    weights."""
    # The renormalising words first: few lessons have them, and their pattern starts with a
    # literal, while the continuing phrases' leading alternation is tried at every character.
    # Each of them holds 归一化, "renormali" or "re-normali" as :func:`caseless` reads it:
    # three ``in`` tests leave 98 lessons in 100 unsearched.
    lowered = caseless(text)
    if "归一化" not in text and "renormali" not in lowered and "re-normali" not in lowered:
        return False
    return bool(_RENORMALISES.search(text)) and bool(_CONTINUES.search(text))


def carried_rows(previous: Document, name: str) -> tuple[CarriedRow, ...]:
    """The probability rows the previous lesson ``name`` prints below their scores."""
    rows: list[CarriedRow] = []
    for draft in softmax_rows.recognize(previous):
        scores, claimed = draft.fields.get("scores"), draft.fields.get("claimed")
        if draft.kind != "softmax" or not isinstance(scores, list) or not isinstance(claimed, list):
            continue
        if not all(isinstance(v, str) for v in [*scores, *claimed]) or len(scores) != len(claimed):
            continue
        temperature = draft.fields.get("temperature")
        rows.append(
            CarriedRow(
                values=tuple(claimed),
                scores=tuple(scores),
                temperature=temperature if isinstance(temperature, str) else None,
                source=f"{name}:{draft.line}",
            )
        )
    return tuple(rows)
