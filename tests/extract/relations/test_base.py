"""Relations' shared reading of a statement: where a clause starts and ends (one definition for
the FLOPs and KV-cache relations; snippets written for these tests)."""

from __future__ import annotations

from checkers.extract.relations.base import clause_after, clause_start


def test_a_clause_starts_after_the_last_break_before_the_value() -> None:
    # What the FLOPs relation asks: is the claimed value computed from another FLOPs figure in
    # its own clause? The thousands comma of 1,000 does not end the clause.
    text = "A 7B model: 14 GFLOPs per token, and 14 GFLOPs × 1,000 tokens = 14 TFLOPs"
    start = clause_start(text, text.index("14 TFLOPs"))
    assert text[start:].startswith("and 14 GFLOPs × 1,000 tokens")
    chinese = "每个 token 需要 14 GFLOPs；1,000 个 token 共 14 TFLOPs"
    assert chinese[clause_start(chinese, chinese.index("14 TFLOPs")) :].startswith("1,000 个")
    assert clause_start("2 × 7B = 14 GFLOPs", 9) == 0  # no break: the line's start


def test_a_clause_after_a_value_runs_to_the_next_break() -> None:
    # What the KV-cache relation asks: does "per token" follow the claimed size in its clause?
    text = "The KV cache is ≈ 0.098 MB per token, i.e. about 0.2 GB per 2k tokens."
    end = text.index("MB") + 2
    assert clause_after(text, end) == " per token"
    assert clause_after("约 0.5 MB，每个 token", 8) == ""  # the Chinese comma ends it
    # A decimal point and a thousands separator do not end a clause; the line's end does.
    assert clause_after("cache: 0.13 MB for 4,096 tokens", 6) == " 0.13 MB for 4,096 tokens"
