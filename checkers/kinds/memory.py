"""Kind ``memory``: bytes of model weights, of a KV cache, or both, against a printed size.

Weights take ``params × bytes per parameter`` (fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5). The
KV cache takes ``2 × layers × kv_heads × head_dim × bytes × tokens × batch``: one K and one V
vector per layer, KV head and token. With grouped-query attention (``kv_heads`` below ``heads``)
only the KV heads are cached, which the verdict points out.

Units: a printed ``KB``/``MB``/``GB``/``TB`` is decimal (10³, 10⁶, 10⁹, 10¹² bytes) and
``KiB``/``MiB``/``GiB``/``TiB`` is binary (2¹⁰ … 2⁴⁰), as SI and IEC define them, and the verdict
says which reading it used. When a number is right only under the other reading (``13 GB`` for
1.4e10 bytes, which is 13.04 GiB), the claim **fails** and the message says so: "13 GB matches
only if GB means GiB (2^30 bytes); in decimal GB it is 14 GB". A lesson that itself defines GB as
2^30 bytes sets ``prefixes: binary``, and its decimal symbols are then read as binary.

YAML fields:

``claimed``
    The size as printed, with a byte unit: ``14 GB``, ``512 KiB``, ``1.28 GB``, ``4096 字节``.
``params``
    Parameter count as printed (``7B``, ``70 亿``, ``1.5B``): weights are counted.
``dtype`` / ``bytes_per_param``
    Storage type (``fp32``, ``fp16``, ``bf16``, ``fp8``, ``int8``, ``int4``; ``float16`` and
    ``half`` are accepted) or bytes per value as printed (``2``, ``0.5``); give one.
``kv_dtype``
    Optional storage type of the KV cache when it differs from ``dtype``.
``layers``, ``kv_heads``, ``head_dim``, ``tokens``, ``batch``
    The KV cache: layers, key/value heads, width of one head, cached tokens (``4096``; ``4k``
    reads as 4000, so write 4096 when the lesson means 2^12), sequences in the batch (default 1).
``heads``, ``hidden``
    Optional: query heads (``kv_heads`` defaults to it; GQA when ``kv_heads`` is smaller) and
    model width (``head_dim`` defaults to hidden / heads).
``quantity``
    Optional ``weights``, ``kv_cache`` or ``total``; by default weights when only ``params`` is
    given, kv_cache when only cache fields are, total when both are.
``prefixes``
    ``as_printed`` (default), ``binary`` when the lesson defines KB/MB/GB as powers of 1024, or
    ``either`` when its usage allows both (it never writes KiB/GiB, so a GB may be 10^9 or
    2^30 bytes): the size then holds if it holds under one reading, and the verdict says which
    (drafted claims use it; a hand-written claim states the lesson's convention).

Example::

    params: 7B
    dtype: fp16
    claimed: 14 GB
"""

from __future__ import annotations

import dataclasses
import math
from typing import Literal

from pydantic import field_validator, model_validator

from checkers.data import dtype_table
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedWholeNumber,
    from_comparisons,
)
from checkers.numbers import UNITS, Printed, Unit, compare

__all__ = ["Input", "check", "normalize_dtype"]

# Each decimal prefix and its binary counterpart, both ways.
_COUNTERPART = {"KB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB"}
_COUNTERPART.update({binary: decimal for decimal, binary in list(_COUNTERPART.items())})


def normalize_dtype(text: str) -> str:
    """``FP16``, ``float16``, ``half`` → ``fp16`` (``checkers/data/dtypes.yaml``); raises
    ValueError for unknown types."""
    found = dtype_table().find(text)
    if found is None:
        known = ", ".join(dtype_table().names)
        raise ValueError(f"unknown dtype {text!r}; expected one of {known} (or bytes_per_param)")
    return found.name


def _bytes_of(dtype: str) -> float:
    """Bytes per stored number of a canonical type name."""
    found = dtype_table().find(dtype)
    assert found is not None  # the field validator let only table names through
    return found.bytes


class Input(KindInput):
    """Fields of a ``memory`` claim."""

    claimed: PrintedNumber
    """The printed size with a byte unit (``14 GB``)."""
    params: PrintedNumber | None = None
    """Parameter count as printed; weights are counted when given."""
    dtype: str | None = None
    """Storage type of the weights (and of the KV cache unless ``kv_dtype`` is given)."""
    bytes_per_param: PrintedNumber | None = None
    """Bytes per stored value as printed, instead of ``dtype``."""
    kv_dtype: str | None = None
    """Storage type of the KV cache, when it differs from ``dtype``."""
    layers: PrintedWholeNumber | None = None
    """Layers whose K and V are cached."""
    heads: PrintedWholeNumber | None = None
    """Query heads (the default for ``kv_heads``)."""
    kv_heads: PrintedWholeNumber | None = None
    """Key/value heads per layer (fewer than ``heads`` with grouped-query attention)."""
    head_dim: PrintedWholeNumber | None = None
    """Width of one head (default hidden / heads)."""
    hidden: PrintedWholeNumber | None = None
    """Model width, used for ``head_dim`` when that is not printed."""
    tokens: PrintedWholeNumber | None = None
    """Cached tokens per sequence."""
    batch: PrintedWholeNumber | None = None
    """Sequences cached at once (default 1)."""
    quantity: Literal["weights", "kv_cache", "total"] | None = None
    """What ``claimed`` measures; inferred from the fields given when omitted."""
    prefixes: Literal["as_printed", "binary", "either"] = "as_printed"
    """``binary`` only when the lesson itself defines KB/MB/GB as powers of 1024; ``either``
    when its usage allows both readings."""

    @field_validator("claimed")
    @classmethod
    def _is_bytes(cls, value: Printed) -> Printed:
        if value.unit is None or value.unit.family != "bytes":
            raise ValueError(
                f"claimed must be a size with a byte unit such as 14 GB or 512 KiB, "
                f"got {value.text!r}"
            )
        return value

    @field_validator("params")
    @classmethod
    def _is_count(cls, value: Printed | None) -> Printed | None:
        if value is not None and (
            value.value <= 0 or (value.unit is not None and value.unit.family != "count")
        ):
            raise ValueError(f"params must be a count such as 7B or 70 亿, got {value.text!r}")
        return value

    @field_validator("dtype", "kv_dtype")
    @classmethod
    def _known_dtype(cls, value: str | None) -> str | None:
        return None if value is None else normalize_dtype(value)

    @field_validator("bytes_per_param")
    @classmethod
    def _positive_bytes(cls, value: Printed | None) -> Printed | None:
        if value is not None and (value.unit is not None or value.value <= 0):
            raise ValueError(f"bytes_per_param is a plain positive number, got {value.text!r}")
        return value

    @model_validator(mode="after")
    def _complete(self) -> Input:
        if (self.dtype is None) == (self.bytes_per_param is None):
            raise ValueError("give exactly one of dtype (fp16, int8, …) and bytes_per_param")
        quantity = self.measured
        if quantity in ("weights", "total") and self.params is None:
            raise ValueError(f"{quantity} needs params (the parameter count)")
        if quantity in ("kv_cache", "total"):
            missing = [name for name in ("layers", "tokens") if getattr(self, name) is None]
            if self.kv_heads is None and self.heads is None:
                missing.append("kv_heads (or heads)")
            if self.head_dim is None and (self.hidden is None or self.heads is None):
                missing.append("head_dim (or hidden and heads)")
            if missing:
                raise ValueError(f"the KV cache needs {', '.join(missing)}")
        heads, kv_heads = _whole(self.heads), _whole(self.kv_heads)
        if heads is not None and kv_heads is not None and (kv_heads > heads or heads % kv_heads):
            raise ValueError(f"kv_heads {kv_heads} must divide heads {heads}")
        hidden, head_dim = _whole(self.hidden), _whole(self.head_dim)
        if hidden is not None and heads is not None:
            if hidden % heads:
                raise ValueError(f"heads {heads} do not divide hidden {hidden}")
            if head_dim is not None and head_dim != hidden // heads:
                raise ValueError(f"head_dim {head_dim} is not hidden/heads = {hidden // heads}")
        return self

    @property
    def measured(self) -> Literal["weights", "kv_cache", "total"]:
        """What ``claimed`` measures: given, or inferred from the fields present."""
        if self.quantity is not None:
            return self.quantity
        has_cache = any(
            getattr(self, name) is not None for name in ("layers", "kv_heads", "head_dim", "tokens")
        )
        if self.params is not None:
            return "total" if has_cache else "weights"
        return "kv_cache"


def _whole(value: Printed | None) -> int | None:
    return None if value is None else round(value.value)


def _number(value: float) -> str:
    """``0.5``, ``2``, ``1.5``: a short exact-looking number."""
    return f"{value:g}"


def _bytes_text(value: float) -> str:
    """``14,000,000,000 bytes`` for whole numbers, else 4 significant digits."""
    if value == math.floor(value) and value < 1e18:
        return f"{value:,.0f} bytes"
    return f"{value:.4g} bytes"


def _in_unit(value: float, symbol: str) -> str:
    unit = UNITS[symbol]
    return f"{value / unit.factor:.4g} {symbol}"


@dataclasses.dataclass(frozen=True)
class _Part:
    bytes: float
    formula: str
    is_cache: bool = False


def _weights(fields: Input, bytes_per_value: float, type_text: str) -> _Part:
    assert fields.params is not None
    total = fields.params.value * bytes_per_value
    formula = f"weights {fields.params.text} params × {_number(bytes_per_value)} bytes{type_text}"
    return _Part(total, formula)


def _kv_cache(fields: Input, bytes_per_value: float, type_text: str) -> tuple[_Part, list[str]]:
    layers, tokens = _whole(fields.layers), _whole(fields.tokens)
    heads = _whole(fields.heads)
    kv_heads = _whole(fields.kv_heads) or heads
    head_dim = _whole(fields.head_dim)
    notes: list[str] = []
    if head_dim is None:
        hidden = _whole(fields.hidden)
        assert hidden is not None and heads is not None
        head_dim = hidden // heads
        notes.append(f"head_dim = hidden/heads = {hidden}/{heads} = {head_dim}")
    assert layers is not None and tokens is not None and kv_heads is not None
    batch = _whole(fields.batch) or 1
    total = 2.0 * layers * kv_heads * head_dim * bytes_per_value * tokens * batch
    formula = (
        f"KV cache 2 (K and V) × {layers} layers × {kv_heads} KV heads × {head_dim} head_dim × "
        f"{_number(bytes_per_value)} bytes{type_text} × {tokens} token{'s' if tokens != 1 else ''}"
        + (f" × {batch} sequences" if batch != 1 else "")
    )
    if heads is not None and kv_heads < heads:
        notes.append(
            f"grouped-query attention: {kv_heads} KV heads serve {heads} query heads, so the "
            f"cache is {heads // kv_heads}× smaller than with one KV head per query head"
        )
    return _Part(total, formula, is_cache=True), notes


def _left_out(
    fields: Input,
    total: float,
    printed: Printed,
    read: Printed,
    counterpart: Unit | None,
    context: Context,
) -> str:
    """What a wrong KV cache size matches when a factor of the formula is left out: the 2 of
    one K and one V vector, or the KV heads (the size of one head); "" when neither."""
    readings = [read]
    if fields.prefixes == "either" and counterpart is not None:
        readings.append(_reread(printed, counterpart))
    kv_heads = _whole(fields.kv_heads) or _whole(fields.heads) or 1
    candidates = [(2.0, "the size of K alone: the 2 for one K and one V vector is left out")]
    if kv_heads > 1:
        candidates.append(
            (float(kv_heads), f"the size of one KV head: the {kv_heads} KV heads are left out")
        )
    for factor, words in candidates:
        if any(compare(r, total / factor, context.tolerance).ok for r in readings):
            return f"; {printed.text} is {words}"
    return ""


def _reread(printed: Printed, unit: Unit) -> Printed:
    """The printed number with its unit read as ``unit`` (whose symbol is kept in fixes)."""
    mantissa = printed.value / printed.scale
    value = mantissa * unit.factor * 10.0**printed.exponent
    return dataclasses.replace(printed, value=value, unit=unit)


def _power(unit: Unit) -> str:
    """``2^30 bytes`` or ``10^9 bytes``."""
    if unit.binary:
        return f"2^{round(math.log2(unit.factor))} bytes"
    return f"10^{round(math.log10(unit.factor))} bytes"


def _reading_text(unit: Unit, declared_binary: bool) -> str:
    if unit.factor == 1.0:
        return "plain bytes"
    if declared_binary:
        return f"{unit.symbol} read as {_power(unit)}, as the lesson defines it"
    kind = "binary" if unit.binary else "decimal"
    return f"{unit.symbol} read as {kind}, {_power(unit)}"


def check(fields: Input, context: Context) -> Outcome:
    """Recompute the bytes and compare with the printed size under the documented unit policy."""
    weight_bytes = (
        fields.bytes_per_param.value
        if fields.bytes_per_param is not None
        else _bytes_of(fields.dtype or "fp32")
    )
    weight_type = f" ({fields.dtype})" if fields.dtype else ""
    cache_bytes = _bytes_of(fields.kv_dtype) if fields.kv_dtype else weight_bytes
    cache_dtype = fields.kv_dtype or fields.dtype
    cache_type = f" ({cache_dtype})" if cache_dtype else ""
    parts: list[_Part] = []
    notes: list[str] = []
    if fields.measured in ("weights", "total"):
        parts.append(_weights(fields, weight_bytes, weight_type))
    if fields.measured in ("kv_cache", "total"):
        cache, cache_notes = _kv_cache(fields, cache_bytes, cache_type)
        parts.append(cache)
        notes.extend(cache_notes)
    total = sum(part.bytes for part in parts)
    what = " + ".join(part.formula for part in parts)

    printed = fields.claimed
    unit = printed.unit
    assert unit is not None
    counterpart = UNITS[_COUNTERPART[unit.symbol]] if unit.symbol in _COUNTERPART else None
    declared_binary = fields.prefixes == "binary" and not unit.binary and counterpart is not None
    read = printed
    if declared_binary and counterpart is not None:
        read = _reread(printed, Unit(unit.symbol, "bytes", counterpart.factor, binary=True))
    assert read.unit is not None
    reading = _reading_text(read.unit, declared_binary)
    details = [f"{what} = {_bytes_text(total)}", *notes]
    if counterpart is not None:
        decimal, binary = (counterpart, unit) if unit.binary else (unit, counterpart)
        details.append(
            f"{_bytes_text(total)} = {_in_unit(total, decimal.symbol)} "
            f"= {_in_unit(total, binary.symbol)}"
        )
    details.append(f"unit reading: {reading}")

    comparison = compare(read, total, context.tolerance)
    if fields.prefixes == "either" and not comparison.ok and counterpart is not None:
        # The lesson never writes KiB/GiB: its GB may be either power; try the other one.
        other = compare(_reread(printed, counterpart), total, context.tolerance)
        if other.ok:
            reading = (
                f"{unit.symbol} read as {_power(counterpart)} (the lesson never writes "
                f"{'KiB/MiB/GiB' if not unit.binary else 'KB/MB/GB'}, so either reading is allowed)"
            )
            details[-1] = f"unit reading: {reading}"
            comparison = other
    outcome = from_comparisons([comparison], what=what, details=details)
    tolerance = f"{comparison.tolerance.reason}; {reading}"
    if comparison.ok:
        message = f"{outcome.message}; {reading}"
        return dataclasses.replace(outcome, message=message, tolerance=tolerance)
    message = f"{outcome.message} ({reading})"
    heads, kv_heads = _whole(fields.heads), _whole(fields.kv_heads)
    if fields.measured != "weights" and heads and kv_heads and kv_heads < heads:
        # A common slip: sizing a GQA cache as if every query head had its own K and V.
        without_gqa = total + (heads / kv_heads - 1) * next(p.bytes for p in parts if p.is_cache)
        readings = [read]
        if fields.prefixes == "either" and counterpart is not None:
            readings.append(_reread(printed, counterpart))
        if any(compare(r, without_gqa, context.tolerance).ok for r in readings):
            message += (
                f"; {printed.text} is the size with {heads} KV heads, but grouped-query "
                f"attention caches only {kv_heads}"
            )
    if fields.measured == "kv_cache":
        message += _left_out(fields, total, printed, read, counterpart, context)
    if counterpart is not None:
        # The same digits under the other prefix: decimal ↔ binary, or the SI meaning against
        # the lesson's own binary definition.
        other_unit = unit if declared_binary else counterpart
        if compare(_reread(printed, other_unit), total, context.tolerance).ok:
            if declared_binary:
                meaning = (
                    f"means {_power(other_unit)}, but the lesson defines it as {_power(read.unit)}"
                )
            else:
                meaning = f"means {other_unit.symbol} ({_power(other_unit)})"
            own = f"{_power(read.unit)} (the lesson's definition)" if declared_binary else None
            message = (
                f"{what} = {_bytes_text(total)} = {_in_unit(total, other_unit.symbol)}: "
                f"{printed.text} matches only if {unit.symbol} {meaning}; "
                f"in {unit.symbol} of {own or _power(read.unit)} it is {comparison.corrected}"
            )
    return dataclasses.replace(outcome, message=message, tolerance=tolerance)
