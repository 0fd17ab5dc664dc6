"""Recogniser ``projections``: Query, Key and Value vectors the lesson says are x·W.

Recognises, within one chapter (see :mod:`checkers.extract.vectors`), once the lesson states the
projection (``Q = x · W_q``, ``K = XW^K``, ``q_猫 = x_猫 W_Q``) and prints the matrix
(``W_q = [[0.1, 0.2], …]``, over several lines):

* every vector printed for a token under the projection's name, ``Q_追 = [0.62, 0.81]``, whose
  token's input is printed above it (``x_追 = […]``, or an embedding list ``追 → […]``), and whose
  sizes fit the matrix (len(x) rows, len(Q) columns).

The claim is ``Q_T = x_T · W`` (``projection``). The lesson must show that its vectors are
meant as projections of that matrix: a step computes one (``Q_猫 = x_猫 · W_q``), or another
vector of the same name reproduces x·W at its printed precision. Vectors a lesson only
"assumes" for another example (none of them reproduces, none is computed) are not drafted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document
from checkers.extract.draft import Draft
from checkers.extract.vectors import Binding, bindings, chapters
from checkers.numbers import NumberError, parse_printed

__all__ = ["recognize"]

NAME = "projections"
NEEDS = ("w_", "w^", "wq", "wk", "wv")
"""A projection matrix is named ``W_q``, ``W^Q`` or ``Wq`` (the first test of
:func:`recognize`)."""

_MATRIX_NAME = (
    r"W\s*(?:_\{?\s*(?P<sub>[qkvQKV])\s*\}?|\^\{?\s*(?P<sup>[qkvQKV])\s*\}?|(?P<bare>[qkvQKV]))"
)
_RULE = re.compile(
    r"(?<![\w])(?P<out>[QKVqkv])(?:_\{?(?P<out_token>[\w\u4e00-\u9fff]+)\}?)?\s*=\s*"
    r"(?P<input>[xXhH])(?:_\{?(?P<in_token>[\w\u4e00-\u9fff]+)\}?)?\s*(?:·|⋅|×|\*|@|\\cdot)?\s*"
    + _MATRIX_NAME
    + r"(?![\w])"
)
_MATRIX = re.compile(r"^" + _MATRIX_NAME + r"$")
_TOKEN_VECTOR = re.compile(r"^(?P<out>[QKVqkv])_\{?(?P<token>[\w\u4e00-\u9fff]+)\}?$")


def _matrix_role(name: str) -> str | None:
    """``W_q``, ``W^Q``, ``Wq`` → ``q``."""
    match = _MATRIX.match(name.replace(" ", ""))
    if match is None:
        return None
    return (match.group("sub") or match.group("sup") or match.group("bare")).lower()


def _decimals(text: str) -> int:
    try:
        return max(parse_printed(text).decimals, 0)
    except NumberError:  # an odd token is simply not a precise number
        return 0


def _reproduces(x: Binding, matrix: Binding, result: Binding) -> bool:
    """True when result = x · matrix at its printed precision."""
    values = [float(v) for v in x.rows[0]]
    for column, printed in enumerate(result.rows[0]):
        product = sum(v * float(row[column]) for v, row in zip(values, matrix.rows, strict=True))
        if abs(product - float(printed)) > 0.5 * 10 ** -_decimals(printed) + 1e-9:
            return False
    return True


def _fits(x: Binding, matrix: Binding, result: Binding) -> bool:
    return len(x.rows[0]) == len(matrix.rows) and len(result.rows[0]) == len(matrix.rows[0])


def _input_of(found: list[Binding], token: str, line: int, letters: set[str]) -> Binding | None:
    """The last input vector printed for ``token`` above ``line``: ``x_T`` or ``T → […]``."""
    best = None
    for binding in found:
        if binding.is_matrix or binding.line > line:
            continue
        name = binding.name
        if name == token or (name[:2].lower() in {f"{c}_" for c in letters} and name[2:] == token):
            best = binding
    return best


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``projection`` claim for each token's Q, K or V vector of a stated projection."""
    text = document.text
    if "W_" not in text and "W^" not in text and not re.search(r"W[qkvQKV]\b", text):
        return  # no projection matrix is named
    for chapter in chapters(document):
        rules: dict[str, tuple[int, set[str]]] = {}  # role → (line of the rule, input letters)
        computed: set[str] = set()  # results the lesson computes as x·W explicitly
        for block in chapter:
            for line in block.lines:
                for rule in _RULE.finditer(line.text):
                    role = (rule.group("sub") or rule.group("sup") or rule.group("bare")).lower()
                    if rule.group("out").lower() != role:
                        continue
                    first, letters = rules.get(role, (line.number, set()))
                    letters.add(rule.group("input").lower())
                    rules[role] = (min(first, line.number), letters)
                    if rule.group("out_token"):
                        computed.add(rule.group("out") + "_" + rule.group("out_token"))
        if not rules:
            continue
        yield from _chapter_drafts(document, bindings(chapter), rules, computed)


def _chapter_drafts(
    document: Document,
    found: list[Binding],
    rules: dict[str, tuple[int, set[str]]],
    computed: set[str],
) -> Iterator[Draft]:
    candidates: list[tuple[Binding, Binding, Binding]] = []  # (result, x, matrix)
    for result in found:
        named = _TOKEN_VECTOR.match(result.name)
        if named is None or result.is_matrix or result.substituted:
            continue
        role = named.group("out").lower()
        if role not in rules or rules[role][0] > result.line:
            continue
        matrices = [
            b
            for b in found
            if b.is_matrix and _matrix_role(b.name) == role and b.line < result.line
        ]
        if not matrices:
            continue
        matrix = matrices[-1]
        x = _input_of(found, named.group("token"), result.line, rules[role][1])
        if x is None or not _fits(x, matrix, result):
            continue
        candidates.append((result, x, matrix))
    # The lesson's vectors are projections of this matrix only if it computes one or one holds.
    meant = {
        (result.name[0].lower(), matrix.line)
        for result, x, matrix in candidates
        if _reproduces(x, matrix, result)
    }
    computed_roles = {name[0].lower() for name in computed}
    for result, x, matrix in candidates:
        role = result.name[0].lower()
        if role not in computed_roles and (role, matrix.line) not in meant:
            continue
        yield Draft(
            kind="projection",
            quote=document.source_line(result.line),
            line=result.line,
            fields={
                "name": result.name,
                "x": list(x.rows[0]),
                "W": [list(row) for row in matrix.rows],
                "claimed": list(result.rows[0]),
            },
            confidence=0.7,
            recognizer=NAME,
            slug=f"projection-{result.name}",
        )
