"""Kind ``masked_softmax``: its case table, plus mask checks, undefined rows, unknown scores."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import masked_softmax
from tests.kinds import check_with

RAW = [["0", "1", "2"], ["0", "0", "3"], ["1", "1", "1"]]


_check = check_with(masked_softmax)


def test_causal_mask_mismatch_names_every_cell_with_tokens() -> None:
    # A "causal" matrix that only hides (1, 2) and wrongly hides all of row 2.
    masked = [["0", "1", "2"], ["0", "0", "-inf"], ["-inf", "-inf", "-inf"]]
    outcome = _check(
        {
            "scores": RAW,
            "masked_scores": masked,
            "mask": "causal",
            "tokens": ["a", "b", "c"],
            "rows": {"c": ["0", "0", "1"]},
        }
    )
    assert outcome.verdict == "fail"
    assert "leaves (a, b), (a, c) visible" in outcome.message
    assert "hides (c, a), (c, b), (c, c), which a causal mask keeps visible" in outcome.message
    # Row c: the printed matrix leaves nothing (0/0); causal leaves all three equal scores 1.
    assert "0/0" in outcome.message
    assert "softmax([1, 1, 1]) = [0.33, 0.33, 0.33]" in outcome.message
    assert outcome.corrections == (("0", "0.33"), ("0", "0.33"), ("1", "0.33"))


def test_printed_matrix_must_agree_with_the_scores_outside_the_mask() -> None:
    masked = [["0", "-inf", "-inf"], ["0", "5", "-inf"], ["1", "1", "1"]]
    outcome = _check(
        {"scores": RAW, "masked_scores": masked, "mask": "causal", "rows": {0: ["1", "0", "0"]}}
    )
    assert outcome.verdict == "fail"
    assert "cell (1, 1) reads 5 in the masked matrix but 0 in the scores" in outcome.message


def test_value_is_the_weights_of_the_claimed_rows() -> None:
    outcome = _check(
        {"scores": [["0", "0"], ["0", "0"]], "mask": "causal", "rows": {1: ["0.5", "0.5"]}}
    )
    assert outcome.ok
    assert outcome.value == pytest.approx((0.5, 0.5))


def test_fill_zero_reports_the_range_of_the_unknown_score() -> None:
    # softmax([s, 0]) = [0.73, 0.27] for e^s/(e^s + 1) ∈ [0.725, 0.735]: s ∈ [0.969, 1.020].
    outcome = _check(
        {
            "mask": "causal",
            "size": 2,
            "unknown_scores": True,
            "fill": 0,
            "rows": {0: ["0.73", "0.27"]},
        }
    )
    assert outcome.ok
    assert "0.9694 ≤ s ≤ 1.02" in outcome.message
    assert outcome.value is None


def test_fill_zero_with_known_scores_is_plain_softmax() -> None:
    # Hidden (0, 1) filled with 0 instead of −∞: softmax([0, 0]) = [0.5, 0.5].
    outcome = _check(
        {"scores": [["0", "9"]], "mask": "causal", "fill": 0, "claimed": [["0.50", "0.50"]]}
    )
    assert outcome.ok
    assert "filled with 0" in outcome.message


def test_fill_minus_infinity_is_the_default() -> None:
    fields = {"scores": [["0", "9"]], "mask": "causal", "fill": "-inf", "claimed": [["1", "0"]]}
    assert masked_softmax.Input.model_validate(fields).fill is None
    assert _check(fields).ok


def test_unknown_scores_still_need_masked_weights_zero() -> None:
    outcome = _check(
        {"mask": "causal", "size": 2, "unknown_scores": True, "rows": {0: ["0.90", "0.10"]}}
    )
    assert outcome.verdict == "fail"
    assert "is masked (−∞), so its weight is 0, not 0.10" in outcome.message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"scores": [["0"]]}, "give claimed (every row) or rows"),
        ({"scores": [["0", "1"]], "mask": "padding", "claimed": [["1", "0"]]}, "needs valid"),
        (
            {"scores": [["0"]], "unknown_scores": True, "claimed": [["1"]]},
            "unknown_scores means no scores",
        ),
        ({"scores": [["0", "abc"]], "claimed": [["1", "0"]]}, "written −∞ or -inf"),
        ({"mask": "causal", "rows": {0: ["1"]}}, "or size"),
        ({"scores": [["0", "1"]], "rows": {3: ["1", "0"]}}, "outside 0..0"),
        ({"scores": [["0", "1"]], "mask": [[1, 0, 1]], "claimed": [["1", "0"]]}, "mask matrix"),
        ({"scores": [["0", "1"]], "claimed": [["1", "0", "0"]]}, "claimed is 1×3"),
    ],
)
def test_bad_fields_are_explained(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        masked_softmax.Input.model_validate(fields)
