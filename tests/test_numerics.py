from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.numerics import (
    UndefinedError,
    alibi_slopes,
    gelu,
    layer_norm,
    sinusoidal_pe,
    softmax,
)


def test_softmax_of_a_textbook_row() -> None:
    # e^1 / (e^1 + e^2) = 1 / (1 + e) = 0.26894…
    assert softmax([1.0, 2.0]).tolist() == pytest.approx([0.2689414213699951, 0.7310585786300049])


def test_masked_scores_get_zero_weight() -> None:
    assert softmax([0.0, -math.inf, 0.0]).tolist() == [0.5, 0.0, 0.5]


def test_temperature_divides_the_scores() -> None:
    assert softmax([2.0, 4.0], temperature=2.0).tolist() == pytest.approx(softmax([1.0, 2.0]))


@pytest.mark.parametrize(
    ("row", "temperature", "message"),
    [
        ([], 1.0, "empty row"),
        ([-math.inf, -math.inf], 1.0, "fully masked"),
        ([1.0, math.nan], 1.0, "NaN"),
        ([1.0, math.inf], 1.0, r"\+∞"),
        ([1.0], 0.0, "temperature"),
    ],
)
def test_undefined_rows_are_refused(row: list[float], temperature: float, message: str) -> None:
    for given_row in (row, np.array(row, dtype=np.float64)):  # the small path and numpy's
        with pytest.raises(UndefinedError, match=message):
            softmax(given_row, temperature)


scores = st.floats(-50, 50) | st.just(-math.inf)


@settings(max_examples=300, deadline=None)
@given(row=st.lists(scores, min_size=1, max_size=12), temperature=st.floats(0.1, 10))
def test_the_plain_python_path_matches_numpy(row: list[float], temperature: float) -> None:
    if all(score == -math.inf for score in row):
        return
    small = softmax(row, temperature)
    large = softmax(np.array(row, dtype=np.float64), temperature)
    assert small.tolist() == pytest.approx(large.tolist(), rel=1e-12, abs=1e-15)
    assert math.fsum(small.tolist()) == pytest.approx(1.0, rel=1e-12)


def test_gelu_at_one() -> None:
    # 1 · Φ(1) = 0.841344746…
    assert gelu(1.0) == pytest.approx(0.8413447460685429)


def test_layer_norm_centres_and_scales() -> None:
    mean, variance, std, normed = layer_norm([1.0, 2.0, 3.0])
    assert (mean, variance, std) == pytest.approx((2.0, 2 / 3, math.sqrt(2 / 3)))
    assert normed.tolist() == pytest.approx([-1.224744871391589, 0.0, 1.224744871391589])


def test_sinusoidal_pe_of_position_one() -> None:
    # PE(1, 0) = sin(1) and PE(1, 1) = cos(1) for any width.
    assert sinusoidal_pe(1, 0, 4) == pytest.approx(math.sin(1))
    assert sinusoidal_pe(1, 1, 4) == pytest.approx(math.cos(1))


def test_alibi_slopes_for_eight_heads() -> None:
    assert alibi_slopes(8) == pytest.approx([2 ** -(k + 1) for k in range(8)])
