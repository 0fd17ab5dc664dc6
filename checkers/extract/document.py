"""A lesson as the recognisers see it: blocks of logical lines with their source line numbers.

Parsed with markdown-it-py (CommonMark + GFM tables, ``$…$`` math and front matter from
mdit-py-plugins). Every text that can hold a number is kept *as written in the source* —
paragraphs, headings, list items, table cells, fenced text blocks and math — because a drafted
claim quotes the lesson and the quote must be found in it again.
"""

from __future__ import annotations

import bisect
import gc
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from checkers.lesson import caseless
from checkers.readings import float_type, float_type_names

__all__ = [
    "CHUNK_CHARS",
    "HARD_CHUNK_CHARS",
    "Block",
    "CarriedRow",
    "Document",
    "Line",
    "Table",
    "joined_lines",
    "line_at",
    "logical_lines",
    "parse_document",
]

CHUNK_CHARS = 16_000
"""A lesson is parsed in pieces of about this many characters, cut only where Markdown starts
afresh (a blank line, then an unindented line, outside a fenced block), so that the parser's
tokens (some 350 bytes each, up to two per character of input) never exist for the whole
lesson at once."""
HARD_CHUNK_CHARS = 4 * CHUNK_CHARS
"""A piece that finds no such place is cut anyway at this size (at a line break): only a
hostile lesson has none for 64 000 characters."""

# "&=" and "&\approx" open the lines of a LaTeX aligned/align chain the way "=" opens a worked
# calculation's; a line ending in "= \\" leaves its relation open.
_CONTINUATION = re.compile(r"^\s*&?\s*(?:=|＝|≈|≃|≅|≒|\\approx(?![A-Za-z]))")
_OPEN_RELATION = re.compile(r"(?:=|＝|≈|≃|≅|≒|\\approx)\s*&?\s*(?:\\\\)?\s*$")


@dataclass(frozen=True, slots=True)
class Line:
    """One source line of text inside a block."""

    text: str
    """The line as written (inline Markdown kept)."""
    number: int
    """1-based line number in the lesson."""


@dataclass(frozen=True, slots=True)
class Table:
    """A GFM table: header cells and body rows, each row with its source line."""

    header: tuple[str, ...]
    """Header cell texts."""
    rows: tuple[tuple[tuple[str, ...], int], ...]
    """(cell texts, 1-based line) for every body row."""
    line: int
    """1-based line of the header row."""

    def row_source(self, cells: tuple[str, ...]) -> str:
        """The row as it is most likely written (``| a | b |``), for quoting."""
        return "| " + " | ".join(cells) + " |"

    def labelled_values(self) -> Iterator[tuple[str, int]]:
        """Each body row of a label/value table read as the sentence it stands for
        (``| GPT-2 hidden size | 768 | … |`` → ``GPT-2 hidden size: 768``), with its line: rows
        whose first cell is words and whose second starts with a number."""
        for cells, line in self.rows:
            if len(cells) >= 2 and _LABEL.match(cells[0]) and _VALUE.match(cells[1]):
                yield f"{cells[0].strip()}: {cells[1].strip()}", line


@dataclass(frozen=True, slots=True)
class Block:
    """A block of the lesson: a paragraph, heading, list item, table, fence or math block."""

    kind: str
    """``paragraph``, ``heading``, ``table``, ``fence`` or ``math``."""
    lines: tuple[Line, ...]
    """Its text, line by line (for tables: cell by cell)."""
    table: Table | None = None
    """The table's cells, for ``table`` blocks."""
    info: str = ""
    """A fence's info string as written (``python``, ``text``, ``output``…); a heading's
    level as ``h1``…``h6``; "" otherwise."""
    section: int = 0
    """Which section of the lesson the block is in: the number of headings before it (a heading
    opens the section it starts, so it carries its own number). Recognisers relate statements
    only within one section, never across unrelated text."""

    @property
    def line(self) -> int:
        """1-based first line of the block."""
        return self.lines[0].number if self.lines else 0


@dataclass(frozen=True, slots=True)
class CarriedRow:
    """A probability row printed with its scores in the lesson this one continues."""

    values: tuple[str, ...]
    """The row as printed there."""
    scores: tuple[str, ...]
    """The scores it was printed as the softmax of."""
    temperature: str | None
    """The temperature stated with it, if any."""
    source: str
    """Where it was printed: the other lesson's file name and line (``04_the_gate.md:41``)."""


@dataclass(frozen=True)
class Document:
    """A parsed lesson."""

    text: str
    """The lesson source."""
    blocks: tuple[Block, ...]
    """Its blocks in reading order."""
    continues: tuple[CarriedRow, ...] = ()
    """Probability rows of the course's previous lesson, when this lesson says it continues
    that lesson's example (read by ``scan`` and ``extract``: :mod:`checkers.extract.course`)."""

    def source_line(self, number: int) -> str:
        """The lesson's line ``number`` (1-based) as written, stripped; "" when out of range."""
        lines = self._source_lines
        return lines[number - 1].strip() if 0 < number <= len(lines) else ""

    def raw_line(self, number: int) -> str:
        """The lesson's line ``number`` (1-based) exactly as written, indentation kept (a list
        item's nesting is its marker's indentation); "" when out of range."""
        lines = self._source_lines
        return lines[number - 1] if 0 < number <= len(lines) else ""

    @property
    def source_lines(self) -> Sequence[str]:
        """The lesson's lines, split where markdown-it counts them: line n is
        ``source_lines[n - 1]``."""
        return self._source_lines

    @cached_property
    def caseless(self) -> str:
        """:attr:`text` lowered by :func:`checkers.lesson.caseless`, one character for one (a
        position in it is one in the lesson): lowered once per lesson, for the recognisers
        that look for their words in the whole lesson and for the literal gates (``NEEDS``)."""
        return caseless(self.text)

    @cached_property
    def line_starts(self) -> Sequence[int]:
        """The offset in :attr:`text` where each line starts (line n at ``line_starts[n - 1]``),
        lines broken where markdown-it breaks them."""
        return [0, *(match.end() for match in _NEWLINES.finditer(self.text))]

    def line_of(self, offset: int) -> int:
        """The 1-based line of :attr:`text` that holds ``offset``: how a recogniser that finds
        words in the whole lesson places them (counting the line breaks before each find would
        be quadratic on a long lesson)."""
        return bisect.bisect_right(self.line_starts, offset)

    @cached_property
    def _source_lines(self) -> list[str]:
        # Split once: recognisers ask for a line per table row, and a hostile lesson has
        # 50 000 rows (splitting the whole text per call made that quadratic). Split where
        # markdown-it counts lines, not with str.splitlines, which also breaks at \v, \f, \x1c…
        # and would make a line number point at the wrong line.
        return _NEWLINES.split(self.text)

    @cached_property
    def byte_prefixes(self) -> str:
        """How drafted arithmetic reads KB, MB, GB: a lesson that writes KiB/GiB itself means
        powers of 1000 by them (``decimal``); one that never does may mean either, and the
        verdict says which reading matched (``either``)."""
        # Every match holds "iB": most lessons have none, and the search tries every digit.
        return "decimal" if "iB" in self.text and _IEC.search(self.text) else "either"

    @cached_property
    def float_types(self) -> tuple[str, ...]:
        """The floating-point types the lesson names (``float32``, ``fp16``, ``bf16``…), in the
        order it first names them: what its arithmetic may be computed in."""
        found: dict[str, None] = {}
        for match in _float_type_pattern().finditer(self.text):
            dtype = float_type(match.group())
            if dtype is not None:
                found.setdefault(dtype, None)
        return tuple(found)

    @cached_property
    def logical(self) -> tuple[tuple[str, int], ...]:
        """:func:`logical_lines`, joined once: every recogniser reads them."""
        return tuple(_logical_lines(self))

    @cached_property
    def heading_chains(self) -> dict[int, str]:
        """Section → the text of its heading and of the headings it is under (a section about
        "Frequencies" under "# RoPE" is about RoPE's frequencies)."""
        chain: dict[int, str] = {}
        open_headings: list[tuple[int, str]] = []  # (level, text)
        for block in self.blocks:
            if block.kind != "heading":
                continue
            level = int(block.info[1:]) if block.info[1:].isdigit() else 6
            open_headings = [(lv, text) for lv, text in open_headings if lv < level]
            open_headings.append((level, " ".join(line.text for line in block.lines)))
            chain[block.section] = " ".join(text for _, text in open_headings)
        return chain

    def lines(self) -> Iterator[tuple[Block, Line]]:
        """Every line of every block, with the block it belongs to."""
        for block in self.blocks:
            for line in block.lines:
                yield block, line

    def sections(self) -> Iterator[tuple[Block, ...]]:
        """The blocks of each section (see :attr:`Block.section`), in lesson order."""
        current: list[Block] = []
        for block in self.blocks:
            if current and block.section != current[0].section:
                yield tuple(current)
                current = []
            current.append(block)
        if current:
            yield tuple(current)


@lru_cache(maxsize=64)
def _parser(off: frozenset[str] = frozenset()) -> MarkdownIt:
    """The block parser with the rules in ``off`` disabled as well (see :func:`_unmatchable`)."""
    # Only block structure is needed: every text is kept as written (``token.content``), so
    # the core "inline" rule, which would build a child token for every emphasis, link and
    # word of every block, is disabled. That divides the parser's memory several times over
    # on hostile lessons (a table of 50 000 rows, 50 000 nested ``*a **b``).
    # With "html" off the html_block rule never matches, yet the block parser would still try
    # it at every block start and every paragraph line (it interrupts paragraphs): disabled,
    # the blocks are the same and the parse is a few per cent cheaper.
    # The core "text_join" rule only merges the text children of inline tokens, which the
    # block rules leave empty when "inline" is off: it would walk every token of every piece
    # to change nothing.
    parser = (
        MarkdownIt("commonmark", {"html": False})
        .enable("table")
        .use(dollarmath_plugin)
        .use(front_matter_plugin)
    )
    return parser.disable(["inline", "text_join", "html_block", *sorted(off)])


# What a block rule needs in the source to match at all; a piece without it is parsed with
# the rule disabled. Each rule is tried at every block start, and most also at every line of
# every paragraph (they may interrupt one), so a rule that cannot match still costs a call per
# line. Every test is a necessary condition read from the rule itself, so the tokens are the
# same with the rule on or off. A line's text starts after the markers of the blockquotes it
# is in (">", whitespace) — list markers open only an item's first line, which is never the
# second line of a table or a setext heading.
_TABLE_DELIMITER = re.compile(r"\n(?:[^\S\n]|>)*[-:|](?:[-:|]|[^\S\n])*(?=\n|\Z)")
"""The second line of a table: "-", ":", "|" and spaces (the line above it holds a "|")."""
_SETEXT_UNDERLINE = re.compile(r"\n(?:[^\S\n]|>)*(?:=+|-+)[^\S\n]*(?=\n|\Z)")
"""The underline of a setext heading: "=" or "-" alone (the line above it holds text)."""


_RULE_TAIL = re.compile(r"[-*_][^\S\n]*[-*_][^\S\n]*[-*_][^\S\n]*(?=\n|\Z)")
"""A thematic break: a line ending in three of "-", "*" or "_" with only spaces between (it
may follow a list marker, ``- ***``, so only the line's end is tested)."""


def _below_a_line(pattern: re.Pattern[str], piece: str, above: str | None) -> bool:
    """Whether a line matching ``pattern`` (which starts at the line break before it) follows a
    line holding ``above`` (None: anything but spaces and tabs, all markdown-it counts as blank).
    Searched from each line break, not each line start: the search then runs at the speed of a
    scan for line breaks."""
    for match in pattern.finditer(piece):
        end = match.start()
        line = piece[piece.rfind("\n", 0, end) + 1 : end]
        if (above in line) if above is not None else line.strip(" \t"):
            return True
    return False


def _unmatchable(piece: str, first: bool) -> frozenset[str]:
    """The block rules that cannot match anywhere in ``piece`` (``first``: the lesson's first
    piece, the only one that may open with front matter)."""
    off: list[str] = []
    if not (first and piece.startswith("-")):
        off.append("front_matter")
    if "$$" not in piece:
        off.append("math_block")
    if "```" not in piece and "~~~" not in piece:
        off.append("fence")
    if ">" not in piece:
        off.append("blockquote")
    if "]:" not in piece:  # a reference definition's label is closed by "]:"
        off.append("reference")
    if "|" not in piece or not _below_a_line(_TABLE_DELIMITER, piece, "|"):
        off.append("table")
    if not _below_a_line(_SETEXT_UNDERLINE, piece, None):
        off.append("lheading")
    if _RULE_TAIL.search(piece) is None:
        off.append("hr")
    return frozenset(off)


@lru_cache(maxsize=1)
def _float_type_pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(name) for name in float_type_names())
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{names})(?![A-Za-z0-9_])", re.IGNORECASE)


_LABEL = re.compile(r"^\W*[^\W\d]")  # a row label starts with a letter
_VALUE = re.compile(r"^\W{0,3}(?:~|≈)?\s*\d")  # a value cell starts with its number
# Line breaks as markdown-it counts them (its "normalize" rule), so line numbers agree.
_IEC = re.compile(r"\d\s*[KMGT]iB\b")
_NEWLINES = re.compile(r"\r\n?|\n")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FRONT_MATTER = re.compile(r"^-{3,}\s*$")


def _pieces(text: str, size: int) -> Iterator[tuple[int, str]]:
    """(0-based first line, text) of consecutive pieces of ``text`` (see :data:`CHUNK_CHARS`)."""
    if len(text) < size:  # no piece reaches the size: one piece, line breaks made "\n"
        yield 0, _NEWLINES.sub("\n", text) if "\r" in text else text
        return
    lines = _NEWLINES.split(text)
    fence: str | None = None  # the marker of the open top-level fence, if any
    in_front_matter = bool(lines) and _FRONT_MATTER.match(lines[0]) is not None
    start, length = 0, 0
    for index, line in enumerate(lines):
        at_new_block = (
            index > start
            and not lines[index - 1].strip()
            and line[:1].strip() != ""
            and fence is None
            and not in_front_matter
        )
        if (length >= size and at_new_block) or length >= HARD_CHUNK_CHARS:
            yield start, "\n".join(lines[start:index])
            start, length = index, 0
        length += len(line) + 1
        if in_front_matter and index > 0 and _FRONT_MATTER.match(line):
            in_front_matter = False
        marker = _FENCE.match(line)
        if marker is not None:
            if fence is None:
                fence = marker.group(1)
            elif (
                marker.group(1)[0] == fence[0]
                and len(marker.group(1)) >= len(fence)
                and not line.strip().strip(fence[0])  # a closing fence has nothing after it
            ):
                fence = None
    yield start, "\n".join(lines[start:])


def _split(content: str, first_line: int) -> tuple[Line, ...]:
    """The non-blank lines of a token's content, numbered from ``first_line``."""
    if "\n" not in content:  # nine contents in ten: one line (a paragraph, a cell, an item)
        return (Line(content, first_line),) if content.strip() else ()
    return tuple(
        Line(text, first_line + offset)
        for offset, text in enumerate(content.split("\n"))
        if text.strip()
    )


def parse_document(text: str, *, chunk_chars: int = CHUNK_CHARS) -> Document:
    """Parse lesson Markdown into blocks of source lines, a piece at a time."""
    blocks: list[Block] = []
    for first_line, piece in _pieces(text, chunk_chars):
        section = blocks[-1].section if blocks else 0  # a section may run on into this piece
        parser = _parser(_unmatchable(piece, first_line == 0))
        with _collector_paused():  # the tokens, then the blocks read from them
            _blocks(parser.parse(piece), first_line, section, blocks)
    return Document(text=text, blocks=tuple(blocks))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a piece is parsed and read. The parser allocates
    three tracked objects per token (the token, its attrs and meta) and up to two tokens per
    character, so at the default threshold the collector runs every few hundred objects and
    walks the young ones each time, and the old ones (every live token) now and then: a sixth
    of the parse, for nothing, as neither tokens nor blocks form cycles (the tokens are freed
    by their counts when the piece's list goes). Left off if it was."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


_LEAVES: dict[str, int] = {"fence": 2, "code_block": 1, "math_block": 1, "math_block_label": 1}
"""The tokens that are blocks of their own: ``fence``, an indented ``code_block`` and math,
with how many lines below the token's first its content starts (a fence's after its ```
line)."""


def _blocks(tokens: list[Token], offset: int, section: int, blocks: list[Block]) -> None:
    """Append the blocks of one piece's tokens to ``blocks``; ``offset`` is the piece's first
    line in the lesson, ``section`` the section its first line is in (a heading opens the next
    one). Every text is an ``inline`` token (paragraph, heading, table cell), a leaf of
    :data:`_LEAVES` or in a table; the other tokens open and close containers and are passed
    over."""
    index, count = 0, len(tokens)
    while index < count:
        token = tokens[index]
        kind = token.type
        if kind == "inline":
            if token.map:
                lines = _split(token.content, offset + token.map[0] + 1)
                opener = tokens[index - 1] if index > 0 else None
                if opener is not None and opener.type == "heading_open":
                    section += 1
                    blocks.append(Block("heading", lines, info=opener.tag, section=section))
                else:
                    blocks.append(Block("paragraph", lines, section=section))
        elif kind == "table_open":
            block, index = _table(tokens, index, offset, section)
            blocks.append(block)
            continue
        elif kind in _LEAVES and token.map:
            lines = _split(token.content, offset + token.map[0] + _LEAVES[kind])
            if kind == "fence":
                blocks.append(Block("fence", lines, info=token.info.strip(), section=section))
            else:
                blocks.append(
                    Block("fence" if kind == "code_block" else "math", lines, section=section)
                )
        index += 1


def _table(tokens: list[Token], start: int, offset: int, section: int) -> tuple[Block, int]:
    header: list[str] = []
    rows: list[tuple[tuple[str, ...], int]] = []
    cells: list[str] = []
    row_line = 0
    in_head = False
    header_line = offset + (tokens[start].map or [0])[0] + 1
    index, count = start + 1, len(tokens)
    while index < count:
        token = tokens[index]
        kind = token.type
        index += 1
        if kind == "inline":  # a cell, the commonest token of a table
            cells.append(token.content)
        elif kind == "td_open" or kind == "td_close" or kind == "th_open" or kind == "th_close":
            continue
        elif kind == "tr_open":
            cells = []
            row_line = offset + (token.map or [0])[0] + 1
        elif kind == "tr_close":
            if in_head:
                header = cells
            else:
                rows.append((tuple(cells), row_line))
        elif kind == "thead_open":
            in_head = True
        elif kind == "thead_close":
            in_head = False
        elif kind == "table_close":
            break
    table = Table(tuple(header), tuple(rows), header_line)
    # Each cell is its own line of text: a number in one cell never runs into the next.
    lines = [Line(cell, header_line) for cell in header if cell.strip()] + [
        Line(cell, number) for row, number in rows for cell in row if cell.strip()
    ]
    return Block("table", tuple(lines), table, section=section), index


def joined_lines(lines: Iterable[Line]) -> tuple[str, list[tuple[int, int]]]:
    """The lines' texts joined by newlines, with each line's (offset in the joined text, source
    line number): a statement that runs over several lines is read as one text, and each of
    its characters still knows its line (:func:`line_at`)."""
    starts: list[tuple[int, int]] = []
    parts: list[str] = []
    at = 0
    for line in lines:
        starts.append((at, line.number))
        parts.append(line.text)
        at += len(line.text) + 1
    return "\n".join(parts), starts


def line_at(starts: Sequence[tuple[int, int]], offset: int) -> tuple[int, int]:
    """(source line number, column in that line, 0-based) of an offset in a text whose pieces
    start at ``starts`` ((offset, line number) pairs in order, as :func:`joined_lines` gives)."""
    line, begin = starts[0][1], 0
    for start, number in starts:
        if start > offset:
            break
        line, begin = number, start
    return line, offset - begin


_DIAGRAM_INFOS = ("mermaid", "dot", "graphviz", "plantuml")
_LABEL_BREAK = re.compile(r"\\n|<br\s*/?>", re.IGNORECASE)
"""Where a diagram's node label breaks a line: a written ``\\n`` or an HTML ``<br>``."""


def _diagram_labels(block: Block) -> Iterator[tuple[str, int]]:
    """The lines of a diagram block, each label line apart: ``A["48 - 16 = 32\\n32 - 8 =
    24"]`` is read as the two lines a reader sees in the drawn node."""
    for line in block.lines:
        if "\\" not in line.text and "<" not in line.text:
            yield line.text, line.number
            continue
        for piece in _LABEL_BREAK.split(line.text):
            if piece.strip():
                yield piece, line.number


def logical_lines(document: Document) -> Iterator[tuple[str, int]]:
    """Text as a reader follows it, with the first source line of each piece.

    A paragraph's soft-wrapped lines are one line; each table cell is its own; in a text block a
    line starting with ``=`` (or following one that ends with ``=``) continues the one above,
    as worked calculations are laid out.
    """
    return iter(document.logical)


def _logical_lines(document: Document) -> Iterator[tuple[str, int]]:
    for block in document.blocks:
        if block.kind in ("paragraph", "heading"):
            if block.lines:
                yield " ".join(p.text.strip() for p in block.lines), block.lines[0].number
            continue
        if block.kind == "table":  # each cell its own line: no cell continues another
            for line in block.lines:
                yield line.text.strip(), line.number
            continue
        if block.kind == "fence" and block.info.strip().lower().startswith(_DIAGRAM_INFOS):
            yield from _diagram_labels(block)
            continue
        pending: list[Line] = []
        for line in block.lines:
            if pending and (
                _CONTINUATION.match(line.text) or _OPEN_RELATION.search(pending[-1].text)
            ):
                pending.append(line)
                continue
            if pending:
                yield " ".join(p.text.strip() for p in pending), pending[0].number
            pending = [line]
        if pending:
            yield " ".join(p.text.strip() for p in pending), pending[0].number
