"""Recogniser ``dtype_savings``: memory saved by storing numbers in a narrower type.

Recognises, in English or Chinese, a narrower number type used instead of a wider one and the
share of memory that saves: ``int8 (1 byte) instead of fp16 (2 bytes) saves 25%``, a following
clause ``int4 (half a byte) saves 75%`` (against the same wider type), ``用 int8 代替 fp16 可节省
50% 显存``. The saving is 1 − narrow bits / wide bits; the type decides the bits (a byte count
printed beside it is the lesson's own gloss, and is not read). A clause that names no
percentage, or a "narrower" type that is not narrower, drafts nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from checkers.data import dtype_table
from checkers.extract.document import Document, logical_lines
from checkers.extract.draft import Draft
from checkers.extract.latex import plain

__all__ = ["TYPE_NEEDS", "TYPE_PATTERN", "recognize"]

NAME = "dtype_savings"

TYPE_PATTERN = r"(?<![A-Za-z0-9_])(" + "|".join(dtype_table().written) + r")(?![A-Za-z0-9_])"
"""A storage type named on its own (``int8``, not ``int80``), as one group; match it with
re.IGNORECASE."""
_FOLDED_TYPES = {name.casefold() for name in dtype_table().written}
TYPE_NEEDS = tuple(
    sorted(n for n in _FOLDED_TYPES if not any(o != n and o in n for o in _FOLDED_TYPES))
)
"""The type names TYPE_PATTERN matches, case-folded, less those that hold another
(``bfloat16`` holds ``float16``): a lesson that names a storage type holds one of them (the
``NEEDS`` of every recogniser whose statements name a type)."""
NEEDS = TYPE_NEEDS
_INSTEAD = re.compile(
    TYPE_PATTERN + r"[^;；。]{0,60}?\binstead\s+of\s+" + TYPE_PATTERN
    + r"|(?:用|改用|换成|使用)\s*" + TYPE_PATTERN
    + r"[^;；。]{0,30}?(?:代替|替代|取代|替换)\s*" + TYPE_PATTERN,
    re.IGNORECASE,
)  # fmt: skip
_ANY_TYPE = re.compile(TYPE_PATTERN, re.IGNORECASE)
_SAVES = re.compile(
    r"(?:\bsaves?\b|\bsaving\b|节省|节约|省下|省去|减少)[^%％;；。\d]{0,20}(\d+(?:\.\d+)?)\s*[%％]",
    re.IGNORECASE,
)
# Clauses end at ";" and at a full stop that is not a decimal point ("0.5 GiB").
_CLAUSE = re.compile(r"[^;；。]+?(?:[;；。]|\.(?!\d)|$)")


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim 1 − narrow/wide bits = the printed saving."""
    for source, number in logical_lines(document):
        if ("%" not in source and "％" not in source) or not _ANY_TYPE.search(source):
            continue  # the percent sign first: it is looked up far faster than a type name
        text, where = plain(source)
        wide: str | None = None
        for clause in _CLAUSE.finditer(text):
            part, offset = clause.group(0), clause.start()
            instead = _INSTEAD.search(part)
            if instead is not None:
                groups = instead.groups()
                narrow_at = 0 if groups[0] else 2
                narrow, wide = groups[narrow_at], groups[narrow_at + 1]
                start = instead.start(narrow_at + 1)
            else:
                types = list(_ANY_TYPE.finditer(part))
                if wide is None or len(types) != 1:
                    continue
                narrow, start = types[0].group(1), types[0].start()
            saves = _SAVES.search(part, start)
            if saves is None:
                continue
            draft = _draft(source, where, number, narrow, wide, saves.group(1) + "%",
                           offset + start, offset + saves.end())  # fmt: skip
            if draft is not None:
                yield draft


def _draft(
    source: str,
    where: Sequence[int],
    line: int,
    narrow: str,
    wide: str,
    claimed: str,
    start: int,
    end: int,
) -> Draft | None:
    narrow_bits, wide_bits = _bits(narrow), _bits(wide)
    if narrow_bits >= wide_bits:
        return None
    return Draft(
        kind="arithmetic",
        quote=source[where[start] : where[end - 1] + 1],
        line=line,
        fields={"expression": f"1 − {narrow_bits}/{wide_bits}", "claimed": claimed},
        confidence=0.7,
        recognizer=NAME,
        slug=f"{narrow.lower()}-instead-of-{wide.lower()}",
    )


def _bits(name: str) -> int:
    """Bits per number of a type name ``TYPE_PATTERN`` matched (``checkers/data/dtypes.yaml``)."""
    found = dtype_table().find(name)
    assert found is not None  # TYPE_PATTERN matches only the table's names
    return found.bits
