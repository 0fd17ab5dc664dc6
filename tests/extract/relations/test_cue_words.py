"""Every relation names the words its cue needs (``WORDS``), and they are sound: a line the cue
matches holds one of them, so the line filter in the relations recogniser never hides a line
the cue would have offered. Checked on every line of the team's lessons and the seeds, and on
spellings written here for each cue's branches."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkers.extract.relations import ALL_RELATIONS

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
BRANCHES = [
    "4 KiB",
    "12 GB",
    "3 TB",
    "2 bytes",
    "16 字节",
    "2 PiB",
    "8 倍",
    "4 × 2",
    "3x faster",
    "4-fold",
    "two times more",
    "a factor of 8",
    "per KV head",
    "每个 KV 头",
    "每组",
    "groups of 4",
    "serves 8 heads",
    "shared by 4",
    "the MLP",
    "FFN",
    "feed-forward",
    "前馈",
    "each expert",
    "专家",
    "attention",
    "attn",
    "注意力",
    "LoRA",
    "adapter",
    "低秩",
    "trainable",
    "可训练",
    "params",
    "parameters",
    "参数",
    "dense",
    "稠密",
    "密集",
    "active",
    "激活",
    "per-token",
    "每个 token",
    "total",
    "总参数",
    "FLOPs",
    "FLOP",
    "浮点运算",
    "GPU",
    "A100",
    "H100",
    "H200",
    "A800",
    "H800",
    "V100",
    "4090",
    "cards",
    "8 张",
    "2 块",
]


def _lines() -> list[str]:
    lines = [*BRANCHES]
    for lesson in LESSONS:
        lines.extend(lesson.read_text(encoding="utf-8").splitlines())
    return lines


@pytest.mark.parametrize("name", sorted(ALL_RELATIONS))
def test_a_line_the_cue_matches_holds_one_of_its_words(name: str) -> None:
    relation = ALL_RELATIONS[name]
    words = getattr(relation, "WORDS", ())
    assert words, f"{name} names no WORDS: every line with a digit would be searched with its cue"
    matched = 0
    for line in _lines():
        lowered = line.lower()
        if relation.CUE.search(line) or relation.CUE.search(lowered):
            matched += 1
            assert any(word in lowered for word in words), (name, line)
    assert matched, f"no line here matches the cue of {name}: the check would prove nothing"
