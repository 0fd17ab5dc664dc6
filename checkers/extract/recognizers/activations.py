"""Recogniser ``activations``: a vector the lesson says is an activation of another vector.

Recognises, within one chapter (see :mod:`checkers.extract.vectors`):

* ``GELU([0.65, -0.3]) = [0.48, -0.11]``, ``ReLU(h) = [0.7, 0, 1.2]`` with ``h = […]`` printed
  above: the function applied to a printed or named vector, and the result beside it;
* a step that names its activation and prints the result later: ``hidden = GELU(hidden_pre)``
  with ``hidden_pre = … = [0.65, -0.3, 0.45, …]`` above and ``hidden = [0.48, …]`` — or the
  result printed where ``hidden`` stood (``hidden · W₂ = [0.48, …] · W₂``) — below.

Functions: GELU, ReLU, SiLU/Swish, sigmoid (σ), tanh. Each becomes an ``activation`` claim (the
kind names the function whose values were printed instead, e.g. ReLU's for "GELU"). Elided
vectors (``[0.65, -0.3, ...16个值...]``) are checked entry by entry as printed. Not drafted: a
name whose value is not printed before the result, a result printed before the step that
defines it, and vectors of different printed lengths with no elision.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from checkers.extract.document import Document
from checkers.extract.draft import Draft
from checkers.extract.vectors import VECTOR, Binding, bindings, chapters, vector_values

__all__ = ["recognize"]

NAME = "activations"

_FUNCTIONS = {
    "gelu": "gelu",
    "relu": "relu",
    "silu": "silu",
    "swish": "silu",
    "sigmoid": "sigmoid",
    "σ": "sigmoid",
    "tanh": "tanh",
}
NEEDS = tuple(_FUNCTIONS)
"""A call :data:`_CALL` reads names one of the functions (``Σ`` and ``ς`` fold to ``σ``)."""
_IDENT = r"[A-Za-z\u4e00-\u9fff][\w\u4e00-\u9fff₀-₉']*"
_CALL = re.compile(
    r"(?<![\w.])(?:(?P<out>"
    + _IDENT
    + r")\s*=\s*)?(?P<function>GELU|ReLU|SiLU|Swish|sigmoid|σ|tanh)"
    r"\s*\(\s*(?P<argument>" + _IDENT + r"|\[[^\[\]\n]*\])\s*\)",
    re.IGNORECASE,
)
_RESULT = re.compile(r"\s*(?:=|≈)\s*(" + VECTOR.pattern + r")")


def _elided(text: str) -> bool:
    return bool(re.search(r"\.\.\.|…|⋯", text))


def _comparable(inputs: str, claimed: str) -> bool:
    a, b = vector_values(inputs), vector_values(claimed)
    if not a or not b:
        return False
    return len(a) == len(b) or _elided(inputs) or _elided(claimed)


def _last_before(found: list[Binding], name: str, line: int) -> Binding | None:
    match = None
    for binding in found:
        if binding.name == name and not binding.is_matrix and binding.line <= line:
            match = binding
    return match


def _first_after(found: list[Binding], name: str, line: int) -> Binding | None:
    for binding in found:
        if binding.name == name and not binding.is_matrix and binding.line > line:
            return binding
    return None


def _draft(document: Document, function: str, inputs: str, claimed: str, line: int) -> Draft:
    return Draft(
        kind="activation",
        quote=document.source_line(line),
        line=line,
        fields={"function": function, "inputs": inputs, "claimed": claimed},
        confidence=0.7,
        recognizer=NAME,
        slug=f"{function}-values",
    )


def _call_draft(
    document: Document, found: list[Binding], call: re.Match[str], text: str, line: int
) -> Draft | None:
    """The claim of one ``f(argument)`` call: its printed or named input, its printed result."""
    function = _FUNCTIONS[call.group("function").lower()]
    argument = call.group("argument")
    if argument.startswith("["):
        inputs: str | None = argument if VECTOR.fullmatch(argument) else None
    else:
        given = _last_before(found, argument, line)
        inputs = given.text if given is not None else None
    if inputs is None:
        return None
    result = _RESULT.match(text, call.end())
    if result is not None:
        claimed, at = result.group(1), line
    elif call.group("out"):
        later = _first_after(found, call.group("out"), line - 1)
        if later is None or (later.line == line and later.column < call.end()):
            return None
        claimed, at = later.text, later.line
    else:
        return None
    return _draft(document, function, inputs, claimed, at) if _comparable(inputs, claimed) else None


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``activation`` claim for each activation of a vector the lesson prints."""
    lowered = document.text.lower()  # substring tests first: a regex pass over 800 lessons
    if not any(f"{name}(" in lowered or f"{name} (" in lowered for name in _FUNCTIONS):
        return
    for chapter in chapters(document):
        found: list[Binding] | None = None
        for block in chapter:
            for line in block.lines:
                lowered_line = line.text.lower()
                if "(" not in line.text or not any(f in lowered_line for f in _FUNCTIONS):
                    continue
                for call in _CALL.finditer(line.text):
                    if found is None:
                        found = bindings(chapter)
                    draft = _call_draft(document, found, call, line.text, line.number)
                    if draft is not None:
                        yield draft
