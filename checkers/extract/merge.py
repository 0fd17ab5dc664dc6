"""Merging drafted claims into a claim file without disturbing what people wrote.

``lessoncheck extract`` must be safe to run again and again: it adds new drafts (marked
``origin: auto``), never rewrites a reviewed claim or a comment (ruamel.yaml keeps the file's
layout on a round trip), drops auto claims whose quote vanished from the lesson and reports
reviewed ones that did. Running it twice in a row changes nothing.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from checkers.lesson import AnchorError, Lesson, fold

__all__ = ["MergeResult", "merge_claims"]


@dataclass
class MergeResult:
    """What merging drafts into one claim file did (or, with ``--check``, would do)."""

    path: Path
    """The claim file."""
    text: str
    """The new file content."""
    changed: bool
    """True when ``text`` differs from the file on disk."""
    added: list[str] = field(default_factory=list)
    """Ids of drafts added."""
    removed: list[str] = field(default_factory=list)
    """Ids of auto claims dropped because their quote left the lesson."""
    vanished: list[str] = field(default_factory=list)
    """Ids of reviewed claims whose quote left the lesson (kept; they fail as stale)."""


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.width = 4096  # quotes are long single lines; never fold them
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True
    return yaml


def _place(lesson: Lesson, claim: dict[str, Any]) -> tuple[str, int]:
    """(folded quote, lesson line) of an existing claim; line 0 when it does not anchor."""
    quote = str(claim.get("quote", ""))
    occurrence = claim.get("occurrence")
    try:
        line = lesson.anchor(quote, int(occurrence) if occurrence else None).line
    except (AnchorError, ValueError):
        line = 0
    return fold(quote)[0], line


def _covered(place: tuple[str, int], existing: Sequence[tuple[str, int]]) -> bool:
    """A draft is covered by a claim that quotes the same text (or more of it) at the same line,
    so a hand-written claim is never shadowed by an auto draft of the same sentence."""
    quote, line = place
    return any(
        (quote in other or other in quote) and (other_line in (line, 0) or line == 0)
        for other, other_line in existing
        if other
    )


def merge_claims(
    claims_path: Path,
    lesson_ref: str,
    lesson: Lesson,
    drafts: Sequence[tuple[dict[str, Any], int]],
) -> MergeResult:
    """Merge drafted claim mappings (with their lesson lines) into ``claims_path``."""
    yaml = _yaml()
    old_text = claims_path.read_text(encoding="utf-8") if claims_path.exists() else ""
    document = yaml.load(old_text) if old_text.strip() else None
    if not isinstance(document, CommentedMap):
        document = CommentedMap()
        document["lesson"] = lesson_ref
    claims = document.get("claims")
    if not isinstance(claims, CommentedSeq):
        claims = CommentedSeq(list(claims) if isinstance(claims, list) else [])
        document["claims"] = claims
    result = MergeResult(claims_path, old_text, False)

    kept = CommentedSeq()
    for claim in claims:
        quote = claim.get("quote") if isinstance(claim, dict) else None
        if isinstance(quote, str) and fold(quote)[0] not in lesson.folded:
            identifier = str(claim.get("id"))
            if claim.get("origin") == "auto":
                result.removed.append(identifier)
                continue
            result.vanished.append(identifier)
        kept.append(claim)
    if result.removed:
        document["claims"] = claims = kept

    covered = [_place(lesson, c) for c in claims if isinstance(c, dict)]
    existing_ids = {str(c.get("id")) for c in claims if isinstance(c, dict)}
    for draft, line in drafts:
        place = (fold(draft["quote"])[0], line)
        if draft["id"] in existing_ids or _covered(place, covered):
            continue
        claims.append(CommentedMap(draft))
        existing_ids.add(draft["id"])
        covered.append(place)
        result.added.append(draft["id"])

    stream = io.StringIO()
    yaml.dump(document, stream)
    result.text = stream.getvalue()
    result.changed = result.text != old_text
    return result
