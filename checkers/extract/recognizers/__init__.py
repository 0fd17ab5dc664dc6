"""Every recogniser, listed in one explicit dict.

A recogniser is a module with a docstring saying what it recognises and one function
``recognize(document) -> Iterator[Draft]``. To add one, write the module and list it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from checkers.extract.document import Document
from checkers.extract.draft import Draft
from checkers.extract.recognizers import (
    activations,
    chains,
    dtype_savings,
    heads,
    laws,
    masks,
    memory_tables,
    model_tables,
    param_memory,
    percentages,
    positional,
    projections,
    qk_moments,
    relations,
    softmax_rows,
    table_formulas,
)

__all__ = ["ALL_RECOGNIZERS", "Recognizer"]


class Recognizer(Protocol):
    """The interface every recogniser module provides."""

    def recognize(self, document: Document, /) -> Iterator[Draft]:
        """Draft claims for what this recogniser finds in the lesson."""
        ...


ALL_RECOGNIZERS: dict[str, Recognizer] = {
    "chains": chains,
    "percentages": percentages,
    "model_tables": model_tables,
    "positional": positional,
    "softmax_rows": softmax_rows,
    "table_formulas": table_formulas,
    "memory_tables": memory_tables,
    "heads": heads,
    "dtype_savings": dtype_savings,
    "param_memory": param_memory,
    "relations": relations,
    "qk_moments": qk_moments,
    "masks": masks,
    "activations": activations,
    "projections": projections,
    "laws": laws,
}
"""Recogniser name → module."""
