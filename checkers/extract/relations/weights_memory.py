"""Relation ``weights_memory``: the memory a model's weights take in a storage type.

Formula: bytes = N · b — N parameters of b bytes each (fp32 4, fp16/bf16 2, fp8/int8 1,
int4/nf4 0.5: ``checkers/data/dtypes.yaml``, the one table of storage types). Source: the
storage widths of IEEE 754 (binary32, binary16), bfloat16, and the quantised formats the table
cites (Dettmers et al. 2023 for NF4); the checking kind is ``memory`` (its ``weights``
quantity).

Roles read (:mod:`checkers.extract.scope`): ``params`` (stated in the section, else the
published size of a model the section names) and ``dtype`` or ``bytes_per_value`` on the
statement's line.

The statement: a line that claims a size in bytes, names the storage type on its line
(``in fp16: 14 GB``, ``| int8 | 7 GB |``) and says that the size is of the weights or the
model (``weights``, ``model``, ``权重``, ``模型``, ``参数``) on its line, in its heading or in the
lines just before it, and prints no other size (a type named beside one of two sizes may
belong to either). A line that prints its own parameter count is left to the recogniser
``param_memory`` and to the arithmetic on the line; one about the KV cache, activations,
gradients, optimizer states or a training total to the other relations.

Readings accepted: GB as 10^9 or 2^30 bytes when the lesson never writes GiB; the parameter
count as the section states it, else as the named model's source states it (a rounded name
such as 7B).
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    BYTE_UNIT,
    SIZE_CUE,
    SIZE_WORDS,
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
    on_line,
)
from checkers.extract.scope import Scope

__all__ = ["CUE", "relate"]

NAME = "weights_memory"

CUE = SIZE_CUE
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = SIZE_WORDS
"""A statement this relation may concern prints a size in bytes."""

_BYTES = BYTE_UNIT
_WEIGHTS = re.compile(r"weights?|\bmodel\b|权重|模型|参数|parameters?|\bparams?\b", re.IGNORECASE)
_OTHER = re.compile(
    r"\bKV\b|cache|缓存|activations?|激活|gradients?|grads?\b|梯度|optimi[sz]er|优化器|Adam"
    r"|master|training|训练|total|总|合计|saving|节省|per\s+(?:token|layer|head)|每层|每个"
    r"|overhead|context|上下文|batch",
    re.IGNORECASE,
)


_TYPE_WORD = re.compile(
    r"\b(?:fp|bf|int|nf|float|bfloat)\d|bytes?\s+per|字节|\d[\s-]?bit", re.IGNORECASE
)
"""A storage type or a width per value on the line: checked before the scope is read."""
_OTHER_TOPIC = re.compile(r"\bKV\b|cache|缓存|activations?|激活值", re.I)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """A ``memory`` claim for a statement that gives the weights' size in a type, or None."""
    text = statement.text
    claimed = claimed_value(text, _BYTES)
    if claimed is None:
        return None
    if claimed.printed.value < 1e6:
        return None  # bytes per value ("FP32: 4 bytes"), not a model's memory
    if len(CUE.findall(text)) > 1:
        # Two sizes on the line ("~34 GB (from 68 GB in bf16)"): which one the type belongs to
        # is not stated, and the other may be in a type the section names elsewhere.
        return None
    line = statement.line
    if _OTHER.search(text) or not _TYPE_WORD.search(text):
        return None
    if not (_WEIGHTS.search(text) or _WEIGHTS.search(statement.topic)) or _OTHER_TOPIC.search(
        statement.topic
    ):
        return None
    types = on_line(scope, "dtype", line) or on_line(scope, "bytes_per_value", line)
    if len({q.dtype or q.value for q in types}) != 1:
        return None  # no type on the line, or several (a comparison of types)
    if on_line(scope, "params", line):
        return None
    params = scope.value("params", before=line)
    named = {q.value for q in scope.of("params") if q.line <= line and q.source != "table"}
    if params is None or len(named) > 1:
        return None  # no count, or several models in the section ("the same model" is which?)
    dtype = types[0]
    fields: dict[str, str] = {
        "claimed": claimed.text,
        "params": params.printed.text,
        "quantity": "weights",
        "prefixes": "either" if statement.byte_prefixes == "either" else "as_printed",
    }
    if dtype.role == "dtype":
        fields["dtype"] = dtype.dtype
    else:
        fields["bytes_per_param"] = f"{dtype.value:g}"
    chosen = first_holding("memory", [Reading(fields, describe([params, dtype]))])
    if chosen is None:
        return None
    return Draft(
        kind="memory",
        quote=text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.55,
        recognizer="relations",
        slug=f"weights-{claimed.text}",
        note=f"weights inputs: {chosen.assumed}",
    )
