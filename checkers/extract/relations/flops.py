"""Relation ``flops``: the compute a statement gives, from the section's parameter count.

Formula (:mod:`checkers.formulas`):

* forward FLOPs per token ≈ 2·N — each weight is one multiply and one add — plus attention's
  2·n_layer·n_ctx·d over the context;
* training FLOPs per token ≈ 6·N (forward 2·N, backward twice that), and for D training tokens
  C ≈ 6·N·D.

Source: Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1 and Table 1;
Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", §3.

Roles read (:mod:`checkers.extract.scope`): ``params`` (N; the statement's own line first, then
the section; for a mixture-of-experts model the line names, its published ``active_params``:
per-token compute runs through the k routed experts only — Fedus et al. 2022 §2 — so ``2 ×
46.7B`` for Mixtral 8x7B is the mistake, 2 × 12.9B the FLOPs), ``tokens`` (D, for a training
total), and for the other readings ``vocab``, ``hidden``, ``layers``, ``context``.

The statement (LaTeX read plain): a line that claims a number of FLOPs (``≈ 250M FLOPs``,
``≈ 93.4 GFLOPs / token``, ``= 1.2e21 FLOPs``,
``FLOPs per token ≈ 6M``, ``计算量约 3.1e23 FLOPs``) and says which compute it is: ``forward``
/ ``前向`` / ``inference`` / ``推理`` with ``per token`` / ``每个 token`` (2·N), ``training`` /
``训练`` / ``forward and backward`` with ``per token`` (6·N), FLOPs ``per token`` that say
neither (both 2·N and 6·N are readings), or ``training`` without a per-token qualifier when the
section states the training tokens (6·N·D). A line that states the
rule symbolically (``≈ 6N``), a throughput (FLOPS, FLOP/s) or a hardware peak is not a
statement of this relation.

Readings accepted: N as the section states it, or without the embeddings (N − vocab·d, when
both are stated: Kaplan's N counts only non-embedding weights), and for forward FLOPs also with
attention's 2·n_layer·n_ctx·d (when layers, context and width are stated). The claim holds if it
holds under one of them, at its printed precision (``≈ 250M``: two significant figures); the
note says which inputs were used.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
    on_line,
)
from checkers.extract.scope import Quantity, Scope
from checkers.formulas import FORWARD_FLOPS_PER_PARAMETER, TRAINING_FLOPS_PER_PARAMETER

__all__ = ["CUE", "relate"]

NAME = "flops"

CUE = re.compile(r"FLOPs?\b(?!\s*/\s*s)|浮点运算", re.IGNORECASE)
"""A statement this relation may concern names FLOPs (not FLOPS or FLOP/s, a throughput)."""

_MAGNITUDE = re.compile(r"[KMGTB]|million|billion|trillion|万亿|亿|万", re.IGNORECASE)
_THROUGHPUT = re.compile(r"FLOPS\b|FLOP/s|TFLOPS|PFLOPS|per\s+second|每秒|/\s*s\b|peak|峰值")
_FORWARD = re.compile(r"forward|前向|inference|推理|生成一个|decode", re.IGNORECASE)
_TRAINING = re.compile(
    r"training|train\b|训练|forward\s*(?:\+|and|&)\s*backward|前向.{0,3}反向", re.I
)
_BACKWARD = re.compile(r"backward|反向", re.I)
_PER_TOKEN = re.compile(
    r"per[\s-]token|each\s+token|/\s*token|a\s+(?:single\s+)?token|每个?\s*token|每个?词元"
    r"|单个\s*token",
    re.IGNORECASE,
)
_SYMBOLIC = re.compile(r"\d\s*(?:×|\*|·)?\s*N\b|\d\s*ND\b|\d\s*·?\s*N\s*·?\s*D\b")


_SCIENTIFIC = re.compile(
    r"(?:[=≈~∼:：]|\bis\b|为|约|需要|about|roughly|around)\s*(?:about\s+|roughly\s+|约\s*)?"
    r"(?P<number>\d+(?:\.\d+)?\s*(?:[eE][+]?\d+|[×x*]\s*10\s*\^\s*\d+))(?=\s*FLOP)"
)
_APPROXIMATE = re.compile(r"(?:≈|~|∼|约|大约|about|roughly|approximately|around)\s*$", re.I)


_CLAUSE_CUT = re.compile(r"[,;]\s|[，；。]|\.\s")
_FLOP_AMOUNT = re.compile(r"\d\s*[KMGTP]?FLOPs?\b", re.IGNORECASE)
_PREFIXED = re.compile(
    r"(?:[=≈~∼:：]|\bis\b|为|约|about|roughly|around)\s*(?:about\s+|roughly\s+|约\s*)?"
    r"(?P<number>\d+(?:\.\d+)?\s*[KMGTP]FLOPs?)\b"
)


def _claimed(text: str) -> tuple[str, int, int] | None:
    """The claimed FLOPs as the arithmetic kind reads them (``≈ 6M``, ``8.4e22``, ``93.4
    GFLOPs``), with where the number starts and ends; an approximate value keeps its ``≈``
    (judged at its figures)."""
    found = list(_SCIENTIFIC.finditer(text)) or list(_PREFIXED.finditer(text))
    if found:
        start, end = found[-1].start("number"), found[-1].end("number")
        written = " ".join(found[-1].group("number").split())
    else:
        claimed = claimed_value(text, _MAGNITUDE)
        if claimed is None or claimed.printed.value < 1e3:
            return None
        start, end, written = claimed.start, claimed.end, claimed.text
    if _APPROXIMATE.search(text[:start]) and not written.startswith(("≈", "~")):
        written = "≈ " + written
    return written, start, end


def _one(found: tuple[Quantity, ...]) -> Quantity | None:
    values = {q.value for q in found}
    return found[0] if len(values) == 1 else None


def _value(scope: Scope, role: str, line: int) -> Quantity | None:
    return _one(on_line(scope, role, line)) or scope.value(role, before=line)


def _figures(quantity: Quantity) -> int:
    """Significant figures of a printed count (``7B`` 1, ``12.9B`` 3, ``70B`` 1)."""
    return len(re.sub(r"\D", "", quantity.printed.text).strip("0"))


def _routed(scope: Scope, line: int) -> Quantity | None:
    """The active (per-token) parameters of the one mixture-of-experts model the statement's
    line names, as published (Mixtral 8x7B: 12.9B of 46.7B), or None: a token's FLOPs count
    only the parameters it is routed through (Fedus et al. 2022 §2), whatever total the line
    multiplies."""
    found = [q for q in scope.of("active_params") if q.line == line and q.published]
    return found[0] if len({q.model for q in found}) == 1 else None


def _number(quantity: Quantity) -> str:
    return f"{quantity.value:.6g}"


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a statement that gives forward or training FLOPs, or None."""
    text = statement.text
    if _THROUGHPUT.search(text) or _SYMBOLIC.search(text):
        return None
    claimed = _claimed(text)
    if claimed is None:
        return None
    claimed_text, start, end = claimed
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(text, 0, start)]
    clause = text[cuts[-1] if cuts else 0 : start]
    if _FLOP_AMOUNT.search(clause):
        return None  # "14 GFLOPs × 1,000 tokens = 14 TFLOPs": from another FLOPs figure, not N
    if not CUE.search(text[:end]) and not CUE.match(text[end : end + 12].strip()):
        return None
    line = statement.line
    params, active = _routed(scope, line), True
    if params is None:
        params, active = _value(scope, "params", line), False
    if params is None or params.value < 1e6 or (params.published and _figures(params) < 2):
        return None  # a published "7B" is the model's name, not its count to two figures
    per_token = bool(_PER_TOKEN.search(text))
    training = bool(_TRAINING.search(text))
    if _BACKWARD.search(text) and not training:
        return None  # the backward pass alone is another quantity (4·N)
    tokens = None
    if training:
        factors = [TRAINING_FLOPS_PER_PARAMETER]
        if not per_token:
            tokens = _value(scope, "tokens", line)
            if tokens is None:
                return None
    elif per_token and _FORWARD.search(text):
        factors = [FORWARD_FLOPS_PER_PARAMETER]
    elif per_token:  # "FLOPs per token" of a model: a forward or a training step, either
        factors = [FORWARD_FLOPS_PER_PARAMETER, TRAINING_FLOPS_PER_PARAMETER]
    else:
        return None
    readings = [
        reading
        for factor in factors
        for reading in _readings(scope, line, claimed_text, factor, params, tokens)
    ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    factor = int(str(chosen.fields["expression"]).split()[0])
    what = "training" if factor == TRAINING_FLOPS_PER_PARAMETER else "forward"
    if len(factors) > 1:
        what += " (the line says neither forward nor training: both tried)"
    if active:
        what += "; N is the active parameters: a token computes with its k routed experts only"
    return Draft(
        kind="arithmetic",
        quote=statement.text[:end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.55,
        recognizer="relations",
        slug=f"flops-{claimed_text}",
        note=f"{what} FLOPs ≈ {factor}·N{'·D' if tokens else ''}"
        f"{' per token' if per_token else ' in all'}: {chosen.assumed}",
    )


def _readings(
    scope: Scope,
    line: int,
    claimed: str,
    factor: int,
    params: Quantity,
    tokens: Quantity | None,
) -> list[Reading]:
    where = {"N": _number(params)}
    scale = f"{factor} × N" + (" × D" if tokens is not None else "")
    if tokens is not None:
        where["D"] = _number(tokens)
    readings = [
        Reading(
            {"expression": scale, "claimed": claimed, "where": dict(where)},
            describe([params, tokens]),
        )
    ]
    vocab, hidden = _value(scope, "vocab", line), _value(scope, "hidden", line)
    if vocab is not None and hidden is not None and vocab.value * hidden.value < params.value:
        without = {**where, "V": _number(vocab), "d": _number(hidden)}
        expression = scale.replace("N", "(N − V × d)")
        readings.append(
            Reading(
                {"expression": expression, "claimed": claimed, "where": without},
                describe([params, vocab, hidden, tokens], "N without the embeddings"),
            )
        )
    layers, context = _value(scope, "layers", line), _value(scope, "context", line)
    if factor == FORWARD_FLOPS_PER_PARAMETER and None not in (layers, context, hidden):
        assert layers is not None and context is not None and hidden is not None
        attention = {**where, "L": _number(layers), "n": _number(context), "d": _number(hidden)}
        readings.append(
            Reading(
                {"expression": "2 × N + 2 × L × n × d", "claimed": claimed, "where": attention},
                describe([params, layers, context, hidden], "with attention over the context"),
            )
        )
    return readings
