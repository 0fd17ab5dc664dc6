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
