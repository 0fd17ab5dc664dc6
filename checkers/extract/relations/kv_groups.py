"""Relation ``kv_groups``: query heads per KV head, and how much fewer KV heads shrink the cache.

Formulas: with grouped-query attention each of the n_kv KV heads serves n_q / n_kv query heads
(one group); the KV cache, 2 · L · n_kv · d_head · b · T · B, is proportional to n_kv, so
going from n_kv to n_kv' KV heads (multi-head attention: n_kv = n_q; multi-query attention:
n_kv' = 1) shrinks it n_kv / n_kv' times. Source: Ainslie et al. 2023 (GQA: "an intermediate
number of key-value heads, one per group of query heads"), Shazeer 2019 (MQA). The checking
kind is ``arithmetic`` (``64 / 8`` against the printed group size or factor).

Roles read (:mod:`checkers.extract.scope`): ``heads`` (query heads) and ``kv_heads``; each from
the statement's own line first, then from its section; for a shrink factor, the model's KV
heads before the change are the published ones of a model named on the line (``把 LLaMA-2-7B
改成 MQA``), else the section's stated before the line, else its query heads (multi-head).

The statements:

* a group size: ``each KV head serves 8 query heads``, ``8 query heads per KV head``, ``每个 KV
  头服务 4 个查询头``, ``每组 8 个查询头``, ``groups of 8 query heads``;
* a shrink factor of the KV cache with fewer KV heads on the line (``MQA``, ``1 个 KV 头``,
  ``8 KV heads``): ``the cache shrinks 32×``, ``8× smaller cache``, ``缓存缩小 32 倍``, ``cuts the
  KV cache by a factor of 8``; the sentence must name the cache (``cache``, ``缓存``, ``KV``).

Readings accepted: none other: a head count is a whole number and the ratio is exact; a factor
printed with decimals is read at its printed precision (``≈ 2.7×``). A statement that names two
different new KV head counts, or a section with disagreeing counts, is left alone.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    Reading,
    Statement,
    describe,
    first_holding,
    on_line,
    sentence,
    statement_value,
)
from checkers.extract.scope import Quantity, Scope

__all__ = ["CUE", "relate"]

NAME = "kv_groups"

CUE = re.compile(
    r"[倍×\dtfp每gs](?:(?<=[倍×])|(?<=\d)(?:x\b|\s*-?fold)|(?<=t)(?<!\wt)imes\b|(?<=f)actor"
    r"|(?<=p)er\s+(?:KV|key)|(?<=每)(?:个?\s*(?:KV|键值)|组)|(?<=g)roups?\s+of|(?<=s)erves"
    r"|(?<=s)hared\s+by)",
    re.IGNORECASE,
)
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = ("倍", "×", "x", "fold", "times", "factor", "per", "每", "group", "serves", "shared")
"""A statement this relation may concern gives a factor or a group size (whether it is about KV
heads is read from its sentence).

The cue is ``倍|×|\\dx\\b|\\d\\s*-?fold|\\btimes\\b|factor|per\\s+(?:KV|key)|每个?\\s*(?:KV|键值)
|每组|groups?\\s+of|serves|shared\\s+by`` written to open with the class of its branches'
first characters, each branch then checking its own (``(?<=f)actor``): Python's re skips to
the characters of an opening class, but tries an alternation whose branches open with
``\\d`` or ``\\b`` at every character. (Its word "x", for ``4x``, lets through every line
with "max" or "next"; ten words "0x" … "9x" cost as much more in the scans of the lesson for
each word as they save in searches.)"""
_KV_WORDS = re.compile(
    r"KV\s*头|KV\s+heads?|key[\s-]value\s+heads?|\bMQA\b|\bGQA\b|multi[\s-]query|grouped[\s-]query",
    re.IGNORECASE,
)

_GROUP = re.compile(
    r"每个?\s*(?:KV|键值)\s*头\s*(?:服务|对应|负责|共享给|分给)?\s*(?P<a>\d+)\s*个?\s*(?:查询|Q\s*|注意力)?头"
    r"|每组\s*(?P<b>\d+)\s*个?\s*(?:查询|Q\s*)?头"
    r"|(?<![\w.])(?P<c>\d+)\s+(?:query|Q)\s+heads?\s+(?:per|for\s+each|for\s+every|share\s+(?:each|one|a))\s+"
    r"(?:KV|key[\s-]value)\s+head"
    r"|each\s+(?:KV|key[\s-]value)\s+head\s+(?:serves|covers|is\s+shared\s+by|handles)\s+(?P<d>\d+)\s+"
    r"(?:query\s+)?heads"
    r"|groups?\s+of\s+(?P<e>\d+)\s+(?:query\s+)?heads",
    re.IGNORECASE,
)
_FACTOR = re.compile(
    r"(?:缩小|减少|降低|减小|变小|shrinks?|shrunk|cuts?|reduc(?:es|ed|ing|e)|smaller)"
    r"[^。.;；,，]{0,24}?(?:by\s+(?:a\s+factor\s+of\s+)?)?(?P<a>\d+(?:\.\d+)?)\s*(?:倍|×|x\b|-?fold|times)"
    r"|(?<![\w.])(?P<b>\d+(?:\.\d+)?)\s*(?:×|x|倍|-?fold)\s*(?:smaller|less|fewer|reduction|缩小|减少)",
    re.IGNORECASE,
)
_CACHE = re.compile(r"cache|缓存|\bKV\b", re.IGNORECASE)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim for a group size or a cache shrink factor, or None."""
    group = _GROUP.search(statement.text)
    if group is not None:
        return _group_size(statement, scope, group)
    factor = _FACTOR.search(statement.text)
    if factor is None:
        return None
    said = sentence(statement, factor.end())
    if _CACHE.search(said) and _KV_WORDS.search(said):
        return _shrink(statement, scope, factor, said)
    return None


def _claimed(match: re.Match[str]) -> str:
    return next(v for v in match.groupdict().values() if v is not None)


def _own(scope: Scope, role: str, line: int, claim: re.Match[str], claimed: str) -> Quantity | None:
    """The one value of ``role`` the line states, the group size itself left out ("8 query
    heads per KV head" is not the model's 8 heads), else the section's
    (:func:`statement_value`)."""
    found = [
        q
        for q in on_line(scope, role, line)
        if not (q.written in claim.group(0) and q.value == float(claimed))
    ]
    if found:
        return found[0] if len({q.value for q in found}) == 1 else None
    return statement_value(scope, role, line)


def _group_size(statement: Statement, scope: Scope, match: re.Match[str]) -> Draft | None:
    claimed = _claimed(match)
    line = statement.line
    heads = _own(scope, "heads", line, match, claimed)
    kv_heads = _own(scope, "kv_heads", line, match, claimed)
    if heads is None or kv_heads is None or kv_heads.value <= 0 or heads.value < kv_heads.value:
        return None
    reading = Reading(
        {"expression": f"{round(heads.value)} / {round(kv_heads.value)}", "claimed": claimed},
        describe([heads, kv_heads], "query heads per KV head = heads / KV heads"),
    )
    chosen = first_holding("arithmetic", [reading])
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=statement.text[: match.end()].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.6,
        recognizer="relations",
        slug=f"kv-group-{claimed}",
        note=f"grouped-query attention (Ainslie et al. 2023): {chosen.assumed}",
    )


def _shrink(statement: Statement, scope: Scope, match: re.Match[str], said: str) -> Draft | None:
    claimed = _claimed(match)
    line = statement.line
    # The sentence's own quantities: on its lines (it may start a line or two above), and
    # written in it.
    own = [
        q
        for q in scope.of("kv_heads")
        if line - 2 <= q.line <= line and (q.published or q.written in said)
    ]
    stated = [q for q in own if not q.published]
    if len({q.value for q in stated}) != 1:
        return None  # no new KV head count in the sentence, or two
    new = stated[0]
    first = min(q.line for q in stated)
    published = [q for q in own if q.published and q.line >= first - 0]
    if len({q.value for q in published}) == 1:
        old: Quantity | None = published[0]
    else:
        old = scope.value("kv_heads", before=first - 1) or scope.value("heads", before=first - 1)
    if old is None or new.value <= 0 or old.value <= new.value:
        return None
    reading = Reading(
        {"expression": f"{round(old.value)} / {round(new.value)}", "claimed": claimed},
        f"KV heads before {old.describe()}, after {new.describe()}; the cache is proportional "
        "to the KV heads, so it shrinks before / after",
    )
    chosen = first_holding("arithmetic", [reading])
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=statement.text[: match.end()].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.55,
        recognizer="relations",
        slug=f"kv-shrink-{claimed}",
        note=f"KV cache 2·L·n_kv·d_head·b per token (Shazeer 2019; Ainslie et al. 2023): "
        f"{chosen.assumed}",
    )
