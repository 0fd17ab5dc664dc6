"""Recogniser ``accelerator_facts``: published figures of a named accelerator stated in prose.

Recognises, in a paragraph, list item, heading or table cell, an accelerator the reference table
knows (``checkers/data/accelerators.yaml``: "A100", "H100 SXM", "H200", "DGX Spark", "GB10",
"T4", "RTX 4090"…) and, in the same clause after it, a number whose role the text names, in
English or Chinese:

* memory — a size in GB/GiB/TB followed by a memory word (``80GB HBM2e``, ``128GB unified
  memory``, ``80 GB 显存``), after one (``memory of 80 GB``, ``显存为 80GB``), or written as the
  variant right after the name (``A100 80GB``, ``DGX Spark (128GB)``, ``the H100's 80GB``);
  also a size right before the name (``an 80GB A100``), a size the card has with nothing after
  it that makes it a part (``A single H100 has 80GB.``, not ``has 30GB free``) and a clause that
  opens ``With 128GB unified memory, DGX Spark …``;
* bandwidth — GB/s or TB/s with "bandwidth"/"带宽" before or just after it, not an
  interconnect's (NVLink, PCIe, C2C, network) or a cache's;
* peak — TFLOPS, PFLOPS, petaFLOP(S) or TOPS with a number type in the clause (``bf16``,
  ``FP8``, ``NVFP4``…, also in brackets after it: ``312 TFLOPS (BF16)``) and, where the text
  says it, dense
  (``dense``, ``稠密``, ``without sparsity``) or sparse (``with sparsity``, ``稀疏``, ``2:4``;
  "doubles with sparsity" after a number marks *it* dense); where it does not, the claim
  leaves it open and either datasheet figure holds; FP32 and FP64 (``single-precision``) are
  drafted too and read by the kind as the CUDA cores' rate or the tensor cores' one, but not
  where the text says ``non-tensor`` (an FP16 rate on the CUDA cores is not in the table);
* CUDA cores — ``6,144 CUDA cores``, ``CUDA 核心``.

"On <name>, <figure> is …" (``On H100, HBM bandwidth is 3 TB/s``, ``在 A100 上，显存带宽为``)
makes the card the topic of the clause; other figures after "on <name>" may be rates measured on
it and are left.

Tables: a label/value row is read as the sentence it stands for (``| DGX Spark Memory | 128 GB
|`` as "DGX Spark Memory: 128 GB"), unless its value cell names the card and was drafted on its
own; and a table of cards — a first column of cells that are each one card's name and nothing
else (``A100 80GB``, ``**H100 SXM**``; not ``8x A100`` or ``n1-standard-4 + T4``) under headers
that name a figure (``Memory``, ``HBM bandwidth (TB/s)``, ``BF16 TFLOPS (dense)``, ``CUDA
cores``), or the same transposed, cards across the header — has each plain number cell drafted
under its card, with the unit of the cell or the header, quoted by the row. A table with a
header naming what runs on the cards (model, batch, tokens, task) is about runs, and a header
naming a use, a link, a price, a measurement or FP32/FP64 is not the card's datasheet figure:
those are left. Each number becomes an ``accelerator_spec`` claim. Nothing is drafted
where the number is not the product's figure: several of them (``8× A100``, ``2 台 DGX Spark``,
``A100s``; ``1x A100 40GB`` is one card), another product behind a suffix (``RTX 3090 Ti``,
``RTX 4090 Laptop``), a look-alike (``A100-class``, ``like an H100``), a hypothetical ("suppose",
"if", "假设"), what something uses or needs of it ("the model uses 40 GB", "needs", "fits",
"leaves", "占用", "需要"), a measured or achieved rate ("we measured", "achieves", "实测", "in
practice"), a factor of a product (``2 × 80 GB``), or a figure the table does not publish for
that product.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from checkers.data.accelerators import accelerator_table
from checkers.extract.document import Document, Table, joined_lines, line_at
from checkers.extract.draft import Draft
from checkers.kinds.accelerator_spec import Input, publishes

__all__ = ["recognize"]

NAME = "accelerator_facts"

_NUMBER = r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_MEMORY_WORD = (
    r"(?:\s*(?:of\s+)?(?:(?:unified|coherent|hbm\w*|lpddr\w*|gddr\w*|gpu|system|device|"
    r"on-?board|high-bandwidth|shared|total)\s+)*(?:memory|vram|hbm\w*|lpddr\w*|显存|内存|统一内存))"
)
_MEMORY_AFTER = re.compile(rf"{_NUMBER}\s*(?P<u>gb|gib|tb)(?![a-z/]){_MEMORY_WORD}")
_MEMORY_ATTACHED = re.compile(
    rf"(?:\s*(?:'s|’s)?\s*[(（]?\s*|[\s-]){_NUMBER}\s*(?P<u>gb|gib)(?![a-z/])"
)
_MEMORY_HAS = re.compile(
    rf"\s*(?:has|comes with|ships with|packs|offers|拥有|有)\s*(?:only\s+|just\s+)?"
    rf"(?:~\s*|≈\s*|about\s+|around\s+|roughly\s+|约\s*)?{_NUMBER}\s*(?P<u>gb|gib)"
    r"(?=\s*(?:[.,;:!?)。，；：]|$)|\s+(?:and|but)\s)"
)
"""``A single H100 has 80GB.``: a size the card has, with no memory word, and nothing after it
that makes it a part of the memory ("has 50GB free", "has 20GB left" are not the card's)."""
_MEMORY_NAMED = re.compile(
    rf"(?:memory|vram|显存|内存)(?:\s*(?:size|capacity|容量))?\s*(?:of|is|:|：|为|是|有)\s*"
    rf"{_NUMBER}\s*(?P<u>gb|gib|tb)(?![a-z/])"
)
_MEMORY_BEFORE_NAME = re.compile(rf"{_NUMBER}\s*(?P<u>gb|gib)[\s-]*$")
_WITH_MEMORY = re.compile(rf"\W*with\s+{_NUMBER}\s*(?P<u>gb|gib)(?![a-z/]){_MEMORY_WORD}\s*,\s*")
_BANDWIDTH = re.compile(rf"{_NUMBER}\s*(?P<u>gb/s|tb/s)")
_BANDWIDTH_WORD = re.compile(r"bandwidth|带宽")
_BANDWIDTH_AFTER = re.compile(
    r"\s*(?:of\s+)?(?:(?:hbm\w*|memory|peak|内存|显存)\s*)*(?:bandwidth|带宽)"
    # a rate of the memory named by its kind: "3.35 TB/s HBM3", "273 GB/s of LPDDR5x"
    r"|\s*(?:of\s+)?(?:hbm\d?e?|gddr\d?x?|lpddr\d?x?)(?![a-z\d])"
)
_NVLINK_WORD = re.compile(r"nvlink(?!-?\s*c2c)")
_NVLINK_AFTER = re.compile(
    r"\s*(?:\(?(?:bidirectional|total|aggregate|per direction|each way|双向|单向)\)?\s*)?"
    r"(?:of\s+)?(?:(?:bidirectional|total|aggregate|gpu-to-gpu)\s+)*nvlink(?!-?\s*c2c)"
)
_NVLINK_BEFORE_NAME = re.compile(
    r"nvlink(?:\s*\d)?(?:\s+(?:bandwidth|带宽))?\s*(?:on|of|in|for)\s+(?:the\s+|an?\s+)?$"
)
"""``NVLink on the H100 runs at 900 GB/s``: the link named before the card it is on."""
_NOT_THE_NVLINK = re.compile(r"pcie|infiniband|ethernet|network|nvswitch|c2c|互联网络|网络")
_EACH_WAY = re.compile(
    r"per direction|each direction|each way|unidirectional|one way|单向|每个方向"
)
_BOTH_WAYS = re.compile(r"bidirectional|both directions|total|aggregate|双向|总")
_PEAK = re.compile(
    rf"{_NUMBER}\s*(?P<u>tflops?(?:/s)?|pflops?(?:/s)?|petaflops?|teraflops?|tops|pops)(?![a-z])"
)
_CUDA_CORES = re.compile(rf"{_NUMBER}\s*(?:cuda\s*(?:cores?|核心|核)|个\s*cuda\s*核心)")
_DTYPE = re.compile(
    r"(?<![a-z\d])(?:(?P<t>bf16|bfloat16|fp16|float16|half|tf32|fp8|nvfp4|fp4|int8|fp32|float32|"
    r"fp64|float64|single[- ]precision|double[- ]precision))(?![a-z\d])"
)
_DTYPES = {
    "bf16": "bf16",
    "bfloat16": "bf16",
    "fp16": "fp16",
    "float16": "fp16",
    "half": "fp16",
    "tf32": "tf32",
    "fp8": "fp8",
    "nvfp4": "fp4",
    "fp4": "fp4",
    "int8": "int8",
    "fp32": "fp32",
    "float32": "fp32",
    "single precision": "fp32",
    "single-precision": "fp32",
    "fp64": "fp64",
    "float64": "fp64",
    "double precision": "fp64",
    "double-precision": "fp64",
}
# "312 TFLOPS of dense BF16", "312 TFLOPS (BF16)": what may stand between a peak and its number
# type (not a comma: "989 TFLOPS, FP8 1,979" gives the next figure's type)
_DTYPE_LEAD = re.compile(
    r"^\s*(?:[(（\[]\s*)?(?:(?:of|in|for|at)\s+)?(?:(?:dense|sparse|ai|peak)\s+)*"
)
_OTHER_DTYPE = re.compile(r"(?<![a-z\d])(?:int4|fp6|int16|int32)(?![a-z\d])")
_DENSE = re.compile(r"dense|稠密|without sparsity|非稀疏|不稀疏")
_SPARSE = re.compile(r"sparse|sparsity|稀疏|2:4")
_DOUBLES = re.compile(r"doubl|twice|2\s*[x×]|翻倍|翻一倍|两倍|加倍")
_UNITS = {
    "gb": "GB",
    "gib": "GiB",
    "tb": "TB",
    "gb/s": "GB/s",
    "tb/s": "TB/s",
    "tops": "TOPS",
    "pops": "POPS",
}
_NOT_THE_SPEC = re.compile(
    r"\b(?:uses?|using|used|needs?|needed|requires?|required|takes?|consum\w*|occup\w*|leav\w*|"
    r"left|free|remaining|available|allocat\w*|reserv\w*|loads?|loading|loaded|fits?|fitting|"
    r"fill\w*|spare|headroom|only|over|under|than|more|less|beyond|exceed\w*|models?|weights|"
    r"cache|activations?|batch|params|parameters|our|we|you|your|i|measured|achiev\w*|attain\w*|"
    r"gets?|got|reach\w*|effective|actual|realistic|practice|sustained|observed|utili[sz]\w*|mfu|"
    r"each|per|split|across|tokens?|minus|after|when|if|non-?tensor|peak\s+(?:memory|vram|usage)(?!\s*bandwidth)|"
    r"max(?:imum)?\s+memory(?!\s*bandwidth))\b"
    r"|需要|占用|剩余|可用|加载|模型|我们|你|实测|实际|有效|每"
)
_NOT_THE_BANDWIDTH = re.compile(
    r"nvlink|pcie|c2c|interconnect|network|infiniband|ethernet|sram|l1|l2|cache|shared memory|"
    r"register|互联|网络|缓存"
)
_HYPOTHETICAL = re.compile(
    r"\b(?:suppose|imagine|assume|assuming|if|hypothetical)\b|假设|如果|假如"
)
_CLAUSE_END = re.compile(
    r"(?<=[.!?])\s+|[。！？；;]\s*|\b(?:while|whereas|but|however|unlike|compared (?:to|with)|"
    r"versus|vs\.?)\s|而|但|相比|不同于"
)
_SEVERAL = re.compile(
    r"(?:\d\s*[x×*]|\d\s*(?:张|块|台|个|units? of|nodes? of)|(?<![a-z])(?:two|three|four|six|eight|"
    r"sixteen|several|multiple|many|pairs? of|多|两|四|八)\s*(?:张|块|台)?)\s*(?:the\s+)?$"
)
_ONE = re.compile(r"(?<![\d.,])1\s*(?:[x×*]|张|块|台|个)\s*(?:the\s+)?$")
"""A count of one before the name (``1x RTX 4090 24GB``, ``1 块 A100``): one card, whose figures
are the card's own."""
_LOOK_ALIKE_BEFORE = re.compile(
    r"(?:like|similar to|类似于?|相当于|than|(?<![a-z])not|instead of|rather than|不是|而非)"
    r"\s*(?:an?\s+|the\s+)?$"
)
"""A name after one of these is what the subject is compared with or is not: its figures are
not stated."""
_LOOK_ALIKE_AFTER = re.compile(
    r"^(?:s\b|\s+(?:gpus|cards|chips|nodes)\b|[\s-]*(?:class|like|style|level|equivalent|级|类)"
    # another product sold under the same name and a suffix (RTX 3090 Ti, RTX 4090 Laptop GPU)
    r"|[\s-]*(?:ti|super|laptop|mobile|max-q|d)(?![a-z\d]))"
)
# "runs at 740 TFLOPS on H100": a rate measured on the product, not its datasheet peak.
_SETTING_BEFORE = re.compile(
    r"(?:\b(?:on|using|with|in|at|for|from|across)|在|用)\s*(?:the\s+|an?\s+|one\s+)?$"
)
_VARIANT = re.compile(r"[\s-]*(?:sxm\d?|pcie|nvl)\b")
_TOPIC_AFTER = re.compile(
    r"\s*(?:上)?\s*[,，:：]\s*(?:the\s+|its\s+)?"
    r"(?:(?:peak|hbm\w*|memory|gpu|nvlink|dense|sparse|tensor[- ]core|bf16|fp16|fp8|tf32|int8|"
    r"显存|内存|峰值)\s*)*(?:bandwidth|throughput|compute|带宽|算力)\s*(?:is|of|:|：|为|是|=)"
)
"""``On H100, HBM bandwidth is 3 TB/s``, ``在 A100 上，显存带宽为 2 TB/s``: after "on <name>" a
figure of the card named as the subject of the clause, so the card is the topic, not where a
rate was measured."""
_OPERAND_BEFORE = re.compile(r"[×x*/+÷]\s*$")
_OPERAND_AFTER = re.compile(r"^\s*[×*/+÷]\s*\d|^\s*x\s*\d")
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class _Mention:
    """An accelerator named in a clause."""

    name: str
    """The name as printed, with a variant written after it (``H100 SXM``)."""
    setting: bool
    """The name follows "on", "using", "with"…: what is stated may be a rate measured on it."""
    start: int
    """Offset of the name in the block text."""
    end: int
    """Offset just after the name (and its variant)."""


def _alternatives() -> str:
    """The table's names, folded, as a regex alternation, longest first; a space in a name
    may be any run of white space (a name wrapped at the end of a line)."""
    names = sorted({n for a in accelerator_table().accelerators for n in a.names}, key=len)
    folded = (re.escape(unicodedata.normalize("NFKC", n).casefold()) for n in names[::-1])
    return "|".join(name.replace("\\ ", "\\s+") for name in folded)


def _name_pattern() -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z\d])(?:nvidia\s+)?(?:{_alternatives()})(?![a-z\d])")


_NAMES: re.Pattern[str] | None = None


def _names() -> re.Pattern[str]:
    global _NAMES
    if _NAMES is None:
        _NAMES = _name_pattern()
    return _NAMES


_LOWER_NAMES: tuple[str, ...] = ()


def _lower_names() -> tuple[str, ...]:
    """Strings one of which every name of the table holds, in lower case (the names are
    ASCII): a name that holds another name is left to it (``tesla t4`` to ``t4``), a name of
    several words is looked for by its first (``dgx``: the words may be wrapped at their space,
    ``DGX\nSpark``). A text holding none of them names no card; one holding one may, which
    :func:`_names` decides."""
    global _LOWER_NAMES
    if not _LOWER_NAMES:
        names = {n.lower() for a in accelerator_table().accelerators for n in a.names}
        _LOWER_NAMES = tuple(
            sorted(
                {
                    name.split()[0]
                    for name in names
                    if not any(other != name and other in name for other in names)
                }
            )
        )
    return _LOWER_NAMES


def _names_in(text: str) -> bool:
    """Whether ``text`` may name a card of the table: the names as plain substrings of the
    lower-cased text (a cheap test, confirmed by :func:`_names` where it matters); only
    full-width letters or digits need normalising first."""
    if _WIDE_LETTERS.search(text) is not None:
        text = _folded(text)
    lower = text.lower()
    return any(name in lower for name in _lower_names())


def _lines_naming_a_card(document: Document) -> set[int] | None:
    """The 1-based lines of the lesson where a name of the table may stand (substring search
    of the lesson lowered by :func:`~checkers.lesson.caseless`, one character for one, one pass
    per name), or None where full-width forms make every block worth a look."""
    text = document.text
    if not text.isascii() and _WIDE_LETTERS.search(text) is not None:
        return None  # (an ASCII lesson, most of them, is known to have none at once)
    lower = document.caseless
    lines: set[int] = set()
    for name in _lower_names():
        at = lower.find(name)
        while at != -1:
            lines.add(document.line_of(at))
            at = lower.find(name, at + len(name))
    return lines


_WIDE = re.compile("[\uff01-\uff5e]")
_WIDE_LETTERS = re.compile("[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")


def _folded(text: str) -> str:
    """The text as the patterns read it: case-folded, and NFKC-normalised where it has
    full-width forms (``Ａ１００``, ``（``, ``，``); other texts need no normalising, which was
    most of this recogniser's time."""
    if text.isascii():
        return text.lower()
    if _WIDE.search(text) is None:
        return text.casefold()
    return unicodedata.normalize("NFKC", text).casefold()


def _clauses(folded: str) -> Iterator[tuple[int, int]]:
    at = 0
    for match in _CLAUSE_END.finditer(folded):
        yield at, match.start()
        at = match.end()
    yield at, len(folded)


def _mentions(text: str, folded: str, start: int, end: int) -> list[_Mention]:
    found: list[_Mention] = []
    for match in _names().finditer(folded, start, end):
        before = max(start, match.start() - 12)
        if _SEVERAL.search(folded, before, match.start()) and not _ONE.search(
            folded, before, match.start()
        ):
            continue
        if _LOOK_ALIKE_BEFORE.search(folded, max(start, match.start() - 16), match.start()):
            continue
        if _LOOK_ALIKE_AFTER.match(folded[match.end() : end]):
            continue
        stop = match.end()
        variant = _VARIANT.match(folded, stop, end)
        if variant is not None:
            stop = variant.end()
        setting = _SETTING_BEFORE.search(
            folded, max(start, match.start() - 10), match.start()
        ) is not None and not _TOPIC_AFTER.match(folded, stop, end)
        name = " ".join(text[match.start() : stop].split())  # "DGX\nSpark" wrapped
        found.append(_Mention(name, setting, match.start(), stop))
    return found


@dataclass(frozen=True)
class _Fact:
    """A number of a clause and the figure it states."""

    start: int
    """Offset of the number in the block text."""
    end: int
    """Offset just after what the quote must hold (the unit, a memory word)."""
    value: str
    """The number as printed."""
    fields: dict[str, str]
    """The claim's fields besides name and value."""


_APPROX = re.compile(r"(?:≈|~|∼|约|大约|about|roughly|approximately|around)\s*$")


def _with_mark(text: str, folded: str, start: int, end: int) -> str:
    """The number as printed, with an approximation mark just before it (``~3``)."""
    mark = _APPROX.search(folded, max(0, start - 16), start)
    return text[mark.start() if mark else start : end]


def _plain(folded: str, start: int, end: int) -> bool:
    """The number is stated on its own, not a factor of a product."""
    return not _OPERAND_BEFORE.search(
        folded, max(0, start - 3), start
    ) and not _OPERAND_AFTER.match(folded[end : end + 6])


def _peak_unit(unit: str) -> str:
    if unit.startswith(("p", "peta")):
        return "POPS" if unit == "pops" else "PFLOPS"
    return "TOPS" if unit == "tops" else "TFLOPS"


def _facts(text: str, folded: str, mention: _Mention, stop: int, lead: str) -> Iterator[_Fact]:
    """The figures of ``mention`` stated between it and ``stop``; ``lead`` is the clause's text
    before the name ("在 bf16 下，A100 …" says the number type there)."""
    seen: set[int] = set()
    attached = _MEMORY_ATTACHED.match(folded, mention.end, stop) or _MEMORY_HAS.match(
        folded, mention.end, stop
    )
    if attached is not None and _plain(folded, attached.start("n"), attached.end()):
        seen.add(attached.start("n"))
        yield _Fact(
            attached.start("n"),
            attached.end(),
            _with_mark(text, folded, attached.start("n"), attached.end("n")),
            {"quantity": "memory", "unit": _UNITS[attached.group("u")]},
        )
    for pattern in (_MEMORY_AFTER, _MEMORY_NAMED):
        for match in pattern.finditer(folded, mention.end, stop):
            if match.start("n") in seen or not _stated(folded, mention.end, match.start()):
                continue
            if not _plain(folded, match.start("n"), match.end("u")):
                continue
            seen.add(match.start("n"))
            yield _Fact(
                match.start("n"),
                match.end(),
                _with_mark(text, folded, match.start("n"), match.end("n")),
                {"quantity": "memory", "unit": _UNITS[match.group("u")]},
            )
    for match in _CUDA_CORES.finditer(folded, mention.end, stop):
        if _stated(folded, mention.end, match.start()) and _plain(
            folded, match.start("n"), match.end()
        ):
            yield _Fact(
                match.start("n"),
                match.end(),
                _with_mark(text, folded, match.start("n"), match.end("n")),
                {"quantity": "cuda_cores"},
            )
    yield from _nvlink_facts(text, folded, mention, stop)
    if mention.setting:
        return  # a rate on the product: bandwidths and peaks only where it is the subject
    for match in _BANDWIDTH.finditer(folded, mention.end, stop):
        before = folded[mention.end : match.start()]
        after = folded[match.end() : min(stop, match.end() + 24)]
        if not _BANDWIDTH_WORD.search(before) and not _BANDWIDTH_AFTER.match(after):
            continue
        if _NOT_THE_BANDWIDTH.search(before + after) or not _stated(
            folded, mention.end, match.start()
        ):
            continue
        if not _plain(folded, match.start("n"), match.end()):
            continue
        yield _Fact(
            match.start("n"),
            match.end(),
            _with_mark(text, folded, match.start("n"), match.end("n")),
            {"quantity": "bandwidth", "unit": _UNITS[match.group("u")]},
        )
    previous = mention.end
    for match in _PEAK.finditer(folded, mention.end, stop):
        before = folded[previous : match.start()]
        after = folded[match.end() : min(stop, match.end() + 40)]
        previous = match.end()
        if not _stated(folded, mention.end, match.start()) or not _plain(
            folded, match.start("n"), match.end()
        ):
            continue
        dtype = _dtype(before, after) or _dtype(lead, "")
        if dtype is None:
            continue
        fields = {"quantity": "peak", "unit": _peak_unit(match.group("u")), "dtype": dtype}
        sparsity = _sparsity(before, after)
        if sparsity is not None:
            fields["sparsity"] = sparsity
        yield _Fact(
            match.start("n"),
            match.end(),
            _with_mark(text, folded, match.start("n"), match.end("n")),
            fields,
        )


def _nvlink_facts(text: str, folded: str, mention: _Mention, stop: int) -> Iterator[_Fact]:
    """The card's NVLink bandwidth: GB/s or TB/s with "NVLink" between the name and it, just
    after it, or just before the name ("NVLink on the H100 …"); not another link's."""
    named_before = _NVLINK_BEFORE_NAME.search(folded, max(0, mention.start - 40), mention.start)
    if mention.setting and named_before is None:
        return
    for match in _BANDWIDTH.finditer(folded, mention.end, stop):
        before = folded[mention.end : match.start()]
        after = folded[match.end() : min(stop, match.end() + 40)]
        if not (
            _NVLINK_WORD.search(before) or _NVLINK_AFTER.match(after) or named_before is not None
        ):
            continue
        if _NOT_THE_NVLINK.search(before) or not _stated(folded, mention.end, match.start()):
            continue
        if not _plain(folded, match.start("n"), match.end()):
            continue
        fields = {"quantity": "nvlink", "unit": _UNITS[match.group("u")]}
        # what is said of this number: up to the previous number before it, the next after it
        near = re.split(r"\d", before[-30:])[-1] + re.split(r"(?<![a-z])\d", after, maxsplit=1)[0]
        if _EACH_WAY.search(near):
            fields["direction"] = "each"
        elif _BOTH_WAYS.search(near):
            fields["direction"] = "total"
        yield _Fact(
            match.start("n"),
            match.end(),
            _with_mark(text, folded, match.start("n"), match.end("n")),
            fields,
        )
        return  # one NVLink figure per mention: a second is another link's or a per-link one


def _stated(folded: str, start: int, end: int) -> bool:
    """Nothing between the name and the number says it is a use of the product or another
    subject's figure."""
    return not _NOT_THE_SPEC.search(folded, start, end)


def _dtype(before: str, after: str) -> str | None:
    """The number type of a peak: the nearest before it, else one right after it."""
    right = _DTYPE.match(_DTYPE_LEAD.sub("", after))
    if right is not None:
        return _DTYPES[right.group("t")]
    found = list(_DTYPE.finditer(before))
    if not found:
        return None
    last = found[-1]
    if _OTHER_DTYPE.search(before, last.end()):
        return None
    return _DTYPES[last.group("t")]


def _sparsity(before: str, after: str) -> str | None:
    """dense or sparse as the text says it of this number, None when it does not."""
    # What follows the number up to the next one (or 40 characters) is said of it.
    near = re.split(r"(?<![a-z\d])\d", after[:40], maxsplit=1)[0]
    if _SPARSE.search(near):
        return "dense" if _DOUBLES.search(after) else "sparse"
    if _DENSE.search(near):
        return "dense"
    dense = [m.end() for m in _DENSE.finditer(before)]
    sparse = [m.end() for m in _SPARSE.finditer(before)]
    if dense and (not sparse or dense[-1] > sparse[-1]):
        return "dense"
    if sparse:
        return "sparse"
    return None


def _drafts(
    text: str, folded: str, start: int, end: int, offsets: list[tuple[int, int]]
) -> Iterator[Draft]:
    if not _DIGIT.search(folded, start, end) or _HYPOTHETICAL.search(folded, start, end):
        return
    mentions = _mentions(text, folded, start, end)
    if not mentions:
        return
    for index, mention in enumerate(mentions):
        stop = mentions[index + 1].start if index + 1 < len(mentions) else end
        lead_text = folded[start : mention.start] if index == 0 else ""
        facts = list(_facts(text, folded, mention, stop, lead_text))
        lead = _leading_memory(text, folded, start, mention)
        if lead is not None and index == 0:
            facts.append(lead)
        # "A100 80GB has 2,039 GB/s": the size written as the variant picks the entry for the
        # other figures (the size itself is checked against every variant of the name).
        variant = next((f for f in facts if f.fields["quantity"] == "memory"), None)
        narrowed = mention.name
        if variant is not None and accelerator_table().find(mention.name).spec is None:
            candidate = f"{mention.name} {variant.value}{variant.fields['unit']}"
            if accelerator_table().find(candidate).spec is not None:
                narrowed = candidate
        for fact in facts:
            name = mention.name if fact is variant else narrowed
            first, last = min(mention.start, fact.start), max(mention.end, fact.end)
            draft = _draft(
                {"name": name, "value": fact.value, **fact.fields},
                text[first:last].strip(),
                line_at(offsets, first)[0],
                mention.name,
            )
            if draft is not None:
                yield draft


def _draft(fields: dict[str, str], quote: str, line: int, name: str) -> Draft | None:
    """The claim of one figure, or None when it is not a well-formed figure the table
    publishes for the product."""
    try:
        claim = Input.model_validate(fields)
    except ValueError:
        return None
    if not publishes(claim):
        return None
    return Draft(
        kind="accelerator_spec",
        quote=quote,
        line=line,
        fields=fields,
        confidence=0.75,
        recognizer=NAME,
        slug=f"{name}-{fields['quantity']}",
    )


def _leading_memory(text: str, folded: str, start: int, mention: _Mention) -> _Fact | None:
    """A size just before the name (``an 80GB A100``) or a clause opening ``With 128GB
    unified memory, <name>``."""
    before = _MEMORY_BEFORE_NAME.search(folded, max(start, mention.start - 12), mention.start)
    if before is not None and _plain(folded, before.start("n"), before.end("u")):
        return _Fact(
            before.start("n"),
            before.end("u"),
            _with_mark(text, folded, before.start("n"), before.end("n")),
            {"quantity": "memory", "unit": _UNITS[before.group("u")]},
        )
    opening = _WITH_MEMORY.match(folded, start, mention.start)
    if opening is not None and opening.end() == mention.start - _article(folded, mention.start):
        return _Fact(
            opening.start("n"),
            opening.end("u"),
            _with_mark(text, folded, opening.start("n"), opening.end("n")),
            {"quantity": "memory", "unit": _UNITS[opening.group("u")]},
        )
    return None


def _article(folded: str, at: int) -> int:
    """Length of an article (``the ``, ``a ``) just before ``at``."""
    match = re.search(r"(?:the|an?|your|nvidia'?s?)\s+$", folded[max(0, at - 10) : at])
    return len(match.group()) if match else 0


def _row_drafts(document: Document, table: Table) -> Iterator[Draft]:
    """``| DGX Spark Memory | 128 GB | … |``: a label/value row read as "DGX Spark Memory: 128
    GB", quoted by the row."""
    for text, line in table.labelled_values():
        folded = _folded(text)
        if len(folded) != len(text) or not _names().search(folded):
            continue
        quote = document.source_line(line)
        for draft in _drafts(text, folded, 0, len(folded), [(0, line)]):
            yield dataclasses.replace(draft, quote=quote or draft.quote)


_MARKUP = re.compile(r"[*`_]+")
_CELL_NUMBER = re.compile(
    rf"^(?P<mark>~|≈|约)?\s*{_NUMBER}\s*(?P<u>gb|gib|tb|gb/s|tb/s|tflops?|pflops?|tops)?"
    r"(?P<kind>(?:\s+(?:unified|coherent|hbm\w*|gddr\w*|lpddr\w*|memory|vram|显存|统一内存))*)$"
)
"""A figure cell: a number, its unit, and for a size the memory's kind (``80 GB HBM3``)."""
_HEADER_UNIT = re.compile(r"(?<![a-z])(gb/s|tb/s|gib|gb|tb|tflops?|pflops?|tops)(?![a-z])")
_COLUMN_QUANTITY = (
    ("nvlink", re.compile(r"nvlink")),
    ("bandwidth", re.compile(r"bandwidth|带宽")),
    ("cuda_cores", re.compile(r"cuda\s*(?:cores?|核心)")),
    ("peak", re.compile(r"tflops|pflops|tops|算力|峰值")),
    ("memory", re.compile(r"memory|vram|hbm|显存|内存")),
)
"""What a column of a GPU table holds, by its header, first match (a "Memory Bandwidth"
column is bandwidth, not memory)."""
_NOT_THE_CARDS_COLUMN = re.compile(
    r"c2c|nvswitch|pcie|interconnect|network|互联|网络|sram|l1|l2|cache|缓存|used|usage|need|requir|"
    r"fit|free|avail|left|per\b|/\s*\$|\$|cost|price|model|weights|kv|activation|batch|"
    r"measured|achiev|effective|actual|real|observed|sustain|mfu|util|(?:peak|max\w*)\s+memory(?!\s*bandwidth)|"
    r"峰值显存|显存峰值|实测|实际|有效|占用|需要|"
    r"可用|剩余|模型|int4|fp6|non-?tensor"
)
"""A header that makes its column something other than the card's datasheet figure: a link's
bandwidth, what a workload uses or needs, a measured rate, a price, a CUDA-core type."""
_WORKLOAD_HEADER = re.compile(
    r"\bmodels?\b|模型|batch|批|seq|context|上下文|tokens?\b|layers|params|parameters|参数|"
    r"task|workload|method|任务|方法"
)
"""A header naming what runs on the card: the table is about runs, whose memory and rates are
theirs, not the card's."""


@dataclass(frozen=True)
class _Column:
    """What one column (or, transposed, one row) of a GPU table states of each card."""

    fields: dict[str, str]
    """quantity, and unit, dtype and sparsity where the header says them."""


def _column(header: str) -> _Column | None:
    """The figure a header names for every card of the table, or None."""
    folded = _MARKUP.sub("", _folded(header))
    if _NOT_THE_CARDS_COLUMN.search(folded):
        return None
    quantity = next((q for q, pattern in _COLUMN_QUANTITY if pattern.search(folded)), None)
    if quantity is None:
        return None
    fields = {"quantity": quantity}
    unit = _HEADER_UNIT.search(folded)
    if unit is not None:
        fields["unit"] = _UNITS.get(unit.group(1)) or _peak_unit(unit.group(1))
    if quantity == "peak":
        dtype = _DTYPE.search(folded)
        if dtype is None:
            return None
        fields["dtype"] = _DTYPES[dtype.group("t")]
        sparsity = _sparsity(folded, "")
        if sparsity is not None:
            fields["sparsity"] = sparsity
    return _Column(fields)


def _card(cell: str) -> str | None:
    """The card a cell names and nothing else (``A100 80GB``, ``**NVIDIA H100 SXM**``), as
    printed without markup; None for anything more (``8x A100``, ``n1-standard-4 + T4``)."""
    plain = _MARKUP.sub("", cell).strip()
    folded = _folded(plain)
    if len(folded) != len(plain) or len(folded) > 40:
        return None
    match = _card_cell().match(folded)
    if match is None:
        return None
    return plain[match.start("name") : match.end("name")].strip()


_CARD_CELL: re.Pattern[str] | None = None


def _card_cell() -> re.Pattern[str]:
    """A cell that is a card's name and nothing else: vendor and brand words, the name, a form
    factor, a memory size, "GPU", "spec" (a column headed "DGX Spark Spec")."""
    global _CARD_CELL
    if _CARD_CELL is None:
        _CARD_CELL = re.compile(
            rf"^(?:nvidia\s+)?(?:geforce\s+)?(?P<name>(?:{_alternatives()})"
            r"(?:[\s-]*(?:sxm\d?|pcie|nvl))?(?:[\s-]*\d+\s*gb)?)"
            r"(?:\s+(?:gpu|superchip|tensor core gpu))?(?:\s*(?:specs?|specifications?|规格))?$"
        )
    return _CARD_CELL


def _cell_fields(cell: str, column: _Column) -> dict[str, str] | None:
    """The claim's value and fields of a cell under ``column``: a plain number with its unit
    (in the cell or the header), else None."""
    folded = _folded(_MARKUP.sub("", cell)).strip()
    match = _CELL_NUMBER.match(folded)
    if match is None:
        return None
    fields = dict(column.fields)
    if match.group("kind") and fields["quantity"] != "memory":
        return None
    if match.group("u") is not None:
        unit = _UNITS.get(match.group("u")) or _peak_unit(match.group("u"))
        if fields.get("unit", unit) != unit:
            return None
        fields["unit"] = unit
    mark = match.group("mark")
    value = match.group("n") if mark is None else f"{mark}{match.group('n')}"
    return {"value": value, **fields}


def _column_drafts(document: Document, table: Table) -> Iterator[Draft]:
    """A table of cards: cards down the first column and figures across the header
    (``| GPU | Memory | Bandwidth (TB/s) | BF16 TFLOPS |``), or cards across the header and
    figures down the first column; each figure cell is drafted under its card, quoted by the
    row."""
    header = table.header
    if any(_WORKLOAD_HEADER.search(h.casefold()) for h in header[1:]):
        return
    columns = [_column(h) for h in header]
    if any(c is not None for c in columns[1:]):
        for cells, line in table.rows:
            card = _card(cells[0]) if cells else None
            if card is not None:
                pairs = list(zip(columns[1:], cells[1:], strict=False))
                yield from _card_drafts(document, card, pairs, line)
    cards = [_card(h) for h in header]
    if any(c is not None for c in cards[1:]):
        for cells, line in table.rows:
            column = _column(cells[0]) if cells else None
            if column is None:
                continue
            for card, cell in zip(cards[1:], cells[1:], strict=False):
                if card is not None:
                    yield from _card_drafts(document, card, [(column, cell)], line)


def _card_drafts(
    document: Document, card: str, pairs: list[tuple[_Column | None, str]], line: int
) -> Iterator[Draft]:
    """The figures of one card in its row (or column) of a table."""
    found = [
        fields
        for column, cell in pairs
        if column is not None and (fields := _cell_fields(cell, column)) is not None
    ]
    # the memory column picks the variant for the other figures, as in prose ("A100" with 80 GB)
    narrowed = card
    memory = next((f for f in found if f["quantity"] == "memory" and "unit" in f), None)
    if memory is not None and accelerator_table().find(card).spec is None:
        candidate = f"{card} {memory['value'].lstrip('~≈约')}{memory['unit']}"
        if accelerator_table().find(candidate).spec is not None:
            narrowed = candidate
    quote = document.source_line(line)
    for fields in found:
        name = card if fields is memory else narrowed
        draft = _draft({"name": name, **fields}, quote, line, card)
        if draft is not None:
            yield draft


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``accelerator_spec`` claim for each published figure a clause states of a
    known accelerator."""
    naming = _lines_naming_a_card(document)
    if naming is not None and not naming:
        return  # most lessons name no card of the table
    for block in document.blocks:
        if block.kind not in ("paragraph", "heading", "table") or not block.lines:
            continue
        if naming is not None and not any(line.number in naming for line in block.lines):
            continue
        if not any(_DIGIT.search(line.text) for line in block.lines):
            continue
        cells: set[tuple[int, str]] = set()  # (line, fields) of what the cells drafted
        # A table cell is read on its own, as a short paragraph ("DGX Spark (128GB)").
        texts = (
            [(line.text, [(0, line.number)]) for line in block.lines]
            if block.kind == "table"
            else [joined_lines(block.lines)]
        )
        for text, offsets in texts:
            if block.kind == "table" and not _names_in(text):
                continue
            folded = _folded(text)
            if len(folded) != len(text) or not _names().search(folded):
                continue
            for start, end in _clauses(folded):
                for draft in _drafts(text, folded, start, end, offsets):
                    cells.add((draft.line, repr(sorted(draft.fields.items()))))
                    yield draft
        if block.table is not None:
            # a value cell that names the card itself ("1x T4 16GB") was drafted as a cell
            for draft in (
                *_row_drafts(document, block.table),
                *_column_drafts(document, block.table),
            ):
                key = (draft.line, repr(sorted(draft.fields.items())))
                if key not in cells:
                    cells.add(key)
                    yield draft
