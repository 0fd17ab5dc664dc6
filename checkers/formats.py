"""Lesson formats: how a lesson file becomes the text claims quote, and back.

Every part that reads a lesson (claim loading, ``scan``, ``extract``, coverage, ``fix``) goes
through :func:`read_source`; nothing else knows about formats. A file becomes a
:class:`LessonSource`:

- ``text``: what claims quote and anchor into. For Markdown-like files (``.md``,
  ``.markdown``, CommonMark or GFM, ``.mdx``, Quarto ``.qmd``) the file itself. For a Jupyter
  notebook (``.ipynb``, read with ``nbformat``) a Markdown rendering of it: each markdown cell's
  source as written, each code cell as a fence with the kernel's language, each printed output
  (``stream`` text, ``text/plain`` of ``execute_result`` and ``display_data``) as a fence with
  the info string ``output``, so recognisers of code and output see them as they see printed
  output in a Markdown lesson. A claim of a notebook quotes the cell's source.
- ``readable``: ``text`` with what no reader sees blanked (every character but line breaks
  replaced by a space, so every offset, line and column stays where it was): HTML comments
  ``<!-- … -->`` outside fenced code in every format; in MDX also ``{/* … */}`` comments,
  ``import``/``export`` blocks and JSX tags (their attributes; the Markdown between an opening
  and a closing tag stays readable); in Quarto the braces of ``{python}`` fence info strings
  (read as ``python``). Recognisers and anchoring read ``readable``, so a number in a comment
  is never drafted and a quote cannot anchor in one. The lesson's own marks
  (``<!-- lessoncheck: ignore -->``) are read from ``text``, where the comments still are.
- for a notebook, a map from each line of ``text`` to the cell and line it comes from and to
  the line of the ``.ipynb`` file that holds it: the JSON line of the string of the cell's
  source (or output) that holds that line, which is what SARIF and editors point at.

Writing back (``fix``): :func:`apply_edits` takes the file's content and replacements of spans
of ``text`` and returns the new content. A Markdown-like file is edited in place. In a notebook
only the JSON strings whose text changed are re-encoded in place (every other byte, key order and
indentation stays as it was), then the result is read back with ``nbformat`` (validated) and
must render to exactly the edited text; anything else is refused (:class:`FormatError`) and
nothing is written.

Written by hand, and why: no library blanks comments while keeping offsets (markdown-it drops
them), and none gives the position of JSON values (``json`` does not; nbformat only returns the
parsed notebook). Positions come from one regular-expression pass over the JSON string literals,
matched against the parsed document walked in order (JSON has no ``"`` outside strings, and
``json`` keeps every key in document order), so both agree by construction.
"""

from __future__ import annotations

import bisect
import json
import re
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkers.files import MARKDOWN_SUFFIXES, NOTEBOOK_SUFFIX

__all__ = [
    "CellLine",
    "FormatError",
    "LessonSource",
    "apply_edits",
    "read_source",
    "readable_text",
]


OUTPUT_INFO = "output"
"""Fence info string of a code cell's printed output in a notebook's lesson text."""


class FormatError(ValueError):
    """A lesson file that is not what its name says (a notebook that is not valid JSON or not a
    notebook), or an edit its format cannot hold; the message says what was expected (the
    caller adds the file's name)."""


@dataclass(frozen=True)
class CellLine:
    """Where one line of a notebook's lesson text comes from."""

    cell: int
    """1-based number of the cell in the notebook (as Jupyter lists them, top to bottom)."""
    part: str
    """``source``, or ``output N`` for the N-th (1-based) printed output of a code cell."""
    line: int
    """1-based line within that source or output."""
    file_line: int | None
    """1-based line of the ``.ipynb`` file holding the JSON string with this text; None when the
    notebook is an old version that nbformat converted (no line of the file corresponds)."""
    file_column: int | None
    """1-based column of the line's first character in that JSON string (after the quote)."""
    escape_ascii: bool
    """True when the JSON string escapes non-ASCII characters (``\\u00e9``): columns after
    such a character count its escape."""

    def label(self) -> str:
        """``cell 3, line 2`` or ``cell 4, output 1, line 1``: what a notebook reader finds."""
        part = "" if self.part == "source" else f", {self.part}"
        return f"cell {self.cell}{part}, line {self.line}"


@dataclass(frozen=True)
class _Literal:
    """One JSON string of a notebook that holds lesson text."""

    start: int
    """Offset of its opening quote in the file."""
    end: int
    """Offset just after its closing quote."""
    value: str
    """Its decoded text."""
    escape_ascii: bool
    """Whether it escapes non-ASCII characters (kept when it is re-encoded)."""


@dataclass(frozen=True)
class _Part:
    """A cell's source or one of its outputs, as it sits in the lesson text."""

    first_line: int
    """1-based lesson line of its first line."""
    text: str
    """Its text (the literals' values joined)."""
    literals: tuple[_Literal, ...]
    """The JSON strings it is stored in, in order; empty when positions are unknown."""
    refusal: str | None
    """Why ``fix`` must not edit it, or None."""


@dataclass(frozen=True)
class LessonSource:
    """A lesson file read: the text claims quote, what a reader sees of it, where it lies."""

    text: str
    """The lesson text (see the module docstring)."""
    readable: str
    """``text`` with what no reader sees blanked; the same length and line breaks."""
    suffix: str
    """The file's format, by its name (``.md``, ``.mdx``, ``.qmd``, ``.ipynb``…)."""
    cells: tuple[CellLine | None, ...] = ()
    """For a notebook: each lesson line's origin (index 0 is line 1; None for the fence lines
    between cells); empty for every other format."""
    parts: tuple[_Part, ...] = ()
    """For a notebook: its sources and outputs in lesson order (what :func:`apply_edits`
    writes back)."""

    def with_text(self, text: str) -> LessonSource:
        """The same file with its lesson text edited in place (numbers replaced, no lines
        added or removed): positions stay those of the file as read."""
        readable = readable_text(self.suffix, text)
        return LessonSource(text, readable, self.suffix, self.cells, self.parts)

    def cell_line(self, line: int) -> CellLine | None:
        """The notebook cell a lesson line comes from; None outside notebooks."""
        return self.cells[line - 1] if 0 < line <= len(self.cells) else None

    def file_position(
        self, line: int, column: int | None, line_text: str
    ) -> tuple[int | None, int | None]:
        """(line, column) in the file for a lesson (line, column) on ``line_text``: the same
        for Markdown; for a notebook, the JSON line and column of that text (None, None on a
        line of its own between cells)."""
        if self.suffix != NOTEBOOK_SUFFIX:
            return line, column
        origin = self.cell_line(line)
        if origin is None or origin.file_line is None or origin.file_column is None:
            return None, None
        if column is None:
            return origin.file_line, None
        before = json.dumps(line_text[: column - 1], ensure_ascii=origin.escape_ascii)[1:-1]
        return origin.file_line, origin.file_column + len(before)

    def edit_refusal(self, offset: int) -> str | None:
        """Why ``fix`` must not rewrite the lesson text at ``offset``, or None."""
        if not self.parts:
            return None
        line = self.text.count("\n", 0, offset) + 1
        starts = [part.first_line for part in self.parts]
        at = bisect.bisect_right(starts, line) - 1
        if at < 0 or line >= starts[at] + _line_count(self.parts[at].text):
            return "the number is not in a cell of the notebook"
        return self.parts[at].refusal


def _line_count(text: str) -> int:
    return text.count("\n") + (not text.endswith("\n"))


def read_source(path: Path, content: str) -> LessonSource:
    """The lesson in ``content`` (the file at ``path``, decoded), by its format; raises
    :class:`FormatError` when the file is not what its name says."""
    suffix = path.suffix.lower()
    if suffix == NOTEBOOK_SUFFIX:
        return _read_notebook(content)
    if suffix not in MARKDOWN_SUFFIXES:
        known = ", ".join((*MARKDOWN_SUFFIXES, NOTEBOOK_SUFFIX))
        raise FormatError(f"unknown lesson format {suffix or '(no suffix)'!r} (known: {known})")
    return LessonSource(content, readable_text(suffix, content), suffix)


def apply_edits(path: Path, content: str, replacements: Mapping[tuple[int, int], str]) -> str:
    """``content`` (the file at ``path``) with the spans ``(start, end)`` of its lesson text
    replaced; raises :class:`FormatError` when the format cannot hold the edit."""
    source = read_source(path, content)
    text = source.text
    for (start, end), new in sorted(replacements.items(), reverse=True):
        text = text[:start] + new + text[end:]
    if source.suffix != NOTEBOOK_SUFFIX:
        return text
    return _write_notebook(path, content, source, text)


# -- what a reader does not see ------------------------------------------------------------------

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_MDX_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.DOTALL)
_MDX_ESM = re.compile(r"^(?:import|export)[\s{*]")
_JSX_START = re.compile(r"</?(?:[A-Za-z][\w.:-]*)?(?=[\s/>])")
_LINE_BREAKS = re.compile(r"[^\r\n]")
MAX_JSX_TAG = 4000
"""Characters one JSX tag may span (attributes over several lines); a ``<`` not closed within
them is text."""


def _blank(text: str) -> str:
    return _LINE_BREAKS.sub(" ", text)


def _fenced_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it is inside a fenced code block or one of its fence lines."""
    inside: list[bool] = []
    fence: str | None = None
    for line in lines:
        match = _FENCE_OPEN.match(line)
        if fence is None:
            if match is not None and not (match.group(1)[0] == "`" and "`" in match.group(2)):
                fence = match.group(1)
            inside.append(fence is not None)
            continue
        inside.append(True)
        if match is None or match.group(2).strip():
            continue
        if match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
            fence = None
    return inside


def readable_text(suffix: str, text: str) -> str:
    """``text`` with what a reader of a ``suffix`` lesson does not see blanked (see the module
    docstring); the same length, the same line breaks."""
    blanks_more = {".mdx": ("<", "{"), ".qmd": ("{",)}.get(suffix, ())
    if "<!--" not in text and not any(char in text for char in blanks_more):
        return text  # nothing to blank: most lessons
    lines = text.split("\n")
    fenced = _fenced_lines(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    spans: list[tuple[int, int]] = []

    def outside_code(offset: int) -> bool:
        return not fenced[bisect.bisect_right(starts, offset) - 1]

    for pattern in (_HTML_COMMENT, *((_MDX_COMMENT,) if suffix == ".mdx" else ())):
        spans.extend(m.span() for m in pattern.finditer(text) if outside_code(m.start()))
    if suffix == ".mdx":
        spans.extend(_mdx_esm(lines, starts, fenced))
        spans.extend(_jsx_tags(text, lines, starts, fenced))
    if suffix == ".qmd":
        spans.extend(_quarto_braces(lines, starts))
    if not spans:
        return text
    pieces: list[str] = []
    at = 0
    for start, end in sorted(spans):
        if end <= at:
            continue
        start = max(start, at)
        pieces.extend((text[at:start], _blank(text[start:end])))
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _mdx_esm(lines: list[str], starts: list[int], fenced: list[bool]) -> Iterator[tuple[int, int]]:
    """``import``/``export`` blocks of an MDX file: from such a line to the next blank line."""
    number = 0
    while number < len(lines):
        if not fenced[number] and _MDX_ESM.match(lines[number]):
            first = number
            while number < len(lines) and lines[number].strip():
                number += 1
            yield starts[first], starts[number - 1] + len(lines[number - 1])
        number += 1


def _jsx_tags(
    text: str, lines: list[str], starts: list[int], fenced: list[bool]
) -> Iterator[tuple[int, int]]:
    """JSX tags of an MDX file (``<Tabs>``, ``<Chart width={300} />``, ``</Tabs>``), outside
    fenced code, inline code and ``$…$`` math: from ``<`` to the ``>`` that closes it, past
    quoted attribute values and ``{…}`` expressions."""
    for match in _JSX_START.finditer(text):
        start = match.start()
        number = bisect.bisect_right(starts, start) - 1
        if fenced[number]:
            continue
        before = text[starts[number] : start]
        if before.count("`") % 2 or (before.count("$") - before.count("\\$")) % 2:
            continue  # inside inline code or inline math
        end = _tag_end(text, match.end())
        if end is not None:
            yield start, end


def _tag_end(text: str, at: int) -> int | None:
    """Offset after the ``>`` closing a JSX tag whose name ends at ``at``; None if none does
    within :data:`MAX_JSX_TAG` characters."""
    depth, quote = 0, ""
    for index in range(at, min(len(text), at + MAX_JSX_TAG)):
        char = text[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'" and depth == 0:
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif char == ">" and depth == 0:
            return index + 1
        elif char == "<" and depth == 0:
            return None  # another tag starts: this `<` was text
    return None


_QUARTO_INFO = re.compile(r"^( {0,3}(?:`{3,}|~{3,})\s*)(\{)([^}\n]*)(\})")


def _quarto_braces(lines: list[str], starts: list[int]) -> Iterator[tuple[int, int]]:
    """The braces of Quarto's executable fences (```` ```{python} ````): the info string is
    then ``python`` (its options after it), as code recognisers expect."""
    for number, line in enumerate(lines):
        match = _QUARTO_INFO.match(line)
        if match is not None:
            yield starts[number] + match.start(2), starts[number] + match.end(2)
            yield starts[number] + match.start(4), starts[number] + match.end(4)


# -- notebooks -------------------------------------------------------------------------------------

_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_TEXT_MIMES = ("text/html", "text/markdown", "text/latex")


def _parse_json(content: str) -> Any:
    try:
        return json.loads(content, object_pairs_hook=lambda pairs: pairs)
    except json.JSONDecodeError as error:
        raise FormatError(
            f"not a Jupyter notebook: invalid JSON at line {error.lineno}, column "
            f"{error.colno} ({error.msg})"
        ) from None
    except RecursionError:
        raise FormatError("not a Jupyter notebook: JSON nested too deeply") from None


def _walk(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(path, text) of every string of the parsed JSON in document order, keys too (with the
    path ``(None,)``). Objects are lists of (key, value) tuples (``object_pairs_hook``), arrays
    lists of values. Iterative: metadata may nest deeply."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(node, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, list):
            children: list[tuple[Any, tuple[Any, ...]]] = []
            if item and isinstance(item[0], tuple):
                for key, value in item:
                    children.extend(((key, (None,)), (value, (*where, key))))
            else:
                children = [(value, (*where, index)) for index, value in enumerate(item)]
            stack.extend(reversed(children))


def _literals(content: str, parsed: Any) -> dict[tuple[Any, ...], _Literal]:
    """The JSON string at each path of the document (keys excluded)."""
    found = list(_STRING_LITERAL.finditer(content))
    strings = list(_walk(parsed, ()))
    if len(found) != len(strings):  # pragma: no cover - valid JSON always agrees
        return {}
    literals: dict[tuple[Any, ...], _Literal] = {}
    for match, (path, value) in zip(found, strings, strict=True):
        if path and path[0] is None:
            continue
        raw = match.group()
        ascii_escaped = "\\u" in raw and raw.isascii()
        literals[path] = _Literal(match.start(), match.end(), value, ascii_escaped)
    return literals


def _language(notebook: Any) -> str:
    metadata = notebook.get("metadata", {})
    for value in (
        metadata.get("language_info", {}).get("name"),
        metadata.get("kernelspec", {}).get("language"),
    ):
        if isinstance(value, str) and re.fullmatch(r"[\w+#.-]{1,40}", value):
            return value
    return "python"


def _fence(text: str) -> str:
    longest = max((len(m.group(1)) for m in re.finditer(r"^ {0,3}(`{3,})", text, re.M)), default=2)
    return "`" * max(3, longest + 1)


def _read_notebook(content: str) -> LessonSource:
    import nbformat  # only for notebooks: it brings jsonschema

    parsed = _parse_json(content)
    version = _pair(parsed, "nbformat")
    if not isinstance(version, int) or isinstance(version, bool):
        raise FormatError(
            'not a Jupyter notebook: no "nbformat" version number at the top of the JSON'
        )
    try:
        # nbformat raises its own errors, jsonschema's, and TypeError/KeyError/AttributeError
        # on structures it does not expect: each is "not a notebook".
        with warnings.catch_warnings():  # e.g. cell ids missing: normalised, not our concern
            warnings.simplefilter("ignore")
            notebook = nbformat.reads(content, as_version=4)  # type: ignore[no-untyped-call]
    except Exception as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise FormatError(f"not a valid Jupyter notebook: {first[:200]}") from None
    literals = _literals(content, parsed) if version == 4 else {}
    line_starts = [0, *(m.end() for m in re.finditer("\n", content))]
    language = _language(notebook)
    out: list[str] = []
    cells: list[CellLine | None] = []
    parts: list[_Part] = []

    def glue(line: str) -> None:
        out.append(line + "\n")
        cells.append(None)

    def add(text: str, cell: int, part: str, keys: tuple[Any, ...], refusal: str | None) -> None:
        stored = _stored(literals, keys, text)
        if stored is None and version != 4:
            refusal = f"the notebook is nbformat {version}; save it in Jupyter (version 4) first"
        elif stored is None:
            refusal = refusal or "its text is not stored one line per JSON string"
        first_line = len(cells) + 1
        parts.append(_Part(first_line, text, stored or (), refusal))
        origins = _origins(stored or (), line_starts)
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()  # a text ending with a line break has no line after it
        for line_number, line in enumerate(lines, start=1):
            known = line_number <= len(origins)
            origin = origins[line_number - 1] if known else (None, None, False)
            cells.append(CellLine(cell, part, line_number, *origin))
            out.append(line + "\n")

    for number, cell in enumerate(notebook.cells, start=1):
        source = cell.get("source", "")
        if cell.cell_type == "markdown" and source.strip():
            add(source, number, "source", ("cells", number - 1, "source"), None)
            glue("")
        elif cell.cell_type == "code":
            if source.strip():
                fence = _fence(source)
                glue(fence + language)
                add(source, number, "source", ("cells", number - 1, "source"), None)
                glue(fence)
                glue("")
            for index, (text, keys, refusal) in enumerate(_outputs(cell, number), start=1):
                fence = _fence(text)
                glue(fence + OUTPUT_INFO)
                add(text, number, f"output {index}", keys, refusal)
                glue(fence)
                glue("")
    text = "".join(out)
    return LessonSource(
        text, readable_text(NOTEBOOK_SUFFIX, text), NOTEBOOK_SUFFIX, tuple(cells), tuple(parts)
    )


def _pair(parsed: Any, key: str) -> Any:
    if isinstance(parsed, list):
        for pair in parsed:
            if isinstance(pair, tuple) and pair[0] == key:
                return pair[1]
    return None


def _outputs(cell: Any, number: int) -> Iterator[tuple[str, tuple[Any, ...], str | None]]:
    """(text, JSON path, why fix must not edit it) of each printed output of a code cell."""
    for index, output in enumerate(cell.get("outputs", [])):
        keys: tuple[Any, ...] = ("cells", number - 1, "outputs", index)
        kind = output.get("output_type")
        if kind == "stream":
            text = output.get("text", "")
            if isinstance(text, str) and text.strip():
                yield text, (*keys, "text"), None
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            text = data.get("text/plain", "")
            if isinstance(text, str) and text.strip():
                others = [mime for mime in _TEXT_MIMES if mime in data]
                refusal = (
                    f"the output is also stored as {', '.join(others)}; re-run the cell"
                    if others
                    else None
                )
                yield text, (*keys, "data", "text/plain"), refusal


def _stored(
    literals: Mapping[tuple[Any, ...], _Literal], keys: tuple[Any, ...], text: str
) -> tuple[_Literal, ...] | None:
    """The JSON strings holding ``text`` at ``keys`` (one string, or a list of them), each
    starting at the start of a line of ``text``; None when they are unknown or cut lines."""
    whole = literals.get(keys)
    if whole is not None:
        return (whole,) if whole.value == text else None
    pieces: list[_Literal] = []
    index = 0
    while (*keys, index) in literals:
        pieces.append(literals[(*keys, index)])
        index += 1
    if not pieces or "".join(p.value for p in pieces) != text:
        return None
    if any(not p.value.endswith("\n") for p in pieces[:-1]):
        return None  # a string that ends mid-line: its lines cannot be told apart
    return tuple(pieces)


def _origins(
    literals: tuple[_Literal, ...], line_starts: list[int]
) -> list[tuple[int | None, int | None, bool]]:
    """(file line, file column, escapes non-ASCII) of each line of the text the literals hold."""
    found: list[tuple[int | None, int | None, bool]] = []
    for literal in literals:
        line = bisect.bisect_right(line_starts, literal.start)
        column = literal.start - line_starts[line - 1] + 2  # 1-based, after the quote
        encoded = 0  # characters the literal's lines before this one take in the file
        for piece in literal.value.split("\n")[: _line_count(literal.value)]:
            found.append((line, column + encoded, literal.escape_ascii))
            encoded += len(json.dumps(piece + "\n", ensure_ascii=literal.escape_ascii)) - 2
    return found


def _write_notebook(path: Path, content: str, source: LessonSource, text: str) -> str:
    """The notebook ``content`` with its lesson text changed to ``text`` (see the module
    docstring), or :class:`FormatError`."""
    old_lines = source.text.split("\n")
    new_lines = text.split("\n")
    if len(old_lines) != len(new_lines):
        raise FormatError("an edit of a notebook may not add or remove lines")
    edits: list[tuple[int, int, str]] = []
    for part in source.parts:
        count = _line_count(part.text)
        first = part.first_line - 1
        if old_lines[first : first + count] == new_lines[first : first + count]:
            continue
        if part.refusal is not None:
            raise FormatError(part.refusal)
        new_text = "\n".join(new_lines[first : first + count]) + (
            "\n" if part.text.endswith("\n") else ""
        )
        lines_of = re.findall(r"[^\n]*\n|[^\n]+$", new_text)
        at = 0
        for literal in part.literals:
            taken = _line_count(literal.value) if literal.value else 0
            value = "".join(lines_of[at : at + taken])
            at += taken
            if value != literal.value:
                encoded = json.dumps(value, ensure_ascii=literal.escape_ascii)
                edits.append((literal.start, literal.end, encoded))
    new_content = content
    for start, end, encoded in sorted(edits, reverse=True):
        new_content = new_content[:start] + encoded + new_content[end:]
    try:
        written = read_source(path, new_content)
    except FormatError as error:  # pragma: no cover - the strings are encoded by json
        raise FormatError(f"the rewritten notebook would not be valid ({error})") from None
    if written.text != text:
        raise FormatError("the edit reaches outside the cells' text")
    return new_content
