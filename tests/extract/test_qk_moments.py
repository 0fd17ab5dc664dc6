"""Recogniser ``qk_moments``: moments of q·k stated in prose, formulas and LaTeX, checked by the
``statistic`` kind. Snippets written for these tests."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import qk_moments
from tests.extract.conftest import ScanText

ASSUMPTION_EN = "Take q and k with independent entries of zero mean and unit variance.\n\n"
ASSUMPTION_ZH = "假设 q、k 的各分量相互独立，均值为 0、方差为 1。\n\n"


def _drafted(text: str) -> list[dict[str, object]]:
    return [d.fields for d in qk_moments.recognize(parse_document(text))]


def _by_claim(scan_text: ScanText, text: str) -> dict[str, str]:
    return {f.quote: f.verdict for f in scan_text(text) if f.kind == "statistic"}


def test_correct_moments_in_prose_formulas_and_latex_pass(scan_text: ScanText) -> None:
    text = (
        "## Scaling\n\n" + ASSUMPTION_EN + "Then $\\mathrm{Var}(q \\cdot k) = d_k$ while "
        "$E[q^\\top k] = 0$.\n\nThe standard deviation of the dot product is √d_k. Dividing by "
        "√d_k brings the variance back to 1.\n\n```text\nstd(QK^T) = sqrt(d_k)\n```\n"
    )
    verdicts = _by_claim(scan_text, text)
    assert verdicts == {
        "\\mathrm{Var}(q \\cdot k) = d_k": "pass",
        "E[q^\\top k] = 0": "pass",
        "The standard deviation of the dot product is √d_k": "pass",
        "Dividing by √d_k brings the variance back to 1": "pass",
        "std(QK^T) = sqrt(d_k)": "pass",
    }


def test_the_mean_taken_for_the_variance_and_a_doubled_variance_fail(scan_text: ScanText) -> None:
    text = (
        "## 缩放\n\n" + ASSUMPTION_ZH + "```\nE[q·k] = d_k\nstd(q·k) ≈ √(2d_k)\n```\n\n"
        "点积 q·k 的均值为 0，方差为 2d_k。\n\n所以除以 √(2d_k) 后方差为 1。\n"
    )
    findings = [f for f in scan_text(text) if f.kind == "statistic"]
    assert {(f.quote, f.verdict) for f in findings} == {
        ("E[q·k] = d_k", "fail"),
        ("std(q·k) ≈ √(2d_k)", "fail"),
        ("均值为 0", "pass"),
        ("方差为 2d_k", "fail"),
        ("除以 √(2d_k) 后方差为 1", "fail"),
    }
    scaled = next(f for f in findings if f.quote.startswith("除以"))
    assert "1/2" in scaled.expected


def test_nothing_is_drafted_without_the_unit_variance_assumption() -> None:
    text = "## Scores\n\nVar(q·k) = d_k and the variance of the dot product is d_k.\n"
    assert _drafted(text) == []


def test_moments_of_one_entry_or_with_other_symbols_are_not_drafted() -> None:
    text = (
        "## Scores\n\n" + ASSUMPTION_EN + "Each component has variance 1 and mean 0.\n\n"
        "With entries of variance σ², Var(q·k) = d_k σ⁴.\n\n每个分量的方差为 1。\n"
    )
    assert _drafted(text) == []


def test_the_assumption_must_be_in_the_same_section() -> None:
    text = "## One\n\n" + ASSUMPTION_EN + "## Two\n\nVar(q·k) = 2d_k\n"
    assert _drafted(text) == []


def test_a_scaling_that_does_not_claim_a_value_is_not_drafted() -> None:
    text = "## Scores\n\n" + ASSUMPTION_ZH + "除以 √d_k 可以让方差保持稳定。\n"
    assert _drafted(text) == []


def test_a_moment_at_a_stated_head_dimension(scan_text: ScanText) -> None:
    # Var(q·k) = d_k and std = √d_k: at d_k = 64 the std is 8, at d_k = 256 the variance is 256.
    text = (
        "## Scores\n\n" + ASSUMPTION_EN + "With $d_k = 64$, the dot product has a standard "
        "deviation of about 8.\n\n" + ASSUMPTION_ZH + "当 $d_k = 256$ 时，点积的方差为 256。\n"
    )
    findings = [f for f in scan_text(text) if f.kind == "statistic"]
    assert [(f.claimed, f.verdict) for f in findings] == [("≈ 8", "pass"), ("256", "pass")]


def test_a_moment_doubled_or_given_for_the_other_moment_fails(scan_text: ScanText) -> None:
    # The sentence wraps: the claim is on the line of its value. √32 = 5.66, not √64 = 8.0.
    text = (
        "## Scores\n\n" + ASSUMPTION_EN + "For $d_k = 32$ the raw scores come out with a standard\n"
        "deviation of 8.0 before scaling.\n\n"
        + ASSUMPTION_ZH
        + "若 $d_k = 144$，点积的方差约为 12。\n"
    )
    wrapped, variance = [f for f in scan_text(text) if f.kind == "statistic"]
    assert wrapped.verdict == "fail" and wrapped.line == 6 and "5.7" in wrapped.message
    assert variance.verdict == "fail" and "144" in variance.message  # 12 is the std


def test_no_numeric_moment_without_one_dimension_or_of_a_scaled_score() -> None:
    for sentence in (
        "With $d_k = 64$, dividing the dot product by 8 leaves a standard deviation of 1.",
        "With $d_k = 64$ each component has variance 1 and mean 0.",
        "For $d_k = 64$ and $d_k = 128$ the dot product's std is 8 and 11.3.",
        "The standard deviation of the dot product is about 8.",
        "With $d_k = 64$, the scores $q \\cdot k / \\sqrt{d_k}$ have a standard deviation of 1.",
        "With $d_k = 64$ the dot product, once scaled, has a standard deviation of 1.",
        "点积的标准差约为 8。",
    ):
        assert _drafted("## S\n\n" + ASSUMPTION_EN + sentence + "\n") == [], sentence
