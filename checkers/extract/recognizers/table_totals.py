"""Recogniser ``table_totals``: table cells whose header says they are sums, shares or unit
conversions of other cells.

Recognises, in a GFM table:

* a **total row** — its first cell reads Total, Sum, Grand total, Overall, 合计, 总计, 总和 or 小计
  and nothing else (markup ignored; "Total per block" or "Total (12 blocks)" sums a part or a
  multiple): each of its numeric cells is the sum of the cells above it in its column, back to
  the previous total row;
* a **total column** — headed Total, Sum, 合计, 总计 or 总和 (a parenthesised note allowed:
  "Total (no activations)"): each row's cell is the sum of the row's other cells of the same
  unit (``Params`` counts beside byte columns are not added; the first column is a label);
* an **unlabelled total row** — the last row, some cells empty and every other one a bold
  number (``| **100** | | |`` under a column of weights): each bold cell totals its column;
* a **schedule's total stated after it** — the paragraph right after the table (same section)
  opens "Total time:", "Total:", "总时间：" with one duration (``**Total time**: ~15 hours``), and
  the table has exactly one column about time (Time, Duration, Hours, 时间…) whose every cell is a
  duration: the total is that column's sum; a total stated as a range (``~10-12 hours``) with
  every term in its unit is a ``sum_range`` claim (the sum, as its terms' digits allow, meets
  the range);
* a **share column** — headed share, %, percent, proportion, fraction, "% of total", 占比, 比例 or
  百分比, in a table with a total row: each row's percentage is its value over the total, in the
  nearest column to its left whose total cell is a number (its own total, 100% by definition,
  is then not summed: a wrong share is reported on its row, not again on the total);
* a **share column whose header states the whole** — ``share of 6.74B``, ``% of 7B``, ``占
  6.74B 的比例``: each row's percentage is the nearest count cell to its left over that whole
  (a row that another count cell of it makes right is left alone);
* a **GiB column beside a GB column** — one header names GB, the other GiB: each GiB cell is the
  GB cell × 10⁹ / 2³⁰;
* a **ratio column** — headed ``A/B`` after two columns so headed, or Ratio, 比例, 比率, Speedup
  or 加速比 (or a word of one of the two columns and one of those, ``激活比例`` after 总参数 and
  激活参数, ``active share``) right after two columns of the same unit: each row's cell is
  the ratio of the two (the smaller over the larger for a percentage, the larger over the
  smaller for ``4×``, the orientation the same in every row; a table where it changes is left
  alone).

A total over a cell that its own row shows to be wrong is not a second mistake:

* a cell that :mod:`~checkers.extract.recognizers.table_rows` derives in its row and finds
  wrong (``9B × 2 bytes/param`` printed ``16 GB``), a row total that is not its row's sum, or a
  total row's cell that is not its column's sum, is the ``upstream`` of every total over it:
  the total fails only when it is wrong from the printed cell *and* from the true one, and
  otherwise says it carries that row's error;
* in a table with one total row, a cell that the total row and a second relation of its row
  (its share of the total, or its row's total column less its other cells) both put at one
  other value is drafted as the wrong cell, and the totals over it are carried from it.

Only cells that are one number (with an optional unit: bytes, %, K/M/B counts, ms/s, durations
in min/h/hr/hours/days/分钟/小时/天, and the same trailing words down the column, "140 GB per GPU")
take part; durations are added in the unit of their total (``10 min`` of a total in hours is
``10/60``), and a total in hours printed at a half hour (``3.5 h`` for 20 min + 3 h) is read as
a planner's estimate rounded to the half hour (±0.25 h, the claim's tolerance, named in the
verdict); a column with an approximate
("~40 GB"), ranged ("5-10 GB") or placeholder ("[X]") term is left alone, since its sum is not
stated. A "-" or "—" cell adds nothing. Each relation becomes an ``arithmetic`` claim quoting
the row of the claimed cell, the other cells as its terms, marked ``carried``: each printed cell
is itself a rounded value, so the claim holds when values its digits round from make it right
(``33.3 + 33.3 + 33.3`` may total ``100.0``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft
from checkers.extract.recognizers.table_rows import TOTAL_ROW, row_derivations

__all__ = ["recognize"]

NAME = "table_totals"

_MARKUP = re.compile(r"\*\*|__|`")
_CELL = re.compile(
    r"^\s*(?P<approx>~|≈|约)?\s*(?P<num>\d(?:[\d,]*\d)?(?:\.\d+)?)\s*"
    r"(?P<unit>%|×|KiB|MiB|GiB|TiB|KB|MB|GB|TB|minutes|minute|mins|min|hours|hour|hrs|hr|h|days|"
    r"day|小时|分钟|天|ms|s|K|M|B|T|万|亿)?(?![A-Za-z0-9])\s*(?P<rest>.*?)\s*$"
)
_REST = re.compile(r"^(?:[a-z ]{0,20}|per [a-z]+|每[^\d]{0,4})$", re.IGNORECASE)
_NOTHING = frozenset({"-", "—", "–", "0"})
_TOTAL_HEADER = re.compile(r"^(?:total|sum|合计|总计|总和)$", re.IGNORECASE)
_SHARE_HEADER = re.compile(
    r"^(?:%|share|percent(?:age)?|proportion|fraction|% of (?:total|all|params|parameters)|"
    r"share of (?:total|params|parameters)|占比|比例|百分比|占总.*)$",
    re.IGNORECASE,
)
_MINUTES = {
    **dict.fromkeys(("minutes", "minute", "mins", "min", "分钟"), 1),
    **dict.fromkeys(("hours", "hour", "hrs", "hr", "h", "小时"), 60),
    **dict.fromkeys(("days", "day", "天"), 24 * 60),
}
"""Minutes per duration unit: a schedule's durations are added in the unit of their total."""
_HALF_HOUR = {
    "absolute": 0.25,
    "reason": "a planned duration of a schedule in hours, read as rounded to the half hour",
}
"""The reading of a schedule's total printed at a half hour (``3.5 h`` for 20 min + 3 h):
planners round estimates to the half hour, so the printed digits are not its precision."""
_NOTE = re.compile(r"\s*[（(].*?[)）]\s*")
_HEADER_UNIT = re.compile(r"[（(]\s*(%|KiB|MiB|GiB|TiB|KB|MB|GB|TB|ms|s|K|M|B)\s*[)）]")
_COUNT_EXPONENT = {"K": 3, "M": 6, "B": 9, "T": 12, "万": 4, "亿": 8}
_FAMILY = {
    "%": "percent",
    "×": "ratio",
    **dict.fromkeys(("KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "TB"), "bytes"),
    **dict.fromkeys(("ms", "s"), "seconds"),
    **dict.fromkeys(
        ("minutes", "minute", "mins", "min", "分钟", "hours", "hour", "hrs", "hr", "h", "小时"),
        "duration",
    ),
    **dict.fromkeys(("days", "day", "天"), "duration"),
    **dict.fromkeys(_COUNT_EXPONENT, "count"),
}


@dataclass(frozen=True)
class _Cell:
    """A table cell that holds one number."""

    text: str
    """The number and unit as printed (``248 MB``), markup removed."""
    number: str
    """The number alone (``248``)."""
    unit: str
    """Its unit symbol ("" for a plain number; the header's unit when the cell prints none)."""
    approx: bool
    """Printed as approximate (``~400 ms``)."""
    rest: str
    """Words after the number (``per GPU``)."""

    @property
    def family(self) -> str:
        """What the unit measures ("" for a plain number)."""
        return _FAMILY.get(self.unit, "")


def _cell(text: str, header_unit: str) -> _Cell | None:
    clean = _MARKUP.sub("", text).strip()
    match = _CELL.match(clean)
    if match is None or not _REST.match(match["rest"]):
        return None
    unit = match["unit"] or ""
    shown = clean[: match.end("unit") if unit else match.end("num")].strip()
    return _Cell(
        shown.lstrip("~≈约").strip(),
        match["num"],
        unit or header_unit,
        bool(match["approx"]),
        match["rest"].lower(),
    )


def _is_nothing(text: str) -> bool:
    return _MARKUP.sub("", text).strip() in _NOTHING


def _literal(cell: _Cell, plain: bool) -> str:
    """The cell as a term of the expression (a count's K/M/B as a power of ten)."""
    if plain or not cell.unit:
        return cell.number
    if cell.family == "count":
        return f"{cell.number}e{_COUNT_EXPONENT[cell.unit]}"
    return f"{cell.number} {cell.unit}"


def _in_unit_of(term: _Cell, total: _Cell) -> str:
    """A duration term written in the total's unit (``10/60`` for 10 min of a total in hours)."""
    have, want = _MINUTES[term.unit], _MINUTES[total.unit]
    if have == want:
        return term.number
    return f"{term.number}*{have // want}" if have > want else f"{term.number}/{want // have}"


def _tolerance(total: _Cell) -> dict[str, object] | None:
    """The half-hour reading of a schedule total in hours printed at a half (``3.5 h``)."""
    if total.family != "duration" or _MINUTES[total.unit] != 60:
        return None
    value = float(total.number.replace(",", ""))
    return _HALF_HOUR if value != int(value) and (2 * value).is_integer() else None


def _relation(terms: list[_Cell], claimed: _Cell, operator: str) -> tuple[str, str] | None:
    """(expression, claimed text) for ``terms`` joined by ``operator`` against ``claimed``."""
    units = {t.unit for t in terms} | {claimed.unit}
    if len({t.family for t in terms} | {claimed.family}) != 1 or claimed.family == "ratio":
        return None  # one unit throughout, and ratios do not add up
    if any(t.rest != claimed.rest for t in terms):
        return None
    plain = len(units) == 1
    if not plain and claimed.family == "seconds":
        return None  # ms and s are not names an expression knows
    if not plain and claimed.family == "duration":
        # 10 min + 2 h = 2.2 h: each term in the total's unit.
        expression = f" {operator} ".join(_in_unit_of(t, claimed) for t in terms)
        text = claimed.number
        return expression, ("~" + text if claimed.approx else text)
    expression = f" {operator} ".join(_literal(t, plain) for t in terms)
    text = claimed.number if plain else claimed.text
    return expression, ("~" + text if claimed.approx else text)


def _draft(
    document: Document,
    table: Table,
    row: tuple[str, ...],
    line: int,
    relation: tuple[str, str],
    terms: list[_Cell],
    slug: str,
    total: _Cell | None = None,
) -> Draft:
    expression, claimed = relation
    return Draft(
        kind="arithmetic",
        quote=document.source_line(line) or table.row_source(row),
        line=line,
        fields={
            "expression": expression,
            "claimed": claimed,
            "carried": sorted({t.number for t in terms}),
            "prefixes": document.byte_prefixes,
        },
        confidence=0.8,
        recognizer=NAME,
        slug=slug,
        tolerance=_tolerance(total) if total is not None else None,
    )


def _cell_inputs(
    document: Document, table: Table, column: int, indexes: list[int]
) -> tuple[tuple[int, str], ...]:
    """The cells of ``column`` in body rows ``indexes`` that a total adds, as statements it
    reads (:attr:`Draft.inputs`: (line, the cell as written), so ``scan --stats`` counts them as
    checked: a wrong term makes the total fail as a wrong total does). A cell whose text is
    written more than once on its line (another cell of the row printed alike) is left out:
    which of them is the term could not be told."""
    found: list[tuple[int, str]] = []
    for index in indexes:
        cells, line = table.rows[index]
        text = cells[column].strip() if column < len(cells) else ""
        if text and document.source_line(line).count(text) == 1:
            found.append((line, text))
    return tuple(found)


def _header_units(table: Table) -> list[str]:
    return [(m.group(1) if (m := _HEADER_UNIT.search(h)) else "") for h in table.header]


def _label(text: str) -> str:
    return _NOTE.sub(" ", _MARKUP.sub("", text)).strip()


def _column_terms(
    table: Table, rows: range, column: int, units: list[str], *, skip_nothing: bool
) -> list[tuple[int, _Cell]]:
    """(row index, cell) of each cell of ``column`` in ``rows`` that a total of it adds up, or
    [] when one of them is not a plain number (an approximate, ranged or worded cell: the
    column's sum is not stated). With ``skip_nothing``, a "-" or "—" cell adds nothing rather
    than ending the sum."""
    unit = units[column] if column < len(units) else ""
    terms: list[tuple[int, _Cell]] = []
    for index in rows:
        cells = table.rows[index][0]
        text = cells[column] if column < len(cells) else ""
        if skip_nothing and _is_nothing(text):
            continue
        term = _cell(text, unit)
        if term is None or term.approx:
            return []
        terms.append((index, term))
    return terms


@dataclass(frozen=True)
class _Crossing:
    """A cell above a total row that its row's other relation shows to be wrong: the total row
    misses by just what that relation corrects it by."""

    row: int
    """Index of the cell's row in the table's body."""
    column: int
    """Index of its column."""
    term: _Cell
    """The cell as printed."""
    corrected: str
    """Its value from the row's relation, in the cell's unit (``85.0 / 100 * 2000.0``)."""
    how: str
    """That relation in words (``its share 85.0% of the total 2,000.0``)."""


def _half(cell: _Cell) -> float:
    """Half the last printed place of a decimal cell; 0 for a whole number, which the
    ``arithmetic`` kind reads as exact."""
    decimals = len(cell.number.partition(".")[2])
    return 0.5 * 10.0**-decimals if decimals else 0.0


def _number(cell: _Cell) -> float:
    return float(cell.number.replace(",", ""))


def _crossings(table: Table, units: list[str]) -> dict[tuple[int, int], _Crossing]:
    """The cells of a table with one total row that a second relation of their row names as
    the one mistake: the column's printed cells miss its total by m, and the row's share of
    that total, or the row's total column less its other cells, puts the cell at its printed
    value + m (one row only; every cell in one unit)."""
    total_index, sources = _share_sources(table, units)
    if total_index < 0:
        return {}
    total_row = table.rows[total_index][0]
    share_of = {left: share for share, (left, _) in sources.items()}
    sums = [i for i, h in enumerate(table.header) if i > 0 and _TOTAL_HEADER.match(_label(h))]
    found: dict[tuple[int, int], _Crossing] = {}
    for column in range(1, len(total_row)):
        if column in sources or column in sums:
            continue
        total = _cell(total_row[column], units[column] if column < len(units) else "")
        terms = _column_terms(table, range(total_index), column, units, skip_nothing=True)
        if total is None or total.approx or len(terms) < 2:
            continue
        if any(t.unit != total.unit or t.rest != total.rest for _, t in terms):
            continue
        missing = _number(total) - sum(_number(t) for _, t in terms)
        slack = _half(total) + sum(_half(t) for _, t in terms) + 1e-9 * abs(_number(total))
        if abs(missing) <= slack:
            continue
        matches: list[_Crossing] = []
        for index, term in terms:
            cells = table.rows[index][0]
            want = _number(term) + missing
            share_column = share_of.get(column)
            share = _cell(cells[share_column], "%") if share_column is not None else None
            if share is not None and share.unit == "%" and not share.approx:
                value = _number(share) / 100 * _number(total)
                if abs(value - want) <= slack + _half(share) / 100 * _number(total):
                    matches.append(
                        _Crossing(
                            index,
                            column,
                            term,
                            f"{share.number.replace(',', '')} / 100 * "
                            f"{total.number.replace(',', '')}",
                            f"its share {share.text} of the total {total.text}",
                        )
                    )
                    continue
            for other in sums:
                crossing = _by_row_total(table, units, index, column, term, other)
                if crossing is not None and abs(crossing[0] - want) <= slack + crossing[1]:
                    matches.append(_Crossing(index, column, term, crossing[2], crossing[3]))
                    break
        if len(matches) == 1:
            found[(matches[0].row, column)] = matches[0]
    return found


def _by_row_total(
    table: Table, units: list[str], index: int, column: int, term: _Cell, total_column: int
) -> tuple[float, float, str, str] | None:
    """(value, its rounding, expression, words) of ``term`` as its row's total column less
    the row's other components, or None."""
    cells = table.rows[index][0]
    if total_column >= len(cells) or column >= total_column:
        return None
    total = _cell(cells[total_column], units[total_column])
    if total is None or total.approx or total.unit != term.unit:
        return None
    others: list[_Cell] = []
    for other in range(1, total_column):
        if other == column or _is_nothing(cells[other]):
            continue
        cell = _cell(cells[other], units[other])
        if cell is None or cell.family != total.family:
            continue
        if cell.approx or cell.unit != term.unit:
            return None
        others.append(cell)
    if not others:
        return None
    value = _number(total) - sum(_number(c) for c in others)
    rounding = _half(total) + sum(_half(c) for c in others)
    expression = " - ".join(c.number.replace(",", "") for c in (total, *others))
    return value, rounding, expression, f"its row's total {total.text} less its other cells"


def _crossed_cells(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    """A draft for each cell :func:`_crossings` names: its value from its row's relation."""
    for crossing in _crossings(table, units).values():
        row, line = table.rows[crossing.row]
        yield Draft(
            kind="arithmetic",
            quote=document.source_line(line) or table.row_source(row),
            line=line,
            fields={"expression": crossing.corrected, "claimed": crossing.term.number},
            confidence=0.7,
            recognizer=NAME,
            slug="crossed-cell",
            note=(
                f"the total row and {crossing.how} both put this cell at the value that makes "
                "both right: it is the one cell the column's sum and the row disagree on"
            ),
        )


def _crossed_upstream(
    table: Table, units: list[str], cells: list[tuple[int, int, _Cell]], expression: str
) -> dict[str, str]:
    """The ``upstream`` of a relation over ``cells`` (row, column, cell) for those a crossing
    names (a literal printed twice in ``expression`` is left alone)."""
    crossings = _crossings(table, units)
    words = expression.replace("(", " ").replace(")", " ").split()
    return {
        cell.number: crossings[(row, column)].corrected
        for row, column, cell in cells
        if (row, column) in crossings and words.count(cell.number) == 1
    }


def _carried_rows(
    document: Document,
    table: Table,
    column: int,
    terms: list[tuple[int, _Cell]],
    relation: tuple[str, str],
) -> tuple[dict[str, str], str]:
    """(the ``upstream`` of a total over ``terms``, a note naming their rows) for the terms
    that their own row derives and gets wrong (:func:`row_derivations`): a total right from
    their true values carries that row's error, and is not a second mistake."""
    wrong = {
        d.row: d
        for d in row_derivations(table, document.byte_prefixes)
        if d.column == column and not d.agrees
    }
    units = _header_units(table)
    crossed = _crossed_upstream(table, units, [(i, column, t) for i, t in terms], relation[0])
    if crossed:
        return crossed, "a cell above it that its row shows to be wrong is drafted on its row"
    if column < len(table.header) and _TOTAL_HEADER.match(_label(table.header[column])):
        # A total column's cell that is not its row's sum is that row's mistake: the total
        # row over the column is carried from it.
        words = relation[0].split()
        sums: dict[str, str] = {}
        for index, cell in terms:
            components = _row_components(table, index, column, units, cell)
            parts = [t for _, t in components or []]
            expression = _plain_sum(parts, cell.unit)
            missing = _number(cell) - sum(_number(t) for t in parts)
            slack = _half(cell) + sum(_half(t) for t in parts) + 1e-9 * abs(_number(cell))
            if expression is not None and words.count(cell.number) == 1 and abs(missing) > slack:
                sums[cell.number] = expression
        if sums:
            return sums, "a row total above it that is not its row's sum is drafted on its row"
    if not wrong:
        return {}, ""
    literals = [t.number if t.number in relation[0].split() else "" for _, t in terms]
    upstream: dict[str, str] = {}
    rows: list[str] = []
    for (index, term), literal in zip(terms, literals, strict=True):
        derivation = wrong.get(index)
        if derivation is None or not literal or literals.count(literal) > 1:
            continue  # a literal printed twice in the sum cannot stand for one row's value
        upstream[literal] = f"({derivation.expression}) / {derivation.unit_factor:.17g}"
        label = _label(table.rows[index][0][0]) if table.rows[index][0] else ""
        rows.append(f"{term.text} of row {label!r} is {derivation.expression} in its row")
    return upstream, "; ".join(rows)


def _with_carried(
    draft: Draft,
    document: Document,
    table: Table,
    column: int,
    terms: list[tuple[int, _Cell]],
    relation: tuple[str, str],
) -> Draft:
    """The total's draft, with the rows above it that are wrong in their own row as its
    ``upstream`` (see :func:`_carried_rows`)."""
    upstream, rows = _carried_rows(document, table, column, terms, relation)
    if not upstream:
        return draft
    return dataclasses.replace(
        draft,
        fields={**draft.fields, "upstream": upstream},
        note=f"{rows}: a total right from its true value carries that row's error",
    )


def _total_rows(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    # A share column checked row by row against its value column: its total is 100% by
    # definition, and a wrong share is reported on its own row, not again on the total.
    shares = set(_share_sources(table, units)[1])
    start = 0
    for index, (row, line) in enumerate(table.rows):
        if not row or not TOTAL_ROW.match(_MARKUP.sub("", row[0]).strip()):
            continue
        first, start = start, index + 1
        for column in range(1, len(row)):
            if column in shares:
                continue
            total = _cell(row[column], units[column] if column < len(units) else "")
            if total is None:
                continue
            terms = _column_terms(table, range(first, index), column, units, skip_nothing=True)
            if len(terms) < 2:
                continue
            relation = _relation([t for _, t in terms], total, "+")
            if relation is not None:
                draft = _draft(
                    document, table, row, line, relation, [t for _, t in terms], "total-row", total
                )
                draft = dataclasses.replace(
                    draft, inputs=_cell_inputs(document, table, column, [i for i, _ in terms])
                )
                yield _with_carried(draft, document, table, column, terms, relation)


def _row_components(
    table: Table, index: int, column: int, units: list[str], total: _Cell
) -> list[tuple[int, _Cell]] | None:
    """(column, cell) of the cells of row ``index`` left of its total column ``column`` that
    the total adds (those of the total's unit family), or None when one is approximate."""
    row = table.rows[index][0]
    found: list[tuple[int, _Cell]] = []
    for other in range(1, min(len(row), column)):
        if _is_nothing(row[other]):
            continue
        term = _cell(row[other], units[other])
        if term is None or term.family != total.family:
            continue
        if term.approx:
            return None
        found.append((other, term))
    return found


def _plain_sum(terms: list[_Cell], unit: str) -> str | None:
    """The terms as a sum of their printed numbers when all are in ``unit``, else None."""
    if len(terms) < 2 or any(t.unit != unit for t in terms):
        return None
    return " + ".join(t.number.replace(",", "") for t in terms)


def _total_columns(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    for column, header in enumerate(table.header):
        if column == 0 or not _TOTAL_HEADER.match(_label(header)):
            continue
        first = 0
        for index, (row, line) in enumerate(table.rows):
            is_total_row = bool(row) and TOTAL_ROW.match(_MARKUP.sub("", row[0]).strip())
            total = _cell(row[column], units[column]) if column < len(row) else None
            components = (
                None if total is None else _row_components(table, index, column, units, total)
            )
            if total is None or components is None or len(components) < 2:
                first = index + 1 if is_total_row else first
                continue
            terms = [t for _, t in components]
            relation = _relation(terms, total, "+")
            if relation is not None:
                draft = _draft(document, table, row, line, relation, terms, "total-column", total)
                placed = [(index, other, t) for other, t in components]
                upstream = _crossed_upstream(table, units, placed, relation[0])
                if is_total_row:
                    # A total row's cell that is not its column's sum is that column's mistake:
                    # the row's total is carried from it, not wrong a second time.
                    words = relation[0].split()
                    for other, cell in components:
                        above = _column_terms(
                            table, range(first, index), other, units, skip_nothing=True
                        )
                        expression = _plain_sum([t for _, t in above], cell.unit)
                        if expression is not None and words.count(cell.number) == 1:
                            upstream.setdefault(cell.number, expression)
                if upstream:
                    draft = dataclasses.replace(
                        draft, fields={**draft.fields, "upstream": upstream}
                    )
                yield draft
            if is_total_row:
                first = index + 1


def _share_sources(table: Table, units: list[str]) -> tuple[int, dict[int, tuple[int, _Cell]]]:
    """(the total row's index, {share column: (the column it is a share of, its total)}), for a
    table with exactly one total row (else (-1, {}))."""
    totals = [
        i
        for i, (row, _) in enumerate(table.rows)
        if row and TOTAL_ROW.match(_MARKUP.sub("", row[0]).strip())
    ]
    if len(totals) != 1:
        return -1, {}
    total_row = table.rows[totals[0]][0]
    sources: dict[int, tuple[int, _Cell]] = {}
    for column, header in enumerate(table.header):
        if column == 0 or not _SHARE_HEADER.match(_label(header)):
            continue
        for left in range(column - 1, 0, -1):
            total = _cell(total_row[left], units[left]) if left < len(total_row) else None
            if total is not None and total.family != "percent" and not total.approx:
                if _value(total) > 0:  # a share of nothing is no statement (and no number)
                    sources[column] = (left, total)
                break
    return totals[0], sources


_WHOLE_HEADER = re.compile(
    r"^(?:share|percent(?:age)?|fraction|proportion|%)\s+of\s+(?:the\s+)?"
    r"(?P<whole>\d[\d,]*(?:\.\d+)?\s*(?:[KMBT]|万|亿)?)(?:\s+(?:params|parameters|total))?$"
    r"|^占\s*(?P<zh>\d[\d,]*(?:\.\d+)?\s*(?:[KMBT]|万|亿)?)\s*的?(?:比例|百分比|占比)?$",
    re.IGNORECASE,
)


def _shares_of_stated(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    """A share column whose header states its whole (``share of 6.74B``, ``% of 7B``, ``占
    6.74B 的比例``): each row's percentage is a count cell of its row over that whole. The part
    is the nearest count column to its left; a row that another count column of it makes
    right is left alone (which column it shares is then a guess)."""
    for column, header in enumerate(table.header):
        match = _WHOLE_HEADER.match(_label(header)) if column > 1 else None
        if match is None:
            continue
        whole = _cell(match.group("whole") or match.group("zh"), "")
        if whole is None or whole.family not in ("", "count") or _value(whole) == 0:
            continue
        for row, line in table.rows:
            share = _cell(row[column], "%") if column < len(row) else None
            if share is None or share.unit != "%":
                continue
            parts = [
                cell
                for left in range(column - 1, 0, -1)
                if (cell := _cell(row[left], units[left])) is not None
                and cell.family in ("", "count")
                and not cell.approx
            ]
            if not parts:
                continue
            printed = float(share.number.replace(",", ""))
            step = 0.5 * 10.0 ** -len(share.number.partition(".")[2])
            fits = [
                abs(100 * _value(cell) / _value(whole) - printed) <= step * 1.2 for cell in parts
            ]
            if any(fits[1:]) and not fits[0]:
                continue
            part = parts[0]
            yield Draft(
                kind="arithmetic",
                quote=document.source_line(line) or table.row_source(row),
                line=line,
                fields={
                    "expression": f"({_literal(part, False)}) / ({_literal(whole, False)})",
                    "claimed": ("~" if share.approx else "") + share.text,
                    "carried": [_literal(whole, False)],
                },
                confidence=0.75,
                recognizer=NAME,
                slug="share-of-stated",
                note=f"the whole {whole.text} is the column header's, read as anything it rounds "
                "from",
            )


def _shares(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    total_index, sources = _share_sources(table, units)
    for column, (left, total) in sources.items():
        for index, (row, line) in enumerate(table.rows):
            if index == total_index or column >= len(row) or left >= len(row):
                continue
            share = _cell(row[column], "%")
            value = _cell(row[left], units[left])
            if share is None or share.unit != "%" or value is None or value.approx:
                continue
            if value.family != total.family or value.rest != total.rest:
                continue
            plain = value.unit == total.unit
            expression = f"({_literal(value, plain)}) / ({_literal(total, plain)})"
            claimed = ("~" if share.approx else "") + share.text
            upstream = _crossed_upstream(table, units, [(index, left, value)], expression)
            yield Draft(
                kind="arithmetic",
                quote=document.source_line(line) or table.row_source(row),
                line=line,
                fields={
                    "expression": expression,
                    "claimed": claimed,
                    "carried": sorted({value.number, total.number}),
                    "prefixes": document.byte_prefixes,
                    **({"upstream": upstream} if upstream else {}),
                },
                confidence=0.8,
                recognizer=NAME,
                slug="share",
            )


_SIZE_UNIT = re.compile(r"(?<![A-Za-z])(bytes?|字节|KiB|MiB|GiB|TiB|KB|MB|GB|TB)(?![A-Za-z])")
_BYTES_PER = {
    "bytes": 1.0,
    "byte": 1.0,
    "字节": 1.0,
    **{u: 1024.0**p for p, u in enumerate(("KiB", "MiB", "GiB", "TiB"), start=1)},
    **{u: 1000.0**p for p, u in enumerate(("KB", "MB", "GB", "TB"), start=1)},
}
_PER_UNIT = re.compile(
    r"^\s*(?:tokens?|sequences?|tok)\s*(?:per|/|每)\s*(KiB|MiB|GiB|TiB|KB|MB|GB|TB)\s*$",
    re.IGNORECASE,
)
_PER_ONE = re.compile(r"(?:/|\bper\b|每)\s*(?:tokens?|tok)\b", re.IGNORECASE)
_SIZE_CELL = re.compile(r"^\s*(?P<num>\d(?:[\d,]*\d)?(?:\.\d+)?)\s*(?P<unit>[A-Za-z字节]+)?\s*$")


def _unit_expression(unit: str) -> str:
    """The unit as a factor of the expression ("" for bytes, else its symbol: ``GiB``)."""
    return "" if _BYTES_PER[unit] == 1.0 else unit


def _sized_header(header: str) -> tuple[str, str] | None:
    """(what the column measures without its unit, the unit) of a header naming one byte unit:
    ``bf16 (GiB)`` → (``bf16``, ``GiB``); ``bytes / token`` → (``/ token``, ``bytes``)."""
    units = _SIZE_UNIT.findall(header)
    if len(units) != 1:
        return None
    label = _SIZE_UNIT.sub("", _MARKUP.sub("", header))
    label = re.sub(r"[（(]\s*[)）]", "", label)
    return re.sub(r"\s+", " ", label).strip().lower(), units[0]


def _size_cell(text: str, unit: str) -> str | None:
    """The number of a cell that holds a size in the column's unit (printed or not)."""
    match = _SIZE_CELL.match(_MARKUP.sub("", text))
    if match is None or (match["unit"] and match["unit"] != unit):
        return None
    return match["num"]


def _unit_pairs(table: Table) -> list[tuple[int, int, str]]:
    """(source, target, how) for every column that restates another in another unit: the same
    label in another byte unit (``bf16 (GB)`` → ``bf16 (GiB)``; ``bytes / token`` → ``KiB /
    token``), the one GB and one GiB column of a table, and ``tokens per GiB`` from a size
    per token."""
    sized = {i: found for i, h in enumerate(table.header) if i > 0 and (found := _sized_header(h))}
    pairs: list[tuple[int, int, str]] = []
    for target, (label, unit) in sized.items():
        source = next(
            (i for i, (other, u) in sized.items() if i < target and other == label and u != unit),
            None,
        )
        if source is not None:
            pairs.append((source, target, "convert"))
    gb = [i for i, (_, u) in sized.items() if u == "GB"]
    gib = [i for i, (_, u) in sized.items() if u == "GiB"]
    if not pairs and len(gb) == 1 and len(gib) == 1:
        pairs.append((gb[0], gib[0], "convert"))
    per_one = [i for i, (label, _) in sized.items() if _PER_ONE.search(label)]
    for target, header in enumerate(table.header):
        if per_one and _PER_UNIT.match(_MARKUP.sub("", header)):
            pairs.append((per_one[0], target, "per_unit"))
    return pairs


def _gib_columns(document: Document, table: Table) -> Iterator[Draft]:
    """Columns that restate another column in another byte unit (see :func:`_unit_pairs`)."""
    for source, target, how in _unit_pairs(table):
        sized = _sized_header(table.header[source])
        assert sized is not None
        source_unit = sized[1]
        if how == "convert":
            target_sized = _sized_header(table.header[target])
            assert target_sized is not None
            target_unit = target_sized[1]
        else:
            match = _PER_UNIT.match(_MARKUP.sub("", table.header[target]))
            assert match is not None
            target_unit = match.group(1)
        for row, line in table.rows:
            if max(source, target) >= len(row):
                continue
            value = _size_cell(row[source], source_unit)
            claimed = _MARKUP.sub("", row[target]).strip()
            if value is None or not re.fullmatch(r"\d(?:[\d,]*\d)?(?:\.\d+)?", claimed):
                continue
            factor = _unit_expression(source_unit)
            size = f"{value} {factor}".strip() if factor else value
            if how == "convert":
                expression = f"{size} / {_unit_expression(target_unit) or 1}"
            else:
                expression = f"{target_unit} / ({size})"
            yield Draft(
                kind="arithmetic",
                quote=document.source_line(line) or table.row_source(row),
                line=line,
                fields={
                    "expression": expression,
                    "claimed": claimed,
                    "carried": [value],
                    # a column in KiB/GiB beside one in KB/GB says which is which; otherwise
                    # the lesson's usage decides whether its KB may be 1024 bytes
                    "prefixes": "decimal"
                    if "i" in source_unit + target_unit
                    else document.byte_prefixes,
                },
                confidence=0.8,
                recognizer=NAME,
                slug="gib" if how == "convert" else "per-unit",
                note=(
                    f"column {table.header[target].strip()!r} restates "
                    f"{table.header[source].strip()!r} "
                    + (
                        f"in {target_unit} (1 {target_unit} = {_BYTES_PER[target_unit]:,.0f} bytes"
                        + (
                            f", 1 {source_unit} = {_BYTES_PER[source_unit]:,.0f})"
                            if _BYTES_PER[source_unit] != 1
                            else ")"
                        )
                        if how == "convert"
                        else f"as how many fit in one {target_unit} "
                        f"({_BYTES_PER[target_unit]:,.0f} bytes)"
                    )
                ),
            )


_RATIO_HEADER = re.compile(r"^(?:ratio|比例|比率|比值|speedup|加速比)$", re.IGNORECASE)
_NAMED_RATIO_HEADER = re.compile(
    r"^([\u4e00-\u9fff]{1,4}|[a-z]+\s+)(?:比例|比率|占比|ratio|share|fraction)$", re.IGNORECASE
)
_RATIO_CELL = re.compile(r"^\s*(?:~|≈)?\s*\d(?:[\d,]*\d)?(?:\.\d+)?\s*(?:%|×|x)\s*$")


def _ratio_operands(table: Table, column: int) -> tuple[int, int] | None:
    """(numerator, denominator) columns a ratio header names, or None."""
    label = _label(table.header[column]).lower()
    labels = [_label(h).lower() for h in table.header]
    if "/" in label:
        top, _, bottom = (part.strip() for part in label.partition("/"))
        if top in labels and bottom in labels and top != bottom:
            return labels.index(top), labels.index(bottom)
        return None
    if _RATIO_HEADER.match(label) and column >= 3:
        return column - 2, column - 1
    named = _NAMED_RATIO_HEADER.match(label)
    if named is not None and column >= 3:
        word = named.group(1).strip()
        if any(word in labels[i] for i in (column - 2, column - 1)):
            return column - 2, column - 1  # "激活比例" after 总参数, 激活参数: a ratio of the two
    return None


def _ratios(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    for column in range(1, len(table.header)):
        operands = _ratio_operands(table, column)
        if operands is None:
            continue
        rows = []
        for row, line in table.rows:
            if max(*operands, column) >= len(row) or not _RATIO_CELL.match(
                _MARKUP.sub("", row[column])
            ):
                continue
            a, b = (_cell(row[i], units[i]) for i in operands)
            claimed = _cell(row[column], "")
            if a is None or b is None or claimed is None or a.approx or b.approx:
                continue
            if a.family != b.family or a.rest != b.rest:
                continue
            rows.append((row, line, a, b, claimed))
        if not rows:
            continue
        named = "/" in table.header[column]
        first_small = all(_value(a) <= _value(b) for _, _, a, b, _ in rows)
        first_large = all(_value(a) >= _value(b) for _, _, a, b, _ in rows)
        for row, line, a, b, claimed in rows:
            percent = claimed.unit == "%"
            if named:
                top, bottom = a, b
            elif first_small == first_large:
                if not first_small:
                    break  # the orientation changes from row to row: not one relation
                top, bottom = a, b
            elif first_small == percent:
                top, bottom = a, b
            else:
                top, bottom = b, a
            plain = top.unit == bottom.unit
            shown = ("~" if claimed.approx else "") + _MARKUP.sub("", row[column]).strip().lstrip(
                "~≈"
            ).strip()
            yield Draft(
                kind="arithmetic",
                quote=document.source_line(line) or table.row_source(row),
                line=line,
                fields={
                    "expression": f"({_literal(top, plain)}) / ({_literal(bottom, plain)})",
                    "claimed": shown,
                    "carried": sorted({top.number, bottom.number}),
                    "prefixes": document.byte_prefixes,
                },
                confidence=0.75,
                recognizer=NAME,
                slug="ratio",
            )


def _value(cell: _Cell) -> float:
    factor = 10.0 ** _COUNT_EXPONENT[cell.unit] if cell.family == "count" else 1.0
    return float(cell.number.replace(",", "")) * factor


_TIME_HEADER = re.compile(
    r"^(?:(?:est(?:imated|\.)?\s+)?(?:time|duration|hours|effort)|时间|时长|耗时|用时|预计时间)$",
    re.IGNORECASE,
)
_ANY_TIME_HEADER = re.compile(r"time|duration|hours|effort|时间|时长|耗时|用时", re.IGNORECASE)
_PROSE_TOTAL = re.compile(
    r"^\W*(?:total|overall|合计|总计|总共|共计)(?:\s+(?:module\s+|lab\s+)?(?:time|duration|hours|effort))?"
    r"|^\W*(?:总时间|总时长|总耗时)",
    re.IGNORECASE,
)
_PROSE_TOTAL_VALUE = re.compile(
    r"[\s*_]*[:：][\s*_]*(?P<cell>(?:~|≈|约)?\s*\d(?:[\d,]*\d)?(?:\.\d+)?\s*[a-z小时分钟天]+)"
    r"[\s*_]*(?:$|[.。(（])",
    re.IGNORECASE,
)


def _prose_totals(document: Document, index: int, table: Table) -> Iterator[Draft]:
    """A schedule's total stated in the paragraph right after the table ("**Total time**: ~15
    hours"): the sum of the table's one time column."""
    block = document.blocks[index]
    following = next(
        (b for b in document.blocks[index + 1 : index + 3] if b.kind == "paragraph"), None
    )
    if following is None or following.section != block.section or not following.lines:
        return
    first = following.lines[0]
    label = _PROSE_TOTAL.match(first.text)
    if label is None:
        return
    stated = _PROSE_TOTAL_VALUE.match(first.text, label.end())
    if stated is None:
        yield from _prose_range_total(document, table, first.text, first.number, label.end())
        return
    total = _cell(stated["cell"], "")
    columns = [i for i, h in enumerate(table.header) if _TIME_HEADER.match(_label(h))]
    timed = [h for h in table.header if _ANY_TIME_HEADER.search(h)]
    if total is None or total.family != "duration" or len(columns) != 1 or len(timed) != 1:
        return  # which column the total adds up must be the only one about time
    terms: list[_Cell] = []
    for cells, _ in table.rows:
        text = cells[columns[0]] if columns[0] < len(cells) else ""
        term = _cell(text, "")
        if term is None or term.family != "duration":
            return  # a range or a word: the column's sum is not stated
        terms.append(term)
    if len(terms) < 2 or any(t.rest != total.rest for t in terms):
        return
    expression = " + ".join(_in_unit_of(t, total) for t in terms)
    claimed = ("~" if total.approx else "") + total.number
    yield Draft(
        kind="arithmetic",
        quote=first.text.strip(),
        line=first.number,
        fields={
            "expression": expression,
            "claimed": claimed,
            "carried": sorted({t.number for t in terms}),
        },
        confidence=0.75,
        recognizer=NAME,
        slug="total-time",
        tolerance=_tolerance(total),
        inputs=_cell_inputs(document, table, columns[0], list(range(len(table.rows)))),
    )


_PROSE_RANGE = re.compile(
    r"[\s*_]*[:：][\s*_]*(?:~|≈|约)?\s*(?P<low>\d+(?:\.\d+)?)\s*[-–~]\s*(?P<high>\d+(?:\.\d+)?)"
    r"\s*(?P<unit>[a-z小时分钟天]+)[\s*_]*(?:$|[.。(（])",
    re.IGNORECASE,
)


def _prose_range_total(
    document: Document, table: Table, text: str, line: int, at: int
) -> Iterator[Draft]:
    """A schedule's total stated as a range ("**Total time**: ~8-10 hours"): the time column's
    terms, in the range's unit, against it (``sum_range``)."""
    stated = _PROSE_RANGE.match(text, at)
    if stated is None or _MINUTES.get(stated["unit"].lower()) is None:
        return
    unit = _MINUTES[stated["unit"].lower()]
    columns = [i for i, h in enumerate(table.header) if _TIME_HEADER.match(_label(h))]
    timed = [h for h in table.header if _ANY_TIME_HEADER.search(h)]
    if len(columns) != 1 or len(timed) != 1:
        return
    terms: list[str] = []
    for cells, _ in table.rows:
        term = _cell(cells[columns[0]] if columns[0] < len(cells) else "", "")
        if term is None or term.family != "duration" or _MINUTES[term.unit] != unit or term.rest:
            return  # a term in another unit, a range or a word: no one sum to compare
        terms.append(("~" if term.approx else "") + term.number)
    if len(terms) < 2:
        return
    yield Draft(
        kind="sum_range",
        quote=text.strip(),
        line=line,
        fields={"terms": terms, "low": stated["low"], "high": stated["high"]},
        confidence=0.7,
        recognizer=NAME,
        slug="total-time-range",
        inputs=_cell_inputs(document, table, columns[0], list(range(len(table.rows)))),
    )


_BOLD_NUMBER = re.compile(r"^\s*\*\*\s*(?:~|≈)?\s*\d[^*]*\*\*\s*$")


def _bold_total_rows(document: Document, table: Table, units: list[str]) -> Iterator[Draft]:
    """A last row with no label whose only cells are bold numbers (``| **100** | | |``): each
    bold cell totals its column."""
    row, line = table.rows[-1]
    filled = [i for i, text in enumerate(row) if _MARKUP.sub("", text).strip()]
    if not filled or len(filled) == len(row) or not all(_BOLD_NUMBER.match(row[i]) for i in filled):
        return
    for column in filled:
        unit = units[column] if column < len(units) else ""
        total = _cell(row[column], unit)
        if total is None:
            continue
        terms = _column_terms(table, range(len(table.rows) - 1), column, units, skip_nothing=False)
        if len(terms) < 2:
            continue
        relation = _relation([t for _, t in terms], total, "+")
        if relation is not None:
            draft = _draft(
                document, table, row, line, relation, [t for _, t in terms], "bold-total", total
            )
            draft = dataclasses.replace(
                draft, inputs=_cell_inputs(document, table, column, [i for i, _ in terms])
            )
            yield _with_carried(draft, document, table, column, terms, relation)


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every total, share and GiB cell a table's headers
    relate to other cells."""
    for index, block in enumerate(document.blocks):
        table = block.table
        if table is None or len(table.header) < 2 or len(table.rows) < 2:
            continue
        units = _header_units(table)
        yield from _prose_totals(document, index, table)
        yield from _bold_total_rows(document, table, units)
        yield from _total_rows(document, table, units)
        yield from _crossed_cells(document, table, units)
        yield from _total_columns(document, table, units)
        yield from _shares(document, table, units)
        yield from _shares_of_stated(document, table, units)
        yield from _gib_columns(document, table)
        yield from _ratios(document, table, units)
