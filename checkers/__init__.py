"""lessoncheck: a fact-checker for the worked numbers in Transformer and LLM lessons.

Layers, imported one way only: numerics (``numbers``, ``expr``, ``kinds``) ← claim loading
(``claims``, ``anchors``) ← running (``runner``) ← adapters (``pytest_plugin``, ``cli``,
``report``).
"""

__version__ = "0.1.0"
