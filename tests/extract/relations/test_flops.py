"""Relation flops: forward 2·N per token, training 6·N per token and 6·N·D in all, from first
principles (Kaplan et al. 2020 §2.1) and published budgets (GPT-3: 3.14e23 FLOPs, Brown et al.
2020 Table D.1)."""

from __future__ import annotations

import pytest

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


THIRTEEN = "## Serving\n\nWe serve a 13B model.\n\n"
# a forward pass is 2 × 13e9 = 26e9 FLOPs per token; 6 × 13e9 = 78e9 counts training's backward


def test_one_generated_token_is_a_forward_pass_in_prefixed_flop_units(scan: Scan) -> None:
    for line in (
        "Generating one token costs about 26 GFLOPs.",
        "Each new token of the 13B model costs 2 × 13B = 26 GFLOPs at inference.",
        "13B 模型生成一个 token 约 26 GFLOPs。",
    ):
        assert [f.verdict for f in scan(THIRTEEN + line + "\n")] == ["pass"], line
    six = "Generating one token costs $6 \\times 13\\text{B} = 78$ GFLOPs.\n"
    (finding,) = scan(THIRTEEN + six)
    assert finding.verdict == "fail" and finding.line == 5
    assert "2 × N" in finding.message and "not 78 GFLOP" in finding.message
    assert "6·N, which counts the backward pass" in finding.message


def test_generating_a_number_of_tokens_costs_two_n_per_token(scan: Scan) -> None:
    right = "Generating a 500-token answer takes ≈ 1.3e13 FLOPs."  # 2 × 13e9 × 500
    assert [f.verdict for f in scan(THIRTEEN + right + "\n")] == ["pass"]
    (finding,) = scan(THIRTEEN + "Generating a 500-token answer takes ≈ 3.9e13 FLOPs.\n")
    assert finding.verdict == "fail" and "2 × N × D" in finding.message
    assert "tokens 500 (line 5)" in finding.message and "6·N·D" in finding.message


def test_a_sentence_begun_on_the_previous_line_names_the_model_and_the_tokens(scan: Scan) -> None:
    lead = "## Cost\n\nFor the 3B model, decoding a 2,000-token reply costs about\n"
    right = lead + "$2 \\times 3\\times10^9 \\times 2000 = 1.2\\times10^{13}$ FLOPs.\n"
    assert [f.verdict for f in scan(right)] == ["pass"]
    (finding,) = scan(lead + "$6 \\times 3\\times10^9 \\times 2000 = 3.6\\times10^{13}$ FLOPs.\n")
    assert finding.verdict == "fail" and finding.line == 4
    assert "params 3B (line 3)" in finding.message and "tokens 2000 (line 3)" in finding.message
    assert "3.6\\times10^{13}" in finding.quote


def test_generation_without_one_token_count_or_as_a_throughput_is_not_drafted(
    scan: Scan,
) -> None:
    for line in (
        "Generating tokens costs 26 GFLOPs.",  # how many tokens?
        "Generating a 512-token reply to a 1,024-token prompt costs 4e13 FLOPs.",  # which?
        "Generation on one GPU runs at 40 TFLOPS.",
        "Generating 100 tokens per second needs 2.6e12 FLOPs.",
        "Generating 500 tokens for each of 8 users takes ≈ 1.04e14 FLOPs.",  # × 8 users
    ):
        assert scan(THIRTEEN + line + "\n") == [], line


def test_a_count_the_line_multiplies_is_its_n_and_a_lead_in_names_the_pass(scan: Scan) -> None:
    # the line's own 13.4B (not the 13B of the model's name); the lead-in says forward: 2·N
    lead = "## Cost\n\nWe serve a 13B model. Forward pass, per token:\n\n"
    right = lead + "- dense: $2 \\times 13.4\\text{B} \\approx 26.8$ GFLOPs / token\n"
    assert [f.verdict for f in scan(right)] == ["pass"]
    (finding,) = scan(lead + "- dense: $6 \\times 13.4\\text{B} \\approx 80.4$ GFLOPs / token\n")
    assert finding.verdict == "fail" and "params 13.4B (line 5)" in finding.message
    assert "forward FLOPs ≈ 2·N per token" in finding.message


def test_a_mixture_of_experts_computes_with_its_active_parameters(scan: Scan) -> None:
    # Mixtral 8x7B: 12.9B active of 46.7B (Jiang et al. 2024): 2 × 12.9B = 25.8 GFLOPs a token
    lead = "## MoE\n\nForward FLOPs per token:\n\n"
    right = lead + "- Mixtral 8x7B: $2 \\times 12.9\\text{B} \\approx 25.8$ GFLOPs / token\n"
    assert [f.verdict for f in scan(right)] == ["pass"]
    (finding,) = scan(
        lead + "- Mixtral 8x7B: $2 \\times 46.7\\text{B} \\approx 93.4$ GFLOPs / token\n"
    )
    assert finding.verdict == "fail" and "active_params 12.9B" in finding.message
    stated = "## MoE\n\nIt has 40B parameters, 10B active.\n\n"
    (wrong,) = scan(stated + "Each token costs 2 × 40B = 80 GFLOPs in the forward pass.\n")
    assert wrong.verdict == "fail" and "20 GFLOP" in wrong.message
    dense = (
        lead + "- Mixtral 8x7B, if it were dense: $2 \\times 46.7\\text{B} = 93.4$ GFLOPs / token\n"
    )
    assert scan(dense) == []


def test_a_published_size_that_is_only_a_name_is_not_a_count(scan: Scan) -> None:
    # "Mistral 7B" has 7.24B parameters; its name's 7B is not N to three figures: the line's
    # own 7.2B is
    found = scan("# Dense\n\n- Mistral 7B: $2 \\times 7.2\\text{B} \\approx 14.4$ GFLOPs / token\n")
    assert [f.verdict for f in found] in ([], ["pass"])
    assert all("published" not in f.message for f in found)


def test_a_total_from_another_flops_figure_is_not_per_token(scan: Scan) -> None:
    # 2 × 7B = 14 GFLOPs per token; 1,000 tokens are 14 TFLOPs, a product of that figure
    text = "# Inference\n\nA 7B model: 14 GFLOPs per token, and 14 GFLOPs × 1,000 tokens"
    text += " = 14 TFLOPs.\n"
    assert [f for f in scan(text) if "tflops" in f.id.lower()] == []


def test_a_model_named_on_an_earlier_line_does_not_replace_the_count_the_line_multiplies(
    scan: Scan,
) -> None:
    # A list that names a mixture of experts (37B active of 671B) and then works with another
    # model's active count, in scientific notation: 2 × 12.9 × 10^9 = 2.58 × 10^10 is the line's
    # own arithmetic. The total (671B) multiplied instead is still the mistake named.
    lead = (
        "## MoE\n\n"
        "1. DeepSeek-V3 has 671B parameters, 37B active per token.\n"
        "2. Inference memory counts all parameters; compute per token counts the active ones:\n"
    )
    right = lead + "   about $2 \\times 12.9 \\times 10^{9} = 2.58 \\times 10^{10}$ FLOPs/token.\n"
    assert "fail" not in [f.verdict for f in scan(right)]
    wrong = lead + "   about $2 \\times 671 \\times 10^{9} = 1.34 \\times 10^{12}$ FLOPs/token.\n"
    failing = [f for f in scan(wrong) if f.verdict == "fail"]
    assert failing and "active" in failing[0].message


# 6 × 350M × 20B = 4.2e19; 2 × 350M × 20B = 1.4e19 is the forward pass only.
@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("Training FLOPs ≈ 6 × N × D = 6 × 350M × 20B ≈ 4.2 × 10^19.", "pass"),
        ("Training FLOPs ≈ 2 × N × D = 2 × 350M × 20B ≈ 1.4 × 10^19.", "fail"),
        ("The training FLOPs are about 4.2e19.", "pass"),
        ("The training FLOPs are about 1.4e19.", "fail"),
    ],
)
def test_training_flops_named_before_a_value_without_its_unit(
    scan: Scan, line: str, verdict: str
) -> None:
    text = f"## Budget\n\nA 350M-parameter model is trained on D = 20B tokens.\n\n{line}\n"
    assert [f.verdict for f in scan(text) if "flops" in f.id] == [verdict]


def test_the_rule_in_symbols_after_a_value_is_not_a_statement(scan: Scan) -> None:
    text = "## Budget\n\nA 350M-parameter model is trained on D = 20B tokens.\n\n"
    text += "Training FLOPs are about 1.4e19, i.e. ≈ 6N per token.\n"  # left alone
    assert [f for f in scan(text) if "flops" in f.id and f.verdict == "fail"] == []
