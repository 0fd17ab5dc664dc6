"""pytest adapter: each claim in ``claims/*.yaml`` becomes one test item.

Only adapting lives here (collect → Item with ``runtest``, ``repr_failure``, ``reportinfo``);
loading is :mod:`checkers.claims`, checking is :mod:`checkers.runner`, reports are
:mod:`checkers.report`. Registered as a ``pytest11`` entry point, so ``pytest claims/`` works
right after ``pip install``.

Each item stores its finding in ``user_properties``, which pytest-xdist sends back to the
controller, so ``--report-dir`` writes the same report serially and with ``-n auto``.

With ``--baseline FILE`` a failure recorded in the baseline is reported as *xfail* ("known
(baseline)") instead of failing; the closing summary and ``report.json`` list what was fixed since.

Severities and quiet findings, as pytest users read them:

- a **slip** (only the last printed digit is off) *passes* with a :class:`SlipWarning`, shown in
  pytest's warnings summary at the lesson line: it is worth a look but is not broken, which is
  what a warning means to pytest users (xfail would say "known to be broken", and they declare
  those themselves). ``--lessoncheck-strict`` (or pytest's own ``--strict``, or ``strict = true``
  in the project configuration) makes it fail; ``-W error::checkers.pytest_plugin.SlipWarning``
  does too, the pytest way;
- a failure **suppressed** by a ``lessoncheck: ignore`` comment or the configuration is an
  *xfail* ("suppressed: …"): counted, not failing, like a baseline's known failures;
- a statement the author **marked wrong** is an *xfail* when it is wrong and an *xpass* when it
  holds after all (never a failure, whatever pytest's strict_xfail says).

The closing summary has a ``lessoncheck`` section listing slips and counting the rest.
"""

from __future__ import annotations

import gc
import io
import json
import os
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checkers import safeyaml
from checkers.baseline import Baseline, BaselineError
from checkers.baseline import load as load_baseline
from checkers.claims import Claim, ClaimsFile, load_claims_file, read_claims_text
from checkers.config import Config, ConfigError, project_config
from checkers.finding import FILE_LABEL, Finding, counts_line, fails_run, summarize
from checkers.report.text import format_finding, inert, shorten
from checkers.runner import RecentRuns, check_claim, claim_problem_finding

__all__ = ["ClaimFailure", "ClaimItem", "ClaimsYamlFile", "SlipWarning"]

_PROPERTY = "lessoncheck_finding"
_BASELINE = pytest.StashKey[Baseline]()
_RUNS = pytest.StashKey[RecentRuns]()
_CONFIG = pytest.StashKey[Config]()
_STRICT = pytest.StashKey[bool]()


class SlipWarning(UserWarning):
    """A claim whose printed value is off in its last digit only: it passes, with this warning
    (``--lessoncheck-strict`` makes it fail)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lessoncheck", "lessoncheck: fact-check lesson claims")
    group.addoption(
        "--report-dir",
        metavar="DIR",
        default=None,
        help="write report.json (and the other reports) for the claims run into DIR",
    )
    group.addoption(
        "--claims-dir-name",
        metavar="NAME",
        default="claims",
        help="collect YAML files as claim files inside folders of this name (default: claims)",
    )
    group.addoption(
        "--baseline",
        metavar="FILE",
        default=None,
        help="failures recorded in this baseline (`lessoncheck baseline`) xfail instead of failing",
    )
    group.addoption(
        "--lessoncheck-strict",
        action="store_true",
        default=False,
        help="slips (only the last printed digit off) fail too; pytest's own --strict does the "
        "same (lessoncheck's command line calls this --strict)",
    )


def _pytest_strict(config: pytest.Config) -> bool:
    """pytest's own strict mode (``--strict``, ``strict = true``; pytest 9 and later)."""
    try:
        return bool(config.getini("strict"))
    except ValueError:  # pytest 8: no such ini option
        return False


def pytest_configure(config: pytest.Config) -> None:
    try:
        project = project_config(config.invocation_params.dir)
    except ConfigError as error:
        raise pytest.UsageError(f"lessoncheck: {error}") from None
    config.stash[_CONFIG] = project
    config.stash[_STRICT] = (
        bool(config.getoption("--lessoncheck-strict")) or project.strict or _pytest_strict(config)
    )
    baseline_file = config.getoption("--baseline")
    if baseline_file:
        try:
            config.stash[_BASELINE] = load_baseline(
                config.invocation_params.dir / str(baseline_file)
            )
        except BaselineError as error:
            raise pytest.UsageError(inert(f"lessoncheck: {error}")) from None
    config.stash[_RUNS] = RecentRuns()
    config.pluginmanager.register(_ReportCollector(config), "lessoncheck-reports")


_FROZEN = pytest.StashKey[bool]()


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection left alive, so the garbage collector stops walking it.

    Checking a claim allocates thousands of short-lived objects; each collection they trigger
    at Python's default threshold walks everything alive, and after collecting 10 000 claims
    that is a lot (items, claims, lessons): freezing it made ``pytest claims/`` a fifth faster.
    Collected items live until the session ends anyway; :func:`pytest_unconfigure` unfreezes
    them, last of all (unfrozen before pytest's closing summary and collections, they made
    those walk every object again: 2.8 s of a 10 000-claim run). A process that froze objects
    itself is left alone.
    """
    refused = session.config.stash.get(_REFUSED, "")
    if refused:
        raise pytest.UsageError(refused)
    if gc.get_freeze_count() == 0 and any(isinstance(i, ClaimItem) for i in session.items):
        gc.freeze()
        session.config.stash[_FROZEN] = True


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_FROZEN, False):
        gc.unfreeze()
        config.stash[_FROZEN] = False


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A claim file's collector, or None for every file that is not one.

    A YAML file is a claim file when it is named on the command line, or lies directly in a
    claims folder named on the command line (``pytest claims/``: every YAML file there, so a
    broken one is reported, not skipped). Elsewhere (``pytest .``, ``testpaths``) a YAML file in
    a folder of that name is collected only when it says so, with a top-level ``lesson:`` or
    ``claims:`` key (:func:`_declares_claims`): an application's ``tests/fixtures/claims/
    insurance.yaml`` is someone else's file, and lessoncheck must never fail their run.
    """
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    session = parent.session
    if not session.isinitpath(file_path):
        named = _in_claims_folder(file_path, session)
        if named is None:
            return None
        if not named and not _declares_claims(file_path):
            return None
    return _claims_file_node(parent, file_path)


def _in_claims_folder(file_path: Path, session: pytest.Session) -> bool | None:
    """None when no folder above ``file_path`` (inside pytest's root folder) bears the claims
    folder name; else whether that folder, or one between it and the file, was named on the
    command line. Claim files mirror their lessons' folders (``claims/week1/index.yaml``), so
    a claims folder is searched to any depth."""
    name = session.config.getoption("--claims-dir-name")
    root = session.config.rootpath
    named = False
    for folder in file_path.parents:
        if not folder.is_relative_to(root):
            return None
        named = named or session.isinitpath(folder)
        if folder.name == name:
            return named
        if folder == root:
            return None
    return None


_SNIFF_CHARS = 65_536
"""How far into a YAML file found on the way its top-level key is looked for."""
_CLAIMS_KEY = re.compile(r"^(?:lesson|claims|'lesson'|\"lesson\")[ \t]*:", re.MULTILINE)


def _declares_claims(path: Path) -> bool:
    """Whether the file starts (within :data:`_SNIFF_CHARS`) like a claim file: a line that
    begins with the top-level key ``lesson:`` or ``claims:``. Read as every claim file is
    (:func:`checkers.claims.read_claims_text`: a regular UTF-8 file of bounded size inside the
    project), so a link out of the project, to ``/dev/zero`` or a FIFO is not one."""
    try:
        text = read_claims_text(path)
    except (safeyaml.YamlError, OSError):
        return False
    return _CLAIMS_KEY.search(text, 0, _SNIFF_CHARS) is not None


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A claims folder (one holding claim files) that holds Python is not collected, and the
    run is refused once collection ends: pytest would import that Python (see
    :func:`pytest_load_initial_conftests` for the folders named on the command line)."""
    if collection_path.name != config.getoption("--claims-dir-name"):
        return None
    if not collection_path.is_dir() or collection_path.is_symlink():
        return None
    python = _python_files(collection_path)
    if python and any(_declares_claims(p) for p in _yaml_files(collection_path)):
        # Found while collecting: the folder is skipped (so pytest never loads its conftest)
        # and the run stops once collection ends (an error raised here would become a
        # collection error with a traceback).
        config.stash[_REFUSED] = _refusal(python)
        return True
    return None


_REFUSED = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, args: list[str]) -> None:
    """Refuse a claims folder named on the command line that holds Python, before pytest
    imports its ``conftest.py`` (pytest loads the conftests of the folders it is given right
    after this hook, and the ``test_*.py`` files in them while collecting)."""
    name = early_config.known_args_namespace.claims_dir_name
    for argument in early_config.known_args_namespace.file_or_dir or []:
        path = early_config.invocation_params.dir / argument.split("::")[0]
        folder = path if path.is_dir() else path.parent
        if folder.name != name or not folder.is_dir() or folder.is_symlink():
            continue
        # Named on the command line, any YAML makes it a claims folder: a pull request that
        # breaks every claim file must not get its conftest.py run for it.
        python = _python_files(folder)
        if python and _yaml_files(folder):
            raise pytest.UsageError(_refusal(python))


_WALK_LIMIT = 10_000
"""Entries looked at per claims folder when searching it for Python files."""


def _python_files(folder: Path) -> list[Path]:
    return _files(folder, (".py", ".pyc", ".pth", ".so"))


def _yaml_files(folder: Path) -> list[Path]:
    return _files(folder, (".yaml", ".yml"))


def _files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """Files under ``folder`` (links not followed, at most :data:`_WALK_LIMIT` entries)."""
    found: list[Path] = []
    seen = 0
    for top, folders, files in os.walk(folder):
        seen += len(folders) + len(files)
        found.extend(Path(top) / f for f in files if f.endswith(suffixes))
        if seen > _WALK_LIMIT:
            break
    return sorted(found)


def _refusal(files: list[Path]) -> str:
    """Why the run stops: pytest would import (run) these files, and claims folders come from
    pull requests. A claims folder holds YAML only."""
    shown = ", ".join(str(path) for path in files[:3]) + (" …" if len(files) > 3 else "")
    return inert(
        f"lessoncheck: refusing to run: {shown}: Python in a claims folder, which pytest would "
        "import and so run. Claims folders hold YAML only; move the file out. Untrusted pull "
        "requests are checked with `lessoncheck check`, which runs nothing from the repository "
        "(see docs/security.md)."
    )


def _claims_file_node(parent: pytest.Collector, path: Path) -> ClaimsYamlFile:
    """The claim file's collector, whose name and node id (what pytest prints in progress
    lines, summaries and ``--collect-only``) follow the output rule: a file name from a pull
    request may hold ESC, a newline or a workflow command. (pytest's own folder nodes print
    their names raw in ``--collect-only``; a claim file's node id carries its folders inert.)"""
    node = ClaimsYamlFile.from_parent(parent, path=path)
    if inert(node.nodeid) == node.nodeid and inert(node.name) == node.name:
        return node
    name, nodeid = inert(node.name), inert(node.nodeid)
    return ClaimsYamlFile.from_parent(parent, path=path, name=name, nodeid=nodeid)


class ClaimFailure(Exception):
    """Raised by an item whose claim does not hold; carries the finding to report."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


class ClaimsYamlFile(pytest.File):
    """A claim file; yields one item per claim, plus one for file-level problems."""

    def collect(self) -> Iterator[pytest.Item]:
        claims_file = load_claims_file(self.path)
        file_problems = [p for p in claims_file.problems if p.claim_id is None]
        if file_problems:
            yield ClaimItem.from_parent(
                self, name=FILE_LABEL, claims_file=claims_file, claim=None, label=FILE_LABEL
            )
        by_id = {claim.id: claim for claim in claims_file.claims}
        for label in claims_file.order:
            claim = by_id.get(label)
            yield ClaimItem.from_parent(
                self, name=inert(label), claims_file=claims_file, claim=claim, label=label
            )


class ClaimItem(pytest.Item):
    """One claim: running it recomputes the claim; failing it shows where and how to fix it."""

    def __init__(
        self,
        *,
        claims_file: ClaimsFile,
        claim: Claim | None,
        label: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.claims_file = claims_file
        self.claim = claim
        self.label = label

    def _finding(self) -> Finding:
        if self.claim is not None:
            return check_claim(self.claims_file, self.claim, self.config.stash[_RUNS])
        problems = [
            p
            for p in self.claims_file.problems
            if p.claim_id == (None if self.label == FILE_LABEL else self.label)
        ]
        return claim_problem_finding(self.claims_file, problems, self.label)

    def runtest(self) -> None:
        finding = self._finding()
        project = self.config.stash.get(_CONFIG, None)
        if project is not None:
            finding = project.apply([finding])[0]
        self.user_properties.append((_PROPERTY, json.dumps(finding.to_json(), ensure_ascii=False)))
        if finding.verdict == "pass":
            return
        if finding.verdict == "marked_wrong":
            reason = inert(f"{finding.where}: {finding.message}")
            if finding.severity is None:  # it holds: an xpass says so, and never fails
                self.add_marker(pytest.mark.xfail(reason=reason, strict=False))
                return
            pytest.xfail(reason)
        if finding.verdict == "suppressed":
            pytest.xfail(inert(f"{finding.where}: {finding.message}"))
        strict = self.config.stash.get(_STRICT, False)
        if not fails_run(finding, strict=strict) and finding.is_slip:
            warnings.warn_explicit(
                SlipWarning(
                    inert(f"slip: {finding.message} (passes; --lessoncheck-strict fails it)")
                ),
                SlipWarning,
                filename=finding.source or str(self.path),
                lineno=finding.line or 0,
            )
            return
        baseline = self.config.stash.get(_BASELINE, None)
        if baseline is not None and baseline.matches(finding):
            pytest.xfail(inert(f"known (baseline): {finding.where}: {finding.message}"))
        raise ClaimFailure(finding)

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            return format_finding(excinfo.value.finding)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        # pytest prints the path (after the node id, in verbose runs) and the label raw.
        if self.claim is not None and self.claim.anchor is not None and self.claim.lesson_path:
            lesson = Path(inert(str(self.claim.lesson_path)))
            return lesson, self.claim.anchor.line - 1, inert(f"claim {self.label}")
        return Path(inert(str(self.path))), None, inert(f"claim {self.label}")


class _ReportCollector:
    """Gathers every claim's finding (from workers too) and writes the reports at session end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.findings: list[Finding] = []
        self.unwritten = ""
        """Why the reports could not be written, once that happened."""
        self.written: list[Path] = []
        """The report files written at session end, for the terminal summary."""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        for name, value in report.user_properties:
            if name == _PROPERTY:
                self.findings.append(Finding.from_json(json.loads(str(value))))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):
            return  # an xdist worker: the controller writes the report
        report_dir = self.config.getoption("--report-dir")
        if report_dir and self.findings:
            from checkers.files import WriteError, run_root
            from checkers.report import write_reports

            try:
                start = self.config.invocation_params.dir
                root = run_root([start / arg.split("::")[0] for arg in self.config.args])
                self.written = write_reports(
                    Path(report_dir), self.findings, root, self._baseline_section()
                )
            except WriteError as error:
                # Said in the terminal summary (after pytest's own), and the run exits 2 as
                # the command line does: a report CI expects is missing.
                self.unwritten = f"lessoncheck: the reports were not written: {error}"
                session.exitstatus = 2
                report_dir = None
        if self.findings and os.environ.get("GITHUB_ACTIONS") == "true":
            self._github(report_dir)

    def _baseline_section(self) -> dict[str, Any] | None:
        baseline = self.config.stash.get(_BASELINE, None)
        if baseline is None:
            return None
        file = str(self.config.getoption("--baseline"))
        return {"baseline": baseline.compare(self.findings, file).to_json()}

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if hasattr(self.config, "workerinput"):
            return
        if self.unwritten:
            terminalreporter.write_sep("-", "lessoncheck reports", red=True)
            terminalreporter.write_line(inert(self.unwritten), red=True)
        if self.written:
            from checkers.report import written_line

            terminalreporter.write_line(inert(written_line(self.written)))
        self._severity_summary(terminalreporter)
        baseline = self.config.stash.get(_BASELINE, None)
        if baseline is None:
            return
        comparison = baseline.compare(self.findings, str(self.config.getoption("--baseline")))
        terminalreporter.write_sep("-", "lessoncheck baseline")
        for line in comparison.fixed_lines():
            terminalreporter.write_line(inert(line))
        terminalreporter.write_line(inert(comparison.summary()))

    def _severity_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """Slips one line each, then the counts, when there are slips or quiet findings."""
        counts = summarize(self.findings)
        if not (counts["slip"] or counts["suppressed"] or counts["marked_wrong"]):
            return
        terminalreporter.write_sep("-", "lessoncheck")
        for finding in self.findings:
            if finding.is_slip:
                line = f"slip: {finding.where}  {shorten(finding.quote, 48)}: {finding.message}"
                terminalreporter.write_line(inert(line))
        tail = ""
        if counts["slip"]:
            strict = self.config.stash.get(_STRICT, False)
            tail = "; slips fail (strict)" if strict else "; slips pass (--lessoncheck-strict)"
        terminalreporter.write_line(counts_line(counts) + tail)

    def _github(self, report_dir: str | None) -> None:
        from checkers.report import github

        buffer = io.StringIO()
        github.emit(self.findings, os.environ, buffer, report_dir=report_dir)
        # Workflow commands only count at the start of a line, and the progress line
        # ("....F [100%]") may still be open (pytest closes it later with an empty line), so
        # start with a line break of our own.
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        lines = ["", *buffer.getvalue().splitlines()]
        for line in lines:
            if terminal is not None:
                terminal.write_line(line)
            else:
                sys.stdout.write(line + "\n")
