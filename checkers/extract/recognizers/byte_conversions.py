"""Recogniser ``byte_conversions``: a size restated in another byte unit in the same clause.

Recognises a printed size followed at once by the same size in another byte unit, joined by
words that say it is a restatement: ``13.48 GB is 14.5 GiB``, ``140 GB，约合 130.4 GiB``,
``819,200 字节，即 800 KiB``, ``40 GiB (42.9 GB)``, ``2.5 GiB, i.e. 2.7 GB``, ``8 GiB, or about
8.6 GB``, ``3 GB，相当于 2.79 GiB``, ``13.5 GB, which is 12.6 GiB``, ``2 TB, that comes to 1.82
TiB``, ``7.0 GB, or 6.52 GiB.``, ``30 GiB (= 32.2 GB)``, ``50 GB（即 46.57 GiB）``. The
second size is the claim: the first one converted,
``(13.48*GB)`` against ``14.5 GiB``, an ``arithmetic`` claim. A first size printed with
decimals (``13.48 GB``) or marked approximate is itself rounded: it stands for anything its
digits round from (``carried``), so a second size computed from the unrounded value holds.

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
GB``, ``24 GB 的显存，约合 22.4 GiB``) or the number type it is stored in (``16.06 GB in bf16,
or 14.96 GiB``). Alternatives (``16 GB or 32 GiB``) are not restatements: a bare ``or`` counts
only after a comma, with nothing but the end of the clause after the second size, and only
when the second size is within a factor of 1.25 of the first one converted (``16 GB, or 24
GiB.`` offers a choice; a restatement is off by a slip at most, 7.4 % when GB and GiB are
swapped).

A restatement between GB and GiB (or MB and MiB…) that holds only if GB means GiB (``16 GB (16
GiB)``, ``16,384 MB, i.e. 16 GiB``) says the two units are one: the author uses GB for GiB,
which is a reading, not a conversion, and nothing is drafted. Every other statement is read
with GB as 10⁹ bytes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from checkers.extract.document import Block, Document, line_at
from checkers.extract.draft import Draft
from checkers.kinds import ALL_KINDS
from checkers.kinds.base import Context
from checkers.numbers import NumberError, parse_printed

__all__ = ["recognize", "time_cue_lines", "two_within"]

NAME = "byte_conversions"

_UNIT = r"(?:KiB|MiB|GiB|TiB|KB|MB|GB|TB|bytes|字节)"
_APPROX = r"(?:about|roughly|approximately|around|nearly|约|大约|~|∼)"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_PAIR = re.compile(
    rf"(?<![\w.,^×*/+−–—-])(?<![×*/+−–—-]\s)(?P<first>{_NUMBER})\s*(?P<first_unit>{_UNIT})(?![A-Za-z])"
    # what the size is of, which does not change its subject: "8 GiB of cache, about 8.6 GB"
    r"(?:\s+of\s+(?:the\s+)?(?:KV\s+)?(?:cache|memory|VRAM|storage|disk\s+space|weights)"
    r"|\s+(?:in|at)\s+(?:fp32|fp16|bf16|fp8|int8|int4|float32|float16|bfloat16|FP32|FP16|BF16"
    r"|FP8|INT8|INT4)(?![\w-])|\s+on\s+disk|\s*(?:的\s*)?(?:显存|内存|缓存))?"
    r"(?:"
    # "13.48 GB is 14.5 GiB", "2.5 GiB, i.e. 2.7 GB", "8 GiB, or about 8.6 GB". No two runs of
    # white space stand side by side with nothing required between: a long run would be split
    # every way (quadratic in its length).
    rf"\s*(?P<link>(?:[,，]\s*)?(?:is|are|i\.e\.,?|that\s+is,?|or\s+{_APPROX}|{_APPROX}"
    r"|in\s+other\s+words,?|(?:which|that)\s+(?:is|are|comes\s+to|works\s+out\s+to)|that['’]s"
    r"|(?P<bare_or>or)"
    r"|即|合|约合|折合|相当于|换算成|也就是|大约是|约是|正好|恰好|exactly|precisely))"
    rf"\s*(?:(?P<approx>{_APPROX})\s*)?"
    rf"(?P<second>{_NUMBER})\s*(?P<second_unit>{_UNIT})(?![A-Za-z\d])"
    # "40 GiB (42.9 GB)", "40 GiB（约 42.9 GB）"
    rf"|\s*[(（]\s*(?:(?:=|＝|i\.e\.,?|即|合|约合|折合)\s*)?(?:(?P<paren_approx>{_APPROX}|≈)\s*)?"
    rf"(?P<paren>{_NUMBER})\s*"
    rf"(?P<paren_unit>{_UNIT})\s*[)）]"
    r")",
    re.IGNORECASE,
)
_CUE = re.compile(r"\d\s*(?:[KMGT]i?B|bytes|字节)", re.IGNORECASE)
_LESSON_CUE = re.compile(
    r"[0-9０-９⁰¹²³⁴⁵⁶⁷⁸⁹][\s>$]*(?:(?P<size>(?i:[KMGT]i?B|bytes|字节))"
    r"|(?:个\s*)?(?:ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|Seconds?|Minutes?"
    r"|Hours?|Days?|Weeks?|毫秒|秒|分钟|小时|天|周|星期)(?![A-Za-z0-9]))"
)
"""A match of :data:`_CUE` as it stands in the lesson's source (a paragraph's lines are read
joined by a space, and between two of them the source holds only white space and a quote's
``>`` markers), or a number with a unit of time (the digit before it may be an exponent's,
``10⁵ s``, and a LaTeX span may end between, ``$7.26 \\times 10^5$ 秒``): what the recogniser
``time_conversions`` reads. One pass over the lesson finds both (:func:`_cues`); a lesson with
fewer than two sizes has no text that :func:`recognize` reads. Its digits are ASCII, full-width
and superscript ones, spelled out: ``\\d`` in a character class makes the pass some 70 % slower."""
_LAST: list[tuple[Document, tuple[list[int], list[int]]]] = []
"""The cues of the last lesson read (:func:`_cues`), kept for ``time_conversions``, which reads
the same lesson next."""


def _cues(document: Document) -> tuple[list[int], list[int]]:
    """The offset of each size :data:`_LESSON_CUE` finds in the lesson, and of each number with
    a unit of time, in order. Computed once a lesson: the two recognisers that read them would
    each pass the whole lesson, which costs more than anything else they do."""
    if _LAST and _LAST[0][0] is document:
        return _LAST[0][1]
    sizes: list[int] = []
    times: list[int] = []
    for match in _LESSON_CUE.finditer(document.text):
        (sizes if match.start("size") >= 0 else times).append(match.start())
    _LAST[:] = [(document, (sizes, times))]
    return sizes, times


def _lines(document: Document, offsets: list[int]) -> list[int]:
    """The 1-based lines of ``offsets`` (in order), a line once for each; none for fewer than
    two offsets. A lesson without a carriage return has its line breaks counted between one
    offset and the next (:meth:`Document.line_of` would split the whole lesson first)."""
    if len(offsets) < 2:
        return []
    text = document.text
    if "\r" in text:
        return [document.line_of(at) for at in offsets]
    lines, line, previous = [], 1, 0
    for at in offsets:
        line += text.count("\n", previous, at)
        lines.append(line)
        previous = at
    return lines


def time_cue_lines(document: Document) -> list[int]:
    """The 1-based line of every number with a unit of time in the lesson (:data:`_LESSON_CUE`),
    in order, a line once for each; none when it has fewer than two."""
    return _lines(document, _cues(document)[1])


def two_within(lines: list[int], block: Block) -> bool:
    """True when two of ``lines`` (sorted) lie within the block's lines."""
    if not block.lines:
        return False
    first, last = block.lines[0].number, block.lines[-1].number
    return bisect.bisect_right(lines, last) - bisect.bisect_left(lines, first) >= 2


_CHAINS_LINK = re.compile(r"^[\s,]*(?:which|that)?\s*(?:is|are)\s+" + _APPROX, re.IGNORECASE)
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
    lines = _lines(document, _cues(document)[0])
    if not lines:
        return  # one pass over the lesson: most print fewer than two sizes
    for block in document.blocks:
        if not two_within(lines, block):
            continue  # a block with fewer than two sizes on its lines
        for text, starts in _pieces(block):
            if len(_CUE.findall(text)) < 2:
                continue
            for match in _PAIR.finditer(text):
                draft = _draft(document, match, text, starts)
                if draft is not None:
                    yield draft


_APPROX_BEFORE = re.compile(rf"{_APPROX}\s*\Z", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*(?:[.;:!?。；：！？)）]|,(?!\d)|，|$)")
_OR_BAND = 1.25
"""Most a second size after a bare ``or`` may be off the first one converted (either way) and
still be read as its restatement: a slip, or GB and GiB swapped (×1.074), stays within it."""


def _holds(fields: dict[str, object]) -> bool:
    """True when the arithmetic kind accepts the fields."""
    kind = ALL_KINDS["arithmetic"]
    try:
        return kind.check(kind.Input.model_validate(fields), Context()).ok
    except (ValueError, TypeError, ArithmeticError):
        return False


def _restates(fields: dict[str, object], text: str, end: int) -> bool:
    """For a size after a bare ``, or``: the clause ends right after it, and it is within
    :data:`_OR_BAND` of the first size converted (decimal GB, or either reading between decimal
    units)."""
    if not _CLAUSE_END.match(text, end):
        return False
    try:
        claimed = parse_printed(str(fields["claimed"]).lstrip("≈ "))
        first = float(str(fields["expression"]).strip("()").split("*")[0])
    except (NumberError, ValueError):
        return False
    unit = str(fields["expression"]).strip("()").partition("*")[2]
    value = first * _BYTES.get(unit, 1.0)
    if value <= 0 or claimed.value <= 0:
        return False
    ratio = claimed.value / value
    return any(1 / _OR_BAND <= ratio * f <= _OR_BAND for f in (1.0, 1.024, 1.024**2, 1.024**3))


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
    fields: dict[str, object] = {"expression": expression, "claimed": claimed}
    if units & _BINARY and units & _DECIMAL and _holds({**fields, "prefixes": "binary"}):
        return None  # "16 GB (16 GiB)": right only with GB as GiB, one unit named twice
    if match["bare_or"] is not None and not (
        match["link"].lstrip().startswith((",", "，")) and _restates(fields, text, match.end())
    ):
        return None  # "16 GB, or 32 GiB for the large model": a choice, not a restatement
    fields["prefixes"] = prefixes
    if "." in plain_first or _APPROX_BEFORE.search(text, max(0, match.start() - 16), match.start()):
        fields["carried"] = [plain_first]  # itself rounded: any value its digits round from
    line = line_at(starts, claimed_at)[0]
    return Draft(
        kind="arithmetic",
        quote=text[match.start() : match.end()].strip(),
        line=line,
        fields=fields,
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
