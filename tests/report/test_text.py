"""Terminal text of a finding."""

from __future__ import annotations

from dataclasses import replace

from checkers.finding import Finding
from checkers.report.text import format_finding, inert
from tests.report import FAIL


def _finding(quote: str) -> Finding:
    return replace(FAIL, quote=quote, claimed="0.78", fix=quote.replace("0.78", "0.80"))


def test_terminal_control_sequences_are_shown_escaped() -> None:
    text = format_finding(_finding("\x1b[2J\x1b]0;pwned\x07 = 0.78"))
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[2J" in text


def test_bidi_overrides_are_shown_escaped() -> None:
    assert inert("a\u202eb") == "a\\u202eb"


def test_ordinary_text_is_untouched() -> None:
    text = format_finding(_finding("score(猫, 猫) = 0.78"))
    assert text.splitlines()[0] == f"{FAIL.where}  score(猫, 猫) = 0.78"
    assert "  fix         score(猫, 猫) = 0.80" in text


def test_inert_escapes_every_control_and_format_character() -> None:
    for char in "\x1b\x07\x08\r\n\x0b\x0c\x7f\x85\u2028\u2029\u200b\u202e\ufeff\udcff":
        shown = inert(f"a{char}b")
        assert shown.isprintable() and shown != f"a{char}b", repr(char)
    assert inert("a\nb") == "a\\nb"


def test_inert_keeps_tabs_spaces_and_ordinary_text() -> None:
    for text in ("score(猫, 猫) = 0.78", "a\tb", "０．５\u3000＝\u3000０．２５", "std::vector", ""):
        assert inert(text) == text


def test_inert_disarms_workflow_commands_wherever_the_text_lands() -> None:
    # ::command:: counts at the start of a line after blanks; ##[command] anywhere in it.
    assert inert("::error file=a.md::x") == "\\x3a:error file=a.md::x"
    assert inert(" \t\u3000::add-mask::x") == " \t\u3000\\x3a:add-mask::x"
    assert inert("a ::error::x") == "a ::error::x"  # not at the start: the runner ignores it
    assert inert("see ##[error]x and ##[add-mask]y") == "see #\\x23[error]x and #\\x23[add-mask]y"
    assert inert("\n::stop-commands::t") == "\\n::stop-commands::t"  # the newline is escaped


def test_inert_is_idempotent() -> None:
    for text in ("::error::x", "##[x]", "\x1b[2J\n::a::b", " ::x", "\\x3a:y", "#\\x23[z"):
        once = inert(text)
        assert inert(once) == once


def test_verdict_labels_name_slips_and_quiet_findings() -> None:
    from checkers.report.text import format_finding
    from tests.report import MARKED, SEVERE, SLIP, SUPPRESSED

    assert "  slip        2 / 7 is 0.2857 → 0.29, not 0.28" in format_finding(SLIP)
    assert "  wrong       0.5×0.5" in format_finding(SEVERE)
    assert "  suppressed  suppressed by" in format_finding(SUPPRESSED)
    assert "  marked      marked wrong by the author" in format_finding(MARKED)
