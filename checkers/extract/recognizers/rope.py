"""Recogniser ``rope``: RoPE frequencies θ_i, angles m·θ_i and wavelengths 2π/θ_i a lesson prints.

Recognises, in a lesson that names rotary position embedding (``RoPE``, ``rotary``,
``旋转位置编码``, ``RoFormer``) and *defines* its frequencies, so that every number drafted is one
the text says is θ_i (the quantity is read, never guessed from a value's size):

* the definition, in prose, LaTeX or code, the last one above the statement:
  ``θ_i = 10000^(−2i/d)``, ``\\theta_i = \\frac{1}{base^{2i/d}}``, RoFormer's
  ``θ_i = 10000^{−2(i−1)/d}`` (pairs counted from 1), or code
  ``inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2) / dim))``. It gives the base (a number,
  or a name such as ``base``/``rope_theta`` whose value the lesson states) and the symbol of the
  rotated width (``d``, ``d_head``, ``dim``…), whose value the lesson must state too
  (``d = 8``, ``dim=8``: the last one above);
* a frequency ``θ_2 = 10000^(−4/8) = 0.01`` (the first lone number of the chain is the value;
  a chain that multiplies before it states something else and is skipped);
* an angle at a position: ``3θ_1 = 3 × 0.1 = 0.3``, ``m·θ_1 = 0.2`` with ``m = 2`` on the line
  before it (the last number of the chain);
* a wavelength ``λ_3 = 2π/θ_3 ≈ 6283`` once the lesson defines ``λ_i = 2π/θ_i``;
* a labelled vector of all d/2 frequencies: ``θ = [1, 0.1, 0.01, 0.001]``,
  ``inv_freq: [...]``, ``频率 = [...]`` (a code comment included).
* a table with a pair column (``i``, ``pair``, ``维度对``) and columns of θ_i, of angles at a
  position the header states (``angle at m = 10``, ``位置 m = 10 的角度``) or of wavelengths;
* a vector rotated at a position, of the stated width: ``RoPE([1, 0, 0, 1], m=2) = [...]``
  (each pair (x, y) becomes (x cos − y sin, x sin + y cos); the pairs may be (2i, 2i+1) or
  (i, i + d/2), and the verdict names the one that matched).

Readings: the base is the definition's (10000, 500000 for Llama 3, or the stated value of its
name); a section that states another base (``rope_theta = 500000`` next to a 10000 formula) is
skipped, as two bases are in play. The pair number counts from 1 when the definition writes
``i − 1``, from 0 when the lesson writes a θ_0, and otherwise either (the verdict says which
reading matched). Frequencies and angles do not depend on the pair layout ((2i, 2i+1) or
(i, i + d/2)); a rotated vector is checked under both. Angles in degrees, values cut by
markup, and pairs beyond d/2 are not drafted. Each becomes a ``positional`` claim with
``encoding: rope``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from checkers.extract.document import Document, Line, Table
from checkers.extract.draft import Draft
from checkers.extract.latex import plain

__all__ = ["recognize"]

NAME = "rope"
NEEDS = ("θ", "theta", "freq")
"""A definition of θ_i holds one of them (the first test of :func:`recognize`)."""

_LITERALS = ("rope", "RoPE", "Rope", "ROPE", "rotary", "Rotary", "旋转", "RoFormer")
"""Substrings a lesson about RoPE contains, tested before any pattern."""
_HINTS = ("2i", "2j", "2k", "2 i", "2(i", "2(j", "2 (i", "2*i", "2·i", "2 * i", "arange(0")
"""Substrings of every definition of θ_i the recogniser reads."""
_MAY_CLAIM = re.compile(r"(?:θ|theta|λ|lambda|freq|频率)[^\n]*\d")
"""A line that may print a frequency, angle or wavelength: a symbol, then a digit."""
_ROTATES = re.compile(r"(?:\bRoPE|\brope|\brotate\w*|\bapply_rotary\w*|旋转)\s*\(")
"""A line that may apply RoPE to a printed vector: ``RoPE([1, 0], m=1) = [...]``."""
_TOPIC = re.compile(r"\bRoPE\b|rotary|旋转(?:式)?位置|旋转编码|RoFormer", re.I)
_THETA = r"(?:θ|\\theta(?![A-Za-z])|\btheta)"
_SYMBOL = r"[A-Za-z][A-Za-z_]*"
_BASE = r"(?P<base>\d[\d,_]*(?:\.\d+)?|[A-Za-z][\w]*)"
_LETTER = r"_?\(?\{?(?P<letter>[ijk])\}?\)?"
"""The pair index of the definition: θ_i, θ_{j}, \theta_(k)."""
_PAIR_INDEX = r"(?P<index>(?P=letter)|\(\s*(?P=letter)\s*[-−]\s*1\s*\))"
# θ_i = base^(−2i/d), and θ_i = 1/base^(2i/d) (LaTeX \frac read by plain() as ((1)/(base^(2i/d)))).
_DEFINITIONS = (
    re.compile(
        rf"{_THETA}{_LETTER}\s*[=＝]\s*{_BASE}\s*\^\s*[({{]?\s*[-−]\s*2\s*(?:·|\*|×)?\s*"
        rf"{_PAIR_INDEX}\s*/\s*[({{]?(?P<d>{_SYMBOL})"
    ),
    re.compile(
        rf"{_THETA}{_LETTER}\s*[=＝]\s*\(*1\)?\s*/\s*\(*{_BASE}\s*\^\s*[({{]?\s*2\s*"
        rf"(?:·|\*|×)?\s*{_PAIR_INDEX}\s*/\s*[({{]?(?P<d>{_SYMBOL})"
    ),
)
# inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim));
# 10000 ** (-np.arange(0, d, 2) / d); theta ** (torch.arange(0, dim, 2)[: (dim // 2)] / dim)
_CODE_DEFINITION = re.compile(
    rf"{_BASE}\s*\*\*\s*\(\s*[-−]?\s*\(?\s*(?:torch|np|numpy|jnp|mx)\.arange\(\s*0\s*,\s*"
    rf"(?P<d>{_SYMBOL}|\d+)\s*,\s*2\s*\)[^\n]{{0,40}}?/\s*\(?\s*(?P=d)(?![\w.])"
)
_WAVELENGTH_DEFINITION = re.compile(
    rf"(?:λ|\\lambda(?![A-Za-z]))_?\(?\{{?i\}}?\)?\s*[=＝]\s*\(*2\s*π\)?\s*/\s*\(*{_THETA}_?\(?i"
)
_NUMBER = r"[-−]?\d+(?:\.\d+)?(?:[eE][-−+]?\d+|\s*[×x]\s*10\^\(?[-−]?\d+\)?)?"
_LONE_NUMBER = re.compile(rf"\s*(?P<value>{_NUMBER})\s*(?:rad|弧度)?\s*")
_WORDS = re.compile(r"[^\W\d_]+(?:\s+[^\W\d_]+)*\s*")
"""Words after the last value of a chain (``rad``, ``positions``, ``弧度``): its unit."""
_CLAIM = re.compile(
    rf"(?<![\w\\])(?:(?P<pos>\d+|m|pos)\s*(?:·|×|\*|\\cdot)?\s*)?"
    rf"(?P<symbol>{_THETA}|λ|\\lambda(?![A-Za-z]))_\(?\{{?(?P<pair>\d+)\}}?\)?(?!\w|\.\d)"
)
_VECTOR = re.compile(
    rf"(?:{_THETA}|inv_freqs?|freqs|frequencies|频率)\s*(?:=|:|：|→)\s*"
    rf"\[\s*(?P<values>{_NUMBER}(?:\s*,\s*{_NUMBER})+)\s*\]"
)
_SEPARATOR = re.compile(r"[;；，。]|,\s|\s(?:and|so|while|和|而)\s")
_MULTIPLY = re.compile(r"[×*·]")
_DEGREES = re.compile(r"^\s*(?:°|degrees?|度)")
_POSITION = re.compile(r"(?<![\w])(?:m|pos|position|位置)\s*[=＝]\s*(\d+)(?![\d.])")
_BASE_STATEMENT = re.compile(
    r"(?<![\w])(?:rope_theta|rope_base|theta_base|base)\s*(?:=|:|：)\s*\"?(\d[\d,_]*(?:\.\d+)?)"
)


@dataclass(frozen=True)
class _Definition:
    """What the lesson's definition of θ_i says."""

    line: int
    """Where it stands."""
    base: str
    """The base as written: a number, or the name of one."""
    width: str
    """The symbol (or number) of the rotated width d."""
    from_one: bool
    """It writes 2(i − 1): pairs counted from 1 (RoFormer)."""


def _number_text(text: str) -> str:
    return text.replace(",", "").replace("_", "")


def _normalised(text: str) -> str:
    """plain() of a line with ``d_(head)`` read back as ``d_head``."""
    return re.sub(r"_\((\w+)\)", r"_\1", plain(text)[0])


def _definitions(document: Document) -> list[_Definition]:
    found: list[_Definition] = []
    for _, line in document.lines():
        raw = line.text
        if ("^" not in raw and "**" not in raw) or not (
            "θ" in raw or "theta" in raw or "freq" in raw
        ):
            continue
        text = _normalised(raw)
        for pattern in _DEFINITIONS:
            for match in pattern.finditer(text):
                found.append(
                    _Definition(
                        line.number, match.group("base"), match.group("d"), "1" in match["index"]
                    )
                )
        for match in _CODE_DEFINITION.finditer(text):
            found.append(_Definition(line.number, match.group("base"), match.group("d"), False))
    return found


class _Statements:
    """The values the lesson gives a symbol (``d = 8``, ``dim=8``, ``base: 500000``), read once
    per symbol."""

    def __init__(self, document: Document, section_of: dict[int, int]) -> None:
        self._document = document
        self._section_of = section_of
        self._found: dict[str, dict[int, tuple[list[int], list[str]]]] = {}

    def last(self, symbol: str, before: int, sections: set[int]) -> str | None:
        """The value last given ``symbol`` above line ``before``, in one of ``sections`` (the
        statement's and its definition's: a ``d = 512`` about another width elsewhere in the
        lesson is not this one)."""
        if symbol[0].isdigit():
            return _number_text(symbol)
        if symbol not in self._found:
            self._found[symbol] = self._read(symbol)
        found: tuple[int, str] | None = None
        for section in sections:
            numbers, values = self._found[symbol].get(section, ([], []))
            at = bisect.bisect_right(numbers, before)
            if at and (found is None or numbers[at - 1] > found[0]):
                found = numbers[at - 1], values[at - 1]
        return found[1] if found else None

    def _read(self, symbol: str) -> dict[int, tuple[list[int], list[str]]]:
        """Section → (lines, values) of every statement of ``symbol``, in lesson order."""
        pattern = re.compile(
            rf"(?<![\w\\]){re.escape(symbol)}\s*(?::\s*(?:float|int)\s*=|=|:|：)\s*\"?"
            rf"(\d[\d,_]*(?:\.\d+)?)(?!\w|\.\d)"
        )
        head = symbol.split("_")[0]
        by_section: dict[int, tuple[list[int], list[str]]] = {}
        for _, line in self._document.lines():
            if head not in line.text:
                continue
            for match in pattern.finditer(_normalised(line.text)):
                numbers, values = by_section.setdefault(
                    self._section_of.get(line.number, -1), ([], [])
                )
                numbers.append(line.number)
                values.append(_number_text(match.group(1)))
        return by_section


def _split_chain(rest: str) -> list[str] | None:
    """The parts of ``= a = b ≈ c`` after a claimed symbol, cut at the clause's end."""
    cut = _SEPARATOR.search(rest)
    clause = rest[: cut.start()] if cut else rest
    clause = clause.rstrip(" .*$`")
    if not re.match(r"\s*(?:=|≈|＝)", clause):
        return None
    return re.split(r"=|≈|＝", clause)[1:]


def _claimed(parts: list[str], *, angle: bool) -> tuple[str, int] | None:
    """The claimed number of a chain and the index of its part: for a frequency the first lone
    number (no multiplication before it), for an angle the last."""
    last = len(parts) - 1
    lone = [
        (i, m)
        for i, p in enumerate(parts)
        if (m := _LONE_NUMBER.fullmatch(p))
        or (i == last and (m := _LONE_NUMBER.match(p)) and _WORDS.fullmatch(p, m.end()))
    ]
    if not lone:
        return None
    index, match = lone[-1] if angle else lone[0]
    if angle and index != len(parts) - 1:
        return None
    if not angle and any(_MULTIPLY.search(p) for p in parts[:index]):
        return None
    return match.group("value"), index


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``positional`` (rope) claim for each θ_i, m·θ_i, 2π/θ_i and θ vector the lesson
    prints after defining θ_i, in a section about RoPE."""
    text = document.text
    # Substring tests first, the rarest first (a definition's line holds θ, theta or freq).
    if "θ" not in text and "theta" not in text and "freq" not in text:
        return
    if ("^" not in text and "**" not in text) or not any(hint in text for hint in _HINTS):
        return
    if not any(word in text for word in _LITERALS) or not _TOPIC.search(text):
        return
    definitions = _definitions(document)
    if not definitions:
        return
    starts = [d.line for d in definitions]
    wavelength_defined = [
        line.number
        for _, line in document.lines()
        if ("λ" in line.text or "lambda" in line.text)
        and _WAVELENGTH_DEFINITION.search(_normalised(line.text))
    ]
    zero_based = bool(re.search(rf"{_THETA}_\{{?0(?![\d.])", text))
    section_of: dict[int, int] = {}
    topical: dict[int, bool] = {}
    section_bases: dict[int, set[str]] = {}
    for block in document.blocks:
        for line in block.lines:
            section_of[line.number] = block.section
    for number in set(section_of.values()):
        topical[number] = False
    for block in document.blocks:
        joined = " ".join(line.text for line in block.lines)
        if _TOPIC.search(joined):
            topical[block.section] = True
        for match in _BASE_STATEMENT.finditer(joined):
            section_bases.setdefault(block.section, set()).add(_number_text(match.group(1)))
    for number, chain in document.heading_chains.items():
        if _TOPIC.search(chain):
            topical[number] = True
    statements = _Statements(document, section_of)

    def reading_at(number: int) -> tuple[dict[str, object], str, int] | None:
        """The claim fields common to a statement on line ``number``, its pair numbering and
        width; None where the section is not about RoPE or an input is not stated."""
        section = section_of.get(number, 0)
        above = bisect.bisect_right(starts, number)
        if not topical.get(section, False) or not above:
            return None
        definition = definitions[above - 1]
        sections = {section, section_of.get(definition.line, section)}
        base = definition.base
        if not base[0].isdigit():
            stated = statements.last(base, number, sections)
            if stated is None:
                return None
            base = stated
        base = _number_text(base)
        if section_bases.get(section, {base}) - {base}:
            return None  # another base is stated beside this one: two readings of every value
        width = statements.last(definition.width, number, sections)
        if width is None or not width.isdigit() or int(width) % 2 or int(width) < 2:
            return None
        numbering = "from_1" if definition.from_one else ("from_0" if zero_based else "either")
        return {"encoding": "rope", "d_head": width, "base": base}, numbering, int(width)

    for block in document.blocks:
        if block.kind == "table" and block.table is not None and block.line > starts[0]:
            yield from _table_drafts(document, block.table, reading_at)
    for _, line in document.lines():
        if line.number < starts[0]:
            continue
        rotates = "(" in line.text and _ROTATES.search(line.text)
        if not rotates and not _MAY_CLAIM.search(line.text):
            continue
        found = reading_at(line.number)
        if found is None:
            continue
        common, numbering, width = found
        if rotates:
            yield from _rotations(line, common, width)
        yield from _scalars(line, common, numbering, width, wavelength_defined)
        plain_text, offsets = plain(line.text)
        for match in _VECTOR.finditer(plain_text):
            values = [v.strip() for v in match.group("values").split(",")]
            if len(values) != width // 2:
                continue
            yield Draft(
                kind="positional",
                quote=line.text[offsets[match.start()] : offsets[match.end() - 1] + 1],
                line=line.number,
                fields={**common, "claimed": values},
                confidence=0.7,
                recognizer=NAME,
                slug="rope-frequencies",
            )


_ROTATION = re.compile(
    rf"(?:\bRoPE|\brope|\brotate\w*|\bapply_rotary\w*|旋转)\s*\(\s*"
    rf"\[(?P<x>{_NUMBER}(?:\s*,\s*{_NUMBER})+)\]\s*,\s*(?:(?:m|pos|position)\s*=\s*)?"
    rf"(?P<pos>\d+)\s*\)\s*(?:=|≈|→|->)\s*\[(?P<claimed>{_NUMBER}(?:\s*,\s*{_NUMBER})+)\]"
)


def _rotations(line: Line, common: dict[str, object], width: int) -> Iterator[Draft]:
    """``RoPE([x…], m) = [rotated…]`` for a vector of the stated width: the pairs may be
    (2i, 2i+1) or (i, i + d/2), as the lesson does not say which."""
    text, offsets = plain(line.text)
    for match in _ROTATION.finditer(text):
        x = [v.strip() for v in match["x"].split(",")]
        claimed = [v.strip() for v in match["claimed"].split(",")]
        if len(x) != width or len(claimed) != width:
            continue
        yield Draft(
            kind="positional",
            quote=line.text[offsets[match.start()] : offsets[match.end() - 1] + 1],
            line=line.number,
            fields={**common, "pos": match["pos"], "x": x, "claimed": claimed, "pairing": "either"},
            confidence=0.7,
            recognizer=NAME,
            slug="rope-rotation",
        )


def _scalars(
    line: Line,
    common: dict[str, object],
    numbering: str,
    width: int,
    wavelength_defined: list[int],
) -> Iterator[Draft]:
    """θ_k, N·θ_k and λ_k statements of one line."""
    text, offsets = plain(line.text)
    for match in _CLAIM.finditer(text):
        wavelength = match.group("symbol").lstrip("\\").startswith(("λ", "lambda"))
        if wavelength and not (wavelength_defined and wavelength_defined[0] <= line.number):
            continue
        pos = match.group("pos")
        if pos is not None and not pos.isdigit():
            stated = list(_POSITION.finditer(text[: match.start()]))
            if not stated:
                continue
            pos = stated[-1].group(1)
        if wavelength and pos is not None:
            continue
        rest = text[match.end() :]
        parts = _split_chain(rest)
        if parts is None:
            continue
        claimed = _claimed(parts, angle=pos is not None)
        if claimed is None:
            continue
        value, index = claimed
        # Where the claimed number ends in the plain text: inside its own part of the chain.
        value_end = match.end() + _part_offset(rest, index) + parts[index].find(value) + len(value)
        if _DEGREES.match(text[value_end:]):
            continue
        pair = int(match.group("pair"))
        first = 1 if numbering == "from_1" else 0
        last = width // 2 - (0 if numbering != "from_0" else 1)
        if not first <= pair <= last:
            continue
        fields: dict[str, object] = {**common, "pair": str(pair), "claimed": value}
        if numbering != "from_0":
            fields["numbering"] = numbering
        if pos is not None:
            fields["pos"] = pos
        if wavelength:
            fields["wavelength"] = True
        quote = line.text[offsets[match.start()] : offsets[value_end - 1] + 1]
        yield Draft(
            kind="positional",
            quote=quote.strip(" $"),
            line=line.number,
            fields=fields,
            confidence=0.7,
            recognizer=NAME,
            slug=f"rope-{'wavelength' if wavelength else 'angle' if pos else 'theta'}-{pair}",
        )


def _part_offset(rest: str, index: int) -> int:
    """Where part ``index`` of the chain (after the ``index + 1``-th relation sign) starts."""
    seen = -1
    for at, char in enumerate(rest):
        if char in "=≈＝":
            seen += 1
            if seen == index:
                return at + 1
    return len(rest)


_PAIR_HEADER = re.compile(
    r"^(?:pair|pairs|pair index|index|dimension pair|维度对|频率对|对|序号|下标)?"
    r"\s*[(（]?\s*[ijk]?\s*[)）]?$",
    re.I,
)
_FREQUENCY_HEADER = re.compile(r"θ|theta|frequency|频率", re.I)
_WAVELENGTH_HEADER = re.compile(r"wavelength|波长|2\s*π|period|周期", re.I)
_ANGLE_HEADER = re.compile(
    r"(?:^|[^\w])(?:m|pos|position|位置)\s*[=＝]\s*(?P<pos>\d+)(?![\d.])", re.I
)
_TABLE_NUMBER = r"[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-−+]?\d+)?"
"""A number alone in a table cell, where a comma can only be a thousands separator."""
_TABLE_CELL = re.compile(
    rf"\s*(?:[^=≈]*[=≈]\s*)?(?P<value>{_TABLE_NUMBER}|{_NUMBER})\s*(?:rad|弧度)?\s*"
)


def _column_quantity(header: str) -> tuple[str, str | None] | None:
    """What a table column holds: (``frequency`` | ``angle`` | ``wavelength``, the position of
    an angle column); None for another column."""
    text = plain(header)[0].strip(" $*`")
    if _WAVELENGTH_HEADER.search(text):
        return "wavelength", None
    angle = _ANGLE_HEADER.search(text)
    if angle is not None and (_FREQUENCY_HEADER.search(text) or re.search(r"angle|角度", text)):
        return "angle", angle.group("pos")
    if _FREQUENCY_HEADER.search(text) and not re.search(r"angle|角度|\bm\s*[·×*]?\s*θ", text):
        return "frequency", None
    return None


def _table_drafts(
    document: Document,
    table: Table,
    reading_at: Callable[[int], tuple[dict[str, object], str, int] | None],
) -> Iterator[Draft]:
    """A table with a pair column and columns of θ_i, angles at a stated position or
    wavelengths: one claim per cell."""
    headers = [plain(h)[0].strip(" $*`") for h in table.header]
    pair_columns = [j for j, h in enumerate(headers) if h and _PAIR_HEADER.fullmatch(h)]
    columns = {j: q for j, h in enumerate(table.header) if (q := _column_quantity(h)) is not None}
    if len(pair_columns) != 1 or not columns:
        return
    found = reading_at(table.line)
    if found is None:
        return
    common, numbering, width = found
    pair_column = pair_columns[0]
    pairs = [cells[pair_column].strip() for cells, _ in table.rows if len(cells) > pair_column]
    if not all(p.isdigit() for p in pairs):
        return
    if "0" in pairs:
        numbering = "from_0"
    first = 1 if numbering == "from_1" else 0
    last = width // 2 - (1 if numbering == "from_0" else 0)
    for cells, line in table.rows:
        pair = int(cells[pair_column])
        if not first <= pair <= last:
            continue
        for j, (quantity, pos) in columns.items():
            cell = plain(cells[j])[0] if j < len(cells) else ""
            match = _TABLE_CELL.fullmatch(cell)
            if match is None or _MULTIPLY.search(cell):
                continue
            fields: dict[str, object] = {**common, "pair": str(pair), "claimed": match["value"]}
            if numbering != "from_0":
                fields["numbering"] = numbering
            if pos is not None:
                fields["pos"] = pos
            if quantity == "wavelength":
                fields["wavelength"] = True
            yield Draft(
                kind="positional",
                quote=document.source_line(line),
                line=line,
                fields=fields,
                confidence=0.6,
                recognizer=NAME,
                slug=f"rope-table-{quantity}-{pair}",
            )
