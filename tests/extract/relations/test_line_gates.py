"""The relations recogniser's cheap gates before a relation is offered a line are sound: each
skips only lines no relation could be offered.

A block none of whose source lines holds a digit is skipped (only its last lines are kept, as
what a later statement is about): that is sound because reading LaTeX as plain text never adds
a digit (every relation claims a number, and the digit test reads the plain text). Checked on
every command :func:`checkers.extract.latex.plain` rewrites, on every line of the team's
lessons and the seeds, and on spellings written here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checkers.extract.latex import _COMMANDS, plain

ROOT = Path(__file__).resolve().parents[3]
OWN_CORPORA = ("corpus", "corpus_blind", "corpus_relations", "corpus_domain")
"""The team's corpora the gates are held sound on (not the held-out one, kept for measuring)."""
LESSONS = sorted(
    [
        *(path for name in OWN_CORPORA for path in ROOT.glob(f"tests/{name}/*.md")),
        *ROOT.glob("content/*.md"),
    ],
    key=str,
)
_DIGIT = re.compile(r"\d")
SPELLINGS = [
    r"$\frac{a}{b}$",
    r"$\log_e x$",
    r"$\sqrt[n]{x}$",
    r"$\text{GB} \times \mathrm{M}$",
    r"$a \cdot b \approx c$, \ln x",
    r"**bold** and __strong__ $\begin{aligned} a &= b \\ c &\approx d \end{aligned}$",
    r"a{,}b \, \; \! \quad \cdots \infty \pi",
]


def test_no_command_is_rewritten_with_a_digit() -> None:
    assert not [name for name, text in _COMMANDS.items() if _DIGIT.search(text)]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_plain_adds_no_digit_to_these_spellings(spelling: str) -> None:
    assert not _DIGIT.search(spelling)
    assert not _DIGIT.search(plain(spelling)[0]), plain(spelling)[0]


def test_plain_adds_no_digit_to_a_lesson_line() -> None:
    checked = 0
    for lesson in LESSONS:
        for line in lesson.read_text(encoding="utf-8").splitlines():
            if not _DIGIT.search(line) and ("$" in line or "\\" in line):
                checked += 1
                assert not _DIGIT.search(plain(line)[0]), line
    assert checked, "no line here is rewritten: the check would prove nothing"


COUNTS = [
    "LoRA trains 1.57M parameters",
    "about 7B params",
    "约 70 亿个参数",
    "12M trainable weights",
    "1.2 billion new PARAMETERS",
    "3M WEıGHTſ",  # re.IGNORECASE reads the dotless i and the long s as "i" and "s"
]


def test_a_line_with_a_count_that_names_what_it_counts_holds_one_of_its_words() -> None:
    from checkers.extract.relations.base import _COUNTED, _COUNTED_WORDS
    from checkers.lesson import caseless

    matched = 0
    for line in [*COUNTS, *_lesson_lines()]:
        if _COUNTED.search(line):
            matched += 1
            assert any(word in caseless(line) for word in _COUNTED_WORDS), line
    assert matched > len(COUNTS), "no lesson line names a count: the check would prove little"


def _lesson_lines() -> list[str]:
    return [line for lesson in LESSONS for line in lesson.read_text(encoding="utf-8").splitlines()]


ODD_LINES = [
    "İİİ 4 GB per KV head",  # lowering makes it longer: offsets of the joined lines differ
    "a\0line with the separator: 8 × 2 bytes",
    "",
    "budget of 3",
    "× 4 compute",  # a cue split over two lines matches neither alone
    "ATTENTION 12 heads, 7B params, FFN 4×, 1e-4 learning rate, 8 H100 GPUs",
]


def test_the_cues_found_for_all_lines_at_once_are_those_of_each_line_alone() -> None:
    from checkers.extract.recognizers.relations import _DISTINCT_CUES, _line_cues

    lines = [*ODD_LINES, *_lesson_lines()[:4000]]
    expected = [
        sum(
            1 << index
            for index, (cue, reads_lowered, _) in enumerate(_DISTINCT_CUES)
            if cue.search(line.lower() if reads_lowered else line)
        )
        for line in lines
    ]
    assert _line_cues(lines) == expected
    assert any(expected), "no line matches a cue: the check would prove nothing"
