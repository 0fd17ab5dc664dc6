"""The reference data loader and the integrity of ``checkers/data/models.yaml`` and
``checkers/data/dtypes.yaml``; a broken entry is an error naming the file and the entry (the
accelerator table: ``tests/data/test_accelerators.py``)."""

from __future__ import annotations

import copy
import re
from importlib import resources
from typing import Any

import pytest

from checkers.data import (
    COLUMNS,
    DataError,
    ModelSpec,
    build_model_table,
    dtype_table,
    find_model,
    load_yaml,
    model_table,
    parse_count,
    size_in_name,
)
from checkers.extract.recognizers import memory_tables
from checkers.extract.recognizers.dtype_savings import TYPE_PATTERN
from checkers.kinds.memory import normalize_dtype
from checkers.kinds.model_config import Architecture, estimate

MODELS = model_table().models


def _id(spec: ModelSpec) -> str:
    return spec.key


def test_data_files_are_package_data() -> None:
    assert resources.files("checkers.data").joinpath("models.yaml").is_file()
    assert resources.files("checkers.data").joinpath("accelerators.yaml").is_file()


def test_load_yaml_is_cached() -> None:
    assert load_yaml("models") is load_yaml("models")
    assert model_table() is model_table()


@pytest.mark.parametrize("name", ["../secrets", "Models", "models.yaml", ""])
def test_load_yaml_refuses_paths(name: str) -> None:
    with pytest.raises(ValueError):
        load_yaml(name)


def test_table_has_the_required_models() -> None:
    keys = {spec.key for spec in MODELS}
    assert {
        "gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl", "gpt3-175b", "bert-base",
        "bert-large", "llama2-7b", "llama2-13b", "llama2-70b", "transformer-base",
        "transformer-big", "t5-small", "t5-base", "t5-large", "t5-3b", "t5-11b", "llama1-7b",
        "llama1-13b", "llama1-33b", "llama1-65b", "llama3-8b", "llama3-70b", "llama3.1-8b",
        "llama3.1-70b", "llama3.1-405b", "mistral-7b", "mixtral-8x7b", "mixtral-8x22b",
        "qwen2-7b", "qwen2-72b", "qwen2.5-0.5b", "qwen2.5-7b", "qwen2.5-72b", "deepseek-v2",
        "deepseek-v3", "gemma-2b", "gemma-7b", "gemma2-2b", "gemma2-9b", "gemma2-27b", "phi-2",
        "phi-3-mini",
    } <= keys  # fmt: skip


# The published numbers, written out by hand from the sources (not read from models.yaml), so an
# edit of the data file that changes one of them fails here.
PUBLISHED = {
    # Radford et al. 2019 Table 2; gpt2* config.json (heads, positions, vocabulary)
    "gpt2-small": {"layers": 12, "hidden": 768, "heads": 12, "context": 1024, "vocab": 50257},
    "gpt2-medium": {"layers": 24, "hidden": 1024, "heads": 16, "context": 1024, "vocab": 50257},
    "gpt2-large": {"layers": 36, "hidden": 1280, "heads": 20, "context": 1024, "vocab": 50257},
    "gpt2-xl": {"layers": 48, "hidden": 1600, "heads": 25, "context": 1024, "vocab": 50257},
    # Brown et al. 2020 Table 2.1, Section 2.1
    "gpt3-175b": {"layers": 96, "hidden": 12288, "heads": 96, "context": 2048},
    "gpt3-small": {"layers": 12, "hidden": 768, "heads": 12, "head_dim": 64, "context": 2048},
    "gpt3-xl": {"layers": 24, "hidden": 2048, "heads": 24, "head_dim": 128},
    "gpt3-13b": {"layers": 40, "hidden": 5140, "heads": 40, "head_dim": 128, "d_ff": 20560},
    # Devlin et al. 2018 Section 3
    "bert-base": {"layers": 12, "hidden": 768, "heads": 12, "d_ff": 3072, "context": 512},
    "bert-large": {"layers": 24, "hidden": 1024, "heads": 16, "d_ff": 4096, "context": 512},
    # Touvron et al. 2023; Llama-2-*-hf config.json
    "llama2-7b": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "d_ff": 11008,
                  "context": 4096, "vocab": 32000},
    "llama2-13b": {"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 40, "d_ff": 13824,
                   "context": 4096, "vocab": 32000},
    "llama2-70b": {"layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "d_ff": 28672,
                   "context": 4096, "vocab": 32000},
    # Vaswani et al. 2017 Table 3
    "transformer-base": {"layers": 6, "hidden": 512, "heads": 8, "d_ff": 2048},
    "transformer-big": {"layers": 6, "hidden": 1024, "heads": 16, "d_ff": 4096},
    # Raffel et al. 2020 Section 3.7; t5-* config.json (d_kv, vocab_size 32128)
    "t5-small": {"layers": 6, "hidden": 512, "heads": 8, "head_dim": 64, "d_ff": 2048,
                 "vocab": 32128},
    "t5-large": {"layers": 24, "hidden": 1024, "heads": 16, "head_dim": 64, "d_ff": 4096},
    "t5-3b": {"layers": 24, "hidden": 1024, "heads": 32, "head_dim": 128, "d_ff": 16384},
    "t5-11b": {"layers": 24, "hidden": 1024, "heads": 128, "head_dim": 128, "d_ff": 65536},
    # Touvron et al. 2023a Table 2
    "llama1-33b": {"layers": 60, "hidden": 6656, "heads": 52, "context": 2048, "vocab": 32000},
    "llama1-65b": {"layers": 80, "hidden": 8192, "heads": 64, "context": 2048},
    # meta-llama/llama-models sku_list.py; Llama 3 / 3.1 model cards and config.json
    "llama3-8b": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "d_ff": 14336,
                  "context": 8192, "vocab": 128256, "rope_theta": 500000},
    "llama3.1-405b": {"layers": 126, "hidden": 16384, "heads": 128, "kv_heads": 8,
                      "d_ff": 53248, "vocab": 128256},
    # Jiang et al. 2023 Table 1; Jiang et al. 2024 Table 1; Mixtral-8x22B config.json
    "mistral-7b": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8, "head_dim": 128,
                   "d_ff": 14336, "context": 8192, "vocab": 32000},
    "mixtral-8x7b": {"layers": 32, "hidden": 4096, "kv_heads": 8, "d_ff": 14336, "experts": 8,
                     "experts_per_token": 2, "context": 32768, "vocab": 32000},
    "mixtral-8x22b": {"layers": 56, "hidden": 6144, "heads": 48, "kv_heads": 8, "d_ff": 16384,
                      "experts": 8, "experts_per_token": 2, "context": 65536},
    # Qwen2 / Qwen2.5 config.json and model cards
    "qwen2-72b": {"layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8, "d_ff": 29568,
                  "vocab": 152064},
    "qwen2.5-0.5b": {"layers": 24, "hidden": 896, "heads": 14, "kv_heads": 2, "d_ff": 4864,
                     "context": 32768, "vocab": 151936},
    "qwen2.5-7b": {"layers": 28, "hidden": 3584, "heads": 28, "kv_heads": 4, "d_ff": 18944,
                   "context": 131072, "vocab": 152064, "rope_theta": 1000000},
    # deepseek-ai/DeepSeek-V3 inference/configs/config_236B.json and config_671B.json
    "deepseek-v2": {"layers": 60, "hidden": 5120, "heads": 128, "d_ff": 12288, "moe_d_ff": 1536,
                    "experts": 160, "shared_experts": 2, "experts_per_token": 6,
                    "dense_layers": 1, "vocab": 102400},
    "deepseek-v3": {"layers": 61, "hidden": 7168, "heads": 128, "d_ff": 18432, "moe_d_ff": 2048,
                    "experts": 256, "shared_experts": 1, "experts_per_token": 8,
                    "dense_layers": 3, "vocab": 129280},
    # google/gemma_pytorch gemma/config.py
    "gemma-7b": {"layers": 28, "hidden": 3072, "heads": 16, "head_dim": 256, "d_ff": 24576,
                 "context": 8192, "vocab": 256000},
    "gemma2-27b": {"layers": 46, "hidden": 4608, "heads": 32, "kv_heads": 16, "head_dim": 128,
                   "d_ff": 36864, "vocab": 256000},
    # microsoft/phi-2 config.json; Abdin et al. 2024 Section 2
    "phi-2": {"layers": 32, "hidden": 2560, "heads": 32, "d_ff": 10240, "context": 2048,
              "vocab": 51200},
    "phi-3-mini": {"layers": 32, "hidden": 3072, "heads": 32, "d_ff": 8192, "context": 4096,
                   "vocab": 32064},
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(PUBLISHED))
def test_published_numbers(key: str) -> None:
    spec = model_table().by_key(key)
    assert spec is not None
    for column, value in PUBLISHED[key].items():
        assert spec.column(column) == value, f"{key}.{column}"


_CITED_KINDS = ("et al.", "config.json", "config.py", "sku_list.py", "model card", "README")


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_entry_has_a_source(spec: ModelSpec) -> None:
    assert spec.source.strip() and spec.cite.strip()
    # The short citation names a paper, a released config file or a model card.
    assert any(word in spec.cite for word in _CITED_KINDS), spec.cite


_NUMBER_FIELDS = (
    "layers", "hidden", "heads", "kv_heads", "head_dim", "d_ff", "context", "vocab", "experts",
    "experts_per_token", "shared_experts", "moe_d_ff", "dense_layers", "q_lora_rank",
    "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "sliding_window",
    "rope_theta",
)  # fmt: skip


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_number_is_written_in_its_source(spec: ModelSpec) -> None:
    # "Every number with its source": the source text names each value the entry holds.
    written = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", spec.source.replace(",", ""))}
    numbers = [getattr(spec, name) for name in _NUMBER_FIELDS] + [
        value for values in spec.also.values() for value in values
    ]
    missing = [n for n in numbers if n is not None and float(n) not in written]
    counts = [spec.params] + [
        count
        for count in (spec.active_params, spec.train_tokens, spec.corpus_words)
        if count is not None
    ]
    missing += [c for c in counts if float(c[:-1]) not in written]
    assert not missing, f"{spec.key}: {missing} not in its source"


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_heads_divide_hidden_and_kv_heads_divide_heads(spec: ModelSpec) -> None:
    assert spec.heads % spec.n_kv_heads == 0
    if spec.is_mla:
        assert spec.d_head is None  # latent attention has no single head width
    elif spec.head_dim is None:
        assert spec.hidden % spec.heads == 0
        assert spec.d_head is not None and spec.d_head * spec.heads == spec.hidden
    else:
        assert spec.d_head == spec.head_dim


@pytest.mark.parametrize("spec", [m for m in MODELS if m.is_moe], ids=_id)
def test_moe_entries_are_consistent(spec: ModelSpec) -> None:
    assert spec.experts is not None and spec.experts_per_token is not None
    assert spec.experts_per_token < spec.experts
    assert spec.active_params_value is not None
    assert spec.active_params_value < spec.params_value
    assert (spec.dense_layers or 0) < spec.layers


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_columns_are_positive_integers(spec: ModelSpec) -> None:
    for column in COLUMNS:
        value = spec.column(column)
        assert value is None or (isinstance(value, int) and value > 0)
    assert spec.d_ff > spec.hidden


def _architecture(spec: ModelSpec) -> Architecture:
    """The estimate's input from an entry's own fields (what model_config borrows from it)."""
    return Architecture(
        spec.style, spec.layers, spec.hidden, spec.heads, spec.kv_heads, spec.d_ff,
        spec.context, spec.vocab, head_dim=spec.head_dim, tied_embeddings=spec.tied,
        gated_ffn=spec.gated_ffn, learned_positions=spec.positions_style == "learned",
        experts=spec.experts, experts_per_token=spec.experts_per_token,
        shared_experts=spec.shared_experts or 0, expert_d_ff=spec.expert_d_ff,
        dense_layers=spec.dense_layers or 0,
        mla=spec.mla_dims,
    )  # fmt: skip


@pytest.mark.parametrize("spec", [m for m in MODELS if not m.size_is_name], ids=_id)
def test_architecture_gives_the_stated_size(spec: ModelSpec) -> None:
    # The same ±10% the model_config kind allows: weight matrices + embeddings vs rounded names.
    counted = estimate(_architecture(spec))
    gap = spec.params_value - counted.total
    if spec.vocab is None and gap > 0.10 * spec.params_value:
        # No vocabulary published (GPT-3): the estimate lacks vocab·d, so the gap must look like
        # an embedding table: 10K to 300K tokens of width d (GPT-3 Small: 38.5M / 768 = 50,120).
        assert 10_000 <= gap / spec.hidden <= 300_000, spec.key
    else:
        assert abs(gap) <= 0.10 * spec.params_value, spec.key
    if spec.is_moe:
        assert counted.active is not None and spec.active_params_value is not None
        assert abs(counted.active - spec.active_params_value) <= 0.10 * spec.active_params_value


@pytest.mark.parametrize("spec", [m for m in MODELS if m.size_is_name], ids=_id)
def test_a_size_that_is_a_name_is_far_from_the_weights(spec: ModelSpec) -> None:
    # size_is_name is only for names the weights do not round to (else the estimate would do).
    counted = estimate(_architecture(spec)).total
    assert abs(counted - spec.params_value) > 0.10 * spec.params_value, spec.key


# Published totals the estimate must reproduce, hand-derived from the sources (no biases/norms):
ESTIMATES = {
    # Mixtral 8x7B (Jiang et al. 2024 Table 1): per layer 2·4096² + 2·4096·1024 attention
    # + 8 × 3·4096·14336 experts + 4096·8 router = 1,451,261,952; ×32 + 2·32000·4096. Per token:
    # the same with 2 experts (the router runs for every token): 394,297,344 × 32 + 262,144,000.
    "mixtral-8x7b": (46_702_526_464, 12_879_659_008),
    # DeepSeek-V3 (config_671B.json): MLA 187,105,280 per layer × 61; 3 dense FFNs 3·7168·18432;
    # 58 MoE layers × (257 × 3·7168·2048 + 7168·256); untied 2·129280·7168.
    "deepseek-v3": (671_025_397_760, 37_551_276_032),
    # Llama 3.1 405B (sku_list.py): 126 × (2·16384² + 2·16384·1024 + 3·16384·53248)
    # + 2·128256·16384.
    "llama3.1-405b": (405_849_243_648, None),
    # Qwen2.5-0.5B (tied): 24 × (2·896² + 2·896·128 + 3·896·4864) + 151936·896; the card's
    # 0.36B non-embedding is the first term, 357,826,560.
    "qwen2.5-0.5b": (493_961_216, None),
    # Gemma 2 9B: 42 × (2·3584·4096 + 2·3584·2048 + 3·3584·14336) = 8,323,596,288, which with
    # 605,696 norm weights is the report's 8,324,201,984 non-embedding count; + 256000·3584.
    "gemma2-9b": (9_241_100_288, None),
    # T5-11B (tied): 24 × (4·1024·16384 + 2·1024·65536) + 24 × (8·1024·16384 + 2·1024·65536)
    # + 32128·1024.
    "t5-11b": (11_307_188_224, None),
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(ESTIMATES))
def test_estimates_reproduce_hand_counts(key: str) -> None:
    spec = model_table().by_key(key)
    assert spec is not None
    counted = estimate(_architecture(spec))
    total, active = ESTIMATES[key]
    assert counted.total == total
    assert counted.active == active


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_entry_is_found_by_its_name_and_key(spec: ModelSpec) -> None:
    assert find_model(spec.name).spec == spec
    assert find_model(spec.key).spec == spec


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_size_label_finds_its_entry(spec: ModelSpec) -> None:
    family = model_table().family(spec.family)
    for label in spec.sizes:
        family_name = re.sub(r"\s*\(.*\)", "", family.name)  # "Transformer (Vaswani et al.)"
        # "Qwen-7B": the first Qwen generation is named with the size joined to it.
        found = [find_model(f"{family_name}{join}{label}").spec for join in (" ", "-")]
        assert spec in found, label


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("GPT-2 (1.5B)", "gpt2-xl"),
        ("GPT-2 XL", "gpt2-xl"),
        ("gpt2-xl", "gpt2-xl"),
        ("GPT-2 (1558M)", "gpt2-xl"),
        ("GPT2 medium", "gpt2-medium"),
        ("GPT-2 117M", "gpt2-small"),
        ("GPT-3 (175B)", "gpt3-175b"),
        ("GPT-3", "gpt3-175b"),
        ("LLaMA-2 7B", "llama2-7b"),
        ("Llama 2 70B", "llama2-70b"),
        ("Llama-2-70b-hf", "llama2-70b"),
        ("meta-llama/Llama-2-13b-chat-hf", "llama2-13b"),
        ("LLaMA2-7B", "llama2-7b"),
        ("LLaMA-2 70 亿", "llama2-7b"),
        ("ＧＰＴ－２ ＸＬ", "gpt2-xl"),
        ("BERT-base", "bert-base"),
        ("bert-large-uncased", "bert-large"),
        ("Transformer (big)", "transformer-big"),
        ("原论文 Transformer base", "transformer-base"),
        ("T5-11B", "t5-11b"),
        ("t5-small", "t5-small"),
        ("LLaMA 65B", "llama1-65b"),
        ("LLaMA-1 13B", "llama1-13b"),
        ("LLaMA 30B", "llama1-33b"),
        ("Llama 3 8B", "llama3-8b"),
        ("Meta-Llama-3.1-8B-Instruct", "llama3.1-8b"),
        ("Llama-3.1-405B", "llama3.1-405b"),
        ("Mistral-7B-v0.1", "mistral-7b"),
        ("Mixtral 8x7B", "mixtral-8x7b"),
        ("Mixtral-8x22B-Instruct-v0.1", "mixtral-8x22b"),
        ("Qwen2.5-7B-Instruct", "qwen2.5-7b"),
        ("Qwen2 72B", "qwen2-72b"),
        ("DeepSeek-V3", "deepseek-v3"),
        ("deepseek-v2", "deepseek-v2"),
        ("gemma-2b-it", "gemma-2b"),
        ("Gemma 7B", "gemma-7b"),
        ("gemma-2-2b", "gemma2-2b"),
        ("Gemma 2 (27B)", "gemma2-27b"),
        ("Phi-2", "phi-2"),
        ("Phi-3-mini-4k-instruct", "phi-3-mini"),
        ("Llama 3 405B", "llama3.1-405b"),
        ("Qwen-1.8B", "qwen-1.8b"),
        ("Qwen-7B-Chat", "qwen-7b"),
        ("ViT-B/16", "vit-base"),
        ("ViT-L/14", "vit-large"),
        ("ViT-Huge", "vit-huge"),
        ("Chinchilla", "chinchilla-70b"),
    ],
)
def test_find_model_names(name: str, key: str) -> None:
    match = find_model(name)
    assert match.spec is not None, match.reason
    assert match.spec.key == key


@pytest.mark.parametrize(
    "name",
    [
        "RoBERTa-base", "GPT-3.5", "LLaMA 7B", "LLaMA 13B", "DistilBERT", "Transformer-XL",
        "GPT-2 (15B)", "flan-t5-base", "T5 v1.1 base", "mT5", "DeepSeek-V2-Lite", "GPT-3 Ada",
        "Qwen2.5-110B", "Qwen 7B", "Qwen1.5-7B", "Code Llama 7B", "llama.cpp",
        "meta-llama", "Chinese-LLaMA-7B", "Llama 4 Scout", "ViT-g/14", "Qwen2.5-VL-72B",
        "Qwen2.5-Coder-7B", "DeepSeek-R1-Distill-Llama-8B", "Llama Guard 7B",
    ],
)  # fmt: skip
def test_find_model_misses(name: str) -> None:
    match = find_model(name)
    assert match.spec is None
    assert match.reason


def test_ambiguous_name_lists_candidates() -> None:
    match = find_model("GPT-2")
    assert match.spec is None
    assert {c.key for c in match.candidates} == {
        "gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("text", "value"),
    [("1.5B", 1.5e9), ("7b", 7e9), ("124M", 124e6), ("70 亿", 7e9), ("32k", 32e3)],
)
def test_parse_count(text: str, value: float) -> None:
    printed = parse_count(text)
    assert printed is not None
    assert printed.value == pytest.approx(value)
    assert printed.text == text


def test_parse_count_refuses_non_counts() -> None:
    assert parse_count("14 GB") is None
    assert parse_count("GPT-2") is None


def test_size_in_name_skips_expert_sizes_and_joined_contexts() -> None:
    # Mixtral 8x7B's 7B is one expert's size; "-4k-" in a release name is its context.
    assert size_in_name("Mixtral 8x7B") is None
    found = size_in_name("Mixtral 8x7B (46.7B)")
    assert found is not None and found.text == "46.7B"
    assert size_in_name("Phi-3-mini-4k-instruct") is None
    found = size_in_name("Toy encoder (53K)")
    assert found is not None and found.value == 53e3


def test_size_in_name_keeps_the_printed_text() -> None:
    found = size_in_name("LLaMA-2 7B")
    assert found is not None and found.text == "7B"
    found = size_in_name("Llama-2-70b-hf")
    assert found is not None and found.text == "70b" and found.value == 70e9
    assert size_in_name("GPT-2 XL") is None


# ------------------------------------------------------------------ the table of number types


def test_every_storage_type_has_its_width_and_source() -> None:
    table = dtype_table()
    widths = {entry.name: entry.bits for entry in table.types}
    assert widths == {
        "fp32": 32, "fp16": 16, "bf16": 16, "fp8": 8, "int8": 8, "int4": 4, "nf4": 4, "fp4": 4,
    }  # fmt: skip
    for entry in table.types:
        assert entry.written[0] == entry.name
        assert entry.bytes == entry.bits / 8


@pytest.mark.parametrize(
    ("text", "name"),
    [("FP16", "fp16"), ("float16", "fp16"), ("half", "fp16"), ("BFloat16", "bf16"),
     ("4-bit", "int4"), ("8_bit", "int8"), ("NF4", "nf4"), ("float", "fp32")],
)  # fmt: skip
def test_a_type_is_found_by_any_of_its_names(text: str, name: str) -> None:
    found = dtype_table().find(text)
    assert found is not None and found.name == name


def test_unknown_types_are_not_guessed() -> None:
    assert dtype_table().find("fp12") is None
    assert dtype_table().find("int80") is None


def test_the_kind_and_the_recognisers_read_the_same_table() -> None:
    """Every name a lesson writes is recognised by both recognisers' patterns, and every type
    the recognisers can draft is a type the memory kind accepts, with the table's width."""
    typed = re.compile(TYPE_PATTERN, re.IGNORECASE)
    for entry in dtype_table().types:
        for name in entry.written:
            assert typed.fullmatch(name.upper())
            assert memory_tables._DTYPE.fullmatch(name)
            assert normalize_dtype(name) == entry.name
    # A prose word for a type is an alias for claims, never a name the recognisers look for.
    assert not typed.search("half a byte") and not memory_tables._DTYPE.search("float")


# --- loader validation: a broken entry is one error naming the file and the entry ----------

_GOOD_MODEL: dict[str, Any] = {
    "key": "toy-1b",
    "name": "Toy 1B",
    "family": "toy",
    "sizes": ["1B"],
    "params": "1B",
    "style": "llama",
    "layers": 16,
    "hidden": 2048,
    "heads": 16,
    "d_ff": 8192,
    "cite": "Hand-made config.json",
    "source": "a hand-made entry for loader tests, not a published model",
}


def _models(**changes: Any) -> dict[str, Any]:
    entry = copy.deepcopy(_GOOD_MODEL)
    for field, value in changes.items():
        if value is None:
            entry.pop(field, None)
        else:
            entry[field] = value
    return {"families": {"toy": {"name": "Toy", "pattern": "toy"}}, "models": [entry]}


def test_a_good_test_entry_loads() -> None:
    table = build_model_table(_models(), "toy.yaml")
    assert table.models[0].d_head == 128


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"n_layers": 16}, "unknown field 'n_layers'"),
        ({"source": None}, "no source"),
        ({"source": "  "}, "no source"),
        ({"heads": 24}, "give the configuration's head_dim"),
        ({"kv_heads": 6}, "6 kv_heads do not divide 16 heads"),
        ({"kv_heads": 16}, "only given when it is below heads"),
        ({"experts": 8}, "experts and experts_per_token go together"),
        ({"experts": 8, "experts_per_token": 9, "active_params": "0.5B"}, "exceeds experts 8"),
        ({"experts": 8, "experts_per_token": 2}, "states its active_params"),
        ({"experts": 8, "experts_per_token": 2, "active_params": "2B"}, "is not below 1B"),
        ({"shared_experts": 1}, "only apply to mixture-of-experts"),
        ({"kv_lora_rank": 512}, "needs all of q_lora_rank"),
        ({"params": "one billion"}, "expected a count"),
        ({"sizes": ["1 B!"]}, "neither a count nor a lower-case word"),
        ({"also": {"heads": [16]}}, "repeats the entry's own value"),
        ({"also": {"width": [1]}}, "names no column"),
        ({"family": "other"}, "unknown family 'other'"),
        ({"sliding_window": 8192, "context": 4096}, "exceeds context 4096"),
    ],
)
def test_broken_model_entries_name_file_and_entry(changes: dict[str, Any], expected: str) -> None:
    with pytest.raises(DataError) as caught:
        build_model_table(_models(**changes), "toy.yaml")
    message = str(caught.value)
    assert message.startswith("toy.yaml: entry 'toy-1b'"), message
    assert expected in message, message


def test_explicit_head_dim_allows_heads_times_width_other_than_hidden() -> None:
    # Gemma-style: 24 heads of 128 = 3072 is not hidden 2048, allowed only with head_dim.
    table = build_model_table(_models(heads=24, head_dim=128), "toy.yaml")
    assert table.models[0].d_head == 128


@pytest.mark.parametrize(
    ("family", "expected"),
    [
        ({"name": "Toy", "pattern": "toy("}, "family 'toy': pattern"),
        ({"name": "Toy", "pattern": "toy", "size": 1}, "family 'toy': unknown field 'size'"),
    ],
)
def test_broken_families_are_named(family: dict[str, Any], expected: str) -> None:
    data = _models()
    data["families"]["toy"] = family
    with pytest.raises(DataError) as caught:
        build_model_table(data, "toy.yaml")
    assert expected in str(caught.value)


def test_a_bare_entry_must_be_of_its_family() -> None:
    data = _models()
    data["families"]["toy"]["bare"] = "gpt2-small"
    with pytest.raises(DataError, match="family 'toy': bare 'gpt2-small' is not its entry"):
        build_model_table(data, "toy.yaml")
    data["families"]["toy"]["bare"] = "toy-1b"
    assert build_model_table(data, "toy.yaml").find("Toy").spec is not None


def test_duplicate_keys_and_bad_shapes_are_errors() -> None:
    data = _models()
    data["models"].append(copy.deepcopy(data["models"][0]))
    with pytest.raises(DataError, match="duplicate keys"):
        build_model_table(data, "toy.yaml")
    with pytest.raises(DataError, match=r"toy\.yaml: expected a mapping"):
        build_model_table([], "toy.yaml")
    with pytest.raises(DataError, match=r"toy\.yaml: models: expected a list"):
        build_model_table({"families": {}, "models": {"a": 1}}, "toy.yaml")
