"""The readings of unit names: which are tried, in which order, and what each binds."""

from __future__ import annotations

from checkers.kinds import ALL_KINDS
from checkers.kinds.base import Context
from checkers.readings import (
    KILO,
    Reading,
    float_type,
    float_type_names,
    stored,
    stored_differently,
    unit_readings,
)


def test_the_plainest_reading_comes_first_and_only_used_units_multiply_the_readings() -> None:
    assert unit_readings("decimal", uses_bytes=True, uses_kilo=False) == (Reading("decimal"),)
    assert unit_readings("either", uses_bytes=False, uses_kilo=False) == (Reading("decimal"),)
    both = unit_readings("either", uses_bytes=True, uses_kilo=True)
    assert both[0] == Reading("decimal", 1000.0)
    assert set(both) == {Reading(b, k) for b in ("decimal", "binary") for k in (1000.0, 1024.0)}
    assert unit_readings("binary", uses_bytes=True, uses_kilo=False) == (Reading("binary"),)


def test_each_reading_binds_the_byte_prefixes_and_kilo() -> None:
    units = Reading("binary", 1024.0).units()
    assert units["GB"] == 2.0**30 and units[KILO] == 1024 and units["GiB"] == 2.0**30
    assert Reading("decimal").units()["KB"] == 1000 and Reading("decimal").units()[KILO] == 1000


def _arithmetic(expression: str, claimed: str, prefixes: str = "either") -> str:
    kind = ALL_KINDS["arithmetic"]
    fields = {"expression": expression, "claimed": claimed, "prefixes": prefixes}
    return kind.check(kind.Input.model_validate(fields), Context()).message


def test_a_pass_names_the_reading_that_made_it() -> None:
    message = _arithmetic(f"4 * (32*{KILO})", "131,072")
    assert "k as 1024" in message and "holds" in message


def test_a_failure_names_every_reading_tried() -> None:
    message = _arithmetic(f"4 * (32*{KILO}) * 1000", "100 MB")
    assert "not 100 MB" in message
    assert "nor with" in message and "k as 1024" in message and "powers of 1024" in message


def test_a_claims_own_kilo_is_not_reread() -> None:
    kind = ALL_KINDS["arithmetic"]
    fields = {"expression": f"2 * {KILO}", "claimed": "2048", "where": {KILO: "1000"}}
    outcome = kind.check(kind.Input.model_validate(fields), Context())
    assert outcome.verdict == "fail"


def test_storage_rounds_as_each_type_does() -> None:
    assert stored(1e-45, "fp32") == float.fromhex("0x1p-149")  # the smallest subnormal
    assert stored(1e-46, "fp32") == 0.0
    assert stored(1e-8, "fp16") == 0.0
    assert stored(70000.0, "fp16") == float("inf")
    assert stored(1.0 + 2**-9, "bf16") == 1.0  # 8 significant bits, ties to even
    assert stored(3.0e38, "bf16") == float.fromhex("0x1.c4p127")  # 3.0e38 to 8 bits
    assert stored(1.0 + 3 * 2**-9, "bf16") == 1.0 + 2**-7  # a tie rounds to the even one
    assert not stored_differently(0.1, "fp16") and stored_differently(1e-8, "fp16")


def test_lessons_name_the_float_types_as_the_dtype_table_writes_them() -> None:
    assert float_type("float32") == "fp32" and float_type("BF16") == "bf16"
    assert float_type("int8") is None  # an integer type has no subnormal literals
    assert "float16" in float_type_names() and "int8" not in float_type_names()
