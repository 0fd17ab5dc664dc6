"""Relation ``model_params``: a decoder's parameter count from its configuration.

Formula, GPT/BERT style (Radford et al. 2019; Kaplan et al. 2020 §2.1): each layer has 4·d²
attention weights (Q, K, V, O) and 2·d·d_ff FFN weights, 12·d² when d_ff = 4·d; the model adds
V·d token embeddings (shared with the output layer) and T·d learned positions; with biases and
LayerNorms each layer adds 9·d + d_ff and the final norm 2·d. LLaMA style (Touvron et al. 2023;
Ainslie et al. 2023 for GQA): each layer has 2·d·h·d_head (Q, O) + 2·d·n_kv·d_head (K, V) +
3·d·d_ff (SwiGLU), no biases; the input and output embeddings are 2·V·d (V·d when tied).
Mixture of experts (Fedus et al. 2022; Jiang et al. 2024, Mixtral): the FFN of a layer is E
experts of width e, 3·d·e each, plus a d·E router; the parameters used per token count only the
k routed experts. Source: the papers cited with each style. The checking kind is
``arithmetic`` (the formula with named inputs).

Roles read (:mod:`checkers.extract.scope`): ``layers``, ``hidden``, ``d_ff``, ``vocab``,
``context``, ``heads``, ``kv_heads``, ``head_dim``, ``experts``, ``top_k``, ``expert_d_ff``: a
table row's own cells for a row, else what the section states, else a named model's published
configuration when the statement's own line names the model. The style from the section's
words (SwiGLU, RMSNorm, RoPE, LLaMA…; GELU, GPT, BERT, learned positions) or a named model's
published style.

The statement: a line that claims a parameter count of the model (``124M parameters``, ``参数量
约 70 亿``, ``total params ≈ 6.7B``, ``14B active``); ``per layer`` / ``每层`` counts one layer
without embeddings; ``active`` / ``per token`` / ``激活`` the parameters used per token. A count of
one part (attention, FFN, an expert, embeddings, LoRA) is another relation's or none. A table
row (offered by its header, ``CUE_HEADER``): the count with its scale (``85M``) in the one
column headed ``params`` / ``parameters (non-embedding)`` / ``参数量``, the header saying what
it counts, the row's own layers and width its configuration.

Readings accepted: GPT style with or without the position table, biases and norms, untied
output; without embeddings (the 12·L·d² of scaling-law papers); LLaMA style tied or untied;
both styles when the section names neither; the count at its printed precision, or its
significant figures under ``≈``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from checkers.data import model_table, parse_count
from checkers.data.entries import fold
from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Claimed,
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
    sentence,
)
from checkers.extract.scope import Quantity, Scope
from checkers.numbers import NumberError, parse_printed

__all__ = ["CUE", "CUE_HEADER", "Get", "llama_readings", "models_fit", "relate", "styles"]

NAME = "model_params"

CUE = re.compile(r"param(?:eter)?s|参数", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("param", "参数")
"""A statement this relation may concern says it counts parameters (a row: its header)."""
CUE_HEADER = True
"""A table row is offered when its header names a parameters column."""

_COUNT = re.compile(r"[KMBT]|万|亿|million|billion|thousand", re.IGNORECASE)
_PART = re.compile(
    r"attention|注意力|FFN|MLP|feed[\s-]*forward|前馈|expert\b|专家(?!总)|embedding|嵌入|LoRA|adapter"
    r"|trainable|可训练|norm|bias|router|路由|vocab|词表|per\s+head|每个头|head|KV|cache|缓存"
    r"|\bGB\b|\bMB\b|memory|显存|FLOP|trained\s+on|训练数据|dataset",
    re.IGNORECASE,
)
_PER_LAYER = re.compile(r"per[\s-]layer|each\s+layer|per\s+block|每层|单层", re.IGNORECASE)
_ACTIVE = re.compile(r"active|activated|per\s+token|激活", re.IGNORECASE)
_LLAMA = re.compile(r"SwiGLU|RMSNorm|RoPE|LLaMA|Mistral|Mixtral|Qwen|gate_proj|GQA", re.I)
_GPT = re.compile(r"\bGPT|BERT|GELU|learned\s+position|wpe\b|LayerNorm", re.I)
_NON_EMBEDDING = re.compile(r"non[\s-]embedding|excluding\s+embeddings|不含嵌入|不计嵌入", re.I)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim of the model's parameter count from its configuration."""
    text = statement.text
    claimed = _row_count(statement) if statement.header else None
    if claimed is not None:  # a row's count under its table's parameters header
        head, tail = _header_of(statement), ""
    else:
        claimed = claimed_value(text, _COUNT)
        if claimed is None:
            return None
        mark = re.match(r"[≈~∼约]?\s*", text[claimed.start :])
        head = sentence(statement, claimed.start + (mark.end() if mark else 0))  # keeps "≈ "
        tail = text[claimed.end : claimed.end + 24]
        if not (_NAMED_BEFORE.search(head) or _NAMED_AFTER.match(tail)):
            return None  # the count does not say it is the model's parameters
    if claimed.printed.value < 1e5:
        return None
    if _PART.search(_NON_EMBEDDING.sub("", head)) or _BYTES_AFTER.match(tail):
        return None
    if _BOUND.search(head):
        return None  # "anything under 1B parameters": a threshold, not this model's count
    if not models_fit(scope, claimed.printed.value, claimed.printed.half_width):
        return None
    later = [
        q
        for q in scope.quantities
        if q.line == statement.line and q.role in _INPUTS and not q.published and q.row == 0
    ]
    if any(q.column > claimed.end for q in later) and not any(
        q.column <= claimed.start for q in later
    ):
        return None  # the line describes another configuration after the count
    get = _lookup(statement, scope, None if statement.header else claimed.start)
    layers, hidden = get("layers"), get("hidden")
    if layers is None or hidden is None:
        return None
    per_layer = bool(_PER_LAYER.search(head))
    active = bool(_ACTIVE.search(head) or _ACTIVE.search(tail))
    allowed = styles(scope)
    readings: list[Reading] = []
    for style in allowed:
        readings += (llama_readings if style == "llama" else _gpt)(get, per_layer, active, head)
    if not readings:
        return None
    readings = [Reading({**r.fields, "claimed": claimed.text}, r.assumed) for r in readings]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=text[: claimed.end].strip(),
        line=statement.line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"model-params-{claimed.text}",
        note=f"parameter count: {chosen.assumed}",
    )


def _row_count(statement: Statement) -> Claimed | None:
    """The count in a table row's one parameters column (``params``, ``parameters (non-
    embedding)``, ``参数量``), printed with its scale (``85M``, ``1.2B``); None otherwise."""
    cells = [c.strip() for c in statement.text.strip().strip("|").split("|")]
    if len(cells) != len(statement.header):
        return None
    columns = [i for i, name in enumerate(statement.header) if _PARAMS_HEADER.search(name)]
    if len(columns) != 1 or columns[0] == 0:
        return None
    written = cells[columns[0]].strip("* ~≈")
    try:
        printed = parse_printed(written)
    except NumberError:
        return None
    if printed.unit is None or printed.unit.family != "count":
        return None  # "12" under params is no count without its scale
    start = statement.text.find(written)
    return Claimed(printed, written, start, start + len(written)) if start >= 0 else None


def _header_of(statement: Statement) -> str:
    """The parameters header of a row's count, the words that say what it counts."""
    return next((h for h in statement.header if _PARAMS_HEADER.search(h)), "")


_PARAMS_HEADER = re.compile(
    r"^\W*(?:(?:non[\s-]embedding|total)\s+)?(?:param(?:eter)?s|参数量?|总参数量?)\b"
    r"(?!\s*(?:memory|bytes|GB|显存))",
    re.IGNORECASE,
)

_NAMED_AFTER = re.compile(
    r"\s*(?:\)|）)?\s*(?:total\s+|trainable\s+)?(?:param(?:eter)?s|个?参数)", re.IGNORECASE
)
_NAMED_BEFORE = re.compile(
    r"(?:param(?:eter)?s?(?:\s+(?:count|per\s+token|in\s+total|total|used))?"
    r"|参数(?:量|总量|规模)?|总参数(?:量)?|激活参数(?:量)?)\s*(?:\([^)]*\)\s*)?"
    r"(?:[:：=≈~]|is|are|of|为|约|是)\s*(?:about|roughly|约|大约|≈|~)?\s*$",
    re.IGNORECASE,
)
_BOUND = re.compile(
    r"(?:under|over|above|below|less\s+than|more\s+than|fewer\s+than|up\s+to|at\s+(?:least|most)"
    r"|beyond|exceed\w*|[<>≤≥]|超过|低于|不到|小于|大于)\s*(?:~|≈|about\s+)?\s*$",
    re.IGNORECASE,
)
_BYTES_AFTER = re.compile(r"\s*(?:bytes?|字节|[KMGT]i?B)\b", re.IGNORECASE)


def models_fit(scope: Scope, value: float, half_width: float) -> bool:
    """False when a named model's published size labels include the count (GPT-2's paper
    prints 117M for the 124M checkpoint: a published fact, not a formula's), or a named model
    has an architecture the formulas here do not count (latent attention, shared experts,
    dense first layers)."""
    for key in scope.models():
        spec = model_table().by_key(key)
        if spec is None:
            continue
        if spec.is_mla or spec.shared_experts or spec.dense_layers:
            return False
        for label in spec.sizes:
            size = parse_count(label)
            if size is not None and abs(size.value - value) <= max(half_width, size.half_width):
                return False
    return True


_INPUTS = frozenset({"layers", "hidden", "heads", "d_ff", "vocab", "context", "experts"})

Get = Callable[[str], Quantity | None]


def _lookup(statement: Statement, scope: Scope, count_start: int | None = None) -> Get:
    """How an input is found: a table row's own cells, else the section's value. A named
    model's published value counts only when the statement names it before the count
    (``OpenCLIP ViT-bigG (2.5B params), …, Qwen-7B base``: the count is not Qwen-7B's)."""
    row = statement.text.lstrip().startswith("|")

    def get(role: str) -> Quantity | None:
        if row:
            cells = [q for q in scope.of(role) if q.row == statement.line]
            return cells[0] if len({q.value for q in cells}) == 1 else None
        found = scope.value(role, before=statement.line)
        if found is not None and found.published and found.line != statement.line:
            return None  # a model named elsewhere: the count may be another model's
        if found is not None and found.published and count_start is not None:
            spec = model_table().by_key(found.model)
            family = None if spec is None else model_table().family(spec.family)
            if family is not None and not family.regex.search(fold(statement.text[:count_start])):
                return None  # the model is named after the count: it is another model's
        return found

    return get


def styles(scope: Scope) -> list[str]:
    """The counting styles the section allows: a named model's, else its words' (SwiGLU,
    RMSNorm, LLaMA… against GPT, BERT, GELU…), else both."""
    for key in scope.models():
        spec = model_table().by_key(key)
        if spec is not None and spec.style in ("gpt", "bert", "llama"):
            return ["llama" if spec.style == "llama" else "gpt"]
    llama, gpt = bool(_LLAMA.search(scope.text)), bool(_GPT.search(scope.text))
    if llama != gpt:
        return ["llama" if llama else "gpt"]
    return ["gpt", "llama"]


def _whole(quantity: Quantity) -> str:
    return f"{round(quantity.value)}"


def _gpt(get: Get, per_layer: bool, active: bool, head: str) -> list[Reading]:
    layers, hidden, d_ff = get("layers"), get("hidden"), get("d_ff")
    vocab, context = get("vocab"), get("context")
    if active or get("experts") is not None:
        return []
    assert layers is not None and hidden is not None
    where: dict[str, Any] = {"layers": _whole(layers), "d": _whole(hidden)}
    block = "12 × d^2"
    used: list[Quantity | None] = [layers, hidden]
    if d_ff is not None and round(d_ff.value) != 4 * round(hidden.value):
        block = "(4 × d^2 + 2 × d × d_ff)"
        where["d_ff"] = _whole(d_ff)
        used.append(d_ff)
    bias = "(9 × d + d_ff)" if "d_ff" in where else "13 × d"
    if per_layer:
        return [
            Reading({"expression": block, "where": where}, describe(used, "one layer, GPT style")),
            Reading(
                {"expression": f"{block} + {bias}", "where": where},
                describe(used, "one layer with biases and LayerNorms"),
            ),
        ]
    body = f"layers × {block}"
    readings = []
    if vocab is not None:
        embed = {**where, "vocab": _whole(vocab)}
        options = [
            (f"{body} + vocab × d", [vocab], "GPT style, tied embeddings, no position table"),
            (f"{body} + 2 × vocab × d", [vocab], "GPT style, untied output layer"),
        ]
        if context is not None:
            embed["context"] = _whole(context)
            options.insert(
                0,
                (
                    f"{body} + vocab × d + context × d",
                    [vocab, context],
                    "GPT style, tied embeddings, learned positions",
                ),
            )
            options.insert(
                1,
                (
                    f"{body} + layers × {bias} + 2 × d + vocab × d + context × d",
                    [vocab, context],
                    "GPT style with biases and LayerNorms",
                ),
            )
        for expression, extra, what in options:
            names = {k: v for k, v in embed.items() if re.search(rf"\b{k}\b", expression)}
            readings.append(
                Reading({"expression": expression, "where": names}, describe([*used, *extra], what))
            )
    readings.append(
        Reading(
            {"expression": body, "where": where},
            describe(used, "without embeddings (12·L·d², Kaplan et al. 2020)"),
        )
    )
    return _embedding_readings(readings, head, vocab)


def llama_readings(get: Get, per_layer: bool, active: bool, head: str) -> list[Reading]:
    """The LLaMA-style readings (SwiGLU, GQA; MoE experts of width ``expert_d_ff`` with a
    d × E router, k of them when ``active``) of a count: untied, tied, without embeddings."""
    layers, hidden, d_ff, vocab = get("layers"), get("hidden"), get("d_ff"), get("vocab")
    heads, kv_heads, head_dim = get("heads"), get("kv_heads"), get("head_dim")
    experts, top_k, expert_ff = get("experts"), get("top_k"), get("expert_d_ff")
    assert layers is not None and hidden is not None
    if d_ff is None or heads is None:
        return []
    dh = (
        round(head_dim.value) if head_dim is not None else round(hidden.value) // round(heads.value)
    )
    n_kv = round(kv_heads.value) if kv_heads is not None else round(heads.value)
    where: dict[str, Any] = {
        "layers": _whole(layers),
        "d": _whole(hidden),
        "heads": _whole(heads),
        "n_kv": f"{n_kv}",
        "d_head": f"{dh}",
    }
    used: list[Quantity | None] = [layers, hidden, heads, kv_heads, head_dim, d_ff]
    attention = "2 × d × heads × d_head + 2 × d × n_kv × d_head"
    if experts is not None:
        width = expert_ff or d_ff
        count = top_k if active else experts
        if count is None:
            return []
        where.update(
            {"routed": _whole(count), "d_expert": _whole(width), "experts": _whole(experts)}
        )
        ffn = "routed × 3 × d × d_expert + d × experts"
        used += [count, width]
        what = f"LLaMA style, {'active: top-k' if active else 'all'} experts"
    elif active:
        return []
    else:
        where["d_ff"] = _whole(d_ff)
        ffn = "3 × d × d_ff"
        what = "LLaMA style (SwiGLU, GQA)"
    block = f"({attention} + {ffn})"
    if per_layer:
        return [Reading({"expression": block, "where": where}, describe(used, what, "one layer"))]
    readings = []
    if vocab is not None:
        with_vocab = {**where, "vocab": _whole(vocab)}
        readings += [
            Reading(
                {"expression": f"layers × {block} + 2 × vocab × d", "where": with_vocab},
                describe([*used, vocab], what, "untied embeddings"),
            ),
            Reading(
                {"expression": f"layers × {block} + vocab × d", "where": with_vocab},
                describe([*used, vocab], what, "tied embeddings"),
            ),
        ]
    readings.append(
        Reading(
            {"expression": f"layers × {block}", "where": where},
            describe(used, what, "without embeddings"),
        )
    )
    return _embedding_readings(readings, head, vocab)


def _embedding_readings(
    readings: list[Reading], head: str, vocab: Quantity | None
) -> list[Reading]:
    """The readings a statement allows: only the last (without embeddings) when it says
    "non-embedding"; none when the vocabulary is unknown and it does not (the count then
    includes embeddings nobody can compute)."""
    if _NON_EMBEDDING.search(head):
        return readings[-1:]
    return readings if vocab is not None else []
