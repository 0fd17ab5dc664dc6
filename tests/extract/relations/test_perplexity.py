"""Relation perplexity: base^loss in the loss's own base (e for nats, 2 for bits), from first
principles: e^2.3 = 9.97, e^2 = 7.389, 2^3 = 8."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan


def _verdicts(scan: Scan, line: str) -> list[str]:
    return [f.verdict for f in scan("## Evaluation\n\n" + line + "\n")]


def test_perplexity_of_a_loss_in_nats_or_bits_passes(scan: Scan) -> None:
    assert _verdicts(scan, "A validation loss of 2.3 means a perplexity of about 10.") == ["pass"]
    assert _verdicts(scan, "验证集损失为 2.0 nats，困惑度约为 7.4。") == ["pass"]
    assert _verdicts(scan, "A loss of 3 bits per token gives perplexity = 8.") == ["pass"]


def test_the_wrong_base_fails(scan: Scan) -> None:
    (nats_as_bits,) = scan("## Evaluation\n\nWith a loss of 3.0 nats, the perplexity is 8.\n")
    assert nats_as_bits.verdict == "fail" and "exp(3.0) is 20.09" in nats_as_bits.message
    (bits_as_nats,) = scan("## Evaluation\n\nA loss of 2 bits per token: perplexity ≈ 7.4\n")
    assert bits_as_nats.verdict == "fail" and "2^2" in bits_as_nats.message


def test_no_draft_for_two_losses_a_written_formula_or_no_loss(scan: Scan) -> None:
    for line in (
        "The loss fell from 3.1 to 2.4 (loss = 2.4), then loss = 2.2; perplexity is 9.",
        "Perplexity = e^2.3 ≈ 10 for a loss of 2.3.",
        "GPT-2 reaches a perplexity of 18 on this set.",
    ):
        assert [f for f in scan("## Evaluation\n\n" + line + "\n") if "perplexity" in f.id] == []


def test_a_loss_converted_between_nats_and_bits(scan: Scan) -> None:
    # 1 nat = 1/ln 2 bits: 1.5 nats = 2.164 bits; 4.0 bits = 4.0 · ln 2 = 2.773 nats.
    assert _verdicts(scan, "A loss of 1.5 nats is $1.5 / \\ln 2 \\approx 2.164$ bits.") == ["pass"]
    assert _verdicts(scan, "4.0 bits 等于 $4.0 \\times \\ln 2 \\approx 2.77$ nats。") == ["pass"]
    assert _verdicts(scan, "1 nat = 1/ln 2 ≈ 1.443 bits") == ["pass"]


def test_the_conversion_in_the_wrong_direction_fails(scan: Scan) -> None:
    (wrong,) = scan("## Units\n\nA loss of 1.5 nats = $1.5 \\times \\ln 2 \\approx 1.04$ bits.\n")
    assert wrong.verdict == "fail" and wrong.line == 3
    assert "2.16" in wrong.message and "nats → bits divides by ln 2" in wrong.message
    # The sentence starts on the line before (a soft-wrapped paragraph); the claim is on line 4.
    (wrapped,) = scan(
        "## Units\n\nSo a loss of 2.6 nats comes to\n$2.6 \\times \\ln 2 \\approx 1.80$ bits.\n"
    )
    assert wrapped.verdict == "fail" and wrapped.line == 4 and "3.75" in wrapped.message


def test_no_conversion_drafted_without_the_two_units_side_by_side(scan: Scan) -> None:
    for line in (
        "The weights use 4 bits each and the loss is 2.1 nats.",
        "A loss of 2.0 nats; the tokenizer stores ids in 17 bits.",
        "Converting: $2.0 / \\ln 2 \\approx 2.885$ bits per token.",
    ):
        assert scan("## Units\n\n" + line + "\n") == [], line


def test_a_perplexity_written_in_the_base_of_the_other_unit_fails(scan: Scan) -> None:
    lesson = "## A loss of 1.5 bits per token\n\nIts perplexity: $e^{1.5} \\approx 4.48$.\n"
    (wrong,) = scan(lesson)
    assert wrong.verdict == "fail" and wrong.line == 3
    assert "2^1.5 is 2.828" in wrong.message and "stated in bits" in wrong.message
    nats = "## A loss of 1.5 nats\n\nPPL = $2^{1.5} \\approx 2.83$, wrongly.\n"
    (as_bits,) = scan(nats)
    assert as_bits.verdict == "fail" and "4.48" in as_bits.message


def test_no_base_drafted_where_the_text_allows_the_reading(scan: Scan) -> None:
    for lesson in (
        # the sentence itself reads the loss in the formula's unit (a hypothetical)
        "## Loss\n\nWith a loss of 1.5 nats PPL is $e^{1.5}$; "
        "if 1.5 were bits, PPL = $2^{1.5} ≈ 2.83$.\n",
        # the loss is stated in both units
        "## Loss 1.5 nats, or 1.5 bits in the other table\n\nPPL = $e^{1.5} \\approx 4.48$\n",
        # no unit stated for it at all
        "## Loss\n\nPPL = $e^{1.5} \\approx 4.48$\n",
    ):
        assert [f for f in scan(lesson) if f.verdict == "fail"] == [], lesson


def test_the_mean_of_per_token_perplexities_is_not_the_perplexity(scan: Scan) -> None:
    # e^((0.5 + 1.5) / 2) = e^1 = 2.718; (e^0.5 + e^1.5) / 2 = 3.065.
    (wrong,) = scan(
        "## PPL\n\n$$\n\\mathrm{PPL} = \\frac{e^{0.5} + e^{1.5}}{2} \\approx 3.07\n$$\n"
    )
    assert wrong.verdict == "fail" and wrong.line == 4
    assert "2.72" in wrong.message and "Jensen" in wrong.message
    # Said to be an average of per-sentence perplexities: another quantity, not drafted.
    averaged = (
        "## PPL\n\nThe mean of the per-sentence perplexities is "
        "$(e^{2.0} + e^{3.0})/2 \\approx 13.74$.\n"
    )
    assert [f for f in scan(averaged) if "mean-loss" in f.id] == []


def test_bits_per_byte_from_bits_or_nats_per_token(scan: Scan) -> None:
    # 2.4 bits per token over 4 bytes per token: 0.6 bits per byte; 2.0 nats = 2.885 bits.
    lead = "## BPB\n\nHere 1 token is about 4 bytes. The model reaches 2.4 bits per token.\n\n"
    assert _verdicts(scan, lead[8:] + "That is 0.6 bits per byte.") == ["pass"]
    (wrong,) = scan(lead + "That is 1.2 bits per byte.\n")
    assert wrong.verdict == "fail" and wrong.line == 5 and "2.4 / 4" in wrong.message
    nats = "## BPB\n\n每个 token 平均 4 个字节，loss 为 2.0 nats / token。\n\n"
    nats += "每字节约 0.72 bits。\n"
    (from_nats,) = scan(nats)
    assert from_nats.verdict == "pass" and "÷ ln 2" in from_nats.message


def test_no_bits_per_byte_without_one_size_per_token(scan: Scan) -> None:
    for lead in (
        "## BPB\n\nThe model reaches 2.4 bits per token.\n\n",  # no bytes per token
        "## BPB\n\n4 bytes per token in prose, 2 bytes per token in code; 2.4 bits per token.\n\n",
    ):
        assert scan(lead + "That is 0.6 bits per byte.\n") == [], lead


# e^2.0 = 7.389, e^1.5 = 4.482, e^1.2 = 3.320; 2^1.2 = 2.297, 2^1.5 = 2.828
def test_a_training_log_is_read_under_the_base_its_other_lines_use(scan: Scan) -> None:
    nats = "```text\nepoch 1 | loss 2.000 | ppl 7.39\nepoch 2 | loss 1.500 | ppl 4.48\n"
    assert [f.verdict for f in scan("## Log\n\n" + nats + "```\n")] == ["pass", "pass"]
    found = scan("## Log\n\n" + nats + "epoch 3 | loss 1.200 | ppl 2.30\n```\n")
    assert [f.verdict for f in found] == ["pass", "pass", "fail"]
    assert "exp(1.200) is 3.32" in found[2].message and "2 lines above" in found[2].message
    assert "this line uses base 2" in found[2].message


def test_a_lone_log_line_or_a_log_in_bits_is_read_both_ways(scan: Scan) -> None:
    assert [f.verdict for f in scan("## Log\n\n`loss=1.5, ppl=2.83`\n")] == ["pass"]  # 2^1.5
    bits = "```text\nloss 1.5 | ppl 2.83\nloss 1.2 | ppl 2.30\n```\n"
    assert [f.verdict for f in scan("## Log\n\n" + bits)] == ["pass", "pass"]
    (finding,) = scan("## Log\n\n`loss=1.5, ppl=3.5`\n")  # neither e^1.5 nor 2^1.5
    assert finding.verdict == "fail" and "e^loss and 2^loss tried" in finding.message


def test_no_log_draft_for_two_losses_or_no_perplexity(scan: Scan) -> None:
    for line in (
        "`train loss 1.5 | val loss 1.7 | ppl 5.47`",  # which loss?
        "`step 100 | loss 1.5 | lr 3e-4`",
        "`ppl 4.48 | loss 1.5`",  # the perplexity before its loss
    ):
        assert scan("## Log\n\n" + line + "\n") == [], line


def test_each_clause_of_a_line_gives_its_own_perplexity(scan: Scan) -> None:
    # e^1.0 = 2.718, e^3.0 = 20.09: two losses, each with its perplexity in its own clause
    right = "训练初期 loss 为 3.0，PPL 约为 20.1；后期 loss 降到 1.0，困惑度约为 2.72。"
    assert _verdicts(scan, right) == ["pass"]
    (late,) = scan("## Evaluation\n\n" + right.replace("2.72", "3.72") + "\n")
    assert late.verdict == "fail" and "exp(1.0)" in late.message
    (early,) = scan("## Evaluation\n\n" + right.replace("20.1", "12.1") + "\n")
    assert early.verdict == "fail" and "exp(3.0)" in early.message
    english = "A loss of 3.0 gives a perplexity of 20.1; a loss of 1.0 gives a perplexity of 3.72."
    assert _verdicts(scan, english) == ["fail"]


def test_the_rule_in_symbols_before_the_worked_value(scan: Scan) -> None:
    assert _verdicts(scan, "答：PPL = e^loss。loss 为 3.0 时 PPL 约为 20.1。") == ["pass"]
    assert _verdicts(scan, "答：PPL = e^loss。loss 为 3.0 时 PPL 约为 29.1。") == ["fail"]


def test_two_losses_in_one_clause_stay_a_comparison(scan: Scan) -> None:
    # which loss the one perplexity belongs to is not stated
    assert _verdicts(scan, "Loss fell from 3.0 to 1.0, and the perplexity is now 2.72.") == []
