from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers.numbers import (
    NumberError,
    Tolerance,
    _parse_general,
    compare,
    compare_vector,
    format_like,
    group_scientific,
    is_slip,
    number_tokens,
    parse_printed,
    parse_printed_vector,
    printed_tolerance,
    significant_digits,
)
from tests.cases import load_cases


@pytest.mark.parametrize("case", load_cases("numbers_parse.yaml"))
def test_parse_printed(case: dict[str, Any]) -> None:
    printed = parse_printed(case["text"])
    assert printed.value == pytest.approx(float(case["value"]), rel=1e-12)
    assert printed.half_width == pytest.approx(float(case["half_width"]), rel=1e-9)


@pytest.mark.parametrize("case", load_cases("numbers_compare.yaml"))
def test_compare(case: dict[str, Any]) -> None:
    comparison = compare(parse_printed(case["printed"]), float(case["recomputed"]))
    assert comparison.ok is case["ok"]
    assert comparison.corrected == case["corrected"]


@pytest.mark.parametrize(
    "text", ["", "abc", "0.5.5", "1,2345", "12 parsecs", "--1", "1e99999", "[0.5]"]
)
def test_unreadable_numbers_say_what_was_expected(text: str) -> None:
    with pytest.raises(NumberError, match=r"expected|exponent"):
        parse_printed(text)


def test_tolerance_reason_names_the_printed_precision() -> None:
    assert printed_tolerance(parse_printed("0.78")).reason == "±0.005: 2 printed decimals"
    assert printed_tolerance(parse_printed("1.5B")).reason == "±0.05B: 1 printed decimal of B"
    assert "whole number" in printed_tolerance(parse_printed("39")).reason


def test_describe_shows_full_value_then_printed_precision() -> None:
    assert compare(parse_printed("0.78"), 0.7966).describe() == "0.7966 → 0.80"


def test_override_tolerance_is_relative_when_asked() -> None:
    tolerance = Tolerance(absolute=0.0, relative=0.1, reason="±10%: rule of thumb")
    assert compare(parse_printed("175B"), 160e9, tolerance).ok
    assert not compare(parse_printed("175B"), 150e9, tolerance).ok


def test_vectors_compare_in_order() -> None:
    printed = parse_printed_vector("[0.84, 0.54, 0.0001, 1.0]")
    results = compare_vector(printed, [0.8415, 0.5403, 0.0099998, 0.99995])
    assert [r.ok for r in results] == [True, True, False, True]
    swapped = compare_vector(printed, [0.5403, 0.8415, 0.0001, 1.0])
    assert [r.ok for r in swapped][:2] == [False, False]


def test_vector_length_mismatch_is_an_error() -> None:
    with pytest.raises(NumberError, match="expected 3"):
        compare_vector(parse_printed_vector(["1", "2"]), [1.0, 2.0, 3.0])


def test_format_like_keeps_unit_and_spacing() -> None:
    assert format_like(parse_printed("14 GB"), 13.04e9) == "13 GB"
    assert format_like(parse_printed("67%"), 0.9802) == "98%"
    assert format_like(parse_printed("−0.42"), -0.416) == "−0.42"


@pytest.mark.slow  # a long property run
@settings(max_examples=500, deadline=None)
@given(
    text=st.one_of(
        st.from_regex(r"\A-?[0-9]{1,12}(\.[0-9]{1,12})?\Z"),
        st.integers(-(10**15), 10**15).map(str),
        st.floats(allow_nan=False, allow_infinity=False).map(str),
    )
)
def test_plain_decimals_read_as_the_general_reading_does(text: str) -> None:
    def reading(parse: Any) -> object:
        try:
            return parse(text)
        except NumberError as error:
            return error.message

    assert reading(parse_printed) == reading(_parse_general)


def test_an_approximate_value_is_read_to_its_significant_figures_and_says_so() -> None:
    about = parse_printed("about 0.8")
    assert printed_tolerance(about).reason == (
        "±0.05: 1 significant figure (printed as approximate: 'about')"
    )
    assert compare(about, 0.84).ok and not compare(about, 0.86).ok
    assert compare(about, 0.86).corrected == "about 0.9"
    # Under ≈ the trailing zeros of a whole number are not significant: ≈ 300 is 250–350.
    rounded = parse_printed("≈ 300")
    assert rounded.half_width == 50
    assert compare(rounded, 340).ok and not compare(rounded, 360).ok
    assert compare(rounded, 372).corrected == "≈ 400"
    assert "1 significant figure" in printed_tolerance(rounded).reason
    assert parse_printed("300").half_width == 0.5  # printed plainly: exactly a whole number
    assert parse_printed("约 2.50").half_width == pytest.approx(0.005)


@pytest.mark.parametrize(
    ("text", "grouped"),
    [
        ("10^13 / 6×10^6", "10^13 / (6×10^6)"),
        ("2 / 1.5 x 10⁻³", "2 / (1.5 x 10⁻³)"),
        ("1e13 / 6*10**6", "1e13 / 6*10**6"),  # code keeps Python's precedence
        ("2^3×10^2", "2^3×10^2"),  # 10^2 multiplies a power, not a mantissa
    ],
)
def test_scientific_literals_are_one_number(text: str, grouped: str) -> None:
    assert group_scientific(text) == grouped


def test_significant_figures_name_themselves_in_the_tolerance() -> None:
    assert significant_digits(parse_printed("≈ 9800")) == 2
    assert significant_digits(parse_printed("9800")) is None
    assert significant_digits(parse_printed("about 12,000")) == 2
    reason = printed_tolerance(parse_printed("590,000")).reason
    assert reason.startswith("±5000: read to 2 significant figures") and "round number" in reason
    assert significant_digits(parse_printed("1,000,000")) is None  # one figure: exactly 10⁶


# The slip rule: a miss is a slip when the printed value brackets the truth at its precision.
@pytest.mark.parametrize(
    ("printed", "true", "slip"),
    [
        ("0.28", 2 / 7, True),  # 0.2857 truncated
        ("0.35", 0.3561, True),  # truncated: 0.3561 rounds to 0.36
        ("0.36", 0.3561, False),  # the correct rounding holds: no miss at all
        ("0.70", 5 / 7, False),  # 0.7143: 1.43 units off
        ("0.78", 0.7966, False),  # two units off
        ("38", 39.0, False),  # exact 39 printed one unit off: no rounding gives 38
        ("40", 39.0, False),
        ("12.5", 12.5999, True),  # truncation at one decimal
        ("−0.13", -0.1387, True),  # truncation toward zero of a negative value
        ("−0.14", -0.1307, True),  # rounded away from the truth's side, still bracketing it
        ("27%", 0.2766, True),  # percent: 27.66% truncated
        ("26%", 0.2766, False),
        ("1.2 GB", 1.29e9, True),
        ("1.2 GB", 1.31e9, False),
        ("3.1e-4", 3.18e-4, True),
    ],
)
def test_slip_is_a_miss_inside_one_unit_of_the_last_place(
    printed: str, true: float, slip: bool
) -> None:
    value = parse_printed(printed)
    comparison = compare(value, true)
    assert comparison.slip is slip
    assert is_slip(value, true, printed_tolerance(value)) is slip


def test_a_value_that_holds_is_never_a_slip() -> None:
    value = parse_printed("0.29")
    assert compare(value, 2 / 7).ok
    assert not compare(value, 2 / 7).slip
    assert not is_slip(value, 2 / 7, printed_tolerance(value))


def test_tolerances_that_are_not_roundings_have_no_slips() -> None:
    # A claim's own tolerance (±10% for an estimate) has no last printed place to be off in.
    estimate = Tolerance(absolute=0.0, relative=0.1, reason="±10%: an estimate")
    value = parse_printed("100")
    assert not compare(value, 111.0, estimate).ok
    assert not compare(value, 111.0, estimate).slip
    assert not is_slip(value, 100.6, Tolerance(0.0, 0.0, "exact"))
    # The same miss under the printed precision's own rounding is judged by the rule.
    assert compare(parse_printed("0.28"), 2 / 7, printed_tolerance(parse_printed("0.28"))).slip


def test_non_finite_recomputation_is_not_a_slip() -> None:
    value = parse_printed("0.5")
    assert not is_slip(value, float("nan"), printed_tolerance(value))
    assert not is_slip(value, float("inf"), printed_tolerance(value))


def test_slips_follow_the_significant_figures_a_reading_allows() -> None:
    # "≈ 9800" keeps two significant figures: its last place is the hundreds.
    about = parse_printed("≈ 9800")
    assert compare(about, 9869.0).slip  # 9869 would print ≈ 9900: the hundreds only
    assert not compare(about, 9951.0).slip  # 1.5 hundreds off: an error
    assert not compare(parse_printed("9800"), 9869.0).slip  # printed plainly, 69 units off


def test_read_binary_count_reads_k_as_1024() -> None:
    from checkers.numbers import read_binary_count

    assert read_binary_count(parse_printed("128K")).value == 131072
    assert read_binary_count(parse_printed("32k")).value == 32768
    assert read_binary_count(parse_printed("1.5B")).value == 1.5e9  # not a K count: unchanged
    assert read_binary_count(parse_printed("4096")).value == 4096


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("4,096 and 1,024,000 tokens", ["4,096", "1,024,000"]),
        ("$262{,}144$ and 1 048 576 bytes", ["262{,}144", "1 048 576"]),
        ("１，０２４ 个", ["１，０２４"]),
        ("-1,234.5 and (1,024 tokens)", ["-1,234.5", "1,024"]),
        # Commas that separate items, and groupings that are not thousands, stay apart.
        ("[1,000, 2] and range(1,100)", ["1", "000", "2", "1", "100"]),
        ("1,0000 or 3,4,5 or 0,123", ["1", "0000", "3", "4", "5", "0", "123"]),
        ("sizes 8 256 and 16 512", ["8", "256", "16", "512"]),  # one plain space: two numbers
    ],
)
def test_a_grouped_number_is_one_token_where_commas_cannot_separate_items(
    text: str, numbers: list[str]
) -> None:
    tokens = number_tokens(text)
    assert [t.text for t in tokens] == numbers
    assert all(text[t.start : t.end] == t.text for t in tokens)


def test_a_grouped_token_compares_without_its_spaces() -> None:
    (token,) = number_tokens("1 048 576")
    assert token.norm == "1048576"


def test_count_scale_gives_the_power_of_ten_of_a_count_scale_and_refuses_other_units() -> None:
    from checkers.numbers import count_scale

    assert [count_scale(w) for w in ("K", "B", "billion", "万", "亿")] == [
        "1e3", "1e9", "1e9", "1e4", "1e8"
    ]  # fmt: skip
    for other in ("GB", "%", "×"):
        with pytest.raises(KeyError):
            count_scale(other)
