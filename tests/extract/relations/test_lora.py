"""Relation lora: r · (d_in + d_out) per adapted matrix (Hu et al. 2021)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

BASE = (
    "# LoRA on a small model\n\n"
    "hidden size 1024, 24 layers; LoRA rank r = 16 on q_proj and v_proj.\n\n"
)
# per matrix 16 × 2048 = 32,768; per layer 65,536; all layers 1,572,864


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text)]


def test_total_per_layer_and_per_matrix(scan: Scan) -> None:
    assert _verdicts(scan, BASE + "LoRA trains 1.57M parameters.\n") == ["pass"]
    assert _verdicts(scan, BASE + "Per layer LoRA adds 65,536 parameters.\n") == ["pass"]
    assert _verdicts(scan, BASE + "Each matrix gets 32,768 LoRA parameters.\n") == ["pass"]


def test_a_wrong_count_fails_with_the_formula_and_inputs(scan: Scan) -> None:
    (finding,) = scan(BASE + "LoRA trains 3.1M parameters.\n")
    assert finding.verdict == "fail"
    assert "rank × (d_in + d_out)" in finding.message
    assert "lora_rank 16 (line 3)" in finding.message and "W_q, W_v" in finding.message


def test_grouped_query_attention_narrows_k_and_v(scan: Scan) -> None:
    gqa = (
        "# LoRA\n\nhidden size 2048, 16 layers, 8 KV heads, head_dim 64; LoRA rank 8 on "
        "q_proj and k_proj.\n\n"
    )
    # q: 8 × (2048 + 2048) = 32,768; k: 8 × (2048 + 512) = 20,480; per layer 53,248; × 16
    assert _verdicts(scan, gqa + "LoRA adds 851,968 trainable parameters.\n") == ["pass"]
    assert _verdicts(scan, gqa + "LoRA adds 700,000 trainable parameters.\n") == ["fail"]


def test_not_drafted_without_rank_width_or_lora_words(scan: Scan) -> None:
    assert scan("# x\n\nhidden size 1024 on q_proj.\n\nLoRA trains 1.57M parameters.\n") == []
    assert scan(BASE + "The base model has 350M parameters.\n") == []


# The section defines r only through LoRA's formula; widths from "hidden size".
FORMULA = (
    "# Adapters\n\nLoRA adds B (d_out × r) and A (r × d_in) to a frozen weight, so "
    "r · (d_in + d_out) parameters per matrix.\nThe model has hidden size 2048. Take r = 32.\n\n"
)
# one 2048 × 2048 matrix: 32 × 4096 = 131,072 (32 × 2048 = 65,536 counts A alone)


def test_r_is_the_rank_where_the_section_writes_the_lora_formula(scan: Scan) -> None:
    text = FORMULA + "A single adapted matrix then gets 32 × 4096 = 131,072 new parameters.\n"
    assert _verdicts(scan, text) == ["pass"]
    (wrong,) = scan(
        FORMULA + "A single adapted matrix then gets 32 × 2048 = 65,536 new parameters.\n"
    )
    assert wrong.verdict == "fail" and wrong.expected is not None
    assert (
        "131,072" in wrong.message and "A (r × d_in) and B (d_out × r) both count" in wrong.message
    )
    assert "lora_rank 32 (line 4)" in wrong.message


def test_a_matrix_shape_in_the_sentence_and_latex_digits(scan: Scan) -> None:
    zh = (
        "## LoRA\n\nLoRA 给矩阵加上 $BA$，新增参数 $r(d_{in} + d_{out})$，取 $r = 8$。\n\n"
        "- 一个 $1024 \\times 3072$ 的投影矩阵，LoRA 参数为 $8 \\times 1024 = 8{,}192$；\n"
        "- 一个 $1024 \\times 3072$ 的投影矩阵，LoRA 参数为 $8 \\times 4096 = 32{,}768$；\n"
    )
    # 8 × (1024 + 3072) = 32,768; 8 × 1024 counts only A
    verdicts = _verdicts(scan, zh)
    assert verdicts == ["fail", "pass"]


def test_ffn_matrices_and_the_frozen_model_are_not_lora_counts(scan: Scan) -> None:
    text = (
        FORMULA + "Each layer's three FFN matrices get 32 × (2048 + 5632) = 245,760 parameters.\n"
    )
    assert scan(text) == []
    assert scan(FORMULA + "The frozen base model keeps its 1.3B parameters.\n") == []
    # r is not the rank where the section never writes LoRA's formula with it
    undefined = "# Fit\n\nhidden size 2048; LoRA helps. r = 32.\n\nOne matrix gets 65,536 params.\n"
    assert scan(undefined) == []


def test_the_original_matrix_beside_the_adapter_is_not_a_lora_count(scan: Scan) -> None:
    """A sentence that compares the adapter with the weight it sits beside counts the weight's
    own d_in × d_out parameters: no LoRA reading applies to it."""
    zh = (
        "## LoRA\n\nLoRA 给矩阵加上 $BA$，新增参数 $r(d_{in} + d_{out})$，"
        "取 $r = 8$，隐藏维度 1024。\n\n"
        "- 每个矩阵：$8 \\times (1024 + 1024) = 16{,}384$\n\n"
        "而一个原始的 $1024 \\times 1024$ 矩阵就有 1,048,576 个参数。\n"
    )
    assert "fail" not in _verdicts(scan, zh)
    en = FORMULA + "One original 2048 × 2048 matrix holds 4,194,304 weights.\n"
    assert "fail" not in _verdicts(scan, en)
    # the same sentence shape about the adapter itself is still checked (A alone: 65,536)
    wrong = FORMULA + "A single adapted matrix then gets 32 × 2048 = 65,536 new parameters.\n"
    assert "fail" in _verdicts(scan, wrong)
