"""Kind ``positional``: positional encodings — sinusoidal PE values, RoPE angles, ALiBi slopes.

YAML fields (``encoding`` decides which others apply):

``encoding``
    ``sinusoidal`` (default; "Attention Is All You Need" §3.5), ``rope`` (RoFormer) or ``alibi``
    (Press et al. 2022).
``base``
    The base of the frequencies, 10000 unless the lesson states another.

Sinusoidal, one of four forms:

* a value or vector — ``d_model``, ``pos``, ``index`` (one dimension, 0-based; omit it and
  ``claimed`` is the whole vector PE(pos) of ``d_model`` entries) and ``claimed``; with
  ``added`` (a vector of ``d_model`` entries, a token's embedding as printed) ``claimed`` is the
  sum x + PE(pos), as lessons print "x + PE";
* ``layout``: ``interleaved`` (default, the paper: sin in even dimensions, cos in odd ones),
  ``halves`` (all sines, then all cosines: tensor2tensor and many tutorials) or ``either`` (a
  lesson that does not say which: the claim holds under whichever it matches, and the message
  says which one);
* a written formula step, on top of a value: ``written_exponent`` (the exponent the lesson put
  on 10000, e.g. ``1`` in ``sin(1 / 10000^1)``; the right one is 2i/d_model with i = index // 2),
  ``written_divisor`` (the divisor it wrote, e.g. ``10000^1`` or ``100``) and/or
  ``written_argument`` (the angle inside sin/cos as printed, e.g. ``0.0001``);
* a table of vectors — ``d_model`` and ``table``, either ``{0: [...], 1: [...]}`` or a list of
  ``{pos: 1, claimed: [...]}``; every wrong cell is named. ``quote_order`` (``by_position``,
  default, or ``by_dimension`` for a box drawing whose rows run across positions) orders the
  suggested corrections the way the quote prints the numbers;
* the index range — ``index_range_end``: the last i the lesson lists in "i = 0, 1, …, END", as a
  number or an expression in ``d_model`` (``d_model/2``). The pairs (2i, 2i+1) must cover
  dimensions 0 … d_model − 1, so the last i is d_model/2 − 1 (⌈d_model/2⌉ − 1 when odd). With
  ``d_model`` given the end is checked for that width; without it an expression is checked for
  d_model = 2, 4, 8, 64, 512 and 768.

RoPE: ``d_head``, ``pair`` (the pair's number as printed), optional ``pos`` and ``claimed``:
the angle pos·base^(−2i/d_head) (without ``pos``: the frequency θ_i; without ``pair``: the
vector over all d_head/2 pairs). ``numbering`` says what ``pair`` counts from: ``from_0``
(default: i = pair, as θ_i = base^(−2i/d) is written with i = 0 … d/2 − 1), ``from_1``
(RoFormer's θ_i = base^(−2(i−1)/d), i = 1 … d/2, so i = pair − 1) or ``either`` (a lesson that
does not fix it: the claim holds under whichever matches, and the message says which).
``wavelength: true`` makes ``claimed`` the wavelength 2π/θ_i, in positions, instead. With ``x``
(a vector of d_head entries) the claim is x rotated at ``pos``: pairs (2i, 2i+1) for
``pairing: interleaved`` (RoFormer), (i, i + d/2) for ``pairing: half`` (GPT-NeoX / Hugging
Face LLaMA), or ``either``.

ALiBi: ``heads`` and ``claimed``: the slopes of all heads (2^(−8k/n), k = 1..n for n a power of
two); with ``head`` (1-based, as the paper numbers them) one slope; with ``head`` and
``distance`` the bias −slope·distance that head adds to a score ``distance`` tokens back.

Example::

    - id: pe-1-2
      kind: positional
      quote: "PE(1, 2) = sin(1 / 10000^1) = sin(0.0001) ≈ 0.0001"
      d_model: 4
      pos: 1
      index: 2
      written_exponent: 1
      written_argument: 0.0001
      claimed: 0.0001

Values are recomputed exactly from the stated pos, index and d_model; printed numbers are compared
at their printed precision (or the claim's ``tolerance``), exponents exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from checkers.expr import ExprError, evaluate, evaluate_exact, names, parse
from checkers.formulas import UndefinedError, alibi_slopes, rope_angle, sinusoidal_pe
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedVector,
    error,
    from_comparisons,
    severity_of,
)
from checkers.numbers import Comparison, NumberError, Printed, compare, parse_printed

__all__ = ["Input", "TableColumn", "check"]

RANGE_PROBE_WIDTHS = (2, 4, 8, 64, 512, 768)
"""d_model values a symbolic ``index_range_end`` is checked at (even, as real models use)."""
EXACT_RELATIVE = 1e-12
"""Relative tolerance for written exponents/divisors that are not printed decimals."""

_ROPE_FIELDS = ("d_head", "pair", "x", "numbering", "wavelength")
_ALIBI_FIELDS = ("heads", "head", "distance")
_SINUSOIDAL_FIELDS = (
    "index",
    "written_exponent",
    "written_divisor",
    "written_argument",
    "index_range_end",
    "table",
    "added",
)


class TableColumn(KindInput):
    """One printed PE vector of a table."""

    pos: int = Field(ge=0)
    """The position the vector belongs to."""
    claimed: PrintedVector
    """PE(pos) as printed, all d_model entries."""


def _text(value: Any) -> Any:
    """YAML may hand a written step over as a number; keep it as the text the lesson shows."""
    if isinstance(value, bool):
        raise ValueError("expected a number or an expression such as d_model/2, got a boolean")
    if isinstance(value, (int, float)):
        return str(value)
    return value


class Input(KindInput):
    """Fields of a ``positional`` claim."""

    encoding: Literal["sinusoidal", "rope", "alibi"] = "sinusoidal"
    """Which positional scheme the claim is about."""
    base: float = Field(default=10000.0, gt=1.0)
    """Base of the frequencies (10000 in the papers)."""
    d_model: int | None = Field(default=None, ge=1)
    """Width of the sinusoidal encoding."""
    pos: int | None = Field(default=None, ge=0)
    """Position (token index, from 0)."""
    index: int | None = Field(default=None, ge=0)
    """One sinusoidal dimension, 0-based; omitted when ``claimed`` is the whole vector."""
    claimed: PrintedNumber | PrintedVector | None = None
    """The printed value (one dimension, angle, slope) or vector."""
    written_exponent: str | None = Field(default=None, min_length=1, max_length=200)
    """The exponent the lesson wrote on the base, as printed (``1``, ``2/4``, ``0.5``)."""
    written_divisor: str | None = Field(default=None, min_length=1, max_length=200)
    """The divisor the lesson wrote (``10000^1``, ``100``)."""
    written_argument: PrintedNumber | None = None
    """The angle pos/divisor inside sin or cos, as printed (``0.0001``)."""
    index_range_end: str | None = Field(default=None, min_length=1, max_length=200)
    """The last i of "i = 0, 1, …, END": a number or an expression in d_model."""
    table: tuple[TableColumn, ...] | None = None
    """Printed PE vectors by position: ``{0: [...], 1: [...]}`` or ``[{pos, claimed}, ...]``."""
    added: PrintedVector | None = None
    """A vector PE(pos) is added to (a token's embedding): ``claimed`` is then x + PE(pos)."""
    layout: Literal["interleaved", "halves", "either"] = "interleaved"
    """Where the sines and cosines stand: alternating (the paper), in two halves, or either."""
    quote_order: Literal["by_position", "by_dimension"] = "by_position"
    """Order the table's numbers appear in the quote, for suggested corrections."""
    d_head: int | None = Field(default=None, ge=1)
    """RoPE: dimensions per head."""
    pair: int | None = Field(default=None, ge=0)
    """RoPE: the pair's number as printed (0-based unless ``numbering`` says otherwise)."""
    numbering: Literal["from_0", "from_1", "either"] = "from_0"
    """RoPE: what ``pair`` counts from (θ_i with i = 0 … d/2 − 1, or RoFormer's i = 1 … d/2)."""
    wavelength: bool = False
    """RoPE: ``claimed`` is the wavelength 2π/θ_i (positions per turn), not θ_i or pos·θ_i."""
    x: PrintedVector | None = None
    """RoPE: the vector to rotate (d_head entries); ``claimed`` is then the rotated vector."""
    pairing: Literal["interleaved", "half", "either"] = "interleaved"
    """RoPE: which dimensions form a pair: (2i, 2i+1), (i, i + d_head/2), or either."""
    heads: int | None = Field(default=None, ge=1, le=4096)
    """ALiBi: number of heads."""
    head: int | None = Field(default=None, ge=1)
    """ALiBi: one head, 1-based."""
    distance: int | None = Field(default=None, ge=0)
    """ALiBi: how many tokens back the key is; ``claimed`` is then the bias −slope·distance."""

    @field_validator("written_exponent", "written_divisor", "index_range_end", mode="before")
    @classmethod
    def _written_as_text(cls, value: Any) -> Any:
        return _text(value)

    @field_validator(
        "table", mode="before", json_schema_input_type=dict[int, PrintedVector] | list[TableColumn]
    )
    @classmethod
    def _table_as_columns(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return [{"pos": pos, "claimed": vector} for pos, vector in value.items()]
        return value

    @model_validator(mode="after")
    def _fields_fit_encoding(self) -> Input:
        given = {name for name in self.model_fields_set if getattr(self, name) is not None}
        if self.encoding == "sinusoidal":
            self._validate_sinusoidal(given)
        elif self.encoding == "rope":
            self._validate_rope(given)
        else:
            self._validate_alibi(given)
        return self

    def _forbid(self, given: set[str], fields: Sequence[str], why: str) -> None:
        extra = [name for name in fields if name in given]
        if extra:
            raise ValueError(f"{', '.join(extra)} do(es) not apply: {why}")

    def _validate_sinusoidal(self, given: set[str]) -> None:
        self._forbid(given, _ROPE_FIELDS + _ALIBI_FIELDS, "encoding is sinusoidal")
        modes = [m for m in ("table", "index_range_end") if m in given]
        if len(modes) > 1:
            raise ValueError("give either table or index_range_end, not both")
        if modes == ["index_range_end"]:
            self._forbid(
                given,
                ("pos", "index", "claimed", "table", "written_exponent", "written_divisor"),
                "an index_range_end claim checks only the last i of the range",
            )
            self._forbid(given, ("written_argument", "added"), "index_range_end has no argument")
            return
        if self.d_model is None:
            raise ValueError("d_model is required for sinusoidal values")
        if modes == ["table"]:
            self._forbid(
                given,
                ("pos", "index", "claimed", "written_exponent", "written_divisor"),
                "a table claim lists its own positions and vectors",
            )
            self._forbid(given, ("written_argument",), "a table has no single argument")
            self._forbid(given, ("added",), "added belongs to one vector PE(pos)")
            assert self.table is not None
            if not self.table:
                raise ValueError("table needs at least one position")
            seen: set[int] = set()
            for column in self.table:
                if column.pos in seen:
                    raise ValueError(f"table lists pos={column.pos} twice")
                seen.add(column.pos)
                if len(column.claimed) != self.d_model:
                    raise ValueError(
                        f"table pos={column.pos} has {len(column.claimed)} values, "
                        f"but d_model = {self.d_model}"
                    )
            return
        if self.pos is None or self.claimed is None:
            raise ValueError("a sinusoidal value claim needs pos and claimed (or give table)")
        if self.index is None:
            if not isinstance(self.claimed, tuple):
                raise ValueError("without index, claimed is the whole vector PE(pos)")
            if len(self.claimed) != self.d_model:
                raise ValueError(
                    f"claimed has {len(self.claimed)} values, but PE(pos) has d_model = "
                    f"{self.d_model}; give index to check one dimension"
                )
            self._forbid(
                given,
                ("written_exponent", "written_divisor", "written_argument"),
                "a written formula step belongs to one dimension: give index",
            )
            if self.added is not None and len(self.added) != self.d_model:
                raise ValueError(
                    f"added has {len(self.added)} values, but d_model = {self.d_model}"
                )
        elif isinstance(self.claimed, tuple):
            raise ValueError("with index, claimed is one number PE(pos, index)")
        else:
            self._forbid(given, ("added",), "added is a whole vector: omit index")

    def _validate_rope(self, given: set[str]) -> None:
        self._forbid(given, _SINUSOIDAL_FIELDS + _ALIBI_FIELDS, "encoding is rope")
        if "d_model" in given:
            raise ValueError("RoPE rotates each head separately: give d_head, not d_model")
        if self.d_head is None or self.claimed is None:
            raise ValueError("a RoPE claim needs d_head and claimed")
        if self.wavelength and (self.pos is not None or self.x is not None):
            raise ValueError("a wavelength 2π/θ_i belongs to a pair, not to a position: omit pos")
        if self.x is not None:
            if self.pos is None or self.pair is not None:
                raise ValueError("rotating x needs pos and no pair (all pairs are rotated)")
            if len(self.x) != self.d_head:
                raise ValueError(f"x has {len(self.x)} values, but d_head = {self.d_head}")
            if not isinstance(self.claimed, tuple) or len(self.claimed) != self.d_head:
                raise ValueError(f"claimed must be the rotated vector of {self.d_head} values")
        elif (self.pair is None) != isinstance(self.claimed, tuple):
            raise ValueError("claimed is one angle with pair, a vector over all pairs without")

    def _validate_alibi(self, given: set[str]) -> None:
        self._forbid(
            given,
            (*_SINUSOIDAL_FIELDS, *_ROPE_FIELDS, "d_model", "pos"),
            "encoding is alibi (give heads, head, distance)",
        )
        if self.heads is None or self.claimed is None:
            raise ValueError("an ALiBi claim needs heads and claimed")
        if self.distance is not None and self.head is None:
            raise ValueError("distance needs head: the bias is that head's slope × distance")
        if (self.head is None) != isinstance(self.claimed, tuple):
            raise ValueError("claimed is one slope with head, the vector of all slopes without")
        if isinstance(self.claimed, tuple) and len(self.claimed) != self.heads:
            raise ValueError(f"claimed has {len(self.claimed)} slopes for {self.heads} heads")


def check(fields: Input, context: Context) -> Outcome:
    """Recompute the encoding from the stated positions and widths and compare."""
    try:
        if fields.encoding == "rope":
            return _check_rope(fields, context)
        if fields.encoding == "alibi":
            return _check_alibi(fields, context)
        if fields.index_range_end is not None:
            return _check_range(fields.index_range_end, fields.d_model, context)
        if fields.table is not None:
            return _check_table(fields, context)
        return _check_sinusoidal(fields, context)
    except UndefinedError as undefined:
        return error(str(undefined), _claimed_text(fields.claimed))
    except ExprError as bad:
        return error(
            f"cannot read the written expression: {bad.message}", _claimed_text(fields.claimed)
        )


# ---------------------------------------------------------------------------- sinusoidal


def _pe_formula(
    pos: int, index: int, d_model: int, base: float, layout: str = "interleaved"
) -> str:
    """``sin(1 / 10000^0.5) = sin(0.01)``: how PE(pos, index) is computed."""
    if layout == "halves":
        pair, sine = index % (d_model // 2), index < d_model // 2
    else:
        pair, sine = index // 2, index % 2 == 0
    exponent = Fraction(2 * pair, d_model)
    angle = pos / base ** float(exponent)
    function = "sin" if sine else "cos"
    return (
        f"{function}({pos} / {_number(base)}^{_fraction_text(exponent)}) = "
        f"{function}({_number(angle)})"
    )


def _check_sinusoidal(fields: Input, context: Context) -> Outcome:
    assert fields.d_model is not None and fields.pos is not None and fields.claimed is not None
    d_model, pos, base = fields.d_model, fields.pos, fields.base
    if fields.index is None:
        assert isinstance(fields.claimed, tuple)
        return _check_vector(fields, fields.claimed, context)
    assert not isinstance(fields.claimed, tuple)
    index = fields.index
    if index >= d_model:
        return error(
            f"PE({pos}, {index}) is undefined: dimensions run 0 … {d_model - 1} for "
            f"d_model = {d_model}",
            fields.claimed.text,
        )
    layouts = _layouts(fields.layout, d_model)
    for layout in layouts:  # the last one tried, or the first that holds
        value = sinusoidal_pe(pos, index, d_model, base, layout)
        comparison = compare(fields.claimed, value, context.tolerance)
        if comparison.ok:
            break
    if not comparison.ok and len(layouts) > 1:
        layout = layouts[0]
        value = sinusoidal_pe(pos, index, d_model, base, layout)
        comparison = compare(fields.claimed, value, context.tolerance)
    formula = _pe_formula(pos, index, d_model, base, layout)
    outcome = from_comparisons(
        [comparison],
        what=f"PE({pos}, {index}) with d_model = {d_model}",
        details=[f"PE({pos}, {index}) = {formula} = {_number(value)}"],
    )
    steps = _written_steps(fields, context)
    if not steps:
        return outcome
    # A wrong written step fails the claim even when the value happens to hold (pos = 0).
    step_messages = "; ".join(message for message, _ in steps)
    function_value = f"PE({pos}, {index}) = {formula} ≈ {comparison.corrected}"
    if outcome.ok:
        tail = f"; {function_value} holds, but the written step is wrong"
    else:
        tail = f": {function_value}, not {fields.claimed.text}"
    corrections = tuple(pair for _, pairs in steps for pair in pairs) + outcome.corrections
    return replace(
        outcome,
        verdict="fail",
        message=f"{step_messages}{tail}",
        corrections=corrections,
        tolerance=outcome.tolerance + "; the exponent and divisor are exact",
    )


LAYOUT_NAMES = {
    "interleaved": "sin/cos interleaved, as in the paper",
    "halves": "sines then cosines in two halves",
}
"""How a message names each layout of the sines and cosines."""
_HINT_DIVISORS = (1.0, 10.0, 100.0, 1000.0, 10000.0)
"""Divisors a wrong entry is tried with, to say which one the lesson used (pos/10 for pos/100)."""


def _layouts(layout: str, d_model: int) -> tuple[str, ...]:
    if layout != "either":
        return (layout,)
    return ("interleaved", "halves") if d_model % 2 == 0 else ("interleaved",)


def _check_vector(fields: Input, claimed: tuple[Printed, ...], context: Context) -> Outcome:
    """PE(pos) (or x + PE(pos)) under each layout the claim allows; the first that holds wins."""
    assert fields.d_model is not None and fields.pos is not None
    d_model, pos, base = fields.d_model, fields.pos, fields.base
    added = [p.value for p in fields.added] if fields.added is not None else [0.0] * d_model
    tried: list[tuple[str, list[Comparison]]] = []
    for layout in _layouts(fields.layout, d_model):
        values = [sinusoidal_pe(pos, j, d_model, base, layout) + added[j] for j in range(d_model)]
        comparisons = [
            compare(p, v, context.tolerance) for p, v in zip(claimed, values, strict=True)
        ]
        tried.append((layout, comparisons))
        if all(c.ok for c in comparisons):
            break
    layout, comparisons = tried[-1] if all(c.ok for c in tried[-1][1]) else tried[0]
    plus = "x + " if fields.added is not None else ""
    holds = all(c.ok for c in comparisons)
    matched = ", the layout that matched" if fields.layout == "either" and holds else ""
    what = f"{plus}PE({pos}) with d_model = {d_model} ({LAYOUT_NAMES[layout]}{matched})"
    details = [
        f"PE({pos}, {j}) = {_pe_formula(pos, j, d_model, base, layout)}" for j in range(d_model)
    ]
    if fields.added is not None:
        details.append("x = [" + ", ".join(p.text for p in fields.added) + "]")
    outcome = _vector_outcome(comparisons, what, "dimension", 0, details)
    if outcome.ok:
        return outcome
    notes = []
    if len(tried) > 1:
        notes.append(
            f"nor does the other layout ({LAYOUT_NAMES[tried[1][0]]}) give the printed row"
        )
    hints = [
        hint
        for j, c in enumerate(comparisons)
        if not c.ok
        for hint in [_divisor_hint(claimed[j], pos, j, d_model, base, layout, added[j], context)]
        if hint
    ]
    notes += hints
    if not notes:
        return outcome
    return replace(outcome, message=f"{outcome.message}; " + "; ".join(notes))


def _divisor_hint(
    printed: Printed,
    pos: int,
    index: int,
    d_model: int,
    base: float,
    layout: str,
    added: float,
    context: Context,
) -> str:
    """``dimension 2 matches sin(3/10)``: the divisor a wrong entry was computed with, if a
    power of ten other than the right one gives it."""
    if layout == "halves":
        pair, function = index % (d_model // 2), ("sin" if index < d_model // 2 else "cos")
    else:
        pair, function = index // 2, ("sin" if index % 2 == 0 else "cos")
    right = base ** (2 * pair / d_model)
    apply = math.sin if function == "sin" else math.cos
    for divisor in _HINT_DIVISORS:
        if math.isclose(divisor, right, rel_tol=1e-9):
            continue
        near = compare(printed, apply(pos / divisor) + added, context.tolerance)
        if near.ok or near.slip:  # a truncation of the wrong value is still its trace
            return (
                f"dimension {index} matches {function}({pos}/{_number(divisor)}), "
                f"the divisor should be {_number(base)}^(2·{pair}/{d_model}) = {_number(right)}"
            )
    return ""


def _written_steps(
    fields: Input, context: Context
) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Problems with the written exponent, divisor and argument: (message, corrections)."""
    assert fields.d_model is not None and fields.index is not None and fields.pos is not None
    d_model, index, pos, base = fields.d_model, fields.index, fields.pos, fields.base
    i = index // 2
    exponent = Fraction(2 * i, d_model)
    divisor = base ** float(exponent)
    angle = pos / divisor
    base_text = _number(base)
    role = f"2i with i = {i}" if index % 2 == 0 else f"2i+1 with i = {i}"
    right = (
        f"is 2·{i}/{d_model} = {_fraction_text(exponent)} "
        f"({base_text}^{_fraction_text(exponent)} = {_number(divisor)})"
    )
    variables = {"d_model": Fraction(d_model), "d": Fraction(d_model), "i": Fraction(i)}
    steps: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    if fields.written_exponent is not None:
        written = fields.written_exponent.strip()
        if not _agrees(written, exponent, variables, context):
            steps.append(
                (
                    f"the exponent 2i/d_model for dimension {index} ({role}) with "
                    f"d_model = {d_model} {right}, not {written}",
                    ((f"{base_text}^{written}", f"{base_text}^{_fraction_text(exponent)}"),),
                )
            )
    if fields.written_divisor is not None:
        written = fields.written_divisor.strip()
        if not _agrees_float(written, divisor, variables, context):
            steps.append(
                (
                    f"the divisor {base_text}^(2i/d_model) for dimension {index} ({role}) with "
                    f"d_model = {d_model} is {_number(divisor)}, not {written}",
                    ((written, _number(divisor)),),
                )
            )
    if fields.written_argument is not None:
        comparison = compare(fields.written_argument, angle, context.tolerance)
        if not comparison.ok:
            steps.append(
                (
                    f"the angle pos / {base_text}^(2i/d_model) = {pos} / {_number(divisor)} is "
                    f"{_number(angle)}, not {fields.written_argument.text}",
                    ((fields.written_argument.text, comparison.corrected),),
                )
            )
    return steps


def _agrees(
    written: str, exact: Fraction, variables: dict[str, Fraction], context: Context
) -> bool:
    """Whether a written exponent equals the exact one (a printed decimal within its rounding)."""
    printed = _printed_or_none(written)
    if printed is not None and printed.decimals > 0:
        return compare(printed, float(exact), context.tolerance).ok
    node = parse(written)
    value = evaluate_exact(node, variables)
    if value is not None:
        return value == exact
    return _close(evaluate(node, {k: float(v) for k, v in variables.items()}), float(exact))


def _agrees_float(
    written: str, expected: float, variables: dict[str, Fraction], context: Context
) -> bool:
    printed = _printed_or_none(written)
    if printed is not None:
        return compare(printed, expected, context.tolerance).ok
    value = evaluate(parse(written), {k: float(v) for k, v in variables.items()})
    return _close(value, expected)


def _close(value: float | tuple[float, ...], expected: float) -> bool:
    if isinstance(value, tuple):
        return False
    return abs(value - expected) <= EXACT_RELATIVE * max(abs(expected), 1e-300)


def _printed_or_none(text: str) -> Printed | None:
    try:
        printed = parse_printed(text)
    except NumberError:
        return None
    return printed if printed.unit is None else None


def _check_table(fields: Input, context: Context) -> Outcome:
    assert fields.table is not None and fields.d_model is not None
    d_model, base = fields.d_model, fields.base
    columns = sorted(fields.table, key=lambda column: column.pos)
    cells: dict[tuple[int, int], Comparison] = {}
    for column in columns:
        for j, printed in enumerate(column.claimed):
            cells[(column.pos, j)] = compare(
                printed,
                sinusoidal_pe(column.pos, j, d_model, base, _layouts(fields.layout, d_model)[0]),
                context.tolerance,
            )
    position_major = [cells[(c.pos, j)] for c in columns for j in range(d_model)]
    quote_order = (
        position_major
        if fields.quote_order == "by_position"
        else [cells[(c.pos, j)] for j in range(d_model) for c in columns]
    )
    wrong = [(key, c) for key, c in cells.items() if not c.ok]
    positions = ", ".join(str(c.pos) for c in columns)
    claimed = "; ".join(f"pos={c.pos}: [{', '.join(p.text for p in c.claimed)}]" for c in columns)
    expected = "; ".join(
        f"pos={c.pos}: [{', '.join(cells[(c.pos, j)].corrected for j in range(d_model))}]"
        for c in columns
    )
    tolerance = "; ".join(sorted({c.tolerance.reason for c in position_major}))
    value = tuple(c.recomputed for c in position_major)
    details = tuple(
        f"PE({c.pos}) = [{', '.join(_number(cells[(c.pos, j)].recomputed) for j in range(d_model))}"
        "]"
        for c in columns
    )
    what = f"PE table for pos = {positions} with d_model = {d_model}"
    if not wrong:
        message = f"{what}: all {len(cells)} values hold ({tolerance})"
    else:
        named = "; ".join(
            f"pos={pos} dimension {j}: {c.printed.text} should be {c.corrected} "
            f"(= {_pe_formula(pos, j, d_model, base).split(' = ')[-1]})"
            for (pos, j), c in wrong
        )
        message = f"{what}: {len(wrong)} of {len(cells)} values are wrong — {named}"
    return Outcome(
        verdict="fail" if wrong else "pass",
        claimed=claimed,
        expected=expected,
        tolerance=tolerance,
        message=message,
        corrections=tuple((c.printed.text, c.corrected) for c in quote_order if not c.ok),
        details=details,
        value=value,
        severity=severity_of(position_major),
    )


def _check_range(end_text: str, d_model: int | None, context: Context) -> Outcome:
    """The last i of the pair index range must be ⌈d_model/2⌉ − 1."""
    text = end_text.strip()
    node = parse(text)
    symbolic = bool({"d_model", "d"} & names(node))
    free = names(node) - {"d_model", "d"} - set(context.variables)
    if free:
        return error(f"index_range_end uses unknown name(s) {', '.join(sorted(free))}", text)
    if d_model is None and not symbolic:
        return error(
            f"index_range_end {text} is a number: give d_model to say which width it is for",
            text,
        )
    widths = (d_model,) if d_model is not None else RANGE_PROBE_WIDTHS
    ends: dict[int, float] = {}
    for width in widths:
        value = evaluate(node, {**context.variables, "d_model": float(width), "d": float(width)})
        if isinstance(value, tuple) or not math.isfinite(value):
            return error(f"index_range_end {text} is not a single number", text)
        ends[width] = value
    # The pair (2i, 2i+1) must start inside 0 … d_model − 1, so the last i is ⌈d_model/2⌉ − 1.
    wrong = [w for w in widths if abs(ends[w] - (w - 1) // 2) > 1e-9]
    if not wrong:
        checked = ", ".join(str(w) for w in widths)
        last_text = "d_model/2 − 1" if d_model is None else str((widths[0] - 1) // 2)
        return Outcome(
            verdict="pass",
            claimed=text,
            expected=last_text,
            tolerance="exact (an index)",
            message=f"the last pair index {text} holds for d_model = {checked}",
            value=float((widths[0] - 1) // 2),
        )
    width = 4 if 4 in wrong else wrong[0]
    last, value = (width - 1) // 2, ends[width]
    listed = ", ".join(str(k) for k in range(min(last + 1, 3))) + (", …" if last > 2 else "")
    if value > last:
        why = (
            f"i = {_number(value)} would need dimension {_number(2 * value)}, which does not "
            f"exist (dimensions run 0 … {width - 1})"
        )
    else:
        why = f"dimensions {_number(2 * value + 2)} … {width - 1} would get no encoding"
    if symbolic and width % 2 == 0:
        expected, fix = f"d_model/2 − 1 (= {last} for d_model = {width})", "d_model/2 − 1"
        message = (
            f"i runs 0 … d_model/2 − 1, not 0 … {text}: for d_model = {width} the last pair is "
            f"i = {last} (i = {listed}), and {text} = {_number(value)}: {why}"
        )
    else:
        expected, fix = str(last), str(last)
        message = (
            f"the last pair index for d_model = {width} is i = {last} (i = {listed}), "
            f"not {text}: {why}"
        )
    return Outcome(
        verdict="fail",
        claimed=text,
        expected=expected,
        tolerance="exact (an index)",
        message=message,
        corrections=((text, fix),),
        details=(f"the pairs (2i, 2i+1) for i = 0 … {last} cover dimensions 0 … {width - 1}",),
        value=float(last),
    )


# ---------------------------------------------------------------------------- RoPE and ALiBi


NUMBERING_NAMES = {
    "from_0": "i counted from 0 (θ_i = base^(−2i/d), i = 0 … d/2 − 1)",
    "from_1": "i counted from 1 (RoFormer: θ_i = base^(−2(i−1)/d), i = 1 … d/2)",
}
"""How a message names each way of numbering RoPE's pairs."""
PAIRING_NAMES = {
    "interleaved": "pairs (2i, 2i+1), as in RoFormer",
    "half": "pairs (i, i + d/2), as in GPT-NeoX and Hugging Face LLaMA",
}
"""How a message names each layout of RoPE's pairs."""


def _check_rope(fields: Input, context: Context) -> Outcome:
    assert fields.d_head is not None and fields.claimed is not None
    d_head, base = fields.d_head, fields.base
    if d_head % 2:
        return error(
            f"RoPE needs an even d_head (dimensions are rotated in pairs), got {d_head}",
            _claimed_text(fields.claimed),
        )
    base_text = _number(base)
    if fields.x is not None:
        return _check_rotation(fields, context)
    scale = float(fields.pos) if fields.pos is not None else 1.0
    if fields.wavelength:
        quantity, formula = "wavelength 2π/θ_i", f"2π·{base_text}^(2i/d_head)"
    elif fields.pos is not None:
        quantity, formula = "angle pos·θ_i", f"pos·{base_text}^(−2i/d_head)"
    else:
        quantity, formula = "frequency θ_i", f"{base_text}^(−2i/d_head)"
    where = f"pos = {fields.pos}, " if fields.pos is not None else ""

    def value_of(i: int) -> float:
        theta = rope_angle(1.0, i, d_head, base)
        return 2 * math.pi / theta if fields.wavelength else scale * theta

    if fields.pair is None:
        assert isinstance(fields.claimed, tuple)
        if len(fields.claimed) != d_head // 2:
            return error(
                f"d_head = {d_head} has {d_head // 2} pairs, but {len(fields.claimed)} "
                "values are claimed",
                _claimed_text(fields.claimed),
            )
        values = [value_of(i) for i in range(d_head // 2)]
        comparisons = [
            compare(p, v, context.tolerance) for p, v in zip(fields.claimed, values, strict=True)
        ]
        return _vector_outcome(
            comparisons,
            f"RoPE {quantity} = {formula} for {where}d_head = {d_head}, i = 0 … {d_head // 2 - 1}",
            "pair i =",
            0,
            [],
        )
    assert not isinstance(fields.claimed, tuple)
    numberings = ("from_0", "from_1") if fields.numbering == "either" else (fields.numbering,)
    offsets = {"from_0": 0, "from_1": 1}
    readings = [
        (n, fields.pair - offsets[n])
        for n in numberings
        if 0 <= fields.pair - offsets[n] < d_head // 2
    ]
    if not readings:
        last = d_head // 2 - (0 if fields.numbering == "from_1" else 1)
        first = 1 if fields.numbering == "from_1" else 0
        return error(
            f"pair {fields.pair} does not exist: d_head = {d_head} has pairs {first} … {last}",
            fields.claimed.text,
        )
    tried = [(n, i, compare(fields.claimed, value_of(i), context.tolerance)) for n, i in readings]
    numbering, i, comparison = next((t for t in tried if t[2].ok), tried[0])
    exponent = Fraction(2 * i if fields.wavelength else -2 * i, d_head)
    value = value_of(i)
    prefix = (
        "2π·" if fields.wavelength else (f"{_number(scale)}·" if fields.pos is not None else "")
    )
    matched = ", the reading that matched" if len(tried) > 1 and comparison.ok else ""
    if len(tried) > 1 and not comparison.ok:
        matched = "; counted from 1 it would be " + _number(value_of(tried[1][1]))
    outcome = from_comparisons(
        [comparison],
        what=(
            f"RoPE {quantity} = {formula} of pair {fields.pair} for {where}d_head = {d_head}, "
            f"base {base_text} ({NUMBERING_NAMES[numbering]}{matched})"
        ),
        details=[f"{formula} = {prefix}{base_text}^{_fraction_text(exponent)} = {_number(value)}"],
    )
    if comparison.tolerance.reason in outcome.message:
        return outcome
    return replace(outcome, message=f"{outcome.message} ({comparison.tolerance.reason})")


def _check_rotation(fields: Input, context: Context) -> Outcome:
    """x rotated at pos, under each pair layout the claim allows; the first that holds wins."""
    assert fields.x is not None and fields.pos is not None and fields.d_head is not None
    assert isinstance(fields.claimed, tuple)
    pairings = ("interleaved", "half") if fields.pairing == "either" else (fields.pairing,)
    tried = []
    for pairing in pairings:
        rotated = _rotate(fields.x, fields.pos, fields.d_head, fields.base, pairing)
        comparisons = [
            compare(p, v, context.tolerance) for p, v in zip(fields.claimed, rotated, strict=True)
        ]
        tried.append((pairing, comparisons))
    pairing, comparisons = next((t for t in tried if all(c.ok for c in t[1])), tried[0])
    matched = (
        ", the layout that matched" if len(tried) > 1 and all(c.ok for c in comparisons) else ""
    )
    x_text = ", ".join(p.text for p in fields.x)
    return _vector_outcome(
        comparisons,
        f"RoPE([{x_text}]) at pos = {fields.pos} with d_head = {fields.d_head}, base "
        f"{_number(fields.base)} ({PAIRING_NAMES[pairing]}{matched})",
        "element",
        1,
        [
            f"pair i rotates by pos·{_number(fields.base)}^(−2i/{fields.d_head}): "
            "(x cos − y sin, x sin + y cos)"
        ],
    )


def _rotate(x: Sequence[Printed], pos: int, d_head: int, base: float, pairing: str) -> list[float]:
    values = [p.value for p in x]
    rotated = list(values)
    half = d_head // 2
    for i in range(half):
        first, second = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + half)
        angle = rope_angle(pos, i, d_head, base)
        cos, sin = math.cos(angle), math.sin(angle)
        rotated[first] = values[first] * cos - values[second] * sin
        rotated[second] = values[first] * sin + values[second] * cos
    return rotated


def _check_alibi(fields: Input, context: Context) -> Outcome:
    assert fields.heads is not None and fields.claimed is not None
    heads = fields.heads
    slopes = alibi_slopes(heads)
    rule = (
        f"2^(−8k/{heads})"
        if math.log2(heads).is_integer()
        else "the closest power of two's slopes, then every other slope of the next"
    )
    if fields.head is None:
        assert isinstance(fields.claimed, tuple)
        comparisons = [
            compare(p, v, context.tolerance) for p, v in zip(fields.claimed, slopes, strict=True)
        ]
        return _vector_outcome(
            comparisons, f"ALiBi slopes for {heads} heads ({rule})", "head", 1, []
        )
    assert not isinstance(fields.claimed, tuple)
    if fields.head > heads:
        return error(
            f"head {fields.head} does not exist: heads are numbered 1 … {heads}",
            fields.claimed.text,
        )
    slope = slopes[fields.head - 1]
    if fields.distance is None:
        return from_comparisons(
            [compare(fields.claimed, slope, context.tolerance)],
            what=f"ALiBi slope of head {fields.head} of {heads} ({rule})",
        )
    bias = -slope * fields.distance
    return from_comparisons(
        [compare(fields.claimed, bias, context.tolerance)],
        what=(
            f"ALiBi bias −slope·distance of head {fields.head} of {heads} at distance "
            f"{fields.distance} (slope {_number(slope)})"
        ),
    )


# ---------------------------------------------------------------------------- helpers


def _vector_outcome(
    comparisons: Sequence[Comparison],
    what: str,
    label: str,
    first: int,
    details: Sequence[str],
) -> Outcome:
    """from_comparisons, with wrong entries named by dimension, pair or head, not "element"."""
    outcome = from_comparisons(comparisons, what=what, vector=True, details=details)
    if outcome.ok:
        return outcome
    claimed = "[" + ", ".join(c.printed.text for c in comparisons) + "]"
    corrected = "[" + ", ".join(c.corrected for c in comparisons) + "]"
    wrong = ", ".join(
        f"{label} {k + first}: {c.printed.text} should be {c.corrected}"
        for k, c in enumerate(comparisons)
        if not c.ok
    )
    return replace(outcome, message=f"{what} is {corrected}, not {claimed} ({wrong})")


def _claimed_text(claimed: Printed | tuple[Printed, ...] | None) -> str:
    if claimed is None:
        return ""
    if isinstance(claimed, tuple):
        return "[" + ", ".join(p.text for p in claimed) + "]"
    return claimed.text


def _fraction_text(value: Fraction) -> str:
    """0.5 for 1/2; a fraction with its decimal when the decimal does not terminate."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:
        return format(float(value), "g")
    return f"({value.numerator}/{value.denominator} ≈ {float(value):.4g})"


def _number(value: float) -> str:
    """A compact rendering: integers without a decimal point, else 6 significant digits."""
    if math.isfinite(value) and value == round(value) and abs(value) < 1e15:
        return str(round(value))
    return f"{value:.6g}"
