"""Kind ``padding_mask``: masks rebuilt from lengths under each reading (cases worked by hand:
a sequence of length n padded to w has n real positions and w − n padding positions)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from checkers.kinds import padding_mask
from tests.kinds import check_with

_check = check_with(padding_mask)


@pytest.mark.parametrize(
    ("fields", "reading"),
    [
        ({"lengths": [3, 5], "claimed": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]}, "1 = attend"),
        ({"lengths": [3], "claimed": [[0, 0, 0, 1, 1]]}, "1 = padding"),
        ({"lengths": [3], "claimed": [["0", "0", "0", "-inf", "-inf"]]}, "−∞ = hidden"),
        ({"lengths": [2], "claimed": [["0", "0", "1", "1"]], "form": "keep_is_1"}, "left"),
        ({"lengths": [2], "claimed": [["True", "True", "False"]]}, "1 = attend"),
        (
            {
                "lengths": [2],
                "square": True,
                "causal": True,
                "claimed": [[1, 0, 0], [1, 1, 0], [1, 1, 0]],
            },
            "padding keys hidden",
        ),
        (
            {"lengths": [2], "square": True, "claimed": [[1, 1, 0], [1, 1, 0], [0, 0, 0]]},
            "padding queries' rows hidden too",
        ),
    ],
)
def test_masks_that_match_their_lengths_pass(fields: dict[str, object], reading: str) -> None:
    outcome = _check(fields)
    assert outcome.ok, outcome.message
    assert reading in outcome.message and "exact" in outcome.message


def test_a_row_with_one_real_token_too_many_fails_under_every_reading() -> None:
    outcome = _check({"lengths": [3, 5], "claimed": [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]})
    assert outcome.verdict == "fail"
    assert "every reading" in outcome.message and "row 0 column 3" in outcome.message
    assert outcome.corrections == (("[1, 1, 1, 1, 0]", "[1, 1, 1, 0, 0]"),)


def test_the_side_and_form_a_lesson_fixes_are_not_relaxed() -> None:
    # [0, 0, 1, 1, 1] is 3 real tokens padded on the left, but not on the right.
    assert _check({"lengths": [3], "claimed": [[0, 0, 1, 1, 1]]}).ok
    assert _check({"lengths": [3], "claimed": [[0, 0, 1, 1, 1]], "side": "right"}).verdict == (
        "fail"
    )
    # Under 1 = padding, [1, 1, 1, 0, 0] has 2 real tokens, not 3.
    assert (
        _check(
            {"lengths": [3], "claimed": [[1, 1, 1, 0, 0]], "form": "pad_is_1", "side": "right"}
        ).verdict
        == "fail"
    )


def test_a_causal_padding_mask_that_lets_a_query_see_the_future_fails() -> None:
    outcome = _check(
        {
            "lengths": [2],
            "square": True,
            "causal": True,
            "claimed": [[1, 1, 0], [1, 1, 0], [1, 1, 0]],
        }
    )
    assert outcome.verdict == "fail" and "row 0 column 1" in outcome.message


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"lengths": [3], "claimed": [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]}, "1 lengths for 2"),
        ({"lengths": [6], "claimed": [[1, 1, 1, 0, 0]]}, "between 0 and the row width 5"),
        ({"lengths": [2], "claimed": [[1, 0.5, 0]]}, "not '0.5'"),
        ({"lengths": [2], "causal": True, "claimed": [[1, 1, 0]]}, "square"),
    ],
)
def test_bad_inputs_name_what_is_wrong(fields: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        padding_mask.Input.model_validate(fields)
