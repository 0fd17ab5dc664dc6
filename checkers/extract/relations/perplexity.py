"""Relation ``perplexity``: the perplexity a statement gives for the loss it states, and the
bases a loss is measured in.

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

Four more statements about the same quantities, each read from the line itself (LaTeX read as
plain arithmetic, :func:`checkers.extract.latex.plain`):

* **nats and bits.** ``2.0 nats = 2.0 / ln 2 ≈ 2.885 bits``, ``3.2 bits 等于 3.2 × ln 2 ≈ 2.218
  nats``: a loss printed in one unit and then in the other, nothing but the arithmetic between
  (a sentence soft-wrapped from the line before counts). 1 nat = 1/ln 2 bits, so the bits are
  nats / ln 2 and the nats are bits · ln 2 (Shannon 1948; the nat is the unit of the natural
  log). The first value is read as the rounding it is (``carried``), the second at its printed
  precision, so only the wrong direction (× ln 2 where ÷ ln 2 is due) or wrong arithmetic fails.
* **a base against the loss's unit.** ``PPL = e^{2.5} ≈ 12.18`` when the line, the sentence it
  continues or the section's heading and lead-in lines state that very loss in bits
  (``loss = 2.5 bits/token``), or ``2^{2.3}`` for a loss stated in nats: drafted as the
  perplexity in the stated unit's base. A sentence that names the formula's own unit (``而如果
  2.0 是 bits，PPL = 2^{2.0}``: a hypothetical reading) or a loss stated in both units is left
  alone: the text allows that reading.
* **the mean of per-token perplexities.** ``PPL = (e^{1.0} + e^{2.0} + e^{3.0}) / 3 ≈ 10.06``:
  perplexity is e^(mean loss) (the exponential of the average negative log-likelihood, Jurafsky
  & Martin §3.3), and the mean of the per-token e^loss is larger (Jensen's inequality), so the
  claim is exp((1.0 + 2.0 + 3.0) / 3). A sentence that calls the value an average of
  perplexities (per sentence, per document, 平均困惑度) is a different quantity and is left alone.
* **bits per byte.** ``每字节约 0.72 bits``, ``0.72 bits per byte``, ``BPB ≈ 0.72``: the bits
  per token divided by the bytes per token (Gao et al. 2020, "The Pile", §4: BPB = (L_T / L_B) ·
  loss / ln 2), both read from the statement's line and the lines just before it in its section
  (``2.885 bits / token``, or a loss of ``2.0 nats / token`` over ln 2; ``1 个 token 对应 4 个字
  节``, ``4 bytes per token``); each must be stated once there, or nothing is drafted. The bits
  per token are read as the rounding they are.

A training log's line (``step 800 | loss 2.708 | ppl 15.0``, ``loss=2.71, ppl=15.0``: the
keys with their values, no relation word) is a statement too: one loss, then one perplexity.
It names no base, so it is read under both e and 2 (fairseq, for one, logs losses in bits),
unless the log lines just above it settle the base: when every one of them holds under one
base and not the other, that base is the log's, and the message says so.
"""

from __future__ import annotations

import itertools
import re

from checkers.extract.draft import Draft
from checkers.extract.latex import plain
from checkers.extract.relations.base import (
    Reading,
    Statement,
    first_holding,
    holding,
    sentence_start,
)
from checkers.extract.scope import Scope

__all__ = ["CUE", "relate"]

NAME = "perplexity"

CUE = re.compile(r"perplexit|P(?<!\wP)PL\b|困惑度|nats?\b|bits?\b", re.IGNORECASE)
"""A statement this relation may concern names perplexity, or a quantity in nats or bits.
``P(?<!\\wP)PL\\b`` is ``\\bPPL\\b`` starting with its letter: a branch that starts with
``\\b`` makes Python's re try the whole cue at every character of every line with a digit."""
WORDS = ("perplexit", "ppl", "困惑度", "nat", "bit")
"""Words one of which every line the cue matches holds (lower case)."""

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


_LOG_LOSS = re.compile(
    r"(?<![\w])(?:train_|val_|eval_|valid_|train\s|val\s)?loss\s*[=:]?\s*"
    rf"(?P<loss>{_NUMBER})(?![\d%]|\.\d)",
    re.IGNORECASE,
)
_LOG_PERPLEXITY = re.compile(
    rf"(?<![\w])(?:ppl|perplexity)\s*[=:]?\s*(?P<value>{_NUMBER})(?![\d%]|\.\d)", re.IGNORECASE
)
_BASES = {"e": "exp({loss})", "2": "2^{loss}"}


# Between a log's loss and its perplexity: only separators and other keys with their values.
_LOG_BETWEEN = re.compile(r"(?:[\s|,;/()\[\]]|[A-Za-z_]+\s*[=:]?\s*[-+\d.eE]+)*")


def _log_pair(text: str) -> tuple[re.Match[str], re.Match[str]] | None:
    """The one loss and the one perplexity after it of a training log's line, with nothing but
    other keys and values between them, or None."""
    losses = list(_LOG_LOSS.finditer(text))
    if len(losses) != 1:
        return None
    values = [m for m in _LOG_PERPLEXITY.finditer(text) if m.start() >= losses[0].end()]
    if len(values) != 1 or not _LOG_BETWEEN.fullmatch(text, losses[0].end(), values[0].start()):
        return None
    return losses[0], values[0]


def _bases_of(pair: tuple[re.Match[str], re.Match[str]]) -> set[str]:
    """The bases under which a log line's perplexity is its loss's exponential."""
    loss, value = pair
    return {
        base
        for base, form in _BASES.items()
        if holding(
            "arithmetic",
            [
                Reading(
                    {
                        "expression": form.format(loss=loss.group("loss")),
                        "claimed": value.group("value"),
                    }
                )
            ],
        )
    }


def _log_draft(statement: Statement) -> Draft | None:
    """A training log's line: e^loss or 2^loss, as the log lines above it settle."""
    text = statement.text
    pair = _log_pair(text)
    if pair is None:
        return None
    loss, value = pair
    bases = ["e", "2"]
    shown = ""
    if _BITS.search(text):
        bases = ["2"]
    else:
        above = [p for line in statement.recent if (p := _log_pair(line)) is not None]
        settled = [_bases_of(p) for p in above]
        for base in ("e", "2"):
            if settled and all(found == {base} for found in settled):
                bases = [base]
                lines = "line" if len(settled) == 1 else f"{len(settled)} lines"
                shown = f"; the log's {lines} above hold only under {base}^loss"
    readings = [
        Reading(
            {
                "expression": _BASES[base].format(loss=loss.group("loss")),
                "claimed": value.group("value"),
            },
            f"base {base}",
        )
        for base in bases
    ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    if shown and bases == ["e"] and _bases_of(pair) == {"2"}:
        shown += f", and {value.group('value')} is 2^{loss.group('loss')}: this line uses base 2"
    tried = " and ".join(f"{b}^loss" for b in bases)
    return Draft(
        kind="arithmetic",
        quote=text[: value.end("value")].strip(),
        line=statement.line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"perplexity-log-{value.group('value')}",
        note=f"a training log's perplexity is base^loss: {tried} tried, "
        f"loss {loss.group('loss')} (line {statement.line}){shown}",
    )


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a statement that gives the perplexity of its loss, converts
    a loss between nats and bits, or writes a perplexity's formula (see the module docstring),
    or None."""
    text = statement.text
    conversion = _conversion(statement) if _NATS.search(statement.before + text) else None
    if conversion is not None:
        return conversion
    if _PER_BYTE_CLAIM.search(text):
        per_byte = _per_byte(statement)
        if per_byte is not None:
            return per_byte
    if _WRITTEN_FORMULA.search(text) or "\\frac" in text:
        written = _written(statement)
        if written is not None or _NUMERIC_FORMULA.search(text) or "\\frac" in text:
            return written
        # only the rule in symbols ("PPL = e^loss。loss 为 2.0 时 PPL 约为 7.39"): the worked
        # values after it are a stated perplexity like any other
    return _stated(statement)


_NUMERIC_FORMULA = re.compile(r"(?:\be|exp|2)\s*\^\s*[({]?\s*[-−]?\d|exp\s*\(\s*[-−]?\d", re.I)
"""A formula written out with its numbers (``e^2.3``, ``exp(1.5)``): the equation chain's."""


def _stated(statement: Statement) -> Draft | None:
    """The perplexity a line gives for the one loss it states."""
    text = statement.text
    logged = _log_draft(statement)
    if logged is not None:
        return logged
    losses = list(_LOSS.finditer(text))
    if len(losses) == 1:
        return _clause_draft(statement, 0, len(text), losses[0])
    # Several losses, each with its perplexity in a clause of its own ("loss 为 2.0 时 PPL 约为
    # 7.39；loss 降到 1.5 时，困惑度约为 4.48"): each clause is a statement; the first that fails
    # is drafted (a line gives one draft), else the last.
    bounds = [0, *(m.end() for m in _CLAUSE_END.finditer(text)), len(text)]
    drafts = [
        draft
        for start, end in itertools.pairwise(bounds)
        if len(found := [m for m in losses if start <= m.start() < end]) == 1
        and (draft := _clause_draft(statement, start, end, found[0])) is not None
    ]
    if len(drafts) < 2 or len(drafts) != len(losses):
        return None  # a comparison of two losses in one clause, or a loss with no perplexity
    failing = (d for d in drafts if holding("arithmetic", [Reading(d.fields)]) is None)
    return next(failing, drafts[-1])


_CLAUSE_END = re.compile(r"[；;]")


def _clause_draft(statement: Statement, start: int, end: int, loss: re.Match[str]) -> Draft | None:
    """The perplexity the clause ``start``–``end`` of the line gives for its one ``loss``."""
    text = statement.text
    claims = [m for m in _PERPLEXITY.finditer(text, 0, end) if m.start() >= loss.end()]
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
        quote=text[start if start else 0 : claim.end("value")].strip(),
        line=statement.line,
        fields={"expression": expression, "claimed": claimed},
        confidence=0.55,
        recognizer="relations",
        slug=f"perplexity-{claim.group('value')}",
        note=f"perplexity = {base[0]}^loss, base {base}, "
        f"loss {loss.group('loss')} (line {statement.line})",
    )


_NATS = re.compile(r"nats?\b", re.IGNORECASE)
_UNIT_VALUE = re.compile(
    r"(?<![\w.^(])(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>nats?|bits?|奈特|比特)(?![A-Za-z])",
    re.IGNORECASE,
)
"""A value printed with its unit of information (``2.0 nats``, ``1.443 bits``)."""
_BETWEEN = re.compile(r"^[\s\d.()/×*·=≈~:：lnog]*$", re.IGNORECASE)
"""What may stand between a loss in one unit and the same loss in the other: its arithmetic,
once the words that say "is" are taken out (:data:`_IS_WORDS`)."""
_IS_WORDS = re.compile(
    r"\b(?:is|are|equals?|equal\s+to|comes?\s+to|gives?|or|about|roughly|approximately|i\.e\.)\b"
    r"|对应|等于|相当于|即|约|是|为",
    re.IGNORECASE,
)
_CONVERSION_APPROX = re.compile(r"[≈~约]|about|roughly|approx", re.IGNORECASE)


def _plain_sentence(statement: Statement) -> tuple[str, list[int], int]:
    """(the plain form of the previous line's last sentence, a space and the line; for each of
    its characters the offset in ``statement.text``, −1 before it; where the line starts)."""
    before = ""
    if statement.before:
        previous = statement.before
        before = previous[sentence_start(previous, len(previous)) :]
    lead, _ = plain(before)
    body, offsets = plain(statement.text)
    head = lead + " " if lead else ""
    return head + body, [-1] * len(head) + list(offsets), len(head)


def _quote(statement: Statement, offsets: list[int], end: int) -> str:
    """The statement's line as written up to plain offset ``end`` (exclusive)."""
    last = max((o for o in offsets[:end] if o >= 0), default=-1)
    return statement.text[: last + 1].strip()


def _conversion(statement: Statement) -> Draft | None:
    """``X nats … ≈ Y bits`` (or bits to nats): Y = X / ln 2 (or X · ln 2)."""
    text, offsets, line_start = _plain_sentence(statement)
    values = list(_UNIT_VALUE.finditer(text))
    for first, second in itertools.pairwise(values):
        units = (_unit(first), _unit(second))
        if units not in (("nats", "bits"), ("bits", "nats")) or second.start() < line_start:
            continue
        between = text[first.end() : second.start("value")]
        if not _BETWEEN.match(_IS_WORDS.sub(" ", between)):
            continue
        source = first.group("value")
        exact = "." not in source  # "1 nat", "3 bits": a count of units, not a rounding
        factor = "/ ln(2)" if units == ("nats", "bits") else "* ln(2)"
        approx = "≈ " if _CONVERSION_APPROX.search(between) else ""
        direction = (
            "nats → bits divides by ln 2 (1 nat = 1/ln 2 ≈ 1.443 bits)"
            if units == ("nats", "bits")
            else "bits → nats multiplies by ln 2 (1 bit = ln 2 ≈ 0.693 nats)"
        )
        return Draft(
            kind="arithmetic",
            quote=_quote(statement, offsets, second.end("value")),
            line=statement.line,
            fields={
                "expression": f"{source} {factor}",
                "claimed": approx + second.group("value"),
                **({} if exact else {"carried": [source]}),
            },
            confidence=0.6,
            recognizer="relations",
            slug=f"{units[0]}-to-{units[1]}-{second.group('value')}",
            note=f"{direction}; {source} {first.group('unit')} read "
            + ("as exact" if exact else "as the rounding it is")
            + f" (line {statement.line})",
        )
    return None


def _unit(match: re.Match[str]) -> str:
    return "bits" if _BITS.match(match.group("unit")) else "nats"


_EXPONENTIAL = re.compile(
    r"(?P<base>(?<![\w.])e|exp|(?<![\w.])2)\s*(?:\^\s*\(?|\()\s*(?P<loss>\d+(?:\.\d+)?)\s*\)?"
    r"\s*(?:=|≈|~|约)\s*(?P<value>\d+(?:\.\d+)?)(?![\d.])"
)
"""A perplexity written out: ``e^(2.5) ≈ 12.18``, ``exp(1.8) = 6.05``, ``2^(3.2) ≈ 9.19``."""
_NAMED_UNIT = {
    "bits": re.compile(r"bits?\b|比特|log_?2|log₂|以\s*2\s*为底", re.IGNORECASE),
    "nats": re.compile(r"nats?\b|奈特|自然对数", re.IGNORECASE),
}
_MEAN_OF_EXPONENTIALS = re.compile(
    r"\(\s*\(?\s*(?P<terms>(?:(?:e\^|exp)\s*\(\s*\d+(?:\.\d+)?\s*\)\s*\+\s*)+"
    r"(?:e\^|exp)\s*\(\s*\d+(?:\.\d+)?\s*\))\s*\)?\s*/\s*\(?\s*(?P<count>\d+)\s*\)?\s*\)?"
)
"""``((e^(1.0) + e^(2.0) + e^(3.0))/(3))``: the mean of per-token exponentials."""
_TERM = re.compile(r"\(\s*(\d+(?:\.\d+)?)\s*\)")
_AVERAGE_OF_PERPLEXITIES = re.compile(
    r"(?:average|mean|平均)\s*(?:of\s+(?:the\s+)?(?:per-\w+\s+)?)?(?:perplexit|PPL|困惑度)"
    r"|per[- ](?:sentence|document|sample|batch)|每(?:句|篇|个样本|个文档)",
    re.IGNORECASE,
)
_CLAIMED_END = re.compile(r"(?:=|≈|~|约)\s*(?P<value>\d+(?:\.\d+)?)(?![\d.])\s*$")


def _written(statement: Statement) -> Draft | None:
    """A perplexity written as base^loss in the other unit's base, or as the mean of per-token
    exponentials."""
    text, offsets, line_start = _plain_sentence(statement)
    names_perplexity = bool(_PERPLEXITY_NAME.search(text))
    mean = _MEAN_OF_EXPONENTIALS.search(text, line_start)
    if mean is not None and names_perplexity and not _AVERAGE_OF_PERPLEXITIES.search(text):
        terms = _TERM.findall(mean.group("terms"))
        tail = _CLAIMED_END.search(text[: _clause_end(text, mean.end())])
        if len(terms) == int(mean.group("count")) and tail is not None:
            expression = f"exp(({' + '.join(terms)}) / {len(terms)})"
            approx = "≈ " if tail.group(0).lstrip()[0] in "≈~约" else ""
            return Draft(
                kind="arithmetic",
                quote=_quote(statement, offsets, tail.end("value")),
                line=statement.line,
                fields={"expression": expression, "claimed": approx + tail.group("value")},
                confidence=0.55,
                recognizer="relations",
                slug=f"perplexity-of-mean-loss-{tail.group('value')}",
                note="perplexity = e^(mean loss), not the mean of the per-token e^loss (that "
                f"mean is larger, by Jensen's inequality); losses {', '.join(terms)} "
                f"(line {statement.line})",
            )
    if not names_perplexity:
        return None
    context = f"{statement.topic} {text}"
    for written in _EXPONENTIAL.finditer(text, line_start):
        loss = written.group("loss")
        base = "bits" if written.group("base") == "2" else "nats"
        other = "nats" if base == "bits" else "bits"
        sentence = text[sentence_start(text, written.start()) : _clause_end(text, written.end())]
        if _NAMED_UNIT[base].search(sentence):
            continue  # the sentence states the loss in the formula's own unit
        stated = {
            _unit(m) for m in _UNIT_VALUE.finditer(plain(context)[0]) if m.group("value") == loss
        }
        if stated != {other}:
            continue
        expression = f"2^{loss}" if other == "bits" else f"exp({loss})"
        mark = text[written.end("loss") : written.start("value")]
        approx = "≈ " if any(c in mark for c in "≈~约") else ""
        return Draft(
            kind="arithmetic",
            quote=_quote(statement, offsets, written.end("value")),
            line=statement.line,
            fields={"expression": expression, "claimed": approx + written.group("value")},
            confidence=0.55,
            recognizer="relations",
            slug=f"perplexity-{written.group('value')}",
            note=f"the loss {loss} is stated in {other}, so perplexity = "
            f"{'2' if other == 'bits' else 'e'}^loss, not {'e' if other == 'bits' else '2'}^loss "
            f"(line {statement.line}, and the section's heading or lead-in)",
        )
    return None


_PERPLEXITY_NAME = re.compile(r"perplexit|\bPPL\b|困惑度", re.IGNORECASE)


def _clause_end(text: str, start: int) -> int:
    """Where the clause that runs on from ``start`` ends (a sentence or clause mark)."""
    match = re.compile(r"[;；。！？，,](?:\s|$)|[；。！？，]").search(text, start)
    return match.start() if match else len(text)


_PER_BYTE_CLAIM = re.compile(
    r"(?:每(?:个)?字节|per\s+byte|\bBPB\b|bits?\s*/\s*byte)", re.IGNORECASE
)
_PER_BYTE_VALUE = re.compile(
    r"每(?:个)?字节\s*(?P<a>约为?|大约|≈|~)?\s*(?:为|是)?\s*(?P<v1>\d+(?:\.\d+)?)\s*(?:bits?|比特)"
    r"|(?P<b>(?:about|roughly|≈|~|约)\s*)?(?P<v2>\d+(?:\.\d+)?)\s*(?:bits?\s*(?:per|/)\s*byte|比特\s*/\s*字节)"
    r"|\bBPB\b\s*(?:\)\s*)?(?:is|of|=|≈|~|为|是|约为?|:|：)\s*(?P<c>(?:about|roughly|≈|~|约)\s*)?"
    r"(?P<v3>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
_BITS_PER_TOKEN = re.compile(
    r"(?P<value>\d+(?:\.\d+)?)\s*(?:bits?|比特)\s*(?:/|per|每)\s*(?:个\s*)?token", re.IGNORECASE
)
_NATS_PER_TOKEN = re.compile(
    r"(?P<value>\d+(?:\.\d+)?)\s*(?:nats?|奈特)\s*(?:/|per|每)\s*(?:个\s*)?token", re.IGNORECASE
)
_BYTES_PER_TOKEN = re.compile(
    r"(?:1|一)\s*个?\s*tokens?\s*(?:对应|约|≈|~|is\s+about|averages|=|为|是|平均)*\s*(?:约|about)?\s*"
    r"(?P<a>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:字节|bytes?)"
    r"|(?P<b>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:字节|bytes?)\s*(?:/|per|每)\s*(?:个\s*)?token"
    r"|(?:每\s*个?|each|every|a)\s*token\s*(?:平均|约|对应|是|为|is|averages|takes|about|roughly|\s)*"
    r"(?P<c>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:字节|bytes?)",
    re.IGNORECASE,
)


def _per_byte(statement: Statement) -> Draft | None:
    """``每字节约 0.72 bits``: bits per token over bytes per token (see the module docstring)."""
    text, offsets, line_start = _plain_sentence(statement)
    claim = next((m for m in _PER_BYTE_VALUE.finditer(text) if m.start() >= line_start), None)
    if claim is None:
        return None
    value = claim.group("v1") or claim.group("v2") or claim.group("v3")
    approx = "≈ " if (claim.group("a") or claim.group("b") or claim.group("c")) else ""
    context = plain(statement.topic)[0] + " " + text[: claim.start()]
    sizes = {
        m.group("a") or m.group("b") or m.group("c") for m in _BYTES_PER_TOKEN.finditer(context)
    }
    bits = {m.group("value") for m in _BITS_PER_TOKEN.finditer(context)}
    nats = {m.group("value") for m in _NATS_PER_TOKEN.finditer(context)}
    if len(sizes) != 1 or len(bits) > 1 or (not bits and len(nats) != 1):
        return None
    (size,) = sizes
    if bits:
        (per_token,) = bits
        expression, source = f"{per_token} / {size}", f"{per_token} bits per token"
    else:
        (per_token,) = nats
        expression = f"{per_token} / ln(2) / {size}"
        source = f"a loss of {per_token} nats per token (÷ ln 2 for bits)"
    return Draft(
        kind="arithmetic",
        quote=_quote(statement, offsets, claim.end()),
        line=statement.line,
        fields={"expression": expression, "claimed": approx + value, "carried": [per_token]},
        confidence=0.55,
        recognizer="relations",
        slug=f"bits-per-byte-{value}",
        note=f"bits per byte = bits per token / bytes per token: {source} over {size} bytes "
        f"per token (both stated just before line {statement.line}); {per_token} read as the "
        "rounding it is",
    )
