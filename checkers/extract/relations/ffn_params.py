"""Relation ``ffn_params``: the parameters of one feed-forward block, or of one expert.

Formula: a plain FFN has 2 · d · d_ff weights (W₁ d × d_ff, W₂ d_ff × d), plus d_ff + d biases
when it has them; a gated one (SwiGLU, GeGLU) 3 · d · d_ff (gate, up and down projections, no
biases in LLaMA-style models). A routed expert of a mixture-of-experts layer is such a block of
its own width (``moe_intermediate_size``). Source: Vaswani et al. 2017 §3.3 (position-wise FFN);
Shazeer 2020, "GLU Variants Improve Transformer" (SwiGLU); Touvron et al. 2023 (LLaMA, no
biases); Fedus et al. 2022 (experts as FFN blocks). The checking kind is ``ffn``.

Roles read (:mod:`checkers.extract.scope`): ``hidden`` and ``d_ff`` (for an expert
``expert_d_ff``), as the section's configuration or text states them, else as the lesson's
printed configuration (``hidden_size: 7168`` in another section) or a named model publishes
them; whether the block is gated from the section's words (SwiGLU, GeGLU, gate_proj, gated), a
model it names, or the published model whose configuration the lesson prints
(:meth:`~checkers.extract.scope.Scope.printed_models`, when every such model agrees).

The statement (LaTeX read plain): a line that claims a parameter count of one FFN block or one
expert it names: the count its sentence ends with (``The dense MLP block holds ≈ 35M``, a
display formula whose lead-in names the block: ``The MLP of one block holds $$2 · d · d_ff =
N$$``), or a size in brackets right after the part, read with the part's own clause of a sum
(``dense MLP (~260M per block)``, ``256 experts each (30M apiece)``). Names: ``dense MLP``,
``FFN block``, ``the feed-forward layer``, ``its SwiGLU MLP``, ``a gated FFN``, ``前馈层``;
``each expert``, ``per expert``, ``experts each``, ``每个专家``. A count of several layers, of all
experts or of the whole model is left alone; a bare number (no M/B) counts only as a
product's result of at least 10^5. A table row: its parameters cell
(:func:`~checkers.extract.relations.base.parameters_cell`) when its label names the block
(``MLP (gate, up, down)``) in a table of one layer, or one expert.

Readings accepted: gated or plain when nothing says which; with or without biases for a plain
block; the count at its printed precision, or its significant figures under ``≈``/``~``. The
message names what decided gated or plain.
"""

from __future__ import annotations

import re
from typing import Any

from checkers.data import model_table
from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Claimed,
    Reading,
    Statement,
    bracketed_counts,
    claimed_value,
    describe,
    first_holding,
    parameters_cell,
    sentence,
)
from checkers.extract.scope import Scope

__all__ = ["CUE", "relate"]

NAME = "ffn_params"

CUE = re.compile(r"MLP|FFN|feed[\s-]*forward|前馈|expert|专家", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("mlp", "ffn", "feed", "前馈", "expert", "专家")
"""A statement this relation may concern names an FFN block or an expert."""

_COUNT = re.compile(r"[KMBT]|万|亿|million|billion|thousand|", re.IGNORECASE)
_EXPERT = re.compile(
    r"(?:each|per|every|one|a\s+single|single)\s+(?:routed\s+)?expert\b|\bexperts?\s+(?:each|apiece)\b"
    r"|每个专家|单个专家|一个专家",
    re.IGNORECASE,
)
_DENSE = re.compile(
    r"dense\s+(?:MLP|FFN)|(?:MLP|FFN|feed[\s-]*forward)\s+(?:block|layer|sublayer)"
    r"|(?:the|one|each|per|its|this|that|a)\s+(?:(?:SwiGLU|GeGLU|gated|dense|plain)\s+)?"
    r"(?:MLP|FFN|feed[\s-]*forward)\b|前馈(?:层|网络)|稠密\s*(?:MLP|FFN)",
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
    for claimed, head in _claims(statement):
        draft = _draft(statement, scope, claimed, head)
        if draft is not None:
            return draft
    return None


def _claims(statement: Statement) -> list[tuple[Claimed, str]]:
    """The counts the statement gives, each with the words that say what it counts: the
    sizes it puts in brackets after a part (:func:`bracketed_counts`), else the count its
    sentence ends with (``the dense MLP block holds ≈ 35M parameters``, ``The MLP of one block
    holds $$2 · 4096 · 11008 = 90{,}177{,}536$$``)."""
    found = [(part.claimed, part.clause) for part in bracketed_counts(statement)]
    # "The MLP block (d_ff = 8192) holds 16.8M": a bracket that holds a width, not a count, is
    # tried first and the count the sentence ends with after it
    return found + [c for c in _sentence_claim(statement) if c[0].start not in _starts(found)]


def _starts(found: list[tuple[Claimed, str]]) -> set[int]:
    return {claimed.start for claimed, _ in found}


def _sentence_claim(statement: Statement) -> list[tuple[Claimed, str]]:
    """The count the statement's sentence ends with, or a table row's parameters cell."""
    text = statement.text
    if statement.header and text.lstrip().startswith("|"):
        return _row(statement)
    claimed = claimed_value(text, _COUNT)
    if claimed is None:
        return []
    if claimed.printed.unit is None and not _BARE_COUNT.search(text[: claimed.start]):
        return []  # a bare number is a count only as a product's result: 2 · d · d_ff = N
    return [(claimed, sentence(statement, claimed.start))]


def _row(statement: Statement) -> list[tuple[Claimed, str]]:
    """A table row's parameters cell (:func:`parameters_cell`) when its label names the FFN
    block or one expert (``MLP (gate, up, down)``, ``one expert``) and the row is of one layer
    (its header or the section says ``one layer`` / ``per layer``); the words returned name
    the block as the statement's own words would."""
    cell = parameters_cell(statement)
    if cell is None:
        return []
    claimed, label = cell
    name = label.split("(")[0]
    if _MULTIPLIED.search(name):
        return []  # "32 × MLP": every layer's blocks
    if _ROW_EXPERT.match(name):
        return [(claimed, "each expert")]
    if _ROW_BLOCK.match(name) and (_ONE_LAYER.search(label) or _ONE_LAYER.search(statement.topic)):
        return [(claimed, "one FFN block")]
    return []


_ROW_BLOCK = re.compile(r"\W*(?:dense\s+)?(?:MLP|FFN|feed[\s-]*forward|前馈)", re.IGNORECASE)
_ROW_EXPERT = re.compile(
    r"\W*(?:one\s+|each\s+|per\s+|a\s+single\s+)?(?:routed\s+)?expert\b|每个专家", re.I
)
_MULTIPLIED = re.compile(r"\d+\s*[×x*]|[×x*]\s*\d+|all\b|total|全部|所有", re.IGNORECASE)
_ONE_LAYER = re.compile(
    r"per[\s-](?:layer|block)|(?:one|each|a\s+single|single)\s+(?:layer|block)|每层|单层|一层",
    re.IGNORECASE,
)


def _draft(statement: Statement, scope: Scope, claimed: Claimed, head: str) -> Draft | None:
    if claimed.printed.value < 1000 or (
        claimed.printed.unit is None and claimed.printed.value < 1e5
    ):
        return None
    expert = _EXPERT.search(head)
    if not (expert or _DENSE.search(head)) or _MANY.search(_EXPERT.sub("", head)):
        return None
    line = statement.line
    hidden = scope.value("hidden", before=line)
    width = scope.value("expert_d_ff" if expert else "d_ff", before=line)
    if hidden is None or width is None:
        return None
    variants, why = _variants(scope)
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
            if why:
                what += f": {why}"
            readings.append(
                Reading(fields, describe([hidden, width], what + (", biases" if bias else "")))
            )
    chosen = first_holding("ffn", readings)
    if chosen is None:
        return None
    return Draft(
        kind="ffn",
        quote=statement.text[: claimed.end].strip() if claimed.end else statement.text.strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"{'expert' if expert else 'ffn'}-params-{claimed.text}",
        note=f"{'one expert' if expert else 'one FFN block'}: {chosen.assumed}",
    )


_BARE_COUNT = re.compile(r"\d\s*[×·*x]\s*\d[\d,\s×·*x()+]*[=≈]\s*$")


def _variants(scope: Scope) -> tuple[list[str], str]:
    """Gated, plain, or both, as the section, a model it names, or a published model whose
    configuration the lesson prints (:meth:`Scope.printed_models`, when all agree) says; with
    what said so ("" when nothing did)."""
    words = scope.text
    said = _GATED.search(words)
    if said:
        return ["swiglu"], f"the section says {said.group(0)}"
    for key in scope.models():
        spec = model_table().by_key(key)
        if spec is not None and spec.gated_ffn:
            return ["swiglu"], f"{spec.name}, named in the section, has a gated FFN"
    printed = [spec for key in scope.printed_models() if (spec := model_table().by_key(key))]
    gating = {spec.gated_ffn for spec in printed}
    if gating == {True}:
        return ["swiglu"], f"the lesson prints {printed[0].name}'s configuration, a gated FFN"
    plain = _PLAIN.search(words)
    if plain:
        return ["standard"], f"the section says {plain.group(0)}"
    if gating == {False}:
        return ["standard"], f"the lesson prints {printed[0].name}'s configuration, a plain FFN"
    return ["standard", "swiglu"], ""
