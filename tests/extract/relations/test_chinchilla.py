"""Relation chinchilla: compute-optimal tokens ≈ 20·N (Hoffmann et al. 2022, Table 3) and the
ratio D_opt/N_opt of a lesson's own formulas (from first principles: equal powers of C cancel)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan


def test_the_ratio_of_formulas_with_equal_powers_is_the_ratio_of_coefficients(scan: Scan) -> None:
    right = "## Fit\n\nN_opt ≈ 0.1 × (C/6)^0.5 and D_opt ≈ 2 × (C/6)^0.5, so D_opt / N_opt ≈ 20.\n"
    assert [f.verdict for f in scan(right)] == ["pass"]
    same = "## Fit\n\n- N_opt = 0.6·(C/6)^0.5\n- D_opt = 0.6·(C/6)^0.5\n- D_opt / N_opt ≈ 20\n"
    (finding,) = scan(same)
    assert finding.verdict == "fail" and "0.6 / 0.6 is 1" in finding.message
    assert finding.line == 5


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
