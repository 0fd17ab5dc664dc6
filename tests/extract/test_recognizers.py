"""Each recogniser against its snippets in ``tests/fixtures/recognizer_cases.yaml``."""

from __future__ import annotations

from typing import Any

import pytest

from checkers.extract import draft_claims
from checkers.extract.document import parse_document
from checkers.extract.recognizers import ALL_RECOGNIZERS
from checkers.kinds import ALL_KINDS
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("recognizer_cases.yaml"))
def test_recogniser(case: dict[str, Any]) -> None:
    recognizer = ALL_RECOGNIZERS[case["recognizer"]]
    drafts = list(recognizer.recognize(parse_document(case["text"])))
    assert [d.fields for d in drafts] == case["drafts"]
    for draft in drafts:
        # Every draft must be a valid claim of its kind, quoting the lesson.
        ALL_KINDS[draft.kind].Input.model_validate(draft.fields)
        assert draft.recognizer == case["recognizer"]


def test_every_recogniser_module_documents_what_it_recognises() -> None:
    for name, module in ALL_RECOGNIZERS.items():
        doc = getattr(module, "__doc__", "") or ""
        assert "Recognis" in doc, name


def test_draft_claims_keeps_lesson_order_and_repeated_quotes() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 0.9⁵⁰ ≈ 0.005 |\n\nlater 0.9⁵⁰ ≈ 0.005\n"
    drafts = draft_claims(text)
    assert [d.line for d in drafts] == [3, 5]


def test_a_deferring_recogniser_leaves_a_value_already_drafted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import types

    import checkers.extract as extract
    from checkers.extract.draft import Draft

    def drafting(name: str, claimed: str, defers: bool) -> types.SimpleNamespace:
        def recognize(document: object) -> list[Draft]:
            fields = {"expression": "2 × 3", "claimed": claimed}
            return [Draft("arithmetic", "2 × 3 = 6", 1, fields, recognizer=name)]

        return types.SimpleNamespace(recognize=recognize, DEFERS=defers)

    lesson = parse_document("2 × 3 = 6\n")
    first, later = drafting("first", "6", False), drafting("later", "≈ 6", True)
    monkeypatch.setattr(extract, "ALL_RECOGNIZERS", {"first": first, "later": later})
    assert [d.recognizer for d in extract.drafts_of(lesson)] == ["first"]
    eager = drafting("later", "≈ 6", False)  # a recogniser that does not defer drafts its own
    monkeypatch.setattr(extract, "ALL_RECOGNIZERS", {"first": first, "later": eager})
    assert [d.recognizer for d in extract.drafts_of(lesson)] == ["first", "later"]
