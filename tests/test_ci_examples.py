"""The CI examples (GitHub workflow, pre-commit hooks) work when copied into a course repository.

The fast tests read the examples and hold every ``lessoncheck`` command in them to the real CLI
parser. The slow ones build a temporary course repository, copy the examples in, and run their
commands as CI would: the workflow's install step (its pinned ``git+`` URL pointed at a clone of
this repository tagged with the example's release) and each ``run:`` script under bash;
``pre-commit run`` with the example configuration (its ``repo:`` pointed at that clone) and
``pre-commit try-repo`` against this checkout. Each passes on a course whose claims hold and
fails on a wrong number, with no baseline.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from checkers.baseline import DEFAULT_FILE
from checkers.cli import _parser, main
from checkers.report import REPORT_FILES

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "https://github.com/your-org/lessoncheck"
"""Where the examples say lessoncheck is hosted; the slow tests point it at a local clone."""


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


def workflow() -> dict[str, Any]:
    data: dict[str, Any] = load("examples/github-workflow.yml")
    return data


def steps() -> list[dict[str, Any]]:
    return [step for job in workflow()["jobs"].values() for step in job["steps"]]


def test_pre_commit_hooks_run_real_commands() -> None:
    found = hooks()
    assert set(found) == {"lessoncheck-check", "lessoncheck-extract-check"}
    check = found["lessoncheck-check"]
    assert (check["language"], check["pass_filenames"]) == ("python", False)
    assert lessoncheck_argv(check["entry"]) == ["check"]
    for lesson in ("content/lesson.md", "docs/week1/index.md", "docs/a.mdx", "nb/lab.ipynb"):
        assert re.search(check["files"], lesson), lesson
    assert re.search(check["files"], "claims/week1/index.yaml")
    assert not re.search(check["files"], "mkdocs.yml")
    extract = found["lessoncheck-extract-check"]
    assert extract["language"] == "python" and extract["pass_filenames"] is True
    assert re.search(extract["files"], "docs/week1/index.md")
    assert re.search(extract["files"], "docs/lab.ipynb")
    assert not re.search(extract["files"], "claims/lesson.yaml")
    assert re.search(extract["exclude"], "README.md")
    assert not re.search(extract["exclude"], "docs/readme-first.md")
    # pre-commit appends the changed lessons to the entry.
    assert lessoncheck_argv(extract["entry"] + " docs/lesson.md") == [
        "extract",
        "--check",
        "docs/lesson.md",
    ]


def test_example_pre_commit_config_uses_the_hooks_with_valid_args() -> None:
    config = load("examples/pre-commit-config.yaml")
    defined = hooks()
    (repo,) = config["repos"]
    assert repo["repo"] == PLACEHOLDER and re.fullmatch(r"v\d+\.\d+\.\d+", repo["rev"])
    used = repo["hooks"]
    assert {hook["id"] for hook in used} == set(defined)
    for hook in used:
        assert "--baseline" not in hook.get("args", [])  # a fresh course has none
        definition = defined[hook["id"]]
        files = ["docs/lesson.md"] if definition["pass_filenames"] else []
        lessoncheck_argv(
            shlex.join([*shlex.split(definition["entry"]), *hook.get("args", []), *files])
        )


def test_github_workflow_gates_content_with_real_commands() -> None:
    data = workflow()
    trigger = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in trigger and "pull_request_target" not in trigger
    assert data["permissions"] == {"contents": "read", "security-events": "write"}
    uses = [step["uses"].split("@")[0] for step in steps() if "uses" in step]
    assert uses == [
        "actions/checkout",
        "actions/setup-python",
        "actions/upload-artifact",
        "github/codeql-action/upload-sarif",
    ]
    runs = [step["run"] for step in steps() if "run" in step]
    # Nothing from the pull request runs: lessoncheck is installed from a pinned release, not
    # from the checkout (that would install the course, and run its build backend), and no
    # step runs pytest (it imports conftest.py files).
    install = shlex.split(runs[0])
    assert install[:2] == ["pip", "install"] and "." not in install and "-e" not in install
    assert re.fullmatch(rf"lessoncheck @ git\+{PLACEHOLDER}@v\d+\.\d+\.\d+", install[2])
    assert not any("pytest" in run or "python" in run for run in runs)
    lessons = data["env"]["LESSONS"]
    assert lessoncheck_argv(runs[1].replace("$LESSONS", lessons)) == ["extract", "--check", lessons]
    (check_line,) = [line.strip() for line in runs[2].splitlines() if "lessoncheck " in line]
    check_argv = lessoncheck_argv(check_line.replace('"${baseline[@]}"', ""))
    assert check_argv[0] == "check"
    assert f"--baseline {DEFAULT_FILE}" in runs[2]  # used only when the course has recorded one
    report_dir = check_argv[check_argv.index("--report-dir") + 1]
    upload = next(s for s in steps() if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["with"]["path"].rstrip("/") == report_dir
    sarif = next(s for s in steps() if s.get("uses", "").startswith("github/codeql-action"))
    assert sarif["with"]["sarif_file"] == f"{report_dir}/{REPORT_FILES[3]}"


def test_check_with_a_recorded_baseline_passes_on_known_failures(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check step on a course that recorded its known mistakes: they do not fail it."""
    monkeypatch.chdir(project)
    assert main(["check"]) == 1
    assert main(["baseline", "-o", DEFAULT_FILE]) == 0
    assert main(["check", "--report-dir", "reports", "--baseline", DEFAULT_FILE]) == 0
    assert (project / "reports" / REPORT_FILES[3]).is_file()


# -- copied into a course repository and run ---------------------------------------------

LESSON = """# Heads

Eight heads of 64 dimensions each give 8 × 64 = 512 dimensions in all.

The cache holds 2 × 32 × 128 = 8192 numbers per token.
"""


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A clone of this repository's HEAD tagged with the examples' release: where the examples'
    pinned source points in these tests. (What is not committed is not in it.)"""
    rev = load("examples/pre-commit-config.yaml")["repos"][0]["rev"]
    clone = tmp_path_factory.mktemp("release") / "lessoncheck"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    git(clone, "tag", rev)
    return clone, rev


@pytest.fixture(scope="module")
def installed(release: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment where the workflow's install step, as written but for the host, ran:
    its ``bin`` folder."""
    clone, _ = release
    venv = tmp_path_factory.mktemp("ci") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = next(step["run"] for step in steps() if "pip install" in step.get("run", ""))
    # pip's requirement parser wants a host in a file URL: file://localhost/...
    pinned = install.replace(PLACEHOLDER, f"file://localhost{clone}")
    result = run_bash(pinned, venv.parent, venv / "bin")
    assert result.returncode == 0, result.stdout + result.stderr
    return venv / "bin"


def run_bash(
    script: str, cwd: Path, bin_dir: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``script`` as a ``run:`` step runs it (``bash -e``), with ``bin_dir`` first on PATH."""
    environment = {
        **os.environ,
        **(env or {}),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
    }
    environment.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-e", "-c", script],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def course(tmp_path: Path, installed: Path) -> Path:
    """A course repository whose claims hold: lessons in the workflow's lesson folder, claims
    drafted with ``lessoncheck extract`` (the README's step), everything committed."""
    lessons = workflow()["env"]["LESSONS"]
    repo = tmp_path / "course"
    (repo / lessons / "heads").mkdir(parents=True)
    (repo / lessons / "heads" / "index.md").write_text(LESSON, encoding="utf-8")
    git(repo, "init", "-q")
    result = run_bash(f"lessoncheck extract {lessons}", repo, installed)
    assert result.returncode == 0, result.stdout + result.stderr
    assert list((repo / "claims").rglob("*.yaml"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "course")
    return repo


Ran = subprocess.CompletedProcess[str]


def run_workflow(course: Path, bin_dir: Path) -> Iterator[tuple[str, Ran]]:
    """Every ``run:`` step after the install, as the job runs them (``if: !cancelled()``: each
    runs even when one before it failed), with GitHub's environment."""
    env = {
        **workflow()["env"],
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": str(course.parent / "summary.md"),
    }
    for step in steps():
        if "run" in step and "pip install" not in step["run"]:
            yield step["name"], run_bash(step["run"], course, bin_dir, env)


def make_wrong(course: Path) -> Path:
    lesson = next((course / workflow()["env"]["LESSONS"]).rglob("index.md"))
    text = lesson.read_text(encoding="utf-8")
    lesson.write_text(text.replace("8 × 64 = 512", "8 × 64 = 521"), encoding="utf-8")
    return lesson


@pytest.mark.slow
def test_github_workflow_passes_a_clean_course_and_fails_a_wrong_number(
    course: Path, installed: Path
) -> None:
    codes = {name: result.returncode for name, result in run_workflow(course, installed)}
    assert set(codes.values()) == {0}, codes
    assert (course / "reports" / REPORT_FILES[3]).is_file()  # what the SARIF step uploads

    # An author writes a wrong number and updates the claims as the README says: the claims
    # are in step, and the check step fails, annotating the lesson line.
    lesson = make_wrong(course)
    result = run_bash("lessoncheck extract $LESSONS", course, installed, workflow()["env"])
    assert result.returncode == 0, result.stderr
    results = dict(run_workflow(course, installed))
    extract_step, check_step = results
    assert results[extract_step].returncode == 0, results[extract_step].stdout
    assert results[check_step].returncode == 1, results[check_step].stdout
    where = f"file={lesson.relative_to(course).as_posix()},line=3"
    assert f"::error {where}" in results[check_step].stdout

    # A wrong number committed without updating the claims fails the first step too.
    lesson.write_text(LESSON.replace("= 8192", "= 8912"), encoding="utf-8")
    codes = {name: result.returncode for name, result in run_workflow(course, installed)}
    assert codes[extract_step] == 1, codes


def pre_commit(course: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "PRE_COMMIT_HOME": str(course.parent.parent / "pre-commit-home"),
        "PRE_COMMIT_COLOR": "never",
    }
    environment.pop("VIRTUAL_ENV", None)
    command = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    argv = [command] if command else [sys.executable, "-m", "pre_commit"]
    return subprocess.run(
        [*argv, *args], cwd=course, env=environment, capture_output=True, text=True, timeout=900
    )


@pytest.mark.slow
def test_pre_commit_example_and_try_repo_pass_a_clean_course_and_fail_a_wrong_number(
    course: Path, release: tuple[Path, str]
) -> None:
    pytest.importorskip("pre_commit")
    clone, rev = release
    config = (ROOT / "examples" / "pre-commit-config.yaml").read_text(encoding="utf-8")
    assert f"rev: {rev}" in config
    lessons = workflow()["env"]["LESSONS"]
    config = config.replace(PLACEHOLDER, str(clone)).replace("^docs/", f"^{lessons}/")
    (course / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    git(course, "add", "-A")
    git(course, "commit", "-qm", "hooks")

    clean = pre_commit(course, "run", "--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "lessoncheck check" in clean.stdout and "Passed" in clean.stdout

    # A wrong number, claims not updated: both hooks fail, from the example configuration and
    # from this checkout's hook definitions (try-repo installs the checkout into a fresh
    # environment each time, a minute or more, so it runs once, where it must fail).
    make_wrong(course)
    git(course, "add", "-A")
    wrong = pre_commit(course, "run", "--all-files")
    assert wrong.returncode == 1, wrong.stdout
    tried = pre_commit(course, "try-repo", str(ROOT), "--all-files")
    assert tried.returncode == 1, tried.stdout + tried.stderr
    for output in (wrong.stdout, tried.stdout):
        failed = re.findall(r"^(lessoncheck[^.\n]*?)\.+Failed$", output, re.MULTILINE)
        assert sorted(failed) == ["lessoncheck check", "lessoncheck extract --check"], output
