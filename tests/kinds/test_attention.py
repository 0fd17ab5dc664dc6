"""Kind ``attention``: its case table, plus stage chaining, details, sizes and validation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import attention
from tests.kinds import check_with

EYE = [["1", "0"], ["0", "1"]]


_check = check_with(attention)


def test_a_wrong_score_is_reported_once_and_later_stages_follow_the_print() -> None:
    # Q·K row: [1,1]·[1,2] = 3, [1,1]·[2,2] = 4 (printed 5). Divided by the printed 2:
    # 3/2 = 1.5 and 5/2 = 2.5 follow from the printed scores, so only the 5 is wrong.
    fields = {
        "Q": [["1", "1"]],
        "K": [["1", "2"], ["2", "2"]],
        "V": [["0"], ["0"]],
        "divide_by": "2",
        "claimed": {"scores": [["3", "5"]], "scaled": [["1.5", "2.5"]]},
    }
    outcome = _check(fields)
    assert outcome.verdict == "fail"
    assert outcome.corrections == (("5", "4"),)
    assert "scaled" not in outcome.message
    # The details give the unrounded chain: 4/2 = 2, not the printed 2.5.
    assert any(
        line.startswith("from unrounded values, row 0: scores [3, 4], scaled [1.5, 2]")
        for line in outcome.details
    )


def test_unrounded_chain_divides_by_the_exact_root() -> None:
    fields = {
        "Q": [["1", "0"]],
        "K": EYE,
        "V": EYE,
        "d_k": 2,
        "divide_by": "1.41",
        "claimed": {"weights": [["0.67", "0.33"]]},
    }
    outcome = _check(fields)
    assert outcome.ok
    # 1/√2 = 0.7071, not 1/1.41 = 0.7092.
    assert any("scaled [0.7071, 0]" in line for line in outcome.details)


def test_weights_rows_must_sum_to_one() -> None:
    # Equal scores give [0.5, 0.5]; printed [0.50, 0.60] also does not sum to 1.
    fields = {
        "Q": [["0"]],
        "K": [["0"], ["0"]],
        "V": [["1"], ["1"]],
        "claimed": {"weights": [["0.50", "0.60"]]},
    }
    outcome = _check(fields)
    assert outcome.verdict == "fail"
    assert "sums to 1.1" in outcome.message


def test_value_is_the_last_checked_stage() -> None:
    fields = {
        "Q": [["0", "0"]],
        "K": [["0", "0"], ["0", "0"]],
        "V": [["2", "0"], ["0", "2"]],
        "claimed": {"weights": [["0.50", "0.50"]], "output": [["1.0", "1.0"]]},
    }
    assert _check(fields).value == pytest.approx((1.0, 1.0))


def test_sizes_alone_and_the_derived_head_size() -> None:
    outcome = _check({"heads": 8, "d_model": 512, "concat_dim": 512})
    assert outcome.ok
    assert "d_head = 512 / 8 = 64" in outcome.details


def test_given_weights_are_inputs_and_need_only_v() -> None:
    # 0.30×[1, 0] + 0.70×[0, 1] = [0.30, 0.70]; Q and K are not needed.
    fields = {
        "V": EYE,
        "weights": [["0.30", "0.70"], ["1", "0"]],
        "claimed": {"output": {1: ["1", "0"]}},
    }
    outcome = _check(fields)
    assert outcome.ok, outcome.message
    assert "output_1 = 1×[1, 0] + 0×[0, 1] = [1, 0]" in outcome.details


def test_output_rows_without_weights_need_q_and_k() -> None:
    fields = {"V": EYE, "weights": {0: ["0.5", "0.5"]}, "claimed": {"output": {1: ["1", "0"]}}}
    outcome = _check(fields)
    assert outcome.verdict == "error"
    assert "give Q, or X and W_q" in outcome.message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"tokens": ["a"]}, "nothing to check"),
        (
            {"V": EYE, "weights": EYE, "Q": EYE, "K": EYE, "claimed": {"weights": EYE}},
            "not both",
        ),
        ({"W_q": EYE, "K": EYE, "claimed": {"scores": EYE}}, "W_q needs X"),
        ({"X": EYE, "W_q": EYE, "Q": EYE, "K": EYE, "claimed": {"scores": EYE}}, "not both"),
        ({"Q": EYE, "K": EYE, "claimed": {"Q": EYE}}, "give X and W_q"),
        ({"Q": EYE, "K": EYE, "claimed": {"output": EYE}}, "needs V"),
        (
            {"Q": EYE, "K": EYE, "scale": "none", "divide_by": "2", "claimed": {"scores": EYE}},
            "drop divide_by",
        ),
        ({"Q": EYE, "K": EYE, "tokens": ["a"], "claimed": {"scores": EYE}}, "tokens names 1"),
        (
            {"X": [["1", "2", "3"]], "W_q": EYE, "K": EYE, "claimed": {"Q": [["1", "2"]]}},
            "W_q has 2 rows",
        ),
    ],
)
def test_bad_fields_are_explained(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        attention.Input.model_validate(fields)
