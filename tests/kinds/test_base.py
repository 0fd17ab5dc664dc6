"""What every kind shares (``checkers.kinds.base``): field types, outcomes, the declared hooks."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from checkers.kinds import arithmetic, softmax
from checkers.kinds.base import (
    Context,
    Outcome,
    PrintedWholeNumber,
    error,
    from_comparisons,
    printed_text,
    severity_of,
)
from checkers.numbers import compare, parse_printed


class _Counts(BaseModel):
    layers: PrintedWholeNumber | None = None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2.5", "expected a positive whole number, got '2.5'"),
        ("-3", "expected a positive whole number, got '-3'"),
        ("1 GB", "expected a whole number such as 32 or 4096, got '1 GB'"),
    ],
)
def test_one_whole_number_type_for_every_kind(text: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        _Counts(layers=text)
    assert _Counts(layers="4K").layers is not None  # a count unit is a whole number


def test_an_outcome_is_built_with_keywords_only() -> None:
    with pytest.raises(TypeError):
        Outcome("error", "", "", "", "positional")  # type: ignore[misc]
    built = error("cannot evaluate", "0.5")
    assert (built.verdict, built.claimed, built.message) == ("error", "0.5", "cannot evaluate")


def test_from_comparisons_names_the_wrong_element() -> None:
    comparisons = [compare(parse_printed("0.5"), 0.5), compare(parse_printed("0.6"), 0.5)]
    outcome = from_comparisons(comparisons, what="row", vector=True)
    assert outcome.verdict == "fail" and outcome.value == (0.5, 0.5)
    assert "element 2: 0.6 should be 0.5" in outcome.message
    assert outcome.corrections == (("0.6", "0.5"),)


def test_a_value_printed_after_a_relation_mark_reads_as_written() -> None:
    approximate = from_comparisons([compare(parse_printed("≈ 300"), 310.0)], what="150 + 160")
    assert approximate.message.startswith("150 + 160 ≈ 300 holds (±50: 1 significant figure")
    about = from_comparisons([compare(parse_printed("about 0.8"), 0.83)], what="0.5 + 0.33")
    assert about.message.startswith("0.5 + 0.33 = about 0.8 holds")
    assert from_comparisons([compare(parse_printed("≈ 300"), 360.0)], what="x").verdict == "fail"


def test_the_declared_hooks() -> None:
    chain = arithmetic.Input.model_validate(
        {"expression": "s × 2 = 1.6", "claimed": "1.6", "where": {}}
    )
    assert chain.expression_text == "s × 2 = 1.6"
    assert printed_text(chain.printed) == "1.6"
    # With s = 0.9 the printed later side 1.6 is no longer 2 × 0.9 = 1.8 (number token 1).
    assert chain.step_corrections({"s": 0.9}) == {1: "1.8"}
    row = softmax.Input.model_validate({"scores": ["1", "1"], "claimed": ["0.5", "0.5"]})
    assert row.expression_text is None and row.step_corrections({}) == {}
    assert printed_text(row.printed) == "[0.5, 0.5]"


def test_step_corrections_count_a_grouped_number_once() -> None:
    """``1,024`` is one number token, as the expression reads it: the printed step after it
    is found and corrected (it was two tokens, and the steps did not line up)."""
    chain = arithmetic.Input.model_validate({"expression": "1,024 × 3 = 3,000", "claimed": "3,072"})
    assert chain.step_corrections({}) == {2: "3,072"}


# Severity: a fail is a slip only when every failing comparison is one.
def _check(expression: str, claimed: object, **fields: object) -> Outcome:
    data = {"expression": expression, "claimed": claimed, **fields}
    return arithmetic.check(arithmetic.Input.model_validate(data), Context())


def test_severity_of_needs_every_failure_to_be_a_slip() -> None:
    slip = compare(parse_printed("0.28"), 2 / 7)
    error = compare(parse_printed("0.70"), 5 / 7)
    holds = compare(parse_printed("0.71"), 5 / 7)
    assert severity_of([slip, holds]) == "slip"
    assert severity_of([slip, error]) == "error"
    assert severity_of([error]) == "error"
    assert severity_of([holds]) == "error"  # nothing fails: no slip to speak of


def test_from_comparisons_carries_the_severity() -> None:
    slip = from_comparisons([compare(parse_printed("0.28"), 2 / 7)], what="2 / 7")
    assert (slip.verdict, slip.severity) == ("fail", "slip")
    error = from_comparisons([compare(parse_printed("0.27"), 2 / 7)], what="2 / 7")
    assert (error.verdict, error.severity) == ("fail", "error")


def test_arithmetic_scalar_and_vector_severities() -> None:
    assert _check("2 / 7", "0.28").severity == "slip"
    assert _check("2 / 7", "0.27").severity == "error"
    # Vectors: one slip and the rest right is a slip; a slip beside an error is an error.
    assert _check("[2, 5] / 7", "[0.28, 0.71]").severity == "slip"
    assert _check("[2, 5] / 7", "[0.28, 0.70]").severity == "error"


def test_arithmetic_either_prefix_reading_takes_the_milder_severity() -> None:
    # 1,284,195,041 bytes are 1.196 GiB or 1.284 GB: "1.19" misses under both readings, but
    # under the binary one it is only truncated, so it is a slip.
    outcome = _check("1284195041 / GB", "1.19", prefixes="either")
    assert outcome.verdict == "fail"
    assert outcome.severity == "slip"
    assert "1024" in outcome.message
    # Read as decimal only, the same number is an error (1.284 → 1.28).
    assert _check("1284195041 / GB", "1.19").severity == "error"
    # Two units off under both readings stays an error.
    assert _check("1284195041 / GB", "1.18", prefixes="either").severity == "error"
