"""Recogniser ``result_shares``: a share whose part is the result printed just before it
(snippets written for these tests; each share worked by hand beside it)."""

from __future__ import annotations

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import result_shares
from tests.extract.conftest import ScanText


def _drafted(text: str) -> list[tuple[int, str, str]]:
    return [
        (d.line, str(d.fields["expression"]), str(d.fields["claimed"]))
        for d in result_shares.recognize(parse_document(text))
    ]


def _verdicts(scan_text: ScanText, text: str) -> list[tuple[int, str, str]]:
    return [
        (f.line, f.verdict, f.message) for f in scan_text(text) if f.id.startswith("result_shares-")
    ]


# Rank-16 adapters on two matrices of 32 layers of width 4096: 64 × 16 × 8192 = 8,388,608;
# over 6.74B that is 0.1245%, "about 0.12%".
EN_SENTENCES = (
    "## Adapters\n\nThe adapters hold $64 \\times 16 \\times 8192 = 8{{,}}388{{,}}608$ weights. "
    "That is about {}% of the 6.74B total.\n"
)
EN_LINES = (
    "## Adapters\n\nAdapter weights: 64 × 16 × 8192 = 8,388,608\n"
    "This is {}% of the model's 6.74B parameters.\n"
)
# The same 8,388,608 over 67.4 亿 (6.74e9): 0.1245%.
ZH_ITEMS = (
    "## 适配器\n\n"
    "- 两个矩阵、32 层：$64 \\times 16 \\times 8192 = 8{{,}}388{{,}}608$，约 839 万；\n"
    "- 这占 6.74B 总参数的约 {}%。\n"
)
# 40 layers × 2 matrices × 8 × (5120 + 5120) = 6,553,600 over 130 亿: 0.0504%.
ZH_RELATIVE = (
    "## 适配器\n\n- 合计 $80 \\times 81{{,}}920 = 6{{,}}553{{,}}600$ 个参数；\n"
    "- 相对于约 130 亿的总参数量，只占 {}%。\n"
)


@pytest.mark.parametrize(
    ("lesson", "right", "wrong"),
    [
        (EN_SENTENCES, "0.12", "1.2"),
        (EN_LINES, "0.12", "0.012"),
        (ZH_ITEMS, "0.12", "1.2"),
        (ZH_RELATIVE, "0.05", "0.5"),
    ],
)
def test_a_share_of_the_result_above_passes_and_fails_when_changed(
    scan_text: ScanText, lesson: str, right: str, wrong: str
) -> None:
    assert [verdict for _, verdict, _ in _verdicts(scan_text, lesson.format(right))] == ["pass"]
    ((_, verdict, message),) = _verdicts(scan_text, lesson.format(wrong))
    assert verdict == "fail"
    assert "is the result on line" in message and "read as printed, rounded" in message


def test_the_draft_reads_the_part_from_the_line_above() -> None:
    assert _drafted(EN_LINES.format("0.12")) == [(4, "8,388,608/(6.74*1e9)", "0.12%")]
    assert _drafted(ZH_RELATIVE.format("0.05")) == [(4, "6,553,600/(130*1e8)", "0.05%")]


@pytest.mark.parametrize(
    "text",
    [
        # two unrelated numbers: no result before the share, or no pointing back
        "The vocabulary has 32,000 entries.\nThat is 0.5% of the 6.74B total.\n",
        "Sum: 3 + 4 = 7\nAbout 30% of the 6.74B total sits in the embeddings.\n",
        # a percentage of something else (no total word), or of a whole with its part stated
        "Weights: 64 × 16 × 8192 = 8,388,608\nThat is 12% of the 70M tokens we tune on.\n",
        "- 权重：64 × 16 × 8192 = 8,388,608；\n- 这占 7000 万训练 token 的 12%。\n",
        "- 每层 3 × 4096 = 12,288；\n- 32 层合计 393,216，占全部参数的 0.01%。\n",
        # a bound, not a value
        "Weights: 64 × 16 × 8192 = 8,388,608\nThat is under 0.2% of the 6.74B total.\n",
        # the result is not the last figure before the share
        "Weights: 64 × 16 × 8192 = 8,388,608 over 32 layers\nThat is 0.12% of the 6.74B total.\n",
        # a part larger than the whole
        "Weights: 4 × 2,000 = 8,000\nThat is 50% of the 4K total.\n",
        # a heading between the result and the share
        "Weights: 64 × 16 × 8192 = 8,388,608\n\n## Next\n\nThat is 0.12% of the 6.74B total.\n",
    ],
)
def test_no_draft_without_a_stated_share_of_the_result(text: str) -> None:
    assert _drafted(text) == []
