"""``lessoncheck fix``: wrong numbers rewritten in place, worked examples carried along."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checkers.cli import main
from checkers.finding import Finding
from checkers.fix import number_changes, plan_fix
from checkers.numbers import number_tokens
from checkers.runner import run_paths
from tests.conftest import CLAIMS, LESSON

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------------------------
# Numbers in text


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("score = 0.5×0.5 + 0.5×0.5 = 0.52", ["0.5", "0.5", "0.5", "0.5", "0.52"]),
        ("w1×0.52 + w2×0.78", ["0.52", "0.78"]),  # names are not numbers
        ("[-0.42, −1.0] and (2-5)", ["-0.42", "−1.0", "2", "5"]),  # binary minus is not a sign
        ("W₂ x² 10000^1 Q_猫[0]", ["10000", "1", "0"]),
        ("０．５２ = 0.52", ["０．５２", "0.52"]),
        ("1.5B, 30%, 4,096", ["1.5", "30", "4,096"]),  # one number, as expressions read it
    ],
)
def test_number_tokens(text: str, numbers: list[str]) -> None:
    assert [t.text for t in number_tokens(text)] == numbers


def test_number_changes_only_for_number_replacements() -> None:
    assert number_changes("a = 0.78 / 1.41 = 0.55", "a = 0.78 / 1.41 = 0.57") == {2: "0.57"}
    assert number_changes("[0.62, 0.81]", "[0.76, 0.94]") == {0: "0.76", 1: "0.94"}
    assert number_changes("x = 0.65", "x = -0.99") == {0: "-0.99"}
    assert number_changes("i = 0, 1, ..., d/2", "i = 0, 1, ..., d/2 − 1") is None
    assert number_changes("E = d_k", "E = 0") is None
    assert number_changes("a = 1", "a = 1") == {}
    # A grouped number is one number: 1,000 → 999 is a replacement, not two numbers and one.
    assert number_changes("x = 1,000 tokens", "x = 999 tokens") == {0: "999"}


# ---------------------------------------------------------------------------------------------
# The demo course: one wrong sum and a step that uses it


def test_diff_rewrites_the_wrong_number_and_carries_it_into_the_next_step(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    assert main(["fix"]) == 1  # --diff is the default: 1 as there is something to change
    captured = capsys.readouterr()
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
    diff = captured.out
    assert "--- a/content/demo.md\n+++ b/content/demo.md\n" in diff
    assert "-score = 0.5×0.5 + 0.5×0.5 = 0.52\n+score = 0.5×0.5 + 0.5×0.5 = 0.50\n" in diff
    assert "-scaled = 0.52 / 2 = 0.26\n+scaled = 0.50 / 2 = 0.25\n" in diff
    assert '+    quote: "scaled = 0.50 / 2 = 0.25"\n' in diff
    assert "+    claimed: 0.50\n" in diff and "+    claimed: 0.25\n" in diff
    assert diff.index("a/content/demo.md") < diff.index("a/claims/demo.yaml")  # lessons first
    account = captured.err
    assert "fixed      claims/demo.yaml::dot-wrong" in account
    assert "carried    claims/demo.yaml::scaled" in account
    assert account.rstrip().endswith("after the rewrite: 4 passed, 0 failed, 0 stale, 0 errors")


def test_write_keeps_comments_and_formatting_and_the_checks_pass(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(project)
    claims = project / "claims" / "demo.yaml"
    commented = CLAIMS.replace(
        "  - id: dot-wrong\n", "  # the sum the reader checks first\n  - id: dot-wrong  # keep\n"
    ).replace("claimed: 0.52", "claimed: 0.52   # as printed")
    claims.write_text(commented, encoding="utf-8")
    # Full-width digits in the lesson stay full-width (the quote matches them half-width).
    lesson = project / "content" / "demo.md"
    lesson.write_text(LESSON.replace("= 0.52\n", "= ０．５２\n", 1), encoding="utf-8")
    assert main(["fix", "--write"]) == 0
    assert "rewrote 3 numbers in 1 lesson: 1 failing claim fixed, 1 carried along" in (
        capsys.readouterr().out
    )
    text = lesson.read_text(encoding="utf-8")
    assert "score = 0.5×0.5 + 0.5×0.5 = ０．５０\n" in text
    assert "scaled = 0.50 / 2 = 0.25\n" in text
    new = claims.read_text(encoding="utf-8")
    assert "  # the sum the reader checks first\n  - id: dot-wrong  # keep\n" in new
    assert "claimed: 0.50   # as printed" in new
    expected = (
        commented.replace('0.5×0.5 + 0.5×0.5 = 0.52"', '0.5×0.5 + 0.5×0.5 = 0.50"')
        .replace("claimed: 0.52", "claimed: 0.50")
        .replace("scaled = 0.52 / 2 = 0.26", "scaled = 0.50 / 2 = 0.25")
        .replace("claimed: 0.26", "claimed: 0.25")
    )
    assert new == expected  # nothing else in the file moved
    assert main(["check", "-q"]) == 0
    assert main(["fix"]) == 0  # nothing left to do
    assert "nothing to rewrite" in capsys.readouterr().err


def test_diff_exit_code_says_whether_there_is_something_to_change(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As ``black --check``: 1 while the diff is not empty, 0 once it is, even when a claim
    still fails (there is nothing fix can change about it); 2 when a claim cannot be read."""
    monkeypatch.chdir(project)
    assert main(["fix", "--diff"]) == 1
    assert capsys.readouterr().out.startswith("--- a/content/demo.md")
    assert main(["fix", "--write"]) == 0
    # A wrong statement fix has no number replacement for (the quotient is not a lone number).
    lesson = project / "content" / "demo.md"
    lesson.write_text(
        lesson.read_text(encoding="utf-8").replace("512/8=64", "512/8=63"), encoding="utf-8"
    )
    claims = project / "claims" / "demo.yaml"
    text = claims.read_text(encoding="utf-8").replace("512/8=64", "512/8=63")
    claims.write_text(text.replace("statement: 512/8 = 64", "statement: 512/8 = 63"), "utf-8")
    assert main(["check", "-q"]) == 1
    capsys.readouterr()
    assert main(["fix", "--diff"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "nothing to rewrite" in captured.err
    (project / "claims" / "broken.yaml").write_text("claims: [\n", encoding="utf-8")
    assert main(["fix", "--diff"]) == 2


def test_only_the_occurrence_the_claim_names_is_rewritten(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    lesson = project / "content" / "demo.md"
    lesson.write_text(LESSON + "\nscore = 0.5×0.5 + 0.5×0.5 = 0.52\n", encoding="utf-8")
    claims = project / "claims" / "demo.yaml"
    claims.write_text(
        CLAIMS.replace(
            "    expression: 0.5×0.5 + 0.5×0.5\n",
            "    occurrence: 2\n    expression: 0.5×0.5 + 0.5×0.5\n",
        ).replace("    uses: {s: dot-wrong}\n", "    uses: {}\n    where: {s: 0.52}\n"),
        encoding="utf-8",
    )
    plan = plan_fix([Path("claims")])
    text = plan.texts[lesson.resolve()]
    assert text.count("score = 0.5×0.5 + 0.5×0.5 = 0.52") == 1  # the first one is untouched
    assert text.endswith("score = 0.5×0.5 + 0.5×0.5 = 0.50\n")


def test_an_ambiguous_rewrite_is_reported_and_nothing_is_touched(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A claim that uses the wrong value prints it twice, and its expression does not line up
    with its quote: which 0.52 is the input? fix cannot tell, so it rewrites nothing of that
    worked example and says why."""
    monkeypatch.chdir(project)
    lesson = project / "content" / "demo.md"
    lesson.write_text(LESSON + "\ntwice: 0.52 + 0.52 = 1.04\n", encoding="utf-8")
    claims = project / "claims" / "demo.yaml"
    claims.write_text(
        CLAIMS
        + """  - id: twice
    kind: arithmetic
    quote: "twice: 0.52 + 0.52 = 1.04"
    uses: {s: dot-wrong}
    expression: 2 × s
    claimed: 1.04
""",
        encoding="utf-8",
    )
    before = lesson.read_bytes(), claims.read_bytes()
    assert main(["fix", "--write"]) == 1
    assert (lesson.read_bytes(), claims.read_bytes()) == before
    out = capsys.readouterr().out
    assert "not fixed  content/demo.md:5  claims/demo.yaml::dot-wrong (arithmetic)" in out
    assert "prints 0.52 2 times; cannot tell which one to rewrite" in out


def test_a_fix_that_is_not_a_number_replacement_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "l.md").write_text("Half of 8 is 4 = 8/2 = 5\n", encoding="utf-8")
    (tmp_path / "claims" / "l.yaml").write_text(
        """lesson: content/l.md
claims:
  - id: half
    kind: identity
    quote: "4 = 8/2 = 5"
    statement: 4 = 8/2 = 5
""",
        encoding="utf-8",
    )
    plan = plan_fix([tmp_path / "claims"])
    assert plan.texts == {}
    assert [n.claim.split("::")[1] for n in plan.not_fixed] == ["half"]


# ---------------------------------------------------------------------------------------------
# Acceptance: the seed course


def apply_diff(root: Path, diff: str) -> None:
    """Apply a unified diff (as ``fix --diff`` prints it) to the files under ``root``."""
    files = re.split(r"^--- a/", diff, flags=re.MULTILINE)[1:]
    for chunk in files:
        lines = chunk.splitlines(keepends=True)
        path = root / lines[0].strip()
        old = path.read_text(encoding="utf-8").splitlines(keepends=True)
        new: list[str] = []
        cursor = 0
        for index, line in enumerate(lines):
            hunk = re.match(r"@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@", line)
            if not hunk:
                continue
            start = int(hunk.group(1)) - 1
            new.extend(old[cursor:start])
            cursor = start
            for body in lines[index + 1 :]:
                if body.startswith("@@"):
                    break
                if body.startswith((" ", "-")):
                    assert old[cursor] == body[1:], f"{path}: context differs at {cursor + 1}"
                    cursor += 1
                if body.startswith((" ", "+")):
                    new.append(body[1:])
        new.extend(old[cursor:])
        path.write_text("".join(new), encoding="utf-8")


@pytest.fixture(scope="module")
def seed_fixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[Finding]]:
    """A copy of the seed course with the output of ``fix --diff`` applied to it, that diff,
    and the findings before."""
    root = tmp_path_factory.mktemp("seed")
    shutil.copytree(ROOT / "content", root / "content")
    shutil.copytree(ROOT / "claims", root / "claims")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        before = run_paths([Path("claims")])
        diff, account = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(diff), contextlib.redirect_stderr(account):
            assert main(["fix", "--diff"]) == 1  # it changes files
        print(account.getvalue())
        apply_diff(root, diff.getvalue())
    return root, diff.getvalue(), before


def test_seed_fix_makes_every_arithmetic_claim_hold(
    seed_fixed: tuple[Path, str, list[Finding]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, diff, before = seed_fixed
    monkeypatch.chdir(root)
    failing_arithmetic = [f.id for f in before if f.kind == "arithmetic" and f.verdict == "fail"]
    assert failing_arithmetic  # the seed prints wrong dot products
    after = run_paths([Path("claims")])
    assert [f.id for f in after if f.kind == "arithmetic" and f.verdict != "pass"] == []
    assert not [f for f in after if f.verdict in ("stale", "error")]
    # Nothing that held before breaks, and fewer claims fail.
    held = {(f.claims_file, f.id) for f in before if f.verdict == "pass"}
    assert all(f.verdict == "pass" for f in after if (f.claims_file, f.id) in held)
    assert sum(f.verdict == "fail" for f in after) < sum(f.verdict == "fail" for f in before)
    # The worked example is carried through: 0.78 → 0.80, then 0.80 / 1.41 = 0.57, ...
    lesson = (root / "content" / "transformer-fundamentals.md").read_text(encoding="utf-8")
    assert "= 0.58×0.71 + 0.74×0.52 = 0.80\n" in lesson
    assert "score(猫, 猫) = 0.80 / 1.41 = 0.57\n" in lesson
    assert "             = 0.161 + 0.273 + 0.208\n             = 0.642\n" in lesson
    assert "+score(猫, 猫) = 0.80 / 1.41 = 0.57" in diff


def test_seed_fix_leaves_other_kinds_when_not_a_number_replacement(
    seed_fixed: tuple[Path, str, list[Finding]], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _, _ = seed_fixed
    monkeypatch.chdir(root)
    plan = plan_fix([Path("claims")])  # on the rewritten course
    assert plan.texts == {}
    left = {n.claim.split("::")[1]: n for n in plan.not_fixed}
    assert left and all(n.kind != "arithmetic" for n in left.values())
    assert "changes more than numbers" in left["pe-index-range"].reason
    assert "would still be fail" in left["pe-0-2"].reason  # written_exponent is a claim field
    assert "suggests no fix" in left["mask-is-not-causal"].reason
    # Comments of the claim file survive the rewrite.
    original = (ROOT / "claims" / "transformer-fundamentals.yaml").read_text(encoding="utf-8")
    written = (root / "claims" / "transformer-fundamentals.yaml").read_text(encoding="utf-8")
    comments = [line for line in original.splitlines() if line.lstrip().startswith("#")]
    assert comments and all(line in written.splitlines() for line in comments)


@pytest.mark.slow  # two command-line runs of fix on the seed course
def test_the_seed_fix_reads_the_same_whatever_the_hash_seed(tmp_path: Path) -> None:
    """Hints list their numbers in a fixed order (by line, then as rewritten), not a set's."""
    outputs = []
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "checkers", "fix"],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        said = done.stdout + done.stderr  # the diff, then what was and was not rewritten
        assert "own copy of numbers" in said
        outputs.append(said)
    assert outputs[0] == outputs[1]


# ---------------------------------------------------------------------------------------------
# Input errors


@pytest.mark.parametrize("write", [False, True])
def test_an_undecodable_lesson_is_an_input_error_and_the_rest_is_fixed(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    write: bool,
) -> None:
    """``fix`` reports what ``check`` reports about a lesson it cannot read (exit 2), and still
    fixes the claim files whose lessons it can."""
    (project / "content" / "latin1.md").write_bytes(b"# Caf\xe9\n\n0.5 + 0.5 = 1.1\n")
    (project / "claims" / "latin1.yaml").write_text(
        "lesson: content/latin1.md\nclaims:\n"
        "  - {id: sum, kind: arithmetic, quote: '0.5 + 0.5 = 1.1', expression: 0.5 + 0.5,"
        " claimed: 1.1}\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(project)
    assert main(["check", "-q"]) == 2
    errors = re.search(r"\d+ errors", capsys.readouterr().out)
    assert errors is not None and errors.group() != "0 errors"
    assert main(["fix", "--write" if write else "--diff"]) == 2
    captured = capsys.readouterr()
    account = captured.out if write else captured.err
    assert account.rstrip().endswith(errors.group())  # what check counts
    assert "latin1" in account and "not valid UTF-8" in account
    fixed = (project / "content" / "demo.md").read_text(encoding="utf-8")
    assert ("0.5×0.5 + 0.5×0.5 = 0.50" in fixed) == write
    assert (project / "content" / "latin1.md").read_bytes() == b"# Caf\xe9\n\n0.5 + 0.5 = 1.1\n"


# ---------------------------------------------------------------------------------------------
# Writing: every file or none


def _files(project: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(project.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("failure", ["full disk", "read-only folder", "rename"])
def test_write_changes_every_file_or_none(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failure: str,
) -> None:
    """The lesson and its claim file are rewritten together: when the claim file cannot be
    written (no space, no permission, a rename refused), the lesson is left as it was too, and
    no temporary file is left behind."""
    import errno
    import os
    import tempfile

    monkeypatch.chdir(project)
    claims = (project / "claims" / "demo.yaml").resolve()
    before = _files(project)
    real_mkstemp, real_replace = tempfile.mkstemp, os.replace

    def mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
        if Path(str(kwargs.get("dir", ""))).resolve() == claims.parent:
            code = errno.ENOSPC if failure == "full disk" else errno.EACCES
            raise OSError(code, os.strerror(code), str(claims))
        return real_mkstemp(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    def replace(source: str, target: str) -> None:
        if Path(target).resolve() == claims:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(target))
        real_replace(source, target)

    if failure == "rename":
        monkeypatch.setattr(os, "replace", replace)
    else:
        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    assert main(["fix", "--write"]) == 2
    assert _files(project) == before
    error = capsys.readouterr().err
    assert "demo.yaml" in error and ("no file was changed" in error or "as it was" in error)


def test_a_rerun_after_a_kill_between_files_repairs_the_stale_claims(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Killed after the lesson was replaced and before its claim file was: the claims whose
    numbers ``fix`` changed are stale. Running ``fix --write`` again gives the claim file the
    lesson's numbers (quote, claimed) and every claim holds; a stale claim whose new numbers
    are wrong is left stale."""
    monkeypatch.chdir(project)
    lesson = project / "content" / "demo.md"
    plan = plan_fix([Path("claims")])
    lesson.write_text(plan.texts[lesson.resolve()], encoding="utf-8")  # only the lesson landed
    assert main(["check", "-q"]) == 1
    assert "2 stale" in capsys.readouterr().out
    assert main(["fix", "--write"]) == 0
    assert main(["check", "-q"]) == 0
    claims = (project / "claims" / "demo.yaml").read_text(encoding="utf-8")
    assert '"score = 0.5×0.5 + 0.5×0.5 = 0.50"' in claims and "claimed: 0.50" in claims
    assert '"scaled = 0.50 / 2 = 0.25"' in claims and "claimed: 0.25" in claims
    # An author's wrong number is not "repaired" into the claim file.
    lesson.write_text(
        lesson.read_text(encoding="utf-8").replace("= 0.38", "= 0.39"), encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["fix", "--write"]) == 1
    assert "= 0.38" in (project / "claims" / "demo.yaml").read_text(encoding="utf-8")
    assert "1 stale" in capsys.readouterr().out
