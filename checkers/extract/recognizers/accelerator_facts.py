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
  ``FP8``, ``NVFP4``…; FP32 and FP64 are left, their CUDA-core and tensor-core figures differ)
  and, where the text says it, dense (``dense``, ``稠密``, ``without sparsity``) or sparse
  (``with sparsity``, ``稀疏``, ``2:4``; "doubles with sparsity" after a number marks *it*
  dense);
* CUDA cores — ``6,144 CUDA cores``, ``CUDA 核心``.

A label/value table row is read as the sentence it stands for (``| DGX Spark Memory | 128 GB |``
as "DGX Spark Memory: 128 GB") and quoted by the row, unless its value cell names the card and
was drafted on its own. Each number becomes an ``accelerator_spec`` claim. Nothing is drafted
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
from checkers.kinds.accelerator_spec import Input

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
)
_PEAK = re.compile(
    rf"{_NUMBER}\s*(?P<u>tflops?(?:/s)?|pflops?(?:/s)?|petaflops?|teraflops?|tops|pops)(?![a-z])"
)
_CUDA_CORES = re.compile(rf"{_NUMBER}\s*(?:cuda\s*(?:cores?|核心|核)|个\s*cuda\s*核心)")
_DTYPE = re.compile(
    r"(?<![a-z\d])(?:(?P<t>bf16|bfloat16|fp16|float16|half|tf32|fp8|nvfp4|fp4|int8))(?![a-z\d])"
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
}
_DTYPE_LEAD = re.compile(r"^\s*(?:(?:of|in|for|at)\s+)?(?:(?:dense|sparse|ai|peak)\s+)*")
_OTHER_DTYPE = re.compile(
    r"(?<![a-z\d])(?:fp32|fp64|float32|float64|int4|fp6|single|double)(?![a-z\d])"
)
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
    r"each|per|split|across|tokens?|minus|after|when|if)\b"
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
_SEVERAL = re.compile(r"(?:\d\s*[x×*]|\d\s*(?:张|块|台|个|units? of|nodes? of))\s*(?:the\s+)?$")
_ONE = re.compile(r"(?<![\d.,])1\s*(?:[x×*]|张|块|台|个)\s*(?:the\s+)?$")
"""A count of one before the name (``1x RTX 4090 24GB``, ``1 块 A100``): one card, whose figures
are the card's own."""
_LOOK_ALIKE_BEFORE = re.compile(r"(?:like|similar to|类似于?|相当于|than)\s*(?:an?\s+|the\s+)?$")
_LOOK_ALIKE_AFTER = re.compile(
    r"^(?:s\b|[\s-]*(?:class|like|style|level|equivalent|级|类)"
    # another product sold under the same name and a suffix (RTX 3090 Ti, RTX 4090 Laptop GPU)
    r"|[\s-]*(?:ti|super|laptop|mobile|max-q|d)(?![a-z\d]))"
)
# "runs at 740 TFLOPS on H100": a rate measured on the product, not its datasheet peak.
_SETTING_BEFORE = re.compile(
    r"(?:\b(?:on|using|with|in|at|for|from|across)|在|用)\s*(?:the\s+|an?\s+|one\s+)?$"
)
_VARIANT = re.compile(r"[\s-]*(?:sxm\d?|pcie|nvl)\b")
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


def _name_pattern() -> re.Pattern[str]:
    names = sorted({n for a in accelerator_table().accelerators for n in a.names}, key=len)
    alternatives = "|".join(
        re.escape(unicodedata.normalize("NFKC", n).casefold()) for n in names[::-1]
    )
    return re.compile(rf"(?<![a-z\d])(?:nvidia\s+)?(?:{alternatives})(?![a-z\d])")


_NAMES: re.Pattern[str] | None = None


def _names() -> re.Pattern[str]:
    global _NAMES
    if _NAMES is None:
        _NAMES = _name_pattern()
    return _NAMES


_NAMES_RAW: re.Pattern[str] | None = None


def _names_raw() -> re.Pattern[str]:
    """The table's names, case-blind, on text as written: an ASCII text without them needs no
    normalising to be sure (full-width forms are looked for after NFKC)."""
    global _NAMES_RAW
    if _NAMES_RAW is None:
        names = {n for a in accelerator_table().accelerators for n in a.names}
        alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        _NAMES_RAW = re.compile(alternatives, re.IGNORECASE)
    return _NAMES_RAW


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
        setting = _SETTING_BEFORE.search(folded, max(start, match.start() - 10), match.start())
        found.append(_Mention(text[match.start() : stop], setting is not None, match.start(), stop))
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
            fields = {"name": name, "value": fact.value, **fact.fields}
            try:
                Input.model_validate(fields)
            except ValueError:
                continue
            if not _published(fields):
                continue
            first, last = min(mention.start, fact.start), max(mention.end, fact.end)
            yield Draft(
                kind="accelerator_spec",
                quote=text[first:last].strip(),
                line=line_at(offsets, first)[0],
                fields=fields,
                confidence=0.75,
                recognizer=NAME,
                slug=f"{mention.name}-{fields['quantity']}",
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


def _published(fields: dict[str, str]) -> bool:
    """The table publishes this figure for some product the name may mean."""
    match = accelerator_table().find(fields["name"])
    specs = (match.spec,) if match.spec is not None else match.candidates
    quantity = fields["quantity"]
    for spec in specs:
        if quantity == "memory" and spec.memory_gb is not None:
            return True
        if quantity == "bandwidth" and spec.bandwidth_gb_s is not None:
            return True
        if quantity == "cuda_cores" and spec.cuda_cores is not None:
            return True
        sparse = fields.get("sparsity") == "sparse"  # T4 and FP64 tensor cores print no such figure
        if quantity == "peak" and spec.peak(fields["dtype"], sparse=sparse) is not None:  # type: ignore[arg-type]
            return True
    return False


def _row_drafts(document: Document, table: Table) -> Iterator[Draft]:
    """``| DGX Spark Memory | 128 GB | … |``: a label/value row read as "DGX Spark Memory: 128
    GB", quoted by the row."""
    for text, line in table.labelled_values():
        folded = unicodedata.normalize("NFKC", text).casefold()
        if len(folded) != len(text) or not _names().search(folded):
            continue
        quote = document.source_line(line)
        for draft in _drafts(text, folded, 0, len(folded), [(0, line)]):
            yield dataclasses.replace(draft, quote=quote or draft.quote)


def recognize(document: Document) -> Iterator[Draft]:
    """Draft an ``accelerator_spec`` claim for each published figure a clause states of a
    known accelerator."""
    for block in document.blocks:
        if block.kind not in ("paragraph", "heading", "table") or not block.lines:
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
            if text.isascii() and not _names_raw().search(text):
                continue  # most texts: one case-blind scan, nothing to normalise
            folded = unicodedata.normalize("NFKC", text).casefold()
            if len(folded) != len(text) or not _names().search(folded):
                continue
            for start, end in _clauses(folded):
                for draft in _drafts(text, folded, start, end, offsets):
                    cells.add((draft.line, repr(sorted(draft.fields.items()))))
                    yield draft
        if block.table is not None:
            # a value cell that names the card itself ("1x T4 16GB") was drafted as a cell
            for draft in _row_drafts(document, block.table):
                if (draft.line, repr(sorted(draft.fields.items()))) not in cells:
                    yield draft
