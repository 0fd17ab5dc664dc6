"""Kind ``statistic``: its case table, plus the derivation, messages and the safe parser."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import statistic
from checkers.numbers import apply_corrections
from tests.kinds import check_with

_check = check_with(statistic)


def test_derivation_is_shown_step_by_step() -> None:
    outcome = _check(quantity="dot_product", moment="variance", claimed="d_k")
    text = "\n".join(outcome.details)
    assert "E[q_i k_i] = E[q_i]·E[k_i] = 0·0 = 0" in text
    assert "Var[q_i k_i] = E[q_i²]·E[k_i²] − E[q_i k_i]² = 1·1 − 0² = 1" in text
    assert "Var[q·k] = d_k·1 = d_k" in text
    assert "sympy.stats" in text
    assert outcome.tolerance == "exact: derived symbolically with sympy"


def test_mean_message_points_at_the_variance() -> None:
    outcome = _check(quantity="dot_product", moment="mean", claimed="d_k")
    assert outcome.message == (
        "E[q·k] = 0 for independent zero-mean entries, not d_k "
        "(Var[q·k] = d_k is the quantity that grows with d_k)"
    )
    assert outcome.corrections == (("d_k", "0"),)
    assert outcome.value == 0.0


def test_std_correction_applies_to_the_quote() -> None:
    outcome = _check(quantity="dot_product", moment="std", claimed="√(2d_k)")
    assert outcome.message.startswith("std(q·k) = √d_k, not √(2d_k)")
    assert apply_corrections("std(Q·K^T) ≈ √(2d_k)", outcome.corrections) == "std(Q·K^T) ≈ √d_k"


def test_equivalent_spellings_are_equal() -> None:
    for spelling in ("√d_k", "sqrt(d_k)", "d_k^(1/2)", "d_k^0.5", "2√d_k/2"):
        assert _check(quantity="dot_product", moment="std", claimed=spelling).ok, spelling
    assert _check(quantity="dot_product", scale="√(2d_k)", moment="std", claimed="1/√2").ok
    assert _check(quantity="dot_product", scale="√(2d_k)", moment="variance", claimed=0.5).ok


def test_numeric_claim_at_d_k_with_monte_carlo_detail() -> None:
    outcome = _check(quantity="dot_product", moment="std", d_k=64, claimed_value="8.0")
    assert outcome.ok and outcome.value == 8.0
    assert any(line.startswith("Monte-Carlo cross-check") for line in outcome.details)
    wrong = _check(quantity="dot_product", moment="std", d_k=64, claimed_value="11.3")
    # √(2·64) = 11.31 is the lesson's slip; √64 = 8.
    assert wrong.verdict == "fail" and wrong.corrections == (("11.3", "8.0"),)


def test_monte_carlo_is_never_the_verdict() -> None:
    # A seeded sample of the scaled variance scatters around 1/2 but the verdict is exact.
    outcome = _check(
        quantity="dot_product", scale="√(2d_k)", moment="variance", d_k=8, claimed="1/2"
    )
    assert outcome.ok and outcome.value == 0.5


def test_trend_failure_explains_the_derivative() -> None:
    outcome = _check(quantity="dot_product", scale="d_k", moment="std", trend="increasing")
    # std(q·k/d_k) = 1/√d_k shrinks.
    assert outcome.verdict == "fail" and "shrinks as d_k grows" in outcome.message
    assert "d/dd_k" in outcome.tolerance


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"quantity": "dot_product", "moment": "mean"}, "at least one of"),
        ({"quantity": "dot_product", "moment": "std", "claimed_value": "8"}, "add d_k"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "x"}, "unknown name 'x'"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "__import__('os')"}, "claimed"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "exp(d_k)"}, "not supported"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "d_k^d_k"}, "constant number"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "d_k^100"}, "too large"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "9^(9^9)"}, "too large"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "√(-1)"}, "negative"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "1/0"}, "division by zero"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "[1, 2]"}, "claimed"),
        ({"quantity": "dot_product", "moment": "std", "claimed": True}, "expression in d_k"),
        ({"quantity": "dot_product", "moment": "kurtosis", "claimed": "1"}, "moment"),
        ({"quantity": "sum", "moment": "std", "claimed": "1"}, "quantity"),
        ({"quantity": "dot_product", "moment": "std", "scale": "1/2d_k", "claimed": "1"}, "scale"),
        ({"quantity": "dot_product", "moment": "std", "claimed": "1", "d_k": 0}, "d_k"),
    ],
)
def test_bad_fields_are_refused_with_a_clear_message(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        statistic.Input.model_validate(fields)
    assert fragment in str(raised.value)
