"""Recogniser ``padding_masks``: masks printed beside the lengths they come from (snippets written
for these tests; each mask worked out by hand from its lengths)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import padding_masks
from tests.extract.conftest import ScanText


def _drafted(text: str) -> list[dict[str, object]]:
    return [d.fields for d in padding_masks.recognize(parse_document(text))]


def _masks(scan_text: ScanText, text: str) -> list[tuple[int | None, str, str]]:
    return [(f.line, f.verdict, f.message) for f in scan_text(text) if f.kind == "padding_mask"]


BATCH = """## Batching with padding

Two sentences of lengths 3 and 5 are padded to 5 tokens:

```python
attention_mask = [[1, 1, 1, {cell}, 0],
                  [1, 1, 1, 1, 1]]
```
"""

CHINESE = """## 填充与掩码

tokens = [["我", "爱", "<pad>"], ["你", "好", "呀"]]，对应的填充掩码为 [[1, 1, {cell}], [1, 1, 1]]。
"""

ADDITIVE = """## Key padding

The sequence has length 3 and is padded to 4. Added to the scores, the mask is
mask = [0, 0, 0, {cell}], so the last key gets no weight.
"""

SQUARE = """## Causal attention over a padded sequence

A decoder sees only earlier tokens, and the last position is padding (length 2 of 3):

```text
mask = [[1, 0, 0], [1, 1, {cell}], [1, 1, 0]]
```
"""


def test_masks_built_from_their_lengths_pass(scan_text: ScanText) -> None:
    assert [v for _, v, _ in _masks(scan_text, BATCH.format(cell="0"))] == ["pass"]
    chinese = _masks(scan_text, CHINESE.format(cell="0"))
    assert [v for _, v, _ in chinese] == ["pass"] and "padding on the right" in chinese[0][2]
    additive = _masks(scan_text, ADDITIVE.format(cell="-inf"))
    assert [v for _, v, _ in additive] == ["pass"] and "−∞ = hidden" in additive[0][2]
    square = _masks(scan_text, SQUARE.format(cell="0"))
    assert [v for _, v, _ in square] == ["pass"] and "causal" in square[0][2]


def test_a_mask_that_shows_a_padding_token_or_the_future_fails(scan_text: ScanText) -> None:
    batch = _masks(scan_text, BATCH.format(cell="1"))
    assert [(line, v) for line, v, _ in batch] == [(6, "fail")]
    assert "row 0 (length 3) should be [1, 1, 1, 0, 0]" in batch[0][2]
    chinese = _masks(scan_text, CHINESE.format(cell="1"))
    assert [v for _, v, _ in chinese] == ["fail"] and "length 2" in chinese[0][2]
    assert [v for _, v, _ in _masks(scan_text, ADDITIVE.format(cell="0"))] == ["fail"]
    assert [v for _, v, _ in _masks(scan_text, SQUARE.format(cell="1"))] == ["fail"]


def test_similar_shapes_are_not_drafted() -> None:
    causal_only = (
        "## Causal mask\n\nEach token sees itself and the past; length 3.\n\n"
        "mask = [[1, 0, 0], [1, 1, 0], [1, 1, 1]]\n"
    )
    no_lengths = "## Padding\n\nPadded batches need attention_mask = [[1, 1, 0], [1, 0, 0]].\n"
    indices = (
        "## Padding\n\nThe lengths are 2 and 3.\n\n"
        "```python\nmask = [[0, 2, 1], [2, 1, 0]]  # positions\n```\n"
    )
    scores = (
        "## Padding\n\nLength 2 of 3.\n\n"
        "mask = [[0.5, 0.2, 0.1], [0.3, 0.4, 0.3], [0.1, 0.1, 0.8]]\n"
    )
    disagree = (
        "## Padding\n\nlengths = [2, 3], and later lengths = [3, 3].\n\n"
        "attention_mask = [[1, 1, 0], [1, 1, 1]]\n"
    )
    padded_width = (
        "## Padding\n\nEvery sequence is padded to length 5 (max length 5):\n\n"
        "attention_mask = [1, 1, 1, 0, 0]\n"
    )
    ambiguous_length = "## Padding\n\nSequence length 4: attention_mask = [1, 1, 0, 0]\n"
    for text in (
        causal_only,
        no_lengths,
        indices,
        scores,
        disagree,
        padded_width,
        ambiguous_length,
    ):
        assert _drafted(text) == [], text


TOKENIZER = """## Padding with a tokenizer

The [PAD] token has id 0, and the shorter sentence is padded on the right:

```python
{{'input_ids': [[101, 7592, 102, 0], [101, 7592, 2088, 102]],
 'attention_mask': [[1, 1, 1, {cell}], [1, 1, 1, 1]]}}
```
"""


def test_lengths_read_from_token_ids_padded_with_the_stated_id(scan_text: ScanText) -> None:
    # ids padded with 0: lengths 3 and 4
    right = _masks(scan_text, TOKENIZER.format(cell="0"))
    assert [(line, v) for line, v, _ in right] == [(7, "pass")]
    assert "lengths 3, 4" in right[0][2] and "padding on the right" in right[0][2]
    wrong = _masks(scan_text, TOKENIZER.format(cell="1"))
    assert [v for _, v, _ in wrong] == ["fail"]
    no_pad_id = TOKENIZER.format(cell="0").replace("The [PAD] token has id 0, and the", "The")
    assert _drafted(no_pad_id) == []


PRINTED = """## Padding a batch by hand

The sentences have lengths 2 and 4.

```python
mask = build_padding_mask(lengths=[2, 4], width=4)
print(mask)
```

```
tensor([[ True,  True, {cell}, False],
        [ True,  True,  True,  True]])
```
"""


def test_a_mask_printed_by_the_code_above_it(scan_text: ScanText) -> None:
    right = _masks(scan_text, PRINTED.format(cell="False"))
    assert [(line, v) for line, v, _ in right] == [(11, "pass")]
    assert [v for _, v, _ in _masks(scan_text, PRINTED.format(cell=" True"))] == ["fail"]


SCORES = """## Masking padded keys

The sequence has length 2 and one padding position, so the padding key is set to -inf:

```text
      a     b     <pad>
a    0.9   0.1   -inf
b    0.4   0.3   {cell}
<pad> 0.2  0.5   -inf
```
"""


def test_a_masked_score_matrix_in_a_padding_section(scan_text: ScanText) -> None:
    right = _masks(scan_text, SCORES.format(cell="-inf"))
    assert [v for _, v, _ in right] == ["pass"] and "masked score matrix" in right[0][2]
    wrong = _masks(scan_text, SCORES.format(cell="0.7"))
    assert [v for _, v, _ in wrong] == ["fail"] and "row 1 column 2" in wrong[0][2]
    window = SCORES.format(cell="-inf").replace("## Masking", "## Sliding-window masking")
    assert _drafted(window) == []


def test_a_language_modelling_mask_beside_padding_is_not_read_as_one() -> None:
    text = (
        "## MLM inputs\n\nThe sentence (length 3) is padded with [PAD] to 5; BERT replaces "
        "the second token with [MASK]:\n\nmask = [0, 1, 0, 0, 0]\n"
    )
    assert _drafted(text) == []
    named = text + "\nattention_mask = [1, 1, 1, 0, 0]\n"
    assert [d["claimed"] for d in _drafted(named)] == [[["1", "1", "1", "0", "0"]]]
