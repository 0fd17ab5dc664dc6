"""Tests for checkers.expr: the case table, limits, split_chain and property tests."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.expr import (
    FUNCTIONS,
    MAX_DEPTH,
    MAX_LENGTH,
    MAX_TOKENS,
    ArithmeticSeries,
    Binary,
    Call,
    ExprError,
    Name,
    Number,
    _normalize_mapped,
    evaluate,
    evaluate_exact,
    evaluate_text,
    names,
    normalize,
    parse,
    split_chain,
)

# ------------------------------------------------------------------------------ case table


def _load_cases() -> list[dict[str, Any]]:
    path = Path(__file__).parent / "fixtures" / "expr_cases.yaml"
    cases: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    return cases


CASES = _load_cases()


def _table(key: str) -> pytest.MarkDecorator:
    selected = [case for case in CASES if key in case]
    ids = [case["text"] or "<empty>" for case in selected]
    return pytest.mark.parametrize("case", selected, ids=ids)


@_table("value")
def test_value(case: dict[str, Any]) -> None:
    result = evaluate_text(case["text"], case.get("vars"))
    tolerance = {"rel": case.get("rel", 1e-9), "abs": case.get("abs", 1e-12)}
    if isinstance(case["value"], list):
        assert isinstance(result, tuple)
        assert all(type(x) is float for x in result)
        assert result == pytest.approx(tuple(map(float, case["value"])), **tolerance)
    else:
        assert type(result) is float
        assert result == pytest.approx(float(case["value"]), **tolerance)


@_table("exact")
def test_exact(case: dict[str, Any]) -> None:
    variables = {name: Fraction(str(v)) for name, v in case.get("vars", {}).items()}
    expected = None if case["exact"] is None else Fraction(case["exact"])
    assert evaluate_exact(parse(case["text"]), variables) == expected


@_table("error")
def test_error(case: dict[str, Any]) -> None:
    with pytest.raises(ExprError) as info:
        evaluate_text(case["text"], case.get("vars"))
    assert case["error"] in info.value.message
    assert info.value.column == case["column"]


def test_case_table_is_not_empty() -> None:
    assert len([c for c in CASES if "error" in c]) > 50
    assert all({"value", "exact", "error"} & case.keys() for case in CASES)


# ------------------------------------------------------------------------------ limits


def _refused(text: str, message: str, column: int) -> None:
    start = time.perf_counter()
    with pytest.raises(ExprError) as info:
        evaluate_text(text)
    assert time.perf_counter() - start < 0.5
    assert message in info.value.message
    assert info.value.column == column


def test_deep_nesting_of_10000_levels_is_refused_as_too_long() -> None:
    _refused("(" * 10000 + "1" + ")" * 10000, "too long", MAX_LENGTH)


def test_100_kb_input_is_refused() -> None:
    _refused("1+" * 50_000 + "1", "too long", MAX_LENGTH)
    with pytest.raises(ExprError, match="too long"):
        split_chain("1 = " * 25_000)


def test_nesting_limit() -> None:
    assert evaluate_text("(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH) == 1.0
    _refused("(" * 100 + "1" + ")" * 100, "nested too deeply", MAX_DEPTH)
    _refused("-" * 100 + "1", "nested too deeply", MAX_DEPTH)
    _refused("√" * 100 + "4", "nested too deeply", MAX_DEPTH)
    _refused("2^" * 100 + "2", "nested too deeply", 2 * MAX_DEPTH + 1)  # the 65th "^"
    _refused("max(" * 100 + "1" + ")" * 100, "nested too deeply", 4 * MAX_DEPTH + 3)


def test_token_limit() -> None:
    _refused("1+" * 600 + "1", "too many tokens", MAX_TOKENS)


def test_long_flat_sum_does_not_recurse_per_term() -> None:
    text = "+".join(["1"] * 500)  # 999 tokens, one left-deep chain
    assert evaluate_text(text) == 500.0
    assert evaluate_exact(parse(text)) == 500
    assert names(parse("+".join(["x"] * 500))) == {"x"}


@pytest.mark.parametrize(
    "text", ["2^2^2^2^2^2", "9⁹⁹⁹⁹⁹⁹⁹", "10**1000", "10^10^10", "(1/3)^-99999999"]
)
def test_huge_powers_are_refused_quickly_in_both_evaluators(text: str) -> None:
    for run in (lambda: evaluate_text(text), lambda: evaluate_exact(parse(text))):
        start = time.perf_counter()
        with pytest.raises(ExprError, match=r"too large|more than 600 digits"):
            run()
        assert time.perf_counter() - start < 0.5


def test_ellipsis_sum_is_closed_form() -> None:
    start = time.perf_counter()
    assert evaluate_exact(parse("1 + 2 + … + 1,000,000")) == 500_000_500_000
    assert time.perf_counter() - start < 0.5


# ------------------------------------------------------------------------------ tree and API


def test_tree_shapes() -> None:
    assert parse("2d_k") == Binary("*", Number(Fraction(2), "2", 0), Name("d_k", 1), 1)
    assert parse("√2×3") == Binary(
        "*", Call("sqrt", (Number(Fraction(2), "2", 1),), 0), Number(Fraction(3), "3", 3), 2
    )
    assert parse("e^x") == Call("exp", (Name("x", 2),), 0)
    assert parse("1+2+…+5") == ArithmeticSeries(
        Number(Fraction(1), "1", 0), Number(Fraction(2), "2", 2), Number(Fraction(5), "5", 6), 4
    )


def test_number_text_is_normalised_and_column_original() -> None:
    assert parse("4,096") == Number(Fraction(4096), "4,096", 0)
    assert parse("  ０．５") == Number(Fraction(1, 2), "0.5", 2)
    assert parse("1e−4") == Number(Fraction(1, 10000), "1e-4", 0)


def test_nodes_are_frozen() -> None:
    node = parse("1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.start = 3  # type: ignore[misc]


def test_names_lists_free_variables_only() -> None:
    tree = parse("√(2d_k) + d_model × π + e^x + exp(y) + [W_q, 1] + 1 + α + … + n")
    assert names(tree) == {"d_k", "d_model", "x", "y", "W_q", "α", "n"}


def test_normalize() -> None:
    assert normalize("0.9⁵⁰") == "0.9^(50)"
    assert normalize("x⁻¹") == "x^(-1)"
    assert normalize("０．５×０．１") == "0.5*0.1"
    assert normalize("a\u00a0−\u3000b ÷ c") == "a - b / c"
    assert normalize("1 + … + n") == "1 + ... + n"


def test_columns_point_into_the_original_text() -> None:
    cases = [("１２＋ｘ", 3), ("0.9⁵⁰ + y", 8), ("½ + 1 + … + y", 12), ("2×3 −\u3000y", 6)]
    for text, column in cases:
        with pytest.raises(ExprError) as info:
            evaluate_text(text)
        assert info.value.column == column, text


def test_error_is_a_value_error_with_message_and_column() -> None:
    with pytest.raises(ValueError, match=r"division by zero \(column 1\)") as info:
        evaluate_text("1/0")
    assert isinstance(info.value, ExprError)
    assert (info.value.message, info.value.column) == ("division by zero", 1)


def test_unknown_function_lists_the_whitelist() -> None:
    with pytest.raises(ExprError) as info:
        parse("system(1)")
    assert all(name in info.value.message for name in FUNCTIONS)


def test_variables_do_not_override_constants_and_are_validated() -> None:
    assert evaluate_text("e", {"e": 5.0}) == pytest.approx(2.718281828459045)
    with pytest.raises(ExprError, match="not a finite number"):
        evaluate_text("x", {"x": float("nan")})


# ------------------------------------------------------------------------------ split_chain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", [("", "5", 0)]),
        ("a = b ≈ c", [("", "a", 0), ("=", "b", 4), ("≈", "c", 8)]),
        (
            "0.9^10 = 0.3486784401 ≈ 0.35",
            [("", "0.9^10", 0), ("=", "0.3486784401", 9), ("≈", "0.35", 24)],
        ),
        ("softmax([1, 2]) ≃ [0.27, 0.73]", [("", "softmax([1, 2])", 0), ("≃", "[0.27, 0.73]", 18)]),
        ("max(a=1) ≅ 2", [("", "max(a=1)", 0), ("≅", "2", 11)]),
        ("x ~ 3", [("", "x", 0), ("~", "3", 4)]),
        ("x~3", [("", "x~3", 0)]),
        ("0.9^10 约为 0.35", [("", "0.9^10", 0), ("约为", "0.35", 10)]),
        ("1/3 约 0.33", [("", "1/3", 0), ("约", "0.33", 6)]),
        ("2×3＝6", [("", "2×3", 0), ("＝", "6", 4)]),
    ],
)
def test_split_chain(text: str, expected: list[tuple[str, str, int]]) -> None:
    assert split_chain(text) == expected


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("1 == 1", "'==' is not a supported relation", 2),
        ("a <= b", "'<=' is not a supported relation", 3),
        ("= 5", "missing expression before '='", 0),
        ("5 =", "missing expression after '='", 3),
        ("1 = = 2", "missing expression before '='", 3),
    ],
)
def test_split_chain_errors(text: str, message: str, column: int) -> None:
    with pytest.raises(ExprError) as info:
        split_chain(text)
    assert message in info.value.message
    assert info.value.column == column


# ------------------------------------------------------------------------------ properties

VARIABLES = {"x": 2.0, "d_k": 64.0, "n": 10.0}
PIECES = [
    "0", "1", "2", "9", "0.5", ".5", "4,096", "1,000", "1e-4", "1e999", "1e", "x", "d_k", "n",
    "π", "e", "∞", "inf", "+", "-", "−", "*", "×", "/", "÷", "^", "**", "(", ")", "[", "]",
    ",", "…", "...", "⋯", "√", "%", "²", "⁵⁰", "⁻¹", "exp(", "log(", "softmax(", "max(",
    "sqrt(", "gelu(", "tan(", " ", "=", "≈", " ~ ", "约", "０", "．", "__import__", "'", "½",
    "\u00a0", ".", "==",
]  # fmt: skip


def _assert_total(text: str) -> None:
    """Every entry point either returns or raises ExprError with a column inside the text."""
    actions: list[Callable[[], object]] = [
        lambda: evaluate_text(text, VARIABLES),
        lambda: evaluate_exact(parse(text), {k: Fraction(v) for k, v in VARIABLES.items()}),
        lambda: names(parse(text)),
        lambda: split_chain(text),
        lambda: normalize(text),
    ]
    for action in actions:
        try:
            action()
        except ExprError as error:
            assert 0 <= error.column <= len(text)


@pytest.mark.slow  # a long property run
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_total_on_arbitrary_text(text: str) -> None:
    _assert_total(text)


@pytest.mark.slow  # a long property run
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_total_on_grammar_like_text(text: str) -> None:
    _assert_total(text)


FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


@st.composite
def rational_expressions(draw: st.DrawFn) -> tuple[str, Fraction | None]:
    """Random small-integer expressions with their value, computed here from the tree that
    generated the text; None when a division by zero occurs somewhere."""

    def build(depth: int) -> tuple[str, Fraction | None]:
        kinds = ["leaf", "leaf", "binary", "binary", "power", "negate"] if depth < 4 else ["leaf"]
        kind = draw(st.sampled_from(kinds))
        if kind == "leaf":
            n = draw(st.integers(0, 20))
            return (str(n).translate(FULLWIDTH) if draw(st.booleans()) else str(n)), Fraction(n)
        if kind == "negate":
            text, value = build(depth + 1)
            sign = draw(st.sampled_from(["-", "−"]))
            return f"{sign}({text})", None if value is None else -value
        if kind == "power":
            text, value = build(depth + 1)
            k = draw(st.integers(-3, 3))
            style = draw(st.sampled_from(["^", "**", "superscript"]))
            suffix = str(k).translate(SUPERSCRIPT) if style == "superscript" else f"{style}{k}"
            if value is None or (value == 0 and k < 0):
                return f"({text}){suffix}", None
            return f"({text}){suffix}", value**k
        (left, a), (right, b) = build(depth + 1), build(depth + 1)
        op = draw(st.sampled_from(["+", "-", "*", "/", "×", "−", "÷", "·"]))
        text = f"({left}) {op} ({right})"
        if a is None or b is None or (op in "/÷" and b == 0):
            return text, None
        if op in "+-−":
            return text, a + b if op == "+" else a - b
        return text, a * b if op in "*×·" else a / b

    return build(0)


@pytest.mark.slow  # a long property run
@settings(max_examples=300, deadline=None)
@given(rational_expressions())
def test_exact_matches_independent_fractions(case: tuple[str, Fraction | None]) -> None:
    text, expected = case
    tree = parse(text)
    if expected is None:
        with pytest.raises(ExprError, match="division by zero"):
            evaluate_exact(tree)
    else:
        assert evaluate_exact(tree) == expected
        assert evaluate(tree) == pytest.approx(float(expected), rel=1e-6, abs=1e-9)


@pytest.mark.slow  # a long property run
@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_ascii_text_normalises_to_itself(text: str) -> None:
    # The ASCII shortcut must agree with the general path, which a trailing × forces.
    assert _normalize_mapped(text) == (text, list(range(len(text) + 1)))
    general = _normalize_mapped(text + "×")
    assert general == (text + "*", [*range(len(text) + 1), len(text) + 1])


def test_a_text_that_does_not_parse_is_refused_the_same_way_each_time() -> None:
    # The refusal is cached, the error is not: each call raises a fresh one (a cached error
    # would carry the traceback of its first raise, and every raise would add to it).
    errors = []
    for _ in range(2):
        with pytest.raises(ExprError) as caught:
            parse("3 * (4 +")
        errors.append(caught.value)
    first, second = errors
    assert first is not second
    assert (first.message, first.column) == (second.message, second.column)
    assert "column" in str(second)
