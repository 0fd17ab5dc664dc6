"""Relation ``gpu_count``: how many cards of a given memory a stated size needs.

Formula: N cards of M bytes each hold N · M bytes, so a size T needs at least ⌈T / M⌉ of them.
A statement that T needs (at least) N cards of M is wrong when N · M < T: the cards cannot hold
it. More cards than ⌈T / M⌉ are not flagged (headroom for activations, buffers and the CUDA
context is the author's call). The checking kind is ``arithmetic``: N × M against the printed
T; since "at least" is not a kind's notion, only a statement whose N cards hold less than T
under every reading is drafted (it then fails, with the number of cards needed in its note),
and the kind's tolerance for T's printed digits decides the rest.

Source: a card's memory is what the text prints beside the count (an A100 has 40 or 80 GB,
an H100 80 GB: NVIDIA's data sheets, ``checkers/data/accelerators.yaml``); the bound is plain
capacity arithmetic, as ZeRO §5 sizes the cards a model's states need.

Roles read: none from the section's scope; T, N and M are read from the statement's own
sentence (a count next to its card word, a size next to the cards, a size before the need).

The statement: one sentence that prints a size T, then a need (``needs``, ``requires``, ``at
least``, ``至少``, ``需要``) of N cards (``GPUs``, ``cards``, ``A100s``, ``张卡``, ``块 GPU``) of a
size M printed beside them (``3 张 80 GB 的卡``, ``2 × 80 GB GPUs``, ``4 GPUs of 24 GB``), T before
the count. A sentence with another size between T and the count, or with sharding words per
card (``per GPU``, ``每卡``: T may already be a card's share), is left alone.

Readings accepted: GB as 10^9 or 2^30 bytes for both sizes when the lesson never writes GiB (a
card's "80 GB" is 80 GiB); the count fails only when it is too few under both.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import BYTE_UNIT, Statement, sentence_start
from checkers.extract.scope import Scope
from checkers.numbers import NumberError, parse_printed, read_binary

__all__ = ["CUE", "relate"]

NAME = "gpu_count"

CUE = re.compile(r"GPU|A100|H100|H200|A800|H800|V100|4090|cards?\b|张|块", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("gpu", "a100", "h100", "h200", "a800", "h800", "v100", "4090", "card", "张", "块")
"""A statement this relation may concern names cards."""

_SIZE = r"\d+(?:\.\d+)?\s*(?:[KMGT]i?B)"
_CARDS = re.compile(
    r"(?P<need>at\s+least|needs?|requires?|需要|至少|要)\s*(?:需要\s*)?"
    r"(?P<count>\d+)\s*(?:"
    rf"(?:张|块|个)\s*(?P<m1>{_SIZE})\s*(?:的)?\s*(?:显?卡|GPU|A100|H100)"
    rf"|(?:[×x]\s*)?(?P<m2>{_SIZE})\s*(?:GPUs?|cards?|A100s?|H100s?)"
    rf"|(?:GPUs?|cards?|A100s?|H100s?)\s*(?:of|with)\s*(?P<m3>{_SIZE})"
    r")",
    re.IGNORECASE,
)
_SHARE = re.compile(
    r"per\s+(?:GPU|card|device)|each\s+(?:GPU|card)|每(?:张|块)?卡|单卡|shard|ZeRO|FSDP", re.I
)
_ANY_SIZE = re.compile(rf"(?<![\w.]){_SIZE}(?![A-Za-z])", re.IGNORECASE)


_MARGIN = 0.98
"""Cards that hold at least 98% of the size are not drafted: the printed size may be rounded up
(``208 GB`` for 207.6e9 bytes), so only a clear shortfall is a statement to check."""


def _needed(total: float, each: float) -> int:
    return int(-(-total // each))


def _term(size: str) -> str:
    """``208 GB`` as a term of an expression: ``208*GB``."""
    number, unit = re.match(r"([\d.]+)\s*(\S+)", size).groups()  # type: ignore[union-attr]
    return f"{number}*{unit}"


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim ``ceil(T / M)`` for a count of cards too few to hold T, or None."""
    text = statement.text
    cards = _CARDS.search(text)
    if cards is None:
        return None
    start = sentence_start(text, cards.start())
    said = text[start : cards.start()]
    if _SHARE.search(text[start:]):
        return None
    sizes = list(_ANY_SIZE.finditer(said))
    if len(sizes) != 1:
        return None  # no size before the need, or several: which the cards hold is unclear
    card = cards.group("m1") or cards.group("m2") or cards.group("m3")
    try:
        total, each = parse_printed(sizes[0].group(0)), parse_printed(card)
    except NumberError:
        return None
    if not (BYTE_UNIT.fullmatch(total.unit.symbol if total.unit else "")) or each.value <= 0:
        return None
    count = int(cards.group("count"))
    readings = [(total, each)]
    if statement.byte_prefixes == "either":
        readings.append((read_binary(total), read_binary(each)))
    if any(count * e.value >= t.value * _MARGIN for t, e in readings):
        return None  # the cards hold it under some reading (more cards are the author's call)
    expression = f"{count} × ({_term(each.text)})"
    return Draft(
        kind="arithmetic",
        quote=text[sizes[0].start() + start : cards.end()].strip(),
        line=statement.line,
        fields={
            "expression": expression,
            "claimed": total.text,
            "prefixes": "either" if statement.byte_prefixes == "either" else "decimal",
        },
        confidence=0.6,
        recognizer="relations",
        slug=f"gpu-count-{count}",
        note=(
            f"the sentence says {total.text} fits on {count} cards of {each.text}, which hold "
            f"only {count} × {each.text}: at least {_needed(total.value, each.value)} are "
            "needed (more cards would be headroom, which is not checked)"
        ),
    )
