"""``scan`` on lessons that put their numbers in LaTeX and diagrams: what fails in each snippet
of ``tests/fixtures/latex_cases.yaml`` (a passing case, a real mistake of the same shape, and a
similar text with no stated relation, per class)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("latex_cases.yaml"))
def test_scan_fails_only_the_real_mistakes(case: dict[str, Any], tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    assert all(f.verdict in ("pass", "fail") for f in findings), [f.message for f in findings]
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]
    if "drafts" in case:
        assert len(findings) == case["drafts"], [f.quote for f in findings]
    for expected in case.get("messages", []):
        assert any(expected in f.message for f in findings), [f.message for f in findings]
