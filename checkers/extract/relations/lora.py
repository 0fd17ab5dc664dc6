"""Relation ``lora``: the trainable parameters LoRA adds.

Formula: each adapted matrix W (d_in × d_out) gains B (d_in × r) and A (r × d_out), so
r · (d_in + d_out) trainable parameters; a model adapts M matrices in each of L layers:
r · (d_in + d_out) · M · L. Attention projections of a model of width d are d × d, except K and
V under grouped-query attention (d × n_kv · d_head). Source: Hu et al. 2021, "LoRA: Low-Rank
Adaptation of Large Language Models" §4.1 (ΔW = BA, B ∈ R^{d×r}, A ∈ R^{r×k}). The checking
kind is ``arithmetic`` (the formula with named inputs).

Roles read (:mod:`checkers.extract.scope`): ``lora_rank`` (r), ``hidden`` (d), ``layers`` (L),
``kv_heads`` and ``head_dim`` for K and V under GQA; the adapted matrices from the names the
statement, else its section, prints (``q_proj``/``W_q``/``query``, ``k``, ``v``, ``o``; "all
attention matrices" is four).

The statement: a line that claims a parameter count and says it is LoRA's (``LoRA``,
``adapter``, ``低秩``, ``trainable``/``可训练``) on its line or in its lead-in. Qualifiers: ``per
matrix`` / ``each matrix`` / ``每个矩阵`` (M = L = 1), ``per layer`` / ``每层`` (L = 1).

Readings accepted: without a qualifier, the total (M · L), one layer (M) or one matrix; the
count at its printed precision or its significant figures under ``≈``. The note names the
matrices counted and where r and d were read.
"""

from __future__ import annotations

import re
from typing import Any

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
)
from checkers.extract.scope import Quantity, Scope

__all__ = ["CUE", "relate"]

NAME = "lora"

CUE = re.compile(r"LoRA|adapter|低秩|trainable|可训练", re.IGNORECASE)
"""A statement this relation may concern says the count is LoRA's (or is trainable)."""

_COUNT = re.compile(r"[KMBT]|万|亿|million|billion|thousand|", re.IGNORECASE)
_LORA = re.compile(r"LoRA|adapter|低秩|适配器", re.IGNORECASE)
_PER_MATRIX = re.compile(r"per\s+(?:adapted\s+)?matrix|each\s+matrix|每个矩阵|单个矩阵", re.I)
_PER_LAYER = re.compile(r"per[\s-]layer|each\s+layer|每层", re.IGNORECASE)
_MATRIX_NAMES = {
    "q": re.compile(r"\bq_proj\b|\bW_?\{?q\}?\b|\bquery\b|\bQ\b", re.IGNORECASE),
    "k": re.compile(r"\bk_proj\b|\bW_?\{?k\}?\b|\bkey\b|\bK\b", re.IGNORECASE),
    "v": re.compile(r"\bv_proj\b|\bW_?\{?v\}?\b|\bvalue\b|\bV\b", re.IGNORECASE),
    "o": re.compile(r"\bo_proj\b|\bW_?\{?o\}?\b|\boutput\s+projection\b", re.IGNORECASE),
}
_ALL_ATTENTION = re.compile(r"all\s+(?:four\s+|4\s+)?attention\s+(?:matrices|projections)", re.I)
_OTHER = re.compile(r"total\s+model|full\s+fine|base\s+model|frozen|冻结|全量", re.I)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim r·(d_in + d_out)·M·L for a LoRA parameter count, or None."""
    text = statement.text
    claimed = claimed_value(text, _COUNT)
    if claimed is None or (claimed.printed.unit is None and claimed.printed.value < 100):
        return None
    head = text[: claimed.start]
    if not (_LORA.search(head) or _LORA.search(statement.topic)) or _OTHER.search(head):
        return None
    line = statement.line
    rank = scope.value("lora_rank", before=line)
    hidden = scope.value("hidden", before=line)
    if rank is None or hidden is None:
        return None
    matrices = _matrices(head) or _matrices(scope.text)
    if not matrices:
        return None
    layers = scope.value("layers", before=line)
    narrow = _kv_width(matrices, hidden, scope, line)
    shapes = ", ".join(f"W_{name}" for name in matrices)
    if _PER_MATRIX.search(head):
        counts = [(["q"], False, "one matrix (the statement)")]
    elif _PER_LAYER.search(head):
        counts = [(matrices, False, f"{shapes} in one layer (the statement)")]
    else:
        counts = [(matrices, True, f"{shapes} in each of the layers")] if layers else []
        counts += [(matrices, False, f"{shapes} in one layer"), (["q"], False, "one matrix")]
    readings: list[Reading] = []
    for names, every_layer, what in counts:
        for kv_width in [None, narrow] if narrow is not None else [None]:
            square = len(names) if kv_width is None else sum(n in ("q", "o") for n in names)
            where: dict[str, Any] = {
                "rank": rank.printed.text,
                "d_in": f"{round(hidden.value)}",
                "d_out": f"{round(hidden.value)}",
                "square": f"{square}",
            }
            expression = "rank × (d_in + d_out) × square"
            width_note = "square d × d matrices"
            if kv_width is not None:
                where["d_kv"] = f"{kv_width}"
                where["narrow"] = f"{len(names) - square}"
                expression = "rank × ((d_in + d_out) × square + (d_in + d_kv) × narrow)"
                width_note = f"K and V of width n_kv · d_head = {kv_width} (GQA)"
            used: list[Quantity | None] = [rank, hidden]
            if every_layer and layers is not None:
                expression = f"({expression}) × layers"
                where["layers"] = f"{round(layers.value)}"
                used.append(layers)
            fields = {"expression": expression, "where": where, "claimed": claimed.text}
            readings.append(Reading(fields, describe(used, what, width_note)))
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"lora-{claimed.text}",
        note=f"LoRA r·(d_in + d_out) per matrix (Hu et al. 2021): {chosen.assumed}",
    )


def _matrices(text: str) -> list[str]:
    if _ALL_ATTENTION.search(text):
        return ["q", "k", "v", "o"]
    return [name for name, pattern in _MATRIX_NAMES.items() if pattern.search(text)]


def _kv_width(matrices: list[str], hidden: Quantity, scope: Scope, line: int) -> int | None:
    """The output width of K and V under grouped-query attention (n_kv · d_head) when the
    section states it and it differs from d and K or V is adapted; else None."""
    kv_heads = scope.value("kv_heads", before=line)
    head_dim = scope.value("head_dim", before=line)
    if kv_heads is None or head_dim is None or not {"k", "v"} & set(matrices):
        return None
    width = round(kv_heads.value * head_dim.value)
    return width if width != round(hidden.value) else None
