"""End to end: ``pytest claims/`` through the plugin, in a scratch project (pytester)."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from tests.conftest import CLAIMS, LESSON


@pytest.fixture
def course(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.mkdir("content")
    pytester.mkdir("claims")
    (pytester.path / "content" / "demo.md").write_text(LESSON, encoding="utf-8")
    (pytester.path / "claims" / "demo.yaml").write_text(CLAIMS, encoding="utf-8")
    return pytester


def test_one_item_per_claim_with_readable_node_ids(course: pytest.Pytester) -> None:
    result = course.runpytest("claims/", "--collect-only", "-q")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "claims/demo.yaml::dot-right",
            "claims/demo.yaml::dot-wrong",
            "claims/demo.yaml::scaled",
            "claims/demo.yaml::head-size",
        ]
    )


def test_wrong_claim_fails_like_an_author_reads_it(course: pytest.Pytester) -> None:
    result = course.runpytest("claims/")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "content/demo.md:5  score = 0.5×0.5 + 0.5×0.5 = 0.52",
            "  claimed     0.52   (±0.005: 2 printed decimals)",
            "  recomputed  0.5 → 0.50",
            "  fix         score = 0.5×0.5 + 0.5×0.5 = 0.50",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_edited_quote_makes_the_claim_stale(course: pytest.Pytester) -> None:
    lesson = course.path / "content" / "demo.md"
    lesson.write_text(LESSON.replace("= 0.38", "= 0.40"), encoding="utf-8")
    result = course.runpytest("claims/")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["*stale*the quote is no longer in demo.md*closest is line 3*"])


def test_malformed_file_is_one_error_and_other_files_still_run(course: pytest.Pytester) -> None:
    (course.path / "claims" / "broken.yaml").write_text(
        "lesson: content/demo.md\nclaims:\n  - id: [oops\n", encoding="utf-8"
    )
    result = course.runpytest("claims/")
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(["claims/broken.yaml:*:*", "*YAML syntax error*"])
    assert "Traceback" not in result.stdout.str()
    assert "error during collection" not in result.stdout.str()


def test_unknown_kind_and_missing_field_are_located(course: pytest.Pytester) -> None:
    (course.path / "claims" / "bad.yaml").write_text(
        "lesson: content/demo.md\nclaims:\n"
        "  - id: typo\n    kind: sofmax\n    quote: '512/8=64'\n"
        "  - id: nofield\n    kind: identity\n    quote: '512/8=64'\n",
        encoding="utf-8",
    )
    result = course.runpytest("claims/bad.yaml")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "claims/bad.yaml:4:11",
            "*unknown kind 'sofmax'*",
            "claims/bad.yaml:6:5",
            "*missing field 'statement'*",
        ]
    )


def test_report_dir_writes_the_json_contract(course: pytest.Pytester) -> None:
    result = course.runpytest("claims/", "--report-dir", "out")
    result.stdout.fnmatch_lines(["lessoncheck: reports written: out/report.html (open it*"])
    report = json.loads((course.path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["version"] == 1
    # version 1's keys keep their meaning; slip, suppressed and marked_wrong were added.
    assert report["summary"] == {
        "total": 4,
        "pass": 3,
        "fail": 1,
        "stale": 0,
        "error": 0,
        "slip": 0,
        "suppressed": 0,
        "marked_wrong": 0,
    }
    keys = {
        "id",
        "kind",
        "claims_file",
        "source",
        "line",
        "quote",
        "verdict",
        "claimed",
        "expected",
        "tolerance",
        "message",
        "fix",
    }
    for finding in report["findings"]:
        assert keys <= set(finding)
    wrong = next(f for f in report["findings"] if f["id"] == "dot-wrong")
    assert (wrong["source"], wrong["line"], wrong["verdict"]) == ("content/demo.md", 5, "fail")
    assert wrong["claims_file"] == "claims/demo.yaml"


def test_yaml_outside_claims_folders_is_not_collected(course: pytest.Pytester) -> None:
    (course.path / "other").mkdir()
    (course.path / "other" / "x.yaml").write_text("a: 1\n", encoding="utf-8")
    result = course.runpytest("other/")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_report_info_points_at_the_lesson(course: pytest.Pytester) -> None:
    result = course.runpytest("claims/", "-rA")
    result.stdout.fnmatch_lines(["PASSED claims/demo.yaml::dot-right"])
    items, _ = course.inline_genitems("claims/")
    location = items[1].reportinfo()
    assert Path(location[0]).name == "demo.md" and location[1] == 4


_PROBE = """import gc


def test_heap_is_frozen_while_claims_run():
    assert (gc.get_freeze_count() > 0) == {frozen}
"""


@pytest.mark.parametrize("with_claims", [True, False])
def test_collected_objects_are_frozen_only_in_a_session_with_claims(
    course: pytest.Pytester, with_claims: bool
) -> None:
    course.makepyfile(test_probe=_PROBE.format(frozen=with_claims))
    result = course.runpytest_inprocess("test_probe.py", *(["claims/"] if with_claims else []))
    result.assert_outcomes(passed=4 if with_claims else 1, failed=1 if with_claims else 0)
    assert gc.get_freeze_count() == 0  # and thawed when the session ends


def test_a_duplicate_id_fails_as_one_located_error(course: pytest.Pytester) -> None:
    (course.path / "claims" / "dup.yaml").write_text(
        "lesson: content/demo.md\nclaims:\n"
        "  - {id: same, kind: identity, quote: '512/8=64', statement: 512/8 = 64}\n"
        "  - {id: same, kind: identity, quote: '512/8=64', statement: 512/8 = 64}\n",
        encoding="utf-8",
    )
    result = course.runpytest("claims/dup.yaml", "-rA")
    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str()
    assert "Traceback" not in output and "IndexError" not in output
    result.stdout.fnmatch_lines(
        ["claims/dup.yaml:4:5", "*duplicate claim id 'same': the claim at dup.yaml:3:5 *"]
    )


def test_reports_that_cannot_be_written_are_named_without_a_traceback(
    course: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    (course.path / "taken").write_text("a file, not a folder\n", encoding="utf-8")
    result = course.runpytest("claims/", "--report-dir", "taken")
    assert result.ret == 2
    text = result.stdout.str()
    assert "Traceback" not in text and "INTERNALERROR" not in text
    result.stdout.fnmatch_lines(
        [
            "::error file=content/demo.md,line=5*",
            "*lessoncheck reports*",
            "lessoncheck: the reports were not written: taken: exists and is not a folder*",
            "*1 failed, 3 passed*",
        ]
    )
    assert (course.path / "taken").read_text(encoding="utf-8") == "a file, not a folder\n"


# ------------------------------------------------------------------------------ whose files


def test_only_claim_files_are_collected_from_folders_found_on_the_way(
    course: pytest.Pytester,
) -> None:
    fixtures = course.path / "tests" / "fixtures" / "claims"
    fixtures.mkdir(parents=True)
    (fixtures / "insurance.yaml").write_text("policy: 12\nclaims_paid: 3\n", encoding="utf-8")
    (fixtures / "broken.yaml").write_text("{[: not yaml\n", encoding="utf-8")
    (course.path / "tests" / "test_app.py").write_text(
        "def test_app():\n    assert True\n", encoding="utf-8"
    )
    nested = course.path / "course" / "claims"
    nested.mkdir(parents=True)
    (nested / "lesson.yml").write_text("# a claim file says so\n" + CLAIMS, encoding="utf-8")
    result = course.runpytest("tests/")  # someone else's test run
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.assert_outcomes(passed=1)
    result = course.runpytest("--collect-only", "-q")  # the whole project, recursively
    collected = result.stdout.str()
    assert "tests/test_app.py::test_app" in collected
    assert "insurance" not in collected and "broken" not in collected
    assert "course/claims/lesson.yml::dot-right" in collected  # it declares itself
    assert "claims/demo.yaml::dot-right" in collected
    # Named on the command line, a claims folder is all claim files: a broken one is an error.
    (course.path / "claims" / "notes.yaml").write_text("{[: broken\n", encoding="utf-8")
    result = course.runpytest("claims/")
    result.assert_outcomes(passed=3, failed=2)


def test_claim_files_in_subfolders_of_a_claims_folder_are_collected(
    course: pytest.Pytester,
) -> None:
    """Claim files mirror their lessons' folders (``claims/week1/index.yaml``)."""
    (course.path / "claims" / "week1").mkdir()
    (course.path / "claims" / "week1" / "index.yaml").write_text(CLAIMS, encoding="utf-8")
    (course.path / "claims" / "week1" / "broken.yaml").write_text("{[: no\n", encoding="utf-8")
    collected = course.runpytest("claims/", "--collect-only", "-q").stdout.str()
    assert "claims/week1/index.yaml::dot-right" in collected
    assert "claims/demo.yaml::dot-right" in collected
    assert "claims/week1/broken.yaml" in collected  # named (its folder was): an error, not skipped
    # Found on the way (the whole project), a YAML file below a claims folder that does not
    # declare itself a claim file is someone else's.
    collected = course.runpytest("--collect-only", "-q").stdout.str()
    assert "claims/week1/index.yaml::dot-right" in collected
    assert "broken" not in collected


@pytest.mark.slow
def test_python_in_a_claims_folder_is_refused_before_pytest_imports_it(
    course: pytest.Pytester,
) -> None:
    canary = course.path / "CANARY"
    payload = f"open({str(canary)!r}, 'w').close()\n"
    for name in ("conftest.py", "test_evil.py"):
        (course.path / "claims" / name).write_text(payload, encoding="utf-8")
        for args in (["claims/"], ["claims/demo.yaml"], ["."], []):
            result = course.runpytest_subprocess(*args)
            assert result.ret == pytest.ExitCode.USAGE_ERROR, (name, args, result.stdout.str())
            result.stderr.fnmatch_lines(
                [f"*lessoncheck: refusing to run: *claims/{name}: Python in a claims folder*"]
            )
            assert not canary.exists(), (name, args)
        (course.path / "claims" / name).unlink()
    # An application's own package named "claims" (no claim files in it) is none of ours.
    app = course.path / "app" / "claims"
    app.mkdir(parents=True)
    (app / "__init__.py").write_text("", encoding="utf-8")
    (app / "test_models.py").write_text("def test_model():\n    pass\n", encoding="utf-8")
    result = course.runpytest_subprocess("app/")
    result.assert_outcomes(passed=1)


# ------------------------------------------------------------------------------ from a parent


def _nested_course(root: Path) -> None:
    """A repository whose course lives in course/, with a decoy content/demo.md at the top."""
    (root / ".git").mkdir()
    (root / "course" / "content").mkdir(parents=True)
    (root / "course" / "claims").mkdir()
    (root / "course" / "content" / "demo.md").write_text(LESSON, encoding="utf-8")
    (root / "course" / "claims" / "demo.yaml").write_text(CLAIMS, encoding="utf-8")
    (root / "content").mkdir()
    (root / "content" / "demo.md").write_text("# DECOY, not the lesson\n", encoding="utf-8")


def _assert_reports_name_the_course(reports: Path) -> None:
    report = json.loads((reports / "report.json").read_text(encoding="utf-8"))
    assert {(f["claims_file"], f["source"]) for f in report["findings"]} == {
        ("course/claims/demo.yaml", "course/content/demo.md")
    }
    sarif = json.loads((reports / "report.sarif").read_text(encoding="utf-8"))
    (result,) = sarif["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "course/content/demo.md", "uriBaseId": "%SRCROOT%"}
    page = (reports / "report.html").read_text(encoding="utf-8")
    assert "score = 0.5×0.5 + 0.5×0.5 = 0.52" in page and "DECOY" not in page


def test_reports_from_a_parent_folder_name_paths_from_the_repository_root(
    pytester: pytest.Pytester,
) -> None:
    _nested_course(pytester.path)
    result = pytester.runpytest("course/claims/", "--report-dir", "reports")
    result.assert_outcomes(passed=3, failed=1)
    _assert_reports_name_the_course(pytester.path / "reports")
    result.stdout.fnmatch_lines(["course/content/demo.md:5  score = 0.5×0.5 + 0.5×0.5 = 0.52"])


def test_the_command_line_names_the_same_paths_from_any_folder(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checkers.cli import main

    _nested_course(pytester.path)
    monkeypatch.chdir(pytester.path)
    assert main(["check", "course/claims", "--report-dir", "reports"]) == 1
    _assert_reports_name_the_course(pytester.path / "reports")
    monkeypatch.chdir(pytester.path / "course")  # from inside the course: the same names
    assert main(["check", "claims", "--report-dir", "../reports2"]) == 1
    _assert_reports_name_the_course(pytester.path / "reports2")


@pytest.fixture
def quiet_course(pytester: pytest.Pytester) -> pytest.Pytester:
    from tests.conftest import QUIET_CLAIMS, QUIET_LESSON

    pytester.mkdir("content")
    pytester.mkdir("claims")
    (pytester.path / "content" / "quiet.md").write_text(QUIET_LESSON, encoding="utf-8")
    (pytester.path / "claims" / "quiet.yaml").write_text(QUIET_CLAIMS, encoding="utf-8")
    return pytester


def test_a_slip_passes_with_a_warning_at_the_lesson_line(quiet_course: pytest.Pytester) -> None:
    result = quiet_course.runpytest("claims/quiet.yaml::share-truncated", "-rA")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "*content/quiet.md:3: SlipWarning: slip: 2 / 7 is 0.2857 → 0.29, not 0.28*",
            "*lessoncheck*",
            "slip: content/quiet.md:3  2 / 7 = 0.28: 2 / 7 is 0.2857 → 0.29, not 0.28",
            "0 passed, 1 failed (1 slip), 0 stale, 0 errors; slips pass (--lessoncheck-strict)",
        ]
    )
    assert result.ret == 0


@pytest.mark.parametrize(
    "strict",
    [["--lessoncheck-strict"], ["--strict"], ["-W", "error::checkers.pytest_plugin.SlipWarning"]],
)
def test_strict_makes_a_slip_fail(quiet_course: pytest.Pytester, strict: list[str]) -> None:
    result = quiet_course.runpytest("claims/quiet.yaml::share-truncated", *strict)
    result.assert_outcomes(failed=1)


def test_strict_from_the_project_configuration_fails_a_slip(
    quiet_course: pytest.Pytester,
) -> None:
    (quiet_course.path / ".lessoncheck.toml").write_text("strict = true\n", encoding="utf-8")
    result = quiet_course.runpytest("claims/quiet.yaml::share-truncated")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*slip*2 / 7 is 0.2857 → 0.29, not 0.28*"])


def test_quiet_findings_do_not_fail_and_are_counted(quiet_course: pytest.Pytester) -> None:
    result = quiet_course.runpytest("claims/", "--report-dir", "out", "-rfxX")
    # rows-corrected passes; share-truncated passes as a slip; quarter-eight (marked wrong but
    # right) xpasses; rows-marked, quarter-four and legacy xfail; the real mistakes fail.
    result.assert_outcomes(passed=2, failed=3, xfailed=3, xpassed=1, warnings=1)
    result.stdout.fnmatch_lines_random(
        [
            "XFAIL claims/quiet.yaml::legacy - *suppressed by <!-- lessoncheck: ignore --> on "
            "line 16*",
            "XFAIL claims/quiet.yaml::rows-marked - *marked wrong by the author (✗ on line 7)*",
            "XPASS claims/quiet.yaml::quarter-eight *marked wrong by the author (❌ on line 9), "
            "but it holds*",
            "FAILED claims/quiet.yaml::share-wrong*",
            "FAILED claims/quiet.yaml::quarter-six*",
            "FAILED claims/quiet.yaml::next-figure*",
            # lessoncheck counts numbers: the slip is a failed number, in a passing item.
            "1 passed, 4 failed (1 slip), 0 stale, 0 errors, 1 suppressed, "
            "3 marked wrong by the author; slips pass (--lessoncheck-strict)",
        ]
    )
    report = json.loads((quiet_course.path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["suppressed"] == 1
    assert report["summary"]["marked_wrong"] == 3
    assert report["summary"]["slip"] == 1


def test_marked_wrong_never_fails_even_under_strict_xfail(quiet_course: pytest.Pytester) -> None:
    result = quiet_course.runpytest(
        "claims/quiet.yaml::quarter-eight", "claims/quiet.yaml::quarter-four", "--strict"
    )
    result.assert_outcomes(xfailed=1, xpassed=1)
    assert result.ret == 0


def test_a_broken_configuration_is_a_usage_error(quiet_course: pytest.Pytester) -> None:
    (quiet_course.path / ".lessoncheck.toml").write_text("ignore = 3\n", encoding="utf-8")
    result = quiet_course.runpytest("claims/")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*.lessoncheck.toml:1: ignore must be a list of path globs*"])
