"""Hostile input, end to end: the real command line on the corpus of ``tests/hostile/``.

Every run is a separate process (``python -m checkers check|scan|extract``, and ``python -m
pytest claims/`` for the plugin) with a wall-clock timeout and a 1 GiB address-space limit, in
a scratch project whose audit hook turns any process spawn, socket, write outside the project
or read of the planted secret into a ``CANARY-audit-*`` file. For every run:

* the exit code is 0, 1 or 2 (never a crash, a signal or a timeout) and no traceback is
  printed;
* no ``CANARY*`` file appears and the planted secret is never printed;
* every error names its file (and line, where it has one), and the good claim file and
  lesson among the hostile ones still report their results;
* the process's peak memory stays well under the limit.

The runs go two at a time (they are independent); set ``LESSONCHECK_HOSTILE_FIGURES=path`` to
get every run's time and peak memory as JSON (the figures in ``docs/security.md``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

from checkers import runner
from checkers.claims import load_claims_file
from checkers.report import REPORT_FILES
from tests.hostile import corpus

pytestmark = pytest.mark.slow  # every input in a subprocess with limits: about a minute

TIMEOUT = 20.0
"""Seconds one run may take (the slowest hostile input needs about 8 on one core)."""
ADDRESS_SPACE = 1 << 30
"""RLIMIT_AS of every run: 1 GiB."""
PEAK_MB = 512
"""Peak resident memory every run must stay under: half the limit."""
WORKERS = 2


@dataclass(frozen=True)
class Run:
    """One finished process."""

    name: str
    args: tuple[str, ...]
    cwd: str
    returncode: int | None
    """Exit code, or None when killed by a signal."""
    signal: int | None
    timed_out: bool
    seconds: float
    peak_mb: float
    """The child's own peak resident memory (VmHWM at exit), in MiB; ru_maxrss from os.wait4
    when it did not exit normally (that one also counts the forked test process's pages)."""
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _limit_memory() -> None:  # runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def _run(
    name: str, scratch: corpus.Scratch, args: Sequence[str], extra_env: dict[str, str] | None = None
) -> Run:
    """Run ``python ARGS`` in the scratch project; measure this child's own rusage."""
    logs = scratch.root / "tmp" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    out_path, err_path = logs / f"{name}.out", logs / f"{name}.err"
    peak_path = logs / f"{name}.hwm"
    env = {**scratch.env(), **(extra_env or {}), "HOSTILE_HWM_FILE": str(peak_path)}
    started = time.monotonic()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, *args],
            cwd=scratch.root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            preexec_fn=_limit_memory,
            start_new_session=True,
        )
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > TIMEOUT:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)  # already reaped by wait4
    code = process.returncode
    return Run(
        name=name,
        args=tuple(args),
        cwd=str(scratch.root),
        returncode=code if code >= 0 else None,
        signal=-code if code < 0 else None,
        timed_out=timed_out,
        seconds=round(time.monotonic() - started, 2),
        peak_mb=round(
            int(peak_path.read_text() if peak_path.exists() else usage.ru_maxrss) / 1024, 1
        ),
        stdout=out_path.read_text(encoding="utf-8", errors="replace"),
        stderr=err_path.read_text(encoding="utf-8", errors="replace"),
    )


# ------------------------------------------------------------------------------ the plan

SMALL_LESSONS = [
    *sorted(p.name for p in (corpus.HERE / "lessons").glob("*.md")),
    *corpus.SPECIAL_LESSONS,
    "secret-link.md",
    "git-config.md",
    "passwd-link.md",
    "zero.md",
    "loop.md",
    "directory.md",
    "fifo.md",
    "missing.md",
]
UNREADABLE_LESSONS = {
    "invalid_utf8.md": "not valid UTF-8",
    "utf16_bom.md": "UTF-16",
    "binary_nul.md": "not a text file",
    "secret-link.md": "outside the project",
    "git-config.md": "hidden folder .git",
    "passwd-link.md": "outside the project",
    "zero.md": "outside the project",
    "loop.md": "loop",
    "directory.md": "not a regular file",
    "fifo.md": "not a regular file",
    "missing.md": "cannot read",
}
EXTRACT_BIG = ["deep_parens.md", "deep_lists.md", "latex_bomb.md", "long_table.md", "pe_lines.md"]


GOOD_CHECK = ["-m", "checkers", "check", "claims/good.yaml"]
GOOD_PYTEST = ["-m", "pytest", "claims/good.yaml", "-q", "-p", "no:cacheprovider"]
GOOD_PYTEST += ["-p", "no:hypothesispytest"]
LINKED_REPORTS = ["check-report-link", "pytest-report-link"]
"""Runs whose --report-dir is a committed link out of the project."""
LINKED_BASELINES = ["check-baseline-zero", "check-baseline-fifo", "pytest-baseline-zero"]
"""Runs whose --baseline is a link to /dev/zero or a FIFO."""


@dataclass(frozen=True)
class Plan:
    small: corpus.Scratch
    big: corpus.Scratch
    runs: dict[str, Run]


def _jobs(
    small: corpus.Scratch, big: corpus.Scratch
) -> list[tuple[str, corpus.Scratch, list[str]]]:
    lessons = [f"content/{name}" for name in SMALL_LESSONS]
    jobs: list[tuple[str, corpus.Scratch, list[str]]] = [
        ("check-claim-files", small, ["-m", "checkers", "check", "claims", "--json", "check.json"]),
        ("scan-lessons", small, ["-m", "checkers", "scan", *lessons, "--json", "scan.json"]),
        ("extract-check", small, ["-m", "checkers", "extract", "--check", *lessons, "-o", "x"]),
        (
            "extract-write",
            small,
            [
                "-m",
                "checkers",
                "extract",
                "content/good.md",
                "content/code_as_math.md",
                "-o",
                "drafted",
            ],
        ),
        (
            "extract-linked-folder",
            small,
            ["-m", "checkers", "extract", "content/good.md", "-o", "linked"],
        ),
        (
            "pytest-plugin",
            small,
            ["-m", "pytest", "claims", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q"],
        ),
        ("check-report-link", small, [*GOOD_CHECK, "--report-dir", "replink"]),
        ("pytest-report-link", small, [*GOOD_PYTEST, "--report-dir=replink2"]),
        ("check-baseline-zero", small, [*GOOD_CHECK, "--baseline", "zero.baseline"]),
        ("check-baseline-fifo", small, [*GOOD_CHECK, "--baseline", "fifo.baseline"]),
        ("pytest-baseline-zero", small, [*GOOD_PYTEST, "--baseline", "zero.baseline"]),
        (
            "scan-report-dir",
            small,
            ["-m", "checkers", "scan", "content/loop.md", "content/good.md", "--report-dir", "rep"],
        ),
        (
            "extract-check-big",
            big,
            ["-m", "checkers", "extract", "--check", *(f"content/{n}" for n in EXTRACT_BIG)],
        ),
    ]
    for name in corpus.BIG_CLAIM_FILES:
        jobs.append((f"check-{name}", big, ["-m", "checkers", "check", f"claims/{name}"]))
    for name in corpus.BIG_LESSONS:
        jobs.append((f"scan-{name}", big, ["-m", "checkers", "scan", f"content/{name}"]))
    # Slowest first, so that two workers finish together.
    slow = ("near_limit", "many_", "stale", "wide", "markdown_mix", "check-claim", "pytest")
    return sorted(jobs, key=lambda job: not any(s in job[0] for s in slow))


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory) -> Plan:
    small = corpus.build(tmp_path_factory.mktemp("hostile-small"), big=False)
    (small.root / "linked").symlink_to(small.outside, target_is_directory=True)
    (small.root / "replink").symlink_to(small.outside, target_is_directory=True)
    (small.root / "replink2").symlink_to(small.outside, target_is_directory=True)
    (small.root / "zero.baseline").symlink_to("/dev/zero")
    os.mkfifo(small.root / "fifo.baseline")
    big = corpus.build(
        tmp_path_factory.mktemp("hostile-big"), claim_files=["good.yaml"], links=False
    )
    jobs = _jobs(small, big)
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        finished = list(pool.map(lambda job: _run(*job), jobs))
    runs = {run.name: run for run in finished}
    figures = os.environ.get("LESSONCHECK_HOSTILE_FIGURES")
    if figures:
        table = [
            {k: v for k, v in asdict(r).items() if k not in ("stdout", "stderr")} for r in finished
        ]
        Path(figures).write_text(json.dumps(table, indent=2), encoding="utf-8")
    return Plan(small, big, runs)


def _names() -> Iterator[str]:
    yield from ("check-claim-files", "scan-lessons", "extract-check", "extract-write")
    yield from ("extract-linked-folder", "pytest-plugin", "extract-check-big")
    yield from (*LINKED_REPORTS, *LINKED_BASELINES)
    yield from (f"check-{name}" for name in corpus.BIG_CLAIM_FILES)
    yield from (f"scan-{name}" for name in corpus.BIG_LESSONS)


# ------------------------------------------------------------------------------ every run


@pytest.mark.parametrize("name", list(_names()))
def test_run_ends_cleanly_within_limits(plan: Plan, name: str) -> None:
    run = plan.runs[name]
    assert not run.timed_out, f"{name} took longer than {TIMEOUT} s"
    assert run.signal is None, f"{name} was killed by signal {run.signal}"
    allowed = {0, 1} if name in ("pytest-plugin", "pytest-report-link") else {0, 1, 2}
    if name == "pytest-baseline-zero":
        allowed = {pytest.ExitCode.USAGE_ERROR}
    assert run.returncode in allowed, run.output[-3000:]
    for marker in ("Traceback", "INTERNALERROR", "Fatal Python error", "MemoryError"):
        assert marker not in run.output, run.output[-3000:]
    assert run.peak_mb < PEAK_MB, f"{name} peaked at {run.peak_mb} MiB"


def test_nothing_ran_and_nothing_leaked(plan: Plan) -> None:
    for scratch in (plan.small, plan.big):
        assert corpus.canaries(scratch.root) == []
        assert not list(scratch.root.parent.rglob("CANARY*"))
        assert sorted(p.name for p in scratch.outside.iterdir()) == ["secret.md"]
    for run in plan.runs.values():
        assert corpus.SECRET not in run.output, run.name
    for report in plan.small.root.glob("*.json"):
        assert corpus.SECRET not in report.read_text(encoding="utf-8")


# ------------------------------------------------------------------------------ check


def _findings(scratch: corpus.Scratch, report: str) -> list[dict[str, object]]:
    data = json.loads((scratch.root / report).read_text(encoding="utf-8"))
    findings: list[dict[str, object]] = data["findings"]
    return findings


def test_check_reports_every_claim_file_and_the_good_results(plan: Plan) -> None:
    run = plan.runs["check-claim-files"]
    assert run.returncode == 2  # input errors outrank the good file's failure
    findings = _findings(plan.small, "check.json")
    files = {p.name for p in (plan.small.root / "claims").iterdir()}
    reported = {Path(str(f["claims_file"])).name for f in findings}
    assert files <= reported, sorted(files - reported)
    good = {f["id"]: f["verdict"] for f in findings if f["claims_file"] == "claims/good.yaml"}
    assert good == {"good-right": "pass", "good-wrong": "fail"}
    assert "content/good.md:5" in run.stdout and "0.5 → 0.50, not 0.52" in run.stdout
    for finding in findings:
        if finding["verdict"] != "error":
            continue
        assert finding["claims_file"], finding
        line, column = finding["line"], finding["column"]
        if finding["location_kind"] == "lesson":  # as Finding.where prints it
            where = f"{finding['source']}:{line}" if line else str(finding["source"])
        else:
            where = str(finding["claims_file"])
            where += f":{line}:{column}" if line and column else ""
        assert where in run.stdout, finding


LOCATED = {
    # claim file: (line, part of the message), for problems that have a place in the file
    "duplicate_keys.yaml": (7, "duplicate key 'expression'"),
    "python_tags.yaml": (7, "python/object/apply:os.system"),
    "python_tag_directive.yaml": (8, "is not allowed"),
    "custom_tags.yaml": (3, "'!claim'"),
    "syntax_error.yaml": (4, "YAML syntax error"),
    "self_alias.yaml": (3, "nested more than"),
    "billion_laughs.yaml": (2, "more than 100,000 values"),
    "multi_document.yaml": (3, "another document"),
    "lesson_dotdot.yaml": (1, "stay inside"),
    "lesson_absolute.yaml": (1, "stay inside"),
    "lesson_walk_up.yaml": (2, "not found"),
    "lesson_symlink.yaml": (2, "outside the project"),
    "lesson_dev_zero.yaml": (2, "not a regular file"),
    "invalid_utf8.yaml": (3, "not valid UTF-8 (byte 0xe9)"),
    "lesson_git_config.yaml": (1, "hidden folder .git"),
    "control_character.yaml": (5, "control character U+0008"),
}
UNLOCATED = {
    "binary.yaml": "NUL",
    "utf16.yaml": "NUL",
    "passwd-link.yaml": "outside the project",
    "secret-link.yaml": "outside the project",
    "zero-link.yaml": "outside the project",
    "loop.yaml": "loop",
    "directory.yaml": "not a regular file",
    "fifo.yaml": "not a regular file",
}


def test_broken_claim_files_are_one_located_error_each(plan: Plan) -> None:
    findings = _findings(plan.small, "check.json")
    by_file = {
        Path(str(f["claims_file"])).name: f for f in findings if f["id"] == runner.FILE_LABEL
    }
    for name, (line, text) in LOCATED.items():
        finding = by_file[name]
        assert finding["verdict"] == "error" and finding["line"] == line, finding
        assert text in str(finding["message"]), finding
    for name, text in UNLOCATED.items():
        assert text in str(by_file[name]["message"]), by_file[name]


def test_claim_level_problems_stay_with_their_claims(plan: Plan) -> None:
    findings = _findings(plan.small, "check.json")
    payloads = {f["id"]: f for f in findings if f["claims_file"] == "claims/expr_payloads.yaml"}
    assert len(payloads) == 25
    assert payloads["where-dunder"]["verdict"] == "pass"  # a dunder is just a variable name
    for identifier in ("import-system", "eval-open", "lambda", "identity-open", "tower"):
        assert payloads[identifier]["verdict"] == "error"
    assert "division by zero" in str(payloads["divide-by-zero"]["message"])
    cycles = {f["id"]: f for f in findings if f["claims_file"] == "claims/uses_cycles.yaml"}
    assert "a → b → c → a" in str(cycles["a"]["message"])
    assert "self → self" in str(cycles["self"]["message"])
    assert cycles["downstream"]["verdict"] == "pass"
    twins = {f["id"]: f for f in findings if f["claims_file"] == "claims/duplicate_ids.yaml"}
    assert twins["twin"]["verdict"] == "pass"
    assert twins["twin[2]"]["verdict"] == "error" and twins["twin[2]"]["line"] == 10
    assert "duplicate_ids.yaml:5:5" in str(twins["twin[2]"]["message"])
    (loose,) = (f for f in findings if f["claims_file"] == "claims/tolerance_without_reason.yaml")
    assert loose["line"] == 8 and "tolerance.reason" in str(loose["message"])


def test_a_slow_claim_is_stopped_and_the_next_one_runs(plan: Plan) -> None:
    findings = _findings(plan.small, "check.json")
    slow = {f["id"]: f for f in findings if f["claims_file"] == "claims/slow_check.yaml"}
    assert slow["slow-law"]["verdict"] == "error"
    assert f"took longer than {runner.CLAIM_SECONDS:g} s" in str(slow["slow-law"]["message"])
    assert slow["after-slow"]["verdict"] == "pass"


def test_pytest_plugin_reports_every_claim(plan: Plan) -> None:
    run = plan.runs["pytest-plugin"]
    assert run.returncode == 1
    assert "error" not in run.stdout.splitlines()[-1]  # failures, never collection errors
    assert "claims/good.yaml::good-right PASSED" not in run.stdout  # -q
    assert "FAILED claims/good.yaml::good-wrong" in run.stdout
    assert "FAILED claims/slow_check.yaml::slow-law" in run.stdout
    assert "FAILED claims/python_tags.yaml::(file) - claims/python_tags.yaml:7:17" in run.stdout


# ------------------------------------------------------------------------------ scan, extract


def test_scan_names_every_unreadable_lesson_and_checks_the_rest(plan: Plan) -> None:
    run = plan.runs["scan-lessons"]
    assert run.returncode == 2
    findings = _findings(plan.small, "scan.json")
    errors = {Path(str(f["source"])).name: f for f in findings if f["id"] == "(lesson)"}
    for name, text in UNREADABLE_LESSONS.items():
        assert name in errors, name
        assert text in str(errors[name]["message"]), errors[name]
        assert f"content/{name}" in str(errors[name]["message"])
    good = sorted(str(f["verdict"]) for f in findings if f["source"] == "content/good.md")
    assert good == ["fail", "pass"]
    checked = {f["source"] for f in findings if f["id"] != "(lesson)"}
    assert {"content/code_as_math.md", "content/unicode_tricks.md"} <= checked


def test_extract_check_changes_nothing(plan: Plan) -> None:
    run = plan.runs["extract-check"]
    assert run.returncode == 2
    assert not (plan.small.root / "x").exists()
    for name in UNREADABLE_LESSONS:
        assert f"content/{name}" in run.stderr, name


def test_extract_writes_only_into_its_folder(plan: Plan) -> None:
    run = plan.runs["extract-write"]
    assert run.returncode == 0, run.output
    written = sorted(p.name for p in (plan.small.root / "drafted").iterdir())
    assert written == ["code_as_math.yaml", "good.yaml"]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(plan.small.root)
        drafted = load_claims_file(Path("drafted/good.yaml"))
    assert drafted.problems == ()
    assert len(drafted.claims) == 2
    refused = plan.runs["extract-linked-folder"]
    assert refused.returncode == 2 and "outside the project" in refused.stderr
    assert sorted(p.name for p in plan.small.outside.iterdir()) == ["secret.md"]


def test_big_inputs_are_refused_or_bounded(plan: Plan) -> None:
    assert "larger than 1,000,000 bytes" in plan.runs["scan-huge_line_5mb.md"].stdout
    assert "larger than 2,000,000 bytes" in plan.runs["check-too_big.yaml"].stdout
    assert "nested more than 64" in plan.runs["check-deep_flow.yaml"].stdout
    assert "50000 errors" in plan.runs["check-many_problems.yaml"].stdout
    assert "6000 passed" in plan.runs["check-many_valid.yaml"].stdout
    assert "5000 passed" in plan.runs["check-uses_chain.yaml"].stdout
    assert "6000 stale" in plan.runs["check-stale_many.yaml"].stdout


def test_reports_are_written_whatever_the_lessons(plan: Plan) -> None:
    run = plan.runs["scan-report-dir"]
    assert "Traceback" not in run.output, run.output[-2000:]
    assert run.returncode == 2
    written = sorted(p.name for p in (plan.small.root / "rep").iterdir())
    assert written == ["report.html", "report.json", "report.md", "report.sarif"]


# ------------------------------------------------------------------------------ forged output


def _workflow_commands(output: str) -> list[tuple[str, str]]:
    """(command, line) for every line the GitHub runner would take as a workflow command.

    As the runner reads its log: ``::name props::data`` once the line's leading blanks are
    trimmed, and the legacy ``##[name props]data`` anywhere in the line. Every line break
    Python knows counts (stricter than the runner, which splits at CR and LF).
    """
    found = []
    for line in output.splitlines():
        start = line.lstrip()
        if start.startswith("::") and "::" in start[2:]:
            found.append((start[2:].split("::", 1)[0].split(" ", 1)[0], line))
        legacy = line.find("##[")
        if legacy >= 0 and "]" in line[legacy:]:
            found.append((line[legacy + 3 :].split("]", 1)[0].split(" ", 1)[0], line))
    return found


def _ours(command: str, line: str) -> bool:
    """A lessoncheck annotation or notice: error/warning/notice titled ``lessoncheck …``."""
    return command in ("error", "warning", "notice") and ("title=lessoncheck" in line)


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """Every printing route, run on files whose names and text forge workflow commands."""
    scratch = corpus.build(
        tmp_path_factory.mktemp("hostile-forged"), claim_files=["good.yaml"], big=False, links=False
    )
    corpus.forged_names(scratch)
    github = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": str(scratch.root / "summary.md"),
    }
    pytest_args = ["-m", "pytest", "claims", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"]
    jobs: list[tuple[str, list[str], dict[str, str]]] = [
        ("check", ["-m", "checkers", "check", "claims", "--report-dir", "rep"], github),
        ("scan", ["-m", "checkers", "scan", corpus.FORGED_LESSON, "content/good.md"], github),
        ("baseline", ["-m", "checkers", "baseline", "claims", "-o", "base.json"], {}),
        ("pytest", [*pytest_args, "-v", "-rA"], github),
        ("pytest-baseline", [*pytest_args, "-rxX", "--baseline", "base.json"], github),
        ("collect", [*pytest_args, "--collect-only"], {}),
        ("collect-q", [*pytest_args, "--collect-only", "-q"], {}),
        ("extract", ["-m", "checkers", "extract", corpus.BELL_LESSON, "-o", "drafts"], {}),
        ("fix", ["-m", "checkers", "fix", "claims/forged.yaml"], {}),
    ]
    runs = {name: _run(f"forged-{name}", scratch, args, env) for name, args, env in jobs}
    summary = scratch.root / "summary.md"
    runs["summary"] = dataclasses.replace(
        runs["check"], name="summary", stdout=summary.read_text(encoding="utf-8"), stderr=""
    )
    return runs


FORGED_RUNS = ["check", "scan", "baseline", "pytest", "pytest-baseline", "collect", "collect-q"]
FORGED_RUNS += ["extract", "fix", "summary"]


@pytest.mark.parametrize("name", FORGED_RUNS)
def test_no_route_prints_a_forged_command_or_a_control_character(
    forged: dict[str, Run], name: str
) -> None:
    run = forged[name]
    assert not run.timed_out and run.returncode in (0, 1, 2), run.output[-3000:]
    assert "Traceback" not in run.output and "INTERNALERROR" not in run.output, run.output[-3000:]
    commands = _workflow_commands(run.output)
    forgeries = [line for command, line in commands if not _ours(command, line)]
    assert forgeries == [], forgeries
    for char in "\x1b\x07\r\x08":
        assert char not in run.output, (char, run.output[-3000:])


def test_the_forged_names_are_shown_escaped_and_still_checked(forged: dict[str, Run]) -> None:
    shown = "e\\x1b]0;title\\x07\\n::stop-commands::pwned.yaml"
    bell = "content/bell\\x07\\rover\\x1b[2K.md"
    assert f"{bell}:4" in forged["check"].stdout
    # A table cell is one line: the summary flattens the carriage return like any line break.
    assert "content/bell\\\\x07 over\\\\x1b\\[2K.md:4" in forged["summary"].stdout
    assert "updated drafts/bell\\x07\\rover\\x1b[2K.yaml" in forged["extract"].stdout
    assert f"claims/{shown}::forged-wrong FAILED" in forged["pytest"].stdout
    assert f"<ClaimsYamlFile {shown}>" in forged["collect"].stdout
    assert f"claims/{shown}::forged-right" in forged["collect-q"].stdout
    assert "XFAIL" in forged["pytest-baseline"].stdout
    assert "\\x3a:error file=README.md,line=1::forged.md" in forged["scan"].stdout
    assert "#\\x23[add-mask]legacy syntax" in forged["check"].stdout
    assert " \\x3a:warning file=README.md::a context line" in forged["fix"].stdout
    assert "diff lines hold control characters or CI commands" in forged["fix"].stderr
    annotations = [line for c, line in _workflow_commands(forged["check"].stdout) if c == "error"]
    assert len(annotations) == 3  # good-wrong and the two forged-wrong: nothing forged


def test_a_linked_report_folder_is_replaced_and_a_linked_baseline_refused(plan: Plan) -> None:
    for name, folder in zip(LINKED_REPORTS, ("replink", "replink2"), strict=True):
        run = plan.runs[name]
        assert run.returncode == 1, run.output[-2000:]  # good-wrong fails; nothing else
        written = plan.small.root / folder
        assert not written.is_symlink(), name
        assert sorted(p.name for p in written.iterdir()) == sorted(REPORT_FILES), name
    # (test_nothing_ran_and_nothing_leaked: the folder the links pointed to is untouched)
    for name in LINKED_BASELINES:
        run = plan.runs[name]
        assert ".baseline: cannot read the baseline: not a regular file" in run.output, name
        assert run.seconds < 10 and run.peak_mb < 200, (name, run.seconds, run.peak_mb)


# ------------------------------------------------------------------------------ Python in claims/


def test_pytest_refuses_python_a_pull_request_puts_in_the_claims_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A ``conftest.py`` or ``test_*.py`` in ``claims/`` would be imported by pytest itself;
    the plugin stops the run before that, however pytest is pointed at the folder."""
    scratch = corpus.build(
        tmp_path_factory.mktemp("hostile-python"), claim_files=["good.yaml"], big=False, links=False
    )
    for name in ("conftest.py", "test_claims.py"):
        canary = f"CANARY-{name.replace('.', '-')}"
        (scratch.root / "claims" / name).write_text(
            f"open({canary!r}, 'w').close()\n", encoding="utf-8"
        )
    plugin_off = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest"]
    for args in (["claims"], ["claims/good.yaml"], ["."], []):
        run = _run(
            f"python-{len(args) and args[0].replace('/', '-')}",
            scratch,
            ["-m", "pytest", *args, *plugin_off],
        )
        assert run.returncode == pytest.ExitCode.USAGE_ERROR, (args, run.output[-2000:])
        assert "refusing to run" in run.stderr and "Python in a claims folder" in run.stderr
        assert "Traceback" not in run.output
    assert corpus.canaries(scratch.root) == []
    check = _run("python-check", scratch, ["-m", "checkers", "check", "claims"])
    assert check.returncode == 1 and "1 passed, 1 failed" in check.stdout  # runs nothing
    assert corpus.canaries(scratch.root) == []


# ------------------------------------------------------------------------------ in-process


def test_a_claim_file_has_a_time_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a file's claims used FILE_SECONDS, the rest become errors without running."""
    scratch = corpus.build(tmp_path, claim_files=["slow_check.yaml"], big=False, links=False)
    source = (scratch.root / "claims" / "slow_check.yaml").read_text(encoding="utf-8")
    head, _, rest = source.partition("  - id: slow-law\n")
    slow, _, tail = rest.partition("  - id: after-slow\n")
    many = head + "".join(f"  - id: slow-{i}\n{slow}" for i in range(6))
    (scratch.root / "claims" / "slow_check.yaml").write_text(
        many + "  - id: after-slow\n" + tail, encoding="utf-8"
    )
    monkeypatch.chdir(scratch.root)
    monkeypatch.setattr(runner, "CLAIM_SECONDS", 0.4)
    monkeypatch.setattr(runner, "FILE_SECONDS", 1.0)
    started = time.monotonic()
    findings = runner.run_file(load_claims_file(Path("claims/slow_check.yaml")))
    assert time.monotonic() - started < 5
    messages = [f.message for f in findings]
    assert sum("took longer than 0.4 s" in m for m in messages) == 2
    assert sum("took longer than" in m for m in messages) == 3  # the last one: what was left
    assert sum(m.startswith("not checked") for m in messages) == 4  # incl. after-slow
