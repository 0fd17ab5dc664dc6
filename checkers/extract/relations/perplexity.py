"""Relation ``perplexity``: the perplexity a statement gives for the loss it states.

Formula: perplexity = base^loss, where the loss is the mean cross-entropy per token in the same
base — e^loss for a loss in nats (natural log, what PyTorch's and most frameworks' cross-entropy
returns), 2^loss for a loss in bits.

Source: Jelinek et al. 1977 (perplexity as 2^H for the entropy H in bits); Jurafsky & Martin,
"Speech and Language Processing", 3rd ed., §3.3 (perplexity of a test set, and its relation to
cross-entropy); the exponential in :mod:`checkers.expr`.

Roles read: none from the scope; the loss is read from the statement's own line (``a loss of
2.3``, ``loss = 1.8 nats``, ``交叉熵损失为 2.0``), and must be the only loss there.

The statement: a line that states a loss and claims a perplexity (``perplexity ≈ 10``, ``PPL
of 7.4``, ``困惑度约为 7.4``), the perplexity printed after the loss. A formula written out
(``e^2.3 ≈ 10``) is the business of equation chains, and a line with two losses (a comparison)
is left alone.

Readings accepted: the base the line names — bits/比特/log₂ → 2^loss, nats/ln/自然对数 → e^loss —
and otherwise e^loss (a cross-entropy loss is in nats unless the lesson says bits); the
perplexity is compared at its printed precision (``≈ 10``: one significant figure).
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import Statement
from checkers.extract.scope import Scope

__all__ = ["CUE", "relate"]

NAME = "perplexity"

CUE = re.compile(r"perplexit|\bPPL\b|困惑度", re.IGNORECASE)
"""A statement this relation may concern names perplexity."""

_NUMBER = r"\d+(?:\.\d+)?"
_LOSS = re.compile(
    r"(?:loss|cross[- ]entropy|交叉熵|损失)[^\d\n]{0,24}?(?:=|≈|is|of|为|是|:|：|到|降到)\s*"
    rf"(?P<loss>{_NUMBER})(?!\d|\.\d|\s*%)\s*(?P<unit>nats?|bits?|奈特|比特)?",
    re.IGNORECASE,
)
_PERPLEXITY = re.compile(
    r"(?:perplexity|\bPPL\b|困惑度)[^\d\n]{0,24}?(?P<mark>=|≈|~|∼|is|of|为|是|约为|约|:|：)\s*"
    rf"(?P<approx>about\s+|roughly\s+|approximately\s+|around\s+|约\s*|大约\s*|≈\s*)?"
    rf"(?P<value>{_NUMBER})(?!\d|\.\d|\s*%)",
    re.IGNORECASE,
)
_BITS = re.compile(r"bits?\b|比特|log_?2|log₂|以\s*2\s*为底", re.IGNORECASE)
_WRITTEN_FORMULA = re.compile(r"(?:\be|exp|2)\s*\^|exp\s*\(|e\^|2\^", re.IGNORECASE)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a statement that gives the perplexity of its loss, or None."""
    text = statement.text
    if _WRITTEN_FORMULA.search(text):
        return None
    losses = list(_LOSS.finditer(text))
    if len(losses) != 1:
        return None
    loss = losses[0]
    claims = [m for m in _PERPLEXITY.finditer(text) if m.start() >= loss.end()]
    if len(claims) != 1:
        return None
    claim = claims[0]
    in_bits = bool(_BITS.search(loss.group("unit") or "")) or (
        loss.group("unit") is None and bool(_BITS.search(text))
    )
    expression = f"2^{loss.group('loss')}" if in_bits else f"exp({loss.group('loss')})"
    approx = claim.group("approx") or (
        "≈ " if claim.group("mark") in ("≈", "~", "∼", "约为", "约") else ""
    )
    claimed = ("≈ " if approx else "") + claim.group("value")
    base = "2 (the loss is in bits)" if in_bits else "e (a cross-entropy loss in nats)"
    return Draft(
        kind="arithmetic",
        quote=text[: claim.end("value")].strip(),
        line=statement.line,
        fields={"expression": expression, "claimed": claimed},
        confidence=0.55,
        recognizer="relations",
        slug=f"perplexity-{claim.group('value')}",
        note=f"perplexity = {base[0]}^loss, base {base}, "
        f"loss {loss.group('loss')} (line {statement.line})",
    )
