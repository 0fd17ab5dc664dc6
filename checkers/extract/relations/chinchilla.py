"""Relation ``chinchilla``: compute-optimal tokens, how the optimum grows with the compute, and
the coefficients and ratio of stated scaling formulas.

Formula: for compute C = 6·N·D, the compute-optimal model size and data grow alike, N_opt ∝
C^a and D_opt ∝ C^b with a ≈ b ≈ 0.5, at about 20 tokens per parameter: D ≈ 20·N. Written out
(the paper's eq. 4), N_opt = G·(C/6)^a and D_opt = G⁻¹·(C/6)^b: since N·D = C/6 for every C,
the two coefficients multiply to 1. The constants live in :mod:`checkers.formulas`
(:data:`~checkers.formulas.CHINCHILLA_TOKENS_PER_PARAMETER`,
:data:`~checkers.formulas.CHINCHILLA_EXPONENTS`).

Source: Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", §3, eq. 4,
Table 2 (a = 0.50, 0.49, 0.46 and b = 0.50, 0.51, 0.54 by the three approaches) and Table 3
(1B → 20.2B tokens, 67B → 1.5T, 175B → 3.7T: 20–22 tokens per parameter).

Roles read (:mod:`checkers.extract.scope`): ``params`` (N; the statement's line first); the
section's text for the words that put it in the compute-optimal regime and for exponents it
states (``N_opt ∝ C^0.5``).

Statements:

* a compute-optimal token count — a line that names Chinchilla, "compute-optimal" or 计算最优
  and claims a number of tokens (``a 7B model should see ≈ 140B tokens``): D ≈ 20·N, read also
  at 21 and 22 tokens per parameter (Table 3's range);
* a factor of the optimum for a factor of the compute — one sentence that scales the compute
  (``a 4× larger budget``, ``16× compute``, ``算力增加 4 倍``) and then claims a factor of the
  parameters or the tokens (``a 4× larger model``, ``最优参数量也应增加 4 倍``), in a section or
  sentence about the compute-optimal regime (Chinchilla, compute-optimal, 最优, N_opt, tokens
  per parameter): k× the compute gives k^a× the parameters and k^b× the tokens. A section that
  names Kaplan's allocation (N ∝ C^0.73) without the sentence naming Chinchilla is left alone,
  and so is a sentence that sets the rule aside or supposes it (not, instead, would, naive,
  不是, 如果);
* the coefficient of a pair of formulas — ``N_opt ≈ a·(C/k)^p`` on the statement's line or just
  before it, and the line states ``D_opt ≈ b·(C/k)^q`` (or the other way round) with p + q = 1:
  with C = 6·N·D (k = 6, or the section says 6ND), a·b·C/k = C/6, so b must be k/(6·a);
* a ratio of the lesson's own formulas — ``N_opt ≈ a·(C/k)^p`` and ``D_opt ≈ b·(C/k)^q`` on
  the statement's line or just before it, and the line claims ``D_opt / N_opt ≈ r``: with equal
  exponents the ratio is b/a whatever C is, so r must be b/a (the formulas decide, not 20).

A formula with exponents that do not add to 1 (the product then depends on C), two different
scales of C, or without coefficients (``N_opt ∝ C^0.5``) is not a statement of this relation.

Readings accepted: 20, 21 or 22 tokens per parameter for a token count (the paper's range), at
the count's printed precision (``≈ 140B``: two significant figures); for a factor of the
optimum, each of the paper's exponents and any the section states, and for ``增加 k 倍`` also
"grown by k×" (to k + 1, on both sides); a coefficient is derived from the other one read to
its printed rounding (0.6 may be anything in [0.55, 0.65]); a ratio of formulas has one
reading, b/a, compared at the printed precision of the claimed ratio.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Claimed,
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
    on_line,
    sentence,
    sentence_end,
    sentence_start,
)
from checkers.extract.scope import Scope
from checkers.formulas import CHINCHILLA_EXPONENTS, CHINCHILLA_TOKENS_PER_PARAMETER
from checkers.numbers import NumberError, parse_printed

__all__ = ["CUE", "CUE_BEFORE", "relate"]

NAME = "chinchilla"

CUE = re.compile(
    r"[DN]_?[{(]?opt[})]?\s*(?:/|≈|=|~|∼)|chinchilla|compute[- ]optimal|计算最优|算力最优"
    r"|(?:budget|compute|算力|计算量|预算)[^\n]{0,40}?\d\s*(?:×|x\b|倍|times)"
    r"|\d\s*(?:×|x|倍)\s*(?:(?:larger|more|bigger|the)\s+){0,2}(?:budget|compute|算力)",
    re.I,
)
"""A statement this relation may concern names the compute-optimal regime, an optimal size or
data formula, or a factor of the compute budget."""
CUE_BEFORE = True
"""The cue may be on the line before: "A Chinchilla-optimal budget is 20 tokens per parameter,"
/ "i.e. 2.5B tokens" (a sentence soft-wrapped across lines)."""

WORDS = ("opt", "chinchilla", "最优", "budget", "compute", "算力", "计算量", "预算")
"""Words one of which every line the cue matches holds (lower case)."""

_NUMBER = r"\d+(?:\.\d+)?"
_POWER = rf"\(?\s*C\s*/\s*(?P<k>{_NUMBER})\s*\)?\s*\^\s*\(?\s*(?P<p>1\s*/\s*2|{_NUMBER})\s*\)?"
_FORMULA = {
    side: re.compile(
        rf"{side}_?[{{(]?opt[}})]?\s*(?P<relation>≈|=|~|∼)\s*(?P<a>{_NUMBER})\s*"
        rf"(?:×|\*|·|⋅|\\times|\\cdot)?\s*{_POWER}"
    )
    for side in ("N", "D")
}
_SIX_ND = re.compile(r"6\s*[·*×⋅]?\s*N\s*[·*×⋅]?\s*D\b")
_RATIO = re.compile(
    rf"D_?[{{(]?opt[}})]?\s*/\s*N_?[{{(]?opt[}})]?\s*(?P<relation>≈|=|~|∼)\s*(?P<r>{_NUMBER})(?!\d|\.\d)"
)
_TOKEN_COUNT = re.compile(r"[KMBT]|billion|trillion|万亿|亿", re.IGNORECASE)
_TOKENS = re.compile(r"tokens?|词元|个\s*token", re.IGNORECASE)


def _exponent(text: str) -> float:
    text = text.replace(" ", "")
    return 0.5 if text == "1/2" else float(text)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a compute-optimal statement, or None."""
    ratio = _RATIO.search(statement.text)
    if ratio is not None:
        return _ratio_draft(statement, ratio)
    return (
        _coefficient_draft(statement, scope)
        or _scaling_draft(statement, scope)
        or _tokens_draft(statement, scope)
    )


def _coefficient_draft(statement: Statement, scope: Scope) -> Draft | None:
    """The coefficient of the second of a pair N_opt ≈ a·(C/k)^p, D_opt ≈ b·(C/k)^q whose
    exponents add to 1: with C = 6·N·D, a·b·C/k = C/6, so b = k/(6·a) (and a = k/(6·b))."""
    text = statement.text
    for side, other in (("D", "N"), ("N", "D")):
        found = list(_FORMULA[side].finditer(text))
        if not found:
            continue
        mine = found[-1]
        earlier = list(_FORMULA[other].finditer(statement.topic + " " + text[: mine.start()]))
        if not earlier:
            return None
        theirs = earlier[-1]
        exponents = _exponent(mine.group("p")) + _exponent(theirs.group("p"))
        if mine.group("k") != theirs.group("k") or abs(exponents - 1) > 1e-9:
            return None
        k = mine.group("k")
        if float(k) != 6 and not _SIX_ND.search(scope.text):
            return None  # the compute is not said to be 6·N·D
        claimed = ("≈ " if mine.group("relation") != "=" else "") + mine.group("a")
        return Draft(
            kind="arithmetic",
            quote=text[: mine.end("a")].strip(),
            line=statement.line,
            fields={
                "expression": f"{k} / (6 × {theirs.group('a')})",
                "claimed": claimed,
                "carried": [theirs.group("a")],
            },
            confidence=0.5,
            recognizer="relations",
            slug=f"chinchilla-{side.lower()}-coefficient-{mine.group('a')}",
            note=(
                f"{side}_opt's coefficient from {other}_opt ≈ {theirs.group('a')}·(C/{k})^"
                f"{theirs.group('p')} and C = 6·N·D: N_opt·D_opt = C/6 for every C, and the "
                f"exponents {theirs.group('p')} + {mine.group('p')} add to 1, so the "
                f"coefficients multiply to {k}/6 (Hoffmann et al. 2022, eq. 4: N_opt = "
                f"G·(C/6)^a, D_opt = G⁻¹·(C/6)^b); {theirs.group('a')} is read as printed, "
                "to its rounding"
            ),
        )
    return None


# "a 4× larger budget", "算力增加 4 倍", "4 times the compute": a factor and what it scales.
_FACTOR = re.compile(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>×|x(?![A-Za-z])|倍|times\b)", re.I)
_ROLE_WORDS = {
    "compute": r"budget|compute|FLOPs?|算力|计算量|计算预算|预算",
    "params": r"models?|param(?:eter)?s|parameter\s+count|参数量?|模型|N_?[{(]?opt[})]?",
    "tokens": r"tokens?|data(?:set)?|训练数据|数据量?|token\s*数|D_?[{(]?opt[})]?",
}
_SCALED_AFTER = {
    role: re.compile(
        rf"\s*(?:(?:larger|bigger|more|greater|the|as\s+(?:much|many|large|big))\s+){{0,2}}"
        rf"(?:{words})(?![A-Za-z])",
        re.I,
    )
    for role, words in _ROLE_WORDS.items()
}
_SCALED_BEFORE = {
    role: re.compile(rf"(?:{words})[^\d。.;；,，]{{0,12}}$", re.I)
    for role, words in _ROLE_WORDS.items()
}
_GROWS_BY = re.compile(r"(?:增加|提高|扩大|增长|提升)了?\s*$")
_APPROX_BEFORE = re.compile(r"(?:≈|~|∼|约|大约|about|roughly|around|approximately)\s*$", re.I)
_OPTIMAL = re.compile(
    r"chinchilla|compute[- ]optimal|计算最优|算力最优|最优|optimal|[ND]_?[{(]?opt"
    r"|tokens?\s+per\s+param|token\s*/\s*参数|每个参数",
    re.I,
)
_OTHER_LAW = re.compile(r"kaplan|openai", re.I)
_NOT_CLAIMED = re.compile(
    r"\b(?:not|instead|rather\s+than|would|naive(?:ly)?|wrongly|mistaken(?:ly)?|suppose)\b"
    r"|不是|而非|而不是|假如|如果|误以为",
    re.I,
)
_STATED_EXPONENT = {
    side: re.compile(
        rf"{side}_?[{{(]?opt[}})]?\s*(?:∝|~|∼|≈|=)[^\n,;，；]{{0,24}}?C\s*\^\s*\{{?\s*(?P<p>0\.\d+)"
    )
    for side in ("N", "D")
}


def _scaled(text: str, factor: re.Match[str]) -> str | None:
    """What a factor scales (compute, params or tokens), from the words right after or before
    it; None when neither names one."""
    for role, pattern in _SCALED_AFTER.items():
        if pattern.match(text, factor.end()):
            return role
    before = text[max(0, factor.start() - 16) : factor.start()]
    for role, pattern in _SCALED_BEFORE.items():
        if pattern.search(before):
            return role
    return None


def _scaling_draft(statement: Statement, scope: Scope) -> Draft | None:
    """A factor of the parameters or tokens that a factor of the compute calls for, in the
    same sentence: k× the compute gives k^a× the parameters and k^b× the tokens."""
    text = statement.text
    factors = [(m, _scaled(text, m)) for m in _FACTOR.finditer(text)]
    compute = next((m for m, role in factors if role == "compute"), None)
    if compute is None:
        return None
    start = sentence_start(text, compute.start())
    end = sentence_end(text, compute.end())
    claimed = next(
        (
            (m, role)
            for m, role in factors
            if role in ("params", "tokens") and compute.end() <= m.start() < end
        ),
        None,
    )
    if claimed is None:
        return None
    factor, role = claimed
    words = text[start:end]
    section = scope.text
    if not (_OPTIMAL.search(words) or _OPTIMAL.search(section)):
        return None
    if _OTHER_LAW.search(section) and not re.search(r"chinchilla", words, re.I):
        return None  # Kaplan's allocation grows the model faster (N ∝ C^0.73)
    if _NOT_CLAIMED.search(words):
        return None  # a rule the sentence sets aside or supposes, not one it states
    side = "N" if role == "params" else "D"
    exponents = [pair[0 if side == "N" else 1] for pair in CHINCHILLA_EXPONENTS]
    exponents += [float(m.group("p")) for m in _STATED_EXPONENT[side].finditer(section)]
    by = bool(_GROWS_BY.search(text[: compute.start()])) and compute.group("unit") == "倍"
    k = compute.group("n")
    unit = "×" if factor.group("unit").lower() in ("x", "times") else factor.group("unit")
    written = f"{factor.group('n')}{' ' if unit == '倍' else ''}{unit}"
    if _APPROX_BEFORE.search(text[: factor.start()]):
        written = "≈ " + written
    readings = [
        Reading(
            {"expression": f"{k}^{exponent:g}", "claimed": written},
            f"{side}_opt ∝ C^{exponent:g}",
        )
        for exponent in dict.fromkeys(exponents)
    ]
    if by:  # "增加 4 倍" may also mean "by 4×", to 5×: the same reading on both sides
        readings += [
            Reading(
                {"expression": f"({k} + 1)^{exponent:g} - 1", "claimed": written},
                f"{side}_opt ∝ C^{exponent:g}, 增加 k 倍 read as growing to (k + 1)×",
            )
            for exponent in dict.fromkeys(exponents)
        ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    what = "parameters" if side == "N" else "training tokens"
    return Draft(
        kind="arithmetic",
        quote=text[start : factor.end()].strip(),
        line=statement.line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"chinchilla-scaling-{k}-{factor.group('n')}",
        note=(
            f"compute-optimal {what} grow as a power of the compute, {side}_opt ∝ C^a with "
            f"a ≈ 0.5 (Hoffmann et al. 2022, Table 2: {', '.join(f'{e:g}' for e in exponents)} "
            f"tried), so {k}× the compute calls for about √{k} = {float(k) ** 0.5:.3g}× the "
            f"{what}; reading used: {chosen.assumed}"
        ),
    )


def _ratio_draft(statement: Statement, ratio: re.Match[str]) -> Draft | None:
    context = statement.topic + " " + statement.text[: ratio.start()]
    n_formula = list(_FORMULA["N"].finditer(context))
    d_formula = list(_FORMULA["D"].finditer(context))
    if not n_formula or not d_formula:
        return None
    n, d = n_formula[-1], d_formula[-1]
    if _exponent(n.group("p")) != _exponent(d.group("p")) or n.group("k") != d.group("k"):
        return None
    claimed = ("≈ " if ratio.group("relation") != "=" else "") + ratio.group("r")
    return Draft(
        kind="arithmetic",
        quote=statement.text[: ratio.end()].strip(),
        line=statement.line,
        fields={"expression": f"{d.group('a')} / {n.group('a')}", "claimed": claimed},
        confidence=0.55,
        recognizer="relations",
        slug=f"chinchilla-ratio-{ratio.group('r')}",
        note=(
            f"D_opt / N_opt from the formulas as written: N_opt ≈ {n.group('a')}·(C/"
            f"{n.group('k')})^{n.group('p')} and D_opt ≈ {d.group('a')}·(C/{d.group('k')})^"
            f"{d.group('p')} have the same power of C, so their ratio is {d.group('a')} / "
            f"{n.group('a')} for every C"
        ),
    )


_RESTATED = re.compile(
    r"(?:\bi\.e\.,?|\bthat\s+is,?|即|也就是)\s*(?:about\s+|roughly\s+|≈\s*|~\s*|约\s*)?"
    r"(?P<count>\d+(?:\.\d+)?\s*(?:[KMBT]|billion|trillion|亿)(?![A-Za-z]))",
    re.IGNORECASE,
)


def _restated_count(text: str) -> Claimed | None:
    """A token count that restates the rule before it (``20 tokens per parameter, i.e. 2.5B
    tokens``): the last such count of the line."""
    found = list(_RESTATED.finditer(text))
    if not found:
        return None
    count = found[-1]
    try:
        printed = parse_printed(count.group("count"))
    except NumberError:
        return None
    return Claimed(printed, count.group("count"), count.start("count"), count.end("count"))


_THIS_MODEL = re.compile(r"\b(?:this|the|our)\s+model\b|该模型|这个模型|此模型", re.IGNORECASE)
"""Words by which a sentence means the model whose parameter count its section stated."""


def _tokens_draft(statement: Statement, scope: Scope) -> Draft | None:
    text = statement.text
    claimed = claimed_value(text, _TOKEN_COUNT) or _restated_count(text)
    if claimed is None or not _TOKENS.match(text[claimed.end :].strip()):
        return None
    # the sentence of the claim, which may start on the paragraph's previous line
    restating = text.rfind("i.e.", 0, claimed.start)  # its "." ends no sentence
    words = sentence(statement, restating if restating >= 0 else claimed.start)
    if not re.search(r"chinchilla|compute[- ]optimal|计算最优|算力最优", words, re.I):
        return None
    params = on_line(scope, "params", statement.line)
    if not params and _THIS_MODEL.search(words):
        stated = scope.value("params", before=statement.line)
        params = (stated,) if stated is not None and not stated.published else ()
    if len({q.value for q in params}) != 1 or params[0].value >= claimed.printed.value:
        return None
    written = claimed.text
    if re.search(r"(?:≈|~|∼|约|about|roughly|around)\s*$", text[: claimed.start]):
        written = "≈ " + written
    readings = [
        Reading(
            {
                "expression": f"{ratio} × N",
                "claimed": written,
                "where": {"N": f"{params[0].value:.6g}"},
            },
            describe([params[0]], f"{ratio} tokens per parameter"),
        )
        for ratio in (CHINCHILLA_TOKENS_PER_PARAMETER, 21, 22)
    ]
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
        slug=f"chinchilla-tokens-{claimed.text}",
        note=f"compute-optimal tokens D ≈ 20·N (Hoffmann et al. 2022): {chosen.assumed}",
    )
