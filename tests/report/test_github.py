"""GitHub Actions output: escaped workflow commands, at most ten annotations, job summary."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from checkers.cli import main
from checkers.finding import Finding
from checkers.report import github, markdown
from tests.conftest import CLAIMS, LESSON
from tests.report import ERROR, EVIL, FAIL, FILE_ERROR, FINDINGS, PASS, STALE, many_failures

ON = {"GITHUB_ACTIONS": "true"}


def _emit(
    findings: Sequence[Finding], env: dict[str, str], report_dir: Path | None = None
) -> list[str]:
    stream = io.StringIO()
    github.emit(findings, env, stream, report_dir=report_dir)
    return stream.getvalue().splitlines()


def test_escaping_follows_the_actions_toolkit() -> None:
    assert github.escape_data("100% a\r\nb:c,d") == "100%25 a%0D%0Ab:c,d"
    assert github.escape_property("100% a\r\nb:c,d") == "100%25 a%0D%0Ab%3Ac%2Cd"
    # "%" is escaped first, so an existing escape sequence stays literal.
    assert github.escape_data("%0A") == "%250A"


def test_command_format() -> None:
    assert github.command("notice", "hi") == "::notice::hi"
    line = github.command("error", "a\nb", {"file": "x,y.md", "line": 3, "col": None})
    assert line == "::error file=x%2Cy.md,line=3::a%0Ab"


def test_annotation_of_a_failure() -> None:
    line = github.annotation(FAIL)
    assert line.startswith(
        "::error file=content/demo.md,line=5,col=1,title=lessoncheck fail%3A dot-wrong::"
    )
    message = line.split("::", 2)[2]
    assert message == "%0A".join(
        [
            "0.5×0.5 + 0.5×0.5 is 0.5 → 0.50, not 0.52",
            "claimed 0.52 → recomputed 0.5 → 0.50 (±0.005: 2 printed decimals)",
            "fix: score = 0.5×0.5 + 0.5×0.5 = 0.50",
        ]
    )
    assert "\n" not in line


def test_annotation_levels_and_locations() -> None:
    assert github.annotation(STALE).startswith("::warning file=claims/demo.yaml,line=24,col=13,")
    assert github.annotation(ERROR).startswith("::error file=claims/demo.yaml,line=30,col=5,")
    assert github.annotation(FILE_ERROR).startswith("::error file=claims/broken.yaml,title=")


def test_hostile_text_cannot_forge_a_command() -> None:
    forged = replace(FAIL, message="x\n::error file=a::forged")
    line = github.annotation(forged)
    assert "\n" not in line and line.count("::") == 4  # ::error … :: and the escaped message
    assert "%0A::error file=a::forged" in line
    assert github.annotation(EVIL).count("\n") == 0


def test_nothing_outside_github_actions(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    for env in ({}, {"GITHUB_ACTIONS": "false", "GITHUB_STEP_SUMMARY": str(summary)}):
        stream = io.StringIO()
        assert github.emit(FINDINGS, env, stream) is False
        assert stream.getvalue() == ""
    assert not summary.exists()


def test_annotations_then_notice() -> None:
    lines = _emit(FINDINGS, ON, report_dir=Path("reports"))
    assert len(lines) == 6
    assert [line.split(" ", 1)[0] for line in lines[:5]] == [
        "::error",  # claims/broken.yaml (file)
        "::error",  # content/demo.md:5
        "::error",  # content/demo.md:7
        "::warning",  # claims/demo.yaml:24 gone (report order: claim file, then line)
        "::error",  # claims/demo.yaml:30 bad-claim
    ]
    assert lines[-1].startswith("::notice title=lessoncheck::5 of 7 claims need attention")
    assert "reports/report.html" in lines[-1]


def test_at_most_ten_annotations() -> None:
    lines = _emit(many_failures(12), ON)
    assert sum(line.startswith("::error ") for line in lines) == github.MAX_ANNOTATIONS
    assert "10 annotated here, 2 more in the report." in lines[-1]
    assert "--report-dir" in lines[-1]


def test_all_holding_is_a_notice_only() -> None:
    assert _emit([PASS], ON) == [
        "::notice title=lessoncheck::All 1 claims hold. "
        "Run with --report-dir DIR for the full report."
    ]


def test_summary_is_appended_with_commit_links(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    env = {
        **ON,
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "o/r",
        "GITHUB_SHA": "abc123",
    }
    lines = _emit(FINDINGS, env)
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n## lessoncheck report\n")
    assert text.endswith(
        markdown.render(FINDINGS, link_base="https://github.com/o/r/blob/abc123/") + "\n"
    )
    assert "(https://github.com/o/r/blob/abc123/content/demo.md?plain=1#L5)" in text
    assert "job summary" in lines[-1]


def test_unwritable_summary_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    lines = _emit([FAIL], {**ON, "GITHUB_STEP_SUMMARY": str(tmp_path)})
    assert lines[0].startswith("::error ")
    assert lines[1].startswith("::warning::lessoncheck: cannot write the job summary")
    assert lines[2].startswith("::notice ")


def test_cli_emits_annotations_in_github_actions(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(project / "summary.md"))
    assert main(["check", "-q", "--report-dir", "out"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("::error file=content/demo.md,line=5,col=1,")
    assert out[1].startswith("::notice title=lessoncheck::1 of 4 claims need attention")
    assert "out/report.html" in out[1]
    assert "dot-wrong" in (project / "summary.md").read_text(encoding="utf-8")


def test_cli_is_quiet_about_github_elsewhere(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    main(["check", "-q"])
    assert "::" not in capsys.readouterr().out


def test_pytest_plugin_emits_annotations_on_their_own_lines(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.mkdir("content")
    pytester.mkdir("claims")
    (pytester.path / "content" / "demo.md").write_text(LESSON, encoding="utf-8")
    (pytester.path / "claims" / "demo.yaml").write_text(CLAIMS, encoding="utf-8")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(pytester.path / "summary.md"))
    result = pytester.runpytest("claims/", "-q", "--report-dir", "out")
    result.assert_outcomes(passed=3, failed=1)
    lines = result.stdout.lines
    assert any(line.startswith("::error file=content/demo.md,line=5,col=1,") for line in lines)
    assert any(line.startswith("::notice title=lessoncheck::") for line in lines)
    assert (pytester.path / "summary.md").is_file()


def test_slips_are_warnings_and_quiet_findings_are_only_counted() -> None:
    import io

    from checkers.report import github
    from tests.report import QUIET

    stream = io.StringIO()
    github.emit(QUIET, {"GITHUB_ACTIONS": "true"}, stream)
    lines = stream.getvalue().splitlines()
    # In report order (line 5: dot-wrong, then share-truncated), then the notice.
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning", "::notice"]
    assert "title=lessoncheck slip%3A share-truncated" in lines[1]
    assert (
        "2 of 7 claims need attention (1 passed, 2 failed (1 slip), 0 stale, 0 errors, "
        "2 suppressed, 2 marked wrong by the author)" in lines[-1]
    )
