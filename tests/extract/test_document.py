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
