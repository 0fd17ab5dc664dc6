"""Recogniser ``heading_products``: a product of counts stated in a heading, and its value given
by a line of the section below it.

Recognises a heading that multiplies two counts of named units and states no result
(``## One step: 16 sequences × 512 tokens``, ``### 每步 8 条序列 × 2048 个 token``), and, in its
section, a line (a list item or a paragraph line) whose label names the second unit and says
the figure is the whole product (``per step``, ``per batch``, ``total``, ``in all``, ``每步``,
``每批``, ``总``, ``合计``) and gives one number: ``- tokens per step: 8,192``, ``- 每步 token
总数：16,384``. The line's number is the claim, ``16 × 512`` its expression (an ``arithmetic``
claim quoting the line).

The relation is taken only where the text states it: the heading has no ``=`` (a worked
product is the recogniser ``chains``'s), the label names the product's unit and a word of the
whole, and not a share of the first unit (``tokens per sequence: 512`` is a factor, not the
product); a line with more than one number, or a label that names neither, drafts nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "heading_products"

_COUNT = r"(\d{1,3}(?:,\d{3})+|\d+)"
_UNIT = r"([A-Za-z]{3,}|[\u4e00-\u9fff]{1,4}|token)"
_PRODUCT = re.compile(
    _COUNT + r"\s*(?:个|条)?\s*" + _UNIT + r"\s*[×x*]\s*" + _COUNT + r"\s*(?:个|条)?\s*" + _UNIT
)
_LABELLED = re.compile(
    r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?P<label>[^:：\d]{2,60}?)(?:\*\*)?\s*[:：]\s*(?:\*\*)?"
    r"(?P<value>\d{1,3}(?:,\d{3})+|\d+)(?:\*\*)?\s*(?P<rest>[^\d]*)$"
)
_WHOLE = re.compile(
    r"\bper\s+(?:step|batch|iteration|update)\b|\btotal\b|\bin\s+all\b|\baltogether\b"
    r"|每步|每批|每个?\s*batch|总|合计",
    re.IGNORECASE,
)


def _noun(word: str) -> str:
    """A unit word without its plural ``s`` and case (``Tokens`` → ``token``)."""
    lower = word.lower()
    return lower[:-1] if lower.endswith("s") and len(lower) > 3 else lower


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for a line that gives the product its heading states."""
    for blocks in document.sections():
        heading = blocks[0]
        if heading.kind != "heading" or not heading.lines:
            continue
        title = heading.lines[0].text
        product = _PRODUCT.search(title)
        if product is None or "=" in title or "≈" in title:
            continue
        first, second = _noun(product.group(2)), _noun(product.group(4))
        if first == second:
            continue
        for block in blocks[1:]:
            if block.kind != "paragraph":
                continue
            for line in block.lines:
                labelled = _LABELLED.match(line.text)
                if labelled is None or re.search(r"\d", labelled.group("rest")):
                    continue
                label = labelled.group("label")
                words = {_noun(w) for w in re.findall(r"[A-Za-z]+", label)}
                names_unit = second in words or second in label.lower()
                if not names_unit or not _WHOLE.search(label):
                    continue
                if re.search(r"per\s+" + re.escape(first), label, re.IGNORECASE):
                    continue  # "tokens per sequence": the factor, not the product
                yield Draft(
                    kind="arithmetic",
                    quote=line.text.strip(),
                    line=line.number,
                    fields={
                        "expression": f"{product.group(1)} × {product.group(3)}",
                        "claimed": labelled.group("value"),
                    },
                    confidence=0.55,
                    recognizer=NAME,
                    slug=f"{product.group(1)}-x-{product.group(3)}",
                    note=f"the heading's product {product.group(0)} (line {heading.line})",
                )
