"""Kind ``counting``: its case table, plus messages, corrections, chaining and field checks."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import counting
from checkers.kinds.base import Context
from checkers.numbers import apply_corrections
from tests.kinds import check_with

_check = check_with(counting)


def test_kv_cache_counts_are_exact_gauss_sums() -> None:
    # n = 100: 100·101/2 = 5050 without a cache, 100 with; saving 1 − 2/101.
    outcome = _check(scenario="kv_cache", steps=100, without_cache="5050", with_cache="100")
    assert outcome.ok
    assert outcome.value == (5050.0, 100.0)
    assert any("5050" in line and "100·101/2" in line for line in outcome.details)


def test_kv_cache_single_field_value_is_a_float_for_chaining() -> None:
    outcome = _check(scenario="kv_cache", steps=2, saving="33%")
    # 1+2 = 3 vs 2: saving 1/3.
    assert outcome.ok and outcome.value == pytest.approx(1 / 3)


def test_kv_cache_failure_names_each_wrong_field_and_suggests_fixes() -> None:
    outcome = _check(scenario="kv_cache", steps=4, without_cache="16", with_cache="4", saving="75%")
    # 1+2+3+4 = 10, saving 1 − 4/10 = 60%.
    assert outcome.verdict == "fail"
    assert "without a cache over 4 steps is 10 → 10, not 16" in outcome.message
    assert "saving over 4 steps is 60% → 60%, not 75%" in outcome.message
    assert "with a cache" not in outcome.message
    assert outcome.corrections == (("16", "10"), ("75%", "60%"))
    quote = "4 步里不缓存累计 16 次，缓存之后 4 次，省 75%"
    assert (
        apply_corrections(quote, outcome.corrections)
        == "4 步里不缓存累计 10 次，缓存之后 4 次，省 60%"
    )
    assert any("4² = 16" in line for line in outcome.details)


def test_kv_cache_honours_a_claim_tolerance() -> None:
    from checkers.numbers import Tolerance

    claim = counting.Input.model_validate({"scenario": "kv_cache", "steps": 10, "saving": "80%"})
    # 1 − 10/55 = 81.8%: outside ±0.5%, inside an explicit ±2%.
    assert counting.check(claim, Context()).verdict == "fail"
    loose = Tolerance(absolute=0.02, relative=0.0, reason="±2%: the lesson rounds loosely")
    outcome = counting.check(claim, Context(tolerance=loose))
    assert outcome.ok and "±2%" in outcome.tolerance


def test_gradient_decay_off_by_one_hint() -> None:
    outcome = _check(scenario="gradient_decay", factor="0.5", steps=4, claimed="0.125")
    # 0.5⁴ = 0.0625; 0.125 is 0.5³.
    assert outcome.verdict == "fail"
    assert any("0.5^3" in line and "off by one" in line for line in outcome.details)


def test_gradient_decay_many_steps_uses_decimal_power() -> None:
    outcome = _check(scenario="gradient_decay", factor="0.99", steps=20_000, claimed="0")
    assert outcome.ok  # 0.99^20000 ≈ 1.9e-88
    assert any("decimal power" in line for line in outcome.details)


def test_mlm_mentions_the_reference_rounding() -> None:
    outcome = _check(scenario="mlm", tokens=50, mask_rate="15%", claimed="7.5")
    assert outcome.ok and outcome.value == 7.5
    # Python 3 round(7.5) = 8 (ties to even).
    assert any("round(50 × 15%)) = 8" in line for line in outcome.details)


def test_head_split_value_and_error() -> None:
    assert _check(scenario="head_split", d_model=512, heads=16, claimed="32").value == 32.0
    outcome = _check(scenario="head_split", d_model=100, heads=3, claimed="33")
    assert outcome.verdict == "error" and "100/3 = 33.33" in outcome.message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"scenario": "kv_cache", "steps": 5}, "at least one of"),
        ({"scenario": "kv_cache", "without_cache": "15"}, "needs steps"),
        ({"scenario": "kv_cache", "steps": 5, "claimed": "15"}, "does not read claimed"),
        ({"scenario": "mlm", "tokens": 40, "claimed": "6"}, "needs mask_rate"),
        ({"scenario": "mlm", "tokens": 40, "mask_rate": "15", "claimed": "6"}, "between 0 and 1"),
        ({"scenario": "kv_cache", "steps": 5, "saving": "67"}, "between 0 and 1"),
        ({"scenario": "causal_lm", "tokens": 0, "claimed": "0"}, "greater than or equal to 1"),
        ({"scenario": "causal_lm", "tokens": "40.5", "claimed": "39"}, "valid integer"),
        ({"scenario": "gradient_decay", "factor": "0.9", "steps": 5, "claimed": "x"}, "printed"),
        ({"scenario": "head_split", "d_model": 512, "heads": 8, "measure": "lost"}, "measure"),
        ({"scenario": "softmax", "tokens": 3}, "scenario"),
    ],
)
def test_bad_fields_are_refused_with_a_clear_message(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        counting.Input.model_validate(fields)
    assert fragment in str(raised.value)
