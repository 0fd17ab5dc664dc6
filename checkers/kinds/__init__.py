"""Every claim kind, listed in one explicit dict.

Each kind is a module with the same small interface (like pre-commit's languages):

* a docstring naming the YAML fields it reads;
* ``Input``: a :class:`checkers.kinds.base.KindInput` model of those fields;
* ``check(fields, context) -> Outcome``: pure numerics, no I/O.

That interface is :class:`checkers.kinds.base.Kind`. To add a kind, write
``checkers/kinds/<name>.py`` and add it to :data:`checkers.catalog.KINDS` (module and summary).

A kind's module is imported the first time a claim of that kind is looked up, so a run of
``arithmetic`` claims never pays for numpy or sympy (``statistic``), and start-up stays short.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, cast

from checkers.catalog import KINDS

if TYPE_CHECKING:
    from checkers.kinds.base import Kind

__all__ = ["ALL_KINDS", "KIND_MODULES"]


KIND_MODULES: dict[str, str] = {name: entry.module for name, entry in KINDS.items()}
"""Kind name (the ``kind:`` field of a claim) → module implementing it."""


class _Kinds(Mapping[str, "Kind"]):
    """A read-only dict of kind name → module that imports each module on first lookup."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, Kind] = {}

    def __getitem__(self, name: str) -> Kind:
        kind = self._loaded.get(name)
        if kind is None:
            kind = cast("Kind", importlib.import_module(self._modules[name]))
            self._loaded[name] = kind
        return kind

    def __contains__(self, name: object) -> bool:
        return name in self._modules

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __repr__(self) -> str:
        return f"ALL_KINDS({', '.join(self._modules)})"


ALL_KINDS: Mapping[str, Kind] = _Kinds(KIND_MODULES)
"""Kind name → module implementing it, imported when first looked up (see :data:`KIND_MODULES`)."""
