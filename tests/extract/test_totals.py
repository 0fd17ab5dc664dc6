"""``totals``: a list of quantities and the total stated under it, and that the lines it reads
(those where an entry may start with a total word) are every line that can hold one."""

from __future__ import annotations

import re

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import totals
from checkers.lesson import caseless

_BUDGET = "- Weights: ~30 GB\n- KV cache: ~12 GB\n- Activations: ~6 GB\n"
_BOX = "```\n│ weights  30 GB │\n│ cache    12 GB │\n│ other     6 GB │\n│ total    48 GB │\n```\n"


def _claimed(text: str) -> list[tuple[int, str]]:
    return [(d.line, str(d.fields["claimed"])) for d in totals.recognize(parse_document(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_BUDGET + "- Total: ~48 GB\n", [(4, "≈ 48 GB")]),
        (_BUDGET + "\nGrand total: ~48 GB\n", [(5, "≈ 48 GB")]),
        (_BUDGET + "- **In total**: ~48 GB\n", [(4, "≈ 48 GB")]),
        ("1. Weights: 30 GB\n2. Cache: 12 GB\n3. Other: 6 GB\n4. Total: 48 GB\n", [(4, "48 GB")]),
        ("> Weights: 30 GB\n> Cache: 12 GB\n> Other: 6 GB\n> Total: 48 GB\n", [(4, "48 GB")]),
        # Line breaks the parser counts: CRLF and a bare CR.
        (_BUDGET.replace("\n", "\r\n") + "- Total: ~48 GB\r\n", [(4, "≈ 48 GB")]),
        (_BUDGET.replace("\n", "\r") + "- Total: ~48 GB\r", [(4, "≈ 48 GB")]),
        # The total word on the line below a line of marks only.
        (_BUDGET + "- **\n  Total: ~48 GB\n", [(4, "≈ 48 GB")]),
        (_BOX, [(5, "48 GB")]),
        ("参数：12 亿\n嵌入：3 亿\n其他：1 亿\n合计：16 亿\n", [(4, "16 亿")]),
        # A total word inside a sentence starts no entry.
        (_BUDGET + "- which in sum is ~48 GB\n", []),
    ],
)  # fmt: skip
def test_totals(text: str, expected: list[tuple[int, str]]) -> None:
    assert _claimed(text) == expected


_WORD = re.compile("|".join(totals._TOTAL_WORDS), re.IGNORECASE)


def _reference(text: str) -> list[int]:
    """Every line (as the parser counts them) holding a total word with only marks, digits or
    "grand "/"in " before it: what an entry that starts with one needs."""
    numbers = []
    for number, line in enumerate(re.split(r"\r\n?|\n", text), start=1):
        low = caseless(line)
        for match in _WORD.finditer(low):
            if totals._BEFORE_A_TOTAL.fullmatch(low, 0, match.start()):
                numbers.append(number)
                break
    return numbers


@pytest.mark.parametrize(
    "text",
    [
        "Total: 5\nthe total\n  - TOTAL 3\r\n> sum\rgrand  total\n12. Altogether\n合计 3\n",
        "in total\nintotal\n**Sum**\n\n\n总和\r\r\nsubtotal\n— total",
        "x" * 50 + "total\n" + "total" * 3,
    ],
)
def test_the_lines_read_are_every_line_that_may_start_an_entry_with_a_total(text: str) -> None:
    assert totals._lines_naming_a_total(parse_document(text)) == _reference(text)


def test_many_lines_after_a_carriage_return_are_read_in_one_pass() -> None:
    # Each line's start is found within the line, not by a search back to the lesson's start.
    text = "\r" + "total 1 GB\n" * 50_000
    assert totals._lines_naming_a_total(parse_document(text)) == list(range(2, 50_002))
