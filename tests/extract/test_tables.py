"""Tables and published facts through ``scan``: every case of ``tests/fixtures/table_cases.yaml``
is drafted, loaded as claims and checked; exactly the listed values fail, with messages that name
what was compared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("table_cases.yaml"))
def test_scan_fails_exactly_the_wrong_cells(case: dict[str, Any], tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    assert all(f.verdict in ("pass", "fail") for f in findings), [f.message for f in findings]
    failing = [f for f in findings if f.verdict == "fail"]
    assert [f.claimed for f in failing] == case["failing"], [f.message for f in findings]
    for finding, words in zip(failing, case.get("messages", []), strict=False):
        for word in words:
            assert word in finding.message, finding.message
