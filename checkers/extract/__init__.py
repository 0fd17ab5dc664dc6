"""Drafting claims from lesson text: Markdown → blocks → recognisers → draft claims.

``lessoncheck scan`` checks the drafts at once; ``lessoncheck extract`` writes them into
``claims/<lesson>.yaml`` for review (see :mod:`checkers.extract.merge`).
"""

from __future__ import annotations

import bisect
import hashlib
import re
from typing import Any

from pydantic import ValidationError

from checkers.anchors import MAX_OCCURRENCES, Lesson, fold
from checkers.claims import ClaimHeader
from checkers.extract.document import parse_document
from checkers.extract.draft import Draft
from checkers.extract.recognizers import ALL_RECOGNIZERS
from checkers.kinds import ALL_KINDS

__all__ = ["Draft", "claim_id", "draft_claims", "to_claim_data"]

MAX_DRAFTS = 2000
"""Most drafts one lesson may produce; beyond that the lesson is not prose a person reads (the
longest real lesson has 50). Checking, merging (ruamel.yaml) and writing drafts costs
about 3 ms each, so this also bounds ``scan`` and ``extract`` on a hostile lesson."""


def draft_claims(text: str) -> list[Draft]:
    """Every draft the recognisers find in a lesson, in lesson order, duplicates removed."""
    document = parse_document(text)
    drafts: list[Draft] = []
    seen: set[tuple[str, str, int, str]] = set()
    for recognizer in ALL_RECOGNIZERS.values():
        for draft in recognizer.recognize(document):
            key = (draft.kind, fold(draft.quote)[0], draft.line, repr(sorted(draft.fields.items())))
            if key in seen or not _acceptable(draft):
                continue
            seen.add(key)
            drafts.append(draft)
            if len(drafts) >= MAX_DRAFTS:  # stop every recogniser, not just this one
                return sorted(drafts, key=lambda d: d.line)
    return sorted(drafts, key=lambda d: d.line)


def _acceptable(draft: Draft) -> bool:
    """Whether the draft is a claim its kind accepts. A recogniser reads a table cell such as
    ``00`` layers or ``1,2801`` as a number, or quotes a 6 000-character row; a draft the kind
    then refuses would make ``scan`` report an input error for an odd lesson line, and
    ``extract`` write a claim file that does not load. Such drafts are dropped."""
    kind = ALL_KINDS.get(draft.kind)
    if kind is None:
        return False
    header = {"id": "draft", "kind": draft.kind, "quote": draft.quote, "origin": "auto"}
    try:
        ClaimHeader.model_validate({**header, "confidence": round(draft.confidence, 2)})
        kind.Input.model_validate(draft.fields)
    except (ValidationError, ValueError, TypeError, ArithmeticError):
        return False
    return True


def _slug(text: str, limit: int = 32) -> str:
    ascii_only = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("×", "x").replace(".", "-"))
    return ascii_only.strip("-")[:limit].strip("-") or "claim"


def claim_id(draft: Draft) -> str:
    """A readable id that stays the same while the quoted text stays the same."""
    digest = hashlib.sha1(fold(draft.quote)[0].encode("utf-8")).hexdigest()[:6]
    return f"{draft.recognizer}-{_slug(draft.slug or draft.quote)}-{digest}"


def _occurrence(
    lesson: Lesson, draft: Draft, cache: dict[str, list[int]] | None = None
) -> int | None:
    """Which occurrence of the quote is the one at the draft's line (None when unique).

    ``cache`` keeps each quote's occurrence lines (at most MAX_OCCURRENCES, as anchoring
    counts them), so 5 000 drafts of one repeated sentence search the lesson once, not 5 000
    times.
    """
    needle = fold(draft.quote)[0]
    lines = None if cache is None else cache.get(needle)
    if lines is None:
        starts: list[int] = []
        position = lesson.folded.find(needle)
        while position != -1 and len(starts) < MAX_OCCURRENCES:
            starts.append(position)
            position = lesson.folded.find(needle, position + 1)
        lines = [lesson.position(lesson.offsets[s])[0] for s in starts]
        if cache is not None:
            cache[needle] = lines
    if len(lines) <= 1:
        return None
    index = bisect.bisect_left(lines, draft.line)  # the first occurrence at or after the line
    return min(index, len(lines) - 1) + 1


def to_claim_data(lesson: Lesson, drafts: list[Draft]) -> list[dict[str, Any]]:
    """Claim mappings (as a claim file holds them) for the drafts of an already folded lesson,
    ids made unique."""
    claims: list[dict[str, Any]] = []
    used: set[str] = set()
    repeats: dict[str, int] = {}  # how many times each id was taken, so a quote repeated
    occurrences: dict[str, list[int]] = {}  # 5 000 times costs 5 000 steps, not 5 000²
    for draft in drafts:
        identifier = base = claim_id(draft)
        while identifier in used:
            repeats[base] = repeats.get(base, 0) + 1
            identifier = f"{base}-b" if repeats[base] == 1 else f"{base}-b{repeats[base]}"
        used.add(identifier)
        data: dict[str, Any] = {
            "id": identifier,
            "kind": draft.kind,
            "quote": draft.quote,
            "origin": "auto",
            "confidence": round(draft.confidence, 2),
        }
        occurrence = _occurrence(lesson, draft, occurrences)
        if occurrence is not None:
            data["occurrence"] = occurrence
        data.update(draft.fields)
        claims.append(data)
    return claims
