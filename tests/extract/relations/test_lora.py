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
