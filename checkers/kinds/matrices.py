"""Printed vectors and matrices in claims, and several checks folded into one Outcome.

Shared by the kinds whose claims are shaped like matrices (projection, scores, softmax,
masked_softmax, attention): the claim-field types that keep each printed entry's precision, row
lookup by 0-based index or token name, compact number formatting, and :func:`combine`, which
turns a list of individual checks into one Outcome with one readable message.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

from pydantic import PlainValidator, WithJsonSchema

from checkers.kinds.base import (
    PRINTED_VECTOR_SCHEMA,
    Context,
    Outcome,
    PrintedVector,
    from_comparisons,
)
from checkers.numbers import Comparison, NumberError, Printed, compare, parse_printed_vector

__all__ = [
    "Check",
    "Matrix",
    "PrintedMatrix",
    "PrintedRows",
    "Row",
    "combine",
    "divisor_checks",
    "number_text",
    "printed_text",
    "resolve_row",
    "select_rows",
    "vector_text",
    "with_decimals",
]


Row = tuple[Printed, ...]
Matrix = tuple[Row, ...]


def _printed_matrix(value: Any) -> Matrix:
    if isinstance(value, tuple) and all(isinstance(row, tuple) for row in value):
        return value
    if not isinstance(value, list) or not value:
        raise ValueError("expected a matrix as a list of rows, e.g. [[0.1, 0.2], [0.3, 0.4]]")
    rows: list[Row] = []
    for index, row in enumerate(value):
        if not isinstance(row, (list, str)):
            raise ValueError(
                f"row {index} of the matrix is {row!r}; each row must be a list such as "
                "[0.1, 0.2] (a flat list is a vector, not a matrix)"
            )
        try:
            rows.append(parse_printed_vector(row))
        except NumberError as problem:
            raise ValueError(f"row {index}: {problem.message}") from None
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ValueError(
            "every row of a matrix needs the same number of entries, got rows of "
            + ", ".join(str(len(row)) for row in rows)
        )
    return tuple(rows)


PrintedMatrix = Annotated[
    Matrix,
    PlainValidator(_printed_matrix),
    WithJsonSchema(
        {"title": "printed matrix", "type": "array", "minItems": 1, "items": PRINTED_VECTOR_SCHEMA}
    ),
]
"""A claim field holding a matrix of printed numbers: a list of equally long rows."""

PrintedRows = PrintedMatrix | dict[int | str, PrintedVector]
"""Printed rows of a matrix: all of them as a list, or some of them as row key → row, where a
key is a token name from ``tokens`` or a 0-based row index."""


def resolve_row(key: int | str, tokens: Sequence[str], count: int) -> int:
    """The 0-based row a key names: a token from ``tokens`` or an index; ValueError otherwise."""
    if isinstance(key, str) and key in tokens:
        return list(tokens).index(key)
    try:
        index = int(key)
    except ValueError:
        known = ", ".join(tokens) if tokens else "none given"
        raise ValueError(
            f"row key {key!r} is neither a token (tokens: {known}) nor a 0-based row index"
        ) from None
    if not 0 <= index < count:
        raise ValueError(f"row {index} is outside 0..{count - 1}")
    return index


def select_rows(
    rows: Matrix | Mapping[int | str, Row], tokens: Sequence[str], count: int
) -> list[tuple[int, Row]]:
    """(row index, printed row) pairs of a :data:`PrintedRows` field, in the order printed."""
    if isinstance(rows, Mapping):
        return [(resolve_row(key, tokens, count), row) for key, row in rows.items()]
    if len(rows) != count:
        raise ValueError(f"expected {count} printed rows, got {len(rows)}")
    return list(enumerate(rows))


def number_text(value: float, digits: int = 4) -> str:
    """A recomputed value with ``digits`` significant digits: ``0.7966``, ``−∞``."""
    if math.isnan(value):
        return "undefined"
    if math.isinf(value):
        return "−∞" if value < 0 else "∞"
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(0, digits - 1 - magnitude)
    text = f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def vector_text(values: Sequence[float], digits: int = 4) -> str:
    """``[0.7966, 0.992]``."""
    return "[" + ", ".join(number_text(v, digits) for v in values) + "]"


def printed_text(row: Sequence[Printed]) -> str:
    """A printed row as the lesson wrote it: ``[0.62, 0.81]``."""
    return "[" + ", ".join(p.text for p in row) + "]"


@dataclass(frozen=True)
class Check:
    """One printed quantity (a number or a row) against its recomputation."""

    label: str
    """What it is in the lesson's words: ``Q_追``, ``score(猫, 追)``, ``row 2``."""
    comparisons: tuple[Comparison, ...]
    """Element-by-element comparisons, in printed order."""
    vector: bool = False
    """True for a row (compared element by element), False for one number."""
    how: str = ""
    """How it was recomputed (``x_追·W``, ``0.58×0.71 + 0.74×0.52``), shown in messages."""
    problem: str = ""
    """When set, the check fails with this message whatever the comparisons say."""
    element_names: tuple[str, ...] = ()
    """Names of the elements of a row for messages; ``label[j]`` when empty."""
    note: str = ""
    """An extra remark (which printed inputs a value follows from, a hint about order), shown in
    the details line and after a failure's message."""

    @property
    def ok(self) -> bool:
        """True when every element is a correct rounding and there is no problem."""
        return not self.problem and all(c.ok for c in self.comparisons)

    def corrected(self) -> str:
        """The recomputed value, written as the lesson would print it."""
        parts = [c.corrected for c in self.comparisons]
        return "[" + ", ".join(parts) + "]" if self.vector else parts[0]

    def printed(self) -> str:
        """The value as printed."""
        parts = [c.printed.text for c in self.comparisons]
        return "[" + ", ".join(parts) + "]" if self.vector else parts[0]

    def full(self) -> str:
        """The recomputed value in full and as it should be printed: ``0.7966 → 0.80``."""
        if not self.vector:
            return self.comparisons[0].describe()
        values = [c.recomputed / c.printed.scale for c in self.comparisons]
        return f"{vector_text(values)} → {self.corrected()}"

    def _element(self, index: int) -> str:
        if index < len(self.element_names):
            return self.element_names[index]
        return f"{self.label}[{index}]"

    def message(self) -> str:
        """One sentence an author understands, for a failing check."""
        if self.problem:
            return self.problem
        how = f" = {self.how}" if self.how else ""
        if not self.vector:
            text = f"{self.label}{how} = {self.full()}, not {self.printed()}"
            return f"{text}; {self.note}" if self.note else text
        wrong = ", ".join(
            f"{self._element(j)}: {c.printed.text} should be {c.corrected}"
            for j, c in enumerate(self.comparisons)
            if not c.ok
        )
        text = f"{self.label}{how} = {self.corrected()}, not {self.printed()} ({wrong})"
        return f"{text}; {self.note}" if self.note else text

    def line(self) -> str:
        """A details line, pass or fail."""
        how = f" = {self.how}" if self.how else ""
        verdict = "ok" if self.ok else "WRONG"
        text = f"{verdict}: {self.label}{how} = {self.full()} (printed {self.printed()})"
        if self.problem:
            text += f" — {self.problem}"
        if self.note:
            text += f"; {self.note}"
        return text

    def corrections(self) -> tuple[tuple[str, str], ...]:
        """(printed, corrected) for each wrong element, in printed order."""
        return tuple(
            (c.printed.text, c.corrected)
            for c in self.comparisons
            if not c.ok or (self.problem and c.printed.text != c.corrected)
        )


def combine(
    items: Sequence[Check | str],
    *,
    what: str,
    details: Sequence[str] = (),
    value: float | tuple[float, ...] | None = None,
    pass_note: str = "",
    claimed: str | None = None,
    expected: str | None = None,
    tolerance: str | None = None,
) -> Outcome:
    """One Outcome from several checks and problems (strings), reported in the given order.

    The claimed/expected/tolerance texts come from :func:`from_comparisons` over every compared
    element, so they read like any other kind's; the verdict fails when any check fails or any
    problem is listed.
    """
    checks = [item for item in items if isinstance(item, Check)]
    comparisons = [c for check in checks for c in check.comparisons]
    base = (
        from_comparisons(comparisons, what=what, vector=len(comparisons) > 1)
        if comparisons
        else None
    )
    claimed_text = claimed if claimed is not None else (base.claimed if base else "")
    expected_text = expected if expected is not None else (base.expected if base else "")
    tolerance_text = tolerance if tolerance is not None else (base.tolerance if base else "")
    if value is None and base is not None:
        value = base.value
    failures = [
        item.message() if isinstance(item, Check) else item
        for item in items
        if isinstance(item, str) or not item.ok
    ]
    all_details = tuple([check.line() for check in checks] + list(details))
    if not failures:
        message = f"{what} holds ({tolerance_text})" if tolerance_text else f"{what} holds"
        if pass_note:
            message += f"; {pass_note}"
    else:
        shown = failures[:3]
        message = "; ".join(shown)
        if len(failures) > len(shown):
            message += f"; and {len(failures) - len(shown)} more (see details)"
            all_details = (*all_details, *failures)
    return Outcome(
        verdict="fail" if failures else "pass",
        claimed=claimed_text,
        expected=expected_text,
        tolerance=tolerance_text,
        message=message,
        corrections=tuple(pair for check in checks if not check.ok for pair in check.corrections()),
        details=all_details,
        value=value,
    )


def with_decimals(printed: Printed, decimals: int) -> Printed:
    """The same printed number read at ``decimals`` decimals (its text unchanged)."""
    return replace(printed, decimals=decimals)


def divisor_checks(
    divide_by: Printed | None, scale: str, d_k: int | None, width: int, context: Context
) -> tuple[float, str, list[Check]]:
    """The divisor to use, its text for messages, and a check that a printed √d_k is right.

    ``divide_by`` is used as printed (the lesson divided by 1.41, not by 1.41421…); when d_k is
    also stated, the printed divisor must itself be √d_k at its printed precision.
    """
    checks: list[Check] = []
    if divide_by is not None:
        if d_k is not None:
            root = math.sqrt(d_k)
            checks.append(
                Check(f"√d_k (d_k = {d_k})", (compare(divide_by, root, context.tolerance),))
            )
        return divide_by.value, _bare(divide_by.text), checks
    if scale == "sqrt_dk":
        dimension = d_k if d_k is not None else width
        return math.sqrt(dimension), f"√{dimension}", checks
    return 1.0, "", checks


def _bare(text: str) -> str:
    """A printed number without its "about" mark: ``≈1.41`` → ``1.41``."""
    return re.sub(r"^(?:≈|~|∼|约|大约|about\s)\s*", "", text)
