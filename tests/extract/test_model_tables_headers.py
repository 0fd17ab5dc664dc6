"""``model_tables`` reads a header's field with every header pattern in one: the field is the
first pattern's, in order, that matches the header alone."""

from __future__ import annotations

import pytest

from checkers.extract.recognizers import model_tables

_HEADERS = [
    "Layers", "layer", "n_layers", "#  layers", "L", "d", "d_model", "Hidden size", "heads",
    "KV heads", "n_kv_heads", "head dim", "d/h", "FFN dim", "intermediate_size", "Vocab size",
    "词表大小", "Context length", "n_ctx", "上下文长度", "Params (B)", "size", "Model size",
    "Active params / token", "激活参数量", "Training tokens", "预训练 token 数", "Model",
    "Name", "foo", "", "**Layers**", "`d_ff`", "Heads (query)",
]  # fmt: skip


def _one_by_one(header: str) -> str | None:
    label = model_tables._label(header)
    return next(
        (field for field, pattern in model_tables._HEADERS.items() if pattern.match(label)), None
    )


@pytest.mark.parametrize("header", _HEADERS)
def test_one_pattern_reads_the_field_each_pattern_reads(header: str) -> None:
    assert model_tables._field(header) == _one_by_one(header)
