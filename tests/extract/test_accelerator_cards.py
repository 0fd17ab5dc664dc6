"""Cards of the accelerator table beyond the data-centre GPUs: a wrong memory size fails with
the datasheet's figure; another product behind a suffix is not read as the card."""

from pathlib import Path

from checkers.finding import Finding
from checkers.scan import scan_lesson


def _findings(tmp_path: Path, text: str) -> list[Finding]:
    lesson = tmp_path / "cards.md"
    lesson.write_text(text, encoding="utf-8")
    return scan_lesson(lesson)


def test_a_t4_with_the_wrong_memory_fails_with_the_datasheet_figure(tmp_path: Path) -> None:
    findings = _findings(tmp_path, "# Cards\n\nEach T4 carries 32 GB of memory.\n")
    assert [f.verdict for f in findings] == ["fail"]
    assert findings[0].line == 3
    assert "16 GB" in findings[0].message and "not 32 GB" in findings[0].message


def test_the_right_sizes_pass(tmp_path: Path) -> None:
    text = "# Cards\n\nA T4 has 16GB of GDDR6 memory; the RTX 4090 has 24 GB of memory.\n"
    assert sorted(f.verdict for f in _findings(tmp_path, text)) == ["pass", "pass"]


def test_a_laptop_variant_is_another_product(tmp_path: Path) -> None:
    text = "# Cards\n\nThe RTX 4090 Laptop GPU has 16GB of memory.\n"
    assert _findings(tmp_path, text) == []


def test_one_card_in_a_hardware_column_is_checked_several_are_not(tmp_path: Path) -> None:
    text = (
        "# Runs\n\n| Method | Hardware |\n|---|---|\n| QLoRA | 1x T4 12GB |\n"
        "| Full | 8x A100 96GB |\n"
    )
    findings = _findings(tmp_path, text)
    assert [(f.verdict, f.line, f.claimed) for f in findings] == [("fail", 5, "12 GB")]


def test_a_size_the_card_has_fails_when_it_is_not_the_datasheet_figure(tmp_path: Path) -> None:
    findings = _findings(tmp_path, "# Cards\n\nA T4 has 24 GB, so the model fits.\n")
    assert [(f.verdict, f.claimed, f.expected) for f in findings] == [("fail", "24 GB", "16 GB")]


def test_whitepaper_figures_of_the_geforce_cards(tmp_path: Path) -> None:
    text = (
        "# Cards\n\nThe RTX 4090 streams 1008 GB/s of memory bandwidth and the RTX 3090 has "
        "10,496 CUDA cores.\n\nThe RTX 4090 is rated at 330 TFLOPS of dense BF16.\n"
    )
    findings = sorted(_findings(tmp_path, text), key=lambda f: f.line)
    assert [(f.line, f.verdict) for f in findings] == [(3, "pass"), (3, "pass"), (5, "fail")]
    assert "165.2" in findings[2].message and "with 2:4 sparsity" in findings[2].message


def test_a_card_without_sparsity_is_checked_dense_and_has_no_sparse_figure(tmp_path: Path) -> None:
    text = (
        "# Cards\n\nA T4 gives 130 TOPS of INT8.\n\n"
        "The T4 is rated at 260 TOPS of INT8 with sparsity.\n"
    )
    findings = _findings(tmp_path, text)
    assert [(f.line, f.verdict) for f in findings] == [(3, "pass")]


def test_a_table_of_cards_fails_the_cell_that_is_not_the_datasheet_figure(tmp_path: Path) -> None:
    table = (
        "| GPU | Memory | Memory bandwidth (GB/s) | TF32 TFLOPS{how} |\n|---|---|---|---|\n"
        "| A100 40GB | 40 GB | 1555 | 156 |\n| RTX 4090 | 24 GB | 1008 | 165.2 |\n"
    )
    dense = _findings(tmp_path, "# Hardware\n\n" + table.format(how=" (dense)"))
    # six cells, and the size written in the name "A100 40GB"
    assert len(dense) == 7
    assert [(f.line, f.verdict) for f in dense if f.verdict != "pass"] == [(6, "fail")]
    failed = next(f for f in dense if f.verdict == "fail")
    assert "82.6 TFLOPS" in failed.message and "with 2:4 sparsity" in failed.message
    # a header that leaves sparsity open: 165.2 is the 4090's with-sparsity TF32 figure
    either = _findings(tmp_path, "# Hardware\n\n" + table.format(how=""))
    assert [f.verdict for f in either] == ["pass"] * 7


def test_a_bracketed_number_type_and_the_card_as_topic(tmp_path: Path) -> None:
    text = (
        "# Hardware\n\nAn A100 does 312 TFLOPS (BF16).\n\n"
        "On the H100 SXM, HBM bandwidth is 2 TB/s.\n"
    )
    findings = sorted(_findings(tmp_path, text), key=lambda f: f.line)
    assert [(f.line, f.verdict) for f in findings] == [(3, "pass"), (5, "fail")]
    assert "3.35 TB/s" in findings[1].message


def test_nvlink_is_read_as_printed_both_ways_unless_the_text_says_which(tmp_path: Path) -> None:
    text = (
        "# Links\n\nNVLink on the H100 SXM moves 900 GB/s between GPUs.\n\n"
        "The H200's NVLink is 450 GB/s.\n\n"
        "An A100 has 450 GB/s of NVLink bandwidth per direction.\n"
    )
    findings = sorted(_findings(tmp_path, text), key=lambda f: f.line)
    assert [(f.line, f.verdict) for f in findings] == [(3, "pass"), (5, "pass"), (7, "fail")]
    assert "per direction" in findings[1].message  # the reading that holds is named
    assert "300 GB/s" in findings[2].message and "per direction" in findings[2].message


def test_a_data_centre_card_with_the_memory_of_another_fails(tmp_path: Path) -> None:
    text = "# Cards\n\nThe L40S has 96 GB of memory, twice a V100's 32 GB of memory.\n"
    findings = sorted(_findings(tmp_path, text), key=lambda f: f.claimed)
    assert [(f.claimed, f.verdict) for f in findings] == [("32 GB", "pass"), ("96 GB", "fail")]
    assert "48 GB" in findings[1].message


def test_an_fp32_peak_is_the_cuda_cores_or_the_tf32_tensor_rate(tmp_path: Path) -> None:
    text = (
        "# Peaks\n\nThe H100 SXM gives 67 TFLOPS of FP32.\n\n"
        "The A100 gives 156 TFLOPS of FP32 through its tensor cores.\n\n"
        "The V100 gives 31 TFLOPS of FP32.\n"
    )
    findings = sorted(_findings(tmp_path, text), key=lambda f: f.line)
    assert [(f.line, f.verdict) for f in findings] == [(3, "pass"), (5, "pass"), (7, "fail")]
    assert "CUDA cores" in findings[0].message and "TF32" in findings[1].message
    assert "15.7" in findings[2].message or "14 TFLOPS" in findings[2].message


def test_the_lines_naming_a_card_are_placed_in_the_lesson_as_written() -> None:
    from checkers.extract.document import parse_document
    from checkers.extract.recognizers.accelerator_facts import _lines_naming_a_card

    # "İ" lowers to two characters with str.lower: the card on line 3 stays on line 3
    assert _lines_naming_a_card(parse_document("İİİİ\n\nAn A100 card\n")) == {3}
    # a card on each of 50,000 lines: each placed by the lesson's line starts
    many = parse_document("A100 x\n" * 50_000)
    assert _lines_naming_a_card(many) == set(range(1, 50_001))
