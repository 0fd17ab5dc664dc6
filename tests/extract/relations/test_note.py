"""A relation's draft carries its note into the claim file, and the finding of an unreviewed
claim shows it."""

from __future__ import annotations

from pathlib import Path

from checkers.extract import draft_claims, to_claim_data
from checkers.lesson import Lesson

TEXT = (
    "A decoder with 24 layers and 16 heads of dimension 64, in fp16.\n\nKV cache per token: 9 KB\n"
)


def test_the_note_is_written_into_the_claim() -> None:
    drafts = [d for d in draft_claims(TEXT) if d.recognizer == "relations"]
    (claim,) = to_claim_data(Lesson.from_text(Path("lesson.md"), TEXT), drafts)
    assert claim["origin"] == "auto"
    assert "layers 24 (line 1)" in claim["note"] and "fp16 (line 1)" in claim["note"]


def test_drafts_of_other_recognisers_have_no_note() -> None:
    text = "Share: 2 / 7 = 0.29\n"
    assert all(
        "note" not in c
        for c in to_claim_data(Lesson.from_text(Path("l.md"), text), draft_claims(text))
    )
