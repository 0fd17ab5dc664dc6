"""Tests of the claim kinds, one file per kind, and the helper they share."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from checkers.kinds.base import Context, Kind, Outcome


def check_kind(kind: Kind, fields: Mapping[str, Any], context: Context | None = None) -> Outcome:
    """Validate ``fields`` as the kind's ``Input`` and check them (as the runner would)."""
    return kind.check(kind.Input.model_validate(dict(fields)), context or Context())


def check_with(kind: Kind) -> Callable[..., Outcome]:
    """:func:`check_kind` bound to one kind module; the fields come as one dict or as
    keywords (``_check(params="7B", dtype="fp16", claimed="14 GB")``), a context after the
    dict (positional only, so a field may be called ``context``)."""

    def run(
        fields: Mapping[str, Any] | None = None, context: Context | None = None, /, **named: Any
    ) -> Outcome:
        return check_kind(kind, {**(fields or {}), **named}, context)

    return run
