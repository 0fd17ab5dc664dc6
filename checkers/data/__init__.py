"""Reference data shipped with lessoncheck: published model configurations and their sources,
and the storage types numbers are kept in.

The data files are package data (``checkers/data/*.yaml``), read once with ``yaml.safe_load``
through :mod:`importlib.resources` and cached. :func:`dtype_table` gives the typed table of
``dtypes.yaml`` (bits per number, the names lessons write); :func:`model_table` the typed table
of ``models.yaml``; :func:`find_model` picks an entry by a name as a lesson prints it
(``"GPT-2 (1.5B)"``, ``"GPT-2 XL"``, ``"LLaMA-2 7B"``, ``"Llama 2 70B"``, ``"GPT-3 (175B)"``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from checkers.numbers import NumberError, Printed, parse_printed

__all__ = [
    "COLUMNS",
    "DtypeTable",
    "ModelFamily",
    "ModelMatch",
    "ModelSpec",
    "ModelStyle",
    "ModelTable",
    "StorageType",
    "dtype_table",
    "find_model",
    "load_yaml",
    "model_table",
    "parse_count",
    "size_in_name",
]

ModelStyle = Literal["gpt", "bert", "llama", "encoder_decoder"]
"""How a model's parameters are counted; see ``models.yaml`` for what each style means."""

COLUMNS = ("layers", "heads", "kv_heads", "hidden", "d_ff", "context", "vocab")
"""The integer architecture columns of a model entry, in the order tables usually print them."""


@functools.cache
def load_yaml(name: str) -> Any:
    """The parsed data file ``checkers/data/<name>.yaml`` (cached; treat it as read-only)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"data file names are lower-case identifiers, got {name!r}")
    text = resources.files(__name__).joinpath(f"{name}.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StorageType(_Frozen):
    """One number type weights or caches are stored in (an entry of ``dtypes.yaml``)."""

    name: str
    """Canonical name, as claims write it (``fp16``)."""
    bits: int = Field(gt=0)
    """Bits per stored number."""
    written: tuple[str, ...] = Field(min_length=1)
    """How lessons write it in text and table headers, the canonical name first."""
    aliases: tuple[str, ...] = ()
    """Further names a claim's ``dtype:`` accepts."""
    source: str = Field(min_length=3)
    """Where the width is defined."""

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


class ModelFamily(_Frozen):
    """A model family and the pattern that finds it in a printed name."""

    key: str
    """Identifier used by the entries' ``family`` field."""
    name: str
    """Display name, e.g. ``GPT-2``."""
    pattern: str
    """Regular expression matched against the case-folded printed name."""

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        re.compile(value)
        return value

    @property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern."""
        return re.compile(self.pattern)


class ModelSpec(_Frozen):
    """One published configuration, with the source of its numbers."""

    key: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    """Stable identifier, usable as ``reference:`` in a claim."""
    name: str
    """How a reader names the model, e.g. ``GPT-2 XL``."""
    family: str
    """Key of its :class:`ModelFamily`."""
    sizes: tuple[str, ...] = Field(min_length=1)
    """Labels that pick the entry out of its family: counts (``1.5B``) and words (``xl``)."""
    params: str
    """The parameter count as the source states it, e.g. ``7B``."""
    style: ModelStyle
    """How parameters are counted."""
    layers: int = Field(gt=0)
    """Transformer layers (per stack for encoder-decoder models)."""
    hidden: int = Field(gt=0)
    """Model width d_model."""
    heads: int = Field(gt=0)
    """Attention (query) heads."""
    kv_heads: int | None = Field(default=None, gt=0)
    """Key/value heads when fewer than ``heads`` (grouped-query attention)."""
    d_ff: int = Field(gt=0)
    """Inner width of the feed-forward network."""
    context: int | None = Field(default=None, gt=0)
    """Trained context length in tokens (None: no fixed length)."""
    vocab: int | None = Field(default=None, gt=0)
    """Vocabulary size (None when the source does not state it)."""
    cite: str = Field(min_length=5, max_length=80)
    """The source in a few words, for verdict messages."""
    source: str = Field(min_length=20)
    """Paper section/table or released config file for every number of the entry."""

    @field_validator("params")
    @classmethod
    def _params_is_a_count(cls, value: str) -> str:
        printed = parse_count(value)
        if printed is None:
            raise ValueError(f"params must be a count such as 7B or 124M, got {value!r}")
        return value

    @model_validator(mode="after")
    def _kv_heads_below_heads(self) -> ModelSpec:
        if self.kv_heads is not None and self.kv_heads >= self.heads:
            raise ValueError(f"{self.key}: kv_heads is only given when it is below heads")
        return self

    @property
    def params_value(self) -> float:
        """The stated parameter count as a number."""
        printed = parse_count(self.params)
        assert printed is not None  # checked by the validator
        return printed.value

    @property
    def n_kv_heads(self) -> int:
        """Key/value heads (equal to ``heads`` without grouped-query attention)."""
        return self.kv_heads if self.kv_heads is not None else self.heads

    @property
    def head_dim(self) -> int:
        """Width of one head, hidden / heads."""
        return self.hidden // self.heads

    def column(self, name: str) -> int | None:
        """The value of an architecture column (see :data:`COLUMNS`), None when not published."""
        if name == "kv_heads":
            return self.n_kv_heads
        value = getattr(self, name)
        return value if isinstance(value, int) else None


class _TableFile(_Frozen):
    families: dict[str, dict[str, str]]
    models: tuple[ModelSpec, ...]


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


@dataclass(frozen=True)
class ModelTable:
    """The reference table of ``models.yaml``."""

    families: tuple[ModelFamily, ...]
    models: tuple[ModelSpec, ...]

    def by_key(self, key: str) -> ModelSpec | None:
        """The entry with this key, or None."""
        return next((m for m in self.models if m.key == key), None)

    def family(self, key: str) -> ModelFamily:
        """The family with this key."""
        return next(f for f in self.families if f.key == key)

    def members(self, family: ModelFamily) -> tuple[ModelSpec, ...]:
        """The entries of one family."""
        return tuple(m for m in self.models if m.family == family.key)

    def find(self, name: str) -> ModelMatch:
        """The entry a printed name denotes: family by pattern, then size label or word."""
        exact = self.by_key(name.strip())
        if exact is not None:
            return ModelMatch(exact, self.family(exact.family), f"reference key {exact.key!r}")
        text = _fold(name)
        found = [(f, m) for f in self.families if (m := f.regex.search(text))]
        if not found:
            known = ", ".join(f.name for f in self.families)
            return ModelMatch(None, None, f"{name!r} is in no family of the table ({known})")
        family, family_match = min(found, key=lambda pair: pair[1].start())
        rest = text[: family_match.start()] + " " + text[family_match.end() :]
        members = self.members(family)
        counts, words = _size_tokens(rest)
        if not counts and not words:
            if len(members) == 1:
                return ModelMatch(members[0], family, f"{family.name} has one entry")
            return ModelMatch(
                None,
                family,
                f"{name!r} does not say which {family.name}: {', '.join(m.name for m in members)}",
                members,
            )
        chosen = tuple(m for m in members if _has_size(m, counts, words))
        if len(chosen) == 1:
            return ModelMatch(chosen[0], family, f"{name!r} names {chosen[0].name}")
        labels = "; ".join(f"{m.name}: {', '.join(m.sizes)}" for m in members)
        if not chosen:
            return ModelMatch(
                None, family, f"no {family.name} entry has the size in {name!r} ({labels})"
            )
        return ModelMatch(
            None, family, f"{name!r} fits several {family.name} entries ({labels})", chosen
        )


_COUNT_TOKEN = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(万亿|亿|万|[kmbt])(?![a-z])", flags=re.IGNORECASE
)


def size_in_name(name: str) -> Printed | None:
    """The parameter count printed in a model name (``GPT-2 (1.5B)`` → 1.5B), or None.

    The text of the result is the count exactly as the name prints it, so a correction can
    replace it in the quote.
    """
    match = _COUNT_TOKEN.search(unicodedata.normalize("NFKC", name))
    return parse_count(match.group(0)) if match else None


def parse_count(text: str) -> Printed | None:
    """A printed count such as ``1.5B``, ``7b``, ``124M`` or ``70 亿``; None if it is not one."""
    folded = _fold(text)
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


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _size_tokens(text: str) -> tuple[list[Printed], set[str]]:
    counts: list[Printed] = []
    for match in _COUNT_TOKEN.finditer(text):
        printed = parse_count(match.group(0))
        if printed is not None:
            counts.append(printed)
    words = set(re.findall(r"[a-z]+", _COUNT_TOKEN.sub(" ", text)))
    return counts, words


def _has_size(spec: ModelSpec, counts: list[Printed], words: set[str]) -> bool:
    for label in spec.sizes:
        printed = parse_count(label)
        if printed is None:
            if label.casefold() in words:
                return True
            continue
        for count in counts:
            # "1.5B" and "1542M" name the same model: equal within either one's printed digits.
            if abs(count.value - printed.value) <= max(count.half_width, printed.half_width):
                return True
    return False


@functools.cache
def model_table() -> ModelTable:
    """The typed, validated table of ``models.yaml`` (cached)."""
    raw = _TableFile.model_validate(load_yaml("models"))
    families = tuple(ModelFamily(key=key, **fields) for key, fields in raw.families.items())
    keys = [m.key for m in raw.models]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ValueError(f"models.yaml: duplicate keys {duplicates}")
    unknown = sorted({m.family for m in raw.models} - {f.key for f in families})
    if unknown:
        raise ValueError(f"models.yaml: entries name unknown families {unknown}")
    return ModelTable(families, raw.models)


def find_model(name: str) -> ModelMatch:
    """Look a printed model name (or a reference key) up in the reference table."""
    return model_table().find(name)
