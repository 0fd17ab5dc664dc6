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

Three more shapes of the same relation:

* bytes per parameter (``weights, gradients, the fp32 master copy and Adam's two moments take
  2 + 2 + 4 + 4 = 12 bytes per parameter``): the claimed bytes are the sum of the components the
  sentence names, whatever the printed terms add up to;
* a total in a section that keeps an fp32 master copy (the section names it: ``fp32 主权重``,
  ``master weights``) and trains in mixed precision: a total of the other components (``fp16
  weights, fp16 gradients, Adam's moments — so 7 × 10⁹ parameters need 84 GB``) counts the
  master copy too, unless its sentence says it is left out (``without``, ``excluding``, ``不含``)
  or the section adds the master copy to the same printed figure (a subtotal);
* a sum in code of components assigned above it (``total = weights + grads + adam  # 84 GB``
  under ``master = params * 4  # 28 GB``): the sum of the sizes their comments print, the
  master copy's included when the section keeps one.

Readings accepted: GB as 10^9 or 2^30 bytes when the lesson never writes GiB; for a total that
names no component, 16, 18 or 20 bytes per parameter; for gradients whose type the line does not
print, the weights' type or fp32. A total that names a master copy but leaves its 4 bytes out
fails under every reading, and the note lists the components counted (and, when the master copy
was added from the section, the line that keeps it). 8-bit optimizers and optimizers other than
Adam (SGD, Adafactor, Lion) are left alone.
"""

from __future__ import annotations

import re

from checkers.extract.draft import Draft
from checkers.extract.relations.base import (
    BYTE_UNIT,
    SIZE_CUE,
    SIZE_WORDS,
    Claimed,
    Reading,
    Statement,
    claimed_value,
    describe,
    first_holding,
    on_line,
    sentence,
)
from checkers.extract.scope import Quantity, Scope
from checkers.numbers import NumberError, parse_printed

__all__ = ["COMPONENTS", "CUE", "relate"]

NAME = "training_memory"

CUE = SIZE_CUE
# One of these is in every match of CUE, in lower case: a line without any is not searched.
WORDS = SIZE_WORDS
"""A statement this relation may concern prints a size in bytes."""

_BYTES = BYTE_UNIT
COMPONENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
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
"""Each component of training memory and the words that name it (the master copy first)."""
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
_OTHER_OPTIMIZER = re.compile(
    r"\bSGD\b|Adafactor|\bLion\b|8[\s-]?bit|\bint8\b|\bfp8\b|4[\s-]?bit|paged|bnb|bitsandbytes",
    re.I,
)
_PER_PARAMETER = re.compile(
    r"^\s*(?:per\s+(?:parameter|param|weight)\b|/\s*param|each\s+parameter|for\s+each\s+parameter)",
    re.I,
)
_PER_PARAMETER_BEFORE = re.compile(r"(?:每个?参数|per\s+parameter|each\s+parameter)", re.I)
_LEFT_OUT = re.compile(
    r"without|excluding|exclusive\s+of|not\s+counting|ignoring\s+the\s+master|before\s+the\s+master"
    r"|不含|不算|不计|除去|未计",
    re.I,
)
_CODE_SUM = re.compile(
    r"^\s*(?P<lhs>[A-Za-z_]\w*)\s*=\s*(?P<terms>[A-Za-z_]\w*(?:\s*\+\s*[A-Za-z_]\w*)+)\s*"
    r"#\s*(?P<claimed>(?:[≈~]\s*)?\d+(?:\.\d+)?\s*(?:[KMGT]i?B))\s*$"
)
"""A sum of named components in code whose comment prints its size (``total = w + g  # 28 GB``)."""
_CODE_COMPONENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("master", re.compile(r"master|fp32_copy|fp32_weights", re.I)),
    ("adam", re.compile(r"adam|optim(?:izer)?(?:_states?)?|opt(?:_states?)?|moments|m_v", re.I)),
    ("gradients", re.compile(r"grads?|gradients?", re.I)),
    ("weights", re.compile(r"weights?|params?|model", re.I)),
)


def relate(statement: Statement, scope: Scope) -> Draft | None:
    """An ``arithmetic`` claim params × bytes per parameter for a training-memory statement."""
    text = statement.text
    code_sum = _CODE_SUM.match(text)
    if code_sum is not None:
        return _code_sum(statement, scope, code_sum)
    claimed = claimed_value(text, _BYTES)
    if claimed is None:
        return None
    head = sentence(statement, claimed.start)
    if _OTHER_OPTIMIZER.search(head):
        return None
    if claimed.printed.value < 1e6:
        return _per_parameter_sum(statement, scope, claimed, head)
    if _OTHER.search(head) or _SHARDED.search(head) or _SHARDED.search(text):
        return None
    named = [name for name, pattern in COMPONENTS if pattern.search(head)]
    training = bool(_TRAINING.search(head) or _TRAINING.search(statement.topic))
    if not training or named == ["weights"]:
        return None  # the weights alone are the relation weights_memory's
    # a width multiplied out in prose; a table row's is the table recognisers' (one claim each)
    width = None if statement.header else _WIDTH.search(head)
    if len(named) == 1 and SIZE_CUE.search(_WIDTH.sub("", head) if width else head):
        return None  # "adding the master copy: 60 GB + 20 GB = 80 GB" sums sizes, not one part
    line = statement.line
    own = on_line(scope, "params", line)
    params: Quantity | None = own[0] if len({q.value for q in own}) == 1 else None
    if not named and not (params is not None and _TRAINING.search(head) and _TOTAL.search(head)):
        # A size that names no component is a training total only when its own sentence says
        # so, with the parameters on its line ("Mixed-precision Adam training of 7B needs …").
        return None
    if params is None and not own:
        params = scope.value("params", before=line)
    if width is not None and named == ["adam"]:
        multiplied = _multiplied_count(text, line)
        params = multiplied or params  # the count the line multiplies by the width is its N
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
    kept = _kept_master(statement, scope, named, claimed.text, head)
    if kept is not None:
        named = ["master", *named]
    types = types - ({"fp32"} if "master" in named else set())
    options = _per_parameter(named, weight_bytes, types)
    if not options:
        return None
    if width is not None and named == ["adam"]:
        # "the optimizer alone is 1.3B × 4 bytes = 5.2 GB": the width the line multiplies by is
        # checked against Adam's, m and v in fp32 (8), or ZeRO's 12 optimizer-state bytes that
        # count the fp32 master copy with them (Rajbhandari et al. 2020 §3)
        options = [*options, ("4 + 4 + 4", "12: fp32 master copy, Adam m, v (ZeRO's K)")]
    kept_note = (
        f"the section keeps an fp32 master copy ({kept}), so the total counts its 4 bytes"
        if kept is not None
        else ""
    )
    readings = [
        Reading(
            {
                "expression": f"params × ({parts})",
                "where": {"params": params.printed.text},
                "claimed": claimed.text,
                "prefixes": "either" if statement.byte_prefixes == "either" else "decimal",
            },
            describe([params], f"bytes per parameter {parts} = {label}", kept_note),
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


_WIDTH = re.compile(r"[×x*]\s*(?:1?\d|20)(?:\.\d+)?\s*(?:bytes?|字节)(?![A-Za-z])", re.IGNORECASE)
"""Bytes per parameter the line multiplies by (``1.3B × 8 bytes``): a width, not a size summed."""


_COUNT_TIMES_WIDTH = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?\s*(?:B|M|billion|million|亿)(?![A-Za-z]))\s*[×x*]\s*(?:1?\d|20)"
    r"(?:\.\d+)?\s*(?:bytes?|字节)(?![A-Za-z])",
    re.IGNORECASE,
)


def _multiplied_count(text: str, line: int) -> Quantity | None:
    """The one parameter count the line multiplies by a width (``1.3B × 8 bytes``), or None."""
    found = {m.group(1).replace(" ", "") for m in _COUNT_TIMES_WIDTH.finditer(text)}
    if len(found) != 1:
        return None
    (written,) = found
    try:
        printed = parse_printed(written)
    except NumberError:
        return None
    return Quantity("params", printed, "", line, text.find(written) + 1, "prose", written)


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


def _kept_master(
    statement: Statement, scope: Scope, named: list[str], claimed: str, head: str
) -> str | None:
    """The words by which the section keeps an fp32 master copy, when a total of mixed-precision
    Adam training that does not name it must count it; None otherwise."""
    if "master" in named or not {"adam", "gradients"} <= set(named):
        return None
    if not _TOTAL.search(head) or _LEFT_OUT.search(head + " " + _rest(statement, scope)):
        return None
    if not (_MIXED.search(scope.text) or _MIXED.search(statement.topic)):
        return None
    master = COMPONENTS[0][1]
    number = re.escape(claimed.lstrip("≈~∼约 ").split()[0])
    figure = re.compile(rf"(?<![\d.,]){number}(?![\d]|[.,]\d)")
    found = None
    for line in scope.text.splitlines():
        match = master.search(line)
        if match is None or line.strip() == statement.text.strip():
            continue
        if figure.search(line):
            return None  # the section adds the master copy to this figure: it is a subtotal
        found = found or line[max(0, match.start() - 8) : match.end() + 8].strip()
    return f'it names "{found}"' if found else None


def _rest(statement: Statement, scope: Scope) -> str:
    """The statement's line and, when its sentence runs on, the section's next line up to the
    sentence's end ("… need 60 GB / without the master copy.")."""
    text = statement.text.rstrip()
    if re.search(r"[.!?;。！？；]\s*$", text):
        return text
    lines = scope.text.splitlines()
    for index, line in enumerate(lines[:-1]):
        if line.strip() == text.strip():
            following = lines[index + 1]
            end = re.search(r"[.!?;。！？；](?:\s|$)", following)
            return text + " " + (following[: end.start()] if end else following)
    return text


def _per_parameter_sum(
    statement: Statement, scope: Scope, claimed: Claimed, head: str
) -> Draft | None:
    """An ``arithmetic`` claim for bytes per parameter summed over the components named."""
    unit = claimed.printed.unit
    if unit is None or unit.factor != 1 or claimed.printed.value > 64:
        return None
    after = statement.text[claimed.end :]
    if not (_PER_PARAMETER.match(after) or _PER_PARAMETER_BEFORE.search(head)):
        return None
    if _OTHER.search(head) or _SHARDED.search(head):
        return None
    named = [name for name, pattern in COMPONENTS if pattern.search(head)]
    if len(named) < 2 or not {"adam", "master"} & set(named):
        return None  # a sum of training components names at least two, the optimizer's among them
    line = statement.line
    types = {q.dtype for q in on_line(scope, "dtype", line)}
    half = bool("master" in named or types & _HALF or _MIXED.search(head))
    weight_bytes = 2 if half or "fp32" not in types else 4
    types = types - ({"fp32"} if "master" in named else set())
    readings = [
        Reading(
            {"expression": parts, "claimed": claimed.text},
            f"bytes per parameter {parts} = {label}",
        )
        for parts, label in _per_parameter(named, weight_bytes, types)
    ]
    chosen = first_holding("arithmetic", readings)
    if chosen is None:
        return None
    return Draft(
        kind="arithmetic",
        quote=statement.text[: claimed.end].strip(),
        line=line,
        fields=dict(chosen.fields),
        confidence=0.5,
        recognizer="relations",
        slug=f"training-bytes-per-parameter-{claimed.text}",
        note=f"training memory per parameter (mixed-precision Adam, ZeRO §3): {chosen.assumed}",
    )


def _code_component(identifier: str) -> str | None:
    for name, pattern in _CODE_COMPONENTS:
        if pattern.search(identifier):
            return name
    return None


def _assigned_size(text: str, identifier: str) -> str | None:
    """The size the comment of ``identifier``'s assignment prints in the section's text."""
    found = re.search(
        rf"(?m)^\s*{re.escape(identifier)}\s*=[^#\n]*#\s*((?:[≈~]\s*)?\d+(?:\.\d+)?\s*[KMGT]i?B)\s*$",
        text,
    )
    return found.group(1) if found else None


def _code_sum(statement: Statement, scope: Scope, match: re.Match[str]) -> Draft | None:
    """An ``arithmetic`` claim for a sum in code of training components, the master copy the
    section assigns included."""
    terms = [t.strip() for t in match.group("terms").split("+")]
    components = [_code_component(t) for t in terms]
    if None in components or len(set(components)) < 2 or "master" in components:
        return None
    if not (_TRAINING.search(statement.topic) or _TRAINING.search(scope.text)):
        return None
    if not (_MIXED.search(scope.text) or _MIXED.search(statement.topic)):
        return None
    if _OTHER_OPTIMIZER.search(scope.text) or _LEFT_OUT.search(statement.text):
        return None
    sizes = {t: _assigned_size(scope.text, t) for t in terms}
    master = next(
        (
            m.group(1)
            for m in re.finditer(r"(?m)^\s*([A-Za-z_]\w*)\s*=", scope.text)
            if _code_component(m.group(1)) == "master" and _assigned_size(scope.text, m.group(1))
        ),
        None,
    )
    if master is None or None in sizes.values():
        return None
    sizes[master] = _assigned_size(scope.text, master)
    units = {str(size).split()[-1].lstrip("0123456789.≈~ ") for size in sizes.values()}
    claimed = match.group("claimed")
    if len(units) != 1:
        return None
    expression = " + ".join([*terms, master])
    fields = {
        "expression": expression,
        "where": {name: str(size).lstrip("≈~ ") for name, size in sizes.items()},
        "claimed": claimed,
        "prefixes": "either" if statement.byte_prefixes == "either" else "decimal",
    }
    shown = ", ".join(f"{name} {size}" for name, size in sizes.items())
    return Draft(
        kind="arithmetic",
        quote=statement.text.strip(),
        line=statement.line,
        fields=fields,
        confidence=0.5,
        recognizer="relations",
        slug=f"training-memory-sum-{claimed}",
        note=(
            f"training memory (mixed-precision Adam, ZeRO §3): the section assigns an fp32 "
            f"master copy ({master}) that the sum leaves out; sizes as the comments print them: "
            f"{shown}"
        ),
    )
