from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checkers import cli, parallel
from checkers.cli import main


def test_check_exit_code_one_on_failures(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    assert main(["check", "--json", "out/report.json"]) == 1
    out = capsys.readouterr().out
    assert "content/demo.md:5" in out
    assert out.strip().endswith("3 passed, 1 failed, 0 stale, 0 errors")
    report = json.loads((project / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["fail"] == 1


def test_check_exit_code_zero_when_all_hold(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    lesson = project / "content" / "demo.md"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("= 0.52", "= 0.50"), "utf-8")
    claims = project / "claims" / "demo.yaml"
    text = claims.read_text(encoding="utf-8")
    text = text.replace("= 0.52", "= 0.50").replace("claimed: 0.52", "claimed: 0.50")
    claims.write_text(text.replace("scaled = 0.52", "scaled = 0.50"), "utf-8")
    lesson.write_text(
        lesson.read_text(encoding="utf-8")
        .replace("scaled = 0.52", "scaled = 0.50")
        .replace("/ 2 = 0.26", "/ 2 = 0.25"),
        "utf-8",
    )
    claims.write_text(
        claims.read_text(encoding="utf-8")
        .replace("2 = 0.26", "2 = 0.25")
        .replace("claimed: 0.26", "claimed: 0.25"),
        "utf-8",
    )
    assert main(["check", "-q"]) == 0


def test_check_exit_code_two_on_input_error(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    (project / "claims" / "broken.yaml").write_text("claims: [\n", encoding="utf-8")
    assert main(["check"]) == 2
    out = capsys.readouterr().out
    assert "claims/broken.yaml:2:1" in out
    assert "3 passed, 1 failed, 0 stale, 1 errors" in out  # the good file still ran


def test_usage_errors_exit_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["check", "nowhere/"]) == 2
    assert main(["frobnicate"]) == 2


def test_python_dash_m_runs_the_cli(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "checkers", "check", "-q"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert "3 passed, 1 failed" in done.stdout


@pytest.mark.parametrize("jobs", ["0", "-1", "many"])
def test_jobs_must_be_a_count_or_auto(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    monkeypatch.chdir(project)
    assert main(["check", "-j", jobs]) == 2
    assert "expected" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["1", "2", "auto"])
def test_jobs_do_not_change_the_verdicts(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    monkeypatch.chdir(project)
    assert main(["check", "-q", "-j", jobs]) == 1
    assert capsys.readouterr().out.strip() == "3 passed, 1 failed, 0 stale, 0 errors"


def test_scan_in_worker_processes_reports_what_a_serial_scan_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    corpus = Path(__file__).parent / "corpus"
    (tmp_path / "content").mkdir()
    lessons = sorted(corpus.rglob("*.md"))[:4]
    for lesson in lessons:
        (tmp_path / "content" / lesson.name).write_bytes(lesson.read_bytes())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)  # workers even for four lessons
    names = [f"content/{lesson.name}" for lesson in lessons]
    reports = {}
    for jobs in ("1", "2"):
        main(["scan", "-q", "-j", jobs, "--json", f"scan-{jobs}.json", *names])
        report = json.loads((tmp_path / f"scan-{jobs}.json").read_text(encoding="utf-8"))
        reports[jobs] = report["findings"]
    assert reports["1"] == reports["2"]
    assert {f["verdict"] for f in reports["1"]} >= {"pass", "fail"}


def test_auto_jobs_follow_the_cpus_up_to_a_cap(monkeypatch: pytest.MonkeyPatch) -> None:

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert cli._jobs("auto") == cli.MAX_AUTO_JOBS
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert cli._jobs("auto") == 2


@pytest.mark.parametrize("option", ["--report-dir", "--json"])
def test_reports_that_cannot_be_written_are_named_and_exit_two(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    (project / "taken").write_text("a file, not a folder\n", encoding="utf-8")
    target = "taken" if option == "--report-dir" else "taken/report.json"
    assert main(["check", option, target]) == 2
    out, err = capsys.readouterr()
    assert "taken" in err and ("not a folder" in err or "Not a directory" in err), err
    assert "Traceback" not in out + err and "internal error" not in err
    assert "::error file=content/demo.md,line=5" in out  # the annotations are still printed
    assert out.rstrip().endswith("3 passed, 1 failed, 0 stale, 0 errors")
    assert (project / "taken").read_text(encoding="utf-8") == "a file, not a folder\n"


def test_a_full_disk_keeps_the_previous_reports(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from checkers import files

    monkeypatch.chdir(project)
    assert main(["check", "--report-dir", "reports"]) == 1
    before = {p.name: p.read_bytes() for p in (project / "reports").iterdir()}

    def full(path: Path, text: str) -> str:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "_stage", full)
    lesson = project / "content" / "demo.md"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("= 0.52", "= 0.50"), "utf-8")
    capsys.readouterr()
    assert main(["check", "--report-dir", "reports"]) == 2
    err = capsys.readouterr().err
    assert "reports/report.json: cannot write the report (No space left on device)" in err
    assert {p.name: p.read_bytes() for p in (project / "reports").iterdir()} == before


def test_fix_diff_keeps_crlf_line_ends_so_the_patch_applies(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fix --diff`` prints line by line through the output rule; a CR before the line end
    is the line end, not a control character to escape."""
    monkeypatch.chdir(project)
    lesson = project / "content" / "demo.md"
    lesson.write_bytes(lesson.read_bytes().replace(b"\n", b"\r\n"))
    capsys.readouterr()
    main(["fix", "--diff"])
    out, err = capsys.readouterr()
    assert "\\r" not in out and "diff lines hold control characters" not in err
    (project / "fix.diff").write_text(out, encoding="utf-8", newline="")
    patched = subprocess.run(
        ["patch", "-p1", "--binary", "-i", "fix.diff"], cwd=project, capture_output=True, text=True
    )
    assert patched.returncode == 0, patched.stdout + patched.stderr
    data = lesson.read_bytes()
    assert b"score = 0.5\xc3\x970.5 + 0.5\xc3\x970.5 = 0.50\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


def _only(project: Path, *ids: str) -> None:
    """Keep only the claims ``ids`` of the quiet course (each YAML item starts with ``- id:``)."""
    from tests.conftest import QUIET_CLAIMS

    head, *items = QUIET_CLAIMS.split("  - id: ")
    kept = [item for item in items if item.split("\n", 1)[0] in ids]
    text = head + "".join("  - id: " + item for item in kept)
    (project / "claims" / "quiet.yaml").write_text(text, encoding="utf-8")


def test_a_slip_is_reported_but_does_not_fail_unless_strict(
    quiet_project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(quiet_project)
    _only(quiet_project, "share-truncated", "rows-corrected")
    assert main(["check", "--json", "r.json"]) == 0
    out = capsys.readouterr().out
    assert "  slip        2 / 7 is 0.2857 → 0.29, not 0.28" in out
    assert "1 passed, 1 failed (1 slip), 0 stale, 0 errors; slips do not fail the run" in out
    report = json.loads((quiet_project / "r.json").read_text(encoding="utf-8"))
    assert report["version"] == 1
    assert report["summary"]["fail"] == 1 and report["summary"]["slip"] == 1
    finding = next(f for f in report["findings"] if f["id"] == "share-truncated")
    assert (finding["verdict"], finding["severity"]) == ("fail", "slip")
    assert main(["check", "--strict", "-q"]) == 1
    # The nearby real mistake fails without --strict.
    _only(quiet_project, "share-truncated", "share-wrong")
    assert main(["check", "-q"]) == 1


def test_strict_from_the_project_configuration(
    quiet_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(quiet_project)
    _only(quiet_project, "share-truncated")
    (quiet_project / ".lessoncheck.toml").write_text("strict = true\n", encoding="utf-8")
    assert main(["check", "-q"]) == 1
    assert main(["scan", "content/quiet.md", "-q"]) == 1


def test_quiet_findings_are_counted_not_failed(
    quiet_project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(quiet_project)
    _only(quiet_project, "rows-marked", "quarter-four", "quarter-eight", "legacy")
    assert main(["check", "--json", "r.json"]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith(
        "0 passed, 0 failed, 0 stale, 0 errors, 1 suppressed, 3 marked wrong by the author"
    )
    # Printed in full: only the marked statement that holds after all.
    assert "marked wrong by the author (❌ on line 9), but it holds: 8 × 0.25 = 2" in out
    assert "9 × 9" not in out and "4 × 0.25" not in out
    report = json.loads((quiet_project / "r.json").read_text(encoding="utf-8"))
    assert report["summary"]["suppressed"] == 1 and report["summary"]["marked_wrong"] == 3
    legacy = next(f for f in report["findings"] if f["id"] == "legacy")
    assert legacy["verdict"] == "suppressed"
    assert legacy["suppression"] == {
        "kind": "inSource",
        "justification": "<!-- lessoncheck: ignore --> on line 16",
    }
    # The same shapes with real mistakes next to them still fail.
    _only(quiet_project, "rows-marked", "quarter-six", "legacy", "next-figure")
    assert main(["check", "-q"]) == 1
    assert capsys.readouterr().out.strip().startswith("0 passed, 2 failed, 0 stale, 0 errors")


def test_scan_drafts_are_quiet_like_claims(
    quiet_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(quiet_project)
    assert main(["scan", "content/quiet.md", "--json", "s.json", "-q"]) == 1
    assert main(["check", "--json", "c.json", "-q"]) == 1

    def verdicts(name: str) -> dict[int, list[tuple[str, str | None]]]:
        report = json.loads((quiet_project / name).read_text(encoding="utf-8"))
        out: dict[int, list[tuple[str, str | None]]] = {}
        for f in report["findings"]:
            out.setdefault(f["line"], []).append((f["verdict"], f["severity"]))
        return {line: sorted(v, key=str) for line, v in out.items()}

    assert verdicts("s.json") == verdicts("c.json")


def test_path_ignores_in_the_configuration(
    quiet_project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(quiet_project)
    _only(quiet_project, "share-wrong", "next-figure")
    (quiet_project / "pyproject.toml").write_text(
        '[project]\nname = "course"\n\n[tool.lessoncheck]\nignore = ["content/quiet.md"]\n',
        encoding="utf-8",
    )
    assert main(["check", "--report-dir", "out"]) == 0
    assert (
        capsys.readouterr()
        .out.strip()
        .endswith("0 passed, 0 failed, 0 stale, 0 errors, 2 suppressed")
    )
    sarif = json.loads((quiet_project / "out" / "report.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert [r["suppressions"][0]["kind"] for r in results] == ["external", "external"]
    assert "2 suppressed" in (quiet_project / "out" / "report.md").read_text(encoding="utf-8")
    # Another lesson's failure is not ignored.
    (quiet_project / "pyproject.toml").write_text(
        '[tool.lessoncheck]\nignore = ["content/other.md"]\n', encoding="utf-8"
    )
    assert main(["check", "-q"]) == 1


def test_a_broken_configuration_is_an_input_error_naming_file_and_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    (project / ".lessoncheck.toml").write_text("strict = true\nsctrict = 1\n", encoding="utf-8")
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert f"lessoncheck: {project / '.lessoncheck.toml'}:2: unknown key 'sctrict'" in err
    assert "Traceback" not in err


# ---------------------------------------------------- course layouts: folders, globs, claim paths

WEEK1 = "# Week 1\n\nTwo heads of 64 give 2 × 64 = 128 dimensions.\n"
WEEK2 = "# Week 2\n\nA batch of 8 × 512 = 4096 tokens, and 3 × 7 = 22 is a slip of ours.\n"


@pytest.fixture
def mkdocs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A course laid out as MkDocs lays it out: one index.md per folder."""
    (tmp_path / ".git").mkdir()
    for week, text in (("week1", WEEK1), ("week2", WEEK2)):
        (tmp_path / "docs" / week).mkdir(parents=True)
        (tmp_path / "docs" / week / "index.md").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _ids(path: Path) -> list[str]:
    from checkers import safeyaml

    data = safeyaml.load(path.read_text(encoding="utf-8")).data
    return [str(claim["id"]) for claim in data["claims"]]


def test_two_index_md_in_two_folders_keep_their_own_claims_over_two_runs(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", "docs/week1/index.md"]) == 0
    assert main(["extract", "docs/week2/index.md"]) == 0
    week1, week2 = mkdocs / "claims/week1/index.yaml", mkdocs / "claims/week2/index.yaml"
    assert "lesson: docs/week1/index.md" in week1.read_text(encoding="utf-8")
    assert "lesson: docs/week2/index.md" in week2.read_text(encoding="utf-8")
    first = (_ids(week1), _ids(week2))
    assert len(first[0]) == 1 and len(first[1]) == 2
    out = capsys.readouterr().out
    assert "removed" in out and "1 removed" not in out and "2 removed" not in out
    # Both at once, and again: nothing lost, nothing duplicated, nothing to update.
    assert main(["extract", "docs/week1/index.md", "docs/week2/index.md"]) == 0
    assert main(["extract", "docs"]) == 0
    assert (_ids(week1), _ids(week2)) == first
    assert main(["extract", "--check", "docs"]) == 0
    assert not (mkdocs / "claims" / "index.yaml").exists()
    # check walks the nested claims folder: 2 × 64 and 8 × 512 hold, 3 × 7 = 22 does not.
    capsys.readouterr()
    assert main(["check"]) == 1
    assert capsys.readouterr().out.strip().endswith("2 passed, 1 failed, 0 stale, 0 errors")


def test_a_flat_claim_file_of_earlier_versions_is_still_the_lessons(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (mkdocs / "claims").mkdir()
    flat = mkdocs / "claims" / "index.yaml"
    flat.write_text(
        "lesson: docs/week1/index.md\nclaims:\n  - id: heads\n    kind: arithmetic\n"
        "    quote: 2 × 64 = 128\n    expression: 2 × 64\n    claimed: 128\n",
        encoding="utf-8",
    )
    before = flat.read_text(encoding="utf-8")
    assert main(["extract", "docs/week1/index.md", "docs/week2/index.md"]) == 0
    assert flat.read_text(encoding="utf-8") == before  # its one statement is claimed already
    # week2 gets its usual file; the flat one (week1's) is not in its way, so nothing to say.
    assert (
        capsys.readouterr().out
        == "updated claims/week2/index.yaml: 2 added, 0 removed (quote gone)\n"
    )
    assert not (mkdocs / "claims" / "week1" / "index.yaml").exists()
    assert len(_ids(mkdocs / "claims" / "week2" / "index.yaml")) == 2
    assert main(["extract", "--check", "docs"]) == 0


def test_another_lessons_claim_file_is_never_written_to(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/week1/index.md and blog/week1/index.md both map to claims/week1/index.yaml: the
    second goes to its whole path, says so, and neither loses a claim over further runs."""
    (mkdocs / "blog" / "week1").mkdir(parents=True)
    (mkdocs / "blog" / "week1" / "index.md").write_text(WEEK2, encoding="utf-8")
    assert main(["extract", "docs/week1/index.md"]) == 0
    usual = mkdocs / "claims" / "week1" / "index.yaml"
    before = usual.read_bytes()
    assert main(["extract", "blog/week1/index.md"]) == 0
    assert usual.read_bytes() == before
    out = capsys.readouterr().out
    assert "updated claims/blog/week1/index.yaml: 2 added" in out
    assert "claims/week1/index.yaml holds the claims of docs/week1/index.md" in out
    assert main(["extract", "docs/week1/index.md", "blog/week1/index.md"]) == 0
    assert usual.read_bytes() == before
    assert len(_ids(mkdocs / "claims" / "blog" / "week1" / "index.yaml")) == 2
    assert main(["extract", "--check", "docs/week1", "blog"]) == 0


def test_extract_refuses_when_every_place_holds_another_lessons_claims(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = "lesson: notes/index.md\nclaims: []\n"
    for place in ("claims/week1/index.yaml", "claims/docs/week1/index.yaml", "claims/index.yaml"):
        (mkdocs / place).parent.mkdir(parents=True, exist_ok=True)
        (mkdocs / place).write_text(other, encoding="utf-8")
    assert main(["extract", "docs/week1/index.md"]) == 2
    err = capsys.readouterr().err
    assert "docs/week1/index.md: claims/week1/index.yaml holds the claims of notes/index.md" in err
    assert "nothing was written" in err and "lesson-roots" in err
    for place in ("claims/week1/index.yaml", "claims/docs/week1/index.yaml", "claims/index.yaml"):
        assert (mkdocs / place).read_text(encoding="utf-8") == other


def test_lesson_roots_and_claims_folder_come_from_the_configuration(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (mkdocs / ".lessoncheck.toml").write_text(
        'lesson-roots = ["docs/week2"]\nclaims-folder = "checks"\n', encoding="utf-8"
    )
    # No lessons named: the lesson roots are scanned and extracted.
    assert main(["scan", "-q"]) == 1
    assert main(["extract"]) == 0
    assert _ids(mkdocs / "checks" / "index.yaml")  # below its root docs/week2: index.md
    assert main(["extract", "docs/week1/index.md"]) == 0
    assert _ids(mkdocs / "checks" / "week1" / "index.yaml")  # under no root: the default rule
    assert main(["check", "-q"]) == 1  # the configured claims folder by default
    (mkdocs / ".lessoncheck.toml").write_text('lesson-roots = ["lessons"]\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["scan"]) == 2
    assert "lesson-roots: no such folder: lessons" in capsys.readouterr().err


def test_scan_takes_folders_and_globs_with_the_configured_filters(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for hidden in ("docs/node_modules/pkg/readme.md", "docs/.cache/x.md", "claims/notes.md"):
        (mkdocs / hidden).parent.mkdir(parents=True, exist_ok=True)
        (mkdocs / hidden).write_text("1 + 1 = 3\n", encoding="utf-8")
    assert main(["scan", ".", "--json", "r.json"]) == 1
    sources = {f["source"] for f in json.loads((mkdocs / "r.json").read_text())["findings"]}
    assert sources == {"docs/week1/index.md", "docs/week2/index.md"}
    (mkdocs / "pyproject.toml").write_text(
        '[tool.lessoncheck]\nexclude = ["docs/week2/**"]\n', encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["scan", "docs/**/*.md"]) == 0  # week2 (with the slip) excluded
    assert main(["scan", "docs/week2/index.md", "-q"]) == 1  # but named, it is read
    capsys.readouterr()
    assert main(["scan", "docs/**/*.qmd"]) == 2
    assert "docs/**/*.qmd: the pattern matches no lesson files" in capsys.readouterr().err
    (mkdocs / "empty").mkdir()
    assert main(["extract", "empty"]) == 2
    assert "empty: no lesson files" in capsys.readouterr().err


def test_check_fix_and_baseline_take_globs_and_folders(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", "docs"]) == 0
    assert main(["check", "-q", "claims/week1/*.yaml"]) == 0
    assert main(["check", "-q", "claims/**/*.yaml"]) == 1
    capsys.readouterr()
    assert main(["check", "claims/**/*.yml"]) == 2
    assert "claims/**/*.yml: the pattern matches no claim files" in capsys.readouterr().err
    assert main(["baseline", "claims/week2"]) == 0
    recorded = json.loads((mkdocs / "lessoncheck-baseline.json").read_text(encoding="utf-8"))
    assert len(recorded["entries"]) == 1
    assert main(["baseline", "docs", "-o", "scanned.json"]) == 0  # a folder of lessons: scanned
    assert len(json.loads((mkdocs / "scanned.json").read_text())["entries"]) == 1
    assert main(["fix", "--diff", "claims/**/*.yaml"]) == 1
    assert main(["fix", "--write", "claims"]) == 0
    assert "3 × 7 = 21" in (mkdocs / "docs/week2/index.md").read_text(encoding="utf-8")
    assert main(["extract", "--check", "docs"]) == 0


def test_an_input_that_yields_nothing_is_an_error_and_the_others_still_run(
    mkdocs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (mkdocs / "empty").mkdir()
    (mkdocs / "docs" / "folder.md").mkdir()  # named like a lesson: read as one, and refused
    assert main(["scan", "empty", "docs/week2/index.md", "docs/folder.md", "x/**/*.md"]) == 2
    captured = capsys.readouterr()
    assert "empty: no lesson files" in captured.err
    assert "x/**/*.md: the pattern matches no lesson files" in captured.err
    assert "docs/folder.md: cannot read lesson: not a regular file" in captured.out
    assert "docs/week2/index.md:3" in captured.out  # the slip, still reported
    assert main(["extract", "docs/week1", "x/*.md"]) == 2
    assert _ids(mkdocs / "claims" / "week1" / "index.yaml")  # written all the same
    assert main(["baseline", "docs", "x/*.md"]) == 2
    assert not (mkdocs / "lessoncheck-baseline.json").exists()


def test_extract_writes_nothing_through_a_claims_subfolder_that_links_out(
    mkdocs: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (mkdocs / "claims").mkdir()
    (mkdocs / "claims" / "week1").symlink_to(outside, target_is_directory=True)
    assert main(["extract", "docs/week1/index.md", "docs/week2/index.md"]) == 2
    assert "a folder above it is a link out of the project" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
    assert _ids(mkdocs / "claims" / "week2" / "index.yaml")  # the other lesson still done
    (mkdocs / "claims" / "week1").unlink()
    (mkdocs / "claims" / "week1").mkdir()
    (mkdocs / "claims" / "week1" / "index.yaml").symlink_to(outside / "x.yaml")
    assert main(["extract", "docs/week1/index.md"]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
