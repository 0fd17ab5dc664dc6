"""Running claims: one loaded claim in, one :class:`~checkers.finding.Finding` out.

Shared by the pytest plugin and the CLI, so both report exactly the same thing. This module is
the claim check itself (budgets, errors turned into findings, suggested fixes); the ``uses:``
graph is :mod:`checkers.uses`, the time limit :mod:`checkers.timelimit`, and runs over many
files in worker processes :mod:`checkers.parallel`. A claim that
takes inputs from other claims (``uses:``) is checked twice: with the upstream values *as
printed* (that decides its verdict), and with the upstream values *as recomputed*, so a step that
is right given its printed inputs but carries an upstream mistake says so instead of failing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from checkers.claims import Claim, ClaimsFile, Problem, load_claims_file
from checkers.expr import ExprError
from checkers.files import CLAIM_FILES, collect
from checkers.finding import FILE_LABEL, Finding, Verdict, problem_finding, relative_to_root
from checkers.kinds.base import Outcome, error, printed_text
from checkers.lesson import Lesson
from checkers.lesson_marks import NO_MARKS, apply_marks, read_marks
from checkers.numbers import Printed, apply_corrections
from checkers.parallel import Progress, map_files
from checkers.timelimit import ClaimTimeout, time_limit
from checkers.uses import cycle_through, cyclic, upstream_first

__all__ = [
    "CLAIM_SECONDS",
    "FILE_SECONDS",
    "FileRun",
    "RecentRuns",
    "check_claim",
    "claim_problem_finding",
    "iter_claim_files",
    "run_file",
    "run_paths",
]

CLAIM_SECONDS = 5.0
"""A claim whose check runs longer than this becomes an error; the run goes on."""
FILE_SECONDS = 60.0
"""Checking time the claims of one claim file may use together (real files need well under a
second). Once it is spent, the file's remaining claims become errors without running: 50 000
claims that each run into the per-claim limit cost a minute, not three days."""


@dataclass
class FileRun:
    """One claim file being checked: outcomes computed so far (so upstream claims run once)
    and the time its checks have used."""

    claims_file: ClaimsFile
    """The loaded file."""
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    """Outcome of every claim computed so far, by id."""
    by_id: dict[str, Claim] = field(init=False)
    """The file's claims by id, built once (not once per claim: files may hold 50 000)."""
    uses: dict[str, dict[str, str]] = field(init=False)
    """The ``uses:`` graph: claim id → its variables' upstream claim ids."""
    on_cycle: set[str] = field(init=False)
    """Ids of claims whose ``uses:`` lead back to themselves, found once per file."""
    spent: float = 0.0
    """Seconds its checks have taken so far, against :data:`FILE_SECONDS`."""

    def __post_init__(self) -> None:
        self.by_id = {c.id: c for c in self.claims_file.claims}
        self.uses = {c.id: c.header.uses for c in self.claims_file.claims}
        self.on_cycle = cyclic(self.uses)


KEPT_RUNS = 4
"""Files whose outcomes :class:`RecentRuns` keeps. The pytest plugin checks one file's items in
a row, and a run over hundreds of files must not keep every claim alive (Python's garbage
collector walks everything alive, so a run that kept all 10,000 claims spent 15% of its time
there)."""


class RecentRuns:
    """The :class:`FileRun` of the last :data:`KEPT_RUNS` claim files checked claim by claim
    (the pytest plugin's items), so a claim's upstream claims are not recomputed per item."""

    def __init__(self) -> None:
        self._runs: dict[Path, FileRun] = {}

    def of(self, claims_file: ClaimsFile) -> FileRun:
        """The run of ``claims_file``, started when it is new (or was loaded again)."""
        run = self._runs.get(claims_file.path)
        if run is None or run.claims_file is not claims_file:
            run = FileRun(claims_file)
            self._runs.pop(claims_file.path, None)
            while len(self._runs) >= KEPT_RUNS:
                del self._runs[next(iter(self._runs))]  # the oldest
            self._runs[claims_file.path] = run
        return run


def _clip(text: str, limit: int = 300) -> str:
    """An exception's text, short enough for one report line (it may quote hostile input)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _safe_check(run: FileRun, check: Callable[[], Outcome], claimed: str) -> Outcome:
    left = FILE_SECONDS - run.spent
    if left <= 0:
        message = (
            f"not checked: the claims of this file already took the {FILE_SECONDS:g} s "
            "they may use together"
        )
        return error(message, claimed)
    limit = min(CLAIM_SECONDS, left)
    started = time.monotonic()
    try:
        with time_limit(limit):
            return check()
    except ClaimTimeout:
        message = f"check took longer than {limit:g} s and was stopped"
        if limit < CLAIM_SECONDS:
            message += f" (the rest of the {FILE_SECONDS:g} s its claim file may use)"
    except ExprError as raised:
        message = f"cannot evaluate: {_clip(raised.message)}"
    except (ArithmeticError, ValueError) as raised:
        message = f"cannot evaluate: {_clip(str(raised))}"
    except RecursionError:
        message = "expression nests too deeply to evaluate"
    except MemoryError:
        message = "check needed too much memory and was stopped"
    except Exception as raised:  # a bug in a kind must cost one claim, not the whole run
        message = (
            f"internal error while checking ({type(raised).__name__}: {_clip(str(raised))}); "
            "please report it with this claim"
        )
    finally:
        run.spent += time.monotonic() - started
    return error(message, claimed)


MAX_FIX_CORRECTIONS = 64
"""Most numbers one suggested fix rewrites; a claim with more gets no ``fix`` line."""


def _suggest_fix(run: FileRun, quote: str, corrections: tuple[tuple[str, str], ...]) -> str | None:
    """The quote with its numbers corrected, or None. ``apply_corrections`` matches the numbers
    with one regular expression, which backtracks exponentially on a hostile quote (1 000
    copies of one number and a last number that is absent), so it runs under the same time
    limit and file budget as a check, and not at all for vectors of thousands of numbers."""
    left = min(CLAIM_SECONDS, FILE_SECONDS - run.spent)
    if not corrections or len(corrections) > MAX_FIX_CORRECTIONS or left <= 0:
        return None
    started = time.monotonic()
    try:
        with time_limit(left):
            return apply_corrections(quote, corrections)
    except (ClaimTimeout, RecursionError, MemoryError, ValueError):
        return None
    finally:
        run.spent += time.monotonic() - started


def _claimed_text(claim: Claim) -> str:
    """The claim's printed value(s) as one line, clipped (see :func:`printed_text`)."""
    text = printed_text(claim.input.printed)
    return text if len(text) <= _CLAIMED_CLIP else text[: _CLAIMED_CLIP - 1] + "…"


_CLAIMED_CLIP = 300
"""Characters of a claimed value shown for a claim that could not be checked."""


def _printed_value(claim: Claim) -> float | None:
    claimed = claim.input.printed
    return claimed.value if isinstance(claimed, Printed) else None


def _outcome(run: FileRun, claim: Claim) -> Outcome:
    cached = run.outcomes.get(claim.id)
    if cached is not None:
        return cached
    # Upstream claims first, deepest first, so that _compute always finds its inputs computed:
    # a `uses:` chain 50 000 claims long must not become 50 000 nested Python calls.
    for step in upstream_first(run.uses, claim.id, run.outcomes):
        if step not in run.outcomes:
            run.outcomes[step] = _compute(run, run.by_id[step])
    return run.outcomes[claim.id]


def _compute(run: FileRun, claim: Claim) -> Outcome:
    claimed = _claimed_text(claim)
    by_id = run.by_id
    printed_vars: dict[str, float] = {}
    true_vars: dict[str, float] = {}
    upstream_failed: list[str] = []
    if claim.id in run.on_cycle:
        cycle = cycle_through(run.uses, claim.id, run.on_cycle)
        shown = " → ".join(cycle) if cycle else f"{claim.id} → … → {claim.id}"
        return error(f"uses: forms a cycle {shown}; nothing to start", claimed)
    for name, upstream_id in claim.header.uses.items():
        upstream = by_id.get(upstream_id)
        if upstream is None:
            why = "is not a valid claim in this file"
            return error(f"uses: {name} = {upstream_id!r} {why}", claimed)
        printed = _printed_value(upstream)
        if printed is None:
            why = "but that claim has no single printed value"
            return error(f"uses: {name} = {upstream_id!r}, {why}", claimed)
        upstream_outcome = _outcome(run, upstream)
        printed_vars[name] = printed
        recomputed = upstream_outcome.value
        true_vars[name] = recomputed if isinstance(recomputed, float) else printed
        if upstream_outcome.verdict != "pass":
            upstream_failed.append(upstream_id)
    outcome = _safe_check(
        run, lambda: claim.kind.check(claim.input, claim.context(printed_vars)), claimed
    )
    if not upstream_failed or outcome.verdict != "pass":
        return outcome
    true_outcome = _safe_check(
        run, lambda: claim.kind.check(claim.input, claim.context(true_vars)), claimed
    )
    carried = (
        f"right given its printed inputs, but carries the error of {', '.join(upstream_failed)}"
    )
    if true_outcome.verdict == "fail":
        carried += f"; from the true upstream values it would be {true_outcome.expected}"
    return replace(
        outcome,
        message=f"{outcome.message}; {carried}",
        details=(*outcome.details, f"inherits: {carried}"),
    )


def _upstream_failures(run: FileRun, claim: Claim) -> tuple[str, ...]:
    return tuple(
        upstream_id
        for upstream_id in claim.header.uses.values()
        if upstream_id in run.outcomes and run.outcomes[upstream_id].verdict != "pass"
    )


def check_claim(claims_file: ClaimsFile, claim: Claim, runs: RecentRuns | None = None) -> Finding:
    """Check one claim of a loaded file (anchoring problems become stale/error findings), then
    apply what its lesson says about the statement's line (:func:`checkers.lesson_marks.
    apply_marks`: marked wrong by the author, or silenced by a ``lessoncheck: ignore``).

    ``runs`` keeps the file's outcomes between calls; without it, the claims this one uses
    are computed afresh."""
    return _check(runs.of(claims_file) if runs is not None else FileRun(claims_file), claim)


def _check(run: FileRun, claim: Claim) -> Finding:
    """The claim's finding as its lesson's marks leave it (every finding passes here)."""
    finding = _recompute(run, claim)
    lesson = run.claims_file.lesson_document
    if lesson is None:
        return apply_marks(finding, NO_MARKS)
    return _in_file(lesson, apply_marks(finding, read_marks(lesson.text)))


def _in_file(lesson: Lesson, finding: Finding) -> Finding:
    """The finding located in the lesson file rather than its text: the same for Markdown; for
    a notebook, the line of the ``.ipynb`` that holds the statement and its cell and line."""
    if finding.location_kind != "lesson" or finding.line is None:
        return finding
    if not lesson.source.cells:
        return finding  # not a notebook: lesson text and file are one
    origin = lesson.cell_line(finding.line)
    line, column = lesson.file_position(finding.line, finding.column)
    label = origin.label() if origin is not None else None
    return replace(finding, line=line, column=column, cell=label)


def _recompute(run: FileRun, claim: Claim) -> Finding:
    claims_file = run.claims_file
    root = claims_file.root
    base: dict[str, Any] = {
        "id": claim.id,
        "kind": claim.header.kind,
        "claims_file": relative_to_root(claims_file.path, root),
        "source": relative_to_root(claim.lesson_path, root),
        "quote": claim.header.quote,
    }
    if claim.anchor is None:
        verdict: Verdict = "stale" if claim.stale else "error"
        return Finding(
            **base,
            line=claim.position.line if claim.position else None,
            column=claim.position.column if claim.position else None,
            location_kind="claims",
            verdict=verdict,
            claimed=_claimed_text(claim),
            expected="",
            tolerance="",
            message=claim.anchor_problem or "the claim could not be anchored",
            fix=None,
        )
    outcome = _outcome(run, claim)
    fix = (
        _suggest_fix(run, claim.header.quote, outcome.corrections)
        if outcome.verdict == "fail"
        else None
    )
    return Finding(
        **base,
        line=claim.anchor.line,
        column=claim.anchor.column,
        verdict=outcome.verdict,
        severity=outcome.severity if outcome.verdict == "fail" else None,
        claimed=outcome.claimed,
        expected=outcome.expected,
        tolerance=outcome.tolerance,
        message=_with_inputs(claim, outcome.message),
        fix=fix,
        details=outcome.details,
        inherits=_upstream_failures(run, claim) if outcome.verdict == "pass" else (),
    )


def _with_inputs(claim: Claim, message: str) -> str:
    """A drafted, unreviewed claim's message followed by its note: where the recogniser read
    each input (a relation's message must say where its numbers came from, and nobody has
    read the claim file)."""
    note = claim.header.note
    if claim.header.origin != "auto" or not note:
        return message
    return f"{message} [{note}]"


def claim_problem_finding(claims_file: ClaimsFile, problems: list[Problem], label: str) -> Finding:
    """The error finding for a claim (or the whole file) of ``claims_file`` that did not load."""
    return problem_finding(
        problems,
        label,
        claims_file=claims_file.path,
        lesson=claims_file.lesson_path,
        root=claims_file.root,
    )


def run_file(claims_file: ClaimsFile) -> list[Finding]:
    """Every finding for one loaded claim file, in file order, file-level problems first."""
    findings: list[Finding] = []
    file_problems = [p for p in claims_file.problems if p.claim_id is None]
    if file_problems:
        findings.append(claim_problem_finding(claims_file, file_problems, FILE_LABEL))
    run = FileRun(claims_file)
    by_label: dict[str, list[Problem]] = {}  # grouped once: a file may hold 50 000 problems
    for problem in claims_file.problems:
        if problem.claim_id is not None:
            by_label.setdefault(problem.claim_id, []).append(problem)
    for label in claims_file.order:
        claim = run.by_id.get(label)
        if claim is not None:
            findings.append(_check(run, claim))
        elif label in by_label:
            findings.append(claim_problem_finding(claims_file, by_label[label], label))
    return findings


def iter_claim_files(paths: list[Path]) -> list[Path]:
    """Claim files named directly, or found (``*.yaml``, ``*.yml``) in named folders or by
    globs, as :func:`checkers.files.collect` walks them (each folder's files sorted); raises
    :class:`checkers.files.NoMatch` for a glob that matches nothing."""
    return collect(paths, CLAIM_FILES)


def run_paths(paths: list[Path], jobs: int = 1, progress: Progress | None = None) -> list[Finding]:
    """Load and run every claim file under ``paths``; findings in file order (see
    :func:`map_files` for ``jobs`` and ``progress``)."""
    return map_files(_check_one_file, iter_claim_files(paths), jobs, progress)


def _check_one_file(path: Path) -> list[Finding]:
    return run_file(load_claims_file(path))
