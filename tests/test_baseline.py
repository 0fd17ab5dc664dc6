"""Baselines: today's known failures stop failing CI; new failures and stale claims still do."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from checkers.baseline import (
    DEFAULT_FILE,
    Baseline,
    BaselineError,
    Entry,
    fingerprint,
    load,
    parse,
)
from checkers.cli import main
from checkers.finding import Finding

ROOT = Path(__file__).resolve().parent.parent

FAIL = Finding(
    id="score",
    kind="arithmetic",
    claims_file="claims/demo.yaml",
    source="content/demo.md",
    line=5,
    quote="score = 0.5×0.5 + 0.5×0.5 = 0.52",
    verdict="fail",
    claimed="0.52",
    expected="0.5 → 0.50",
    tolerance="±0.005",
    message="0.5×0.5 + 0.5×0.5 is 0.5 → 0.50, not 0.52",
    fix="score = 0.5×0.5 + 0.5×0.5 = 0.50",
)

# ---------------------------------------------------------------------------------------------
# The file and the matching rules


def test_fingerprint_ignores_whitespace_but_not_numbers() -> None:
    assert fingerprint("a =  0.52", "0.52") == fingerprint("a=\n0.52", " 0.52")
    assert fingerprint("a = 0.52", "0.52") != fingerprint("a = 0.53", "0.53")
    assert fingerprint("a = 0.52", "0.52") != fingerprint("a = 0.52", "0.520")
    assert len(fingerprint("x", "1")) == 64


def test_only_failures_are_recorded_sorted_and_round_trip() -> None:
    stale = replace(FAIL, id="gone", verdict="stale")
    error = replace(FAIL, id="broken", verdict="error")
    passing = replace(FAIL, id="fine", verdict="pass")
    other = replace(FAIL, id="another", quote="x = 0.3", claimed="0.3")
    baseline = Baseline.of([stale, FAIL, error, passing, other])
    assert [e.id for e in baseline.entries] == ["another", "score"]
    text = baseline.to_text()
    data = json.loads(text)
    assert data["version"] == 1 and len(data["entries"]) == 2
    assert parse(text) == baseline
    assert Baseline.of([FAIL, FAIL]).entries == (Entry.of(FAIL),)  # no duplicates


def test_a_known_failure_matches_until_its_numbers_change() -> None:
    baseline = Baseline.of([FAIL])
    assert baseline.matches(FAIL)
    assert baseline.matches(replace(FAIL, line=50, quote=FAIL.quote.replace(" ", "  ")))
    assert not baseline.matches(replace(FAIL, quote=FAIL.quote.replace("0.52", "0.53")))
    assert not baseline.matches(replace(FAIL, claimed="0.53"))
    assert not baseline.matches(replace(FAIL, claims_file="claims/other.yaml", source="x.md"))
    # Stale claims and errors are never excused, even with the same quote.
    assert not baseline.matches(replace(FAIL, verdict="stale"))
    assert not baseline.matches(replace(FAIL, verdict="error"))


def test_scan_findings_and_renamed_claims_match_on_lesson_and_fingerprint() -> None:
    scanned = replace(FAIL, claims_file="", id="auto-5")
    baseline = Baseline.of([scanned])
    assert baseline.matches(replace(scanned, id="auto-7"))
    assert Baseline.of([FAIL]).matches(replace(FAIL, id="renamed"))


def test_compare_splits_known_new_and_fixed() -> None:
    gone = replace(FAIL, id="fixed-one", quote="y = 0.2", claimed="0.2")
    baseline = Baseline.of([FAIL, gone])
    new = replace(FAIL, id="new-one", quote="z = 0.9", claimed="0.9")
    stale = replace(FAIL, id="stale-one", verdict="stale")
    now_passing = replace(gone, verdict="pass", fix=None)
    comparison = baseline.compare([FAIL, new, stale, now_passing], DEFAULT_FILE)
    assert [f.id for f in comparison.known] == ["score"]
    assert [f.id for f in comparison.new] == ["new-one", "stale-one"]
    assert [e.id for e in comparison.fixed] == ["fixed-one"]
    assert comparison.summary() == "baseline: 1 known, 2 new, 1 fixed since the baseline"
    section = comparison.to_json()
    assert section["counts"] == {"known": 1, "new": 2, "fixed": 1}
    assert section["fixed"] == [
        {"claims_file": "claims/demo.yaml", "id": "fixed-one", "source": "content/demo.md"}
    ]
    # An entry whose claim did not run this time (another file, removed) is not "fixed".
    assert baseline.compare([FAIL], DEFAULT_FILE).fixed == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "expected a lessoncheck baseline"),
        ('{"version": 2, "entries": []}', "version 2 is not supported"),
        ('{"version": 1, "entries": [3]}', "entries[0]: expected an object"),
        ('{"version": 1, "entries": [{"id": "a", "fingerprint": "x"}]}', "64-digit"),
        (
            '{"version": 1, "entries": [{"id": "a", "fingerprint": "' + "0" * 64 + '"}]}',
            "needs a `claims_file` or a `source`",
        ),
        ('{"version": 1, "entries": [{"id": 5}]}', "'id' must be a string"),
    ],
)
def test_malformed_baselines_are_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(BaselineError, match=None) as caught:
        parse(text, "b.json")
    assert message in str(caught.value)
    assert str(caught.value).startswith("b.json")


def test_missing_baseline_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="lessoncheck baseline -o"):
        load(tmp_path / "nope.json")


# ---------------------------------------------------------------------------------------------
# End to end, on a copy of the seed course


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The seed course (content/ and claims/) copied into a scratch folder, made current."""
    shutil.copytree(ROOT / "content", tmp_path / "content")
    shutil.copytree(ROOT / "claims", tmp_path / "claims")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must occur exactly once) in ``path``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


FUNDAMENTALS = ("content/transformer-fundamentals.md", "claims/transformer-fundamentals.yaml")


def introduce_new_error(root: Path) -> None:
    """LayerNorm's mean of [2, 4, 6, 8] printed as 5.5 (it is 5.0), in lesson and claim."""
    lesson, claims = (root / p for p in FUNDAMENTALS)
    edit(lesson, "mean = (2 + 4 + 6 + 8) / 4 = 5.0", "mean = (2 + 4 + 6 + 8) / 4 = 5.5")
    edit(claims, "(2 + 4 + 6 + 8) / 4 = 5.0", "(2 + 4 + 6 + 8) / 4 = 5.5")
    edit(
        claims,
        "expression: (2 + 4 + 6 + 8) / 4\n    claimed: 5.0",
        "expression: (2 + 4 + 6 + 8) / 4\n    claimed: 5.5",
    )


def fix_known_error(root: Path) -> None:
    """Q_追 = x_追 · W_q is [0.76, 0.94]; the seed prints [0.62, 0.81]. Correct both."""
    lesson, claims = (root / p for p in FUNDAMENTALS)
    edit(lesson, "Q_追   = [0.62, 0.81]", "Q_追   = [0.76, 0.94]")
    edit(claims, 'quote: "Q_追   = [0.62, 0.81]"', 'quote: "Q_追   = [0.76, 0.94]"')
    edit(claims, "claimed: [0.62, 0.81]", "claimed: [0.76, 0.94]")


def report(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_cli_baseline_then_new_error_then_fixed_error(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "-q"]) == 1  # the seed course has known mistakes
    assert main(["baseline"]) == 0
    out = capsys.readouterr().out
    baseline = load(course / DEFAULT_FILE)
    known = len(baseline.entries)
    assert known > 0 and f"wrote {DEFAULT_FILE}: {known} known failures" in out

    # Today's failures are known: listed, but the run passes.
    assert main(["check", "--baseline", DEFAULT_FILE, "--json", "r.json"]) == 0
    out = capsys.readouterr().out
    assert f"known (baseline): recorded in {DEFAULT_FILE}, not failing this run" in out
    assert f"baseline: {known} known, 0 new, 0 fixed since the baseline" in out
    data = report(course / "r.json")
    assert data["version"] == 1
    section = data["baseline"]
    assert isinstance(section, dict)
    assert section["counts"] == {"known": known, "new": 0, "fixed": 0}

    # A newly introduced wrong number fails the run.
    introduce_new_error(course)
    assert main(["check", "--baseline", DEFAULT_FILE, "--report-dir", "out"]) == 1
    out = capsys.readouterr().out
    assert f"baseline: {known} known, 1 new, 0 fixed since the baseline" in out
    section = report(course / "out" / "report.json")["baseline"]
    assert isinstance(section, dict)
    assert [n["id"] for n in section["new"]] == ["layernorm-mean"]

    # Correcting a known error (lesson and claim) is reported as fixed since the baseline.
    fix_known_error(course)
    assert main(["check", "--baseline", DEFAULT_FILE, "--json", "r.json"]) == 1
    out = capsys.readouterr().out
    assert "fixed since the baseline: claims/transformer-fundamentals.yaml::q-chase-vector" in out
    assert f"baseline: {known - 1} known, 1 new, 1 fixed since the baseline" in out
    section = report(course / "r.json")["baseline"]
    assert isinstance(section, dict)
    assert [f["id"] for f in section["fixed"]] == ["q-chase-vector"]

    # Undo the new error: only known failures remain, so the run passes again.
    lesson, claims = (course / p for p in FUNDAMENTALS)
    edit(lesson, "/ 4 = 5.5", "/ 4 = 5.0")
    edit(claims, "/ 4 = 5.5", "/ 4 = 5.0")
    edit(claims, "claimed: 5.5", "claimed: 5.0")
    assert main(["check", "-q", "--baseline", DEFAULT_FILE]) == 0


def test_cli_a_stale_claim_fails_even_when_its_failure_is_known(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["baseline", "-o", "base.json"]) == 0
    # Reword the sentence of a known failure without updating its claim: the claim is stale.
    edit(
        course / FUNDAMENTALS[0],
        "Q_追   = [0.62, 0.81]",
        "Q_追 (chase) = [0.62, 0.81]",
    )
    assert main(["check", "-q", "--baseline", "base.json"]) == 1
    assert "1 stale" in capsys.readouterr().out


def test_cli_baseline_input_errors_exit_two(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--baseline", "missing.json"]) == 2
    assert "no such baseline file" in capsys.readouterr().err
    (course / "bad.json").write_text("{", encoding="utf-8")
    assert main(["check", "--baseline", "bad.json"]) == 2
    assert "bad.json:1:2: not valid JSON" in capsys.readouterr().err
    assert main(["baseline", "nowhere/"]) == 2


def test_cli_scan_with_a_baseline_of_scanned_lessons(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = "content/transformer-fundamentals.md"
    assert main(["scan", "-q", lesson]) == 1
    assert main(["baseline", "-o", "scan.json", lesson]) == 0
    assert load(course / "scan.json").entries  # the scan found mistakes to record
    assert main(["scan", "-q", "--baseline", "scan.json", lesson]) == 0
    assert ", 0 new, 0 fixed since the baseline" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# pytest claims/ --baseline


@pytest.fixture
def seed(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(ROOT / "content", pytester.path / "content")
    shutil.copytree(ROOT / "claims", pytester.path / "claims")
    assert main(["baseline", "claims", "-o", DEFAULT_FILE]) == 0  # pytester made it current
    return pytester


@pytest.mark.slow  # a whole pytest session on a course, inside this one
def test_pytest_known_failures_xfail_new_ones_fail_fixed_ones_are_listed(
    seed: pytest.Pytester,
) -> None:
    known = len(load(seed.path / DEFAULT_FILE).entries)
    result = seed.runpytest("claims/", "--baseline", DEFAULT_FILE, "-rx")
    outcomes = result.parseoutcomes()
    assert result.ret == pytest.ExitCode.OK
    assert outcomes["xfailed"] == known and "failed" not in outcomes
    result.stdout.fnmatch_lines(
        ["*lessoncheck baseline*", f"baseline: {known} known, 0 new, 0 fixed since the baseline"]
    )
    result.stdout.fnmatch_lines(
        ["XFAIL claims/transformer-fundamentals.yaml::score-cat-cat - known (baseline)*0.78"]
    )

    introduce_new_error(seed.path)
    fix_known_error(seed.path)
    result = seed.runpytest("claims/", "--baseline", DEFAULT_FILE, "--report-dir", "out")
    outcomes = result.parseoutcomes()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert outcomes["failed"] == 1 and outcomes["xfailed"] == known - 1
    result.stdout.fnmatch_lines(
        [
            "*content/transformer-fundamentals.md:*mean = (2 + 4 + 6 + 8) / 4 = 5.5",
            "*lessoncheck baseline*",
            "fixed since the baseline: claims/transformer-fundamentals.yaml::q-chase-vector",
            f"baseline: {known - 1} known, 1 new, 1 fixed since the baseline",
        ]
    )
    data = report(seed.path / "out" / "report.json")
    section = data["baseline"]
    assert isinstance(section, dict)
    assert section["counts"] == {"known": known - 1, "new": 1, "fixed": 1}
    summary = data["summary"]
    assert isinstance(summary, dict)
    assert summary["fail"] == known  # the report still lists every failure, known or new


def test_pytest_bad_baseline_is_a_usage_error(seed: pytest.Pytester) -> None:
    result = seed.runpytest("claims/", "--baseline", "missing.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*lessoncheck: *missing.json: no such baseline file*"])


def test_quiet_findings_are_neither_known_nor_new_and_slips_are_recorded() -> None:
    slip = replace(FAIL, id="share", severity="slip")
    quiet = [
        replace(FAIL, id="legacy", verdict="suppressed"),
        replace(FAIL, id="shown", verdict="marked_wrong"),
    ]
    baseline = Baseline.of([slip, *quiet])
    assert [entry.id for entry in baseline.entries] == ["share"]  # quiet ones are not failures
    comparison = baseline.compare([slip, *quiet], "b.json")
    assert comparison.known == (slip,) and comparison.new == ()


def test_cli_strict_with_a_baseline_excuses_a_known_slip_only(
    quiet_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(quiet_project)
    claims = quiet_project / "claims" / "quiet.yaml"
    text = claims.read_text(encoding="utf-8")
    claims.write_text(text.split("  - id: share-wrong")[0], encoding="utf-8")  # the slip only
    assert main(["check", "--strict", "-q"]) == 1
    assert main(["baseline", "-o", "b.json"]) == 0  # a slip alone does not fail the run
    assert main(["check", "--strict", "--baseline", "b.json", "-q"]) == 0
