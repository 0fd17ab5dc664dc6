"""Kind ``projection``: its case table, plus messages, corrections, chaining and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import projection
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from tests.kinds import check_with

W = [["0.1", "0.2"], ["0.3", "0.4"]]


_check = check_with(projection)


def test_wrong_vector_is_corrected_in_the_quote() -> None:
    # [1, 1]·W = [0.1 + 0.3, 0.2 + 0.4] = [0.4, 0.6].
    outcome = _check({"name": "Q_b", "x": ["1", "1"], "W": W, "claimed": ["0.40", "0.50"]})
    assert outcome.verdict == "fail"
    assert "Q_b[1]: 0.50 should be 0.60" in outcome.message
    assert apply_corrections("Q_b = [0.40, 0.50]", outcome.corrections) == "Q_b = [0.40, 0.60]"


def test_details_show_the_working_of_each_element() -> None:
    outcome = _check({"name": "Q_b", "x": ["1", "1"], "W": W, "claimed": ["0.4", "0.6"]})
    assert "Q_b[0] = 1×0.1 + 1×0.3 = 0.4" in outcome.details


def test_value_chains_a_component_or_a_vector() -> None:
    one = _check({"x": ["1", "1"], "W": W, "component": 1, "claimed": "0.6"})
    assert one.value == pytest.approx(0.6)
    whole = _check({"x": ["1", "1"], "W": W, "claimed": ["0.4", "0.6"]})
    assert whole.value == pytest.approx((0.4, 0.6))


def test_rows_of_x_name_the_token() -> None:
    outcome = _check(
        {
            "name": "K",
            "X": [["1", "0"], ["0", "1"]],
            "tokens": ["a", "b"],
            "W": W,
            "claimed": {"a": ["0.1", "0.2"], "b": ["0.4", "0.4"]},
        }
    )
    assert outcome.verdict == "fail"
    assert outcome.message.startswith("K_b = x_b·W")
    assert "K_b[0]: 0.4 should be 0.3" in outcome.message


def test_claim_tolerance_overrides_printed_precision() -> None:
    loose = Context(tolerance=Tolerance(absolute=0.05, relative=0.0, reason="±0.05: rough"))
    outcome = _check({"x": ["1", "1"], "W": W, "claimed": ["0.43", "0.58"]}, loose)
    assert outcome.ok
    assert "rough" in outcome.tolerance


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"x": ["1", "1"], "X": [["1", "1"]], "W": W, "claimed": ["1", "1"]}, "exactly one of x"),
        ({"x": ["1", "1", "1"], "W": W, "claimed": ["1", "1"]}, "W has 2 rows"),
        ({"x": ["1", "1"], "W": W, "component": 2, "claimed": "1"}, "outside 0..1"),
        ({"x": ["1", "1"], "W": W, "claimed": "0.4"}, "say which with component"),
        ({"x": ["1", "1"], "W": W, "claimed": ["0.4"]}, "x·W has 2"),
        ({"x": ["1", "1"], "W": [["1", "2"], ["3"]], "claimed": ["1", "1"]}, "same number"),
        ({"X": [["1", "1"]], "W": W, "claimed": {"z": ["1", "1"]}}, "row key 'z'"),
    ],
)
def test_bad_fields_are_explained(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment.replace("(", r"\(").replace(".", r"\.")):
        projection.Input.model_validate(fields)
