from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.extract.document import parse_document
from checkers.extract.recognizers import chains
from checkers.scan import scan_lesson
from tests.cases import load_cases
from tests.extract.conftest import ScanText
from tests.hypothesis_profiles import PROFILE


@pytest.mark.parametrize("case", load_cases("chains_cases.yaml"))
def test_chain_recogniser(case: dict[str, Any]) -> None:
    drafts = list(chains.recognize(parse_document(case["text"] + "\n")))
    found = [{key: value for key, value in d.fields.items()} for d in drafts]
    assert found == case["drafts"]
    for draft in drafts:
        assert draft.kind == "arithmetic"
        assert draft.quote in case["text"]
        assert 0 < draft.confidence <= 1


def test_continuation_lines_join_a_chain_in_a_fence() -> None:
    text = "```text\nQ[0] = 0.5×0.1 + 0.2×0.3\n     = 0.05 + 0.06\n     = 0.11\n```\n"
    (draft,) = chains.recognize(parse_document(text))
    assert draft.fields == {"expression": "0.5×0.1 + 0.2×0.3 = 0.05 + 0.06", "claimed": "0.11"}
    assert draft.line == 2


def test_iec_units_in_the_lesson_make_byte_prefixes_decimal() -> None:
    text = "A cache of 2 × 1024 bytes = 2 KB.\n\nThat is 2 KiB.\n"
    (draft,) = chains.recognize(parse_document(text))
    assert draft.fields["prefixes"] == "decimal"


@pytest.mark.parametrize(
    ("text", "expression", "claimed"),
    [
        # the side's only digit is a superscript (str.isdigit, not a decimal digit), found by
        # the fallback outside ASCII, before and after the relation
        ("So e² ≈ 7.39 here.", "e²", "7.39"),
        ("平方：e²≈7.39。", "e²", "7.39"),
        ("其值 7.39 ≈ e²，对吧", "e²", "7.39"),
    ],
)
def test_a_digit_outside_ascii_makes_a_side(text: str, expression: str, claimed: str) -> None:
    (draft,) = chains.recognize(parse_document(text + "\n"))
    assert draft.fields == {"expression": expression, "claimed": claimed}


@pytest.mark.parametrize(
    "text",
    [
        "The text has e ≈ x here.",  # no digit on either side
        "这里 e ≈ 七点三九。",  # the value is written in words
        "A box ─── e² ≈ ───",  # no number on the other side
    ],
)
def test_no_side_without_a_digit(text: str) -> None:
    assert list(chains.recognize(parse_document(text + "\n"))) == []


def test_a_side_past_a_long_run_of_prose_is_still_found() -> None:
    # the cuts of a side are looked for only within the longest side's reach of the relation
    text = "word " * 200 + "so 3 × 4 = 12 and " + "more " * 200
    (draft,) = chains.recognize(parse_document(text + "\n"))
    assert draft.fields == {"expression": "3 × 4", "claimed": "12"}


_SIDE_PIECES = [
    *("5", "3.2", "1,024", "0", "10^6", "10⁶", "²"),
    *("B", "KB", "GiB", "bytes", "字节", "万", "亿", "million", "thousand", "k", "M", "T", "E"),
    *("apples", "foo", "x", "X", "e", "tokens", "layers", "GPUs", "FLOPs", "desk", "Ask"),
    *("_x", "a_b", "foo-bar", "don't", "i", "个", "层", "主干", "倍", "%", "'"),
    *("×", "*", "/", "+", "−", "-", "^", "=", "(", ")", "（", "）", ",", ".", ";", " ", "\t"),
]


@settings(parent=PROFILE)
@given(st.lists(st.sampled_from(_SIDE_PIECES), max_size=16).map("".join))
def test_a_side_refused_before_its_rewrite_has_a_free_word_after_it(side: str) -> None:
    # the shortcut of chains._evaluate_side must refuse only what the rewrite would refuse
    if chains._keeps_free_word(side):
        assert chains._has_free_word(chains._as_expression(side))


@pytest.mark.parametrize(
    ("side", "kept"),
    [
        ("5 candidates for each prompt", True),  # "prompt" is no label: nothing follows it
        ("the total of 3 × 4", True),
        ("5 apples × 2", False),  # a label the rewrite drops ("5 × 2")
        ("26B core words + 14", False),  # up to three words after a scaled quantity
        ("3 (x 5B (foo) × apples) × 4", False),  # the bracket goes once the inner one has
        ("2 x 3", False),  # "x" is the multiplication sign
        ("4 tokens", False),  # a count noun
        ("7 tokens, then more", True),  # a label never runs past a comma
        ("x2 + 1", False),  # a word with a digit: a number's pattern may start inside it
    ],
)
def test_which_free_words_the_rewrite_keeps(side: str, kept: bool) -> None:
    assert chains._keeps_free_word(side) is kept
    if kept:
        assert chains._has_free_word(chains._as_expression(side))


# Products of a count and a time, and of a rate in tokens per second and a time: the times read
# in seconds, as a claimed "1.1 s" reads; a count's noun may be two words ("512 new tokens").
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("- 512 new tokens × 3.5 ms = 1.79 s\n", "pass"),
        ("- 512 new tokens × 3.5 ms = 1792 ms\n", "pass"),
        ("- 512 new tokens × 3.5 ms = 0.9 s\n", "fail"),
        ("- 1,200 tokens/s × 3,600 s = 4.32M tokens per hour\n", "pass"),
        ("- 1,200 tokens/s × 3,600 s = 43.2M tokens per hour\n", "fail"),
        ("In nats: 4 × ln 2 ≈ 2.77.\n", "pass"),
        ("In nats: 4 × ln 2 ≈ 3.77.\n", "fail"),
    ],
)
def test_times_rates_and_bare_logarithms_in_a_chain(
    scan_text: ScanText, text: str, verdict: str
) -> None:
    (finding,) = [f for f in scan_text(text) if f.id.startswith("chains-")]
    assert finding.verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        # a conversion factor written out multiplies the numbers as printed: no reading in
        # seconds (which would make 3 s × 1000 = 3000 s, not 3000 ms)
        "- 3 s × 1000 = 3000 ms\n",
        "- 90 s / 60 = 1.5 min\n",
        # "2 plus" is no count of anything
        "- 2 plus × 3 = 6 s\n",
    ],
)
def test_a_time_with_its_conversion_written_out_is_not_read_in_seconds(
    scan_text: ScanText, text: str
) -> None:
    assert [f for f in scan_text(text) if f.verdict == "fail"] == []


def test_a_wrong_step_in_a_diagram_label_fails_at_its_line(tmp_path: Path) -> None:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(
        '# Plan\n\n```mermaid\ngraph TD\n  A["7 × 6 = 42<br/>42 + 8 = 51"] --> B\n```\n', "utf-8"
    )
    verdicts = {f.claimed: (f.verdict, f.line) for f in scan_lesson(lesson)}
    assert verdicts == {"42": ("pass", 5), "51": ("fail", 5)}
