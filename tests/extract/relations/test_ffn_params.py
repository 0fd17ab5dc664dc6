"""Relation ffn_params: 2·d·d_ff (+ biases) for a plain FFN, 3·d·d_ff gated (Shazeer 2020)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

CONFIG = (
    "# A MoE config\n\n```yaml\nhidden_size: 2048\nintermediate_size: 5632\n"
    "moe_intermediate_size: 1408\n```\n\nEach FFN uses SwiGLU.\n\n"
)
# gated: 3 × 2048 × 5632 = 34,603,008; one expert 3 × 2048 × 1408 = 8,650,752


def _verdicts(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text)]


def test_dense_block_against_the_config_in_the_same_lesson(scan: Scan) -> None:
    assert _verdicts(scan, CONFIG + "The dense MLP block holds ≈ 35M parameters.\n") == ["pass"]
    (wrong,) = scan(CONFIG + "The dense MLP block holds ≈ 23M parameters.\n")
    assert wrong.verdict == "fail"
    assert "hidden 2048 (line 4)" in wrong.message and "d_ff 5632 (line 5)" in wrong.message


def test_one_expert_uses_the_expert_width(scan: Scan) -> None:
    assert _verdicts(scan, CONFIG + "Each expert has about 8.7M parameters.\n") == ["pass"]
    assert _verdicts(scan, CONFIG + "Each expert has about 5.8M parameters.\n") == ["fail"]


def test_plain_or_gated_when_the_section_says_neither(scan: Scan) -> None:
    base = "# Block\n\nhidden size 512, FFN size 2048.\n\n"
    # plain 2 × 512 × 2048 = 2,097,152 (+ 2,560 biases); gated 3,145,728
    assert _verdicts(scan, base + "One FFN block: 2.1M parameters.\n") == ["pass"]
    assert _verdicts(scan, base + "One FFN block: 3.1M parameters.\n") == ["pass"]
    assert _verdicts(scan, base + "One FFN block: 1.0M parameters.\n") == ["fail"]


def test_counts_of_many_blocks_are_left_alone(scan: Scan) -> None:
    assert scan(CONFIG + "All 24 layers' FFN blocks hold 830M parameters.\n") == []
    assert scan(CONFIG + "The experts in total hold 1.3B parameters.\n") == []
    assert scan("# x\n\nThe dense MLP block holds 35M parameters.\n") == []  # no config


# Mistral 7B's released config.json (hidden 4096, intermediate 14336, 32 layers, vocab 32000),
# printed in one section, the accounting in another that never names the model or SwiGLU.
PRINTED = (
    "# Walkthrough\n\n## The config\n\n```\nhidden_size: 4096\nintermediate_size: 14336\n"
    "num_hidden_layers: 32\nnum_attention_heads: 32\nnum_key_value_heads: 8\nvocab_size: 32000\n```"
    "\n\n## Accounting\n\n"
)
# gated 3 × 4096 × 14336 = 176,160,768; two matrices would be 117,440,512


def test_a_size_in_brackets_after_the_part_it_counts(scan: Scan) -> None:
    good = "- Each block: attention (~42M per block) + dense MLP (~176M per block) + norms.\n"
    assert _verdicts(scan, PRINTED + good) == ["pass", "pass"]  # the attention's and the MLP's
    (wrong,) = [f for f in scan(PRINTED + good.replace("~176M", "~117M")) if f.verdict != "pass"]
    assert wrong.verdict == "fail"
    assert "3·4096·14336" in wrong.message
    assert "the lesson prints Mistral 7B's configuration, a gated FFN" in wrong.message


def test_experts_each_in_brackets(scan: Scan) -> None:
    moe = CONFIG + "- MoE blocks: attention + 64 experts each (8.7M apiece) + norm.\n"
    assert _verdicts(scan, moe) == ["pass"]
    assert _verdicts(scan, moe.replace("8.7M apiece", "5.8M apiece")) == ["fail"]


def test_a_display_formula_takes_its_subject_from_the_sentence_before(scan: Scan) -> None:
    lead = "# Block\n\nWith hidden size 2048 and FFN size 5632, using SwiGLU. "
    lead += "The MLP of one block holds\n\n$$\n"
    assert _verdicts(scan, lead + "3 \\cdot 2048 \\cdot 5632 = 34{,}603{,}008\n$$\n") == ["pass"]
    (wrong,) = scan(lead + "2 \\cdot 2048 \\cdot 5632 = 23{,}068{,}672\n$$\n")
    assert wrong.verdict == "fail" and "34,603,008" in wrong.message
    assert "the section says SwiGLU" in wrong.message


def test_bare_numbers_and_other_parts_are_not_block_counts(scan: Scan) -> None:
    assert scan(CONFIG + "The FFN block has d_ff = 5632.\n") == []
    attention = scan(PRINTED + "- attention with GQA (~42M per block) + norms.\n")
    assert [f.id for f in attention if "ffn" in f.id] == []
    # a bare number that is not a product's result: no count of parameters
    assert scan(CONFIG + "The dense MLP block width is 1,048,576 in total.\n") == []


def test_a_table_row_of_one_layers_blocks(scan: Scan) -> None:
    table = (
        "| piece (one layer) | shape | parameters |\n|---|---|--:|\n| MLP (gate, up, down) | {} |\n"
    )
    rows = CONFIG + table.format("3 × 2048 × 5632 | 34,603,008")
    assert _verdicts(scan, rows) == ["pass"]
    (wrong,) = scan(CONFIG + table.format("2 × 2048 × 5632 | 23,068,672"))
    assert wrong.verdict == "fail" and "34,603,008" in wrong.message
    every = "| piece | parameters (M) |\n|---|--:|\n| 24 × MLP | 830.5 |\n"
    assert scan(CONFIG + every) == []


def test_a_width_glossed_in_brackets_after_the_block(scan: Scan) -> None:
    # d = 1024, d_ff = 4096: a plain block holds 2 · 1024 · 4096 = 8,388,608 ≈ 8.4M (a gated
    # one 12.6M); the bracket gives the width, the count ends the sentence
    right = (
        "## Block\n\nThe model has d_model = 1024. "
        "The MLP block (d_ff = 4096) holds 8.4M weights.\n"
    )
    assert [f.verdict for f in scan(right) if "ffn" in f.id] == ["pass"]
    wrong = right.replace("8.4M", "4.2M")  # one matrix only
    (finding,) = [f for f in scan(wrong) if "ffn" in f.id]
    assert finding.verdict == "fail" and "8.4M" in finding.message
    # a bracket of arithmetic is no gloss: (hidden / num_heads) names no width
    quiet = "## Block\n\nThe model has d_model = 1024. Its (d_ff / 4) = 1024 holds nothing.\n"
    assert [f for f in scan(quiet) if "ffn" in f.id] == []


def test_a_block_named_by_its_possessive_and_its_gating(scan: Scan) -> None:
    # "its SwiGLU MLP", "a gated FFN": one block, named with the word that says it is gated
    base = "# One block\n\nThe block has hidden size 1024 and FFN size 2816 and uses SwiGLU.\n\n"
    # gated 3 × 1024 × 2816 = 8,650,752; two matrices 5,767,168
    assert _verdicts(scan, base + "Its SwiGLU MLP has 3 × 1024 × 2816 = 8,650,752 weights.\n") == [
        "pass"
    ]
    (wrong,) = scan(base + "Its SwiGLU MLP has 2 × 1024 × 2816 = 5,767,168 weights.\n")
    assert wrong.verdict == "fail" and "a gated FFN has three" in wrong.message
    assert "3·1024·2816" in wrong.message
    # the word alone, with no article or possessive, names no block of its own
    assert scan(base + "SwiGLU MLP weights: 2 × 1024 × 2816 = 5,767,168.\n") == []
