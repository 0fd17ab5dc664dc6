"""report.md: totals, one escaped table row per claim needing attention, inherited errors."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from checkers.report import markdown
from tests.report import CARRIER, EVIL, FAIL, FINDINGS, PASS, PROBLEMS, many_failures

UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _rows(text: str) -> list[str]:
    """Body rows of the problems table (the first table)."""
    table = text.split("\n\n")[2]
    return table.splitlines()[2:]


def test_title_and_totals() -> None:
    text = markdown.render(FINDINGS)
    assert text.startswith("## lessoncheck report\n")
    assert "**5 of 7 claims need attention**" in text
    assert "2 passed, 2 failed, 1 stale, 2 errors" in text


def test_all_holding_and_empty() -> None:
    assert "All 1 claims hold" in markdown.render([PASS])
    assert "|" not in markdown.render([PASS])
    assert "No claims were checked." in markdown.render([])


def test_every_problem_has_a_row_with_its_line_link() -> None:
    rows = _rows(markdown.render(FINDINGS))
    assert len(rows) == len(PROBLEMS)
    text = "\n".join(rows)
    assert "[content/demo.md:5](content/demo.md#L5)" in text
    assert "[content/demo.md:7](content/demo.md#L7)" in text
    # Problems located in the claim file link there.
    assert "[claims/demo.yaml:24](claims/demo.yaml#L24)" in text
    assert "[claims/demo.yaml:30](claims/demo.yaml#L30)" in text
    assert "[claims/broken.yaml](claims/broken.yaml)" in text
    fail_row = next(row for row in rows if "dot-wrong" in row)
    assert "| 0.52 | 0.5 → 0.50 |" in fail_row
    assert "score = 0.5×0.5 + 0.5×0.5 = 0.50" in fail_row
    assert "❌ fail" in fail_row


def test_stale_and_error_rows_say_what_is_wrong() -> None:
    rows = _rows(markdown.render(FINDINGS))
    stale = next(row for row in rows if "gone" in row)
    assert "⚠️ stale" in stale
    assert "*the quote is no longer in demo.md (was the sentence edited?)*" in stale
    error = next(row for row in rows if "bad-claim" in row)
    assert "💥 error" in error
    assert "did you mean" in error


def test_lesson_text_cannot_break_the_table_or_inject_html() -> None:
    text = markdown.render(FINDINGS)
    assert "<script>" not in text
    assert "<img" not in text and "<b>" not in text
    assert "&lt;script&gt;" in text
    evil = next(row for row in _rows(text) if "0.52 \\| 100%" in row or "a \\| b" in row)
    # A row of six cells has exactly seven structural pipes; escaped ones do not count.
    assert len(UNESCAPED_PIPE.findall(evil)) == 7
    assert "a \\| b" in evil
    assert "\\`x\\`" in evil
    assert re.search(r"(?<!\\)`", evil) is None
    for row in _rows(text):
        assert len(UNESCAPED_PIPE.findall(row)) == 7


def test_escape() -> None:
    assert markdown.escape("a|b") == "a\\|b"
    assert markdown.escape("`code`") == "\\`code\\`"
    assert markdown.escape("<a href='x'>&") == "&lt;a href='x'&gt;&amp;"
    assert markdown.escape("*em* _u_ [l](x) $m$ @user ~s~") == (
        "\\*em\\* \\_u\\_ \\[l\\](x) \\$m\\$ \\@user \\~s\\~"
    )
    assert markdown.escape("two\nlines\r\n  here") == "two lines here"
    assert markdown.escape("back\\slash") == "back\\\\slash"


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

ROW_OF_A_MODEL_TABLE = (
    "A 7B model with 32 layers and width d 4096 keeps 2 × 32 × 4096 × 2 bytes = 524,288 bytes "
    "of cache per token, or 1,600.5 MB for 3,200 tokens"
)


def test_cells_are_cut_at_the_end_and_never_inside_a_number() -> None:
    whole = set(_NUMBER.findall(ROW_OF_A_MODEL_TABLE))
    for width in range(8, len(ROW_OF_A_MODEL_TABLE)):
        cell = markdown.shorten_cell(ROW_OF_A_MODEL_TABLE, width)
        assert len(cell) <= width
        assert cell.endswith("…") and ROW_OF_A_MODEL_TABLE.startswith(cell[:-1].rstrip())
        assert set(_NUMBER.findall(cell)) <= whole, (width, cell)
    assert markdown.shorten_cell(ROW_OF_A_MODEL_TABLE, 200) == ROW_OF_A_MODEL_TABLE
    assert markdown.shorten_cell("24 × d 1600 gives 0.82B", 12) == "24 × d 1600…"
    assert markdown.shorten_cell("24 × d 1600 gives 0.82B", 10) == "24 × d…"


def test_long_quote_and_fix_cells_show_the_changed_number() -> None:
    quote = "word " * 30 + "so the total is 0.52 as printed"
    fix = quote.replace("0.52", "0.50")
    row = _rows(markdown.render([replace(FAIL, quote=quote, fix=fix)]))[0]
    cells = row.split(" | ")
    quote_cell, fix_cell = cells[2], cells[-1].removesuffix(" |")
    assert quote_cell.startswith("…") and "total is 0.52 as printed" in quote_cell
    assert fix_cell.startswith("…") and "total is 0.50 as printed" in fix_cell
    assert len(quote_cell) <= markdown.QUOTE_WIDTH and "word " * 20 not in row
    # A change within the first characters: the cells keep their beginning.
    early = "total 0.52 " + "word " * 30
    row = _rows(markdown.render([replace(FAIL, quote=early, fix=early.replace("0.52", "0.50"))]))
    assert "| total 0.52 word" in row[0] and "| total 0.50 word" in row[0]
    assert row[0].count("…") == 2


def test_link_paths_are_url_encoded_and_can_be_absolute() -> None:
    spaced = replace(FAIL, source="content/my lesson (v2).md")
    assert markdown.link(spaced) == (
        "[content/my lesson (v2).md:5](content/my%20lesson%20%28v2%29.md#L5)"
    )
    base = "https://github.com/o/r/blob/abc/"
    assert markdown.link(FAIL, base) == (
        "[content/demo.md:5](https://github.com/o/r/blob/abc/content/demo.md?plain=1#L5)"
    )


def test_inherited_errors_are_collapsed() -> None:
    text = markdown.render(FINDINGS)
    details = text[text.index("<details>") :]
    assert "<summary>1 claim pass but carry an upstream error</summary>" in details
    assert details.rstrip().endswith("</details>")
    assert "[content/demo.md:9](content/demo.md#L9)<br>scaled" in details
    assert "| dot-wrong |" in details
    # The detail line is shown, not the message that repeats the passing check.
    assert "right given its printed inputs" in details
    assert "s / 2 = 0.26 holds" not in details
    assert "<details>" not in markdown.render([PASS, FAIL])
    assert "<details>" in markdown.render([CARRIER])


def test_rows_are_capped() -> None:
    text = markdown.render(many_failures(markdown.MAX_ROWS + 5))
    assert len(_rows(text)) == markdown.MAX_ROWS
    assert "… and 5 more; see report.html" in text


def test_write_is_atomic(tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.md"
    markdown.write(target, [EVIL])
    assert target.read_text(encoding="utf-8") == markdown.render([EVIL])
    assert [p.name for p in target.parent.iterdir()] == ["report.md"]


def test_slips_are_labelled_and_quiet_findings_listed_with_why() -> None:
    from tests.report import QUIET, SLIP

    text = markdown.render(QUIET)
    assert "1 passed, 2 failed (1 slip), 0 stale, 0 errors, 2 suppressed, 2 marked wrong" in text
    assert "| 🟡 slip | [content/demo.md:5]" in text
    assert "| ❌ fail | [content/demo.md:5]" in text
    quiet = text.split("<details>")[1]
    assert "4 findings suppressed or marked wrong by the author (not failing)" in quiet
    assert "lessoncheck: ignore --&gt; on line 8" in quiet
    assert ".lessoncheck.toml: ignore 'content/\\*.md'" in quiet
    assert "marked wrong by the author (❌ on line 2), but it holds" in quiet
    only_slips = markdown.render([SLIP])
    assert "🟡 **1 of 1 claims are slips**" in only_slips
