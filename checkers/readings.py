"""The readings of a printed statement's units that a reader applies without thinking.

The rule every verdict follows: a statement fails only when it is wrong under every reasonable
reading, and its message names the reading that made it pass, or the readings tried when it
fails. The readings of a *printed number* live in :mod:`checkers.numbers` (its digits, with
significant figures under ``≈`` in :func:`~checkers.numbers.significant_digits`, and scientific
literals such as ``6×10^6`` read as one number by :func:`~checkers.numbers.group_scientific`).
This module holds the readings of the *unit names* an expression uses, which change what the
whole statement computes:

* the byte prefixes ``KB MB GB TB PB``: powers of 1000 (SI) or of 1024, as many lessons use
  them (``KiB``, ``MiB``… always mean 1024);
* ``k``/``K`` after a count (``256k`` tokens, drafted as ``256*kilo``): 1000, or 1024 as token
  counts and context lengths are often meant (256k = 262,144);
* in a lesson that computes in a floating-point type (``float32``, ``fp16``, ``bf16``), the
  literals as that type stores them, where that differs from the printed value: a literal
  outside the type's normal range is rounded to a subnormal, flushed to 0 or overflows
  (``log(1e-45)`` in float32 is log(1.401e-45) = −103.28). Within the normal range the type
  changes a literal by less than its printed digits can show, so nothing else is re-read.

Readings are tried in the order :func:`unit_readings` gives, the plainest first (every prefix
decimal), so a statement right under it never mentions the others.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from checkers.data import dtype_table
from checkers.expr import Binary, Call, Name, Node, Number, Unary, Vector
from checkers.numbers import byte_units

__all__ = [
    "FLOAT_TYPES",
    "KILO",
    "Reading",
    "changed_by_storage",
    "float_type",
    "float_type_names",
    "stored",
    "stored_differently",
    "unit_readings",
]

_NORMAL_RANGE = {
    "fp32": (float(np.finfo(np.float32).tiny), float(np.finfo(np.float32).max)),
    "fp16": (float(np.finfo(np.float16).tiny), float(np.finfo(np.float16).max)),
    "bf16": (2.0**-126, float.fromhex("0x1.fep127")),
}
"""Smallest normal and largest finite value of each floating-point type (by its name in
``checkers/data/dtypes.yaml``) whose storage :func:`stored` rounds to."""
FLOAT_TYPES: tuple[str, ...] = tuple(_NORMAL_RANGE)
"""The floating-point types a lesson may compute in, as ``dtypes.yaml`` names them."""
_NUMPY_TYPES = {"fp32": np.float32, "fp16": np.float16}


def float_type(written: str) -> str | None:
    """The floating-point type a lesson's word names (``float32`` → ``fp32``), or None."""
    entry = dtype_table().find(written)
    return entry.name if entry is not None and entry.name in _NORMAL_RANGE else None


def float_type_names() -> tuple[str, ...]:
    """Every way lessons write a type of :data:`FLOAT_TYPES`, longest first."""
    return tuple(name for name in dtype_table().written if float_type(name) is not None)


def stored(value: float, dtype: str) -> float:
    """``value`` as ``dtype`` (fp32, fp16 or bf16) stores it, rounded to nearest even."""
    if dtype == "bf16":
        bits = int(np.array(value, dtype=np.float32).view(np.uint32))
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return float(np.array(bits, dtype=np.uint32).view(np.float32))
    with np.errstate(over="ignore"):
        return float(np.array(value, dtype=_NUMPY_TYPES[dtype]))


def stored_differently(value: float, dtype: str) -> bool:
    """True when ``dtype`` stores ``value`` as something else than a rounding the printed
    digits hide: a non-zero literal outside the type's normal range."""
    low, high = _NORMAL_RANGE[dtype]
    return value != 0 and math.isfinite(value) and not (low <= abs(value) <= high)


def _changed_literals(tree: Node, dtype: str) -> list[Number]:
    found: list[Number] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Number) and stored_differently(float(node.value), dtype):
            found.append(node)
        elif isinstance(node, Binary):
            stack += (node.right, node.left)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Call):
            stack += reversed(node.args)
        elif isinstance(node, Vector):
            stack += reversed(node.items)
    return found


def changed_by_storage(tree: Node, dtype: str) -> bool:
    """True when storing the statement's literals in ``dtype`` changes one of them."""
    return _literals_stored(tree, dtype) != tree


def _literals_stored(node: Node, dtype: str) -> Node:
    """The tree with every literal outside ``dtype``'s normal range as the type stores it."""
    if isinstance(node, Number):
        value = float(node.value)
        if not stored_differently(value, dtype):
            return node
        kept = stored(value, dtype)
        as_stored = Fraction(kept) if math.isfinite(kept) else node.value
        return dataclasses.replace(node, value=as_stored)
    if isinstance(node, Binary):
        left, right = _literals_stored(node.left, dtype), _literals_stored(node.right, dtype)
        return dataclasses.replace(node, left=left, right=right)
    if isinstance(node, Unary):
        return dataclasses.replace(node, operand=_literals_stored(node.operand, dtype))
    if isinstance(node, Call):
        return dataclasses.replace(node, args=tuple(_literals_stored(a, dtype) for a in node.args))
    if isinstance(node, Vector):
        items = tuple(_literals_stored(item, dtype) for item in node.items)
        return dataclasses.replace(node, items=items)
    return node  # names, and ellipsis sums (whose terms are counts)


KILO = "kilo"
"""The name a drafted expression gives the count prefix ``k``/``K`` (``256k`` → ``256*kilo``),
so that each reading can bind it; a claim's own ``where:`` can still define ``kilo``."""


@dataclass(frozen=True)
class Reading:
    """One way to read the unit names of a statement."""

    bytes: Literal["decimal", "binary"]
    """KB, MB, GB, TB, PB as powers of 1000 (``decimal``) or of 1024 (``binary``)."""
    kilo: float = 1000.0
    """What ``kilo`` (a count's ``k``) stands for: 1000, or 1024."""
    stored_as: str = ""
    """The floating-point type whose storage the literals go through, or "" for none."""

    def units(self) -> dict[str, float]:
        """The value of every unit name under this reading."""
        return {**byte_units(self.bytes), KILO: self.kilo}

    def literals(self, tree: Node) -> Node:
        """The parsed statement with its literals as this reading takes them."""
        return _literals_stored(tree, self.stored_as) if self.stored_as else tree

    def describe(self, tree: Node | None = None) -> str:
        """The reading in words, for a verdict's message; ``tree`` (the statement) lets it
        name the literals a storage type changes."""
        parts = ["KB/MB/GB as powers of 1024" if self.bytes == "binary" else ""]
        parts.append(f"k as 1024 ({_kilo_example(tree)})" if self.kilo == 1024 else "")
        if self.stored_as:
            changed = (
                ", ".join(
                    f"{number.text} → {stored(float(number.value), self.stored_as):.4g}"
                    for number in _changed_literals(tree, self.stored_as)
                )
                if tree is not None
                else ""
            )
            parts.append(
                f"literals as {self.stored_as} stores them"
                + (f" ({changed})" if changed else "")
                + f", as the lesson computes in {self.stored_as}"
            )
        return " and ".join(p for p in parts if p) or "SI prefixes (KB = 1000 bytes, k = 1000)"

    def differs_only_in_storage(self, other: Reading) -> bool:
        """True when the two readings take every unit alike."""
        return (self.bytes, self.kilo) == (other.bytes, other.kilo)


def _kilo_example(tree: Node | None) -> str:
    """``32k = 32,768`` for the statement's first count written with k (``32*kilo``), so the
    message shows the reading on its own number; ``256k = 262,144`` without a statement."""
    stack: list[Node] = [tree] if tree is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, Binary):
            if (
                node.op == "*"
                and isinstance(node.left, Number)
                and isinstance(node.right, Name)
                and node.right.name == KILO
            ):
                value = node.left.value * 1024
                shown = f"{int(value):,}" if value == int(value) else f"{float(value):,g}"
                return f"{node.left.text}k = {shown}"
            stack += (node.right, node.left)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Call):
            stack += reversed(node.args)
    return "256k = 262,144"


def unit_readings(
    prefixes: str, *, uses_bytes: bool, uses_kilo: bool, stored_as: tuple[str, ...] = ()
) -> tuple[Reading, ...]:
    """The readings to try, plainest first. ``prefixes`` is a claim's setting: ``decimal`` or
    ``binary`` fixes the byte prefixes, ``either`` allows both; ``uses_bytes`` and
    ``uses_kilo`` say whether the statement has such units at all (else one reading does);
    ``stored_as`` names the floating-point types the statement may be computed in."""
    if prefixes == "binary":
        byte_options: tuple[Literal["decimal", "binary"], ...] = ("binary",)
    elif prefixes == "either" and uses_bytes:
        byte_options = ("decimal", "binary")
    else:
        byte_options = ("decimal",)
    kilo_options = (1000.0, 1024.0) if uses_kilo else (1000.0,)
    plain = tuple(Reading(b, k) for k in kilo_options for b in byte_options)
    return plain + tuple(dataclasses.replace(r, stored_as=t) for t in stored_as for r in plain)
