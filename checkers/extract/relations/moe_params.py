"""Relation ``moe_params``: a mixture of experts' total and active (per-token) parameters.

Formula: every token passes through the parts the experts share — attention, router,
embeddings (S) — and through k of the E routed experts of X parameters each, so
active = S + k · X and total = S + E · X. Scaling the total by k/E (total × k/E) leaves out
that S is used in full by every token. From a configuration (LLaMA style, as Mixtral):
L · (2·d·h·d_head + 2·d·n_kv·d_head + k · 3·d·e + d·E) + V·d (or 2·V·d untied) active, with E
for k in the total. Source: Shazeer et al. 2017 (sparsely-gated MoE layers replace the FFN);
Fedus et al. 2022, Switch Transformer §2 (only the routed experts' parameters are used per
token); Jiang et al. 2024, Mixtral §2 (46.7B total, 12.9B active: "each token has access to
47B parameters, but only uses 13B active parameters"). The checking kind is ``arithmetic``.

Roles read (:mod:`checkers.extract.scope`): ``shared_params`` (S: ``1.2B shared parameters``),
``expert_params`` (X: ``experts of 0.5B each``), ``experts`` (E), ``top_k`` (k); else the
configuration ``layers``, ``hidden``, ``heads``, ``kv_heads``, ``head_dim``, ``d_ff`` /
``expert_d_ff``, ``vocab``, as the section states them or as the model its heading (or the
statement's line) names publishes them.

The statement (LaTeX read plain, the sentence from the line before when it wraps): a count of
the model's ``active`` / ``activated`` / ``per token`` / ``激活`` parameters, or its ``total`` /
``总参数`` ones, in a section with experts; the word nearest before the count (or ``active``/``per
token`` right after it) says which, and it must lead to the count (``the active count is … =``,
``has 12.9B active parameters``). In code, an assignment whose name says which and whose comment
gives the value (``total = L * (…) + 2 * V * d # 42.9B``). A count of one part (the experts,
attention, embeddings, a list item labelled ``MLP active:``), of one layer or block, a threshold
(``above ~6B active params``), bytes or FLOPs is not the model's.

Readings accepted: with S and X stated, only S + k·X (S + E·X); from a configuration, untied,
tied or without embeddings; the count at its printed precision or its significant figures
under ``≈``. Models the configuration formula does not count (latent attention, shared
experts, dense first layers: named, printed as the lesson's configuration, or said in the
section) are left alone.
"""

from __future__ import annotations

import re

from checkers.data import model_table
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
from checkers.extract.relations.model_params import Get, llama_readings, models_fit, styles
from checkers.extract.scope import Quantity, Scope
from checkers.numbers import NumberError, parse_printed

__all__ = ["CUE", "CUE_BEFORE", "relate"]

NAME = "moe_params"

CUE = re.compile(r"active|激活|per[\s-]token|每个\s*token|total|总参数", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("active", "激活", "per", "每个", "total", "总参数")
"""A statement this relation may concern says the count is active, per token or total."""
CUE_BEFORE = True
"""The word may end the line before (``… the active count per token is`` / ``$… ≈ 1.15$B``)."""

_COUNT = re.compile(r"[MBT]|million|billion|trillion|亿|万亿", re.IGNORECASE)
_ACTIVE = re.compile(r"active|activated|per[\s-]token|激活|每个\s*token", re.IGNORECASE)
_TOTAL = re.compile(r"\btotal\b|总参数|in\s+all\b", re.IGNORECASE)
_PART = re.compile(
    r"experts?|专家|attention|注意力|embeddings?|嵌入|router|路由|FFN|MLP|LoRA|adapter|KV"
    r"|bytes?|字节|[KMGT]i?B\b|FLOP|memory|显存|tokens?\s+(?:seen|trained)",
    re.IGNORECASE,
)
_AFTER_ACTIVE = re.compile(r"\s*(?:active|activated|per[\s-]token|激活)", re.IGNORECASE)
_AFTER_OTHER = re.compile(r"\s*(?:bytes?|字节|[KMGT]i?B\b|FLOP|tokens?\b|GPU)", re.IGNORECASE)
_SCALED = re.compile(
    r"\d(?:\s|\$|\\text\{|\\mathrm\{)*(?:[MBT](?![a-z])|million|billion|trillion|亿)",
    re.IGNORECASE,
)
_UNCOUNTED = re.compile(
    r"shared\s+experts?|共享专家|\bMLA\b|latent\s+attention|first_k_dense", re.I
)
_CODE = re.compile(
    r"^\s*(?P<name>[A-Za-z_]\w*)\s*=\s*[^#]*#\s*(?P<value>~?\s*\d+(?:\.\d+)?\s*[MB])\s*$"
)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim of an MoE's active or total parameters, or None."""
    if not _SCALED.search(statement.text):
        return None  # cheap: no count in millions or billions on the line
    found = _claimed(statement)
    if found is None:
        return None
    claimed, active, quote_end = found
    line = statement.line
    if not any(scope.of(role) for role in ("experts", "expert_params", "top_k")):
        return None  # no mixture of experts in the section
    readings = _shared_readings(scope, line, active, claimed)
    if not readings:
        readings = _configured_readings(statement, scope, active, claimed)
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    what = "active (per token)" if active else "total"
    return Draft(
        kind="arithmetic",
        quote=statement.text[:quote_end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"moe-{'active' if active else 'total'}-{claimed.text}",
        note=f"{what} parameters of a mixture of experts (attention, router and embeddings "
        f"serve every token; {'k' if active else 'all E'} experts): {chosen.assumed}",
    )


def _claimed(statement: Statement) -> tuple[Claimed, bool, int] | None:
    """The count, whether it is the active one, and where its quote ends; None when the
    statement does not say it counts the model's active or total parameters."""
    text = statement.text
    code = _CODE.match(text)
    if code is not None:
        name = code.group("name").lower()
        written = code.group("value").replace(" ", "")
        written = "≈ " + written[1:] if written.startswith("~") else written
        try:
            printed = parse_printed(written)
        except NumberError:
            return None
        is_active = "active" in name
        if not (is_active or name.startswith("total")) or _PART.search(name):
            return None
        return (
            Claimed(printed, written, code.start("value"), code.end("value")),
            is_active,
            code.end("value"),
        )
    claimed = claimed_value(text, _COUNT)
    if claimed is None or claimed.printed.value < 1e6:
        return None
    if _AFTER_OTHER.match(text, claimed.end) or _PER_LAYER.match(text, claimed.end):
        return None
    head = sentence(statement, claimed.start)
    label = _LABEL.match(text)
    if label is not None and _PART.search(label.group(1)):
        return None  # "- MLP active: … Total: … = ~15.9B": the item counts a part
    if _PER_LAYER.search(head) or _BOUND.search(head[-48:]):
        return None  # one layer's count, or a threshold ("above ~6B active params")
    lead = text[max(0, claimed.start - 24) : claimed.start]
    if _AFTER_ACTIVE.match(text, claimed.end) and (claimed.text[0] in "≈~" or _STATED.search(lead)):
        return claimed, True, claimed.end  # "has 12.9B active parameters", "≈ 11.7B per token"
    marks = list(_ACTIVE.finditer(head)) + list(_TOTAL.finditer(head))
    if not marks:
        return None
    mark = max(marks, key=lambda m: m.end())
    if not _GIVES.match(head, mark.end()):
        return None  # the word does not lead to this count ("active …, so the total …")
    near = head[max(0, mark.start() - 16) : mark.end() + 12]
    if _PART.search(near):
        return None  # "the experts' total", "active experts": a part, not the model
    return claimed, bool(_ACTIVE.fullmatch(mark.group(0))), claimed.end


_PER_LAYER = re.compile(
    r"\s*(?:per[\s-](?:layer|block)|each\s+(?:layer|block)|每层|单层)|.*\b(?:per[\s-]"
    r"(?:layer|block)|each\s+(?:layer|block))\b.*[=≈:]\s*$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*\**([^:：*]{1,40}?)\**\s*[:：]")
_BOUND = re.compile(
    r"\b(?:threshold|above|below|under|over|beyond|at\s+(?:least|most)|up\s+to|more\s+than"
    r"|less\s+than)\b|[<>≤≥]|超过|低于|不到|以上|以下",
    re.IGNORECASE,
)
_STATED = re.compile(
    r"(?:[=≈:：]|\b(?:is|are|has|have|uses?|with|only|just|about|roughly)\b|为|约|是|有)\s*[~≈]?\s*$",
    re.IGNORECASE,
)
_GIVES = re.compile(
    r"\s*(?:count|param(?:eter)?s|parameter\s+count|number\s+of\s+param(?:eter)?s|参数量?|参数)?"
    r"\s*(?:per[\s-]token)?\s*(?:\(\w+\))?\s*(?:is|are|would\s+be|comes\s+to|[=≈~:：]|为|约|是)"
    r"\s*(?:simply|just|only|then|about|roughly|approximately|约)?[\s\d.,×x*/+\-−()·BMK≈=~]*$",
    re.IGNORECASE,
)


def _shared_readings(scope: Scope, line: int, active: bool, claimed: Claimed) -> list[Reading]:
    """S + k·X (S + E·X) when the section states the shared parameters and one expert's."""
    shared = scope.value("shared_params", before=line)
    expert = scope.value("expert_params", before=line)
    count = scope.value("top_k" if active else "experts", before=line)
    if shared is None or expert is None or count is None:
        return []
    name = "top_k" if active else "experts"
    fields = {
        "expression": f"shared + {name} × expert",
        "where": {
            "shared": shared.printed.text,
            name: count.printed.text,
            "expert": expert.printed.text,
        },
        "claimed": claimed.text,
    }
    what = "k routed experts" if active else "every expert"
    return [
        Reading(fields, describe([shared, count, expert], f"the shared parameters plus {what}"))
    ]


def _configured_readings(
    statement: Statement, scope: Scope, active: bool, claimed: Claimed
) -> list[Reading]:
    """The LLaMA-style readings from the configuration (:func:`llama_readings`)."""
    if not models_fit(scope, claimed.printed.value, claimed.printed.half_width):
        return []
    for key in scope.printed_models():
        spec = model_table().by_key(key)
        if spec is not None and (spec.is_mla or spec.shared_experts or spec.dense_layers):
            return []  # latent attention, shared experts, dense layers: not this formula
    if _UNCOUNTED.search(scope.text):
        return []
    get = _lookup(statement, scope)
    if get("layers") is None or get("hidden") is None or get("experts") is None:
        return []
    if styles(scope) == ["gpt"] or re.search(r"\bSwitch\b|\bT5\b|GShard", scope.text):
        return []  # a GPT- or T5-style MoE: the LLaMA-style count is not its formula
    readings = llama_readings(get, False, active, "")
    return [Reading({**r.fields, "claimed": claimed.text}, r.assumed) for r in readings]


def _lookup(statement: Statement, scope: Scope) -> Get:
    """The section's value of a role; a named model's published value only when the section
    names one mixture-of-experts model (the one whose parameters it counts) and every model it
    names agrees on the value (:meth:`Scope.value`), or the statement's own line names it."""
    line = statement.line
    moe = [
        key
        for key in scope.models()
        if (spec := model_table().by_key(key)) is not None and spec.experts
    ]

    def get(role: str) -> Quantity | None:
        found = scope.value(role, before=line)
        if found is not None and found.published and found.line != line and len(moe) != 1:
            return None
        return found

    return get
