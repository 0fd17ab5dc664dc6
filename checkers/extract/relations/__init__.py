"""Transformer relations: a statement's value recomputed from the quantities of its section.

Each relation is a module with a docstring giving its formula, the source of the formula, the
roles it reads (:mod:`checkers.extract.scope`), the statements it recognises and the readings it
accepts, and two names:

``CUE``
    A compiled pattern every statement the relation may concern matches (a byte unit, a
    parameter count…): the recogniser offers the relation only those lines, and reads a
    section's scope only when one is offered.
``CUE_BEFORE`` (optional, default False)
    True when the cue may be on the line before the statement instead (a sentence that wraps:
    "… the active count per token is" / "$9.2 × 2/16 ≈ 1.15$B"): the relation reads
    :attr:`~checkers.extract.relations.base.Statement.before` itself.
``CUE_HEADER`` (optional, default False)
    True when a table row is offered if its table's header matches the cue (a ``params``
    column whose rows print only numbers).
``WORDS`` (optional)
    Lower-case words one of which every line the cue matches contains: a line holding none
    is not searched with the cue (the recogniser's cheap test before the regex).
``relate(statement, scope) -> Draft | None``
    Given a :class:`~checkers.extract.relations.base.Statement` (one line of a section) and the
    section's :class:`~checkers.extract.scope.Scope`: derive which quantity the statement gives
    from its own words, take the other inputs from the scope, and return a draft of an existing
    claim kind whose ``note`` says where each input was read — or None when the text does not
    say which quantity the statement gives.

To add a relation, write the module and list it in :data:`ALL_RELATIONS`. The recogniser
``relations`` (:mod:`checkers.extract.recognizers.relations`) runs them all;
:mod:`checkers.extract.relations.base` holds what they share (the claimed value of a statement,
the note, the choice of the reading under which a claim holds).
"""

from __future__ import annotations

import re
from typing import Protocol

from checkers.extract.draft import Draft
from checkers.extract.relations import (
    attention_params,
    chinchilla,
    ffn_params,
    flops,
    gpu_count,
    kv_cache,
    kv_groups,
    lora,
    lr_schedule,
    model_params,
    moe_active,
    moe_params,
    perplexity,
    training_memory,
    weights_memory,
)
from checkers.extract.relations.base import Statement
from checkers.extract.scope import Scope

__all__ = ["ALL_RELATIONS", "Relation", "Statement"]


class Relation(Protocol):
    """The interface every relation module provides."""

    @property
    def CUE(self) -> re.Pattern[str]:
        """What every statement the relation may concern contains."""
        ...

    def relate(self, statement: Statement, scope: Scope, /) -> Draft | None:
        """A draft for the statement, or None when the relation does not apply."""
        ...


ALL_RELATIONS: dict[str, Relation] = {
    "kv_cache": kv_cache,
    "kv_groups": kv_groups,
    "weights_memory": weights_memory,
    "training_memory": training_memory,
    "ffn_params": ffn_params,
    "attention_params": attention_params,
    "lora": lora,
    "model_params": model_params,
    "moe_active": moe_active,
    "moe_params": moe_params,
    "flops": flops,
    "gpu_count": gpu_count,
    "chinchilla": chinchilla,
    "perplexity": perplexity,
    "lr_schedule": lr_schedule,
}
"""Relation name → module."""
