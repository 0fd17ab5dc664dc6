"""Reading and writing files inside the project (``checkers.files``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from checkers.files import (
    NotText,
    decode_text,
    escapes,
    inside,
    link_outside_working_folder,
    read_regular_file,
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
