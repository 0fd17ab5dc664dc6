"""The shortcuts of the chains recogniser are sound: each skips only work whose answer it
already knows.

* A line is offered to the chains only when it holds a mark of a relation
  (:func:`chains._may_relate`): every relation holds one.
* A text without the words of a worded relation ("is about 40") is split by the pattern of
  the relation signs alone, which finds the same relations.
* A side that keeps a free word does not evaluate, and neither does any start of it (a prefix
  side) or end of it (a suffix side) that holds that word whole (:func:`chains._free_word`).
* The floating-point types a lesson names are looked for only for an expression with a literal
  that some type stores differently.

Checked on every line of the team's lessons and the seeds, and on texts built of the pieces
these patterns read."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.extract.document import parse_document
from checkers.extract.recognizers import chains
from tests.extract.test_chains import _SIDE_PIECES
from tests.hypothesis_profiles import PROFILE

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(
    (
        path
        for folder in ("tests/corpus", "tests/corpus_blind", "tests/corpus_relations", "content")
        for path in ROOT.glob(f"{folder}/**/*.md")
    ),
    key=str,
)
_RELATION_PIECES = [
    *("=", "＝", "约", "≈", "≃", "≅", "≒", "==", "<=", ":=", "=>", "+=", "!", "<", ">", ":"),
    *("约等于", "约为", "~", "∼", "about", "roughly", "approximately", "around", "3", "0.5"),
    *("is ", "are ", "which ", "that ", "comes to ", "totals ", " ", ",", "-", "−", "+", "x"),
]


def _found(matches: object) -> list[tuple[tuple[int, int], str]]:
    return [(match.span(), match.group()) for match in matches]  # type: ignore[attr-defined]


def _check_relations(text: str) -> None:
    relations = _found(chains._RELATION.finditer(text))
    if relations:
        assert chains._may_relate(text), text
    assert _found(chains._relations(text)) == relations, text
    if not any(word in text for word in chains._RELATION_WORDS):
        assert _found(chains._RELATION_SIGN.finditer(text)) == relations, text


def test_the_relation_shortcuts_hold_on_every_lesson_line() -> None:
    checked = 0
    for lesson in LESSONS:
        for line in lesson.read_text(encoding="utf-8").splitlines():
            _check_relations(line)
            checked += chains._RELATION.search(line) is not None
    assert checked > 500, "too few relations here: the check would prove little"


@settings(parent=PROFILE)
@given(st.lists(st.sampled_from(_RELATION_PIECES), max_size=12).map("".join))
def test_the_relation_shortcuts_hold_on_built_texts(text: str) -> None:
    _check_relations(text)


@settings(parent=PROFILE)
@given(st.lists(st.sampled_from(_SIDE_PIECES), max_size=16).map("".join))
def test_every_start_and_end_of_a_side_holding_its_free_word_keeps_it(side: str) -> None:
    first, last = chains._free_word(side), chains._free_word(side, True)
    assert (first is None) is (last is None)
    for span in (first, last) if first is not None and last is not None else ():
        start, end = span
        assert first[0] <= start <= last[0]
        for cut in range(start + 1):  # the ends of the side that hold the word (_suffix)
            assert chains._keeps_free_word(side[cut:].strip()), (side, cut)
        for cut in range(end, len(side) + 1):  # its starts that hold the word (_prefix)
            assert chains._keeps_free_word(side[:cut].strip()), (side, cut)


@pytest.mark.parametrize(
    ("text", "stored_as"),
    [
        # a literal below the normal range of both types the lesson names
        ("We compute in float32 and fp16.\n\nHere log(1e-45) ≈ -103.28.\n", ["fp32", "fp16"]),
        ("Computed in fp16.\n\nSo 1e-5 × 2 = 2e-5.\n", ["fp16"]),
        ("Computed in fp16.\n\nSo 2 × 3 = 6.\n", None),  # no literal any type stores differently
        ("No type here: log(1e-45) ≈ -103.28\n", None),  # the lesson names no type
    ],
)
def test_the_types_a_lesson_names_are_looked_for_only_when_a_type_changes_a_literal(
    text: str, stored_as: list[str] | None
) -> None:
    (draft,) = chains.recognize(parse_document(text))
    assert draft.fields.get("stored_as") == stored_as
