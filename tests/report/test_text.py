"""Terminal text of a finding."""

from __future__ import annotations

from dataclasses import replace

from checkers.finding import Finding
from checkers.report.text import format_finding, printable
from tests.report import FAIL


def _finding(quote: str) -> Finding:
    return replace(FAIL, quote=quote, claimed="0.78", fix=quote.replace("0.78", "0.80"))


def test_terminal_control_sequences_are_shown_escaped() -> None:
    text = format_finding(_finding("\x1b[2J\x1b]0;pwned\x07 = 0.78"))
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[2J" in text


def test_bidi_overrides_are_shown_escaped() -> None:
    assert printable("a\u202eb") == "a\\u202eb"


def test_ordinary_text_is_untouched() -> None:
    text = format_finding(_finding("score(猫, 猫) = 0.78"))
    assert text.splitlines()[0] == f"{FAIL.where}  score(猫, 猫) = 0.78"
    assert "  fix         score(猫, 猫) = 0.80" in text
