from __future__ import annotations

from checkers.extract.document import parse_document

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
