"""Kind ``scaling``: how a cost grows (``8k → 64×``) or which product a quantity follows.

Two forms, one per claim.

**Ratio.** A cost ∝ n^exponent grows by (n / base_n)^exponent: ``1k → 8k`` at exponent 2 is
(8k/1k)² = 64×, ``1k → 128k`` is 128² = 16384×, and "上下文翻一倍，注意力成本翻两番" is 2² = 4×.
Fields: ``base_n`` and ``n`` (as printed, ``1k``, ``128k``; both in the same unit, so ``k``
cancels) or ``factor`` (n / base_n directly, e.g. ``2`` or ``翻一倍``); ``exponent`` (default 2);
``claimed``: the printed ratio, ``64×``, ``16384 倍``, or a phrase ``翻一番`` (×2), ``翻两番``
(×4), ``翻三番`` (×8), ``翻一倍``/``翻倍``/``加倍`` (×2). ``翻两倍`` is refused as ambiguous
(×3 or ×4).

**Law.** A claim that one column is a constant times a product of others, such as
"参数 ≈ 层数 × 隐藏维度 × 常数" (params ∝ layers × hidden), is tested on data: every row's
constant (params / (layers·hidden)) must lie within ±20% of the median constant, or of the
constant the law prints (``params ≈ 12 × layers × hidden²``). ±20% because published sizes are
rounded names (LLaMA-2 "7B" has 6.74B weights) and FFN widths, vocabularies and attention
variants move the constant by up to about 10%; a wrong law misses by factors, not percent. When
the law fails the verdict names the product of the same columns (powers up to 3) that fits best.
Fields: ``law`` — ``left ∝ a × b²`` (also ``≈``, ``~``, ``=``; ``×``, ``*``, ``·``; words for a
constant such as ``常数``/``constant`` are skipped; a number is the claimed constant); column names
may be English or the lessons' Chinese (参数/params, 层数/layers, 隐藏维度/hidden/d_model,
头数/heads, 上下文长度/context, 词表/vocab); ``rows`` — a list of mappings of column → printed
value, with an optional ``name``; or ``table_from: models`` with ``models`` naming entries of the
reference table ``checkers/data/models.yaml`` (``GPT-3 175B``, ``LLaMA-2 7B``, …).

Examples::

    base_n: 1k
    n: 8k
    claimed: 64×

    law: "参数 ≈ 层数 × 隐藏维度 × 常数"
    table_from: models
    models: [GPT-3 175B, LLaMA-2 7B, LLaMA-2 70B]
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, WithJsonSchema, model_validator

from checkers.data import find_model, parse_count
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, error, from_comparisons
from checkers.numbers import UNITS, NumberError, Printed, Tolerance, compare, parse_printed

__all__ = ["LAW_TOLERANCE", "Input", "Law", "LawRow", "check", "parse_law"]

LAW_RELATIVE = 0.20
LAW_TOLERANCE = Tolerance(
    absolute=0.0,
    relative=LAW_RELATIVE,
    reason=(
        "±20%: a law holds if every row's constant lies within ±20% of the median (or of the "
        "printed constant); rounded size names and differences in FFN width, vocabulary and "
        "attention move it by up to about 10%, a wrong law by factors"
    ),
)
"""How constant "constant" must be, and why."""

MAX_FIT_POWER = 3
"""Highest power tried for each column when looking for the law that does fit."""

_CHINESE_NUMERALS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}
_DOUBLING_WORDS = ("翻一倍", "翻倍", "加倍", "增加一倍", "翻一番", "翻番", "doubles", "doubling")
_FAN = re.compile(r"翻\s*([一二两三四五六七]|\d+)\s*番")
_AMBIGUOUS_BEI = re.compile(r"翻\s*([二两三四五六七八九十]|\d+)\s*倍")


def _ratio_printed(value: Any) -> Printed:
    """A printed ratio: ``64×``, ``16384 倍``, ``4`` or a phrase such as ``翻两番``."""
    if isinstance(value, Printed):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError("expected a ratio such as 64×, 4 or 翻两番")
    text = str(value).strip()
    ratio: float | None = None
    if text in _DOUBLING_WORDS:
        ratio = 2.0
    elif text in ("quadruples", "quadrupling"):
        ratio = 4.0
    elif match := _FAN.fullmatch(text):
        count = match.group(1)
        ratio = 2.0 ** (int(count) if count.isdigit() else _CHINESE_NUMERALS[count])
    elif _AMBIGUOUS_BEI.fullmatch(text):
        raise ValueError(
            f"{text!r} is ambiguous (it is read both as ×3 and as ×4); write the ratio as a number"
        )
    if ratio is not None:
        return Printed(text=text, value=ratio, decimals=0, exponent=0, unit=UNITS["×"])
    try:
        printed = parse_printed(text)
    except NumberError as problem:
        raise ValueError(problem.message) from None
    if printed.unit is not None and printed.unit.family not in ("ratio", "count"):
        raise ValueError(f"expected a ratio such as 64× or 16384 倍, got {text!r}")
    return printed


RatioNumber = Annotated[
    Printed,
    PlainValidator(_ratio_printed),
    WithJsonSchema({"title": "printed ratio", "type": ["number", "string"]}),
]
"""A printed ratio, a number or a doubling phrase."""

_ALIASES: dict[str, str] = {}
for _canonical, _names in {
    "params": ("参数", "参数量", "params", "parameters", "n_params"),
    "layers": ("层数", "layers", "l", "n_layers", "n_layer", "num_layers"),
    "hidden": ("隐藏维度", "维度", "hidden", "hidden_size", "d_model", "d", "width"),
    "heads": ("头数", "注意力头数", "heads", "n_heads", "h"),
    "kv_heads": ("kv_heads", "n_kv_heads"),
    "d_ff": ("d_ff", "ffn"),
    "context": ("上下文长度", "上下文", "context", "n_ctx"),
    "vocab": ("词表", "词表大小", "vocab", "vocab_size"),
}.items():
    for _name in _names:
        _ALIASES[_name] = _canonical

_CONSTANT_WORDS = frozenset({"常数", "常量", "系数", "constant", "const"})
_SUPERSCRIPT_POWERS = {"²": 2, "³": 3, "⁴": 4}


def column_name(text: str) -> str:
    """The canonical column for a printed name: ``层数`` → ``layers``; others unchanged."""
    folded = text.strip()
    return _ALIASES.get(folded.casefold(), _ALIASES.get(folded, folded))


@dataclass(frozen=True)
class Law:
    """``left ∝ constant × Π right[i]^power[i]``."""

    left: str
    """The column the law predicts (canonical name)."""
    factors: tuple[tuple[str, int], ...]
    """(column, power) of the product."""
    constant: float | None
    """The constant the law prints, if any."""
    text: str
    """The law as written in the claim."""

    def product_text(self, factors: Sequence[tuple[str, int]] | None = None) -> str:
        """``layers × hidden²``."""
        return " × ".join(_power_text(name, p) for name, p in (factors or self.factors) if p)


def _power_text(name: str, power: int) -> str:
    return name if power == 1 else name + _superscript(power)


def parse_law(text: str) -> Law:
    """Read ``params ∝ layers × hidden`` or ``参数 ≈ 层数 × 隐藏维度 × 常数``; ValueError if not."""
    parts = re.split(r"\s*(?:∝|≈|∼|~|=)\s*", text.strip(), maxsplit=1)
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise ValueError(f"a law reads 'left ∝ a × b', got {text!r}")
    left = column_name(parts[0])
    if not re.fullmatch(r"[^\s×*·⋅]+", left):
        raise ValueError(f"the left side of a law is one column name, got {parts[0]!r}")
    factors: dict[str, int] = {}
    constant: float | None = None
    for raw in re.split(r"\s*[×*·⋅]\s*", parts[1]):
        token = raw.strip()
        if not token:
            raise ValueError(f"empty factor in law {text!r}")
        if token.casefold() in _CONSTANT_WORDS:
            continue
        try:
            number = float(token)
        except ValueError:
            number = None
        if number is not None:
            constant = number if constant is None else constant * number
            continue
        name, power = _split_power(token)
        canonical = column_name(name)
        factors[canonical] = factors.get(canonical, 0) + power
    if not factors:
        raise ValueError(f"the law {text!r} names no column on its right side")
    if left in factors:
        raise ValueError(f"the law {text!r} has {left!r} on both sides")
    return Law(left, tuple(factors.items()), constant, text.strip())


def _split_power(token: str) -> tuple[str, int]:
    if token[-1] in _SUPERSCRIPT_POWERS:
        return token[:-1].strip(), _SUPERSCRIPT_POWERS[token[-1]]
    match = re.fullmatch(r"(.+?)\s*(?:\^|\*\*)\s*(\d+)", token)
    if match:
        return match.group(1), int(match.group(2))
    return token, 1


@dataclass(frozen=True)
class LawRow:
    """One row of data for a law: a name and its columns as printed."""

    name: str
    values: Mapping[str, Printed]


def _rows(value: Any) -> tuple[LawRow, ...]:
    if isinstance(value, tuple) and all(isinstance(r, LawRow) for r in value):
        return value
    if not isinstance(value, list) or not value:
        raise ValueError("rows is a list of mappings such as {name: GPT-3, params: 175B, …}")
    rows = []
    for index, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise ValueError(f"row {index} must be a mapping of column → printed value")
        name = str(item.get("name", f"row {index}"))
        values: dict[str, Printed] = {}
        for key, raw in item.items():
            if key == "name":
                continue
            printed = parse_count(str(raw)) if isinstance(raw, str) else None
            try:
                values[column_name(str(key))] = printed or parse_printed(raw)
            except NumberError as problem:
                raise ValueError(f"row {index}, {key}: {problem.message}") from None
        rows.append(LawRow(name, values))
    return tuple(rows)


Rows = Annotated[
    tuple[LawRow, ...],
    PlainValidator(_rows),
    WithJsonSchema(
        {
            "title": "table rows (column → printed value)",
            "type": "array",
            "items": {"type": "object"},
        }
    ),
]
"""Rows of data for a law, each a mapping of column → printed value with an optional name."""


class Input(KindInput):
    """Fields of a ``scaling`` claim (the ratio form or the law form)."""

    base_n: PrintedNumber | None = None
    """Ratio form: the reference size as printed (``1k``)."""
    n: PrintedNumber | None = None
    """Ratio form: the size compared with it (``8k``)."""
    factor: RatioNumber | None = None
    """Ratio form: n / base_n directly (``2``, ``翻一倍``), instead of base_n and n."""
    exponent: PrintedNumber | None = None
    """Ratio form: the power the cost grows with (default 2, as for attention's n²)."""
    claimed: RatioNumber | None = None
    """Ratio form: the printed ratio (``64×``, ``翻两番``)."""
    law: str | None = Field(default=None, min_length=3, max_length=300)
    """Law form: ``params ∝ layers × hidden``."""
    rows: Rows | None = None
    """Law form: the data, one mapping per row."""
    table_from: Literal["models"] | None = None
    """Law form: take the rows from the reference table of published models."""
    models: tuple[str, ...] | None = None
    """Law form with ``table_from: models``: the models, by name or key."""

    @model_validator(mode="after")
    def _one_form(self) -> Input:
        ratio_fields = [
            f
            for f in ("base_n", "n", "factor", "exponent", "claimed")
            if getattr(self, f) is not None
        ]
        if self.law is None:
            if self.rows is not None or self.table_from is not None or self.models is not None:
                raise ValueError("rows, table_from and models belong to a law: add law:")
            if self.claimed is None:
                raise ValueError("a ratio claim needs claimed (the printed ratio, e.g. 64×)")
            if self.factor is None and (self.base_n is None or self.n is None):
                raise ValueError("give base_n and n (e.g. 1k and 8k), or factor")
            if self.factor is not None and (self.base_n is not None or self.n is not None):
                raise ValueError("give either factor or base_n and n, not both")
            for name in ("base_n", "n", "factor"):
                printed = getattr(self, name)
                if printed is not None and printed.value <= 0:
                    raise ValueError(f"{name} must be positive, got {printed.text!r}")
            return self
        if ratio_fields:
            raise ValueError(f"a law claim does not take {', '.join(ratio_fields)}")
        law = parse_law(self.law)
        if (self.rows is None) == (self.table_from is None):
            raise ValueError("give the data either as rows: or as table_from: models")
        if self.table_from is not None and not self.models:
            raise ValueError("table_from: models needs models: [names of reference entries]")
        if self.table_from is None and self.models is not None:
            raise ValueError("models: goes with table_from: models")
        rows = self.data_rows()
        if len(rows) < 2 and law.constant is None:
            raise ValueError("a law without a printed constant needs at least 2 rows")
        needed = [law.left, *(name for name, _ in law.factors)]
        for row in rows:
            missing = [name for name in needed if name not in row.values]
            if missing:
                raise ValueError(f"{row.name} lacks {', '.join(missing)}")
        return self

    def data_rows(self) -> tuple[LawRow, ...]:
        """The rows the law is tested on, given or taken from the reference table."""
        if self.rows is not None:
            return self.rows
        return tuple(_reference_row(name) for name in self.models or ())


def _reference_row(name: str) -> LawRow:
    match = find_model(name)
    if match.spec is None:
        raise ValueError(f"models: {match.reason}")
    spec = match.spec
    values = {"params": parse_count(spec.params)}
    for column in ("layers", "hidden", "heads", "kv_heads", "d_ff", "context", "vocab"):
        number = spec.column(column)
        if number is not None:
            values[column] = parse_printed(number)
    return LawRow(spec.name, {k: v for k, v in values.items() if v is not None})


def check(fields: Input, context: Context) -> Outcome:
    """The ratio form against the printed ratio, or the law form against its data."""
    if fields.law is not None:
        return _check_law(fields, parse_law(fields.law), context)
    return _check_ratio(fields, context)


def _superscript(power: float) -> str:
    if power == int(power) and 0 <= power <= 9:
        return str(int(power)).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"^{power:g}"


def _check_ratio(fields: Input, context: Context) -> Outcome:
    assert fields.claimed is not None
    power = fields.exponent.value if fields.exponent is not None else 2.0
    if fields.factor is not None:
        growth = fields.factor.value
        what = f"{fields.factor.text} (×{growth:g}): {growth:g}{_superscript(power)}"
    else:
        assert fields.base_n is not None and fields.n is not None
        growth = fields.n.value / fields.base_n.value
        sup = _superscript(power)
        what = f"({fields.n.text} / {fields.base_n.text}){sup} = {growth:.6g}{sup}"
    ratio = growth**power
    if not math.isfinite(ratio):
        return error(f"{what} overflows", fields.claimed.text)
    comparison = compare(fields.claimed, ratio, context.tolerance)
    outcome = from_comparisons(
        [comparison],
        what=what,
        details=[f"a cost ∝ n{_superscript(power)} grows by (n / base_n){_superscript(power)}"],
    )
    if (
        outcome.verdict == "fail"
        and fields.claimed.unit is UNITS["×"]
        and not any(ch.isdigit() for ch in fields.claimed.text)
    ):
        # A phrase such as 翻两番: suggest the phrase for the right ratio when there is one.
        fixed = _phrase_for(ratio)
        printed = fields.claimed
        return replace(
            outcome,
            message=f"{what} = {ratio:g}× ({fixed}), not {printed.text} (×{printed.value:g})",
            corrections=((printed.text, fixed),),
        )
    return outcome


def _phrase_for(ratio: float) -> str:
    doublings = math.log2(ratio) if ratio > 0 else 0.0
    names = {1: "翻一番", 2: "翻两番", 3: "翻三番", 4: "翻四番", 5: "翻五番"}
    if abs(doublings - round(doublings)) < 1e-9 and round(doublings) in names:
        return names[round(doublings)]
    return f"{ratio:g}×"


@dataclass(frozen=True)
class _Fit:
    factors: tuple[tuple[str, int], ...]
    constants: tuple[float, ...]
    center: float
    holds: bool

    @property
    def spread(self) -> float:
        low, high = min(self.constants), max(self.constants)
        return high / low if low > 0 else math.inf


def _fit(
    law: Law,
    factors: Sequence[tuple[str, int]],
    rows: Sequence[LawRow],
    tolerance: Tolerance,
    constant: float | None,
) -> _Fit | None:
    constants = []
    for row in rows:
        denominator = math.prod(row.values[name].value ** power for name, power in factors)
        if denominator == 0:
            return None
        constants.append(row.values[law.left].value / denominator)
    center = constant if constant is not None else statistics.median(constants)
    holds = all(tolerance.allows(center, k) for k in constants)
    return _Fit(tuple(factors), tuple(constants), center, holds)


def _ratio_text(law: Law, factors: Sequence[tuple[str, int]]) -> str:
    product = "·".join(_power_text(name, p) for name, p in factors if p)
    return f"{law.left}/({product})" if len(factors) > 1 else f"{law.left}/{product}"


def _check_law(fields: Input, law: Law, context: Context) -> Outcome:
    rows = fields.data_rows()
    tolerance = context.tolerance or LAW_TOLERANCE
    fit = _fit(law, law.factors, rows, tolerance, law.constant)
    if fit is None:
        zero = next(
            (row.name, name)
            for row in rows
            for name, _ in law.factors
            if row.values[name].value == 0
        )
        return error(
            f"{_ratio_text(law, law.factors)} is undefined for {zero[0]}: its {zero[1]} is 0",
            law.text,
        )
    ratio_name = _ratio_text(law, law.factors)
    per_row = ", ".join(
        f"{_number_text(k)} for {row.name}" for row, k in zip(rows, fit.constants, strict=True)
    )
    against = (
        f"the printed constant {law.constant:g}"
        if law.constant is not None
        else f"the median {_number_text(fit.center)}"
    )
    details = [
        f"{row.name}: {ratio_name} = {_row_formula(law, row)} = {_number_text(k)}"
        for row, k in zip(rows, fit.constants, strict=True)
    ]
    stated = f"{law.left} ∝ {law.product_text()}"
    if fit.holds:
        message = (
            f"{stated} holds: {ratio_name} is {per_row}, all within "
            f"{_percent(tolerance)} of {against}"
        )
        return Outcome(
            verdict="pass",
            claimed=law.text,
            expected=f"{ratio_name} ≈ {_number_text(fit.center)}",
            tolerance=tolerance.reason,
            message=message,
            corrections=(),
            details=tuple(details),
            value=fit.center,
        )
    message = (
        f"{stated} does not hold: {ratio_name} is {per_row} — a spread of ×{fit.spread:.2g}, "
        f"beyond {_percent(tolerance)} of {against}"
    )
    best = _best_fit(law, rows, tolerance)
    if best is not None:
        low, high = min(best.constants), max(best.constants)
        message += (
            f"; {law.left} ∝ {law.product_text(best.factors)} fits: "
            f"{_ratio_text(law, best.factors)} = {_number_text(low)}–{_number_text(high)} "
            f"for {'both' if len(rows) == 2 else f'all {len(rows)}'} rows"
        )
        details.append(
            f"best fit among powers 0–{MAX_FIT_POWER} of {', '.join(n for n, _ in law.factors)}: "
            f"{law.left} ∝ {law.product_text(best.factors)} (spread ×{best.spread:.3g})"
        )
    else:
        message += (
            f"; no product of powers 0–{MAX_FIT_POWER} of "
            f"{', '.join(n for n, _ in law.factors)} fits either"
        )
    return Outcome(
        verdict="fail",
        claimed=law.text,
        expected=f"{ratio_name} not constant (spread ×{fit.spread:.2g})",
        tolerance=tolerance.reason,
        message=message,
        corrections=(),
        details=tuple(details),
        value=fit.center,
    )


def _best_fit(law: Law, rows: Sequence[LawRow], tolerance: Tolerance) -> _Fit | None:
    names = [name for name, _ in law.factors]
    fits = []
    for powers in itertools.product(range(MAX_FIT_POWER + 1), repeat=len(names)):
        if not any(powers):
            continue
        fit = _fit(law, list(zip(names, powers, strict=True)), rows, tolerance, None)
        if fit is not None and fit.holds:
            fits.append(fit)
    # The tightest fit; among equally tight ones, the simplest (lowest total power).
    return min(fits, key=lambda f: (f.spread, sum(p for _, p in f.factors)), default=None)


def _row_formula(law: Law, row: LawRow) -> str:
    denominator = " × ".join(
        row.values[name].text + ("" if power == 1 else _superscript(power))
        for name, power in law.factors
    )
    return f"{row.values[law.left].text} / ({denominator})"


def _percent(tolerance: Tolerance) -> str:
    if tolerance.relative:
        return f"±{tolerance.relative:.0%}"
    return f"±{tolerance.absolute:g}"


def _number_text(value: float) -> str:
    """4 significant digits, with K/M/B for large values: 148.3K, 12.07, 0.1234."""
    magnitude = abs(value)
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if magnitude >= factor:
            return f"{value / factor:.4g}{suffix}"
    return f"{value:.4g}"
