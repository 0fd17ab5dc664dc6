"""Relation flops: forward 2·N per token, training 6·N per token and 6·N·D in all, from first
principles (Kaplan et al. 2020 §2.1) and published budgets (GPT-3: 3.14e23 FLOPs, Brown et al.
2020 Table D.1)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

SMALL = "Our model has 350M parameters, hidden size 1024 and a vocabulary of 50257 tokens.\n\n"
# 2 × 350M = 700M per token; without the embeddings 2 × (350M − 51.5M) = 597M; 6 × 350M = 2.1B


def test_forward_flops_per_token_hold_under_either_count_of_n(scan: Scan) -> None:
    assert [f.verdict for f in scan(SMALL + "Forward FLOPs per token ≈ 700M.\n")] == ["pass"]
    assert [f.verdict for f in scan(SMALL + "前向计算每个 token 约 600M FLOPs。\n")] == ["pass"]


def test_forward_flops_off_by_far_fail_with_the_formula_and_where_n_was_read(scan: Scan) -> None:
    (finding,) = scan(SMALL + "Forward FLOPs per token ≈ 35M\n")
    assert finding.verdict == "fail"
    assert "2 × N" in finding.message and "params 350M (line 1)" in finding.message
    assert finding.line == 3


def test_training_per_token_and_in_all(scan: Scan) -> None:
    assert [f.verdict for f in scan(SMALL + "Training FLOPs per token ≈ 2.1B FLOPs\n")] == ["pass"]
    gpt3 = "GPT-3 has 175B parameters and was trained on 300B tokens.\n\n"
    assert [f.verdict for f in scan(gpt3 + "Training compute ≈ 3.1e23 FLOPs in all.\n")] == ["pass"]
    (counted_as_forward,) = scan(gpt3 + "Training needs about 1.05e23 FLOPs.\n")  # 2·N·D
    assert counted_as_forward.verdict == "fail"
    assert "6 × N × D" in counted_as_forward.message


def test_throughputs_rules_and_unqualified_flops_are_not_drafted(scan: Scan) -> None:
    for line in (
        "An A100 peaks at 312 TFLOPS.",
        "Training FLOPs per token ≈ 6N.",
        "The model needs 700M FLOPs.",  # forward or training? the text does not say
        "Backward FLOPs per token alone ≈ 1.4B FLOPs.",
    ):
        assert scan(SMALL + line + "\n") == [], line


def test_flops_per_token_that_name_neither_pass_are_read_both_ways(scan: Scan) -> None:
    assert [f.verdict for f in scan(SMALL + "FLOPs per token ≈ 2.1B\n")] == ["pass"]  # 6·N
    assert [f.verdict for f in scan(SMALL + "每个 token 的 FLOP ≈ 700M\n")] == ["pass"]  # 2·N
    (finding,) = scan(SMALL + "Total FLOP per token ≈ 6M FLOP\n")
    assert finding.verdict == "fail" and "both tried" in finding.message


def test_a_mixture_of_experts_computes_with_its_active_parameters(scan: Scan) -> None:
    # Mixtral 8x7B: 46.7B total, 12.9B active (Jiang et al. 2024): 2 × 12.9B = 25.8 GFLOPs
    good = (
        "# MoE compute\n\n- Mixtral 8x7B: $2 \\times 12.9\\text{B} \\approx 25.8$ GFLOPs / token\n"
    )
    (finding,) = scan(good)
    assert finding.verdict == "pass"
    (wrong,) = scan(good.replace("12.9", "46.7").replace("25.8", "93.4"))
    assert wrong.verdict == "fail" and "25.8 GFLOPs" in wrong.message
    assert "active parameters" in wrong.message and "active_params 12.9B" in wrong.message


def test_a_published_size_that_is_only_a_name_is_not_a_count(scan: Scan) -> None:
    # "Mistral 7B" has 7.24B parameters; its name's 7B is not N to three figures
    assert (
        scan("# Dense\n\n- Mistral 7B: $2 \\times 7.2\\text{B} \\approx 14.4$ GFLOPs / token\n")
        == []
    )


def test_a_total_from_another_flops_figure_is_not_per_token(scan: Scan) -> None:
    # 2 × 7B = 14 GFLOPs per token; 1,000 tokens are 14 TFLOPs, a product of that figure
    text = "# Inference\n\nA 7B model: 14 GFLOPs per token, and 14 GFLOPs × 1,000 tokens"
    text += " = 14 TFLOPs.\n"
    assert [f for f in scan(text) if "tflops" in f.id.lower()] == []
