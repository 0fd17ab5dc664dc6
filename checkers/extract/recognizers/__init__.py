"""Every recogniser, listed in one explicit dict.

A recogniser is a module with a docstring saying what it recognises and one function
``recognize(document) -> Iterator[Draft]``. To add one, write the module and list it here. A
module that sets ``DEFERS = True`` drafts no claim of a value (line, claimed) that a
recogniser listed before it already drafted, of any kind: it reads the same statement another
way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from checkers.extract.document import Document
from checkers.extract.draft import Draft
from checkers.extract.recognizers import (
    accelerator_facts,
    activations,
    byte_conversions,
    chains,
    code_arrays,
    code_values,
    dtype_facts,
    dtype_savings,
    formula_values,
    heading_products,
    heads,
    latex_matrices,
    laws,
    masks,
    matrix_memory,
    memory_tables,
    model_facts,
    model_tables,
    padding_masks,
    param_memory,
    percentages,
    positional,
    projections,
    qk_moments,
    rates,
    relations,
    rope,
    softmax_rows,
    steps,
    table_formulas,
    table_rows,
    table_shapes,
    table_totals,
    totals,
)

__all__ = ["ALL_RECOGNIZERS", "Recognizer"]


class Recognizer(Protocol):
    """The interface every recogniser module provides."""

    def recognize(self, document: Document, /) -> Iterator[Draft]:
        """Draft claims for what this recogniser finds in the lesson."""
        ...


ALL_RECOGNIZERS: dict[str, Recognizer] = {
    "chains": chains,
    "steps": steps,
    "byte_conversions": byte_conversions,
    "percentages": percentages,
    "model_tables": model_tables,
    "model_facts": model_facts,
    "accelerator_facts": accelerator_facts,
    "dtype_facts": dtype_facts,
    "positional": positional,
    "rope": rope,
    "latex_matrices": latex_matrices,
    "softmax_rows": softmax_rows,
    "table_formulas": table_formulas,
    "table_totals": table_totals,
    "table_shapes": table_shapes,
    "memory_tables": memory_tables,
    "heads": heads,
    "dtype_savings": dtype_savings,
    "param_memory": param_memory,
    "relations": relations,
    "table_rows": table_rows,
    "totals": totals,
    "heading_products": heading_products,
    "formula_values": formula_values,
    "matrix_memory": matrix_memory,
    "code_values": code_values,
    "code_arrays": code_arrays,
    "qk_moments": qk_moments,
    "masks": masks,
    "padding_masks": padding_masks,
    "activations": activations,
    "projections": projections,
    "laws": laws,
    "rates": rates,
}
"""Recogniser name → module."""
