"""Recogniser ``table_rows``: a table column that each row derives from other cells of its row.

Recognises, in a GFM table, a column whose header says how its cells follow from other columns
of the same row:

* a **product column**: one header names a rate per item (``Bytes/param``, ``bytes per
  token``, ``Params each``, ``Size per layer``, ``每层参数``, ``单个大小``) and another names the
  items counted (``Params``, ``Tokens``, ``Layers``, ``Count``, ``#``, ``数量``, ``层数``): a
  number column to the right of both (``Memory``, ``Total``) is their product;
* a **quotient column**: a header ``X per Y``, ``X / Y`` or ``每Y X`` whose X is a word of
  one column's header and Y of another's (``Memory per GPU`` after ``Memory`` and ``GPUs``):
  the first over the second;
* a **share column of a table without a total row** (``%``, ``Share``, ``占比``, ``比例``):
  the number in the nearest column to its left over that column's sum;
* a **formula column** (``Formula``, ``Calculation``, ``计算``, ``公式``) whose cells are
  arithmetic of printed numbers (``7B × 2 bytes``), beside the number column to its right
  that holds their values.

Header words only propose a relation; the rows confirm it. Each row is recomputed under each
reading of its units (KB/MB/GB as powers of 1000, or of 1024 in a lesson that never writes
KiB/GiB), with every cell standing for what its printed digits round from (a decimal or an
approximate cell, ``≈ 14 GB`` at its significant figures; a whole number is exact, and ``7B``
is 7 × 10⁹ as the other recognisers read it), and a relation is drafted only when, under one
reading, more than half of its rows (at least two) agree: the column then *is* that relation,
and every row becomes an ``arithmetic`` claim whose note says how many rows agree. A table
where no reading fits most rows (a column that merely looks like a product, a table mixing
models of other conventions) drafts nothing.

:func:`row_derivations` is the one reading of these relations: ``table_totals`` asks it which
cells above a total row are wrong in their own row, so that a total right from their true
values is reported as carrying that row's error, not as a second mistake.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from checkers.data import dtype_table
from checkers.expr import ExprError, Node, evaluate, names, parse
from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft
from checkers.intervals import printed_interval
from checkers.numbers import BYTE_PREFIXES, NumberError, Printed, byte_units, parse_printed

__all__ = ["TOTAL_ROW", "RowDerivation", "recognize", "row_derivations"]

NAME = "table_rows"
DEFERS = True
"""A GiB or share column ``table_totals`` already relates, a memory cell ``memory_tables``
drafts, or a training-memory cell ``relations`` recomputes from the section's quantities (listed
before it), is not drafted again: one mistake, one failure."""

TOTAL_ROW = re.compile(
    r"^(?:total|sum|grand total|overall|sub-?total|合计|总计|总和|小计|共计"
    r"|(?!(?:running|cumulative)\b)[A-Za-z][\w-]{1,20}\s+total"
    r"|(?!累计)[\u4e00-\u9fff]{1,4}(?:合计|总计|小计))\s*[:：]?$",
    re.IGNORECASE,
)
"""The label of a total row: the bare word, or the word after one word that names what the
rows above make up ("block total", "model total", "每层合计"); not "Total per block" or "Total
(12 blocks)", which sum a part or a multiple, and not a running or cumulative total (累计),
which sums every row above rather than back to the previous total."""

_MARKUP = re.compile(r"\*\*|__|`")
_NOTE = re.compile(r"\s*[（(].*?[)）]\s*")
_HEADER_UNIT = re.compile(
    r"[（(]\s*(%|KiB|MiB|GiB|TiB|KB|MB|GB|TB|bytes|字节|K|M|B|T|万|亿|millions?|billions?)\s*[)）]"
)
_HEADER_UNIT_SYMBOL = {"millions": "M", "million": "M", "billions": "B", "billion": "B"}
_CELL = re.compile(
    r"^(?:~|≈|约)?\s*\d(?:[\d,]*\d)?(?:\.\d+)?\s*"
    r"(?:%|KiB|MiB|GiB|TiB|KB|MB|GB|TB|bytes?|字节|K|M|B|G|T|万|亿)?$"
)
_MIN_AGREEING = 2

_RATE = re.compile(
    r"(?:(?<![A-Za-z])per[\s-]+|/\s*|每\s*)(?P<item>[A-Za-z]+|[\u4e00-\u9fff]{1,2}|GPU)"
    r"|(?P<each>\beach\b|\bapiece\b|单个|每个)",
    re.IGNORECASE,
)
_COUNT_HEADER = re.compile(
    r"^(?:#\s*\w*|count|number(?:\s+of\s+\w+)?|num|n|qty|quantity|数量|个数|次数|#)$", re.IGNORECASE
)
_BYTES_WORD = re.compile(r"bytes?|字节", re.IGNORECASE)
"""A rate header whose plain cells are bytes (``Bytes/param``, ``每参数字节``)."""
_QUOTIENT = re.compile(
    r"^(?P<x>[A-Za-z][A-Za-z ]{1,30}?)\s*(?:(?<![A-Za-z])per\s+|/\s*)(?P<y>[A-Za-z]{2,20})$"
    r"|^每\s*(?P<zy>[A-Za-z]{2,10}|[\u4e00-\u9fff]{1,2})\s*(?:的)?\s*(?P<zx>[\u4e00-\u9fff]{2,4})$",
    re.IGNORECASE,
)
_SHARE_HEADER = re.compile(
    r"^(?:%|share|percent(?:age)?|proportion|fraction|% of (?:total|all)|share of total|"
    r"占比|比例|百分比)$",
    re.IGNORECASE,
)
_FORMULA_HEADER = re.compile(
    r"^(?:formula|calculation|calc|computation|derivation|breakdown|math|how|how computed|"
    r"expression|计算|公式|算式|推导|计算过程|计算方式|计算公式|明细)$",
    re.IGNORECASE,
)
_FORMULA_CELL = re.compile(r"\d\s*(?:[KMBT]|万|亿|[KMGT]i?B|bytes?|字节)?\s*[×x*·/+]\s*\(?\s*\d")
_FREE_WORD = re.compile(r"[A-Za-z_\u4e00-\u9fff]+")
_FORMULA_UNITS = re.compile(
    r"(\d(?:[\d,]*\d)?(?:\.\d+)?)\s*(KiB|MiB|GiB|TiB|KB|MB|GB|TB)(?![A-Za-z])"
)
_FORMULA_COUNTS = re.compile(r"(\d(?:[\d,]*\d)?(?:\.\d+)?)\s*([KMBT](?![A-Za-z])|万|亿)")
_FORMULA_BYTES = re.compile(r"(?<=\d)\s*(?:bytes?|字节)(?![A-Za-z])")
_TIMES_X = re.compile(r"(?<=[\d)])\s*[xX]\s*(?=[\d(])")


@dataclass(frozen=True)
class _Value:
    """A table cell that holds one printed number."""

    text: str
    """The cell as the claim prints it (markup removed, the header's unit added to a plain
    number: ``14 GB``)."""
    printed: Printed
    """Its reading (value in the unit family's base, precision)."""
    term: str
    """The number as a term of an expression the ``arithmetic`` kind evaluates (``(7*1e9)``,
    ``(14*GB)``, ``2``)."""
    number: str
    """The number alone, as printed without separators (``1700.0``)."""


@dataclass(frozen=True)
class RowDerivation:
    """One cell of a column that its row derives from its other cells."""

    row: int
    """Index of the row in the table's body."""
    column: int
    """Index of the derived column."""
    expression: str
    """What the cell is, in the ``arithmetic`` kind's syntax (``(7*1e9) × 2``)."""
    claimed: str
    """The cell as printed (``14 GB``)."""
    carried: tuple[str, ...]
    """The expression's literals printed as roundings (decimals and approximate cells)."""
    agrees: bool
    """Whether the row's cell holds under the table's reading."""
    value: float
    """The recomputed value in base units (bytes, ones, fraction) under the table's reading."""
    unit_factor: float
    """Base units per unit of the printed cell under the table's reading (10⁹ for GB read as
    decimal): what a total that adds this cell's number divides the true value by."""
    note: str
    """What the column is, the reading used and how many rows agree under it."""


def _label(text: str) -> str:
    if not ("(" in text or "（" in text or "*" in text or "_" in text or "`" in text):
        return text.strip()  # nothing _MARKUP or _NOTE would change: most cells
    return _NOTE.sub(" ", _MARKUP.sub("", text)).strip()


def _header_unit(header: str) -> str:
    match = _HEADER_UNIT.search(header)
    if match is None:
        return ""
    unit = match.group(1)
    return _HEADER_UNIT_SYMBOL.get(unit.lower(), unit)


def _value(text: str, header_unit: str, sized: bool = False) -> _Value | None:
    """The cell as a printed number (the header's unit when it prints none), or None. A bare
    ``G`` (``16G``) is giga: GB in a column about sizes (``sized``), else 10⁹ of a count."""
    clean = _MARKUP.sub("", text).strip()
    if not _CELL.match(clean):
        return None
    if clean.endswith("G"):
        clean = clean[:-1].rstrip() + (" GB" if sized else "B")
    if header_unit and clean[-1].isdigit():
        clean = f"{clean}{header_unit}" if header_unit in "%KMBT万亿" else f"{clean} {header_unit}"
    try:
        printed = parse_printed(clean)
    except NumberError:
        return None
    number = re.search(r"\d(?:[\d,]*\d)?(?:\.\d+)?", clean)
    assert number is not None
    digits = number.group(0).replace(",", "")
    unit = printed.unit
    if unit is None or unit.symbol in ("bytes", "byte", "字节"):
        term = digits
    elif unit.family == "count":
        term = f"({digits}*1e{round(math.log10(unit.factor))})"
    elif unit.family == "bytes":
        term = f"({digits}*{unit.symbol})"
    else:
        return None  # a percent or a ratio is never a factor of these relations
    return _Value(clean, printed, term, digits)


def _rounded(value: _Value) -> bool:
    return "." in value.number or value.printed.approximate


def _interval(value: _Value, reading: str) -> tuple[float, float]:
    """What the cell's printed digits stand for, in base units, under ``reading``."""
    base = _base(value.printed, reading)
    if not _rounded(value):
        return base, base
    half = value.printed.half_width * (base / value.printed.value if value.printed.value else 1)
    return base - half, base + half


def _base(printed: Printed, reading: str) -> float:
    unit = printed.unit
    if reading == "binary" and unit is not None and unit.symbol in BYTE_PREFIXES:
        return printed.value / unit.factor * byte_units("binary")[unit.symbol]
    return printed.value


def _factor(printed: Printed, reading: str) -> float:
    unit = printed.unit
    if unit is None or unit.family == "percent":
        return 1.0 if unit is None else unit.factor
    if reading == "binary" and unit.symbol in BYTE_PREFIXES:
        return byte_units("binary")[unit.symbol]
    return unit.factor


def _holds(claimed: Printed, low: float, high: float, reading: str) -> bool:
    """The printed cell is a rounding of some value in [low, high]."""
    centre = _base(claimed, reading)
    half = claimed.half_width * (centre / claimed.value if claimed.value else 1)
    slack = 1e-9 * max(abs(centre), half) + 1e-15
    return low - half - slack <= centre <= high + half + slack


@dataclass(frozen=True)
class _Candidate:
    """A row's statement of a relation, before the rows vote on it."""

    row: int
    column: int
    expression: str
    claimed: _Value
    carried: tuple[str, ...]
    bounds: dict[str, tuple[float, float, float]]
    """Per reading: (low, high, point) of the recomputed value in base units."""


def _mul(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    products = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return min(products), max(products)


def _div(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float] | None:
    if b[0] <= 0 <= b[1]:
        return None
    return _mul(a, (1 / b[1], 1 / b[0]))


def _readings(prefixes: str) -> tuple[str, ...]:
    return ("decimal", "binary") if prefixes == "either" else ("decimal",)


def _two_operand(
    row: int,
    column: int,
    a: _Value,
    b: _Value,
    claimed: _Value,
    operator: str,
    prefixes: str,
) -> _Candidate | None:
    bounds: dict[str, tuple[float, float, float]] = {}
    for reading in _readings(prefixes):
        ia, ib = _interval(a, reading), _interval(b, reading)
        pa, pb = _base(a.printed, reading), _base(b.printed, reading)
        if operator == "×":
            low, high = _mul(ia, ib)
            point = pa * pb
        else:
            quotient = _div(ia, ib)
            if quotient is None or pb == 0:
                return None
            (low, high), point = quotient, pa / pb
        bounds[reading] = (low, high, point)
    carried = tuple(sorted({v.number for v in (a, b) if _rounded(v)}))
    return _Candidate(row, column, f"{a.term} {operator} {b.term}", claimed, carried, bounds)


def _row_candidates(
    lefts: Sequence[_Value | None],
    rights: Sequence[_Value | None],
    claimed_cells: Sequence[_Value | None],
    column: int,
    operator: str,
    prefixes: str,
    in_bytes: bool | None = None,
) -> list[_Candidate]:
    """Each row's cell of ``column`` against its two operand cells (``operator``: × or /);
    a row missing one of the three is left out. ``in_bytes`` True keeps only the rows whose
    claimed cell is a size in bytes, False only the others, None every row."""
    candidates = []
    for row, (a, b, claimed) in enumerate(zip(lefts, rights, claimed_cells, strict=True)):
        if a is None or b is None or claimed is None:
            continue
        if in_bytes is not None and in_bytes != (_family(claimed) == "bytes"):
            continue
        candidate = _two_operand(row, column, a, b, claimed, operator, prefixes)
        if candidate is not None:
            candidates.append(candidate)
    return candidates


def _cells(table: Table, column: int) -> list[_Value | None]:
    header = table.header[column]
    unit = _header_unit(header)
    sized = _SIZE_WORD.search(header) is not None or _BYTES_WORD.search(header) is not None
    return [
        _value(cells[column], unit, sized) if column < len(cells) else None
        for cells, _ in table.rows
    ]


def _stem(word: str) -> str:
    word = word.lower()
    for ending in ("meters", "meter", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)]
    return word


def _words(header: str) -> set[str]:
    label = _label(header)
    found = {_stem(w) for w in re.findall(r"[A-Za-z]{2,}", label)}
    found |= set(re.findall(r"[\u4e00-\u9fff]", label))
    return found


def _names_item(header: str, item: str) -> bool:
    label = _label(header)
    if re.fullmatch(r"[\u4e00-\u9fff]{1,2}", item):
        return item in label
    return _stem(item) in _words(header) or _stem(item).upper() in label


def _products(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """Columns that are a count column × a rate column of the same row."""
    for rate_column, header in enumerate(table.header):
        rate = _RATE.search(_label(header)) if rate_column > 0 else None
        if rate is None:
            continue
        item = rate.group("item")
        counts = [
            i
            for i, other in enumerate(table.header)
            if 0 < i != rate_column
            and not _RATE.search(_label(other))
            and (
                _names_item(other, item)
                if item
                else _COUNT_HEADER.match(_label(other).lower()) is not None
            )
        ]
        if len(counts) != 1:
            continue  # which column the rate multiplies must be the only one it names
        count_column = counts[0]
        rates, items = _cells(table, rate_column), _cells(table, count_column)
        bytes_rate = _BYTES_WORD.search(header) is not None or any(
            r is not None and _family(r) == "bytes" for r in rates
        )
        for target in range(max(rate_column, count_column) + 1, len(table.header)):
            target_header = table.header[target]
            if _RATE.search(_label(target_header)) or _SHARE_HEADER.match(_label(target_header)):
                continue
            candidates = _row_candidates(
                items,
                rates,
                _cells(table, target),
                target,
                "×",
                prefixes,
                in_bytes=bytes_rate,
            )
            what = (
                f"column {_label(target_header)!r} = {_label(table.header[count_column])!r} × "
                f"{_label(header)!r} of the same row"
            )
            yield what, candidates


def _quotients(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """Columns headed ``X per Y`` over a column naming X and one naming Y."""
    for target, header in enumerate(table.header):
        match = _QUOTIENT.match(_label(header)) if target > 0 else None
        if match is None:
            continue
        x = (match.group("x") or match.group("zx") or "").strip()
        y = match.group("y") or match.group("zy") or ""
        x_words = {_stem(w) for w in re.findall(r"[A-Za-z]{2,}", x)} or {x}
        tops = [
            i
            for i, other in enumerate(table.header)
            if 0 < i != target
            and not _RATE.search(_label(other))
            and (x_words <= _words(other) or (x in _label(other) and not x.isascii()))
        ]
        bottoms = [
            i
            for i, other in enumerate(table.header)
            if 0 < i != target and not _RATE.search(_label(other)) and _names_item(other, y)
        ]
        if len(tops) != 1 or len(bottoms) != 1 or tops == bottoms:
            continue
        candidates = _row_candidates(
            _cells(table, tops[0]),
            _cells(table, bottoms[0]),
            _cells(table, target),
            target,
            "/",
            prefixes,
        )
        what = (
            f"column {_label(header)!r} = {_label(table.header[tops[0]])!r} / "
            f"{_label(table.header[bottoms[0]])!r} of the same row"
        )
        yield what, candidates


def _shares(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A share column of a table without a total row: part over its column's sum."""
    if any(cells and TOTAL_ROW.match(_label(cells[0])) for cells, _ in table.rows):
        return  # a total row states the whole: ``table_totals`` relates shares to it
    for column, header in enumerate(table.header):
        if column == 0 or not _SHARE_HEADER.match(_label(header)):
            continue
        # The part is the nearest column of numbers beside it, left first, that every row
        # fills (or the column's sum is not the whole).
        source, parts = 0, []
        for side in (column - 1, column + 1):
            if 0 < side < len(table.header) and not _SHARE_HEADER.match(_label(table.header[side])):
                found = _cells(table, side)
                if all(p is not None for p in found):
                    source, parts = side, found
                    break
        if not source:
            continue
        values = [p for p in parts if p is not None]
        whole = " + ".join(p.term for p in values)
        candidates = []
        for row, (part, share_text) in enumerate(zip(values, table.rows, strict=True)):
            cells = share_text[0]
            share = _value_percent(cells[column] if column < len(cells) else "")
            if share is None:
                continue
            bounds: dict[str, tuple[float, float, float]] = {}
            for reading in _readings(prefixes):
                total = [sum(_interval(p, reading)[k] for p in values) for k in (0, 1)]
                low_high = _div(_interval(part, reading), (total[0], total[1]))
                point_total = sum(_base(p.printed, reading) for p in values)
                if low_high is None or point_total == 0:
                    break
                bounds[reading] = (*low_high, _base(part.printed, reading) / point_total)
            else:
                carried = tuple(sorted({p.number for p in values if _rounded(p)}))
                candidates.append(
                    _Candidate(row, column, f"({part.term}) / ({whole})", share, carried, bounds)
                )
        what = (
            f"column {_label(header)!r} = {_label(table.header[source])!r} over the column's "
            "sum (the table has no total row)"
        )
        yield what, candidates


_SAVING_HEADER = re.compile(
    r"^(?:savings?|saved|reduction|memory (?:saved|savings|reduction)|节省|节约|减少|降低|"
    r"节省比例|显存节省|减少比例)$",
    re.IGNORECASE,
)


def _savings(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A savings column after two columns of one quantity (before, after): the share saved
    ``(before − after) / before`` as a percentage, ``before / after`` as a factor (``8×``),
    or ``before − after`` in their unit."""
    for column, header in enumerate(table.header):
        if column < 3 or not _SAVING_HEADER.match(_label(header)):
            continue
        before, after = _cells(table, column - 2), _cells(table, column - 1)
        candidates = []
        for row, (a, b, (cells, _)) in enumerate(zip(before, after, table.rows, strict=True)):
            text = cells[column] if column < len(cells) else ""
            claimed = _value_percent(text) or _value_factor(text) or _value(text, "")
            if a is None or b is None or claimed is None or _family(a) != _family(b):
                continue
            shape = _family(claimed)
            if shape not in ("percent", "ratio") and shape != _family(a):
                continue
            bounds: dict[str, tuple[float, float, float]] = {}
            for reading in _readings(prefixes):
                (a_low, a_high), (b_low, b_high) = _interval(a, reading), _interval(b, reading)
                pa, pb = _base(a.printed, reading), _base(b.printed, reading)
                if pa <= 0 or pb <= 0:
                    break
                if shape == "percent":
                    bounds[reading] = (1 - b_high / a_low, 1 - b_low / a_high, 1 - pb / pa)
                elif shape == "ratio":
                    bounds[reading] = (a_low / b_high, a_high / b_low, pa / pb)
                else:
                    bounds[reading] = (a_low - b_high, a_high - b_low, pa - pb)
            else:
                expression = {
                    "percent": f"1 - {b.term} / {a.term}",
                    "ratio": f"{a.term} / {b.term}",
                }.get(shape, f"{a.term} - {b.term}")
                carried = tuple(sorted({v.number for v in (a, b) if _rounded(v)}))
                candidates.append(_Candidate(row, column, expression, claimed, carried, bounds))
        what = (
            f"column {_label(header)!r} is what {_label(table.header[column - 1])!r} saves "
            f"against {_label(table.header[column - 2])!r} in the same row"
        )
        yield what, candidates


def _family(value: _Value) -> str:
    return value.printed.unit.family if value.printed.unit is not None else ""


def _value_factor(text: str) -> _Value | None:
    """A cell printed as a factor (``8×``, ``3.5x``, ``4倍``)."""
    clean = _MARKUP.sub("", text).strip()
    if not clean or clean[-1] not in "×x倍":
        return None
    try:
        printed = parse_printed(clean)
    except NumberError:
        return None
    number = re.search(r"\d(?:[\d,]*\d)?(?:\.\d+)?", clean)
    assert number is not None
    return _Value(clean, printed, "", number.group(0).replace(",", ""))


_HEADER_COUNT = re.compile(
    r"(?:[（(]\s*|\bfor\s+(?:a\s+)?)(\d+(?:\.\d+)?)\s*([BMK])(?:\s*(?:model|params|模型))?"
    r"\s*[)）]?|(?<![\w.])(\d+(?:\.\d+)?)\s*([BMK])\s+(?:model|params)\b",
    re.IGNORECASE,
)
_PER_VALUE = re.compile(
    r"^(?P<bytes>bytes?(?:[\s/-]*(?:per\s+)?(?:param(?:eter)?|value|weight))?|字节数?|每参数字节)$"
    r"|^(?P<bits>bits?(?:[\s/-]*(?:per\s+)?(?:param(?:eter)?|value|weight))?|bpw|位数|比特数?)$",
    re.IGNORECASE,
)


def _stated_counts(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A size column whose header states the parameter count (``Memory (7B)``, ``Size for
    70B``, ``7B model``) beside a column of bytes or bits per value: the count × that rate."""
    rates = [
        (i, match)
        for i, h in enumerate(table.header)
        if i > 0 and (match := _PER_VALUE.match(_label(h).lower())) is not None
    ]
    if len(rates) != 1:
        return
    rate_column, rate = rates[0]
    per_value = _cells(table, rate_column)
    for column, header in enumerate(table.header):
        count = _HEADER_COUNT.search(_MARKUP.sub("", header)) if column > 0 else None
        if count is None or column == rate_column:
            continue
        number, scale = count.group(1) or count.group(3), (count.group(2) or count.group(4))
        items = _value(f"{number}{scale.upper()}", "")
        if items is None:
            continue
        candidates = []
        for row, (b, claimed) in enumerate(zip(per_value, _cells(table, column), strict=True)):
            if b is None or claimed is None or _family(claimed) != "bytes" or _family(b):
                continue
            candidate = _two_operand(row, column, items, b, claimed, "×", prefixes)
            if candidate is None:
                continue
            if rate.group("bits"):
                candidate = _per_byte(candidate)
            candidates.append(candidate)
        what = (
            f"column {_label(header)!r} = {items.text} parameters × "
            f"{_label(table.header[rate_column])!r} of the row"
            + (" / 8 bits per byte" if rate.group("bits") else "")
        )
        yield what, candidates


_RELATIVE_HEADER = re.compile(
    r"^(?:speed-?up|relative(?:\s+\w+)?|vs\.?\s+baseline|(?:\w+\s+)?vs\.?\s+\w+|加速比|相对\S{0,4})$",
    re.IGNORECASE,
)
_BASELINE_CELL = re.compile(
    r"^(?:1(?:\.0+)?\s*[×x]?|100(?:\.0+)?\s*%)?\s*[(（]?\s*(?:baseline|基准|基线)?\s*[)）]?$",
    re.IGNORECASE,
)


def _relative(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A relative column (``Speedup``, ``Relative``, ``vs baseline``, ``加速比``) beside one
    quantity: each row against the one baseline row (its cell ``1×``, ``100%``, ``baseline``),
    in the orientation most rows agree with (baseline / row for a time, row / baseline for a
    rate)."""
    for column, header in enumerate(table.header):
        if column < 2 or not _RELATIVE_HEADER.match(_label(header)):
            continue
        texts = [
            _MARKUP.sub("", cells[column]).strip() if column < len(cells) else ""
            for cells, _ in table.rows
        ]
        baselines = [i for i, text in enumerate(texts) if text and _BASELINE_CELL.match(text)]
        if len(baselines) != 1:
            continue
        quantities = _cells(table, column - 1)
        base = quantities[baselines[0]]
        if base is None or base.printed.value <= 0:
            continue
        for upward in (True, False):
            candidates = []
            for row, (value, text) in enumerate(zip(quantities, texts, strict=True)):
                claimed = _value_factor(text) or _value_percent(text) or _value(text, "")
                if row == baselines[0] or value is None or claimed is None:
                    continue
                if _family(value) != _family(base) or _family(claimed) not in (
                    "",
                    "ratio",
                    "percent",
                ):
                    continue
                top, bottom = (value, base) if upward else (base, value)
                candidate = _two_operand(row, column, top, bottom, claimed, "/", prefixes)
                if candidate is not None:
                    candidates.append(candidate)
            label = _label(table.rows[baselines[0]][0][0]) if table.rows[baselines[0]][0] else ""
            what = f"column {_label(header)!r} is {_label(table.header[column - 1])!r} " + (
                f"over that of the baseline row {label!r}"
                if upward
                else f"of the baseline row {label!r} over the row's"
            )
            yield what, candidates


_STORED = frozenset(dtype_table().written)


def _storage_type(header: str) -> float | None:
    """Bytes per value of the one storage type a header names (``FP16``, ``int4 (GB)``), or
    None."""
    words = re.findall(r"[A-Za-z]+\d+|\d+-?bit", _MARKUP.sub("", header).lower())
    found = {dtype_table().find(w.replace("-", "")) for w in words}
    found.discard(None)
    if len(found) != 1:
        return None
    stored = found.pop()
    assert stored is not None
    return float(stored.bytes)


def _storage_types(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """Columns of one size in several storage types (``FP32 | FP16 | INT8``): each column is
    the first one's cell × its bytes per value / the first one's."""
    typed = [
        (i, per)
        for i, h in enumerate(table.header)
        if i > 0 and (per := _storage_type(h)) is not None
    ]
    if len(typed) < 2:
        return
    (first, first_bytes), others = typed[0], typed[1:]
    sources = _cells(table, first)
    for column, per in others:
        if per == first_bytes:
            continue
        candidates = []
        for row, (a, claimed) in enumerate(zip(sources, _cells(table, column), strict=True)):
            if a is None or claimed is None or _family(a) != "bytes" or _family(claimed) != "bytes":
                continue
            bounds = {
                reading: (low * per / first_bytes, high * per / first_bytes, point)
                for reading in _readings(prefixes)
                for (low, high), point in [
                    (_interval(a, reading), _base(a.printed, reading) * per / first_bytes)
                ]
            }
            expression = f"{a.term} × {round(8 * per)} / {round(8 * first_bytes)}"
            carried = (a.number,) if _rounded(a) else ()
            candidates.append(_Candidate(row, column, expression, claimed, carried, bounds))
        what = (
            f"column {_label(table.header[column])!r} is {_label(table.header[first])!r} × "
            f"{round(8 * per)} / {round(8 * first_bytes)} bits per value"
        )
        yield what, candidates


_PARAMS_HEADER = re.compile(
    r"^(?:#\s*)?(?:total\s+)?(?:params|parameters|param count|参数量?|总参数量?|参数规模)$",
    re.IGNORECASE,
)
_SIZE_WORD = re.compile(
    r"weights?|memory|size|storage|vram|disk|显存|内存|权重|存储|大小|占用", re.IGNORECASE
)


def _typed_sizes(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A size column whose header names one storage type (``Memory (FP16)``, ``bf16 weights``)
    beside the table's one parameter-count column: the count × the type's bytes per value."""
    params = [i for i, h in enumerate(table.header) if i > 0 and _PARAMS_HEADER.match(_label(h))]
    if len(params) != 1:
        return
    counts = _cells(table, params[0])
    for column, header in enumerate(table.header):
        per = _storage_type(header) if column > 0 and column != params[0] else None
        if per is None or (not _SIZE_WORD.search(header) and not _HEADER_UNIT.search(header)):
            continue
        candidates = []
        for row, (a, claimed) in enumerate(zip(counts, _cells(table, column), strict=True)):
            if a is None or claimed is None or _family(claimed) != "bytes" or _family(a) == "bytes":
                continue
            bounds = {
                reading: (low * per, high * per, _base(a.printed, reading) * per)
                for reading in _readings(prefixes)
                for low, high in [_interval(a, reading)]
            }
            expression = f"{a.term} × {round(8 * per)} / 8"
            carried = (a.number,) if _rounded(a) else ()
            candidates.append(_Candidate(row, column, expression, claimed, carried, bounds))
        what = (
            f"column {_label(header)!r} = {_label(table.header[params[0]])!r} × "
            f"{round(8 * per)} bits per value of the type it names, / 8 bits per byte"
        )
        yield what, candidates


def _per_byte(candidate: _Candidate) -> _Candidate:
    """A product of bits, in bytes."""
    bounds = {
        r: (low / 8, high / 8, point / 8) for r, (low, high, point) in candidate.bounds.items()
    }
    return _Candidate(
        candidate.row,
        candidate.column,
        f"{candidate.expression} / 8",
        candidate.claimed,
        candidate.carried,
        bounds,
    )


def _value_percent(text: str) -> _Value | None:
    clean = _MARKUP.sub("", text).strip()
    try:
        printed = parse_printed(clean)
    except NumberError:
        return None
    if printed.unit is None or printed.unit.symbol != "%":
        return None
    number = re.search(r"\d(?:[\d,]*\d)?(?:\.\d+)?", clean)
    assert number is not None
    return _Value(clean, printed, "", number.group(0).replace(",", ""))


def _formula_expression(text: str) -> tuple[str, Node] | None:
    """A formula cell as an expression of the ``arithmetic`` kind, or None when it holds a
    word that is not a unit (a name, a label: its value would be a guess)."""
    clean = _MARKUP.sub("", text).strip()
    if "=" in clean or "≈" in clean or not _FORMULA_CELL.search(clean):
        return None  # a cell with its own result is a chain (``chains`` reads it)
    expression = _TIMES_X.sub(" × ", clean)
    expression = _FORMULA_UNITS.sub(lambda m: f"({m.group(1)}*{m.group(2)})", expression)
    expression = _FORMULA_COUNTS.sub(
        lambda m: f"({m.group(1)}*1e{_SCALE_EXPONENT[m.group(2)]})", expression
    )
    expression = _FORMULA_BYTES.sub("", expression).replace(",", "")
    if _FREE_WORD.sub(
        lambda m: "" if m.group(0) in byte_units("decimal") or m.group(0) == "e" else "?",
        expression,
    ).count("?"):
        return None
    try:
        tree = parse(expression)
    except ExprError:
        return None
    if names(tree) - set(byte_units("decimal")):
        return None
    return expression, tree


_SCALE_EXPONENT = {"K": 3, "M": 6, "B": 9, "T": 12, "万": 4, "亿": 8}


def _formulas(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A formula column beside the number column to its right that holds its values."""
    for column, header in enumerate(table.header):
        if column == 0 or column + 1 >= len(table.header):
            continue
        if not _FORMULA_HEADER.match(_label(header)):
            continue
        target = column + 1
        claims = _cells(table, target)
        candidates = []
        for row, ((cells, _), claimed) in enumerate(zip(table.rows, claims, strict=True)):
            formula = cells[column] if column < len(cells) else ""
            candidate = _formula_candidate(row, target, formula, claimed, prefixes)
            if candidate is not None:
                candidates.append(candidate)
        what = (
            f"column {_label(table.header[target])!r} holds the value of the formula in "
            f"{_label(header)!r} of the same row"
        )
        yield what, candidates


def _formula_candidate(
    row: int, target: int, text: str, claimed: _Value | None, prefixes: str
) -> _Candidate | None:
    """The row's statement that ``claimed`` is the value of the formula ``text``."""
    formula = _formula_expression(text)
    if formula is None or claimed is None:
        return None
    expression, tree = formula
    bounds: dict[str, tuple[float, float, float]] = {}
    try:
        for reading in _readings(prefixes):
            units = byte_units(reading)
            low, high = printed_interval(tree, units)
            point = evaluate(tree, units)
            if not isinstance(point, float):
                return None  # a vector is no cell's value
            bounds[reading] = (low, high, point)
    except (ExprError, ArithmeticError, ValueError):
        return None
    carried = tuple(sorted(set(re.findall(r"\d+\.\d+", expression))))
    return _Candidate(row, target, expression, claimed, carried, bounds)


_BRACKETED = re.compile(r"[（(]([^()（）]{3,80})[)）]\s*$")
_VALUE_THEN_NOTE = re.compile(
    r"^(?P<value>[^()（）]+?)\s*[（(](?P<formula>[^()（）]{3,80})[)）]\s*$"
)


def _closes(cell: str) -> bool:
    """A cell :data:`_BRACKETED` or :data:`_VALUE_THEN_NOTE` may match: it holds a closing
    bracket (looked for before the markup is taken out and the pattern tried)."""
    return ")" in cell or "）" in cell


def _bracket_formulas(table: Table, prefixes: str) -> Iterator[tuple[str, list[_Candidate]]]:
    """A formula in brackets after a row's label (``Weights (7B × 2 bytes)``) with its value
    in the row's first number cell, or after a cell's own number (``14 GB (7B × 2 bytes)``)."""
    by_column: dict[int, list[_Candidate]] = {}
    for row, (cells, _) in enumerate(table.rows):
        label = (
            _BRACKETED.search(_MARKUP.sub("", cells[0])) if cells and _closes(cells[0]) else None
        )
        if label is not None:
            target = next(
                (
                    i
                    for i in range(1, len(cells))
                    if _value(
                        cells[i], _header_unit(table.header[i]) if i < len(table.header) else ""
                    )
                ),
                0,
            )
            if target:
                unit = _header_unit(table.header[target]) if target < len(table.header) else ""
                claimed = _value(cells[target], unit)
                candidate = _formula_candidate(row, target, label.group(1), claimed, prefixes)
                if candidate is not None:
                    by_column.setdefault(target, []).append(candidate)
                    continue
        for column in range(1, len(cells)):
            if not _closes(cells[column]):
                continue
            own = _VALUE_THEN_NOTE.match(_MARKUP.sub("", cells[column]))
            if own is None:
                continue
            unit = _header_unit(table.header[column]) if column < len(table.header) else ""
            claimed = _value(own.group("value"), unit)
            candidate = _formula_candidate(row, column, own.group("formula"), claimed, prefixes)
            if candidate is not None:
                by_column.setdefault(column, []).append(candidate)
    for column, candidates in by_column.items():
        header = _label(table.header[column]) if column < len(table.header) else ""
        yield (
            f"column {header!r} holds the value of the formula its row prints in brackets",
            candidates,
        )


_DESCRIBE = {
    "decimal": "KB/MB/GB as powers of 1000",
    "binary": "KB/MB/GB as powers of 1024",
}


def _vote(what: str, candidates: Sequence[_Candidate], prefixes: str) -> list[RowDerivation]:
    """The candidates' derivations under the reading most rows agree with, or [] when no
    reading fits more than half of them (at least two)."""
    if len(candidates) < _MIN_AGREEING:
        return []
    best: tuple[int, str] | None = None
    for reading in _readings(prefixes):
        agreeing = sum(
            _holds(c.claimed.printed, *c.bounds[reading][:2], reading) for c in candidates
        )
        if best is None or agreeing > best[0]:
            best = (agreeing, reading)
    assert best is not None
    agreeing, reading = best
    if agreeing < _MIN_AGREEING or 2 * agreeing <= len(candidates):
        return []
    uses_prefix = any(
        c.claimed.printed.unit is not None and c.claimed.printed.unit.symbol in BYTE_PREFIXES
        for c in candidates
    ) or any(p in c.expression for c in candidates for p in BYTE_PREFIXES)
    reading_text = f", {_DESCRIBE[reading]}" if uses_prefix else ""
    note = (
        f"{what}{reading_text}: {agreeing} of {len(candidates)} rows agree under this reading, "
        "each cell standing for what its printed digits round from"
    )
    found = []
    for c in candidates:
        low, high, point = c.bounds[reading]
        found.append(
            RowDerivation(
                row=c.row,
                column=c.column,
                expression=c.expression,
                claimed=c.claimed.text,
                carried=c.carried,
                agrees=(agrees := _holds(c.claimed.printed, low, high, reading)),
                value=point,
                unit_factor=_factor(c.claimed.printed, reading),
                note=note
                if agrees
                else note.replace(" rows agree", " rows agree (not this one)", 1),
            )
        )
    return found


@lru_cache(maxsize=64)
def row_derivations(table: Table, prefixes: str) -> tuple[RowDerivation, ...]:
    """Every cell of ``table`` that its row derives from its other cells, under the reading
    most of the column's rows agree with (``prefixes``: the lesson's, ``either`` or
    ``decimal``)."""
    if len(table.header) < 2 or len(table.rows) < _MIN_AGREEING:
        return ()
    found: list[RowDerivation] = []
    taken: set[int] = set()
    for shape in (
        _formulas,
        _bracket_formulas,
        _products,
        _quotients,
        _shares,
        _savings,
        _stated_counts,
        _relative,
        _storage_types,
        _typed_sizes,
    ):
        for what, candidates in shape(table, prefixes):
            if not candidates or candidates[0].column in taken:
                continue
            voted = _vote(what, candidates, prefixes)
            if voted:
                taken.add(candidates[0].column)
                found.extend(voted)
    return tuple(found)


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every cell a table's row derives, once most rows of
    its column agree on how."""
    for block in document.blocks:
        table = block.table
        if table is None or len(table.header) < 2 or len(table.rows) < _MIN_AGREEING:
            continue
        for derivation in row_derivations(table, document.byte_prefixes):
            cells, line = table.rows[derivation.row]
            fields: dict[str, object] = {
                "expression": derivation.expression,
                "claimed": derivation.claimed,
                "prefixes": document.byte_prefixes,
            }
            if derivation.carried:
                fields["carried"] = list(derivation.carried)
            yield Draft(
                kind="arithmetic",
                quote=document.source_line(line) or table.row_source(cells),
                line=line,
                fields=fields,
                confidence=0.75,
                recognizer=NAME,
                slug=f"row-{derivation.column}",
                note=derivation.note,
            )
