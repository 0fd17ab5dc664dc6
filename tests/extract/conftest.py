"""Fixtures of the recogniser tests: scan a snippet written as a lesson; every snippet also
holds the recognisers' ``NEEDS`` sound."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import checkers.extract as extract
from checkers.extract.document import Document
from checkers.extract.draft import Draft
from checkers.extract.recognizers import ALL_RECOGNIZERS, may_draft
from checkers.finding import Finding
from checkers.lesson import caseless
from checkers.scan import scan_lesson

ScanText = Callable[[str], list[Finding]]


@pytest.fixture
def scan_text(tmp_path: Path) -> ScanText:
    """``scan`` of a lesson holding ``text``: its findings, drafted by every recogniser."""

    def scan(text: str) -> list[Finding]:
        lesson = tmp_path / "lesson.md"
        lesson.write_text(text, encoding="utf-8")
        return scan_lesson(lesson)

    return scan


def _holding_needs(module: Any, recognize: Callable[[Document], Iterator[Draft]]) -> Any:
    """``recognize`` that fails the test when it drafts in a text holding none of the strings
    the module says it ``NEEDS`` (:func:`~checkers.extract.recognizers.may_draft`)."""

    @functools.wraps(recognize)
    def checked(document: Document) -> Iterator[Draft]:
        drafts = recognize(document)
        if may_draft(module, caseless(document.text)):
            yield from drafts
            return
        for draft in drafts:
            pytest.fail(f"{module.NAME} drafted {draft.quote!r} from a text with none of its NEEDS")

    return checked


@pytest.fixture(autouse=True)
def _needs_are_sound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every snippet of the recogniser tests also tests each recogniser's ``NEEDS``: the drafts
    of the lessons are made with no recogniser skipped, and a recogniser that drafts in a text
    holding none of its strings fails the test (with and without its gate it must draft the
    same)."""
    for module in ALL_RECOGNIZERS.values():
        if getattr(module, "NEEDS", ()):
            monkeypatch.setattr(module, "recognize", _holding_needs(module, module.recognize))
    monkeypatch.setattr(extract, "may_draft", lambda *_: True)
