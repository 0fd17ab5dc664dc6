"""Marks in a lesson's text: statements the author marks wrong, and lessoncheck: ignore comments.

Every quiet case has a nearby case of the same shape that must stay unmarked (a real mistake
there must still fail). Lines are written in our own words.
"""

from __future__ import annotations

import pytest

from checkers.finding import Finding
from checkers.lesson_marks import apply_marks, read_marks


def _marked(text: str) -> set[int]:
    return set(read_marks(text).wrong)


def _line(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


@pytest.mark.parametrize(
    ("marked_line", "unmarked_line"),
    [
        # A cross after the statement; the same statement without one.
        ("Step 2: 60 / 4 = 14 ✗", "Step 2: 60 / 4 = 14"),
        ("Step 2: 60 / 4 = 14 ❌ (should be 15)", "Step 2: 60 / 4 = 14 (should be 15)"),
        # A judgement word before a colon, or after the statement.
        ("Wrong: 7 × 6 = 43", "Answer: 7 × 6 = 43"),
        ("7 × 6 = 43 is wrong.", "7 × 6 = 43 is the product."),
        ("7 × 6 = 43 (incorrect)", "7 × 6 = 43 (rounded)"),
        ("错误：7 × 6 = 43", "结果：7 × 6 = 43"),
        ("7 × 6 = 43，这是错的", "7 × 6 = 43，这是积"),
        ("这样算不对：7 × 6 = 43", "这样算：7 × 6 = 43"),
        ("原来的推导有误：7 × 6 = 43", "原来的推导如下：7 × 6 = 43"),
        # Nouns that only look like marks mark nothing.
        ("Wrong: 7 × 6 = 43", "3 wrong answers out of 40 = 8%"),
        ("错误：7 × 6 = 43", "错误率 = 3 / 40 = 7.5%"),
        ("错误：7 × 6 = 43", "矩阵不对称：2 × 2 = 4"),
        ("错误：7 × 6 = 43", "没有错误：2 × 2 = 4"),
        ("原来的推导有误：7 × 6 = 43", "测量有误差：7 × 6 = 43"),
        ("7 × 6 = 43 is wrong.", "What can go wrong: 7 × 6 = 43"),
        ("7 × 6 = 43 is wrong.", "7 × 6 = 43 is not wrong."),
    ],
)
def test_marks_on_the_line(marked_line: str, unmarked_line: str) -> None:
    assert _marked(f"# t\n\n{marked_line}\n") == {3}
    assert _marked(f"# t\n\n{unmarked_line}\n") == set()


def test_a_cross_marks_what_precedes_it_not_the_correction_after_it() -> None:
    marks = read_marks("Row count: 3 × 13 = 38 ✗ no, 3 × 13 = 39\n")
    assert marks.marked_wrong(1, column=12) is not None  # "3 × 13 = 38" starts before ✗
    assert marks.marked_wrong(1, column=30) is None  # "3 × 13 = 39" starts after it
    # A mark before a colon reaches the whole line.
    colon = read_marks("Wrong: 3 × 13 = 38\n")
    assert colon.marked_wrong(1, column=8) is not None


BLOCKS = """# Blocks

❌ 一个常见的错误计算
quarter of four: 4 × 0.25 = 1.5
quarter of eight: 8 × 0.25 = 2

after the block: 5 × 0.25 = 1.5

原始计算有重大错误:

- first: 2 × 3 = 7
- second: 3 × 3 = 10

✅ 正确计算:
- first: 2 × 3 = 6

**Wrong approach:**
```
total = 3 * 4 = 13
```
outside = 2 * 4 = 9

✗ Slow
cost: 100 / 4 = 26

| model | fits | memory |
| small | ✗ | 2 × 8 = 17 GB |

### ❌ Incorrect derivation
x = 10 / 4 = 2
#### Step two
y = 10 / 5 = 3
### ✅ Fixed derivation
z = 10 / 4 = 2
"""


@pytest.mark.parametrize(
    ("fragment", "marked"),
    [
        ("4 × 0.25 = 1.5", True),  # in the block headed "❌ … 错误计算"
        ("8 × 0.25 = 2", True),
        ("5 × 0.25 = 1.5", False),  # after the blank line that ends that block
        ("first: 2 × 3 = 7", True),  # list after "…有重大错误:" and a blank line
        ("second: 3 × 3 = 10", True),
        ("first: 2 × 3 = 6", False),  # under "✅ 正确计算"
        ("total = 3 * 4 = 13", True),  # fenced block under "**Wrong approach:**"
        ("outside = 2 * 4 = 9", False),  # after the fence closed
        ("cost: 100 / 4 = 26", False),  # "✗ Slow" is a cross in a list, not a heading
        ("2 × 8 = 17 GB", False),  # ✗ in a table cell means "no"
        ("x = 10 / 4 = 2", True),  # section headed "### ❌ Incorrect derivation"
        ("y = 10 / 5 = 3", True),  # its subsection
        ("z = 10 / 4 = 2", False),  # the next section at the same level
    ],
)
def test_blocks_and_sections_headed_wrong(fragment: str, marked: bool) -> None:
    assert (_line(BLOCKS, fragment) in _marked(BLOCKS)) is marked


IGNORES = """# Ignores

<!-- lessoncheck: ignore -->

silenced: 9 × 9 = 80
next: 9 × 8 = 71
trailing: 9 × 7 = 62 <!-- lessoncheck: ignore as printed in the source -->
<!-- lessoncheck: ignore-start -->
region one: 2 + 2 = 5

region two: 2 + 3 = 6
<!-- lessoncheck: ignore-end -->
after: 2 + 4 = 7
<!-- lessoncheck: ignor -->
typo: 2 + 5 = 8
"""


def test_ignore_comments() -> None:
    marks = read_marks(IGNORES)
    lines = IGNORES.split("\n")
    silenced = {
        lines[n - 1].split(":")[0]
        for n in range(1, len(lines) + 1)
        if lines[n - 1].strip() and marks.ignored_by(n) is not None
    }
    assert silenced == {"silenced", "trailing", "region one", "region two"}
    assert marks.ignored_by(_line(IGNORES, "silenced")) == "<!-- lessoncheck: ignore --> on line 3"
    assert "(as printed in the source)" in (marks.ignored_by(_line(IGNORES, "trailing")) or "")
    assert "ignore-start --> on line 8" in (marks.ignored_by(_line(IGNORES, "region two")) or "")
    # An ignore-start without its end silences the rest of the lesson.
    open_region = read_marks("a = 1\n<!-- lessoncheck: ignore-start -->\nb = 2\n\nc = 3\n")
    assert [open_region.ignored_by(n) is not None for n in (1, 3, 5)] == [False, True, True]


def _finding(verdict: str, line: int, column: int = 1, severity: str | None = None) -> Finding:
    return Finding(
        id="c",
        kind="arithmetic",
        claims_file="claims/x.yaml",
        source="content/x.md",
        line=line,
        column=column,
        quote="q",
        verdict=verdict,  # type: ignore[arg-type]
        claimed="80",
        expected="81 → 81",
        tolerance="±0.5",
        message="9 × 9 is 81 → 81, not 80",
        fix="9 × 9 = 81",
        severity=severity,  # type: ignore[arg-type]
    )


def test_apply_marks_turns_failures_quiet_and_says_why() -> None:
    marks = read_marks(IGNORES)
    silenced = apply_marks(_finding("fail", _line(IGNORES, "silenced"), severity="error"), marks)
    assert silenced.verdict == "suppressed"
    assert silenced.suppression is not None and silenced.suppression.kind == "inSource"
    assert silenced.severity == "error"
    assert silenced.message.startswith("suppressed by <!-- lessoncheck: ignore --> on line 3")
    # The next line is not silenced, and a passing claim on a silenced line stays a pass.
    assert apply_marks(_finding("fail", _line(IGNORES, "next")), marks).verdict == "fail"
    assert apply_marks(_finding("pass", _line(IGNORES, "silenced")), marks).verdict == "pass"
    # Stale claims and errors are never silenced.
    assert apply_marks(_finding("error", _line(IGNORES, "silenced")), marks).verdict == "error"


def test_apply_marks_on_statements_marked_wrong() -> None:
    marks = read_marks(BLOCKS)
    wrong = apply_marks(_finding("fail", _line(BLOCKS, "4 × 0.25"), severity="error"), marks)
    assert wrong.verdict == "marked_wrong"
    assert wrong.severity == "error" and wrong.fix is None  # never "fixed" back to right
    assert wrong.message.startswith("marked wrong by the author (❌ on line 3): ")
    holds = apply_marks(_finding("pass", _line(BLOCKS, "8 × 0.25")), marks)
    assert holds.verdict == "marked_wrong" and holds.severity is None
    assert "marked wrong by the author (❌ on line 3), but it holds: " in holds.message
    # Outside the block a failure stays a failure.
    assert apply_marks(_finding("fail", _line(BLOCKS, "5 × 0.25")), marks).verdict == "fail"


def test_a_lesson_without_marks_costs_one_search() -> None:
    from checkers.lesson_marks import NO_MARKS

    assert read_marks("# Plain\n\n2 × 3 = 6\n" * 1000) is NO_MARKS


def test_a_mark_reaches_its_own_sentence_only() -> None:
    text = (
        "The loss is (0.3 - 1.0)² = 0.49. This shows the model was quite wrong.\n"
        "Wrong! 2 + 2 = 5. Later we get 2 + 3 = 5.\n"
        "We tried 6 / 4 = 1 first, which is wrong; then 6 / 4 = 1.5.\n"
    )
    marks = read_marks(text)
    assert marks.marked_wrong(1, column=13) is None  # the judgement is in the next sentence
    assert marks.marked_wrong(2, column=8) is not None  # "Wrong!" covers its sentence
    assert marks.marked_wrong(2, column=32) is None  # not the next one
    assert marks.marked_wrong(3, column=10) is not None
    assert marks.marked_wrong(3, column=52) is None  # after the semicolon


@pytest.mark.parametrize(
    ("line", "marked"),
    [
        ("WRONG: 2 + 2 = 5", True),
        ("İNCORRECT: 2 + 2 = 5", True),  # the dotted capital i lower-cases to two characters
        ("Wrong: 2 + 2 = 5", True),
        ("Strong: 2 + 2 = 5", False),
        ("2 + 2 = 5 ❌", True),
        ("2 + 2 = 4 ✓", False),
    ],
)
def test_marks_are_found_in_any_case(line: str, marked: bool) -> None:
    text = "# Sums\n\nSome words first, ıı ſ.\n\n" + line + "\n"
    assert (read_marks(text).marked_wrong(5, column=len(line) - 4) is not None) is marked


def test_interesting_lines_are_the_lines_holding_a_word() -> None:
    from checkers.lesson import caseless
    from checkers.lesson_marks import MAX_MARKED_LINES, _interesting_lines

    text = "a\nthe RIGHT way\n\nb ✗ ✗\n错\nc\nfixed and correct\n"
    assert _interesting_lines(caseless(text)) == {2, 4, 5, 7}
    many = "x\n" + "✗\nright\n" * MAX_MARKED_LINES
    assert _interesting_lines(caseless(many)) == set(range(2, MAX_MARKED_LINES + 2))
