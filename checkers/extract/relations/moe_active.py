"""Relation ``moe_active``: a mixture of experts that runs k experts per token is not a dense
model of one expert's size.

Formula: a token routed to k experts of X parameters each uses k · X expert parameters. If each
"expert of size X" is a whole model's worth (attention included, as "8x7B" names Mixtral) and
the experts share their attention, the FFN is at least half of X, so the parameters used are at
least X · (1 + (k − 1)/2) — for k ≥ 2 always more than X. Source: Shazeer et al. 2017
(sparsely-gated MoE), Fedus et al. 2022 (Switch Transformer, per-token FLOPs of top-k routing),
Jiang et al. 2024 (Mixtral 8x7B: 2 of 8 experts, 12.9B active of 46.7B). The checking kind is
``arithmetic`` (k × X against the printed value).

Roles read (:mod:`checkers.extract.scope`): ``top_k`` (``2 of 64 experts``, ``top-2``, ``2 of
them per token``) and ``expert_params`` (``experts of size 7B``, ``7B experts``).

The statement: a line that says the per-token cost of such a layer equals a dense model of a
printed size (``matches a dense 7B``, ``like a dense 7B model``, ``相当于一个 7B 的稠密模型``),
where that size is one expert's. A statement that gives any other size is not drafted: between
X · (1 + (k − 1)/2) and k · X the shared-attention reading may hold, and only a range decides
it.

Readings accepted: none other is needed: with k ≥ 2 the size of one expert is wrong under both
readings (separate experts, or experts sharing attention), and the note says so.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import Reading, Statement, describe, first_holding
from checkers.extract.scope import Scope
from checkers.numbers import NumberError, parse_printed

__all__ = ["CUE", "relate"]

NAME = "moe_active"

CUE = re.compile(r"dense|稠密|密集", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("dense", "稠密", "密集")
"""A statement this relation may concern compares with a dense model."""

_DENSE = re.compile(
    r"(?:match(?:es)?|equals?|same\s+as|like|as\s+(?:cheap\s+as|much\s+as)|equivalent\s+to|"
    r"相当于|等同于|和|与)\s+(?:that\s+of\s+)?(?:a|one|一个)?\s*(?:dense\s+|稠密\s*|密集\s*)?"
    r"(?P<size>\d+(?:\.\d+)?\s*(?:[BMT]|亿|billion))(?![A-Za-z])",
    re.IGNORECASE,
)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim k × X for a statement that equates k experts with a dense X."""
    text = statement.text
    match = _DENSE.search(text)
    if match is None or not re.search(r"dense|稠密|密集", text[match.start() :], re.I):
        return None
    line = statement.line
    top_k = scope.value("top_k", before=line)
    size = scope.value("expert_params", before=line)
    if top_k is None or size is None or top_k.value < 2:
        return None
    try:
        claimed = parse_printed(match.group("size"))
    except NumberError:
        return None
    if abs(claimed.value - size.value) > claimed.half_width:
        return None  # not one expert's size: only a range would decide it
    fields = {
        "expression": "top_k × expert_size",
        "where": {"top_k": top_k.printed.text, "expert_size": size.printed.text},
        "claimed": match.group("size"),
    }
    lower = size.value * (1 + (top_k.value - 1) / 2)
    shared = (
        f"even with shared attention, {top_k.printed.text} experts of {size.printed.text} use "
        f"at least {lower / claimed.scale:g}{claimed.unit.symbol if claimed.unit else ''}"
    )
    chosen = first_holding("arithmetic", [Reading(fields, describe([top_k, size], shared))])
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=text[: match.end()].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"moe-active-{match.group('size')}",
        note=f"per-token parameters of top-k routing: {chosen.assumed}",
    )
