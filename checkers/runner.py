"""Running claims: one loaded claim in, one :class:`Finding` out.

Shared by the pytest plugin and the CLI, so both report exactly the same thing. A claim that
takes inputs from other claims (``uses:``) is checked twice: with the upstream values *as
printed* (that decides its verdict), and with the upstream values *as recomputed*, so a step that
is right given its printed inputs but carries an upstream mistake says so instead of failing.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from checkers.claims import Claim, ClaimsFile, Problem, load_claims_file
from checkers.expr import ExprError
from checkers.numbers import Printed
from checkers.outcome import Outcome, Verdict, apply_corrections

__all__ = ["CLAIM_SECONDS", "Finding", "check_claim", "iter_claim_files", "run_file"]

CLAIM_SECONDS = 5.0
"""A claim whose check runs longer than this becomes an error; the run goes on."""


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

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the JSON report."""
        data = asdict(self)
        data["details"] = list(self.details)
        data["inherits"] = list(self.inherits)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        """Rebuild a finding from :meth:`to_json` (e.g. sent back by an xdist worker)."""
        values = dict(data)
        values["details"] = tuple(values.get("details", ()))
        values["inherits"] = tuple(values.get("inherits", ()))
        return cls(**values)

    @property
    def where(self) -> str:
        """``content/lesson.md:143`` — what an editor jumps to."""
        if self.location_kind == "lesson":
            return f"{self.source}:{self.line}" if self.line else self.source
        if self.line and self.column:
            return f"{self.claims_file}:{self.line}:{self.column}"
        return self.claims_file


def _relative(path: Path | None, root: Path) -> str:
    if path is None:
        return ""
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass
class _FileRun:
    """Outcomes computed so far in one claim file, so upstream claims run once."""

    claims_file: ClaimsFile
    outcomes: dict[str, Outcome] = field(default_factory=dict)


_RUNS: dict[Path, _FileRun] = {}


class ClaimTimeout(Exception):
    """A check ran past :data:`CLAIM_SECONDS`."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt a runaway check on the main thread (SIGALRM); elsewhere, only measure."""
    use_alarm = (
        hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    )
    if not use_alarm:
        yield
        return

    def _raise(signum: int, frame: object) -> None:
        raise ClaimTimeout

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _safe_check(run: Callable[[], Outcome], claimed: str) -> Outcome:
    try:
        with _time_limit(CLAIM_SECONDS):
            return run()
    except ClaimTimeout:
        message = f"check took longer than {CLAIM_SECONDS:g} s and was stopped"
    except ExprError as error:
        message = f"cannot evaluate: {error.message}"
    except (ArithmeticError, ValueError) as error:
        message = f"cannot evaluate: {error}"
    except RecursionError:
        message = "expression nests too deeply to evaluate"
    except MemoryError:
        message = "check needed too much memory and was stopped"
    return Outcome(verdict="error", claimed=claimed, expected="", tolerance="", message=message)


def _claimed_text(claim: Claim) -> str:
    claimed = getattr(claim.input, "claimed", None)
    if isinstance(claimed, Printed):
        return claimed.text
    if isinstance(claimed, tuple):
        return "[" + ", ".join(p.text for p in claimed if isinstance(p, Printed)) + "]"
    return ""


def _printed_value(claim: Claim) -> float | None:
    claimed = getattr(claim.input, "claimed", None)
    return claimed.value if isinstance(claimed, Printed) else None


def _outcome(run: _FileRun, claim: Claim, stack: tuple[str, ...] = ()) -> Outcome:
    cached = run.outcomes.get(claim.id)
    if cached is not None:
        return cached
    outcome = _compute(run, claim, stack)
    run.outcomes[claim.id] = outcome
    return outcome


def _compute(run: _FileRun, claim: Claim, stack: tuple[str, ...]) -> Outcome:
    claimed = _claimed_text(claim)
    by_id = {c.id: c for c in run.claims_file.claims}
    printed_vars: dict[str, float] = {}
    true_vars: dict[str, float] = {}
    upstream_failed: list[str] = []
    cycle = _cycle_through(by_id, claim.id)
    if cycle:
        return Outcome(
            "error", claimed, "", "", f"uses: forms a cycle {' → '.join(cycle)}; nothing to start"
        )
    for name, upstream_id in claim.header.uses.items():
        upstream = by_id.get(upstream_id)
        if upstream is None:
            why = "is not a valid claim in this file"
            return Outcome("error", claimed, "", "", f"uses: {name} = {upstream_id!r} {why}")
        printed = _printed_value(upstream)
        if printed is None:
            return Outcome(
                "error",
                claimed,
                "",
                "",
                f"uses: {name} = {upstream_id!r}, but that claim has no single printed value",
            )
        upstream_outcome = _outcome(run, upstream, (*stack, claim.id))
        printed_vars[name] = printed
        recomputed = upstream_outcome.value
        true_vars[name] = recomputed if isinstance(recomputed, float) else printed
        if upstream_outcome.verdict != "pass":
            upstream_failed.append(upstream_id)
    outcome = _safe_check(
        lambda: claim.kind.check(claim.input, claim.context(printed_vars)), claimed
    )
    if not upstream_failed or outcome.verdict != "pass":
        return outcome
    true_outcome = _safe_check(
        lambda: claim.kind.check(claim.input, claim.context(true_vars)), claimed
    )
    carried = (
        f"right given its printed inputs, but carries the error of {', '.join(upstream_failed)}"
    )
    if true_outcome.verdict == "fail":
        carried += f"; from the true upstream values it would be {true_outcome.expected}"
    return Outcome(
        outcome.verdict,
        outcome.claimed,
        outcome.expected,
        outcome.tolerance,
        f"{outcome.message}; {carried}",
        outcome.corrections,
        (*outcome.details, f"inherits: {carried}"),
        outcome.value,
    )


def _cycle_through(by_id: dict[str, Claim], start: str) -> list[str]:
    """The ids of a ``uses:`` cycle that returns to ``start``, or [] when there is none."""
    path: list[str] = []
    visited: set[str] = set()

    def visit(claim_id: str) -> bool:
        claim = by_id.get(claim_id)
        if claim is None:
            return False
        for upstream_id in claim.header.uses.values():
            if upstream_id == start:
                path.append(upstream_id)
                return True
            if upstream_id not in visited:
                visited.add(upstream_id)
                path.append(upstream_id)
                if visit(upstream_id):
                    return True
                path.pop()
        return False

    return [start, *path] if visit(start) else []


def _upstream_failures(run: _FileRun, claim: Claim) -> tuple[str, ...]:
    return tuple(
        upstream_id
        for upstream_id in claim.header.uses.values()
        if upstream_id in run.outcomes and run.outcomes[upstream_id].verdict != "pass"
    )


def _file_run(claims_file: ClaimsFile) -> _FileRun:
    run = _RUNS.get(claims_file.path)
    if run is None or run.claims_file is not claims_file:
        run = _FileRun(claims_file)
        _RUNS[claims_file.path] = run
    return run


def check_claim(claims_file: ClaimsFile, claim: Claim) -> Finding:
    """Check one claim of a loaded file (anchoring problems become stale/error findings)."""
    root = claims_file.root
    base: dict[str, Any] = {
        "id": claim.id,
        "kind": claim.header.kind,
        "claims_file": _relative(claims_file.path, root),
        "source": _relative(claim.lesson_path, root),
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
    run = _file_run(claims_file)
    outcome = _outcome(run, claim)
    fix = (
        apply_corrections(claim.header.quote, outcome.corrections)
        if outcome.verdict == "fail"
        else None
    )
    return Finding(
        **base,
        line=claim.anchor.line,
        column=claim.anchor.column,
        verdict=outcome.verdict,
        claimed=outcome.claimed,
        expected=outcome.expected,
        tolerance=outcome.tolerance,
        message=outcome.message,
        fix=fix,
        details=outcome.details,
        inherits=_upstream_failures(run, claim) if outcome.verdict == "pass" else (),
    )


def problem_finding(claims_file: ClaimsFile, problems: list[Problem], label: str) -> Finding:
    """An error finding for a claim (or file) that did not load."""
    first = problems[0]
    return Finding(
        id=label,
        kind="",
        claims_file=_relative(claims_file.path, claims_file.root),
        source=_relative(claims_file.lesson_path, claims_file.root),
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


FILE_LABEL = "(file)"
"""Node name for problems that concern the whole claim file rather than one claim."""


def run_file(claims_file: ClaimsFile) -> list[Finding]:
    """Every finding for one loaded claim file, in file order, file-level problems first."""
    findings: list[Finding] = []
    file_problems = [p for p in claims_file.problems if p.claim_id is None]
    if file_problems:
        findings.append(problem_finding(claims_file, file_problems, FILE_LABEL))
    by_id = {c.id: c for c in claims_file.claims}
    for label in claims_file.order:
        claim = by_id.get(label)
        if claim is not None:
            findings.append(check_claim(claims_file, claim))
        else:
            problems = [p for p in claims_file.problems if p.claim_id == label]
            if problems:
                findings.append(problem_finding(claims_file, problems, label))
    return findings


def iter_claim_files(paths: list[Path]) -> list[Path]:
    """Claim files named directly, or found (``*.yaml``, ``*.yml``) in named folders, sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml")))
        else:
            found.append(path)
    return found


def run_paths(paths: list[Path]) -> list[Finding]:
    """Load and run every claim file under ``paths``."""
    findings: list[Finding] = []
    for path in iter_claim_files(paths):
        findings.extend(run_file(load_claims_file(path)))
    return findings


def summarize(findings: list[Finding]) -> dict[str, int]:
    """Counts per verdict, plus the total."""
    counts = {"total": len(findings), "pass": 0, "fail": 0, "stale": 0, "error": 0}
    for finding in findings:
        counts[finding.verdict] += 1
    return counts
