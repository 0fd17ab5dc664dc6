"""Statements in prose, across and within lines: what ``scan`` drafts and fails in each snippet
of ``tests/fixtures/prose_cases.yaml`` (a case that passes, the same shape with a real mistake
whose message names the recomputed value, and a similar text that states no relation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("prose_cases.yaml"))
def test_scan_reads_what_the_prose_states(case: dict[str, Any], tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    messages = [f"{f.claimed}: {f.message}" for f in findings]
    assert all(f.verdict in ("pass", "fail") for f in findings), messages
    if "drafts" in case:
        expected = case["drafts"]
        assert len(findings) >= expected if expected else not findings, messages
    failing = [f for f in findings if f.verdict == "fail"]
    assert [f.claimed for f in failing] == case["failing"], messages
    if "says" in case:
        assert any(case["says"] in f.message for f in failing), messages
    if "passes_saying" in case:  # a step that carries an earlier error says so, and passes
        passing = [f.message for f in findings if f.verdict == "pass"]
        assert any(case["passes_saying"] in message for message in passing), messages
