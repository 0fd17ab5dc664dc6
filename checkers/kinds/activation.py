"""Kind ``activation``: an activation function's values on stated inputs.

YAML fields:

``function``
    One of ``relu``; ``gelu`` (either form: the exact x·Φ(x) or the tanh approximation, which
    GPT-2 and BERT use; the verdict says which matched), ``gelu_erf`` (exact only),
    ``gelu_tanh`` (approximation only); ``silu`` (alias ``swish``); ``sigmoid``; ``tanh``.
``inputs``
    The pre-activation value or vector, as printed.
``claimed``
    The printed activation value or vector.
``elided``
    True when the lesson prints only a prefix and elides the rest (``[0.65, -0.3, 0.45, ...]``):
    the printed entries are checked, in order, and the verdict says how many. A vector written
    as a string whose last items are ``...``, ``…`` or ``...16个值...`` is read as elided
    automatically.

Whole numbers among decimals: in ``[0.65, 0, 0.45]`` the 0 is a value of the same precision as
its neighbours (a ReLU zero), not "something that rounds to 0" (±0.5); such entries are compared
at the precision of the vector's least precise decimal entry, and the tolerance says so.

When the claimed values are wrong for ``function`` but match another activation on the same
inputs (ReLU, exact or tanh GELU, SiLU, sigmoid, tanh, or no activation at all), the message names
it: a "GELU" whose values are ReLU's fails with "these are the ReLU values of the inputs".

Example::

    - id: ffn-gelu-hidden
      kind: activation
      quote: "= [0.65, 0, 0.45, ...] · W₂ + b₂"
      function: gelu
      inputs: "[0.65, -0.3, 0.45, ...16个值...]"
      claimed: "[0.65, 0, 0.45, ...]"
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Literal

from pydantic import model_validator

from checkers.formulas import gelu, gelu_tanh, relu, sigmoid, silu
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedVector,
    from_comparisons,
)
from checkers.numbers import Comparison, Printed, Tolerance, compare

__all__ = ["FUNCTIONS", "Input", "check"]

FunctionName = Literal["relu", "gelu", "gelu_erf", "gelu_tanh", "silu", "swish", "sigmoid", "tanh"]

FUNCTIONS: dict[str, tuple[str, Callable[[float], float]]] = {
    "relu": ("ReLU", relu),
    "gelu_erf": ("GELU (exact, x·Φ(x))", gelu),
    "gelu_tanh": ("GELU (tanh approximation)", gelu_tanh),
    "silu": ("SiLU/Swish", silu),
    "sigmoid": ("sigmoid", sigmoid),
    "tanh": ("tanh", math.tanh),
}
"""Every whitelisted activation: name → (how messages call it, the function)."""

_ACCEPTED: dict[str, tuple[str, ...]] = {
    "gelu": ("gelu_erf", "gelu_tanh"),
    "swish": ("silu",),
}
"""Names that accept more than one implementation (or are aliases)."""

_CALLS = {
    "relu": "ReLU",
    "gelu": "GELU",
    "gelu_erf": "GELU",
    "gelu_tanh": "GELU_tanh",
    "silu": "SiLU",
    "swish": "Swish",
    "sigmoid": "sigmoid",
    "tanh": "tanh",
}
"""How a function is written in a message's call, ``GELU([0.65, …])``."""
_KINDS_OF_VALUES = {
    "relu": "ReLU",
    "gelu_erf": "exact GELU (x·Φ(x))",
    "gelu_tanh": "tanh-approximation GELU",
    "silu": "SiLU/Swish",
    "sigmoid": "sigmoid",
    "tanh": "tanh",
}
"""How "these are the … values" names a whitelisted function."""

_Reading = tuple[Printed, Tolerance | None]
"""A printed entry and the tolerance it is read with (None: its own printed precision)."""


_ELLIPSIS = re.compile(r"\.\.\.|…|⋯")


def _strip_ellipsis(value: Any) -> tuple[Any, bool]:
    """A vector with its trailing elided items removed, and whether any were."""
    items: list[Any]
    if isinstance(value, str):
        body = value.strip()
        if not (body.startswith("[") and body.endswith("]")):
            return value, False
        items = [part.strip() for part in body[1:-1].split(",")]
    elif isinstance(value, list):
        items = list(value)
    else:
        return value, False
    elided = [isinstance(item, str) and bool(_ELLIPSIS.search(item)) for item in items]
    if not any(elided):
        return value, False
    first = elided.index(True)
    if first == 0:
        raise ValueError("an elided vector needs at least one printed entry before '...'")
    if not all(elided[first:]):
        raise ValueError("only trailing entries may be elided ('[0.65, 0, ...]')")
    return items[:first], True


class Input(KindInput):
    """Fields of an ``activation`` claim."""

    function: FunctionName
    """The activation the lesson names."""
    inputs: PrintedNumber | PrintedVector
    """The pre-activation value(s), as printed (possibly a prefix)."""
    claimed: PrintedNumber | PrintedVector
    """The printed activation value(s) (possibly a prefix)."""
    elided: bool = False
    """True when only a printed prefix of the vectors is checked."""

    @model_validator(mode="before")
    @classmethod
    def _read_ellipsis(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        found = False
        for name in ("inputs", "claimed"):
            if name in data:
                data[name], stripped = _strip_ellipsis(data[name])
                found = found or stripped
        if found:
            if data.get("elided") in (False, "false", "False"):
                raise ValueError("the vectors contain '...' but elided is false")
            data["elided"] = True
        return data

    @model_validator(mode="after")
    def _shapes(self) -> Input:
        vector_in = isinstance(self.inputs, tuple)
        if vector_in != isinstance(self.claimed, tuple):
            raise ValueError("inputs and claimed must both be numbers or both be vectors")
        if isinstance(self.inputs, tuple) and isinstance(self.claimed, tuple):
            if len(self.inputs) != len(self.claimed) and not self.elided:
                raise ValueError(
                    f"inputs has {len(self.inputs)} values and claimed {len(self.claimed)}; "
                    "set elided: true when the lesson prints only a prefix"
                )
        elif self.elided:
            raise ValueError("elided applies to vectors")
        return self


def _implementations(function: str) -> tuple[str, ...]:
    return _ACCEPTED.get(function, (function,))


def check(fields: Input, context: Context) -> Outcome:
    """Apply the named activation to the printed inputs and compare with the claimed values."""
    vector = isinstance(fields.claimed, tuple)
    inputs = fields.inputs if isinstance(fields.inputs, tuple) else (fields.inputs,)
    claimed = fields.claimed if isinstance(fields.claimed, tuple) else (fields.claimed,)
    checked = min(len(inputs), len(claimed))
    inputs, claimed = inputs[:checked], claimed[:checked]
    readings = _readings(claimed, context.tolerance)
    x_values = [p.value for p in inputs]
    label = _CALLS[fields.function]
    texts = [p.text for p in inputs] + (["…"] if fields.elided else [])
    what = f"{label}({_join(texts, vector)})"

    tried: list[tuple[str, list[Comparison]]] = []
    for name in _implementations(fields.function):
        function = FUNCTIONS[name][1]
        comparisons = _compare(readings, [function(x) for x in x_values])
        tried.append((name, comparisons))
        if all(c.ok for c in comparisons):
            break
    name, comparisons = next(((n, c) for n, c in tried if all(x.ok for x in c)), tried[0])
    outcome = from_comparisons(comparisons, what=what, vector=vector)
    notes: list[str] = []
    if fields.function.startswith("gelu"):  # two GELUs exist; say which one the values are
        notes.append(f"computed as {FUNCTIONS[name][0]}")
    if fields.elided:
        notes.append(
            f"checked the {checked} printed entr{'y' if checked == 1 else 'ies'}; "
            "the rest are elided ('…')"
        )
    if outcome.ok:
        suffix = f" ({'; '.join(notes)})" if notes else ""
        return replace(outcome, message=outcome.message + suffix, details=tuple(notes))
    message = outcome.message
    other = _matching_other(fields.function, readings, x_values)
    if other is not None:
        message += f" — {other}"
    if notes:
        message += f" ({'; '.join(notes)})"
    return replace(outcome, message=message, details=tuple(notes))


def _matching_other(function: str, readings: Sequence[_Reading], x: Sequence[float]) -> str | None:
    """What the claimed values are when another whitelisted activation (or none) explains them."""
    own = set(_implementations(function))
    candidates: list[tuple[str, Callable[[float], float]]] = [
        (_KINDS_OF_VALUES[name], f) for name, (_, f) in FUNCTIONS.items() if name not in own
    ]
    candidates.append(("unchanged (no activation applied)", lambda v: v))
    for label, f in candidates:
        if all(c.ok for c in _compare(readings, [f(v) for v in x])):
            if label.startswith("unchanged"):
                return "these are the inputs unchanged: no activation was applied"
            return f"these are the {label} values of the inputs"
    return None


def _readings(claimed: Sequence[Printed], override: Tolerance | None) -> list[_Reading]:
    """Whole numbers among decimals are read at their neighbours' precision (see module doc)."""
    if override is not None:
        return [(p, override) for p in claimed]
    decimals = [p.decimals for p in claimed if p.decimals > 0 and p.exponent == 0]
    if not decimals or len(claimed) < 2:
        return [(p, None) for p in claimed]
    coarsest = min(decimals)
    readings: list[_Reading] = []
    for printed in claimed:
        if printed.decimals == 0 and printed.exponent == 0 and printed.unit is None:
            as_decimal = replace(printed, decimals=coarsest)
            half = 0.5 * 10.0**-coarsest
            reason = (
                f"±{half:g}: {printed.text} printed among values with {coarsest} decimal"
                f"{'s' if coarsest > 1 else ''}, read as {printed.value:.{coarsest}f}"
            )
            readings.append((as_decimal, Tolerance(half, 0.0, reason, last_place=2 * half)))
        else:
            readings.append((printed, None))
    return readings


def _compare(readings: Sequence[_Reading], values: Sequence[float]) -> list[Comparison]:
    return [compare(p, v, t) for (p, t), v in zip(readings, values, strict=True)]


def _join(parts: Sequence[str], vector: bool) -> str:
    return "[" + ", ".join(parts) + "]" if vector else ", ".join(parts)
