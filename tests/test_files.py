"""Reading and writing files inside the project (``checkers.files``), and the lesson-file rule
(``not_a_lesson``): only lesson files are read, quoted, embedded or rewritten, whatever a claim
file names or a pull request links."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from checkers.cli import main
from checkers.files import (
    CLAIM_FILES,
    LESSON_SUFFIXES,
    NoMatch,
    NotText,
    Selection,
    claim_file_candidates,
    collect,
    decode_text,
    escapes,
    glob_match,
    inside,
    link_outside_working_folder,
    not_a_lesson,
    read_regular_file,
    real_working_folder,
    resolve_in_project,
    write_atomic,
)


def test_a_regular_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "lesson.md"
    path.write_bytes(b"12345")
    assert read_regular_file(path, 5) == b"12345"
    with pytest.raises(ValueError, match="larger than 4 bytes"):
        read_regular_file(path, 4)


def test_anything_but_a_regular_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a regular file"):
        read_regular_file(tmp_path, 100)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        read_regular_file(fifo, 100)  # would block forever if it were opened


def test_text_is_utf8_without_its_byte_order_mark() -> None:
    assert decode_text("\ufeffscore = 0.78".encode()) == "score = 0.78"


@pytest.mark.parametrize(
    ("data", "start", "utf16"),
    [
        (b"a\x00b", None, False),
        ("x".encode("utf-16"), None, True),
        (b"ok \xff", 3, False),
    ],
)
def test_what_is_not_text_says_why(data: bytes, start: int | None, utf16: bool) -> None:
    with pytest.raises(NotText) as raised:
        decode_text(data)
    assert raised.value.start == start and raised.value.utf16 == utf16
    if start is not None:
        assert raised.value.byte == data[start : start + 1]


def test_write_atomic_replaces_the_whole_file_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "reports" / "report.json"
    write_atomic(target, "first\n")
    target.chmod(0o640)
    write_atomic(target, "second\n")
    assert target.read_text(encoding="utf-8") == "second\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in target.parent.iterdir()] == ["report.json"]  # no temporary left


def test_paths_inside_and_links_out_of_a_root(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "content").mkdir(parents=True)
    (root / "content" / "a.md").write_text("a", encoding="utf-8")
    (root / "content" / "out.md").symlink_to(tmp_path)
    assert inside(root, "content/a.md") == (root / "content" / "a.md").resolve()
    assert inside(root, "content/out.md") is None
    assert inside(root, "../project/content/a.md") is not None  # resolves back inside
    assert escapes(root / "content" / "out.md", root)
    assert not escapes(root / "content" / "a.md", root)


def test_a_lesson_path_is_looked_up_only_inside_the_project(tmp_path: Path) -> None:
    project = tmp_path / "course"
    (project / "claims").mkdir(parents=True)
    (project / "content").mkdir()
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    (project / "content" / "x.md").write_text("x", encoding="utf-8")
    (tmp_path / "secret.md").write_text("s", encoding="utf-8")
    claims = project / "claims" / "x.yaml"
    found = resolve_in_project(claims, "content/x.md", "lesson")
    assert found == (project / "content" / "x.md", project.resolve())
    assert "not found next to x.yaml" in str(resolve_in_project(claims, "secret.md", "lesson"))
    assert "must be relative" in str(resolve_in_project(claims, "/etc/passwd", "lesson"))
    assert "must be relative" in str(resolve_in_project(claims, "../secret.md", "lesson"))
    (project / "content" / "link.md").symlink_to(tmp_path / "secret.md")
    refused = resolve_in_project(claims, "content/link.md", "lesson")
    assert refused == "lesson 'content/link.md' is a link to a file outside the project"


def test_a_link_out_of_the_working_folder_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "x.md").symlink_to("/etc/hostname")
    (tmp_path / "here" / "loop.md").symlink_to("loop.md")
    (tmp_path / "here" / "plain.md").write_text("p", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "here")
    assert link_outside_working_folder(Path("x.md")) == "is a link to a file outside the project"
    assert "never reaches a file" in str(link_outside_working_folder(Path("loop.md")))
    assert link_outside_working_folder(Path("plain.md")) is None
    assert link_outside_working_folder(tmp_path / "elsewhere.md") is None  # the operator's choice


# ------------------------------------------------------------------------------ lesson files

TOKEN = "ghp-TOKEN-0a1b2c"
"""What ``actions/checkout`` leaves in ``.git/config``; no output may ever show it."""

LINE = f"0.5×0.5 + 0.5×0.5 = 0.52 extraheader = AUTHORIZATION: basic {TOKEN}"


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose hidden and non-lesson files hold a secret line a claim can quote."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text(f"[http]\n{LINE}\n", encoding="utf-8")
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "notes.md").write_text(f"{LINE}\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text(f"{LINE}\n", encoding="utf-8")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "real.md").write_text("0.6×0.4 + 0.2×0.7 = 0.38\n", "utf-8")
    (tmp_path / "content" / "linked.md").symlink_to("../.git/config")
    (tmp_path / "content" / "renamed.md").symlink_to("../notes.txt")
    (tmp_path / "content" / "alias.md").symlink_to("real.md")
    (tmp_path / "claims").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _claims(checkout: Path, name: str, lesson: str, quote: str) -> None:
    (checkout / "claims" / f"{name}.yaml").write_text(
        f"lesson: {lesson}\nclaims:\n  - id: {name}\n    kind: arithmetic\n"
        f'    quote: "{quote}"\n    expression: 0.5×0.5 + 0.5×0.5\n    claimed: 0.52\n',
        encoding="utf-8",
    )


@pytest.mark.parametrize(
    ("relative", "reason"),
    [
        (".git/config", "in the hidden folder .git"),
        (".github/notes.md", "in the hidden folder .github"),
        ("notes.txt", "not a lesson file"),
        ("content/linked.md", "is a link whose target is in the hidden folder .git"),
        ("content/renamed.md", "is a link whose target is not a lesson file"),
        ("content/real.md", None),
        ("content/alias.md", None),  # a link to a lesson is a lesson
    ],
)
def test_only_lesson_files_are_lessons(checkout: Path, relative: str, reason: str | None) -> None:
    refused = not_a_lesson(checkout / relative, checkout)
    assert refused is None if reason is None else reason in str(refused)


@pytest.mark.parametrize(
    "lesson", [".git/config", ".github/notes.md", "notes.txt", "content/linked.md"]
)
def test_no_report_echoes_a_file_that_is_not_a_lesson(
    checkout: Path, capsys: pytest.CaptureFixture[str], lesson: str
) -> None:
    """A claim naming a non-lesson file (directly or by a committed link) is an input error; the
    file's text reaches no report: not as a stale hint, not embedded in the HTML page."""
    _claims(checkout, "leak", lesson, "0.5×0.5 + 0.5×0.5 = 0.53")  # stale: closest is LINE
    _claims(checkout, "good", "content/real.md", "0.6×0.4 + 0.2×0.7 = 0.38")
    assert main(["check", "--report-dir", "reports", "--json", "check.json"]) == 2
    out = capsys.readouterr().out
    assert TOKEN not in out and "only lesson files are read" in out
    for report in (checkout / "reports").iterdir():
        assert TOKEN not in report.read_text(encoding="utf-8"), report.name
    findings = json.loads((checkout / "check.json").read_text(encoding="utf-8"))["findings"]
    assert {f["claims_file"]: f["verdict"] for f in findings if f["id"] != "(file)"} == {
        "claims/leak.yaml": "error",
        "claims/good.yaml": "fail",  # the real lesson is read and checked: 0.5, not 0.52
    }


def test_fix_never_rewrites_a_file_that_is_not_a_lesson(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _claims(checkout, "leak", ".github/notes.md", "0.5×0.5 + 0.5×0.5 = 0.52")
    before = (checkout / ".github" / "notes.md").read_bytes()
    assert main(["fix", "--write"]) == 2
    assert (checkout / ".github" / "notes.md").read_bytes() == before
    assert TOKEN not in capsys.readouterr().out


@pytest.mark.parametrize("command", ["scan", "extract"])
def test_scan_and_extract_refuse_a_link_to_a_non_lesson(
    checkout: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert main([command, "content/linked.md", "content/real.md"]) == 2
    captured = capsys.readouterr()
    assert TOKEN not in captured.out + captured.err
    assert "content/linked.md" in captured.out + captured.err
    assert not (checkout / "claims" / "linked.yaml").exists()


def test_the_html_report_embeds_only_lesson_files(checkout: Path) -> None:
    from checkers.finding import Finding
    from checkers.report.html import read_lessons

    def finding(source: str) -> Finding:
        return Finding(
            id="x", kind="arithmetic", claims_file="claims/x.yaml", source=source, line=1,
            quote="", verdict="fail", claimed="", expected="", tolerance="", message="", fix=None,
        )  # fmt: skip

    sources = [".git/config", ".github/notes.md", "notes.txt", "content/linked.md"]
    embedded = read_lessons([finding(s) for s in [*sources, "content/real.md"]], checkout)
    assert list(embedded) == ["content/real.md"]


def test_a_refused_link_is_reported_under_its_own_name(checkout: Path) -> None:
    assert main(["scan", "content/linked.md", "--json", "scan.json"]) == 2
    (finding,) = json.loads((checkout / "scan.json").read_text(encoding="utf-8"))["findings"]
    assert finding["source"] == "content/linked.md"  # not .git/config, where it leads


# ------------------------------------------------------------------- walking folders and globs


def _tree(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# x\n", encoding="utf-8")


LESSONS = Selection(LESSON_SUFFIXES, "lesson files", required=True)


def test_a_folder_yields_its_lessons_in_a_fixed_order_skipping_what_is_not_a_lesson(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(
        tmp_path,
        "docs/b.md",
        "docs/a.mdx",
        "docs/week2/index.md",
        "docs/week1/index.md",
        "docs/week1/notes.txt",
        "docs/.drafts/hidden.md",
        "docs/.hidden.md",
        "docs/node_modules/pkg/readme.md",
        "docs/claims/readme.md",
    )
    selection = Selection(LESSON_SUFFIXES, "lesson files", skip=(Path("docs/claims"),))
    found = collect([Path("docs")], selection)
    assert [p.as_posix() for p in found] == [
        "docs/a.mdx",
        "docs/b.md",
        "docs/week1/index.md",
        "docs/week2/index.md",
    ]
    # Named twice (a folder and a file in it): each file once, where it first came.
    again = collect([Path("docs/week2/index.md"), Path("docs")], selection)
    assert again[0] == Path("docs/week2/index.md") and len(again) == 4


def test_a_link_to_a_folder_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path, "docs/a.md", "elsewhere/b.md")
    (tmp_path / "docs" / "loop").symlink_to(tmp_path / "docs")
    (tmp_path / "docs" / "out").symlink_to(tmp_path / "elsewhere")
    assert collect([Path("docs")], LESSONS) == [Path("docs/a.md")]


def test_globs_expand_recursively_and_one_that_matches_nothing_names_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path, "docs/week1/index.md", "docs/week2/index.md", "docs/x.ipynb", "docs/.a/c.md")
    assert collect([Path("docs/**/index.md")], LESSONS) == [
        Path("docs/week1/index.md"),
        Path("docs/week2/index.md"),
    ]
    assert collect([Path("docs/*")], LESSONS) == [
        Path("docs/week1/index.md"),
        Path("docs/week2/index.md"),
        Path("docs/x.ipynb"),
    ]
    with pytest.raises(NoMatch, match=r"docs/\*\*/\*\.qmd: the pattern matches no lesson files"):
        collect([Path("docs/**/*.qmd")], LESSONS)
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoMatch, match=r"empty: no lesson files \(\.md"):
        collect([Path("empty")], LESSONS)
    assert collect([Path("empty")], CLAIM_FILES) == []  # claims/ may be empty at first


def test_a_file_named_is_taken_as_named_and_a_missing_one_is_kept_for_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path, "docs/drafts/a.md", "docs/b.md", "notes.txt")
    selection = Selection(LESSON_SUFFIXES, "lesson files", exclude=("docs/drafts/**",))
    assert collect([Path("docs")], selection) == [Path("docs/b.md")]
    named = [Path("docs/drafts/a.md"), Path("notes.txt"), Path("gone.md")]
    assert collect(named, selection) == named
    (tmp_path / "folder.md").mkdir()  # named like a file: its reader says it is not one
    _tree(tmp_path, "folder.md/inside.md")
    assert collect([Path("folder.md")], selection) == [Path("folder.md")]


def test_with_a_problems_list_an_input_that_yields_nothing_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path, "docs/a.md")
    (tmp_path / "empty").mkdir()
    problems: list[str] = []
    found = collect([Path("empty"), Path("nope/*.md"), Path("docs")], LESSONS, problems)
    assert found == [Path("docs/a.md")]
    assert problems == [
        "empty: no lesson files (" + ", ".join(LESSON_SUFFIXES) + ")",
        "nope/*.md: the pattern matches no lesson files",
    ]


def test_include_and_exclude_are_relative_to_their_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, "course/docs/a.md", "course/docs/old/b.md", "course/blog/c.md")
    monkeypatch.chdir(tmp_path)
    selection = Selection(
        LESSON_SUFFIXES,
        "lesson files",
        include=("docs/**",),
        exclude=("docs/old/",),
        base=tmp_path / "course",
    )
    assert collect([Path("course")], selection) == [Path("course/docs/a.md")]


def test_claim_files_are_found_at_any_depth(tmp_path: Path) -> None:
    _tree(tmp_path, "claims/a.yaml", "claims/week1/index.yaml", "claims/week2/x.yml", "claims/n.md")
    found = collect([tmp_path / "claims"], CLAIM_FILES)
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "claims/a.yaml",
        "claims/week1/index.yaml",
        "claims/week2/x.yml",
    ]


@pytest.mark.parametrize(
    ("lesson", "roots", "expected"),
    [
        # The first folder is the lesson root: the seed layout keeps its flat files.
        ("content/x.md", (), ["claims/x.yaml", "claims/content/x.yaml"]),
        (
            "docs/week1/index.md",
            (),
            ["claims/week1/index.yaml", "claims/docs/week1/index.yaml", "claims/index.yaml"],
        ),
        ("lesson.md", (), ["claims/lesson.yaml"]),
        (
            "site/docs/week1/index.ipynb",
            ("site/docs",),
            [
                "claims/week1/index.yaml",
                "claims/site/docs/week1/index.yaml",
                "claims/index.yaml",
            ],
        ),
        # The deepest root holding the lesson wins.
        (
            "site/docs/a/b.md",
            ("site", "site/docs"),
            ["claims/a/b.yaml", "claims/site/docs/a/b.yaml", "claims/b.yaml"],
        ),
        # Not under any configured root: the default rule.
        ("blog/post.md", ("docs",), ["claims/post.yaml", "claims/blog/post.yaml"]),
    ],
)
def test_a_claim_file_mirrors_the_lesson_path_below_its_root(
    tmp_path: Path, lesson: str, roots: tuple[str, ...], expected: list[str]
) -> None:
    _tree(tmp_path, lesson)
    candidates = claim_file_candidates(
        tmp_path / lesson, Path("claims"), [tmp_path / r for r in roots], tmp_path
    )
    assert [c.as_posix() for c in candidates] == expected


def test_a_lesson_outside_the_project_has_the_flat_name(tmp_path: Path) -> None:
    _tree(tmp_path, "project/x", "elsewhere/deep/lesson.md")
    lesson = tmp_path / "elsewhere" / "deep" / "lesson.md"
    assert claim_file_candidates(lesson, Path("claims"), [], tmp_path / "project") == [
        Path("claims/lesson.yaml")
    ]


@pytest.mark.parametrize(
    ("path", "pattern", "matches"),
    [
        ("docs/a/b.md", "docs/**", True),
        ("docs/a/b.md", "docs/*.md", False),
        ("docs/b.md", "docs/*.md", True),
        ("docs/a/b.md", "**/b.md", True),
        ("b.md", "**/b.md", True),
        ("docs/old/b.md", "docs/old/", True),
        ("docs/older/b.md", "docs/old/", False),
        ("docs/b.md", "./docs/?.md", True),
    ],
)
def test_glob_match(path: str, pattern: str, matches: bool) -> None:
    assert glob_match(path, pattern) is matches


def test_a_lesson_reached_through_a_linked_folder_is_judged_where_it_is(tmp_path: Path) -> None:
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "secret.md").write_text("# x\n", encoding="utf-8")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "shortcut").symlink_to("../.hidden")
    refused = not_a_lesson(tmp_path / "content" / "shortcut" / "secret.md", tmp_path)
    assert refused is not None and "hidden folder .hidden" in refused


def test_the_real_working_folder_follows_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "via").symlink_to("two")
    monkeypatch.chdir(tmp_path / "one")
    assert real_working_folder() == (tmp_path / "one").resolve()
    monkeypatch.chdir(tmp_path / "via")
    assert real_working_folder() == (tmp_path / "two").resolve() == Path.cwd().resolve()
