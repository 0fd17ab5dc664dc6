"""The finding model: one claim's result, as every report, the CLI and the pytest plugin see it.

:class:`Finding` is the shape of one entry of ``report.json`` (``version: 1``); the runner and
``scan`` produce findings, and everything that shows them (``checkers.report``, the CLI, the
pytest plugin, the baseline) reads only this module, never the runner or the kinds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from checkers.files import real_path

if TYPE_CHECKING:  # the annotation only: reports import this module and never numbers
    from checkers.numbers import Severity

__all__ = [
    "FILE_LABEL",
    "Finding",
    "Suppression",
    "Verdict",
    "counts_line",
    "fails_run",
    "problem_finding",
    "relative_to_root",
    "summarize",
    "summary_line",
]

Verdict = Literal["pass", "fail", "stale", "error", "suppressed", "marked_wrong"]
"""pass and fail come from a check; stale from anchoring (the quote is gone); error when the
claim could not be read or checked. ``suppressed``: a fail that a ``lessoncheck: ignore`` comment
or the project configuration silences; ``marked_wrong``: a statement the lesson itself marks
wrong (✗, ❌, "wrong", 错误 …), whether or not it holds — neither fails a run."""


@dataclass(frozen=True)
class Suppression:
    """Why a failing finding does not count: who silenced it and where."""

    kind: Literal["inSource", "external"]
    """``inSource``: a comment in the lesson; ``external``: the project configuration (SARIF's
    names for the two)."""
    justification: str
    """What silenced it, e.g. ``<!-- lessoncheck: ignore --> on line 12``."""

    def to_json(self) -> dict[str, str]:
        """A plain dict for the JSON report."""
        return {"kind": self.kind, "justification": self.justification}


FILE_LABEL = "(file)"
"""Node name for problems that concern the whole claim file rather than one claim."""


@dataclass(frozen=True)
class Finding:
    """One claim's result, in the shape of the JSON report (design.md, ``version: 1``)."""

    id: str
    """Claim id (``claim[N]`` when the claim had none)."""
    kind: str
    """Claim kind, or ``""`` when it could not be read."""
    claims_file: str
    """The claim file, relative to the project root."""
    source: str
    """The lesson file, relative to the project root."""
    line: int | None
    """Lesson line of the quote (claim-file line for errors in the claim file itself)."""
    quote: str
    """The quoted lesson text."""
    verdict: Verdict
    """pass, fail, stale or error."""
    claimed: str
    """The value as printed."""
    expected: str
    """The recomputed value."""
    tolerance: str
    """The tolerance used, and why."""
    message: str
    """One line an author understands."""
    fix: str | None
    """The quote with the corrected number at the printed precision."""
    details: tuple[str, ...] = ()
    """Further explanation lines."""
    inherits: tuple[str, ...] = ()
    """Upstream claims whose error this claim carries forward although it is right itself."""
    column: int | None = None
    """Column of ``line``."""
    location_kind: str = "lesson"
    """``lesson`` when line points into the lesson, ``claims`` when into the claim file."""
    severity: Severity | None = None
    """How wrong the printed value is, for a number that does not hold (verdict ``fail``, and
    ``suppressed`` or ``marked_wrong`` findings that would fail): ``error`` or ``slip``
    (:func:`checkers.numbers.is_slip`); None when it holds or was not checked."""
    suppression: Suppression | None = None
    """What silenced a ``suppressed`` finding."""
    marked: str | None = None
    """For ``marked_wrong``: how and where the author marked it (``❌ on line 40``)."""
    cell: str | None = None
    """For a notebook: the cell and line of the statement (``cell 3, line 2``, ``cell 4,
    output 1, line 1``); ``line`` and ``column`` are then those of the ``.ipynb`` file."""

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the JSON report (fields in declaration order)."""
        # Not dataclasses.asdict: its deep copy is most of the cost of a finding, and every
        # field here is a str, an int, None or a tuple of str.
        data = {name: getattr(self, name) for name in _FINDING_FIELDS}
        data["details"] = list(self.details)
        data["inherits"] = list(self.inherits)
        if self.suppression is not None:
            data["suppression"] = self.suppression.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        """Rebuild a finding from :meth:`to_json` (e.g. sent back by an xdist worker)."""
        values = dict(data)
        values["details"] = tuple(values.get("details", ()))
        values["inherits"] = tuple(values.get("inherits", ()))
        suppression = values.get("suppression")
        if isinstance(suppression, dict):
            values["suppression"] = Suppression(**suppression)
        return cls(**values)

    @property
    def is_slip(self) -> bool:
        """A ``fail`` whose printed value is off in its last digit only."""
        return self.verdict == "fail" and self.severity == "slip"

    @property
    def where(self) -> str:
        """``content/lesson.md:143`` — what an editor jumps to."""
        if self.location_kind == "lesson":
            where = f"{self.source}:{self.line}" if self.line else self.source
            return f"{where} ({self.cell})" if self.cell else where
        if self.line and self.column:
            return f"{self.claims_file}:{self.line}:{self.column}"
        return self.claims_file


_FINDING_FIELDS = tuple(f.name for f in fields(Finding))


@lru_cache(maxsize=256)  # once per file, not per finding: 200 000 findings, 400 000 resolves
def relative_to_root(path: Path | None, root: Path) -> str:
    """``path`` as a report names it: relative to the project root when inside it."""
    if path is None:
        return ""
    try:
        return real_path(path).relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


class _Position(Protocol):
    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


class LoadProblem(Protocol):
    """What :func:`problem_finding` reads of a claim-file problem (``checkers.claims.Problem``)."""

    @property
    def position(self) -> _Position | None:
        """Line and column in the claim file, when known."""
        ...

    @property
    def message(self) -> str:
        """What is wrong and what was expected."""
        ...

    def location(self) -> str:
        """``claims/x.yaml:12:5``."""
        ...


def problem_finding(
    problems: Sequence[LoadProblem],
    label: str,
    *,
    claims_file: Path,
    lesson: Path | None,
    root: Path,
) -> Finding:
    """An error finding for a claim (or file, ``label`` :data:`FILE_LABEL`) that did not load:
    the first problem is its message, the others its details; paths relative to ``root``."""
    first = problems[0]
    return Finding(
        id=label,
        kind="",
        claims_file=relative_to_root(claims_file, root),
        source=relative_to_root(lesson, root),
        line=first.position.line if first.position else None,
        column=first.position.column if first.position else None,
        location_kind="claims",
        quote="",
        verdict="error",
        claimed="",
        expected="",
        tolerance="",
        message=first.message,
        fix=None,
        details=tuple(f"{p.location()}: {p.message}" for p in problems[1:]),
    )


def fails_run(finding: Finding, *, strict: bool = False) -> bool:
    """Whether ``finding`` makes a run fail (exit 1, a failed pytest item): a stale claim, or a
    number that does not hold — a slip only when ``strict``. Errors (exit 2), passes,
    suppressed and marked-wrong findings do not."""
    if finding.verdict == "stale":
        return True
    return finding.verdict == "fail" and (strict or finding.severity != "slip")


def summarize(findings: Sequence[Finding]) -> dict[str, int]:
    """Counts per verdict and the total; ``slip`` counts the fails that are slips (they are
    also in ``fail``, whose meaning is unchanged: the printed number does not hold)."""
    counts = {
        "total": len(findings),
        "pass": 0,
        "fail": 0,
        "stale": 0,
        "error": 0,
        "slip": 0,
        "suppressed": 0,
        "marked_wrong": 0,
    }
    for finding in findings:
        counts[finding.verdict] += 1
        if finding.is_slip:
            counts["slip"] += 1
    return counts


def summary_line(findings: Sequence[Finding]) -> str:
    """``12 passed, 3 failed (1 slip), 1 stale, 0 errors, 2 suppressed`` — the closing line CI
    logs show; slips, suppressed and marked-wrong findings are named only when there are some."""
    return counts_line(summarize(findings))


def counts_line(counts: dict[str, int]) -> str:
    """The words of :func:`summary_line` for counts from :func:`summarize`."""
    slips = counts["slip"]
    failed = f"{counts['fail']} failed"
    if slips:
        failed += f" ({slips} slip{'s' if slips != 1 else ''})"
    line = f"{counts['pass']} passed, {failed}, {counts['stale']} stale, {counts['error']} errors"
    if counts["suppressed"]:
        line += f", {counts['suppressed']} suppressed"
    if counts["marked_wrong"]:
        line += f", {counts['marked_wrong']} marked wrong by the author"
    return line
