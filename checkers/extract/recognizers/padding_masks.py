"""Recogniser ``padding_masks``: a padding mask printed next to the lengths it is built from.

Recognises, in a section about padding (its text or its headings say ``padding``, ``pad``,
``<pad>``, ``[PAD]``, ``填充``):

* a mask by name — ``attention_mask``, ``padding_mask``, ``key_padding_mask``, ``attn_mask``,
  ``mask``, ``掩码`` (``注意力掩码``, ``填充掩码``), "padding mask", "attention mask" — followed by
  ``=``, ``:``, ``→``, ``is`` or ``为`` and a bracketed row or matrix (``[1, 1, 1, 0, 0]``,
  ``tensor([[1, 1, 0], [1, 1, 1]])``, over several lines of code), whose cells are 1/0,
  True/False, or 0 and ``-inf`` (an additive mask);
* the lengths the section states: ``lengths = [3, 5]``, ``seq_lens: 3, 5``, "sequence lengths
  3 and 5", ``长度分别为 3 和 5``, ``valid_lens = [3]``, or rows of tokens with padding tokens
  (``["我", "爱", "<pad>"]``: two real tokens, padding on the right).

A mask with as many rows as lengths is a batch mask, one row per sequence; a square mask with a
single length is that sequence's query × key mask (causal + padding when the section also says
causal). Readings: the mask's cells decide between 1 = attend / 1 = padding / additive only as
far as they can, and the padding side is either unless rows of tokens show it (``kind:
padding_mask`` tries what is left and says which reading matched). Not drafted: a mask in a
section that never speaks of padding (a causal mask), a mask with no lengths stated, lengths
that disagree with each other, and masks of other cells (indices, scores).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from itertools import pairwise

from checkers.extract.document import Block, Document
from checkers.extract.draft import Draft
from checkers.extract.recognizers.masks import quoted_row, score_matrices

__all__ = ["recognize"]

NAME = "padding_masks"
NEEDS = ("pad", "填充")
"""A section about padding says one of them (:data:`_PADDING`)."""

_PADDING = re.compile(r"padding|\bpad(?:ded|s)?\b|<pad>|\[PAD\]|填充", re.I)


def _says_padding(text: str) -> bool:
    """The substrings every match of ``_PADDING`` holds, tested before it."""
    return "pad" in text or "PAD" in text or "Pad" in text or "填充" in text


_OTHER_MASKING = re.compile(r"\[MASK\]|masked\s+language|\bMLM\b|掩码语言|遮蔽|dropout", re.I)
"""Masking that is not attention's: a section about BERT's [MASK] tokens or dropout prints a
``mask = [0, 1, 0]`` that has nothing to do with padding."""
_NAMED = re.compile(
    r"(?:src_|tgt_)?(?:key_)?padding_mask|attention_mask|attn_mask|pad_mask|填充掩码|注意力掩码"
    r"|(?:padding|attention)\s+mask",
    re.I,
)
"""Names that say the mask is an attention or padding mask whatever else the section masks."""
_CAUSAL = re.compile(r"causal|因果|look[- ]?ahead|future|未来|上三角|upper[- ]triangular", re.I)
_MASK = re.compile(
    r"(?:\b(?:src_|tgt_)?(?:key_)?padding_mask|\battention_mask|\battn_mask|\bpad_mask|\bmask"
    r"|(?:注意力|填充|padding\s*)?掩码|\b(?:padding|attention)\s+mask)"
    r"(?:\s*\([^)\n]{0,30}\))?['\"]?"  # mask (batch 2, length 5); 'attention_mask': …
    r"\s*(?:=|:|：|→|->|\bis\b|为|是)\s*(?:(?:torch\.)?tensor\(|(?:np|numpy)\.array\()?\s*(?=\[)",
    re.I,
)
_CELL = re.compile(
    r"\s*(?P<cell>[-−]?inf|[-−]∞|float\(['\"]-inf['\"]\)|True|False|[-−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*",
    re.I,
)
_LENGTHS = re.compile(
    r"(?:\b(?:seq_lens?|seq_lengths?|valid_lens?|lengths?|sequence\s+lengths?)"
    r"|(?:有效)?长度(?:分别)?)"
    r"\s*(?:=|:|：|为|是|of|are)?\s*[\[(（]?\s*(?P<values>\d+(?:\s*(?:,|，|、|和|and)\s*\d+)*)"
    r"\s*[\])）]?(?![\d.])",
    re.I,
)
_PADDED_TO = re.compile(
    r"(?:\bto|\bmax(?:imum)?|\bpadded|\bpad|最大|到|填充至|补齐至)\s*(?:a\s+|the\s+)?[_\s]*$", re.I
)
"""Before a length that is the padded width, not a sequence's own: "padded to length 5",
"max length 5", "最大长度 5"."""
_TOKEN_ROW = re.compile(
    r"\[\s*(?:(?:\"[^\"\n]*\"|'[^'\n]*')\s*,\s*)+(?:\"[^\"\n]*\"|'[^'\n]*')\s*\]"
)
_PAD_ID = re.compile(
    r"\bpad(?:_token)?_id\s*(?:=|:|is|为)\s*(\d+)|\[PAD\][^\n\d]{0,20}?\b(?:id|ID)\s*(?:=|:|is|为)?\s*(\d+)",
)
_IDS = re.compile(r"\binput_ids['\"]?\s*(?:=|:)\s*(?:(?:torch\.)?tensor\()?\s*(?=\[)")
_PAD_TOKENS = frozenset({"<pad>", "[PAD]", "<PAD>", "PAD", "<|pad|>", "[pad]"})
_MAX_ROWS = 64
_MAX_CHARS = 16_000
"""Longest mask text read (64 rows of 64 cells is some 12 000 characters)."""
_MAX_MASKS = 256
"""Masks read per lesson: a lesson prints a few; a hostile one may print 50 000."""
_BRACKET = re.compile(r"[\[\]]")
_MASK_CELLS = frozenset(
    {"0", "1", "true", "false", "-inf", "-∞", "float('-inf')", 'float("-inf")', "0.0", "1.0"}
)
"""Cells a 1/0, boolean or additive mask is written with."""


def _bracketed(text: str, start: int) -> tuple[list[list[str]], int] | None:
    """The row or matrix of cells opening at ``text[start] == '['`` and where it ends."""
    depth, end = 0, -1
    for bracket in _BRACKET.finditer(text, start, start + _MAX_CHARS):
        depth += 1 if bracket.group() == "[" else -1
        if depth == 0:
            end = bracket.end()
            break
    if end < 0:
        return None
    inner = text[start + 1 : end - 1].strip()
    pieces = re.findall(r"\[([^\[\]]*)\]", inner) if inner.startswith("[") else [inner]
    if inner.startswith("[") and re.sub(r"\[[^\[\]]*\]|[\s,]", "", inner):
        return None  # something besides rows between the rows
    rows: list[list[str]] = []
    for piece in pieces[: _MAX_ROWS + 1]:
        cells = piece.split(",")
        if cells and not cells[-1].strip():
            cells = cells[:-1]
        matched = [_CELL.fullmatch(c) for c in cells]
        if not cells or not all(matched):
            return None
        rows.append([m.group("cell").replace("−", "-") for m in matched if m])
    if len(rows) > _MAX_ROWS or len({len(r) for r in rows}) != 1 or len(rows[0]) < 2:
        return None
    cells = [c.lower() for row in rows for c in row]
    if not set(cells) <= _MASK_CELLS and not all(
        c in {"0", "0.0"} or _value(c) <= -1e4 for c in cells
    ):
        return None  # scores, indices: not a mask
    return rows, end


def _integer_rows(text: str, start: int) -> list[list[str]] | None:
    """Rows of token ids ``[[101, 7, 0], [101, 8, 9]]`` (or one row) opening at ``start``."""
    close = text.find("]]", start) if text.startswith("[[", start) else text.find("]", start)
    if close < 0 or close - start > 20_000:
        return None
    inner = text[start : close + 1].strip("[]")
    rows = [r.strip(" ,\n") for r in re.split(r"\]\s*,\s*\[", inner)]
    if not all(re.fullmatch(r"\d+(?:\s*,\s*\d+)*", r) for r in rows):
        return None
    return [re.split(r"\s*,\s*", r) for r in rows]


def _value(cell: str) -> float:
    """A cell's value, for the additive test (−inf and large negatives hide)."""
    try:
        return float(cell)
    except ValueError:
        return 0.0


def _section_text(blocks: tuple[Block, ...]) -> tuple[str, list[tuple[int, int]]]:
    """The section's lines joined by newlines, with (offset, line number) of each line."""
    parts: list[str] = []
    starts: list[tuple[int, int]] = []
    at = 0
    for block in blocks:
        for line in block.lines:
            starts.append((at, line.number))
            parts.append(line.text)
            at += len(line.text) + 1
    return "\n".join(parts), starts


def _line_of(starts: list[tuple[int, int]], offset: int) -> int:
    """The line number of an offset of the section text."""
    at = bisect.bisect_right(starts, (offset, float("inf")))
    return starts[max(at - 1, 0)][1]


def _stated_lengths(text: str) -> tuple[list[list[int]], str | None]:
    """Every list of lengths the section states, and the padding side its token rows show."""
    found = [
        [int(v) for v in re.split(r"\s*(?:,|，|、|和|and)\s*", m.group("values"))]
        for m in _LENGTHS.finditer(text)
        if not _PADDED_TO.search(text, max(0, m.start() - 24), m.start())
    ]
    sources = [
        [
            [t[1:-1] in _PAD_TOKENS for t in re.findall(r"\"[^\"\n]*\"|'[^'\n]*'", m.group())]
            for m in _TOKEN_ROW.finditer(text)
        ]
    ]
    pad_id = _PAD_ID.search(text)
    if pad_id is not None:
        pad = pad_id.group(1) or pad_id.group(2)
        for match in _IDS.finditer(text):
            ids = _integer_rows(text, match.end())
            if ids is not None:
                sources.append([[cell == pad for cell in row] for row in ids])
    sides: set[str | None] = set()
    for rows in sources:
        padded = _padded(rows)
        if padded is not None:
            found.append(padded[0])
            sides.add(padded[1])
    return found, (sides.pop() if len(sides) == 1 else None)


def _padded(rows: list[list[bool]]) -> tuple[list[int], str | None] | None:
    """Lengths and padding side of rows of tokens (True: a padding token); None when no row is
    padded, or one has padding between its real tokens."""
    lengths: list[int] = []
    sides: set[str] = set()
    for pads in rows:
        real = pads.count(False)
        if pads == [False] * real + [True] * (len(pads) - real):
            if real < len(pads):
                sides.add("right")
        elif pads == [True] * (len(pads) - real) + [False] * real:
            sides.add("left")
        else:
            return None
        lengths.append(real)
    if not sides:
        return None
    return lengths, (sides.pop() if len(sides) == 1 else None)


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``padding_mask`` claim for each mask a padding section prints beside its
    lengths."""
    text = document.text
    # Substring tests first (most lessons never say padding); the regexes run only where they
    # can match.
    if not _says_padding(text):
        return
    masked = "mask" in text or "Mask" in text or "掩码" in text
    infinite = "∞" in text or "-inf" in text or "−inf" in text
    if not masked and not infinite:
        return
    chains = document.heading_chains
    for blocks in document.sections():
        section = blocks[0].section
        joined, starts = _section_text(blocks)
        context = chains.get(section, "") + "\n" + joined
        if not _says_padding(context) or not _PADDING.search(context):
            continue
        masks: list[tuple[int, int]] = []
        if masked and "[" in joined and ("mask" in joined or "Mask" in joined or "掩码" in joined):
            other = _OTHER_MASKING.search(context) is not None
            masks.extend(
                (m.start(), m.end())
                for m in _MASK.finditer(joined)
                if not other or _NAMED.match(m.group())
            )
            masks.extend(_printed_masks(blocks, starts))
        scores = infinite and ("∞" in joined or "-inf" in joined or "−inf" in joined)
        if not masks and not scores:
            continue
        stated, side = _stated_lengths(joined)
        causal = bool(_CAUSAL.search(chains.get(section, "") + "\n" + joined))
        if scores:
            yield from _score_drafts(document, blocks, stated, side, causal)
        for begin, bracket in sorted(masks)[:_MAX_MASKS]:
            found = _bracketed(joined, bracket)
            if found is None:
                continue
            rows, end = found
            width = len(rows[0])
            fields: dict[str, object] = {"claimed": rows}
            # One length equal to the width may be the padded length ("sequence length 5"),
            # not the sequence's own: not read.
            batch = [
                s
                for s in stated
                if len(s) == len(rows) and max(s) <= width and (len(s) > 1 or s[0] < width)
            ]
            square = [s for s in stated if len(s) == 1 and len(rows) == width > s[0]]
            if batch and all(s == batch[0] for s in batch):
                fields["lengths"] = batch[0]
            elif not batch and square and all(s == square[0] for s in square):
                fields.update(lengths=square[0], square=True)
                if causal:
                    fields["causal"] = True
            else:
                continue
            if side is not None:
                fields["side"] = side
            line = _line_of(starts, begin)
            last = _line_of(starts, end - 1)
            quote = joined[begin:end] if line == last else _first_line(joined, begin)
            yield Draft(
                kind="padding_mask",
                quote=quote.strip(),
                line=line,
                fields=fields,
                confidence=0.7,
                recognizer=NAME,
                slug="padding-mask",
            )


def _first_line(joined: str, begin: int) -> str:
    """The quote of a mask printed over several lines: its first line (a quote is one line)."""
    stop = joined.find("\n", begin)
    return joined[begin : stop if stop >= 0 else len(joined)]


_PRINTS_MASK = re.compile(
    r"\bprint\([^\n]*(?:\b(?:key_)?padding_mask|attention_mask|attn_mask|\bmask)\b[^\n]*\)\s*$",
    re.I,
)
_OUTPUT_OPENS = re.compile(r"\s*(?:(?:tensor|array)\()?(?=\[)")


def _printed_masks(
    blocks: tuple[Block, ...], starts: list[tuple[int, int]]
) -> Iterator[tuple[int, int]]:
    """(start, bracket) in the section text of a mask printed as the output of a code block
    whose last line prints it (``print(attention_mask)``, then ``tensor([[1, 1, 0], …])``)."""
    offset_of = {line: at for at, line in starts}
    for code, output in pairwise(blocks):
        if code.kind != "fence" or output.kind != "fence" or not code.lines or not output.lines:
            continue
        if not _PRINTS_MASK.search(code.lines[-1].text):
            continue
        first = output.lines[0]
        opens = _OUTPUT_OPENS.match(first.text)
        if opens is not None and first.number in offset_of:
            at = offset_of[first.number]
            yield at, at + opens.end()


_OTHER_MASK = re.compile(r"sliding|滑动窗口|local window|prefix|前缀", re.I)
"""Masks besides padding and causal ones: a section that also speaks of them is left alone."""


def _score_drafts(
    document: Document,
    blocks: tuple[Block, ...],
    stated: list[list[int]],
    side: str | None,
    causal: bool,
) -> Iterator[Draft]:
    """Square score matrices with −∞ cells (as the ``masks`` recogniser reads them) in a
    padding section that states one sequence's length: a ``masked_scores`` query × key mask."""
    lengths = {s[0] for s in stated if len(s) == 1}
    if len(lengths) != 1 or any(_OTHER_MASK.search(line.text) for b in blocks for line in b.lines):
        return
    length = lengths.pop()
    for block in blocks:
        for rows, lines in score_matrices(block):
            if len(rows) <= length or not any("-∞" in row for row in rows):
                continue
            fields: dict[str, object] = {
                "lengths": [length],
                "square": True,
                "form": "masked_scores",
                "claimed": [[c.replace("-∞", "-inf") for c in row] for row in rows],
            }
            if causal:
                fields["causal"] = True
            if side is not None:
                fields["side"] = side
            row_line = quoted_row(document, block, lines[0])
            yield Draft(
                kind="padding_mask",
                quote=row_line.text.strip(),
                line=row_line.number,
                fields=fields,
                confidence=0.6,
                recognizer=NAME,
                slug="padding-scores",
            )
