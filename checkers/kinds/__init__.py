"""Every claim kind, listed in one explicit dict.

Each kind is a module with the same small interface (like pre-commit's languages):

* a docstring naming the YAML fields it reads;
* ``Input``: a :class:`checkers.outcome.KindInput` model of those fields;
* ``check(input, context) -> Outcome``: pure numerics, no I/O.

To add a kind, write ``checkers/kinds/<name>.py`` and add it to :data:`ALL_KINDS`.
"""

from __future__ import annotations

from typing import Any, Protocol

from checkers.kinds import (
    activation,
    arithmetic,
    attention,
    counting,
    ffn,
    identity,
    masked_softmax,
    memory,
    model_config,
    norm,
    positional,
    projection,
    residual,
    scaling,
    scores,
    softmax,
    statistic,
)
from checkers.outcome import Context, KindInput, Outcome

__all__ = ["ALL_KINDS", "Kind"]


class Kind(Protocol):
    """The interface every kind module provides."""

    @property
    def Input(self) -> type[KindInput]:
        """The model of the YAML fields this kind reads."""
        ...

    # ``claim`` is the module's own Input; typed Any so each module may name its own model.
    def check(self, claim: Any, context: Context, /) -> Outcome:
        """Recompute the claim and judge it against the printed values."""
        ...


ALL_KINDS: dict[str, Kind] = {
    "activation": activation,
    "arithmetic": arithmetic,
    "attention": attention,
    "counting": counting,
    "ffn": ffn,
    "identity": identity,
    "masked_softmax": masked_softmax,
    "memory": memory,
    "model_config": model_config,
    "norm": norm,
    "positional": positional,
    "projection": projection,
    "residual": residual,
    "scaling": scaling,
    "scores": scores,
    "softmax": softmax,
    "statistic": statistic,
}
"""Kind name (the ``kind:`` field of a claim) → module implementing it."""
