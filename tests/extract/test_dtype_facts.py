"""Recogniser ``dtype_facts``: the cue it looks for before a line's type names."""

from __future__ import annotations

import pytest

from checkers.data import dtype_table
from checkers.extract.document import parse_document
from checkers.extract.recognizers import dtype_facts


@pytest.mark.parametrize("name", sorted(dtype_table().written))
def test_every_type_name_holds_the_cue_in_every_case(name: str) -> None:
    """A line is searched for type names only when it holds the cue: every name the table
    writes holds it, however it is cased."""
    cue, names = dtype_facts._name_patterns()
    for written in (name, name.upper(), name.title()):
        assert names.search(f"a {written} b") is not None
        assert cue.search(written) is not None, written


def test_a_line_without_the_cue_is_not_read() -> None:
    cue, _ = dtype_facts._name_patterns()
    assert cue.search("16 bits in 2 bytes, 32 layers") is None
    (draft,) = dtype_facts.recognize(parse_document("FP16 is 16-bit.\n"))
    assert draft.fields == {"dtype": "FP16", "quantity": "bits", "value": "16"}
