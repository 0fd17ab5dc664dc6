"""Kind ``positional``: its case table, plus messages, corrections and validation."""

from __future__ import annotations

import math
from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import positional
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from tests.kinds import check_with

_check = check_with(positional)


def test_written_exponent_fix_rewrites_the_whole_step() -> None:
    quote = "PE(2, 4) = sin(2 / 10000^1) = sin(0.0002) ≈ 0.0002"
    outcome = _check(
        {
            "d_model": 8,
            "pos": 2,
            "index": 4,
            "written_exponent": "1",
            "written_argument": "0.0002",
            "claimed": "0.0002",
        }
    )
    assert outcome.verdict == "fail"
    assert apply_corrections(quote, outcome.corrections) == (
        "PE(2, 4) = sin(2 / 10000^0.5) = sin(0.0200) ≈ 0.0200"
    )
    assert outcome.value == pytest.approx(math.sin(0.02))


def test_written_exponent_as_expression_in_i_and_d_model() -> None:
    fields = {"d_model": 8, "pos": 5, "index": 3, "written_exponent": "2i/d_model"}
    assert _check({**fields, "claimed": "0.878"}).ok


def test_value_of_a_single_dimension_chains_as_float() -> None:
    outcome = _check({"d_model": 8, "pos": 1, "index": 0, "claimed": "0.84"})
    assert outcome.value == pytest.approx(math.sin(1.0))


def test_table_in_dimension_order_fixes_a_box_drawing() -> None:
    # A box drawing prints one row per dimension across the positions.
    quote = "│[0,│[0.84,│[0.91,│\n│ 1]│ 0.54]│ 0.42]│"
    outcome = _check(
        {
            "d_model": 2,
            "quote_order": "by_dimension",
            "table": {0: ["0", "1"], 1: ["0.84", "0.54"], 2: ["0.91", "0.42"]},
        }
    )
    assert outcome.verdict == "fail"
    assert apply_corrections(quote, outcome.corrections) == quote.replace("0.42", "-0.42")
    assert isinstance(outcome.value, tuple) and len(outcome.value) == 6


def test_index_range_fix() -> None:
    quote = "i = 维度索引（0, 1, 2, ..., d_model/2）"
    outcome = _check({"index_range_end": "d_model/2"})
    assert apply_corrections(quote, outcome.corrections) == (
        "i = 维度索引（0, 1, 2, ..., d_model/2 − 1）"
    )


def test_claim_tolerance_overrides_printed_precision() -> None:
    loose = Context(tolerance=Tolerance(0.01, 0.0, "±0.01: the lesson rounds loosely"))
    fields = {"d_model": 2, "pos": 1, "index": 0, "claimed": "0.85"}
    assert _check(fields).verdict == "fail"
    assert _check(fields, loose).ok


def test_rope_angle_without_pos_is_the_frequency() -> None:
    outcome = _check({"encoding": "rope", "d_head": 8, "pair": 2, "claimed": "0.01"})
    assert outcome.ok and "frequency" in outcome.message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"pos": 1, "index": 0, "claimed": "0.84"}, "d_model is required"),
        ({"d_model": 4, "pos": 1, "claimed": "0.84"}, "whole vector"),
        ({"d_model": 4, "pos": 1, "claimed": ["0.84", "0.54"]}, "d_model = 4"),
        ({"d_model": 4, "pos": 1, "index": 0, "claimed": ["0.84"]}, "one number"),
        (
            {"d_model": 2, "pos": 1, "claimed": ["0.84", "0.54"], "written_exponent": "1"},
            "give index",
        ),
        ({"d_model": 2, "table": {0: ["0"]}}, "has 1 values"),
        ({"encoding": "rope", "d_model": 8, "pos": 1, "claimed": "1"}, "d_head"),
        ({"encoding": "alibi", "heads": 8, "claimed": ["0.5"]}, "1 slopes for 8 heads"),
        ({"encoding": "alibi", "heads": 8, "distance": 2, "claimed": "1"}, "distance needs head"),
        ({"d_model": 4, "pos": 1, "index": 0, "claimed": "0.84", "heads": 2}, "do(es) not apply"),
        ({"d_model": 4, "pos": 1, "index": 0, "claimed": "0.84", "colour": 1}, "Extra inputs"),
    ],
)
def test_bad_fields_are_refused_with_a_reason(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        positional.Input.model_validate(fields)
    assert fragment in str(raised.value)


def test_an_added_vector_must_be_as_wide_as_the_encoding() -> None:
    with pytest.raises(ValidationError, match="added has 3 values, but d_model = 4"):
        positional.Input.model_validate(
            {"d_model": 4, "pos": 1, "added": ["0.1", "0.2", "0.3"], "claimed": ["1"] * 4}
        )
    with pytest.raises(ValidationError, match="added is a whole vector"):
        positional.Input.model_validate(
            {"d_model": 4, "pos": 1, "index": 0, "added": ["0"], "claimed": "1"}
        )
