"""The strings a recogniser ``NEEDS`` are sound: a lesson holding none of them is one it drafts
nothing in, so ``drafts_of`` skipping it there changes no draft. Checked on every lesson of the
team's corpora, the practice lessons and the seeds here, and on every snippet of the recogniser
tests by the autouse fixture of ``conftest``."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import checkers.extract as extract
from checkers.extract.document import Document, parse_document
from checkers.extract.recognizers import ALL_RECOGNIZERS, may_draft
from checkers.lesson import caseless

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(
    {
        *ROOT.glob("tests/corpus/**/*.md"),
        *ROOT.glob("tests/corpus_blind/**/*.md"),
        *ROOT.glob("tests/corpus_relations/**/*.md"),
        *ROOT.glob("tests/extract/practice/**/*.md"),
        *ROOT.glob("content/**/*.md"),
    },
    key=str,
)
GATED = sorted(name for name, module in ALL_RECOGNIZERS.items() if getattr(module, "NEEDS", ()))


@cache
def _documents() -> tuple[Document, ...]:
    return tuple(parse_document(path.read_text(encoding="utf-8")) for path in LESSONS)


def test_the_lessons_are_there() -> None:
    assert len(LESSONS) > 50 and GATED


@pytest.mark.parametrize("name", GATED)
def test_a_recogniser_drafts_nothing_in_a_lesson_without_its_needs(name: str) -> None:
    module = ALL_RECOGNIZERS[name]
    needs = module.NEEDS  # type: ignore[attr-defined]
    assert all(need == caseless(need) and need.strip() == need for need in needs), needs
    skipped = 0
    for document in _documents():
        if not may_draft(module, caseless(document.text)):
            skipped += 1
            assert not list(module.recognize(document)), name  # the fixture names the draft
    assert skipped, f"no lesson here lacks the NEEDS of {name}: the check would prove nothing"


def test_drafts_of_skips_a_recogniser_without_its_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    from checkers.extract.draft import Draft

    def recognize(document: object) -> list[Draft]:
        fields = {"expression": "2 × 3", "claimed": "6"}
        return [Draft("arithmetic", "2 × 3 = 6", 1, fields, recognizer="gated")]

    gated = types.SimpleNamespace(recognize=recognize, NEEDS=("product",))
    monkeypatch.setattr(extract, "ALL_RECOGNIZERS", {"gated": gated})
    monkeypatch.setattr(extract, "may_draft", may_draft)  # the conftest fixture lifted it
    assert extract.drafts_of(parse_document("2 × 3 = 6\n")) == []
    assert len(extract.drafts_of(parse_document("The PRODUCT: 2 × 3 = 6\n"))) == 1
