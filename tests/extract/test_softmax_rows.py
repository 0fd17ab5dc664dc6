"""Recogniser ``softmax_rows``: probability rows read against scores printed a few lines above
them in the same section (``tests/fixtures/softmax_link_cases.yaml``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import softmax_rows
from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("softmax_link_cases.yaml"))
def test_rows_below_their_scores(case: dict[str, Any], tmp_path: Path) -> None:
    drafts = list(softmax_rows.recognize(parse_document(case["text"])))
    # A row checked against scores of another line quotes the row alone.
    linked = [d for d in drafts if "scores" in d.fields and d.quote.count("[") == 1]
    assert len(linked) == case["linked"], [d.fields for d in drafts]
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = [f for f in scan_lesson(lesson) if f.kind == "softmax"]
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]


def test_the_message_names_the_scores(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(
        "`logits = [2.0, 0.0]`\n\nso the softmax weights are `[0.80, 0.20]`\n", "utf-8"
    )
    (finding,) = scan_lesson(lesson)
    assert finding.verdict == "fail" and finding.line == 3
    assert "softmax([2.0, 0.0])" in finding.message and "0.88" in finding.message


@pytest.mark.parametrize("case", load_cases("renormalised_cases.yaml"))
def test_top_k_renormalised_below_a_row(case: dict[str, Any], tmp_path: Path) -> None:
    drafts = list(softmax_rows.recognize(parse_document(case["text"])))
    renormalised = [d for d in drafts if d.kind == "renormalised"]
    assert len(renormalised) == case["drafted"], [d.fields for d in drafts]
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]
    carried = [f for f in findings if "carried from the wrong row" in f.message]
    assert len(carried) == case["carried"], [f.message for f in findings]
    assert all(f.verdict == "pass" for f in carried)


@pytest.mark.parametrize("case", load_cases("probability_table_cases.yaml"))
def test_tables_of_probability_rows(case: dict[str, Any], tmp_path: Path) -> None:
    drafts = [
        d
        for d in softmax_rows.recognize(parse_document(case["text"]))
        if d.quote.lstrip().startswith("|")
    ]
    assert len(drafts) == case["drafted"], [d.fields for d in drafts]
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]


def test_a_table_row_names_its_temperature_and_scores(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(
        "Logits $z = [1.0,\\ 0.0]$ at two temperatures:\n\n"
        "| τ | $p_1$ | $p_2$ |\n|---|---|---|\n| 1 | 0.73 | 0.27 |\n| 0.5 | 0.73 | 0.27 |\n",
        "utf-8",
    )
    (finding,) = [f for f in scan_lesson(lesson) if f.verdict == "fail"]
    assert finding.line == 6
    assert "softmax([1.0, 0.0] / 0.5)" in finding.message and "0.88" in finding.message
    assert "at T = 0.5" in finding.message


@pytest.mark.parametrize("case", load_cases("temperature_change_cases.yaml"))
def test_an_entry_moved_by_a_change_of_temperature(case: dict[str, Any], tmp_path: Path) -> None:
    drafts = [
        d for d in softmax_rows.recognize(parse_document(case["text"])) if d.kind == "arithmetic"
    ]
    assert len(drafts) == case["drafted"], [d.fields for d in drafts]
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = scan_lesson(lesson)
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]
    for finding in findings:
        if finding.verdict == "fail":
            assert "halves the temperature" in finding.message and "0.117" in finding.message
