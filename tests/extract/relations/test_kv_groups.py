"""Relation kv_groups: query heads per KV head (n_q / n_kv) and the cache's shrink factor with
fewer KV heads (n_kv before / after), from first principles (Ainslie et al. 2023; Shazeer 2019)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

GQA = "A decoder with 48 query heads and 6 KV heads of dimension 128.\n\n"


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text)]


def test_query_heads_per_kv_head(scan: Scan) -> None:
    assert _verdicts(scan, GQA + "Each KV head serves 8 query heads.\n") == ["pass"]
    (wrong,) = scan(GQA + "Each KV head serves 6 query heads.\n")
    assert wrong.verdict == "fail"
    assert "48 / 6 is 8" in wrong.message and "heads 48 (line 1)" in wrong.message
    # in Chinese, counts and group on one line
    zh = "32 个查询头共享 4 个 KV 头，每个 KV 头服务 4 个查询头。\n"
    (wrong_zh,) = scan(zh)
    assert wrong_zh.verdict == "fail" and "32 / 4 is 8" in wrong_zh.message


def test_a_group_size_without_both_counts_is_not_drafted(scan: Scan) -> None:
    assert scan("Each KV head serves 8 query heads.\n") == []  # which model?
    # the group size is not the model's head count: no heads stated, nothing to divide
    assert scan("The model has 6 KV heads; each KV head serves 8 query heads.\n") == []


MHA = "Our 24-layer model has 16 heads of dimension 64 and caches K and V for every head.\n\n"


def test_the_shrink_factor_of_fewer_kv_heads(scan: Scan) -> None:
    right = MHA + "Switching to MQA (one KV head) shrinks the KV cache 16×.\n"
    assert _verdicts(scan, right) == ["pass"]
    (wrong,) = scan(MHA + "With 4 KV heads (GQA) the KV cache shrinks by a factor of 8×.\n")
    assert wrong.verdict == "fail"
    assert "16 / 4 is 4" in wrong.message and "after kv_heads 4 (line 3)" in wrong.message


def test_a_named_model_gives_the_kv_heads_before_the_change(scan: Scan) -> None:
    # LLaMA-2 7B caches all 32 heads (multi-head attention); MQA keeps 1.
    text = "If LLaMA-2 7B switched to MQA with 1 KV head, its KV cache would be 16× smaller.\n"
    (wrong,) = scan(text)
    assert wrong.verdict == "fail"
    assert "32 / 1 is 32" in wrong.message and "published configuration" in wrong.message


def test_factors_of_other_things_are_not_drafted(scan: Scan) -> None:
    assert scan(MHA + "MQA makes decoding 3× faster.\n") == []  # not the cache
    assert scan(MHA + "The KV cache shrinks 4× with int4 storage.\n") == []  # no new KV heads
