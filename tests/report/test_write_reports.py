"""write_reports: four files, written atomically, that agree on what needs attention."""

from __future__ import annotations

import errno
import fcntl
import json
import multiprocessing
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from checkers import files
from checkers.files import WriteError, write_atomic
from checkers.report import REPORT_FILES, write_reports
from tests.report import FINDINGS, LESSON, LESSON_PATH, PROBLEMS
from tests.report.test_html import by_class, parse

Key = tuple[str, int | None]

MD_ROW = re.compile(r"^\| \S+ \S+ \| (?:\[(?P<where>[^\]]*)\]\([^)]*\)|—)<br>(?P<id>.*?) \| ")


def _from_json(path: Path) -> set[Key]:
    report = json.loads(path.read_text(encoding="utf-8"))
    return {(f["id"], f["line"]) for f in report["findings"] if f["verdict"] != "pass"}


def _from_markdown(path: Path) -> set[Key]:
    keys: set[Key] = set()
    table = path.read_text(encoding="utf-8").split("\n\n")[2]
    for row in table.splitlines()[2:]:
        match = MD_ROW.match(row)
        assert match, row
        where = re.sub(r"\\(.)", r"\1", match["where"] or "")
        line = where.rsplit(":", 1)[1] if re.search(r":\d+$", where) else None
        claim = re.sub(r"\\(.)", r"\1", match["id"])
        claim = claim.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        keys.add((claim, int(line) if line else None))
    return keys


def _from_html(path: Path) -> set[Key]:
    dom = parse(path.read_text(encoding="utf-8"))
    return {
        (b.attrs["data-id"] or "", int(b.attrs["data-line"]) if b.attrs["data-line"] else None)
        for b in by_class(dom, "finding")
        if b.attrs["data-verdict"] != "pass"
    }


def _from_sarif(path: Path) -> set[Key]:
    log = json.loads(path.read_text(encoding="utf-8"))
    return {
        (
            r["properties"]["claimId"],
            r["locations"][0]["physicalLocation"].get("region", {}).get("startLine"),
        )
        for r in log["runs"][0]["results"]
    }


@pytest.fixture
def written(tmp_path: Path) -> tuple[Path, list[Path]]:
    (tmp_path / "content").mkdir()
    (tmp_path / LESSON_PATH).write_text(LESSON, encoding="utf-8")
    directory = tmp_path / "reports"
    return directory, write_reports(directory, FINDINGS, root=tmp_path)


def test_writes_four_files_and_no_temporaries(written: tuple[Path, list[Path]]) -> None:
    directory, paths = written
    assert [p.name for p in paths] == list(REPORT_FILES)
    assert sorted(p.name for p in directory.iterdir()) == sorted(REPORT_FILES)
    for path in paths:
        assert path.stat().st_size > 0
        assert path.stat().st_mode & 0o777 == 0o644


def test_the_four_reports_agree(written: tuple[Path, list[Path]]) -> None:
    _, (json_path, md_path, html_path, sarif_path) = written
    expected = {(f.id, f.line) for f in PROBLEMS}
    assert _from_json(json_path) == expected
    assert _from_markdown(md_path) == expected
    assert _from_html(html_path) == expected
    assert _from_sarif(sarif_path) == expected


def test_html_embeds_the_lesson_from_root(written: tuple[Path, list[Path]]) -> None:
    _, paths = written
    assert "Q我·K我 = 0.6×0.4 + 0.2×0.7 = 0.38" in paths[2].read_text(encoding="utf-8")


def test_root_defaults_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / LESSON_PATH).write_text(LESSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    paths = write_reports(Path("out"), FINDINGS)
    assert "# Demo lesson" in paths[2].read_text(encoding="utf-8")


def test_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.md"
    target.write_text("old\n", encoding="utf-8")

    def refuse(source: str, destination: Path) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(WriteError, match=r"report\.md: cannot write \(disk full\)"):
        write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_replacing_keeps_the_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("{}\n", encoding="utf-8")
    target.chmod(0o600)
    write_atomic(target, "[]\n")
    assert target.read_text(encoding="utf-8") == "[]\n"
    assert target.stat().st_mode & 0o777 == 0o600


# ------------------------------------------------------------------------------ broken disks


def _old_set(directory: Path) -> dict[str, str]:
    directory.mkdir(parents=True, exist_ok=True)
    for name in REPORT_FILES:
        (directory / name).write_text(f"old {name}\n", encoding="utf-8")
    return {p.name: p.read_text(encoding="utf-8") for p in directory.iterdir()}


def test_a_full_disk_mid_set_leaves_the_old_set_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "reports"
    before = _old_set(directory)
    stage = files._stage
    staged: list[str] = []

    def third_fails(path: Path, text: str) -> str:
        if len(staged) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        staged.append(path.name)
        return stage(path, text)

    monkeypatch.setattr(files, "_stage", third_fails)
    with pytest.raises(WriteError, match=r"reports/report.html: .*No space left on device"):
        write_reports(directory, FINDINGS, root=tmp_path)
    assert {p.name: p.read_text(encoding="utf-8") for p in directory.iterdir()} == before


def test_a_file_where_the_folder_should_be_is_named(tmp_path: Path) -> None:
    shaped = tmp_path / "reports"
    shaped.write_text("not a folder\n", encoding="utf-8")
    with pytest.raises(WriteError, match="reports: exists and is not a folder"):
        write_reports(shaped, FINDINGS, root=tmp_path)
    assert shaped.read_text(encoding="utf-8") == "not a folder\n"


def test_a_committed_link_out_of_the_project_is_replaced_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "reports").symlink_to(outside, target_is_directory=True)
    (project / "dangling").symlink_to(tmp_path / "nowhere")
    (project / "inside").mkdir()
    (project / "kept").symlink_to("inside", target_is_directory=True)
    (project / "up").symlink_to(outside, target_is_directory=True)
    monkeypatch.chdir(project)
    for name in ("reports", "dangling", "kept"):
        paths = write_reports(Path(name), FINDINGS)
        assert [p.name for p in paths] == list(REPORT_FILES)
    assert list(outside.iterdir()) == [] and not (tmp_path / "nowhere").exists()
    assert not (project / "reports").is_symlink() and (project / "reports").is_dir()
    assert (project / "kept").is_symlink()  # a link that stays inside the project is used
    assert sorted(p.name for p in (project / "inside").iterdir()) == sorted(REPORT_FILES)
    with pytest.raises(WriteError, match="a folder above it is a link out of the project"):
        write_reports(Path("up/reports"), FINDINGS)
    with pytest.raises(WriteError, match="a folder above it is a link out of the project"):
        write_atomic(Path("up/report.json"), "{}\n")  # --json, baseline -o
    assert list(outside.iterdir()) == []


_VARIANTS = {
    "a": FINDINGS,
    "b": [replace(f, id=f"{f.id}-b") for f in FINDINGS],
}


def _write_many(directory: str, variant: str, times: int) -> None:  # in a child process
    for _ in range(times):
        write_reports(Path(directory), _VARIANTS[variant], root=Path(directory).parent)


def _read_set(directory: Path) -> set[str]:
    """Which variants the four reports come from, read under a shared lock on the folder."""
    handle = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_SH)
        keys = [
            _from_json(directory / "report.json"),
            _from_markdown(directory / "report.md"),
            _from_html(directory / "report.html"),
            _from_sarif(directory / "report.sarif"),
        ]
    finally:
        os.close(handle)
    return {"b" if any(claim.endswith("-b") for claim, _ in k) else "a" for k in keys}


@pytest.mark.slow
def test_concurrent_runs_never_mix_their_reports(tmp_path: Path) -> None:
    directory = tmp_path / "reports"
    write_reports(directory, FINDINGS, root=tmp_path)
    fork = multiprocessing.get_context("fork")
    writers = [
        fork.Process(target=_write_many, args=(str(directory), variant, 30)) for variant in "ab"
    ]
    for writer in writers:
        writer.start()
    seen: list[set[str]] = []
    while any(writer.is_alive() for writer in writers):
        seen.append(_read_set(directory))
    for writer in writers:
        writer.join()
        assert writer.exitcode == 0
    seen.append(_read_set(directory))
    assert len(seen) > 5
    assert all(len(variants) == 1 for variants in seen), [v for v in seen if len(v) > 1][:3]
    assert not [p for p in directory.iterdir() if p.name not in REPORT_FILES]  # no temporaries


def test_changed_span_is_where_quote_and_fix_differ_in_whole_numbers() -> None:
    from checkers.report import changed_span

    assert changed_span("a = 0.78 / 1.41", "a = 0.80 / 1.41") == ((4, 8), (4, 8))
    assert changed_span("x 24 y", "x 48 y") == ((2, 4), (2, 4))
    assert changed_span("d 1600 gives 0.82B", "d 1600 gives 1.5B") == ((13, 17), (13, 16))
    assert changed_span("1,600 and 2", "1,600 and 3") == ((10, 11), (10, 11))
    assert changed_span("same", "same") == ((4, 4), (4, 4))
