"""Kind ``ffn``: its case table, plus shape fixes, chaining value and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import ffn
from checkers.numbers import apply_corrections
from tests.kinds import check_with

_check = check_with(ffn)


def test_shape_fixes_keep_the_printed_separator() -> None:
    quote = "W₁ 是 2048 × 512 的矩阵，W₂ 是 2048 × 2048 的矩阵"
    outcome = _check(
        {"d_model": 512, "d_ff": "2048", "w1_shape": "2048 × 512", "w2_shape": "2048 × 2048"}
    )
    assert apply_corrections(quote, outcome.corrections) == (
        "W₁ 是 512 × 2048 的矩阵，W₂ 是 2048 × 512 的矩阵"
    )


def test_derived_dff_is_used_for_the_shapes() -> None:
    outcome = _check({"d_model": 4, "multiplier": "4", "w1_shape": "4×16", "b1_size": 16})
    assert outcome.ok and outcome.value == 16.0


def test_value_is_the_recomputed_dff_when_the_printed_one_is_wrong() -> None:
    assert _check({"d_model": 512, "d_ff": "2000", "multiplier": "4"}).value == 2048.0


def test_parameters_chain_as_a_count() -> None:
    outcome = _check({"d_model": 512, "d_ff": "2048", "parameters": "2.1M"})
    assert outcome.ok and outcome.value == 2_099_712.0


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"d_model": 512}, "give d_ff"),
        ({"d_model": 512, "d_ff": "2048"}, "nothing to check"),
        ({"d_model": 512, "d_ff": "2048.5", "b1_size": 2048}, "whole number"),
        ({"d_model": 512, "d_ff": "2048", "w3_shape": "512×2048"}, "variant: swiglu"),
        ({"d_model": 512, "d_ff": "2048", "w1_shape": "512 by 2048"}, "matrix shape"),
        ({"d_model": 4096, "variant": "swiglu", "d_ff": "11008", "b1_size": 11008}, "no biases"),
        ({"d_model": 0, "d_ff": "4", "b1_size": 4}, "greater than or equal to 1"),
    ],
)
def test_bad_fields_are_refused_with_a_reason(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        ffn.Input.model_validate(fields)
    assert fragment in str(raised.value)
