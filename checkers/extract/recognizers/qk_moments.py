"""Recogniser ``qk_moments``: the mean, variance or standard deviation of the attention score q·k.

Recognises, in a section that states the assumption these moments rest on — the entries of q and
k have mean 0 and variance 1 (``均值为0、方差为1``, ``zero mean and unit variance``, ``N(0, 1)``,
``标准正态``) —

* formulas: ``E[q·k] = 0``, ``Var(q^T k) = d_k``, ``std(Q·K^T) ≈ √(2d_k)``,
  ``$\\mathrm{Var}(q \\cdot k) = d_k$``, ``Var(q·k / √d_k) = 1``;
* prose: ``点积的方差为 d_k``, ``q·k 的均值为 0，方差为 d_k`` (the second moment of the same
  subject, after a comma), ``the variance of the dot product is d_k``, ``the dot product has
  standard deviation √d_k``;
* a stated scaling: ``除以 √d_k 后方差为 1``, ``dividing by √(2d_k) normalises the variance``,
  ``除以 √(2d_k)，方差归一化``: the variance of q·k / scale is claimed to be 1.

* a value at a stated head dimension: ``with d_k = 64 the raw scores have a standard deviation
  of about 8``, ``d_k = 256 时，未缩放点积的方差约为 256`` — a sentence (read across the lines of
  its paragraph) that states one ``d_k = N`` and names the scores (q·k, 点积, dot product, raw
  or attention scores) gives a moment as a number: the moment at that d_k (``claimed_value``,
  at its printed precision); a moment after a scaling (``除以 √d_k 后``, ``after dividing``) or
  of one entry is not one of q·k. A plain number without a stated d_k is not drafted at all
  (only 0 and 1 are moments without one), since which d_k it stands for is not said.

Each becomes a ``statistic`` claim (``quantity: dot_product``), proven symbolically by the kind
(Vaswani et al. 2017, §3.2.1, footnote 4: Var(q·k) = d_k). The moment's value is read only in the
kind's vocabulary (numbers, ``d_k``, ``√``, ``sqrt``, ``+ − × /``); a value with any other symbol
(``d_k σ⁴``) is not drafted, and a statement about one entry (``each component``, ``每个分量``)
is not a statement about q·k.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from checkers.extract.document import Block, Document, Line
from checkers.extract.draft import Draft
from checkers.extract.latex import plain, widened

__all__ = ["recognize"]

NAME = "qk_moments"
NEEDS = ("d_k", "d_{k}")
"""Every moment it reads is an expression in d_k (the first test of :func:`recognize`)."""

# q·k in the forms lessons print it: q·k, Q·K^T, q^T k, qᵀk, QK^T, q \cdot k (after plain()).
_VEC = r"(?:[qQ]|\\mathbf\(q\)|\\mathbf\(Q\))(?:_\{?\w\}?)?"
_KEY = r"(?:[kK]|\\mathbf\(k\)|\\mathbf\(K\))(?:_\{?\w\}?)?"
_TRANSPOSE = r"(?:\s*(?:\^\s*\{?\s*(?:T|\\top|⊤)\s*\}?|ᵀ|'))"
_PRODUCT = (
    rf"(?<![A-Za-z]){_VEC}{_TRANSPOSE}?\s*(?:·|⋅|∙|\*|@|\\cdot)?\s*{_KEY}{_TRANSPOSE}?(?![A-Za-z])"
)
_OPERAND = re.compile(_PRODUCT)
_DOT_WORD = re.compile(
    r"点积|点乘|内积|dot[- ]products?|(?:attention|raw|unscaled) scores?|注意力分数|原始分数", re.I
)
_ENTRY_WORD = re.compile(
    r"分量|元素|每一?[个维]|each (?:entry|element|component|coordinate|dimension)|"
    r"entries|components|elements|coordinates",
    re.I,
)

# A moment's value in the statistic kind's vocabulary.
_VALUE = (
    r"(?:[-−]?\s*(?:√\s*\(?\s*\d*\s*d_\{?k\}?\s*\)?|sqrt\s*\(\s*\d*\s*\*?\s*d_k\s*\)|"
    r"\d*\s*d_\{?k\}?|\d+(?:\.\d+)?(?:\s*/\s*\d+)?))"
)
_AFTER_VALUE = re.compile(
    r"\s*(?:$|[，。,;；:：)）\]】、$]|\.(?!\d)|[\u4e00-\u9fff]|[A-Za-z]{2,}|\*\*|`|\s-|—)"
)

_MOMENT_SYMBOL = (
    r"(?P<symbol>\\mathbb\(E\)|𝔼|\(?E\)?|\(?Var\)?|\(?var\)?|\(?Std\)?|\(?std\)?|\(?D\)?)"
)
_FORMULA = re.compile(
    _MOMENT_SYMBOL
    + r"\s*[\[(]\s*\(?\s*(?P<operand>"
    + _PRODUCT
    + r")\s*\)?\s*(?:/\s*(?P<scale>"
    + _VALUE
    + r"))?\s*\)?\s*[\])]\s*(?P<relation>=|≈|≃|~|∼)\s*(?P<value>"
    + _VALUE
    + r")"
)
_MOMENT_WORD = (
    r"(?P<moment>均值|期望值?|方差|标准差|mean|expected value|expectation|variance|"
    r"standard deviation|std)"
)
_PROSE_VALUE = re.compile(
    _MOMENT_WORD
    + r"\s*(?:is|of|equals|equal to|becomes|为|是|等于|变为|约为|大约是|大约为|约|≈|=|:|：)\s*"
    r"(?:about\s+|roughly\s+|approximately\s+|大约\s*|约\s*)?(?P<value>" + _VALUE + r")",
    re.I,
)
_SUBJECT_MOMENT = re.compile(  # "the variance of the dot product is d_k", "q·k 的方差为 d_k"
    r"(?:(?:the\s+)?" + _MOMENT_WORD + r"\s+of\s+(?:the\s+|a\s+)?(?:" + _PRODUCT + r"|"
    r"dot[- ]products?|attention scores?)(?:\s+" + _PRODUCT + r")?\s+(?:is|equals|becomes|≈|=)"
    r"\s*(?:about\s+|roughly\s+|approximately\s+)?(?P<value>" + _VALUE + r"))",
    re.I,
)
_SCALE = re.compile(
    r"(?:除以|除去|divid\w*\s+(?:it\s+|them\s+|q·k\s+|the scores?\s+)?by|scal\w*\s+(?:it\s+)?by"
    r"\s*1\s*/)\s*\$?\s*(?P<scale>" + _VALUE + r")",
    re.I,
)
_NORMALISED = re.compile(
    r"方差\s*(?:就\s*)?(?:归一化?|(?:变为|变成|为|是|回到|恢复为|恢复到|等于|=)\s*1(?![\d.]))|"
    r"(?:unit variance|variance\s+(?:of|to|back to|becomes|is|equal to|=)\s+1(?![\d.])|"
    r"normali[sz]\w*\s+the\s+variance)",
    re.I,
)

_UNIT_VARIANCE = re.compile(
    r"方差\s*(?:为|是|=|均为|都为|都是)?\s*1(?![\d.])|variance\s+(?:of\s+)?1\b|unit[- ]variance|"
    r"N\s*\(\s*0\s*,\s*1\s*\)|标准正态|standard normal|"
    r"Var\s*[\[(]\s*[qk](?:_\w)?\s*[\])]\s*=\s*1\b",
    re.I,
)
_ZERO_MEAN = re.compile(
    r"均值\s*(?:为|是|=|均为|都为|都是)?\s*0(?![\d.])|mean\s+(?:of\s+)?0\b|zero[- ]mean|"
    r"mean\s+zero|零均值|N\s*\(\s*0\s*,\s*1\s*\)|标准正态|standard normal",
    re.I,
)
_MOMENTS = {
    "e": "mean",
    "𝔼": "mean",
    "\\mathbb(e)": "mean",
    "var": "variance",
    "d": "variance",
    "std": "std",
    "均值": "mean",
    "期望": "mean",
    "期望值": "mean",
    "mean": "mean",
    "expected value": "mean",
    "expectation": "mean",
    "方差": "variance",
    "variance": "variance",
    "标准差": "std",
    "standard deviation": "std",
}
_CLAUSE = re.compile(r"[。；;！？!?]|\.(?:\s|$)")
_HINT = re.compile(r"[dD]_\{?k|√|sqrt|d_k|方差|均值|期望|标准差|variance|mean|expect|std", re.I)


def _moment(text: str) -> str | None:
    return _MOMENTS.get(text.strip("()").lower())


def _value(text: str) -> str:
    """The value in the kind's vocabulary (``\\{`` braces of d_{k} dropped, minus sign ASCII)."""
    return re.sub(r"\s+", "", text.replace("{", "").replace("}", "").replace("−", "-"))


def _ends_cleanly(text: str, end: int) -> bool:
    return _AFTER_VALUE.match(text, end) is not None


def _assumes_unit_entries(blocks: list[Block]) -> bool:
    text = " ".join(plain(line.text)[0] for block in blocks for line in block.lines)
    return bool(_UNIT_VARIANCE.search(text)) and bool(_ZERO_MEAN.search(text))


def _draft(line: Line, quote: str, moment: str, value: str, scale: str | None) -> Draft:
    fields: dict[str, object] = {"quantity": "dot_product", "moment": moment, "claimed": value}
    if scale is not None:
        fields["scale"] = scale
    return Draft(
        kind="statistic",
        quote=quote.strip(),
        line=line.number,
        fields=fields,
        confidence=0.7,
        recognizer=NAME,
        slug=f"qk-{moment}",
    )


def _source(line: Line, offsets: Sequence[int], start: int, end: int) -> str:
    """The lesson text behind ``plain`` characters start…end."""
    if not offsets:
        return line.text
    first = offsets[min(start, len(offsets) - 1)]
    command = re.search(r"\\[A-Za-z]+$", line.text[:first])  # \mathrm{Var}: keep the command
    if command is not None:
        first = command.start()
    last = offsets[min(end, len(offsets)) - 1] + 1 if end > start else first
    first, last = widened(line.text, first, last)  # \mathrm{Var}, not Var}
    return line.text[first:last]


def _line_drafts(line: Line) -> Iterator[Draft]:
    text, offsets = plain(line.text)
    found = False
    for match in _FORMULA.finditer(text):
        moment = _moment(match.group("symbol"))
        if moment is None or not _ends_cleanly(text, match.end()):
            continue
        found = True
        scale = match.group("scale")
        yield _draft(
            line,
            _source(line, offsets, match.start(), match.end()),
            moment,
            _value(match.group("value")),
            _value(scale) if scale else None,
        )
    if found:
        return
    for clause in _clauses(text):
        yield from _clause_drafts(line, offsets, text, clause)


def _clauses(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for match in _CLAUSE.finditer(text):
        yield start, match.start()
        start = match.end()
    yield start, len(text)


def _clause_drafts(
    line: Line, offsets: Sequence[int], text: str, clause: tuple[int, int]
) -> Iterator[Draft]:
    begin, end = clause
    body = text[begin:end]
    scale = _SCALE.search(body)
    if scale is not None and _NORMALISED.search(body, scale.end()):
        if _ends_cleanly(body, scale.end()) and "d_" in scale.group("scale"):
            normalised = _NORMALISED.search(body, scale.end())
            assert normalised is not None
            yield _draft(
                line,
                _source(line, offsets, begin + scale.start(), begin + normalised.end()),
                "variance",
                "1",
                _value(scale.group("scale")),
            )
        return
    for match in _SUBJECT_MOMENT.finditer(body):
        moment = _moment(match.group("moment"))
        if moment and _ends_cleanly(body, match.end()):
            yield _draft(
                line,
                _source(line, offsets, begin + match.start(), begin + match.end()),
                moment,
                _value(match.group("value")),
                None,
            )
            return
    # "点积的均值为 0，方差为 d_k": the subject is named once, its moments follow it.
    subject = False
    position = 0
    for part in re.split(r"([，,、]|\band\b|且|以及)", body):
        part_start = position
        position += len(part)
        if _ENTRY_WORD.search(part):
            subject = False
            continue
        has_subject = bool(_OPERAND.search(part) or _DOT_WORD.search(part))
        subject = subject or has_subject
        if not subject:
            continue
        for match in _PROSE_VALUE.finditer(part):
            moment = _moment(match.group("moment"))
            if moment is None or not _ends_cleanly(part, match.end()):
                continue
            if _AT_A_DIMENSION.fullmatch(_value(match.group("value"))):
                continue  # a number that is the moment at some d_k: see _numeric_drafts
            at = part_start + match.start()
            if _SCALED.search(body, 0, at) or _DIVIDED.search(body, 0, at):
                continue  # a moment after a scaling the clause does not state as one
            yield _draft(
                line,
                _source(
                    line,
                    offsets,
                    begin + part_start + match.start(),
                    begin + part_start + match.end(),
                ),
                moment,
                _value(match.group("value")),
                None,
            )


_AT_A_DIMENSION = re.compile(r"(?!(?:0|1)$)\d+(?:\.\d+)?")
"""A moment printed as a number other than 0 or 1: its value at some head dimension."""
_DIMENSION = re.compile(
    r"(?<![√(\w])d_\{?k\}?\s*(?:=|为|是|取|of|is)\s*(?P<d_k>\d{1,6})(?![\d.])", re.I
)
_NUMERIC_MOMENT = re.compile(
    _MOMENT_WORD
    + r"\s*(?:is|of|equals|equal to|becomes|为|是|等于|变为|约为|大约是|大约为|约|≈|=|:|：)?\s*"
    r"(?P<approx>about\s+|roughly\s+|approximately\s+|大约\s*|约\s*|≈\s*|~\s*)?"
    r"(?P<value>\d+(?:\.\d+)?)(?![\d.]|\s*[×x*/^]|\s*d_)",
    re.I,
)
_SCALED = re.compile(r"除以|除去|缩放后|scal(?:ed|ing)\b|divid\w*|normali[sz]", re.I)
_SENTENCE_END = re.compile(r"[。；;！？!?]|\.(?:\s|$)")
_DIVIDED = re.compile(r"/\s*(?:√|sqrt|\\sqrt|d_)")
"""A score divided by something (``q·k / √d_k``): the sentence speaks of scaled scores too."""


def _numeric_drafts(block: Block) -> Iterator[Draft]:
    """Moments printed as numbers at a head dimension the same sentence states (see the module
    docstring), read across the lines of the block."""
    pieces: list[tuple[str, Sequence[int], Line]] = [
        (*plain(line.text), line) for line in block.lines
    ]
    joined = " ".join(text for text, _, _ in pieces)
    starts: list[int] = []
    position = 0
    for text, _, _ in pieces:
        starts.append(position)
        position += len(text) + 1
    sentence_start = 0
    for end in [m.start() for m in _SENTENCE_END.finditer(joined)] + [len(joined)]:
        sentence = joined[sentence_start:end]
        offset, sentence_start = sentence_start, end + 1
        dimensions = {m.group("d_k") for m in _DIMENSION.finditer(sentence)}
        if len(dimensions) != 1 or not (_OPERAND.search(sentence) or _DOT_WORD.search(sentence)):
            continue
        (d_k,) = dimensions
        if _DIVIDED.search(sentence):
            continue  # the sentence is about q·k / √d_k (or another scaling) as well
        for match in _NUMERIC_MOMENT.finditer(sentence):
            moment = _moment(match.group("moment"))
            before = sentence[: match.start()]
            if moment is None or _SCALED.search(before) or _ENTRY_WORD.search(before[-30:]):
                continue
            if float(match.group("value")) == 1:
                continue  # 1 is what a scaling leaves: the moment of a scaled score
            yield _numeric_draft(
                pieces, starts, offset + match.start(), offset + match.end(), moment, d_k, match
            )


def _numeric_draft(
    pieces: list[tuple[str, Sequence[int], Line]],
    starts: list[int],
    start: int,
    end: int,
    moment: str,
    d_k: str,
    match: re.Match[str],
) -> Draft:
    """The draft of one numeric moment: quoted on the line of its value (from the moment word
    when it is on that line too, else from the line's start), so that its line is the value's."""
    index = max(i for i, s in enumerate(starts) if s <= end - 1)
    _, offsets, line = pieces[index]
    local_start = max(0, start - starts[index])
    quote = _source(line, offsets, local_start, end - starts[index])
    approx = "≈ " if match.group("approx") else ""
    draft = _draft(line, quote, moment, "", None)
    fields = {k: v for k, v in draft.fields.items() if k != "claimed"}
    fields.update({"d_k": d_k, "claimed_value": approx + match.group("value")})
    return Draft(
        kind=draft.kind,
        quote=draft.quote,
        line=draft.line,
        fields=fields,
        confidence=draft.confidence,
        recognizer=NAME,
        slug=f"qk-{moment}-at-{d_k}",
        note=f"the {moment} of q·k at d_k = {d_k} (stated in the same sentence): "
        + {"mean": "0", "variance": "d_k", "std": "√d_k"}[moment],
    )


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``statistic`` claim for every moment of q·k the lesson states."""
    text = document.text
    if "d_k" not in text and "d_{k}" not in text:
        return  # every moment this recogniser reads is an expression in d_k
    if not (_UNIT_VARIANCE.search(text) and _ZERO_MEAN.search(text)):
        return  # most lessons never state the assumption: one pass over the text decides
    sections: dict[int, list[Block]] = {}
    for block in document.blocks:
        sections.setdefault(block.section, []).append(block)
    for blocks in sections.values():
        if not any(_HINT.search(line.text) for block in blocks for line in block.lines):
            continue
        if not _assumes_unit_entries(blocks):
            continue
        for block in blocks:
            for line in block.lines:
                if _HINT.search(line.text):
                    yield from _line_drafts(line)
            if block.kind != "fence" and any("d_" in line.text for line in block.lines):
                yield from _numeric_drafts(block)
