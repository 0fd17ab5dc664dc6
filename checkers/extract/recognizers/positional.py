"""Recogniser ``positional``: sinusoidal positional-encoding values stated in the lesson.

Recognises, once the lesson has stated ``d_model = N`` (the last such statement above wins):

* ``PE(1, 2) = sin(1 / 10000^1) = sin(0.0001) ≈ 0.0001``: one dimension's value, with the
  exponent and the angle the lesson wrote, so a wrong exponent is caught even when the value
  happens to be right (``PE(0, 2) = sin(0 / 10000^1) = 0``);
* ``PE(1) = [0.84, 0.54, 0.0001, 1.0]`` and ``位置向量 PE(1) = […]``: a whole vector;
* a box drawing whose columns are headed ``pos=0 │ pos=1 │ …`` and hold one vector each, written
  down the column over several lines (``[0.84,`` / ``0.54,`` / ``0.0001`` / ``1.0]``), in a
  section about positional encoding: a table of PE vectors read column by column;
* the range of the pair index i, in a section whose formula pairs dimensions as 2i and 2i+1
  (``PE(pos, 2i)``, ``10000^(2i/d_model)``): ``i = 0, 1, …, d_model/2 − 1``,
  ``i ∈ [0, d_model/2)``, ``$0 \\le i < \\frac{d}{2}$``, and with ``d_model`` stated a listed
  range ``i = 0, 1``. Only ranges that start at 0 and say where they end (a list, a closed or
  half-open interval, ≤ or <) are read: "from 0 to d/2" may mean either end, and a range from 1
  is another convention.

Each becomes a ``positional`` claim (sinusoidal encoding of "Attention Is All You Need").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from checkers.extract.document import Block, Document, Line
from checkers.extract.draft import Draft
from checkers.extract.latex import plain

__all__ = ["Stated", "d_model_before", "d_model_statements", "recognize"]

NAME = "positional"

# d_model = 4, dmodel=4, and in LaTeX d_{model} = 4, d_{\text{model}} = 4.
_D_MODEL = re.compile(
    r"d_?(?:\{(?:\\(?:text|mathrm|rm)\s*\{?)?)?model\}?\}?\s*[=＝]\s*(\d+)(?!\s*[×*/^])"
)
_VALUE = re.compile(r"PE\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*=([^\n]*)")
_VECTOR = re.compile(r"PE\s*\(\s*(\d+)\s*\)\s*=\s*(\[[^\]\n]*\])")
_PE_CALL = re.compile(r"PE\s*\(\s*\d")
"""What every match of :data:`_VALUE` and :data:`_VECTOR` starts with."""
# "x + PE(2) = […]": PE is one term of the statement, and the printed value is not PE's.
_TERM_OF_A_SUM = re.compile(r"(?:[+\-−×*·]|\\cdot|\\times)\s*$")
_LAST_NUMBER = re.compile(r"(?:=|≈)\s*([-−]?\d+(?:\.\d+)?)\s*$")
_EXPONENT = re.compile(r"10000\s*\^\s*\(?\s*(\d+(?:\.\d+)?(?:\s*/\s*\d+)?)\s*\)?")
_ARGUMENT = re.compile(r"(?:sin|cos)\s*\(\s*([-−]?\d+(?:\.\d+)?)\s*\)")


Stated = tuple[list[int], list[str]]
"""(line numbers, values) of a lesson's ``d_model = N`` statements."""

_PAIRED = re.compile(r"PE\s*\(\s*pos\s*,\s*2\s*i|\^\s*\(?\s*\{?\s*2\s*i\s*/|\(\(2\s*i\)/\(")
_END = r"(?:d(?:_model)?\s*/\s*2(?:\s*[-−]\s*1)?|\d+)"
_RANGES = (
    # i = 0, 1, 2, …, END  /  i ∈ {0, 1, …, END}  /  i = 0, 1 (a list with d_model stated)
    re.compile(
        r"(?<![\w])i\s*(?:[(（][^)）\d]{1,12}[)）]\s*)?"  # i, or i (a label)
        r"(?:(?:=|:|：)\s*(?:[^\d\s,，()（）=]{1,12}\s*)?[(（]?|∈\s*\{)"  # = a label (
        r"\s*0\s*[,，]\s*1(?:\s*[,，]\s*\d+)*"
        r"(?:\s*[,，]\s*(?:\.\.\.|…|⋯)\s*[,，]\s*(?P<end>" + _END + r"))?"
        r"(?![\d.,，/]|\s*[,，]\s*\S)"
    ),
    # i ∈ [0, END]  /  i ∈ [0, END)
    re.compile(r"(?<![\w])i\s*∈\s*\[\s*0\s*,\s*(?P<end>" + _END + r")\s*(?P<close>[\])])"),
    # 0 ≤ i ≤ END  /  0 ≤ i < END
    re.compile(r"(?<![\w.])0\s*(?:≤|<=)\s*i\s*(?P<op>≤|<=|<)\s*(?P<end>" + _END + r")(?![\w.])"),
)
_LISTED = re.compile(r"[,，]\s*(\d+)\s*$")


def d_model_statements(document: Document) -> Stated:
    """(line numbers, values) of every ``d_model = N`` in the lesson, in order; found once per
    lesson, not once per PE value (50 000 PE lines made that quadratic)."""
    numbers: list[int] = []
    values: list[str] = []
    for number, text in enumerate(document.source_lines, start=1):
        for match in _D_MODEL.finditer(text):
            numbers.append(number)
            values.append(match.group(1))
    return numbers, values


def d_model_before(stated: Stated, line: int, prefix: str) -> str | None:
    """The last ``d_model = N`` stated above the line, or earlier on it (``prefix``)."""
    numbers, values = stated
    above = bisect.bisect_left(numbers, line)  # statements on lines before ``line``
    found = values[above - 1] if above else None
    for match in _D_MODEL.finditer(prefix):
        found = match.group(1)
    return found


_SUBSCRIPT = re.compile(
    r"\(\((?P<top>d(?:_\(\(?\w+\)\)?|_\w+)?)\)/\((?P<bottom>\d+)\)\)|_\((?P<open>\()?(?P<name>\w+)\)(?(open)\))"
)


def _normalised(text: str, offsets: Sequence[int]) -> tuple[str, Sequence[int]]:
    """``d_{model}`` and ``\\frac{d}{2}`` as the range patterns read them (plain() gives
    ``d_(model)`` and ``((d)/(2))``), with the source offset of every character kept."""
    out: list[str] = []
    where: list[int] = []
    last = 0
    for match in _SUBSCRIPT.finditer(text):
        out.append(text[last : match.start()])
        where.extend(offsets[last : match.start()])
        if match.group("name") is not None:
            piece = "_" + match.group("name")
        else:
            top = match.group("top")
            piece = _normalised(top, offsets[match.start("top") : match.end("top")])[0]
            piece += "/" + match.group("bottom")
        out.append(piece)
        where.extend([offsets[match.start()]] * (len(piece) - 1) + [offsets[match.end() - 1]])
        last = match.end()
    out.append(text[last:])
    where.extend(offsets[last:])
    return "".join(out), where


def _range_end(match: re.Match[str]) -> str:
    """The last i the range includes, as the kind reads it."""
    end = match.group("end")
    if end is None:  # a plain list: its last number
        listed = _LISTED.search(match.group(0))
        end = listed.group(1) if listed else "1"
    end = end.replace("−", "-").replace(" ", "")
    groups = match.groupdict()
    if groups.get("close") == ")" or groups.get("op") == "<":
        return f"({end})-1"
    return end


def _range_drafts(blocks: list[Block], stated: Stated) -> Iterator[Draft]:
    """Index ranges of i in a section whose formula pairs the dimensions as 2i, 2i+1."""
    lines = [line for block in blocks for line in block.lines]
    # The plain form of a line holds "2" or "i" only where the line does (a command that
    # plain() spells out, \sin, is written with its i), so a line without both cannot pair.
    if not any(
        "2" in line.text and "i" in line.text and _PAIRED.search(plain(line.text)[0])
        for line in lines
    ):
        return
    for line in lines:
        text, offsets = plain(line.text)
        if "i" not in text or "0" not in text:
            continue
        normal, where = _normalised(text, offsets)
        for pattern in _RANGES:
            for match in pattern.finditer(normal):
                end = _range_end(match)
                fields: dict[str, object] = {"index_range_end": end}
                if "d" not in end:
                    prefix = line.text[: where[match.start()]] if where else line.text
                    d_model = d_model_before(stated, line.number, prefix)
                    if d_model is None:
                        continue
                    fields["d_model"] = d_model
                quote = line.text[where[match.start()] : where[match.end() - 1] + 1]
                yield Draft(
                    kind="positional",
                    quote=quote.strip(" $"),
                    line=line.number,
                    fields=fields,
                    confidence=0.7,
                    recognizer=NAME,
                    slug="pe-index-range",
                )


_BOX_HEADER = re.compile(r"^\s*pos\s*=\s*(\d+)\s*$")
_BOX_BORDER = re.compile(r"^[\s│┌┐└┘├┤┬┴┼─═╔╗╚╝╠╣╦╩╬]*$")
_PE_TOPIC = re.compile(r"位置编码|positional\s+encoding|\bPE\b", re.IGNORECASE)
_FULL_VECTOR = re.compile(r"\[\s*[-−]?\d+(?:\.\d+)?(?:\s*,\s*[-−]?\d+(?:\.\d+)?)*\s*\]")


def _box_columns(lines: tuple[Line, ...], start: int) -> tuple[dict[str, list[str]], int] | None:
    """pos → the vector's entries of a box whose header is ``lines[start]``, and the lines used."""
    header = lines[start].text.split("│")
    positions = {i: m.group(1) for i, c in enumerate(header) if (m := _BOX_HEADER.match(c))}
    if len(positions) < 2:
        return None
    texts = {i: "" for i in positions}
    used = 1
    for line in lines[start + 1 :]:
        cells = line.text.split("│")
        if _BOX_BORDER.match(line.text):
            used += 1
            if any(ch in line.text for ch in "└┴"):
                break
            continue
        if len(cells) != len(header):
            break
        for index in positions:
            piece, so_far = cells[index].strip(), texts[index]
            if piece and so_far and so_far[-1] not in "[," and piece[0] not in ",]":
                so_far += ","  # one entry a line: the line break separates them
            texts[index] = so_far + piece
        used += 1
    columns: dict[str, list[str]] = {}
    for index, pos in positions.items():
        vector = _FULL_VECTOR.fullmatch(texts[index].replace(" ", "").replace(",", ", "))
        if vector is None:
            return None
        columns[pos] = [v.strip() for v in vector.group()[1:-1].split(",")]
    return columns, used


def _box_drafts(document: Document) -> Iterator[Draft]:
    """Tables of PE vectors drawn in a box, one vector down each column."""
    stated: Stated | None = None  # found when a box is: most lessons that draw one have none
    topics: dict[int, bool] = {}
    for block in document.blocks:
        if block.kind == "heading":
            topics[block.section] = bool(_PE_TOPIC.search(" ".join(x.text for x in block.lines)))
        if block.kind != "fence" or not any("pos" in line.text for line in block.lines):
            continue
        if not topics.get(block.section, False):
            continue
        index = 0
        while index < len(block.lines):
            found = _box_columns(block.lines, index) if "│" in block.lines[index].text else None
            if found is None:
                index += 1
                continue
            columns, used = found
            line = block.lines[index]
            if stated is None:
                stated = d_model_statements(document)
            d_model = d_model_before(stated, line.number, "")
            lengths = {len(v) for v in columns.values()}
            if d_model is not None and lengths == {int(d_model)}:
                yield Draft(
                    kind="positional",
                    quote=line.text.strip().strip("│").strip(),
                    line=line.number,
                    fields={"d_model": d_model, "quote_order": "by_dimension", "table": columns},
                    confidence=0.6,
                    recognizer=NAME,
                    slug="pe-box",
                )
            index += used


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``positional`` claim for every PE value or vector the lesson prints, and for the
    index range of i stated next to the formula."""
    if "│" in document.text and "pos" in document.text:
        yield from _box_drafts(document)
    if ("2i" in document.text or "2 i" in document.text) and _PAIRED.search(document.text):
        all_stated = d_model_statements(document)
        for blocks in document.sections():
            yield from _range_drafts(list(blocks), all_stated)
    if "PE" not in document.text or _PE_CALL.search(document.text) is None:
        return  # every value and vector below is read from a line holding "PE(1": one test
    stated: Stated | None = None
    for _block, line in document.lines():
        if "PE" not in line.text:
            continue
        if stated is None:
            stated = d_model_statements(document)
        for match in _VALUE.finditer(line.text):
            d_model = d_model_before(stated, line.number, line.text[: match.start()])
            if d_model is None or _TERM_OF_A_SUM.search(line.text[: match.start()]):
                continue
            rest = match.group(3)
            claimed = _LAST_NUMBER.search(rest.rstrip(" 。.，,"))
            if claimed is None:
                continue
            fields: dict[str, object] = {
                "d_model": d_model,
                "pos": match.group(1),
                "index": match.group(2),
                "claimed": claimed.group(1),
            }
            exponent = _EXPONENT.search(rest)
            if exponent is not None:
                fields["written_exponent"] = exponent.group(1).replace(" ", "")
            arguments = [a.group(1) for a in _ARGUMENT.finditer(rest)]
            if arguments and exponent is not None:
                fields["written_argument"] = arguments[-1]
            quote_end = match.start(3) + claimed.end()
            yield Draft(
                kind="positional",
                quote=line.text[match.start() : quote_end].strip(),
                line=line.number,
                fields=fields,
                confidence=0.8,
                recognizer=NAME,
                slug=f"pe-{match.group(1)}-{match.group(2)}",
            )
        for match in _VECTOR.finditer(line.text):
            d_model = d_model_before(stated, line.number, line.text[: match.start()])
            if d_model is None or _TERM_OF_A_SUM.search(line.text[: match.start()]):
                continue
            values = [v.strip() for v in match.group(2)[1:-1].split(",")]
            if not values or not all(re.fullmatch(r"[-−]?\d+(\.\d+)?", v) for v in values):
                continue
            yield Draft(
                kind="positional",
                quote=match.group(0),
                line=line.number,
                fields={"d_model": d_model, "pos": match.group(1), "claimed": values},
                confidence=0.8,
                recognizer=NAME,
                slug=f"pe-{match.group(1)}",
            )
