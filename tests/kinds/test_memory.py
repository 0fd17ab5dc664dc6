"""Kind ``memory``: its case table, plus the unit policy, corrections, chaining and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import memory
from checkers.kinds.base import Context
from checkers.numbers import Tolerance
from tests.kinds import check_with

_check = check_with(memory)


def test_value_is_bytes_for_chaining() -> None:
    assert _check(params="7B", dtype="fp16", claimed="14 GB").value == pytest.approx(1.4e10)


def test_every_verdict_says_which_unit_reading_was_used() -> None:
    decimal = _check(params="7B", dtype="fp16", claimed="14 GB")
    assert "GB read as decimal, 10^9 bytes" in decimal.message
    assert "GB read as decimal" in decimal.tolerance
    binary = _check(params="7B", dtype="fp16", claimed="13.04 GiB")
    assert "GiB read as binary, 2^30 bytes" in binary.message
    both = " ".join(decimal.details)
    assert "14 GB" in both and "13.04 GiB" in both


def test_binary_only_match_fails_with_decimal_correction() -> None:
    outcome = _check(params="7B", dtype="fp16", claimed="13 GB")
    assert outcome.verdict == "fail"
    assert "13 GB matches only if GB means GiB (2^30 bytes)" in outcome.message
    assert "in GB of 10^9 bytes it is 14 GB" in outcome.message
    assert outcome.corrections == (("13 GB", "14 GB"),)


def test_kv_cache_message_shows_the_formula() -> None:
    outcome = _check(
        layers=32, kv_heads=32, head_dim=128, tokens=4096, dtype="fp16", claimed="2.15 GB"
    )
    # 2 × 32 × 32 × 128 × 2 × 4096 = 2,147,483,648 bytes = 2.147 GB
    assert outcome.verdict == "pass"
    assert "2 (K and V) × 32 layers × 32 KV heads × 128 head_dim × 2 bytes (fp16)" in (
        outcome.message
    )
    assert "2,147,483,648 bytes" in outcome.details[0]


def test_kv_dtype_differs_from_weights() -> None:
    # int4 weights, fp16 cache: 7e9 × 0.5 + 2 × 32 × 32 × 128 × 2 × 4096 = 3.5e9 + 2,147,483,648
    outcome = _check(
        params="7B",
        dtype="int4",
        kv_dtype="fp16",
        layers=32,
        kv_heads=32,
        head_dim=128,
        tokens=4096,
        claimed="5.65 GB",
    )
    assert outcome.verdict == "pass", outcome.message


def test_tolerance_override() -> None:
    claim = memory.Input.model_validate({"params": "7B", "dtype": "fp16", "claimed": "15 GB"})
    assert memory.check(claim, Context()).verdict == "fail"
    loose = Tolerance(absolute=0.0, relative=0.1, reason="±10%: rough size")
    assert memory.check(claim, Context(tolerance=loose)).verdict == "pass"


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("FP16", "fp16"),
        ("float16", "fp16"),
        ("half", "fp16"),
        ("bfloat16", "bf16"),
        ("4-bit", "int4"),
    ],
)
def test_dtype_aliases(alias: str, canonical: str) -> None:
    assert memory.normalize_dtype(alias) == canonical


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"params": "7B", "dtype": "fp16", "claimed": "14"}, "byte unit"),
        ({"params": "7B", "dtype": "fp16", "claimed": "14B"}, "byte unit"),
        ({"params": "7B", "claimed": "14 GB"}, "exactly one of dtype"),
        (
            {"params": "7B", "dtype": "fp16", "bytes_per_param": 2, "claimed": "14 GB"},
            "exactly one",
        ),
        ({"params": "7B", "dtype": "fp12", "claimed": "14 GB"}, "unknown dtype"),
        ({"params": "14 GB", "dtype": "fp16", "claimed": "14 GB"}, "params must be a count"),
        ({"dtype": "fp16", "layers": 32, "claimed": "1 GB"}, "the KV cache needs"),
        (
            {
                "dtype": "fp16",
                "layers": 32,
                "heads": 32,
                "kv_heads": 6,
                "head_dim": 128,
                "tokens": 1,
                "claimed": "1 GB",
            },
            "must divide",
        ),
        (
            {
                "dtype": "fp16",
                "layers": 32,
                "heads": 32,
                "hidden": 4096,
                "head_dim": 64,
                "tokens": 1,
                "claimed": "1 GB",
            },
            "head_dim 64",
        ),
        ({"dtype": "fp16", "quantity": "weights", "claimed": "1 GB"}, "needs params"),
        ({"params": "7B", "dtype": "fp16", "claimed": "14 GB", "prefixes": "metric"}, "prefixes"),
    ],
)
def test_validation_errors(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        memory.Input.model_validate(fields)
    assert fragment in str(raised.value)


def test_nf4_is_read_from_the_table_of_types() -> None:
    # 7·10⁹ parameters × 4 bits = 7·10⁹ × 0.5 bytes = 3.5·10⁹ bytes = 3.5 GB.
    assert _check(params="7B", dtype="nf4", claimed="3.5 GB").verdict == "pass"
    wrong = _check(params="7B", dtype="NF4", claimed="7 GB")
    # The correction keeps the printed precision (whole GB): 3.5 → 4.
    assert wrong.verdict == "fail" and wrong.corrections == (("7 GB", "4 GB"),)
    assert wrong.value == pytest.approx(3.5e9)


def test_either_prefix_holds_under_the_reading_that_matches_and_says_so() -> None:
    binary = _check(params="7B", dtype="fp16", claimed="13 GB", prefixes="either")
    assert binary.verdict == "pass"
    assert "GB read as 2^30 bytes" in binary.message and "either reading" in binary.message
    decimal = _check(params="7B", dtype="fp16", claimed="14 GB", prefixes="either")
    assert decimal.verdict == "pass" and "10^9" in decimal.message
    wrong = _check(params="7B", dtype="fp16", claimed="10 GB", prefixes="either")
    assert wrong.verdict == "fail"
