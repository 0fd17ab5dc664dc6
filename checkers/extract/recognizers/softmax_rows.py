"""Recogniser ``softmax_rows``: attention weights printed next to their scores, or alone.

Recognises:

* a score vector and a weight vector of the same length on one line, joined by ``softmax`` or an
  arrow (``scores [1, 2, 3] → softmax → [0.09, 0.24, 0.67]``, ``分数 [2.0, 1.0] 过 softmax 得到
  [0.73, 0.27]``) → a ``softmax`` claim;
* a vector presented as weights or probabilities (``权重 [0.54, 0.46]``, ``probabilities
  [0.2, 0.5, 0.3]``) whose entries all lie in [0, 1] → a ``softmax`` claim that the row sums to 1
  (``claimed_only``: no scores, so that is all that can be checked);
* a probability row a few lines after its scores, in the same section (code, prose or both):
  ``logits = [0.55, 0.7, 0.85, 1.0]`` … ``weights = softmax(logits)`` … ``[0.21, 0.24, 0.28,
  0.27]``, or ``softmax([2.0, 1.0, 0.1])`` and, below it, "gives [0.66, 0.24, 0.10]" → a
  ``softmax`` claim against the scores. The scores must be presented as scores (``logits``,
  ``scores``, ``分数`` before them, or the argument of ``softmax(…)``), the row must have the same
  length, and a softmax, probability, attention or gate word must stand on the lines from the
  scores to the row (a ``softmax(name)`` call naming the scores' variable counts). A temperature
  stated there (``T = 0.5``, ``temperature=2``, ``softmax(logits / 0.5)``) is applied, and so is
  the one a loop over literal temperatures prints before each row (``for T in (1.0, 0.5):
  print(T, softmax(logits / T))`` → ``0.5 [0.842 0.114 …]``);
* a sentence after such rows, printed at two or more temperatures from the same scores, that
  says how one entry moves when the temperature is halved or doubled ("Halving the temperature
  pushes the top weight from 0.61 to 0.84", "温度加倍后，第一个 token 的概率从 0.61 降到
  0.43"): the entry is the one whose value at one printed temperature the first number
  matches (at its printed precision; it must match only one), the second number is claimed as
  that entry at half (or twice) that temperature, which must also be printed → an
  ``arithmetic`` claim of that softmax entry written out;
* the top-k of such a row renormalised to sum to 1 ("keep the top 2 and renormalise: 0.46 /
  0.54", on that line or one weight per following line) → a ``renormalised`` claim from the
  latest probability row printed above it in the section (and that row's scores, if known, so a
  row that is itself wrong makes the weights *carried*);
* a table whose columns are the entries of one probability row (two or more headers of weights
  or probabilities that differ only by an index, ``weight on 0 | weight on 1``, ``$p_1$ | $p_2$
  | $p_3$``, not ``weight decay | weight init``), one row per
  query or temperature: with a temperature column (``T``, ``τ``, 温度) and scores of as many
  entries printed above the table in its section (``logits $z = [2.0, 1.0, 0.1]$``), each row →
  a ``softmax`` claim of softmax(scores / T); otherwise a row → a claim that it sums to 1
  (``claimed_only``), but only when another row of the table does sum to 1 within its
  rounding — the evidence that the columns hold the whole row, not its top entries;
* a cumulative column next to a probability column (``概率 | 累计``, ``probability |
  cumulative``, as top-p tables print them) → an ``arithmetic`` claim per row from the second
  on: the printed probabilities up to that row summed, each read as the rounding it is
  (``carried``), against the cumulative cell;
* in a lesson that continues the previous lesson's example (:mod:`checkers.extract.course`),
  top-k weights renormalised after the section restates the top k entries of a row that lesson
  printed below its scores ("the top 2: Expert 3: weight = 0.28, Expert 4: weight = 0.27" …
  "after re-normalizing:" and one weight per following line) → a ``renormalised`` claim from
  that row and its scores, with ``carried_from`` naming where it was printed (a wrong row there
  makes these weights fail here, as carried); quoted on the line of the first weight;
* a score matrix printed in a text block with row and column labels and ``−∞`` in masked cells,
  followed by weight rows ``位置2: [0.25, 0.38, 0.37, 0]`` → a ``masked_softmax`` claim per row,
  against the lesson's own masked scores (a fully masked row printed with numbers is wrong).

A list is a probability row only with evidence: a softmax, attention or probability word in its
line or the lines just above it (or scores beside it, joined by ``softmax``), and at least one
entry strictly between 0 and 1. Code identifiers (``or_gate.weights = [1.0, 1.0]``,
``attn_weights[0, 0]``, an index right after a name), one-hot and all-zero lists are no rows.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.extract.document import Block, CarriedRow, Document, Table
from checkers.extract.draft import Draft
from checkers.extract.relations.base import sentence_start
from checkers.formulas import softmax
from checkers.kinds.base import Context
from checkers.kinds.probability import probability_decimals, sum_problem
from checkers.numbers import Printed, compare, parse_printed

__all__ = ["recognize"]

NAME = "softmax_rows"

_NUMBER = r"[-−]?\d+(?:\.\d+)?"
_VECTOR = re.compile(r"\[\s*(" + _NUMBER + r"(?:\s*,\s*" + _NUMBER + r")+)\s*\]")
# A row below its scores may also be printed as numpy prints arrays: ``[0.659 0.242 0.099]``.
_PRINTED_ROW = re.compile(
    r"\[\s*("
    + _NUMBER
    + r"(?:\s*,\s*"
    + _NUMBER
    + r")+|"
    + _NUMBER
    + r"(?:\s+"
    + _NUMBER
    + r")+)\s*\]"
)
_JOIN = re.compile(r"softmax|→|->|⟶|得到|变成|gives|becomes", re.IGNORECASE)
# The word must stand alone (not ``attn_weights``, ``gate.weights``) and be apart from the
# bracket (``weights[0, 0]`` is an index).
_WEIGHT_WORD = re.compile(
    r"(?:(?:权重|概率|分布|注意力)\s*(?:为|是|=|:|：)?\s*|"
    r"(?<![\w.])(?:weights?|probabilit(?:y|ies)|distribution)(?:\s*(?:=|:)\s*|\s+))$",
    re.IGNORECASE,
)
_EVIDENCE = re.compile(r"softmax|attention|probabilit|注意力|概率", re.IGNORECASE)
# Evidence between scores and a row printed lines below them: a gate or router turns logits into
# probabilities as softmax does.
_LINK_EVIDENCE = re.compile(
    r"softmax|attention|probabilit|注意力|概率|\bgat(?:e|ing)|router|routing|路由|门控"
    # softmax written out: exp(x) / exp(x).sum(), np.exp(x) / np.sum(np.exp(x))
    r"|exp\(\s*(\w+)\s*\)\s*/\s*(?:(?:np|torch)\.)?(?:exp\(\s*\1\s*\)\.sum\(|sum\(\s*(?:(?:np|torch)\.)?exp\(\s*\1\b)",
    re.IGNORECASE,
)
# Scores: a logits/scores word shortly before the bracket, nothing list-like in between
# (``logits = [``, ``Raw scores for q1: [``, ``router_logits = torch.tensor([``, ``分数 [``).
_SCORES_WORD = re.compile(
    r"(?:logits?|scores?|分数|得分|打分)(?:\s+for\s+[\w\s]{1,12})?"
    r"(?:\s*\$?\s*[A-Za-z](?:_\{?\w{1,3}\}?)?(?=\s*=))?\s*(?:=|:|：|为|是|are|is)?\s*`?"
    r"(?:(?:torch\.tensor|np\.array|tf\.constant)\(\s*)?$",
    re.IGNORECASE,
)
_ASSIGNED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*=\s*(?:(?:torch\.tensor|np\.array)\(\s*)?$")
_SOFTMAX_OF = re.compile(
    r"softmax\(\s*([A-Za-z_]\w*)\s*(?:/\s*(\d+(?:\.\d+)?)\s*)?(?:[,)])", re.IGNORECASE
)
_TEMPERATURE = re.compile(
    r"(?:temperature|\bT|τ)\s*(?:=|:|：)\s*(\d+(?:\.\d+)?)(?![\d.])", re.IGNORECASE
)
_TOP_K = re.compile(r"\btop[-\s]?(\d{1,2})\b|前\s*(\d{1,2})\s*(?:个|名)?", re.IGNORECASE)
_RENORMALISE = re.compile(
    r"re-?normali[sz]|重新归一化|归一化|normali[sz]e|sum to 1|和为\s*1", re.IGNORECASE
)
_WEIGHT_VALUE = re.compile(r"(?<![\d.])(?:0?\.\d+|1\.0+|0)(?!\d|\.\d)")
_WEIGHT_SEPARATORS = re.compile(r"^[\s/,;:：、和and`*|]*$")
_TEMPERATURE_WORD = re.compile(
    r"temperature|温度|τ|(?<![\^.])\bT\b|softmax\(\s*\w+\s*/\s*[A-Za-z_]", re.IGNORECASE
)
"""A temperature mentioned in any form (``T`` but not the transpose ``K^T``/``K.T``)."""
_LINK_LINES = 12
"""Source lines a row may stand below its scores."""
_CONTEXT_LINES = 3
"""Lines above a row (in its block) that may carry its softmax or attention word."""
_CELL = re.compile(r"^(?:" + _NUMBER + r"|[-−]∞|-inf)$")
_WEIGHT_HEADER = re.compile(r"softmax|weights?|probabilit|权重|概率|分布", re.IGNORECASE)
_ROW_CLAIM = re.compile(r"^\s*(\S+?)\s*[:：]\s*(\[[^\]]*\])")


def _is_argument(text: str, vector: re.Match[str]) -> bool:
    """True for the ``[…]`` in ``softmax([…])``: an input, not a printed result."""
    return text[: vector.start()].rstrip().lower().endswith("softmax(")


def _values(match: re.Match[str]) -> list[str]:
    return [v for v in re.split(r"[\s,]+", match.group(1).strip()) if v]


def _is_row(weights: list[str]) -> bool:
    """Entries a probability row can print: all in [0, 1], at least one strictly between
    (a list of 0s and 1s is a mask, a one-hot vector or an index)."""
    values = [float(w.replace("−", "-")) for w in weights]
    return all(0 <= v <= 1 for v in values) and any(0 < v < 1 for v in values)


def _line_drafts(text: str, line: int, context: str = "") -> Iterator[Draft]:
    """Drafts for one line; ``context`` is the text of the lines just above it."""
    vectors = list(_VECTOR.finditer(text))
    if not vectors or not _EVIDENCE.search(context + " " + text):
        return
    used: set[int] = set()
    for first, second in itertools.pairwise(vectors):
        between = text[first.end() : second.start()]
        scores, weights = _values(first), _values(second)
        if len(scores) != len(weights) or not _JOIN.search(between):
            continue
        if _is_argument(text, second) or _is_argument(text, first):
            continue  # softmax([…]) = […] is an equation chain's business
        if not _is_row(weights):
            continue
        used.update({first.start(), second.start()})
        fields: dict[str, object] = {"scores": scores, "claimed": weights}
        temperature = _TEMPERATURE.search(text)
        if temperature is not None:
            fields["temperature"] = temperature.group(1)
        yield Draft(
            kind="softmax",
            quote=text[first.start() : second.end()],
            line=line,
            fields=fields,
            confidence=0.8,
            recognizer=NAME,
            slug="softmax-" + "-".join(scores),
        )
    for vector in vectors:
        if vector.start() in used or not _WEIGHT_WORD.search(text[: vector.start()]):
            continue
        weights = _values(vector)
        if text[: vector.start()].rstrip().endswith("softmax("):
            continue
        if not _is_row(weights):
            continue
        yield Draft(
            kind="softmax",
            quote=vector.group(0),
            line=line,
            fields={"claimed": weights, "claimed_only": "true"},
            confidence=0.6,
            recognizer=NAME,
            slug="weights-" + "-".join(weights),
        )


def _matrix(lines: list[str]) -> tuple[list[str], list[list[str]]] | None:
    """(row labels, cells) of a labelled score matrix with at least one −∞ cell, if any."""
    if len(lines) < 3:
        return None
    header = lines[0].split()
    labels: list[str] = []
    rows: list[list[str]] = []
    for text in lines[1:]:
        tokens = text.split()
        if len(tokens) != len(header) + 1 or not all(_CELL.match(t) for t in tokens[1:]):
            return None
        labels.append(tokens[0])
        rows.append(["-∞" if "∞" in t or "inf" in t else t for t in tokens[1:]])
    if len(rows) != len(header) or not any("-∞" in row for row in rows):
        return None
    return labels, rows


def _table_drafts(document: Document, block: Block) -> Iterator[Draft]:
    """Rows of a table with a scores column and a softmax/weights column of vectors."""
    table = block.table
    if table is None:
        return
    weight_columns = [i for i, h in enumerate(table.header) if _WEIGHT_HEADER.search(h)]
    if len(weight_columns) != 1:
        return
    column = weight_columns[0]
    for cells, line in table.rows:
        vectors = [_VECTOR.fullmatch(c.strip()) for c in cells]
        weights = vectors[column] if column < len(vectors) else None
        scores = [v for i, v in enumerate(vectors) if v is not None and i != column]
        if weights is None or len(scores) != 1:
            continue
        claimed, given = _values(weights), _values(scores[0])
        if len(claimed) != len(given):
            continue
        yield Draft(
            kind="softmax",
            quote=document.source_line(line),
            line=line,
            fields={"scores": given, "claimed": claimed},
            confidence=0.8,
            recognizer=NAME,
            slug="softmax-" + "-".join(given),
        )


_PROBABILITY_COLUMN = re.compile(
    r"softmax|weights?|probabilit|权重|概率|^\$?\s*(?:p|P)\s*_\s*\{?\s*\w{1,3}\s*\}?\s*\$?$",
    re.IGNORECASE,
)
"""A header of one entry of a probability row: a weight or probability word, or ``$p_1$``."""
_CUMULATIVE_COLUMN = re.compile(
    r"cumulative|\bcum\b|累计|累积|\bCDF\b|running total", re.IGNORECASE
)
_TEMPERATURE_COLUMN = re.compile(r"^\$?\s*(?:T|τ|\\tau|temperature|温度)\s*\$?$", re.IGNORECASE)
_PROBABILITY_CELL = re.compile(r"^(?:0?\.\d+|[01](?:\.0+)?)$")
_LATEX_SPACE = re.compile(r"\\[ ,;:!]|~")


def _one_family(headers: list[str]) -> bool:
    """True when the headers name entries of one row: the same text but for an index
    (``weight on k0`` / ``weight on k1``, ``$p_1$`` / ``$p_2$``), not different quantities
    that both say weight (``weight decay`` / ``weight init``)."""
    stems = {re.sub(r"\d+", "#", h.strip()) for h in headers}
    return len(stems) == 1 and "#" in next(iter(stems))


def _printed_row(cells: list[str]) -> list[Printed]:
    return [parse_printed(c) for c in cells]


def _sums_to_one(cells: list[str]) -> bool:
    """True when the printed row can sum to 1 within the rounding of its entries."""
    row = _printed_row(cells)
    decimals = probability_decimals([row])
    return sum_problem("row", row, decimals, Context()) is None


def _scores_above(lines: list[tuple[str, int]], length: int, line: int) -> _Scores | None:
    """The latest scores of ``length`` entries printed within reach above ``line``."""
    scores = [
        candidate
        for text, number in lines
        if "[" in text and line - number <= _LINK_LINES
        for _, candidate in _scores_on(_LATEX_SPACE.sub(" ", text), number)
    ]
    return _nearest(scores, length, line)


def _probability_table_drafts(
    document: Document, block: Block, above: list[tuple[str, int]]
) -> Iterator[Draft]:
    """Rows of a table whose columns are one probability row, and cumulative columns (see the
    module docstring); ``above`` holds the section's lines before the table."""
    table = block.table
    if table is None:
        return
    cumulative = [i for i, h in enumerate(table.header) if _CUMULATIVE_COLUMN.search(h)]
    columns = [
        i
        for i, h in enumerate(table.header)
        if i not in cumulative and _PROBABILITY_COLUMN.search(h.strip())
    ]
    if len(columns) == 1 and len(cumulative) == 1:
        yield from _cumulative_drafts(document, table, columns[0], cumulative[0])
        return
    if len(columns) < 2 or not _one_family([table.header[i] for i in columns]):
        return
    rows = [
        ([cells[i].strip() for i in columns], cells, line)
        for cells, line in table.rows
        if len(cells) == len(table.header)
    ]
    rows = [row for row in rows if all(_PROBABILITY_CELL.match(c) for c in row[0])]
    if not rows:
        return
    temperatures = [i for i, h in enumerate(table.header) if _TEMPERATURE_COLUMN.match(h.strip())]
    scores = _scores_above(above, len(columns), table.line) if len(temperatures) == 1 else None
    whole = [_sums_to_one(values) for values, _, _ in rows]
    for position, (values, cells, line) in enumerate(rows):
        if not _is_row(values):
            continue
        fields: dict[str, object]
        temperature = cells[temperatures[0]].strip() if temperatures else ""
        if scores is not None and re.fullmatch(r"\d+(?:\.\d+)?", temperature):
            fields = {"scores": scores.values, "claimed": values, "temperature": temperature}
            note = (
                f"a table row of probabilities at T = {temperature} (its column "
                f"{table.header[temperatures[0]].strip()}), scores from line {scores.line}"
            )
        elif any(w for j, w in enumerate(whole) if j != position):
            fields = {"claimed": values, "claimed_only": "true"}
            note = (
                "a table row of probabilities (columns "
                f"{', '.join(table.header[i].strip() for i in columns)}); the table's other "
                "rows sum to 1, so its columns hold the whole row"
            )
        else:
            continue
        yield Draft(
            kind="softmax",
            quote=document.source_line(line) or table.row_source(cells),
            line=line,
            fields=fields,
            confidence=0.7,
            recognizer=NAME,
            slug="table-row-" + "-".join(values),
            note=note,
        )


def _cumulative_drafts(
    document: Document, table: Table, column: int, cumulative: int
) -> Iterator[Draft]:
    """The running sum of a probability column against its cumulative column, row by row."""
    terms: list[str] = []
    for cells, line in table.rows:
        if max(column, cumulative) >= len(cells):
            return
        value, total = cells[column].strip(), cells[cumulative].strip()
        if not (_PROBABILITY_CELL.match(value) and _PROBABILITY_CELL.match(total)):
            return  # a row that is not a probability: the column is not a running sum
        terms.append(value)
        if len(terms) == 1:
            continue
        yield Draft(
            kind="arithmetic",
            quote=document.source_line(line) or table.row_source(cells),
            line=line,
            fields={
                "expression": " + ".join(terms),
                "claimed": total,
                "carried": sorted(set(terms)),
            },
            confidence=0.7,
            recognizer=NAME,
            slug=f"cumulative-{total}",
            note=f"column {table.header[cumulative].strip()} is the running sum of column "
            f"{table.header[column].strip()} (rows 1–{len(terms)}, each entry read as the "
            "rounding it is)",
        )


@dataclass(frozen=True)
class _Scores:
    """A list the lesson presents as scores, and what it is called."""

    values: list[str]
    """The scores as printed."""
    line: int
    """Its source line."""
    name: str
    """The variable it is assigned to (``logits``), or ""."""
    argument: bool
    """True when it is the argument of ``softmax(…)`` itself."""
    column: int = 0
    """Where its bracket stands in the line."""


def _scores_on(text: str, line: int) -> Iterator[tuple[re.Match[str], _Scores]]:
    for vector in _VECTOR.finditer(text):
        before = text[: vector.start()]
        argument = _is_argument(text, vector)
        if not argument and not _SCORES_WORD.search(before[-60:]):
            continue
        values = _values(vector)
        assigned = _ASSIGNED.search(before)
        name = assigned.group(1) if assigned else ""
        yield vector, _Scores(values, line, name, argument, vector.start())


def _section_lines(section: tuple[Block, ...]) -> list[tuple[str, int]]:
    """(text, line) of every line of the section outside tables, in order."""
    return [
        (line.text, line.number)
        for block in section
        if block.kind != "table"
        for line in block.lines
    ]


_SCORES_WORDS = ("softmax(", "logit", "score", "分数", "得分", "打分")
"""Words of which a section must hold one for its rows to be read against scores."""
_RENORMALISE_WORDS = ("normali", "归一化", "sum to 1", "和为")
"""Words of which a section must hold one for top-k weights to be looked for."""


def _links(section: tuple[Block, ...]) -> dict[tuple[int, int], tuple[_Scores, str | None]]:
    """(line, column of the row) → (its scores, the temperature stated) for every probability
    row printed below its scores in this section (see the module docstring)."""
    found: dict[tuple[int, int], tuple[_Scores, str | None]] = {}
    scores: list[_Scores] = []
    lines = _section_lines(section)
    text_of = {number: text for text, number in lines}  # a line's number → its text
    numbers = sorted(text_of)  # the lines that hold text, in order
    latest: dict[int, tuple[int, int]] = {}  # list length → (line, column) of the latest list
    latest_values: dict[int, list[str]] = {}  # list length → the entries of that list
    for text, number in lines:
        if "[" not in text:
            continue
        score_starts = set()
        for vector, candidate in _scores_on(text, number):
            score_starts.add(vector.start())
            scores.append(candidate)
        for vector in _PRINTED_ROW.finditer(text):
            weights = _values(vector)
            before = latest.get(len(weights))
            before_values = latest_values.get(len(weights), [])
            latest[len(weights)] = (number, vector.start())
            latest_values[len(weights)] = weights
            if not scores or vector.start() in score_starts or _is_argument(text, vector):
                continue
            if not _is_row(weights):
                continue
            source = _nearest(scores, len(weights), number, numbers)
            if source is None or source.line == number:
                continue
            nearer = before is not None and before > (source.line, source.column)
            if nearer and _exponentials(before_values, source.values):
                nearer = False  # the list between is exp of the scores: a step of the softmax
            if nearer and found.get(before or (0, 0), (None, None))[0] is not source:
                continue  # a nearer list of that length (not a row of these scores): the row
                # may be its softmax instead
            # At most _LINK_LINES lines lie between (see _nearest): a short span to read.
            span = " ".join(text_of[n] for n in range(source.line, number + 1) if n in text_of)
            call = next(
                (
                    m
                    for m in _SOFTMAX_OF.finditer(span)
                    if source.name and m.group(1) == source.name
                ),
                None,
            )
            if not (source.argument or call is not None or _LINK_EVIDENCE.search(span)):
                continue
            temperatures = _TEMPERATURE.findall(span)
            temperature = call.group(2) if call is not None and call.group(2) else None
            if temperature is None and not temperatures and _TEMPERATURE_WORD.search(span):
                temperature = _looped_temperature(span, source.name, text[: vector.start()])
                if temperature is None:
                    continue  # a temperature that varies (a name): not stated as a number
            if _divided_before(text_of.get(source.line, ""), source.column):
                temperature, temperatures = None, []  # the scores printed are already divided
            found[(number, vector.start())] = (
                source,
                temperature or (temperatures[-1] if temperatures else None),
            )
    return found


_DIVIDED = re.compile(
    # a decimal point (T = 0.5) and "i.e." do not end the sentence
    r"(?:divid\w*|scal\w*|除以)(?:[^.。;；]|\.(?=\d)|i\.e\.)*?(?:temperature|温度|\bT\b|τ)"
    r"(?:[^.。;；\[]|\.(?=\d))*?(?:i\.e\.|that is|即|得到|gives?|=)(?:[^.。;；\[]|\.(?=\d))*\Z",
    re.IGNORECASE,
)
"""Words before a list of scores that say it is the scores already divided by the temperature
("divide the scores by T = 0.5, i.e. scores [4.0, 2.0]", "除以温度 0.5，得到 [4.0, 2.0]")."""


def _exponentials(printed: list[str], scores: list[str]) -> bool:
    """True when every printed entry is exp of the score at its place, to its printed digits
    (``[7.389, 2.718]`` after scores ``[2.0, 1.0]``)."""
    try:
        values = [float(v.replace("−", "-")) for v in printed]
        inputs = [float(v.replace("−", "-")) for v in scores]
    except ValueError:
        return False
    return len(values) == len(inputs) > 0 and all(
        abs(value - math.exp(x)) <= 0.51 * 10 ** -_decimals(text) + 1e-12
        for value, x, text in zip(values, inputs, printed, strict=True)
        if x < 50
    )


def _decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def _divided_before(line: str, column: int) -> bool:
    """True when the scores at ``column`` of ``line`` are stated as already divided by the
    temperature: the softmax of such scores applies no temperature again."""
    return _DIVIDED.search(line[:column]) is not None


_LOOP = re.compile(
    r"\bfor\s+(?P<name>[A-Za-z_]\w*)\s+in\s+[(\[](?P<values>\s*\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)+)"
    r"\s*,?\s*[)\]]\s*:"
)
"""A loop over literal values: ``for T in (1.0, 0.5, 2.0):``."""


def _looped_temperature(span: str, scores: str, lead: str) -> str | None:
    """The temperature of a row printed by a loop over literal temperatures: ``for T in (1.0,
    0.5):`` … ``softmax(logits / T)`` … ``print(T, …)``, the row's line starting with the
    value the loop printed (``0.5 [0.842 0.114 …]``); None otherwise."""
    loop = _LOOP.search(span)
    if loop is None or not scores:
        return None
    name = re.escape(loop.group("name"))
    if not re.search(rf"softmax\(\s*{re.escape(scores)}\s*/\s*{name}\b", span):
        return None
    if not re.search(rf"print\(\s*(?:f?['\"][^'\"]*['\"]\s*,\s*)?{name}\b", span):
        return None
    printed = lead.strip().rstrip(":：=").strip()
    values = [v.strip() for v in loop.group("values").split(",")]
    return printed if printed in values else None


def _nearest(
    scores: list[_Scores], length: int, line: int, numbers: list[int] | None = None
) -> _Scores | None:
    """The latest scores of ``length`` entries within reach of ``line``: :data:`_LINK_LINES`
    lines of text between them when ``numbers`` (the lines holding text) is given, so that
    blank lines and fences (a notebook's cells, each output its own block) do not count."""
    for candidate in reversed(scores):
        if numbers is None:
            distance = line - candidate.line
        else:
            distance = bisect.bisect_right(numbers, line) - bisect.bisect_left(
                numbers, candidate.line
            )
        if distance > _LINK_LINES:
            return None
        if len(candidate.values) == length:
            return candidate
    return None


def _linked_drafts(
    text: str, line: int, links: dict[tuple[int, int], tuple[_Scores, str | None]]
) -> Iterator[tuple[int, Draft]]:
    """(column, draft) for the rows of this line printed below their scores."""
    for vector in _PRINTED_ROW.finditer(text):
        link = links.get((line, vector.start()))
        if link is None:
            continue
        source, temperature = link
        fields: dict[str, object] = {
            "scores": source.values,
            "claimed": _values(vector),
        }
        named = _ASSIGNED.search(text[: vector.start()])
        if named is not None:
            fields["name"] = named.group(1)  # gating_weights = […]
        if temperature is not None:
            fields["temperature"] = temperature
        yield (
            vector.start(),
            Draft(
                kind="softmax",
                quote=vector.group(0),
                line=line,
                fields=fields,
                confidence=0.7,
                recognizer=NAME,
                slug="softmax-" + "-".join(source.values),
            ),
        )


def _stated_weights(text: str, k: int) -> list[str] | None:
    """Exactly ``k`` weights in ``text``, separated by nothing but punctuation or "and"."""
    found = list(_WEIGHT_VALUE.finditer(text))
    if len(found) != k:
        return None
    gaps = [text[a.end() : b.start()] for a, b in itertools.pairwise(found)]
    if not all(_WEIGHT_SEPARATORS.match(gap) for gap in gaps):
        return None
    return [m.group() for m in found]


def _renormalised_drafts(
    section: tuple[Block, ...], links: dict[tuple[int, int], tuple[_Scores, str | None]]
) -> Iterator[Draft]:
    """``renormalised`` claims for top-k weights stated after a probability row."""
    lines = _section_lines(section)
    row: tuple[list[str], _Scores | None] | None = None
    evidence = False
    for position, (text, number) in enumerate(lines):
        evidence = evidence or bool(_EVIDENCE.search(text) or _LINK_EVIDENCE.search(text))
        top = _TOP_K.search(text)
        renormalise = _RENORMALISE.search(text)
        if row is not None and top is not None and renormalise is not None:
            k = int(top.group(1) or top.group(2))
            after = text[max(top.end(), renormalise.end()) :]
            weights = _stated_weights(after, k) if 1 < k < len(row[0]) else None
            where = [(number, text)]
            if weights is None and not _WEIGHT_VALUE.search(after) and 1 < k < len(row[0]):
                following = lines[position + 1 : position + 1 + k]
                last = [_WEIGHT_VALUE.findall(t) for t, _ in following]
                if len(following) == k and all(values for values in last):
                    weights = [values[-1] for values in last]
                    where = [(n, t) for t, n in following]
            if weights is not None:
                fields: dict[str, object] = {"top_k": str(k), "row": row[0], "claimed": weights}
                if row[1] is not None:
                    fields["scores"] = row[1].values
                yield Draft(
                    kind="renormalised",
                    quote=where[-1][1].strip(),  # the line of the last weight
                    line=where[-1][0],
                    fields=fields,
                    confidence=0.6,
                    recognizer=NAME,
                    slug=f"top-{k}-" + "-".join(weights),
                )
                continue
        for vector in _VECTOR.finditer(text):
            values = _values(vector)
            if _is_argument(text, vector) or not _is_row(values) or not evidence:
                continue
            link = links.get((number, vector.start()))
            source = link[0] if link is not None and link[1] is None else None
            if link is None and not _TEMPERATURE.search(text):  # scores on the row's own line
                source = next(
                    (
                        c
                        for v, c in _scores_on(text, number)
                        if len(c.values) == len(values) and v.start() < vector.start()
                    ),
                    None,
                )
            row = (values, source)


def _top_entries(row: CarriedRow, k: int) -> list[float]:
    """The k largest entries of a carried row, as printed values."""
    return sorted((float(v) for v in row.values), reverse=True)[:k]


def _continued_drafts(section: tuple[Block, ...], rows: tuple[CarriedRow, ...]) -> Iterator[Draft]:
    """``renormalised`` claims for top-k weights of a row carried from the previous lesson."""
    lines = _section_lines(section)
    for position, (text, number) in enumerate(lines):
        renormalise = _RENORMALISE.search(text)
        if renormalise is None:
            continue
        tops = list(_TOP_K.finditer(" ".join(t for t, _ in lines[: position + 1])))
        if not tops:
            continue
        k = int(tops[-1].group(1) or tops[-1].group(2))
        above = {float(m.group()) for t, _ in lines[:position] for m in _WEIGHT_VALUE.finditer(t)}
        restated = [
            row
            for row in rows
            if 1 < k < len(row.values) and all(v in above for v in _top_entries(row, k))
        ]
        if len(restated) != 1:
            continue  # no row of the previous lesson, or several, has its top k printed here
        row = restated[0]
        after = text[renormalise.end() :]
        weights = _stated_weights(after, k)
        where = (number, text)
        if weights is None and not _WEIGHT_VALUE.search(after):
            following = lines[position + 1 : position + 1 + k]
            last = [_WEIGHT_VALUE.findall(t) for t, _ in following]
            if len(following) == k and all(values for values in last):
                weights = [values[-1] for values in last]
                where = (following[0][1], following[0][0])
        if weights is None:
            continue
        fields: dict[str, object] = {
            "top_k": str(k),
            "row": list(row.values),
            "scores": list(row.scores),
            "claimed": weights,
            "carried_from": row.source,
        }
        if row.temperature is not None:
            fields["temperature"] = row.temperature
        yield Draft(
            kind="renormalised",
            quote=where[1].strip(),
            line=where[0],
            fields=fields,
            confidence=0.5,
            recognizer=NAME,
            slug=f"top-{k}-carried-" + "-".join(weights),
            note=f"the top {k} entries of the row printed at {row.source} are restated here, "
            "and this lesson says it continues that lesson's example",
        )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft ``softmax``, ``masked_softmax`` and ``renormalised`` claims for weights the lesson
    prints."""
    for section in document.sections():
        text = "\n".join([line.text for block in section for line in block.lines])
        if document.continues and _VECTOR.search(text) is None:
            lowered = text.lower()
            if any(word in lowered for word in _RENORMALISE_WORDS):
                yield from _continued_drafts(section, document.continues)
        if "[" not in text:
            for block in section:  # no bracketed list: only a table can hold a row
                if block.table is not None:
                    yield from _probability_table_drafts(document, block, [])
            continue
        lowered = text.lower()  # plain substring tests: far cheaper than a regex over it
        rows_below_scores = any(word in lowered for word in _SCORES_WORDS)
        links = _links(section) if rows_below_scores else {}
        yield from _section_drafts(document, section, links)
        if any(word in lowered for word in _RENORMALISE_WORDS):
            yield from _renormalised_drafts(section, links)
        if links and any(word in lowered for word in _CHANGE_WORDS):
            yield from _restated_drafts(section, links)


_CHANGE_WORDS = ("halv", "doubl", "减半", "加倍", "翻倍", "一半")
"""Words of which a section must hold one for sentences about a temperature change to be read."""
_HALVED = re.compile(r"\bhalv\w*|减半|(?:降低|减小|缩小)一半", re.IGNORECASE)
_DOUBLED = re.compile(r"\bdoubl\w*|加倍|翻倍", re.IGNORECASE)
_PROBABILITY = r"(?:0?\.\d+|0|1(?:\.0+)?)"
_FROM_TO = re.compile(
    rf"\bfrom\s+(?P<a>{_PROBABILITY})\s+to\s+(?P<b>{_PROBABILITY})(?![\d%]|\.\d)"
    rf"|从\s*(?P<c>{_PROBABILITY})\s*(?:[升降增减涨跌变]\w?)?到\s*(?P<d>{_PROBABILITY})(?![\d%]|\.\d)",
    re.IGNORECASE,
)


def _restated_drafts(
    section: tuple[Block, ...], links: dict[tuple[int, int], tuple[_Scores, str | None]]
) -> Iterator[Draft]:
    """Entries a sentence says move from one printed temperature's row to half or twice that
    temperature's (see the module docstring)."""
    sources = {id(source): source for source, _ in links.values()}
    if len(sources) != 1:
        return  # rows of several score lists: which one a sentence means is not said
    (source,) = sources.values()
    scores = [float(v.replace("−", "-")) for v in source.values]
    temperatures = {float(t or 1): t or "1" for _, t in links.values()}
    if len(temperatures) < 2 or any(t <= 0 for t in temperatures):
        return
    rows = {t: [float(p) for p in softmax(scores, t)] for t in temperatures}
    last_row = max(line for line, _ in links)
    for block in section:
        if block.kind != "paragraph" or block.lines[-1].number <= last_row:
            continue
        joined, starts = "", []
        for line in block.lines:
            starts.append(len(joined))
            joined += line.text + " "
        for match in _FROM_TO.finditer(joined):
            sentence = joined[sentence_start(joined, match.start()) : match.start()]
            halved, doubled = _HALVED.search(sentence), _DOUBLED.search(sentence)
            if bool(halved) == bool(doubled):
                continue  # no change of temperature said, or both
            first, second = (
                match.group("a") or match.group("c"),
                match.group("b") or match.group("d"),
            )
            matches = [
                (t, j)
                for t, row in rows.items()
                for j, p in enumerate(row)
                if compare(parse_printed(first), p).ok
            ]
            if len(matches) != 1:
                continue
            t, j = matches[0]
            target = t / 2 if halved else t * 2
            if not any(math.isclose(target, u) for u in temperatures):
                continue  # the row at that temperature is not printed
            shown = next(temperatures[u] for u in temperatures if math.isclose(target, u))
            terms = [f"exp({v} / {shown})" for v in source.values]
            index = max(
                i
                for i, start in enumerate(starts)
                if start <= match.start("b" if match.group("b") else "d")
            )
            line = block.lines[index]
            quote = match.group(0)
            if quote not in line.text:
                quote = second
            yield Draft(
                kind="arithmetic",
                quote=quote,
                line=line.number,
                fields={"expression": f"{terms[j]} / ({' + '.join(terms)})", "claimed": second},
                confidence=0.5,
                recognizer=NAME,
                slug=f"entry-{j + 1}-at-{shown}",
                note=f"entry {j + 1} of softmax([{', '.join(source.values)}] / {shown}): {first} "
                f"is that entry at T = {temperatures[t]}, and the sentence "
                f"{'halves' if halved else 'doubles'} the temperature (both rows printed above)",
            )


def _section_drafts(
    document: Document,
    section: tuple[Block, ...],
    links: dict[tuple[int, int], tuple[_Scores, str | None]],
) -> Iterator[Draft]:
    masked: tuple[list[str], list[list[str]]] | None = None
    earlier: list[tuple[str, int]] = []  # the section's lines before this block, not tables'
    gathered = 0  # the blocks before this one whose lines are in ``earlier``: only a table
    for at, block in enumerate(section):  # reads them, and most sections have none
        if block.kind == "table":
            for before in section[gathered:at]:
                if before.kind != "table":
                    earlier.extend((line.text, line.number) for line in before.lines)
            gathered = at
            yield from _table_drafts(document, block)
            yield from _probability_table_drafts(document, block, earlier)
            continue
        if block.kind == "fence":
            found = _matrix([line.text for line in block.lines])
            if found is not None:
                masked = found
                continue
        for position, line in enumerate(block.lines):
            if "[" not in line.text:
                continue  # every row and claim below is a bracketed list
            claim = _ROW_CLAIM.match(line.text) if masked is not None else None
            if masked is not None and claim is not None and claim.group(1) in masked[0]:
                weights = [v.strip() for v in claim.group(2)[1:-1].split(",")]
                index = masked[0].index(claim.group(1))
                if len(weights) == len(masked[1][index]):
                    yield Draft(
                        kind="masked_softmax",
                        quote=claim.group(0).strip(),
                        line=line.number,
                        fields={"scores": masked[1], "rows": {str(index): weights}},
                        confidence=0.8,
                        recognizer=NAME,
                        slug=f"masked-row-{index}",
                    )
                    continue
            linked = dict(_linked_drafts(line.text, line.number, links)) if links else {}
            yield from linked.values()
            if _VECTOR.search(line.text) is None:
                continue  # _line_drafts reads vectors only: a link's brackets end here
            above = block.lines[max(0, position - _CONTEXT_LINES) : position]
            context = " ".join(p.text for p in above)
            for draft in _line_drafts(line.text, line.number, context):
                if draft.fields.get("claimed_only") and any(
                    linked_draft.quote == draft.quote for linked_draft in linked.values()
                ):
                    continue  # the row was checked against its scores
                yield draft
