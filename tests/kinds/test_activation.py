"""Kind ``activation``: its case table, plus elision, mislabel messages and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import activation
from checkers.numbers import apply_corrections
from tests.kinds import check_with

_check = check_with(activation)


def test_relu_zero_among_decimals_is_read_at_their_precision() -> None:
    # GELU(−1.0) = −0.159: a "0" printed among 1-decimal values means 0.0, so it fails (it would
    # pass as a whole number, ±0.5) and its correction keeps one decimal.
    outcome = _check({"function": "gelu", "inputs": ["1.0", "-1.0"], "claimed": ["0.8", "0"]})
    assert outcome.verdict == "fail"
    assert ("0", "-0.2") in outcome.corrections
    assert "read as 0.0" in outcome.tolerance


def test_elided_vectors_fix_the_printed_prefix() -> None:
    quote = "= [1.0, 0, ...] · W₂"
    outcome = _check(
        {"function": "gelu", "inputs": "[1.0, -1.0, 0.5, ...8个值...]", "claimed": "[1.0, 0, ...]"}
    )
    assert apply_corrections(quote, outcome.corrections) == "= [0.8, -0.2, ...] · W₂"
    assert outcome.value == pytest.approx((0.841345, -0.158655), abs=1e-6)


def test_explicit_elided_with_a_shorter_claimed_list() -> None:
    outcome = _check(
        {"function": "relu", "inputs": ["1", "-1", "2"], "claimed": ["1"], "elided": True}
    )
    assert outcome.ok and "checked the 1 printed entry" in outcome.message


def test_scalar_value_chains_as_float() -> None:
    assert _check({"function": "tanh", "inputs": "1", "claimed": "0.76"}).value == pytest.approx(
        0.761594, abs=1e-6
    )


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"function": "softplus", "inputs": "1", "claimed": "1.31"}, "function"),
        ({"function": "relu", "inputs": ["1", "2"], "claimed": ["1"]}, "set elided: true"),
        ({"function": "relu", "inputs": "1", "claimed": ["1"]}, "both be numbers"),
        ({"function": "relu", "inputs": "[1, ..., 3]", "claimed": "[1, ...]"}, "trailing"),
        ({"function": "relu", "inputs": "[..., 3]", "claimed": "[3]"}, "at least one printed"),
        (
            {"function": "relu", "inputs": "[1, ...]", "claimed": "[1, ...]", "elided": False},
            "elided is false",
        ),
    ],
)
def test_bad_fields_are_refused_with_a_reason(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        activation.Input.model_validate(fields)
    assert fragment in str(raised.value)
