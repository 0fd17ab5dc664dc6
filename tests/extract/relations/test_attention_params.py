"""Relation attention_params: 2·d·h·d_head + 2·d·n_kv·d_head per layer (Vaswani et al. 2017;
Ainslie et al. 2023 for GQA), 4·d² under multi-head attention."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

# Mistral 7B's published shape: d 4096, 32 heads of 128, 8 KV heads.
GQA = (
    "# Grouped-query attention\n\n```json\n"
    '{"hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8}\n```\n\n'
)
# Q, O: 2 × 4096 × 4096 = 33,554,432; K, V: 2 × 4096 × 1024 = 8,388,608; sum 41,943,040
TABLE = "| piece (one layer) | parameters |\n|---|---:|\n| attention total | {} |\n"


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text)]


def test_a_table_row_of_one_layers_attention_under_gqa(scan: Scan) -> None:
    assert _verdicts(scan, GQA + TABLE.format("41,943,040")) == ["pass"]
    (wrong,) = scan(GQA + TABLE.format("67,108,864"))  # 4·d²: K and V given all 32 heads
    assert wrong.verdict == "fail"
    assert "41,943,040" in wrong.message and "n_kv = 8" in wrong.message
    assert "kv_heads 8 (line 4)" in wrong.message


def test_a_header_in_millions_scales_the_cell(scan: Scan) -> None:
    table = "| piece | parameters (M) |\n|---|---:|\n| attention per layer | {} |\n"
    assert _verdicts(scan, GQA + table.format("41.9")) == ["pass"]
    assert _verdicts(scan, GQA + table.format("67.1")) == ["fail"]


def test_prose_and_latex_under_multi_head_attention(scan: Scan) -> None:
    mha = "# MHA\n\nhidden size 1024 and 16 heads.\n\n"  # 4 × 1024² = 4,194,304
    good = "The attention of one layer holds $4 \\times 1024^2 = 4{,}194{,}304$ weights.\n"
    assert _verdicts(scan, mha + good) == ["pass"]
    # GPT-style biases: + 1024 + 2·1024 + 1024 = 4,198,400
    assert _verdicts(scan, mha + "Attention per layer with biases: 4,198,400 parameters.\n") == [
        "pass"
    ]
    assert _verdicts(scan, mha + "Attention per layer: 3.1M parameters.\n") == ["fail"]


def test_not_drafted_without_one_layer_kv_heads_or_for_other_quantities(scan: Scan) -> None:
    assert scan(GQA + "Attention over all 32 layers: 1.34B parameters.\n") == []
    assert (
        scan(GQA + "| piece | parameters |\n|---|---:|\n| 32 × attention | 1,342,177,280 |\n") == []
    )
    # GQA named, but how many KV heads is never said
    vague = "# GQA\n\nhidden size 4096, 32 heads, grouped-query attention.\n\n"
    assert scan(vague + "Attention per layer: 41,943,040 parameters.\n") == []
    assert scan(GQA + "The KV cache of attention per layer is 4,096 bytes per token.\n") == []
    assert scan(GQA + "Attention per layer with MLA (~144M).\n") == []


def test_the_sum_of_a_layers_parts_is_not_its_attention(scan: Scan) -> None:
    mha = "# MHA\n\nhidden size 1024 and 16 heads.\n\n"  # attention 4 × 1024² = 4,194,304
    # the attention is one labelled term; the count the line ends with is the whole layer's
    per_layer = "Per layer: experts 25,165,824 + attention 4,194,304 = 29,360,128 weights.\n"
    assert scan(mha + per_layer) == []
    assert scan(mha + "每层：专家 25,165,824 + 注意力 4,194,304 = 29,360,128 个参数。\n") == []
    # a sum that is all attention is still its count, and a wrong one still fails
    qkvo = "The attention of one layer holds 2 × 1024² + 2 × 1024² = 4,194,304 weights.\n"
    assert _verdicts(scan, mha + qkvo) == ["pass"]
    assert _verdicts(scan, mha + qkvo.replace("4,194,304", "3,145,728")) == ["fail"]


def test_a_per_layer_count_times_the_layers_and_latent_attention_are_left_alone(
    scan: Scan,
) -> None:
    assert scan(GQA + "- Attention: 42M per layer × 32 = 1.34B (every layer).\n") == []
    # DeepSeek-V3's printed configuration: multi-head latent attention, not Q, K, V, O of d × d
    mla = (
        "# Config\n\n```\nhidden_size: 7168\nnum_hidden_layers: 61\nnum_attention_heads: 128\n"
        "vocab_size: 129280\n```\n\n"
    )
    assert scan(mla + "Attention per layer: 2.1M parameters.\n") == []


def test_what_lora_adds_to_the_attention_projections_is_not_their_weights(scan: Scan) -> None:
    lora = "# LoRA\n\nhidden size 4096; LoRA adds r(d_in + d_out) per matrix, r = 64.\n\n"
    findings = scan(lora + "- per layer, 4 attention projections: 4 × 64 × 8192 = 2,097,152\n")
    assert [f.id for f in findings if "attention" in f.id] == []


def test_published_configurations_from_first_principles(scan: Scan) -> None:
    # LLaMA-2 70B (Touvron et al. 2023): d 8192, 64 heads of 128, 8 KV heads
    # 2 × 8192 × 8192 + 2 × 8192 × 1024 = 150,994,944
    llama = "# LLaMA-2 70B\n\nhidden size 8192, 64 heads, 8 KV heads.\n\n"
    assert _verdicts(scan, llama + "Attention per layer: ≈ 151M parameters.\n") == ["pass"]
    assert _verdicts(scan, llama + "Attention per layer: ≈ 268M parameters.\n") == ["fail"]  # 4·d²
    # BERT-base (Devlin et al. 2019): 4 × 768² + 4 × 768 = 2,362,368; + LayerNorm 2,363,904
    bert = "# BERT-base\n\nhidden size 768 and 12 heads.\n\n"
    assert _verdicts(scan, bert + "One layer's attention: 2,363,904 parameters.\n") == ["pass"]
