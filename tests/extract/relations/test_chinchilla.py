"""Relation chinchilla: compute-optimal tokens ≈ 20·N (Hoffmann et al. 2022, Table 3) and the
ratio D_opt/N_opt of a lesson's own formulas (from first principles: equal powers of C cancel)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan


def test_the_ratio_of_formulas_with_equal_powers_is_the_ratio_of_coefficients(scan: Scan) -> None:
    # G = 1/√20 ≈ 0.22 and 1/G ≈ 4.5 (Hoffmann et al. eq. 4 with 20 tokens per parameter)
    right = "## Fit\n\nN_opt ≈ 0.22 × (C/6)^0.5, D_opt ≈ 4.5 × (C/6)^0.5, so D_opt / N_opt ≈ 20.\n"
    assert [f.verdict for f in scan(right)] == ["pass"]  # one draft a line: the ratio
    same = "## Fit\n\n- N_opt = 0.6·(C/6)^0.5\n- D_opt = 0.6·(C/6)^0.5\n- D_opt / N_opt ≈ 20\n"
    coefficient, ratio = scan(same)
    assert ratio.verdict == "fail" and "0.6 / 0.6 is 1" in ratio.message
    assert ratio.line == 5
    assert coefficient.verdict == "fail" and coefficient.line == 4


def test_compute_optimal_token_counts(scan: Scan) -> None:
    assert [
        f.verdict for f in scan("## Data\n\nA compute-optimal 7B model sees ≈ 140B tokens.\n")
    ] == ["pass"]
    # Table 3 of the paper: 67B → 1.5T tokens (22 per parameter) is a published reading too
    published = "## Data\n\nChinchilla-optimal data for a 67B model: 1.5T tokens.\n"
    assert [f.verdict for f in scan(published)] == ["pass"]
    (finding,) = scan("## Data\n\n模型参数量 70B，计算最优需要约 400B tokens。\n")
    assert finding.verdict == "fail" and "20 × N" in finding.message


def test_no_draft_for_other_exponents_missing_coefficients_or_plain_token_counts(
    scan: Scan,
) -> None:
    for text in (
        "N_opt ≈ 0.5 × (C/6)^0.46 and D_opt ≈ 2 × (C/6)^0.54, so D_opt / N_opt ≈ 4",
        "N_opt ∝ C^0.5 and D_opt ∝ C^0.5, so D_opt / N_opt ≈ 20",
        "A 7B model trained on 140B tokens.",
        "Compute-optimal training needs more data.",
    ):
        assert scan("## Fit\n\n" + text + "\n") == [], text


def test_the_second_coefficient_of_a_pair_follows_from_c_equal_6nd(scan: Scan) -> None:
    # N·D = C/6 for every C: with exponents adding to 1, a·b = k/6
    for pair in (
        "N_opt ≈ 0.25 × (C/6)^0.5\nD_opt ≈ 4 × (C/6)^0.5",
        "D_opt = 5 · (C/6)^(1/2)\nN_opt = 0.2 · (C/6)^(1/2)",  # either order
        "C = 6ND.\n\nN_opt ≈ 0.5 × (C/24)^0.5\nD_opt ≈ 8 × (C/24)^0.5",  # k = 24: a·b = 4
    ):
        assert [f.verdict for f in scan("## Fit\n\n" + pair + "\n")] == ["pass"], pair
    (finding,) = scan("## Fit\n\nN_opt ≈ 0.25 × (C/6)^0.5\nD_opt ≈ 0.25 × (C/6)^0.5\n")
    assert finding.verdict == "fail" and finding.line == 4
    assert "6 / (6 × 0.25) is 4" in finding.message and "C = 6·N·D" in finding.message


def test_no_coefficient_draft_without_6nd_or_with_exponents_not_adding_to_one(scan: Scan) -> None:
    for pair in (
        "N_opt ≈ 0.5 × (C/24)^0.5\nD_opt ≈ 3 × (C/24)^0.5",  # C/24 without C = 6ND stated
        "N_opt ≈ 0.5 × (C/6)^0.73\nD_opt ≈ 3 × (C/6)^0.73",  # N·D then grows as C^1.46
        "N_opt ≈ 0.5 × (C/6)^0.5\nD_opt ≈ 3 × (C/8)^0.5",  # two different scales of C
    ):
        assert scan("## Fit\n\n" + pair + "\n") == [], pair


OPTIMAL = "## Scaling\n\nChinchilla's compute-optimal models see about 20 tokens per parameter.\n\n"


def test_k_times_the_compute_calls_for_root_k_times_the_parameters_and_tokens(scan: Scan) -> None:
    for line in (
        "A 9× larger budget calls for a 3× larger model.",
        "With 100x the compute, train on 10x more tokens.",
        "算力增加 4 倍时，最优参数量约增加 2 倍。",
        "Rule of thumb: 16× compute → 4× parameters.",
    ):
        assert [f.verdict for f in scan(OPTIMAL + line + "\n")] == ["pass"], line
    (finding,) = scan(OPTIMAL + "So a 9× larger budget calls for a 9× larger model.\n")
    assert finding.verdict == "fail" and finding.line == 5
    assert "9^0.5 is 3×" in finding.message and "Hoffmann" in finding.message
    (chinese,) = scan(OPTIMAL + "因此算力增加 16 倍时，最优参数量也应增加 16 倍。\n")
    assert chinese.verdict == "fail" and "16^0.5" in chinese.message


def test_no_scaling_draft_outside_the_compute_optimal_regime_or_without_a_stated_factor(
    scan: Scan,
) -> None:
    for text in (
        "## Runs\n\nWith 4× the compute we trained a 4× larger model.\n",  # nothing optimal
        "## Kaplan\n\nKaplan et al. find optimal N ∝ C^0.73: 10× compute, 5.4× model.\n",
        OPTIMAL + "A 4× larger budget calls for a larger model.\n",  # no factor claimed
        OPTIMAL + "A 4× larger model needs 4× more compute per token.\n",  # model first
        OPTIMAL + "The naive rule, 4× compute for a 4× larger model, overfits the budget.\n",
        OPTIMAL + "如果算力增加 4 倍，参数量也增加 4 倍，数据就不够了。\n",
    ):
        assert scan(text) == [], text


def test_formulas_in_latex_are_read_as_plain(scan: Scan) -> None:
    pair = "$N_{opt} \\approx 0.25 \\times (C/6)^{0.5}$\n\n"
    pair += "$D_{opt} \\approx 0.25 \\times (C/6)^{0.5}$\n"
    (finding,) = scan("## Fit\n\n" + pair)
    assert finding.verdict == "fail" and finding.line == 5 and "D_{opt}" in finding.quote


# 350M parameters × 20 tokens per parameter = 7B tokens (21: 7.35B, 22: 7.7B).
STATED = "## Budget\n\nOur model has 350M parameters.\n\n"


def test_tokens_restated_after_the_rule_for_this_model(scan: Scan) -> None:
    rule = (
        "A Chinchilla-optimal run for this model is about 20 tokens per parameter, i.e. {} tokens."
    )
    assert [f.verdict for f in scan(STATED + rule.format("7B") + "\n")] == ["pass"]
    (wrong,) = scan(STATED + rule.format("3.5B") + "\n")
    assert wrong.verdict == "fail" and "20 × N" in wrong.message
    # the same sentence soft-wrapped: the rule on one line, the count on the next
    wrapped = rule.format("3.5B").replace(", i.e.", ",\ni.e.")
    assert [f.verdict for f in scan(STATED + wrapped + "\n")] == ["fail"]


def test_a_model_the_sentence_does_not_point_at_is_not_the_section_s(scan: Scan) -> None:
    # "a larger model" is not the 350M one the section states: no N to read
    line = (
        "A Chinchilla-optimal run for a larger model is 20 tokens per parameter, i.e. 3.5B tokens."
    )
    assert scan(STATED + line + "\n") == []
