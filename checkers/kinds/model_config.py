"""Kind ``model_config``: a row of a model-size table, checked three ways.

(a) internal consistency: the heads divide the width, ``head_dim`` = hidden / heads (unless the
published configuration states another head width, as Gemma's and T5-11B's do), the KV heads
divide the heads, top-k does not exceed the experts; (b) the parameter count the architecture
gives against the stated size — and, for mixture-of-experts models, the parameters used per
token against the stated active size — within ±10% (the estimate counts weight matrices and
embeddings, not biases or norms, and published sizes are rounded names); (c) every printed
column against the published configuration in ``checkers/data/models.yaml``, each entry with its
source. The message says which column disagrees and what the source says.

The estimate by ``style`` (d = hidden, L = layers, d_ff = FFN width, n_kv = KV heads,
d_head = d / heads unless the configuration states head_dim, m = 3 FFN matrices for gated FFNs
(SwiGLU, GeGLU) else 2):

* ``gpt``: L·(4·d² + 2·d·d_ff) + vocab·d + context·d (tied embeddings, learned positions);
  with d_ff = 4·d this is the familiar 12·L·d² + vocab·d + context·d;
* ``bert``: as gpt, plus 2·d segment embeddings and a d² pooler;
* ``llama``: L·(2·d·heads·d_head + 2·d·n_kv·d_head + 3·d·d_ff) + 2·vocab·d (SwiGLU, GQA, RoPE,
  untied output: the input and output embeddings are counted separately);
* ``encoder_decoder``: L·(4·d² + 2·d·d_ff) encoder + L·(8·d² + 2·d·d_ff) decoder + vocab·d.

A published entry can override a style's conventions: tied or untied embeddings (Qwen2.5-0.5B
and Gemma tie them: vocab·d once; Llama 3 does not: 2·vocab·d), gated or plain FFN, learned or
rotary positions (Phi-2 is counted GPT-style but without a position table). The message names
the convention used.

Mixture of experts (Mixtral, DeepSeek): each MoE layer has ``experts`` routed experts of width
e = moe_d_ff (else d_ff), ``shared`` always-on experts and a router of d·experts weights; the
first ``dense_layers`` layers keep a dense FFN of width d_ff. Total = attention + dense FFNs +
MoE layers × ((experts + shared)·m·d·e + d·experts) + embeddings; active = the same with only
(top-k + shared) experts per MoE layer. Multi-head latent attention (DeepSeek-V2/V3) counts its
projections: d·r_q + r_q·heads·(nope + rope) + d·(r_kv + rope) + r_kv·heads·(nope + v) +
heads·v·d per layer.

Columns the row does not print (vocab, d_ff, KV heads, head width, experts, style) are taken from
the matched published entry for the estimate, and the verdict says so. Where no vocabulary is
published (GPT-3), the estimate counts no embeddings; a row that is the published entry's, with
its published size, is then not failed on that incomplete estimate. A size in the name that is
only the model's name (``Gemma 7B`` has 8.5B weights; the published entry says so with
``size_is_name``) is not compared with the estimate; the ``7B`` of ``Mixtral 8x7B`` is one
expert's size and is not read as the model's.

YAML fields:

``name``
    The model as printed: ``GPT-2 (1.5B)``, ``GPT-2 XL``, ``LLaMA-2 7B``, ``Llama 2 70B``,
    ``GPT-3 (175B)``, ``BERT-base``. A count in the name (``1.5B``, ``70 亿``) is the stated size.
``reference``
    Optional key of the published entry to compare with (``gpt2-xl``), when the name is not
    enough to pick one.
``style``
    Optional ``gpt``, ``bert``, ``llama`` or ``encoder_decoder``; default: the published entry's,
    else ``gpt``.
``layers``, ``heads``, ``kv_heads``, ``hidden``, ``head_dim``, ``d_ff``, ``context``, ``vocab``
    The columns as printed (whole numbers; ``4k`` reads as 4000 ± 500, and a context in K also
    as 1024s: ``128K`` holds for 131,072); give those the row has.
``experts``, ``experts_per_token``
    Mixture of experts: routed experts per layer and how many each token uses (top-k).
``rope_theta``
    The base of the rotary position frequencies, compared with the released configuration's.
``params``
    The stated parameter count when it is printed outside the name (``1.5B``).
``active_params``
    The stated parameters used per token of a mixture-of-experts model (``12.9B``).
``tokens``
    The tokens the model was pre-trained on as printed (``2T``, ``300 billion``), compared with
    the published count; where the source gives a corpus in words that the model read many
    times (BERT), a value equal to the corpus is named as such.

Example::

    name: GPT-2 (1.5B)
    layers: 24
    heads: 16
    hidden: 1600
    context: 1024

A claim's ``tolerance:`` override applies to the parameter estimate; the architecture columns
are whole numbers and are compared at their printed precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field, field_validator, model_validator

from checkers.data import (
    STYLE_CONVENTIONS,
    ModelSpec,
    ModelStyle,
    model_table,
    parse_count,
    size_in_name,
)
from checkers.kinds.base import (
    Context,
    KindInput,
    Outcome,
    PrintedNumber,
    PrintedWholeNumber,
    error,
)
from checkers.numbers import Comparison, Printed, Tolerance, compare, printed_tolerance

__all__ = ["ESTIMATE_TOLERANCE", "Architecture", "Estimate", "Input", "check", "estimate"]

ESTIMATE_RELATIVE = 0.10
ESTIMATE_TOLERANCE = Tolerance(
    absolute=0.0,
    relative=ESTIMATE_RELATIVE,
    reason=(
        "±10%: the estimate counts weight matrices and embeddings, not biases or norms "
        "(under 1%), and published sizes are rounded names (LLaMA-2 '70B' has 69.0B weights)"
    ),
)
"""How close the architecture's parameter count must be to the stated size, and why."""


def _size_tolerance(stated: Printed) -> Tolerance:
    """The wider of ±10% and what the stated size's printed digits allow: a size printed to one
    digit (``0.3B``) stands for [0.25B, 0.35B], so 335M is a correct rounding of it."""
    printed = printed_tolerance(stated)
    if printed.absolute <= ESTIMATE_RELATIVE * abs(stated.value):
        return ESTIMATE_TOLERANCE
    return Tolerance(
        absolute=printed.absolute,
        relative=ESTIMATE_RELATIVE,
        reason=f"{printed.reason} (wider than ±10% of {stated.text})",
    )


# Columns in the order size tables print them; corrections follow this order.
_ROW_COLUMNS = (
    "layers",
    "heads",
    "kv_heads",
    "hidden",
    "head_dim",
    "d_ff",
    "experts",
    "experts_per_token",
    "context",
    "vocab",
    "rope_theta",
)
_COLUMN_WORDS = {
    "layers": "layers",
    "heads": "heads",
    "kv_heads": "KV heads",
    "hidden": "d",
    "head_dim": "head_dim",
    "d_ff": "d_ff",
    "experts": "experts",
    "experts_per_token": "experts per token",
    "context": "context",
    "rope_theta": "RoPE base",
    "vocab": "vocab",
}

_FIELD_NAMES = {
    "layers": "number of layers",
    "heads": "number of heads",
    "kv_heads": "number of key/value heads",
    "hidden": "hidden size",
    "head_dim": "head width",
    "d_ff": "FFN width",
    "experts": "number of experts",
    "experts_per_token": "experts per token",
    "context": "context length",
    "vocab": "vocabulary size",
    "rope_theta": "RoPE base",
}
"""What each column is, in words, for a value printed under the wrong header."""


class Input(KindInput):
    """Fields of a ``model_config`` claim."""

    name: str = Field(min_length=1, max_length=200)
    """The model as printed; a count in it (``1.5B``) is the stated size."""
    reference: str | None = None
    """Key of the published entry to compare with, overriding the name lookup."""
    style: ModelStyle | None = None
    """How parameters are counted; default the published entry's style, else gpt."""
    layers: PrintedWholeNumber | None = None
    """Number of layers as printed."""
    heads: PrintedWholeNumber | None = None
    """Attention (query) heads as printed."""
    kv_heads: PrintedWholeNumber | None = None
    """Key/value heads as printed (grouped-query attention)."""
    hidden: PrintedWholeNumber | None = None
    """Hidden size d_model as printed."""
    head_dim: PrintedWholeNumber | None = None
    """Width of one head as printed; must be hidden / heads."""
    d_ff: PrintedWholeNumber | None = None
    """Feed-forward inner width as printed."""
    context: PrintedWholeNumber | None = None
    """Context length in tokens as printed."""
    vocab: PrintedWholeNumber | None = None
    """Vocabulary size as printed."""
    rope_theta: PrintedWholeNumber | None = None
    """Base of the rotary position frequencies as printed (``500000``, ``1e6``)."""
    experts: PrintedWholeNumber | None = None
    """Routed experts per MoE layer as printed."""
    experts_per_token: PrintedWholeNumber | None = None
    """Routed experts each token uses (top-k) as printed."""
    params: PrintedNumber | None = None
    """The stated parameter count, when it is not in the name."""
    active_params: PrintedNumber | None = None
    """The stated parameters used per token (mixture of experts)."""
    tokens: PrintedNumber | None = None
    """The tokens the model was pre-trained on, as printed (``2T``, ``300 billion``)."""

    @field_validator("params", "active_params", "tokens")
    @classmethod
    def _params_is_count(cls, value: Printed | None) -> Printed | None:
        if value is not None and (
            value.value <= 0 or (value.unit is not None and value.unit.family != "count")
        ):
            raise ValueError(f"params must be a count such as 1.5B or 70 亿, got {value.text!r}")
        return value

    @field_validator("reference")
    @classmethod
    def _known_reference(cls, value: str | None) -> str | None:
        if value is not None and model_table().by_key(value) is None:
            keys = ", ".join(m.key for m in model_table().models)
            raise ValueError(f"unknown reference {value!r}; known keys: {keys}")
        return value

    @model_validator(mode="after")
    def _something_to_check(self) -> Input:
        stated = (self.tokens, self.params, self.active_params)
        if all(getattr(self, column) is None for column in _ROW_COLUMNS) and all(
            value is None for value in stated
        ):
            raise ValueError(
                "give at least one column: layers, heads, hidden, context, …, tokens or a size"
            )
        if self.params is not None and size_in_name(self.name) is not None:
            raise ValueError(
                f"the name {self.name!r} already states a size; drop params or the size in the name"
            )
        return self


@dataclass(frozen=True)
class Architecture:
    """What the parameter estimate needs; None where neither the row nor the source gives it."""

    style: ModelStyle
    """Counting convention (gpt, bert, llama, encoder_decoder)."""
    layers: int
    """Layers (per stack for encoder-decoder models)."""
    hidden: int
    """Model width d."""
    heads: int | None = None
    """Query heads."""
    kv_heads: int | None = None
    """Key/value heads under GQA (None: as many as query heads)."""
    d_ff: int | None = None
    """Dense FFN width (None: the style's default width)."""
    context: int | None = None
    """Context length, for a learned position table."""
    vocab: int | None = None
    """Vocabulary size (None: embeddings are not counted)."""
    head_dim: int | None = None
    """Stated head width when heads × it is not d (None: d / heads)."""
    tied_embeddings: bool | None = None
    """Input and output embeddings shared (None: the style's convention)."""
    gated_ffn: bool | None = None
    """Three FFN matrices (SwiGLU/GeGLU) instead of two (None: the style's convention)."""
    learned_positions: bool | None = None
    """A context × d position table (None: the style's convention)."""
    experts: int | None = None
    """Routed experts per MoE layer (None: dense model)."""
    experts_per_token: int | None = None
    """Routed experts per token (top-k)."""
    shared_experts: int = 0
    """Always-on experts per MoE layer."""
    expert_d_ff: int | None = None
    """One expert's width (None: d_ff)."""
    dense_layers: int = 0
    """Leading layers with a dense FFN in a mixture-of-experts model."""
    mla: tuple[int, int, int, int, int] | None = None
    """Multi-head latent attention (q_lora_rank, kv_lora_rank, nope, rope, v head widths)."""


@dataclass(frozen=True)
class Estimate:
    """A parameter count from the architecture, with how it was reached."""

    total: float
    """Weight matrices plus embeddings."""
    formula: str
    """The terms, in words an author can check by hand."""
    assumptions: tuple[str, ...]
    """Defaults used for columns nobody gave (d_ff, embeddings)."""
    active: float | None = None
    """Parameters used per token, for mixture-of-experts architectures."""
    active_formula: str = ""
    """How ``active`` was reached."""


def _attention(arch: Architecture) -> tuple[int, str]:
    """Weights of one layer's attention projections, with their formula."""
    d = arch.hidden
    if arch.mla is not None and arch.heads is not None:
        q_rank, kv_rank, nope, rope, v = arch.mla
        h = arch.heads
        weights = d * q_rank + q_rank * h * (nope + rope) + d * (kv_rank + rope)
        weights += kv_rank * h * (nope + v) + h * v * d
        return weights, "MLA d·r_q + r_q·h·(nope+rope) + d·(r_kv+rope) + r_kv·h·(nope+v) + h·v·d"
    if arch.heads is None:
        return 4 * d * d, "4·d²"
    d_head = arch.head_dim if arch.head_dim is not None else d // arch.heads
    q_width = arch.heads * d_head
    kv_width = q_width if arch.kv_heads is None else arch.kv_heads * d_head
    weights = 2 * d * q_width + 2 * d * kv_width
    if q_width == d and kv_width == d:
        return weights, "4·d²"
    if q_width == d:
        return weights, "2·d² + 2·d·n_kv·d_head"
    return weights, "2·d·heads·d_head + 2·d·n_kv·d_head"


def estimate(arch: Architecture) -> Estimate:
    """Count the weight matrices and embeddings of an architecture (no biases, no norms)."""
    d, layers = arch.hidden, arch.layers
    assumptions: list[str] = []
    style = STYLE_CONVENTIONS[arch.style]
    tied = style.tied_embeddings if arch.tied_embeddings is None else arch.tied_embeddings
    gated = style.gated_ffn if arch.gated_ffn is None else arch.gated_ffn
    learned = style.learned_positions if arch.learned_positions is None else arch.learned_positions
    d_ff = arch.d_ff
    if d_ff is None:
        if gated:
            # LLaMA's SwiGLU width: 2/3 of 4d, rounded up to a multiple of 256.
            d_ff = 256 * math.ceil(8 * d / 3 / 256)
            assumptions.append(f"d_ff = 8d/3 rounded up to 256 = {d_ff} (no d_ff given)")
        else:
            d_ff = 4 * d
            assumptions.append(f"d_ff = 4d = {d_ff} (no d_ff given)")
    attention, attention_text = _attention(arch)
    matrices = 3 if gated else 2
    ffn = matrices * d * d_ff
    ffn_text = f"{matrices}·d·d_ff"
    active: float | None = None
    active_text = ""
    if arch.style == "encoder_decoder":
        # Decoder layers add cross-attention, another set of attention projections.
        per_layer_pair = (attention + ffn) + (2 * attention + ffn)
        body = layers * per_layer_pair
        body_text = (
            f"{layers} encoder × ({attention_text} + {ffn_text}) + {layers} decoder × "
            f"(2 × {attention_text} self- and cross-attention + {ffn_text}) = {count_text(body)}"
        )
    elif arch.experts is not None:
        body, body_text, active, active_text = _moe_body(arch, attention, matrices, d_ff)
    else:
        body = layers * (attention + ffn)
        if arch.style != "llama" and attention_text == "4·d²" and not gated and d_ff == 4 * d:
            body_text = f"12·L·d² = 12 × {layers} × {d}² = {count_text(body)}"
        else:
            body_text = (
                f"{layers} layers × ({attention_text} + {ffn_text}) = {layers} × "
                f"({count_text(attention)} + {count_text(ffn)}) = {count_text(body)}"
            )
    terms = [body_text]
    total = float(body)
    extra = 0
    if arch.vocab is None:
        assumptions.append("embeddings not counted (no vocabulary size given or published)")
    else:
        copies = 1 if tied else 2
        embeddings = copies * arch.vocab * d
        label = (
            "vocab·d (tied: the output layer reuses the input embeddings)"
            if tied
            else "2·vocab·d (untied: input and output embeddings)"
        )
        terms.append(f"{label} = {count_text(embeddings)}")
        extra += embeddings
    if learned and arch.context is not None:
        positions = arch.context * d
        terms.append(f"positions context·d = {count_text(positions)}")
        extra += positions
    if arch.style == "bert":
        segments = 2 * d + d * d
        terms.append(f"segments 2·d + pooler d² = {count_text(segments)}")
        extra += segments
    total += extra
    if active is not None:
        active += extra
    return Estimate(total, "; ".join(terms), tuple(assumptions), active, active_text)


def _moe_body(
    arch: Architecture, attention: int, matrices: int, d_ff: int
) -> tuple[int, str, float, str]:
    """Total and per-token weights of the layers of a mixture-of-experts model."""
    d, layers = arch.hidden, arch.layers
    experts = arch.experts or 0
    top_k = arch.experts_per_token if arch.experts_per_token is not None else experts
    shared = arch.shared_experts
    width = arch.expert_d_ff if arch.expert_d_ff is not None else d_ff
    expert = matrices * d * width
    router = d * experts
    moe_layers = layers - arch.dense_layers
    dense_part = arch.dense_layers * (attention + matrices * d * d_ff)
    total = dense_part + moe_layers * (attention + (experts + shared) * expert + router)
    used = dense_part + moe_layers * (attention + (top_k + shared) * expert + router)
    shared_text = f" + {shared} shared" if shared else ""
    dense_text = (
        f"{arch.dense_layers} dense layers × (attention + {matrices}·d·d_ff) + "
        if arch.dense_layers
        else ""
    )
    total_text = (
        f"{dense_text}{moe_layers} MoE layers × (attention {count_text(attention)} + "
        f"({experts} experts{shared_text}) × {matrices}·d·{width} + router d·{experts})"
        f" = {count_text(total)}"
    )
    active_text = (
        f"{dense_text}{moe_layers} MoE layers × (attention + ({top_k} routed{shared_text}) × "
        f"{matrices}·d·{width} + router) = {count_text(used)}, plus the embeddings"
    )
    return total, total_text, float(used), active_text


def count_text(value: float) -> str:
    """A parameter count in 3–4 significant digits with K/M/B: 737.3M, 1.557B, 53.4K."""
    magnitude = abs(value)
    for factor, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if magnitude >= factor:
            scaled = value / factor
            decimals = 1 if abs(scaled) >= 100 else (2 if abs(scaled) >= 10 else 3)
            return f"{scaled:.{decimals}f}{suffix}"
    return f"{value:g}"


def _column_text(column: str, value: str) -> str:
    """``24 layers`` or ``d 1600``: how a table column reads in a sentence."""
    word = _COLUMN_WORDS[column]
    words_first = ("d", "d_ff", "head_dim", "context", "vocab", "RoPE base")
    return f"{word} {value}" if word in words_first else f"{value} {word}"


def _printed_int(value: Printed | None) -> int | None:
    return None if value is None else round(value.value)


def _row_text(fields: Input) -> str:
    parts = []
    for column in _ROW_COLUMNS:
        printed = getattr(fields, column)
        if printed is not None:
            parts.append(_column_text(column, printed.text))
    if fields.params is not None:
        parts.append(f"{fields.params.text} parameters")
    if fields.tokens is not None:
        parts.append(f"trained on {fields.tokens.text} tokens")
    return f"{fields.name}: " + ", ".join(parts)


@dataclass(frozen=True)
class _ReferenceResult:
    spec: ModelSpec | None
    note: str
    mismatches: tuple[tuple[str, Printed, int], ...] = ()
    explained_by: ModelSpec | None = None
    label: str = ""
    """How the verdict names the entry (its family when every member publishes the values)."""


def _resolve(fields: Input) -> tuple[ModelSpec | None, str, tuple[ModelSpec, ...], str]:
    """(entry, why it, candidates when ambiguous, how the verdict names it)."""
    if fields.reference is not None:
        spec = model_table().by_key(fields.reference)
        name = spec.name if spec is not None else ""
        return spec, f"reference {fields.reference!r}", (), name
    printed = {
        column: value
        for column in (*_ROW_COLUMNS, "tokens")
        if (value := getattr(fields, column)) is not None
    }
    # An ambiguous name ("GPT-2") is read with the row's size and columns (see resolve).
    match = model_table().resolve(fields.name, printed, fields.params)
    candidates = () if match.spec is not None else match.candidates
    return match.spec, match.reason, candidates, match.label


def _mismatches(fields: Input, spec: ModelSpec) -> list[tuple[str, Printed, int]]:
    wrong: list[tuple[str, Printed, int]] = []
    for column in _ROW_COLUMNS:
        printed: Printed | None = getattr(fields, column)
        # Where two sources print different values (a paper's and a config's), either holds.
        if printed is not None and spec.values(column) and not spec.accepts(column, printed):
            wrong.append((column, printed, spec.values(column)[0]))
    return wrong


def _reference(
    fields: Input, spec: ModelSpec | None, reason: str, label: str = ""
) -> _ReferenceResult:
    if spec is None:
        return _ReferenceResult(None, f"no published configuration to compare with: {reason}")
    label = label or spec.name
    wrong = tuple(_mismatches(fields, spec))
    if not wrong:
        return _ReferenceResult(spec, reason, label=label)
    # A row mixing two sizes: say whose numbers the wrong columns are.
    explained_by = None
    for other in model_table().members(model_table().family(spec.family)):
        if other.key != spec.key and all(
            round(p.value) in other.values(column) for column, p, _ in wrong
        ):
            explained_by = other
            break
    return _ReferenceResult(spec, reason, wrong, explained_by, label)


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _published_columns(spec: ModelSpec, columns: Sequence[str]) -> str:
    parts = []
    for column in columns:
        value = spec.column(column)
        parts.append(_column_text(column, str(value)))
    return ", ".join(parts)


def _own_head_width(spec: ModelSpec | None) -> bool:
    """The published model sizes its heads on its own, not as d / heads (Gemma, T5-11B, MLA)."""
    return spec is not None and (spec.head_dim is not None or spec.is_mla)


def _consistency(fields: Input, spec: ModelSpec | None) -> list[str]:
    problems: list[str] = []
    hidden, heads = _printed_int(fields.hidden), _printed_int(fields.heads)
    kv_heads, head_dim = _printed_int(fields.kv_heads), _printed_int(fields.head_dim)
    experts, top_k = _printed_int(fields.experts), _printed_int(fields.experts_per_token)
    if experts is not None and top_k is not None and top_k > experts:
        problems.append(f"{top_k} experts per token exceed the {experts} experts")
    if _own_head_width(spec):
        pass  # head_dim is compared with the published one instead of d / heads
    elif hidden is not None and heads is not None:
        if hidden % heads:
            problems.append(
                f"{heads} heads do not divide d {hidden} ({hidden}/{heads} = {hidden / heads:.4g})"
            )
        elif head_dim is not None and head_dim != hidden // heads:
            problems.append(
                f"head_dim {head_dim} is not d/heads = {hidden}/{heads} = {hidden // heads}"
            )
    elif head_dim is not None and hidden is not None and heads is None and hidden % head_dim:
        problems.append(f"head_dim {head_dim} does not divide d {hidden}")
    if heads is not None and kv_heads is not None and heads % kv_heads:
        problems.append(f"{kv_heads} KV heads do not divide {heads} query heads")
    return problems


def _architecture(fields: Input, spec: ModelSpec | None) -> tuple[Architecture | None, list[str]]:
    """The row's own columns, with what it does not print taken from the published entry."""
    layers, hidden = _printed_int(fields.layers), _printed_int(fields.hidden)
    if layers is None or hidden is None:
        return None, []
    borrowed: list[str] = []

    def pick(column: str) -> int | None:
        own = _printed_int(getattr(fields, column))
        if (
            own is not None
            and spec is not None
            and column == "d_ff"
            and own != spec.d_ff
            and own in spec.also.get("d_ff", ())
        ):
            # The released configuration's other count of the same width (Qwen's
            # intermediate_size holds both gated halves): the estimate counts one projection.
            borrowed.append(f"d_ff {spec.d_ff} (the printed {own} counts both gated halves)")
            return spec.d_ff
        if own is not None or spec is None:
            return own
        if column == "kv_heads":
            # The source's KV heads belong with its own query heads, and only under GQA.
            same_heads = fields.heads is None or _printed_int(fields.heads) == spec.heads
            published = spec.kv_heads if same_heads else None
        else:
            published = spec.column(column)
        if published is not None:
            borrowed.append(f"{_COLUMN_WORDS[column]} {published}")
        return published

    style: ModelStyle = fields.style or (spec.style if spec is not None else "gpt")
    heads = _printed_int(fields.heads)
    same_heads = spec is not None and heads in (None, spec.heads)
    if heads is None and spec is not None and (_own_head_width(spec) or spec.kv_heads):
        # Its head width is not d / heads, or its KV heads are fewer: the count matters.
        heads = spec.heads
        borrowed.append(f"heads {heads}")
    head_dim = _printed_int(fields.head_dim)
    if head_dim is None and same_heads and spec is not None and spec.head_dim is not None:
        head_dim = spec.head_dim
        borrowed.append(f"head_dim {head_dim}")
    arch = Architecture(
        style=style,
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=pick("kv_heads"),
        d_ff=pick("d_ff"),
        context=pick("context"),
        vocab=pick("vocab"),
        head_dim=head_dim,
        tied_embeddings=None if spec is None else spec.tied,
        gated_ffn=None if spec is None else spec.gated_ffn,
        learned_positions=None if spec is None else spec.positions_style == "learned",
        experts=pick("experts"),
        experts_per_token=pick("experts_per_token"),
        shared_experts=0 if spec is None else spec.shared_experts or 0,
        expert_d_ff=None if spec is None else spec.expert_d_ff,
        dense_layers=0 if spec is None else spec.dense_layers or 0,
        mla=spec.mla_dims if spec is not None and same_heads else None,
    )
    notes = []
    if borrowed and spec is not None:
        notes.append(f"not in the row, taken from {spec.name}: {', '.join(borrowed)}")
    if fields.style is None and spec is None:
        notes.append("counted GPT-style (no style given and no published entry matched)")
    return arch, notes


def check(fields: Input, context: Context) -> Outcome:
    """Check the row's consistency, its size against its architecture, and the published config."""
    spec, reason, candidates, label = _resolve(fields)
    row = _row_text(fields)
    if candidates:
        keys = ", ".join(c.key for c in candidates)
        return error(f"{reason}; add the size to the name or set reference: to one of {keys}", row)
    reference = _reference(fields, spec, reason, label)
    details = [f"published entry: {reference.note}"]
    problems, corrections, corrected_row = _reference_problems(fields, reference)
    problems.extend(_consistency(fields, reference.spec))
    tokens_problem, tokens_fix = _tokens_problem(fields, reference)
    if tokens_problem:
        problems.append(tokens_problem)
        corrections.extend(tokens_fix)
    if not _own_head_width(reference.spec):
        corrections.extend(_head_dim_correction(fields, corrected_row))

    stated = fields.params or size_in_name(fields.name)
    if stated is not None and _is_its_name(stated, reference.spec):
        assert reference.spec is not None
        details.append(
            f"{stated.text} is the published name of {reference.spec.name}, not its parameter "
            "count (see its entry's source): the estimate is not compared with it"
        )
        stated = None
    arch, notes = _architecture(fields, reference.spec)
    details.extend(notes)
    size: Comparison | None = None
    active: Comparison | None = None
    value: float | None = None
    held_sizes: list[str] = []
    if arch is not None:
        counted = estimate(arch)
        value = counted.total
        details.append(f"parameter estimate: {counted.formula}; total ≈ {count_text(value)}")
        if counted.active is not None:
            used = count_text(counted.active)
            details.append(f"used per token: {counted.active_formula} ≈ {used}")
        details.extend(counted.assumptions)
        if stated is None:
            details.append("no size printed: the estimate is not compared")
        else:
            size = compare(stated, value, context.tolerance or _size_tolerance(stated))
            if not size.ok and _published_size_of_published_row(stated, arch, reference):
                assert reference.spec is not None
                details.append(
                    f"{stated.text} is the published count of {reference.spec.name}; the "
                    f"estimate ≈ {count_text(value)} counts no embeddings (no vocabulary is "
                    "published), so the size is not compared with it"
                )
                size = None
        if fields.active_params is not None and counted.active is not None:
            active = compare(
                fields.active_params,
                counted.active,
                context.tolerance or _size_tolerance(fields.active_params),
            )
            if not active.ok:
                problems.append(
                    f"{arch.layers} layers with {arch.experts_per_token} of {arch.experts} experts "
                    f"per token use ≈ {_in_units_of(counted.active, fields.active_params)} "
                    f"parameters per token, not {fields.active_params.text} "
                    f"({_convention(arch)})"
                )
        elif fields.active_params is not None:
            details.append("no experts known: the active size is not checked")
    elif stated is not None or fields.active_params is not None:
        published = _published_sizes(fields, stated, reference, context)
        details.extend(published.details)
        problems.extend(published.problems)
        corrections.extend(published.corrections)
        held_sizes = published.held
    if size is not None and stated is not None and arch is not None and not size.ok:
        approx = _in_units_of(size.recomputed, stated)
        problems.append(
            f"{arch.layers} layers × d {arch.hidden} gives ≈ {approx} parameters, not {stated.text}"
            f" ({_convention(arch)})"
        )
        if (
            reference.spec is not None
            and not reference.mismatches
            and not compare(stated, reference.spec.params_value).ok
        ):
            # The columns are the published ones, so the size is what is wrong.
            fix = (stated.text, reference.spec.params)
            corrections = [fix, *corrections] if fields.params is None else [*corrections, fix]
    if (
        not problems
        and reference.spec is None
        and size is None
        and not _consistency_checked(fields)
    ):
        return error(
            f"nothing to check for {fields.name!r}: {reference.note}, and the row lacks "
            "layers and d for a parameter estimate",
            row,
        )
    tolerance = "columns: as printed (whole numbers)"
    if size is not None:
        tolerance += f"; size: {size.tolerance.reason}"
    expected = "; ".join(
        part
        for part in (
            ", ".join(
                _column_text(column, str(number))
                for column, number in corrected_row.items()
                if number is not None and getattr(fields, column) is not None
            ),
            f"≈ {count_text(value)} parameters" if value is not None else "",
        )
        if part
    )
    said = problems or [*_what_held(fields, reference, size, stated), *held_sizes]
    if len(said) > 1 and said[0] == "holds":
        said = said[1:]
    if not problems and active is not None and fields.active_params is not None:
        said.append(
            f"≈ {count_text(active.recomputed)} used per token, consistent with "
            f"{fields.active_params.text}"
        )
    if not problems and arch is not None and (size is not None or active is not None):
        said.append(_convention(arch))
    return Outcome(
        verdict="fail" if problems else "pass",
        claimed=row,
        expected=expected,
        tolerance=tolerance,
        message=f"{fields.name}: " + "; ".join(said),
        corrections=tuple(corrections) if problems else (),
        details=tuple(details),
        value=value,
    )


@dataclass(frozen=True)
class _PublishedSizes:
    """The stated sizes of a row without layers and d, against the published counts."""

    problems: list[str]
    """Why a size is not the published one."""
    corrections: list[tuple[str, str]]
    """(printed, published) replacements."""
    held: list[str]
    """What held, for the message."""
    details: list[str]
    """What was compared, or why nothing was."""


def _published_sizes(
    fields: Input, stated: Printed | None, reference: _ReferenceResult, context: Context
) -> _PublishedSizes:
    """A row that prints no layers and d gives no estimate: its total and per-token sizes are
    compared with the counts the source publishes, within ±10% or the size's printed digits
    (published sizes are rounded names: "117M" and "124M" are both GPT-2 small)."""
    spec = reference.spec
    out = _PublishedSizes([], [], [], [])
    pairs = (
        ("parameters", stated, spec.params if spec else None),
        (
            "parameters used per token",
            fields.active_params,
            spec.active_params if spec else None,
        ),
    )
    for what, printed, published in pairs:
        if printed is None:
            continue
        count = None if published is None else parse_count(published)
        if spec is None or published is None or count is None:
            out.details.append(f"no published count of {what}: {printed.text} is not checked")
            continue
        tolerance = context.tolerance or _size_tolerance(printed)
        comparison = compare(printed, count.value, tolerance)
        out.details.append(
            f"layers or d not printed: {printed.text} {what} compared with the published "
            f"{published} of {reference.label} ({tolerance.reason.split(':')[0]})"
        )
        if comparison.ok:
            out.held.append(f"{printed.text} {what}, as published ({published})")
        else:
            out.problems.append(
                f"{printed.text} {what} does not match the published {reference.label} "
                f"({published}; {spec.cite})"
            )
            out.corrections.append((printed.text, published))
    return out


def _tokens_problem(
    fields: Input, reference: _ReferenceResult
) -> tuple[str, list[tuple[str, str]]]:
    """Why the printed pre-training tokens are not the published ones ("" when they are, or
    when nothing is published to compare with)."""
    spec, printed = reference.spec, fields.tokens
    if spec is None or printed is None or spec.train_tokens_value is None:
        return "", []
    if compare(printed, spec.train_tokens_value).ok:
        return "", []
    text = (
        f"trained on {printed.text} tokens does not match the published {reference.label} "
        f"({spec.train_tokens} tokens; {spec.cite})"
    )
    words = spec.corpus_words_value
    if words is not None and compare(printed, words).ok:
        epochs = spec.train_tokens_value / words
        text += (
            f"; {printed.text} is the size of its pre-training corpus in words, which it read "
            f"about {epochs:.0f} times"
        )
    return text, [(printed.text, str(spec.train_tokens))]


def _reference_problems(
    fields: Input, reference: _ReferenceResult
) -> tuple[list[str], list[tuple[str, str]], dict[str, int | None]]:
    """The published-config disagreement (as one sentence), its corrections and the fixed row."""
    corrected_row = {column: _printed_int(getattr(fields, column)) for column in _ROW_COLUMNS}
    spec = reference.spec
    if spec is None or not reference.mismatches:
        return [], [], corrected_row
    columns = [column for column, _, _ in reference.mismatches]
    said = _and([f"{_COLUMN_WORDS[c]} {p.text}" for c, p, _ in reference.mismatches])
    verb = "does" if len(columns) == 1 else "do"
    text = (
        f"{said} {verb} not match the published {reference.label} "
        f"({_published_columns(spec, columns)}; {spec.cite})"
    )
    corrections = []
    for column, printed, published in reference.mismatches:
        other = spec.other_column(column, printed.value)
        if column == "heads" and other == "kv_heads":
            text += f"; {printed.text} is its number of key/value heads (GQA)"
        elif other is not None:
            text += (
                f"; {printed.text} is {reference.label}'s {_FIELD_NAMES[other]}, its "
                f"{_FIELD_NAMES[column]} is {published}"
            )
        corrected_row[column] = published
        corrections.append((printed.text, str(published)))
    if reference.explained_by is not None:
        text += f"; {said} {'is' if len(columns) == 1 else 'are'} {reference.explained_by.name}'s"
    return [text], corrections, corrected_row


def _head_dim_correction(
    fields: Input, corrected_row: dict[str, int | None]
) -> list[tuple[str, str]]:
    """head_dim fixed to the (corrected) hidden / heads, unless the reference already fixed it."""
    hidden, heads = corrected_row["hidden"], corrected_row["heads"]
    if fields.head_dim is None or hidden is None or heads is None:
        return []
    if corrected_row["head_dim"] != round(fields.head_dim.value):
        return []  # already corrected from the published entry
    right = hidden // heads
    return [] if right == round(fields.head_dim.value) else [(fields.head_dim.text, str(right))]


def _what_held(
    fields: Input, reference: _ReferenceResult, size: Comparison | None, stated: Printed | None
) -> list[str]:
    held: list[str] = []
    if reference.spec is not None:
        held.append(f"matches the published {reference.label} ({reference.spec.cite})")
    hidden, heads = _printed_int(fields.hidden), _printed_int(fields.heads)
    spec = reference.spec
    if spec is not None and spec.is_mla:
        pass  # latent attention: no head width follows from d and heads
    elif spec is not None and spec.head_dim is not None and heads is not None:
        held.append(f"{heads} heads of the published width {spec.head_dim} (not d/heads)")
    elif hidden is not None and heads is not None:
        held.append(f"{heads} heads divide d {hidden} (head size {hidden // heads})")
    if fields.tokens is not None and spec is not None and spec.train_tokens is not None:
        held.append(f"trained on {fields.tokens.text} tokens, as published ({spec.train_tokens})")
    if size is not None and stated is not None:
        held.append(
            f"the architecture gives ≈ {count_text(size.recomputed)} parameters, consistent "
            f"with {stated.text} ({size.tolerance.reason.split(':')[0]})"
        )
    return held or ["holds"]


def _published_size_of_published_row(
    stated: Printed, arch: Architecture, reference: _ReferenceResult
) -> bool:
    """The row is the published entry's and so is its size; only the embeddings are unknown."""
    spec = reference.spec
    return (
        spec is not None
        and arch.vocab is None
        and not reference.mismatches
        and compare(stated, spec.params_value).ok
    )


def _is_its_name(stated: Printed, spec: ModelSpec | None) -> bool:
    """The size is the published model's name, not a count of its weights (Gemma 7B).

    A params column that repeats the name is read the same way: the reader copies the name.
    """
    if spec is None or not spec.size_is_name:
        return False
    published = parse_count(spec.params)
    return published is not None and compare(stated, published.value).ok


def _convention(arch: Architecture) -> str:
    """The counting convention of an estimate, in words for the message."""
    tied = arch.tied_embeddings
    if tied is None:
        tied = STYLE_CONVENTIONS[arch.style].tied_embeddings
    if arch.vocab is None:
        embeddings = "no embeddings counted"
    elif tied:
        embeddings = "tied embeddings: vocab·d counted once"
    else:
        embeddings = "untied embeddings: input and output vocab·d each"
    return f"counted {arch.style}-style, {embeddings}, no biases or norms"


def _consistency_checked(fields: Input) -> bool:
    return (fields.hidden is not None and fields.heads is not None) or (
        fields.heads is not None and fields.kv_heads is not None
    )


def _in_units_of(value: float, stated: Printed) -> str:
    """``value`` in the unit of the stated size, to 2 significant digits (``0.82B``)."""
    if stated.unit is None:
        return count_text(value)
    scaled = value / stated.scale
    magnitude = math.floor(math.log10(abs(scaled))) if scaled else 0
    decimals = max(0, 1 - magnitude)
    spacer = " " if stated.spaced_unit else ""
    return f"{scaled:.{decimals}f}{spacer}{stated.unit.symbol}"
