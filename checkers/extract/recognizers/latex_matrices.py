"""Recogniser ``latex_matrices``: arithmetic of matrices printed in LaTeX, and positional
encodings printed as matrices.

Reads ``\\begin{bmatrix}`` / ``pmatrix`` / ``vmatrix`` / ``matrix`` and ``\\left[\\begin{array}``
in display math and in inline ``$…$``. Recognises, where the text states the relation with
``=`` or ``≈`` in one expression:

* ``A + B = C``, ``A - B = C``, ``2A = C``, ``A B = C``, ``x W = C``, ``XW_Q = C`` (two names
  written together), ``A^T = C`` whose operands are printed in the same expression or named
  earlier in the same section (``W = \\begin{bmatrix}…``), and whose result ``C`` is printed →
  a ``matrix_arithmetic`` claim per printed row of ``C`` (its quote and line are that row's),
  cells of the operands read as numbers or as the arithmetic written in them
  (``\\sin(\\frac{1}{10000^0})``);
* a matrix of formulas followed by its values (``[\\sin 3 & \\cos 3] = [0.1411 & -0.9900]``):
  each cell evaluated;
* once the lesson has stated ``d_model = N``: ``PE(pos) = [printed row or column]`` (also
  ``PE_{pos}``), ``x + PE(pos) = [printed row]`` (x a bracketed ``[0.2, -0.1, …]`` or a matrix,
  printed or named in the section), ``PE = [printed matrix]`` and ``X + PE = [printed matrix]``
  (``X`` printed or named in the section), with N columns and positions by row → a
  ``positional`` claim per row (``added`` holds X's row), in whichever layout of the sines and
  cosines the lesson uses (``layout: either``). Positions count from the first row: from 0, or
  from 1 when the first row is PE(1) and not PE(0) (the first row decides; a first row that is
  neither leaves the matrix undrafted).

An operand that is not a printed or named matrix (an unknown name, ``\\alpha``, a word), cells
with ``\\cdots`` or a shape that does not fit the operation leave the expression undrafted.
Hand-written because no library reads LaTeX matrices into numbers without evaluating the
source (``sympy.parse_latex`` needs antlr and builds expressions from untrusted text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.extract.recognizers.positional import Stated, d_model_before, d_model_statements
from checkers.formulas import sinusoidal_pe
from checkers.numbers import NumberError, compare, parse_printed

__all__ = ["recognize"]

NAME = "latex_matrices"

MAX_MATH = 20_000
"""Characters of one math text read for matrices; a lesson's worked matrices are far shorter."""

_ENVIRONMENT = re.compile(
    r"(?:\\left\s*[\[(|]\s*)?\\begin\{(?P<env>[bpvBV]?matrix|array)\}(?:\{[^{}]{0,40}\})?"
    r"(?P<body>(?:(?!\\begin\{).){0,8000}?)\\end\{(?P=env)\}(?:\s*\\right\s*[\])|])?",
    re.DOTALL,
)
# A vector of numbers written with brackets in math (``x = [0.2, -0.1, 0.0]``): a 1-row matrix.
_VECTOR = re.compile(r"\[\s*(-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+)\s*\]")
_NAMED_VECTOR = re.compile(r"[A-Za-z}]\s*=\s*\[\s*-?\d")
_ROW_BREAK = re.compile(r"\\\\(?:\[[^\]]{0,20}\])?")
_PRINTED_CELL = re.compile(r"[-−+]?\d+(?:\.\d+)?")
_ELLIPSIS = re.compile(r"\\[cvdl]?dots|…|⋯|⋮|⋱")
_TRANSPOSE = re.compile(
    r"\^\s*(?:\{\s*)?(?:T|\\top|\\intercal|\\mathsf\s*\{T\}|\\mathrm\s*\{T\})(?:\s*\})?"
)
_RELATION = re.compile(r"(?<![<>!=])=(?!=)|≈|\\approx")
_PLACEHOLDER = "⟦{}⟧"
# One token of a side: a placeholder, a name (W, x_PE, W^Q, W_{q}), a number, an operator.
_SIDE_TOKEN = re.compile(
    r"\s*(?:(?P<matrix>⟦\d+⟧)|(?P<transpose>\^T)"
    r"|(?P<name>[A-Za-z]{1,12}(?:_\(?[A-Za-z0-9]{1,12}\)?|\^\(?[A-SU-Za-z0-9]{1,12}\)?)?)"
    r"|(?P<number>\d+(?:\.\d+)?)|(?P<op>[-+×·*/@()]))"
)
_PE_NAMES = frozenset({"PE", "P_E"})
"""What a lesson calls the positional-encoding matrix."""


@dataclass(frozen=True)
class _Matrix:
    """A matrix printed in the lesson."""

    cells: tuple[tuple[str, ...], ...]
    """Each cell as plain arithmetic (``0.5``, ``sin(((1)/(10000^0)))``)."""
    rows: tuple[tuple[str, int], ...]
    """Each row as written (for quoting) and its 1-based line."""
    printed: bool
    """True when every cell is a printed number (a result that can be claimed)."""


@dataclass(frozen=True)
class _Side:
    """One side of a relation: its tokens, with the matrices they stand for."""

    tokens: tuple[tuple[str, str], ...]
    """(kind, text) per token: matrix, name, number, op, transpose."""

    @property
    def alone(self) -> tuple[str, str] | None:
        """The side's only token, when it has one."""
        return self.tokens[0] if len(self.tokens) == 1 else None


def _name(text: str) -> str:
    """``W_(q)`` → ``W_q``, ``W^Q`` → ``W_Q``: the name a claim uses."""
    return text.replace("(", "").replace(")", "").replace("^", "_")


def _matrix(body: str, source: str, start: int, line_of: list[int]) -> _Matrix | None:
    """The matrix of an environment's body (``start`` is its offset in ``source``)."""
    if _ELLIPSIS.search(body):
        return None
    cells: list[tuple[str, ...]] = []
    rows: list[tuple[str, int]] = []
    bounds = [0, *(p for m in _ROW_BREAK.finditer(body) for p in (m.start(), m.end())), len(body)]
    for offset, end in zip(bounds[::2], bounds[1::2], strict=True):
        piece = body[offset:end]
        text = piece.replace("\\hline", " ").strip()
        if not text:
            continue
        row = tuple(plain(cell)[0].strip() for cell in text.split("&"))
        if any(not cell for cell in row):
            return None
        cells.append(row)
        first = start + offset + (len(piece) - len(piece.lstrip()))
        rows.append((text, line_of[min(first, len(line_of) - 1)]))
    if not cells or len({len(row) for row in cells}) != 1:
        return None
    printed = all(_PRINTED_CELL.fullmatch(cell) for row in cells for cell in row)
    return _Matrix(tuple(cells), tuple(rows), printed)


def _bracket_vector(match: re.Match[str], line_of: list[int]) -> _Matrix:
    """The 1-row matrix of a bracketed vector of numbers, quoted as written."""
    cells = tuple(cell.strip() for cell in match.group(1).split(","))
    return _Matrix(
        (cells,), ((match.group(0), line_of[min(match.start(), len(line_of) - 1)]),), True
    )


def _sides(skeleton: str) -> list[_Side | None]:
    """The sides of the relations in ``skeleton``; None for a side that is not only matrices,
    names, numbers and operators."""
    plain_text = plain(skeleton)[0]
    sides: list[_Side | None] = []
    for piece in _RELATION.split(plain_text):
        tokens: list[tuple[str, str]] = []
        position = 0
        stripped = piece.strip()
        while position < len(stripped):
            match = _SIDE_TOKEN.match(stripped, position)
            if match is None or match.end() == position:
                tokens = []
                break
            kind = match.lastgroup or "op"
            tokens.append((kind, match.group(kind)))
            position = match.end()
        sides.append(_Side(tuple(tokens)) if tokens else None)
    return sides


def _math_texts(block: Block) -> Iterator[tuple[str, list[int]]]:
    """(text, 1-based line of each character) of each math text of a block that holds a
    matrix environment: a display math block whole, a paragraph's ``$…$`` spans."""
    source = "\n".join(line.text for line in block.lines)
    if len(source) > MAX_MATH or ("\\begin" not in source and "[" not in source):
        return
    line_of = [line.number for line in block.lines for _ in range(len(line.text) + 1)]
    if block.kind == "math":
        yield source, line_of
        return
    if block.kind != "paragraph":
        return
    for span in re.finditer(r"\$\$?([^$]+)\$\$?", source):
        if "\\begin" in span.group(1) or _NAMED_VECTOR.search(span.group(1)):
            yield span.group(1), line_of[span.start(1) :]


def recognize(document: Document) -> Iterator[Draft]:
    """Draft claims for matrices the lesson computes in LaTeX."""
    if "\\begin" not in document.text:
        return  # no environment anywhere: one search, not one per block
    named: dict[str, _Matrix] = {}
    section = -1
    stated: Stated | None = None
    for block in document.blocks:
        if block.section != section:
            section, named = block.section, {}
        for text, line_of in _math_texts(block):
            if stated is None:
                stated = d_model_statements(document)
            yield from _expression_drafts(text, line_of, named, document, stated)


def _expression_drafts(
    text: str, line_of: list[int], named: dict[str, _Matrix], document: Document, stated: Stated
) -> Iterator[Draft]:
    """Drafts for one math text; records the matrices it names in ``named``."""
    matrices: list[_Matrix | None] = []
    pieces: list[str] = []
    cursor = 0
    found: list[tuple[int, int, _Matrix | None]] = [
        (m.start(), m.end(), _matrix(m.group("body"), text, m.start("body"), line_of))
        for m in _ENVIRONMENT.finditer(text)
    ]
    if "[" in text:
        found += [
            (m.start(), m.end(), _bracket_vector(m, line_of))
            for m in _VECTOR.finditer(text)
            if not any(start <= m.start() < end for start, end, _ in found)
        ]
    for start, end, matrix in sorted(found, key=lambda item: item[0]):
        pieces.append(text[cursor:start])
        pieces.append(" " + _PLACEHOLDER.format(len(matrices)) + " ")
        matrices.append(matrix)
        cursor = end
    if not matrices:
        return
    pieces.append(text[cursor:])
    skeleton = _TRANSPOSE.sub("^T", "".join(pieces))
    # Each statement of a multi-line display (PE rows separated by \\ or by ",") on its own.
    for statement in re.split(r"\\\\|\\quad|\\qquad|,\s|;|\n\s*\n", skeleton):
        if "⟦" not in statement:
            continue
        sides = _sides(statement)
        yield from _statement_drafts(sides, matrices, named, document, stated)


def _resolve(
    side: _Side, matrices: list[_Matrix | None], named: dict[str, _Matrix]
) -> tuple[str, dict[str, _Matrix], list[str]] | None:
    """(expression, its operands by name, the names left unknown) of a computed side; None
    when a placeholder is unreadable."""
    parts: list[str] = []
    operands: dict[str, _Matrix] = {}
    unknown: list[str] = []
    for kind, text in side.tokens:
        if kind == "matrix":
            matrix = matrices[int(text[1:-1])]
            if matrix is None:
                return None
            # printed again under the name it was given above (x = […], then x_PE = […] + …)
            same = [key for key, known in named.items() if known.cells == matrix.cells]
            name = same[-1] if same else f"M{int(text[1:-1]) + 1}"
            operands[name] = matrix
            parts.append(name)
        elif kind == "name":
            name = _name(text)
            pieces = [name] if name in named else _known_product(name, named)
            for piece in pieces or [name]:
                if piece in named:
                    operands[piece] = named[piece]
                else:
                    unknown.append(piece)
            parts.append(" ".join(pieces or [name]))
        elif kind == "transpose":
            parts.append("^T")
        else:
            parts.append({"×": "*", "·": "*"}.get(text, text))
    expression = " ".join(parts).replace(" ^T", "^T")
    return expression, operands, unknown


def _known_product(name: str, named: dict[str, _Matrix]) -> list[str]:
    """``XW_Q`` as the product ``X W_Q`` of two matrices named above, as LaTeX writes it without
    a space; [] when no split of the name gives two known names."""
    for cut in range(1, min(len(name), 24)):
        if name[:cut] in named and name[cut:] in named:
            return [name[:cut], name[cut:]]
    return []


def _statement_drafts(
    sides: list[_Side | None],
    matrices: list[_Matrix | None],
    named: dict[str, _Matrix],
    document: Document,
    stated: Stated,
) -> Iterator[Draft]:
    for index, side in enumerate(sides):
        if side is None:
            continue
        alone = side.alone
        after = sides[index + 1] if index + 1 < len(sides) else None
        result = _printed_alone(after, matrices)
        position = _pe_position(side)
        if position is not None and result is not None:
            yield from _pe_vector(result, position, document, stated)
            continue
        shifted = _pe_sum_position(side, matrices, named)
        if shifted is not None and result is not None:
            yield from _pe_vector(result, shifted[1], document, stated, added=shifted[0])
            continue
        if (
            alone is not None
            and alone[0] == "name"
            and result is not None
            and _name(alone[1]) not in named
            and _known_product(_name(alone[1]), named)
        ):
            alone = None  # XW_Q: a product of two matrices named above, not a new name
        if alone is not None and alone[0] == "name" and after is not None:
            target = after.alone
            if target is not None and target[0] == "matrix":
                matrix = matrices[int(target[1][1:-1])]
                if matrix is not None:
                    named[_name(alone[1])] = matrix
                    if _name(alone[1]) in _PE_NAMES and matrix.printed:
                        yield from _pe_drafts(matrix, None, document, stated)
            continue
        if result is None:
            continue
        if alone is not None:
            written = matrices[int(alone[1][1:-1])] if alone[0] == "matrix" else None
            if written is not None and not written.printed:
                # a matrix of formulas, then its values: each cell evaluated
                yield from _arithmetic_drafts("M1", {"M1": written}, result)
            continue
        resolved = _resolve(side, matrices, named)
        if resolved is None:
            continue
        expression, operands, unknown = resolved
        if not unknown and operands:
            yield from _arithmetic_drafts(expression, operands, result)
        elif len(unknown) == 1 and unknown[0] in _PE_NAMES:
            added = _added_to_pe(side, matrices, named)
            if added is not None:
                yield from _pe_drafts(result, added, document, stated)


def _pe_position(side: _Side) -> int | None:
    """N in a side that reads ``PE(N)`` or ``PE_N`` / ``PE_{N}``."""
    tokens = side.tokens
    if (
        len(tokens) == 4
        and tokens[0][0] == "name"
        and _name(tokens[0][1]) in _PE_NAMES
        and tokens[1:4:2] == (("op", "("), ("op", ")"))
        and tokens[2][1].isdigit()
    ):
        return int(tokens[2][1])
    if len(tokens) == 1 and tokens[0][0] == "name":
        name, _, position = _name(tokens[0][1]).partition("_")
        if name in _PE_NAMES and position.isdigit():
            return int(position)
    return None


def _pe_sum_position(
    side: _Side, matrices: list[_Matrix | None], named: dict[str, _Matrix]
) -> tuple[_Matrix, int] | None:
    """(x, N) of a side that reads ``x + PE(N)`` or ``PE(N) + x``, x a printed or named row."""
    tokens = side.tokens
    if len(tokens) != 6:
        return None
    for term, plus, rest in (
        (tokens[0], tokens[1], tokens[2:]),
        (tokens[5], tokens[4], tokens[:4]),
    ):
        position = _pe_position(_Side(tuple(rest)))
        if position is None or plus != ("op", "+"):
            continue
        if term[0] == "matrix":
            added = matrices[int(term[1][1:-1])]
        else:
            added = named.get(_name(term[1])) if term[0] == "name" else None
        if added is not None and added.printed and len(added.cells) == 1:
            return added, position
    return None


def _pe_vector(
    printed: _Matrix,
    position: int,
    document: Document,
    stated: Stated,
    added: _Matrix | None = None,
) -> Iterator[Draft]:
    """A ``positional`` claim for ``PE(pos) = [a row or a column of numbers]`` (or for
    ``x + PE(pos)``, with ``added`` the row x)."""
    cells = printed.cells
    if len(cells) > 1 and all(len(row) == 1 for row in cells):
        values = [row[0] for row in cells]  # a column vector, read top to bottom
    elif len(cells) == 1:
        values = list(cells[0])
    else:
        return
    quote, line = printed.rows[0]
    d_model = d_model_before(stated, line, "")
    if d_model is None or len(values) != int(d_model):
        return
    fields: dict[str, object] = {
        "d_model": d_model,
        "pos": str(position),
        "claimed": values,
        "layout": "either",
    }
    if added is not None:
        if len(added.cells[0]) != len(values):
            return
        fields["added"] = list(added.cells[0])
    yield Draft(
        kind="positional",
        quote=quote,
        line=line,
        fields=fields,
        confidence=0.7,
        recognizer=NAME,
        slug=f"pe-{position}",
    )


def _printed_alone(side: _Side | None, matrices: list[_Matrix | None]) -> _Matrix | None:
    """The printed matrix a side is, if it is one and nothing else."""
    alone = side.alone if side is not None else None
    if alone is None or alone[0] != "matrix":
        return None
    matrix = matrices[int(alone[1][1:-1])]
    return matrix if matrix is not None and matrix.printed else None


def _added_to_pe(
    side: _Side, matrices: list[_Matrix | None], named: dict[str, _Matrix]
) -> _Matrix | None:
    """X in a side that reads ``X + PE`` or ``PE + X``."""
    tokens = side.tokens
    if len(tokens) != 3 or tokens[1] != ("op", "+"):
        return None
    other = tokens[2] if tokens[0][0] == "name" and _name(tokens[0][1]) in _PE_NAMES else tokens[0]
    if other[0] == "matrix":
        return matrices[int(other[1][1:-1])]
    if other[0] == "name":
        return named.get(_name(other[1]))
    return None


def _arithmetic_drafts(
    expression: str, operands: dict[str, _Matrix], result: _Matrix
) -> Iterator[Draft]:
    fields_matrices = {name: [list(row) for row in m.cells] for name, m in operands.items()}
    for row, (quote, line) in enumerate(result.rows):
        yield Draft(
            kind="matrix_arithmetic",
            quote=quote,
            line=line,
            fields={
                "expression": expression,
                "matrices": fields_matrices,
                "claimed": {row: list(result.cells[row])},
            },
            confidence=0.8,
            recognizer=NAME,
            slug=f"matrix-row-{row}",
        )


def _pe_drafts(
    printed: _Matrix, added: _Matrix | None, document: Document, stated: Stated
) -> Iterator[Draft]:
    """A ``positional`` claim per row of a printed PE (or X + PE) matrix."""
    first_line = printed.rows[0][1]
    d_model = d_model_before(stated, first_line, "")
    if d_model is None or len(printed.cells[0]) != int(d_model):
        return
    if added is not None and (
        not added.printed or [len(r) for r in added.cells] != [len(r) for r in printed.cells]
    ):
        return
    start = _first_position(printed, added, int(d_model))
    if start is None:
        return
    for row, (quote, line) in enumerate(printed.rows):
        fields: dict[str, object] = {
            "d_model": d_model,
            "pos": str(start + row),
            "claimed": list(printed.cells[row]),
            "layout": "either",
        }
        if added is not None:
            fields["added"] = list(added.cells[row])
        yield Draft(
            kind="positional",
            quote=quote,
            line=line,
            fields=fields,
            confidence=0.7,
            recognizer=NAME,
            slug=f"pe-row-{start + row}",
        )


def _first_position(printed: _Matrix, added: _Matrix | None, d_model: int) -> int | None:
    """The position of the first row: 0 when it reads as PE(0), else 1 when it reads as PE(1)
    (in either layout, up to a last-digit slip); None when it is neither."""
    for pos in (0, 1):
        for layout in ("interleaved", "halves"):
            if layout == "halves" and d_model % 2:
                continue
            fits = True
            for j, cell in enumerate(printed.cells[0]):
                try:
                    shown = parse_printed(cell.replace("−", "-"))
                    base = parse_printed(added.cells[0][j]).value if added is not None else 0.0
                except NumberError:
                    return None
                near = compare(shown, sinusoidal_pe(pos, j, d_model, layout=layout) + base)
                if not (near.ok or near.slip):
                    fits = False
                    break
            if fits:
                return pos
    return None
