from __future__ import annotations

from pathlib import Path

import pytest

from checkers.lesson import AnchorError, Lesson, LessonError, load_lesson

LESSON = """# Title

score = 0.58×0.71 + 0.74×0.52 = 0.78

| 50 | 0.9⁵⁰ ≈ 0.005 |

再除以 √d_k（这里 d_k=2，√2≈1.41）得到 0.27 和 0.11
same line
same line
"""


def lesson() -> Lesson:
    return Lesson.from_text(Path("lesson.md"), LESSON)


def test_quote_gives_line_and_column() -> None:
    anchor = lesson().anchor("0.58×0.71 + 0.74×0.52 = 0.78")
    assert (anchor.line, anchor.column) == (3, 9)


def test_whitespace_and_full_width_are_tolerated() -> None:
    assert lesson().anchor("score=0.58 × 0.71+0.74×0.52 =  0.78").line == 3
    assert lesson().anchor("（这里 d_k＝２，√２≈１.４１）").line == 7


def test_changed_number_makes_the_claim_stale_with_a_hint() -> None:
    with pytest.raises(AnchorError) as caught:
        lesson().anchor("score = 0.58×0.71 + 0.74×0.52 = 0.80")
    assert caught.value.stale
    assert "closest is line 3" in caught.value.message


def test_superscripts_are_not_digits() -> None:
    with pytest.raises(AnchorError):
        lesson().anchor("0.950 ≈ 0.005")


def test_ambiguous_quote_needs_occurrence() -> None:
    with pytest.raises(AnchorError, match=r"occurs 2 times .*lines 8, 9") as caught:
        lesson().anchor("same line")
    assert not caught.value.stale
    assert lesson().anchor("same line", occurrence=2).line == 9


def test_lesson_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"# Caf\xc3\xa9\nun caf\xe9\n")
    with pytest.raises(LessonError, match=r"bad\.md:2:7: not valid UTF-8 \(byte 0xe9\)"):
        load_lesson(bad)
    with pytest.raises(LessonError, match="cannot read"):
        load_lesson(tmp_path / "missing.md")


def test_occurrences_are_remembered_within_the_budget() -> None:
    text = lesson()
    assert text.occurrences("sameline") == text.occurrences("sameline")
    assert len(text.occurrences("sameline")) == 2
    assert "sameline" in text.found
    # Past the budget a quote is searched again each time, with the same answer.
    text.found_budget[0] = 0
    assert text.occurrences("0.78") == (text.folded.find("0.78"),)
    assert "0.78" not in text.found
    assert text.anchor("same line", occurrence=2).line == 9


def test_a_lesson_given_as_text_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "never-written.md"
    lesson = load_lesson(path, "score = 0.80\n")
    assert lesson.path == path and lesson.text == "score = 0.80\n"
    assert lesson.anchor("score = 0.80").line == 1
    assert not path.exists()


def test_span_is_the_source_range_a_quote_anchors_to_across_lines() -> None:
    text = "Intro line.\nThe sum is 2 + 3\n  = 5 here, and 2 + 3 = 5 again.\n"
    lesson = Lesson.from_text(Path("x.md"), text)
    start, end = lesson.span("2 + 3 = 5", occurrence=1)
    assert text[start:end] == "2 + 3\n  = 5"
    start, end = lesson.span("2 + 3 = 5", occurrence=2)
    assert text[start:end] == "2 + 3 = 5" and lesson.position(start) == (3, 17)
    with pytest.raises(AnchorError) as ambiguous:
        lesson.span("2 + 3 = 5")
    assert not ambiguous.value.stale
    with pytest.raises(AnchorError) as gone:
        lesson.span("2 + 3 = 6")
    assert gone.value.stale


def test_caseless_finds_a_word_where_a_case_insensitive_search_does() -> None:
    """:func:`caseless` stands for case-insensitive patterns looking for words (the marks,
    the renormalising cue): for every character and every ASCII letter (and every sign or CJK
    character those words hold), the pattern takes the character for the letter exactly when
    ``caseless`` makes it that letter, one character for one."""
    import re
    import string
    import sys

    from checkers.lesson import caseless
    from checkers.lesson_marks import _INTERESTING_WORDS

    alphabet = sorted(set(string.ascii_lowercase + "-归一化" + "".join(_INTERESTING_WORDS)))
    any_letter = re.compile("[" + re.escape("".join(alphabet)) + "]", re.IGNORECASE)
    everything = map(chr, range(sys.maxunicode + 1))
    candidates = [c for c in everything if any_letter.fullmatch(c) or caseless(c) in alphabet]
    assert "\u212a" in candidates and "ſ" in candidates  # the Kelvin sign, the long s
    for char in candidates:
        folded = caseless(char)
        assert len(folded) == 1, char  # offsets and line breaks kept
        for letter in alphabet:
            taken = re.fullmatch(re.escape(letter), char, re.IGNORECASE) is not None
            assert taken == (folded == letter), (char, letter)
    assert caseless("İNCORRECT\nſ") == "incorrect\ns"


def test_source_offset_is_the_offsets_entry_without_building_them() -> None:
    from checkers.lesson import _LONG_LINE, Lesson

    text = "a b\n\n\u3000ｃ\td\r\n\x0b\x1cé  f\n" + "g " * _LONG_LINE + "\nh\n"
    built = Lesson.from_text(Path("lesson.md"), text)
    lazy = Lesson.from_text(Path("lesson.md"), text)
    long_line = text.index("g ")
    for index in range(len(lazy.folded)):
        if built.offsets[index] <= long_line:
            assert "offsets" not in lazy.__dict__  # placed from its line alone
        assert lazy.source_offset(index) == built.offsets[index]
    assert "offsets" in lazy.__dict__  # the long line built them, once
