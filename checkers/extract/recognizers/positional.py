"""Recogniser ``positional``: sinusoidal positional-encoding values stated in the lesson.

Recognises, once the lesson has stated ``d_model = N`` (the last such statement above wins):

* ``PE(1, 2) = sin(1 / 10000^1) = sin(0.0001) ≈ 0.0001``: one dimension's value, with the
  exponent and the angle the lesson wrote, so a wrong exponent is caught even when the value
  happens to be right (``PE(0, 2) = sin(0 / 10000^1) = 0``);
* ``PE(1) = [0.84, 0.54, 0.0001, 1.0]`` and ``位置向量 PE(1) = […]``: a whole vector.

Each becomes a ``positional`` claim (sinusoidal encoding of "Attention Is All You Need").
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from checkers.extract.document import Document
from checkers.extract.draft import Draft

__all__ = ["Stated", "d_model_before", "d_model_statements", "recognize"]

NAME = "positional"

# d_model = 4, dmodel=4, and in LaTeX d_{model} = 4, d_{\text{model}} = 4.
_D_MODEL = re.compile(
    r"d_?(?:\{(?:\\(?:text|mathrm|rm)\s*\{?)?)?model\}?\}?\s*[=＝]\s*(\d+)(?!\s*[×*/^])"
)
_VALUE = re.compile(r"PE\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*=([^\n]*)")
_VECTOR = re.compile(r"PE\s*\(\s*(\d+)\s*\)\s*=\s*(\[[^\]\n]*\])")
_LAST_NUMBER = re.compile(r"(?:=|≈)\s*([-−]?\d+(?:\.\d+)?)\s*$")
_EXPONENT = re.compile(r"10000\s*\^\s*\(?\s*(\d+(?:\.\d+)?(?:\s*/\s*\d+)?)\s*\)?")
_ARGUMENT = re.compile(r"(?:sin|cos)\s*\(\s*([-−]?\d+(?:\.\d+)?)\s*\)")


Stated = tuple[list[int], list[str]]
"""(line numbers, values) of a lesson's ``d_model = N`` statements."""


def d_model_statements(document: Document) -> Stated:
    """(line numbers, values) of every ``d_model = N`` in the lesson, in order; found once per
    lesson, not once per PE value (50 000 PE lines made that quadratic)."""
    numbers: list[int] = []
    values: list[str] = []
    for number, text in enumerate(document.text.splitlines(), start=1):
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


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``positional`` claim for every PE value or vector the lesson prints."""
    stated: Stated | None = None
    for _block, line in document.lines():
        if "PE" not in line.text:
            continue
        if stated is None:
            stated = d_model_statements(document)
        for match in _VALUE.finditer(line.text):
            d_model = d_model_before(stated, line.number, line.text[: match.start()])
            if d_model is None:
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
            if d_model is None:
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
