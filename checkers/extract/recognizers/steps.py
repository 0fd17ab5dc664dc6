"""Recogniser ``steps``: a calculation worked as steps that each repeat the left side.

Recognises, in prose (paragraphs and list items, one step per source line, the lines of one
paragraph or of consecutive list items of one section), a value worked out over lines that
restate what they compute, the way a reader is walked through a calculation:

* ``- f(1) = (1)³ - 3(1)² + 2(1) + 1`` / ``- f(1) = 1 - 3 + 2 + 1`` / ``- f(1) = 1``;
* ```Score = (1 * 5) + (1 * 3) + (0 * 1) + (-4)``` / ```Score = 5 + 3 + 0 - 4``` / ```Score = 4```
  (each line one inline code span, or written in bold: ``**z** = …``);
* vectors: ``z = [0.2, 0.5] + [0.1, 0.1]`` / ``z = [0.3, 0.6]``.

Every line of a run is ``left = right`` with the same left side (a name, ``f(1)``, ``∂f/∂x``:
it holds a letter) and nothing after the right side but closing markup or a check mark; every
right side evaluates as a side of an equation chain does (:mod:`checkers.extract.recognizers.
chains`: implicit products ``3(1)``, superscript powers, units); the first is computed and the
last is a printed number or vector, the value claimed. The run is the chain
``first = … = last`` and becomes one ``arithmetic`` claim whose quote runs from the first right
side to the last, so a wrong step anywhere in it, or a wrong result, fails that one claim; its
right sides (not the left side restated on each line, which no check reads) are what ``scan
--stats`` counts as checked (:attr:`~checkers.extract.draft.Draft.counted`).

Nothing is drafted for a list of alternatives (``- r = 8: small`` / ``- r = 16: the default``:
words after the value, or no side computed), a line with a second relation (its own chain,
``chains``' to draft), a left side that is a number, LaTeX (``chains`` reads it), or a run that
a heading, a table, a code block or a line of another shape interrupts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Document
from checkers.extract.draft import Draft
from checkers.extract.recognizers.chains import _MAX_EXPRESSION, _draft, _evaluable, _Side

__all__ = ["recognize"]

NAME = "steps"

_LEFT_FORBIDDEN = re.compile(r"[`*$\\]")
"""What a left side may not hold (markup, LaTeX; a second relation is refused before)."""
_RIGHT_FORBIDDEN = re.compile(r"[<>`$\\:;!?]")
"""What a right side may not hold: a comparison, markup, LaTeX, a clause after it."""
_MAX_LEFT = 40
"""Longest left side (spaces inside it included): a name or ``f(1)``, not a sentence."""
_CHECK_MARKS = "✓✔"
_LETTER = re.compile(r"[A-Za-z\u0370-\u03ff∂]")


@dataclass(frozen=True)
class _Step:
    """One line of a run: its left side (spaces folded), right side and where they are."""

    lhs: str
    rhs: str
    relation: str
    line: int
    text: str
    """The line as written."""
    start: int
    """Offset of the right side in ``text``."""
    mark: int
    """Offset of the relation in ``text``."""

    @property
    def worked(self) -> str:
        """The relation and the right side as written (``= 1 - 3 + 2 + 1``): the statement of
        the line a wrong value fails, written once on it (the line's only relation), where the
        right side alone may also stand in the left (``f(1) = 1``)."""
        return self.text[self.mark : self.start + len(self.rhs)]


def _step(text: str, line: int) -> _Step | None:
    """The line read as a step, or None when it is not one.

    A step is ``left = right`` (or ``≈``), the only relation of the line: optional spaces, an
    opening `` ` `` or ``**``, the left side, an optional closing ``**``, the relation, the
    right side, then optional closing ``**``, `` ` `` and a check mark, in that order, spaces
    between any of them. Read by splitting at the relation and stripping each end, never by one
    regex over the whole line: a pattern with a lazy side between runs of ``\\s*`` backtracks
    over every way of sharing a long run of spaces between them, which is quadratic (and worse)
    on a hostile line; every step here is one pass over the line."""
    if text.count("=") + text.count("≈") != 1:
        return None
    at = text.find("=")
    if at < 0:
        at = text.find("≈")
    lhs = _left_side(text[:at])
    if lhs is None or not _LETTER.search(lhs) or lhs[-1] in "+-−×*/^":
        return None
    right = text[at + 1 :].rstrip()
    if right and right[-1] in _CHECK_MARKS:
        right = right[:-1].rstrip()
    if right.endswith("`"):
        right = right[:-1].rstrip()
    if right.endswith("**"):
        right = right[:-2].rstrip()
    rhs = right.lstrip()
    if not rhs or _RIGHT_FORBIDDEN.search(rhs):
        return None
    start = at + 1 + len(right) - len(rhs)
    return _Step(lhs, rhs, text[at], line, text, start, at)


def _left_side(text: str) -> str | None:
    """What stands left of the relation, without the markup around it (an opening `` ` `` or
    ``**``, a closing ``**``) and with its spaces folded; None when it is empty, longer than
    :data:`_MAX_LEFT` or holds what a left side may not."""
    left = text.strip()
    if left.startswith("`"):
        left = left[1:].lstrip()
    elif left.startswith("**"):
        left = left[2:].lstrip()
    if left.endswith("**"):
        left = left[:-2].rstrip()
    if not left or len(left) > _MAX_LEFT or _LEFT_FORBIDDEN.search(left):
        return None
    return " ".join(left.split())


def _continues(before: _Step, step: _Step) -> bool:
    """True when ``step`` is the next step of the run ending in ``before``: the line after it,
    restating the same left side."""
    return step.lhs == before.lhs and step.line == before.line + 1


def _runs(document: Document) -> Iterator[list[_Step]]:
    """Runs of at least two steps with one left side, on consecutive lines of prose blocks of
    one section."""
    run: list[_Step] = []
    section = -1
    for block in document.blocks:
        if block.kind != "paragraph" or block.section != section:
            if len(run) > 1:
                yield run
            run = []
            section = block.section
            if block.kind != "paragraph":
                continue
        for line in block.lines:
            text = line.text
            step = _step(text, line.number) if "=" in text or "≈" in text else None
            if step is not None and run and _continues(run[-1], step):
                run.append(step)
                continue
            if len(run) > 1:
                yield run
            run = [step] if step is not None else []
    if len(run) > 1:
        yield run


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every run of steps whose right sides evaluate."""
    for run in _runs(document):
        draft = _run_draft(run, document)
        if draft is not None:
            yield draft


def _run_draft(run: list[_Step], document: Document) -> Draft | None:
    """The chain of the run's right sides, quoted from the first to the last."""
    first, last = run[0], run[-1]
    # The expression is every right side but the last, joined by " = ": the arithmetic kind
    # refuses one longer than _MAX_EXPRESSION (as chains' _draft does), so a run that long (a
    # hostile lesson restating one name on thousands of lines) is refused before any side is
    # evaluated; and so is one whose ends say it is no value worked out (the first printed,
    # the last computed: settings or restatements), before its middle sides are.
    if sum(len(step.rhs) + 3 for step in run[:-1]) - 3 > _MAX_EXPRESSION:
        return None
    opening, result = _evaluable(first.rhs), _evaluable(last.rhs)
    if opening is None or result is None or opening[1] or not result[1]:
        return None
    evaluated = [opening]
    for step in run[1:-1]:
        side = _evaluable(step.rhs)
        if side is None:
            return None
        evaluated.append(side)
    evaluated.append(result)
    # The quote as written: the first right side to the end of its line, the source lines
    # between (list markers and all), and the last line up to the end of its right side.
    pieces: list[str] = []
    starts: list[int] = []  # where each right side starts in its piece
    for step in run:
        raw = document.source_line(step.line)
        at = raw.find(step.text)
        if at < 0:
            return None
        starts.append(at + step.start)
        pieces.append(raw)
    pieces[-1] = pieces[-1][: starts[-1] + len(last.rhs)]
    pieces[0], starts[0] = pieces[0][starts[0] :], 0
    source = "\n".join(pieces)
    sides: list[_Side] = []
    offset = 0
    for step, piece, start, (value, printed) in zip(run, pieces, starts, evaluated, strict=True):
        begin = offset + start
        sides.append(_Side(step.rhs, begin, begin + len(step.rhs), step.relation, value, printed))
        offset += len(piece) + 1
    if len({isinstance(side.value, tuple) for side in sides}) != 1:
        return None
    draft = _draft(
        sides,
        first.line,
        source,
        range(len(source)),
        document,
    )
    if draft is None:
        return None
    return Draft(
        kind=draft.kind,
        quote=draft.quote,
        line=draft.line,
        fields=draft.fields,
        confidence=draft.confidence,
        recognizer=NAME,
        slug=draft.slug,
        note=f"the steps of lines {first.line}–{last.line}, each restating {first.lhs}",
        # The quote holds the left side restated on every line after the first (the 1 of
        # "f(1) ="), which no check reads: only the right sides count as checked.
        counted=tuple((step.line, step.worked) for step in run),
    )
