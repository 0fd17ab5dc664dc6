"""Kind ``scaling``: its case table, plus ratio phrases, law parsing, corrections and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import scaling
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from tests.kinds import check_with

_check = check_with(scaling)


def test_ratio_value_and_correction() -> None:
    outcome = _check(base_n="1k", n="64k", claimed="4000×")
    assert outcome.value == 4096.0
    assert outcome.corrections == (("4000×", "4096×"),)
    assert apply_corrections("| 64k 词 | 4000× |", outcome.corrections) == "| 64k 词 | 4096× |"


def test_phrase_correction_stays_a_phrase() -> None:
    outcome = _check(factor="翻一倍", claimed="翻一番")
    assert outcome.corrections == (("翻一番", "翻两番"),)
    quote = "上下文翻一倍，注意力成本翻一番。"
    assert apply_corrections(quote, outcome.corrections) == "上下文翻一倍，注意力成本翻两番。"


def test_law_reports_every_constant_and_the_tolerance() -> None:
    outcome = _check(
        law="params ∝ layers × hidden",
        table_from="models",
        models=["GPT-3 175B", "LLaMA-2 7B", "LLaMA-2 70B"],
    )
    # 175e9/(96·12288) = 148,349; 7e9/(32·4096) = 53,406; 70e9/(80·8192) = 106,812
    assert "148.3K for GPT-3 175B" in outcome.message
    assert "53.41K for LLaMA-2 7B" in outcome.message
    assert "106.8K for LLaMA-2 70B" in outcome.message
    assert "±20%" in outcome.message and "±20%" in outcome.tolerance
    assert outcome.value == pytest.approx(70e9 / (80 * 8192))


def test_law_with_chinese_column_names() -> None:
    law = scaling.parse_law("参数 ≈ 层数 × 隐藏维度 × 常数")
    assert law.left == "params"
    assert law.factors == (("layers", 1), ("hidden", 1))
    assert law.constant is None


@pytest.mark.parametrize(
    ("text", "factors", "constant"),
    [
        ("params ≈ 12 × layers × hidden²", (("layers", 1), ("hidden", 2)), 12.0),
        ("N ∝ L * d^2", (("layers", 1), ("hidden", 2)), None),
        ("cost ~ n · n", (("n", 2),), None),
    ],
)
def test_parse_law(text: str, factors: tuple[tuple[str, int], ...], constant: float | None) -> None:
    law = scaling.parse_law(text)
    assert law.factors == factors
    assert law.constant == constant


@pytest.mark.parametrize("text", ["params layers", "params ∝ 常数", "params ∝ params × layers"])
def test_parse_law_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        scaling.parse_law(text)


def test_law_tolerance_override() -> None:
    fields = {
        "law": "params ∝ layers × hidden²",
        "table_from": "models",
        "models": ["GPT-3 175B", "LLaMA-2 7B"],
    }
    claim = scaling.Input.model_validate(fields)
    assert scaling.check(claim, Context()).verdict == "pass"
    # 12.07 against the median 12.56: 3.9% off, beyond ±1%.
    tight = Tolerance(absolute=0.0, relative=0.01, reason="±1%: test")
    assert scaling.check(claim, Context(tolerance=tight)).verdict == "fail"


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"base_n": "1k", "n": "8k"}, "needs claimed"),
        ({"n": "8k", "claimed": "64×"}, "base_n and n"),
        ({"factor": 2, "base_n": 1, "n": 2, "claimed": "4×"}, "either factor"),
        ({"base_n": 0, "n": 8, "claimed": "64×"}, "positive"),
        ({"factor": 2, "claimed": "翻两倍"}, "ambiguous"),
        ({"factor": 2, "claimed": "4 GB"}, "ratio"),
        ({"law": "params ∝ layers × hidden"}, "either as rows"),
        ({"law": "params ∝ layers × hidden", "table_from": "models"}, "needs models"),
        (
            {"law": "params ∝ layers × hidden", "table_from": "models", "models": ["GPT-2"]},
            "does not say which",
        ),
        (
            {"law": "params ∝ layers × hidden", "rows": [{"params": "1B", "layers": 2}]},
            "at least 2 rows",
        ),
        (
            {"law": "a ∝ b", "rows": [{"a": 1, "b": 2}, {"name": "second", "a": 1}]},
            "second lacks b",
        ),
        ({"law": "a ∝ b", "rows": [{"a": 1, "b": 2}], "claimed": "2×"}, "does not take"),
    ],
)
def test_validation_errors(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        scaling.Input.model_validate(fields)
    assert fragment in str(raised.value)
