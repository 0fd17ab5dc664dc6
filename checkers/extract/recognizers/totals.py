"""Recogniser ``totals``: a list of components followed by the total the text states for them.

Recognises, within one section, a run of list items (or of lines of one block) that each give
one quantity in the same unit, ended by a line that says it is their total:

* ``- Weights: ~35 GB`` / ``- KV cache: ~20 GB`` / ``- Activations: ~5 GB`` then
  ``- Total: ~60 GB`` (or a paragraph ``Total: ~60 GB`` right after the list);
* ``参数：12 亿`` / ``嵌入：3 亿`` / ``合计：15 亿`` in one block;
* total words: ``Total``, ``Grand total``, ``In total``, ``Sum``, ``Altogether``, ``合计``,
  ``总计``, ``共计``, ``总共``, ``总和`` (optionally with what is totalled: ``Total memory:``).

The total must be the sum of the components under the rounding of their printed digits (a
component printed as ``~35 GB`` stands for anything that rounds to it). The relation is taken
only where the text states it, so:

* units are bytes (``KB`` … ``TiB``, ``bytes``, ``字节``) or scaled counts (``K M B T``,
  ``万 亿``, ``million`` …): plain numbers (step numbers, indices) are never summed;
* each component gives exactly one value: the result after its last ``=``/``≈``, the quantity
  right after its label's colon, its only quantity, or the one quantity it marks as its own
  total (``About 1.2B total``); a rate (``144M per layer``, ``30M apiece``) is never a
  component. One item without such a value, and the list is not a sum (no draft);
* the total line states one quantity in its clause, not followed by an operator (``Total:
  26B core + 14B MTP ≈ 37B`` is a chain, read by ``chains``), and not a rate;
* a nested item belongs to its parent and is not summed again; the run stops at the first
  block that is not a list item (or line) of the same list.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft

__all__ = ["recognize"]

NAME = "totals"

_NUMBER = r"(\d[\d,]*(?:\.\d+)?)"
_BYTES = r"\s*(?:[KMGTP]i?B|bytes?|字节)(?![A-Za-z])"
_COUNT = r"(?:\s*(?:万亿|亿|万|thousand|million|billion|trillion)(?![A-Za-z])|[KMBT](?![A-Za-z]))"
_QUANTITY = re.compile(r"(?<![\w.,/])" + _NUMBER + r"(" + _BYTES + "|" + _COUNT + ")")
_RATE_AFTER = re.compile(r"\s*(?:per\b|/\s*[A-Za-z]|each\b|apiece\b|every\b|每|/层|/token)")
_APPROX = r"(?:~|≈|∼|约|大约|about\s|roughly\s|approximately\s|around\s)?\s*"
_TOTAL = re.compile(
    r"^\W{0,4}(?:grand\s+total|in\s+total|total|sum|altogether|合计|总计|共计|总共|总和)"
    r"(?:\s+(?:memory|vram|params|parameters|size|count|weights))?"
    r"(?:显存|内存|参数量?)?\W{0,3}\s*(?:[:：=≈]|is\b|是)?\s*" + _APPROX,
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")
_RELATION = re.compile(r"(?:=|≈|＝)\s*" + _APPROX)
_OPERATOR_AFTER = re.compile(r"\s*(?:[+×*/÷−]|-\s*\d)")
_CLAUSE_END = re.compile(r"[.;,，；。—]\s|[;；。—(（，]|$")
_OWN_TOTAL = re.compile(r"total|in all|altogether|合计|总计|共", re.IGNORECASE)
_LABEL = re.compile(r"^(?!\s*\d)[^:：]{1,60}?[:：]\s*" + _APPROX)
_MIN_COMPONENTS = 2


@dataclass(frozen=True)
class _Quantity:
    """A quantity printed in a line: its number, unit family and place."""

    number: str
    """The number as printed (``35``, ``1,024``)."""
    unit: str
    """Its unit as printed, stripped (``GB``, ``B``, ``亿``)."""
    family: str
    """``bytes`` or ``count``."""
    start: int
    """Offset of the number in the line."""
    end: int
    """Offset after the unit."""

    @property
    def term(self) -> str:
        """The quantity as an arithmetic term the ``arithmetic`` kind evaluates."""
        number = self.number
        if self.family == "bytes":
            unit = "" if self.unit.lower().startswith("byte") or self.unit == "字节" else self.unit
            return f"({number}*{unit})" if unit else number
        return f"({number}*{_SCALES[self.unit]})"


_SCALES = {
    "K": "1e3",
    "M": "1e6",
    "B": "1e9",
    "T": "1e12",
    "万": "1e4",
    "亿": "1e8",
    "万亿": "1e12",
    "thousand": "1e3",
    "million": "1e6",
    "billion": "1e9",
    "trillion": "1e12",
}


def _quantities(text: str) -> list[_Quantity]:
    found = []
    for match in _QUANTITY.finditer(text):
        unit = match.group(2).strip()
        family = "count" if unit in _SCALES else "bytes"
        found.append(_Quantity(match.group(1), unit, family, match.start(), match.end()))
    return found


def _is_rate(text: str, quantity: _Quantity) -> bool:
    return bool(_RATE_AFTER.match(text, quantity.end))


def _followed_by_operator(text: str, quantity: _Quantity) -> bool:
    return bool(_OPERATOR_AFTER.match(text, quantity.end))


def _component(text: str, family: str) -> _Quantity | None:
    """The one value a list item gives in ``family``, or None (see the module docstring)."""
    quantities = [q for q in _quantities(text) if q.family == family]
    if not quantities:
        return None
    relations = list(_RELATION.finditer(text))
    if relations:
        after = [q for q in quantities if q.start == relations[-1].end()]
        if after and not _followed_by_operator(text, after[0]) and not _is_rate(text, after[0]):
            return after[0]
        return None  # a worked item whose result is not a quantity of this unit
    label = _LABEL.match(text)
    if label is not None:
        first = [q for q in quantities if q.start == label.end()]
        if first:
            value = first[0]
            if _followed_by_operator(text, value) or _is_rate(text, value):
                return None
            return value
    plain = [q for q in quantities if not _is_rate(text, q)]
    if len(plain) == 1:
        return plain[0]
    own = [q for q in plain if _OWN_TOTAL.search(text[max(0, q.start - 12) : q.end + 12])]
    return own[0] if len(own) == 1 else None


def _total(text: str) -> _Quantity | None:
    """The total a line states, or None when the line is not a plain statement of one."""
    head = _TOTAL.match(text)
    if head is None:
        return None
    quantities = _quantities(text)
    first = [q for q in quantities if q.start == head.end()]
    if not first:
        return None
    total = first[0]
    if _followed_by_operator(text, total) or _is_rate(text, total):
        return None
    clause = _CLAUSE_END.search(text, total.end)
    end = clause.start() if clause is not None else len(text)
    if any(q.family == total.family and total.end <= q.start < end for q in quantities):
        return None  # "Total: ~476B for core + 14B MTP": which quantities it sums is a guess
    if _TOTAL.match(text[total.end :].lstrip()) is not None:
        return None
    return total


@dataclass(frozen=True)
class _Entry:
    """A list item or a line that may be a component or the total."""

    text: str
    """Its text, list marker removed."""
    line: int
    """Its 1-based line in the lesson."""
    indent: int
    """Indentation of its list marker (0 for a line of a block)."""
    item: bool
    """True for a list item, False for a line of a block."""


def _entries(
    document: Document, blocks: Sequence[Block], named: Sequence[int]
) -> list[list[_Entry]]:
    """Runs of entries that may form one list: consecutive list items (any indentation), or
    the lines of one block that is not a list item (only of a block with a line of ``named``,
    the lines that may state a total: another block's runs have none)."""
    runs: list[list[_Entry]] = []
    current: list[_Entry] = []
    for block in blocks:
        if block.kind not in ("paragraph", "fence") or not block.lines:
            if current:
                runs.append(current)
            current = []
            continue
        marker = (
            _LIST_ITEM.match(document.raw_line(block.line)) if block.kind == "paragraph" else None
        )
        if marker is not None:
            text = " ".join(line.text.strip() for line in block.lines)
            current.append(_Entry(text, block.line, len(marker.group(1)), True))
            continue
        if current:
            # A paragraph right after the list may state its total ("Grand total: …").
            text = " ".join(line.text.strip() for line in block.lines)
            top = min(entry.indent for entry in current)
            current.append(_Entry(text, block.line, top, False))
            runs.append(current)
            current = []
        if _holds_a_line(block, named):
            runs.extend(_line_runs(block))
    if current:
        runs.append(current)
    return runs


# A border is a run of rules anywhere or a corner at the start; searched as two patterns, since
# one alternation that starts with "^" is retried at every character of every line.
_BORDER_RULE = re.compile(r"[─━═]{2}")
_BORDER_CORNER = re.compile(r"\s*[┌└├╔╚╠+]-|\s*[┌└├╔╚╠]")
_BOX_EDGES = "│┃║| \t"


def _line_runs(block: Block) -> list[list[_Entry]]:
    """The lines of a block as runs of entries: a box's border or title line (``┌── budget 24
    GiB ──┐``) is not a component and ends a run; a box's side bars are not text."""
    runs: list[list[_Entry]] = [[]]
    for line in block.lines:
        if _BORDER_RULE.search(line.text) or _BORDER_CORNER.match(line.text):
            runs.append([])
            continue
        runs[-1].append(_Entry(line.text.strip(_BOX_EDGES), line.number, 0, False))
    return [run for run in runs if run]


def _drafts_in_run(run: list[_Entry]) -> Iterator[Draft]:
    for index, entry in enumerate(run):
        total = _total(entry.text)
        if total is None:
            continue
        components: list[_Quantity] = []
        for before in reversed(run[:index]):
            if before.item and before.indent > entry.indent:
                continue  # a nested item belongs to its parent
            if before.item and before.indent < entry.indent:
                break  # the parent of the total's list
            if _total(before.text) is not None:
                break  # an earlier total closes an earlier list
            value = _component(before.text, total.family)
            if value is None:
                components = []
                break  # one item without a value: the list is not a sum of quantities
            components.append(value)
        if len(components) < _MIN_COMPONENTS:
            continue
        components.reverse()
        approximate = bool(re.search(r"[~≈∼约]|about|roughly|approximately|around", entry.text))
        claimed = entry.text[total.start : total.end].strip()
        terms = [c.term for c in components]
        carried = sorted({c.number for c in components})
        quote_start = _TOTAL.match(entry.text)
        quote = entry.text[quote_start.start() if quote_start else 0 : total.end].strip()
        fields: dict[str, object] = {
            "expression": " + ".join(terms),
            "claimed": ("≈ " if approximate else "") + claimed,
            "carried": carried,
        }
        if total.family == "bytes" or any(c.family == "bytes" for c in components):
            fields["prefixes"] = "either"
        yield Draft(
            kind="arithmetic",
            quote=quote.lstrip("-*+ "),
            line=entry.line,
            fields=fields,
            confidence=0.6,
            recognizer=NAME,
            slug="total-" + "-".join(c.number for c in components),
        )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every stated total of a list of quantities."""
    named = _lines_naming_a_total(document)
    if not named:
        return
    # A section with no line has no entry; a section's lines run up to the next one's first.
    sections = [(blocks, start) for blocks in document.sections() if (start := _first_line(blocks))]
    for index, (section, start) in enumerate(sections):
        end = sections[index + 1][1] if index + 1 < len(sections) else None
        # A run is read only when one of its entries is a total, whose word is on its line.
        first = bisect.bisect_left(named, start)
        if first == len(named) or (end is not None and named[first] >= end):
            continue
        for run in _entries(document, section, named):
            if len(run) > _MIN_COMPONENTS and any(_TOTAL.match(e.text) for e in run):
                yield from _drafts_in_run(run)


def _holds_a_line(block: Block, lines: Sequence[int]) -> bool:
    """Whether one of the (sorted) ``lines`` is among the block's."""
    first = bisect.bisect_left(lines, block.lines[0].number)
    return first < len(lines) and lines[first] <= block.lines[-1].number


def _first_line(section: Sequence[Block]) -> int:
    """The first line of a section's first block that has one, 0 when none has."""
    return next((block.line for block in section if block.lines), 0)


_TOTAL_WORDS = ("total", "sum", "altogether", "合计", "总计", "共计", "总共", "总和")
"""Every match of :data:`_TOTAL` holds one of these (in lower case)."""
_BEFORE_A_TOTAL = re.compile(r"[\W\d]*(?:(?:grand|in)\s+)?")
"""What comes before a total word on its line when an entry starts with it: the entry's
``\\W{0,4}``, and what its line loses to become the entry (indentation, a quote's ">", a list
marker such as "12.", a box's side bars), or the "grand " or "in " of a two-word total."""


def _lines_naming_a_total(document: Document) -> list[int]:
    """The 1-based numbers, in order, of the lines of the lesson where an entry may start with
    a total word: one of :data:`_TOTAL_WORDS` in any case (:func:`checkers.lesson.caseless`,
    one character for one) with only :data:`_BEFORE_A_TOTAL` before it on its line. One scan
    of the lesson for each word, and only the sections and blocks holding such a line are
    read."""
    lowered = document.caseless
    starts = document.line_starts
    lines: set[int] = set()
    for word in _TOTAL_WORDS:
        at = lowered.find(word)
        while at >= 0:
            line = document.line_of(at)
            if _BEFORE_A_TOTAL.fullmatch(lowered, starts[line - 1], at):
                lines.add(line)
            # A later one on the line has this one's letters before it.
            at = lowered.find(word, starts[line]) if line < len(starts) else -1
    return sorted(lines)
