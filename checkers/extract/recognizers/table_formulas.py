"""Recogniser ``table_formulas``: table columns whose header is a formula of another column.

Recognises a GFM table where one header is a plain variable (``$d_k$``, ``x``, ``n``,
``$\\theta_i$``, ``loss``, with its unit in brackets after it: ``loss（nats）``) and other
headers are arithmetic in that variable (``$\\sqrt{d_k}$``, ``$1/\\sqrt{d_k}$``, ``GELU($x$)``,
``$e^x$``, ``n²``), possibly named first (``PPL = $e^{loss}$``) or after a label word (``波长
$2\\pi/\\theta_i$``, ``wavelength $2\\pi/\\theta_i$``): every body cell under a formula header
becomes an ``arithmetic`` claim with the row's variable as its input. Only plain numbers are
read, and counts with a scale suffix (``2.52B``, ``84.9M``, ``175 B``, ``1.3K``, ``70亿``, ``6.7
million``; the scales of :data:`checkers.numbers.UNITS` of family ``count``): the expression is
divided by the scale and the cell read to its printed digits in that scale, as a header's
``(millions)`` makes it. A ``B`` is not read as a billion in a table that speaks of bytes (its
header or the cell: ``bytes``, ``字节``), where it may be a byte. Any other cell with a unit or
words (``1k 词``, ``64×``, ``3 GB``) is left alone, since its scale would be a guess. A whole
number in a variable cell is exact (a count, a chosen input: ``d_k = 64``); a decimal
(``0.01``, ``0.866``) may itself be a rounding of the value the author computed the column
from, so it is read as the rounding it is (``carried``), and the cell fails only when no value
that rounds to it gives the printed result.
Several columns may enter one formula (``$12Ld^2$`` over columns ``$L$`` and ``$d$``: a product
written by juxtaposition, as formulas are), and a scale after a formula (``(millions)``,
``(M)``, ``(亿)``) says the cells' unit: the expression then divides by it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from checkers.expr import FUNCTIONS, ExprError, Name, Node, names, parse
from checkers.extract.document import Document, Table
from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.numbers import count_scale

__all__ = ["recognize"]

NAME = "table_formulas"

_VARIABLE = re.compile(r"^(?:[A-Za-z](?:_[A-Za-z0-9]+)?|[a-z]{2,8}(?:_[A-Za-z0-9]+)?)$")
_PLAIN_NUMBER = re.compile(r"^[-−]?\d[\d,]*(?:\.\d+)?$")
_RESERVED = FUNCTIONS | {"e", "pi", "inf"}
_GREEK_NAMES = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "eta",
    "theta",
    "lambda",
    "mu",
    "rho",
    "sigma",
    "tau",
    "phi",
    "omega",
]
_GREEK = re.compile(r"\\(" + "|".join(_GREEK_NAMES) + r")(?![A-Za-z])|([αβγδεηθλμρστφω])")
"""A Greek letter other than π, as LaTeX or as itself: read as its name (``θ_i`` → ``theta_i``),
which a claim's named inputs accept."""
_GREEK_LETTERS = dict(zip("αβγδεηθλμρστφω", _GREEK_NAMES, strict=True))
_UNIT_AFTER = re.compile(r"(?:\s+\(|（)[^()（）$]{1,12}[)）]\s*$")
"""A unit in brackets after a variable's name: ``loss（nats）``, ``t (ms)``."""
_MATH = re.compile(r"\$([^$]+)\$")
_LABEL = re.compile(r"^[^\d=+*/^$()（）]*$")
"""What may stand beside a header's formula: words that name it, no arithmetic."""


def _header_texts(header: str) -> list[str]:
    """The readings of a header as a formula, most literal first: the whole header, what follows
    its last ``=``, and its LaTeX alone when the rest is a label (words, no brackets)."""
    readings = [header]
    if "=" in header:
        readings.append(header.rsplit("=", 1)[1])
    math = _MATH.findall(header)
    if len(math) == 1 and _LABEL.match(_MATH.sub(" ", header)):
        readings.append(math[0])
    return [_header_text(r) for r in readings]


def _variable_text(header: str) -> str:
    """A header read as a variable's name: a unit in brackets after it dropped."""
    return _header_text(_UNIT_AFTER.sub("", header))


@lru_cache(maxsize=4096)
def _header_text(header: str) -> str:
    """A header (or a reading of one) as the expression parser reads it; cached by the text:
    lessons repeat their headers, and each is read two or three ways."""
    text = _GREEK.sub(lambda m: m.group(1) or _GREEK_LETTERS[m.group(2)], header)
    text = plain(text)[0].strip()
    # Function names in headers are often capitalised (GELU(x), Sigmoid(x)).
    return re.sub(
        r"[A-Za-z]+(?=\s*\()",
        lambda m: m.group(0).lower() if m.group(0).lower() in FUNCTIONS else m.group(0),
        text,
    )


def _formula(text: str, variables: set[str]) -> Node | None:
    try:
        tree = parse(text)
    except ExprError:
        return None
    free = names(tree)
    if isinstance(tree, Name):
        return None  # a bare name (``new $x$``) is another column of the same variable
    return tree if free and free <= variables else None


_SCALE = re.compile(
    r"\s*[(（]\s*(?P<scale>millions?|billions?|thousands?|M|B|K|百万|亿|万|千)\s*[)）]\s*$", re.I
)
_SCALES = {
    "thousand": 10**3, "k": 10**3, "千": 10**3, "万": 10**4, "million": 10**6, "m": 10**6,
    "百万": 10**6, "亿": 10**8, "billion": 10**9, "b": 10**9,
}  # fmt: skip
_SUFFIXED = re.compile(
    r"^(?P<number>[-−]?\d[\d,]*(?:\.\d+)?)\s*"
    r"(?P<scale>[KMBTk]|thousand|million|billion|trillion|千万|百万|万亿|万|亿|千)$"
)
"""A count printed with its scale: ``2.52B``, ``84.9 M``, ``70亿``."""
_BYTES = re.compile(r"bytes?|字节", re.IGNORECASE)
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?|\S")


def _implicit(text: str, variables: set[str]) -> str:
    """``12Ld^2`` as ``12 × L × d^2``: the products of named columns a header writes by
    juxtaposition, as a lesson's formula does, made explicit; only when every letter in it is
    a column's variable (so ``GELU(x)`` and ``exp`` keep their names)."""
    tokens = _TOKEN.findall(text.replace(" ", ""))
    letters = [t for t in tokens if t[0].isalpha()]
    if not letters or any(t not in variables for t in letters):
        return text
    out: list[str] = []
    for token in tokens:
        operand = token[0].isalnum() or token == "("
        if out and operand and (out[-1][0].isalnum() or out[-1] == ")") and out[-2:-1] != ["^"]:
            out.append("×")
        out.append(token)
    return " ".join(out) if "×" in out else text  # nothing juxtaposed: the header as written


def _scaled(text: str, variables: set[str]) -> str:
    """A header's formula with its juxtaposed products made explicit, divided by the scale
    written after it (``12Ld^2 (millions)`` → ``(12 × L × d ^ 2) / 1000000``)."""
    scale = _SCALE.search(text)
    formula = _implicit(text[: scale.start()] if scale else text, variables)
    if scale is None:
        return formula
    return f"({formula}) / {_SCALES[scale.group('scale').lower().rstrip('s')]}"


def _columns(table: Table) -> tuple[dict[int, str], dict[int, str]]:
    """(variable columns: index → name, formula columns: index → expression text). A
    formula header may end in a scale (``$12Ld^2$ (millions)``): its cells are then in that
    unit, and the expression divides by it."""
    readings = [_header_texts(h) for h in table.header]
    named = [_variable_text(h) for h in table.header]
    variables = {
        i: name for i, name in enumerate(named) if _VARIABLE.match(name) and name not in _RESERVED
    }
    names_ = set(variables.values())
    formulas: dict[int, str] = {}
    for i, texts in enumerate(readings):
        if i in variables:
            continue
        scaled = (_scaled(t, names_) for t in texts)
        formula = next((f for f in scaled if _formula(f, names_) is not None), None)
        if formula is not None:
            formulas[i] = formula
    return variables, formulas


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every cell under a formula header."""
    for block in document.blocks:
        table = block.table
        if table is None:
            continue
        variables, formulas = _columns(table)
        if not variables or not formulas:
            continue
        speaks_of_bytes = any(_BYTES.search(h) for h in table.header)
        for cells, line in table.rows:
            values = {
                name: cells[i].strip()
                for i, name in variables.items()
                if i < len(cells) and _PLAIN_NUMBER.match(cells[i].strip())
            }
            for index, formula in formulas.items():
                if index >= len(cells):
                    continue
                read = _claimed(cells[index].strip(), formula, speaks_of_bytes)
                if read is None:
                    continue
                expression, claimed = read
                tree = _formula(expression, set(values))
                if tree is None:
                    continue
                used = {name: values[name] for name in sorted(names(tree))}
                fields: dict[str, object] = {
                    "expression": expression,
                    "where": {n: v for n, v in used.items() if "." not in v},
                    "claimed": claimed,
                }
                rounded = {n: v.replace(",", "") for n, v in used.items() if "." in v}
                if rounded:  # decimals are read as roundings: written into the expression
                    fields["expression"] = _substituted(expression, rounded)
                    fields["carried"] = sorted(set(rounded.values()))
                    if not fields["where"]:
                        del fields["where"]
                yield Draft(
                    kind="arithmetic",
                    quote=document.source_line(line) or table.row_source(cells),
                    line=line,
                    fields=fields,
                    confidence=0.8,
                    recognizer=NAME,
                    slug=f"{expression}-{'-'.join(used.values())}",
                    note=f"column {table.header[index].strip()} from column"
                    f"{'s' if len(used) > 1 else ''} "
                    + ", ".join(table.header[i].strip() for i in variables if variables[i] in used)
                    + " of the same row"
                    + ("; decimals read as the roundings they are" if rounded else "")
                    + (
                        f"; {cells[index].strip()} read as {claimed} × "
                        f"{expression.rsplit('/ ', 1)[1]} (a count's scale), to its printed digits"
                        if expression != formula
                        else ""
                    ),
                )


def _claimed(cell: str, formula: str, speaks_of_bytes: bool) -> tuple[str, str] | None:
    """(expression, claimed) for a cell under a formula header: a plain number as printed; a
    count with a scale suffix (:data:`_SUFFIXED`) as its number, the formula divided by the
    scale (not when the header already gives one, nor ``B`` where the table speaks of bytes);
    None for any other cell."""
    if _PLAIN_NUMBER.match(cell):
        return formula, cell
    suffixed = _SUFFIXED.match(cell)
    if suffixed is None or _SCALED_FORMULA.search(formula):
        return None
    scale = suffixed.group("scale")
    if scale == "B" and (speaks_of_bytes or _BYTES.search(cell)):
        return None
    try:
        power = count_scale(scale)
    except KeyError:
        return None
    return f"({formula}) / {power}", suffixed.group("number")


_SCALED_FORMULA = re.compile(r"\) / \d+$")
"""A formula a header's scale already divides (:func:`_scaled`)."""


def _substituted(expression: str, values: dict[str, str]) -> str:
    """``expression`` with each name of ``values`` replaced by its printed value."""
    pattern = re.compile(
        r"(?<![\w.])("
        + "|".join(re.escape(n) for n in sorted(values, key=len, reverse=True))
        + r")(?![\w])"
    )

    def value(match: re.Match[str]) -> str:
        text = values[match.group(1)]
        return f"({text})" if text.startswith(("-", "−")) else text

    return pattern.sub(value, expression)
