"""What every data file of ``checkers/data/`` shares: reading it, its entries' base models, and
the rule that a broken entry is one :class:`DataError` naming the file and the entry.

Used by the model and dtype tables (``checkers/data/__init__.py``) and the accelerator table
(``checkers/data/accelerators.py``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from importlib import resources
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "DataError",
    "Frozen",
    "Keyed",
    "first_error",
    "fold",
    "load_yaml",
    "validated_entries",
]


class DataError(ValueError):
    """A data file breaks its own rules; the message names the file and the entry."""


@functools.cache
def load_yaml(name: str) -> Any:
    """The parsed data file ``checkers/data/<name>.yaml`` (cached; treat it as read-only)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"data file names are lower-case identifiers, got {name!r}")
    text = resources.files("checkers.data").joinpath(f"{name}.yaml").read_text(encoding="utf-8")
    # libyaml's safe loader when present: the same safe subset, 8x faster on models.yaml.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)


class Frozen(BaseModel):
    """A data-file record: immutable, and unknown fields are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Keyed(Frozen):
    """An entry of a data file, named by its key in error messages."""

    key: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    """Stable identifier (``reference:`` in a claim for models)."""


def fold(text: str) -> str:
    """The text as names are compared: NFKC-normalised (full-width to half-width), case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


_Entry = TypeVar("_Entry", bound=Keyed)


def validated_entries(
    items: Any, file: str, model: type[_Entry], section: str
) -> tuple[_Entry, ...]:
    """Validate each entry of a data file on its own, so an error names the entry."""
    if not isinstance(items, (list, tuple)):
        raise DataError(f"{file}: {section}: expected a list of entries")
    entries: list[_Entry] = []
    for index, item in enumerate(items):
        label = (
            repr(item["key"]) if isinstance(item, Mapping) and "key" in item else f"#{index + 1}"
        )
        if isinstance(item, Mapping) and not str(item.get("source") or "").strip():
            raise DataError(f"{file}: entry {label}: no source (every number needs one)")
        try:
            entries.append(model.model_validate(item))
        except ValidationError as exc:
            raise DataError(f"{file}: entry {label}: {first_error(exc)}") from None
    keys = [e.key for e in entries]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise DataError(f"{file}: duplicate keys {duplicates}")
    return tuple(entries)


_Shape = TypeVar("_Shape", bound=BaseModel)


def validated_file(raw: Any, file: str, shape: type[_Shape], expected: str) -> _Shape:
    """The top level of a parsed data file read as ``shape``; :class:`DataError` naming the
    file when it is not a mapping (``expected`` says what it should hold) or does not fit."""
    if not isinstance(raw, Mapping):
        raise DataError(f"{file}: expected a mapping with {expected}")
    try:
        return shape.model_validate(raw)
    except ValidationError as exc:
        raise DataError(f"{file}: {first_error(exc)}") from None


def first_error(exc: ValidationError) -> str:
    """The first problem pydantic found, in the words of the file's fields."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"])
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        return f"unknown field {where!r}"
    return f"{where}: {message}" if where else message
