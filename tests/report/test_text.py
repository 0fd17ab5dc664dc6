"""Terminal text of a finding."""

from __future__ import annotations

from checkers.report.text import format_finding, printable
from checkers.runner import Finding


def _finding(quote: str) -> Finding:
    return Finding(
        id="a",
        kind="arithmetic",
        claims_file="claims/x.yaml",
        source="content/x.md",
        line=3,
        quote=quote,
        verdict="fail",
        claimed="0.78",
        expected="0.7966 → 0.80",
        tolerance="±0.005: 2 printed decimals",
        message="wrong",
        fix=quote.replace("0.78", "0.80"),
    )


def test_terminal_control_sequences_are_shown_escaped() -> None:
    text = format_finding(_finding("\x1b[2J\x1b]0;pwned\x07 = 0.78"))
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[2J" in text


def test_bidi_overrides_are_shown_escaped() -> None:
    assert printable("a\u202eb") == "a\\u202eb"


def test_ordinary_text_is_untouched() -> None:
    text = format_finding(_finding("score(猫, 猫) = 0.78"))
    assert text.splitlines()[0] == "content/x.md:3  score(猫, 猫) = 0.78"
    assert "  fix         score(猫, 猫) = 0.80" in text
