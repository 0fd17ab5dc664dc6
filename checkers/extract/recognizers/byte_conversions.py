"""Recogniser ``byte_conversions``: a size restated in another byte unit in the same clause.

Recognises a printed size followed at once by the same size in another byte unit, joined by
words that say it is a restatement: ``13.48 GB is 14.5 GiB``, ``140 GB，约合 130.4 GiB``,
``819,200 字节，即 800 KiB``, ``40 GiB (42.9 GB)``, ``2.5 GiB, i.e. 2.7 GB``, ``8 GiB, or about
8.6 GB``, ``3 GB，相当于 2.79 GiB``. The second size is the claim: the first one converted,
``(13.48*GB)`` against ``14.5 GiB``, an ``arithmetic`` claim.

Units: KB/MB/GB/TB are decimal (10³ … 10¹²) and KiB/MiB/GiB/TiB binary (2¹⁰ … 2⁴⁰). A statement
that restates GB in GiB (or the reverse) uses GB as 10⁹ bytes, or it would restate a size as
itself; so a GiB figure is always smaller than its GB figure (1 GiB = 1.074 GB). Between two
decimal units (``512 KB (0.5 MB)``) a lesson that never writes KiB may mean powers of 1024, and
both readings are tried (the document's ``byte_prefixes``). The tolerance is the claimed
number's printed digits, or its significant figures when it is marked approximate (``about``,
``约``, ``~``).

Relations written with ``=``, ``≈``, ``约为`` or "which is about" are the recogniser ``chains``'s
and are left to it; so are sizes that are a factor of a product (``2 × 8 GB (16 GB)``), and a
size followed by words before the second one (``8 GiB per chat, about 8.6 GB``: the words may
change the subject), except those naming what the size is of (``8 GiB of cache, about 8.6
GB``, ``24 GB 的显存，约合 22.4 GiB``). Alternatives (``16 GB or 32 GiB``) are not restatements:
``or`` counts only as ``or about``/``or roughly``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from checkers.extract.document import Block, Document, line_at
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "byte_conversions"

_UNIT = r"(?:KiB|MiB|GiB|TiB|KB|MB|GB|TB|bytes|字节)"
_APPROX = r"(?:about|roughly|approximately|around|nearly|约|大约|~|∼)"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_PAIR = re.compile(
    rf"(?<![\w.,^×*/+−-])(?<![×*/+−-]\s)(?P<first>{_NUMBER})\s*(?P<first_unit>{_UNIT})(?![A-Za-z])"
    # what the size is of, which does not change its subject: "8 GiB of cache, about 8.6 GB"
    r"(?:\s+of\s+(?:the\s+)?(?:KV\s+)?(?:cache|memory|VRAM|storage|disk\s+space)"
    r"|\s*的?\s*(?:显存|内存|缓存))?"
    r"(?:"
    # "13.48 GB is 14.5 GiB", "2.5 GiB, i.e. 2.7 GB", "8 GiB, or about 8.6 GB"
    rf"\s*(?P<link>,?\s*(?:is|are|i\.e\.,?|that\s+is,?|or\s+{_APPROX}|{_APPROX}|in\s+other\s+words,?)"
    rf"|[,，]?\s*(?:即|合|约合|折合|相当于|换算成|也就是|大约是|约是|正好|恰好|exactly|precisely))"
    rf"\s*(?P<approx>{_APPROX})?\s*"
    rf"(?P<second>{_NUMBER})\s*(?P<second_unit>{_UNIT})(?![A-Za-z\d])"
    # "40 GiB (42.9 GB)", "40 GiB（约 42.9 GB）"
    rf"|\s*[(（]\s*(?P<paren_approx>{_APPROX}|≈)?\s*(?P<paren>{_NUMBER})\s*"
    rf"(?P<paren_unit>{_UNIT})\s*[)）]"
    r")",
    re.IGNORECASE,
)
_CUE = re.compile(r"\d\s*(?:[KMGT]i?B|bytes|字节)", re.IGNORECASE)
_LESSON_CUE = re.compile(r"\d[\s>]*(?:[KMGT]i?B|bytes|字节)", re.IGNORECASE)
"""A match of :data:`_CUE` as it stands in the lesson's source: a paragraph's lines are read
joined by a space, and between two of them the source holds only white space and a quote's
``>`` markers. A lesson with fewer than two has no text that :func:`recognize` reads."""
_CHAINS_LINK = re.compile(r"^\s*(?:which|that)?\s*(?:is|are)\s+" + _APPROX, re.IGNORECASE)
"""A link the recogniser ``chains`` reads as ≈ ("which is roughly")."""
_DECIMAL = frozenset({"KB", "MB", "GB", "TB"})
_BINARY = frozenset({"KiB", "MiB", "GiB", "TiB"})
_BYTES = {u: 1000.0**p for p, u in enumerate(("KB", "MB", "GB", "TB"), start=1)} | {
    u: 1024.0**p for p, u in enumerate(("KiB", "MiB", "GiB", "TiB"), start=1)
}
_CANONICAL = {u.lower(): u for u in (*_DECIMAL, *_BINARY)} | {"bytes": "bytes", "字节": "字节"}


def _canonical(unit: str) -> str:
    return _CANONICAL[unit.lower()]


def _pieces(block: Block) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """The text a reader follows (a paragraph's wrapped lines joined) with (offset, line) of
    each source line in it."""
    if block.kind in ("paragraph", "heading"):
        text, starts = "", []
        for line in block.lines:
            starts.append((len(text), line.number))
            text += line.text.strip() + " "
        yield text, starts
        return
    if block.kind == "table":
        return  # a table's conversions are table_totals's (a GB column beside a GiB column)
    for line in block.lines:
        yield line.text, [(0, line.number)]


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for each size restated in another byte unit."""
    if len(list(islice(_LESSON_CUE.finditer(document.text), 2))) < 2:
        return  # one pass over the lesson: most print fewer than two sizes
    for block in document.blocks:
        for text, starts in _pieces(block):
            if len(_CUE.findall(text)) < 2:
                continue
            for match in _PAIR.finditer(text):
                draft = _draft(document, match, text, starts)
                if draft is not None:
                    yield draft


def _draft(
    document: Document, match: re.Match[str], text: str, starts: list[tuple[int, int]]
) -> Draft | None:
    first_unit = _canonical(match["first_unit"])
    if match["paren"] is not None:
        second, second_unit, approx = match["paren"], match["paren_unit"], match["paren_approx"]
        claimed_at = match.start("paren")
    else:
        link = match["link"] or ""
        if _CHAINS_LINK.match(link + " " + (match["approx"] or "")):
            return None  # "which is roughly 29.8 GB": the recogniser chains reads it
        second, second_unit = match["second"], match["second_unit"]
        approx = match["approx"] or (link.strip(" ,") if re.search(_APPROX, link, re.I) else None)
        claimed_at = match.start("second")
    second_unit = _canonical(second_unit)
    if first_unit == second_unit or {first_unit, second_unit} <= {"bytes", "字节"}:
        return None
    units = {first_unit, second_unit}
    # GB restated in GiB: GB is decimal here. Between decimal units alone, the lesson's usage.
    prefixes = "decimal" if units & _BINARY else document.byte_prefixes
    plain_first = match["first"].replace(",", "")
    factor = "" if first_unit in ("bytes", "字节") else f"*{first_unit}"
    expression = f"({plain_first}{factor})"
    claimed = f"{second} {second_unit}"
    if approx:
        claimed = f"≈ {claimed}"
    line = line_at(starts, claimed_at)[0]
    return Draft(
        kind="arithmetic",
        quote=text[match.start() : match.end()].strip(),
        line=line,
        fields={"expression": expression, "claimed": claimed, "prefixes": prefixes},
        confidence=0.8,
        recognizer=NAME,
        slug=f"{match['first']}-{first_unit}-in-{second_unit}",
        note=(
            f"{match['first']} {first_unit} restated in {second_unit}"
            + (
                f" (1 {binary} = {_BYTES[binary] / _BYTES[binary[0] + 'B']:.3f} {binary[0]}B, "
                f"so the {binary} figure is the smaller)"
                if (binary := next(iter(sorted(units & _BINARY)), "")) and units & _DECIMAL
                else ""
            )
        ),
    )
