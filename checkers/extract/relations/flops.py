"""Relation ``flops``: the compute a statement gives, from the section's parameter count.

Formula (:mod:`checkers.formulas`):

* forward FLOPs per token ≈ 2·N — each weight is one multiply and one add — plus attention's
  2·n_layer·n_ctx·d over the context;
* training FLOPs per token ≈ 6·N (forward 2·N, backward twice that), and for D training tokens
  C ≈ 6·N·D.

Source: Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1 and Table 1;
Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", §3; for a mixture of
experts, Fedus et al. 2022, "Switch Transformers", §2 (a token computes only through the experts
it is routed to) and Jiang et al. 2024, "Mixtral of Experts", §2 (12.9B of 46.7B).

Roles read (:mod:`checkers.extract.scope`): ``params`` (N; the statement's own line first, then
the section), ``tokens`` (D, for a training total; a forward statement's own count of tokens
is read from its sentence), and for the other readings ``vocab``,
``hidden``, ``layers``, ``context``.

The statement: a line that claims a number of FLOPs (``≈ 250M FLOPs``, ``= 1.2e21 FLOPs``,
``= 42 GFLOPs``, ``FLOPs per token ≈ 6M``, ``计算量约 3.1e23 FLOPs``, inline LaTeX read plain:
``$4.2\\times10^{13}$ FLOPs``) and says, in the sentence of that value (which may begin on the
paragraph's previous line), which compute it is: ``forward`` / ``前向`` / ``inference`` /
``推理`` / ``generating`` / ``decoding`` / ``prefill`` / ``生成`` with ``per token`` / ``one
token`` / ``每个 token`` (2·N), the same words with one count of tokens processed (``a
1,000-token answer``, ``2048 个 token``: 2·N per token, for that many), ``training`` /
``训练`` / ``forward and backward`` with ``per token`` (6·N), FLOPs ``per token`` that say
neither (both 2·N and 6·N are readings), or ``training`` without a per-token qualifier when the
section states the training tokens (6·N·D). N is the count the statement's line names, else
the one its paragraph's previous line names when the sentence begins there, else the
section's; a count the statement's own arithmetic multiplies (``2 × 7.2B``) is a reading of N
too. FLOPs per token whose line names neither pass take the pass the lines just above name
(a list under ``前向每个 token 约 2N FLOPs：``). A mixture of experts computes with the experts
it runs: when the line states active parameters or names a model whose published
configuration has them (Mixtral 8x7B: 12.9B of 46.7B), or uses the total of a model whose
active count the section states (40B parameters, 10B active), N is the active count; a line that
supposes the model dense (if, were, 如果) is left alone. A published size that is only a name
(``Mistral 7B``: one figure) is not N. A figure computed from another FLOPs figure in its clause
(``14 GFLOPs × 1,000 tokens = 14 TFLOPs``) is not 2·N per token. A line that states the rule
symbolically (``≈ 6N``), a throughput (FLOPS, FLOP/s, tokens per second) or a hardware peak is
not a statement of this relation.

Readings accepted: N as the section states it, or without the embeddings (N − vocab·d, when
both are stated: Kaplan's N counts only non-embedding weights), and for forward FLOPs also with
attention's 2·n_layer·n_ctx·d (when layers, context and width are stated). The claim holds if it
holds under one of them, at its printed precision (``≈ 250M``: two significant figures); the
note says which inputs were used, and when a forward figure is what 6·N gives, that it counts
training's backward pass too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from checkers.extract.draft import Draft
from checkers.extract.latex import widened
from checkers.extract.relations.base import (
    Reading,
    Statement,
    claimed_value,
    clause_start,
    describe,
    first_holding,
    holding,
    on_line,
    readable,
    sentence,
    sentence_end,
    sentence_start,
)
from checkers.extract.scope import Quantity, Scope
from checkers.formulas import FORWARD_FLOPS_PER_PARAMETER, TRAINING_FLOPS_PER_PARAMETER
from checkers.numbers import NumberError, parse_printed

__all__ = ["CUE", "relate"]

NAME = "flops"

CUE = re.compile(r"FLOPs?\b(?!\s*/\s*s)|浮点运算", re.IGNORECASE)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("flop", "浮点运算")
"""A statement this relation may concern names FLOPs (not FLOPS or FLOP/s, a throughput)."""

_MAGNITUDE = re.compile(r"[KMGTB]|million|billion|trillion|万亿|亿|万", re.IGNORECASE)
_THROUGHPUT = re.compile(r"FLOPS\b|FLOP/s|TFLOPS|PFLOPS|per\s+second|每秒|/\s*s\b|peak|峰值")
_FORWARD = re.compile(
    r"forward|前向|inference|推理|生成|decod|generat(?:e|es|ed|ing|ion)\b|prefill|预填充", re.I
)
_TRAINING = re.compile(
    r"training|train\b|训练|forward\s*(?:\+|and|&)\s*backward|前向.{0,3}反向", re.I
)
_BACKWARD = re.compile(r"backward|反向", re.I)
_PER_TOKEN = re.compile(
    r"(?:per[\s-]|each\s+)(?:generated\s+|output\s+|new\s+)?token|/\s*token"
    r"|(?:a|one)\s+(?:single\s+|generated\s+|new\s+|output\s+)?token\b|每个?\s*token|每个?词元"
    r"|单个\s*token|一个\s*(?:新\s*)?token",
    re.IGNORECASE,
)
_SYMBOLIC = re.compile(r"\d\s*(?:×|\*|·)?\s*N\b|\d\s*ND\b|\d\s*·?\s*N\s*·?\s*D\b")


_SCIENTIFIC = re.compile(
    r"(?:[=≈~∼:：]|\bis\b|为|约|需要|about|roughly|around)\s*(?:about\s+|roughly\s+|约\s*)?"
    r"(?P<number>\d+(?:\.\d+)?\s*(?:[eE][+]?\d+|[×x*]\s*10\s*\^\s*(?:\d+|\(\d+\))))(?=\s*FLOP)"
)
# "Training FLOPs ≈ 6 × N × D = … ≈ 7.5 × 10^18.", "The training FLOPs are about 7.5e18.": the
# value in scientific notation with no unit after it, FLOPs named as the sentence's subject.
_NAMED_SCIENTIFIC = re.compile(
    r"FLOPs?\b(?:[^.;。；\n]|\.(?=\d)){0,80}?(?:[=≈~∼]|\b(?:is|are)\b|为|约)\s*(?:about\s+|roughly\s+|约\s*)?"
    r"(?P<number>\d+(?:\.\d+)?\s*(?:[eE][+]?\d+|[×x*]\s*10\s*\^\s*(?:\d+|\(\d+\)|\{\d+\})))"
    r"(?=\s*(?:[.;,，。；]|$))"
)
# "= 42 GFLOPs": a FLOP unit with its SI prefix, after a relation mark.
_PREFIXED = re.compile(
    r"(?:[=≈~∼:：]|\b(?:is|costs?|takes?|needs?|about|roughly|around)\b|为|约|需要)\s*"
    r"(?:about\s+|roughly\s+|约\s*)?(?P<number>\d+(?:\.\d+)?)\s*(?P<prefix>[KMGTPE])FLOPs?\b"
    r"(?!\s*/\s*s)"
)
_FLOP_AMOUNT = re.compile(r"\d\s*[KMGTP]?FLOPs?\b", re.IGNORECASE)
_SUPPOSED = re.compile(r"\b(?:if|were|would|dense)\b|如果|假如|若|稠密", re.IGNORECASE)
_MANY = re.compile(
    r"\d[\d,]*\s*(?:concurrent\s+|parallel\s+)?(?:users|requests|sequences|prompts|queries"
    r"|conversations|answers|replies)\b|\d\s*个?\s*(?:用户|请求|序列)|batch|批",
    re.IGNORECASE,
)
# "a 1,000-token answer", "2048 个 token", "1K tokens": tokens a forward statement processes.
_COUNT_OF_TOKENS = re.compile(
    r"(?<![\w.,])(?P<count>\d{1,3}(?:,\d{3})+|\d+)(?P<scale>[Kk])?"
    r"(?:-tokens?\b|\s+tokens?\b|\s*个\s*tokens?\b|\s*个?词元)"
    r"(?!\s*(?:/\s*s|per\s+sec|每秒))",
    re.IGNORECASE,
)
_APPROXIMATE = re.compile(r"(?:≈|~|∼|约|大约|about|roughly|approximately|around)\s*$", re.I)


def _claimed(text: str) -> tuple[str, int, int] | None:
    """The claimed FLOPs as the arithmetic kind reads them (``≈ 6M``, ``8.4e22``), with where
    the number starts and ends; an approximate value keeps its ``≈`` (judged at its figures)."""
    found = list(_SCIENTIFIC.finditer(text)) or _last_named(text)
    prefixed = list(_PREFIXED.finditer(text))
    if prefixed and (not found or prefixed[-1].start() > found[-1].start()):
        last = prefixed[-1]
        start, end = last.start("number"), last.end("prefix") + len("FLOP")
        number = last.group("number")
        written = f"{number} {text[last.start('prefix') : end]}"
    elif found:
        start, end = found[-1].start("number"), found[-1].end("number")
        written = found[-1].group("number")
    else:
        claimed = claimed_value(text, _MAGNITUDE)
        if claimed is None or claimed.printed.value < 1e3:
            return None
        start, end, written = claimed.start, claimed.end, claimed.text
    if _APPROXIMATE.search(text[:start]) and not written.startswith(("≈", "~")):
        written = "≈ " + written
    return written, start, end


def _last_named(text: str) -> list[re.Match[str]]:
    """The last value of a chain whose subject is FLOPs (:data:`_NAMED_SCIENTIFIC`), read on
    from each relation mark so that the chain's last value is the one claimed."""
    found: list[re.Match[str]] = []
    at = 0
    while (match := _NAMED_SCIENTIFIC.search(text, at)) is not None:
        found.append(match)
        at = match.end("number")
        if not CUE.search(text, at):
            break
    return found[-1:]


def _one(found: tuple[Quantity, ...]) -> Quantity | None:
    values = {q.value for q in found}
    return found[0] if len(values) == 1 else None


def _value(scope: Scope, role: str, line: int) -> Quantity | None:
    return _one(on_line(scope, role, line)) or scope.value(role, before=line)


def _number(quantity: Quantity) -> str:
    return f"{quantity.value:.6g}"


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a statement that gives forward or training FLOPs, or None."""
    source = statement.text
    text, where = readable(source)
    if _THROUGHPUT.search(text):
        return None
    claimed = _claimed(text)
    if claimed is None:
        return None
    claimed_text, start, end = claimed
    symbolic = _SYMBOLIC.search(text)
    if symbolic is not None and symbolic.start() > start:
        return None  # the rule in symbols after the value ("… ≈ 6N"): no statement of N
    if not CUE.search(text[:start]) and not CUE.search(text[start : end + 12]):
        return None
    if _FLOP_AMOUNT.search(text, clause_start(text, start), start):
        return None  # "14 GFLOPs × 1,000 tokens = 14 TFLOPs": from another FLOPs figure, not N
    line = statement.line
    # What the statement says (forward or training, per token or for how many) is read from
    # the sentence of the claimed value, which may start on the paragraph's previous line.
    before = readable(statement.before)[0]
    lead = sentence(dataclasses.replace(statement, text=text, before=before), end)
    words = lead + text[end : sentence_end(text, end)]
    continued = bool(statement.before) and sentence_start(text, end) == 0
    stated = _params(scope, line, continued)
    if stated is not None and stated.published and _figures(stated) < 2:
        stated = None  # a published "7B" is the model's name, not its count to two figures
    token_counts = {q.value for q in scope.of("tokens") if q.line <= line}
    multiplied = _factor_count(text, start, line, where, token_counts)
    multiplied = multiplied if multiplied is not None and multiplied.value >= 1e6 else None
    candidates = [q for q in (multiplied, stated) if q is not None and q.value >= 1e6]
    if multiplied is not None and stated is not None and multiplied.value == stated.value:
        candidates = [stated]  # one count, printed twice: name where the section stated it
    # The active parameters the line states, or those of the mixture of experts it names.
    published = tuple(q for q in scope.of("active_params") if q.line == line and q.published)
    active = _one(on_line(scope, "active_params", line)) or _one(published)
    if active is None:  # the total of a model whose active count the section states
        stated_active = scope.value("active_params", before=line)
        if stated_active is not None:
            totals = {q.value for q in scope.of("params") if q.line == stated_active.line}
            # The count the statement itself multiplies is its N unless it is that model's
            # total (the mistake of computing with every expert); a model named on an earlier
            # line does not replace another count the line works with.
            judged = [multiplied] if multiplied is not None else candidates
            active = stated_active if any(q.value in totals for q in judged) else None
    if active is not None:
        if _SUPPOSED.search(words):
            return None  # "if it were dense": not the model's compute
        candidates = [active]  # a mixture of experts computes with the experts it runs
        what_n = "; N is the active parameters: a token computes with its k routed experts only"
    else:
        what_n = ""
    if not candidates:
        return None
    params = candidates[0]
    per_token = bool(_PER_TOKEN.search(words))
    training = bool(_TRAINING.search(words))
    if _BACKWARD.search(words) and not training:
        return None  # the backward pass alone is another quantity (4·N)
    tokens = None
    if training:
        factors = [TRAINING_FLOPS_PER_PARAMETER]
        if not per_token:
            tokens = _value(scope, "tokens", line)
            if tokens is None:
                return None
    elif per_token and _FORWARD.search(words):
        factors = [FORWARD_FLOPS_PER_PARAMETER]
    elif per_token and _lead_in(statement) is not None:  # a list under "前向每个 token 约 2N:"
        factors = [_lead_in(statement) or FORWARD_FLOPS_PER_PARAMETER]
    elif per_token:  # "FLOPs per token" of a model: a forward or a training step, either
        factors = [FORWARD_FLOPS_PER_PARAMETER, TRAINING_FLOPS_PER_PARAMETER]
    elif _FORWARD.search(words):  # "generating a 1,000-token answer costs …": 2·N per token
        own = len(lead) - (end - sentence_start(text, end))  # where this line's part starts
        tokens = _generated(lead[: len(lead) - (end - start)], line, own)
        if tokens is None:
            return None
        factors = [FORWARD_FLOPS_PER_PARAMETER]
    else:
        return None
    readings = [
        reading
        for factor in factors
        for count in dict.fromkeys(candidates)
        for reading in _readings(scope, line, claimed_text, factor, count, tokens)
    ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    factor = int(str(chosen.fields["expression"]).split()[0].lstrip("("))
    what = "training" if factor == TRAINING_FLOPS_PER_PARAMETER else "forward"
    if len(factors) > 1:
        what += " (the line says neither forward nor training: both tried)"
    hint = ""
    forward = factor == FORWARD_FLOPS_PER_PARAMETER and len(factors) == 1
    if forward and _as_training(claimed_text, params, tokens):
        hint = (
            f"; the claimed value is {TRAINING_FLOPS_PER_PARAMETER}·N"
            f"{'·D' if tokens else ''}, which counts the backward pass of training too"
        )
    _, quote_end = widened(source, where[start], where[end - 1] + 1)
    return Draft(
        kind="arithmetic",
        quote=source[:quote_end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.55,
        recognizer="relations",
        slug=f"flops-{claimed_text}",
        note=f"{what} FLOPs ≈ {factor}·N{'·D' if tokens else ''}"
        f"{' per token' if per_token else ' in all'}: {chosen.assumed}{what_n}{hint}",
    )


# "2 × 7.2B ≈ 14.4 GFLOPs", "2 × 12.9 × 10^9 = 2.58 × 10^10": a parameter count the statement
# multiplies is its own N, with a scale word or in scientific notation (LaTeX read plain).
_FACTOR_COUNT = re.compile(
    r"[×*·⋅]\s*(?P<count>\d+(?:\.\d+)?\s*(?:B|M|T|billion|million|亿)(?![A-Za-z])"
    r"|\d+(?:\.\d+)?\s*[×x*]\s*10\^\(?\d+\)?|\d+(?:\.\d+)?e\+?\d+\b)"
)


def _factor_count(
    text: str, start: int, line: int, where: Sequence[int], tokens: set[float] | None = None
) -> Quantity | None:
    """The one parameter count (``7.2B``) the statement's arithmetic multiplies before its
    value, or None; a factor that is the section's count of ``tokens`` (``6 × 124M × 10B``
    with D = 10B tokens stated) is D, not N."""
    found = [
        m
        for m in _FACTOR_COUNT.finditer(text, 0, start)
        if not tokens or _count_value(m.group("count")) not in tokens
    ]
    if len({m.group("count").replace(" ", "") for m in found}) != 1:
        return None
    written = found[0].group("count").replace(" ", "")
    try:
        printed = parse_printed(written)
    except NumberError:
        return None
    column = where[found[0].start("count")] + 1
    return Quantity("params", printed, "", line, column, "prose", written)


def _count_value(written: str) -> float | None:
    try:
        return parse_printed(written.replace(" ", "")).value
    except NumberError:
        return None


def _lead_in(statement: Statement) -> int | None:
    """The FLOPs per parameter the lines just above a statement name when its own line names
    neither pass (a list under "forward, per token:"): 2 for forward only, 6 for training only,
    None when they name neither or both."""
    topic = readable(statement.topic)[0]
    training = bool(_TRAINING.search(topic) or _BACKWARD.search(topic))
    forward = bool(_FORWARD.search(topic))
    if forward == training:
        return None
    return FORWARD_FLOPS_PER_PARAMETER if forward else TRAINING_FLOPS_PER_PARAMETER


def _figures(quantity: Quantity) -> int:
    """Significant figures of a printed count (``7B`` 1, ``12.9B`` 3, ``70B`` 1)."""
    return len(re.sub(r"\D", "", quantity.printed.text).strip("0"))


def _params(scope: Scope, line: int, continued: bool) -> Quantity | None:
    """N for a statement: its line's, else (when its sentence starts on the paragraph's
    previous line) that line's, else the section's."""
    found = _one(on_line(scope, "params", line))
    if found is None and continued:
        found = _one(on_line(scope, "params", line - 1))
    return found or scope.value("params", before=line)


def _generated(lead: str, line: int, own: int) -> Quantity | None:
    """The one count of tokens a forward statement's sentence names before its value
    (``a 1,000-token answer``, ``2048 个 token``), as the tokens processed; ``own`` is where
    the statement's line starts in ``lead`` (before it: the paragraph's previous line)."""
    if _MANY.search(lead):
        return None  # tokens for each of several users or sequences: the count is not all
    found = list(_COUNT_OF_TOKENS.finditer(lead))
    counts = {m.group("count").replace(",", "") + (m.group("scale") or "").upper() for m in found}
    if len(counts) != 1:
        return None
    (count,) = counts
    at = found[0].start()
    return Quantity(
        "tokens",
        parse_printed(count),
        "",
        line if at >= own else line - 1,
        at - own + 1 if at >= own else at + 1,
        "prose",
        found[0].group(0),
    )


def _as_training(claimed: str, params: Quantity, tokens: Quantity | None) -> bool:
    """Whether a forward figure is what 6·N would give (a training cost: forward and backward)."""
    expression = f"{TRAINING_FLOPS_PER_PARAMETER} × N" + (" × D" if tokens else "")
    where = {"N": _number(params)} | ({"D": _number(tokens)} if tokens else {})
    reading = Reading({"expression": expression, "claimed": claimed, "where": where})
    return holding("arithmetic", [reading]) is not None


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
