"""Coverage (``checkers.extract.coverage``): numbers seen, checked, why the rest were skipped."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from checkers.cli import main
from checkers.extract.coverage import (
    REASONS,
    LessonCoverage,
    lesson_coverage,
    numbers_seen,
    total,
)
from checkers.extract.document import parse_document
from checkers.lesson import Lesson
from checkers.scan import scan_lesson, scan_lesson_with_coverage

# Counted by hand: 20 numbers; the 5 of the one drafted chain (line 5) checked, 15 skipped.
LESSON = """# 3.2 Attention by hand

Released on 2017-06-12, next to GPT-4.

The score is 0.6×0.4 + 0.2×0.7 = 0.38 for the first pair.

We take d_model = 512 throughout.

The course has 12 chapters and 3 exercises.

If a = 3 + b then a grows with b.

| city | rooms |
|---|---|
| Paris | 12 |
| Rome | 7 |

```python
x = 42  # the answer
```

$$
f(x) = w x + 7
$$

The bias $b + 9$ is fixed; call `f(5)` first.
"""

EXPECTED_SKIPPED = {
    "identifier": 5,  # 3.2 (section number), 2017, 06, 12 (a date), 4 (GPT-4)
    "table": 2,  # 12, 7
    "code": 2,  # 42 in the code block, 5 in `f(5)`
    "latex": 2,  # 7 in display math, 9 in inline math
    "prose": 2,  # 12 chapters, 3 exercises
    "definition": 1,  # d_model = 512
    "prose-relation": 1,  # a = 3 + b
}


@pytest.fixture
def lesson_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    path = tmp_path / "content" / "demo.md"
    path.write_text(LESSON, encoding="utf-8")
    return Path("content/demo.md")


def test_a_lesson_has_the_counts_derived_by_hand(lesson_file: Path) -> None:
    findings, coverage = scan_lesson_with_coverage(lesson_file)
    assert [(f.line, f.verdict) for f in findings] == [(5, "pass")]  # the chain, and only it
    assert coverage.source == "content/demo.md"
    assert (coverage.numbers, coverage.checked) == (20, 5)
    assert coverage.skipped == EXPECTED_SKIPPED
    assert list(coverage.skipped.values()) == sorted(coverage.skipped.values(), reverse=True)
    assert findings == scan_lesson(lesson_file)  # the coverage changes nothing of the scan


def test_checked_numbers_are_those_inside_the_quote_of_a_checked_claim() -> None:
    text = "Once 1 + 1 = 2 here.\n\nAgain 1 + 1 = 2 there, and 5 more.\n"
    document = parse_document(text)
    lesson = Lesson.from_text(Path("l.md"), text)
    second = [{"id": "sum", "quote": "1 + 1 = 2", "occurrence": 2}]

    def checked(claims: list[dict[str, object]], verdict: str) -> list[tuple[int, str]]:
        coverage = lesson_coverage("l.md", document, lesson, claims, {"sum": verdict})
        spans = [
            (number.line, number.text)
            for number in numbers_seen(document, lesson, _spans(lesson, claims, verdict))
            if number.checked
        ]
        assert coverage.checked == len(spans) and coverage.numbers == 7
        return spans

    assert checked(second, "fail") == [(3, "1"), (3, "1"), (3, "2")]  # its occurrence only
    assert checked([{"id": "sum", "quote": "1 + 1 = 2"}], "pass") == [(1, "1"), (1, "1"), (1, "2")]
    assert checked(second, "error") == []  # the check did not reach a verdict
    assert checked(second, "stale") == []
    assert checked([{"id": "sum", "quote": "1 + 1 = 3"}], "pass") == []  # not in the lesson


def _spans(lesson: Lesson, claims: list[dict[str, object]], verdict: str) -> list[tuple[int, int]]:
    from checkers.extract.coverage import _checked_spans

    return _checked_spans(lesson, claims, {"sum": verdict})


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Step 3 loads the data.", "identifier"),
        ("Read Phase 14 · 07 first.", "identifier"),
        ("It takes 3 steps.", "prose"),
        ("GPT-4 was trained later.", "identifier"),
        ("We need 4 GPUs.", "prose"),
        ("Published 2023-05-01.", "identifier"),
        ("A window of 2048 tokens.", "prose"),
        ("Install peft 0.7.1 first.", "identifier"),
        ("The dropout is 0.7 here.", "prose"),
        ("It is the 3rd layer.", "identifier"),
        ("See https://example.org/2023/05/post for more.", "identifier"),
        ("See the paper (2017) for more.", "identifier"),
        ("See the 2017 runs for more.", "prose"),
        ("Vaswani et al., 2017 introduced it.", "identifier"),
        ("第 3 章讲注意力。", "identifier"),
        ("共有 3 个头。", "prose"),
        ("Set d_model = 512 here.", "definition"),
        ("Set d_model = 512 × 4 here.", "prose-relation"),
        ("Then x = [0.5, 0.2] is the input.", "definition"),
        ("So 12 is about 3 × 4.", "prose-relation"),
        ("A cost of 12 ≈ twelve.", "prose-relation"),
        ("Inline $k = 9$ math.", "latex"),
        ("Inline `k = 9` code.", "code"),
    ],
)
def test_a_skipped_number_is_put_where_it_stands(text: str, reason: str) -> None:
    document = parse_document(text + "\n")
    lesson = Lesson.from_text(Path("l.md"), text + "\n")
    reasons = {number.reason for number in numbers_seen(document, lesson, [])}
    assert reasons == {reason}


def test_a_section_number_is_an_identifier_only_at_the_start_of_a_heading() -> None:
    text = "## 4. Results\n\n4. Results\n\n## Results of 4 runs\n"
    document = parse_document(text)
    lesson = Lesson.from_text(Path("l.md"), text)
    found = [(n.line, n.reason) for n in numbers_seen(document, lesson, [])]
    # A list item "4." is markup (not a number of its text); a heading's number is a label.
    assert found == [(1, "identifier"), (5, "prose")]


def test_numbers_know_their_column_in_the_source() -> None:
    text = "| a | b |\n|---|---|\n| 7 | 7 |\n\n  - item with 12 here\n"
    document = parse_document(text)
    lesson = Lesson.from_text(Path("l.md"), text)
    found = [(n.line, n.column, n.text) for n in numbers_seen(document, lesson, [])]
    assert found == [(3, 3, "7"), (3, 7, "7"), (5, 15, "12")]


def test_total_sums_lessons_and_counts_lessons_with_a_checked_number() -> None:
    lessons = [
        LessonCoverage("a.md", 10, 4, {"table": 6}),
        LessonCoverage("b.md", 5, 0, {"code": 3, "prose": 2}),
        LessonCoverage("c.md", 0, 0),
    ]
    summed = total(lessons)
    assert (summed.lessons, summed.lessons_checked, summed.numbers, summed.checked) == (3, 1, 15, 4)
    assert summed.skipped == {"table": 6, "code": 3, "prose": 2}
    assert summed.lines()[0] == (
        "coverage: 1 of 3 lessons with a checked number (33.3%); 15 numbers seen, 4 checked (26.7%)"
    )
    assert set(summed.skipped) <= set(REASONS)


def test_scan_stats_prints_coverage_and_adds_it_to_the_json_report(
    lesson_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", str(lesson_file), "--json", "plain.json"]) == 0
    plain_out = capsys.readouterr().out
    assert "coverage" not in plain_out
    assert main(["scan", str(lesson_file), "--stats", "--json", "stats.json"]) == 0
    out = capsys.readouterr().out
    assert "coverage  content/demo.md: 20 numbers, 5 checked (25.0%); skipped: identifier 5" in out
    assert "coverage: 1 of 1 lessons with a checked number (100.0%); 20 numbers seen" in out
    assert "  skipped       2  table: a table cell" in out
    plain = json.loads(Path("plain.json").read_text(encoding="utf-8"))
    stats = json.loads(Path("stats.json").read_text(encoding="utf-8"))
    assert "coverage" not in plain
    assert stats["version"] == plain["version"] == 1  # an additive section
    assert stats["findings"] == plain["findings"] and stats["summary"] == plain["summary"]
    coverage = stats["coverage"]
    assert coverage["reasons"] == REASONS
    assert coverage["total"] == {
        "lessons": 1,
        "lessons_checked": 1,
        "numbers": 20,
        "checked": 5,
        "skipped": EXPECTED_SKIPPED,
    }
    assert coverage["lessons"] == [
        {"source": "content/demo.md", "numbers": 20, "checked": 5, "skipped": EXPECTED_SKIPPED}
    ]


def test_scan_stats_quiet_prints_only_the_total_and_counts_an_unreadable_lesson(
    lesson_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("content/bad.md").write_bytes(b"\xff\xfe\x00binary")
    assert main(["scan", "-q", "--stats", "content/bad.md", str(lesson_file)]) == 2
    out = capsys.readouterr().out
    assert "coverage  " not in out
    assert "coverage: 1 of 2 lessons with a checked number (50.0%); 20 numbers seen" in out


@pytest.mark.parametrize(
    ("unit", "reasons"),
    [
        ("``1 ", {"code": 10_000, "prose": 10_000}),  # ``1 `` is a code span, the next 1 not
        ("\\(1 ", {"prose": 20_000}),  # \\( never closed: no math
        ("d_model = 5 ", {"definition": 20_000}),
        ("GPT-4 x ", {"identifier": 20_000}),
    ],
)
def test_a_long_line_of_unclosed_marks_is_read_whole(unit: str, reasons: dict[str, int]) -> None:
    """Hostile shapes (unclosed backticks or \\(, thousands of definitions on one line): every
    number is counted, in its bucket, with each line's places found once (not per number)."""
    text = unit * 20_000 + "\n"
    document = parse_document(text)
    lesson = Lesson.from_text(Path("l.md"), text)
    assert Counter(number.reason for number in numbers_seen(document, lesson, [])) == reasons


def test_the_statements_a_checked_claim_read_its_inputs_from_count_as_checked() -> None:
    text = "```python\nlayers = 24\nwidth = 1024 * 2\nacts = layers * width  # 49152\n```\n"
    document = parse_document(text)
    lesson = Lesson.from_text(Path("l.md"), text)
    claims = [{"id": "acts", "quote": "acts = layers * width  # 49152"}]
    read = {"acts": [(2, "layers = 24"), (3, "width = 1024 * 2"), (4, "not on its line")]}

    def checked(verdict: str, inputs: dict[str, list[tuple[int, str]]]) -> int:
        found = lesson_coverage("l.md", document, lesson, claims, {"acts": verdict}, inputs=inputs)
        return found.checked

    assert checked("fail", read) == 4  # 24, 1024, 2 and 49152; a text not on its line: nothing
    assert checked("pass", {}) == 1
    assert checked("error", read) == 0  # no verdict: nothing it read was checked


def test_the_numbers_a_relation_names_as_its_inputs_count_as_checked(tmp_path: Path) -> None:
    # The KV-cache relation reads layers, heads and head size from line 3 (its note says so);
    # the batch of the lesson's last line is not one of its inputs.
    lesson = tmp_path / "kv.md"
    lesson.write_text(
        "## KV cache\n\n"
        "Our model: 24 layers, 16 heads, head dimension 64, weights and cache in fp16.\n\n"
        "Per token the KV cache holds 2 × 24 × 16 × 64 × 2 = 98,304 bytes.\n\n"
        "We serve a batch of 8.\n",
        encoding="utf-8",
    )
    findings, coverage = scan_lesson_with_coverage(lesson)
    assert any(f.kind != "arithmetic" and f.verdict == "pass" for f in findings)
    # the quote's 2, 24, 16, 64, 2 and 98,304, and 24, 16 and 64 on line 3
    assert coverage.checked == 9


@pytest.mark.parametrize(
    ("review", "verdict"),
    [("1", "pass"), ("2", "fail")],  # 2 + 3 + 1 = 6; a wrong term fails the total
)
def test_the_cells_a_total_row_adds_count_as_checked(
    tmp_path: Path, review: str, verdict: str
) -> None:
    lesson = tmp_path / "plan.md"
    lesson.write_text(
        "## Plan\n\n| Task | Hours |\n|---|---|\n| Reading | 2 |\n| Writing | 3 |\n"
        f"| Review | {review} |\n| **Total** | **6** |\n",
        encoding="utf-8",
    )
    findings, coverage = scan_lesson_with_coverage(lesson)
    assert [f.verdict for f in findings if f.id.startswith("table_totals-")] == [verdict]
    assert coverage.checked == 4  # the three terms and the total


def test_the_cells_a_stated_schedule_total_adds_count_as_checked(tmp_path: Path) -> None:
    lesson = tmp_path / "schedule.md"
    lesson.write_text(
        "## Schedule\n\n| Lab | Topic | Time |\n|---|---|---|\n| 1 | Tokens | ~2 hr |\n"
        "| 2 | Attention | ~3 hr |\n| 3 | Decoding | ~1 hr |\n\n**Total time**: ~6 hours\n",
        encoding="utf-8",
    )
    findings, coverage = scan_lesson_with_coverage(lesson)
    assert [f.verdict for f in findings if f.id.startswith("table_totals-")] == ["pass"]
    assert coverage.checked == 4  # 2, 3, 1 and the 6 of the total; not the lab numbers


def test_a_term_printed_twice_on_its_row_is_not_counted(tmp_path: Path) -> None:
    # Week 2 and 2 hours: which "2" of the row is the term cannot be told from its text.
    lesson = tmp_path / "weeks.md"
    lesson.write_text(
        "## Plan\n\n| Task | Week | Hours |\n|---|---|---|\n| Reading | 2 | 2 |\n"
        "| Writing | 1 | 3 |\n| **Total** | | **5** |\n",
        encoding="utf-8",
    )
    findings, coverage = scan_lesson_with_coverage(lesson)
    assert [f.verdict for f in findings if f.id.startswith("table_totals-")] == ["pass"]
    assert coverage.checked == 2  # the 3 of Writing and the total
