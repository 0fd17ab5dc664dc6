"""Recogniser ``heads``: per-head sizes stated in prose.

Recognises, within one sentence, a model width, a head count and a per-head size, in Chinese or
English: ``d_model = 1024、16 个头，每个头 128 维``, ``hidden size 4096 with 32 heads, so
128 dimensions per head``, ``d_model=512，8 个头，每个头分到 64 维``. The per-head size must be
the width divided by the heads (multi-head attention splits d_model evenly).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain

__all__ = ["recognize"]

NAME = "heads"
NEEDS = ("head", "头")
"""A per-head size is said with one of them (:data:`_HEADS`, :data:`_PER_HEAD`)."""

_SENTENCE = re.compile(r"[^。；;！？!?\n]+")
_WIDTH = re.compile(
    r"(?:d_?\(?model\)?|hidden(?:\s+size)?|隐藏维度|模型维度)\s*(?:[=＝:：]|of|is)?\s*(\d[\d,]*)",
    re.IGNORECASE,
)
# "(?<!\d)": a number is matched from its first digit only, so long digit runs stay linear.
_HEADS = re.compile(
    r"(?<!\d)(\d+)\s*(?:个\s*)?(?:注意力\s*)?(?:头(?![维大])|(?:attention\s+)?heads\b)"
)
_PER_HEAD = re.compile(
    r"每个?头\s*(?:分到|各|有|是)?\s*(\d+)\s*维"
    r"|(?<!\d)(\d+)\s*(?:dimensions|dims)\s+(?:per|for each|each)\s+head"
    r"|head\s+(?:size|dim(?:ension)?)\s*(?:of|is|=|:)?\s*(\d+)",
    re.IGNORECASE,
)


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim width / heads = per-head size for each such sentence."""
    for source, number in logical_lines(document):
        if "头" not in source and "head" not in source.lower():
            continue  # a per-head size needs one of them, and plain() never adds either
        text, where = plain(source)
        for sentence in _SENTENCE.finditer(text):
            part = sentence.group(0)
            width = _WIDTH.search(part)
            heads = _HEADS.search(part)
            per_head = _PER_HEAD.search(part)
            if not (width and heads and per_head):
                continue
            size = next(group for group in per_head.groups() if group)
            start = sentence.start() + min(width.start(), heads.start(), per_head.start())
            end = sentence.start() + max(width.end(), heads.end(), per_head.end())
            yield Draft(
                kind="arithmetic",
                quote=source[where[start] : where[end - 1] + 1],
                line=number,
                fields={
                    "expression": f"{width.group(1)} / {heads.group(1)}",
                    "claimed": size,
                },
                confidence=0.7,
                recognizer=NAME,
                slug=f"{width.group(1)}-{heads.group(1)}",
            )
