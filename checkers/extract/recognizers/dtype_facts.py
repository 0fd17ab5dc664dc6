"""Recogniser ``dtype_facts``: the width, bytes, value count or largest value of a named number
type, stated in prose, a list item, a table cell or a table row.

Recognises a type ``checkers/data/dtypes.yaml`` writes (``FP32``, ``float16``, ``bf16``,
``INT8``, ``FP8``, ``NF4``…; several joined by ``/``: ``FP16/BF16``) and, after it in the same
clause, a number whose role the text names:

* bits — ``16-bit``, ``8 bits``, ``(32-bit float)``, ``位宽 16``;
* bytes — ``4 bytes``, ``2 bytes per parameter``, ``= 1 byte``, ``Parameters × 0.5 bytes``,
  ``2 字节``;
* values — ``256 possible values``, ``16 levels``;
* largest — ``±65,504``, ``max 448``, ``-128 to 127`` (the upper end).

In a table whose first column names a type in each row, a column headed Bits (``Bit width``,
``位宽``), Bytes (``Bytes per param``, ``字节``) or Range/Max (``±N`` cells) gives the same
figures, quoted by the row. Nothing is drafted where the number is about part of the format
(``23 mantissa bits``, ``5 exponent bits``, "drop the bottom 16 bits"), where several numbers
answer several types ("8 or 4 bits"), or where the number is a count of something else (``4-bit
quantization of a 7B model``: only ``N-bit`` right after the name or ``N-bit float/integer``
state the type's width).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.data import dtype_table
from checkers.extract.document import Block, Document, Table
from checkers.extract.draft import Draft
from checkers.extract.recognizers.dtype_savings import TYPE_NEEDS
from checkers.kinds.dtype_spec import Input

__all__ = ["recognize"]

NAME = "dtype_facts"
NEEDS = TYPE_NEEDS
"""Every figure is stated of a type :func:`_names` matches (its names are the same table's)."""

_NUMBER = r"(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
_SCIENTIFIC = (
    r"(?P<n>(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
    r"(?:\s*[×x*]\s*10(?:\^\(?[-+−]?\d+\)?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)|e[+-]?\d+)?)"
)


def _numbered(pattern: str) -> str:
    """The pattern with each ``(?P<n>`` renamed ``n1``, ``n2``…: an alternation of forms that
    each capture the number (Python refuses one name twice)."""
    count = iter(range(1, 100))
    return re.sub(r"\(\?P<n>", lambda _: f"(?P<n{next(count)}>", pattern)


def _number_of(match: re.Match[str]) -> str:
    """The number a role pattern captured, whichever of its forms matched."""
    return next(v for k, v in match.groupdict().items() if v is not None and k.startswith("n"))


# Where a number states the type's own figure: right after the name ("FP32 (32-bit", "INT8: 8
# bits", "float32 = 4 bytes"), or after "is"/"uses"… and nothing else ("FP32 weights with 8-bit
# integers" names another type).
_STATED = r"(?:^\W{0,4}|^\s*(?:is|are|为|是)\s+(?:an?\s+|only\s+)?)(?<![\d,.])"
_ROLES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (quantity, re.compile(_numbered(pattern), re.IGNORECASE))
    for quantity, pattern in (
        (
            "bits",
            rf"{_STATED}{_NUMBER}[\s-]*(?:bits?\b|位)(?![\s-]*(?:of\s+)?(?:precision|mantissa|exponent|"
            r"significand|fraction|integers?|ints?|accumulat|scale))"
            rf"|位宽\s*(?:为|是|:|：)?\s*{_NUMBER}",
        ),
        (
            "bytes",
            rf"(?:{_STATED}|(?:parameters?|params|weights?)\s*[×x*]\s*){_NUMBER}\s*(?:bytes?|字节)\b"
            rf"|^\s*(?:uses?|takes?|needs?|占用?)\s+(?:only\s+)?{_NUMBER}\s*(?:bytes?|字节)\s*"
            r"(?:per|for each|each|/|每个?)\s*"
            r"(?:param(?:eter)?|value|weight|number|element|entry|参数)",
        ),
        ("values", rf"{_NUMBER}\s+(?:possible\s+|distinct\s+|different\s+)?(?:values|levels)\b"),
        (
            "largest",
            rf"(?:±|\+/-|max(?:imum)?\s*(?:value)?\s*(?:of|is|:|=)?\s*)\s*{_SCIENTIFIC}"
            rf"|[-−–]\s*\d+\s*(?:to|~|…|\.\.)\s*{_NUMBER}(?![\d.])",
        ),
    )
)
_PART_OF_FORMAT = re.compile(
    r"mantissa|exponent|fraction|significand|sign\b|(?:bottom|top|upper|lower|last|first)\s+\d"
    r"|尾数|指数|符号",
    re.IGNORECASE,
)
_SEVERAL = re.compile(r"\d\s*(?:or|and|/|、|或)\s*\d", re.IGNORECASE)
_CLAUSE_END = re.compile(r"(?<=[.!?])\s+|[。！？；;]\s*|\b(?:while|but|whereas|vs\.?|versus)\b")
_DIGIT = re.compile(r"\d")
_BITS_HEADER = re.compile(r"^(?:bits?|bit[\s-]*width|width \(bits\)|位宽|位数)$", re.IGNORECASE)
_BYTES_HEADER = re.compile(
    r"^(?:bytes?(?:\s*(?:/|per)\s*(?:param(?:eter)?|value|weight|element))?|字节(?:数)?)$",
    re.IGNORECASE,
)
_RANGE_HEADER = re.compile(
    r"^(?:range|max(?:imum)?(?: value)?|数值范围|范围|最大值)$", re.IGNORECASE
)
_CELL_NUMBER = re.compile(rf"^\s*{_NUMBER}\s*$")
_MARKUP = re.compile(r"\*\*|__|`")


def _names() -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in dtype_table().written)
    return re.compile(
        rf"(?<![\w-])(?:{names})(?:\s*/\s*(?:{names}))*(?![\w-])",
        re.IGNORECASE,
    )


def _name_cue() -> re.Pattern[str]:
    """What every match of :func:`_names` holds: a letter that stands right before the first
    digit of a name, then a digit that is a name's first (``p1`` of ``fp16``, ``t8`` of
    ``int8``), read as case-insensitively as the names. One class of each (a pattern of the
    pairs themselves is slower than the names): far cheaper than the names, and few lines
    with a digit hold one."""
    letters: set[str] = set()
    digits: set[str] = set()
    for name in dtype_table().written:
        at = next((i for i, char in enumerate(name) if char.isdigit()), 0)
        if at == 0:
            return re.compile("")  # a name without a letter before a digit: no cue, every line
        letters.add(name[at - 1])
        digits.add(name[at])
    return re.compile(
        "[" + re.escape("".join(sorted(letters))) + "][" + "".join(sorted(digits)) + "]",
        re.IGNORECASE,
    )


_NAMES: tuple[re.Pattern[str], re.Pattern[str]] | None = None


def _name_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(:func:`_name_cue`, :func:`_names`), compiled once."""
    global _NAMES
    if _NAMES is None:
        _NAMES = _name_cue(), _names()
    return _NAMES


def _name_pattern() -> re.Pattern[str]:
    return _name_patterns()[1]


def _one_width(names: str) -> bool:
    """Every type a joined name lists has the same width (``FP16/BF16``, not ``FP16/INT8``)."""
    entries = [dtype_table().find(n) for n in names.split("/")]
    return all(e is not None for e in entries) and len({e.bits for e in entries if e}) == 1


def _valid(fields: dict[str, str]) -> bool:
    try:
        Input.model_validate(fields)
    except ValueError:
        return False
    return True


def _clauses(text: str) -> Iterator[tuple[int, int]]:
    at = 0
    for match in _CLAUSE_END.finditer(text):
        yield at, match.start()
        at = match.end()
    yield at, len(text)


def _text_drafts(text: str, line: int) -> Iterator[Draft]:
    """Figures stated after a type name in one line of prose or one table cell."""
    for start, end in _clauses(text):
        clause = text[start:end]
        if not _DIGIT.search(clause):
            continue
        names = list(_name_pattern().finditer(clause))
        for index, name in enumerate(names):
            stop = names[index + 1].start() if index + 1 < len(names) else len(clause)
            after = clause[name.end() : stop]
            if _SEVERAL.search(after) or not _one_width(name.group()):
                continue
            for quantity, pattern in _ROLES:
                match = pattern.search(after)
                if match is None:
                    continue
                if _PART_OF_FORMAT.search(after[: match.end()]):
                    continue
                value = _number_of(match)
                fields = {"dtype": name.group(), "quantity": quantity, "value": value}
                if not _valid(fields):
                    continue
                quote_end = name.end() + match.end()
                yield Draft(
                    kind="dtype_spec",
                    quote=clause[name.start() : quote_end].strip(),
                    line=line,
                    fields=fields,
                    confidence=0.8,
                    recognizer=NAME,
                    slug=f"{name.group()}-{quantity}",
                )


def _roles_in(text: str) -> list[tuple[str, str]]:
    """(quantity, value) of each role a description of a type states, first of each."""
    found = []
    for quantity, pattern in _ROLES:
        match = pattern.search(text)
        if match is not None and not _PART_OF_FORMAT.search(text[: match.end()]):
            found.append((quantity, _number_of(match)))
    return found


def _table_drafts(document: Document, table: Table) -> Iterator[Draft]:
    """A table whose first column names a type: its Bits, Bytes and Range columns."""
    columns: list[tuple[int, str]] = []
    for index, header in enumerate(table.header):
        label = _MARKUP.sub("", header).strip()
        if index and _BITS_HEADER.match(label):
            columns.append((index, "bits"))
        elif index and _BYTES_HEADER.match(label):
            columns.append((index, "bytes"))
        elif index and _RANGE_HEADER.match(label):
            columns.append((index, "largest"))
    for row, line in table.rows:
        first = _MARKUP.sub("", row[0]).strip() if row else ""
        name = _name_pattern().match(first)
        if name is None or not _one_width(name.group()):
            continue
        if first[name.end() :].strip() and not re.match(
            r"^\s*(?:[(（].*[)）]|e[45]m[23])\s*$", first[name.end() :], re.IGNORECASE
        ):
            continue  # "INT4 ONNX", "FP16 model": a thing stored in the type, not the type
        found: list[tuple[str, str]] = []
        for column, quantity in columns:
            cell = _MARKUP.sub("", row[column]).strip() if column < len(row) else ""
            value = _cell_value(cell, quantity)
            if value is not None:
                found.append((quantity, value))
        # "| FP32 | 32-bit floating point, 4 bytes per weight |": a cell describing the type.
        described = {column for column, _ in columns}
        for column in range(1, len(row)):
            if column not in described and not _SEVERAL.search(row[column]):
                found += _roles_in(_MARKUP.sub("", row[column]))
        for quantity, value in dict(found).items():
            fields = {"dtype": name.group(), "quantity": quantity, "value": value}
            if _valid(fields):
                yield Draft(
                    kind="dtype_spec",
                    quote=document.source_line(line) or table.row_source(row),
                    line=line,
                    fields=fields,
                    confidence=0.8,
                    recognizer=NAME,
                    slug=f"{name.group()}-{quantity}",
                )


_BYTES_CELL = re.compile(rf"^\s*{_NUMBER}\s*(?:bytes?|B|字节)?\s*$", re.IGNORECASE)
_LARGEST_CELL = re.compile(
    _numbered(
        rf"^\s*(?:±|\+/-)\s*{_SCIENTIFIC}\s*$"
        rf"|^\s*[-−–]\s*\d+\s*(?:to|~|…|\.\.)\s*\+?{_NUMBER}\s*$"
    ),
    re.IGNORECASE,
)


def _cell_value(cell: str, quantity: str) -> str | None:
    pattern = {"bits": _CELL_NUMBER, "bytes": _BYTES_CELL, "largest": _LARGEST_CELL}[quantity]
    match = pattern.match(cell)
    return _number_of(match) if match else None


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``dtype_spec`` claim for each figure the lesson states of a named number type."""
    for block in document.blocks:
        if block.kind not in ("paragraph", "heading", "table") or not block.lines:
            continue
        if block.table is not None:
            yield from _table_drafts(document, block.table)
        yield from _line_drafts(block)


def _line_drafts(block: Block) -> Iterator[Draft]:
    cue, names = _name_patterns()  # a line with a type's name holds its cue
    for line in block.lines:
        if _DIGIT.search(line.text) and cue.search(line.text) and names.search(line.text):
            yield from _text_drafts(line.text, line.number)
