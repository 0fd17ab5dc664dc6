"""Recogniser ``laws``: a size law stated next to a model table (snippets written for these
tests; configurations from the LLaMA 2 paper, Touvron et al. 2023, and GPT-3, Brown et al.
2020, Table 2.1)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import laws
from tests.extract.conftest import ScanText

TABLE = (
    "| model | layers | d_model | heads |\n|---|---|---|---|\n"
    "| GPT-3 175B | 96 | 12288 | 96 |\n| LLaMA-2 7B | 32 | 4096 | 32 |\n"
    "| LLaMA-2 13B | 40 | 5120 | 40 |\n| LLaMA-2 70B | 80 | 8192 | 64 |\n"
)


def _drafted(text: str) -> list[object]:
    return [d.fields["law"] for d in laws.recognize(parse_document(text))]


def _law_findings(scan_text: ScanText, text: str) -> list[tuple[str, str, str]]:
    return [(f.quote, f.verdict, f.message) for f in scan_text(text) if f.kind == "scaling"]


def test_the_standard_law_passes_on_dense_models(scan_text: ScanText) -> None:
    # 12·L·d²: 173.9B, 6.44B, 12.6B, 64.4B against 175B, 7B, 13B, 70B: within 10%
    text = "## Sizes\n\n" + TABLE + "\nRule of thumb: params ≈ 12 × layers × d_model².\n"
    assert [(q, v) for q, v, _ in _law_findings(scan_text, text)] == [
        ("params ≈ 12 × layers × d_model²", "pass")
    ]


def test_a_law_linear_in_width_fails(scan_text: ScanText) -> None:
    # params/(L·d): 148K, 53K, 63K, 107K — no constant
    text = "## 规模\n\n" + TABLE + "\n可以粗略地认为参数量 ∝ 层数 × 隐藏维度。\n"
    found = _law_findings(scan_text, text)
    assert [(q, v) for q, v, _ in found] == [("参数量 ∝ 层数 × 隐藏维度", "fail")]
    assert "does not hold" in found[0][2]


def test_no_draft_across_sections_without_columns_or_on_small_and_moe_rows() -> None:
    elsewhere = "## Sizes\n\n" + TABLE + "\n## Later\n\nparams ≈ 12 × layers × d_model²\n"
    no_column = "## Sizes\n\n" + TABLE + "\nparams ≈ 2 × vocab × d_model\n"
    small_and_moe = (
        "## Sizes\n\n| model | layers | d_model |\n|---|---|---|\n| GPT-2 124M | 12 | 768 |\n"
        "| Mixtral 8x7B | 32 | 4096 |\n| LLaMA-2 7B | 32 | 4096 |\n\nparams ∝ layers × d_model\n"
    )
    for text in (elsewhere, no_column, small_and_moe):
        assert _drafted(text) == [], text
