"""Relation ``training_memory``: the memory of training with Adam, component by component.

Formula: bytes = N · (w + g + m + a) — N parameters, each with its weight (w bytes: 2 in
fp16/bf16 mixed precision, 4 in fp32), its gradient (g, in the weights' type), an fp32 master
copy of the weight in mixed precision (m = 4) and Adam's two fp32 moments (a = 4 + 4). Mixed
precision with Adam is therefore 2 + 2 + 4 + 8 = 16 bytes per parameter; conventions that keep
fp32 gradients give 18 (2 + 4 + 4 + 8), and 20 with an fp32 gradient copy beside fp16 ones
(2 + 2 + 4 + 4 + 8); plain fp32 training with Adam is 4 + 4 + 8 = 16. Activations are not
counted. Source: Micikevicius et al. 2018, "Mixed Precision Training" (fp32 master weights);
Kingma & Ba 2015 (Adam's m and v); Rajbhandari et al. 2020, "ZeRO" §3 (2Ψ + 2Ψ + 12Ψ = 16Ψ
bytes). The checking kind is ``arithmetic`` (params × the bytes per parameter).

Roles read (:mod:`checkers.extract.scope`): ``params`` (the statement's own, else the section's,
else a named model's published size), ``dtype`` on the statement's line.

The statement: a line that claims a size in bytes and names what it counts: one component
(``gradients (fp16): 14 GB``, ``Adam states: 56 GB``, ``FP32 master copy: 28 GB``) or a total of
the components it names (``weights + gradients + master copy + Adam = 112 GB``); a total that
names none but says it is of mixed-precision (or Adam) training is read under each convention
above. A line about the KV cache or activations is left to other relations.

Readings accepted: GB as 10^9 or 2^30 bytes when the lesson never writes GiB; for a total that
names no component, 16, 18 or 20 bytes per parameter; for gradients whose type the line does not
print, the weights' type or fp32. A total that names a master copy but leaves its 4 bytes out
fails under every reading, and the note lists the components counted.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    BYTE_UNIT,
    SIZE_CUE,
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
    on_line,
    sentence,
)
from checkers.extract.scope import Quantity, Scope

__all__ = ["CUE", "relate"]

NAME = "training_memory"

CUE = SIZE_CUE
"""A statement this relation may concern prints a size in bytes."""

_BYTES = BYTE_UNIT
_COMPONENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "master",
        re.compile(r"master|主权重|主副本|(?:fp32|float32|FP32)\s*(?:copy|副本|备份)", re.I),
    ),
    (
        "adam",
        re.compile(
            r"Adam(?:\s+optimi[sz]er)?\s+(?:states?|moments?|m\b)|optimi[sz]er\s+states?"
            r"|优化器状态|Adam\s*状态|\bm\s+and\s+v\b|moments|动量",
            re.I,
        ),
    ),
    ("gradients", re.compile(r"gradients?|\bgrads?\b|梯度", re.I)),
    ("weights", re.compile(r"weights?|权重|\bparams?\b|parameters?|模型参数", re.I)),
)
_TRAINING = re.compile(
    r"mixed[\s-]precision|混合精度|Adam|(?<!pre-)(?<!pre)training|(?<!预)训练|optimi[sz]er", re.I
)
_OTHER = re.compile(
    r"\bKV\b|cache|缓存|activations?|激活值|per\s+(?:token|layer)|saving|节省|inference|推理"
    r"|data(?:set)?\b|corpus|语料|数据",
    re.I,
)
_SHARDED = re.compile(
    r"per\s+(?:GPU|device|node|rank)|each\s+GPU|每张|每卡|FSDP|ZeRO|shard|offload|checkpoint"
    r"|quantiz|量化|LoRA|QLoRA|inference|推理",
    re.I,
)
_TOTAL = re.compile(r"total|in\s+all|needs?|requires?|takes?|总|合计|需要", re.I)
_HALF = frozenset({"fp16", "bf16"})
_MIXED = re.compile(r"mixed[\s-]precision|混合精度|\bAMP\b", re.I)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim params × bytes per parameter for a training-memory statement."""
    text = statement.text
    claimed = claimed_value(text, _BYTES)
    if claimed is None:
        return None
    if claimed.printed.value < 1e6:
        return None  # bytes per value ("FP32: 4 bytes"), not a model's memory
    head = sentence(statement, claimed.start)
    if _OTHER.search(head) or _SHARDED.search(head) or _SHARDED.search(text):
        return None
    named = [name for name, pattern in _COMPONENTS if pattern.search(head)]
    training = bool(_TRAINING.search(head) or _TRAINING.search(statement.topic))
    if not training or named == ["weights"]:
        return None  # the weights alone are the relation weights_memory's
    line = statement.line
    own = on_line(scope, "params", line)
    params: Quantity | None = own[0] if len({q.value for q in own}) == 1 else None
    if not named and not (params is not None and _TRAINING.search(head) and _TOTAL.search(head)):
        # A size that names no component is a training total only when its own sentence says
        # so, with the parameters on its line ("Mixed-precision Adam training of 7B needs …").
        return None
    if params is None and not own:
        params = scope.value("params", before=line)
    if params is None:
        return None
    types = {q.dtype for q in on_line(scope, "dtype", line)}
    section_types = {q.dtype for q in scope.of("dtype") if q.line <= line}
    # fp32 weights only when nothing says half precision: a master copy, a half type on the
    # line or in the section, or the words "mixed precision" mean 2-byte weights.
    half = bool(
        "master" in named
        or types & _HALF
        or section_types & _HALF
        or _MIXED.search(text)
        or _MIXED.search(statement.topic)
    )
    weight_bytes = 2 if half or "fp32" not in types | section_types else 4
    types = types - ({"fp32"} if "master" in named else set())
    options = _per_parameter(named, weight_bytes, types)
    if not options:
        return None
    readings = [
        Reading(
            {
                "expression": f"params × ({parts})",
                "where": {"params": params.printed.text},
                "claimed": claimed.text,
                "prefixes": "either" if statement.byte_prefixes == "either" else "decimal",
            },
            describe([params], f"bytes per parameter {parts} = {label}"),
        )
        for parts, label in options
    ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"training-memory-{claimed.text}",
        note=f"training memory (mixed-precision Adam, ZeRO §3): {chosen.assumed}",
    )


def _per_parameter(named: list[str], weight: int, types: set[str]) -> list[tuple[str, str]]:
    """The bytes per parameter of the components named, as (sum written out, what it counts),
    one per reading."""
    if not named:
        mixed = weight == 2
        conventions = [
            ("2 + 2 + 4 + 4 + 4", "16: fp16 weights and gradients, fp32 master copy, Adam m, v"),
            ("2 + 4 + 4 + 4 + 4", "18: as 16 with fp32 gradients"),
            ("2 + 2 + 4 + 4 + 4 + 4", "20: as 16 plus an fp32 gradient copy"),
        ]
        return conventions if mixed else [("4 + 4 + 4 + 4", "16: fp32 weights, gradients, Adam")]
    if len(named) == 1:
        single = {
            "master": [("4", "the fp32 master copy")],
            "adam": [("4 + 4", "Adam m and v in fp32")],
            "gradients": [(f"{weight}", "gradients in the weights' type")]
            + ([("4", "gradients in fp32")] if weight != 4 and not types & _HALF else []),
            "weights": [(f"{weight}", "the weights")],
        }
        return single[named[0]]
    parts: list[tuple[str, str]] = []
    grads_options = [weight] if types & _HALF or weight == 4 else [weight, 4]
    for grads in grads_options:
        terms, words = [], []
        if "weights" in named:
            terms.append(f"{weight}")
            words.append(f"weights {weight}")
        if "gradients" in named:
            terms.append(f"{grads}")
            words.append(f"gradients {grads}")
        if "master" in named:
            terms.append("4")
            words.append("fp32 master copy 4")
        if "adam" in named:
            terms.append("4 + 4")
            words.append("Adam m 4 + v 4")
        parts.append((" + ".join(terms), ", ".join(words)))
    return parts
