"""Recogniser ``rates``: a figure stated per unit, then a figure the text derives from it on a
later line of the same section.

Reads each section's prose, math and plain-text blocks (not tables, not code in a programming
language), inline LaTeX as plain arithmetic. Recognises:

* **a per-unit figure, then a total over a stated count of that unit**: ``Per token: 327,680
  bytes`` … ``At 32K tokens the cache reaches 10 GiB``; ``each matrix gains 65,536 parameters``
  … ``128 adapted matrices, so the adapter has 8.4M``; ``一条序列需要 3.125 GiB`` … ``4 条这样的
  序列共 12.5 GiB``. The per-unit figure says what it is per in its clause (``per token``,
  ``/ token``, ``each block``, ``every layer``, ``one token costs``, ``每 token 的``, ``一条…
  序列``, ``1 个 token 对应 4 个字节``); the total names a count of exactly that unit in its own
  clause, before it (``at 32K tokens``, ``(131,072 tokens)``, ``4 条序列``);
* **a per-layer figure over all layers**: ``4,096 bytes per token per layer`` … ``per token over
  all layers: 320 KiB`` (``whole stack``, ``all layers``, ``所有层``…), the layer count read from
  the section's scope (:mod:`checkers.extract.scope`) or from the clause (``(32 layers)``); a
  total that drops ``per layer`` without saying so (``per 32K context = 10 GB``) is read both
  as still per layer and as over the layers stated, and fails only when both are wrong;
* **a rate over a rate**: ``2.885 bits / token`` and ``4 bytes per token`` … ``每字节约 0.72
  bits`` (bits per token ÷ bytes per token);
* **GPU-hours over GPUs**: ``1.87e5 GPU-hours`` … ``on 1,024 GPUs the run takes 7.6 days``
  (every GPU-hours figure of the section is a reading);
* **a time restated in another unit across lines**: ``≈ 22,560 秒`` / ``折合约 6.27 小时``
  (``折合``, ``相当于``, ``i.e.``, ``that is``… right before it, the time the last number
  before it).

Precision first: the two figures measure the same thing (bytes, bits, parameters, time), the
later one's clause names the count (never a number guessed from its magnitude), the earlier
figure is the nearest such one back (at most :data:`_REACH` lines, a few figures), no model is
named between them (a figure restated for another model breaks the link), a total computed in
its own line (``819,200 × 4096 = 3.125 GiB``) is left to ``chains``, and a count of one or a
count stated ``each`` is not a multiplier. A per-unit figure printed rounded (``19.7M``,
``2.885``) is ``carried``: it stands for anything it rounds from. The draft's note names the
line of every operand and the readings tried (a count's K as 1000 or 1024 and GB as 10⁹ or 2³⁰
are the arithmetic kind's own readings).
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from checkers.expr import ExprError, evaluate, parse
from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.latex import plain, widened
from checkers.extract.scope import mentions_model, section_scope
from checkers.kinds import ALL_KINDS
from checkers.kinds.base import Context
from checkers.numbers import NumberError, byte_units, parse_printed
from checkers.readings import KILO

__all__ = ["recognize"]

NAME = "rates"
DEFERS = True
"""A value another recogniser already checks on its line (``formula_values``'s follow-on
``A 32-layer model is 68 GB``, a chain) is left to it: one statement, one claim."""

_REACH = 12
"""Most source lines between a per-unit figure and a figure derived from it."""
_BACK = 4
"""Most earlier figures of the same measure looked at, nearest first."""

_NUMBER = (
    r"(?<![\w.,^/])(?P<num>(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?)"
    r"(?P<exp>e[+-]?\d+|\s*×\s*10\^\(?[-−]?\d+\)?)?"
)
_MEASURES: tuple[tuple[str, str], ...] = (
    ("gpu_hours", r"\s*GPU[-\s]?hours?\b|\s*卡时|\s*GPU\s*小时"),
    ("bytes", r"\s*(?:[KMGTP]i?B(?![A-Za-z])|bytes?\b|个?\s*字节)"),
    ("bits", r"\s*(?:bits?\b|比特)"),
    ("nats", r"\s*nats?\b"),
    # "7.8 billion FLOPs", "2.0e21 FLOPs", "3 PFLOPs": compute, a scale word or a prefix allowed
    (
        "flops",
        r"(?:\s*(?:thousand|million|billion|trillion)|\s*(?-i:[KMBT]))?\s*(?-i:[GTPE]?FLOPs?)(?![A-Za-z/])",
    ),
    (
        "time",
        r"\s*(?:seconds?|secs?|s|秒|minutes?|mins?|分钟|hours?|hrs?|h|小时|days?|天|weeks?|周)"
        r"(?![A-Za-z])",
    ),
)
_SCALE = (
    r"(?P<scale>\s*(?:million|billion|trillion|thousand)\b|\s*[万亿]|(?-i:[KMBTk])(?![A-Za-z]))"
)
_NOUN = (
    r"[\s-]*(?:个\s*)?(?:(?:adapted|trainable|attention|projection|weight|such|这样的)\s*)?"
    r"(?P<noun>tokens?|layers?|blocks?|matri(?:x|ces)|sequences?|conversations?|requests?|samples?"
    r"|GPUs?|context|window|层|条\s*(?:这样的)?\s*序列|序列|张\s*(?:卡|A100|H100|H800|A800|GPU)|块\s*GPU|卡"
    # "8 条共 12 GiB": the classifier alone, when the clause goes on to their total
    r"|条(?=\s*(?:共|总共|一共|合计|总计|加起来)))"
    r"(?![A-Za-z])"
)
_PARAMS = r"\s*(?:(?:trainable\s+)?(?:parameters|params|weights)\b|个?参数)"
_QUANTITY = re.compile(
    _NUMBER
    + "(?:"
    + "|".join(f"(?P<{name}>{pattern})" for name, pattern in _MEASURES)
    + "|"
    + _SCALE
    + "?(?:"
    + _NOUN
    + "|(?P<params>"
    + _PARAMS
    + "))?)",
    re.IGNORECASE,
)
_NOUNS = {
    "token": "token",
    "context": "token",
    "window": "token",
    "layer": "layer",
    "block": "layer",
    "层": "layer",
    "matri": "matrix",
    "sequence": "sequence",
    "conversation": "sequence",
    "request": "sequence",
    "sample": "sequence",
    "序列": "sequence",
    "条": "sequence",
    "gpu": "gpu",
    "张": "gpu",
    "块": "gpu",
    "卡": "gpu",
    "card": "gpu",
    "byte": "byte",
    "字节": "byte",
}
_PER_NOUN = (
    r"(tokens?|layers?|blocks?|bytes?|字节|matrix|matrices|sequences?|samples?|序列|层"
    r"|GPUs?|cards?|张卡|卡)"
)
_BATCH = re.compile(
    r"(?:batch(?:\s+size)?\s*(?:of|=|:)?|批(?:量)?大小\s*(?:为|=|：|:)?)\s*(\d+)(?![\d.,])",
    re.IGNORECASE,
)
"""A count of sequences written before its number (``a batch size of 8``, ``批大小为 8``)."""
_PER_AFTER = re.compile(
    # "bytes per token", "bits / token", "bytes of KV cache per token"
    # ("6 GB per GPU", "40 GB/s": any other unit too, so that such a figure is no total)
    r"(?:\s+of(?:\s+[A-Za-z]+){1,2}(?=\s+per\b))?\s*(?:per|/|每)\s*(?:个\s*)?"
    r"([A-Za-z]+|[\u4e00-\u9fff]{1,2})",
    re.IGNORECASE,
)
_PER_BEFORE = re.compile(
    r"(?:\bper|\beach|\bevery|\bone|\ba\s+single|每个?)\s*(?:个\s*)?" + _PER_NOUN + r"(?![A-Za-z])"
    r"|[一每]条[^，。；]{0,20}?(序列)"
    r"|(?<![\d.,])(?:1|一)\s*个?\s*(tokens?)\s*(?:对应|约|≈|=|相当于|is|costs|takes|holds)",
    re.IGNORECASE,
)
_ALL_LAYERS = re.compile(
    r"whole\s+(?:stack|model|network)|all\s+(?:the\s+)?(?:\d+\s+)?(?:layers|blocks)"
    r"|across\s+(?:all\s+|the\s+)?(?:layers|blocks|stack)|in\s+the\s+blocks"
    r"|整个(?:模型|网络)|所有层|全部\s*\d*\s*层",
    re.IGNORECASE,
)
_EACH_AFTER = re.compile(r"\s*(?:each|apiece|per\s+\w+|各|每)", re.IGNORECASE)
_HARDWARE_AFTER = re.compile(
    r"\s*(?:的\s*)?(?:A100|H100|H200|H800|A800|V100|GPU|card|卡|显卡)", re.IGNORECASE
)
_RESTATED = re.compile(
    r"^\s*[,，]?\s*[(（]?\s*(?:i\.e\.,?|that\s+is,?|or|about|roughly|approximately|即|约|也就是|"
    r"≈|~)?\s*(?:about|roughly|约)?\s*$",
    re.IGNORECASE,
)
_COMPUTED = re.compile(r"[\d)]\s*[×*/÷+−-]\s*[\d(][^=≈＝]*(?:=|≈|＝)\s*(?:~|约|about\s+)?\s*$")
_CONVERSION = re.compile(
    r"(?:折合|约合|相当于|换算成|即|也就是|i\.e\.,?|[,，]\s*(?:which|that)\s+(?:is|comes\s+to))\s*"
    r"(?:约|大约|about|roughly|approximately|~|≈)?\s*$",
    re.IGNORECASE,
)
_TOTAL_CUE = re.compile(
    r"takes?|took|lasts?|runs?|needs?|wall[-\s]?clock|耗时|用时|需要|跑|训练", re.IGNORECASE
)
# A model's size, not a count of tokens ("26B tokens") nor an operand ("6 × 1.3B").
_MODEL_SIZE = re.compile(
    r"(?<![\w.])(?<![×*/]\s)(?<![×*/])\d+(?:\.\d+)?\s*[BM](?![A-Za-z])(?!\s*tokens?\b)"
)
_FAR = 20.0
"""A derived value more than this many times off the printed one is not the relation the text
states (a rate per token times a training set's tokens against a checkpoint's size): no draft.
A slip of the decimal point (62.7 for 6.27) stays within it."""
_NEW_SUBJECT = re.compile(
    r"\b(?:and|but|while|whereas|plus|besides)\b|而|但|另外|此外|并且|以及|和", re.IGNORECASE
)
_SENTENCE_END = re.compile(
    r"[。！？；;!?]|(?<!\bi\.e)(?<!\be\.g)(?<!\bvs)(?<!\betc)(?<!\bapprox)\.(?=\s|$)"
)
_OPERATORS = "×*/÷+−"
"""What a figure right after which is an operand of arithmetic written out (``× 4096``,
``/ (2``), white space and one opening bracket between."""
_APPROXIMATE_WORDS = ("≈", "~", "约", "about", "roughly")
"""What marks a figure right after it (white space between) as approximate."""
_OPERATOR_AFTER = re.compile(
    r"\s*\)?\s*[×*/÷+−](?!\s*(?:tokens?|layers?|blocks?|bytes?|字节|层|seq|GPU|steps?|s\b|day|h\b))"
)
_SECONDS = {"s": 1, "sec": 1, "second": 1, "秒": 1, "min": 60, "minute": 60, "分钟": 60}
_SECONDS |= {"h": 3600, "hr": 3600, "hour": 3600, "小时": 3600, "day": 86400, "天": 86400}
_SECONDS |= {"week": 604800, "周": 604800}
_SCALES = {"k": "kilo", "K": "kilo", "M": "1e6", "B": "1e9", "T": "1e12", "万": "1e4"}
_SCALES |= {"亿": "1e8", "thousand": "1e3", "million": "1e6", "billion": "1e9"}
_SCALES |= {"trillion": "1e12"}
_UNIT_VALUES = {**byte_units("decimal"), KILO: 1000.0}
_TEXT_FENCES = frozenset({"", "text", "txt", "plain", "plaintext", "output", "console"})
_COUNT_UNITS = frozenset({"token", "layer", "matrix", "sequence", "gpu"})


@dataclass(frozen=True)
class _Figure:
    """A printed quantity of a section: what it measures, what it is per, and its clause."""

    printed: str
    """Number and unit as printed (``327,680 bytes``, ``12.5 GiB``), or the number alone."""
    number: str
    """The number as written (``327,680``)."""
    term: str
    """The figure as a term of an expression (``327,680``, ``(320*KiB)``, ``(19.7*1e6)``)."""
    measure: str
    """``bytes``, ``bits``, ``nats``, ``count``, ``time`` or ``gpu_hours``; for a count of a
    unit (``32K tokens``), that unit (``token``, ``layer``, ``matrix``, ``sequence``, ``gpu``)."""
    per: frozenset[str]
    """The units it is stated per (``{token, layer}``)."""
    line: int
    """1-based lesson line of the number."""
    segment: int
    """Index of the text it was read from, in the section (for what lies between two)."""
    start: int
    """Offset of the number in the segment's plain text."""
    end: int
    """Offset after its unit (and its ``per token``)."""
    rounded: bool
    """Printed with decimals or as approximate: it stands for what it rounds from."""
    time_unit: str = ""
    """For a time: its unit's key in :data:`_SECONDS`."""
    counts: tuple[_Figure, ...] = ()
    """The counts of units its clause states before it, nearest last."""
    all_layers: bool = False
    """Its clause says it is over all layers (``whole stack``, ``所有层``)."""
    computed: bool = False
    """It is the result of arithmetic written right before it (``2 × 8 = 16``)."""
    each: bool = False
    """For a count: stated ``each`` (``4,096 tokens each``), a count per something else."""
    head: str = ""
    """Its clause before it, as plain text."""
    restated: bool = False
    """Another printing of a figure next to it with more digits (``4 KiB`` beside ``4,096
    bytes``, ``19.7M`` after ``19,660,800``): that one is the operand a later line uses."""


@dataclass
class _Segment:
    """One text of a section as plain arithmetic: a paragraph, a math block, a text line."""

    source: str
    """As written in the lesson (its lines joined by spaces)."""
    text: str
    """Plain form (:func:`checkers.extract.latex.plain`)."""
    where: Sequence[int]
    """Source offset of every plain character."""
    starts: list[int]
    """Source offset where each of its lines starts."""
    lines: list[int]
    """1-based lesson line of each of its lines."""
    names_model: bool | None = None
    """It names a model (a figure before it may be another model's); None until asked."""
    figures: list[_Figure] = field(default_factory=list)
    """Its figures, in order."""

    def line_of(self, plain_offset: int) -> int:
        """The lesson line of a plain character."""
        at = self.where[min(plain_offset, len(self.where) - 1)] if self.where else 0
        return self.lines[bisect.bisect_right(self.starts, at) - 1]


def _segments(blocks: tuple[Block, ...]) -> Iterator[_Segment]:
    for block in blocks:
        if block.kind in ("paragraph", "math"):
            groups = [block.lines]
        elif block.kind == "fence" and block.info.split(" ")[0].lower() in _TEXT_FENCES:
            groups = [(line,) for line in block.lines]
        else:
            continue
        for group in groups:
            if not group:
                continue
            texts = [line.text.strip() for line in group]
            source = " ".join(texts)
            if not re.search(r"\d", source):
                continue
            starts, at = [], 0
            for text in texts:
                starts.append(at)
                at += len(text) + 1
            text, where = plain(source)
            yield _Segment(source, text, where, starts, [line.number for line in group])


def _unspaced(text: str, end: int) -> int:
    """Where the white space that ends ``text[:end]`` starts (``end`` when there is none):
    what stands right before a figure is looked at from its end, not from the text's start."""
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


def _operator_before(text: str, end: int) -> bool:
    """True when ``text[:end]`` ends with an operator of :data:`_OPERATORS`, then white space
    and one opening bracket at most (``× ``, ``/ (``)."""
    at = _unspaced(text, end)
    if at > 0 and text[at - 1] == "(":
        at = _unspaced(text, at - 1)
    return at > 0 and text[at - 1] in _OPERATORS


def _term(number: str, exponent: str, scale: str, unit: str) -> str:
    """The printed figure as a term of an expression: a scale as a power of ten (a count's K
    as ``kilo``, read as 1000 or 1024 by the arithmetic kind), a byte unit as its name."""
    value = number
    if exponent:
        power = re.sub(r"[^\d+−-]", "", exponent.split("^")[-1]).replace("−", "-")
        value = f"{number}e{power}" if "^" in exponent else number + exponent
    if scale:
        factor = _SCALES.get(scale, _SCALES.get(scale.lower(), "1"))
        value = f"({value}*{factor})"
    elif unit and re.fullmatch(r"[KMGTP]i?B", unit):
        value = f"({value}*{unit})"
    return value


def _read(segment: _Segment, index: int) -> None:
    """The figures of one segment, each with its clause (see :class:`_Figure`)."""
    text = segment.text
    sentence_start = 0
    previous: dict[str, _Figure] = {}  # the sentence's last figure of each measure
    counts: list[_Figure] = []
    batches = [
        _Figure(
            printed=batch.group(0).strip(),
            number=batch.group(1),
            term=batch.group(1),
            measure="sequence",
            per=frozenset(),
            line=segment.line_of(batch.start(1)),
            segment=index,
            start=batch.start(),
            end=batch.end(),
            rounded=False,
        )
        for batch in (_BATCH.finditer(text) if "batch" in text.lower() or "批" in text else ())
    ]
    for match in _QUANTITY.finditer(text):
        end_of_sentence = _SENTENCE_END.search(text, sentence_start, match.start())
        while end_of_sentence is not None:
            sentence_start = end_of_sentence.end()
            previous, counts = {}, []
            end_of_sentence = _SENTENCE_END.search(text, sentence_start, match.start())
        while batches and batches[0].start < match.start():
            batch = batches.pop(0)
            if batch.start >= sentence_start:
                counts.append(batch)
        number, exponent = match["num"], match["exp"] or ""
        measure = next((name for name, _ in _MEASURES if match[name]), "")
        scale = (match["scale"] or "").strip()
        unit = match[measure].strip() if measure else ""
        if not measure and match["noun"]:
            measure = _noun(match["noun"])
        elif not measure and (match["params"] or scale):
            measure = "count"
        elif not measure and not exponent and _COUNT_LABEL.search(text, 0, match.start()):
            measure = "count"  # "Per layer: 7,077,888." … "All 12 layers: 84,934,656."
        if not measure:
            continue
        after = match.end()  # what follows the figure is matched from here, not copied
        if _operator_before(text, match.start()) or _OPERATOR_AFTER.match(text, after):
            continue  # an operand of arithmetic written out ("819,200 × 4096 字节")
        approximate = text.endswith(_APPROXIMATE_WORDS, 0, _unspaced(text, match.start()))
        figure = _Figure(
            printed=text[match.start() : match.end()].strip(),
            number=number,
            term=_flops_term(number, exponent, unit)
            if measure == "flops"
            else _term(number, exponent, scale, unit if measure == "bytes" else ""),
            measure=measure,
            per=frozenset(),
            line=segment.line_of(match.start()),
            segment=index,
            start=match.start(),
            end=match.end(),
            rounded="." in number or approximate,
            time_unit=_time_unit(unit) if measure == "time" else "",
        )
        if measure in _COUNT_UNITS:
            counts.append(_with(figure, each=_EACH_AFTER.match(text, after) is not None))
            continue
        if measure == "bytes" and _HARDWARE_AFTER.match(text, after):
            # "a 40 GB A100": the card's memory, not a figure of the text's own; kept as a
            # capacity, which a figure "left" after what it holds is subtracted from
            segment.figures.append(_with(figure, measure="capacity"))
            continue
        last = previous.get(measure)
        head_start = max(sentence_start, last.end if last else 0)
        head = text[head_start : match.start()]
        per = {_noun(found) for found in _per_words(head)}
        per_after = _PER_AFTER.match(text, after)
        end = match.end()
        if per_after is not None:
            per.add(_noun(per_after.group(1)))
            end = per_after.end()
        own_counts = tuple(c for c in counts if c.start >= head_start)
        all_layers = _ALL_LAYERS.search(head) is not None
        restated = False
        if last is not None and _RESTATED.match(head):
            per, own_counts, all_layers = set(last.per) | per, last.counts, last.all_layers
            if _digits(number) > _digits(last.number):
                segment.figures[segment.figures.index(last)] = _with(last, restated=True)
            else:
                restated = True
        figure = _with(
            figure,
            end=end,
            per=frozenset(per),
            counts=own_counts,
            all_layers=all_layers,
            computed=_COMPUTED.search(head) is not None,
            head=head,
            restated=restated,
        )
        previous[measure] = figure
        segment.figures.append(figure)
    # A number labelled "GPU-hours = … ≈ 1.87e5" has no unit: its label says what it is.
    for match in re.finditer(r"GPU[-\s]?hours?\s*=[^=≈\n]*[=≈]\s*(?:~\s*)?", text, re.I):
        value = re.match(_NUMBER, text[match.end() :])
        if value is None or any(f.start == match.end() for f in segment.figures):
            continue
        segment.figures.append(
            _Figure(
                printed=value.group(0),
                number=value["num"],
                term=_term(value["num"], value["exp"] or "", "", ""),
                measure="gpu_hours",
                per=frozenset(),
                line=segment.line_of(match.end()),
                segment=index,
                start=match.end(),
                end=match.end() + value.end(),
                rounded=True,
                computed=True,
            )
        )
    segment.figures.sort(key=lambda f: f.start)


_LEFT_BEFORE = re.compile(
    r"(?:剩余|剩下|还剩|余下)\s*(?:约|大约)?\s*\Z|\b(?:leaving|leaves|left\s+with)\s+"
    r"(?:about\s+|roughly\s+|~\s*)?\Z",
    re.IGNORECASE,
)
"""A size stated as what is left of a card's memory, the word right before it."""
_FACTOR_BEFORE = re.compile(
    r"(?:翻倍|翻一番|减半)(?:到|至|为|成)\s*(?:约|大约)?\s*\Z"
    r"|\b(?:doubles?|doubled|halves|halved)\s+to\s+(?:about\s+|roughly\s+|~\s*)?\Z",
    re.IGNORECASE,
)
"""A figure stated as the one before it doubled or halved, the word right before it."""
_MODEL_AFTER = re.compile(r"\s*(?:的\s*)?(?:模型|model|LLM|dense|MoE)", re.IGNORECASE)
_SPLIT = re.compile(
    r"shard\w*|split|divided|spread|partition\w*|evenly|均分|平分|切分|分摊|分到", re.IGNORECASE
)
"""Words that say a total is split evenly over the GPUs of the clause."""
_PARTIAL_SHARDING = re.compile(r"ZeRO[-\s]?[12]\b|stage\s*[12]\b|tensor\s+parallel", re.I)
"""Sharding that splits only part of a total (ZeRO-1 the optimizer states, ZeRO-2 also the
gradients): its share per GPU is not the total over the GPUs."""
_CAPACITY_AFTER = re.compile(r"\s*(?:of\s+)?(?:memory|HBM|VRAM|显存)", re.IGNORECASE)
_COUNT_LABEL = re.compile(
    r"(?:\b(?:per|each|every|one)\s+(?:layer|block)|\ball\s+\d+\s+(?:layers|blocks)|每层|全部\s*\d+\s*层)"
    r"\s*[:：]\s*\Z",
    re.IGNORECASE,
)
"""A label that says what a plain number right after it counts: per layer, or all N layers."""
_FLOP_PREFIX = {"G": "1e9", "T": "1e12", "P": "1e15", "E": "1e18"}


def _flops_term(number: str, exponent: str, unit: str) -> str:
    """A figure of FLOPs as a term in FLOPs: its scale word (``billion``) or its unit's prefix
    (``PFLOPs``) as a power of ten."""
    value = _term(number, exponent, "", "")
    scale = unit.split()[0] if len(unit.split()) > 1 else ""
    prefix = unit[0] if unit[:1] in _FLOP_PREFIX and not scale else ""
    factor = (
        _SCALES.get(scale, _SCALES.get(scale.lower(), ""))
        if scale
        else _FLOP_PREFIX.get(prefix, "")
    )
    return f"({value}*{factor})" if factor else value


def _literal(figure: _Figure) -> str:
    """The figure's number as its term writes it (``7.26e5``, ``19.7`` of ``(19.7*1e6)``): the
    literal a ``carried`` field names."""
    found = re.match(r"\(?(\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)", figure.term)
    return found.group(1) if found else figure.number


def _digits(number: str) -> int:
    """Significant digits of a printed number (``4,096``: 4, ``19.7``: 3)."""
    return len(number.replace(",", "").replace(".", "").lstrip("0"))


def _noun(word: str) -> str:
    lower = word.lower().replace(" ", "")
    for key, noun in _NOUNS.items():
        if lower.startswith(key):
            return noun
    return lower


def _per_words(head: str) -> Iterator[str]:
    for match in _PER_BEFORE.finditer(head):
        found = next((g for g in match.groups() if g), None)
        if found is not None:
            yield found


def _time_unit(unit: str) -> str:
    lower = unit.lower()
    for key in sorted(_SECONDS, key=len, reverse=True):
        if lower.startswith(key) or lower.rstrip("s") == key:
            return key
    return ""


def _with(figure: _Figure, **changes: Any) -> _Figure:
    return dataclasses.replace(figure, **changes)


def _check(fields: dict[str, object]) -> bool | None:
    """True when the arithmetic kind accepts the fields, False when it fails them, None when it
    refuses them."""
    kind = ALL_KINDS["arithmetic"]
    try:
        return kind.check(kind.Input.model_validate(fields), Context()).ok
    except (ValueError, TypeError, ArithmeticError):
        return None


def _describe(figure: _Figure, what: str) -> str:
    return f"{what} {figure.printed} (line {figure.line})"


def _far(fields: dict[str, object]) -> bool:
    """True when the expression's value is more than :data:`_FAR` times off the claimed value
    under every reading of their units (see :data:`_FAR`)."""
    try:
        claimed = parse_printed(str(fields["claimed"]))
        value = evaluate(parse(str(fields["expression"])), _UNIT_VALUES)
    except (ExprError, NumberError, ArithmeticError, ValueError):
        return True
    if not isinstance(value, float) or value <= 0 or claimed.value <= 0:
        return True
    ratio = value / claimed.value
    return not any(1 / _FAR <= ratio * factor <= _FAR for factor in (1.0, 1.024**3, 1.024**-3))


def _value(figure: _Figure) -> float:
    try:
        return float(figure.number.replace(",", ""))
    except ValueError:
        return 0.0


def _short(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


class _Section:
    """The figures of one section read so far, and the drafts they make."""

    def __init__(self, document: Document, section: int, segments: list[_Segment]) -> None:
        self.document = document
        self.section = section
        self.segments = segments
        self.seen: list[_Figure] = []

    def between_model(self, earlier: _Figure, later: _Figure) -> bool:
        """True when a model is named after ``earlier``'s text, up to ``later``'s."""
        for segment in self.segments[earlier.segment + 1 : later.segment + 1]:
            if segment.names_model is None:
                segment.names_model = mentions_model(segment.source)
            if segment.names_model:
                return True
        return False

    def earlier(self, figure: _Figure, measures: tuple[str, ...]) -> Iterator[_Figure]:
        """Earlier figures of ``measures``, nearest first, within reach, before any model."""
        looked = 0
        for other in reversed(self.seen):
            if figure.line - other.line > _REACH or self.between_model(other, figure):
                return
            if other.measure in measures:
                looked += 1
                yield other
                if looked >= _BACK:
                    return

    def layers(self, figure: _Figure, rate: _Figure) -> list[tuple[str, str]]:
        """(count, where read) of the layer counts the section states up to ``figure``, the
        one nearest before ``rate`` first."""
        stated = [
            q
            for q in section_scope(self.document, self.section).of("layers")
            if q.line <= figure.line and q.source != "table" and not q.published
        ]
        stated.sort(key=lambda q: (q.line > rate.line, abs(rate.line - q.line)))
        found: dict[str, str] = {}
        for q in stated:
            text = q.printed.text.replace(",", "")
            found.setdefault(text, f"layers {q.printed.text} (line {q.line})")
        return list(found.items())

    def derive(self, figure: _Figure) -> Iterator[Draft]:
        """The drafts of what ``figure`` derives from the figures before it."""
        if figure.computed:
            return
        if figure.measure == "time":
            for drafted in (self._gpu_time(figure), self._restated_time(figure)):
                if drafted is not None:
                    yield drafted
            return
        if figure.measure not in ("bytes", "bits", "count", "nats", "flops"):
            return
        if figure.measure == "bytes" and _LEFT_BEFORE.search(figure.head):
            drafted = self._left(figure)
            if drafted is not None:
                yield drafted
            return
        factor = _FACTOR_BEFORE.search(figure.head)
        if factor is not None:
            drafted = self._scaled(figure, factor)
            if drafted is not None:
                yield drafted
            return
        if figure.per == {"gpu"} and _SPLIT.search(figure.head):
            drafted = self._split(figure)
            if drafted is not None:
                yield drafted
            return
        for rate in self.earlier(figure, (figure.measure,)):
            if not rate.per or rate.restated or rate.number in figure.head:
                continue
            if self._other_model(figure, rate):
                return  # "The 13B variant at 4,096 tokens …": another model than the rate's
            drafted = self._per_unit(figure, rate) or self._over_rate(figure, rate)
            if drafted is not None:
                yield drafted
                return

    def _other_model(self, figure: _Figure, rate: _Figure) -> bool:
        """True when ``figure``'s clause names a model size (``13B``, ``7B model``) that the
        text of ``rate`` does not: the figure is about another model."""
        if rate.segment == figure.segment:  # one paragraph: what is written between them
            between = self.segments[figure.segment].text[rate.end : figure.start]
            return _MODEL_SIZE.search(between) is not None or mentions_model(between)
        rate_text = self.segments[rate.segment].text
        return any(size.group() not in rate_text for size in _MODEL_SIZE.finditer(figure.head))

    def _per_unit(self, figure: _Figure, rate: _Figure) -> Draft | None:
        """``rate`` × the counts of ``figure``'s clause (and the layers) = ``figure``."""
        if not figure.per <= rate.per | {"sequence"}:
            return None
        missing = rate.per - figure.per
        if not missing:
            return None
        factors: list[str] = []
        used: list[_Figure] = []
        operands = [_describe(rate, "per-" + "-per-".join(sorted(rate.per)) + " figure")]
        for noun in sorted(missing - {"layer"}):
            count = next((c for c in reversed(figure.counts) if c.measure == noun), None)
            if count is None or count.each or _value(count) <= 1:
                return None
            factors.append(count.term)
            used.append(count)
            operands.append(_describe(count, "count"))
        readings: list[tuple[list[str], str]] = [([], "")]
        if "layer" in missing:
            count = next((c for c in reversed(figure.counts) if c.measure == "layer"), None)
            if count is not None:
                if count.each or _value(count) <= 1:
                    return None
                readings = [([count.term], _describe(count, "count"))]
                used.append(count)
            elif factors or figure.all_layers:
                # The layers come from the section; a clause that counts other units but drops
                # "per layer" without saying "all layers" may still mean one layer.
                stated = self.layers(figure, rate)
                if not stated:
                    return None
                readings = [([n], where) for n, where in stated]
                if not figure.all_layers:
                    readings.append(([], "still per layer"))
            else:
                return None
        if not factors and readings == [([], "")]:
            return None
        segment = self.segments[figure.segment]
        after = max((c.end for c in used), default=figure.start - len(figure.head))
        gap = segment.text[after : figure.start]
        if re.search(r"\d", gap) or _NEW_SUBJECT.search(gap):
            return None  # other numbers, or another subject: not a figure of these counts
        alternatives = [
            (f"{rate.term} × " + " × ".join([*factors, *extra]), where)
            for extra, where in readings
            if factors or extra
        ]
        return self._draft(figure, [rate], alternatives, operands, used)

    def _scaled(self, figure: _Figure, factor: re.Match[str]) -> Draft | None:
        """The figure just before, doubled or halved: ``≈ 4.2M`` … ``翻倍到约 8.4M``,
        ``doubles to 8.4M``. The earlier figure is the nearest of the same measure and per
        units that is not a model's size (``7B 模型``)."""
        multiplier = "2" if re.search("翻|doubl", factor.group(0), re.IGNORECASE) else "0.5"
        for earlier in self.earlier(figure, (figure.measure,)):
            segment = self.segments[earlier.segment]
            if _MODEL_AFTER.match(segment.text, earlier.end) or earlier.restated:
                continue
            if (figure.per and earlier.per != figure.per) or earlier.number in figure.head:
                return None
            alternatives = [(f"{earlier.term} × {multiplier}", "")]
            operands = [_describe(earlier, "figure"), f"{factor.group(0).strip()}: × {multiplier}"]
            return self._draft(figure, [earlier], alternatives, operands, [])
        return None

    def _left(self, figure: _Figure) -> Draft | None:
        """What a card's memory leaves after the one size it holds: ``一张 80 GB 的卡`` …
        ``权重约 35 GB；剩余 45 GB``, ``an 80 GB A100 … 35 GB of weights, leaving 45 GB``."""
        used: list[_Figure] = []
        for other in reversed(self.seen):
            if figure.line - other.line > _REACH:
                return None
            if other.measure == "capacity":
                break
            if other.measure == "bytes" and not other.restated:
                used.append(other)
        else:
            return None
        if len(used) != 1 or used[0].per or other.per:
            return None  # nothing, or several sizes held: which are subtracted is not stated
        alternatives = [(f"{other.term} − {used[0].term}", "")]
        operands = [_describe(other, "card memory"), _describe(used[0], "used")]
        return self._draft(figure, [other, used[0]], alternatives, operands, [])

    def _split(self, figure: _Figure) -> Draft | None:
        """A total split evenly over the GPUs its clause counts: ``20.8 GB of model state``
        … ``sharded across the 8 GPUs, each GPU holds 2.6 GB`` (total ÷ GPUs)."""
        gpus = next((c for c in reversed(figure.counts) if c.measure == "gpu"), None)
        if gpus is None or gpus.each or _value(gpus) <= 1 or _PARTIAL_SHARDING.search(figure.head):
            return None
        segment = self.segments[figure.segment]
        if _CAPACITY_AFTER.match(segment.text, figure.end):
            return None  # "each GPU has 80 GB of memory": the card's size, not a share
        total = next(
            (t for t in self.earlier(figure, (figure.measure,)) if not t.per and not t.restated),
            None,
        )
        if total is None or total.number in figure.head or self._other_model(figure, total):
            return None
        alternatives = [(f"{total.term} / {gpus.term}", "")]
        operands = [_describe(total, "total"), _describe(gpus, "GPUs")]
        return self._draft(figure, [total], alternatives, operands, [gpus])

    def _over_rate(self, figure: _Figure, rate: _Figure) -> Draft | None:
        """``rate`` (A per x) ÷ another rate (y per x) = ``figure`` (A per y): bits per token
        over bytes per token is bits per byte."""
        if len(figure.per) != 1 or len(rate.per) != 1 or figure.per == rate.per:
            return None
        (unit,) = figure.per
        measure = {"byte": "bytes", "token": "token"}.get(unit)
        if measure is None:
            return None
        divisor = next(
            (
                d
                for d in self.earlier(figure, (measure,))
                if d.per == rate.per and d.number not in figure.head and not d.restated
            ),
            None,
        )
        if divisor is None or _value(divisor) == 0:
            return None
        (per,) = rate.per
        operands = [
            _describe(rate, f"per-{per} figure"),
            _describe(divisor, f"{unit}s per {per}"),
        ]
        alternatives = [(f"{rate.term} / {divisor.term}", "")]
        return self._draft(figure, [rate, divisor], alternatives, operands, [])

    def _gpu_time(self, figure: _Figure) -> Draft | None:
        """GPU-hours over the GPUs of ``figure``'s clause, in its unit of time."""
        if figure.per:
            return None  # "2 hours per epoch": a time per something else, not the run's
        gpus = next((c for c in reversed(figure.counts) if c.measure == "gpu"), None)
        unit = figure.time_unit
        if gpus is None or gpus.each or _value(gpus) <= 1 or unit not in _SECONDS:
            return None
        if not _TOTAL_CUE.search(figure.head):
            return None
        work = list(self.earlier(figure, ("gpu_hours",)))
        if not work:
            return None
        scale = _SECONDS[unit] / 3600
        divide = f" / {_short(scale)}" if scale != 1 else ""
        alternatives = [
            (f"{w.term} / {gpus.term}{divide}", _describe(w, "GPU-hours")) for w in work
        ]
        return self._draft(figure, work, alternatives, [_describe(gpus, "GPUs")], [gpus])

    def _restated_time(self, figure: _Figure) -> Draft | None:
        """``≈ 22,560 秒`` then ``折合约 6.27 小时``: the same time in another unit."""
        if not _CONVERSION.search(figure.head) or re.search(r"\d", figure.head):
            return None
        before = self.seen[-1] if self.seen else None
        if before is None or before.measure != "time" or before.time_unit == figure.time_unit:
            return None
        if figure.line - before.line > 3 or not before.time_unit or not figure.time_unit:
            return None
        segment = self.segments[figure.segment]
        if before.segment == figure.segment:
            gap = segment.text[before.end : figure.start]
        else:
            gap = self.segments[before.segment].text[before.end :] + segment.text[: figure.start]
        if re.search(r"\d", gap) or _SENTENCE_END.search(gap):
            return None  # another number, or another sentence ("Each takes 10 s. That is 43 h")
        ratio = _SECONDS[before.time_unit] / _SECONDS[figure.time_unit]
        operator = f" × {_short(ratio)}" if ratio >= 1 else f" / {_short(1 / ratio)}"
        alternatives = [(f"{before.term}{operator}", "")]
        return self._draft(figure, [before], alternatives, [_describe(before, "time")], [])

    def _draft(
        self,
        figure: _Figure,
        operands_read: list[_Figure],
        alternatives: list[tuple[str, str]],
        operands: list[str],
        counts: list[_Figure],
    ) -> Draft | None:
        """The claim of ``figure`` under the first of ``alternatives`` (expression, where its
        reading was read) that holds, else under the first; the note names every operand's
        line and the readings tried. ``counts`` are the counts of its own clause it uses."""
        if not alternatives:
            return None
        claimed = figure.printed if figure.measure in ("bytes", "count") else figure.number
        if figure.measure == "count" and not re.search(r"[KMBTk万亿]|illion|thousand", claimed):
            claimed = figure.number
        claimed = re.sub(_PARAMS + "$", "", claimed, flags=re.IGNORECASE).strip()
        if figure.measure == "flops":  # "2.0e21 FLOPs" reads as 2.0e21, "3 PFLOPs" keeps its unit
            claimed = _term(figure.number, "", "", "") if not figure.printed else figure.printed
            claimed = re.sub(r"(?<![GTPE])\s*FLOPs?$", "", claimed).strip()
        # the literal as the expression holds it: 7.26e5 for "7.26 × 10^5", not its mantissa
        carried = {_literal(f) for f in operands_read if f.rounded}
        base: dict[str, object] = {"claimed": claimed}
        if figure.measure == "bytes":
            base["prefixes"] = self.document.byte_prefixes
        chosen: tuple[dict[str, object], str] | None = None
        first: tuple[dict[str, object], str] | None = None
        for expression, where in alternatives:
            fields = {**base, "expression": expression}
            kept = sorted(c for c in carried if c in expression)
            if kept:
                fields["carried"] = kept
            verdict = _check(fields)
            if verdict is None or _far(fields):
                continue
            first = first or (fields, where)
            if verdict:
                chosen = (fields, where)
                break
        chosen = chosen or first
        if chosen is None:
            return None  # the kind refuses every reading
        fields, where = chosen
        tried = [w for _, w in alternatives if w and w != where]
        note = "; ".join(
            [
                *operands,
                *([where] if where else []),
                *([f"also tried {', '.join(tried)}"] if tried else []),
                *(
                    [f"{', '.join(rounded)} read as anything it rounds from"]
                    if (rounded := list(fields.get("carried", ())))  # type: ignore[call-overload]
                    else []
                ),
            ]
        )
        segment = self.segments[figure.segment]
        start = min([figure.start, *(c.start for c in counts)])
        begin, stop = segment.where[start], segment.where[figure.end - 1] + 1
        quote = segment.source[slice(*widened(segment.source, begin, stop))].strip()
        return Draft(
            kind="arithmetic",
            quote=quote,
            line=segment.line_of(start),
            fields=fields,
            confidence=0.6,
            recognizer=NAME,
            slug=f"{operands_read[0].number}-to-{figure.number}",
            note=note,
        )


_CUE_NOUNS = (
    "token",
    "layer",
    "block",
    "byte",
    "字节",
    "matri",
    "sequence",
    "sample",
    "序列",
    "层",
    "gpu",
    "张卡",
)
_CUE_BEFORE = re.compile(
    r"(?:per|each|every|one|single|每|1\s*个|/)\s*(?:个\s*)?\Z|[一每]条[^，。；\n]{0,20}\Z"
)
_CUE_WORDS = (
    "卡时",
    "折合",
    "约合",
    "相当于",
    "换算成",
    "i.e.",
    ", which is",
    ", that is",
    "翻倍",
    "减半",
    "doubles to",
    "doubled to",
    "halves to",
    "halved to",
    "剩余",
    "剩下",
    "leaving",
)
_GPU_HOURS = re.compile(r"gpu[-\s]?(?:hours?|小时)")


def _stems(words: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The ASCII words grouped by their first five characters: the text is searched once for
    each stem (``doubl`` for ``doubles to`` and ``doubled to``), each word tried where it is."""
    grouped: dict[str, tuple[str, ...]] = {}
    for word in words:
        if word.isascii():
            grouped[word[:5]] = (*grouped.get(word[:5], ()), word)
    return grouped


def _alternatives(words: Sequence[str]) -> re.Pattern[str]:
    """One pattern for the words that are not ASCII: the lesson is passed once for all of them
    (each ``str.find`` of a word passes it once), and an ASCII lesson not at all."""
    return re.compile("|".join(re.escape(word) for word in words if not word.isascii()))


_CUE_STEMS = _stems(_CUE_WORDS)
_NOUN_STEMS = _stems(_CUE_NOUNS)
_OTHER_CUE_WORDS = _alternatives(_CUE_WORDS)
_OTHER_CUE_NOUNS = _alternatives(_CUE_NOUNS)
"""The nouns in other scripts: no two of them overlap (``tests/extract/test_rates.py``), so
one pattern finds every place each of them is."""


def _cue_lines(document: Document) -> list[int]:
    """The 1-based lines of the lesson that hold what a figure stated per unit (or as GPU-hours,
    or restated in another unit) needs; a section without one is not read at all. Found with
    ``str.find`` in the lower-cased lesson, each noun's words before it looked at after: one
    pattern tried at every character of every lesson would cost more than all the rest. The text
    is lowered by :func:`~checkers.lesson.caseless`, one character for one, so that a position in
    it is one in the lesson (``str.lower`` turns "İ" into two characters)."""
    lower = document.caseless
    found: list[int] = []
    for stem, words in _CUE_STEMS.items():
        found.extend(at for at in _positions(lower, stem) if lower.startswith(words, at))
    places = {
        stem: [at for at in _positions(lower, stem) if lower.startswith(words, at)]
        for stem, words in _NOUN_STEMS.items()
    }
    gpus = places["gpu"] if "gpu" in places else list(_positions(lower, "gpu"))
    found.extend(at for at in gpus if _GPU_HOURS.match(lower, at))
    nouns = [at for positions in places.values() for at in positions]
    if not lower.isascii():
        found.extend(match.start() for match in _OTHER_CUE_WORDS.finditer(lower))
        nouns.extend(match.start() for match in _OTHER_CUE_NOUNS.finditer(lower))
    found.extend(at for at in nouns if _CUE_BEFORE.search(lower, max(0, at - 24), at))
    return sorted({document.line_of(at) for at in found})


def _positions(text: str, word: str) -> Iterator[int]:
    """Every place ``word`` starts in ``text`` (overlapping ones too)."""
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


def _near_cue(cues: list[int], first: int, last: int) -> bool:
    """True when a cue line lies within lines ``first - 3`` … ``last``, or a few lines before
    (a rate's cue is on its own line; what follows from it lies within :data:`_REACH` lines
    after it, a time restated in another unit on the line or paragraph after)."""
    at = bisect.bisect_right(cues, last + 3) - 1
    return at >= 0 and cues[at] >= first - _REACH


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``arithmetic`` claim for every figure the text derives from a figure stated
    earlier in its section (see the module docstring)."""
    cues = _cue_lines(document)
    if not cues:
        return
    for blocks in document.sections():
        at = bisect.bisect_left(cues, blocks[0].line)
        if at == len(cues) or cues[at] > max(b.lines[-1].number for b in blocks if b.lines):
            continue
        segments = list(_segments(blocks))
        if len(segments) == 0:
            continue
        state = _Section(document, blocks[0].section, segments)
        for index, segment in enumerate(segments):
            if not _near_cue(cues, segment.lines[0], segment.lines[-1]):
                continue  # no figure of it can be a rate, nor follow one
            _read(segment, index)
            for figure in segment.figures:
                yield from state.derive(figure)
                state.seen.append(figure)
