"""Relations weights_memory and training_memory: N · bytes, and mixed-precision Adam training
(2 + 2 + 4 + 4 + 4 = 16 bytes per parameter, Micikevicius et al. 2018; ZeRO §3)."""

from __future__ import annotations

import pytest

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


# --- bytes per parameter, a master copy the section keeps, sums in code ------------------------

TRAINING = "# Fine-tuning a 3B model\n\nWe train in mixed precision with Adam.\n\n"


def test_bytes_per_parameter_are_the_sum_of_the_components_named(scan: Scan) -> None:
    right = TRAINING + (
        "Weights, gradients, the fp32 master copy and both Adam moments come to\n"
        "2 + 2 + 4 + 4 + 4 = 16 bytes per parameter.\n"
    )
    assert _verdicts(scan, right) == ["pass"]
    # Five components named, four terms written: the sum is right, the count of bytes is not.
    (wrong,) = scan(
        TRAINING + "Weights, gradients, the fp32 master copy and Adam's moments take\n"
        "2 + 2 + 4 + 4 = 12 bytes per parameter.\n"
    )
    assert wrong.verdict == "fail"
    assert "2 + 2 + 4 + 4 + 4 is 16" in wrong.message
    assert "fp32 master copy 4" in wrong.message
    # fp32 gradients beside a master copy: 18 is a convention the relation accepts.
    eighteen = (
        TRAINING
        + "Weights, fp32 gradients, master copy and Adam moments: 18 bytes per parameter.\n"
    )
    assert _verdicts(scan, eighteen) == ["pass"]


def test_bytes_per_parameter_left_alone_without_a_sum_of_components(scan: Scan) -> None:
    assert scan(TRAINING + "The fp32 master copy takes 4 bytes per parameter.\n") == []
    assert scan(TRAINING + "Gradients in bf16 are 2 bytes per parameter.\n") == []  # one part
    # an 8-bit optimizer keeps its moments in one byte each
    assert (
        scan(
            TRAINING
            + "With 8-bit Adam, weights, gradients and moments take 6 bytes per parameter.\n"
        )
        == []
    )
    assert (
        scan(
            TRAINING
            + "SGD with momentum: weights, gradients and momentum are 12 bytes per parameter.\n"
        )
        == []
    )


SECTION_WITH_MASTER = (
    "# Full fine-tuning\n\n"
    "In mixed precision each parameter keeps bf16 weights, bf16 gradients, an fp32 master\n"
    "copy and Adam's two fp32 moments.\n\n"
)


def test_a_total_in_a_section_that_keeps_a_master_copy_counts_it(scan: Scan) -> None:
    # 5 × 10⁹ × 16 = 80 GB; without the master copy 60 GB
    (wrong,) = scan(
        SECTION_WITH_MASTER
        + "Weights (2 bytes), gradients (2 bytes) and Adam moments (4 + 4 bytes):\n"
        "so 5 × 10⁹ parameters need 60 GB.\n"
    )
    assert wrong.verdict == "fail"
    assert "2 + 2 + 4 + 4 + 4" in wrong.message and "fp32 master" in wrong.message
    right = (
        SECTION_WITH_MASTER
        + "Weights, gradients and Adam moments of 5 × 10⁹ parameters need 80 GB in total.\n"
    )
    assert _verdicts(scan, right) == ["pass"]


def test_a_subtotal_before_the_master_copy_is_left_to_its_words(scan: Scan) -> None:
    without = SECTION_WITH_MASTER + (
        "Weights, gradients and Adam moments of 5 × 10⁹ parameters need 60 GB\n"
        "without the master copy.\n"
    )
    assert _verdicts(scan, without) == ["pass"]
    subtotal = (
        SECTION_WITH_MASTER
        + "Weights, gradients and Adam moments of 5 × 10⁹ parameters need 60 GB in total.\n\n"
        "Adding the master copy: 60 GB + 20 GB = 80 GB.\n"
    )
    assert _verdicts(scan, subtotal) == ["pass"]
    # No master copy in the section: the three components are the whole statement.
    plain = (
        "# Memory\n\nMixed precision with Adam: weights, gradients and Adam moments of\n"
        "5 × 10⁹ parameters need 60 GB in total.\n"
    )
    assert _verdicts(scan, plain) == ["pass"]


CODE = (
    "# Training memory\n\nMixed precision with Adam keeps an fp32 master copy.\n\n"
    "```python\n"
    "params = 5e9\n"
    "weights = params * 2    # 10 GB\n"
    "grads = params * 2      # 10 GB\n"
    "master = params * 4     # 20 GB\n"
    "adam = params * 8       # 40 GB\n"
    "{total}\n"
    "```\n"
)


def test_a_sum_in_code_counts_the_master_copy_assigned_above(scan: Scan) -> None:
    (wrong,) = scan(CODE.format(total="total = weights + grads + adam   # 60 GB"))
    assert wrong.verdict == "fail"
    assert "weights + grads + adam + master is 80 GB" in wrong.message
    assert "master 20 GB" in wrong.message
    right = CODE.format(total="total = weights + grads + adam + master   # 80 GB")
    assert scan(right) == []  # nothing left out: the code's own sum is the other recognisers'
    without = CODE.format(total="total = weights + grads + adam   # 60 GB, without the master copy")
    assert scan(without) == []
    # a sum of parts that are not all training components
    other = CODE.format(total="total = weights + kv_cache   # 30 GB")
    assert scan(other) == []


# Adam's two fp32 moments are 8 bytes per parameter: 3B × 8 = 24 GB; ZeRO's 12 optimizer-state
# bytes (master copy with m and v) give 36 GB; 4 bytes (one moment, or fp16 moments) 12 GB.
@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("With Adam the optimizer moments alone take 3B × 8 bytes = 24 GB.", "pass"),
        ("With Adam the optimizer states take 3B × 12 bytes = 36 GB.", "pass"),
        ("With Adam the optimizer moments alone take 3B × 4 bytes = 12 GB.", "fail"),
        ("用 Adam 训练时，优化器状态为 3B × 4 字节 = 12 GB。", "fail"),
    ],
)
def test_a_width_multiplied_out_for_adam(scan: Scan, line: str, verdict: str) -> None:
    found = [f.verdict for f in scan("## Memory\n\n" + line + "\n") if "training-memory" in f.id]
    assert found == [verdict]


def test_sizes_added_for_one_component_are_still_left_alone(scan: Scan) -> None:
    # a sum of sizes, not a count times a width
    line = "With Adam, the optimizer moments: 12 GB + 12 GB = 24 GB."
    assert [f for f in scan("## Memory\n\n" + line + "\n") if "training-memory" in f.id] == []
