"""write_reports: four files, written atomically, that agree on what needs attention."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from checkers.files import write_atomic
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
    with pytest.raises(OSError, match="disk full"):
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
