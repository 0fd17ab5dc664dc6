"""Reference data shipped with lessoncheck: published model configurations, accelerator peaks,
and the storage types numbers are kept in.

The data files are package data (``checkers/data/*.yaml``), read once with a safe YAML loader
(libyaml's when installed) through :mod:`importlib.resources` and cached. :func:`dtype_table`
gives the typed table of ``dtypes.yaml`` (bits per number, the names lessons write);
:func:`model_table` the typed table of ``models.yaml``; :func:`find_model` picks an entry by a
name as a lesson prints it (``"GPT-2 (1.5B)"``, ``"GPT-2 XL"``, ``"LLaMA-2 7B"``,
``"Llama 2 70B"``, ``"Mixtral 8x7B"``). :func:`accelerator_table` and :func:`find_accelerator`
(:mod:`checkers.data.accelerators`, re-exported here) do the same for ``accelerators.yaml``
(``"H100 SXM"``, ``"A100 80GB"``); :mod:`checkers.data.entries` holds what the files share.

The model and accelerator files are validated entry by entry: an unknown field, a missing source
or numbers that contradict each other (heads × head width ≠ hidden without an explicit
``head_dim``, a with-sparsity peak that is not twice the dense one, ...) raise
:class:`DataError` naming the file and the entry. :func:`build_model_table` and
:func:`build_accelerator_table` take already parsed data, so the same rules apply to test data.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from checkers.data.accelerators import (
    AcceleratorMatch,
    AcceleratorSpec,
    AcceleratorTable,
    TensorPeak,
    accelerator_table,
    build_accelerator_table,
    find_accelerator,
)
from checkers.data.entries import (
    DataError,
    Frozen,
    Keyed,
    first_error,
    fold,
    load_yaml,
    validated_entries,
    validated_file,
)
from checkers.literals import required_words
from checkers.numbers import NumberError, Printed, compare, parse_printed, read_binary_count

__all__ = [
    "COLUMNS",
    "STYLE_CONVENTIONS",
    "AcceleratorMatch",
    "AcceleratorSpec",
    "AcceleratorTable",
    "DataError",
    "DtypeTable",
    "ModelFamily",
    "ModelMatch",
    "ModelSpec",
    "ModelStyle",
    "ModelTable",
    "StorageType",
    "StyleConventions",
    "TensorPeak",
    "accelerator_table",
    "build_accelerator_table",
    "build_model_table",
    "dtype_table",
    "find_accelerator",
    "find_model",
    "load_yaml",
    "model_table",
    "parse_count",
    "size_in_name",
]

ModelStyle = Literal["gpt", "bert", "llama", "encoder_decoder"]
"""How a model's parameters are counted; see ``models.yaml`` for what each style means."""

Norm = Literal["layernorm", "rmsnorm"]
"""Normalisation layer: LayerNorm (mean, variance, bias) or RMSNorm (scale only)."""

Activation = Literal["relu", "gelu", "swiglu", "geglu"]
"""FFN non-linearity; the gated ones (SwiGLU, GeGLU) have a third (gate) matrix."""

Positions = Literal["learned", "sinusoidal", "rope", "relative"]
"""How positions enter: learned table, fixed sinusoids, rotary, or relative attention biases."""

COLUMNS = ("layers", "heads", "kv_heads", "hidden", "d_ff", "context", "vocab")
"""The integer architecture columns of a model entry, in the order tables usually print them."""

OTHER_COLUMNS = ("hidden", "d_ff", "layers", "heads", "kv_heads", "head_dim", "context", "vocab")
"""Columns a misplaced value is looked up in, widths first (a width printed in the wrong column
is far more often another width than a count that happens to be equal)."""


def _is_gated(activation: Activation) -> bool:
    return activation in ("swiglu", "geglu")


@dataclass(frozen=True)
class StyleConventions:
    """What a counting style assumes where an entry does not say (see ``models.yaml``)."""

    tied_embeddings: bool
    """The output layer reuses the input embedding matrix."""
    norm: Norm
    """Normalisation layer."""
    activation: Activation
    """FFN non-linearity."""
    positions: Positions
    """How positions are encoded."""

    @property
    def gated_ffn(self) -> bool:
        """Three FFN matrices (gate, up, down) instead of two."""
        return _is_gated(self.activation)

    @property
    def learned_positions(self) -> bool:
        """A context × d table of position embeddings."""
        return self.positions == "learned"


STYLE_CONVENTIONS: Mapping[str, StyleConventions] = {
    "gpt": StyleConventions(True, "layernorm", "gelu", "learned"),
    "bert": StyleConventions(True, "layernorm", "gelu", "learned"),
    "llama": StyleConventions(False, "rmsnorm", "swiglu", "rope"),
    "encoder_decoder": StyleConventions(True, "layernorm", "relu", "sinusoidal"),
}
"""Each style's conventions, as the header of ``models.yaml`` documents them."""


class StorageType(Frozen):
    """One number type weights or caches are stored in (an entry of ``dtypes.yaml``)."""

    name: str
    """Canonical name, as claims write it (``fp16``)."""
    bits: int = Field(gt=0)
    """Bits per stored number."""
    written: tuple[str, ...] = Field(min_length=1)
    """How lessons write it in text and table headers, the canonical name first."""
    aliases: tuple[str, ...] = ()
    """Further names a claim's ``dtype:`` accepts."""
    largest: tuple[float, ...] = ()
    """The largest finite value the format represents (both variants for fp8), where it is
    defined as a number."""
    source: str = Field(min_length=3)
    """Where the width (and the largest value) is defined."""

    @property
    def bytes(self) -> float:
        """Bytes per stored number."""
        return self.bits / 8


def _dtype_key(text: str) -> str:
    return text.strip().casefold().replace("-", "").replace("_", "").replace(" ", "")


@dataclass(frozen=True)
class DtypeTable:
    """Every storage type, looked up by any of its names."""

    types: tuple[StorageType, ...]
    """In the order of ``dtypes.yaml``."""

    @functools.cached_property
    def _by_name(self) -> dict[str, StorageType]:
        return {
            _dtype_key(name): entry
            for entry in self.types
            for name in (entry.name, *entry.written, *entry.aliases)
        }

    def find(self, text: str) -> StorageType | None:
        """The type named ``text`` (``FP16``, ``float16``, ``half``, ``4-bit``), or None."""
        return self._by_name.get(_dtype_key(text))

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical names, in table order."""
        return tuple(entry.name for entry in self.types)

    @property
    def written(self) -> tuple[str, ...]:
        """Every name lessons write, longest first (so an alternation prefers ``float16`` to a
        shorter name it starts with)."""
        names = [name for entry in self.types for name in entry.written]
        return tuple(sorted(names, key=len, reverse=True))


@functools.cache
def dtype_table() -> DtypeTable:
    """The storage types of ``dtypes.yaml``, validated (cached)."""
    data = load_yaml("dtypes")
    return DtypeTable(
        tuple(StorageType(name=name, **fields) for name, fields in data["types"].items())
    )


class ModelFamily(Frozen):
    """A model family and the pattern that finds it in a printed name."""

    key: str
    """Identifier used by the entries' ``family`` field."""
    name: str
    """Display name, e.g. ``GPT-2``."""
    pattern: str
    """Regular expression matched against the case-folded printed name."""
    bare: str | None = None
    """Key of the entry the family name alone denotes, where the source names it so."""
    generic: bool = False
    """The family name is also a common noun ("transformer"): alone it names no entry, only
    with a size label ("Transformer base")."""
    includes: tuple[str, ...] = ()
    """Keys of other families' entries that this name also denotes with their size, where a
    source names them so ("Llama 3 405B" is the Llama 3.1 release: Dubey et al. 2024 call every
    model of the herd "Llama 3"; an unversioned "LLaMA 7B" is LLaMA 1's or Llama 2's). Alone,
    the family name never means one of them."""

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        re.compile(value)
        return value

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern."""
        return _compiled(self.pattern)


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    # Every table row a recogniser reads tries every family: compile each pattern once.
    return re.compile(pattern)


_Positive = Field(default=None, gt=0)


class ModelSpec(Keyed):
    """One published configuration, with the source of its numbers (fields: ``models.yaml``)."""

    name: str
    """How a reader names the model, e.g. ``GPT-2 XL``."""
    family: str
    """Key of its :class:`ModelFamily`."""
    sizes: tuple[str, ...] = Field(min_length=1)
    """Labels that pick the entry out of its family: counts (``1.5B``) and words (``xl``)."""
    params: str
    """The total parameter count as the source states it, e.g. ``7B``."""
    size_is_name: bool = False
    """``params`` is the model's name, not its count rounded: no estimate is compared with it."""
    active_params: str | None = None
    """Parameters used per token as the source states it (mixture-of-experts models)."""
    style: ModelStyle
    """How parameters are counted."""
    layers: int = Field(gt=0)
    """Transformer layers (per stack for encoder-decoder models)."""
    hidden: int = Field(gt=0)
    """Model width d_model."""
    heads: int = Field(gt=0)
    """Attention (query) heads."""
    kv_heads: int | None = _Positive
    """Key/value heads when fewer than ``heads`` (grouped-query attention)."""
    head_dim: int | None = _Positive
    """Width of one head when the configuration states it (required if heads × it ≠ hidden)."""
    d_ff: int = Field(gt=0)
    """Inner width of the dense feed-forward network (one projection of a gated FFN)."""
    context: int | None = _Positive
    """Trained context length in tokens (None: no fixed length, or none given as a number)."""
    vocab: int | None = _Positive
    """Vocabulary size (None when the source does not state it)."""
    experts: int | None = _Positive
    """Routed experts per MoE layer."""
    experts_per_token: int | None = _Positive
    """Routed experts each token is sent to (top-k)."""
    shared_experts: int | None = _Positive
    """Experts every token passes through besides the routed ones."""
    moe_d_ff: int | None = _Positive
    """Inner width of one expert, when it differs from ``d_ff``."""
    dense_layers: int | None = Field(default=None, ge=0)
    """The first layers, whose FFN is dense instead of MoE."""
    q_lora_rank: int | None = _Positive
    """Multi-head latent attention: rank of the compressed query."""
    kv_lora_rank: int | None = _Positive
    """Multi-head latent attention: rank of the compressed keys and values (what is cached)."""
    qk_nope_head_dim: int | None = _Positive
    """Multi-head latent attention: per-head query/key width without RoPE."""
    qk_rope_head_dim: int | None = _Positive
    """Multi-head latent attention: per-head query/key width carrying RoPE."""
    v_head_dim: int | None = _Positive
    """Multi-head latent attention: per-head value width."""
    tied_embeddings: bool | None = None
    """The output layer reuses the input embedding matrix (None: the style's default)."""
    norm: Norm | None = None
    """Normalisation layer (None: the style's default)."""
    activation: Activation | None = None
    """FFN non-linearity (None: the style's default)."""
    positions: Positions | None = None
    """How positions are encoded (None: the style's default)."""
    sliding_window: int | None = _Positive
    """Tokens each layer attends to under sliding-window attention."""
    rope_theta: int | None = _Positive
    """Base of the rotary position frequencies, where the configuration states it."""
    train_tokens: str | None = None
    """Tokens the model was pre-trained on, as the source states the count (``2.0T``)."""
    corpus_words: str | None = None
    """Size of the pre-training corpus in words, where the source gives it instead of tokens
    and the model read it many times (BERT: 3.3B words, about 40 epochs)."""
    also: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    """Other published values of a column where two sources differ, e.g. a paper's vocabulary."""
    cite: str = Field(min_length=5, max_length=80)
    """The source in a few words, for verdict messages."""
    source: str = Field(min_length=20)
    """Paper section/table or released config file for every number of the entry."""

    @field_validator("params", "active_params", "train_tokens", "corpus_words")
    @classmethod
    def _is_a_count(cls, value: str | None) -> str | None:
        if value is not None and parse_count(value) is None:
            raise ValueError(f"expected a count such as 7B or 124M, got {value!r}")
        return value

    @field_validator("sizes")
    @classmethod
    def _sizes_are_counts_or_words(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for label in value:
            if parse_count(label) is None and not re.fullmatch(r"[a-z]+", label):
                raise ValueError(f"size label {label!r} is neither a count nor a lower-case word")
        return value

    @field_validator("also")
    @classmethod
    def _also_names_columns(cls, value: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
        unknown = sorted(set(value) - set(COLUMNS))
        if unknown:
            raise ValueError(f"also: names no column: {', '.join(unknown)} (columns: {COLUMNS})")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        for problem in _spec_problems(self):
            raise ValueError(problem)
        return self

    @property
    def params_value(self) -> float:
        """The stated parameter count as a number."""
        printed = parse_count(self.params)
        assert printed is not None  # checked by the validator
        return printed.value

    @property
    def train_tokens_value(self) -> float | None:
        """The stated pre-training tokens as a number (None when not published)."""
        printed = None if self.train_tokens is None else parse_count(self.train_tokens)
        return None if printed is None else printed.value

    @property
    def corpus_words_value(self) -> float | None:
        """The stated corpus size in words as a number (None when not given)."""
        printed = None if self.corpus_words is None else parse_count(self.corpus_words)
        return None if printed is None else printed.value

    @property
    def active_params_value(self) -> float | None:
        """The stated per-token parameter count, for mixture-of-experts models."""
        printed = None if self.active_params is None else parse_count(self.active_params)
        return None if printed is None else printed.value

    @property
    def n_kv_heads(self) -> int:
        """Key/value heads (equal to ``heads`` without grouped-query attention)."""
        return self.kv_heads if self.kv_heads is not None else self.heads

    @property
    def is_mla(self) -> bool:
        """Multi-head latent attention (its dims replace a single head width)."""
        return self.kv_lora_rank is not None

    @property
    def mla_dims(self) -> tuple[int, int, int, int, int] | None:
        """Latent attention's (q_lora_rank, kv_lora_rank, nope, rope, v) widths, or None."""
        q_rank, kv_rank, v = self.q_lora_rank, self.kv_lora_rank, self.v_head_dim
        nope, rope = self.qk_nope_head_dim, self.qk_rope_head_dim
        if q_rank is None or kv_rank is None or nope is None or rope is None or v is None:
            return None
        return q_rank, kv_rank, nope, rope, v

    @property
    def is_moe(self) -> bool:
        """Mixture-of-experts FFN layers."""
        return self.experts is not None

    @property
    def d_head(self) -> int | None:
        """Width of one head: ``head_dim`` as stated, else hidden / heads; None under MLA."""
        if self.head_dim is not None:
            return self.head_dim
        return None if self.is_mla else self.hidden // self.heads

    @property
    def expert_d_ff(self) -> int | None:
        """Inner width of one expert (``moe_d_ff``, else ``d_ff``); None for dense models."""
        if not self.is_moe:
            return None
        return self.moe_d_ff if self.moe_d_ff is not None else self.d_ff

    @property
    def tied(self) -> bool:
        """Whether input and output embeddings share one matrix (stated, else by style)."""
        if self.tied_embeddings is not None:
            return self.tied_embeddings
        return STYLE_CONVENTIONS[self.style].tied_embeddings

    @property
    def norm_style(self) -> Norm:
        """The normalisation layer (stated, else by style)."""
        return self.norm or STYLE_CONVENTIONS[self.style].norm

    @property
    def activation_style(self) -> Activation:
        """The FFN non-linearity (stated, else by style)."""
        return self.activation or STYLE_CONVENTIONS[self.style].activation

    @property
    def positions_style(self) -> Positions:
        """How positions are encoded (stated, else by style)."""
        return self.positions or STYLE_CONVENTIONS[self.style].positions

    @property
    def gated_ffn(self) -> bool:
        """The FFN has a gate matrix besides up and down (SwiGLU, GeGLU)."""
        return _is_gated(self.activation_style)

    def column(self, name: str) -> int | None:
        """The value of a column (:data:`COLUMNS`, ``head_dim``, an MoE column, or ``tokens``
        trained on), None if unset."""
        if name == "kv_heads":
            return self.n_kv_heads
        if name == "head_dim":
            return self.d_head
        if name == "tokens":
            tokens = self.train_tokens_value
            return None if tokens is None else round(tokens)
        value = getattr(self, name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def values(self, name: str) -> tuple[int, ...]:
        """Every published value of a column: the entry's own, then those under ``also``; for
        the experts of a model with shared experts (DeepSeek), also the count with the shared
        ones added (256 routed + 1 shared: a layer's 257 experts, 9 used by each token)."""
        own = self.column(name)
        counted: tuple[int, ...] = ()
        if own is not None and name in ("experts", "experts_per_token") and self.shared_experts:
            counted = (own + self.shared_experts,)
        return ((own,) if own is not None else ()) + counted + self.also.get(name, ())

    def accepts(self, name: str, printed: Printed) -> bool:
        """The printed value of a column is one of the published ones at its printed precision
        (a context printed in K may also count 1024s: ``128K`` holds for 131,072, as model
        cards write it). True when the entry publishes no value for the column."""
        published = self.values(name)
        if not published:
            return True
        readings = [printed, read_binary_count(printed)] if name == "context" else [printed]
        return any(compare(r, float(value)).ok for value in published for r in readings)

    def other_column(self, name: str, value: float) -> str | None:
        """Another column of this entry whose published value ``value`` is (a column holding
        the FFN width under a "hidden" header), or None."""
        if value != round(value):
            return None
        for other in OTHER_COLUMNS:
            if other != name and round(value) in self.values(other):
                return other
        return None


def _spec_problems(spec: ModelSpec) -> list[str]:
    """Numbers of one entry that contradict each other (empty when consistent)."""
    problems: list[str] = []
    mla = (
        spec.q_lora_rank,
        spec.kv_lora_rank,
        spec.qk_nope_head_dim,
        spec.qk_rope_head_dim,
        spec.v_head_dim,
    )
    if any(v is not None for v in mla) and any(v is None for v in mla):
        problems.append(
            "multi-head latent attention needs all of q_lora_rank, kv_lora_rank, "
            "qk_nope_head_dim, qk_rope_head_dim and v_head_dim"
        )
    if spec.kv_lora_rank is not None and (spec.head_dim is not None or spec.kv_heads is not None):
        problems.append("multi-head latent attention has no single head_dim or kv_heads")
    if spec.head_dim is None and spec.kv_lora_rank is None and spec.hidden % spec.heads:
        problems.append(
            f"{spec.heads} heads do not divide hidden {spec.hidden}: give the configuration's "
            "head_dim if heads × head_dim is not hidden"
        )
    if spec.kv_heads is not None:
        if spec.kv_heads >= spec.heads:
            problems.append("kv_heads is only given when it is below heads")
        elif spec.heads % spec.kv_heads:
            problems.append(f"{spec.kv_heads} kv_heads do not divide {spec.heads} heads")
    if (spec.experts is None) != (spec.experts_per_token is None):
        problems.append("experts and experts_per_token go together")
    if spec.experts is None:
        extra = [
            name
            for name in ("shared_experts", "moe_d_ff", "dense_layers", "active_params")
            if getattr(spec, name) is not None
        ]
        if extra:
            problems.append(f"{', '.join(extra)} only apply to mixture-of-experts entries")
    else:
        if spec.experts_per_token is not None and spec.experts_per_token > spec.experts:
            problems.append(
                f"experts_per_token {spec.experts_per_token} exceeds experts {spec.experts}"
            )
        if spec.dense_layers is not None and spec.dense_layers >= spec.layers:
            problems.append(
                f"dense_layers {spec.dense_layers} leaves no MoE layer of {spec.layers}"
            )
        if spec.active_params is None:
            problems.append("a mixture-of-experts entry states its active_params")
        else:
            active, total = parse_count(spec.active_params), parse_count(spec.params)
            if active is not None and total is not None and active.value >= total.value:
                problems.append(f"active_params {spec.active_params} is not below {spec.params}")
    if (
        spec.sliding_window is not None
        and spec.context is not None
        and spec.sliding_window > spec.context
    ):
        problems.append(f"sliding_window {spec.sliding_window} exceeds context {spec.context}")
    for column, values in spec.also.items():
        if spec.column(column) is None:
            problems.append(f"also: {column} has no value of its own")
        elif spec.column(column) in values:
            problems.append(f"also: {column} repeats the entry's own value")
    return problems


class _TableFile(Frozen):
    families: dict[str, dict[str, Any]]
    models: Any


@dataclass(frozen=True)
class ModelMatch:
    """The result of looking a printed name up in the reference table."""

    spec: ModelSpec | None
    """The entry the name denotes, or None."""
    family: ModelFamily | None
    """The family the name belongs to, when one was recognised."""
    reason: str
    """Why this entry (or why none): shown in verdict details."""
    candidates: tuple[ModelSpec, ...] = ()
    """Entries the name could mean when it is ambiguous."""
    shared: bool = False
    """The name stays ambiguous but every entry it may mean publishes the compared values:
    ``spec`` stands for the whole family (verdicts name the family, not the entry)."""

    @property
    def label(self) -> str:
        """How verdicts name what was matched: the entry, or its family when shared."""
        if self.shared and self.family is not None:
            return self.family.name
        return self.spec.name if self.spec is not None else ""


@dataclass(frozen=True)
class ModelTable:
    """The reference table of ``models.yaml``."""

    families: tuple[ModelFamily, ...]
    """Families, each with the pattern that recognises it in a name."""
    models: tuple[ModelSpec, ...]
    """Entries in file order."""
    _found: dict[str, ModelMatch] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """:meth:`find`'s answer for each name already looked up: a lesson names the same few
    models in every clause, and each look-up tries every family's pattern."""

    @functools.cached_property
    def _family_words(
        self,
    ) -> tuple[tuple[str, ...], tuple[tuple[ModelFamily, frozenset[str] | None], ...]]:
        """Every word some family's matches hold, and each family with its words (None: not
        known, the family is always tried)."""
        words = tuple((family, required_words(family.regex)) for family in self.families)
        return tuple(sorted({word for _, held in words if held for word in held})), words

    def families_in(self, text: str, start: int = 0, end: int | None = None) -> list[ModelFamily]:
        """The families, in table order, whose pattern may match in ``text[start:end]``: those
        whose every match holds a word (:func:`checkers.literals.required_words`: ``gpt``,
        ``llama``) the text holds. A text names few families, and a word is found many times
        faster than a pattern is searched."""
        stop = len(text) if end is None else end
        every_word, family_words = self._family_words
        present = {word for word in every_word if text.find(word, start, stop) >= 0}
        return [
            family
            for family, words in family_words
            if words is None or not words.isdisjoint(present)
        ]

    def by_key(self, key: str) -> ModelSpec | None:
        """The entry with this key, or None."""
        return next((m for m in self.models if m.key == key), None)

    def family(self, key: str) -> ModelFamily:
        """The family with this key."""
        return next(f for f in self.families if f.key == key)

    def members(self, family: ModelFamily) -> tuple[ModelSpec, ...]:
        """The entries of one family."""
        return tuple(m for m in self.models if m.family == family.key)

    def included(self, family: ModelFamily) -> tuple[ModelSpec, ...]:
        """Other families' entries the family's name also denotes with their size."""
        return tuple(m for m in self.models if m.key in family.includes)

    def find(self, name: str) -> ModelMatch:
        """The entry a printed name denotes: family by pattern, then size label or word."""
        found = self._found.get(name)
        if found is None:
            if len(self._found) >= _FOUND_NAMES:
                self._found.clear()  # a hostile lesson's thousands of names: keep memory bounded
            found = self._found[name] = self._find(name)
        return found

    def _find(self, name: str) -> ModelMatch:
        exact = self.by_key(name.strip())
        if exact is not None:
            return ModelMatch(exact, self.family(exact.family), f"reference key {exact.key!r}")
        text = fold(name)
        found = [(f, m) for f in self.families_in(text) if (m := f.regex.search(text))]
        if not found:
            known = ", ".join(f.name for f in self.families)
            return ModelMatch(None, None, f"{name!r} is in no family of the table ({known})")
        family, family_match = min(found, key=lambda pair: pair[1].start())
        rest = text[: family_match.start()] + " " + text[family_match.end() :]
        members = self.members(family)
        counts, words = _size_tokens(rest)
        if family.generic and not counts and not words <= _SIZE_WORDS:
            words = words & _SIZE_WORDS
        if family.generic and not counts and not words:
            return ModelMatch(
                None, family, f"{name!r}: '{family.name}' without a size is the common noun"
            )
        if not counts and not words:
            if len(members) == 1:
                return ModelMatch(members[0], family, f"{family.name} has one entry")
            bare = self.by_key(family.bare) if family.bare is not None else None
            if bare is not None:
                return ModelMatch(bare, family, f"{family.name} alone names {bare.name}")
            return ModelMatch(
                None,
                family,
                f"{name!r} does not say which {family.name}: {', '.join(m.name for m in members)}",
                members,
            )
        derived = sorted(words & _DERIVED_WORDS)
        if derived:
            return ModelMatch(
                None,
                family,
                f"{name!r} names a model derived from {family.name} ({derived[0]}), whose "
                "published numbers are its own",
            )
        chosen = tuple(m for m in members if _has_size(m, counts, words)) or tuple(
            m for m in self.included(family) if _has_size(m, counts, words)
        )
        if len(chosen) == 1:
            return ModelMatch(chosen[0], family, f"{name!r} names {chosen[0].name}")
        labels = "; ".join(
            f"{m.name}: {', '.join(m.sizes)}" for m in (*members, *self.included(family))
        )
        if not chosen:
            if len(members) == 1 and not counts and words <= _RELEASE_WORDS:
                # "Phi-3-mini-4k-instruct", "DeepSeek-V3-Base": a release of the one entry.
                return ModelMatch(members[0], family, f"{family.name} has one entry")
            return ModelMatch(
                None, family, f"no {family.name} entry has the size in {name!r} ({labels})"
            )
        return ModelMatch(
            None, family, f"{name!r} fits several {family.name} entries ({labels})", chosen
        )

    def resolve(
        self, name: str, printed: Mapping[str, Printed], size: Printed | None = None
    ) -> ModelMatch:
        """:meth:`find`, narrowed where the name alone does not say which entry it means.

        A bare family name ("GPT-2", "BERT") is read with the row's own numbers: the stated
        size picks the entry it names (``GPT-2`` of ``1.5B`` is GPT-2 XL); else the one entry
        whose published columns the printed ones match; else, when every candidate publishes
        the same values for the printed columns (every BERT has a 30,522 vocabulary), any of
        them, since the comparison is the same; else the one entry matching at least two of
        the printed columns and more of them than any other.
        """
        match = self.find(name)
        family = match.family
        if (
            match.spec is not None
            and family is not None
            and size is not None
            and family.bare == match.spec.key
            and not _has_size(match.spec, [size], set())
        ):
            # "GPT-3" alone is the 175B model, but "GPT-3 has 125M parameters" is its smallest.
            other = [m for m in self.members(family) if _has_size(m, [size], set())]
            if len(other) == 1:
                return ModelMatch(other[0], family, f"{name!r} of {size.text} is {other[0].name}")
        if match.spec is not None or not match.candidates:
            return match
        candidates = match.candidates
        if size is not None:
            sized = tuple(m for m in candidates if _has_size(m, [size], set()))
            if len(sized) == 1:
                return ModelMatch(
                    sized[0], match.family, f"{name!r} of {size.text} is {sized[0].name}"
                )
            candidates = sized or candidates
        columns = [c for c in printed if any(m.values(c) for m in candidates)]
        if not columns:
            return match
        # Only entries that publish every printed column can be told apart by them (an entry
        # that publishes no context fits any printed context, and would decide nothing).
        publishing = [m for m in candidates if all(m.values(c) for c in columns)]
        fitting = [m for m in publishing if all(m.accepts(c, printed[c]) for c in columns)]
        if len(fitting) == 1:
            return ModelMatch(
                fitting[0], match.family, f"{name!r} with these columns is {fitting[0].name}"
            )
        alike = fitting if len(fitting) > 1 else publishing
        if alike and all(m.values(c) == alike[0].values(c) for m in alike for c in columns):
            names = ", ".join(m.name for m in alike)
            said = _list_words(columns)
            family_name = match.family.name if match.family else name
            reason = f"every {family_name} entry ({names}) publishes the same {said}"
            if len(alike) < len(candidates):
                reason = (
                    f"every {family_name} entry that publishes its {said} ({names}) gives the "
                    "same value"
                )
            return ModelMatch(alike[0], match.family, reason, shared=True)
        scores = sorted(
            ((sum(m.accepts(c, printed[c]) for c in columns), m) for m in candidates),
            key=lambda pair: -pair[0],
        )
        best, spec = scores[0]
        if best >= 2 and (len(scores) == 1 or scores[1][0] < best):
            return ModelMatch(
                spec,
                match.family,
                f"{name!r} matches {spec.name} in {best} of {len(columns)} columns",
            )
        return match


_FOUND_NAMES = 4096
"""How many names :meth:`ModelTable.find` keeps the answer for."""


def _list_words(columns: list[str]) -> str:
    return columns[0] if len(columns) == 1 else ", ".join(columns[:-1]) + " and " + columns[-1]


# Size words of the table's entries (a generic family name needs one of them to name a model).
_SIZE_WORDS = frozenset({"small", "medium", "large", "xl", "base", "big"})

# Words of a name that make it another model built on the family's (Qwen2.5-VL-72B, Qwen2.5-Coder,
# Llama Guard, DeepSeek-R1-Distill-Llama-8B, CodeT5): its layers, context or vocabulary may differ.
_DERIVED_WORDS = frozenset(
    {"vl", "coder", "code", "math", "audio", "omni", "vision", "guard", "distill", "embedding",
     "reward", "long", "moe", "mt", "turbo", "distil"}
)  # fmt: skip

# Words of a release name that do not pick a size ("-Instruct", "-chat-hf", "-it", "-v0.1").
_RELEASE_WORDS = frozenset({"instruct", "chat", "hf", "it", "base", "preview", "v"})

_COUNT_TOKEN = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(万亿|亿|万|[kmbt])(?![a-z])", flags=re.IGNORECASE
)
# Counts in a name that are not the model's size: the per-expert size of "8x7B" (Mixtral has
# 46.7B parameters) and a context length joined into an identifier ("Phi-3-mini-4k-instruct").
_EXPERT_SIZE = re.compile(r"\d\s*[x×]\s*$", flags=re.IGNORECASE)
_JOINED_CONTEXT = re.compile(r"[-_]\d+k(?:[-_]|$)", flags=re.IGNORECASE)


def _name_counts(text: str) -> list[re.Match[str]]:
    """Count tokens of a name that can be its parameter count (see the two exceptions above)."""
    kept = []
    for match in _COUNT_TOKEN.finditer(text):
        # Only the few characters before the count can hold "8x" (no slicing of long text).
        if _EXPERT_SIZE.search(text, max(match.start() - 8, 0), match.start()):
            continue
        if match.group(2).lower() == "k" and _JOINED_CONTEXT.match(
            text, max(match.start() - 1, 0), match.end() + 1
        ):
            continue
        kept.append(match)
    return kept


def size_in_name(name: str) -> Printed | None:
    """The parameter count printed in a model name (``GPT-2 (1.5B)`` → 1.5B), or None.

    The text of the result is the count exactly as the name prints it, so a correction can
    replace it in the quote. The per-expert size in ``Mixtral 8x7B`` and a context length joined
    into an identifier (``Phi-3-mini-4k-instruct``) are not the model's size.
    """
    counts = _name_counts(unicodedata.normalize("NFKC", name))
    return parse_count(counts[0].group(0)) if counts else None


def parse_count(text: str) -> Printed | None:
    """A printed count such as ``1.5B``, ``7b``, ``124M`` or ``70 亿``; None if it is not one."""
    folded = fold(text)
    match = _COUNT_TOKEN.fullmatch(folded.strip())
    if match is None:
        return None
    number, unit = match.groups()
    try:
        printed = parse_printed(number + unit.upper())
    except NumberError:
        return None
    return Printed(
        text=text.strip(),
        value=printed.value,
        decimals=printed.decimals,
        exponent=printed.exponent,
        unit=printed.unit,
    )


def _size_tokens(text: str) -> tuple[list[Printed], set[str]]:
    counts: list[Printed] = []
    for match in _name_counts(text):
        printed = parse_count(match.group(0))
        if printed is not None:
            counts.append(printed)
    words = set(re.findall(r"[a-z]+", _COUNT_TOKEN.sub(" ", text)))
    return counts, words


@functools.cache
def _label_count(label: str) -> Printed | None:
    """A size label read as a count (labels are the table's own, so each is read once)."""
    return parse_count(label)


def _has_size(spec: ModelSpec, counts: list[Printed], words: set[str]) -> bool:
    for label in spec.sizes:
        printed = _label_count(label)
        if printed is None:
            if label.casefold() in words:
                return True
            continue
        for count in counts:
            # "1.5B" and "1542M" name the same model: equal within either one's printed digits.
            if abs(count.value - printed.value) <= max(count.half_width, printed.half_width):
                return True
    return False


def build_model_table(raw: Any, file: str = "models.yaml") -> ModelTable:
    """The validated table of parsed ``models.yaml`` data; :class:`DataError` names any problem."""
    shape = validated_file(raw, file, _TableFile, "families and models")
    families: list[ModelFamily] = []
    for key, fields in shape.families.items():
        try:
            families.append(ModelFamily.model_validate({"key": key, **fields}))
        except ValidationError as exc:
            raise DataError(f"{file}: family {key!r}: {first_error(exc)}") from None
        except re.error as exc:
            raise DataError(f"{file}: family {key!r}: pattern: {exc}") from None
    models = validated_entries(shape.models, file, ModelSpec, "models")
    known = {f.key for f in families}
    for spec in models:
        if spec.family not in known:
            raise DataError(f"{file}: entry {spec.key!r}: unknown family {spec.family!r}")
    keys = {m.key for m in models}
    for family in families:
        unknown = [key for key in family.includes if key not in keys]
        if unknown:
            raise DataError(f"{file}: family {family.key!r}: includes unknown {unknown[0]!r}")
        if family.bare is not None and family.bare not in {
            m.key for m in models if m.family == family.key
        }:
            raise DataError(f"{file}: family {family.key!r}: bare {family.bare!r} is not its entry")
    return ModelTable(tuple(families), models)


@functools.cache
def model_table() -> ModelTable:
    """The typed, validated table of ``models.yaml`` (cached)."""
    return build_model_table(load_yaml("models"))


def find_model(name: str) -> ModelMatch:
    """Look a printed model name (or a reference key) up in the reference table."""
    return model_table().find(name)
