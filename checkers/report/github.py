"""GitHub Actions output: annotations on the lesson lines and a job summary.

When ``GITHUB_ACTIONS == "true"``, :func:`emit` prints workflow commands::

    ::error file=content/x.md,line=130,col=1,title=lessoncheck fail%3A score-cat-cat::0.58×…

one per claim that needs attention (``error`` for fail/error, ``warning`` for a slip — only the
last printed digit off — and for stale; suppressed and marked-wrong findings are only counted;
at most :data:`MAX_ANNOTATIONS`, GitHub shows no more per step anyway), then one ``::notice::``
saying where the full report is, and appends the Markdown report
(:func:`checkers.report.markdown.render` with links to the commit) to the file named by
``$GITHUB_STEP_SUMMARY``.

Everything takes the environment mapping and the output stream as parameters, so it is tested
without touching the real environment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from checkers.finding import Finding, counts_line, summarize
from checkers.report import explain, location, needs_attention, shown_verdict
from checkers.report.text import inert

__all__ = [
    "MAX_ANNOTATIONS",
    "annotation",
    "blob_base",
    "command",
    "emit",
    "enabled",
    "escape_data",
    "escape_property",
    "write_summary",
]

MAX_ANNOTATIONS = 10
"""Annotations printed per run; the rest are in the notice's count and the reports."""

_COMMANDS = {"fail": "error", "error": "error", "stale": "warning"}


def enabled(env: Mapping[str, str]) -> bool:
    """Running inside GitHub Actions."""
    return env.get("GITHUB_ACTIONS") == "true"


def escape_data(value: str) -> str:
    """Escape a command's message (as actions/toolkit ``escapeData`` does)."""
    # "%" first, or the escapes added for the other characters would be escaped again; then
    # the rest goes through the one output rule (checkers.report.text.inert): no other control
    # character, no legacy "##[" command anywhere.
    return inert(value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(value: str) -> str:
    """Escape a command property value (``escapeProperty``): also ``:`` and ``,``, which would
    otherwise end the property list or the value."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(
    name: str, message: str, properties: Mapping[str, str | int | None] | None = None
) -> str:
    """One workflow command line, ``::name k=v,k=v::message``; ``None`` properties are left out."""
    props = ",".join(
        f"{key}={escape_property(str(value))}"
        for key, value in (properties or {}).items()
        if value is not None and value != ""
    )
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def annotation(finding: Finding) -> str:
    """The workflow command that annotates ``finding`` at its lesson (or claim-file) line."""
    path, line, column = location(finding)
    properties: dict[str, str | int | None] = {
        "file": path,
        "line": line,
        "col": column if line else None,
        "title": f"lessoncheck {shown_verdict(finding)}: {finding.id}",
    }
    name = "warning" if finding.is_slip else _COMMANDS.get(finding.verdict, "notice")
    return command(name, "\n".join(explain(finding)), properties)


def blob_base(env: Mapping[str, str]) -> str:
    """``https://github.com/<owner>/<repo>/blob/<sha>/`` for links in the summary, or ``""``."""
    server = env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    repository, sha = env.get("GITHUB_REPOSITORY", ""), env.get("GITHUB_SHA", "")
    if not repository or not sha:
        return ""
    return f"{server}/{repository}/blob/{sha}/"


def write_summary(findings: Sequence[Finding], env: Mapping[str, str]) -> Path | None:
    """Append the Markdown report to ``$GITHUB_STEP_SUMMARY``; return that path (None if unset).

    Raises :class:`OSError` if the file cannot be written."""
    from checkers.report import markdown

    target = env.get("GITHUB_STEP_SUMMARY")
    if not target:
        return None
    path = Path(target)
    # Append: other steps' summaries in the same file must survive.
    with path.open("a", encoding="utf-8", newline="\n") as stream:
        stream.write(markdown.render(findings, link_base=blob_base(env)) + "\n")
    return path


def _notice(findings: Sequence[Finding], shown: int, report_dir: str | None, summary: bool) -> str:
    counts = summarize(list(findings))
    problems = counts["fail"] + counts["stale"] + counts["error"]
    quiet = counts["suppressed"] + counts["marked_wrong"]
    parts = [
        f"{problems} of {counts['total']} claims need attention ({counts_line(counts)})."
        if problems
        else f"All {counts['total']} claims hold" + (f" ({counts_line(counts)})." if quiet else ".")
    ]
    if problems > shown:
        parts.append(f"{shown} annotated here, {problems - shown} more in the report.")
    if report_dir:
        parts.append(
            f"Full report: {report_dir}/report.html (also report.md, report.sarif, report.json)."
        )
    else:
        parts.append("Run with --report-dir DIR for the full report.")
    if summary:
        parts.append("The job summary lists every claim that needs attention.")
    return " ".join(parts)


def emit(
    findings: Sequence[Finding],
    env: Mapping[str, str],
    stream: TextIO,
    report_dir: Path | str | None = None,
) -> bool:
    """In GitHub Actions, print annotations and a notice to ``stream`` and append the job
    summary; elsewhere do nothing. Return whether anything was emitted."""
    if not enabled(env):
        return False
    problems = needs_attention(findings)
    shown = problems[:MAX_ANNOTATIONS]
    for finding in shown:
        stream.write(annotation(finding) + "\n")
    try:
        summary = write_summary(findings, env) is not None
    except OSError as error:
        # A summary that cannot be written must not hide the annotations or fail the run.
        summary = False
        stream.write(
            command("warning", f"lessoncheck: cannot write the job summary: {error}") + "\n"
        )
    directory = Path(report_dir).as_posix() if report_dir else None
    notice = _notice(findings, len(shown), directory, summary)
    stream.write(command("notice", notice, {"title": "lessoncheck"}) + "\n")
    return True
