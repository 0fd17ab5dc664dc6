"""Kind ``dtype_spec``: a stated width, byte size, value count or largest value of a number type.

Compares one figure a lesson states about a number type — its bits (``FP16 is a 16-bit
float``), bytes per value (``float32 = 4 bytes``), how many values it can hold (``INT8: 256
possible values``, 2^bits codes) or the largest finite value it represents (``FP16: ±65,504``)
— with ``checkers/data/dtypes.yaml``, where each type names its source (IEEE 754, the FP8
paper). A name that joins several types (``FP16/BF16``) holds when the figure is every one of
theirs. The largest value of ``fp8`` is E4M3's (448) or E5M2's (57,344); a name that does not
say which variant may print either. Compared at the printed precision (``±3.4×10³⁸`` for
3.3895e38 is right to two significant figures).

YAML fields:

``dtype``
    The type as printed: ``FP16``, ``float32``, ``bf16``, ``INT4``; several joined by ``/``
    (``FP16/BF16``).
``quantity``
    ``bits``, ``bytes``, ``values`` or ``largest``.
``value``
    The number as printed (``16``, ``0.5``, ``65,504``, ``3.4×10³⁸``).

Example::

    - id: fp16-largest
      kind: dtype_spec
      quote: "| FP16 | 16 | ±65,504 |"
      dtype: FP16
      quantity: largest
      value: 65,504
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from checkers.data import StorageType, dtype_table
from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, error
from checkers.numbers import Printed, compare

__all__ = ["Input", "check"]

_WORDS = {
    "bits": "width in bits",
    "bytes": "size in bytes",
    "values": "number of values (2^bits codes)",
    "largest": "largest finite value",
}


class Input(KindInput):
    """Fields of a ``dtype_spec`` claim."""

    dtype: str = Field(min_length=2, max_length=60)
    """The number type as printed; several joined by ``/``."""
    quantity: Literal["bits", "bytes", "values", "largest"]
    """Which figure of the type the claim states."""
    value: PrintedNumber
    """The number as printed."""

    @property
    def printed(self) -> Printed:
        """The stated number."""
        return self.value


def _figures(entry: StorageType, quantity: str) -> tuple[float, ...]:
    if quantity == "bits":
        return (float(entry.bits),)
    if quantity == "bytes":
        return (entry.bits / 8,)
    if quantity == "values":
        return (float(2**entry.bits),)
    return entry.largest


def _figure(value: float) -> str:
    return f"{value:.5g}" if value >= 1e6 else f"{value:,.6g}"


def check(fields: Input, context: Context) -> Outcome:
    """The figure must be each named type's (one of fp8's two largest values)."""
    del context
    names = [n.strip() for n in fields.dtype.split("/") if n.strip()]
    entries = [dtype_table().find(n) for n in names]
    missing = [n for n, e in zip(names, entries, strict=True) if e is None]
    if missing or not entries:
        known = ", ".join(dtype_table().names)
        return error(f"{', '.join(missing) or fields.dtype!r} is no known number type ({known})")
    what = _WORDS[fields.quantity]
    printed = fields.value
    tolerance = ""
    for name, entry in zip(names, entries, strict=True):
        assert entry is not None
        figures = _figures(entry, fields.quantity)
        if not figures:
            return error(f"no {what} is defined for {name} in dtypes.yaml", printed.text)
        comparisons = [compare(printed, figure) for figure in figures]
        tolerance = comparisons[0].tolerance.reason
        if not any(c.ok for c in comparisons):
            best = min(comparisons, key=lambda c: abs(c.recomputed - printed.value))
            shown = " or ".join(_figure(f) for f in figures)
            return Outcome(
                verdict="fail",
                claimed=printed.text,
                expected=shown,
                tolerance=tolerance,
                message=f"the {what} of {name} is {shown} ({entry.source}), not {printed.text}",
                corrections=((printed.text, best.corrected),),
                value=best.recomputed,
                severity="slip" if best.slip else "error",
            )
    shown = ", ".join(dict.fromkeys(n for n in names))
    held = _figures(entries[0], fields.quantity) if entries[0] is not None else ()
    return Outcome(
        verdict="pass",
        claimed=printed.text,
        expected=" or ".join(_figure(f) for f in held),
        tolerance=tolerance,
        message=f"{printed.text} is the {what} of {shown} (dtypes.yaml: {entries[0].source})"
        if entries[0] is not None
        else "",
        value=printed.value,
    )
