"""Kind ``model_config``: its case table, plus messages, corrections, estimates and validation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from checkers.kinds import model_config
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from tests.kinds import check_with

_check = check_with(model_config)


def test_mixed_row_message_names_columns_source_and_estimate() -> None:
    # A 1.5B GPT-2 row printed with GPT-2 medium's depth and heads (Radford et al. 2019 Table 2:
    # the 1.5B model has 48 layers; gpt2-xl config.json: 25 heads).
    outcome = _check(name="GPT-2 (1.5B)", layers=24, heads=16, hidden=1600, context=1024)
    assert outcome.verdict == "fail"
    assert "layers 24 and heads 16 do not match the published GPT-2 XL" in outcome.message
    assert "48 layers, 25 heads; Radford et al. 2019 Table 2; gpt2-xl config.json" in (
        outcome.message
    )
    assert "GPT-2 medium's" in outcome.message
    # 12·24·1600² + 50257·1600 + 1024·1600 = 737,280,000 + 80,411,200 + 1,638,400
    assert "24 layers × d 1600 gives ≈ 0.82B parameters, not 1.5B" in outcome.message
    assert outcome.value == pytest.approx(819_329_600)
    assert outcome.corrections == (("24", "48"), ("16", "25"))
    quote = "| GPT-2 (1.5B) | 24 | 16 | 1600 | 1024 |"
    assert (
        apply_corrections(quote, outcome.corrections) == "| GPT-2 (1.5B) | 48 | 25 | 1600 | 1024 |"
    )


@pytest.mark.parametrize(
    ("arch", "expected"),
    [
        # GPT-2 small without biases/norms: 124,439,808 released weights − 121,344 bias/LN values.
        (
            model_config.Architecture("gpt", 12, 768, 12, None, 3072, 1024, 50257),
            124_318_464,
        ),
        # LLaMA-2 7B: 6,738,415,616 released weights − 266,240 RMSNorm weights.
        (
            model_config.Architecture("llama", 32, 4096, 32, None, 11008, 4096, 32000),
            6_738_149_376,
        ),
        # LLaMA-2 70B with 8 KV heads: 68,976,648,192 − 1,318,912 RMSNorm weights.
        (
            model_config.Architecture("llama", 80, 8192, 64, 8, 28672, 4096, 32000),
            68_975_329_280,
        ),
        # Transformer base: 6·(4d² + 2·d·d_ff) + 6·(8d² + 2·d·d_ff) + 37000·d, d = 512.
        (
            model_config.Architecture("encoder_decoder", 6, 512, 8, None, 2048, None, 37000),
            44_040_192 + 18_944_000,
        ),
        # BERT-base: 12·12·768² + (30522 + 512 + 2)·768 + 768² (pooler).
        (
            model_config.Architecture("bert", 12, 768, 12, None, 3072, 512, 30522),
            84_934_656 + 23_835_648 + 589_824,
        ),
    ],
)
def test_estimate_counts_weight_matrices_and_embeddings(
    arch: model_config.Architecture, expected: int
) -> None:
    assert model_config.estimate(arch).total == expected


def test_estimate_defaults_are_reported() -> None:
    counted = model_config.estimate(model_config.Architecture("llama", 32, 4096))
    # LLaMA's SwiGLU width: 8·4096/3 = 10922.7, rounded up to a multiple of 256 = 11008.
    assert any("11008" in note for note in counted.assumptions)
    assert any("embeddings not counted" in note for note in counted.assumptions)


def test_borrowed_columns_are_named() -> None:
    outcome = _check(name="LLaMA-2 70B", layers=80, heads=64, hidden=8192)
    assert outcome.verdict == "pass"
    assert any("KV heads 8" in line and "d_ff 28672" in line for line in outcome.details)


def test_size_correction_when_columns_are_published_ones() -> None:
    # The columns are GPT-2 XL's (48/25/1600), so "15B" is the wrong part; the name still has to
    # pick the entry, so the reference is given explicitly.
    outcome = _check(name="GPT-2 (15B)", reference="gpt2-xl", layers=48, heads=25, hidden=1600)
    assert outcome.verdict == "fail"
    assert outcome.corrections == (("15B", "1.5B"),)


def test_tolerance_override_applies_to_the_size() -> None:
    claim = model_config.Input.model_validate(
        {"name": "Toy (90M)", "layers": 12, "heads": 12, "hidden": 768}
    )
    # 84.9M against 90M: inside ±10%, outside ±1%.
    assert model_config.check(claim, Context()).verdict == "pass"
    tight = Tolerance(absolute=0.0, relative=0.01, reason="±1%: test")
    outcome = model_config.check(claim, Context(tolerance=tight))
    assert outcome.verdict == "fail"
    assert "±1%: test" in outcome.tolerance


def test_pass_message_states_tolerance_reason() -> None:
    outcome = _check(name="GPT-3 (175B)", layers=96, heads=96, hidden=12288)
    assert "±10%" in outcome.tolerance and "rounded names" in outcome.tolerance


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"name": "GPT-3"}, "at least one column"),
        ({"name": "GPT-3", "layers": "96.5"}, "whole number"),
        ({"name": "GPT-3", "layers": "-96"}, "positive"),
        ({"name": "GPT-3", "hidden": "12 GB"}, "whole number"),
        ({"name": "GPT-3", "layers": 96, "reference": "gpt-99"}, "unknown reference"),
        ({"name": "GPT-3 (175B)", "layers": 96, "params": "175B"}, "already states a size"),
        ({"name": "GPT-3", "layers": 96, "style": "mamba"}, "style"),
        ({"name": "GPT-3", "layers": 96, "colour": "red"}, "colour"),
    ],
)
def test_validation_errors(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as raised:
        model_config.Input.model_validate(fields)
    assert fragment in str(raised.value)


def test_count_text() -> None:
    assert model_config.count_text(1_557_611_200) == "1.558B"
    assert model_config.count_text(737_280_000) == "737.3M"
    assert model_config.count_text(53_406) == "53.41K"
