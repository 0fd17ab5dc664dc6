"""Kind ``norm``: its case table, plus the printed-std basis, corrections and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import norm
from checkers.numbers import apply_corrections
from tests.kinds import check_with

_check = check_with(norm)


def test_printed_std_basis_is_named() -> None:
    normalized = ["-1.36", "-0.45", "0.45", "1.36"]
    outcome = _check({"x": ["1", "2", "3", "4"], "std": "1.1", "normalized": normalized})
    assert outcome.ok
    assert "recomputed from the printed std 1.1" in outcome.message
    assert any("compared with the printed std 1.1" in line for line in outcome.details)


def test_wrong_printed_std_is_not_used_as_a_basis() -> None:
    # std 1.5 is wrong (1.118), so the normalised vector is judged against the exact values.
    normalized = ["-1.00", "-0.33", "0.33", "1.00"]
    outcome = _check({"x": ["1", "2", "3", "4"], "std": "1.5", "normalized": normalized})
    assert outcome.verdict == "fail"
    assert "normalised is" in outcome.message


def test_corrections_follow_the_quote_order_and_use_exact_values() -> None:
    quote = "mean = 5.3, variance = 1.0"
    outcome = _check({"x": ["2", "4", "9"], "mean": "5.3", "variance": "1.0"})
    # (2−5)² + (4−5)² + (9−5)² = 9 + 1 + 16 = 26; 26/3 = 8.667.
    assert apply_corrections(quote, outcome.corrections) == "mean = 5.0, variance = 8.7"


def test_value_is_the_last_claimed_quantity() -> None:
    assert _check({"x": ["1", "3"], "std": "1"}).value == pytest.approx(1.0)
    vector = _check({"x": ["1", "3"], "mean": "2", "normalized": ["-1", "1"]}).value
    assert vector == pytest.approx((-1.0, 1.0))


def test_epsilon_appears_in_the_message() -> None:
    outcome = _check({"x": ["1", "3"], "epsilon": 1, "normalized": ["-0.707", "0.707"]})
    assert "ε = 1 inside the √" in outcome.message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"x": ["1", "2"]}, "claim at least one"),
        ({"x": ["1", "2"], "rms": "1.58"}, "norm: rms"),
        ({"norm": "rms", "x": ["1", "2"], "mean": "1.5"}, "RMSNorm has no mean"),
        ({"x": ["1", "2"], "normalized": ["1"]}, "normalized has 1 values"),
        ({"x": ["1", "2"], "output": ["1", "2"]}, "give gamma"),
        ({"x": ["1", "2"], "mean": "1.5", "eps_placement": "outside"}, "eps_placement"),
        ({"x": "1, 2", "mean": "1.5"}, "expected a vector"),
    ],
)
def test_bad_fields_are_refused_with_a_reason(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        norm.Input.model_validate(fields)
    assert fragment in str(raised.value)
