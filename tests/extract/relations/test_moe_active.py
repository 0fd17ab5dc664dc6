"""Relation moe_active: k routed experts of X parameters use k·X (≥ X·(1 + (k−1)/2) with shared
attention), never a dense X for k ≥ 2 (Fedus et al. 2022; Jiang et al. 2024)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan


def test_equating_k_experts_with_one_dense_expert_fails(scan: Scan) -> None:
    text = "# MoE\n\nPicture 16 experts of size 3B, 2 of them per token: it runs like a dense 3B.\n"
    (finding,) = scan(text)
    assert finding.verdict == "fail"
    assert "top_k × expert_size" in finding.message and "at least 4.5B" in finding.message


def test_other_sizes_and_single_expert_routing_are_not_drafted(scan: Scan) -> None:
    assert scan("# MoE\n\n16 experts of size 3B, 2 of them per token: like a dense 6B.\n") == []
    assert scan("# MoE\n\n16 experts of size 3B, top-1 routing: like a dense 3B.\n") == []
    assert scan("# MoE\n\n16 experts, top-2 routing: like a dense 3B.\n") == []
