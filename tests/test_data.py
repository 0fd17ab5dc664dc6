"""The reference data loader and the integrity of ``checkers/data/models.yaml`` and
``checkers/data/dtypes.yaml``."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from checkers.data import (
    COLUMNS,
    ModelSpec,
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
        "transformer-big",
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
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(PUBLISHED))
def test_published_numbers(key: str) -> None:
    spec = model_table().by_key(key)
    assert spec is not None
    for column, value in PUBLISHED[key].items():
        assert spec.column(column) == value, f"{key}.{column}"


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_entry_has_a_source(spec: ModelSpec) -> None:
    assert spec.source.strip() and spec.cite.strip()
    # The short citation names an author-year or a released config file.
    assert any(word in spec.cite for word in ("et al.", "config.json"))


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_heads_divide_hidden_and_kv_heads_divide_heads(spec: ModelSpec) -> None:
    assert spec.hidden % spec.heads == 0
    assert spec.heads % spec.n_kv_heads == 0
    assert spec.head_dim * spec.heads == spec.hidden


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_columns_are_positive_integers(spec: ModelSpec) -> None:
    for column in COLUMNS:
        value = spec.column(column)
        assert value is None or (isinstance(value, int) and value > 0)
    assert spec.d_ff > spec.hidden


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_architecture_gives_the_stated_size(spec: ModelSpec) -> None:
    # The same ±10% the model_config kind allows: weight matrices + embeddings vs rounded names.
    counted = estimate(
        Architecture(
            spec.style, spec.layers, spec.hidden, spec.heads, spec.kv_heads, spec.d_ff,
            spec.context, spec.vocab,
        )
    ).total  # fmt: skip
    assert abs(counted - spec.params_value) <= 0.10 * spec.params_value, spec.key


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_entry_is_found_by_its_name_and_key(spec: ModelSpec) -> None:
    assert find_model(spec.name).spec == spec
    assert find_model(spec.key).spec == spec


@pytest.mark.parametrize("spec", MODELS, ids=_id)
def test_every_size_label_finds_its_entry(spec: ModelSpec) -> None:
    family = model_table().family(spec.family)
    for label in spec.sizes:
        assert find_model(f"{family.name.split(' ')[0]} {label}").spec == spec, label


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
    ],
)
def test_find_model_names(name: str, key: str) -> None:
    match = find_model(name)
    assert match.spec is not None, match.reason
    assert match.spec.key == key


@pytest.mark.parametrize(
    "name", ["RoBERTa-base", "GPT-3.5", "LLaMA 7B", "DistilBERT", "Transformer-XL", "GPT-2 (15B)"]
)
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
