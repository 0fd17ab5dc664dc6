"""Outcome's severity: a fail is a slip only when every failing comparison is one."""

from __future__ import annotations

from checkers.kinds import arithmetic
from checkers.numbers import compare, parse_printed
from checkers.outcome import Context, from_comparisons, severity_of


def _check(expression: str, claimed: object, **fields: object) -> arithmetic.Outcome:
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
