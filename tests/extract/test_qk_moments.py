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
