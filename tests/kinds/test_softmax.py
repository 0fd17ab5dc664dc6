"""Kind ``softmax``: its case table, plus sums to 1, whole-number 0/1, exp chains, validation."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import softmax
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from tests.kinds import check_with

_check = check_with(softmax)


def test_row_message_names_scores_and_elements() -> None:
    # softmax([0, 0, 0]) = 1/3 each.
    outcome = _check(
        {"scores": [["0", "0", "0"]], "claimed": [["0.20", "0.40", "0.40"]], "tokens": ["2"]}
    )
    assert outcome.message.startswith(
        "row 2 = softmax([0, 0, 0]) = [0.33, 0.33, 0.33], not [0.20, 0.40, 0.40]"
    )
    assert "weight(2, 0): 0.20 should be 0.33" in outcome.message


def test_a_whole_zero_or_one_is_read_at_the_rows_precision() -> None:
    # softmax([0, 10]) = [4.5e-5, 0.99995]: printing 0 and 1 is right at 2 decimals …
    assert _check({"scores": ["0", "10"], "claimed": ["0", "1"]}).ok
    # … but softmax([0, 1]) = [0.27, 0.73] is not [0, 1], although each is within ±0.5.
    outcome = _check({"scores": ["0", "1"], "claimed": ["0", "1"]})
    assert outcome.verdict == "fail"
    assert outcome.corrections == (("0", "0.27"), ("1", "0.73"))
    assert "read at 2 decimals" in outcome.tolerance


def test_sum_to_one_uses_the_rounding_of_every_entry() -> None:
    # Three entries at ±0.005 may sum to 0.985 … 1.015.
    assert _check({"claimed_only": True, "claimed": [["0.33", "0.33", "0.33"]]}).ok
    outcome = _check({"claimed_only": True, "claimed": [["0.30", "0.30", "0.30"]]})
    assert outcome.verdict == "fail"
    assert "sums to 0.9" in outcome.message


def test_weights_may_follow_from_printed_exp_values_and_total() -> None:
    # exp(0) = 1 → 1.0; exp(0.05) = 1.0513 → 1.1; total 2.0513 → 2.1 (= 1.0 + 1.1).
    # 1.1 / 2.1 = 0.5238 → 0.52 as the lesson divides; exactly 0.5125 → 0.51.
    fields = {
        "scores": ["0", "0.05"],
        "exp_values": ["1.0", "1.1"],
        "sum": "2.1",
        "claimed": ["0.48", "0.52"],
    }
    outcome = _check(fields)
    assert outcome.ok, outcome.message
    assert any("follows from the printed 1.1 / 2.1" in line for line in outcome.details)


def test_a_wrong_total_is_not_used_as_a_basis() -> None:
    # exp(0) + exp(0) = 2.0; a printed total of 2.5 is neither the exact nor the printed total.
    fields = {
        "scores": ["0", "0"],
        "exp_values": ["1.0", "1.0"],
        "sum": "2.5",
        "claimed": ["0.40", "0.40"],
    }
    outcome = _check(fields)
    assert outcome.verdict == "fail"
    assert "neither the exact" in outcome.message


def test_corrections_and_value() -> None:
    outcome = _check({"scores": ["1", "0"], "claimed": ["0.70", "0.30"]})
    assert apply_corrections("[0.70, 0.30]", outcome.corrections) == "[0.73, 0.27]"
    assert outcome.value == pytest.approx((math.e / (math.e + 1), 1 / (math.e + 1)))


def test_claim_tolerance_overrides_printed_precision() -> None:
    loose = Context(
        tolerance=Tolerance(absolute=0.05, relative=0.0, reason="±0.05: read off a chart")
    )
    assert _check({"scores": ["1", "0"], "claimed": ["0.70", "0.30"]}, loose).ok


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"scores": ["0", "-inf"], "claimed": ["1", "0"]}, "use kind masked_softmax"),
        ({"scores": ["0", "−∞"], "claimed": ["1", "0"]}, "use kind masked_softmax"),
        ({"claimed": ["0.5", "0.5"]}, "scores are required"),
        ({"claimed_only": True, "scores": ["0", "0"], "claimed": ["0.5", "0.5"]}, "drop scores"),
        ({"scores": ["0", "0"], "claimed": [["0.5", "0.5"]]}, "both be one row"),
        ({"scores": ["0", "0"], "claimed": ["0.5"]}, "2 scores but 1 weights"),
        ({"scores": [["0"], ["0"]], "claimed": [["1"], ["1"]], "sum": "1"}, "single-row"),
        ({"scores": ["0"], "claimed": ["1"], "temperature": "0"}, "temperature must be positive"),
    ],
)
def test_bad_fields_are_explained(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        softmax.Input.model_validate(fields)
