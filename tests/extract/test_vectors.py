"""Named vectors and matrices (checkers.extract.vectors), on snippets written for these tests."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.vectors import bindings, chapters


def _named(text: str) -> list[tuple[str, str, int, bool]]:
    document = parse_document(text)
    return [
        (b.name, b.text, b.line, b.substituted)
        for chapter in chapters(document)
        for b in bindings(chapter)
    ]


def test_assignments_lists_matrices_chains_and_substitutions_are_named() -> None:
    text = (
        "## Setup\n\n```\n狗 → [0.1, 0.9]\nv_狗 = [0.1, 0.9]\nW_k = [[1, 0],\n"
        "       [0, 2]]\nh = v · W + b\n  = [0.3, 0.4] · W + b\n  = [0.5, 0.6]\n```\n"
    )
    assert _named(text) == [
        ("狗", "[0.1, 0.9]", 4, False),
        ("v_狗", "[0.1, 0.9]", 5, False),
        ("W_k", "[[1, 0], [0, 2]]", 6, False),
        ("v", "[0.3, 0.4]", 9, True),
        ("h", "[0.5, 0.6]", 10, False),
    ]


def test_a_term_after_an_operator_is_not_named_by_the_chain() -> None:
    assert _named("## A\n\n```\ny = x + b = [1, 2] + b = [3, 4]\n```\n") == [
        ("x", "[1, 2]", 4, True),
        ("y", "[3, 4]", 4, False),
    ]


def test_chapters_split_at_the_repeated_top_level_heading() -> None:
    text = "# Title\n\n## One\n\n### a\n\ntext\n\n## Two\n\nmore\n"
    assert [len(chapter) for chapter in chapters(parse_document(text))] == [1, 3, 2]
