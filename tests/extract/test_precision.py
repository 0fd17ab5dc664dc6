"""Drafting on real-lesson shapes: what ``scan`` fails in each snippet of
``tests/fixtures/precision_cases.yaml`` (a quiet case and a real mistake of the same shape per
class of false alarm)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("precision_cases.yaml"))
def test_scan_fails_only_the_real_mistakes(case: dict[str, Any], tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    assert all(f.verdict in ("pass", "fail") for f in findings), [f.message for f in findings]
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]
