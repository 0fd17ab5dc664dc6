"""Tests of checkers.extract.scope: the named quantities of each lesson section."""

from __future__ import annotations

import pytest

from checkers.extract.document import parse_document
from checkers.extract.scope import ROLES, Quantity, Scope, scopes, section_scope


def _scope(text: str, section: int | None = None) -> Scope:
    found = scopes(parse_document(text))
    return found[section] if section is not None else next(iter(found.values()))


def _roles(text: str) -> list[tuple[str, str]]:
    return [(q.role, q.printed.text) for q in _scope(text).quantities if not q.published]


# --- prose, English and Chinese -------------------------------------------------------------


def test_english_prose_reads_each_role_from_its_words() -> None:
    text = (
        "The model has 40 layers and 40 heads of dimension 128 (hidden size 5120), kept in bf16.\n"
        "It uses 8 KV heads, a 16K context and a batch size of 2; the vocabulary size is 50,257.\n"
    )
    assert _roles(text) == [
        ("layers", "40"),
        ("heads", "40"),
        ("head_dim", "128"),
        ("hidden", "5120"),
        ("dtype", "2"),
        ("kv_heads", "8"),
        ("context", "16K"),
        ("batch", "2"),
        ("vocab", "50,257"),
    ]


def test_chinese_prose_reads_each_role_from_its_words() -> None:
    text = (
        "该模型共 48 层，64 个注意力头，隐藏维度为 6144，词表大小 65000，参数量 130 亿，用 fp16。\n"
    )
    assert _roles(text) == [
        ("layers", "48"),
        ("heads", "64"),
        ("hidden", "6144"),
        ("vocab", "65000"),
        ("params", "130 亿"),
        ("dtype", "2"),
    ]


def test_chinese_parameter_counts_run_on_into_the_next_word() -> None:
    # Chinese writes no space after the noun: "7B 模型生成…", "70 亿参数的模型" are counts too
    assert _roles("7B 模型生成一个 token 很快。\n") == [("params", "7B")]
    assert _roles("一个 70 亿参数的模型。\n") == [("params", "70 亿")]
    assert _roles("第 3 个模型很好。\n") == []  # an ordinal names no size


def test_a_learning_rate_schedule_is_read_from_its_words_in_prose_and_latex() -> None:
    text = (
        "Peak $\\eta_{max} = 6 \\times 10^{-4}$, floor $\\eta_{min} = 6\\times10^{-5}$, "
        "linear warmup over 1,500 steps, then cosine decay; $T = 30000$ steps in all.\n"
        "预热 500 步，总步数 20000，最小学习率 1e-5。\n"
    )
    assert [(q.role, round(q.printed.value, 9)) for q in _scope(text).quantities] == [
        ("peak_lr", 6e-4),
        ("min_lr", 6e-5),
        ("warmup_steps", 1500),
        ("total_steps", 30000),
        ("warmup_steps", 500),
        ("total_steps", 20000),
        ("min_lr", 1e-5),
    ]


def test_schedule_words_without_a_rate_or_a_count_of_steps_name_nothing() -> None:
    for text in (
        "The GPU's peak is 312 TFLOPS.\n",  # a throughput, not a learning rate
        "峰值显存 80 GB。\n",
        "warmup 占总步数的 20%。\n",  # a share, not a count of steps
        "The floor of the loss is 1.69.\n",  # not below 1: no rate
    ):
        assert [q.role for q in _scope(text).quantities if q.role.endswith(("lr", "steps"))] == []


def test_position_is_the_number_itself() -> None:
    scope = _scope("Intro line.\n\nA stack of 24 layers here.\n")
    (layers,) = scope.of("layers")
    assert (layers.line, layers.column, layers.source) == (3, 12, "prose")
    assert layers.written == "24 layers"
    assert layers.describe() == "layers 24 (line 3)"


def test_dtype_value_is_bytes_per_number_from_the_dtype_table() -> None:
    scope = _scope("Weights in int8, activations in float32.\n")
    assert [(q.dtype, q.value) for q in scope.of("dtype")] == [("int8", 1.0), ("fp32", 4.0)]


def test_counts_with_scale_words_need_a_role_word() -> None:
    assert _roles("A 13B model trained on 2T tokens with 4 active experts.\n") == [
        ("params", "13B"),
        ("tokens", "2T"),
        ("top_k", "4"),
    ]
    assert _roles("We bought 13B worth of chips.\n") == []


def test_moe_routing_reads_top_k_and_experts() -> None:
    assert _roles("Each token goes to 2 of 64 experts; routing is top-2.\n") == [
        ("top_k", "2"),
        ("experts", "64"),
        ("top_k", "2"),
    ]
    assert _roles("The layer has 16 个专家.\n") == [("experts", "16")]
    assert _roles("每个 token 激活 2 个专家。\n") == [("top_k", "2")]
    assert _roles("Each token is routed to 2 experts.\n") == [("top_k", "2")]


def test_bytes_per_value_memory_flops_and_throughput() -> None:
    text = "Each weight costs 2 bytes per parameter; the card has 80 GB and 989 TFLOPS.\n"
    roles = _roles(text)
    assert roles == [("bytes_per_value", "2 bytes"), ("memory", "80 GB"), ("peak_flops", "989")]
    assert _roles("Training took 3.1e23 FLOPs... no: 310 PFLOPs.\n") == [("flops", "310 PFLOPs")]


def test_gpus() -> None:
    assert _roles("Trained on 512 GPUs for a week.\n") == [("gpus", "512")]
    assert _roles("用 8 张卡训练。\n") == [("gpus", "8")]
    assert _roles("Serve it on 4 × A100.\n") == [("gpus", "4")]


# --- defined letters only ---------------------------------------------------------------------


def test_a_letter_names_a_role_only_where_the_text_defines_it() -> None:
    assert _roles("We set L = 24 and d = 2048.\n") == []
    defined = "Here L is the number of layers and d is the hidden size.\n\nL = 24, d = 2048.\n"
    assert _roles(defined) == [("layers", "24"), ("hidden", "2048")]
    assert _roles("Take the number of layers (N), so N = 12.\n") == [("layers", "12")]


def test_a_bare_d_beside_d_ff_in_one_clause_is_the_model_width() -> None:
    assert _roles("One block (d = 3072, d_ff = 8192) is wide.\n") == [
        ("hidden", "3072"),
        ("d_ff", "8192"),
    ]
    assert _roles("With $d_{ff} = 11008$ and $d = 4096$ per layer.\n")[::-1][0] == (
        "hidden",
        "4096",
    )
    # d alone, or d_ff in another sentence, defines nothing
    assert _roles("We take d = 64 here. The FFN has d_ff = 256.\n") == [("d_ff", "256")]


def test_role_words_after_their_count_take_no_second_number_after_of() -> None:
    # "8 KV heads of 64 dims": 8 is the count of KV heads; 64 is each head's width
    assert _roles("It keeps 4 KV heads of 64 dims each.\n") == [("kv_heads", "4")]
    assert _roles("The number of KV heads is 4.\n") == [("kv_heads", "4")]


def test_a_letter_followed_by_its_role_word() -> None:
    assert _roles("With L = 32 layers the stack is deep.\n") == [("layers", "32")]


def test_a_definition_holds_only_within_its_section() -> None:
    text = "# One\n\nwhere d is the hidden size.\n\n# Two\n\nd = 512 here.\n"
    assert [q.role for q in _scope(text, section=2).quantities] == []


def test_lora_rank_needs_lora_or_rank_words() -> None:
    assert _roles("Adapters with LoRA at r = 16 on q and v.\n") == []  # r not defined as a rank
    assert _roles("LoRA rank r = 16 on q and v.\n") == [("lora_rank", "16")]
    assert _roles("A rank of 8 suffices.\n") == [("lora_rank", "8")]
    assert _roles("r = 16 here.\n") == []


# --- configs, code and tables ---------------------------------------------------------------


def test_config_block_keys() -> None:
    text = (
        "```yaml\nnum_hidden_layers: 28\nnum_attention_heads: 24\nnum_key_value_heads: 4\n"
        "hidden_size: 3072\nintermediate_size: 8192\nvocab_size: 128256\n```\n"
    )
    scope = _scope(text)
    assert [(q.role, q.value, q.source) for q in scope.quantities] == [
        ("layers", 28, "code"),
        ("heads", 24, "code"),
        ("kv_heads", 4, "code"),
        ("hidden", 3072, "code"),
        ("d_ff", 8192, "code"),
        ("vocab", 128256, "code"),
    ]


def test_json_and_code_assignments() -> None:
    text = (
        '```json\n{"n_layer": 12, "n_head": 12}\n```\n\n```python\nn_heads = 16\n'
        "head_dim = 64\nbatch_size = 8  # per device\nx = 3\n```\n"
    )
    assert _roles(text) == [
        ("layers", "12"),
        ("heads", "12"),
        ("heads", "16"),
        ("head_dim", "64"),
        ("batch", "8"),
    ]


def test_table_columns_by_header_and_rows_kept_apart() -> None:
    text = (
        "| Model | Layers | Hidden size | 头数 |\n|---|---|---|---|\n"
        "| a | 6 | 512 | 8 |\n| b | 12 | 768 | 12 |\n"
    )
    scope = _scope(text)
    assert [(q.role, q.value, q.row) for q in scope.quantities] == [
        ("layers", 6, 3),
        ("hidden", 512, 3),
        ("heads", 8, 3),
        ("layers", 12, 4),
        ("hidden", 768, 4),
        ("heads", 12, 4),
    ]
    assert scope.value("layers") is None  # many rows: no one value of the section


def test_transposed_table_of_role_and_value() -> None:
    text = "| 参数 | 值 |\n|---|---|\n| 层数 | 36 |\n| 隐藏维度 | 2560 |\n"
    assert [(q.role, q.value) for q in _scope(text).quantities] == [
        ("layers", 36),
        ("hidden", 2560),
    ]


# --- models named ---------------------------------------------------------------------------


def test_a_named_model_brings_its_published_configuration() -> None:
    scope = _scope("We size the cache for Llama 2 70B.\n")
    layers = scope.value("layers")
    assert layers is not None and layers.value == 80 and layers.published
    kv = scope.value("kv_heads")
    assert kv is not None and kv.value == 8
    assert "published configuration, named on line 1" in layers.describe()


def test_what_the_lesson_states_comes_before_the_published_value() -> None:
    scope = _scope("Llama 2 70B, but our toy version has 4 layers.\n")
    chosen = scope.value("layers")
    assert chosen is not None and chosen.value == 4 and not chosen.published


def test_disagreeing_statements_give_no_value() -> None:
    scope = _scope("One model has 12 layers; another has 24 layers.\n")
    assert scope.value("layers") is None
    assert scope.value("layers", before=0) is None


# --- what must not be read ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The 4096 in the figure is arbitrary.\n",
        "Look at layer 5 and head 3 of the network.\n",
        "第 5 层的注意力很特别。\n",
        "In 2017 the paper appeared; see section 32.\n",
        "GPT-2 and A100 are names, not quantities: 2 A100s.\n",
        "The product 32 × 128 × 2 = 8192.\n",
        "The sum of 12 and 24 is 36.\n",
    ],
)
def test_numbers_without_role_words_are_not_read(text: str) -> None:
    assert [q for q in _scope(text).quantities if q.role not in ("dtype",)] == [] or all(
        q.published for q in _scope(text).quantities
    )


def test_roles_are_the_documented_ones() -> None:
    text = (
        "32 layers, 32 heads, 8 KV heads, hidden size 4096, head dim 128, FFN size 11008, "
        "vocab size 32000, context length 4096, batch size 1, fp16, 2 bytes per value, "
        "7B parameters, 2T tokens, 80 GB, 8 GPUs, rank 8, 8 experts, top-2.\n"
        "Peak lr 3e-4, warmup over 500 steps, total steps 10,000, then a floor of 1e-5.\n"
    )
    found = {q.role for q in _scope(text).quantities}
    assert found <= set(ROLES)
    assert found == set(ROLES) - {
        "expert_d_ff",
        "expert_params",
        "active_params",
        "shared_params",
        "flops",
        "peak_flops",
    }


def test_shared_parameters_of_a_mixture_of_experts() -> None:
    found = _scope("16 experts of 0.5B each and 1.2B shared parameters; 共享参数 12 亿.\n")
    shared = [q.printed.text for q in found.quantities if q.role == "shared_params"]
    assert shared == ["1.2B", "12 亿"]
    # a count that is not said to be shared is the model's
    assert [q.role for q in _scope("1.2B parameters\n").quantities] == ["params"]


def test_quantity_is_frozen() -> None:
    (quantity,) = _scope("6 layers\n").of("layers")
    assert isinstance(quantity, Quantity)
    with pytest.raises(AttributeError):
        quantity.role = "heads"  # type: ignore[misc]


def test_chinese_symbol_definitions() -> None:
    text = "设层数 L，隐藏维度 d。\n\n取 L = 30，d = 3200。\n"
    assert _roles(text) == [("layers", "30"), ("hidden", "3200")]


def test_section_scope_is_the_scope_of_that_section_only() -> None:
    document = parse_document("# A\n\n12 layers\n\n# B\n\n24 layers\n")
    one = section_scope(document, 2)
    assert [q.value for q in one.of("layers")] == [24]
    assert one is section_scope(document, 2)  # read once
    assert scopes(document)[1].value("layers") is not None
    assert section_scope(document, 7).quantities == ()


def test_an_identifier_inside_an_expression_is_an_operand() -> None:
    assert _roles("head_dim = hidden / num_heads = 96\n") == []
    assert _roles("num_heads = 12\n") == [("heads", "12")]


def test_a_lower_case_k_scales_a_context() -> None:
    (context,) = _scope("Trained at 128k context.\n").of("context")
    assert context.value == 128_000 and context.unit == "k"


def test_a_product_in_numbers_takes_the_roles_of_the_formula_above_it() -> None:
    text = (
        "```\nmem = batch_size × seq_len × layers × hidden_size × 2 bytes\n"
        "mem = 4 × 512 × 6 × 256 × 2 = 6MB\n```\n"
    )
    scope = _scope(text)
    bound = [(q.role, q.value) for q in scope.quantities if q.line == 3 and q.role != "memory"]
    assert bound == [
        ("batch", 4),
        ("context", 512),
        ("layers", 6),
        ("hidden", 256),
        ("bytes_per_value", 2),
    ]
    assert "the formula on line 2" in scope.of("layers")[0].written


def test_a_product_that_is_not_the_formulas_binds_nothing() -> None:
    text = "```\nmem = batch_size × layers × 2\nmem = 4 × 6 × 3 = 72\n```\n"
    assert [q.role for q in _scope(text).quantities] == []
    other = "```\nmem = batch_size × layers\nsize = 4 × 6 = 24\n```\n"
    assert [q.role for q in _scope(other).quantities] == []


def test_a_configuration_printed_in_one_section_is_the_lessons() -> None:
    text = (
        "# Config\n\n```python\nhidden_size=1024\nmoe_intermediate_size=512\n```\n\n"
        "# Accounting\n\nThe hidden size matters, and layers too.\n"
    )
    document = parse_document(text)
    later = section_scope(document, 2)
    hidden = later.value("hidden")
    assert hidden is not None and hidden.value == 1024 and hidden.assigned
    assert later.value("expert_d_ff") is not None
    prose = parse_document("# A\n\nhidden size 1024\n\n# B\n\ntext\n")
    assert section_scope(prose, 2).value("hidden") is None  # prose stays in its section


def test_an_operand_after_role_words_is_not_the_roles_value() -> None:
    assert _roles("每个头 ５１２ ÷ ８ ＝ ６４ 维\n") == []
    assert _roles("hidden size 1024 / 16 heads\n") == [("heads", "16")]


def test_a_diffusion_schedule_is_not_a_learning_rate() -> None:
    text = "A linear schedule from beta_min = 0.0001 to beta_max = 0.02 over T = 1000 steps.\n"
    assert [q.role for q in _scope(text).quantities if q.role.endswith("lr")] == []
