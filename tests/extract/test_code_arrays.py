"""Recogniser ``code_arrays`` on the snippets of ``tests/fixtures/array_cases.yaml``: what it
drafts from comments on array code, and which of those drafts ``scan`` fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import code_arrays
from checkers.scan import scan_lesson
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("array_cases.yaml"))
def test_code_arrays(case: dict[str, Any], tmp_path: Path) -> None:
    drafts = list(code_arrays.recognize(parse_document(case["text"])))
    assert len(drafts) == case["drafted"], [d.fields for d in drafts]
    lesson = tmp_path / "lesson.md"
    lesson.write_text(case["text"] + "\n", encoding="utf-8")
    findings = [f for f in scan_lesson(lesson) if f.kind == "arrays"]
    assert len(findings) == case["drafted"], [f.message for f in findings]
    assert all(f.verdict in ("pass", "fail") for f in findings), [f.message for f in findings]
    failing = [f.claimed for f in findings if f.verdict == "fail"]
    assert failing == case["failing"], [f.message for f in findings]


def test_a_wrong_shape_names_the_recomputed_one(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(
        "```python\nimport torch\nq = torch.randn(2, 5, 8)\n"
        "k = q.transpose(1, 2)  # (2, 5, 8)\n```\n",
        "utf-8",
    )
    (finding,) = scan_lesson(lesson)
    assert finding.verdict == "fail" and finding.line == 4
    assert "is (2, 8, 5), not (2, 5, 8)" in finding.message


def test_the_where_holds_the_definitions_the_expression_needs() -> None:
    text = (
        "```python\nimport numpy as np\na = np.array([1, 2])\nunused = np.array([9])\n"
        "b = a * 2\nc = b + a  # [3, 6]\n```"
    )
    (draft,) = code_arrays.recognize(parse_document(text))
    assert draft.fields["where"] == {"a": "np.array([1, 2])", "b": "a * 2"}
    assert draft.fields["expression"] == "b + a"
    # what the check reads: the statements of a and b, each line of them, not the unused one
    assert draft.inputs == ((3, "a = np.array([1, 2])"), (5, "b = a * 2"))


def test_the_inputs_of_a_definition_over_several_lines_are_each_of_its_lines() -> None:
    text = (
        "```python\nimport numpy as np\nm = np.array([[1, 2],\n              [3, 4]])\n"
        "m.T  # [[1, 3], [2, 4]]\n```"
    )
    (draft,) = code_arrays.recognize(parse_document(text))
    assert draft.inputs == ((3, "m = np.array([[1, 2],"), (4, "[3, 4]])"))


def test_code_is_never_executed() -> None:
    """A call outside the whitelist is text: nothing is imported or run."""
    text = "```python\nimport numpy as np\nx = np.array(__import__('os').getcwd())  # [1]\n```"
    assert list(code_arrays.recognize(parse_document(text))) == []


def test_hostile_statements_are_refused_not_crashed(tmp_path: Path) -> None:
    """Nesting beyond the evaluator's depth, and statements too long to parse, draft nothing."""
    deep = "v" + ".T" * 5_000
    text = (
        "```python\nimport numpy as np\nv = np.array([1, 2])\n"
        f"y = {'-' * 1_990}v  # [1, 2]\nz = {deep}  # [1]\n"
        "u = np.array([3, 4])\nw = u * 2  # [6, 8]\n```"
    )
    drafts = list(code_arrays.recognize(parse_document(text)))
    assert [d.fields["expression"] for d in drafts] == ["u * 2"]


@pytest.mark.parametrize(
    ("between", "drafted"),
    [
        ("plot(v)", 1),  # an expression of a known name: it stays known
        ("show()", 1),  # a statement naming no known name changes nothing
        ("del v", 0),  # a statement that is no expression makes the names it mentions unknown
        ("for _ in v: pass", 0),
        ("v.add_(1)", 0),  # an in-place call
        ("v = load()", 0),  # an assignment the array language does not read
    ],
)
def test_what_a_statement_between_does_to_a_known_array(between: str, drafted: int) -> None:
    text = f"```python\nv = np.array([1, 2])\n{between}\nw = v + 1  # [2, 3]\n```\n"
    drafts = list(code_arrays.recognize(parse_document(text)))
    assert len(drafts) == drafted, [d.fields for d in drafts]
