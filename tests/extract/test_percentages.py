"""Recogniser ``percentages``: a cut stated as the fraction left, and counts followed by a comma
(snippets written for these tests, worked by hand)."""

from __future__ import annotations

import pytest

from tests.extract.conftest import ScanText


# 48 → 12 heads keeps a quarter of the cache (1/4; a 4× cut); a count with a comma after it
# ("to 12, so") is still the count 12.
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("头数从 48 减到 12，缓存缩小为原来的 1/4。\n", "pass"),
        ("头数从 48 减到 12，缓存缩小为原来的 1/6。\n", "fail"),
        ("Going from 48 heads to 12 heads shrinks the cache to 1/4 of its size.\n", "pass"),
        ("Going from 48 heads to 12 heads shrinks the cache to 1/3 of its size.\n", "fail"),
        ("The heads go from 48 to 12, so the cache shrinks by 4×.\n", "pass"),
        ("The heads go from 48 to 12, so the cache shrinks by 6×.\n", "fail"),
    ],
)
def test_a_cut_stated_as_the_fraction_left(scan_text: ScanText, text: str, verdict: str) -> None:
    (finding,) = [f for f in scan_text(text) if f.id.startswith("percentages-")]
    assert finding.verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        "头数从 48 减到 12，另有 1/6 的层不用 GQA。\n",  # a fraction of something else
        "From 48 to 12 heads; see page 1/4 of the appendix.\n",  # no word of change
    ],
)
def test_a_fraction_that_is_no_cut_is_not_drafted(scan_text: ScanText, text: str) -> None:
    assert [f for f in scan_text(text) if f.id.startswith("percentages-")] == []


# 2,359,296 adapter weights of a 13B model: 2.4M / 13B = 0.018%; both printed rounded, so a
# share computed from the unrounded counts (0.0181%) holds too.
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("可训练参数约 2.4M，约占 13B 模型的 0.018%。\n", "pass"),
        ("可训练参数约 2.4M，约占 13B 模型的 0.0181%。\n", "pass"),
        ("可训练参数约 2.4M，约占 13B 模型的 0.18%。\n", "fail"),
        ("可训练参数约 2.4M，占 13B 的 1.8%。\n", "fail"),
    ],
)
def test_a_scaled_count_as_a_share_of_a_model(scan_text: ScanText, text: str, verdict: str) -> None:
    (finding,) = [f for f in scan_text(text) if f.id.startswith("percentages-")]
    assert finding.verdict == verdict


def test_a_share_of_something_else_is_not_drafted(scan_text: ScanText) -> None:
    # the whole is a count of tokens in another clause: "占" compares nothing stated here
    text = "可训练参数约 2.4M。训练数据里，代码约占 13B 数据的 18%。\n"
    assert [f for f in scan_text(text) if f.id.startswith("percentages-")] == []


def test_a_range_is_seen_after_a_number_inside_a_sentence() -> None:
    from checkers.extract.recognizers.percentages import _RANGE_AFTER

    sentence = "of 64 heads, 10–12 are idle"
    at = sentence.index("10") + 2
    assert _RANGE_AFTER.match(sentence, at)  # a pattern anchored with ^ never matched here
    assert not _RANGE_AFTER.match(sentence, sentence.index("64") + 2)
