"""Kind ``scores``: attention scores q·k (optionally divided by √d_k) equal the printed values.

YAML fields:

``q``, ``k``
    One query and one key vector as printed: the claim is the single score q·k.
``Q``, ``K``
    Instead: query rows and key rows (matrices); the claim is the score matrix, entry (i, j) =
    Q[i]·K[j].
``claimed``
    With q and k, one printed score. With Q and K, the printed score rows: a list with one row
    per query, or a mapping query token (or 0-based row) → row when only some rows are printed.
``scale``
    ``none`` (the default) or ``sqrt_dk``: divide by √d_k computed exactly.
``d_k``
    The key dimension (defaults to the length of the vectors); with ``divide_by`` it is also
    checked that the printed divisor is √d_k at its printed precision.
``divide_by``
    The divisor exactly as printed (``1.41``), used as printed, the way the lesson divided.
``dot``
    Optional, single score only: the unscaled dot product as the lesson printed it before
    dividing (``0.78 / 1.41 = 0.55`` has ``dot: 0.78, divide_by: 1.41, claimed: 0.55``). It is
    checked against q·k, and the claimed value may follow from it as printed.
``name``
    Optional name of the single score (``score(猫, 猫)``), for messages.
``tokens``, ``key_tokens``
    Optional names of the query rows and key rows (``key_tokens`` defaults to ``tokens``).

Example::

    kind: scores
    name: score(猫, 猫)
    q: [0.58, 0.74]
    k: [0.71, 0.52]
    claimed: 0.78

Inputs are taken exactly as printed; each claimed score is compared at its printed precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from pydantic import Field, model_validator

from checkers.kinds.base import Context, KindInput, Outcome, PrintedNumber, PrintedVector, error
from checkers.kinds.matrices import (
    Check,
    PrintedMatrix,
    PrintedRows,
    Row,
    combine,
    divisor_checks,
    number_text,
    select_rows,
)
from checkers.numbers import Printed, compare

__all__ = ["Input", "check"]


class Input(KindInput):
    """Fields of a ``scores`` claim."""

    q: PrintedVector | None = None
    """One query vector as printed."""
    k: PrintedVector | None = None
    """One key vector as printed."""
    Q: PrintedMatrix | None = None
    """Query rows as printed (instead of q)."""
    K: PrintedMatrix | None = None
    """Key rows as printed (instead of k)."""
    claimed: PrintedNumber | PrintedRows = Field(union_mode="left_to_right")
    """One printed score (q, k) or printed score rows (Q, K)."""
    scale: Literal["none", "sqrt_dk"] = "none"
    """``sqrt_dk`` divides by √d_k computed exactly."""
    d_k: int | None = Field(default=None, ge=1)
    """The key dimension; defaults to the vectors' length."""
    divide_by: PrintedNumber | None = None
    """The printed divisor (``1.41``), used as printed."""
    dot: PrintedNumber | None = None
    """The unscaled dot product as printed before dividing (single score only)."""
    name: str | None = Field(default=None, max_length=80)
    """The single score's name in the lesson, for messages."""
    tokens: tuple[str, ...] = ()
    """Names of the query rows."""
    key_tokens: tuple[str, ...] = ()
    """Names of the key rows; defaults to ``tokens``."""

    @model_validator(mode="after")
    def _shapes_agree(self) -> Input:
        single = self.q is not None or self.k is not None
        matrix = self.Q is not None or self.K is not None
        if single == matrix:
            raise ValueError("give q and k (one score) or Q and K (a score matrix), not both")
        if single:
            if self.q is None or self.k is None:
                raise ValueError("a single score needs both q and k")
            if len(self.q) != len(self.k):
                raise ValueError(f"q has {len(self.q)} numbers but k has {len(self.k)}")
            if not isinstance(self.claimed, Printed):
                raise ValueError("with q and k, claimed is one printed score")
        else:
            if self.Q is None or self.K is None:
                raise ValueError("a score matrix needs both Q and K")
            if len(self.Q[0]) != len(self.K[0]):
                raise ValueError(
                    f"Q rows have {len(self.Q[0])} numbers but K rows have {len(self.K[0])}"
                )
            if isinstance(self.claimed, Printed):
                raise ValueError("with Q and K, claimed is score rows (a list or token → row)")
            if self.dot is not None:
                raise ValueError("dot applies to a single score (q, k); use one claim per score")
            if self.tokens and len(self.tokens) != len(self.Q):
                raise ValueError(f"tokens names {len(self.tokens)} rows but Q has {len(self.Q)}")
            keys = self.key_tokens or self.tokens
            if keys and len(keys) != len(self.K):
                raise ValueError(f"key_tokens names {len(keys)} rows but K has {len(self.K)}")
            for index, row in select_rows(self.claimed, self.tokens, len(self.Q)):
                if len(row) != len(self.K):
                    raise ValueError(
                        f"score row {index} has {len(row)} entries but there are {len(self.K)} keys"
                    )
        if self.scale == "sqrt_dk" and self.divide_by is not None:
            raise ValueError("give scale: sqrt_dk (exact √d_k) or divide_by (as printed), not both")
        return self


def _dot(q: Sequence[Printed], k: Sequence[Printed]) -> float:
    return math.fsum(a.value * b.value for a, b in zip(q, k, strict=True))


def _working(q: Sequence[Printed], k: Sequence[Printed]) -> str:
    return " + ".join(f"{a.text}×{b.text}" for a, b in zip(q, k, strict=True))


def check(fields: Input, context: Context) -> Outcome:
    """Recompute each score from the printed vectors and compare with the printed values."""
    if fields.q is not None and fields.k is not None:
        return _single(fields, fields.q, fields.k, context)
    if fields.Q is None or fields.K is None or isinstance(fields.claimed, Printed):
        return error("a score matrix needs Q, K and printed score rows")
    divisor, divisor_text, items = divisor_checks(
        fields.divide_by, fields.scale, fields.d_k, len(fields.Q[0]), context
    )
    checks: list[Check | str] = list(items)
    keys = fields.key_tokens or fields.tokens
    values: list[float] = []
    for i, printed_row in select_rows(fields.claimed, fields.tokens, len(fields.Q)):
        query = fields.tokens[i] if fields.tokens else str(i)
        for j, printed in enumerate(printed_row):
            key = keys[j] if keys else str(j)
            raw = _dot(fields.Q[i], fields.K[j])
            value = raw / divisor
            working = _working(fields.Q[i], fields.K[j])
            how = f"Q_{query}·K_{key} = " + (
                f"({working}) / {divisor_text}" if divisor_text else working
            )
            checks.append(
                Check(
                    f"score({query}, {key})", (compare(printed, value, context.tolerance),), how=how
                )
            )
            values.append(value)
    what = "score matrix" + (f" / {divisor_text}" if divisor_text else "")
    return combine(checks, what=what, value=tuple(values))


def _single(fields: Input, q: Row, k: Row, context: Context) -> Outcome:
    if not isinstance(fields.claimed, Printed):
        return error("with q and k, claimed is one printed score")
    divisor, divisor_text, items = divisor_checks(
        fields.divide_by, fields.scale, fields.d_k, len(q), context
    )
    checks: list[Check | str] = []
    name = fields.name or "score"
    raw = _dot(q, k)
    value = raw / divisor
    working = _working(q, k)
    details = [f"q·k = {working} = {number_text(raw)}"]
    if not divisor_text:
        checks.append(
            Check(
                name, (compare(fields.claimed, value, context.tolerance),), how=f"q·k = {working}"
            )
        )
        return combine(checks, what=name, details=details, value=value)
    details.append(
        f"q·k / {divisor_text} = {number_text(raw)} / {divisor_text} = {number_text(value)}"
    )
    dot_ok = True
    if fields.dot is not None:
        dot_check = Check(
            f"{name} before dividing",
            (compare(fields.dot, raw, context.tolerance),),
            how=f"q·k = {working}",
        )
        dot_ok = dot_check.ok
        checks.append(dot_check)
    # In the quote the divisor comes after the dot product ("0.78 / 1.41 = 0.55").
    checks.extend(items)
    scaled = compare(fields.claimed, value, context.tolerance)
    problem = ""
    note = ""
    if not scaled.ok and fields.dot is not None:
        from_printed = compare(fields.claimed, fields.dot.value / divisor, context.tolerance)
        if from_printed.ok and dot_ok:
            # The lesson divided its own (correctly rounded) dot product: a faithful step.
            scaled = from_printed
            note = f"follows from the printed {fields.dot.text} / {divisor_text}"
        elif from_printed.ok:
            problem = (
                f"{name} = {fields.claimed.text} follows from the printed {fields.dot.text} / "
                f"{divisor_text}, but q·k = {number_text(raw)}, so {name} = "
                f"{number_text(raw)} / {divisor_text} = {scaled.describe()}"
            )
    final = Check(
        name,
        (scaled,),
        how=f"q·k / {divisor_text} = ({working}) / {divisor_text}",
        problem=problem,
        note=note,
    )
    checks.append(final)
    return combine(
        checks,
        what=name,
        details=details,
        value=value,
        claimed=fields.claimed.text,
        expected=final.full(),
    )
