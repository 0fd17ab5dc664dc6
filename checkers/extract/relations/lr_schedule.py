"""Relation ``lr_schedule``: the learning rate a stated schedule gives at a step.

Formula, for peak η_max, floor η_min, w warmup steps and T steps in all:

* linear warmup, t ≤ w: η(t) = η_max · t / w (from 0);
* cosine decay, w ≤ t ≤ T: η(t) = η_min + ½·(η_max − η_min)·(1 + cos(π·(t − w)/(T − w)));
* inverse square root after the peak at step w, t ≥ w: η(t) = η(w) · (w / t)^0.5, so k× the
  steps leaves 1/√k of the peak.

Source: Loshchilov & Hutter 2017, "SGDR: Stochastic Gradient Descent with Warm Restarts",
eq. 5 (cosine annealing from η_max to η_min); Goyal et al. 2017, "Accurate, Large Minibatch
SGD", §2.2 (linear warmup); Vaswani et al. 2017, "Attention Is All You Need", §5.3 (lrate =
d^−0.5 · min(t^−0.5, t · w^−1.5)); the schedule Hugging Face's ``get_cosine_schedule_with_warmup``
and PyTorch's ``CosineAnnealingLR`` compute.

Roles read (:mod:`checkers.extract.scope`): ``peak_lr``, ``min_lr``, ``warmup_steps`` and
``total_steps`` of the section (``η_max = 3e-4``, ``a floor of 3e-5``, ``warmup over 2,000
steps``, ``总步数 T = 12000``), each read from the words that name it, never from its size.
The step t of a statement is the one it names (``step 75,500``, ``第 500 步``, a table's step
column); for the inverse square root also the peak's step (``w = 4000``, ``峰值在第 4000 步``)
or the factor of steps (``步数变为 4 倍``) on the statement's line.

Statements:

* a rate at a step, in a section whose text names a cosine schedule (cos, cosine, 余弦): a line
  naming one step and ending in a rate (``step 26,500: 2.60e-4``, ``- 第 500 步：… = 1.5e-4``,
  a log line ``step 4000 | lr 2.74e-04``) or a table row with a step column and a learning-rate
  column (header 步数/step/iteration and 学习率/lr/learning rate/η), within warmup or decay;
* a share of the peak after it (``峰值的 25%``, ``25% of the peak``) in a statement whose line or
  the lines just before it name the inverse square root (逆平方根, inverse square root, rsqrt,
  t^−0.5).

The warmup's share of the steps (``warmup 占总步数的 20%``) is a share of two stated numbers,
which the prose recognisers check; it is not drafted here a second time.

Readings accepted: for a cosine decay, the progress (t − w)/(T − w) (decay after the warmup,
as the libraries above compute it) or t/T (a cosine over the whole run), with the floor the
section states, or 0 when it states none (a stated floor is never dropped: that is the mistake
this relation catches); for warmup, η_max·t/w. Each value is compared at its printed precision
(``2.60e-4``: ±0.005e-4; ``约 25%`` two significant figures), and the message names the phase,
the formula and where each constant was read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from checkers.extract.draft import Draft
from checkers.extract.latex import widened
from checkers.extract.relations.base import (
    Reading,
    Statement,
    describe,
    first_holding,
    holding,
    readable,
    sentence_end,
    sentence_start,
)
from checkers.extract.scope import Quantity, Scope
from checkers.numbers import NumberError, parse_printed

__all__ = ["CUE", "relate"]

NAME = "lr_schedule"

CUE = re.compile(
    r"[\d学l峰ow预](?:(?<=\d)e[-−]\d|(?<=1)0\s*\^\s*[{(]?\s*[-−]|(?<=学)习率|(?<=l)earning[\s_]rate"
    r"|(?<=l)(?<!\wl)r\b|(?<=峰)值的|(?<=o)f\s+(?:the\s+)?peak|(?<=w)arm[\s-]?up|(?<=预)热)",
    re.IGNORECASE,
)
"""A statement this relation may concern prints a small rate, or names a learning rate, the
peak or the warmup: ``\\de[-−]\\d|10\\s*\\^\\s*[{(]?\\s*[-−]|学习率|learning[\\s_]rate|\\blr\\b
|峰值的|of\\s+(?:the\\s+)?peak|warm[\\s-]?up|预热``, written to open with the class of its branches'
first characters (``(?<=l)(?<!\\wl)r\\b`` is ``\\blr\\b``): Python's re skips to the characters
of an opening class, but tries an alternation with a branch that opens with ``\\d`` or ``\\b``
at every character."""
WORDS = ("e-", "e−", "^", "学习率", "learning", "lr", "峰值", "peak", "warm", "预热")
"""Words one of which every line the cue matches holds (lower case)."""

_RATE = (
    r"(?P<rate>\d+(?:\.\d+)?(?:\s*[eE]\s*[-−]\s*\d+|\s*[×x*]\s*10\s*\^\s*\(?\s*[-−]\s*\d+\s*\)?)?)"
    r"(?![\w%]|\.\d)"
)
_STEP_NUMBER = r"(?P<step>\d{1,3}(?:,\d{3})+|\d+)(?![\w%]|[.,]\d)"
_STEP = re.compile(rf"(?:\bstep\s*|\bt\s*=\s*|第\s*){_STEP_NUMBER}(?:\s*步)?", re.IGNORECASE)
_ENDING_RATE = re.compile(
    rf"(?:[=≈~∼:：→]|\blr\b|\bis\b|为|约|是)\s*(?:约\s*|≈\s*|about\s+)?{_RATE}\s*[)）.,;。，；]*"
    r"\s*(?:\||$)",
    re.IGNORECASE,
)
# Another quantity a training log or a step's line gives: its value is not the learning rate.
_OTHER_QUANTITY = re.compile(
    r"loss|ppl|perplexity|grad|norm|acc|decay\s+rate|weight[\s_]decay|dropout|momentum|beta"
    r"|temperature|peak|max|min|floor|损失|困惑度|梯度|准确率|峰值|最大|最小",
    re.IGNORECASE,
)
# After "Step 1:" a word other than the rate's: an instruction, not a training step.
_PROCEDURE = re.compile(
    r"\s*[:：.)]\s*(?!lr\b|learning\s+rate|the\s+(?:learning\s+)?rate|rate\b|eta\b)[A-Za-z]{3,}",
    re.IGNORECASE,
)
_LOG_RATE = re.compile(rf"\blr\s*[=:]?\s*{_RATE}", re.IGNORECASE)
_COSINE = re.compile(r"\bcos|余弦", re.IGNORECASE)
_INVERSE_SQRT = re.compile(
    r"逆平方根|inverse[\s-]+(?:square[\s-]+root|sqrt)|rsqrt|invsqrt|t\s*\^\s*\{?\s*\(?\s*[-−]\s*0?\.5"
    r"|t\s*\^\s*\{?\s*[-−]\s*1\s*/\s*2",
    re.IGNORECASE,
)
_SHARE_OF_PEAK = re.compile(
    r"峰值的\s*(?P<pct>\d+(?:\.\d+)?\s*%)|(?P<pct2>\d+(?:\.\d+)?\s*%)\s*of\s+(?:the\s+|its\s+)?peak",
    re.IGNORECASE,
)
_PEAK_STEP = re.compile(
    rf"(?:\bw\s*=\s*|峰值在第\s*|peak(?:s|\s+is)?\s+at\s+step\s+|warm[\s-]?up\s*(?:=|of)?\s*)"
    rf"{_STEP_NUMBER}",
    re.IGNORECASE,
)
_STEP_FACTOR = re.compile(
    r"(?:步数|steps?)[^\d\n]{0,6}(?P<k>\d+)\s*(?:×|倍)|(?P<k2>\d+)\s*(?:×|倍)\s*(?:as\s+many\s+"
    r"|the\s+|more\s+)?steps",
    re.IGNORECASE,
)
_APPROX = re.compile(r"(?:≈|~|∼|约|大约|about|roughly|around|approximately)\s*(?:为\s*)?$", re.I)
_STEP_HEADER = re.compile(r"^\W*(?:步数|步|steps?|iterations?|iters?)\b|^\W*(?:步数|步)", re.I)
_RATE_HEADER = re.compile(r"学习率|learning\s+rate|\blr\b|η|\\eta", re.IGNORECASE)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a rate a stated schedule gives, or None."""
    text, where = readable(statement.text)
    topic = readable(statement.topic)[0]
    if _INVERSE_SQRT.search(text) or _INVERSE_SQRT.search(topic):
        return _inverse_sqrt(statement, text, topic, where)
    found = _row(statement, text) if statement.header else _line(text)
    if found is None or not _COSINE.search(scope.text):
        return None
    step, rate, start, end = found
    return _cosine(statement, scope, text, where, step, rate, start, end)


def _steps(written: str) -> float:
    return float(written.replace(",", ""))


def _row(statement: Statement, text: str) -> tuple[float, str, int, int] | None:
    """(step, rate as printed, where the rate starts and ends) of a table row whose header has
    a step and a learning-rate column."""
    header = [readable(cell)[0] for cell in statement.header]
    steps = [i for i, cell in enumerate(header) if _STEP_HEADER.search(cell)]
    rates = [i for i, cell in enumerate(header) if _RATE_HEADER.search(cell)]
    if len(steps) != 1 or len(rates) != 1 or steps == rates:
        return None
    cells = text.strip().strip("|").split("|")
    if len(cells) != len(header):
        return None
    step = re.fullmatch(rf"\s*\**{_STEP_NUMBER}\**\s*", cells[steps[0]])
    rate = re.fullmatch(rf"\s*\**(?:≈\s*|~\s*)?{_RATE}\**\s*", cells[rates[0]])
    if step is None or rate is None:
        return None
    offset = text.index("|") + 1 + sum(len(c) + 1 for c in cells[: rates[0]])
    return (
        _steps(step.group("step")),
        rate.group("rate"),
        offset + rate.start("rate"),
        offset + rate.end("rate"),
    )


def _line(text: str) -> tuple[float, str, int, int] | None:
    """(step, rate as printed, where it starts and ends) of a line naming one step and ending
    in a rate, or a log line's ``lr``."""
    steps = {m.group("step") for m in _STEP.finditer(text)}
    if len(steps) != 1:
        return None
    step = _STEP.search(text)
    assert step is not None
    if _PROCEDURE.match(text, step.end()):
        return None  # "Step 1: choose the peak …": a step of a procedure, not of training
    rate = _LOG_RATE.search(text, step.end()) or _ENDING_RATE.search(text, step.end())
    if rate is None or _OTHER_QUANTITY.search(text, step.end(), rate.start("rate")):
        return None
    return _steps(step.group("step")), rate.group("rate"), rate.start("rate"), rate.end("rate")


def _printed_rate(written: str) -> str | None:
    """The rate as the arithmetic kind reads it (``3 × 10^(-4)`` → ``3e-4``), or None."""
    compact = re.sub(r"\s+", "", written).replace("−", "-")
    compact = re.sub(r"[×x*]10\^\(?(-?\d+)\)?", r"e\1", compact)
    try:
        value = parse_printed(compact).value
    except NumberError:
        return None
    return compact if 0 < value < 1 else None


def _number(quantity: Quantity) -> str:
    return f"{quantity.value:.6g}"


def _cosine(
    statement: Statement,
    scope: Scope,
    text: str,
    where: Sequence[int],
    step: float,
    written: str,
    start: int,
    end: int,
) -> Draft | None:
    line = statement.line
    peak = scope.value("peak_lr", before=line)
    total = scope.value("total_steps", before=line)
    warmup = scope.value("warmup_steps", before=line)
    floor = scope.value("min_lr", before=line)
    rate = _printed_rate(written)
    if peak is None or total is None or rate is None:
        return None
    if warmup is None and re.search(r"warm[\s-]?up|预热", scope.text, re.IGNORECASE):
        return None  # a warmup the section does not size
    claimed = ("≈ " if _APPROX.search(text[:start]) else "") + rate
    w = warmup.value if warmup is not None else 0.0
    t, big_t = step, total.value
    if not 0 <= t <= big_t or w >= big_t:
        return None
    eta_max, eta_min = _number(peak), _number(floor) if floor is not None else "0"
    inputs = [peak, floor, warmup, total]
    floor_note = "" if floor is not None else "no floor stated: η_min = 0"
    if t < w:
        phase = f"linear warmup, step {t:g} of {w:g}: η = η_max · t / w"
        readings = [
            Reading(
                {"expression": f"{eta_max} × {t:g} / {w:g}", "claimed": claimed},
                describe([peak, warmup]),
            )
        ]
    else:
        phase = f"cosine decay, step {t:g}: η = η_min + ½·(η_max − η_min)·(1 + cos(π·progress))"
        progresses = [(f"({t:g} − {w:g}) / ({big_t:g} − {w:g})", "progress (t − w)/(T − w)")]
        if w:
            progresses.append((f"{t:g} / {big_t:g}", "progress t/T (a cosine over all T steps)"))
        readings = [
            Reading(
                {
                    "expression": f"{eta_min} + 0.5 × ({eta_max} − {eta_min}) × "
                    f"(1 + cos(π × {progress}))",
                    "claimed": claimed,
                },
                describe(inputs, how, floor_note),
            )
            for progress, how in progresses
        ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    hint = ""
    if floor is not None and t >= w:
        expression = str(chosen.fields["expression"])
        without = (expression.removeprefix(f"{eta_min} + "), expression.replace(eta_min, "0"))
        if holding("arithmetic", [Reading({"expression": e, "claimed": claimed}) for e in without]):
            hint = "; the claimed value is what the decay gives without its floor η_min"
    _, quote_end = widened(statement.text, where[start], where[end - 1] + 1)
    return Draft(
        kind="arithmetic",
        quote=statement.text[:quote_end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"lr-step-{t:g}",
        note=f"{phase}: {chosen.assumed}{hint}",
    )


def _inverse_sqrt(
    statement: Statement, text: str, topic: str, where: Sequence[int]
) -> Draft | None:
    share = _SHARE_OF_PEAK.search(text)
    if share is None:
        return None
    group = "pct" if share.group("pct") else "pct2"
    start, end = share.start(group), share.end(group)
    sentence = text[sentence_start(text, start) : sentence_end(text, end)]
    factor = _STEP_FACTOR.search(sentence)
    before = list(_PEAK_STEP.finditer(topic))  # the peak's step, on the line or just above
    peak_step = _PEAK_STEP.search(text) or (before[-1] if before else None)
    steps = [m for m in _STEP.finditer(sentence) if m.start() < start - sentence_start(text, start)]
    if peak_step is not None and steps:
        w, t = _steps(peak_step.group("step")), _steps(steps[-1].group("step"))
        inputs = f"peak at step {w:g}, step {t:g}"
    elif factor is not None:
        w, t = 1.0, float(factor.group("k") or factor.group("k2"))
        inputs = f"{t:g}× the steps (line {statement.line})"
    else:
        return None
    if t < w:
        return None  # before the peak: the warmup, not the decay
    ratio = f"{w:g} / {t:g}"
    claimed = ("≈ " if _APPROX.search(text[:start]) else "") + share.group(group).replace(" ", "")
    _, quote_end = widened(statement.text, where[start], where[end - 1] + 1)
    return Draft(
        kind="arithmetic",
        quote=statement.text[:quote_end].strip(),
        line=statement.line,
        fields={"expression": f"({ratio})^0.5", "claimed": claimed},
        confidence=0.5,
        recognizer="relations",
        slug=f"lr-inverse-sqrt-{share.group(group).strip()}",
        note=(
            "inverse square root decay after the peak at step w: η(t) = η(w)·(w/t)^0.5 "
            f"(Vaswani et al. 2017, §5.3), so the share of the peak is ({ratio})^0.5: {inputs}"
        ),
    )
