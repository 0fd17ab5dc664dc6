"""The quantities a lesson section names: its scope, read from prose, tables, code and models.

A relation between numbers (a Transformer formula) checks a statement against what
the lesson has already said: "32 heads of 128 dimensions", ``num_hidden_layers: 32``, a table
with a layers column, "LLaMA-2 7B". This module reads those statements once per section
(:attr:`checkers.extract.document.Block.section`) into a :class:`Scope` of :class:`Quantity`.

**A role is read from the words next to the number, never guessed from its magnitude.** ``4096``
alone is nothing; ``4096 tokens``, ``hidden size 4096``, ``d_model = 4096`` and a ``4096`` under
a ``Hidden`` header are. Single letters (``L``, ``d``, ``N``, ``h``, ``r``) name a role only
where the text defines them (``L = 32 layers``, ``where d is the hidden size``, ``层数 L``), and
then only within that section. Ordinals are not counts: ``layer 5``, ``第 5 层``, ``head 3``.

Roles and their spellings (English and Chinese; identifiers as configs and code write them,
matched whole, case-insensitively, with ``=``, ``:`` or ``"key": value`` before the number):

=================  ==============================================================================
role               spellings
=================  ==============================================================================
``layers``         N layers, N-layer, N transformer/decoder blocks, N 层, 层数 N, number of layers
                   N; num_hidden_layers, n_layer(s), num_layers, n_layers
``heads``          N heads, N attention heads, N 个(注意力)头, 头数 N, number of heads N;
                   num_attention_heads, n_head(s), num_heads
``kv_heads``       N KV heads, N key-value heads, N KV 头, N groups (GQA), KV heads N; MQA (1);
                   num_key_value_heads, n_kv_heads, num_kv_heads, n_kv_head
``hidden``         hidden size/dim(ension) N, model dimension/width N, d_model N, N-dim(ensional)
                   hidden, 隐藏(层)维度 N, 模型维度 N, 隐藏层大小 N; hidden_size, d_model, n_embd,
                   dim, embed_dim, d_embed
``head_dim``       head dim(ension)/size N, N dimensions per head, per-head dim N, 每个头 N 维,
                   头维度 N, heads of dimension N; head_dim, d_head, d_k, head_size
``d_ff``           FFN/MLP (hidden/intermediate) size/dim(ension) N, intermediate size N,
                   前馈/中间层维度 N; intermediate_size, d_ff, ffn_dim, ffn_hidden_size,
                   dim_feedforward
``expert_d_ff``    per-expert FFN width (moe_intermediate_size, moe_d_ff; published configs)
``vocab``          vocab(ulary) (size) N, a vocabulary of N tokens, 词表(大小) N; vocab_size,
                   n_vocab
``context``        context (length/window) N, N-token context, 32K context, sequence length N,
                   上下文(长度/窗口) N, 序列长度 N; max_position_embeddings, seq_len, seq_length,
                   max_seq_len, context_length, n_ctx, block_size, n_positions, max_len
``batch``          batch size N, batch of N, 批大小/批量大小 N; batch_size, bsz
``dtype``          a storage type named in the text (fp32, fp16, bf16, int8…: the one table,
                   ``checkers/data/dtypes.yaml``); its value is bytes per number
``bytes_per_value``  N bytes per parameter/value/element/weight, N 字节/参数
``params``         N parameters/params, a 7B model, N 参数, 参数量 N, 70 亿参数; n_params,
                   num_params
``active_params``  N active (parameters), 激活参数 N
``shared_params``  N shared parameters (what every token uses in a mixture of experts:
                   attention, embeddings, router), shared parameters N, 共享参数 N
``tokens``         N tokens, N 个 token (not a vocabulary or context, not tokens per second)
``flops``          N FLOPs (a FLOP unit printed with the number)
``peak_flops``     N TFLOPS, N TFLOP/s, N PFLOPS (throughput)
``memory``         a size printed with a byte unit (14 GB, 512 KiB, 4096 字节)
``gpus``           N GPUs, N 张卡/N 块 GPU, N 卡, N × A100/H100
``lora_rank``      rank (r) N, LoRA rank N, r = N on a line that names LoRA or rank (or in a
                   section that names LoRA and writes r · (d_in + d_out) or r × d_in), 秩 N;
                   lora_r, lora_rank
``experts``        N experts, N 个专家, N routed experts; num_experts, num_local_experts,
                   n_routed_experts
``expert_params``  one expert's size: experts of (size) 7B, 7B experts, each expert has 7B,
                   每个专家 7B
``top_k``          top-N, N experts per token, routed to N experts, N of M experts, N of them per
                   token, 激活 N 个专家;
                   num_experts_per_tok, top_k, moe_top_k
``peak_lr``        a learning rate's peak: η_max = N, peak (lr/learning rate) N, max_lr N, 峰值
                   (学习率) N, 最大学习率 N; lr_max, max_lr, peak_lr (a rate: below 1, no unit)
``min_lr``         its floor: η_min = N, floor of N, minimum lr N, decay to N, 最小值/最小学习率/
                   下限 N; lr_min, min_lr, eta_min
``warmup_steps``   warmup over/of/for N steps, warmup w = N, N warmup steps, 预热 N 步;
                   warmup_steps, num_warmup_steps
``total_steps``    total (training) steps N, T = N (steps), 总步数 (T =) N, decay … at step N;
                   total_steps, max_steps, num_training_steps
=================  ==============================================================================

A model named in the text (``LLaMA-2 7B``, ``GPT-2 XL``, ``Mixtral 8x7B``: the model table,
:func:`checkers.data.find_model`) brings its published configuration into scope, each number
marked as published (:attr:`Quantity.model`), located at the name. :meth:`Scope.value` prefers
what the lesson states to what a named model publishes.

Written by hand because no library reads the roles of numbers in lesson prose; the patterns are
precompiled, and a line without a digit (or, for models, without a family name) costs one scan.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from checkers.data import ModelSpec, dtype_table, model_table, parse_count
from checkers.data.entries import fold
from checkers.extract.document import Block, Document, Line
from checkers.extract.latex import plain
from checkers.numbers import NumberError, Printed, parse_printed

__all__ = [
    "ROLES",
    "Quantity",
    "Scope",
    "Source",
    "mentions_model",
    "read_quantities",
    "scope_of",
    "scopes",
    "section_scope",
]

Source = Literal["prose", "heading", "table", "code", "math", "model"]
"""Where a quantity was read: running text, a heading, a table cell, a fenced (code, config or
output) block, a math block, or a named model's published configuration."""

ROLES: tuple[str, ...] = (
    "layers",
    "heads",
    "kv_heads",
    "hidden",
    "head_dim",
    "d_ff",
    "expert_d_ff",
    "expert_params",
    "vocab",
    "context",
    "batch",
    "dtype",
    "bytes_per_value",
    "params",
    "active_params",
    "shared_params",
    "tokens",
    "flops",
    "peak_flops",
    "memory",
    "gpus",
    "lora_rank",
    "experts",
    "top_k",
    "peak_lr",
    "min_lr",
    "warmup_steps",
    "total_steps",
)
"""Every role a quantity may have (see the module docstring for their spellings)."""


@dataclass(frozen=True)
class Quantity:
    """One named quantity of a section."""

    role: str
    """What it is: one of :data:`ROLES`."""
    printed: Printed
    """Its value as printed (for ``dtype``: the bytes per number of the named type)."""
    unit: str
    """The unit printed with the number (``B``, ``K``, ``GB``, ``亿``, ``TFLOPS``), "" if none."""
    line: int
    """1-based lesson line of the number (of the model name, for published values)."""
    column: int
    """1-based column of the number in that line (of the model name, for published values)."""
    source: Source
    """Where it was read."""
    written: str
    """The words that name it, as written (``32 heads``, ``num_hidden_layers: 32``, ``fp16``)."""
    model: str = ""
    """The key of the named model whose published configuration gave it; "" when the lesson
    states it."""
    dtype: str = ""
    """For ``dtype``: the canonical type name (``fp16``); "" otherwise."""
    row: int = 0
    """For a table cell: the 1-based line of its row (quantities of one row belong together)."""
    assigned: bool = False
    """Read from an identifier assignment (``moe_intermediate_size=2048``, ``n_heads = 32``): a
    configuration the lesson prints, which names its quantity wherever in the lesson."""

    @property
    def value(self) -> float:
        """The value in base units (ones, bytes, FLOPs)."""
        return self.printed.value

    @property
    def published(self) -> bool:
        """True when the value comes from a named model's published configuration."""
        return bool(self.model)

    def describe(self) -> str:
        """``heads 32 (line 12)``, ``fp16 (line 13)``, ``layers 32 (LLaMA-2 7B's published
        configuration, named on line 3)``: the value and where it was read, for messages."""
        shown = self.dtype or self.printed.text
        where = (
            f"{_model_name(self.model)}'s published configuration, named on line {self.line}"
            if self.model
            else f"line {self.line}"
        )
        label = "" if self.role == "dtype" else f"{self.role} "
        return f"{label}{shown} ({where})"


def _has_size(key: str, size: float) -> bool:
    """True when the model's published sizes (``70B``) include ``size`` parameters."""
    spec = model_table().by_key(key)
    if spec is None:
        return False
    counts = [parse_count(s) for s in spec.sizes]
    return any(c is not None and c.value == size for c in counts)


def _model_name(key: str) -> str:
    spec = model_table().by_key(key)
    return spec.name if spec is not None else key


@dataclass(frozen=True)
class Scope:
    """The quantities of one section, in lesson order."""

    section: int
    """The section number (:attr:`checkers.extract.document.Block.section`)."""
    quantities: tuple[Quantity, ...]
    """Every quantity read in it."""
    text: str = ""
    """The section's text, line by line as written: the words that settle a convention
    (SwiGLU, tied embeddings, mixed precision) are looked up in it."""
    configuration: Callable[[], tuple[Quantity, ...]] | None = field(
        default=None, compare=False, repr=False
    )
    """The identifier assignments of the whole lesson (:attr:`Quantity.assigned`), read when
    first asked for: a configuration printed in one section is the lesson's."""
    lesson_models: Callable[[], tuple[Quantity, ...]] | None = field(
        default=None, compare=False, repr=False
    )
    """The published configurations of every model the whole lesson names, read when first
    asked for: "a 70B model" in one section is the 70B model the lesson names in another."""

    def named_model(self, role: str, size: float, before: int) -> Quantity | None:
        """The published value of ``role`` of the model the lesson names whose size is
        ``size`` parameters (one model, or several that agree), named anywhere in the lesson;
        None when the lesson names none of that size or they disagree."""
        if self.lesson_models is None:
            return None
        models = self.lesson_models()
        keys = {key for key in {q.model for q in models} if _has_size(key, size)}
        found = [q for q in models if q.role == role and q.model in keys]
        found.sort(key=lambda q: (q.line > before, q.line))
        return found[0] if found and len({q.value for q in found}) == 1 else None

    def of(self, role: str) -> tuple[Quantity, ...]:
        """Every quantity of ``role``, in lesson order."""
        return tuple(q for q in self.quantities if q.role == role)

    def value(self, role: str, *, before: int | None = None) -> Quantity | None:
        """The one value of ``role`` the section gives, or None when it gives none or several.

        What the lesson states (in prose, code or a config; a table's rows are many values, so
        they never count) comes first: when every such statement agrees, the first is returned.
        Only when the lesson states none does a named model's published value count, if the
        models named agree. ``before`` keeps quantities read on lines up to it (a statement
        relates to what was said before or on its line)."""
        found = [
            q
            for q in self.quantities
            if q.role == role and (before is None or q.line <= before) and q.source != "table"
        ]
        stated = [q for q in found if not q.published]
        for candidates in (stated, [q for q in found if q.published]):
            if candidates:
                first = candidates[0]
                key = first.dtype or first.value
                if all((q.dtype or q.value) == key for q in candidates):
                    return first
                return None
        return self._configured(role, before)

    def _configured(self, role: str, before: int | None) -> Quantity | None:
        """The lesson's one configured value of ``role`` (a key or variable it assigns in any
        section before ``before``), when the section states none."""
        if self.configuration is None:
            return None
        found = [
            q
            for q in self.configuration()
            if q.role == role and (before is None or q.line <= before)
        ]
        return found[0] if found and len({q.value for q in found}) == 1 else None

    def models(self) -> tuple[str, ...]:
        """Keys of the models named in the section, in order of first mention."""
        return tuple(dict.fromkeys(q.model for q in self.quantities if q.model))

    def printed_models(self) -> tuple[str, ...]:
        """Keys of the published models whose configuration the lesson prints as its own: at
        least four of its layers, hidden, heads, d_ff, expert_d_ff and vocab assigned with the
        model's values (``hidden_size: 7168``, ``intermediate_size: 18432``, …), and of those
        the ones that match the most (a lesson that prints LLaMA-2 7B's d_ff and vocab besides
        the three values GPT-3 6.7B shares with it prints LLaMA's). A lesson that
        prints DeepSeek-V3's config follows DeepSeek-V3's conventions (a gated FFN) in every
        section, named there or not; the roles themselves are still read from the keys."""
        if self.configuration is None:
            return ()
        values: dict[str, set[float]] = {}
        for q in self.configuration():
            values.setdefault(q.role, set()).add(q.value)
        stated = {role: next(iter(v)) for role, v in values.items() if len(v) == 1}
        if len(stated) < _PRINTED_MATCHES:
            return ()
        found: list[tuple[int, str]] = []
        for spec in model_table().models:
            published = {
                "layers": spec.layers,
                "hidden": spec.hidden,
                "heads": spec.heads,
                "d_ff": spec.d_ff,
                "expert_d_ff": spec.moe_d_ff,
                "vocab": spec.vocab,
            }
            same = sum(
                1 for role, v in published.items() if v is not None and stated.get(role) == v
            )
            if same >= _PRINTED_MATCHES:
                found.append((-same, spec.key))
        best = min((count for count, _ in found), default=0)
        return tuple(key for count, key in found if count == best)  # the closest matches


_PRINTED_MATCHES = 4
"""Configured values that must equal a model's published ones for the lesson to be printing
that model's configuration (up to three coincide between models of different designs: GPT-3
6.7B and LLaMA-2 7B are both 32 layers of width 4096 with 32 heads)."""


# --- spellings ------------------------------------------------------------------------------

# Identifiers as configs and code write them: matched whole, before "=", ":" or '": '.
_IDENTIFIERS: dict[str, tuple[str, ...]] = {
    "layers": ("num_hidden_layers", "n_layer", "n_layers", "num_layers", "n_layers_total"),
    "heads": ("num_attention_heads", "n_head", "n_heads", "num_heads"),
    "kv_heads": ("num_key_value_heads", "n_kv_heads", "num_kv_heads", "n_kv_head", "kv_heads"),
    "hidden": ("hidden_size", "d_model", "n_embd", "dim", "embed_dim", "d_embed", "model_dim"),
    "head_dim": ("head_dim", "d_head", "d_k", "head_size", "dim_head"),
    "d_ff": ("intermediate_size", "d_ff", "ffn_dim", "ffn_hidden_size", "dim_feedforward"),
    "expert_d_ff": ("moe_intermediate_size", "moe_d_ff", "expert_intermediate_size"),
    "vocab": ("vocab_size", "n_vocab", "vocabulary_size"),
    "context": (
        "max_position_embeddings",
        "seq_len",
        "seq_length",
        "max_seq_len",
        "max_seq_length",
        "context_length",
        "context_len",
        "n_ctx",
        "block_size",
        "n_positions",
        "max_len",
        "sequence_length",
    ),
    "batch": ("batch_size", "bsz", "micro_batch_size"),
    "params": ("n_params", "num_params", "num_parameters", "n_parameters"),
    "lora_rank": ("lora_r", "lora_rank", "lora_dim"),
    "experts": ("num_experts", "num_local_experts", "n_routed_experts", "n_experts"),
    "top_k": ("num_experts_per_tok", "top_k", "moe_top_k", "topk", "experts_per_token"),
    "gpus": ("num_gpus", "n_gpus", "world_size"),
}

# Words after a number that name its role (the number comes first: "32 heads").
_AFTER_ROLES: tuple[tuple[str, str], ...] = (
    ("kv_heads", r"(?:KV|key[\s-]*value|K/V)[\s-]*(?:attention\s+)?heads?\b|个?\s*KV\s*头"),
    ("kv_heads", r"(?:KV\s+)?groups?\b(?=[^.。\n]{0,40}\b(?:GQA|grouped))|个?\s*(?:KV\s*)?组"),
    ("head_dim", r"(?:dimensions?|dims?)\s+(?:per|for\s+each|each)\s+head\b|维每个?头"),
    ("layers", r"[\s-]*(?:transformer\s+|decoder\s+|encoder\s+|hidden\s+)?(?:layers?|blocks)\b"),
    ("layers", r"个?\s*(?:Transformer\s*)?(?:层|块)(?![数级次面])"),
    (
        "heads",
        r"[\s-]*(?:attention\s+|query\s+|Q\s+)?heads?\b|个?\s*(?:注意力\s*|查询\s*)?头(?![维大数])",
    ),
    ("top_k", r"(?:active|activated|routed)\s+experts?\b|个?\s*激活专家"),
    ("top_k", r"of\s+them\s+(?:per|for\s+each|for\s+every)\s+token\b"),
    ("top_k", r"experts?\s+(?:per\s+token|active|are\s+active|activated)\b"),
    ("experts", r"[\s-]*(?:routed\s+|MoE\s+)?experts?\b|个?\s*(?:路由)?专家"),
    ("active_params", r"(?:active|activated)(?:\s+param(?:eter)?s)?\b(?!\s+experts?)|激活参数"),
    ("shared_params", r"shared\s+param(?:eter)?s\b|个?共享参数"),
    # Chinese runs on without spaces ("7B 模型生成", "70 亿参数的"): no word boundary after it.
    ("params", r"[\s-]*(?:(?:parameters?|params?|model)\b|个?参数|参数量|模型)"),
    ("vocab", r"[\s-]*(?:token\s+)?vocab(?:ulary)?\b|(?:个\s*)?词(?:表|汇表)"),
    ("context", r"[\s-]*(?:tokens?[\s-]+)?(?:context|上下文)"),
    ("gpus", r"(?:GPUs?\b|个?\s*GPU|张\s*(?:卡|GPU|A100|H100)|块\s*(?:GPU|卡)|卡)"),
    ("batch", r"(?:concurrent\s+|parallel\s+)?(?:users|requests|sequences|conversations)\b"),
    ("batch", r"(?:个|条)?\s*(?:这样的\s*)?(?:并发(?:请求|用户)?|请求|序列|对话)"),
    ("tokens", r"(?:个\s*)?tokens?\b(?!\s*(?:/\s*s|per\s+sec|每秒))"),
)

# Words before a number that name its role ("hidden size of 4096").
_BEFORE_ROLES: tuple[tuple[str, str], ...] = (
    ("kv_heads", r"(?:KV|key[\s-]*value)\s+heads?|KV\s*头数?|GQA\s+(?:with\s+)?groups?"),
    ("head_dim", r"head\s+(?:dim(?:ension)?|size|width)|per[\s-]head\s+(?:dim(?:ension)?|size)"),
    ("head_dim", r"heads?\s+of\s+(?:dim(?:ension)?|size|width)|每个?头(?:分到|各|有|是)?|头维度"),
    (
        "d_ff",
        r"(?:FFN|MLP|feed[\s-]*forward)\s+(?:hidden\s+|inner\s+|intermediate\s+)?"
        r"(?:size|dim(?:ension)?|width)|intermediate\s+(?:size|dim(?:ension)?)",
    ),
    ("d_ff", r"(?:前馈|中间层|FFN)\s*(?:层)?\s*(?:维度|大小)"),
    ("hidden", r"hidden\s+(?:size|dim(?:ension)?|width)|model\s+(?:dim(?:ension)?|width|size)"),
    ("hidden", r"embedding\s+(?:size|dim(?:ension)?)|隐藏\s*(?:层)?\s*(?:维度|大小)|模型维度"),
    ("layers", r"(?:number\s+of\s+layers|layer\s+count)|层数"),
    ("heads", r"(?:number\s+of\s+(?:attention\s+)?heads)|头数|注意力头数"),
    ("vocab", r"vocab(?:ulary)?(?:\s+size)?(?:\s+of)?|词(?:表|汇表)(?:大小)?"),
    ("context", r"context(?:\s+(?:length|window|size))?|seq(?:uence)?[\s_-]+len(?:gth)?"),
    ("context", r"上下文(?:长度|窗口)?|序列长度|最大长度"),
    ("batch", r"batch(?:\s+size)?(?:\s+of)?|批(?:量)?大小|批次大小"),
    ("lora_rank", r"(?:LoRA\s+)?rank(?:\s+r)?|秩"),
    ("params", r"参数量|参数规模|parameter\s+count|total\s+parameters"),
    ("active_params", r"激活参数(?:量)?|active\s+parameters"),
    ("shared_params", r"shared\s+param(?:eter)?s(?:\s+of)?|共享参数(?:量)?"),
    ("top_k", r"top[\s_-]*k|routed\s+to|激活"),
    ("expert_params", r"experts?\s+of\s+(?:size\s+)?|each\s+expert\s+(?:has|is|of)\s+|每个专家"),
    ("experts", r"number\s+of\s+experts|专家数(?:量)?"),
)

# Between a role's words and its number: a defined letter, "=", ":", "of", "is", 为, 是…
_LINK = (
    r"(?:\s*\(?\$?[A-Za-z](?:_\{?\w+\}?)?\$?\)?(?![A-Za-z]))?"
    r"\s*(?:[=:＝：]|\bof\b|\bis\b|为|是)?\s*(?:约|about\s+)?"
)

_UNITS = (
    r"TFLOP/s|PFLOP/s|GFLOP/s|TFLOPS|PFLOPS|GFLOPS|[KMGTPE]?FLOPs?|[KMGTP]iB|[KMGTP]B|bytes?"
    r"|字节|万亿|亿|万|千|thousand|million|billion|trillion|[KMBTk]"
)
_NUMBER = re.compile(
    r"(?<![\w.,])(?<![\w.]-)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d.,]\d)"
    rf"(?:\s*({_UNITS})(?![A-Za-z]))?"
)
_AFTER = re.compile(
    r"\s*(?:" + "|".join(f"(?P<a{i}>{p})" for i, (_, p) in enumerate(_AFTER_ROLES)) + ")",
    re.IGNORECASE,
)
_BEFORE = re.compile(
    r"(?:(?<![A-Za-z_])|(?<=\s))(?:"
    + "|".join(f"(?P<b{i}>{p})" for i, (_, p) in enumerate(_BEFORE_ROLES))
    + ")"
    + _LINK,
    re.IGNORECASE,
)
_ALL_IDENTIFIERS = {name: role for role, names in _IDENTIFIERS.items() for name in names}
_ASSIGNED = re.compile(
    r"(?<![\w.])[\"']?(" + "|".join(sorted(_ALL_IDENTIFIERS, key=len, reverse=True)) + r")[\"']?"
    r"(?:\s*(?::|=|:=)\s*[\"']?|\s+)",
    re.IGNORECASE,
)
_ORDINAL_BEFORE = re.compile(r"(?:第|layer|head|block|step|epoch|#)\s*$", re.IGNORECASE)
_FLOP_UNIT = re.compile(r"^[KMGTPE]?FLOPs?$", re.IGNORECASE)
_PEAK_UNIT = re.compile(r"FLOP/s|FLOPS$")
_BYTE_UNIT = re.compile(r"^(?:[KMGTP]i?B|bytes?|字节)$", re.IGNORECASE)
_TOP = re.compile(r"(?<![A-Za-z])top[\s_-]*(\d+)\b(?!\.\d)", re.IGNORECASE)
_PER_VALUE = re.compile(
    r"\s*(?:per|/|每|each\b)\s*(?:个)?(?:param|value|参数|数|element|number|weight)",
    re.IGNORECASE,
)
_OF_EXPERTS = re.compile(
    r"(?<![\w.])(\d+)\s+(?:out\s+)?of\s+(?:the\s+|its\s+)?(\d+)\s+(?:routed\s+)?experts?\b",
    re.IGNORECASE,
)
_MQA = re.compile(r"\b(?:MQA|multi[\s-]query\s+attention)\b")
_ACCEL_TIMES = re.compile(r"^\s*[×x*]\s*(?:A100|H100|H200|V100|A800|H800|B200|GPU)", re.IGNORECASE)

# A letter defined as a role: "where d is the hidden size", "L = 32 layers" (handled as a
# number followed by its role), "层数 L", "number of layers (L)".
_ROLE_PHRASES: tuple[tuple[str, str], ...] = (
    ("layers", r"(?:the\s+)?(?:number\s+of\s+)?(?:transformer\s+)?layers|层数"),
    ("kv_heads", r"(?:the\s+)?(?:number\s+of\s+)?(?:KV|key[\s-]*value)\s+heads|KV\s*头数"),
    ("heads", r"(?:the\s+)?(?:number\s+of\s+)?(?:attention\s+)?heads|头数"),
    ("head_dim", r"(?:the\s+)?(?:per[\s-]head\s+|head\s+)(?:dimension|dim|size|width)|头维度"),
    (
        "d_ff",
        r"(?:the\s+)?(?:FFN|MLP|feed[\s-]*forward|intermediate)\s+(?:hidden\s+)?"
        r"(?:size|dimension|dim|width)",
    ),
    (
        "hidden",
        r"(?:the\s+)?(?:hidden|model|embedding)\s+(?:size|dimension|dim|width)"
        r"|隐藏(?:层)?维度|模型维度",
    ),
    ("vocab", r"(?:the\s+)?vocab(?:ulary)?(?:\s+size)?|词表大小"),
    ("context", r"(?:the\s+)?(?:context|sequence)\s+(?:length|window)|序列长度|上下文长度"),
    ("batch", r"(?:the\s+)?batch\s+size|批大小"),
    (
        "params",
        r"(?:the\s+)?(?:number\s+of\s+)?param(?:eter)?s|(?:the\s+)?parameter\s+count|参数量",
    ),
    ("tokens", r"(?:the\s+)?(?:number\s+of\s+)?(?:training\s+)?tokens"),
    ("lora_rank", r"(?:the\s+)?(?:LoRA\s+)?rank|秩"),
    ("experts", r"(?:the\s+)?(?:number\s+of\s+)?experts|专家数"),
)
_PHRASE = "|".join(f"(?P<p{i}>{p})" for i, (_, p) in enumerate(_ROLE_PHRASES))
_SYMBOL = r"\$?(?P<letter>[A-Za-z](?:_\{?[A-Za-z]+\}?)?)\$?"
# Definitions are found from their cheapest part (a verb, a bracket, a Chinese role word), and
# the rest is matched next to it: an alternation tried at every position of every line would
# cost more than all the other reading.
_VERB = re.compile(r"\b(?:is|denotes)\b|[=为是]|表示")
_PHRASE_AT = re.compile(rf"\s*(?:{_PHRASE})(?![A-Za-z])", re.IGNORECASE)
_SYMBOL_BEFORE = re.compile(rf"(?<![A-Za-z_\\]){_SYMBOL}\s*$")
_SYMBOL_IN_BRACKETS = re.compile(rf"\(\s*{_SYMBOL}\s*\)")
_PHRASE_BEFORE = re.compile(rf"(?:{_PHRASE})\s*$", re.IGNORECASE)
_CJK_SYMBOL = re.compile(
    r"(?P<cjk>层数|KV\s*头数|头数|头维度|隐藏(?:层)?维度|模型维度|词表大小|序列长度|上下文长度|批大小"
    rf"|参数量|秩|专家数)\s*{_SYMBOL}(?![A-Za-z0-9_])"
)
_CJK_ROLES = {
    "层数": "layers",
    "头数": "heads",
    "头维度": "head_dim",
    "隐藏维度": "hidden",
    "隐藏层维度": "hidden",
    "模型维度": "hidden",
    "词表大小": "vocab",
    "序列长度": "context",
    "上下文长度": "context",
    "批大小": "batch",
    "参数量": "params",
    "秩": "lora_rank",
    "专家数": "experts",
}
_DIGIT = re.compile(r"\d")
# Words that every pattern of a kind contains (lower case): a line holding none of them is not
# searched with it. Python's re tries an alternation at every position; ``in`` is a fast scan.
_DEFINITION_WORDS = (
    "layer",
    "head",
    "size",
    "dim",
    "width",
    "vocab",
    "length",
    "window",
    "param",
    "token",
    "rank",
    "expert",
    "层数",
    "头数",
    "维度",
    "词表",
    "长度",
    "大小",
    "参数",
    "秩",
    "专家",
)
_BEFORE_WORDS = (
    "kv",
    "key",
    "gqa",
    "head",
    "ffn",
    "mlp",
    "feed",
    "intermediate",
    "hidden",
    "model",
    "embedding",
    "layer",
    "vocab",
    "context",
    "seq",
    "batch",
    "rank",
    "param",
    "active",
    "shared",
    "共享",
    "top",
    "routed",
    "expert",
    "头",
    "维",
    "前馈",
    "中间",
    "隐藏",
    "层数",
    "词",
    "上下文",
    "序列",
    "长度",
    "批",
    "秩",
    "参数",
    "激活",
    "专家",
)
_IDENTIFIER_WORDS = (
    "layer",
    "head",
    "hidden",
    "model",
    "embd",
    "dim",
    "d_",
    "size",
    "ffn",
    "vocab",
    "position",
    "seq",
    "ctx",
    "len",
    "bsz",
    "batch",
    "param",
    "lora",
    "expert",
    "top",
    "gpu",
    "world",
)


def _mentions(lower: str, words: tuple[str, ...]) -> bool:
    return any(word in lower for word in words)


_CODE_INFOS = frozenset(
    {"python", "py", "python3", "yaml", "yml", "json", "toml", "ini", "bash", "sh", "js", "ts"}
)


@lru_cache(maxsize=1)
def _dtype_pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in dtype_table().written)
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{names})(?![A-Za-z0-9_])", re.IGNORECASE)


@lru_cache(maxsize=1)
def _family_pattern() -> re.Pattern[str]:
    # One alternation of every family's own pattern: a line without a model name costs one scan.
    return re.compile("|".join(f"(?:{f.pattern})" for f in model_table().families))


@lru_cache(maxsize=1)
def _family_words() -> tuple[str, ...]:
    """The leading literal of each family pattern (``gpt``, ``llama``), or "" (which every
    line mentions) for a pattern that opens otherwise."""
    words = []
    for family in model_table().families:
        pattern = re.sub(r"^(?:\(\?<?[!=][^)]*\))+", "", family.pattern)
        literal = re.match(r"[a-z0-9]{2,}", pattern)
        words.append(literal.group(0) if literal else "")
    return tuple(words)


def mentions_model(text: str) -> bool:
    """True when ``text`` names a model of the model table (``Llama 3 70B``, ``GPT-2 XL``): a
    figure stated before it may be another model's."""
    return _mentions(text.lower(), _family_words()) and (
        _family_pattern().search(fold(text)) is not None
    )


def _role_of(match: re.Match[str], roles: tuple[tuple[str, str], ...], prefix: str) -> str:
    name = match.lastgroup or ""
    if not name.startswith(prefix):  # an inner named group cannot be last: groups are flat
        name = next(k for k, v in match.groupdict().items() if v is not None and k[0] == prefix)
    return roles[int(name[1:])][0]


def _first_group(match: re.Match[str], prefix: str) -> str | None:
    for key, value in match.groupdict().items():
        if value is not None and key.startswith(prefix):
            return key
    return None


# --- reading --------------------------------------------------------------------------------


def _printed(written: str, digits: str, unit: str) -> Printed | None:
    """The number as printed (``written``: digits and unit as in the text); a unit the number
    reader does not know (``TFLOPS``) is kept in :attr:`Quantity.unit` only."""
    for text in (written, digits) if unit and not _PEAK_UNIT.search(unit) else (digits,):
        try:
            return parse_printed(text)
        except NumberError:
            continue
    return None


def _source_of(block: Block) -> Source:
    if block.kind == "table":
        return "table"
    if block.kind == "heading":
        return "heading"
    if block.kind == "math":
        return "math"
    if block.kind == "fence":
        return "code"
    return "prose"


def _letters(blocks: tuple[Block, ...]) -> dict[str, str]:
    """Symbols the section defines as roles: ``where d is the hidden size``, ``the number of
    layers (L)``, ``层数 L`` (d: hidden, L: layers)."""
    defined: dict[str, str] = {}
    for block in blocks:
        for line in block.lines:
            text = line.text
            if not _mentions(text.lower(), _DEFINITION_WORDS):
                continue
            for symbol, role in _definitions(text):
                defined.setdefault(symbol.replace("{", "").replace("}", ""), role)
    return defined


def _definitions(text: str) -> Iterator[tuple[str, str]]:
    for verb in _VERB.finditer(text):
        phrase = _PHRASE_AT.match(text, verb.end())
        symbol = _SYMBOL_BEFORE.search(text, max(0, verb.start() - 12), verb.start())
        if phrase is not None and symbol is not None:
            key = _first_group(phrase, "p")
            if key is not None:
                yield symbol.group("letter"), _ROLE_PHRASES[int(key[1:])][0]
    for bracket in _SYMBOL_IN_BRACKETS.finditer(text):
        phrase = _PHRASE_BEFORE.search(text, max(0, bracket.start() - 48), bracket.start())
        if phrase is not None:
            key = _first_group(phrase, "p")
            if key is not None:
                yield bracket.group("letter"), _ROLE_PHRASES[int(key[1:])][0]
    for named in _CJK_SYMBOL.finditer(text):
        role = _CJK_ROLES.get(re.sub(r"\s+", "", named.group("cjk")).replace("KV头数", "头数"))
        if named.group("cjk").startswith("KV"):
            role = "kv_heads"
        if role is not None:
            yield named.group("letter"), role


def _line_quantities(
    line: Line,
    source: Source,
    column0: int,
    letters: re.Pattern[str] | None,
    defined: dict[str, str],
    lora: bool,
) -> Iterator[Quantity]:
    text = line.text
    taken: set[int] = set()
    for match in _OF_EXPERTS.finditer(text):  # "2 of 64 experts": top-k of the experts
        for group, role in ((1, "top_k"), (2, "experts")):
            printed = _printed(match.group(group), match.group(group), "")
            if printed is not None:
                taken.add(match.start(group))
                yield Quantity(
                    role,
                    printed,
                    "",
                    line.number,
                    column0 + match.start(group) + 1,
                    source,
                    match.group(0),
                )
    for match in _TOP.finditer(text):
        printed = _printed(match.group(1), match.group(1), "")
        if printed is not None and match.start(1) not in taken:
            taken.add(match.start(1))
            yield Quantity(
                "top_k",
                printed,
                "",
                line.number,
                column0 + match.start(1) + 1,
                source,
                match.group(0),
            )
    if _MQA.search(text):
        mqa = _MQA.search(text)
        assert mqa is not None
        yield Quantity(
            "kv_heads",
            parse_printed("1"),
            "",
            line.number,
            column0 + mqa.start() + 1,
            source,
            mqa.group(0),
        )
    if "10" in text or "e" in text:
        for match in _SCIENTIFIC_COUNT.finditer(text):
            printed = _printed(match.group("number"), match.group("number"), "")
            if printed is None:
                continue
            taken.update(m.start() for m in _NUMBER.finditer(text, match.start(), match.end()))
            yield Quantity(
                "params",
                printed,
                "",
                line.number,
                column0 + match.start() + 1,
                source,
                match.group(0),
            )
    for match in _dtype_pattern().finditer(text):
        entry = dtype_table().find(match.group(0))
        if entry is not None:
            yield Quantity(
                "dtype",
                parse_printed(f"{entry.bytes:g}"),
                "",
                line.number,
                column0 + match.start() + 1,
                source,
                match.group(0),
                dtype=entry.name,
            )
    # Role words before a number end where it starts: found once per line, looked up by end.
    lower = text.lower()
    words_before = _ends(_BEFORE, text) if _mentions(lower, _BEFORE_WORDS) else {}
    assigned = _ends(_ASSIGNED, text) if _mentions(lower, _IDENTIFIER_WORDS) else {}
    letter_ends = _ends(letters, text) if letters is not None else {}
    for match in _NUMBER.finditer(text):
        if match.start() in taken:
            continue
        digits = match.group(1) + (match.group(2) or "")
        unit = match.group(3) or ""
        before = text[max(0, match.start() - 12) : match.start()]
        after = text[match.end() : match.end() + 48]
        start = match.start()
        if _OPERATOR_AFTER.match(text, match.end()):
            continue  # "每个头 5120 ÷ 40 = 64 维": an operand of the expression, not its value
        read = _role(
            before,
            after,
            unit,
            (words_before.get(start), assigned.get(start), letter_ends.get(start)),
            defined,
            lora,
        )
        if read is None or (read[0] == "heads" and _GROUP_BEFORE.search(before)):
            continue  # "each KV head serves 4 query heads": a group's size, not the model's heads
        printed = _printed(match.group(0), digits, unit)
        if printed is None:
            continue
        role, left, right = read
        by_name = right == "="  # the marker _role gives an identifier assignment
        right = "" if by_name else right
        written = re.sub(r"\s+", " ", (left + match.group(0) + right).strip())
        yield Quantity(
            role,
            printed,
            unit,
            line.number,
            column0 + match.start() + 1,
            source,
            written,
            assigned=by_name,
        )


_SCIENTIFIC_COUNT = re.compile(
    r"(?<![\w.×*^])(?P<number>\d+(?:\.\d+)?\s*[×x*]\s*10(?:\^\{?\d{1,2}\}?|[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2})"
    r"|\d+(?:\.\d+)?e\d{1,2})\s*(?:parameters?|params|个?参数)(?![\w])",
    re.IGNORECASE,
)
"""A parameter count written in scientific notation before its word (``7 × 10⁹ parameters``,
``1.3e9 params``): the number reader of :data:`_NUMBER` sees only its digits."""
_GROUP_BEFORE = re.compile(
    r"(?:服务|对应|负责|分到|每组|serves|covers|is\s+shared\s+by|shared\s+by|groups?\s+of)\s*$",
    re.IGNORECASE,
)
_OPERATOR_AFTER = re.compile(r"\s*[÷/×*+−]\s*\(?\s*\d")
_OPERAND = re.compile(r"[-+*/×÷·(]\s*$")
_GLOSS_OPEN = re.compile(r"[A-Za-z\u4e00-\u9fff]\s+\(\s*$")
"""A bracket opened after a word and a space: a gloss ("the MLP block (d_ff = 8192)"), not a
group of arithmetic ("(hidden / num_heads)")."""


_COUNTED_ALREADY = re.compile(r"\d\s*$")
"""Role words right after a number (``8 KV heads``): that number is their count."""
_OF_LINK = re.compile(r"\bof\s*$", re.IGNORECASE)
_COUNT_ROLES = frozenset({"heads", "kv_heads", "layers", "experts"})
"""Roles that count things: ``N <role> of M`` gives the count N, and M is each one's size."""


def text_before(match: re.Match[str]) -> str:
    """The few characters of its text before a match."""
    return match.string[max(0, match.start() - 4) : match.start()]


def _ends(pattern: re.Pattern[str], text: str) -> dict[int, re.Match[str]]:
    """The matches of ``pattern`` in ``text`` by where they end."""
    return {m.end(): m for m in pattern.finditer(text)}


def _role(
    before: str,
    after: str,
    unit: str,
    ending: tuple[re.Match[str] | None, re.Match[str] | None, re.Match[str] | None],
    defined: dict[str, str],
    lora: bool,
) -> tuple[str, str, str] | None:
    """The role the words next to a number give it, with those words before and after the
    number as written (for :attr:`Quantity.written`), or None. ``ending`` holds the role
    words, identifier assignment and defined letter that end where the number starts."""
    before_match, assigned, letter = ending
    if _ORDINAL_BEFORE.search(before):
        return None
    after_match = _AFTER.match(after)
    after_role = _role_of(after_match, _AFTER_ROLES, "a") if after_match is not None else None
    after_words = after_match.group(0) if after_match is not None else ""
    if unit:
        if _PEAK_UNIT.search(unit):
            return "peak_flops", "", ""
        if _FLOP_UNIT.match(unit):
            return "flops", "", ""
        if _BYTE_UNIT.match(unit):
            per_value = _PER_VALUE.match(after)
            if per_value is not None:
                return "bytes_per_value", "", per_value.group(0)
            return "memory", "", ""
    if (
        assigned is not None
        and _OPERAND.search(text_before(assigned))
        and not _GLOSS_OPEN.search(text_before(assigned))
    ):
        assigned = None  # "hidden / num_heads = 128": num_heads is an operand; 128 the result
    if assigned is not None and ("_" in assigned.group(1) or re.search(r"[:=]", assigned.group(0))):
        # "head_dim 128" names its role; "dim 128" in prose is a word, not an identifier.
        return _ALL_IDENTIFIERS[assigned.group(1).lower()], assigned.group(0), "="
    if letter is not None:
        return defined[letter.group(1)], letter.group(0), ""
    before_role = _role_of(before_match, _BEFORE_ROLES, "b") if before_match is not None else None
    if (
        before_match is not None
        and before_role in _COUNT_ROLES
        and _OF_LINK.search(before_match.group(0))
        and _COUNTED_ALREADY.search(text_before(before_match))
    ):
        # "8 KV heads of 128 dims": the heads have their count before them; the number after
        # "of" is what each of them holds, not a second count of them
        before_match, before_role = None, None
    before_words = before_match.group(0) if before_match is not None else ""
    if before_role == "lora_rank" and not lora and "rank" not in before_words.lower():
        before_role = None
    if unit in _SCALES or unit.lower() in _SCALES:
        # A scaled count: parameters, tokens, a context; never a layer or head count.
        if after_role == "experts":
            return "expert_params", "", after_words  # "64 7B experts": one expert's size
        if before_role == "expert_params":
            return "expert_params", before_words, ""
        if after_role not in _SCALED_ROLES:
            after_role = None
        if before_role not in _SCALED_ROLES:
            before_role = None
    if before_role == "top_k" and after_role == "experts":
        return "top_k", before_words, after_words  # "激活 2 个专家", "routed to 2 experts"
    if after_role is not None and (after_role != "tokens" or before_role is None):
        return after_role, "", after_words
    if before_role is not None:
        return before_role, before_words, ""
    accelerators = _ACCEL_TIMES.match(after)
    if accelerators is not None and not unit:
        return "gpus", "", accelerators.group(0)
    return None


_SCALES = frozenset(
    {"K", "k", "M", "B", "T", "亿", "万", "万亿", "千", "thousand", "million", "billion"}
    | {"trillion"}
)
_SCALED_ROLES = frozenset(
    {"params", "active_params", "shared_params", "tokens", "context", "vocab"}
)


def _model_quantities(line: Line, source: Source, column0: int) -> Iterator[Quantity]:
    folded = fold(line.text)
    folded_positions = len(folded) == len(line.text)  # else the column is the line's start
    table = model_table()
    seen: set[str] = set()
    for match in _family_pattern().finditer(folded):
        window = re.split(r"[,，;；。:：()（）|]", folded[match.start() : match.end() + 24])[0]
        found = table.find(window)
        spec = found.spec
        if spec is None or spec.key in seen:
            continue
        seen.add(spec.key)
        column = column0 + (match.start() if folded_positions else 0) + 1
        yield from _published(spec, line.number, column, line.text[match.start() : match.end()])


def _published(spec: ModelSpec, line: int, column: int, written: str) -> Iterator[Quantity]:
    values: list[tuple[str, int | None]] = [
        ("layers", spec.layers),
        ("heads", spec.heads),
        ("kv_heads", spec.n_kv_heads),
        ("hidden", spec.hidden),
        ("head_dim", spec.d_head),
        ("d_ff", spec.d_ff),
        ("expert_d_ff", spec.expert_d_ff),
        ("vocab", spec.vocab),
        ("context", spec.context),
        ("experts", spec.experts),
        ("top_k", spec.experts_per_token),
    ]
    for role, value in values:
        if value is not None:
            yield Quantity(
                role,
                parse_printed(str(value)),
                "",
                line,
                column,
                "model",
                spec.name,
                model=spec.key,
            )
    for role, count in (("params", spec.params), ("active_params", spec.active_params)):
        printed = parse_count(count) if count is not None else None
        if printed is not None and not (role == "params" and spec.size_is_name):
            yield Quantity(role, printed, "", line, column, "model", spec.name, model=spec.key)


def _table_quantities(block: Block, document: Document) -> Iterator[Quantity]:
    table = block.table
    if table is None:
        return
    roles = [_header_role(cell) for cell in table.header]
    for cells, row_line in table.rows:
        raw = _raw_line(document, row_line)
        transposed = _header_role(cells[0]) if cells else None
        cursor = 0
        for index, cell in enumerate(cells):
            at = raw.find(cell, cursor) if cell else -1
            cursor = at + len(cell) if at >= 0 else cursor
            role = roles[index] if index < len(roles) else None
            if index > 0 and transposed is not None and role is None:
                role = transposed
            if role is None or not _DIGIT.search(cell):
                continue
            match = _NUMBER.search(cell)
            if match is None or match.end() < len(cell.rstrip(" *")) - 8:
                continue
            digits = match.group(1) + (match.group(2) or "")
            printed = _printed(match.group(0), digits, match.group(3) or "")
            if printed is None:
                continue
            column = at + 1 if at >= 0 else 1
            yield Quantity(
                role,
                printed,
                match.group(3) or "",
                row_line,
                column + match.start(),
                "table",
                cell.strip(),
                row=row_line,
            )


def _table_types(block: Block, document: Document) -> Iterator[Quantity]:
    """The storage types a table's cells name (``| Weights (bf16) | 14 GB |``)."""
    for line in block.lines:
        for match in _dtype_pattern().finditer(line.text):
            entry = dtype_table().find(match.group(0))
            if entry is not None:
                raw = _raw_line(document, line.number)
                at = raw.find(line.text)
                column = (at if at >= 0 else 0) + match.start() + 1
                yield Quantity(
                    "dtype",
                    parse_printed(f"{entry.bytes:g}"),
                    "",
                    line.number,
                    column,
                    "table",
                    match.group(0),
                    dtype=entry.name,
                    row=line.number,
                )


_HEADERS: tuple[tuple[str, str], ...] = (
    (
        "kv_heads",
        r"(?:#\s*)?(?:KV|key[\s-]*value)\s*heads?|n_kv_heads|num_key_value_heads|KV\s*头数?",
    ),
    ("head_dim", r"head[\s_]*(?:dim(?:ension)?|size)|d_head|d_k|头维度"),
    (
        "d_ff",
        r"(?:FFN|MLP|feed[\s-]*forward|intermediate)[\s_]*(?:size|dim(?:ension)?|width)?"
        r"|d_ff|intermediate_size|FFN\s*维度|前馈(?:层)?维度",
    ),
    ("layers", r"(?:#\s*|num(?:ber\s+of)?\s*|n_)?layers?|层数|n_layer"),
    ("heads", r"(?:#\s*|num(?:ber\s+of)?\s*|n_)?(?:attention\s+)?heads?|头数|注意力头数?|n_head"),
    (
        "hidden",
        r"hidden(?:[\s_]*(?:size|dim(?:ension)?))?|d_model|d|model\s+dim(?:ension)?"
        r"|隐藏(?:层)?维度|隐藏层大小|模型维度|n_embd|dim",
    ),
    ("vocab", r"vocab(?:ulary)?(?:[\s_]*size)?|词表(?:大小)?"),
    ("context", r"context(?:[\s_]*(?:length|window))?|上下文(?:长度)?|max[\s_]*seq[\s_]*len"),
    ("params", r"param(?:eter)?s|参数量|参数|#\s*params"),
    ("experts", r"experts|专家数"),
)
_HEADER = re.compile(
    r"^\s*\**\s*(?:" + "|".join(f"(?P<h{i}>{p})" for i, (_, p) in enumerate(_HEADERS)) + r")"
    r"\s*(?:\([^)]*\)|（[^）]*）)?\s*\**\s*$",
    re.IGNORECASE,
)


def _header_role(cell: str) -> str | None:
    match = _HEADER.match(cell)
    return None if match is None else _role_of(match, _HEADERS, "h")


def _raw_line(document: Document, number: int) -> str:
    """The lesson's line as written, unstripped (columns count from its first character)."""
    lines = _source_lines(document)
    return lines[number - 1] if 0 < number <= len(lines) else ""


_NEWLINES = re.compile(r"\r\n?|\n")  # as markdown-it counts lines


def _source_lines(document: Document) -> list[str]:
    cached = _LINES.get(id(document))
    if cached is not None and cached[0] is document:
        return cached[1]
    lines = _NEWLINES.split(document.text)
    if len(_LINES) >= 4:
        _LINES.clear()
    _LINES[id(document)] = (document, lines)
    return lines


_LINES: dict[int, tuple[Document, list[str]]] = {}


_LORA_R = re.compile(r"(?<![A-Za-z\\_])r\s*(?:\\cdot|\\times|[·×*(]|\s)\s*\(?\s*d_?\{?(?:in|out)\b")
"""LoRA's ``r`` in the formula of its parameters (``r · (d_in + d_out)``, ``r(d_{in} + …)``,
``r × d_in``): in a section that names LoRA and writes it, ``r = 16`` is the rank."""


_D_IS = r"(?<![\w$\\])\$?d\$?\s*=\s*\d"
_FF_IS = r"(?<![\w\\])\$?d_?\{?ff\}?\$?\s*=\s*\d"
_WIDTH_BESIDE_FFN = re.compile(rf"{_D_IS}[^.;\n]{{0,80}}?{_FF_IS}|{_FF_IS}[^.;\n]{{0,80}}?{_D_IS}")
"""A bare ``d = N`` in one clause with ``d_ff = M`` (``(d = 8192, 64 heads, d_ff = 28672)``):
beside the FFN's width, d is the model's width (Vaswani et al. 2017 write d_model and d_ff; a
lesson that shortens d_model to d keeps d_ff), so the section reads ``d`` as the hidden size."""


def read_quantities(blocks: tuple[Block, ...], document: Document) -> tuple[Quantity, ...]:
    """Every quantity the blocks of one section name, in lesson order (see the module
    docstring for what is read and how)."""
    defined = _letters(blocks)
    section_text = " ".join(line.text for block in blocks for line in block.lines)
    lora = bool(re.search(r"lora|低秩|adapter", section_text, re.IGNORECASE))
    if lora and "r" not in defined and _LORA_R.search(section_text):
        defined["r"] = "lora_rank"  # Hu et al.'s letter, where the section writes its formula
    if "d" not in defined and _WIDTH_BESIDE_FFN.search(section_text):
        defined["d"] = "hidden"  # d beside d_ff in one configuration: the model width
    letters = (
        re.compile(
            r"(?<![\w$])\$?("
            + "|".join(re.escape(k) for k in sorted(defined, key=len, reverse=True))
            + r")\$?\s*(?:[=:＝：]|为)\s*"
        )
        if defined
        else None
    )
    found: list[Quantity] = []
    for block in blocks:
        source = _source_of(block)
        if block.kind == "table":
            found.extend(_table_quantities(block, document))
            found.extend(_table_types(block, document))
            continue
        for line in block.lines:
            raw = _raw_line(document, line.number)
            column0 = max(raw.find(line.text), 0)
            if _mentions(line.text.lower(), _family_words()) and _family_pattern().search(
                fold(line.text)
            ):
                found.extend(_model_quantities(line, source, column0))
            if not _DIGIT.search(line.text) and not _dtype_pattern().search(line.text):
                if _MQA.search(line.text):
                    found.extend(_line_quantities(line, source, column0, letters, defined, lora))
                continue
            found.extend(_line_quantities(line, source, column0, letters, defined, lora))
            if _mentions(line.text.lower(), _SCHEDULE_WORDS):
                found.extend(_schedule_quantities(line, source, column0))
        if block.kind != "heading":
            found.extend(_bound_products(block, source, document, defined))
    found.sort(key=lambda q: (q.line, q.column))
    return tuple(found)


# --- learning-rate schedules ----------------------------------------------------------------

# A rate as lessons print it: 3e-4, 3 × 10^-4 (LaTeX made plain: 3 × 10^(-4)), 0.0003.
_RATE = (
    r"(?P<value>\d+(?:\.\d+)?(?:\s*[eE]\s*[-−]\s*\d+|\s*[×x*]\s*10\s*\^\s*\(?\s*[-−]\s*\d+\s*\)?)?)"
    r"(?![\w%]|\.\d|\s*(?:[KMGTP]?FLOP|TFLOP|GB|倍|×|%))"
)
_STEPS = r"(?P<value>\d{1,3}(?:,\d{3})+|\d+)(?![\w%]|[.,]\d|\s*%)"
_RATE_LINK = r"\s*(?:\(\s*\)\s*)?(?:[=:：]|\bof\b|\bis\b|为|是|约|to)?\s*(?:约|about\s+)?"
_SCHEDULE_ROLES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (role, words, re.compile(pattern, re.IGNORECASE))
    for role, words, pattern in (
        (
            "peak_lr",
            ("eta", "η", "lr", "peak", "峰值", "最大"),
            r"(?:(?:\\eta|(?<![A-Za-z])(?:η|eta|lr))\s*_?\s*\(?\s*\\?max\s*\)?|max_lr|peak_lr|peak(?:\s+(?:learning"
            r"\s+rate|lr|rate))?|(?:峰值|最大)\s*(?:学习率)?)" + _RATE_LINK + _RATE,
        ),
        (
            "min_lr",
            ("eta", "η", "lr", "floor", "minimum", "最小", "下限"),
            r"(?:(?:\\eta|(?<![A-Za-z])(?:η|eta|lr))\s*_?\s*\(?\s*\\?min\s*\)?|min_lr|(?:a\s+)?floor(?:\s+of)?"
            r"|minimum\s+(?:learning\s+rate|lr)|最小(?:值|学习率)|下限)" + _RATE_LINK + _RATE,
        ),
        (
            "warmup_steps",
            ("warm", "预热"),
            r"(?:warm[\s-]?up(?:_steps)?|num_warmup_steps|预热)(?:\s*(?:over|of|for|阶段|=|:|：|\(|"
            r"\bw\s*=))*\s*(?:the\s+first\s+)?"
            + _STEPS
            + r"(?=\s*(?:steps?|步|iterations?|\)|,|，|$))",
        ),
        (
            "warmup_steps",
            ("warm",),
            _STEPS + r"\s+warm[\s-]?up\s+(?:steps|iterations)",
        ),
        (
            "total_steps",
            ("总步数", "总训练步数", "total", "max_steps", "num_training_steps", "t =", "t="),
            r"(?:总步数|总训练步数|total\s+(?:training\s+)?steps|max_steps|num_training_steps|"
            r"total_steps|(?<![\w\\])T\s*=)\s*(?:(?:of|is|为|是|=|:|：)\s*)?(?:T\s*=\s*)?" + _STEPS,
        ),
        (
            "total_steps",
            ("floor", "decay", "衰减"),
            r"(?:floor|decay|衰减)[^.。\n]{0,60}?at\s+step\s+" + _STEPS,
        ),
    )
)
# Words one of the schedule patterns holds (lower case): a line with none is not searched.
_SCHEDULE_WORDS = tuple(dict.fromkeys(word for _, words, _ in _SCHEDULE_ROLES for word in words))
_RATE_ROLES = frozenset({"peak_lr", "min_lr"})


def _schedule_quantities(line: Line, source: Source, column0: int) -> Iterator[Quantity]:
    """A learning-rate schedule's constants the line names (``η_max = 3e-4``, ``warmup over
    2,000 steps``, ``总步数 T = 12000``), read from the line with its inline LaTeX made plain."""
    if "$" in line.text or "\\" in line.text:
        text, where = plain(line.text)
    else:
        text, where = line.text, tuple(range(len(line.text)))
    lower = text.lower()
    for role, words, pattern in _SCHEDULE_ROLES:
        if not _mentions(lower, words):
            continue
        for match in pattern.finditer(text):
            written = match.group("value")
            if role in _RATE_ROLES:
                written = re.sub(r"\s+", "", written).replace("−", "-")
                written = re.sub(r"[×x*]10\^\(?(-?\d+)\)?", r"e\1", written)
            try:
                printed = parse_printed(written)
            except NumberError:
                continue
            if role in _RATE_ROLES and not 0 < printed.value < 1:
                continue  # a rate is below 1: "峰值 312" is a throughput, not a learning rate
            yield Quantity(
                role,
                printed,
                "",
                line.number,
                column0 + where[match.start("value")] + 1,
                source,
                match.group(0).strip(),
            )


# A formula in names, then the same product in numbers a line or two below:
#   KV_cache = batch_size × seq_len × layers × hidden_size × 2 bytes
#   KV_cache = 1 × 2048 × 32 × 4096 × 2 = 536MB
# Each number takes the role of the name in its place (the text defines it there).
_FACTOR = r"(?:[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?(?:\s*(?:bytes?|字节))?)"
_TIMES = r"\s*[×x*·]\s*"
_NAMED_PRODUCT = re.compile(
    rf"^\s*`?(?P<lhs>[A-Za-z_][\w]*)\s*=\s*(?P<rhs>{_FACTOR}(?:{_TIMES}{_FACTOR})+)\s*(?:#.*)?`?$"
)
_NUMBER_PRODUCT = re.compile(
    r"^\s*`?(?P<lhs>[A-Za-z_][\w]*)\s*=\s*(?P<rhs>\d+(?:\.\d+)?(?:\s*[×x*·]\s*\d+(?:\.\d+)?)+)"
    r"(?=\s*(?:=|≈|$|#|`|\())"
)
_FACTOR_NAMES = {
    **_ALL_IDENTIFIERS,
    "layers": "layers",
    "heads": "heads",
    "hidden": "hidden",
    "tokens": "tokens",
    "batch": "batch",
    "bytes": "bytes_per_value",
    "bytes_per_param": "bytes_per_value",
    "bytes_per_element": "bytes_per_value",
    "bytes_per_value": "bytes_per_value",
    "dtype_bytes": "bytes_per_value",
}


def _bound_products(
    block: Block, source: Source, document: Document, defined: dict[str, str]
) -> Iterator[Quantity]:
    """Numbers of a product whose formula in names the block prints just above it."""
    lines = block.lines
    for index, line in enumerate(lines):
        named = _NAMED_PRODUCT.match(line.text)
        if named is None:
            continue
        names = re.split(_TIMES, named.group("rhs"))
        for later in lines[index + 1 : index + 3]:
            numbers = _NUMBER_PRODUCT.match(later.text)
            if numbers is None or numbers.group("lhs") != named.group("lhs"):
                continue
            values = re.split(_TIMES, numbers.group("rhs"))
            if len(values) != len(names):
                break
            yield from _bind(names, values, numbers, later, source, document, defined, line)
            break


def _bind(
    names: list[str],
    values: list[str],
    numbers: re.Match[str],
    line: Line,
    source: Source,
    document: Document,
    defined: dict[str, str],
    formula: Line,
) -> Iterator[Quantity]:
    roles: list[str | None] = []
    for name, value in zip(names, values, strict=True):
        literal = re.match(r"\d+(?:\.\d+)?", name)
        if literal is not None:
            if float(literal.group()) != float(value):
                return  # the numbers are not the formula's
            roles.append("bytes_per_value" if re.search(r"bytes?|字节", name) else None)
            continue
        roles.append(_FACTOR_NAMES.get(name.lower()) or defined.get(name))
    raw = _raw_line(document, line.number)
    at = raw.find(line.text)
    offset = (at if at >= 0 else 0) + numbers.start("rhs")
    position = 0
    for name, value, role in zip(names, values, roles, strict=True):
        position = numbers.group("rhs").find(value, position)
        if role is not None:
            yield Quantity(
                role,
                parse_printed(value),
                "bytes" if role == "bytes_per_value" else "",
                line.number,
                offset + position + 1,
                source,
                f"{name} = {value} (the formula on line {formula.number})",
                assigned=True,
            )
        position += len(value)


_ASSIGNMENT = re.compile(
    r"(?<![\w.])[\"']?("
    + "|".join(sorted(_ALL_IDENTIFIERS, key=len, reverse=True))
    + r")[\"']?\s*(?::|=|:=)\s*[\"']?(\d+)(?![\w.])",
    re.IGNORECASE,
)


def _assignments(document: Document) -> Iterator[Quantity]:
    """The identifier assignments (``hidden_size: 4096``, ``n_heads = 32``) of a whole lesson."""
    for block in document.blocks:
        if block.kind == "table":
            continue
        for line in block.lines:
            text = line.text
            if not _DIGIT.search(text) or not _mentions(text.lower(), _IDENTIFIER_WORDS):
                continue
            for match in _ASSIGNMENT.finditer(text):
                if _OPERAND.search(text_before(match)):
                    continue
                raw = _raw_line(document, line.number)
                at = raw.find(text)
                yield Quantity(
                    _ALL_IDENTIFIERS[match.group(1).lower()],
                    parse_printed(match.group(2)),
                    "",
                    line.number,
                    (at if at >= 0 else 0) + match.start(2) + 1,
                    _source_of(block),
                    match.group(0),
                    assigned=True,
                )


def scope_of(blocks: tuple[Block, ...], document: Document) -> Scope:
    """The scope of one section's blocks (as :meth:`Document.sections` yields them)."""
    text = "\n".join(line.text for block in blocks for line in block.lines)
    return Scope(blocks[0].section if blocks else 0, read_quantities(blocks, document), text)


class _Scopes:
    """The scopes of one document, each read the first time it is asked for."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self.blocks = {blocks[0].section: blocks for blocks in document.sections()}
        self.read: dict[int, Scope] = {}
        self.assignments: tuple[Quantity, ...] | None = None
        self.named: tuple[Quantity, ...] | None = None

    def get(self, section: int) -> Scope:
        found = self.read.get(section)
        if found is None:
            own = scope_of(self.blocks.get(section, ()), self.document)
            found = dataclasses.replace(
                own, configuration=self.configured, lesson_models=self.models
            )
            self.read[section] = found
        return found

    def models(self) -> tuple[Quantity, ...]:
        """The published quantities of every model the lesson names (read once, on first use)."""
        if self.named is None:
            found: list[Quantity] = []
            for block in self.document.blocks:
                source = _source_of(block)
                for line in block.lines:
                    if _mentions(line.text.lower(), _family_words()) and _family_pattern().search(
                        fold(line.text)
                    ):
                        found.extend(_model_quantities(line, source, 0))
            self.named = tuple(found)
        return self.named

    def configured(self) -> tuple[Quantity, ...]:
        """Every identifier assignment of the lesson (read once, on first use, with the one
        pattern of assignments: reading every section's scope would cost a whole lesson)."""
        if self.assignments is None:
            self.assignments = tuple(_assignments(self.document))
        return self.assignments


_CACHE: dict[int, _Scopes] = {}


def _scopes_of(document: Document) -> _Scopes:
    cached = _CACHE.get(id(document))
    if cached is not None and cached.document is document:
        return cached
    if len(_CACHE) >= 4:
        _CACHE.clear()
    cached = _CACHE[id(document)] = _Scopes(document)
    return cached


def section_scope(document: Document, section: int) -> Scope:
    """The scope of one section of a lesson (:attr:`Block.section`), read once per document
    and section, and only when asked for: most sections hold no statement a relation checks,
    and reading a scope costs more than finding such a statement."""
    return _scopes_of(document).get(section)


def scopes(document: Document) -> dict[int, Scope]:
    """The scope of every section of a lesson, by section number."""
    cached = _scopes_of(document)
    return {section: cached.get(section) for section in cached.blocks}
