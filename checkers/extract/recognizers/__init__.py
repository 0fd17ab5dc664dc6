"""Every recogniser, listed in one explicit dict.

A recogniser is a module with a docstring saying what it recognises and one function
``recognize(document) -> Iterator[Draft]``. To add one, write the module and list it here. A
module that sets ``DEFERS = True`` drafts no claim of a value (line, claimed) that a
recogniser listed before it already drafted, of any kind: it reads the same statement another
way.

A module may set ``NEEDS``, a tuple of lower-case literal strings at least one of which a
lesson holds whenever the recogniser drafts anything in it: strings every match of its patterns
requires, in every spelling it reads (a case-insensitive pattern's word, and the LaTeX command
:func:`~checkers.extract.latex.plain` turns into a symbol it needs, ``\\infty`` for ``∞``).
:func:`may_draft` tests them on the lesson's text lowered by :func:`checkers.lesson.caseless`
(as a case-insensitive pattern reads it: "ı" is an "i"), which ``drafts_of`` computes once, and
a lesson with none of them is not read by that recogniser at all (most lessons never speak
of masks, heads or number types). ``tests/extract/test_needs.py`` holds every declaration sound.
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
    length_ratios,
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
    result_shares,
    rope,
    softmax_rows,
    steps,
    table_formulas,
    table_rows,
    table_shapes,
    table_totals,
    time_conversions,
    totals,
)

__all__ = ["ALL_RECOGNIZERS", "Recognizer", "may_draft"]


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
    "time_conversions": time_conversions,
    "length_ratios": length_ratios,
    "result_shares": result_shares,
}
"""Recogniser name → module."""


def may_draft(recognizer: object, folded: str, known: dict[int, bool] | None = None) -> bool:
    """False when ``recognizer`` names the strings it ``NEEDS`` and the lesson's lowered text
    ``folded`` (:func:`checkers.lesson.caseless`) holds none of them: it would draft nothing
    there. ``known`` keeps the answer for each tuple of strings already tested on this lesson
    (recognisers share one: every statement of a storage type names a type)."""
    needs: tuple[str, ...] = getattr(recognizer, "NEEDS", ())
    if not needs:
        return True
    if known is None:
        return any(need in folded for need in needs)
    found = known.get(id(needs))
    if found is None:
        found = known[id(needs)] = any(need in folded for need in needs)
    return found
