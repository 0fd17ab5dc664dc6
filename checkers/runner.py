"""Running claims: one loaded claim in, one :class:`Finding` out.

Shared by the pytest plugin and the CLI, so both report exactly the same thing. A claim that
takes inputs from other claims (``uses:``) is checked twice: with the upstream values *as
printed* (that decides its verdict), and with the upstream values *as recomputed*, so a step that
is right given its printed inputs but carries an upstream mistake says so instead of failing.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checkers.claims import Claim, ClaimsFile, Problem, load_claims_file
from checkers.expr import ExprError
from checkers.finding import FILE_LABEL, Finding, Verdict, problem_finding, relative_to_root
from checkers.numbers import Printed, apply_corrections
from checkers.outcome import Outcome, printed_text

__all__ = [
    "CLAIM_SECONDS",
    "FILE_SECONDS",
    "check_claim",
    "claim_problem_finding",
    "iter_claim_files",
    "map_files",
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
class _FileRun:
    """Outcomes computed so far in one claim file, so upstream claims run once."""

    claims_file: ClaimsFile
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    by_id: dict[str, Claim] = field(init=False)
    """The file's claims by id, built once (not once per claim: files may hold 50 000)."""
    on_cycle: set[str] = field(init=False)
    """Ids of claims whose ``uses:`` lead back to themselves, found once per file."""
    spent: float = 0.0
    """Seconds its checks have taken so far, against :data:`FILE_SECONDS`."""

    def __post_init__(self) -> None:
        self.by_id = {c.id: c for c in self.claims_file.claims}
        self.on_cycle = _cyclic(self.by_id)


_RUNS: dict[Path, _FileRun] = {}
_KEPT_RUNS = 4
"""Files whose outcomes stay cached. The pytest plugin checks one file's items in a row, and a
run over hundreds of files must not keep every claim alive (Python's garbage collector walks
everything alive, so a run that kept all 10,000 claims spent 15% of its time there)."""


class ClaimTimeout(BaseException):
    """A check ran past :data:`CLAIM_SECONDS`.

    A BaseException, like KeyboardInterrupt, so that an ``except Exception`` inside a kind
    cannot swallow it and run on with the alarm already spent.
    """


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt a runaway check on the main thread (SIGALRM); elsewhere, only measure."""
    use_alarm = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        # None: a handler installed outside Python (libFuzzer, an embedding program), which
        # could not be put back; leave its alarm alone and only measure.
        and signal.getsignal(signal.SIGALRM) is not None
    )
    if not use_alarm:
        yield
        return

    def _raise(signum: int, frame: object) -> None:
        raise ClaimTimeout

    # An outer alarm (pytest-timeout's signal method, say) is paused, not cancelled: it is
    # re-armed afterwards with what was left of it, and it bounds our own limit.
    outer, interval = signal.setitimer(signal.ITIMER_REAL, 0)
    previous = signal.signal(signal.SIGALRM, _raise)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, min(seconds, outer) if outer else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            left = outer - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), interval)


def _clip(text: str, limit: int = 300) -> str:
    """An exception's text, short enough for one report line (it may quote hostile input)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _safe_check(run: _FileRun, check: Callable[[], Outcome], claimed: str) -> Outcome:
    left = FILE_SECONDS - run.spent
    if left <= 0:
        message = (
            f"not checked: the claims of this file already took the {FILE_SECONDS:g} s "
            "they may use together"
        )
        return Outcome(verdict="error", claimed=claimed, expected="", tolerance="", message=message)
    limit = min(CLAIM_SECONDS, left)
    started = time.monotonic()
    try:
        with _time_limit(limit):
            return check()
    except ClaimTimeout:
        message = f"check took longer than {limit:g} s and was stopped"
        if limit < CLAIM_SECONDS:
            message += f" (the rest of the {FILE_SECONDS:g} s its claim file may use)"
    except ExprError as error:
        message = f"cannot evaluate: {_clip(error.message)}"
    except (ArithmeticError, ValueError) as error:
        message = f"cannot evaluate: {_clip(str(error))}"
    except RecursionError:
        message = "expression nests too deeply to evaluate"
    except MemoryError:
        message = "check needed too much memory and was stopped"
    except Exception as error:  # a bug in a kind must cost one claim, not the whole run
        message = (
            f"internal error while checking ({type(error).__name__}: {_clip(str(error))}); "
            "please report it with this claim"
        )
    finally:
        run.spent += time.monotonic() - started
    return Outcome(verdict="error", claimed=claimed, expected="", tolerance="", message=message)


MAX_FIX_CORRECTIONS = 64
"""Most numbers one suggested fix rewrites; a claim with more gets no ``fix`` line."""


def _suggest_fix(run: _FileRun, quote: str, corrections: tuple[tuple[str, str], ...]) -> str | None:
    """The quote with its numbers corrected, or None. ``apply_corrections`` matches the numbers
    with one regular expression, which backtracks exponentially on a hostile quote (1 000
    copies of one number and a last number that is absent), so it runs under the same time
    limit and file budget as a check, and not at all for vectors of thousands of numbers."""
    left = min(CLAIM_SECONDS, FILE_SECONDS - run.spent)
    if not corrections or len(corrections) > MAX_FIX_CORRECTIONS or left <= 0:
        return None
    started = time.monotonic()
    try:
        with _time_limit(left):
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


def _outcome(run: _FileRun, claim: Claim) -> Outcome:
    cached = run.outcomes.get(claim.id)
    if cached is not None:
        return cached
    # Upstream claims first, deepest first, so that _compute always finds its inputs computed:
    # a `uses:` chain 50 000 claims long must not become 50 000 nested Python calls.
    for step in _upstream_first(run, claim):
        if step.id not in run.outcomes:
            run.outcomes[step.id] = _compute(run, step)
    return run.outcomes[claim.id]


def _upstream_first(run: _FileRun, claim: Claim) -> list[Claim]:
    """``claim`` and the not yet computed claims it uses, directly or not, in post-order
    (every claim after the claims it uses), by an explicit-stack depth-first search."""
    order: list[Claim] = []
    seen = {claim.id}
    stack = [(claim, iter(claim.header.uses.values()))]
    while stack:
        node, upstream_ids = stack[-1]
        following = next(
            (u for u in upstream_ids if u in run.by_id and u not in seen and u not in run.outcomes),
            None,
        )
        if following is None:
            stack.pop()
            order.append(node)
        else:
            seen.add(following)
            upstream = run.by_id[following]
            stack.append((upstream, iter(upstream.header.uses.values())))
    return order


def _compute(run: _FileRun, claim: Claim) -> Outcome:
    claimed = _claimed_text(claim)
    by_id = run.by_id
    printed_vars: dict[str, float] = {}
    true_vars: dict[str, float] = {}
    upstream_failed: list[str] = []
    if claim.id in run.on_cycle:
        cycle = _cycle_through(by_id, claim.id, run.on_cycle)
        shown = " → ".join(cycle) if cycle else f"{claim.id} → … → {claim.id}"
        return Outcome("error", claimed, "", "", f"uses: forms a cycle {shown}; nothing to start")
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


def _cyclic(by_id: dict[str, Claim]) -> set[str]:
    """Ids of the claims on a ``uses:`` cycle: strongly connected components of more than one
    claim, or a claim that uses itself (Tarjan's algorithm, with an explicit stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: list[str] = []
    on_stack: set[str] = set()
    cyclic: set[str] = set()
    for root in by_id:
        if root in index:
            continue
        work = [(root, iter(by_id[root].header.uses.values()))]
        index[root] = low[root] = len(index)
        component.append(root)
        on_stack.add(root)
        while work:
            node, upstream_ids = work[-1]
            for upstream in upstream_ids:
                if upstream not in by_id:
                    continue
                if upstream not in index:
                    index[upstream] = low[upstream] = len(index)
                    component.append(upstream)
                    on_stack.add(upstream)
                    work.append((upstream, iter(by_id[upstream].header.uses.values())))
                    break
                if upstream in on_stack:
                    low[node] = min(low[node], index[upstream])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members: list[str] = []
                    while True:
                        member = component.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1 or node in by_id[node].header.uses.values():
                        cyclic.update(members)
    return cyclic


_CYCLE_SEARCH = 10_000
"""Claims visited at most to spell out one cycle in a message."""


def _cycle_through(by_id: dict[str, Claim], start: str, on_cycle: set[str]) -> list[str]:
    """The ids of a shortest ``uses:`` cycle through ``start`` ([start, …, start]), by a
    bounded breadth-first search among the claims on cycles; [] when the search gives up."""
    came_from: dict[str, str] = {}
    frontier = [start]
    visited = 0
    while frontier and visited < _CYCLE_SEARCH:
        following: list[str] = []
        for node in frontier:
            visited += 1
            for upstream in by_id[node].header.uses.values():
                if upstream == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if upstream in on_cycle and upstream not in came_from:
                    came_from[upstream] = node
                    following.append(upstream)
        frontier = following
    return []


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
        _RUNS.pop(claims_file.path, None)
        while len(_RUNS) >= _KEPT_RUNS:
            del _RUNS[next(iter(_RUNS))]  # the oldest
        _RUNS[claims_file.path] = run
    return run


def check_claim(claims_file: ClaimsFile, claim: Claim) -> Finding:
    """Check one claim of a loaded file (anchoring problems become stale/error findings)."""
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
    run = _file_run(claims_file)
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
        claimed=outcome.claimed,
        expected=outcome.expected,
        tolerance=outcome.tolerance,
        message=outcome.message,
        fix=fix,
        details=outcome.details,
        inherits=_upstream_failures(run, claim) if outcome.verdict == "pass" else (),
    )


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
    by_id = {c.id: c for c in claims_file.claims}
    by_label: dict[str, list[Problem]] = {}  # grouped once: a file may hold 50 000 problems
    for problem in claims_file.problems:
        if problem.claim_id is not None:
            by_label.setdefault(problem.claim_id, []).append(problem)
    for label in claims_file.order:
        claim = by_id.get(label)
        if claim is not None:
            findings.append(check_claim(claims_file, claim))
        elif label in by_label:
            findings.append(claim_problem_finding(claims_file, by_label[label], label))
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


def run_paths(paths: list[Path], jobs: int = 1) -> list[Finding]:
    """Load and run every claim file under ``paths``; findings in file order (see
    :func:`map_files` for ``jobs``)."""
    return map_files(_check_one_file, iter_claim_files(paths), jobs)


def map_files(
    task: Callable[[Path], list[Finding]], files: list[Path], jobs: int = 1
) -> list[Finding]:
    """``task(file)`` for every file, findings in file order.

    With ``jobs`` > 1 and files worth it together (:data:`PARALLEL_MIN_BYTES`), the files are
    handled in that many worker processes; the findings are those of a serial run, in the
    same order. ``task`` must be a module-level function (workers find it by name).
    """
    if jobs > 1 and len(files) > 1 and _bytes(files) >= PARALLEL_MIN_BYTES:
        return _run_parallel(task, files, jobs)
    findings: list[Finding] = []
    for path in files:
        findings.extend(task(path))
    return findings


PARALLEL_MIN_BYTES = 100_000
"""Files smaller than this together (about 400 claims, or a few long lessons) are handled in
this process: starting workers and sending findings back costs more than it saves."""


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # reported when the file is loaded
        return 0


def _bytes(files: list[Path]) -> int:
    return sum(_size(path) for path in files)


def _check_one_file(path: Path) -> list[Finding]:
    return run_file(load_claims_file(path))


def _run_parallel(
    task: Callable[[Path], list[Finding]], files: list[Path], jobs: int
) -> list[Finding]:
    """``task`` over ``files`` in worker processes, one task per file, largest first (so no
    worker is left with a big file at the end). Files whose worker died (killed for memory,
    say) are handled again here, one by one, so the run reports every file as a serial run
    would."""
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    # fork starts a worker in milliseconds with every module already imported; elsewhere
    # (macOS, Windows) the platform's default start method.
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    results: dict[Path, list[Finding]] = {}
    order = sorted(files, key=_size, reverse=True)
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(files)), mp_context=context) as pool:
            futures: list[tuple[Path, Future[list[Finding]]]] = [
                (path, pool.submit(task, path)) for path in order
            ]
            for path, future in futures:
                try:
                    results[path] = future.result()
                except Exception:  # a dead worker: handle that file again below
                    continue
    except Exception:  # the pool itself could not start (no /dev/shm, process limits)
        pass
    findings: list[Finding] = []
    for path in files:
        found = results.get(path)
        findings.extend(found if found is not None else task(path))
    return findings
