"""Plain arithmetic from inline LaTeX and Markdown emphasis, with source offsets."""

from __future__ import annotations

import pytest

from checkers.extract.latex import plain


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
