"""Relation ``ffn_params``: the parameters of one feed-forward block, or of one expert.

Formula: a plain FFN has 2 · d · d_ff weights (W₁ d × d_ff, W₂ d_ff × d), plus d_ff + d biases
when it has them; a gated one (SwiGLU, GeGLU) 3 · d · d_ff (gate, up and down projections, no
biases in LLaMA-style models). A routed expert of a mixture-of-experts layer is such a block of
its own width (``moe_intermediate_size``). Source: Vaswani et al. 2017 §3.3 (position-wise FFN);
Shazeer 2020, "GLU Variants Improve Transformer" (SwiGLU); Touvron et al. 2023 (LLaMA, no
biases); Fedus et al. 2022 (experts as FFN blocks). The checking kind is ``ffn``.

Roles read (:mod:`checkers.extract.scope`): ``hidden`` and ``d_ff`` (for an expert
``expert_d_ff``), as the section's configuration or text states them, else as a named model
publishes them; whether the block is gated from the section's words (SwiGLU, GeGLU, gate_proj,
gated) or a named model's published activation.

The statement: a line that claims a parameter count (``≈ 260M``, ``45 million parameters``) of
one FFN block or one expert it names before the count: ``dense MLP``, ``FFN block``,
``the feed-forward layer``, ``前馈层``; ``each expert``, ``per expert``, ``每个专家``. A count
of several layers, of all experts or of the whole model is left alone.

Readings accepted: gated or plain when the section says neither; with or without biases for a
plain block; the count at its printed precision, or its significant figures under ``≈``.
"""

from __future__ import annotations

import re
from typing import Any

from checkers.data import model_table
from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
)
from checkers.extract.scope import Scope

__all__ = ["CUE", "relate"]

NAME = "ffn_params"

CUE = re.compile(r"MLP|FFN|feed[\s-]*forward|前馈|expert|专家", re.IGNORECASE)
"""A statement this relation may concern names an FFN block or an expert."""

_COUNT = re.compile(r"[KMBT]|万|亿|million|billion|thousand", re.IGNORECASE)
_EXPERT = re.compile(
    r"(?:each|per|every|one|a\s+single|single)\s+(?:routed\s+)?expert\b|每个专家|单个专家|一个专家",
    re.IGNORECASE,
)
_DENSE = re.compile(
    r"dense\s+(?:MLP|FFN)|(?:MLP|FFN|feed[\s-]*forward)\s+(?:block|layer|sublayer)"
    r"|(?:the|one|each|per)\s+(?:MLP|FFN|feed[\s-]*forward)\b|前馈(?:层|网络)|稠密\s*(?:MLP|FFN)",
    re.IGNORECASE,
)
_MANY = re.compile(
    r"all\s+(?:\d+\s+)?(?:layers|experts|blocks)|total|whole|entire|全部|所有|总|\d+\s+(?:layers|experts)|"
    r"×\s*\d+\s*(?:layers|experts)|shared|attention|embedding|router",
    re.IGNORECASE,
)
_GATED = re.compile(
    r"SwiGLU|GeGLU|gate_proj|\bgated\b|门控|w3\b|three\s+matrices|3\s+matrices", re.I
)
_PLAIN = re.compile(r"\bGELU\b|\bReLU\b|two\s+matrices|2\s+matrices", re.I)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``ffn`` claim for a statement that gives one FFN block's or expert's parameters."""
    text = statement.text
    claimed = claimed_value(text, _COUNT)
    if claimed is None or claimed.printed.value < 1000:
        return None
    head = text[: claimed.start]
    expert = _EXPERT.search(head)
    if not (expert or _DENSE.search(head)) or _MANY.search(head):
        return None
    line = statement.line
    hidden = scope.value("hidden", before=line)
    width = scope.value("expert_d_ff" if expert else "d_ff", before=line)
    if hidden is None or width is None:
        return None
    variants = _variants(scope, statement)
    readings: list[Reading] = []
    for variant in variants:
        for bias in (False, True) if variant == "standard" else (False,):
            fields: dict[str, Any] = {
                "d_model": round(hidden.value),
                "d_ff": f"{round(width.value)}",
                "variant": variant,
                "bias": bias,
                "parameters": claimed.text,
            }
            what = f"{'gated (3 matrices)' if variant != 'standard' else 'plain (2 matrices)'}"
            readings.append(
                Reading(fields, describe([hidden, width], what + (", biases" if bias else "")))
            )
    chosen = first_holding("ffn", readings)
    if chosen is None:
        return None
    return Draft(
        kind="ffn",
        quote=text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"{'expert' if expert else 'ffn'}-params-{claimed.text}",
        note=f"{'one expert' if expert else 'one FFN block'}: {chosen.assumed}",
    )


def _variants(scope: Scope, statement: Statement) -> list[str]:
    """Gated, plain, or both, as the section (or a named model) says."""
    words = scope.text
    gated = bool(_GATED.search(words))
    for key in scope.models():
        spec = model_table().by_key(key)
        if spec is not None:
            gated = gated or spec.gated_ffn
    if gated:
        return ["swiglu"]
    if _PLAIN.search(words):
        return ["standard"]
    return ["standard", "swiglu"]
