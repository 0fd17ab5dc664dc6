"""Relation gpu_count: N cards of M bytes hold N · M; a size T stated to need N of them is
wrong when N · M < T (more cards than ⌈T / M⌉ are headroom, not checked)."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan


def _gpu(scan: Scan, text: str) -> list[str]:
    return [f.verdict for f in scan(text) if f.id.startswith("relations-gpu-count")]


def test_too_few_cards_fail_with_the_number_needed(scan: Scan) -> None:
    (wrong,) = [
        f
        for f in scan("# Sizing\n\n训练状态共 330 GB，至少需要 4 张 80 GB 的卡。\n")
        if "gpu" in f.id
    ]
    assert wrong.verdict == "fail"
    assert "4 × (80*GB) is 320 GB" in wrong.message and "at least 5 are needed" in wrong.message
    en = "# Sizing\n\nThe full state is 500 GB, so it needs 6 × 80 GB GPUs.\n"
    assert _gpu(scan, en) == ["fail"]


def test_enough_cards_or_no_stated_size_are_not_drafted(scan: Scan) -> None:
    assert _gpu(scan, "# Sizing\n\n训练状态共 330 GB，至少需要 5 张 80 GB 的卡。\n") == []
    assert _gpu(scan, "# Sizing\n\nThe weights take 140 GB and need 4 × 80 GB GPUs.\n") == []
    # a size rounded up: 2 × 80 GB hold 160 GB, within 2% of the printed 162 GB
    assert _gpu(scan, "# Sizing\n\nAbout 162 GB in all, so it needs 2 × 80 GB GPUs.\n") == []
    # no size before the need, or a per-card share
    assert _gpu(scan, "# Sizing\n\nIt needs at least 2 × 80 GB GPUs.\n") == []
    per_card = "# Sizing\n\nWith ZeRO-3 each GPU holds 60 GB, so it needs 4 × 40 GB GPUs.\n"
    assert _gpu(scan, per_card) == []
