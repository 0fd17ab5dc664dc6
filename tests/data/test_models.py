"""The model table's lookups against published values: a bare family name read with the
numbers printed beside it, a family name that is also a common noun, and values two sources
print differently (each from the source named in ``models.yaml``)."""

from __future__ import annotations

import pytest

from checkers.data import find_model, model_table
from checkers.numbers import parse_printed


def _resolve(name: str, size: str | None = None, **columns: str) -> str | None:
    printed = {column: parse_printed(value) for column, value in columns.items()}
    match = model_table().resolve(name, printed, parse_printed(size) if size else None)
    return match.spec.key if match.spec is not None else None


def test_gpt1_is_the_published_configuration() -> None:
    # Radford et al. 2018 Section 4.1; openai-gpt config.json.
    spec = find_model("GPT-1").spec
    assert spec is not None
    assert (spec.layers, spec.hidden, spec.heads, spec.d_ff, spec.context, spec.vocab) == (
        12, 768, 12, 3072, 512, 40478
    )  # fmt: skip
    assert find_model("openai-gpt").spec == spec


@pytest.mark.parametrize(
    ("name", "size", "columns", "key"),
    [
        ("GPT-2", "1.5B", {"layers": "48"}, "gpt2-xl"),  # the size names the entry
        ("GPT-2", None, {"layers": "36", "hidden": "1280"}, "gpt2-large"),  # the columns do
        ("GPT-2", None, {"layers": "48", "hidden": "6400", "heads": "25"}, "gpt2-xl"),  # 2 of 3
        ("BERT", None, {"vocab": "30,522"}, "bert-base"),  # every BERT publishes it
        ("GPT-2", None, {"hidden": "999"}, None),  # fits none, and they differ
        ("LLaMA-2", None, {"vocab": "32000"}, "llama2-7b"),  # one vocabulary for all three
        ("LLaMA-2", None, {"heads": "8"}, None),  # no entry has 8 heads; they differ
    ],
)
def test_a_bare_family_name_is_read_with_its_row(
    name: str, size: str | None, columns: dict[str, str], key: str | None
) -> None:
    assert _resolve(name, size, **columns) == key


def test_shared_values_name_the_family_not_an_entry() -> None:
    match = model_table().resolve("BERT", {"vocab": parse_printed("30,522")})
    assert match.shared and match.label == "BERT"
    assert not model_table().resolve("BERT-large", {}).shared


@pytest.mark.parametrize("name", ["transformer", "a Transformer block", "Transformer layers"])
def test_the_common_noun_transformer_names_no_model(name: str) -> None:
    match = find_model(name)
    assert match.spec is None and not match.candidates


@pytest.mark.parametrize(
    ("name", "key"),
    [("Transformer base", "transformer-base"), ("transformer (big)", "transformer-big")],
)
def test_the_papers_transformers_are_named_by_size(name: str, key: str) -> None:
    spec = find_model(name).spec
    assert spec is not None and spec.key == key


@pytest.mark.parametrize(
    ("key", "column", "printed", "holds"),
    [
        (
            "bert-base",
            "vocab",
            "30,000",
            True,
        ),  # Devlin et al. Section 3: "30,000 token vocabulary"
        ("bert-base", "vocab", "30,522", True),  # bert_config.json
        ("bert-base", "vocab", "32,000", False),
        ("llama3-8b", "context", "8192", True),  # model card: sequences of 8,192 tokens
        ("llama3-8b", "context", "128K", True),  # Dubey et al. 2024: up to 128K tokens
        ("llama3-8b", "context", "32K", False),
        ("qwen2.5-72b", "context", "32768", True),  # config.json
        ("qwen2.5-72b", "context", "128K", True),  # model card: full 131,072 tokens
        ("gpt1", "context", "1024", False),  # GPT-2's, not GPT-1's 512
    ],
)
def test_a_column_holds_any_published_value(
    key: str, column: str, printed: str, holds: bool
) -> None:
    spec = model_table().by_key(key)
    assert spec is not None
    assert spec.accepts(column, parse_printed(printed)) is holds


def test_a_value_under_the_wrong_header_is_named() -> None:
    spec = model_table().by_key("bert-base")
    assert spec is not None
    assert spec.other_column("hidden", 3072) == "d_ff"
    assert spec.other_column("hidden", 768) is None  # its own column
    assert spec.other_column("d_ff", 777) is None
