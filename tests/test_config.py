"""The project configuration: discovery, keys, globs, and errors that name file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkers.config import Config, ConfigError, find_config, load_config, project_config
from checkers.files import LESSON_SUFFIXES
from checkers.finding import Finding


def _finding(source: str, kind: str = "arithmetic", verdict: str = "fail") -> Finding:
    return Finding(
        id="c",
        kind=kind,
        claims_file="",
        source=source,
        line=3,
        quote="q",
        verdict=verdict,  # type: ignore[arg-type]
        claimed="1",
        expected="2",
        tolerance="",
        message="1 is 2",
        fix=None,
        severity="error",
    )


def test_pyproject_table_is_found_from_a_subfolder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.lessoncheck]\nstrict = true\nignore = ["content/old/**"]\n',
        encoding="utf-8",
    )
    (tmp_path / "content" / "old").mkdir(parents=True)
    assert find_config(tmp_path / "content") == tmp_path / "pyproject.toml"
    config = project_config(tmp_path / "content")
    assert config.strict is True and config.ignore == ("content/old/**",)


def test_own_file_wins_and_a_pyproject_without_the_table_is_passed_over(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.lessoncheck]\nstrict = true\n", "utf-8")
    inner = tmp_path / "course"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "course"\n', encoding="utf-8")
    assert find_config(inner) == tmp_path / "pyproject.toml"
    (tmp_path / ".lessoncheck.toml").write_text("strict = false\n", encoding="utf-8")
    assert find_config(inner) == tmp_path / ".lessoncheck.toml"
    assert project_config(inner).strict is False


def test_no_configuration_above_the_project_root(tmp_path: Path) -> None:
    (tmp_path / ".lessoncheck.toml").write_text("strict = true\n", encoding="utf-8")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    assert find_config(project) is None
    assert project_config(project) == Config()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("strict = true\nstrikt = false\n", ".lessoncheck.toml:2: unknown key 'strikt'"),
        ('strict = "yes"\n', ".lessoncheck.toml:1: strict must be true or false"),
        ("\n\nignore = 3\n", ".lessoncheck.toml:3: ignore must be a list of path globs"),
        ("ignore = [\n  'a',\n  2,\n]\n", ".lessoncheck.toml:1: ignore must be a list"),
        ("strict = true\n[broken\n", ".lessoncheck.toml:2: not valid TOML"),
        (
            '[per-path-ignores]\n"content/*.md" = ["sofmax"]\n',
            ".lessoncheck.toml:2: unknown claim kind 'sofmax' for 'content/*.md'",
        ),
        ('strict = true\nlesson-roots = "docs"\n', ".lessoncheck.toml:2: lesson-roots must be"),
        ('lesson-roots = ["../outside"]\n', ".lessoncheck.toml:1: lesson-roots must be"),
        ('lesson-roots = ["/etc"]\n', ".lessoncheck.toml:1: lesson-roots must be"),
        ('\nclaims-folder = ["claims"]\n', ".lessoncheck.toml:2: claims-folder must be"),
        ('claims-folder = "../claims"\n', ".lessoncheck.toml:1: claims-folder must be"),
        ("include = 'docs/**'\n", ".lessoncheck.toml:1: include must be a list of path globs"),
        ("exclude = ['']\n", ".lessoncheck.toml:1: exclude must be a list of path globs"),
        ("formats = []\n", ".lessoncheck.toml:1: formats must be a list of lesson file"),
        (
            "strict = false\nformats = ['.md', '.rst']\n",
            ".lessoncheck.toml:2: unknown lesson format '.rst' (known: .md,",
        ),
    ],
)
def test_bad_configuration_names_file_and_line(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / ".lessoncheck.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert str(raised.value).startswith(str(tmp_path / expected.split(":")[0]))
    assert expected in str(raised.value)


def test_unknown_key_in_pyproject_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n[tool.lessoncheck]\nstrict = true\nignores = []\n')
    with pytest.raises(ConfigError, match=r"pyproject.toml:5: unknown key 'ignores' in "):
        load_config(path)


def test_ignore_globs_suppress_failures_in_matching_lessons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / ".lessoncheck.toml"
    path.write_text(
        'ignore = ["content/old/**", "content/draft-*.md"]\n'
        '[per-path-ignores]\n"content/tables/*.md" = ["softmax"]\n',
        encoding="utf-8",
    )
    config = load_config(path)
    applied = config.apply(
        [
            _finding("content/old/a/b.md"),
            _finding("content/draft-1.md"),
            _finding("content/drafts/1.md"),  # "draft-*" does not match the folder "drafts"
            _finding("content/tables/t.md", kind="softmax"),
            _finding("content/tables/t.md", kind="arithmetic"),  # another kind still fails
            _finding("content/old/a.md", verdict="error"),  # errors are never silenced
        ]
    )
    assert [f.verdict for f in applied] == [
        "suppressed",
        "suppressed",
        "fail",
        "suppressed",
        "fail",
        "error",
    ]
    first = applied[0].suppression
    assert first is not None and first.kind == "external"
    assert first.justification == ".lessoncheck.toml: ignore 'content/old/**'"
    assert applied[0].message.startswith("suppressed by .lessoncheck.toml: ignore")
    assert applied[0].severity == "error"


def test_globs_are_relative_to_the_configuration_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    course = tmp_path / "course"
    course.mkdir()
    (course / ".lessoncheck.toml").write_text('ignore = ["old/*.md"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    config = load_config(course / ".lessoncheck.toml")
    assert config.apply([_finding("course/old/x.md")])[0].verdict == "suppressed"
    assert config.apply([_finding("old/x.md")])[0].verdict == "fail"  # outside its folder


def test_layout_keys_are_read_relative_to_the_configuration_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    course = tmp_path / "course"
    course.mkdir()
    (course / "pyproject.toml").write_text(
        "[tool.lessoncheck]\n"
        'lesson-roots = ["docs", "notebooks/"]\n'
        'claims-folder = "checks/claims"\n'
        'include = ["docs/**"]\n'
        'exclude = ["docs/drafts/**"]\n'
        'formats = ["md", ".IPYNB"]\n'
        "strict = true\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    config = project_config(course)
    assert config.strict
    assert config.root == course
    assert config.claims_dir == Path("course/checks/claims")
    assert config.roots == (Path("course/docs"), Path("course/notebooks"))
    assert config.formats == (".md", ".ipynb")
    selection = config.lesson_selection()
    assert selection.takes(course / "docs" / "week1" / "index.md")
    assert not selection.takes(course / "docs" / "drafts" / "index.md")  # excluded
    assert not selection.takes(course / "notes" / "index.md")  # not included
    assert not selection.takes(course / "docs" / "index.mdx")  # not a configured format
    assert selection.skip == (Path("course/checks/claims"),)


def test_without_a_configuration_the_layout_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path / "docs")
    config = project_config(Path.cwd())
    assert config.root == tmp_path / "docs"  # the working folder, as before configurations
    assert config.claims_dir == Path("claims")
    assert config.roots == ()
    assert config.lesson_selection().suffixes == LESSON_SUFFIXES
