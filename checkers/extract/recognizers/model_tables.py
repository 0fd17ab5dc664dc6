"""Recogniser ``model_tables``: model-size tables, recognised by their headers.

Recognises a GFM table whose first column names models and whose other headers name published
configuration fields, in the spellings papers, configuration files and courses use (case,
``_``/``-``/spaces and a parenthesised unit ignored):

* layers — 层数, 层, 网络层数, layers, n_layer(s), num_layers, num_hidden_layers, hidden_layers,
  decoder layers, transformer blocks, depth, L
* hidden — 隐藏维度, 隐藏层维度, 模型维度, 注意力维度, 嵌入维度, hidden, hidden_size, hidden dim,
  d_model, n_embd, model dim, embedding dim, width, d
* heads — 头数, 注意力头数, heads, n_head(s), num_attention_heads, attention heads, h
* kv_heads — KV heads, n_kv_heads, num_key_value_heads, KV 头数
* head_dim — d_head, d_k, head dim, head size, 头维度
* d_ff — d_ff, FFN dim, intermediate_size, n_inner, feed-forward dim, MLP dim, FFN 维度, 前馈维度
* vocab — vocab, vocab size, vocabulary, 词表, 词表大小, 词汇表大小
* context — context, context length/window, max_position_embeddings, n_ctx, n_positions,
  seq len, max seq len, 上下文, 上下文长度, 上下文窗口, 最大长度, 序列长度
* params — params, parameters, total params, model size, size, 参数, 参数量, 总参数量, 整体参数量
* active_params — active params, activated params, 激活参数, 激活参数量

with two architecture fields, or one beside a params column, or one named unmistakably ("Vocab
Size", not a bare "d"), or the same table transposed: models across the header, the field names
down the first column (a claim per model and field, quoting the field's row). Each row whose
model the reference table knows (``checkers/data/models.yaml``) becomes a ``model_config``
claim; a bare family name ("GPT-2", "BERT") is read with the row's size and
columns (:meth:`checkers.data.ModelTable.resolve`), and rows naming unknown models are left
alone rather than guessed. When two columns claim one field (a "Hidden_size" column and an
"注意力维度" column), the second is checked in a claim of its own, so each column is judged by
what it prints.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from checkers.data import model_table, parse_count, size_in_name
from checkers.data.entries import fold
from checkers.extract.document import Block, Document, Table
from checkers.extract.draft import Draft
from checkers.numbers import NumberError, Printed, parse_printed

__all__ = ["recognize"]

NAME = "model_tables"

_HEADERS: dict[str, re.Pattern[str]] = {
    "layers": re.compile(
        r"^((网络)?层数|层|decoder ?层(数)?|layers?|n ?layers?|num ?layers|num hidden layers|"
        r"hidden layers|#\s*layers|l|decoder layers?|encoder layers?|transformer (blocks|layers)|"
        r"blocks|depth)$"
    ),
    "heads": re.compile(
        r"^((注意力)?头数|注意力头|(attention )?heads?|n ?heads?|num ?heads|"
        r"num attention heads|h|q heads|query heads)$"
    ),
    "kv_heads": re.compile(
        r"^(kv ?heads?|n kv heads?|num key value heads|key value heads|kv ?头数)$"
    ),
    "hidden": re.compile(
        r"^(隐藏(层)?维度|隐层维度|模型维度|注意力维度|嵌入维度|维度|hidden( size| dim(ension)?)?|"
        r"d ?model|d|width|embedding (dim(ension)?|size)|n embd|model dim(ension)?)$"
    ),
    "head_dim": re.compile(
        r"^(d/h|d ?head|d ?k|head (size|dim(ension)?)|头维度|每头维度|每个头的维度)$"
    ),
    "d_ff": re.compile(
        r"^(d ?ff|ffn( dim(ension)?| size| width| hidden)?|intermediate( size)?|n inner|"
        r"feed ?forward( dim(ension)?| size)?|mlp( dim(ension)?| size)?|ffn ?维度|前馈(层)?维度)$"
    ),
    "vocab": re.compile(r"^(vocab( size)?|vocabulary( size)?|词表(大小)?|词汇表(大小)?)$"),
    "context": re.compile(
        r"^(上下文(长度|窗口)?|context( length| window| size)?|max context|max position embeddings|"
        r"n ctx|n positions|seq(uence)? len(gth)?|max seq(uence)? len(gth)?|最大长度|序列长度)$"
    ),
    "params": re.compile(
        r"^(参数量?|参数规模|总参数量?|整体参数量|参数数量|params|parameters|total params|"
        r"total parameters|#\s*params|param(eter)? count|size|model size)$"
    ),
    "active_params": re.compile(
        r"^(activ(e|ated) (params|parameters)( ?(/|per) ?token)?|激活参数量?)$"
    ),
    # Tokens, said so: a "training data" or "预训练数据量" column may count words (BERT's 3.3B
    # words, read about 40 times, are 128B tokens), so it is not read as tokens.
    "tokens": re.compile(
        r"^((pre ?)?train(ing|ed)? tokens|tokens trained( on)?|(预)?训练 ?(tokens?|token ?数))$"
    ),
}
_ANY_HEADER = re.compile("|".join(f"(?P<{field}>{p.pattern})" for field, p in _HEADERS.items()))
"""Every header pattern in one, in order: the first that matches names the field (its group,
which closes last), in one match instead of one per field."""
_NOT_ARCHITECTURE = frozenset({"params", "active_params", "head_dim", "tokens"})
# Headers that say the column counts parameters (a bare "Size" may be a file or memory size).
_PARAMS_NAMED = re.compile(r"^(?!size$|model size$).*$")
_NUMBER = re.compile(r"^\s*(?:~|≈|约)?\s*\d[\d,]*(\.\d+)?\s*([kKMBT]|亿|万)?\s*$")
_APPROX = re.compile(r"^\s*(?:~|≈|约)\s*")
_MARKUP = re.compile(r"\*\*|__|`|\$")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_UNIT_SUFFIX = re.compile(r"\s*[（(\[].*$")


def _label(header: str) -> str:
    """A header as its field patterns read it: no markup or parenthesised unit, lower case,
    ``_`` and ``-`` as spaces."""
    text = _UNIT_SUFFIX.sub("", _MARKUP.sub("", header)).strip().lower()
    return re.sub(r"\s+", " ", text.replace("_", " ").replace("-", " ")).strip()


@lru_cache(maxsize=4096)
def _field(header: str) -> str | None:
    """The field a header (or a transposed table's first cell) names, or None; cached by the
    text: a table asks for its header three times, and lessons repeat their headers."""
    match = _ANY_HEADER.match(_label(header))
    return match.lastgroup if match is not None else None


def _name(cell: str) -> str:
    return _LINK.sub(r"\1", cell).replace("**", "").replace("`", "").strip().strip("*").strip()


def _number(cell: str, field: str) -> Printed | None:
    """The cell as the claim will read it, or None (``1,2801`` matches _NUMBER but is not a
    number; a draft the kind refuses would turn an odd cell into an error of the whole scan)."""
    text = cell.replace("**", "").strip()
    if not _NUMBER.match(text):
        return None
    if field not in ("params", "active_params") and _APPROX.match(text):
        return None  # an architecture column is exact; "~4096" is not a configuration value
    try:
        return parse_printed(_APPROX.sub("", text))
    except NumberError:
        return None


def _columns(fields: list[str | None]) -> tuple[dict[int, str], dict[int, str]]:
    """(first column of each field, further columns claiming a field already taken)."""
    first: dict[int, str] = {}
    again: dict[int, str] = {}
    for index, field in enumerate(fields):
        if field is None or index == 0:
            continue
        (again if field in first.values() else first)[index] = field
    return first, again


# Headers that name a field only beside others: alone, "d" or "width" is not a model column.
_TERSE = frozenset({"l", "h", "d", "width", "维度", "层", "depth", "blocks", "d k", "dk"})


def _enough(columns: dict[str, str]) -> bool:
    """The headers (label → field) make a model table: two architecture fields, or one beside
    a params column, or one whose header names it unmistakably ("Vocab Size", "上下文长度"), or
    a column that says it counts parameters or training tokens ("Total Params", "Training
    Tokens", "激活参数量"; not a bare "Size")."""
    architecture = {label: f for label, f in columns.items() if f not in _NOT_ARCHITECTURE}
    fields = set(architecture.values())
    if len(fields) >= 2:
        return True
    if len(fields) == 1:
        return "params" in columns.values() or any(label not in _TERSE for label in architecture)
    return any(
        field in ("tokens", "active_params") or (field == "params" and _PARAMS_NAMED.match(label))
        for label, field in columns.items()
    )


def _draft(name: str, cells: dict[str, str], line: int, quote: str) -> Draft | None:
    """The claim for one model's printed values, when its model is known and they read."""
    values: dict[str, str] = {}
    printed: dict[str, Printed] = {}
    for field, cell in cells.items():
        number = _number(cell, field)
        if number is not None:
            values[field] = _APPROX.sub("", cell.replace("**", "").strip())
            printed[field] = number
    if size_in_name(name) is not None:
        values.pop("params", None)  # the name states the size; the kind reads it there
        printed.pop("params", None)
    size = printed.pop("params", None)
    if size is not None and parse_count(values["params"]) is None:
        return None  # a size column must print a count (7B, 124M), not a bare number
    printed.pop("active_params", None)
    for field in ("tokens", "params", "active_params"):
        if field in values and parse_count(values[field]) is None:
            values.pop(field)  # a count must say its scale (2T, 124M), not be a bare number
            printed.pop(field, None)
    spec = model_table().resolve(name, printed, size).spec
    if spec is None:
        return None
    if not spec.is_moe:
        values.pop("active_params", None)  # a dense model's "active" size is its total
    if not set(values) - {"head_dim"}:
        return None
    return Draft(
        kind="model_config",
        quote=quote,
        line=line,
        fields={"name": name, **values},
        confidence=0.9,
        recognizer=NAME,
        slug=name,
    )


_NOT_ITS_SIZES = re.compile(
    r"\b(?:our|we|my|your|like|similar|style|toy|suppose|imagine|hypothetical|e\.g\.)\b"
    r"|我们|假设|类似|仿照"
)
_SIZE_ONLY = re.compile(r"^[a-z]+(?:[\s-]*v\d)?$|^\d+(?:\.\d+)?\s*[kmb]$")


def _section_family(document: Document, block: Block, names: list[str]) -> str | None:
    """The family a table of bare sizes ("Tiny", "Base", "Small", "Medium") belongs to: the
    one family its section names before it (heading and text), when every row's name with that
    family's name before it picks one of its entries; else None (never guessed)."""
    if not names or not all(_SIZE_ONLY.match(fold(name)) for name in names):
        return None
    table = model_table()
    text = " ".join(
        line.text
        for other in document.blocks
        if other.section == block.section and other.line < block.line and other.table is None
        for line in other.lines
    )
    folded = fold(text)
    if _NOT_ITS_SIZES.search(folded):
        return None  # "like GPT-2, our models come in…": sizes of another model
    named = [f for f in table.families_in(folded) if not f.generic and f.regex.search(folded)]
    if len(named) != 1:
        return None
    family = named[0]
    if any(table.find(f"{family.name} {name}").spec is None for name in names):
        return None
    return family.name


def _rows(document: Document, block: Block, table: Table) -> Iterator[Draft]:
    first, again = _columns([_field(header) for header in table.header])
    if not _enough({_label(table.header[i]): field for i, field in first.items()}):
        return
    named = [_name(cells[0]) for cells, _ in table.rows if cells and _name(cells[0])]
    family = _section_family(document, block, named)
    for cells, line in table.rows:
        name = _name(cells[0]) if cells else ""
        if not name or len(name) > 80:
            continue
        if family is not None:
            name = f"{family} {name}"
        quote = document.source_line(line) or table.row_source(cells)
        own = {field: cells[i] for i, field in first.items() if i < len(cells)}
        draft = _draft(name, own, line, quote)
        if draft is None:
            continue
        yield draft
        for index, field in again.items():
            if index < len(cells):
                extra = _draft(name, {field: cells[index]}, line, quote)
                if extra is not None:
                    yield extra


def _transposed(document: Document, table: Table) -> Iterator[Draft]:
    """Models across the header, fields down the first column: a claim per model and field,
    quoting the field's row (where the number is printed)."""
    fields = [_field(cells[0]) if cells else None for cells, _ in table.rows]
    labels = {_label(cells[0]): f for (cells, _), f in zip(table.rows, fields, strict=True) if f}
    if not _enough(labels):
        return
    names = [_name(header) for header in table.header]
    for (cells, line), field in zip(table.rows, fields, strict=True):
        if field is None or field in _NOT_ARCHITECTURE:
            continue
        quote = document.source_line(line) or table.row_source(cells)
        for index in range(1, min(len(cells), len(names))):
            if names[index] and len(names[index]) <= 80:
                draft = _draft(names[index], {field: cells[index]}, line, quote)
                if draft is not None:
                    yield draft


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``model_config`` claim for every known model's row (or column) in a
    model-size table."""
    for block in document.blocks:
        table = block.table
        if table is None or len(table.header) < 2 or not table.rows:
            continue
        if _field(table.header[0]) is None and any(_field(h) for h in table.header[1:]):
            yield from _rows(document, block, table)
        elif _field(table.header[0]) is None:
            yield from _transposed(document, table)
