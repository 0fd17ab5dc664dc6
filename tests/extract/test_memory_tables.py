"""Recogniser memory_tables, training layout: a row naming an fp32 master copy counts it in its
total (4 bytes per parameter beside 2-byte weights; Micikevicius et al. 2018, ZeRO §3)."""

from __future__ import annotations

from pathlib import Path

from checkers.finding import Finding
from checkers.scan import scan_lesson

HEADER = (
    "# Memory for a 5B model\n\n"
    "| Setup | Weights | Adam states | Gradients | Total |\n|---|---|---|---|---|\n"
)


def _scan(tmp_path: Path, text: str) -> list[Finding]:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(text, encoding="utf-8")
    return [f for f in scan_lesson(lesson) if f.id.startswith("memory_tables-")]


def test_a_row_naming_a_master_copy_counts_it_in_its_total(tmp_path: Path) -> None:
    # 5B: bf16 weights 10 GB, gradients 10 GB, Adam 40 GB, master copy 20 GB → 80 GB
    (wrong,) = _scan(
        tmp_path, HEADER + "| bf16 with fp32 master | 10 GB | 40 GB | 10 GB | 60 GB |\n"
    )
    assert wrong.verdict == "fail"
    assert "is 80 GB" in wrong.message and "fp32 master copy" in wrong.message
    (right,) = _scan(
        tmp_path, HEADER + "| bf16 with fp32 master | 10 GB | 40 GB | 10 GB | 80 GB |\n"
    )
    assert right.verdict == "pass"


def test_rows_and_tables_the_master_copy_rule_leaves_alone(tmp_path: Path) -> None:
    # no master copy named: the row is a plain sum (the totals recognisers' business)
    assert _scan(tmp_path, HEADER + "| pure bf16 | 10 GB | 40 GB | 10 GB | 60 GB |\n") == []
    # fp32 throughout has no separate master copy
    assert _scan(tmp_path, HEADER + "| fp32 master only | 20 GB | 40 GB | 20 GB | 80 GB |\n") == []
    # a table with its own master-copy column sums what it shows
    own = (
        "| Setup | Weights | Master | Adam | Gradients | Total |\n|---|---|---|---|---|---|\n"
        "| fp16 + fp32 master | 10 GB | 20 GB | 40 GB | 10 GB | 80 GB |\n"
    )
    assert _scan(tmp_path, own) == []
    # a column that is not a training component (activations) may be in the total
    other = (
        "| Setup | Weights | Adam | Gradients | Activations | Total |\n|---|---|---|---|---|---|\n"
        "| bf16 + fp32 master | 10 GB | 40 GB | 10 GB | 5 GB | 65 GB |\n"
    )
    assert _scan(tmp_path, other) == []
