"""Writers that turn findings into what people and CI read: terminal text and report files.

``write_reports`` writes ``report.json`` (the machine contract), ``report.md`` (a pull-request
comment), ``report.html`` (one self-contained page with the lessons marked up) and
``report.sarif`` (code-scanning alerts). The four are written as one set
(:func:`checkers.files.write_set`: every file staged first, then renamed into place under a lock
on the folder), so a reader never sees half a report or two runs' reports mixed, and writers
only read findings: they never recompute anything.

The small helpers here (order, which findings need attention, where a finding points, its
explanation lines) are shared by every writer so that the formats always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checkers import files

__all__ = [
    "REPORT_FILES",
    "changed_span",
    "explain",
    "location",
    "needs_attention",
    "ordered",
    "quieted",
    "shown_verdict",
    "write_reports",
    "written_line",
]

if TYPE_CHECKING:
    from checkers.finding import Finding

REPORT_FILES = ("report.json", "report.md", "report.html", "report.sarif")
"""The files :func:`write_reports` writes, in that order."""


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in lesson order within each claim file (the order of ``report.json``)."""
    # The same key as json_report, so every format lists findings in the same order whatever
    # order (or xdist worker) ran the claims.
    return sorted(findings, key=lambda f: (f.claims_file, f.source, f.line or 0, f.id))


def needs_attention(findings: Iterable[Finding]) -> list[Finding]:
    """The problems: fail (slips included), stale and error findings, in :func:`ordered`
    order."""
    return [f for f in ordered(findings) if f.verdict in ("fail", "stale", "error")]


def quieted(findings: Iterable[Finding]) -> list[Finding]:
    """Findings that are reported but stay quiet: ``suppressed`` and ``marked_wrong``."""
    return [f for f in ordered(findings) if f.verdict in ("suppressed", "marked_wrong")]


def shown_verdict(finding: Finding) -> str:
    """The verdict as reports label it: ``slip`` for a fail whose last printed digit only is
    off, else the verdict itself."""
    return "slip" if finding.is_slip else finding.verdict


def location(finding: Finding) -> tuple[str, int | None, int | None]:
    """(path, line, column) the finding points at: the lesson, or the claim file for problems
    located there (``location_kind == "claims"``) or findings without a lesson."""
    if finding.location_kind == "lesson" and finding.source:
        return finding.source, finding.line, finding.column
    return finding.claims_file or finding.source, finding.line, finding.column


_NUMBER_CHARACTERS = frozenset("0123456789.,０１２３４５６７８９．，")


def changed_span(before: str, after: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where a quote and its fix differ: the span of each between their common beginning and
    their common end, widened to whole numbers (``0.78`` → ``0.80`` is the span of ``0.78``
    and of ``0.80``, not of ``78`` and ``80``)."""
    shorter = min(len(before), len(after))
    prefix = 0
    while prefix < shorter and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shorter - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    while prefix > 0 and before[prefix - 1] in _NUMBER_CHARACTERS:
        prefix -= 1
    while suffix > 0 and before[len(before) - suffix] in _NUMBER_CHARACTERS:
        suffix -= 1
    return (prefix, len(before) - suffix), (prefix, len(after) - suffix)


def explain(finding: Finding) -> list[str]:
    """What an author needs, one line each: the message, claimed → recomputed, the fix."""
    lines = [finding.message] if finding.message else []
    if finding.claimed or finding.expected:
        values = f"claimed {finding.claimed or '—'} → recomputed {finding.expected or '—'}"
        if finding.tolerance:
            values += f" ({finding.tolerance})"
        lines.append(values)
    if finding.fix:
        lines.append(f"fix: {finding.fix}")
    return lines


def written_line(paths: Sequence[Path]) -> str:
    """Where the reports went, for the terminal: ``reports written: reports/report.html
    (open it in a browser), reports/report.md, …``; the HTML page first, as the one to open."""
    first = sorted(paths, key=lambda path: path.suffix != ".html")
    names = [
        f"{path} (open it in a browser)" if path.suffix == ".html" else str(path) for path in first
    ]
    return f"lessoncheck: report{'s' if len(paths) != 1 else ''} written: {', '.join(names)}"


def write_reports(
    directory: Path,
    findings: Sequence[Finding],
    root: Path | None = None,
    extra: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Write every report format into ``directory`` as one set
    (:func:`checkers.files.write_set`); return the paths written. Raises
    :class:`checkers.files.WriteError` naming the path when the set cannot be written (the
    previous reports are left whole).

    ``root`` is the folder the findings' ``source`` paths are relative to (default: the working
    folder); the HTML report embeds those lessons' text. ``extra`` adds top-level sections to
    ``report.json`` (``baseline``).
    """
    # Imported here so that running claims without --report-dir never imports jinja2.
    from checkers.report import html, json_report, markdown, sarif

    lessons = html.read_lessons(findings, Path.cwd() if root is None else root)
    texts = {
        "report.json": json_report.render(findings, extra),
        "report.md": markdown.render(findings),
        "report.html": html.render(findings, lessons),
        "report.sarif": sarif.render(findings),
    }
    return files.write_set(directory, {name: texts[name] for name in REPORT_FILES})
