"""Drafting on real-lesson shapes: what ``scan`` fails in each snippet of
``tests/fixtures/precision_cases.yaml`` (a quiet case and a real mistake of the same shape per
class of false alarm)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.lesson_marks import read_marks
from checkers.runner import Finding
from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("precision_cases.yaml"))
def test_scan_fails_only_the_real_mistakes(case: dict[str, Any], tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    # A statement the author marks wrong is reported as marked_wrong, never as a failure.
    quiet_or_checked = ("pass", "fail", "marked_wrong")
    assert all(f.verdict in quiet_or_checked for f in findings), [f.message for f in findings]
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]


def test_a_statement_marked_wrong_reaches_the_caller_and_is_reported_as_marked(
    tmp_path: Path,
) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text("- Step 2: 36 / 3 = 11 ✗ (it is 12)\n- Step 3: 12 + 1 = 14\n", "utf-8")
    marked: list[Finding] = []
    findings = scan_lesson(lesson, marked_wrong=marked)
    assert [(f.claimed, f.verdict) for f in marked] == [("11", "marked_wrong")]
    assert [(f.claimed, f.verdict) for f in findings] == [("11", "marked_wrong"), ("14", "fail")]


def test_the_authors_marks_cover_their_sentence_and_block() -> None:
    """The one detector of author marks (for drafts and claims alike) finds a mark in the
    statement's own sentence and a label line over its block, and a heading ends the block."""
    text = "Wrong: 2 + 2 = 5.\n\n❌ 错误计算：\n\n```\n3 × 3 = 10\n```\n\n## Next\n\n1 + 1 = 3\n"
    marks = read_marks(text)
    found = {line: marks.marked_wrong(line, None) for line in (1, 6, 11)}
    assert {line: mark.describe() if mark else "" for line, mark in found.items()} == {
        1: "Wrong on line 1",
        6: "❌ on line 3",
        11: "",
    }
