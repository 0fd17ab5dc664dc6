"""The CI examples (GitHub workflow, pre-commit hooks) parse and call real commands and options."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from checkers.baseline import DEFAULT_FILE
from checkers.cli import _parser, main
from checkers.report import REPORT_FILES

ROOT = Path(__file__).resolve().parent.parent


def load(name: str) -> Any:
    return yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))


def lessoncheck_argv(command: str) -> list[str]:
    """The arguments of a ``lessoncheck ...`` command line, parsed by the real CLI parser."""
    argv = shlex.split(command)
    assert argv[0] == "lessoncheck", command
    _parser().parse_args(argv[1:])  # raises SystemExit on an unknown command or option
    return argv[1:]


def hooks() -> dict[str, dict[str, Any]]:
    return {hook["id"]: hook for hook in load(".pre-commit-hooks.yaml")}


def test_pre_commit_hooks_run_real_commands() -> None:
    found = hooks()
    assert set(found) == {"lessoncheck-check", "lessoncheck-extract-check"}
    check = found["lessoncheck-check"]
    assert (check["language"], check["pass_filenames"]) == ("python", False)
    assert lessoncheck_argv(check["entry"]) == ["check"]
    assert re.search(check["files"], "content/lesson.md")
    assert re.search(check["files"], "claims/lesson.yaml")
    assert not re.search(check["files"], "README.md")
    extract = found["lessoncheck-extract-check"]
    assert extract["language"] == "python" and extract["pass_filenames"] is True
    assert re.search(extract["files"], "content/lesson.md")
    assert not re.search(extract["files"], "claims/lesson.yaml")
    # pre-commit appends the changed lessons to the entry.
    assert lessoncheck_argv(extract["entry"] + " content/lesson.md") == [
        "extract",
        "--check",
        "content/lesson.md",
    ]


def test_example_pre_commit_config_uses_the_hooks_with_valid_args() -> None:
    config = load("examples/pre-commit-config.yaml")
    defined = hooks()
    used = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert {hook["id"] for hook in used} == set(defined)
    for hook in used:
        definition = defined[hook["id"]]
        files = ["content/lesson.md"] if definition["pass_filenames"] else []
        lessoncheck_argv(
            shlex.join([*shlex.split(definition["entry"]), *hook.get("args", []), *files])
        )


def test_github_workflow_gates_content_with_real_commands(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workflow = load("examples/github-workflow.yml")
    trigger = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert set(trigger) == {"pull_request"}  # never pull_request_target
    paths = trigger["pull_request"]["paths"]
    assert "content/**" in paths and "claims/**" in paths
    assert workflow["permissions"]["security-events"] == "write"
    assert workflow["permissions"]["contents"] == "read"
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    uses = [step["uses"].split("@")[0] for step in steps if "uses" in step]
    assert uses == [
        "actions/checkout",
        "actions/setup-python",
        "actions/upload-artifact",
        "github/codeql-action/upload-sarif",
    ]
    runs = [step["run"] for step in steps if "run" in step]
    # Nothing from the pull request runs: lessoncheck is not installed from the checkout (its
    # build backend would run), and no step runs pytest (it imports conftest.py files).
    install = shlex.split(runs[0])
    assert install[:2] == ["pip", "install"] and "." not in install and "-e" not in install
    assert "@v" in install[-1]  # a pinned release
    assert not any("pytest" in run or "python" in run for run in runs)
    assert lessoncheck_argv(runs[1]) == ["extract", "--check", "content/*.md"]
    check_argv = lessoncheck_argv(runs[2])
    assert check_argv[0] == "check"
    report_dir = check_argv[check_argv.index("--report-dir") + 1]
    baseline = check_argv[check_argv.index("--baseline") + 1]
    assert baseline == DEFAULT_FILE
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["with"]["path"].rstrip("/") == report_dir
    sarif = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action"))
    assert sarif["with"]["sarif_file"] == f"{report_dir}/{REPORT_FILES[3]}"

    # The check command runs as written in a course with a baseline: the known failure does
    # not fail the job, and the reports (SARIF included) land where the upload steps look.
    monkeypatch.chdir(project)
    assert main(["baseline", "-o", baseline]) == 0  # records the wrong number
    assert main(check_argv) == 0
    assert (project / report_dir / REPORT_FILES[3]).is_file()
