"""``report.html``: one self-contained page showing every lesson with its checked claims.

The page opens on an index of the lessons (claims per verdict, the lessons with most problems
first, in the order the lessons follow below). Each lesson appears as its source text
(line-numbered, pre-wrapped, *not* rendered as Markdown, so what you see is exactly what the
claim quotes), with the line of every claim marked pass, fail, slip (only the last printed digit
off), stale, error, suppressed or marked wrong (by the author) by colour *and* a text badge, and
the claim's result underneath: claimed, recomputed, tolerance, message, fix. Passing, suppressed
and marked-wrong claims are collapsed to their header line; the number a fix corrects is
highlighted in the source line and in the fix. A "failures only" checkbox hides what passes and
what is quiet. Everything is inline (CSS, a little JS, no fonts, images or network), so the
file can be opened straight from disk, attached to a CI run or mailed.

Lesson text is untrusted: it is only ever inserted through Jinja2 autoescaping, and a
Content-Security-Policy forbids loading anything.

Hooks for browser tests: ``#failure-count`` holds the number of fail (slips included) + stale +
error findings, ``#filter-failures`` is the checkbox, ``#lesson-index`` the index (a
``tr[data-lesson]`` per lesson), each claim is ``.finding[data-verdict]`` (with ``data-id``,
``data-line`` and ``data-severity``) whose ``id`` is :func:`anchor_id` and whose ``details`` is
open unless it is quiet, a corrected number is ``mark.corrected`` (in the fix) and
``mark.wrong`` (in the line), and the filter sets ``hidden`` on the findings it hides (passing,
suppressed and marked wrong: ``data-quiet``).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from checkers import __version__
from checkers.files import MAX_LESSON_BYTES, inside, not_a_lesson, read_regular_file, write_atomic
from checkers.finding import Finding, summarize
from checkers.report import changed_span, needs_attention, ordered, shown_verdict

__all__ = ["anchor_id", "read_lessons", "render", "slug", "write"]

CONTEXT_LINES = 2
"""Lines kept around a problem line when the page shows failures only."""

_SEVERITY = {
    "error": 6,
    "fail": 5,
    "slip": 4,
    "stale": 3,
    "marked_wrong": 2,
    "suppressed": 1,
    "pass": 0,
}
"""Which finding's colour a line takes when several claims sit on it."""
_LABELS = {
    "pass": "PASS",
    "fail": "FAIL",
    "slip": "SLIP",
    "stale": "STALE",
    "error": "ERROR",
    "suppressed": "SUPPRESSED",
    "marked_wrong": "MARKED WRONG",
}
_UNSAFE_ID_CHARACTER = re.compile(r"[^A-Za-z0-9_-]")


def slug(text: str) -> str:
    """``text`` usable in an HTML id and a CSS selector: every character outside
    ``[A-Za-z0-9_-]`` becomes ``-`` (one for one, so the mapping is predictable)."""
    return _UNSAFE_ID_CHARACTER.sub("-", text)


def anchor_id(finding: Finding) -> str:
    """The element id of a finding: ``claim-<claims_file>-<id>``, sanitised by :func:`slug`.

    Two findings whose names sanitise alike get ``-2``, ``-3``… in :func:`render` order."""
    return f"claim-{slug(finding.claims_file)}-{slug(finding.id)}"


Segment = tuple[str, bool]
"""A piece of a line of text and whether it is highlighted (the number a fix changes)."""


def _segments(text: str, spans: Iterable[tuple[int, int]]) -> list[Segment]:
    """``text`` cut into pieces, the non-overlapping ``spans`` highlighted."""
    pieces: list[Segment] = []
    cursor = 0
    for start, end in sorted(spans):
        if start < cursor or end <= start:
            continue
        pieces.append((text[cursor:start], False))
        pieces.append((text[start:end], True))
        cursor = end
    pieces.append((text[cursor:], False))
    return [piece for piece in pieces if piece[0]]


def _wrong_span(finding: Finding, line: str) -> tuple[int, int] | None:
    """Where in its lesson line the number a failing claim's fix corrects is printed: found
    only when the quote starts at the finding's column as written (else nothing is marked)."""
    if finding.verdict == "pass" or not finding.fix or not finding.quote or not finding.column:
        return None
    offset = finding.column - 1
    if not line.startswith(finding.quote, offset):
        return None
    (start, end), _ = changed_span(finding.quote, finding.fix)
    return (offset + start, offset + end) if end > start else None


@dataclass(frozen=True)
class _FindingView:
    finding: Finding
    anchor: str
    label: str
    where: str
    upstream: tuple[tuple[str, str | None], ...]
    """(claim id, anchor of its finding if on this page) for each inherited error."""
    shown: str
    """The verdict as labelled (``slip`` for a fail off in its last digit only)."""
    quiet: bool
    """Hidden by the "failures only" filter: passing, suppressed or marked wrong."""

    @property
    def fix_segments(self) -> list[Segment]:
        """The fix, with the corrected number highlighted."""
        fix = self.finding.fix or ""
        _, span = changed_span(self.finding.quote, fix)
        return _segments(fix, [span])


@dataclass
class _LineView:
    number: int
    text: str
    anchor: str
    findings: list[_FindingView] = field(default_factory=list)
    near: bool = False
    """Within CONTEXT_LINES of a problem: still shown when filtering to failures."""
    after_gap: bool = False
    """The first near line after hidden ones (draws a separator when filtering)."""

    @property
    def verdict(self) -> str:
        return max((f.shown for f in self.findings), key=_SEVERITY.__getitem__)

    @property
    def segments(self) -> list[Segment]:
        """The line, with the numbers its failing claims' fixes correct highlighted."""
        spans = (_wrong_span(view.finding, self.text) for view in self.findings)
        return _segments(self.text, [span for span in spans if span is not None])


@dataclass
class _LessonView:
    path: str
    anchor: str
    has_text: bool
    lines: list[_LineView]
    unplaced: list[_FindingView]
    counts: dict[str, int]

    @property
    def problems(self) -> int:
        return self.counts["fail"] + self.counts["stale"] + self.counts["error"]


def _environment() -> jinja2.Environment:
    # PackageLoader reads through importlib, so the template is found in an installed wheel too.
    return jinja2.Environment(
        loader=jinja2.PackageLoader("checkers.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _split_lines(text: str) -> list[str]:
    # Same numbering as checkers.lesson: lines end at "\n" only (not at \f, \u2028, ...).
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r").replace("\x00", "\ufffd") for line in lines]


def _views(findings: Sequence[Finding]) -> dict[int, _FindingView]:
    anchors: dict[str, int] = {}
    by_claim: dict[tuple[str, str], str] = {}
    views: dict[int, _FindingView] = {}
    for finding in findings:
        base = anchor_id(finding)
        anchors[base] = anchors.get(base, 0) + 1
        anchor = base if anchors[base] == 1 else f"{base}-{anchors[base]}"
        by_claim.setdefault((finding.claims_file, finding.id), anchor)
        shown = shown_verdict(finding)
        quiet = finding.verdict in ("pass", "suppressed", "marked_wrong")
        views[id(finding)] = _FindingView(
            finding, anchor, _LABELS[shown], finding.where, (), shown, quiet
        )
    # Second pass: links to the upstream claims whose error a passing claim carries.
    for finding in findings:
        view = views[id(finding)]
        upstream = tuple((u, by_claim.get((finding.claims_file, u))) for u in finding.inherits)
        views[id(finding)] = dataclasses.replace(view, upstream=upstream)
    return views


def _lesson_view(
    path: str, text: str | None, findings: list[Finding], views: dict[int, _FindingView]
) -> _LessonView:
    lesson_anchor = f"lesson-{slug(path)}"
    lines = (
        [
            _LineView(number, line, f"{lesson_anchor}-L{number}")
            for number, line in enumerate(_split_lines(text), start=1)
        ]
        if text is not None
        else []
    )
    unplaced: list[_FindingView] = []
    for finding in findings:
        placed = (
            finding.location_kind == "lesson"
            and finding.source == path
            and finding.line is not None
            and 1 <= finding.line <= len(lines)
        )
        if placed and finding.line is not None:
            lines[finding.line - 1].findings.append(views[id(finding)])
        else:
            unplaced.append(views[id(finding)])
    problem_lines = [line.number for line in lines if any(not f.quiet for f in line.findings)]
    for number in problem_lines:
        for near in range(
            max(1, number - CONTEXT_LINES), min(len(lines), number + CONTEXT_LINES) + 1
        ):
            lines[near - 1].near = True
    for previous, line in itertools.pairwise(lines):
        line.after_gap = line.near and not previous.near
    counts = summarize(findings)
    return _LessonView(path, lesson_anchor, text is not None, lines, unplaced, counts)


def render(findings: Sequence[Finding], lessons: Mapping[str, str]) -> str:
    """The HTML page for ``findings``; ``lessons`` maps a finding's ``source`` to its text
    (a lesson missing from it is listed without text)."""
    in_order = ordered(findings)
    views = _views(in_order)
    groups: dict[str, list[Finding]] = {}
    for finding in in_order:
        # Findings without a lesson (a claim file that did not load) group under their file.
        groups.setdefault(finding.source or finding.claims_file, []).append(finding)
    lesson_views = sorted(
        (_lesson_view(path, lessons.get(path), group, views) for path, group in groups.items()),
        # The index and the page: lessons with most problems first, then by path.
        key=lambda lesson: (-lesson.problems, lesson.path),
    )
    counts = summarize(list(findings))
    problems = [views[id(f)] for f in needs_attention(findings)]
    template = _environment().get_template("report.html.j2")
    return template.render(
        labels=_LABELS,
        counts=counts,
        failure_count=len(problems),
        problems=problems,
        lessons=lesson_views,
        version=__version__,
    )


def read_lessons(findings: Iterable[Finding], root: Path) -> dict[str, str]:
    """The text of each finding's lesson, read relative to ``root``; unreadable ones are left out.

    Only regular files inside ``root`` are read: the path comes from a claim file in a pull
    request, and the page is published, so it must not be able to embed any other file.
    """
    texts: dict[str, str] = {}
    for source in sorted({f.source for f in findings if f.source}):
        path = inside(root, source)
        if path is None or not_a_lesson(root / source, root) is not None:
            continue
        try:
            data = read_regular_file(path, MAX_LESSON_BYTES)
        except (OSError, ValueError):
            continue
        texts[source] = data.decode("utf-8-sig", errors="replace")
    return texts


def write(path: Path, findings: Sequence[Finding], root: Path | None = None) -> None:
    """Write the HTML report atomically, embedding the lessons found under ``root``
    (default: the working folder)."""
    lessons = read_lessons(findings, Path.cwd() if root is None else root)
    write_atomic(path, render(findings, lessons))
