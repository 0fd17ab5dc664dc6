"""Every claim kind by name: the module that checks it and the line that says what it checks.

A table of plain data, importing nothing, so that what needs only the names or the summaries
(the SARIF report's rules, "did you mean" for a misspelt kind) never imports a kind module, and
with it numpy or sympy. :mod:`checkers.kinds` imports the modules from it on first use. Each
summary is its module docstring's first line (a test holds them equal).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KINDS", "KindEntry"]


@dataclass(frozen=True)
class KindEntry:
    """One registered kind."""

    module: str
    """The module implementing it (``checkers.kinds.<name>``)."""
    summary: str
    """What a claim of this kind states, in one line (the SARIF rule's full description)."""


KINDS: dict[str, KindEntry] = {
    "accelerator_spec": KindEntry(
        "checkers.kinds.accelerator_spec",
        "Kind accelerator_spec: a published figure of a named accelerator (memory, bandwidth, "
        "peak).",
    ),
    "activation": KindEntry(
        "checkers.kinds.activation",
        "Kind activation: an activation function's values on stated inputs.",
    ),
    "arrays": KindEntry(
        "checkers.kinds.arrays",
        "Kind arrays: the value or shape a line of NumPy/PyTorch code gives for literal arrays.",
    ),
    "arithmetic": KindEntry(
        "checkers.kinds.arithmetic",
        "Kind arithmetic: an expression, or an equation chain, equals the printed value.",
    ),
    "attention": KindEntry(
        "checkers.kinds.attention",
        "Kind attention: a worked self-attention example, stage by stage, and multi-head sizes.",
    ),
    "counting": KindEntry(
        "checkers.kinds.counting",
        "Kind counting: discrete counts that LLM lessons work out by hand.",
    ),
    "dtype_spec": KindEntry(
        "checkers.kinds.dtype_spec",
        "Kind dtype_spec: a stated width, byte size, value count or largest value of a number "
        "type.",
    ),
    "ffn": KindEntry(
        "checkers.kinds.ffn",
        "Kind ffn: the shapes and parameter count of a Transformer feed-forward block.",
    ),
    "identity": KindEntry(
        "checkers.kinds.identity",
        "Kind identity: an exact statement such as 512 = 8 × 64 or 3072 = 768 × 4.",
    ),
    "masked_softmax": KindEntry(
        "checkers.kinds.masked_softmax",
        "Kind masked_softmax: weights after masking a score matrix, and the mask itself.",
    ),
    "matrix_arithmetic": KindEntry(
        "checkers.kinds.matrix_arithmetic",
        "Kind matrix_arithmetic: a sum, product, multiple or transpose of printed matrices.",
    ),
    "memory": KindEntry(
        "checkers.kinds.memory",
        "Kind memory: bytes of model weights, of a KV cache, or both, against a printed size.",
    ),
    "model_config": KindEntry(
        "checkers.kinds.model_config",
        "Kind model_config: a row of a model-size table, checked three ways.",
    ),
    "norm": KindEntry(
        "checkers.kinds.norm",
        "Kind norm: LayerNorm and RMSNorm statistics and normalised vectors of one printed input.",
    ),
    "padding_mask": KindEntry(
        "checkers.kinds.padding_mask",
        "Kind padding_mask: a padding (attention) mask against the sequence lengths it is built "
        "from.",
    ),
    "positional": KindEntry(
        "checkers.kinds.positional",
        "Kind positional: positional encodings — sinusoidal PE values, RoPE angles, ALiBi slopes.",
    ),
    "projection": KindEntry(
        "checkers.kinds.projection",
        "Kind projection: a vector claimed to be x·W for a stated row vector x and matrix W.",
    ),
    "residual": KindEntry(
        "checkers.kinds.residual",
        "Kind residual: a residual (skip) connection's output F(x) + x, element by element.",
    ),
    "renormalised": KindEntry(
        "checkers.kinds.renormalised",
        "Kind renormalised: the top-k entries of a probability row, renormalised to sum to 1.",
    ),
    "scaling": KindEntry(
        "checkers.kinds.scaling",
        "Kind scaling: how a cost grows (8k → 64×) or which product a quantity follows.",
    ),
    "scores": KindEntry(
        "checkers.kinds.scores",
        "Kind scores: attention scores q·k (optionally divided by √d_k) equal the printed values.",
    ),
    "softmax": KindEntry(
        "checkers.kinds.softmax",
        "Kind softmax: printed weights are the softmax of printed scores, and each row sums to 1.",
    ),
    "sum_range": KindEntry(
        "checkers.kinds.sum_range",
        "Kind sum_range: printed terms whose sum a lesson states as a range (~8-10 hours).",
    ),
    "statistic": KindEntry(
        "checkers.kinds.statistic",
        "Kind statistic: a moment claimed for a random quantity, proven symbolically with sympy.",
    ),
}
"""Kind name (the ``kind:`` field of a claim) → its entry. To add a kind, write
``checkers/kinds/<name>.py`` and add it here."""
