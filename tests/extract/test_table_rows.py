"""Per-row derivations in tables (``table_rows``) and the totals under them, through ``scan``:
each case of ``tests/fixtures/table_row_cases.yaml`` is drafted, loaded as claims and checked;
exactly the listed values fail, with messages that name the relation, the reading and how many
rows agree; a total right from a wrong row's true value is reported as carried."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import table_rows
from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("table_row_cases.yaml"))
def test_scan_fails_exactly_the_wrong_cells(case: dict[str, Any], tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    messages = [f.message for f in findings]
    assert all(f.verdict in ("pass", "fail") for f in findings), messages
    failing = [f for f in findings if f.verdict == "fail"]
    assert [f.claimed for f in failing] == case["failing"], messages
    for finding, words in zip(failing, case.get("messages", []), strict=False):
        for word in words:
            assert word in finding.message, finding.message
    passing = [f.message for f in findings if f.verdict == "pass"]
    for words in case.get("passing", []):
        assert any(all(w in m for w in words) for m in passing), (words, passing)
    if "drafted" in case:
        drafts = list(table_rows.recognize(parse_document(case["text"])))
        assert len(drafts) == case["drafted"], drafts


def test_a_wrong_row_is_named_and_the_others_agree() -> None:
    document = parse_document(
        "| Item | Count | Size each | Total |\n|---|---|---|---|\n"
        "| a | 3 | 4 | 12 |\n| b | 5 | 6 | 30 |\n| c | 2 | 7 | 15 |\n"
    )
    table = document.blocks[0].table
    assert table is not None
    derivations = table_rows.row_derivations(table, document.byte_prefixes)
    assert [(d.row, d.agrees, d.value) for d in derivations] == [
        (0, True, 12.0),
        (1, True, 30.0),
        (2, False, 14.0),
    ]
    assert "2 of 3 rows agree" in derivations[2].note
