"""Drafting claims from lesson text: Markdown → blocks → recognisers → draft claims.

``lessoncheck scan`` checks the drafts at once; ``lessoncheck extract`` writes them into
``claims/<lesson>.yaml`` for review (see :mod:`checkers.extract.merge`).
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import re
from typing import Any

from pydantic import ValidationError

from checkers.claims import ClaimHeader
from checkers.extract.document import Document, parse_document
from checkers.extract.draft import Draft
from checkers.extract.recognizers import ALL_RECOGNIZERS, may_draft
from checkers.kinds import ALL_KINDS
from checkers.kinds.base import KindInput
from checkers.lesson import MAX_OCCURRENCES, Lesson, fold_text

__all__ = ["Draft", "claim_id", "draft_claims", "drafts_of", "to_claim_data"]

MAX_DRAFTS = 2000
"""Most drafts one lesson may produce; beyond that the lesson is not prose a person reads (the
longest real lesson has 50). Checking, merging and writing drafts costs
about 3 ms each, so this also bounds ``scan`` and ``extract`` on a hostile lesson."""


def draft_claims(text: str) -> list[Draft]:
    """Every draft the recognisers find in a lesson, in lesson order, duplicates removed."""
    return drafts_of(parse_document(text))


def drafts_of(document: Document) -> list[Draft]:
    """:func:`draft_claims` of an already parsed lesson (``scan --stats`` reads it again)."""
    drafts: list[Draft] = []
    seen: set[tuple[str, str, int, str]] = set()
    claimed: set[tuple[int, str]] = set()  # (line, claimed value) drafted so far
    folded = document.caseless  # what each recogniser's NEEDS are looked for in
    known: dict[int, bool] = {}
    for recognizer in ALL_RECOGNIZERS.values():
        if not may_draft(recognizer, folded, known):
            continue
        defers = getattr(recognizer, "DEFERS", False)
        for draft in recognizer.recognize(document):
            key = (
                draft.kind,
                fold_text(draft.quote),
                draft.line,
                repr(sorted(draft.fields.items())),
            )
            value = (draft.line, _bare(draft.fields.get("claimed")))
            if key in seen or (defers and value in claimed):
                continue  # a deferring recogniser leaves a value another one checks to it
            if _says_truncated(document, draft):
                continue
            checked = _checked_input(draft)
            if checked is None:
                continue
            seen.add(key)
            claimed.add(value)
            drafts.append(dataclasses.replace(draft, checked=checked))
            if len(drafts) >= MAX_DRAFTS:  # stop every recogniser, not just this one
                return sorted(drafts, key=lambda d: d.line)
    return sorted(drafts, key=lambda d: d.line)


def _bare(claimed: object) -> str:
    """A claimed value without the marks of an approximate one (``≈ 1.44`` is ``1.44``)."""
    return _APPROXIMATE.sub("", str(claimed)).replace(" ", "")


_APPROXIMATE = re.compile(r"^\s*(?:≈|~|∼|约|about|roughly)\s*")
_TRUNCATED = re.compile(
    r"^[^.;。；!?！？\n]{0,40}?(?:\bcut\b|\btruncat\w*|\brounded?\s+down|\bfloor(?:ed)?\b|"
    r"\bchopp?\w*|截断|截去|舍去|去尾|向下取整)",
    re.IGNORECASE,
)
"""Words right after a claimed value, in its clause, saying it is cut rather than rounded
("about 7.3 if you cut rather than round", "0.19（截断）")."""


def _says_truncated(document: Document, draft: Draft) -> bool:
    """A statement that says its value is truncated states the reading it uses; the printed
    digits then mean "at least this", a reading the kinds' rounding tolerance does not model,
    so no claim is drafted rather than one failing what the author said on purpose."""
    line = document.source_line(draft.line)
    if not line:
        return False
    tail = draft.quote.rstrip()[-12:]
    at = line.find(tail) if tail else -1
    after = line[at + len(tail) :] if at >= 0 else ""
    return bool(after) and _TRUNCATED.search(after) is not None


def _checked_input(draft: Draft) -> KindInput | None:
    """The draft's validated input, or None when its kind would refuse the claim. A recogniser
    reads a table cell such as ``00`` layers or ``1,2801`` as a number, or quotes a
    6 000-character row; a draft the kind then refuses would make ``scan`` report an input
    error for an odd lesson line, and ``extract`` write a claim file that does not load. Such
    drafts are dropped."""
    kind = ALL_KINDS.get(draft.kind)
    if kind is None:
        return None
    header: dict[str, Any] = {
        "id": "draft",
        "kind": draft.kind,
        "quote": draft.quote,
        "origin": "auto",
    }
    try:
        if draft.tolerance:
            header["tolerance"] = dict(draft.tolerance)
        ClaimHeader.model_validate({**header, "confidence": round(draft.confidence, 2)})
        return kind.Input.model_validate(draft.fields)
    except (ValidationError, ValueError, TypeError, ArithmeticError):
        return None


def _slug(text: str, limit: int = 32) -> str:
    ascii_only = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("×", "x").replace(".", "-"))
    return ascii_only.strip("-")[:limit].strip("-") or "claim"


def claim_id(draft: Draft) -> str:
    """A readable id that stays the same while the quoted text stays the same."""
    digest = hashlib.sha1(fold_text(draft.quote).encode("utf-8")).hexdigest()[:6]
    return f"{draft.recognizer}-{_slug(draft.slug or draft.quote)}-{digest}"


def _occurrence(lesson: Lesson, draft: Draft, cache: dict[str, list[int]]) -> int | None:
    """Which occurrence of the quote is the one at the draft's line (None when unique).

    ``cache`` keeps each quote's occurrence lines, so 5 000 drafts of one repeated sentence
    turn offsets into lines once, not 5 000 times.
    """
    needle = fold_text(draft.quote)
    lines = cache.get(needle)
    if lines is None:
        starts = lesson.occurrences(needle)[:MAX_OCCURRENCES]
        lines = cache[needle] = [lesson.position(lesson.source_offset(s))[0] for s in starts]
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
        if draft.note:
            data["note"] = draft.note
        if draft.tolerance:
            data["tolerance"] = dict(draft.tolerance)
        occurrence = _occurrence(lesson, draft, occurrences)
        if occurrence is not None:
            data["occurrence"] = occurrence
        data.update(draft.fields)
        claims.append(data)
    return claims
