"""``lessoncheck fix``: rewrite the wrong numbers of a lesson, and its claims with it.

For every failing claim whose checker suggests a fix (the quote with the corrected numbers at
their printed precision), the quote is located in the lesson the way claims are anchored
(whitespace and full-width tolerant, :mod:`checkers.lesson`) and only the numbers that change
are replaced inside that span, so the lesson keeps its formatting. The claim file is updated to
match: the ``quote:`` text and the ``claimed:`` value, edited in place at the character positions
the safe YAML composer reports, so comments, quoting and layout survive byte for byte (a
ruamel.yaml round trip would keep comments too, but may re-wrap or re-quote other lines).

Worked examples chain: ``score = 0.78`` feeds ``0.78 / 1.41 = 0.55`` (``uses:``). Correcting
the first number changes the input of the next step, so ``fix`` carries the change along: where
a dependent claim's quote prints the upstream value (found by lining its expression up with its
quote, or as the only such number), that number is rewritten too, the dependent is checked
again and fixed in turn, and printed intermediate steps (``= 0.156 + 0.273 + 0.221``) are
recomputed term by term by the kind that knows them
(:meth:`checkers.kinds.base.KindInput.step_corrections`). A worked example is rewritten as a
whole or not at all.

Nothing is written that has not been verified: every plan is run through the checks first, on
the edited texts in memory, and a fix is dropped (with the reason reported) when its claim would
still fail, when it would make another claim fail or go stale, when the quote is not unique or
not found, or when the suggested fix changes more than numbers. ``--diff`` (the default) prints
a unified diff; ``--write`` writes lessons, then claim files, each atomically.

The package, in the order a fix is made:

* :mod:`checkers.fix.tokens`: which numbers of a quote a suggested fix changes;
* :mod:`checkers.fix.workspace`: the files involved and their checks, in memory;
* :mod:`checkers.fix.alignment`: a quote in its lesson, an expression in its quote;
* :mod:`checkers.fix.claim_edits`: claim files edited in place;
* :mod:`checkers.fix.planner`: rounds of rewriting, worked examples carried along, hints;
* :mod:`checkers.fix.plan`: the result, its diff and what to tell the author.
"""

from __future__ import annotations

from checkers.fix.plan import FixPlan, NotFixed, Rewrite, describe
from checkers.fix.planner import plan_fix
from checkers.fix.tokens import number_changes

__all__ = ["FixPlan", "NotFixed", "Rewrite", "describe", "number_changes", "plan_fix"]
