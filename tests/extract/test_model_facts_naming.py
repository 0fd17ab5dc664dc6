"""``model_facts`` reads only the blocks whose folded text names a family word: folding them as
one text finds exactly the blocks folding each alone would."""

from __future__ import annotations

import unicodedata

from checkers.extract.document import parse_document
from checkers.extract.recognizers import model_facts

_TEXTS = [
    "GPT-2 has 48 layers",
    "no model here, 12 heads",
    "ＧＰＴ-2 ｈａｓ 48 layers",  # full-width letters fold to "gpt"
    "\u0301bert at the start of a line",  # a combining mark with nothing to compose with
    "the ﬁrst Llama",  # a ligature
    "Straße and ΣΊΣΥΦΟΣ",  # casefold changes the length
    "vitality, not ViT",
    "",
    "line one\nPhi-2 on line two",
]


def _alone(texts: list[str]) -> dict[int, str]:
    folded = [unicodedata.normalize("NFKC", text).casefold() for text in texts]
    return {
        index: text
        for index, text in enumerate(folded)
        if any(word in text for word in model_facts._FAMILY_NAMES)
    }


def test_folding_the_blocks_as_one_finds_the_blocks_each_names() -> None:
    assert model_facts._naming_a_family(_TEXTS) == _alone(_TEXTS)
    assert sorted(model_facts._naming_a_family(_TEXTS)) == [0, 2, 3, 4, 6, 8]


def test_a_text_holding_nul_is_folded_alone() -> None:
    texts = ["a\0bert", "gpt-2", "none"]
    assert model_facts._naming_a_family(texts) == _alone(texts)


def test_a_named_block_is_read_and_another_is_not() -> None:
    text = "Intro with 3 numbers.\n\nBERT-base has 12 layers and 768 hidden size.\n"
    drafts = list(model_facts.recognize(parse_document(text)))
    assert [(d.line, d.fields["layers"]) for d in drafts] == [(3, "12")]
