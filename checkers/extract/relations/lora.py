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

The statement: a line that claims a parameter count (LaTeX read plain: ``$64 \\times 4096 =
262{,}144$``) and says it is LoRA's (``LoRA``, ``adapter``, ``低秩``, ``trainable``/``可训练``)
in its sentence or its lead-in. Qualifiers: ``per matrix`` / ``each matrix`` / ``a single
adapted matrix`` / ``每个矩阵`` / ``一个 … 矩阵`` (M = L = 1; the matrix is the ``d_in × d_out``
its sentence prints, else d × d), ``per layer`` / ``每层`` (L = 1). A count of FFN matrices
(``FFN``, ``MLP``, ``gate_proj``…: d × d_ff) is left alone, and so is one of the model's own
weights the sentence sets beside the adapter (``frozen``, ``original``, ``pretrained``,
``原始``, ``底座``), and so is a statement whose
matrices only the section names when the section adapts FFN matrices too.

Readings accepted: without a qualifier, the total (M · L), one layer (M) or one matrix; the
count at its printed precision or its significant figures under ``≈``. Only A or only B is not
a reading (both are trained: ``r · d_in`` alone is the mistake the message names). The note
names the matrices counted and where r and d were read.
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
    sentence,
)
from checkers.extract.scope import Quantity, Scope

__all__ = ["CUE", "relate"]

NAME = "lora"

CUE = re.compile(r"LoRA|adapter|低秩|trainable|可训练|param(?:eter)?s|参数", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("lora", "adapter", "低秩", "trainable", "可训练", "param", "参数")
"""A statement this relation may concern says the count is LoRA's (or is trainable), or
counts parameters in a section whose lead-in says they are LoRA's."""

_COUNT = re.compile(r"[KMBT]|万|亿|million|billion|thousand|", re.IGNORECASE)
_LORA = re.compile(r"LoRA|adapter|低秩|适配器", re.IGNORECASE)
_PER_MATRIX = re.compile(
    r"per\s+(?:adapted\s+)?matrix|(?:each|one|a\s+single|a)\s+(?:adapted\s+)?"
    r"(?:weight\s+)?matrix|(?:每个|单个|一个)[^，,。；;：:]{0,32}?矩阵",
    re.I,
)
_PER_LAYER = re.compile(r"per[\s-]layer|each\s+layer|每层", re.IGNORECASE)
_MATRIX_NAMES = {
    "q": re.compile(r"\bq_proj\b|\bW_?\{?q\}?\b|\bquery\b|\bQ\b", re.IGNORECASE),
    "k": re.compile(r"\bk_proj\b|\bW_?\{?k\}?\b|\bkey\b|\bK\b", re.IGNORECASE),
    "v": re.compile(r"\bv_proj\b|\bW_?\{?v\}?\b|\bvalue\b|\bV\b", re.IGNORECASE),
    "o": re.compile(r"\bo_proj\b|\bW_?\{?o\}?\b|\boutput\s+projection\b", re.IGNORECASE),
}
_ALL_ATTENTION = re.compile(
    r"all\s+(?:four\s+|4\s+)?attention\s+(?:matrices|projections)|(?:4|四)\s*个\s*注意力(?:投影|矩阵)",
    re.I,
)
_OTHER = re.compile(
    r"total\s+model|full\s+fine|full[\s-]rank|base\s+model|frozen|original|pre-?trained|冻结|全量"
    r"|原始|原来的|原有的|预训练|底座",
    re.I,
)
"""The statement counts the model's own weights (the frozen, original, pretrained matrix the
adapter sits beside: ``一个原始的 4096 × 4096 矩阵就有 16,777,216 个参数``), not the adapter's."""


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim r·(d_in + d_out)·M·L for a LoRA parameter count, or None."""
    if not (
        _LORA.search(statement.text)
        or _LORA.search(statement.before)
        or _LORA.search(statement.topic)
    ):
        return None  # cheap: most lines counting parameters are not about LoRA
    text = statement.text
    claimed = claimed_value(text, _COUNT)
    if claimed is None or (claimed.printed.unit is None and claimed.printed.value < 100):
        return None
    head = sentence(statement, claimed.start)
    if not (_LORA.search(head) or _LORA.search(statement.topic)) or _OTHER.search(head):
        return None
    if _FFN.search(head):
        return None  # the FFN's matrices are d × d_ff: their widths are another statement's
    line = statement.line
    rank = scope.value("lora_rank", before=line)
    hidden = scope.value("hidden", before=line)
    one = _PER_MATRIX.search(head) is not None
    shape = _shape(head) if one else None  # a matrix's shape, only where one matrix is meant
    if rank is None or (hidden is None and shape is None):
        return None
    if one:
        assert shape is not None or hidden is not None
        d_in, d_out = shape or (round(hidden.value), round(hidden.value))  # type: ignore[union-attr]
        width = f"{d_in} × {d_out}" + (", the shape the statement prints" if shape else "")
        counts = [(["q"], False, f"one matrix ({width})")]
        matrices = ["q"]
    else:
        assert hidden is not None
        d_in = d_out = round(hidden.value)
        matrices = _matrices(head) or (_matrices(scope.text) if not _FFN.search(scope.text) else [])
        if not matrices:
            return None
        shapes = ", ".join(f"W_{name}" for name in matrices)
        if _PER_LAYER.search(head):
            counts = [(matrices, False, f"{shapes} in one layer (the statement)")]
        else:
            layers = scope.value("layers", before=line)
            counts = [(matrices, True, f"{shapes} in each of the layers")] if layers else []
            counts += [(matrices, False, f"{shapes} in one layer"), (["q"], False, "one matrix")]
    layers = scope.value("layers", before=line)
    narrow = _kv_width(matrices, hidden, scope, line) if hidden and shape is None else None
    readings: list[Reading] = []
    for names, every_layer, what in counts:
        for kv_width in [None, narrow] if narrow is not None else [None]:
            square = len(names) if kv_width is None else sum(n in ("q", "o") for n in names)
            where: dict[str, Any] = {
                "rank": rank.printed.text,
                "d_in": f"{d_in}",
                "d_out": f"{d_out}",
                "square": f"{square}",
            }
            expression = "rank × (d_in + d_out) × square"
            width_note = "A (r × d_in) and B (d_out × r) both count"
            if kv_width is not None:
                where["d_kv"] = f"{kv_width}"
                where["narrow"] = f"{len(names) - square}"
                expression = "rank × ((d_in + d_out) × square + (d_in + d_kv) × narrow)"
                width_note += f"; K and V of width n_kv · d_head = {kv_width} (GQA)"
            used: list[Quantity | None] = [rank, hidden if shape is None else None]
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
        quote=statement.text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"lora-{claimed.text}",
        note=f"LoRA r·(d_in + d_out) per matrix (Hu et al. 2021): {chosen.assumed}",
    )


_SHAPE = re.compile(
    r"(?<![\d.,×*x])\b(\d{2,6})\s*[×x*]\s*(\d{2,6})\b(?!\s*(?:[=≈×*x+]|\d))", re.IGNORECASE
)
_FFN = re.compile(
    r"FFN|MLP|feed[\s-]*forward|前馈|gate_proj|up_proj|down_proj|\bW_?\{?[123]\b", re.I
)


def _shape(head: str) -> tuple[int, int] | None:
    """The ``d_in × d_out`` shape of the one adapted matrix the sentence prints (``a 4096 ×
    4096 projection``, ``(4096 × 4096 each)``), not a product it computes (``16 × 4096 =``):
    None when it prints none or several."""
    found = {(int(m.group(1)), int(m.group(2))) for m in _SHAPE.finditer(head)}
    return found.pop() if len(found) == 1 else None


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
