"""Relation kv_cache: 2 · L · n_kv · d_head · bytes · tokens · batch, from first principles."""

from __future__ import annotations

from checkers.finding import Finding
from tests.extract.relations.conftest import Scan

MODEL = "A decoder with 24 layers and 16 heads of dimension 64, cached in fp16.\n\n"
# 2 (K, V) × 16 heads × 64 × 2 bytes = 4096 bytes per token per layer; × 24 = 98,304 per token.


def test_per_token_per_layer_holds_and_says_where_inputs_were_read(scan: Scan) -> None:
    (finding,) = scan(MODEL + "KV cache per token per layer: 4096 bytes.\n")
    assert finding.verdict == "pass"
    assert "heads 16 (line 1)" in finding.message or "line 1" in finding.message


def test_heads_left_out_fails_with_the_derivation(scan: Scan) -> None:
    (finding,) = scan(MODEL + "KV cache per token per layer = 2 * 64 * 2 = 256 bytes\n")
    assert finding.verdict == "fail"
    assert "16 KV heads" in finding.message and "4096 bytes" in finding.message
    assert "head_dim 64 (line 1)" in finding.message
    assert "per token per layer (the statement)" in finding.message
    assert finding.line == 3


def test_per_token_spans_every_layer(scan: Scan) -> None:
    ok = scan(MODEL + "The KV cache per token is 98,304 bytes.\n")
    assert [f.verdict for f in ok] == ["pass"]
    (counted_once,) = scan(MODEL + "The KV cache per token is 4096 bytes.\n")
    assert counted_once.verdict == "fail"
    assert "24 layers" in counted_once.message


def test_a_sequence_length_on_the_line_and_binary_prefixes(scan: Scan) -> None:
    # 98,304 × 2048 = 201,326,592 bytes = 192 MiB = 201 MB: both readings hold.
    assert [f.verdict for f in scan(MODEL + "For 2048 tokens the KV cache needs 192 MB.\n")] == [
        "pass"
    ]
    assert [f.verdict for f in scan(MODEL + "For 2048 tokens the KV cache needs 201 MB.\n")] == [
        "pass"
    ]
    (wrong,) = scan(MODEL + "For 2048 tokens the KV cache needs 96 MB.\n")
    assert wrong.verdict == "fail"


def test_grouped_query_attention_caches_only_the_kv_heads(scan: Scan) -> None:
    gqa = "A model of 32 layers, 32 query heads, 8 KV heads, head_dim 128, bf16.\n\n"
    # 2 × 32 × 8 × 128 × 2 = 131,072 bytes = 128 KiB per token.
    assert [f.verdict for f in scan(gqa + "KV cache per token: 128 KB\n")] == ["pass"]
    (mha_size,) = scan(gqa + "KV cache per token: 512 KB\n")
    assert mha_size.verdict == "fail"
    assert "grouped-query attention" in mha_size.message


def test_multi_query_attention_caches_one_head(scan: Scan) -> None:
    mqa = "With MQA, 12 layers and 12 heads of head dim 64 in fp32.\n\n"
    # 2 × 12 × 1 × 64 × 4 = 6144 bytes per token.
    assert [f.verdict for f in scan(mqa + "KV cache per token = 6144 bytes\n")] == ["pass"]
    assert [f.verdict for f in scan(mqa + "KV cache per token = 73728 bytes\n")] == ["fail"]


def test_chinese_per_layer_qualifier(scan: Scan) -> None:
    text = "模型共 16 层，8 个头，每个头 64 维，用 fp16 存储，序列长度 1024。\n\n"
    # 每层：2 × 8 × 64 × 2 × 1024 = 2,097,152 字节 = 2 MiB
    assert [f.verdict for f in scan(text + "每层的 KV 缓存为 2 MB\n")] == ["pass"]
    assert [f.verdict for f in scan(text + "每层的 KV 缓存为 32 MB\n")] == ["fail"]


def test_a_list_under_a_kv_cache_lead_in(scan: Scan) -> None:
    text = MODEL + "KV cache size:\n\n- per token per layer: 4096 bytes\n- per token: 96 KB\n"
    assert [f.verdict for f in scan(text)] == ["pass", "pass"]


def test_statements_that_do_not_say_what_they_give_are_not_drafted(scan: Scan) -> None:
    assert scan(MODEL + "The download is 300 MB.\n") == []  # not a cache
    assert scan(MODEL + "Weights plus KV cache take 2 GB in total.\n") == []  # a total
    assert scan("KV cache per token: 4096 bytes.\n") == []  # no model in the section
    assert scan(MODEL + "# Other section\n\nKV cache per token per layer: 9 bytes\n") == []
    # no dtype named: the bytes per number are unknown
    assert scan("24 layers, 16 heads, head_dim 64.\n\nKV cache per token: 1 KB\n") == []


def test_concurrent_users_are_the_batch(scan: Scan) -> None:
    # 98,304 B per token × 1024 tokens × 10 users = 1,006,632,960 B = 0.94 GiB = 1.0 GB
    text = MODEL + "With 10 concurrent users at 1024 tokens each, the KV cache needs 1.0 GB.\n"
    assert [f.verdict for f in scan(text)] == ["pass"]
    wrong = MODEL + "With 10 concurrent users at 1024 tokens each, the KV cache needs 0.1 GB.\n"
    (finding,) = scan(wrong)
    assert finding.verdict == "fail" and "10 sequences" in finding.message


def test_a_size_in_a_later_sentence_is_not_the_caches(scan: Scan) -> None:
    text = MODEL + "Compute the KV cache at 1024 tokens. Four cards (24GB each = 96GB) hold it.\n"
    assert scan(text) == []


def test_a_formula_then_its_numbers_and_layers_counted_twice(scan: Scan) -> None:
    text = (
        "# Cache\n\n```\nKV = batch_size × seq_len × layers × hidden_size × 2 bytes\n"
        "KV = 1 × 1024 × 24 × 2048 × 2 = 100MB (per layer)\n"
        "total KV cache = 100MB × 24 = 2.4GB\n```\n"
    )
    # K and V of width d: per layer 2 × 2048 × 2 × 1024 = 8.4 MB; all 24 layers 201 MB.
    per_layer, total = (f for f in scan(text) if f.kind == "memory")
    assert per_layer.verdict == "fail" and "per layer (the statement)" in per_layer.message
    assert "K and V as wide as the model" in per_layer.message
    assert total.verdict == "fail" and "24 layers" in total.message
    right = text.replace("100MB (per layer)", "8.4MB (per layer)").replace(
        "100MB × 24 = 2.4GB", "8.4MB × 24 = 201MB"
    )
    assert [f.verdict for f in scan(right) if f.kind == "memory"] == ["pass", "pass"]


def test_no_head_count_under_grouped_query_attention_is_not_drafted(scan: Scan) -> None:
    text = (
        "# GQA\n\nWith GQA, 24 layers and hidden size 2048 in fp16.\n\nKV cache per token = 96 KB\n"
    )
    assert scan(text) == []


def test_a_worked_calculation_over_several_lines_keeps_its_qualifier(scan: Scan) -> None:
    text = (
        MODEL
        + "```text\nKV bytes/token = 2 × 24 × 16 × 64 × 2\n               = 98,304 bytes\n```\n"
    )
    assert [f.verdict for f in scan(text) if f.kind == "memory"] == ["pass"]


def test_a_line_that_names_no_token_count_may_be_per_token(scan: Scan) -> None:
    text = MODEL + "A sequence of 512 tokens.\n\nIts KV cache: 2 × 24 × 16 × 64 × 2 = 96 KiB\n"
    assert [f.verdict for f in scan(text) if f.kind == "memory"] == ["pass"]


def test_a_model_named_on_the_line_does_not_give_the_token_count(scan: Scan) -> None:
    # LLaMA-2 7B: 32 layers × 32 heads × 128; per token 2 × 32 × 4096 × 2 = 524,288 B = 512 KiB
    text = "# Cache\n\nIn fp16, for LLaMA-2 7B the KV cache is 2 × 32 × 4096 × 2 = 512 KiB.\n"
    assert [f.verdict for f in scan(text) if f.kind == "memory"] == ["pass"]


def test_a_line_about_another_named_model_uses_that_models_configuration(scan: Scan) -> None:
    text = (
        "# Two models\n\nLLaMA-2 13B has 40 layers and 40 heads of dimension 128, in fp16.\n\n"
        "For LLaMA-2 7B the KV cache per token is 2 × 32 × 4096 × 2 = 512 KiB.\n"
    )
    assert [f.verdict for f in scan(text) if f.kind == "memory"] == ["pass"]


# A section that names no storage type: the width is read from the statement's own product.
UNTYPED = "A decoder with 24 layers, 16 query heads, 4 KV heads and head dimension 64.\n\n"
# 2 (K, V) × 4 KV heads × 64 × 2 bytes = 1,024 bytes per token per layer


def test_the_width_per_value_may_be_a_factor_of_the_statements_product(scan: Scan) -> None:
    (right,) = scan(
        UNTYPED + "K and V per token and per layer: 2 × 4 × 64 × 2 bytes = 1,024 bytes\n"
    )
    assert right.verdict == "pass" and "bytes_per_value 2 (line 3)" in right.message
    # one KV head's K and V: the 4 KV heads are left out
    (wrong,) = scan(UNTYPED + "K and V per token and per layer: 2 × 64 × 2 bytes = 256 bytes\n")
    assert wrong.verdict == "fail"
    assert "is 1024 bytes" in wrong.message and "the 4 KV heads are left out" in wrong.message
    # no type and no width on the line: which bytes per value is not stated
    assert scan(UNTYPED + "K and V per token and per layer come to 1,024 bytes.\n") == []


def test_a_qualifier_of_a_sentence_wrapped_over_three_lines(scan: Scan) -> None:
    text = UNTYPED + (
        "So for every\ntoken and every layer we keep K and V of one head:\n"
        "2 × 64 × 2 bytes = 256 bytes per layer.\n"
    )
    (wrong,) = scan(text)
    assert wrong.verdict == "fail"
    assert "per token per layer (the statement)" in wrong.message


def test_a_display_formula_is_read_as_the_reader_sees_it(scan: Scan) -> None:
    lead = UNTYPED + "The KV cache of one token:\n\n"
    (right,) = scan(
        lead
        + "$$2 \\times 24 \\times 4 \\times 64 \\times 2\\ \\text{bytes}"
        + " = 24{,}576\\ \\text{bytes}$$\n"
    )
    assert right.verdict == "pass"
    assert "24{,}576" in right.quote  # the quote is the source, LaTeX and all
    # the leading 2 for K and V left out: half the size
    (wrong,) = scan(
        lead + "$$24 \\times 4 \\times 64 \\times 2\\ \\text{bytes} = 12{,}288\\ \\text{bytes}$$\n"
    )
    assert wrong.verdict == "fail"
    assert "is 24576 bytes" in wrong.message and "the 2 for one K and one V" in wrong.message


TWO_MODELS = (
    "# KV cache sizes\n\n"
    "A small model: 12 layers, 12 heads, head dimension 64, in fp16.\n\n"
    "Llama 2 70B has 80 layers and GQA with 8 KV heads of dimension 128; its KV cache at a\n"
    "4,096-token context is 1.34 GB.\n\n"
)
# Llama 2 70B: 2 × 80 × 8 × 128 × 2 bytes = 327,680 bytes per token; × 4096 = 1.342 GB.
# With multi-head attention (64 heads): 8× that, 10.74 GB.


def test_a_multi_head_variant_of_the_models_cache(scan: Scan) -> None:
    right = (
        TWO_MODELS
        + "**GQA is what keeps the KV cache small.** MHA with 64 heads would be 10.7 GB.\n"
    )
    assert [f.verdict for f in scan(right)][-1] == "pass"
    wrong = (
        TWO_MODELS + "**GQA is what keeps the KV cache small.** MHA with 64 heads would be 4 GB.\n"
    )
    finding = scan(wrong)[-1]
    assert finding.verdict == "fail"
    assert "64 KV heads" in finding.message and "80 layers" in finding.message
    assert "LLaMA-2 70B's published configuration" in finding.message


def test_the_model_talked_about_is_the_one_named_since_the_last_stated_value(scan: Scan) -> None:
    # a value stated after the named model (the 24-layer one) is another model: not drafted
    later = TWO_MODELS + (
        "Take a 24-layer model with 16 heads of dimension 64: serving 8 sequences of\n"
        "1,024 tokens costs 0.4 GB of KV cache.\n"
    )
    assert [f for f in scan(later) if "0.4 GB" in f.quote] == []


def test_a_model_given_by_its_size_is_the_one_of_that_size_the_lesson_names(scan: Scan) -> None:
    text = (
        "# Quantization\n\nLlama 2 70B in fp16 needs 140 GB for its weights.\n\n"
        "## Sensitivity\n\nFor a 70B model at a 4,096-token context, the KV cache alone\n"
        "is {} in fp16.\n"
    )

    def cache(found: list[Finding]) -> list[Finding]:
        return [f for f in found if f.kind == "memory" and f.message.startswith("KV cache")]

    assert [f.verdict for f in cache(scan(text.format("1.34 GB")))] == ["pass"]
    (wrong,) = cache(scan(text.format("5 GB")))
    assert wrong.verdict == "fail" and "named on line 3" in wrong.message
    # a size no model of the lesson has: which configuration is not stated
    assert cache(scan(text.replace("Llama 2 70B", "Our model").format("5 GB"))) == []


def test_a_per_token_unit_after_the_size_and_a_second_clause_for_a_context(scan: Scan) -> None:
    # 98,304 bytes per token ≈ 0.098 MB; "about 0.2 GB per 2k tokens" is another clause
    text = MODEL + "The KV cache is ≈ 0.098 MB per token, i.e. about 0.2 GB per 2k tokens.\n"
    assert "fail" not in [f.verdict for f in scan(text)]
    wrong = MODEL + "The KV cache is ≈ 0.049 MB per token, i.e. about 0.1 GB per 2k tokens.\n"
    failing = [f for f in scan(wrong) if f.verdict == "fail"]
    assert failing and "0.098" in failing[0].message


def test_several_sequences_counted_in_words_are_not_read_as_one(scan: Scan) -> None:
    # Eight 2k sequences: 8 × 2048 × 98,304 bytes = 1.61 GB; batch 1 would be a wrong reading
    lead = MODEL + "Rules of thumb for the KV cache:\n\n"
    assert scan(lead + "- Eight 2k sequences need ≈ 1.6 GB.\n") == []
    assert scan(lead + "- 八条 2k 的序列需要约 1.6 GB。\n") == []
    # in digits the batch is read and the size checked
    (digits,) = scan(lead + "- A batch of 8 sequences of 2048 tokens needs ≈ 3.2 GB.\n")
    assert digits.verdict == "fail" and "1.6" in digits.message


def test_a_batch_named_in_the_next_sentence_is_not_the_per_token_figures(scan: Scan) -> None:
    # 98,304 bytes per token = 96 KiB; the 12 sequences belong to the sentence after it
    text = MODEL + "The KV cache holds 96 KiB per token. A batch of 12 sequences waits behind it.\n"
    assert [f.verdict for f in scan(text)] == ["pass"]
    # the same shape with a wrong per-token size still fails (batch 1, as the sentence reads)
    wrong = (
        MODEL + "The KV cache holds 48 KiB per token. A batch of 12 sequences waits behind it.\n"
    )
    (finding,) = scan(wrong)
    assert finding.verdict == "fail" and "96" in finding.message
    # named in the size's own sentence, after another one, the batch still sizes the cache
    own = "Serving. With 10 concurrent users at 1024 tokens each, the KV cache needs 0.1 GB.\n"
    (finding,) = scan(MODEL + own)
    assert finding.verdict == "fail" and "10 sequences" in finding.message


def test_a_head_count_followed_by_each_heads_width_is_one_count(scan: Scan) -> None:
    # "8 KV heads of 128 dims" once read a second KV head count (128): the counts disagreed,
    # the stated 8 was dropped and every head of the named model was cached
    lesson = (
        "# Cache\n\nMistral-7B keeps keys and values in bf16 for 8 KV heads of 128 dims over 32"
        " layers, so per\ntoken it stores 2 × 32 × 8 × 128 × 2 = 131,072 bytes.\n"
    )
    assert [f.verdict for f in scan(lesson)] == ["pass"]
    (wrong,) = scan(lesson.replace("131,072", "262,144"))
    assert wrong.verdict == "fail" and "8 KV heads" in wrong.message
