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
