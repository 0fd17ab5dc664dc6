"""Plain arithmetic from inline LaTeX and Markdown emphasis, with source offsets."""

from __future__ import annotations

import pytest

from checkers.extract.latex import plain, widened


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**1,024 + 2,048 = 3,072**", "1,024 + 2,048 = 3,072"),
        ("| __12 × 4 = 48__ |", "| 12 × 4 = 48 |"),
        ("x = 2**10 = 1024", "x = 2**10 = 1024"),  # a power between operands
        ("a ** b", "a ** b"),
        ("**bold** and 3**2", "bold and 3**2"),
        ("**unclosed 3 + 4", "**unclosed 3 + 4"),
        ("$2 \\times 3$ and **6**", " 2 × 3  and 6"),
    ],
)
def test_emphasis_markers_are_dropped_and_operators_kept(text: str, expected: str) -> None:
    out, where = plain(text)
    assert out == expected
    assert len(where) == len(out)
    assert all(text[where[i]] == out[i] for i in range(len(out)) if out[i] not in " ×")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("402\\text{M}", "402M"),  # a unit in a text command: its words, no brackets
        ("15\\,\\mathrm{GB}", "15 GB"),
        ("\\ln 32000 \\approx 10.37", "ln(32000) ≈ 10.37"),
        ("\\log_2 8 = 3", "log2(8) = 3"),
        ("\\log_{10} 1000", "log10(1000)"),
        ("\\sin 2\\pi", "sin 2π"),  # the argument goes on: no brackets guessed
        ("\\sin 2x", "sin 2x"),
        ("M &= 4 \\times 2 \\\\", "M = 4 × 2  "),  # aligned: & and \\ vanish
        ("&\\approx 8", "≈ 8"),
        ("0.1 & 0.2 \\\\", "0.1 & 0.2  "),  # a matrix row keeps its cell separators
        ("\\begin{aligned} a &= 1 & b", "  a = 1  b"),
        ("1 + 2 + \\cdots + 10", "1 + 2 + ⋯ + 10"),
    ],
)
def test_latex_commands_become_plain_arithmetic(text: str, expected: str) -> None:
    out, where = plain(text)
    assert out == expected
    assert len(where) == len(out)
    assert all(0 <= at < len(text) for at in where)


@pytest.mark.parametrize(
    ("source", "piece", "expected"),
    [
        ("\\mathrm{7B} \\times 2 = 15\\,\\mathrm{GB}", "7B} \\times 2 = 15\\,\\mathrm{GB",
         "\\mathrm{7B} \\times 2 = 15\\,\\mathrm{GB}"),
        ("x = \\frac{1}{4} = 0.25", "\\frac{1}{4} = 0.25", "\\frac{1}{4} = 0.25"),
    ],
)  # fmt: skip
def test_a_quote_is_widened_to_whole_brace_groups(source: str, piece: str, expected: str) -> None:
    start = source.index(piece)
    begin, end = widened(source, start, start + len(piece))
    assert source[begin:end] == expected
