"""Kind ``padding_mask``: a padding (attention) mask against the sequence lengths it is built from.

YAML fields:

``lengths``
    The number of real (non-padding) tokens of each sequence, one per printed row of a batch
    mask (``[3, 5]``); for a ``square`` mask, the one sequence's length (``[3]``).
``claimed``
    The mask rows as printed: ``1``/``0``, ``True``/``False``, or an additive form with ``0``
    and ``-inf`` (or a large negative number such as ``-1e9``) in the hidden cells.
``form``
    How the printed cells say "hidden": ``keep_is_1`` (1/True = attend, 0 = padding: Hugging
    Face ``attention_mask``, the boolean mask of PyTorch's ``scaled_dot_product_attention``),
    ``pad_is_1`` (1/True = padding: PyTorch's ``key_padding_mask``), ``additive`` (0 = attend,
    −∞ = hidden, added to the scores), ``masked_scores`` (a score matrix after masking: any
    number is a visible score, −∞ a hidden one) or ``either`` (default: whichever of the first
    three the printed values allow; the message says which matched).
``side``
    Where the padding goes: ``right`` (real tokens first, the usual default), ``left``
    (``padding_side="left"``, for generation) or ``either`` (default).
``square``
    The mask is one sequence's query × key matrix (rows are queries) instead of one row per
    sequence. Every row hides the padding keys; a padding query's own row may hide everything
    as well (both are in use, and both are accepted). ``causal: true`` hides j > i too.

The claim holds when, under one reading (form, side) applied to every row, each printed cell
is what the lengths give: a mask is exact, so there is no tolerance. A failure names the cells
that differ under the reading closest to the printed mask and prints the row it should be.

Example::

    kind: padding_mask
    lengths: [3, 5]
    claimed: [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from checkers.kinds.base import Context, KindInput, Outcome

__all__ = ["Input", "check"]

Form = Literal["keep_is_1", "pad_is_1", "additive", "masked_scores"]
FORM_NAMES: dict[str, str] = {
    "keep_is_1": "1 = attend, 0 = padding (Hugging Face attention_mask)",
    "pad_is_1": "1 = padding, 0 = attend (PyTorch key_padding_mask)",
    "additive": "0 = attend, −∞ = hidden (added to the scores)",
    "masked_scores": "a masked score matrix: −∞ = hidden, a score = visible",
}
"""How a message names each way of writing the mask."""
HIDDEN_ADDITIVE = -1e4
"""An additive cell at or below this hides its key (lessons write −inf, -1e9 or -10000)."""

_TRUE = frozenset({"1", "true", "1.0"})
_FALSE = frozenset({"0", "false", "0.0", "-0", "-0.0"})


def _cell_kind(text: str) -> str:
    """``one``, ``zero`` or ``minus`` (a hidden additive cell); ``other`` for anything else."""
    t = text.strip().lower().replace("−", "-")
    if t in _TRUE:
        return "one"
    if t in _FALSE:
        return "zero"
    if t in {"-inf", "-∞", "-infinity", "float('-inf')", 'float("-inf")'}:
        return "minus"
    try:
        value = float(t)
    except ValueError:
        return "other"
    return "minus" if value <= HIDDEN_ADDITIVE or math.isinf(value) else "other"


class Input(KindInput):
    """Fields of a ``padding_mask`` claim."""

    lengths: tuple[int, ...] = Field(min_length=1, max_length=4096)
    """Real tokens per sequence (one per row; one in all for a square mask)."""
    claimed: tuple[tuple[str, ...], ...] = Field(min_length=1, max_length=4096)
    """The printed mask rows, cell by cell as written."""
    form: Literal["keep_is_1", "pad_is_1", "additive", "masked_scores", "either"] = "either"
    """How hidden cells are written."""
    side: Literal["right", "left", "either"] = "either"
    """Which end of a sequence the padding is on."""
    square: bool = False
    """The mask is one sequence's query × key matrix."""
    causal: bool = False
    """A square mask hides j > i as well (a causal + padding mask)."""

    @field_validator("claimed", mode="before")
    @classmethod
    def _cells_as_text(cls, value: Any) -> Any:
        if isinstance(value, list):
            return tuple(
                tuple(str(c) for c in row) if isinstance(row, list) else row for row in value
            )
        return value

    @model_validator(mode="after")
    def _shapes_agree(self) -> Input:
        width = len(self.claimed[0])
        if any(len(row) != width for row in self.claimed):
            raise ValueError("every mask row needs the same number of cells")
        if any(length < 0 or length > width for length in self.lengths):
            raise ValueError(f"a length must lie between 0 and the row width {width}")
        if self.square:
            if len(self.lengths) != 1 or len(self.claimed) != width:
                raise ValueError("a square mask is one sequence: one length, as many rows as keys")
        elif len(self.lengths) != len(self.claimed):
            raise ValueError(
                f"{len(self.lengths)} lengths for {len(self.claimed)} mask rows: give one per row"
            )
        if self.causal and not self.square:
            raise ValueError("causal applies to a square (query × key) mask")
        bad = [c for row in self.claimed for c in row if _cell_kind(c) == "other"]
        if bad and self.form == "masked_scores":
            bad = [c for c in bad if not _is_number(c)]
        if bad:
            raise ValueError(
                f"a mask cell is 1/0, True/False, 0 or -inf (a score with masked_scores), "
                f"not {bad[0]!r}"
            )
        return self


def _real(length: int, width: int, side: str) -> list[bool]:
    return [j < length if side == "right" else j >= width - length for j in range(width)]


def _expected(fields: Input, side: str, hide_pad_rows: bool) -> list[list[bool]]:
    """Which cells may attend, row by row, under one reading."""
    width = len(fields.claimed[0])
    if not fields.square:
        return [_real(length, width, side) for length in fields.lengths]
    real = _real(fields.lengths[0], width, side)
    return [
        [
            real[j] and (not fields.causal or j <= i) and (real[i] or not hide_pad_rows)
            for j in range(width)
        ]
        for i in range(width)
    ]


def _is_number(text: str) -> bool:
    try:
        float(text.strip().replace("−", "-"))
    except ValueError:
        return False
    return True


def _attends(cell: str, form: Form) -> bool | None:
    """Whether a printed cell lets its row attend under ``form``; None: the form cannot print it."""
    kind = _cell_kind(cell)
    if form == "masked_scores":
        return kind != "minus"
    if kind == "other":
        return None
    if form == "additive":
        return {"zero": True, "minus": False}.get(kind)
    if kind == "minus":
        return None
    return (kind == "one") == (form == "keep_is_1")


def _written(attend: bool, form: Form, printed: str) -> str:
    """The cell as ``form`` writes it; a visible score keeps its printed value (``?`` where the
    lesson hid it, as its value is not given)."""
    if form == "masked_scores":
        if not attend:
            return "-inf"
        return printed if _cell_kind(printed) != "minus" else "?"
    if form == "additive":
        return "0" if attend else "-inf"
    return "1" if attend == (form == "keep_is_1") else "0"


def _rows_text(rows: Sequence[Sequence[str]]) -> str:
    return "[" + ", ".join("[" + ", ".join(row) + "]" for row in rows) + "]"


def check(fields: Input, context: Context) -> Outcome:
    """Rebuild the mask from the lengths under each allowed reading and compare cell by cell."""
    del context  # a mask is exact: no printed precision applies
    forms: tuple[Form, ...] = (
        ("keep_is_1", "pad_is_1", "additive") if fields.form == "either" else (fields.form,)
    )
    sides = ("right", "left") if fields.side == "either" else (fields.side,)
    pad_rows = (False, True) if fields.square else (False,)
    best: tuple[int, Form, str, bool, list[tuple[int, int]]] | None = None
    # Right padding (the usual default) is tried under every form before left padding.
    for side, form, hide in product(sides, forms, pad_rows):
        attends = [[_attends(c, form) for c in row] for row in fields.claimed]
        if any(a is None for row in attends for a in row):
            continue  # e.g. −inf under a 1/0 reading
        expected = _expected(fields, side, hide)
        wrong = [
            (i, j)
            for i, row in enumerate(expected)
            for j, cell in enumerate(row)
            if attends[i][j] != cell
        ]
        if best is None or len(wrong) < best[0]:
            best = (len(wrong), form, side, hide, wrong)
        if not wrong:
            break
    claimed = _rows_text(fields.claimed)
    lengths = ", ".join(str(n) for n in fields.lengths)
    shape = "query × key mask" if fields.square else "padding mask"
    what = (
        f"the {'causal + ' if fields.causal else ''}{shape} for length"
        f"{'s' if len(fields.lengths) > 1 else ''} {lengths} of {len(fields.claimed[0])}"
    )
    if best is None:
        return Outcome(
            verdict="fail",
            claimed=claimed,
            expected="",
            tolerance="exact (a mask)",
            message=f"{what}: its cells mix 1/0 with −∞, which no way of writing a mask does",
        )
    count, form, side, hide, wrong = best
    expected_rows = [
        [_written(a, form, printed) for a, printed in zip(row, printed_row, strict=True)]
        for row, printed_row in zip(_expected(fields, side, hide), fields.claimed, strict=True)
    ]
    reading = f"{FORM_NAMES[form]}, padding on the {side}"
    if fields.square:
        reading += ", padding queries' rows hidden too" if hide else ", padding keys hidden"
    if not count:
        return Outcome(
            verdict="pass",
            claimed=claimed,
            expected=_rows_text(expected_rows),
            tolerance="exact (a mask)",
            message=f"{what} holds ({reading}; exact: a mask has no rounding)",
        )
    cells = ", ".join(f"row {i} column {j}" for i, j in wrong[:8])
    more = f" and {len(wrong) - 8} more" if len(wrong) > 8 else ""
    rows = sorted({i for i, _ in wrong})
    fixes = "; ".join(
        f"row {i} (length {fields.lengths[0 if fields.square else i]}) should be "
        f"[{', '.join(expected_rows[i])}]"
        for i in rows[:4]
    )
    return Outcome(
        verdict="fail",
        claimed=claimed,
        expected=_rows_text(expected_rows),
        tolerance="exact (a mask)",
        message=(
            f"{what} is wrong under every reading; the closest ({reading}) differs at {cells}"
            f"{more}: {fixes}"
        ),
        corrections=tuple(
            ("[" + ", ".join(fields.claimed[i]) + "]", "[" + ", ".join(expected_rows[i]) + "]")
            for i in rows
            if "?" not in expected_rows[i]
        ),
    )
