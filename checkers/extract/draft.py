"""What a recogniser produces: a draft claim of an existing kind, with a quote and a confidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from checkers.kinds.base import KindInput

__all__ = ["Draft"]


@dataclass(frozen=True)
class Draft:
    """A claim drafted from lesson text, not yet reviewed by a person."""

    kind: str
    """The claim kind that checks it (a key of ``checkers.kinds.ALL_KINDS``)."""
    quote: str
    """Lesson text the claim checks, as written (whitespace may differ)."""
    line: int
    """1-based lesson line where the quote starts (used to pick the right occurrence)."""
    fields: dict[str, Any] = field(default_factory=dict)
    """The kind's fields, numbers as printed strings."""
    confidence: float = 0.5
    """How sure the recogniser is that this is a claim the lesson makes (0–1)."""
    recognizer: str = ""
    """Which recogniser drafted it."""
    slug: str = ""
    """A short readable name for the claim id (``score-0-58x0-71``)."""
    note: str = ""
    """Where each input of a drafted relation was read, for the reader of its verdict
    (``heads 32 (line 12), head_dim 128 (line 12), fp16 (line 13)``); written into the claim's
    ``note`` and shown in the message of an unreviewed claim's finding."""
    tolerance: dict[str, Any] | None = None
    """A tolerance the statement's own conventions set, with its reason (``{"absolute": 0.25,
    "reason": …}``), written as the claim's ``tolerance:``; None: the printed precision."""
    inputs: tuple[tuple[int, str], ...] = ()
    """Other statements of the lesson the check reads its inputs from, as (1-based line, text
    as written on that line): ``params = 13e9`` for ``weights = params * 2  # 26 GB``. Their
    numbers count as checked in ``scan --stats``, as the numbers of the quote do."""
    counted: tuple[tuple[int, str], ...] | None = None
    """The statements of the quote whose numbers count as checked in ``scan --stats``, as (1-based
    line, text as written on that line), when not all of the quote's do: a calculation worked
    over lines quotes each line's restated left side (the ``1`` of ``f(1) =``) with its steps,
    and no wrong value there would fail the check. None: every number of the quote counts."""
    checked: KindInput | None = field(default=None, compare=False, repr=False)
    """The kind's validated input for ``fields``, once :func:`checkers.extract.draft_claims`
    accepted the draft (so ``scan`` does not validate it a second time)."""
