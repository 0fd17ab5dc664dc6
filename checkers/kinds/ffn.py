"""Kind ``ffn``: the shapes and parameter count of a Transformer feed-forward block.

FFN(x) = act(x·W₁ + b₁)·W₂ + b₂ ("Attention Is All You Need" §3.3): W₁ is d_model × d_ff,
W₂ is d_ff × d_model, b₁ has d_ff entries and b₂ d_model. Gated variants (SwiGLU in LLaMA,
GeGLU) have a third matrix W₃ (the gate, d_model × d_ff) and, in LLaMA, no biases.

YAML fields:

``d_model``
    The model width.
``d_ff``
    The hidden width as printed. Checked against ``multiplier``/``multiple_of`` when one is
    given; otherwise taken as stated and used for the shapes.
``multiplier``
    The expansion factor the lesson states: ``4`` (so d_ff = 4 × d_model), ``8/3``. Without
    ``d_ff`` it derives d_ff.
``variant``
    ``standard`` (default, two matrices), ``swiglu`` or ``geglu`` (gated: three matrices).
``multiple_of``
    LLaMA's rounding: d_ff = int(multiplier·d_model), default multiplier 8/3, rounded *up* to
    a multiple of this (LLaMA uses 256: 4096 → 11008). ``ffn_dim_multiplier`` optionally scales
    that int first (LLaMA-2 70B: 1.3).
``bias``
    Whether the block has biases; default true for ``standard``, false for gated variants.
``layout``
    ``x_w`` (default: x·W, so W₁ is d_model × d_ff as in the paper and the lesson's formula) or
    ``linear_weight`` (PyTorch ``nn.Linear.weight``, out × in: W₁ is d_ff × d_model).
``w1_shape``, ``w2_shape``, ``w3_shape``
    Printed matrix shapes: ``4×16``, ``768 x 3072``, ``[4, 16]``.
``b1_size``, ``b2_size``
    Printed bias lengths.
``parameters``
    Printed parameter count (``4,722,432``, ``4.7M``), of ``layers`` blocks (default 1):
    2·d_model·d_ff (+ d_ff + d_model with biases), or 3·d_model·d_ff for gated blocks
    (+ 2·d_ff + d_model with biases).

Example::

    - id: bert-base-dff
      kind: ffn
      quote: "d_ff = 3072 = 768 × 4"
      d_model: 768
      d_ff: 3072
      multiplier: 4

Shapes and sizes are whole numbers and compared exactly; a wrong shape names the wrong
dimension. Parameter counts are compared at their printed precision.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, WithJsonSchema, field_validator, model_validator

from checkers.expr import ExprError, evaluate, evaluate_exact, parse
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, error
from checkers.numbers import Printed, compare

__all__ = ["Input", "Shape", "check"]


@dataclass(frozen=True)
class Shape:
    """A printed matrix shape such as ``4×16``."""

    rows: int
    """First dimension."""
    cols: int
    """Second dimension."""
    text: str
    """As printed."""
    separator: str
    """What stood between the numbers (`` × ``), kept in suggested fixes."""

    def with_dims(self, rows: int, cols: int) -> str:
        """This shape's printed form with other dimensions."""
        if "," in self.text and self.separator.strip():
            return f"{rows:,}{self.separator}{cols:,}"
        return f"{rows}{self.separator}{cols}"


_TIMES_SHAPE = re.compile(r"^\s*([\d,]+)(\s*[×xX*]\s*)([\d,]+)\s*$")
_BRACKET_SHAPE = re.compile(r"^\s*[\[(]\s*(\d+)(\s*,\s*)(\d+)\s*[\])]\s*$")


def _shape(value: Any) -> Shape:
    if isinstance(value, Shape):
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2:
        rows, cols = (_whole_number(v) for v in value)
        return Shape(rows, cols, f"{rows}×{cols}", "×")
    if isinstance(value, str):
        match = _TIMES_SHAPE.match(value) or _BRACKET_SHAPE.match(value)
        if match:
            rows, cols = _whole_number(match[1]), _whole_number(match[3])
            return Shape(rows, cols, value.strip(), match[2])
    raise ValueError(f"expected a matrix shape such as 4×16 or [4, 16], got {value!r}")


def _whole_number(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("expected a whole number, got a boolean")
    if isinstance(value, int):
        return value
    text = str(value).strip().replace(",", "")
    if not text.isdigit():
        raise ValueError(f"expected a whole number, got {value!r}")
    return int(text)


PrintedShape = Annotated[
    Shape,
    PlainValidator(_shape),
    WithJsonSchema(
        {
            "title": "matrix shape",
            "anyOf": [
                {"type": "string"},
                {
                    "type": "array",
                    "items": {"type": ["integer", "string"]},
                    "minItems": 2,
                    "maxItems": 2,
                },
            ],
        }
    ),
]
"""A claim field holding a printed matrix shape."""


class Input(KindInput):
    """Fields of an ``ffn`` claim."""

    d_model: int = Field(ge=1)
    """Model width."""
    d_ff: PrintedNumber | None = None
    """Hidden width as printed."""
    multiplier: str | None = Field(default=None, min_length=1, max_length=100)
    """Stated expansion factor (``4``, ``8/3``)."""
    variant: Literal["standard", "swiglu", "geglu"] = "standard"
    """Plain two-matrix FFN or a gated three-matrix one."""
    multiple_of: int | None = Field(default=None, ge=1)
    """LLaMA's rounding of d_ff up to a multiple of this."""
    ffn_dim_multiplier: float | None = Field(default=None, gt=0)
    """LLaMA-2's extra scale of the rounded-down width before rounding up."""
    bias: bool | None = None
    """Whether the block has biases (default: standard yes, gated no)."""
    layout: Literal["x_w", "linear_weight"] = "x_w"
    """Matrix orientation: x·W (d_in × d_out) or nn.Linear weight (d_out × d_in)."""
    w1_shape: PrintedShape | None = None
    """Printed shape of W₁."""
    w2_shape: PrintedShape | None = None
    """Printed shape of W₂."""
    w3_shape: PrintedShape | None = None
    """Printed shape of the gate W₃ (gated variants)."""
    b1_size: int | None = Field(default=None, ge=0)
    """Printed length of b₁."""
    b2_size: int | None = Field(default=None, ge=0)
    """Printed length of b₂."""
    parameters: PrintedNumber | None = None
    """Printed parameter count of ``layers`` FFN blocks."""
    layers: int = Field(default=1, ge=1)
    """How many blocks ``parameters`` counts."""

    @field_validator("d_model", mode="before")
    @classmethod
    def _d_model_whole(cls, value: Any) -> int:
        return _whole_number(value)

    @field_validator("multiplier", mode="before")
    @classmethod
    def _multiplier_text(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("expected a factor such as 4 or 8/3")
        return str(value) if isinstance(value, (int, float)) else value

    @field_validator("d_ff")
    @classmethod
    def _d_ff_whole(cls, value: Printed | None) -> Printed | None:
        if value is not None and (value.decimals or value.unit is not None or value.value < 1):
            raise ValueError(f"d_ff is a whole number of units, got {value.text}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Input:
        gated = self.variant != "standard"
        if self.w3_shape is not None and not gated:
            raise ValueError("w3_shape is the gate of a gated FFN: set variant: swiglu or geglu")
        if not self.has_bias and (self.b1_size is not None or self.b2_size is not None):
            raise ValueError("this block has no biases (bias: false); drop b1_size/b2_size")
        if self.d_ff is None and self.multiplier is None and self.multiple_of is None:
            raise ValueError("give d_ff, or multiplier / multiple_of to derive it")
        claims = (self.w1_shape, self.w2_shape, self.w3_shape, self.b1_size, self.b2_size)
        rule = self.multiplier is not None or self.multiple_of is not None
        if (
            all(c is None for c in claims)
            and self.parameters is None
            and not (rule and self.d_ff is not None)
        ):
            raise ValueError(
                "nothing to check: give d_ff with multiplier, or shapes, sizes or parameters"
            )
        return self

    @property
    def has_bias(self) -> bool:
        """Whether the block has biases, with the variant's default."""
        return self.bias if self.bias is not None else self.variant == "standard"


@dataclass(frozen=True)
class _Item:
    """One checked quantity."""

    name: str
    ok: bool
    claimed: str
    expected: str
    message: str
    corrections: tuple[tuple[str, str], ...] = ()
    tolerance: str = "exact (whole numbers)"


def check(fields: Input, context: Context) -> Outcome:
    """Recompute d_ff, the shapes and the parameter count and compare each printed one."""
    try:
        rule = _d_ff_rule(fields)
    except ExprError as bad:
        return error(f"cannot read multiplier {fields.multiplier!r}: {bad.message}")
    items: list[_Item] = []
    d_model = fields.d_model
    d_ff: int | None = int(fields.d_ff.value) if fields.d_ff is not None else None
    if rule is not None:
        expected, accepted, how = rule
        if fields.d_ff is not None:
            items.append(_d_ff_item(fields.d_ff, expected, accepted, how, d_model))
        elif len(accepted) != 1:
            return error(
                f"{how} = {_number(expected)} is not a whole number: give d_ff, or multiple_of "
                "for the rounding the model uses"
            )
        else:
            d_ff = accepted[0]
    assert d_ff is not None
    gated = fields.variant != "standard"
    in_out = {"d_model": d_model, "d_ff": d_ff}
    matrices = [
        ("W₁", fields.w1_shape, ("d_model", "d_ff")),
        ("W₂", fields.w2_shape, ("d_ff", "d_model")),
        ("W₃ (gate)", fields.w3_shape, ("d_model", "d_ff")),
    ]
    for name, shape, (d_in, d_out) in matrices:
        if shape is not None:
            items.append(_shape_item(name, shape, d_in, d_out, in_out, fields.layout))
    for name, size, dim in (("b₁", fields.b1_size, "d_ff"), ("b₂", fields.b2_size, "d_model")):
        if size is not None:
            ok = size == in_out[dim]
            message = (
                f"{name} has {dim} = {in_out[dim]} entries"
                if ok
                else f"{name} has {dim} = {in_out[dim]} entries, not {size}"
            )
            fix = () if ok else ((str(size), str(in_out[dim])),)
            items.append(_Item(name, ok, str(size), str(in_out[dim]), message, fix))
    count = _parameter_count(d_model, d_ff, gated, fields.has_bias) * fields.layers
    if fields.parameters is not None:
        items.append(_parameters_item(fields, d_ff, count, context))
    # Chained claims get the recomputed d_ff, not a printed one the rule contradicts.
    recomputed_d_ff = rule[1][0] if rule is not None and len(rule[1]) == 1 else d_ff
    value = float(count) if fields.parameters is not None else float(recomputed_d_ff)
    return _outcome(fields, d_ff, items, value)


def _d_ff_rule(fields: Input) -> tuple[Fraction, tuple[int, ...], str] | None:
    """(exact d_ff, the whole numbers accepted for it, how it is computed), or None."""
    if fields.multiplier is None and fields.multiple_of is None:
        return None
    gated = fields.variant != "standard"
    d = fields.d_model
    if fields.multiplier is not None:
        text = re.sub(r"\s*(×|x|倍)\s*$", "", fields.multiplier.strip())
        node = parse(text)
        factor = evaluate_exact(node, None)
        if factor is None:
            value = evaluate(node, None)
            if isinstance(value, tuple):
                raise ExprError("the multiplier is one number", 0)
            factor = Fraction(value)
        factor_text = text
    else:
        factor = Fraction(8, 3) if gated else Fraction(4)
        factor_text = "8/3" if gated else "4"
    exact = factor * d
    how = f"{factor_text} × {d}"
    if fields.multiple_of is None:
        if exact.denominator == 1:
            return exact, (int(exact),), how
        # A non-integer width is rounded by the author: either way round is a faithful reading.
        return exact, (math.floor(exact), math.ceil(exact)), how
    # LLaMA (model.py): hidden = int(2·4d/3); optional int(ffn_dim_multiplier·hidden); round up.
    hidden = math.floor(exact)
    how = f"int({how}) = {hidden}"
    if fields.ffn_dim_multiplier is not None:
        hidden = math.floor(fields.ffn_dim_multiplier * hidden)
        how += f", × {fields.ffn_dim_multiplier:g} → {hidden}"
    m = fields.multiple_of
    rounded = m * -(-hidden // m)
    how += f", rounded up to a multiple of {m}"
    return Fraction(rounded), (rounded,), how


def _d_ff_item(
    printed: Printed, exact: Fraction, accepted: tuple[int, ...], how: str, d_model: int
) -> _Item:
    value = int(printed.value)
    shown = [f"{a:,}" if printed.thousands else str(a) for a in accepted]
    if "rounded up" in how:
        full = f"{how} = {shown[0]}"
    elif len(accepted) > 1:
        full = f"{how} = {_number(exact)}, rounded to {' or '.join(shown)}"
    else:
        full = f"{how} = {shown[0]}"
    if value in accepted:
        return _Item("d_ff", True, printed.text, " or ".join(shown), f"d_ff = {full}")
    return _Item(
        "d_ff",
        False,
        printed.text,
        " or ".join(shown),
        f"d_ff = {full}, not {printed.text} ({printed.text} / {d_model} = "
        f"{_number(Fraction(value, d_model))})",
        ((printed.text, shown[0]),),
    )


def _shape_item(
    name: str,
    shape: Shape,
    d_in: str,
    d_out: str,
    sizes: dict[str, int],
    layout: str,
) -> _Item:
    first, second = (d_in, d_out) if layout == "x_w" else (d_out, d_in)
    rows, cols = sizes[first], sizes[second]
    orientation = (
        f"x·{name.split()[0]} maps {d_in} to {d_out}"
        if layout == "x_w"
        else "nn.Linear weights are out × in"
    )
    expected = f"{first} × {second} = {rows} × {cols}"
    if (shape.rows, shape.cols) == (rows, cols):
        return _Item(name, True, shape.text, f"{rows}×{cols}", f"{name} is {expected}")
    fix = ((shape.text, shape.with_dims(rows, cols)),)
    if (shape.rows, shape.cols) == (cols, rows) and rows != cols:
        other = "linear_weight" if layout == "x_w" else "x_w"
        why = (
            f"the dimensions are swapped ({shape.rows} × {shape.cols} is the "
            f"{'nn.Linear weight (out × in)' if layout == 'x_w' else 'x·W (in × out)'} layout; "
            f"set layout: {other} if the lesson means that)"
        )
    else:
        wrong = []
        if shape.rows != rows:
            wrong.append(f"its first dimension should be {first} = {rows}, not {shape.rows}")
        if shape.cols != cols:
            wrong.append(f"its second dimension should be {second} = {cols}, not {shape.cols}")
        why = " and ".join(wrong)
    return _Item(
        name,
        False,
        shape.text,
        f"{rows}×{cols}",
        f"{name} is {expected} ({orientation}), not {shape.text}: {why}",
        fix,
    )


def _parameter_count(d_model: int, d_ff: int, gated: bool, bias: bool) -> int:
    matrices = (3 if gated else 2) * d_model * d_ff
    biases = ((2 if gated else 1) * d_ff + d_model) if bias else 0
    return matrices + biases


def _parameter_formula(fields: Input, d_ff: int) -> str:
    gated = fields.variant != "standard"
    d = fields.d_model
    k = 3 if gated else 2
    symbolic = f"{k}·d_model·d_ff"
    numeric = f"{k}·{d}·{d_ff}"
    if fields.has_bias:
        symbolic += f" + {'2·' if gated else ''}d_ff + d_model"
        numeric += f" + {f'2·{d_ff}' if gated else d_ff} + {d}"
    text = f"{symbolic} = {numeric}"
    if fields.layers > 1:
        text = f"({text}) × {fields.layers} layers"
    return text


def _parameters_item(fields: Input, d_ff: int, count: int, context: Context) -> _Item:
    assert fields.parameters is not None
    printed = fields.parameters
    comparison = compare(printed, float(count), context.tolerance)
    formula = _parameter_formula(fields, d_ff)
    if comparison.ok:
        return _Item(
            "parameters",
            True,
            printed.text,
            comparison.corrected,
            f"parameters = {formula} = {count:,}"
            + ("" if printed.text == f"{count:,}" else f" ≈ {printed.text}"),
            tolerance=comparison.tolerance.reason,
        )
    gated = fields.variant != "standard"
    d_model, bias = fields.d_model, fields.has_bias
    slips = [
        ("leaves out the biases", _parameter_count(d_model, d_ff, gated, False)),
        ("adds biases the block does not have", _parameter_count(d_model, d_ff, gated, True)),
        (
            "counts two matrices; a gated FFN has three"
            if gated
            else "counts three matrices; a standard FFN has two",
            _parameter_count(d_model, d_ff, not gated, bias),
        ),
    ]
    hint = next(
        (
            f" — the printed count {why}"
            for why, n in slips
            if n != count and compare(printed, float(n * fields.layers), context.tolerance).ok
        ),
        "",
    )
    return _Item(
        "parameters",
        False,
        printed.text,
        comparison.corrected,
        f"parameters = {formula} = {count:,} → {comparison.corrected}, not {printed.text}{hint}",
        ((printed.text, comparison.corrected),),
        comparison.tolerance.reason,
    )


def _outcome(fields: Input, d_ff: int, items: list[_Item], value: float) -> Outcome:
    label = {"standard": "FFN", "swiglu": "SwiGLU FFN", "geglu": "GeGLU FFN"}[fields.variant]
    d_ff_wrong = any(i.name == "d_ff" and not i.ok for i in items)
    stated = f" and the printed d_ff = {d_ff}" if d_ff_wrong else f", d_ff = {d_ff}"
    what = f"{label} with d_model = {fields.d_model}{stated}"
    claimed = "; ".join(f"{i.name} = {i.claimed}" for i in items)
    expected = "; ".join(f"{i.name} = {i.expected}" for i in items)
    tolerance = "; ".join(sorted({i.tolerance for i in items}))
    failed = [i for i in items if not i.ok]
    if not failed:
        message = f"{what}: " + "; ".join(i.message for i in items) + " — holds"
    else:
        message = f"{what}: " + "; ".join(i.message for i in failed)
    return Outcome(
        verdict="fail" if failed else "pass",
        claimed=claimed,
        expected=expected,
        tolerance=tolerance,
        message=message,
        corrections=tuple(pair for i in items for pair in i.corrections) if failed else (),
        value=value,
    )


def _number(value: Fraction | float) -> str:
    number = float(value)
    if number == round(number):
        return str(round(number))
    return f"{number:.4f}".rstrip("0").rstrip(".")
