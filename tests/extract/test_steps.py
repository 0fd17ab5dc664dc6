"""Recogniser ``steps``: a calculation worked over lines that each restate its left side
(snippets written for these tests: g(2) = 3·2² − 2 + 1 = 11; (2 × 4) + (3 × 1) = 11;
[0.5, 0.25] + [0.25, 0.5] = [0.75, 0.75])."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import steps
from checkers.scan import scan_lesson_with_coverage
from tests.extract.conftest import ScanText

_G = "For x = 2:\n\n- g(2) = 3(2)² - 2 + 1\n- g(2) = 12 - 2 + 1\n- g(2) = {last}\n"
_TOTAL = "`Total = (2 * 4) + (3 * 1)`\n`Total = {middle}`\n`Total = 11`\n"
_VECTOR = "**v** = [0.5, 0.25] + [0.25, 0.5]\n**v** = [0.75, {second}]\n"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        (_G.format(last="11"), "pass"),
        (_G.format(last="13"), "fail"),  # the result
        (_G.replace("12 - 2", "14 - 2").format(last="11"), "fail"),  # a step between
        (_TOTAL.format(middle="8 + 3"), "pass"),
        (_TOTAL.format(middle="8 + 4"), "fail"),
        (_VECTOR.format(second="0.75"), "pass"),
        (_VECTOR.format(second="0.5"), "fail"),
    ],
)
def test_a_value_worked_over_lines_that_restate_it(
    scan_text: ScanText, text: str, verdict: str
) -> None:
    (finding,) = [f for f in scan_text(text) if f.id.startswith("steps-")]
    assert finding.verdict == verdict


def test_the_quote_runs_from_the_first_step_to_the_result() -> None:
    (draft,) = steps.recognize(parse_document(_G.format(last="11")))
    assert draft.quote == "3(2)² - 2 + 1\n- g(2) = 12 - 2 + 1\n- g(2) = 11"
    assert draft.fields["claimed"] == "11"
    assert draft.line == 3


@pytest.mark.parametrize(
    "text",
    [
        # a list of settings: words after each value
        "- k = 4 + 4: a narrow window\n- k = 16: the default\n",
        # alternatives printed, none worked out
        "- lr = 0.001\n- lr = 0.0003\n",
        # the left sides differ: two statements, not steps of one
        "- g(1) = 3(1)² + 1\n- g(2) = 13\n",
        # the result is not a printed number
        "- h = 2 * 3\n- h = 3 * 2\n",
        # a line with its own chain is the equation chain's
        "- h = 2 * 3 = 6\n- h = 6\n",
        # a left side that is a number
        "- 12 = 3 * 4\n- 12 = 12\n",
        # a heading between the steps
        "- h = 2 * 3\n\n## Next\n\n- h = 6\n",
        # paragraphs apart: not one run of lines
        "`h = 2 * 3`\n\n`h = 6`\n",
    ],
)
def test_no_draft_where_the_lines_are_not_one_calculation(text: str) -> None:
    assert list(steps.recognize(parse_document(text))) == []


def test_only_the_right_sides_count_as_checked(tmp_path: Path) -> None:
    lesson = tmp_path / "steps.md"
    lesson.write_text(_G.format(last="11"), encoding="utf-8")
    findings, coverage = scan_lesson_with_coverage(lesson)
    assert [f.verdict for f in findings if f.id.startswith("steps-")] == ["pass"]
    # 3, 2, 2, 1; 12, 2, 1; 11. Not the 2 of "g(2) =" restated on the lines after the first
    # (inside the quote, but no wrong value there fails the check), nor the one before it.
    assert coverage.checked == 8
    (draft,) = steps.recognize(parse_document(_G.format(last="11")))
    assert draft.counted == ((3, "= 3(2)² - 2 + 1"), (4, "= 12 - 2 + 1"), (5, "= 11"))


@pytest.mark.parametrize(
    "text",
    [
        # a pattern with a lazy side between runs of \s* backtracks over every way of sharing
        # a long run of spaces between them; each of these took minutes that way
        "a" + " " * 200_000 + "b which is about 1 + 1 = 3\n",
        "x = 1" + " " * 200_000 + "y\n",
        "x" + " " * 200_000 + "= 1\n",
        "`x = 1" + " " * 200_000 + "` y\n",
        "**x" + " " * 200_000 + "** = 1 +" + " " * 200_000 + "** x\n",
        "x = 1" + "✓ " * 100_000 + "y\n",
        # one name restated on 20,000 lines: refused before its sides are evaluated
        "- x = 1 + 1\n" * 20_000,
    ],
)
def test_hostile_lines_are_read_in_linear_time(text: str) -> None:
    document = parse_document(text)
    start = time.process_time()
    assert list(steps.recognize(document)) == []
    assert time.process_time() - start < 1.0
