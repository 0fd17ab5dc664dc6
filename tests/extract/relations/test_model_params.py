"""Relation model_params: 12·L·d² + embeddings (GPT), SwiGLU + GQA (LLaMA), MoE total/active,
from published configurations (Radford et al. 2019; Touvron et al. 2023; Jiang et al. 2024)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

GPT2 = (
    "# A GPT-style decoder\n\nIt has 12 layers, hidden size 768, a vocabulary of 50,257 tokens "
    "and a context length of 1024, with GELU.\n\n"
)
LLAMA = (
    "# A LLaMA-style decoder (SwiGLU, RoPE)\n\n```json\n"
    '{"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,\n'
    ' "intermediate_size": 11008, "vocab_size": 32000}\n```\n\n'
)
MOE = (
    "# A MoE decoder with SwiGLU experts\n\n```yaml\nnum_hidden_layers: 32\nhidden_size: 4096\n"
    "num_attention_heads: 32\nnum_key_value_heads: 8\nintermediate_size: 14336\n"
    "num_local_experts: 8\nnum_experts_per_tok: 2\nvocab_size: 32000\n```\n\n"
)


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text)]


def test_gpt_style_counts_under_their_conventions(scan: Scan) -> None:
    assert _verdicts(scan, GPT2 + "In total the model has 124M parameters.\n") == ["pass"]
    # 124,439,808 with biases and LayerNorms (the released GPT-2 small)
    assert _verdicts(scan, GPT2 + "In total the model has 124.44M parameters.\n") == ["pass"]
    # 12 · 12 · 768² = 84.9M without embeddings
    assert _verdicts(scan, GPT2 + "Non-embedding parameters: ≈ 85M\n") == ["pass"]
    (wrong,) = scan(GPT2 + "In total the model has 350M parameters.\n")
    assert wrong.verdict == "fail" and "layers 12 (line 3)" in wrong.message


def test_gpt_style_per_layer(scan: Scan) -> None:
    # 12 · 768² = 7,077,888
    assert _verdicts(scan, GPT2 + "Per layer that is about 7.1M parameters.\n") == ["pass"]
    assert _verdicts(scan, GPT2 + "Per layer that is about 2.4M parameters.\n") == ["fail"]


def test_llama_style_counts(scan: Scan) -> None:
    # 32 · (4 · 4096² + 3 · 4096 · 11008) + 2 · 32000 · 4096 = 6,738,149,376
    assert _verdicts(scan, LLAMA + "Total parameters: 6.74B\n") == ["pass"]
    assert _verdicts(scan, LLAMA + "Total parameters ≈ 7B\n") == ["pass"]
    (wrong,) = scan(LLAMA + "Total parameters: 8.1B\n")
    assert wrong.verdict == "fail" and "SwiGLU" in wrong.message


def test_moe_total_and_active(scan: Scan) -> None:
    # total 46,702,792,704; active per token 12,879,921,152
    assert _verdicts(scan, MOE + "Total parameters: 46.7B\n") == ["pass"]
    assert _verdicts(scan, MOE + "Active parameters per token: 12.9B\n") == ["pass"]
    (dense,) = scan(MOE + "Active parameters per token: 7B\n")
    assert dense.verdict == "fail" and "top-k" in dense.message


def test_counts_of_parts_or_without_a_configuration_are_left_alone(scan: Scan) -> None:
    assert scan(GPT2 + "The embedding parameters: 38.6M\n") == []
    # one layer's attention (4 · 768² = 2.36M) is attention_params's, not a model count
    (attention,) = scan(GPT2 + "The attention parameters per layer: 2.4M\n")
    assert attention.id.startswith("relations-attention-params") and attention.verdict == "pass"
    assert scan("# x\n\nThe model has 124M parameters.\n") == []


def test_a_count_that_does_not_name_itself_or_is_a_published_size(scan: Scan) -> None:
    assert scan(GPT2 + "Anything above ~13B is out of reach.\n") == []  # not said to be params
    assert scan(GPT2 + "That is 140 billion bytes of parameters.\n") == []
    # GPT-2's paper prints 117M for the 124M checkpoint: a published size, not a formula's
    assert scan("# GPT-2 small\n\nGPT-2 small: total parameters: 117M\n") == []


def test_thresholds_are_not_counts(scan: Scan) -> None:
    assert scan(GPT2 + "Anything under 1B parameters fits on a laptop.\n") == []


def test_a_model_named_elsewhere_does_not_size_another_count(scan: Scan) -> None:
    text = "# Budget\n\nWe train Llama 2 7B.\n\nChinchilla: 70B parameters on 1.4T tokens.\n"
    assert scan(text) == []


def test_a_model_named_after_the_count_does_not_size_it(scan: Scan) -> None:
    # The 1.8B belongs to the image encoder; Llama 2 7B (32 layers, d 4096) is named after it.
    line = "The recipe: a ViT-style encoder (1.8B params), a small adapter and Llama 2 7B.\n"
    assert scan("# A vision-language model\n\n" + line) == []
    # Named before its count, the published configuration sizes it:
    # 4 · 4096² + 3 · 4096 · 11008 = 202,375,168 per layer.
    named = "Per layer, Llama 2 7B holds about 202M parameters.\n"
    assert _verdicts(scan, "# A vision-language model\n\n" + named) == ["pass"]


def test_a_count_followed_by_another_configuration_is_left_alone(scan: Scan) -> None:
    text = "# Training\n\nhidden size 768, vocabulary of 50,257 tokens, context 1024.\n\n"
    line = "A real run would train 124M parameters; here a tiny model of 2 layers.\n"
    assert scan(text + line) == []


# 12·L·d² (Kaplan et al. 2020): 12 × 12 × 768² = 84.9M; 12 × 24 × 1024² = 302M;
# 12 × 24 × 2048² = 1,208M
ROWS = "# Sizes\n\n| config | layers | d_model | params (non-embedding) |\n|---|--:|--:|--:|\n"


def test_a_table_row_under_a_parameters_header(scan: Scan) -> None:
    good = ROWS + "| small | 12 | 768 | 85M |\n| medium | 24 | 1024 | 302M |\n"
    assert _verdicts(scan, good) == ["pass", "pass"]
    (wrong,) = [f for f in scan(good + "| large | 24 | 2048 | 800M |\n") if f.verdict == "fail"]
    assert "1208M" in wrong.message and "layers 24 (line 7)" in wrong.message


def test_rows_without_a_scaled_count_or_under_a_memory_header_are_left_alone(scan: Scan) -> None:
    assert scan(ROWS + "| small | 12 | 768 | 85 |\n") == []  # no scale: 85 of what
    memory = "# Sizes\n\n| config | layers | d_model | params (GB) |\n|---|--:|--:|--:|\n"
    assert scan(memory + "| small | 12 | 768 | 0.2 |\n") == []
    # the vocabulary is unknown, so a total with embeddings cannot be counted
    total = "# Sizes\n\n| config | layers | d_model | params |\n|---|--:|--:|--:|\n"
    assert scan(total + "| small | 12 | 768 | 124M |\n") == []
