"""Relation ``chinchilla``: compute-optimal tokens and the ratio D/N of stated scaling formulas.

Formula: for compute C = 6·N·D, the compute-optimal model size and data grow alike, N_opt ∝
C^a and D_opt ∝ C^b with a ≈ b ≈ 0.5, at about 20 tokens per parameter: D ≈ 20·N. The ratio
constant lives in :data:`checkers.formulas.CHINCHILLA_TOKENS_PER_PARAMETER`.

Source: Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models", §3 and Table 3
(1B → 20.2B tokens, 67B → 1.5T, 175B → 3.7T: 20–22 tokens per parameter).

Roles read (:mod:`checkers.extract.scope`): ``params`` (N; the statement's line first).

Statements:

* a compute-optimal token count — a line that names Chinchilla, "compute-optimal" or 计算最优
  and claims a number of tokens (``a 7B model should see ≈ 140B tokens``): D ≈ 20·N, read also
  at 21 and 22 tokens per parameter (Table 3's range);
* a ratio of the lesson's own formulas — ``N_opt ≈ a·(C/k)^p`` and ``D_opt ≈ b·(C/k)^q`` on
  the statement's line or just before it, and the line claims ``D_opt / N_opt ≈ r``: with equal
  exponents the ratio is b/a whatever C is, so r must be b/a (the formulas decide, not 20).

A formula with different exponents (the ratio then depends on C) or without coefficients
(``N_opt ∝ C^0.5``) is not a statement of this relation.

Readings accepted: 20, 21 or 22 tokens per parameter for a token count (the paper's range), at
the count's printed precision (``≈ 140B``: two significant figures); a ratio of formulas has one
reading, b/a, compared at the printed precision of the claimed ratio.
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
from checkers.extract.scope import Scope
from checkers.formulas import CHINCHILLA_TOKENS_PER_PARAMETER

__all__ = ["CUE", "relate"]

NAME = "chinchilla"

CUE = re.compile(
    r"D_?\{?opt\}?\s*/\s*N_?\{?opt\}?|chinchilla|compute[- ]optimal|计算最优|算力最优", re.I
)
"""A statement this relation may concern names the compute-optimal regime or the ratio."""

_NUMBER = r"\d+(?:\.\d+)?"
_POWER = rf"\(?\s*C\s*/\s*(?P<k>{_NUMBER})\s*\)?\s*\^\s*\(?\s*(?P<p>{_NUMBER}|1\s*/\s*2)\s*\)?"
_FORMULA = {
    side: re.compile(
        rf"{side}_?\{{?opt\}}?\s*(?:≈|=|~|∼)\s*(?P<a>{_NUMBER})\s*(?:×|\*|·|⋅)?\s*{_POWER}"
    )
    for side in ("N", "D")
}
_RATIO = re.compile(
    rf"D_?\{{?opt\}}?\s*/\s*N_?\{{?opt\}}?\s*(?P<relation>≈|=|~|∼)\s*(?P<r>{_NUMBER})(?!\d|\.\d)"
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
    return _tokens_draft(statement, scope)


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


def _tokens_draft(statement: Statement, scope: Scope) -> Draft | None:
    text = statement.text
    if not re.search(r"chinchilla|compute[- ]optimal|计算最优|算力最优", text, re.I):
        return None
    claimed = claimed_value(text, _TOKEN_COUNT)
    if claimed is None or not _TOKENS.match(text[claimed.end :].strip()):
        return None
    params = on_line(scope, "params", statement.line)
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
