"""Relations weights_memory and training_memory: N · bytes, and mixed-precision Adam training
(2 + 2 + 4 + 4 + 4 = 16 bytes per parameter, Micikevicius et al. 2018; ZeRO §3)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

MODEL = "# Sizing a 3B model\n\nOur model has 3B parameters.\n\n"


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text)]


def test_weights_in_a_type_named_on_the_line(scan: Scan) -> None:
    assert _verdicts(scan, MODEL + "In bf16 the weights take 6 GB.\n") == ["pass"]
    assert _verdicts(scan, MODEL + "In int4 the weights take 1.5 GB.\n") == ["pass"]
    (wrong,) = scan(MODEL + "In fp32 the weights take 6 GB.\n")
    assert wrong.verdict == "fail"
    assert "params 3B (line " in wrong.message and "fp32 (line 5)" in wrong.message


def test_weights_binary_reading_is_allowed_when_the_lesson_never_writes_gib(scan: Scan) -> None:
    # 3e9 × 2 = 6e9 bytes = 5.59 GiB
    assert _verdicts(scan, MODEL + "In fp16 the weights take 5.6 GB.\n") == ["pass"]


def test_weights_of_a_named_model_use_its_published_size(scan: Scan) -> None:
    text = "# Llama 2 70B\n\nServing Llama 2 70B.\n\nIn int8 the weights take 35 GB.\n"
    (finding,) = scan(text)
    assert finding.verdict == "fail" and "published configuration" in finding.message


def test_weights_relation_leaves_other_lines_alone(scan: Scan) -> None:
    assert scan(MODEL + "The weights take 6 GB.\n") == []  # no type: which bytes?
    assert scan(MODEL + "fp16 vs int8: 6 GB vs 3 GB of weights.\n") == []  # two types
    assert scan(MODEL + "The fp16 KV cache takes 6 GB.\n") == []
    assert scan("# Other\n\nIn fp16 the weights take 6 GB.\n") == []  # no parameter count
    # two sizes on the line: the type may belong to either (here to the 6 GB one)
    assert scan(MODEL + "Served in 8 bits:\n\n- Weights: 3 GB (from 6 GB in bf16).\n") == []


def test_training_components_and_total(scan: Scan) -> None:
    text = (
        MODEL
        + "Training with Adam in mixed precision:\n\n| Part | Memory |\n|---|---|\n"
        + "| Gradients (bf16) | 6 GB |\n| FP32 master copy | 12 GB |\n| Adam m and v | 24 GB |\n"
        + "| Total | 48 GB |\n"
    )
    # The total row names no component and no parameter count: which parts it sums is the
    # table's, and it is left alone.
    assert _verdicts(scan, text) == ["pass", "pass", "pass"]


def test_a_total_that_names_the_master_copy_but_leaves_it_out_fails(scan: Scan) -> None:
    text = MODEL + "Mixed precision: weights + gradients + fp32 master copy + Adam states = 36 GB\n"
    (finding,) = scan(text)
    assert finding.verdict == "fail"
    assert "2 + 2 + 4 + 4 + 4" in finding.message and "fp32 master copy 4" in finding.message
    fixed = (
        MODEL + "Mixed precision: weights + gradients + fp32 master copy + Adam states = 48 GB\n"
    )
    assert _verdicts(scan, fixed) == ["pass"]
    # Without the master copy, 12 bytes per parameter is right for what the line names.
    without = MODEL + "Mixed precision: weights + gradients + Adam states = 36 GB\n"
    assert _verdicts(scan, without) == ["pass"]


def test_a_total_that_names_no_component_is_read_under_each_convention(scan: Scan) -> None:
    for size in ("48 GB", "54 GB", "60 GB"):  # 16, 18, 20 bytes per parameter
        line = f"Mixed-precision Adam training of a 3B model needs {size}.\n"
        assert _verdicts(scan, MODEL + line) == ["pass"], size
    (wrong,) = scan(MODEL + "Mixed-precision Adam training of a 3B model needs 24 GB.\n")
    assert wrong.verdict == "fail" and "16: fp16 weights" in wrong.message


def test_training_relation_leaves_other_lines_alone(scan: Scan) -> None:
    assert scan(MODEL + "Mixed-precision Adam training needs 48 GB.\n") == []  # whose params?
    assert scan(MODEL + "With ZeRO-3 on 8 GPUs, Adam training of a 3B model needs 6 GB.\n") == []
    assert scan(MODEL + "| Adam m and v | 24 GB | 3 GB |\n") == []  # two sizes in one row
    assert scan(MODEL + "Training in FP32: 4 bytes per value.\n") == []
    assert scan(MODEL + "Gradients take 6 GB.\n") == []  # nothing says training
    assert scan(MODEL + "Training activations take 30 GB.\n") == []


def test_pretraining_data_sizes_are_not_training_memory(scan: Scan) -> None:
    assert scan(MODEL + "预训练数据的参数和梯度之外，语料大小为 5GB。\n") == []
    assert scan(MODEL + "The pretraining corpus of gradients and weights is 5GB.\n") == []


def test_a_sentence_wrapped_from_the_line_above_keeps_its_subject(scan: Scan) -> None:
    text = MODEL + (
        "With LoRA the adapters are tiny, and their weights,\n"
        "gradients and Adam states take 0.2 GB in all.\n"
    )
    assert scan(text) == []


def test_weights_of_which_model_when_the_section_names_two(scan: Scan) -> None:
    text = "# Sizes\n\nA 7B model in fp16 takes 14 GB; Llama 2 70B takes 140 GB.\n\n"
    assert scan(text + "The same model in int4 takes 35 GB of weights.\n") == []


def test_a_tilde_is_an_approximation_as_well_as_a_relation(scan: Scan) -> None:
    # 3B × 2 = 6 GB; "~5 GB" at one significant figure is [4.5, 5.5]: wrong; "~6" right
    assert _verdicts(scan, MODEL + "Its weights (~6 GB in bf16) fit.\n") == ["pass"]
    text = "# Sizes\n\nA 46B model.\n\nIts weights (~90 GB in bf16) fit.\n"
    assert _verdicts(scan, text) == ["pass"]  # 92 GB at one significant figure of ~90
