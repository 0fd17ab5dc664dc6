"""``checkers.literals``: the words every match of a pattern holds, and that they are sound on
the patterns the recognisers pre-test with them."""

from __future__ import annotations

import random
import re

import pytest

from checkers.data import model_table
from checkers.extract.recognizers import model_facts
from checkers.literals import required_words


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("bert", {"bert"}),
        (r"(?<![a-z])bert(?![a-z])", {"bert"}),  # a lookaround holds nothing of the match
        (r"x(?=abc)", {"x"}),
        (r"a(?:b|cd)e", {"b", "cd"}),  # ties keep the first; each is sound
        (r"ab|cd", {"ab", "cd"}),
        (r"(?:x)?yz", {"yz"}),  # an optional group is not required
        (r"ab?c", {"a"}),  # an optional letter ends the run before it
        (r"ab+c", {"ab"}),  # a repeated one ends it after it: "abbc" has no "abc"
        (r"ab{2}c", {"ab"}),
        (r"a{0,2}bc", {"bc"}),
        (r"[ab]cd", {"cd"}),
        (r"\d+\s*ms", {"ms"}),
        (r"a\.b", {"a.b"}),  # an escaped sign is itself
        (r"(?P<n>\d+)\s*(?:layers?|blocks)", {"layer", "blocks"}),
        (r"\d+\s*个?\s*层", {"层"}),
    ],
)
def test_required_words(pattern: str, words: set[str]) -> None:
    assert required_words(re.compile(pattern)) == frozenset(words)


@pytest.mark.parametrize(
    "pattern",
    [r"(?i)abc", r"\x41bc", r"(a)\1", r"ab|", r"a{b", r"(?#note)ab", r"\d+"],
)
def test_what_the_reading_does_not_follow_requires_nothing(pattern: str) -> None:
    assert required_words(re.compile(pattern)) is None


def test_a_flagged_pattern_requires_nothing() -> None:
    assert required_words(re.compile("bert", re.IGNORECASE)) is None


_PIECES = (
    "gpt", "-", "2", "3", ".1", " ", "_", "bert", "llama", "qwen", "2.5", "mixtral 8x7b",
    "deepseek-v3", "gemma", " 7b", "phi-3-mini", "t5", "vit", "openai", "transformer", "whisper",
    "12", "4,096", "32k", " layers", " blocks", "层", "个", "头", " heads", " kv heads",
    "hidden size of ", "d_model = ", "context", " tokens", "vocab", "词表", " params", "参数",
    "active", "rope theta ", "top-", " experts", "专家", "trained on ", "per token", "激活",
    "1", "mistral", "mixtral-8x22b", "deepseek v2", "phi-2", "chinchilla", "num_layers: ",
    "num heads = ", "ffn size ", "上下文长度为", "llama-1", "llama 3.1", "qwen-", "7", "b",
)  # fmt: skip


def _patterns() -> list[re.Pattern[str]]:
    return [f.regex for f in model_table().families] + [p for _, p in model_facts._ROLES]


def test_every_match_of_the_pre_tested_patterns_holds_a_word() -> None:
    """Soundness on the patterns pre-tested with their words: in random texts built of pieces
    of what they match, each match holds one of the words."""
    chooser = random.Random(7)
    patterns = _patterns()
    matched = 0
    for _ in range(4000):
        text = "".join(chooser.choice(_PIECES) for _ in range(chooser.randint(1, 8)))
        for pattern in patterns:
            words = required_words(pattern)
            assert words is not None, pattern.pattern
            for match in pattern.finditer(text):
                matched += 1
                assert any(word in match.group() for word in words), (pattern.pattern, text)
    assert matched > 1000  # the texts exercise the patterns
