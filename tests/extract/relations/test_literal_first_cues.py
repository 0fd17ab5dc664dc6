"""The cues written to open with the class of their branches' first characters (a faster search
in Python's re) match exactly where their plain alternations do, at the same offsets: on every
line of the team's lessons and the seeds, and on spellings written here for each branch and its
near misses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checkers.extract.relations import kv_groups, lr_schedule

ROOT = Path(__file__).resolve().parents[3]
LESSONS = sorted(
    [
        *ROOT.glob("tests/corpus/*.md"),
        *ROOT.glob("tests/corpus_blind/*.md"),
        *ROOT.glob("tests/corpus_relations/*.md"),
        *ROOT.glob("content/*.md"),
    ],
    key=str,
)
PLAIN = {
    "kv_groups": (
        kv_groups.CUE,
        r"倍|×|\dx\b|\d\s*-?fold|\btimes\b|factor|per\s+(?:KV|key)|每个?\s*(?:KV|键值)|每组"
        r"|groups?\s+of|serves|shared\s+by",
    ),
    "lr_schedule": (
        lr_schedule.CUE,
        r"\de[-−]\d|10\s*\^\s*[{(]?\s*[-−]|学习率|learning[\s_]rate|\blr\b|峰值的"
        r"|of\s+(?:the\s+)?peak|warm[\s-]?up|预热",
    ),
}
SPELLINGS = [
    "8 倍",
    "4 × 2",
    "3x faster, 3X, x3, 3xl, max 4",
    "4-fold, 4 fold, 4  -fold, fourfold",
    "two times more, sometimes, times4, Times",
    "a factor of 8, factors",
    "per KV head, per key, per  kv, perkv, paper key",
    "每个 KV 头, 每键值, 每个键值, 每组, 每",
    "groups of 4, group  of, groupsof",
    "serves 8 heads, reserves, shared by 4, unshared by",
    "1e-4, 3E−5, 1e4, e-4",
    "10^-4, 10 ^ {-5}, 10^(−3), 10^4, 110^-2",
    "学习率, learning rate, Learning_Rate, learningrate",
    "lr 3, the lr, flr, lr_max, LR=",
    "峰值的 10%, 峰值",
    "of the peak, of peak, ofpeak, of  the  peak",
    "warmup, warm-up, Warm up, warming",
    "预热 100 步",
    "",
    "ſerves ſhared by",  # the long s: lowering keeps it, re.IGNORECASE reads it as "s"
    "\u212a V per KV",  # the Kelvin sign, read as "k" by re.IGNORECASE
]


def _lines() -> list[str]:
    lines = [*SPELLINGS]
    for lesson in LESSONS:
        lines.extend(lesson.read_text(encoding="utf-8").splitlines())
    return lines


def _span(pattern: re.Pattern[str], text: str) -> tuple[int, int] | None:
    found = pattern.search(text)
    return found.span() if found else None


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_the_literal_first_cue_matches_where_its_plain_alternation_does(name: str) -> None:
    cue, plain = PLAIN[name]
    plain_cue = re.compile(plain, cue.flags)
    lowered_cue = re.compile(cue.pattern.lower())  # as the recogniser searches a lowered line
    lowered_plain = re.compile(plain.lower())
    matched = 0
    for line in _lines():
        assert _span(cue, line) == _span(plain_cue, line), (name, line)
        lowered = line.lower()
        assert _span(lowered_cue, lowered) == _span(lowered_plain, lowered), (name, line)
        matched += _span(cue, line) is not None
    assert matched > len(SPELLINGS), f"few lines match the cue of {name}: the check proves little"
