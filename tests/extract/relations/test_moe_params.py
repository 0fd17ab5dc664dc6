"""Relation moe_params: active = shared + k·X and total = shared + E·X (Fedus et al. 2022;
Jiang et al. 2024), or from a LLaMA-style configuration with k (or E) SwiGLU experts."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

TOY = (
    "# A toy MoE\n\nIt has 32 experts of 0.25B each, top-4 routing, and 2B shared parameters "
    "(attention, router, embeddings).\n\n"
)
# active 2 + 4 × 0.25 = 3B; total 2 + 32 × 0.25 = 10B; total × k/E = 1.25B leaves out sharing
MIXTRAL_LIKE = (
    "# A MoE decoder with SwiGLU experts\n\n```yaml\nnum_hidden_layers: 32\nhidden_size: 4096\n"
    "num_attention_heads: 32\nnum_key_value_heads: 8\nintermediate_size: 14336\n"
    "num_local_experts: 8\nnum_experts_per_tok: 2\nvocab_size: 32000\n```\n\n"
)
# per layer: attention 41,943,040, one expert 176,160,768, router 32,768; embeddings 2 × V × d
# active 12,879,659,008 (≈ 12.9B); total 46,702,526,464 (≈ 46.7B); 46.7 × 2/8 ≈ 11.7B


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text) if "moe" in f.id]


def test_shared_parameters_plus_k_experts(scan: Scan) -> None:
    assert _verdicts(scan, TOY + "The active count per token is about 3B.\n") == ["pass"]
    assert _verdicts(scan, TOY + "Its total is 2 + 32 × 0.25 = 10B.\n") == ["pass"]
    (wrong,) = [f for f in scan(TOY + "The active count per token is 10 × 4/32 ≈ 1.25B.\n")]
    assert wrong.verdict == "fail"
    assert (
        "shared + top_k × expert" in wrong.message and "shared_params 2B (line 3)" in wrong.message
    )


def test_a_wrapped_sentence_and_latex(scan: Scan) -> None:
    text = (
        TOY + "Scaling the total, the active count per token would be\n$10 \\times 4/32 = 1.25$B.\n"
    )
    assert _verdicts(scan, text) == ["fail"]


def test_from_the_configuration(scan: Scan) -> None:
    good = MIXTRAL_LIKE + "Per token the active count is ≈ 12.9B.\n"
    assert _verdicts(scan, good) == ["pass"]
    (wrong,) = scan(
        MIXTRAL_LIKE
        + "So the active count is $46.7\\text{B} \\times 2/8 \\approx 11.7\\text{B}$.\n"
    )
    assert wrong.verdict == "fail" and "12.88B" in wrong.message
    code = (
        MIXTRAL_LIKE
        + "```python\ntotal = L * (attn + E * mlp + router) + 2 * V * d  # 46.7B\n```\n"
    )
    assert _verdicts(scan, code) == ["pass"]
    assert _verdicts(scan, code.replace("# 46.7B", "# 42.9B")) == ["fail"]


def test_parts_other_quantities_and_dense_models_are_left_alone(scan: Scan) -> None:
    assert _verdicts(scan, TOY + "The experts' total is 8B.\n") == []
    assert _verdicts(scan, TOY + "The 4 active experts hold 1B parameters in total.\n") == []
    assert _verdicts(scan, TOY + "In bf16 the total is 20 GB.\n") == []
    assert (
        _verdicts(scan, "# Dense\n\n32 layers, hidden size 4096.\n\nThe active count is 6.7B.\n")
        == []
    )


def test_thresholds_layers_labelled_parts_and_uncounted_designs_are_left_alone(
    scan: Scan,
) -> None:
    assert _verdicts(scan, TOY + "MoE only pays off above a threshold (~6B active params).\n") == []
    per_block = (
        MIXTRAL_LIKE + "- MoE blocks: attention + 8 experts + norm. Total ~1.45B per block.\n"
    )
    assert _verdicts(scan, per_block) == []
    part = MIXTRAL_LIKE + "- MLP active: 2 experts per layer. Total: 32 × 352M = ~11.3B.\n"
    assert _verdicts(scan, part) == []
    # shared experts and latent attention: the configuration formula does not count them
    shared = MIXTRAL_LIKE + "Each layer adds 1 shared expert. The active count is ≈ 14.1B.\n"
    assert _verdicts(scan, shared) == []
