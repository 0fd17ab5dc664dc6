"""Kind ``model_config``: its case table, plus messages, corrections, estimates and validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from checkers.claims import load_claims_file
from checkers.data import find_model, model_table
from checkers.kinds import model_config
from checkers.kinds.base import Context
from checkers.numbers import Tolerance, apply_corrections
from checkers.runner import run_file
from checkers.scan import scan_lesson
from tests.cases import load_cases
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


def test_tied_and_untied_embeddings_are_counted_as_the_configuration_says() -> None:
    # Qwen2.5-0.5B ties its embeddings (model card): 151936·896 once; untied it would be twice.
    def counted(tied: bool) -> model_config.Estimate:
        arch = model_config.Architecture(
            "llama", 24, 896, 14, 2, 4864, None, 151936, tied_embeddings=tied
        )
        return model_config.estimate(arch)

    assert counted(False).total - counted(True).total == 151936 * 896
    assert "(tied" in counted(True).formula and "(untied" in counted(False).formula


def test_moe_estimate_counts_all_experts_in_total_and_top_k_per_token() -> None:
    # Mixtral 8x7B shape (Jiang et al. 2024 Table 1): 8 experts of 3·4096·14336, 2 per token.
    arch = model_config.Architecture(
        "llama", 32, 4096, 32, 8, 14336, 32768, 32000, experts=8, experts_per_token=2
    )
    counted = model_config.estimate(arch)
    attention = 2 * 4096 * 4096 + 2 * 4096 * 1024
    expert = 3 * 4096 * 14336
    embeddings = 2 * 32000 * 4096
    assert counted.total == 32 * (attention + 8 * expert + 4096 * 8) + embeddings
    assert counted.active == 32 * (attention + 2 * expert + 4096 * 8) + embeddings


def test_moe_estimate_with_shared_experts_dense_layers_and_latent_attention() -> None:
    # DeepSeek-V3 shape (config_671B.json): 3 dense layers of 18432, 58 MoE layers with 256
    # routed + 1 shared experts of 2048 (8 routed per token), MLA ranks 1536 / 512.
    arch = model_config.Architecture(
        "llama", 61, 7168, 128, None, 18432, None, 129280, experts=256, experts_per_token=8,
        shared_experts=1, expert_d_ff=2048, dense_layers=3, mla=(1536, 512, 128, 64, 128),
    )  # fmt: skip
    counted = model_config.estimate(arch)
    mla = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
    assert mla == 187_105_280
    expert = 3 * 7168 * 2048
    dense = 3 * (mla + 3 * 7168 * 18432)
    embeddings = 2 * 129280 * 7168
    assert counted.total == dense + 58 * (mla + 257 * expert + 7168 * 256) + embeddings
    assert counted.active == dense + 58 * (mla + 9 * expert + 7168 * 256) + embeddings
    assert "58 MoE layers" in counted.formula and "3 dense layers" in counted.formula


def test_size_in_a_name_that_is_only_a_name_is_not_compared() -> None:
    # Gemma 7B: by gemma_pytorch's config it has 8.54B weights; "7B" is its name.
    outcome = _check(name="Gemma 7B", layers=28, hidden=3072, heads=16)
    assert outcome.verdict == "pass", outcome.message
    assert any("published name of Gemma 7B" in detail for detail in outcome.details)
    assert outcome.value == pytest.approx(8_537_505_792)


def test_a_wrong_size_for_a_named_size_model_still_fails() -> None:
    # A printed 12B for Gemma 7B's architecture is neither its name nor near its 8.5B weights.
    outcome = _check(name="Gemma (12B)", reference="gemma-7b", layers=28, hidden=3072, heads=16)
    assert outcome.verdict == "fail"
    assert "not 12B" in outcome.message


def test_moe_messages_say_which_convention_was_used() -> None:
    outcome = _check(
        name="Mixtral 8x7B", layers=32, hidden=4096, heads=32, kv_heads=8, params="56B"
    )
    assert outcome.verdict == "fail"
    assert "untied embeddings" in outcome.message
    assert outcome.value == pytest.approx(46_702_526_464)


_TABLE_LESSON = """# Model sizes

| Model | Layers | Heads | d_model |
|---|---|---|---|
| Llama 3 8B | 32 | 32 | 4096 |
| Mixtral 8x7B | 32 | 32 | 4096 |
| Gemma 7B | 28 | 16 | 3072 |
| Qwen2.5-7B | 32 | 28 | 3584 |
| T5-11B | 24 | 128 | 1024 |
"""


def test_new_family_rows_through_the_claim_loader(tmp_path: Path) -> None:
    # Claim files as authors write them (printed values stay strings), run by the runner.
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "sizes.md").write_text(_TABLE_LESSON, encoding="utf-8")
    rows = {
        "llama3": ("Llama 3 8B", "32", "32", "4096"),
        "mixtral": ("Mixtral 8x7B", "32", "32", "4096"),
        "gemma": ("Gemma 7B", "28", "16", "3072"),
        # Qwen2.5-7B has 28 layers (config.json num_hidden_layers): this row is wrong.
        "qwen": ("Qwen2.5-7B", "32", "28", "3584"),
        "t5": ("T5-11B", "24", "128", "1024"),
    }
    claims = "".join(
        f"  - id: {key}\n    kind: model_config\n"
        f"    quote: '| {name} | {layers} | {heads} | {hidden} |'\n"
        f"    name: {name}\n    layers: {layers}\n    heads: {heads}\n    hidden: {hidden}\n"
        for key, (name, layers, heads, hidden) in rows.items()
    )
    path = tmp_path / "claims" / "sizes.yaml"
    path.write_text(f"lesson: content/sizes.md\nclaims:\n{claims}", encoding="utf-8")
    verdicts = {f.id: f for f in run_file(load_claims_file(path))}
    assert {key: f.verdict for key, f in verdicts.items()} == {
        "llama3": "pass", "mixtral": "pass", "gemma": "pass", "qwen": "fail", "t5": "pass"
    }  # fmt: skip
    assert "28 layers" in verdicts["qwen"].message
    assert verdicts["qwen"].fix == "| Qwen2.5-7B | 28 | 28 | 3584 |"


def test_scan_drafts_rows_of_the_new_families(tmp_path: Path) -> None:
    # The model_tables recogniser finds these rows by the families' name patterns alone.
    lesson = tmp_path / "sizes.md"
    lesson.write_text(_TABLE_LESSON, encoding="utf-8")
    findings = scan_lesson(lesson)
    names = {f.id: f.verdict for f in findings}
    assert len(findings) == 5, names
    assert sorted(names.values()) == ["fail", "pass", "pass", "pass", "pass"], names


def test_every_family_has_a_passing_and_a_failing_case() -> None:
    # The case table covers each family of the reference table both ways.
    cases = [param.values[0] for param in load_cases("kinds/model_config.yaml")]
    seen: dict[str, set[str]] = {}
    for case in cases:
        claim = case["claim"]
        spec = (
            model_table().by_key(claim["reference"])
            if "reference" in claim
            else find_model(claim["name"]).spec
        )
        if spec is not None:
            seen.setdefault(spec.family, set()).add(case["expect"])
        named = find_model(claim["name"]).family
        if named is not None and named.includes:
            # A family that names other families' entries ("LLaMA 7B") is covered by cases
            # written with its own spelling.
            seen.setdefault(named.key, set()).add(case["expect"])
    missing = {
        family.key: sorted({"pass", "fail"} - seen.get(family.key, set()))
        for family in model_table().families
        if not {"pass", "fail"} <= seen.get(family.key, set())
    }
    assert not missing, missing
