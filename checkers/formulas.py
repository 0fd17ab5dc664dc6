"""The Transformer's formulas, once: softmax, activations, normalisation, positional encodings,
compute (FLOPs).

Every kind, the expression evaluator (:mod:`checkers.expr`: ``gelu(1.0)``, ``softmax(...)``)
and the interval rules (:mod:`checkers.intervals`) compute with these, so a value cannot differ
with where it was asked. Each function is total on floats: limits are returned where they exist
(GELU, SiLU of −∞ are 0; gelu_tanh of a huge x is x, cubing by multiplication so it reaches ∞
instead of raising), and what a formula leaves undefined raises :class:`UndefinedError`.

Pure functions on floats and numpy arrays; no I/O. numpy is imported by the array functions
only, so evaluating a lesson's arithmetic never loads it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]

__all__ = [
    "CHINCHILLA_EXPONENTS",
    "CHINCHILLA_TOKENS_PER_PARAMETER",
    "FORWARD_FLOPS_PER_PARAMETER",
    "TRAINING_FLOPS_PER_PARAMETER",
    "UndefinedError",
    "alibi_slopes",
    "forward_flops_per_token",
    "gelu",
    "gelu_tanh",
    "layer_norm",
    "relu",
    "rms_norm",
    "rope_angle",
    "sigmoid",
    "silu",
    "sinusoidal_pe",
    "softmax",
    "softmax_rows",
    "softmax_values",
    "training_flops",
]


class UndefinedError(ArithmeticError):
    """A quantity the formula leaves undefined (e.g. softmax of a fully masked row)."""


def softmax(scores: Sequence[float] | FloatArray, temperature: float = 1.0) -> FloatArray:
    """Softmax of one row as an array; −∞ entries (masked) get weight 0. A fully masked row,
    an empty one, NaN or +∞ scores and a temperature ≤ 0 are undefined."""
    import numpy as np

    if temperature <= 0:
        raise UndefinedError("softmax temperature must be positive")
    if not isinstance(scores, np.ndarray) and len(scores) <= _SMALL_ROW:
        return np.array(softmax_values([float(score) for score in scores], temperature))
    row = np.asarray(scores, dtype=np.float64)
    _check_row(
        row.size,
        bool(np.all(np.isneginf(row))),
        bool(np.any(~np.isfinite(row) & ~np.isneginf(row))),
    )
    shifted = (row - row.max()) / temperature
    weights = np.exp(shifted)
    result: FloatArray = weights / weights.sum()
    return result


_SMALL_ROW = 64
"""Rows up to this length are computed in plain Python: for the 2 to 8 scores of a lesson's
example, numpy's per-call overhead costs ten times the arithmetic."""


def softmax_values(row: Sequence[float], temperature: float = 1.0) -> list[float]:
    """:func:`softmax` of a short row in plain Python (what :func:`softmax` uses up to
    ``_SMALL_ROW`` entries, and what ``softmax(...)`` in lesson arithmetic computes)."""
    if temperature <= 0:
        raise UndefinedError("softmax temperature must be positive")
    _check_row(
        len(row),
        all(score == -math.inf for score in row),
        any(math.isnan(score) or score == math.inf for score in row),
    )
    peak = max(row)
    weights = [math.exp((score - peak) / temperature) for score in row]
    total = math.fsum(weights)
    return [weight / total for weight in weights]


def _check_row(size: int, all_masked: bool, any_undefined: bool) -> None:
    if size == 0:
        raise UndefinedError("softmax of an empty row is undefined")
    if all_masked:
        raise UndefinedError("softmax of a fully masked row is undefined (every score is −∞: 0/0)")
    if any_undefined:
        raise UndefinedError("softmax of NaN or +∞ scores is undefined")


def softmax_rows(rows: FloatArray) -> FloatArray:
    """Softmax of every row of a 2-D array at once (finite or −∞ entries, at least one finite
    per row): the same formula, vectorised for fitting an unknown score on a grid."""
    shifted = rows - rows.max(axis=1, keepdims=True)
    exps = _np().exp(shifted)
    result: FloatArray = exps / exps.sum(axis=1, keepdims=True)
    return result


def _np() -> Any:
    import numpy as np

    return np


def relu(x: float) -> float:
    """max(0, x)."""
    return max(0.0, x)


def gelu(x: float) -> float:
    """Exact GELU, x·Φ(x) with the standard normal CDF (Hendrycks & Gimpel 2016); 0 at −∞."""
    if x == -math.inf:
        return 0.0
    # Φ(x) = erfc(−x/√2)/2: for x << 0, 1 + erf(x/√2) cancels to 0 (GELU(−10) would be −0.0
    # instead of −7.6e-23).
    return 0.5 * x * math.erfc(-x / math.sqrt(2.0))


def gelu_tanh(x: float) -> float:
    """The tanh approximation of GELU used by GPT-2 and BERT; 0 at −∞."""
    if x == -math.inf:
        return 0.0
    # x*x*x rather than x**3: float ** raises OverflowError where * reaches inf (and tanh 1).
    inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + math.tanh(inner))


def sigmoid(x: float) -> float:
    """1 / (1 + e^−x), computed without overflow for large |x|."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def silu(x: float) -> float:
    """SiLU / Swish-1: x·sigmoid(x); 0 at −∞."""
    return 0.0 if x == -math.inf else x * sigmoid(x)


def layer_norm(
    x: Sequence[float], epsilon: float = 0.0, *, eps_inside_sqrt: bool = True
) -> tuple[float, float, float, FloatArray]:
    """(mean, population variance, std, normalised vector) as LayerNorm computes them.

    LayerNorm uses the population variance (divide by d, not d − 1). ``eps_inside_sqrt``
    chooses between √(var + ε) (PyTorch) and std + ε (some textbooks).
    """
    values = _np().asarray(x, dtype=float)
    mean = float(values.mean())
    variance = float(((values - mean) ** 2).mean())
    std = math.sqrt(variance)
    denominator = math.sqrt(variance + epsilon) if eps_inside_sqrt else std + epsilon
    if denominator == 0:
        raise UndefinedError("LayerNorm of a constant vector with ε = 0 divides by zero")
    normalised: FloatArray = (values - mean) / denominator
    return mean, variance, std, normalised


def rms_norm(x: Sequence[float], epsilon: float = 0.0) -> tuple[float, FloatArray]:
    """(root mean square, normalised vector) as RMSNorm computes them."""
    values = _np().asarray(x, dtype=float)
    rms = math.sqrt(float((values**2).mean()) + epsilon)
    if rms == 0:
        raise UndefinedError("RMSNorm of a zero vector with ε = 0 divides by zero")
    normalised: FloatArray = values / rms
    return rms, normalised


def sinusoidal_pe(
    pos: float, index: int, d_model: int, base: float = 10000.0, layout: str = "interleaved"
) -> float:
    """PE(pos, index) of "Attention Is All You Need" §3.5.

    ``interleaved`` (the paper): even index 2i is sin(pos / base^(2i/d_model)), odd index 2i+1
    is cos of the same angle. ``halves`` (tensor2tensor, many tutorials): the first d_model/2
    dimensions are the sines sin(pos / base^(2i/d_model)) for i = 0 … d_model/2 − 1, the last
    d_model/2 the cosines of the same angles, in the same order.
    """
    if not 0 <= index < d_model:
        raise UndefinedError(f"dimension index {index} is outside 0..{d_model - 1}")
    if layout == "halves":
        half = d_model // 2
        if d_model % 2:
            raise UndefinedError(f"the sine/cosine halves need an even d_model, got {d_model}")
        pair, sine = index % half, index < half
    else:
        pair, sine = index // 2, index % 2 == 0
    angle = pos / base ** (2 * pair / d_model)
    return math.sin(angle) if sine else math.cos(angle)


def rope_angle(pos: float, pair: int, d_head: int, base: float = 10000.0) -> float:
    """RoPE rotation angle of dimension pair ``pair`` at position ``pos``: pos·base^(−2i/d)."""
    if not 0 <= pair < d_head // 2:
        raise UndefinedError(f"pair index {pair} is outside 0..{d_head // 2 - 1}")
    return float(pos * base ** (-2 * pair / d_head))


def alibi_slopes(heads: int) -> list[float]:
    """ALiBi head slopes (Press et al. 2022): 2^(−8k/n) for k = 1..n when n is a power of two;
    otherwise the closest power of two's slopes plus every other slope of the next one."""
    if heads < 1:
        raise UndefinedError("ALiBi needs at least one head")

    def power_of_two(n: int) -> list[float]:
        start = 2.0 ** (-8.0 / n)
        return [start ** (k + 1) for k in range(n)]

    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** math.floor(math.log2(heads))
    return power_of_two(closest) + power_of_two(2 * closest)[0::2][: heads - closest]


FORWARD_FLOPS_PER_PARAMETER = 2
"""A forward pass costs one multiply and one add per weight per token (Kaplan et al. 2020,
"Scaling Laws for Neural Language Models", §2.1 and Table 1: C_forward ≈ 2N + 2·n_layer·n_ctx·d)."""
TRAINING_FLOPS_PER_PARAMETER = 6
"""Forward (2) plus backward (4, twice the forward) FLOPs per weight per training token: C ≈ 6·N·D
(Kaplan et al. 2020 §2.1; Hoffmann et al. 2022, "Training Compute-Optimal Large Language
Models", §3)."""


def forward_flops_per_token(
    params: float, layers: float = 0.0, context: float = 0.0, hidden: float = 0.0
) -> float:
    """Forward FLOPs for one token: 2·N, plus attention's 2·n_layer·n_ctx·d over the context
    when layers, context and width are given (Kaplan et al. 2020, Table 1)."""
    return FORWARD_FLOPS_PER_PARAMETER * params + 2.0 * layers * context * hidden


def training_flops(params: float, tokens: float) -> float:
    """Training FLOPs for ``tokens`` tokens on a model of ``params`` weights: 6·N·D."""
    return TRAINING_FLOPS_PER_PARAMETER * params * tokens


CHINCHILLA_TOKENS_PER_PARAMETER = 20
"""Compute-optimal training tokens per parameter (Hoffmann et al. 2022, Table 3: 20–22 from 1B to
175B parameters)."""
CHINCHILLA_EXPONENTS: tuple[tuple[float, float], ...] = ((0.50, 0.50), (0.49, 0.51), (0.46, 0.54))
"""The fitted exponents (a, b) of N_opt ∝ C^a and D_opt ∝ C^b, one pair per approach of
Hoffmann et al. 2022 (Table 2: 0.50/0.50, 0.49/0.51, 0.46/0.54): k× the compute calls for about
√k× the parameters and √k× the tokens."""
