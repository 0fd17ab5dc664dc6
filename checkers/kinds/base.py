"""What every claim kind shares: the interface of a kind module (:class:`Kind`), its input base
class and field types, the context a check runs in, and its :class:`Outcome`.

A kind module (``checkers/kinds/<kind>.py``) declares an ``Input`` model derived from
:class:`KindInput` and one function ``check(fields, context) -> Outcome``.
Nothing in this module does I/O or knows about pytest, so kinds stay pure numerics.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, PlainValidator, WithJsonSchema

from checkers.expr import FUNCTIONS
from checkers.numbers import (
    Comparison,
    NumberError,
    Printed,
    Severity,
    Tolerance,
    compare,
    parse_printed,
    parse_printed_vector,
)

__all__ = [
    "Context",
    "Kind",
    "KindInput",
    "Outcome",
    "PrintedNumber",
    "PrintedVector",
    "PrintedWholeNumber",
    "Verdict",
    "from_comparisons",
    "printed_text",
    "severity_of",
]

Verdict = Literal["pass", "fail", "error"]
"""What a check decides; ``stale`` (the quote is gone) is decided by anchoring, never by a kind."""


def _printed(value: Any) -> Printed:
    if isinstance(value, Printed):
        return value
    if isinstance(value, (list, dict)) or value is None:
        raise ValueError("expected one printed number such as 0.78 or 1.5B")
    try:
        return parse_printed(value)
    except NumberError as error:
        raise ValueError(error.message) from None


def _printed_vector(value: Any) -> tuple[Printed, ...]:
    if isinstance(value, tuple) and all(isinstance(v, Printed) for v in value):
        return value
    if not isinstance(value, (list, str)):
        raise ValueError("expected a vector of printed numbers such as [0.84, 0.54]")
    try:
        return parse_printed_vector(value)
    except NumberError as error:
        raise ValueError(error.message) from None


PRINTED_SCALAR_SCHEMA: dict[str, Any] = {"type": ["number", "string"]}
"""JSON Schema of one printed number in YAML: a number (``0.78``) or text (``1.5B``, ``14 GB``)."""
PRINTED_VECTOR_SCHEMA: dict[str, Any] = {
    "anyOf": [{"type": "array", "items": PRINTED_SCALAR_SCHEMA}, {"type": "string"}]
}
"""JSON Schema of a printed vector in YAML: a list (``[0.84, 0.54]``) or its text."""

PrintedNumber = Annotated[
    Printed,
    PlainValidator(_printed),
    WithJsonSchema({"title": "printed number", **PRINTED_SCALAR_SCHEMA}),
]
"""A claim field holding one number as printed (its text keeps its precision)."""


def _printed_whole(value: Any) -> Printed:
    printed = _printed(value)
    if printed.unit is not None and printed.unit.family != "count":
        raise ValueError(f"expected a whole number such as 32 or 4096, got {printed.text!r}")
    if printed.value <= 0 or printed.value != math.floor(printed.value):
        raise ValueError(f"expected a positive whole number, got {printed.text!r}")
    return printed


PrintedWholeNumber = Annotated[
    Printed,
    PlainValidator(_printed_whole),
    WithJsonSchema({"title": "printed whole number", "type": ["integer", "string"]}),
]
"""A claim field holding a positive whole number as printed (layers, heads, widths, tokens),
possibly with a count unit (``4K`` tokens)."""
PrintedVector = Annotated[
    tuple[Printed, ...],
    PlainValidator(_printed_vector),
    WithJsonSchema({"title": "printed vector", **PRINTED_VECTOR_SCHEMA}),
]
"""A claim field holding a vector of printed numbers, compared element by element in order."""


RESERVED_NAMES = FUNCTIONS | {"e", "pi", "inf"}
"""Names an expression reads as constants or functions, so no variable may take them."""

_T = TypeVar("_T")


def check_variable_names(variables: dict[str, _T]) -> dict[str, _T]:
    """Validate the names of claim variables (``uses:``, ``where:``); return them unchanged."""
    for name in variables:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise ValueError(f"variable name {name!r} must be an identifier such as s or d_k")
        if name in RESERVED_NAMES:
            raise ValueError(
                f"variable name {name!r} is a constant or function of the expression language; "
                "choose another name"
            )
    return variables


class KindInput(BaseModel):
    """Base of every kind's input model: frozen, and unknown fields are an error.

    Besides ``check``, the runner and ``fix`` rely on what this class declares, never on a
    kind's own field names: :attr:`printed` (the value as printed, which ``uses:`` takes and a
    claim that could not be checked shows), and, for kinds whose quote prints a computation,
    :attr:`expression_text` and :meth:`step_corrections` (the printed steps ``fix`` may
    rewrite).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    @property
    def printed(self) -> object:
        """The claim's value as the lesson prints it: a :class:`Printed`, a vector or matrix of
        them, chosen rows, printed stages (another input model), or None."""
        # Every kind names its printed value ``claimed``; the ones without one have none.
        return getattr(self, "claimed", None)

    @property
    def expression_text(self) -> str | None:
        """The computation as the quote prints it (``0.58×0.71 + 0.74×0.52``), for lining the
        two up; None for kinds whose fields are not copied from the quote as one expression."""
        return None

    def step_corrections(self, variables: Mapping[str, float]) -> dict[int, str]:
        """Printed intermediate steps of :attr:`expression_text` that no longer hold once its
        inputs are ``variables`` (``uses:`` names → values): {index of the number among
        :func:`checkers.numbers.number_tokens` of the expression: corrected text}."""
        return {}


def printed_text(value: object) -> str:
    """A printed value (:attr:`KindInput.printed`) as one line: a number, ``[a, b]``,
    ``[[a, b], [c, d]]``, ``{0: [a, b]}`` for chosen rows, ``scores: …; weights: …`` for
    stages of a computation."""
    if isinstance(value, Printed):
        return value.text
    if isinstance(value, tuple):
        return "[" + ", ".join(printed_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {printed_text(v)}" for key, v in value.items()) + "}"
    if isinstance(value, KindInput):  # printed stages, one field each
        stages = ((name, getattr(value, name)) for name in type(value).model_fields)
        return "; ".join(f"{name}: {printed_text(v)}" for name, v in stages if v is not None)
    return ""


@dataclass(frozen=True)
class Context:
    """What a check may know besides its own fields."""

    tolerance: Tolerance | None = None
    """A tolerance the claim overrides the printed precision with (reason included)."""
    variables: Mapping[str, float] = field(default_factory=dict)
    """Values of other claims this one takes as inputs (``uses:``), as printed."""


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """The verdict of one claim, with everything a reader needs to act on it.

    Built one way: with keywords (the fields are keyword-only), usually through
    :func:`from_comparisons` (printed against recomputed values) or :func:`error` (the claim
    could not be checked); a variant of an outcome is ``dataclasses.replace(outcome, ...)``.
    """

    verdict: Verdict
    """pass, fail, or error (the claim could not be checked); stale is decided by anchoring."""
    claimed: str
    """The value as the lesson prints it."""
    expected: str
    """The recomputed value, in full and at the printed precision (``0.7966 → 0.80``)."""
    tolerance: str
    """The tolerance used and why (``±0.005: 2 printed decimals``)."""
    message: str
    """One line an author understands."""
    corrections: tuple[tuple[str, str], ...] = ()
    """Printed numbers to replace, in the order they appear in the quote: (printed, corrected)."""
    details: tuple[str, ...] = ()
    """Further lines: per-element results, intermediate values, the reading of units."""
    value: float | tuple[float, ...] | None = None
    """The recomputed value in base units, for claims that take this one as an input."""
    severity: Severity = "error"
    """For a ``fail``: ``slip`` when every failing comparison is a slip (:func:`severity_of`),
    else ``error``; a kind that fails for any other reason (a wrong mask, a wrong formula) fails
    with an error."""

    @property
    def ok(self) -> bool:
        """True when the claim holds."""
        return self.verdict == "pass"


def error(message: str, claimed: str = "") -> Outcome:
    """An Outcome for a claim that could not be checked (bad inputs, undefined maths)."""
    return Outcome(verdict="error", claimed=claimed, expected="", tolerance="", message=message)


def severity_of(comparisons: Sequence[Comparison]) -> Severity:
    """``slip`` when the comparisons that fail are all slips (:func:`checkers.numbers.is_slip`),
    ``error`` when any of them is more (or none fails)."""
    failures = [c for c in comparisons if not c.ok]
    return "slip" if failures and all(c.slip for c in failures) else "error"


def from_comparisons(
    comparisons: Sequence[Comparison],
    *,
    what: str,
    vector: bool = False,
    details: Sequence[str] = (),
) -> Outcome:
    """Turn printed-vs-recomputed comparisons into an Outcome with a readable message.

    ``what`` names the quantity ("Q_猫 · K_猫", "softmax row 2") for the message.
    """
    failures = [c for c in comparisons if not c.ok]
    claimed = _join([c.printed.text for c in comparisons], vector)
    expected = (
        _join([c.describe() for c in comparisons], vector)
        if not vector
        else (
            _join([_full(c) for c in comparisons], True)
            + " → "
            + _join([c.corrected for c in comparisons], True)
        )
    )
    value: float | tuple[float, ...] = (
        tuple(c.recomputed for c in comparisons) if vector else comparisons[0].recomputed
    )
    tolerances = sorted({c.tolerance.reason for c in comparisons})
    tolerance = "; ".join(tolerances)
    corrected = _join([c.corrected for c in comparisons], vector)
    if not failures:
        # "150 + 160 ≈ 300 holds": a value printed after ≈ or ~ carries its own relation.
        relation = " " if not vector and comparisons[0].printed.approx[:1] in _RELATIONS else " = "
        message = f"{what}{relation}{claimed} holds ({tolerance})"
    elif vector:
        wrong = ", ".join(
            f"element {i + 1}: {c.printed.text} should be {c.corrected}"
            for i, c in enumerate(comparisons)
            if not c.ok
        )
        message = f"{what} is {corrected}, not {claimed} ({wrong})"
    else:
        message = f"{what} is {failures[0].describe()}, not {claimed}"
    return Outcome(
        verdict="fail" if failures else "pass",
        claimed=claimed,
        expected=expected,
        tolerance=tolerance,
        message=message,
        corrections=tuple((c.printed.text, c.corrected) for c in failures),
        details=tuple(details),
        value=value,
        severity=severity_of(comparisons),
    )


_RELATIONS = ("≈", "~", "∼")
"""Approximation marks that are relations themselves (``about`` and ``约`` read after ``=``)."""


def compare_scalar(printed: Printed, recomputed: float, context: Context, *, what: str) -> Outcome:
    """The common case: one printed number against one recomputed value."""
    if not math.isfinite(recomputed):
        return error(f"{what} is undefined (recomputed {recomputed})", printed.text)
    return from_comparisons([compare(printed, recomputed, context.tolerance)], what=what)


def _full(comparison: Comparison) -> str:
    return comparison.describe().split(" → ")[0]


def _join(parts: Sequence[str], vector: bool) -> str:
    return "[" + ", ".join(parts) + "]" if vector else ", ".join(parts)


class Kind(Protocol):
    """The interface every kind module provides (see :mod:`checkers.kinds`)."""

    @property
    def Input(self) -> type[KindInput]:
        """The model of the YAML fields this kind reads."""
        ...

    # ``fields`` is the module's own Input; typed Any so each module may name its own model.
    def check(self, fields: Any, context: Context, /) -> Outcome:
        """Recompute the claim from its fields and judge it against the printed values."""
        ...
