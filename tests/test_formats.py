"""Lesson formats (checkers/formats.py): what each format shows a reader, notebooks read and
written back, positions in the file — through the real CLI in a temporary course."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

from checkers.cli import main
from checkers.extract.document import parse_document
from checkers.formats import FormatError, apply_edits, read_source, readable_text


def scan_json(monkeypatch: pytest.MonkeyPatch, root: Path, *lessons: str) -> tuple[int, Any]:
    monkeypatch.chdir(root)
    code = main(["scan", *lessons, "--json", "out.json", "-j", "1"])
    return code, json.loads((root / "out.json").read_text(encoding="utf-8"))


def failing(report: Any) -> list[tuple[str, str]]:
    return sorted((f["source"], f["quote"]) for f in report["findings"] if f["verdict"] == "fail")


def notebook(cells: list[Any], **write: Any) -> str:
    book = nbformat.v4.new_notebook()
    book.metadata["language_info"] = {"name": "python"}
    book.cells = cells
    if write:
        return json.dumps(book, **write)
    return str(nbformat.writes(book))


def stream(text: str) -> Any:
    return nbformat.v4.new_output("stream", name="stdout", text=text)


# -- Markdown, MDX, Quarto: what a reader does not see is not read --------------------------------


def test_html_comments_hide_numbers_but_ignore_marks_still_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "l.md").write_text(
        "# Sums\n\n"
        "<!-- an old draft said 6 × 7 = 41 -->\n\n"
        "<!--\nmulti-line note: 5 × 5 = 24\n-->\n\n"
        "Visible: 6 × 8 = 47 here.\n\n"
        "Also 4 × 4 = 17 <!-- lessoncheck: ignore as printed in the source -->\n",
        encoding="utf-8",
    )
    code, report = scan_json(monkeypatch, tmp_path, "l.md")
    assert code == 1
    assert failing(report) == [("l.md", "6 × 8 = 47")]  # the comments' sums never drafted
    suppressed = [f for f in report["findings"] if f["verdict"] == "suppressed"]
    assert [(f["quote"], f["line"]) for f in suppressed] == [("4 × 4 = 17", 11)]


def test_a_comment_inside_fenced_code_is_code_not_a_comment() -> None:
    text = "```html\n<!-- 6 × 7 = 41 -->\n```\n<!-- 6 × 7 = 41 -->\n"
    readable = readable_text(".md", text)
    assert len(readable) == len(text) and readable.count("\n") == text.count("\n")
    assert readable.splitlines()[1] == "<!-- 6 × 7 = 41 -->"  # shown to the reader as code
    assert readable.splitlines()[3].strip() == ""


MDX = """import Tabs from '@theme/Tabs'
import { Chart } from '../components/chart'
export const meta = {
  layers: 12 * 2,
}

# Heads

{/* TODO check: 3 × 3 = 10 */}

<Tabs groupId="sizes" width={300}>
<Chart data={[1, 2, 3]} height={2 * 100 > 5 ? 7 : 8} />

With 12 heads of 64 each: 12 × 64 = 767 hidden units.

</Tabs>

{/* lessoncheck: ignore */}
Legacy: 2 × 5 = 11
"""


def test_mdx_reads_the_markdown_not_the_jsx_or_its_comments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "heads.mdx").write_text(MDX, encoding="utf-8")
    code, report = scan_json(monkeypatch, tmp_path, "heads.mdx")
    assert code == 1
    assert failing(report) == [("heads.mdx", "12 × 64 = 767")]
    wrong = next(f for f in report["findings"] if f["verdict"] == "fail")
    assert wrong["line"] == 14
    assert [f["quote"] for f in report["findings"] if f["verdict"] == "suppressed"] == [
        "2 × 5 = 11"
    ]
    readable = readable_text(".mdx", MDX)
    assert "12 * 2" not in readable and "3 × 3" not in readable and "300" not in readable
    assert "12 × 64 = 767" in readable  # a tag's children stay text


def test_mdx_keeps_comparisons_in_math_and_inline_code() -> None:
    text = "When $j<i$ and `a<b>` hold, 2 < 3.\n"
    assert readable_text(".mdx", text) == text


def test_quarto_fences_are_read_as_their_language() -> None:
    text = "---\ntitle: Week 1\nversion: 2\n---\n\n```{python}\n#| echo: false\nx = 1\n```\n"
    document = parse_document(readable_text(".qmd", text))
    fences = [block for block in document.blocks if block.kind == "fence"]
    assert [fence.info for fence in fences] == ["python"]
    assert readable_text(".md", text) == text  # only Quarto reads braces so


def test_an_unknown_format_is_an_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("2 + 2 = 5\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "notes.txt"]) == 2
    assert "notes.txt: is not a lesson file" in capsys.readouterr().out
    with pytest.raises(FormatError, match=r"unknown lesson format '\.txt'"):
        read_source(Path("notes.txt"), "2 + 2 = 5\n")


# -- notebooks ------------------------------------------------------------------------------


def week_notebook() -> str:
    return notebook(
        [
            nbformat.v4.new_markdown_cell("# Week 3\n\nThe product is 2 × 3 × 4 = 26 here."),
            nbformat.v4.new_code_cell(
                'x = 7 * 8\nprint(f"7 × 8 = {x}")', outputs=[stream("7 × 8 = 54\n")]
            ),
            nbformat.v4.new_markdown_cell("Right: 3 × 3 = 9\n\n<!-- 5 × 5 = 24 -->"),
        ]
    )


def test_a_notebook_is_read_cell_by_cell_with_outputs_as_printed_output() -> None:
    source = read_source(Path("w.ipynb"), week_notebook())
    document = parse_document(source.readable)
    assert [(b.kind, b.info) for b in document.blocks if b.kind == "fence"] == [
        ("fence", "python"),
        ("fence", "output"),
    ]
    assert "5 × 5 = 24" in source.text and "5 × 5" not in source.readable
    line = source.text.splitlines().index("The product is 2 × 3 × 4 = 26 here.") + 1
    origin = source.cell_line(line)
    assert origin is not None and origin.label() == "cell 1, line 3"


def test_notebook_failures_name_cell_and_line_and_the_json_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = week_notebook()
    (tmp_path / "w.ipynb").write_text(raw, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "w.ipynb", "--report-dir", "reports", "-j", "1"]) == 1
    report = json.loads((tmp_path / "reports" / "report.json").read_text(encoding="utf-8"))
    found = {f["quote"]: f for f in report["findings"] if f["verdict"] == "fail"}
    assert set(found) == {"2 × 3 × 4 = 26", "7 × 8 = 54"}
    assert found["2 × 3 × 4 = 26"]["cell"] == "cell 1, line 3"
    assert found["7 × 8 = 54"]["cell"] == "cell 2, output 1, line 1"
    file_lines = raw.split("\n")
    for quote, finding in found.items():
        line = file_lines[finding["line"] - 1]
        assert line[finding["column"] - 1 :].startswith(quote.split(" ")[0]), (quote, line)
        assert quote in line  # the JSON string that holds the statement
    sarif = json.loads((tmp_path / "reports" / "report.sarif").read_text(encoding="utf-8"))
    regions = sorted(
        r["locations"][0]["physicalLocation"]["region"]["startLine"]
        for r in sarif["runs"][0]["results"]
    )
    assert regions == sorted(f["line"] for f in found.values())
    markdown = (tmp_path / "reports" / "report.md").read_text(encoding="utf-8")
    wrong = found["7 × 8 = 54"]
    assert f"[w.ipynb:{wrong['line']} (cell 2, output 1, line 1)](w.ipynb#L{wrong['line']})" in (
        markdown
    )


def test_ascii_escaped_notebook_positions_and_rewrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = notebook(
        [nbformat.v4.new_markdown_cell("Größe: 2 × 3 = 7 Bytes")], indent=2, ensure_ascii=True
    )
    assert "\\u00f6" in raw and "\\u00d7" in raw
    (tmp_path / "e.ipynb").write_text(raw, encoding="utf-8")
    code, report = scan_json(monkeypatch, tmp_path, "e.ipynb")
    assert code == 1
    wrong = next(f for f in report["findings"] if f["verdict"] == "fail")
    line = raw.split("\n")[wrong["line"] - 1]
    assert line[wrong["column"] - 1 :].startswith("2 \\u00d7 3 = 7")
    source = read_source(Path("e.ipynb"), raw)
    at = source.text.index("= 7") + 2
    rewritten = apply_edits(Path("e.ipynb"), raw, {(at, at + 1): "6"})
    assert rewritten == raw.replace("= 7 Bytes", "= 6 Bytes")  # escapes and layout kept


def test_extract_check_and_fix_on_a_notebook_keep_it_a_valid_notebook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = week_notebook()
    path = tmp_path / "w.ipynb"
    path.write_text(raw, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["extract", "w.ipynb"]) == 0
    claims = (tmp_path / "claims" / "w.yaml").read_text(encoding="utf-8")
    assert "lesson: w.ipynb" in claims and "quote: 2 × 3 × 4 = 26" in claims
    assert main(["extract", "w.ipynb"]) == 0
    assert (tmp_path / "claims" / "w.yaml").read_text(encoding="utf-8") == claims
    assert main(["check"]) == 1
    assert main(["fix", "--diff"]) == 1
    assert path.read_text(encoding="utf-8") == raw  # --diff changes nothing
    assert main(["fix", "--write"]) == 0
    new = path.read_text(encoding="utf-8")
    nbformat.validate(nbformat.reads(new, as_version=4))
    changed = [(a, b) for a, b in zip(raw.split("\n"), new.split("\n"), strict=True) if a != b]
    assert changed == [
        ('    "The product is 2 × 3 × 4 = 26 here."', '    "The product is 2 × 3 × 4 = 24 here."'),
        ('      "7 × 8 = 54\\n"', '      "7 × 8 = 56\\n"'),
    ]
    assert main(["check"]) == 0
    assert main(["extract", "--check", "w.ipynb"]) == 0


def test_fix_refuses_an_output_it_cannot_rewrite_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = nbformat.v4.new_output(
        "execute_result",
        data={"text/plain": "7 × 8 = 54", "text/html": "<b>7 × 8 = 54</b>"},
        execution_count=1,
    )
    raw = notebook([nbformat.v4.new_code_cell("show()", outputs=[result])])
    path = tmp_path / "r.ipynb"
    path.write_text(raw, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["extract", "r.ipynb"]) == 0
    assert main(["fix", "--write"]) == 1
    out = capsys.readouterr().out
    assert "not fixed" in out and "also stored as text/html; re-run the cell" in out
    assert path.read_text(encoding="utf-8") == raw


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"cells": [', "invalid JSON at line 1"),
        ('{"cells": []}', 'no "nbformat" version number'),
        ('{"nbformat": 4, "nbformat_minor": 5, "cells": []}', "not a valid Jupyter notebook"),
        ("[" * 100_000, "not a Jupyter notebook"),
    ],
)
def test_a_broken_notebook_is_an_error_never_a_silent_pass(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    content: str,
    expected: str,
) -> None:
    (tmp_path / "b.ipynb").write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["scan", "b.ipynb"]) == 2
    out = capsys.readouterr().out
    assert "b.ipynb: " in out and expected in out
    assert main(["extract", "b.ipynb"]) == 2
    assert not (tmp_path / "claims").exists()
