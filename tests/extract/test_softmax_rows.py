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


# A notebook export: scores in one cell, exp of them printed in the next, the probabilities two
# cells later (more than a dozen source lines below, fences and blank lines between), softmax
# written out as exp(x) / exp(x).sum(). softmax([1.5, 0.5, -0.5]) = [0.665, 0.245, 0.090].
NOTEBOOK = (
    "## Cells\n\n```python\nlogits = np.array([1.5, 0.5, -0.5])\nnp.exp(logits)\n```\n\n"
    "    array([4.482, 1.649, 0.607])\n\n```python\nnp.exp(logits).sum()\n```\n\n    6.737\n\n"
    "```python\np = np.exp(logits) / np.exp(logits).sum()\np\n```\n\n    array({})\n"
)
# Scores stated already divided by the temperature: softmax([3.0, 1.0, -1.0]) = [0.867, 0.117,
# 0.016], with no second division by 0.5.
DIVIDED = (
    "## Temperature\n\nDivide the logits by a temperature T = 0.5 first, i.e. logits "
    "[3.0, 1.0, -1.0]; the softmax of them is\n\n    probabilities = {}\n"
)


@pytest.mark.parametrize(
    ("text", "failing"),
    [
        (NOTEBOOK.format("[0.665, 0.245, 0.090]"), []),
        (NOTEBOOK.format("[0.665, 0.245, 0.190]"), ["[0.665, 0.245, 0.190]"]),
        (DIVIDED.format("[0.867, 0.117, 0.016]"), []),
        (DIVIDED.format("[0.867, 0.127, 0.016]"), ["[0.867, 0.127, 0.016]"]),
    ],
)
def test_rows_of_a_notebook_and_of_scores_already_divided(
    text: str, failing: list[str], tmp_path: Path
) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(text, encoding="utf-8")
    findings = [f for f in scan_lesson(lesson) if f.kind == "softmax"]
    assert findings
    assert [f.claimed for f in findings if f.verdict == "fail"] == failing


def test_a_row_far_below_without_the_softmax_written_out_is_not_linked() -> None:
    # the same cells with the division replaced by another function: no evidence of a softmax
    text = NOTEBOOK.format("[0.665, 0.245, 0.190]").replace(
        "np.exp(logits) / np.exp(logits).sum()", "np.tanh(logits)"
    )
    drafts = [d for d in softmax_rows.recognize(parse_document(text)) if "scores" in d.fields]
    assert drafts == []
