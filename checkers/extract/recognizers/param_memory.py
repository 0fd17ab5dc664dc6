"""Recogniser ``param_memory``: a model's weights in a storage type, stated in prose.

Recognises, within one logical line, a parameter count (``15 亿``, ``7B``, ``1.1 亿``) and a
storage type followed directly by the memory it takes: ``换成 fp16 则为 3 GB``, ``用 int8：70 GB``,
``a 7B model in fp16 takes 14 GB``. The memory is count × bytes per number of the type.
Counts followed by 字节/bytes are sizes, not parameters, and are skipped; the line must name
one parameter count (it may repeat, in any notation: ``70B（700 亿）``), or nothing is drafted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import dtype_table, parse_count
from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.extract.recognizers.dtype_savings import TYPE_NEEDS, TYPE_PATTERN

__all__ = ["recognize"]

NAME = "param_memory"
NEEDS = TYPE_NEEDS
"""Every statement :data:`_TAKES` reads names its storage type."""

_COUNT = re.compile(
    r"(?<![\d.,])(\d+(?:\.\d+)?)\s*(万亿|亿|万|[KMBT])(?![A-Za-z])(?!\s*(?:字节|bytes?\b))"
)
_TAKES = re.compile(
    TYPE_PATTERN + r"\s*"
    r"(?:(?:存储|计算|的话)\s*)?"
    r"(?:则为|则是|则需|就是|需要|只要|为|是|占|[:：]|"
    r"(?:it\s+)?(?:takes|needs|requires|is|would\s+(?:take|need|be))\b)"
    r"\s*(?:约|大约|about|roughly|≈|~)?\s*(\d+(?:\.\d+)?\s*(?:GB|MB|TB|GiB|MiB|TiB))(?![A-Za-z])",
    re.IGNORECASE,
)
_MEMORY = re.compile(r"\d\s*[GMT]i?B", re.IGNORECASE)
"""Part of every match of _TAKES (its printed memory), looked for first: a search for it skips
to the digits, while one for _TAKES tries its type names at every character."""
_POWER = {"万": 4, "亿": 8, "万亿": 12, "K": 3, "M": 6, "B": 9, "T": 12}
"""Power of ten of each count suffix."""


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim count × bytes per number = the printed memory."""
    prefixes = document.byte_prefixes
    for source, number in logical_lines(document):
        if not (_MEMORY.search(source) and _TAKES.search(source)):
            continue
        text, where = plain(source)
        counts: dict[float, tuple[str, str]] = {}  # by value: "70B" and "700 亿" are one count
        for match in _COUNT.finditer(text):
            digits, scale = match.group(1), match.group(2).upper()
            printed = parse_count(f"{digits}{scale}")
            if printed is not None:
                counts.setdefault(printed.value, (digits, scale))
        if len(counts) != 1:
            continue  # no parameter count, or several: which one is meant is unclear
        ((digits, scale),) = counts.values()
        for takes in _TAKES.finditer(text):
            dtype, memory = takes.group(1).lower(), takes.group(2)
            per_number = _bytes(dtype)
            per_text = f"{per_number:g}"
            yield Draft(
                kind="arithmetic",
                quote=source[where[takes.start()] : where[takes.end() - 1] + 1],
                line=number,
                fields={
                    "expression": f"{digits} × 10^{_POWER[scale]} × {per_text}",
                    "claimed": memory,
                    "prefixes": prefixes,
                },
                confidence=0.6,
                recognizer=NAME,
                slug=f"{digits}{scale}-{dtype}",
            )


def _bytes(name: str) -> float:
    """Bytes per number of a type name ``TYPE_PATTERN`` matched (``checkers/data/dtypes.yaml``)."""
    found = dtype_table().find(name)
    assert found is not None  # TYPE_PATTERN matches only the table's names
    return found.bytes
