"""Relation ``attention_params``: the weights of one layer's attention, under MHA, GQA or MQA.

Formula: Q and O are d × (h · d_head), K and V are d × (n_kv · d_head), so one layer's attention
holds 2 · d · h · d_head + 2 · d · n_kv · d_head weights; 4 · d² when n_kv = h and h · d_head =
d (multi-head attention); with biases, h · d_head + 2 · n_kv · d_head + d more. Source:
Vaswani et al. 2017 §3.2.2 (the four projections of multi-head attention); Ainslie et al.
2023, "GQA" §2 (K and V shared by groups: n_kv heads); Shazeer 2019 (MQA, n_kv = 1). The
checking kind is ``arithmetic`` (the formula with named inputs).

Roles read (:mod:`checkers.extract.scope`): ``hidden`` (d), ``heads`` (h), ``kv_heads`` (n_kv),
``head_dim`` (d_head, else d / h), as the section (or the lesson's printed configuration, or a
model the section names) states them. Without ``kv_heads``, n_kv = h only where the section
never speaks of GQA, MQA or KV heads (then the count is the multi-head one); without ``heads``,
only then too (4 · d² needs no head count).

The statement (LaTeX read plain): a count of one layer's attention: the sentence names
attention (``attention``, ``attn``, ``注意力``) and one layer (``per layer``, ``per block``,
``one layer``, ``每层``, a table headed ``(one layer)``), and the count ends the statement after
a relation mark (``attention per layer: 2·4096² + 2·4096·1024 = 41,943,040``) or is the
parameters cell of a table row whose first cell names attention (``| attention total | $4d^2$ |
67,108,864 |`` under ``parameters``; a header's ``(M)`` or ``(millions)`` scales the cell).
Multi-head latent attention (MLA), one projection (``W_Q``, ``K``), the KV cache, FLOPs,
bytes, and what LoRA adds to the projections (LoRA or rank in the statement or its lead-in)
are other quantities and are left alone.

Readings accepted: without biases (LLaMA-style), with biases (GPT-style), with biases and the
LayerNorm in front of the attention (2·d, as a framework's per-module count has it); the count
at its printed precision or its significant figures under ``≈``. The message names n_kv and
where it was read, so a count of 4·d² under GQA shows which heads it forgot.
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
from checkers.extract.scope import Quantity, Scope

__all__ = ["CUE", "relate"]

NAME = "attention_params"

CUE = re.compile(r"attention|\battn\b|注意力", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("attention", "attn", "注意力")
"""A statement this relation may concern names attention."""

_COUNT = re.compile(r"[KMB]|million|billion|万|亿|", re.IGNORECASE)
_ATTENTION = re.compile(r"attention|\battn\b|注意力", re.IGNORECASE)
_ONE_LAYER = re.compile(
    r"per[\s-](?:layer|block)|(?:one|each|a\s+single|single)\s+(?:layer|block)|每层|单层|一层",
    re.IGNORECASE,
)
_OTHER = re.compile(
    r"MLA|latent|cache|缓存|FLOP|bytes?|字节|[KMGT]i?B\b|memory|显存|score|softmax|head\s+dim"
    r"|\bW_?\{?[QKVO]\}?\b|\b[QKVO]\s+(?:projection|matrix)|heads?\s+of|per\s+head|每个头|"
    r"all\s+(?:\d+\s+)?layers|\d+\s+layers|\d+\s*[×x*]\s*attention|total\s+model|whole\s+model"
    # another part of the layer named in the same sentence: the count it ends with may be that
    # part's or the sum of the parts ("路由专家 … + 共享专家 … + 注意力 16,777,216 = 587,726,848")
    r"|expert|专家|\bMLP\b|\bFFN\b|feed[\s-]*forward|前馈|embedding|嵌入",
    re.IGNORECASE,
)
_ADAPTER = re.compile(r"LoRA|adapter|低秩|适配器|\brank\b", re.IGNORECASE)
_GQA_WORDS = re.compile(
    r"GQA|MQA|grouped|multi[\s-]query|KV\s+heads?|key[\s-]value\s+heads?|KV\s*头"
)
_SCALED_UP = re.compile(
    r"(?:per[\s-](?:layer|block)|每层)\s*\)?\s*[×x*]\s*\(?\s*\d|\d\s*[×x*]\s*\d+\s*(?:layers|层)",
    re.I,
)
_COUNTS = re.compile(r"\s*(?:param(?:eter)?s|weights|个?参数)", re.IGNORECASE)
_BARE_COUNT = re.compile(r"\d\s*[×·*x^]\s*\d[\d,\s×·*x()+^]*[=≈]\s*$|[=≈]\s*$")


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim of one layer's attention weights from d, h, n_kv and d_head."""
    if _ADAPTER.search(statement.topic):
        return None  # "4 attention projections: 4 × r × 2d": what LoRA adds to them
    for claimed, head, layer_words, quote_end in _claims(statement):
        if not _ATTENTION.search(head) or _OTHER.search(head) or _ADAPTER.search(head):
            continue
        if _SCALED_UP.search(head):
            continue  # "144M per layer × 61 = 8.8B": the count of every layer
        if _ONE_LAYER.search(layer_words) or _ONE_LAYER.search(statement.topic):
            return None if _latent(scope) else _draft(statement, scope, claimed, quote_end)
    return None


def _latent(scope: Scope) -> bool:
    """True when the section names, or the lesson prints the configuration of, a model with
    multi-head latent attention (DeepSeek-V2/V3): its projections are not Q, K, V, O of d × d."""
    keys = (*scope.models(), *scope.printed_models())
    return any((spec := model_table().by_key(key)) is not None and spec.is_mla for key in keys)


def _draft(statement: Statement, scope: Scope, claimed: Claimed, quote_end: int) -> Draft | None:
    line = statement.line
    hidden = scope.value("hidden", before=line)
    if hidden is None:
        return None
    heads, kv_heads = scope.value("heads", before=line), scope.value("kv_heads", before=line)
    head_dim = scope.value("head_dim", before=line)
    if kv_heads is None and _GQA_WORDS.search(scope.text):
        return None  # grouped keys and values whose count the section does not give
    if kv_heads is not None and heads is None:
        return None
    d = round(hidden.value)
    h = round(heads.value) if heads is not None else 1
    dh = round(head_dim.value) if head_dim is not None else d // h
    n_kv = round(kv_heads.value) if kv_heads is not None else h
    if heads is not None and head_dim is None and d % h:
        return None
    where: dict[str, Any] = {"d": f"{d}", "h": f"{h}", "n_kv": f"{n_kv}", "d_head": f"{dh}"}
    used: list[Quantity | None] = [hidden, heads, kv_heads, head_dim]
    if heads is None:
        kind = "MHA (4·d², whatever the head count)"
    else:
        kind = "MHA" if n_kv == h else "MQA" if n_kv == 1 else "GQA"
        kind += f", n_kv = {n_kv}"
    weights = "2 × d × h × d_head + 2 × d × n_kv × d_head"
    readings = [
        Reading(
            {"expression": weights, "where": where, "claimed": claimed.text},
            describe(used, f"{kind}, no biases"),
        ),
        Reading(
            {
                "expression": f"{weights} + h × d_head + 2 × n_kv × d_head + d",
                "where": where,
                "claimed": claimed.text,
            },
            describe(used, f"{kind}, with biases"),
        ),
        Reading(
            {
                "expression": f"{weights} + h × d_head + 2 × n_kv × d_head + 3 × d",
                "where": where,
                "claimed": claimed.text,
            },
            describe(used, f"{kind}, with biases and the block's LayerNorm (2·d)"),
        ),
    ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=statement.text[:quote_end].strip() if quote_end else statement.text.strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"attention-params-{claimed.text}",
        note=f"one layer's attention Q, K, V, O: {chosen.assumed}",
    )


def _claims(statement: Statement) -> list[tuple[Claimed, str, str, int]]:
    """The counts the statement gives: each with the words that name what it counts, the
    words that may say it is one layer's, and where the quote ends (0: the whole row). Sizes in
    brackets after the parts of a sum (:func:`bracketed_counts`) come first; else a table
    row's parameters cell, else the count the statement ends with."""
    text = statement.text
    parts = bracketed_counts(statement)
    if parts:
        sentence_words = sentence(statement, parts[0].claimed.start)
        return [
            (p.claimed, p.clause, f"{sentence_words} {p.qualifier}", p.claimed.end) for p in parts
        ]
    if statement.header and text.lstrip().startswith("|"):
        cell = parameters_cell(statement)
        return [(cell[0], cell[1], cell[1], 0)] if cell is not None else []
    claimed = claimed_value(text, _COUNT)
    if claimed is None or claimed.printed.value < 1000:
        return []
    bare = claimed.printed.unit is None
    if bare and not (_BARE_COUNT.search(text[: claimed.start]) or _COUNTS.match(text, claimed.end)):
        return []  # a bare number counts weights only as a product's result or so named
    if bare and claimed.printed.value < 1e5:
        return []
    head = sentence(statement, claimed.start)
    return [(claimed, head, head, claimed.end)]
