from __future__ import annotations

from checkers.extract.document import logical_lines, parse_document

LESSON = """---
title: demo
---
# Heading 1 = 1

A paragraph
over two lines.

| model | layers |
|---|---|
| GPT-3 | 96 |

```text
a = 1
  = 1.0
```

$$x = 2$$
"""


def test_blocks_keep_source_text_and_lines() -> None:
    document = parse_document(LESSON)
    kinds = [(b.kind, b.line) for b in document.blocks]
    assert kinds == [("heading", 4), ("paragraph", 6), ("table", 9), ("fence", 14), ("math", 18)]
    paragraph = document.blocks[1]
    assert [(line.text, line.number) for line in paragraph.lines] == [
        ("A paragraph", 6),
        ("over two lines.", 7),
    ]
    fence = document.blocks[3]
    assert [(line.text, line.number) for line in fence.lines] == [("a = 1", 14), ("  = 1.0", 15)]


def test_tables_keep_cells_and_row_lines() -> None:
    table = parse_document(LESSON).blocks[2].table
    assert table is not None
    assert table.header == ("model", "layers")
    assert table.rows == ((("GPT-3", "96"), 11),)


def test_front_matter_is_not_text() -> None:
    texts = [line.text for _, line in parse_document(LESSON).lines()]
    assert "title: demo" not in texts


def test_sections_fence_info_and_heading_level_are_kept() -> None:
    document = parse_document(
        "# Intro\n\nSome 1 text.\n\n## Cache\n\n```python\nx = 2\n```\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    kinds = [(block.kind, block.info, block.section) for block in document.blocks]
    assert kinds == [
        ("heading", "h1", 1),
        ("paragraph", "", 1),
        ("heading", "h2", 2),
        ("fence", "python", 2),
        ("table", "", 2),
    ]
    assert [len(section) for section in document.sections()] == [2, 3]


def test_text_before_the_first_heading_is_section_zero() -> None:
    document = parse_document("Lead 3.\n\n# Title\n\nBody 4.\n")
    assert [block.section for block in document.blocks] == [0, 1, 1]
    assert [len(section) for section in document.sections()] == [1, 2]


def test_a_diagram_label_is_read_line_by_line_where_it_breaks() -> None:
    text = '```mermaid\ngraph TD\n  A["3 + 4 = 7\\n7 × 2 = 14"] --> B["x<br/>y<br>z"]\n```\n'
    pieces = [piece.strip() for piece, _line in logical_lines(parse_document(text))]
    assert pieces == ["graph TD", 'A["3 + 4 = 7', '7 × 2 = 14"] --> B["x', "y", 'z"]']
    assert {line for _piece, line in logical_lines(parse_document(text))} == {2, 3}


def test_a_code_block_line_with_a_written_newline_stays_one_line() -> None:
    text = '```python\nprint("a = 1 + 1\\n")\n```\n'
    assert [piece for piece, _ in logical_lines(parse_document(text))] == ['print("a = 1 + 1\\n")']


# Markdown where each rule the parser may leave out for a piece (see ``_unmatchable``) matches,
# or nearly does: inside blockquotes and list items, after text that markdown-it reads as text
# but Python as space (a no-break space), with delimiters and underlines in odd places.
_RULE_EDGES = [
    "Title\n===\n\nText\n",
    "Text\n---\nmore\n",
    "> quoted\n> ---\n",
    "- item\n  ===\n",
    "| a |\n---\n",
    "a | b\n-|-\n1 | 2\n",
    "> | a |\n> |---|\n> | 1 |\n",
    "* x\n  | a |\n  | - |\n",
    "---\ntitle: x\n---\n# h\n",
    "[a]: /u\n\n[b\nc]: /v\n",
    "$$\nx = 1\n$$\n",
    "```\ncode\n```\n\n~~~\nmore\n~~~\n",
    "\u00a0\n===\n",
    "x\n\t---  \n",
    "text\n\n---\n\n| not a table\n",
    "1. one\n   two\n   ---\n",
    "- ***\n1. - - -\n> _ _ _\ntext\n* * *\n",
    "text\n**\n--\n",
]


def test_rules_left_out_of_a_piece_could_not_have_matched_in_it() -> None:
    from checkers.extract import document

    for text in _RULE_EDGES:
        for first in (True, False):
            full = frozenset() if first else frozenset({"front_matter"})
            every_rule = document._parser(full).parse(text)
            reduced = document._parser(document._unmatchable(text, first)).parse(text)
            assert [(t.type, t.map, t.content, t.info, t.hidden) for t in reduced] == [
                (t.type, t.map, t.content, t.info, t.hidden) for t in every_rule
            ], text
    assert not {"lheading", "table"} & document._unmatchable("a | b\n---\n", False)
    assert {"lheading", "table"} <= document._unmatchable("a | b\n\n---\n", False)
