"""Kind ``residual``: its case table, plus corrections, chaining value and validation."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from checkers.kinds import residual
from checkers.numbers import apply_corrections
from tests.kinds import check_with

_check = check_with(residual)


def test_fix_and_value() -> None:
    quote = "= [0.4, 0.2] + [0.1, 0.3] = [0.5, 0.6]"
    outcome = _check({"x": ["0.1", "0.3"], "f_x": ["0.4", "0.2"], "claimed": ["0.5", "0.6"]})
    assert apply_corrections(quote, outcome.corrections) == "= [0.4, 0.2] + [0.1, 0.3] = [0.5, 0.5]"
    assert outcome.value == pytest.approx((0.5, 0.5))


def test_lengths_must_agree() -> None:
    with pytest.raises(ValidationError, match="same length"):
        residual.Input.model_validate({"x": ["1"], "f_x": ["1", "2"], "claimed": ["2", "2"]})
