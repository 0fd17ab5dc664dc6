"""Lookup of claim kinds by name, with "did you mean" for names that are nearly right.

The kinds themselves are listed in one table, :data:`checkers.catalog.KINDS`, and imported on
first use through :data:`checkers.kinds.ALL_KINDS`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from checkers.kinds import ALL_KINDS
from checkers.kinds.base import Kind

__all__ = ["UnknownKind", "did_you_mean", "lookup"]


class UnknownKind(KeyError):
    """A claim names a kind we do not have."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.message = f"unknown kind {name!r}{did_you_mean(name, ALL_KINDS)}" + (
            f"; known kinds: {', '.join(sorted(ALL_KINDS))}"
        )

    def __str__(self) -> str:
        return self.message


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'softmax'?"`` for the nearest choices, or an empty string."""
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(repr(c) for c in close) + "?"


def lookup(name: str) -> Kind:
    """The kind module registered under ``name``."""
    try:
        return ALL_KINDS[name]
    except KeyError:
        raise UnknownKind(name) from None
