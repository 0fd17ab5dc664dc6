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


# RoPE readings (values from numpy: d_head = 8, base 10000 gives θ = 1, 0.1, 0.01, 0.001).


def test_rope_pair_numbering_either_names_the_reading_that_matched() -> None:
    # θ_1 = 1 only when pairs are counted from 1 (RoFormer); θ_1 = 0.1 when counted from 0.
    from_one = _check(
        {"encoding": "rope", "d_head": 8, "pair": 1, "numbering": "either", "claimed": "1"}
    )
    assert from_one.ok and "counted from 1" in from_one.message
    from_zero = _check(
        {"encoding": "rope", "d_head": 8, "pair": 1, "numbering": "either", "claimed": "0.1"}
    )
    assert from_zero.ok and "counted from 0" in from_zero.message
    neither = _check(
        {"encoding": "rope", "d_head": 8, "pair": 1, "numbering": "either", "claimed": "0.01"}
    )
    assert neither.verdict == "fail" and "counted from 1 it would be 1" in neither.message


def test_rope_from_one_has_no_pair_zero_and_shifts_the_exponent() -> None:
    assert _check(
        {"encoding": "rope", "d_head": 8, "pair": 4, "numbering": "from_1", "claimed": "0.001"}
    ).ok
    outcome = _check(
        {"encoding": "rope", "d_head": 8, "pair": 0, "numbering": "from_1", "claimed": "1"}
    )
    assert outcome.verdict == "error" and "pairs 1 … 4" in outcome.message


def test_rope_wavelength_is_two_pi_over_theta() -> None:
    # 2π / 0.1 = 62.83; 2π · 10000^(6/8) = 6283.2
    assert _check(
        {"encoding": "rope", "d_head": 8, "pair": 1, "wavelength": True, "claimed": "62.8"}
    ).ok
    wrong = _check(
        {"encoding": "rope", "d_head": 8, "pair": 3, "wavelength": True, "claimed": "1000"}
    )
    assert wrong.verdict == "fail" and "2π/θ_i" in wrong.message and "6283" in wrong.expected


def test_rope_base_of_llama_3() -> None:
    # 500000^(−2/128) = 0.8146
    fields = {"encoding": "rope", "d_head": 128, "pair": 1, "base": 500000}
    assert _check({**fields, "claimed": "0.815"}).ok
    assert _check({**fields, "claimed": "0.865"}).verdict == "fail"  # 10000^(−2/128) = 0.866


def test_rope_rotation_under_either_pair_layout() -> None:
    # x = [1, 0, 0, 1] at pos 1, d = 4: angles 1 and 0.01.
    # interleaved: (1, 0) → (cos 1, sin 1), (0, 1) → (−sin 0.01, cos 0.01)
    # half: (x0, x2) = (1, 0) rotate by 1, (x1, x3) = (0, 1) by 0.01
    fields = {
        "encoding": "rope",
        "d_head": 4,
        "pos": 1,
        "x": ["1", "0", "0", "1"],
        "pairing": "either",
    }
    interleaved = _check({**fields, "claimed": ["0.54", "0.84", "-0.01", "1.00"]})
    assert interleaved.ok and "(2i, 2i+1)" in interleaved.message
    half = _check({**fields, "claimed": ["0.54", "-0.01", "0.84", "1.00"]})
    assert half.ok and "(i, i + d/2)" in half.message
    assert _check({**fields, "claimed": ["0.84", "0.54", "-0.01", "1.00"]}).verdict == "fail"


def test_rope_wavelength_of_a_position_is_refused() -> None:
    with pytest.raises(ValidationError, match="omit pos"):
        positional.Input.model_validate(
            {
                "encoding": "rope",
                "d_head": 8,
                "pair": 1,
                "pos": 2,
                "wavelength": True,
                "claimed": "1",
            }
        )
