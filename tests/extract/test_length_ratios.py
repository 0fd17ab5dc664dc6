"""Recogniser ``length_ratios``: a length ratio stated on an intro line and carried into the list
items under it (snippets written for these tests; each ratio worked by hand beside it)."""

from __future__ import annotations

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import length_ratios
from tests.extract.conftest import ScanText


def _drafted(text: str) -> list[tuple[int, str, str]]:
    return [
        (d.line, str(d.fields["expression"]), str(d.fields["claimed"]))
        for d in length_ratios.recognize(parse_document(text))
    ]


def _verdicts(scan_text: ScanText, text: str) -> list[tuple[int, str, str]]:
    return [
        (f.line, f.verdict, f.message) for f in scan_text(text) if f.id.startswith("length_ratios-")
    ]


# 8K / 2K = 4: a cache linear in the length grows 4×, a score matrix (n × n) 16×.
EN = (
    "## Longer prompts\n\n"
    "Doubling twice, from 2K to 8K tokens (4× longer), changes the costs like this:\n\n"
    "- the KV cache grows {linear}× (linear in the sequence length)\n"
    "- the score matrix grows {quadratic}× because it is $n \\times n$\n"
)
# 4,096 / 1,024 = 4: linear 4 倍, n² 16 倍.
ZH = (
    "## 序列变长\n\n"
    "序列长度由 1,024 增加到 4,096 时：\n\n"
    "- 每层的 KV 缓存线性增长，变为 {linear} 倍；\n"
    "- 注意力矩阵的元素个数是 $n^2$ 量级，变为 {quadratic} 倍。\n"
)


@pytest.mark.parametrize("lesson", [EN, ZH])
def test_items_that_carry_the_ratio_pass(scan_text: ScanText, lesson: str) -> None:
    found = _verdicts(scan_text, lesson.format(linear=4, quadratic=16))
    assert [(line, verdict) for line, verdict, _ in found if line > 3] == [
        (5, "pass"),
        (6, "pass"),
    ]


@pytest.mark.parametrize("lesson", [EN, ZH])
def test_a_changed_factor_fails_under_the_reading_its_cue_names(
    scan_text: ScanText, lesson: str
) -> None:
    # quadratic read as linear (the classic slip) and linear read as quadratic
    found = _verdicts(scan_text, lesson.format(linear=16, quadratic=4))
    items = [(line, verdict, message) for line, verdict, message in found if line > 3]
    assert [(line, verdict) for line, verdict, _ in items] == [(5, "fail"), (6, "fail")]
    assert "linear in the length" in items[0][2] and "quadratic in the length" in items[1][2]
    assert "line 3" in items[0][2]  # where the ratio was read


def test_the_intro_states_its_own_ratio() -> None:
    # EN states both the change (8K/2K) and the ratio (4× longer): a claim of its own
    assert _drafted(EN.format(linear=4, quadratic=16))[0] == (3, "8/2", "4×")


def test_an_intro_that_disagrees_with_itself_fails_and_carries_nothing(
    scan_text: ScanText,
) -> None:
    # 16K / 4K is 4, not 8: which ratio the items carry would be a guess
    text = (
        "From 4K to 16K context (8× longer), per request:\n\n"
        "- KV cache: 8× (linear)\n- attention scores: 64× (quadratic)\n"
    )
    assert [(line, verdict) for line, verdict, _ in _verdicts(scan_text, text)] == [(1, "fail")]


def test_an_increase_also_reads_as_ratio_minus_one() -> None:
    # 32K / 4K = 8, squared 64: "增长了 63 倍" is right read as an increase by 63 times
    text = "上下文从 4K 扩展到 32K：\n\n- 注意力计算量按平方增长，增长了 {} 倍\n"
    assert _drafted(text.format(63)) == []
    assert _drafted(text.format(8)) == [(3, "(32/4)²", "8×")]
    # 8,192 / 2,048 = 4 (lengths, not years): "3 times more" is 4× read as an increase
    text = "From 2,048 to 8,192 tokens:\n\n- KV cache: {} times more (linear)\n"
    assert _drafted(text.format(3)) == []
    assert _drafted(text.format(2)) == [(3, "8192/2048", "2×")]


@pytest.mark.parametrize(
    "text",
    [
        # a ratio line with items that say no cue of how they grow
        "From 2K to 8K tokens:\n\n- the KV cache: 4×\n- prefill time: about 10×\n",
        # two cues, a negated cue, a qualified cue, a cue that names a layer
        "From 2K to 8K tokens:\n\n- memory: 3× (linear, not quadratic)\n",
        "From 2K to 8K tokens:\n\n- memory: 16× (not linear)\n",
        "From 2K to 8K tokens:\n\n- time: 7× (sub-quadratic)\n",
        "From 2K to 8K tokens:\n\n- linear layers: 2× more FLOPs\n",
        "序列从 2K 拉长到 8K：\n\n- 线性层的计算：2 倍\n",
        # a term of a product, not a factor; two factors; a bound; a factor of one
        "From 2K to 8K tokens:\n\n- scores: 2 × (n × n) bytes per head\n",
        "From 2K to 8K tokens:\n\n- KV: 4× (linear), scores: 9×\n",
        "From 2K to 8K tokens:\n\n- scores: up to 9× (quadratic)\n",
        "From 2K to 8K tokens:\n\n- per-token cost: 1× (linear overall)\n",
        # an intro with no ratio of lengths, or no colon, or a list after other text
        "From 7B to 70B parameters (10× larger):\n\n- weight memory: 5× (linear)\n",
        "Contexts grew from 2K to 8K tokens.\n\n- the KV cache: 2× (linear)\n",
        "From 2K to 8K tokens:\n\nSee below.\n\n- the KV cache: 2× (linear)\n",
        # years are no lengths
        "Context windows from 2019 to 2023:\n\n- KV cache: 2× (linear)\n",
    ],
)
def test_no_draft_without_a_stated_relation(text: str) -> None:
    assert _drafted(text) == []


def test_an_item_of_the_next_intro_is_not_under_this_one() -> None:
    # the second list is under its own intro (4K → 8K, 2×), not under 4K → 32K
    text = (
        "- From 4K to 32K tokens:\n  - KV cache: 8× (linear)\n"
        "- From 4K to 8K tokens:\n  - KV cache: 2× (linear)\n"
    )
    assert _drafted(text) == [(2, "32/4", "8×"), (4, "8/4", "2×")]


def test_every_cue_spelling_holds_one_of_the_needs() -> None:
    from checkers.extract.recognizers import length_ratios

    for spelling in length_ratios._CUE_SPELLINGS:
        assert any(need in spelling for need in length_ratios.NEEDS), spelling
