"""Merging drafted claims into a claim file without disturbing what people wrote.

``lessoncheck extract`` must be safe to run again and again: it adds new drafts (marked
``origin: auto``) after the last claim, drops auto claims whose quote vanished from the lesson
and reports reviewed ones that did. Everything else in the file stays byte for byte: reviewed
claims and their indentation, comments (also of a file that holds nothing else), CRLF line ends,
a byte-order mark, a closing ``...``. Running it twice in a row changes nothing.

The file is read by the reader ``check`` uses (:mod:`checkers.safeyaml`), which also tells where
each claim is written (:func:`checkers.safeyaml.layout`); the edit is made on the text itself,
whole lines at a time, and the new text is read back and compared with what was meant before
anything is written. A YAML round trip (ruamel.yaml, which this replaced) re-indents claims to its
own style, loses line ends, a byte-order mark or a comment-only file's comment, and refuses texts
``check`` reads; here PyYAML's emitter only renders the new claims, which are our own data.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

from checkers import safeyaml
from checkers.claims import HEADER_FIELDS
from checkers.lesson import AnchorError, Lesson, fold

__all__ = ["MergeRefused", "MergeResult", "merge_claims"]

BOM = "\ufeff"


@dataclass
class MergeResult:
    """What merging drafts into one claim file did (or, with ``--check``, would do)."""

    path: Path
    """The claim file."""
    text: str
    """The new file content (with the byte-order mark the file had)."""
    changed: bool
    """True when ``text`` differs from the file on disk."""
    added: list[str] = field(default_factory=list)
    """Ids of drafts added."""
    removed: list[str] = field(default_factory=list)
    """Ids of auto claims dropped because their quote left the lesson."""
    vanished: list[str] = field(default_factory=list)
    """Ids of reviewed claims whose quote left the lesson (kept; they fail as stale)."""
    note: str = ""
    """Why the claim file is not the lesson's usual one (another lesson's claims are there)."""


class MergeRefused(ValueError):
    """The claim file's claims cannot be edited in place; says where and what to do instead."""


Span = tuple[int, int]
"""Source (start, end) offsets of the lesson text a quote anchors to."""


def _checked(value: Any) -> Any:
    """A field's value as a comparison of two claims sees it, hashable: every number as the
    same canonical text (``0.10``, ``0.1`` and the YAML float 0.1 alike; a draft writes numbers
    as strings, a person as numbers), lists and mappings element by element, other text folded."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_checked(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((str(key), _checked(item)) for key, item in value.items()))
    text = str(value).strip().replace("−", "-")
    try:
        # str of the normalised value: 10, 10.0 and 1e1 all read 1E+1, and 1e999999 stays short
        return str(Decimal(text.replace(",", "")).normalize())
    except (InvalidOperation, ValueError):
        return fold(text)[0].strip()


class _FieldIndex:
    """Which existing claims hold each (kind, field, value), so that a draft asks in one
    lookup per field whether a claim already checks everything it would (a claim file of
    10 000 claims and 2 000 drafts must not compare every pair)."""

    def __init__(self, claims: Sequence[Any]) -> None:
        self._holding: dict[tuple[Any, str, Any], set[int]] = {}
        for index, claim in enumerate(claims):
            if isinstance(claim, dict):
                self.add(index, claim)

    def add(self, index: int, claim: dict[str, Any]) -> None:
        for key, value in _filled(claim).items():
            try:
                entry = (claim.get("kind"), key, _checked(value))
                self._holding.setdefault(entry, set()).add(index)
            except TypeError:  # an unhashable oddity in a hand-written claim: never matched
                continue

    def checks_nothing_new(self, draft: dict[str, Any]) -> bool:
        """The draft is a claim of the same kind whose every filled field one claim already
        holds with the same value: checking it again would report the same verdict a second
        time (a hand claim quoting the heading of a mask matrix, a draft quoting its first
        row)."""
        fields = _filled(draft)
        holders: set[int] | None = None
        for key, value in fields.items():
            try:
                found = self._holding.get((draft.get("kind"), key, _checked(value)), set())
            except TypeError:
                return False
            holders = found if holders is None else holders & found
            if not holders:
                return False
        return bool(holders)


def _filled(claim: dict[str, Any]) -> dict[str, Any]:
    """A claim's kind fields that hold something."""
    return {
        key: value
        for key, value in claim.items()
        if key not in HEADER_FIELDS and value not in (None, "", [], {})
    }


def _place(lesson: Lesson, claim: dict[str, Any]) -> tuple[str, Span | None]:
    """(folded quote, anchored span) of a claim or draft; no span when its quote does not
    anchor (stale, or repeated without ``occurrence:``)."""
    quote = str(claim.get("quote", ""))
    occurrence = claim.get("occurrence")
    try:
        span = lesson.span(quote, int(occurrence) if occurrence else None)
    except (AnchorError, ValueError, TypeError):
        span = None
    return fold(quote)[0], span


def _covered(place: tuple[str, Span | None], existing: Sequence[tuple[str, Span | None]]) -> bool:
    """A draft is covered by a claim that stands on the same stretch of the lesson, on more of
    it or on part of it: a hand-written claim is never shadowed by an auto draft of the same
    statement, whichever line of a wrapped paragraph or fenced block either quote starts on.
    Compared by anchored span (where each quote sits), not by line; a quote that does not
    anchor is compared by its text alone, which errs towards adding nothing."""
    quote, span = place
    for other, other_span in existing:
        if not other:
            continue
        if span is not None and other_span is not None:
            inner, outer = sorted((span, other_span), key=lambda s: s[1] - s[0])
            if outer[0] <= inner[0] and inner[1] <= outer[1]:
                return True
        elif quote in other or other in quote:
            return True
    return False


def merge_claims(
    claims_path: Path,
    old_text: str | None,
    lesson_ref: str,
    lesson: Lesson,
    drafts: Sequence[dict[str, Any]],
    *,
    verify: bool = True,
) -> MergeResult:
    """Merge drafted claim mappings (as :func:`checkers.extract.to_claim_data` makes them,
    ``occurrence:`` included) into the claim file whose text is ``old_text`` (None when it
    does not exist yet; a leading byte-order mark is kept).

    ``verify`` reads the edited text back before it may be written (:func:`_verify`); a caller
    that only counts what would change (``extract --check``) skips it, since reading back a
    large generated file costs more than the whole merge.

    Raises :class:`checkers.safeyaml.YamlError` when the text is not a claim file ``check``
    reads, and :class:`MergeRefused` when its claims cannot be edited line by line.
    """
    original = old_text or ""
    bom = BOM if original.startswith(BOM) else ""
    text = original[len(bom) :]
    located = safeyaml.load(text)
    data = located.data
    if data is not None and not isinstance(data, dict):
        raise MergeRefused("expected a mapping with `lesson:` and `claims:`")
    claims = data.get("claims") if isinstance(data, dict) else None
    if claims is not None and not isinstance(claims, list):
        raise MergeRefused("`claims:` must be a list of claims")
    claims = claims or []
    result = MergeResult(claims_path, original, False)

    removed: list[int] = []
    for index, claim in enumerate(claims):
        quote = claim.get("quote") if isinstance(claim, dict) else None
        if isinstance(quote, str) and fold(quote)[0] not in lesson.folded:
            if claim.get("origin") == "auto":
                result.removed.append(str(claim.get("id")))
                removed.append(index)
                continue
            result.vanished.append(str(claim.get("id")))
    gone = set(removed)
    kept = [c for i, c in enumerate(claims) if i not in gone]
    covered = [_place(lesson, c) for c in kept if isinstance(c, dict)]
    existing_ids = {str(c.get("id")) for c in kept if isinstance(c, dict)}
    same_fields = _FieldIndex(kept)
    added: list[dict[str, Any]] = []
    for draft in drafts:
        place = _place(lesson, draft)
        if (
            draft["id"] in existing_ids
            or _covered(place, covered)
            or same_fields.checks_nothing_new(draft)
        ):
            continue
        added.append(draft)
        existing_ids.add(draft["id"])
        covered.append(place)
        result.added.append(draft["id"])
    if not added and not removed:
        return result
    rendered = _render(added)
    if old_text is None:
        new_text = _fresh(lesson_ref, rendered)
    else:
        new_text = _edit(text, data, removed, rendered, lesson_ref)
    if verify:
        _verify(new_text, data, kept, rendered, lesson_ref)
    result.text = bom + new_text
    result.changed = result.text != original
    return result


# ------------------------------------------------------------------------------ rendering

_DUMPER: type[Any] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _render(drafts: Sequence[dict[str, Any]]) -> str:
    """The drafts as block-list items, ``- id: …`` / ``  kind: …`` (dash at column 0, content
    at 2), each on lines of its own; strings that read as numbers are quoted."""
    if not drafts:
        return ""
    return str(
        yaml.dump(
            list(drafts),
            Dumper=_DUMPER,
            default_flow_style=False,
            allow_unicode=True,
            sort_keys=False,
            width=1_000_000,  # quotes are long single lines; never fold them
        )
    )


def _fresh(lesson_ref: str, rendered: str) -> str:
    """A new claim file's text with the rendered items, at the usual indentation."""
    header = yaml.dump({"lesson": lesson_ref}, Dumper=_DUMPER, allow_unicode=True, width=1_000_000)
    return str(header) + "claims:\n" + "".join(line + "\n" for line in _reindent(rendered, 2, 4))


def _split(rendered: str) -> list[str]:
    """Lines of text we rendered (``\\n`` ends each; no other character breaks a line there)."""
    return rendered.removesuffix("\n").split("\n") if rendered else []


def _reindent(rendered: str, dash: int, content: int) -> list[str]:
    """Rendered items moved to a file's own columns: its ``-`` at ``dash``, keys at ``content``."""
    lines: list[str] = []
    for line in _split(rendered):
        if line.startswith("- "):  # an item's first line
            lines.append(" " * dash + "-" + " " * (content - dash - 1) + line[2:])
        else:
            lines.append(" " * (content - 2) + line if line else "")
    return lines


# ------------------------------------------------------------------------------ editing

_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")
"""YAML's line breaks (1.1, which both parsers read): a file may use any of them."""
_COMMENT_OR_SPACE = re.compile(r"[ \t]*(#[^\r\n\x85\u2028\u2029]*)?")


class _Lines:
    """Line starts of a text, found once (a file may hold thousands of claims)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(found.end() for found in _BREAK.finditer(text))]
        first = _BREAK.search(text)
        self.newline = first.group() if first else "\n"
        """The file's own line break, used for the lines added."""

    def start_of(self, offset: int) -> int:
        """Offset of the start of the line holding ``offset``."""
        return self.starts[bisect.bisect_right(self.starts, offset) - 1]

    def at_start(self, offset: int) -> bool:
        """True when ``offset`` is the start of a line."""
        return self.start_of(offset) == offset

    def after(self, offset: int) -> int:
        """The start of the next line, unless ``offset`` is already one (or the text's end)."""
        if self.at_start(offset) or offset >= len(self.text):
            return offset
        index = bisect.bisect_right(self.starts, offset)
        return self.starts[index] if index < len(self.starts) else len(self.text)

    def end_of_value(self, offset: int) -> int | None:
        """After a value ending at ``offset``: the start of the next line when only spaces and a
        comment follow on its line, else None (the line holds more than the value)."""
        rest = _COMMENT_OR_SPACE.match(self.text, offset)
        stop = rest.end() if rest else offset
        if stop == len(self.text):
            return stop
        found = _BREAK.match(self.text, stop)
        return found.end() if found else None

    def insert(self, at: int, lines: Sequence[str]) -> str:
        """``lines`` as text to insert at ``at``: a line start, or the end of a text whose last
        line has no line break yet."""
        lead = "" if self.at_start(at) else self.newline
        return lead + "".join(line + self.newline for line in lines)


def _edit(
    text: str,
    data: dict[str, Any] | None,
    removed: Sequence[int],
    rendered: str,
    lesson_ref: str,
) -> str:
    """``text`` with the claims at ``removed`` taken out and the ``rendered`` ones appended after
    the last claim, whole lines only; every other character stays where it was."""
    lines = _Lines(text)
    if data is None:  # empty, or only comments: keep them, append a claim file
        return text + lines.insert(len(text), _split(_fresh(lesson_ref, rendered)))
    layout = safeyaml.layout(text)
    if not layout.values[()].block:
        raise MergeRefused("the file is one {...} mapping; extract edits block mappings only")
    items = layout.values.get(("claims",))
    count = len(data.get("claims") or [])
    if count and (items is None or not items.block):
        raise MergeRefused(
            "`claims:` is written as a [...] list (or an alias); extract adds and removes "
            "claims only in a block list with one `- ` item per claim"
        )
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement), applied last to first
    spans = _item_lines(lines, layout, count)
    if rendered and spans:
        dash, content = _columns(lines, layout, spans[0][0])
        at = spans[-1][1]
        edits.append((at, at, lines.insert(at, _reindent(rendered, dash, content))))
    elif rendered:
        edits.append(_first_items(lines, layout, rendered))
    edits.extend((*spans[index], "") for index in removed)
    if removed and not rendered and len(removed) == count:
        key = layout.keys[("claims",)]
        colon = text.index(":", key.end)
        edits.append((colon + 1, colon + 1, " []"))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _item_lines(lines: _Lines, layout: safeyaml.Layout, count: int) -> list[tuple[int, int]]:
    """For each claim of the block list, the whole lines it is written on: from the start of the
    line of its ``-`` to the start of the line after its last value. Refused unless the ``-``
    starts its line and only a comment follows the value (then those lines are the claim's)."""
    spans: list[tuple[int, int]] = []
    previous = layout.values[("claims",)].start if count else 0
    for index in range(count):
        value = layout.values[("claims", index)]
        dash = _dash(lines.text, previous, value.start)
        start = lines.start_of(dash)
        end = lines.end_of_value(value.end)
        if lines.text[start:dash].strip(" ") or end is None:
            raise MergeRefused(
                f"claim {index + 1} shares a line with other text; extract edits whole lines"
            )
        spans.append((start, end))
        previous = value.end
    return spans


def _dash(text: str, offset: int, limit: int) -> int:
    """Offset of the ``-`` of a block-list item: the first character from ``offset`` (the end of
    the previous item, or the list's start) that is neither space, line break nor comment."""
    position = offset
    while position < limit:
        character = text[position]
        if character == "-":
            return position
        if character == "#":
            found = _BREAK.search(text, position)
            position = found.start() if found else len(text)
        elif character.isspace():
            position += 1
        else:
            break
    raise MergeRefused("a claim's `-` could not be found; extract edits plain block lists")


def _columns(lines: _Lines, layout: safeyaml.Layout, line_start: int) -> tuple[int, int]:
    """(dash column, content column) of the list's first claim, for the claims added after it."""
    first = layout.values[("claims", 0)].start
    dash = _dash(lines.text, layout.values[("claims",)].start, first)
    if lines.start_of(first) != line_start:  # `-` alone on its line: the usual offset
        return dash - line_start, dash - line_start + 2
    return dash - line_start, first - line_start


def _first_items(lines: _Lines, layout: safeyaml.Layout, rendered: str) -> tuple[int, int, str]:
    """The edit that gives an empty (or missing) ``claims:`` its first items."""
    text = lines.text
    key = layout.keys.get(("claims",))
    if key is None:  # no `claims:` at all: add it after the last value of the file
        root = layout.values[()]
        column = root.start - lines.start_of(root.start)
        at = lines.after(root.end)
        body = [" " * column + "claims:", *_reindent(rendered, column + 2, column + 4)]
        return at, at, lines.insert(at, body)
    column = key.start - lines.start_of(key.start)
    colon = text.index(":", key.end)
    value = layout.values.get(("claims",))
    # `claims:`, `claims: []` or `claims: null`: the value goes, the rest of its line stays.
    end = value.end if value is not None and value.end > colon else colon + 1
    rest = _COMMENT_OR_SPACE.match(text, end)
    comment = rest.group(1) if rest and rest.group(1) else ""
    stop = lines.end_of_value(end)
    if stop is None:
        raise MergeRefused("`claims:` shares its line with other text; extract edits whole lines")
    head = text[key.start : colon + 1] + (f"  {comment}" if comment else "")
    body = [head, *_reindent(rendered, column + 2, column + 4)]
    return key.start, stop, "".join(line + lines.newline for line in body)


def _verify(
    new_text: str,
    data: dict[str, Any] | None,
    kept: Sequence[Any],
    rendered: str,
    lesson_ref: str,
) -> None:
    """Read the edited text back: the same file, with exactly the claims meant."""
    expected_added = safeyaml.load("claims:\n" + rendered).data["claims"] if rendered else []
    expected: dict[str, Any] = dict(data) if data else {"lesson": lesson_ref}
    expected["claims"] = [*kept, *expected_added]
    try:
        found = safeyaml.load(new_text).data
    except safeyaml.YamlError as error:
        raise MergeRefused(f"the edited file would not read back ({error.message})") from None
    if found != expected:
        raise MergeRefused("the edited file would not read back as the same claims")
