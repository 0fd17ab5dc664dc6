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
  counts and context lengths are often meant (256k = 262,144).

Readings are tried in the order :func:`unit_readings` gives, the plainest first (every prefix
decimal), so a statement right under it never mentions the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from checkers.numbers import byte_units

__all__ = ["KILO", "Reading", "unit_readings"]

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

    def units(self) -> dict[str, float]:
        """The value of every unit name under this reading."""
        return {**byte_units(self.bytes), KILO: self.kilo}

    def describe(self) -> str:
        """The reading in words, for a verdict's message."""
        parts = ["KB/MB/GB as powers of 1024" if self.bytes == "binary" else ""]
        parts.append("k as 1024 (256k = 262,144)" if self.kilo == 1024 else "")
        return " and ".join(p for p in parts if p) or "SI prefixes (KB = 1000 bytes, k = 1000)"


def unit_readings(prefixes: str, *, uses_bytes: bool, uses_kilo: bool) -> tuple[Reading, ...]:
    """The readings to try, plainest first. ``prefixes`` is a claim's setting: ``decimal`` or
    ``binary`` fixes the byte prefixes, ``either`` allows both; ``uses_bytes`` and
    ``uses_kilo`` say whether the statement has such units at all (else one reading does)."""
    if prefixes == "binary":
        byte_options: tuple[Literal["decimal", "binary"], ...] = ("binary",)
    elif prefixes == "either" and uses_bytes:
        byte_options = ("decimal", "binary")
    else:
        byte_options = ("decimal",)
    kilo_options = (1000.0, 1024.0) if uses_kilo else (1000.0,)
    return tuple(Reading(b, k) for k in kilo_options for b in byte_options)
