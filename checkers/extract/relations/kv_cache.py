"""Relation ``kv_cache``: the size of a KV cache a statement gives, from the section's model.

Formula: bytes = 2 · L · n_kv · d_head · b · T · B — one K and one V vector (2) per layer (L),
KV head (n_kv) and token (T), each d_head numbers of b bytes, for B sequences. Multi-head
attention caches every head (n_kv = heads), grouped-query attention one K and V per group of
query heads (n_kv = the KV heads), multi-query attention one (n_kv = 1). Source: Vaswani et al.
2017 §3.2.2 (multi-head attention), Shazeer 2019 (multi-query attention), Ainslie et al. 2023
(GQA); the checking kind is ``memory`` (its ``kv_cache`` quantity), which prints the formula
with the numbers used.

Roles read (:mod:`checkers.extract.scope`): ``layers``, ``kv_heads`` (else ``heads``),
``head_dim`` (else ``hidden`` / ``heads``), ``dtype`` (else ``bytes_per_value``), ``tokens`` or
``context``, ``batch``; each from the statement's own line first, then from the section.

The statement: a line that claims a size in bytes (``= 16 GB``, ``≈ 512 KB``, ``为 4 MB``) and
says, on its line or in its heading or the lines just before it, that the size is of a KV cache
(``KV cache``, ``K/V``, ``K and V``, ``KV 缓存``, ``键值缓存``). Its qualifiers say which
quantity it gives: ``per token per layer`` (T = 1, L = 1), ``per token`` (T = 1), ``per layer``
/ ``每层`` (L = 1), a token count or context on its line (``for 4096 tokens``, ``at 32K
context``); without a per-token qualifier or a token count on its line, the section's stated
context or token counts are the readings. A statement about weights or a total with weights is
left to other relations, as is one that names neither the layers nor a per-layer qualifier when
the section states no layer count.

A statement that names an attention variant (``MHA with 64 heads would be 32 GB``) is a KV cache
size when its line or lead-in names the cache; multi-head attention caches every head (n_kv =
the heads it names). When a section compares two models (its stated layer counts disagree),
the statement is about the model named last before it, if no other value is stated after that
name: its published configuration is read. A model given only by its size on the statement's
line ("a 70B model") is the model of that size the lesson names (in any section), when there
is one (or several that agree).

A display formula is read as its reader sees it (``80 \\times 8 \\times 2\\ \\text{字节}`` is
``80 × 8 × 2 字节``; the recogniser quotes the source). When the section names no
storage type, a width printed as a factor of the statement's own product (``× 2 bytes``) is
the bytes per value.

Readings accepted: GB as 10^9 or 2^30 bytes (when the lesson never writes GiB); every storage
type the section names (fp16 and int8 for a quantised cache); the batch the statement's
sentence names, else 1 and then every batch the section states; K as 1000 or 1024 in a context
(``32K``).
The claim holds if it holds under one of them; the note says which was used. When it holds
under none, the message shows the reading whose size comes nearest the printed one, and the
kind ``memory`` says when the printed size is what leaving out the 2 (K and V) or the KV heads
gives.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    BYTE_UNIT,
    SIZE_CUE,
    SIZE_WORDS,
    Reading,
    Statement,
    claimed_value,
    clause_after,
    describe,
    first_holding,
    on_line,
    sentence,
    sentence_start,
    statement_value,
)
from checkers.extract.scope import Quantity, Scope
from checkers.numbers import parse_printed, read_binary_count

__all__ = ["CUE", "relate"]

NAME = "kv_cache"

CUE = SIZE_CUE
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = SIZE_WORDS
"""A statement this relation may concern prints a size in bytes."""

_CACHE = re.compile(
    r"\bKV\b|\bK/V\b|\bK\s*(?:and|&|和|与|、)\s*V\b|键值|kv[_\s-]?cache|past_key_values",
    re.IGNORECASE,
)
_FEWER_KV = re.compile(r"GQA|MQA|grouped[\s-]query|multi[\s-]query|KV\s*heads|kv_heads", re.I)
_BYTES = BYTE_UNIT
_PER_LAYER = re.compile(
    r"per[\s-]layer|(?:each|every)\s+layer|/\s*layer|a\s+layer|每一?层|单层|一层", re.IGNORECASE
)
_PER_TOKEN = re.compile(
    r"per[\s-]token|(?:each|every)\s+token|/\s*token|a\s+(?:single\s+)?token|每个?\s*token|单个\s*token"
    r"|每个?词元",
    re.IGNORECASE,
)
_UNREAD_BATCH = re.compile(
    r"\b(?:sequences|requests|users|conversations|prompts)\b"
    r"|[两二三四五六七八九十百千几多]+\s*(?:个|条|路)[^，,。；;\d]{0,8}?(?:\d+[kK]?[^，,。；;]{0,6}?)?(?:序列|请求|对话|用户)",
    re.IGNORECASE,
)
"""A statement that sizes the cache of several sequences (or users, requests): its batch is
read by the scope when printed in digits; a count in words is not, and batch 1 would be a
wrong reading, so such a statement is left alone."""
_OTHER_QUANTITY = re.compile(
    r"weights?|权重|param(?:eter)?s|参数|activations?|激活值|gradients?|梯度|optimizer|优化器"
    r"|total\s+(?:GPU\s+)?memory|总显存|显存总|per\s+head|每个头|\bK\s+cache\b|only\s+K\b|saving|节省"
    r"|compress|latent|MLA|压缩|window",
    re.IGNORECASE,
)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """A ``memory`` claim for a statement that gives a KV cache size, or None."""
    text = statement.text
    claimed = claimed_value(text, _BYTES)
    if claimed is None:
        return None
    # What the claimed size is of: the sentence that ends with it says so, or, when the line
    # is that one sentence, its heading or lead-in ("80GB each = 640GB" after a sentence about
    # the KV cache is a node's memory).
    opening = sentence_start(text, claimed.start)
    said = sentence(statement, claimed.start)
    variant = _VARIANT.search(said)
    # "8 个 KV 头" in a lead-in counts heads, not the cache; a "cache" beside KV heads or an
    # attention variant ("每个 token 的缓存：" under "Llama-2-70B（GQA）") is the KV cache.
    topic = _HEAD_COUNT.sub("", statement.topic)
    attention = _HEAD_COUNT.search(statement.topic) or _VARIANT.search(statement.topic)
    if not (
        _CACHE.search(said)
        or (opening == 0 and _CACHE.search(topic))
        or (opening == 0 and attention and _ANY_CACHE.search(topic))
        or (variant and (_CACHE.search(text) or _CACHE.search(topic)))
    ):
        return None
    if _OTHER_QUANTITY.search(said):
        return None
    line = statement.line
    # "≈ 0.13 MB per token, i.e. roughly 1 GB per 8k tokens": the unit of the claimed size may
    # follow it in its own clause.
    after = clause_after(text, claimed.end)
    per_token = bool(_PER_TOKEN.search(said) or _PER_TOKEN.match(after.lstrip()))
    if _UNREAD_BATCH.search(said) and not on_line(scope, "batch", line):
        return None  # "Sixteen 8k sequences need …": a batch is named but its size not read
    per_layer = bool(_PER_LAYER.search(said) or _PER_LAYER.search(text[claimed.end :]))
    subject = _subject(scope, line)
    layers = _value(scope, "layers", line, subject, said)
    if per_layer:
        layers = None
    elif layers is None:
        return None
    heads = _value(scope, "heads", line, subject, said)
    kv_heads = _value(scope, "kv_heads", line, subject, said)
    if variant is not None and _MHA.search(variant.group(0)) and heads is not None:
        # "MHA with 64 heads would be …": multi-head attention caches every head
        kv_heads = heads
    head_dim = _value(scope, "head_dim", line, subject, said)
    hidden = _value(scope, "hidden", line, subject, said) if head_dim is None else None
    # Without a head count, multi-head attention's K and V are as wide as the model
    # (n_kv · d_head = d), unless the section speaks of grouped or multi-query attention.
    whole_width = kv_heads is None and heads is None and hidden is not None
    if whole_width and _FEWER_KV.search(scope.text):
        return None
    if kv_heads is None and heads is None and not whole_width:
        return None
    if head_dim is None and (hidden is None or (heads is None and not whole_width)):
        return None
    types = _types(scope, line) or _factor_bytes(statement)
    if not types:
        return None
    tokens = [None] if per_token else _tokens(scope, line)
    if not tokens:
        return None
    batches = _batches(scope, line, said)
    shown_heads = heads if kv_heads is not None and kv_heads is not heads else None
    used = [layers, kv_heads or heads, shown_heads, head_dim, hidden]
    readings = []
    for dtype, count, batch in itertools.product(types, tokens, batches):
        fields: dict[str, Any] = {
            "claimed": claimed.text,
            "quantity": "kv_cache",
            "layers": _whole(layers) if layers is not None else "1",
            "tokens": _whole(count) if count is not None else "1",
            "prefixes": "either" if statement.byte_prefixes == "either" else "as_printed",
        }
        if whole_width:
            fields["heads"] = "1"  # K and V as wide as the model: one head of width d
        elif kv_heads is not None:
            fields["kv_heads"] = _whole(kv_heads)
            if heads is not None and heads.value >= kv_heads.value:
                fields["heads"] = _whole(heads)
        else:
            assert heads is not None
            fields["heads"] = _whole(heads)
        if head_dim is not None:
            fields["head_dim"] = _whole(head_dim)
        elif hidden is not None:
            fields["hidden"] = _whole(hidden)
        if dtype.role == "dtype":
            fields["dtype"] = dtype.dtype
        else:
            fields["bytes_per_param"] = f"{dtype.value:g}"
        if batch is not None:
            fields["batch"] = _whole(batch)
        assumed = [
            "per token per layer (the statement)" if per_token and per_layer else "",
            "per token (the statement)" if per_token and not per_layer else "",
            "per token (the statement names no token count)"
            if count is None and not per_token
            else "",
            "per layer (the statement)" if per_layer and not per_token else "",
            "batch 1 (the statement names none)" if batch is None else "",
            "K and V as wide as the model (multi-head attention; no head count given)"
            if whole_width
            else "",
        ]
        readings.append(Reading(fields, describe([*used, dtype, count, batch], *assumed)))
    chosen = first_holding("memory", readings, nearest_failing=True)
    if chosen is None:
        return None
    return Draft(
        kind="memory",
        quote=text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.55,
        recognizer="relations",
        slug=f"kv-cache-{claimed.text}",
        note=f"KV cache inputs: {chosen.assumed}",
    )


_VARIANT = re.compile(
    r"\b(?:MHA|MQA|GQA)\b|multi[\s-]head\s+attention|multi[\s-]query\s+attention"
    r"|grouped[\s-]query\s+attention|多头注意力|多查询注意力|分组查询注意力",
    re.IGNORECASE,
)
"""An attention variant named in the statement: "MHA with 64 heads would be 32 GB" is a KV cache
size when its line or lead-in names the cache."""
_ANY_CACHE = re.compile(r"\bcache\b|缓存", re.IGNORECASE)
_HEAD_COUNT = re.compile(r"KV\s*头数?|KV\s+heads?|key[\s-]value\s+heads?", re.IGNORECASE)
_MHA = re.compile(r"MHA|multi[\s-]head|多头", re.IGNORECASE)
_MODEL_SIZE = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s*[BMT]\b(?:\s*|-)(?:model|parameter|模型|参数)", re.I
)


def _subject(scope: Scope, line: int) -> str:
    """The model a statement is about when its section states disagreeing layer counts (two
    models compared): the one named last before the statement, if the section also states its
    published layers and states no other value after naming it; "" otherwise."""
    stated = [q for q in scope.of("layers") if q.line <= line and not q.published]
    named = [q for q in scope.of("layers") if q.published and q.line <= line]
    if len({q.value for q in stated}) < 2 or not named:
        return ""
    last = named[-1]
    if last.value in {q.value for q in stated} and last.line >= max(q.line for q in stated):
        return last.model
    return ""


def _value(scope: Scope, role: str, line: int, subject: str, said: str = "") -> Quantity | None:
    """The statement's value of ``role``: its line's own; the published one of the section's
    subject model (:func:`_subject`); else :func:`statement_value`; when the section states
    none and the model is given only by its size on the line ("a 70B model"), the model of
    that size the lesson names elsewhere."""
    own = on_line(scope, role, line)
    if len({q.value for q in own}) == 1:
        return own[0]
    if subject:
        published = [q for q in scope.of(role) if q.model == subject and q.line <= line]
        return published[-1] if published else None
    found = statement_value(scope, role, line)
    if found is not None:
        return found
    if any(q.line <= line for q in scope.of(role)):
        return None
    sizes = [
        q
        for q in scope.of("params")
        if line - 2 <= q.line <= line
        and not q.published
        and _MODEL_SIZE.search(q.written)
        and (q.line == line or q.written in said)
    ]
    if len({q.value for q in sizes}) == 1:
        return scope.named_model(role, sizes[0].value, line)
    return None


def _one(found: tuple[Quantity, ...]) -> Quantity | None:
    """The statement's own value of a role, when its line names exactly one."""
    values = {q.value for q in found}
    return found[0] if len(values) == 1 else None


def _whole(quantity: Quantity) -> str:
    return f"{round(quantity.value)}"


def _types(scope: Scope, line: int) -> list[Quantity]:
    """The storage types to read the cache in: the statement's, else every one the section
    names before or on the statement's line, else a stated bytes per value."""
    own = on_line(scope, "dtype", line)
    if own:
        return list(own[:1])
    named = {q.dtype: q for q in scope.of("dtype") if q.line <= line}
    if named:
        return list(named.values())
    per_value = scope.value("bytes_per_value", before=line)
    return [per_value] if per_value is not None else []


_BYTES_FACTOR = re.compile(
    r"[×x*·]\s*(?P<bytes>[1248])\s*(?:bytes?|字节)(?![A-Za-z])", re.IGNORECASE
)
"""A width per value written as a factor of the statement's own product (``2 × 128 × 2 bytes``)."""


def _factor_bytes(statement: Statement) -> list[Quantity]:
    """The bytes per value the statement's own product prints, when the section names no type."""
    found = _BYTES_FACTOR.search(statement.text)
    if found is None:
        return []
    return [
        Quantity(
            "bytes_per_value",
            parse_printed(found.group("bytes")),
            "bytes",
            statement.line,
            found.start("bytes") + 1,
            "prose",
            found.group(0).lstrip("×x*· "),
        )
    ]


def _tokens(scope: Scope, line: int) -> list[Quantity | None]:
    """The cached tokens to try: those the statement names, else every token count and
    context the section states before it (a context in K also as 1024s)."""
    own = [q for role in ("tokens", "context") for q in on_line(scope, role, line)]
    found = own or [
        q
        for q in scope.quantities
        if q.role in ("tokens", "context") and q.line <= line and q.source != "table"
    ]
    options: dict[float, Quantity | None] = {}
    for quantity in found:
        options.setdefault(quantity.value, quantity)
        binary = read_binary_count(quantity.printed)
        if binary is not quantity.printed:
            options.setdefault(binary.value, _as_binary(quantity))
    chosen = list(options.values())[:4]
    if not own:
        # Nothing on the line says how many tokens: one token (a per-token figure) is as
        # reasonable a reading as each sequence length the section states (tried last, so a
        # failure shows the section's length).
        chosen.append(None)
    return chosen


def _states(said: str, quantity: Quantity) -> bool:
    """Whether the sentence ``said`` prints ``quantity``'s number (as a number of its own:
    the 16 of "bf16" is not a batch of 16)."""
    number = re.escape(quantity.printed.text)
    return re.search(rf"(?<![\w.,]){number}(?![\w]|[.,]\d)", said) is not None


def _as_binary(quantity: Quantity) -> Quantity:
    return dataclasses.replace(quantity, printed=read_binary_count(quantity.printed))


def _batches(scope: Scope, line: int, said: str) -> list[Quantity | None]:
    """The batches to size the cache with: the one the statement's own sentence names, else 1
    and then each batch the section states up to its line. A batch named on the line but in
    another sentence ("… 128 KiB per token. A batch of 16 requests …") is the next statement's:
    batch 1 stays a reading."""
    own = [q for q in on_line(scope, "batch", line) if _states(said, q)]
    if own:
        return [own[0]]
    stated = {q.value: q for q in scope.of("batch") if q.line <= line and q.source != "table"}
    return [None, *stated.values()][:3]
