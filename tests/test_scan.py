"""``lessoncheck scan`` and ``lessoncheck extract`` end to end, on a scratch course."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkers.cli import main

LESSON = """# Attention by hand

- Q·K = 0.6×0.4 + 0.2×0.7 = 0.38
- Q·K' = 0.5×0.5 + 0.5×0.5 = 0.52

The cache holds 2 × 32 × 4096 × 2 bytes = 512 KB per token.
"""


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "demo.md").write_text(LESSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_scan_finds_the_wrong_sum_without_any_claims(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "content/demo.md", "--json", "report.json"]) == 1
    out = capsys.readouterr().out
    assert "content/demo.md:4" in out
    assert "0.5 → 0.50, not 0.52" in out
    report = json.loads((course / "report.json").read_text(encoding="utf-8"))
    assert report["summary"] == {
        "total": 3,
        "pass": 2,
        "fail": 1,
        "stale": 0,
        "error": 0,
        "slip": 0,
        "suppressed": 0,
        "marked_wrong": 0,
    }
    cache = next(f for f in report["findings"] if "512 KB" in f["quote"])
    assert "powers of 1024" in cache["message"]


def test_scan_reports_an_unreadable_lesson_by_name(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (course / "content" / "bad.md").write_bytes(b"\xff\xfe\x00binary")
    assert main(["scan", "content/bad.md", "content/demo.md"]) == 2
    out = capsys.readouterr().out
    assert "bad.md" in out and "not a text file" in out
    assert "2 passed, 1 failed" in out


def test_extract_twice_changes_nothing(course: Path) -> None:
    assert main(["extract", "content/demo.md"]) == 0
    claims = course / "claims" / "demo.yaml"
    first = claims.read_text(encoding="utf-8")
    assert first.count("origin: auto") == 3
    assert "lesson: content/demo.md" in first
    assert main(["extract", "content/demo.md"]) == 0
    assert claims.read_text(encoding="utf-8") == first
    assert main(["extract", "--check", "content/demo.md"]) == 0


def test_hand_edits_and_comments_survive_extract(course: Path) -> None:
    main(["extract", "content/demo.md"])
    claims = course / "claims" / "demo.yaml"
    text = claims.read_text(encoding="utf-8").replace(
        "origin: auto\n    confidence: 0.9\n    expression: 0.6×0.4",
        "origin: reviewed  # checked by hand\n    confidence: 0.9\n    expression: 0.6×0.4",
        1,
    )
    claims.write_text("# reviewed course claims\n" + text, encoding="utf-8")
    main(["extract", "content/demo.md"])
    after = claims.read_text(encoding="utf-8")
    assert after.startswith("# reviewed course claims\n")
    assert "origin: reviewed  # checked by hand" in after


def test_extract_check_fails_when_lesson_changed(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["extract", "content/demo.md"])
    lesson = course / "content" / "demo.md"
    lesson.write_text(LESSON + "\nAnd 3 × 3 = 9.\n", encoding="utf-8")
    before = (course / "claims" / "demo.yaml").read_text(encoding="utf-8")
    assert main(["extract", "--check", "content/demo.md"]) == 1
    assert (course / "claims" / "demo.yaml").read_text(encoding="utf-8") == before
    assert "would update" in capsys.readouterr().out


def test_extract_drops_auto_claims_whose_quote_vanished(course: Path) -> None:
    main(["extract", "content/demo.md"])
    lesson = course / "content" / "demo.md"
    lesson.write_text(LESSON.replace("= 0.52", "= 0.50"), encoding="utf-8")
    main(["extract", "content/demo.md"])
    text = (course / "claims" / "demo.yaml").read_text(encoding="utf-8")
    assert "= 0.52" not in text and "= 0.50" in text
    assert main(["check", "-q"]) == 0


def test_a_number_two_recognisers_find_wrong_is_one_failure(tmp_path: Path) -> None:
    # The row's formula column and the training-memory relation both read "3B × 8 bytes";
    # each would fail 20 GB (it is 24 GB): the lesson has one wrong number, so one failure.
    from checkers.scan import scan_lesson

    lesson = tmp_path / "budget.md"
    lesson.write_text(
        "| Part | Calculation | Memory |\n"
        "|---|---|---|\n"
        "| weights | 3B × 2 bytes | 6 GB |\n"
        "| gradients | 3B × 2 bytes | 6 GB |\n"
        "| Adam moments | 3B × 8 bytes | 20 GB |\n"
        "| master copy | 3B × 4 bytes | 12 GB |\n",
        encoding="utf-8",
    )
    failures = [f for f in scan_lesson(lesson) if f.verdict == "fail"]
    assert [(f.line, f.claimed) for f in failures] == [(5, "20 GB")]
    assert "24 GB" in failures[0].message
