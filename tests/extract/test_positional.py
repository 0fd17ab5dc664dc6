"""Recogniser ``positional``: the index range of i next to the sinusoidal formula (snippets
written for these tests)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import positional
from tests.extract.conftest import ScanText

FORMULA = "## Encoding\n\nPE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(…)\n\n"


def _ranges(text: str) -> list[dict[str, object]]:
    drafts = positional.recognize(parse_document(text))
    return [d.fields for d in drafts if "index_range_end" in d.fields]


def _verdicts(scan_text: ScanText, text: str) -> dict[str, str]:
    return {f.quote: f.verdict for f in scan_text(text) if f.kind == "positional"}


def test_ranges_that_end_at_the_last_pair_pass(scan_text: ScanText) -> None:
    text = FORMULA + (
        "- where i = 0, 1, …, d_model/2 − 1\n"
        "- in LaTeX: $i \\in [0, \\frac{d_{model}}{2})$, or $0 \\le i < d/2$\n"
        "- 例如 d_model = 6 时 i 取值 i = 0, 1, 2\n"
    )
    assert _verdicts(scan_text, text) == {
        "i = 0, 1, …, d_model/2 − 1": "pass",
        "i \\in [0, \\frac{d_{model}}{2})": "pass",
        "0 \\le i < d/2": "pass",
        "i = 0, 1, 2": "pass",
    }


def test_ranges_one_pair_too_long_fail(scan_text: ScanText) -> None:
    text = FORMULA + (
        "- i（维度编号）= 0, 1, 2, ..., d_model/2\n"
        "- $0 \\le i \\le \\frac{d}{2}$\n"
        "- With d_model = 8 the pairs are i = 0, 1, 2, 3, 4\n"
    )
    findings = [f for f in scan_text(text) if f.kind == "positional"]
    assert [(f.claimed, f.verdict) for f in findings] == [
        ("d_model/2", "fail"),
        ("d/2", "fail"),
        ("4", "fail"),
    ]
    assert "d_model/2 − 1" in findings[0].message


def test_ranges_without_the_paired_formula_or_from_one_are_not_drafted() -> None:
    assert _ranges("## Loop\n\nfor i = 0, 1, 2, ..., n/2 we add x\n") == []
    assert _ranges(FORMULA + "i = 1, 2, …, d_model/2 (counting from one)\n") == []
    assert _ranges(FORMULA + "i runs from 0 to d_model/2\n") == []  # either end may be meant


def test_a_listed_range_needs_d_model() -> None:
    assert _ranges(FORMULA + "so i = 0, 1 here\n") == []


BOX = (
    "## 位置编码的图\n\n设 d_model = 2。\n\n```text\n"
    "┌──────┬──────┬──────┐\n│ pos=0│ pos=1│ pos=2│\n├──────┼──────┼──────┤\n"
    "│ [0,  │[0.84,│[{sin2}│\n│  1]  │ 0.54]│{cos2}]│\n└──────┴──────┴──────┘\n```\n"
)


def test_a_box_of_vectors_down_its_columns_is_read_column_by_column(scan_text: ScanText) -> None:
    # d_model = 2: PE(pos) = [sin(pos), cos(pos)]; sin(2) = 0.91, cos(2) = -0.42
    right = BOX.format(sin2="0.91,", cos2="-0.42")
    wrong = BOX.format(sin2="0.42,", cos2="-0.91")  # sin and cos swapped in the last column
    assert _verdicts(scan_text, right) == {"pos=0│ pos=1│ pos=2": "pass"}
    failed = [f for f in scan_text(wrong) if f.kind == "positional"]
    assert [f.verdict for f in failed] == ["fail"]
    assert "pos=2 dimension 0: 0.42 should be 0.91" in failed[0].message


def test_a_box_outside_a_positional_section_or_of_the_wrong_width_is_not_drafted() -> None:
    other_topic = BOX.format(sin2="0.91,", cos2="-0.42").replace("位置编码的图", "Some numbers")
    wide = BOX.format(sin2="0.91,", cos2="-0.42").replace("d_model = 2", "d_model = 4")
    for text in (other_topic, wide):
        drafts = positional.recognize(parse_document(text))
        assert [d for d in drafts if "table" in d.fields] == [], text


def test_d_model_is_placed_on_the_line_markdown_it_counts() -> None:
    from checkers.extract.document import parse_document
    from checkers.extract.recognizers.positional import d_model_statements

    # a form feed is no line break to markdown-it (str.splitlines would count one here)
    document = parse_document("Intro \x0c page break\n\nd_model = 512\n")
    assert d_model_statements(document) == ([3], ["512"])
