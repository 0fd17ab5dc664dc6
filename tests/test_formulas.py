from __future__ import annotations

import math

import mpmath  # type: ignore[import-untyped]
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.expr import ExprError, evaluate, parse
from checkers.formulas import (
    UndefinedError,
    alibi_slopes,
    forward_flops_per_token,
    gelu,
    gelu_tanh,
    layer_norm,
    relu,
    sigmoid,
    silu,
    sinusoidal_pe,
    softmax,
    softmax_rows,
    softmax_values,
    training_flops,
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


@pytest.mark.slow  # a long property run
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


# One formula, asked two ways: the kinds call checkers.formulas directly, lesson arithmetic
# (``gelu(-10)`` in an expression) reaches it through checkers.expr. The expected values are
# recomputed here with mpmath at 50 digits, independently of both.


def _expression(text: str) -> float | tuple[float, ...]:
    return evaluate(parse(text))


def _exact_gelu(x: float) -> float:
    with mpmath.workdps(50):
        return float(x * mpmath.ncdf(x))


def test_gelu_far_in_the_negative_tail_is_tiny_not_zero() -> None:
    # Φ(−10) = erfc(10/√2)/2 ≈ 7.62e-24: 1 + erf(−10/√2) would cancel to exactly 0.
    expected = _exact_gelu(-10.0)
    assert expected == pytest.approx(-7.619853024160527e-23, rel=1e-12)
    assert gelu(-10.0) == pytest.approx(expected, rel=1e-12)
    assert _expression("gelu(-10)") == gelu(-10.0)
    assert gelu(-10.0) != 0.0


@pytest.mark.parametrize("x", [-40.0, -3.0, -0.5, 0.0, 0.5, 3.0, 40.0])
def test_gelu_agrees_with_its_definition_everywhere(x: float) -> None:
    assert gelu(x) == pytest.approx(_exact_gelu(x), rel=1e-12, abs=1e-300)
    assert _expression(f"gelu({x})") == gelu(x)


@pytest.mark.parametrize("x", [1e103, 1e200])
def test_gelu_tanh_of_a_huge_input_is_the_input(x: float) -> None:
    # tanh(√(2/π)·(x + 0.044715·x³)) = 1 once x³ overflows to ∞, so 0.5·x·(1 + 1) = x;
    # x**3 would raise OverflowError instead.
    assert gelu_tanh(x) == x
    assert _expression(f"gelu_tanh({x:g})") == x
    assert gelu_tanh(-x) == 0.0


def test_gelu_tanh_near_zero_matches_its_formula() -> None:
    with mpmath.workdps(50):
        x = mpmath.mpf(1)
        expected = float(
            0.5 * x * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (x + 0.044715 * x**3)))
        )
    assert gelu_tanh(1.0) == pytest.approx(expected, rel=1e-14)
    assert _expression("gelu_tanh(1)") == gelu_tanh(1.0)


def test_activations_reach_their_limits_at_minus_infinity() -> None:
    for function in (gelu, gelu_tanh, silu, sigmoid, relu):
        assert function(-math.inf) == 0.0


def test_softmax_is_the_same_in_expressions_and_kinds() -> None:
    with mpmath.workdps(50):
        exps = [mpmath.e**k for k in (1, 2, 3)]
        expected = [float(e / sum(exps)) for e in exps]
    row = softmax([1.0, 2.0, 3.0]).tolist()
    assert row == pytest.approx(expected, rel=1e-15)
    assert list(_expression("softmax(1, 2, 3)")) == row  # type: ignore[arg-type]
    assert softmax_values([1.0, 2.0, 3.0]) == row


def test_softmax_rows_is_softmax_of_each_row() -> None:
    rows = np.array([[1.0, 2.0, 3.0], [0.0, -math.inf, 0.0]])
    assert softmax_rows(rows).tolist() == [
        pytest.approx(softmax([1.0, 2.0, 3.0]).tolist(), rel=1e-15),
        [0.5, 0.0, 0.5],
    ]


def test_an_undefined_softmax_says_the_same_in_expressions() -> None:
    with pytest.raises(UndefinedError) as direct:
        softmax_values([-math.inf, -math.inf])
    with pytest.raises(ExprError) as in_expression:
        _expression("softmax([-∞, -∞])")
    assert in_expression.value.message == str(direct.value)


def test_training_flops_of_gpt3_match_its_paper() -> None:
    # Brown et al. 2020, Table D.1: GPT-3 175B on 300B tokens took 3.14e23 FLOPs
    assert training_flops(175e9, 300e9) == pytest.approx(3.14e23, rel=0.01)


def test_forward_flops_per_token_are_twice_the_weights_plus_attention() -> None:
    # GPT-2 small, non-embedding 85M weights: 170M; with 12 layers × 1024 context × 768: +18.9M
    assert forward_flops_per_token(85e6) == pytest.approx(170e6)
    assert forward_flops_per_token(85e6, 12, 1024, 768) == pytest.approx(188.9e6, rel=1e-3)
    assert forward_flops_per_token(124e6) != pytest.approx(6e6, rel=0.5)
