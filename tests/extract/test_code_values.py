"""Recogniser ``code_values`` on the snippets of ``tests/fixtures/code_cases.yaml``: what it
drafts from code blocks and their outputs, and which of those drafts ``scan`` fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import code_values
from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("code_cases.yaml"))
def test_code_values(case: dict[str, Any], tmp_path: Path) -> None:
    drafts = list(code_values.recognize(parse_document(case["text"])))
    assert len(drafts) == case["drafted"], [d.fields for d in drafts]
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = [f for f in scan_lesson(lesson) if f.id.startswith("code_values")]
    assert all(f.verdict in ("pass", "fail") for f in findings), [f.message for f in findings]
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]


def test_a_wrong_comment_says_what_the_arithmetic_gives(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text("```python\nparams = 13e9\nweights = params * 2  # 28 GB\n```\n", "utf-8")
    (finding,) = scan_lesson(lesson)
    assert finding.verdict == "fail"
    assert finding.line == 3
    assert "params * 2" in finding.message and "26 GB" in finding.message


def test_code_is_never_executed() -> None:
    """A call is read as text: nothing named in a block is imported or run."""
    text = (
        "```python\nx = __import__('os').system('false') * 2  # 0\n"
        "y = 2 ** 2 ** 2 ** 2  # 65536\n```"
    )
    drafts = list(code_values.recognize(parse_document(text)))
    assert [d.fields["expression"] for d in drafts] == ["2 ** 2 ** 2 ** 2"]


def test_an_array_element_printed_wrong_names_its_index_and_definition(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(
        "```python\nd = 8\ni = np.arange(d // 2)\nfreq = 10000 ** (-2 * i / d)\n"
        'print(f"{freq[1]:.4f}  {freq[2]:.4f}")\n```\n\n```text\n0.3162  0.0100\n```\n',
        "utf-8",
    )
    (finding,) = [f for f in scan_lesson(lesson) if f.verdict == "fail"]
    assert finding.line == 9 and finding.claimed == "0.3162"
    assert "0.1000" in finding.message and "at i = 1" in finding.message


def test_a_draft_names_the_statements_its_inputs_were_assigned_in() -> None:
    text = (
        "```python\nbatch, seq = 8, 512\ntokens = batch * seq\n"
        "per_step = tokens * 2  # 8192\nprint(tokens)  # 4096\n```"
    )
    per_step, printed = code_values.recognize(parse_document(text))
    assert per_step.inputs == ((2, "batch, seq = 8, 512"), (3, "tokens = batch * seq"))
    assert printed.inputs == per_step.inputs  # the print reads tokens, and so what it used


def test_a_wrong_call_of_a_lesson_function_says_how_the_call_was_read(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(
        "```python\ndef ffn(d):\n    return 2 * d * 4 * d\n\nprint(ffn(512))  # 1,048,576\n```\n",
        "utf-8",
    )
    (finding,) = scan_lesson(lesson)
    assert finding.verdict == "fail" and finding.line == 5
    assert "2,097,152" in finding.message or "2097152" in finding.message
    assert "ffn(512) with ffn(d) = 2 * d * 4 * d" in finding.message


@pytest.mark.parametrize(
    ("line", "markers", "expected"),
    [
        ("x = 4 * 8", ("#",), ("x = 4 * 8", None)),
        ("x = 4 * 8  # 32", ("#",), ("x = 4 * 8", "32")),
        ("#", ("#",), ("", "")),
        ("tag = 'a # b'  # 1", ("#",), ("tag = 'a # b'", "1")),
        ('s = "a" # 2', ("#",), ('s = "a"', "2")),
        ('s = "a"# 2', ("#",), ('s = "a"# 2', None)),  # a marker right after a quote
        ("s = 'it\\'s # x'  # 3", ("#",), ("s = 'it\\'s # x'", "3")),  # an escaped quote
        ("s = 'open # x", ("#",), ("s = 'open # x", None)),  # the string never closes
        ("a = \"x\" + 'y' // 2", ("#", "//"), ("a = \"x\" + 'y'", "2")),
        ("url = 'http://x'  // n", ("//",), ("url = 'http://x'", "n")),
        ("n = a//b", ("//",), ("n = a//b", None)),
    ],
)
def test_a_comment_starts_at_a_marker_outside_strings(
    line: str, markers: tuple[str, ...], expected: tuple[str, str | None]
) -> None:
    """Strings are skipped whole (a quote after a backslash does not close one), and a marker
    counts at the start of the line or after a space."""
    assert code_values._split_comment(line, markers) == expected


def test_a_name_never_assigned_reads_as_no_arithmetic() -> None:
    """Arithmetic that uses a name the code has not given a value (or an unknown function) is
    not read, whatever else it holds; known names, functions and constants are."""
    scope = code_values._Scope(values={"d": 64.0})
    assert code_values._read("d * 2", scope) is not None
    assert code_values._read("sqrt(d) * pi", scope) is not None
    assert code_values._read("1e9 * 2", scope) is not None
    assert code_values._read("d * heads", scope) is None
    assert code_values._read("np.random.rand(d)", scope) is None
    assert code_values._read("round(d / 3)", scope) is None
