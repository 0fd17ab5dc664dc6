"""Kind ``scores``: its case table, plus the dot-then-divide chain, corrections and validation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import scores
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from tests.kinds import check_with

_check = check_with(scores)


def test_message_names_the_score_and_its_working() -> None:
    # [0.3, 0.4]·[0.5, 0.6] = 0.15 + 0.24 = 0.39.
    outcome = _check(
        {"name": "score(a, b)", "q": ["0.3", "0.4"], "k": ["0.5", "0.6"], "claimed": "0.42"}
    )
    assert outcome.message == "score(a, b) = q·k = 0.3×0.5 + 0.4×0.6 = 0.39 → 0.39, not 0.42"


def test_a_wrong_dot_product_corrects_both_numbers_in_quote_order() -> None:
    # [1, 2]·[1, 1] = 3 (printed 4); 3 / 2 = 1.5 (printed 2.0, which follows from the wrong 4).
    fields = {"q": ["1", "2"], "k": ["1", "1"], "dot": "4", "divide_by": "2", "claimed": "2.0"}
    outcome = _check(fields)
    assert outcome.verdict == "fail"
    assert apply_corrections("score = 4 / 2 = 2.0", outcome.corrections) == "score = 3 / 2 = 1.5"
    assert outcome.claimed == "2.0"


def test_value_is_the_scaled_score() -> None:
    outcome = _check({"q": ["1", "1"], "k": ["1", "1"], "scale": "sqrt_dk", "claimed": "1.41"})
    assert outcome.ok
    assert outcome.value == pytest.approx(2**0.5)


def test_matrix_value_is_row_major() -> None:
    fields = {
        "Q": [["1", "0"], ["0", "1"]],
        "K": [["1", "2"], ["3", "4"]],
        "claimed": [["1", "3"], ["2", "4"]],
    }
    assert _check(fields).value == pytest.approx((1.0, 3.0, 2.0, 4.0))


def test_some_rows_by_token() -> None:
    fields = {
        "Q": [["1", "0"], ["0", "1"]],
        "K": [["1", "2"], ["3", "4"]],
        "tokens": ["a", "b"],
        "claimed": {"b": ["2", "5"]},
    }
    outcome = _check(fields)
    assert outcome.verdict == "fail"
    assert outcome.message.startswith("score(b, b) = Q_b·K_b")


def test_about_mark_on_the_divisor_is_not_repeated() -> None:
    fields = {"q": ["1", "1"], "k": ["1", "1"], "divide_by": "≈1.41", "d_k": 2, "claimed": "1.42"}
    outcome = _check(fields)
    assert outcome.ok
    assert any("/ 1.41 " in line for line in outcome.details)


def test_claim_tolerance_overrides_printed_precision() -> None:
    loose = Context(
        tolerance=Tolerance(absolute=0.05, relative=0.0, reason="±0.05: reading a chart")
    )
    assert _check({"q": ["0.5", "0.5"], "k": ["0.5", "0.5"], "claimed": "0.52"}, loose).ok


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"q": ["1"], "k": ["1"], "Q": [["1"]], "K": [["1"]], "claimed": "1"}, "not both"),
        ({"q": ["1", "2"], "k": ["1"], "claimed": "1"}, "k has 1"),
        ({"q": ["1"], "claimed": "1"}, "both q and k"),
        ({"Q": [["1"]], "K": [["1"]], "dot": "1", "claimed": [["1"]]}, "dot applies to a single"),
        (
            {"q": ["1"], "k": ["1"], "scale": "sqrt_dk", "divide_by": "1", "claimed": "1"},
            "not both",
        ),
        ({"Q": [["1"]], "K": [["1"], ["2"]], "claimed": [["1"]]}, "there are 2 keys"),
        ({"q": ["1"], "k": ["1"], "claimed": ["1"]}, "expected one printed number"),
    ],
)
def test_bad_fields_are_explained(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        scores.Input.model_validate(fields)
