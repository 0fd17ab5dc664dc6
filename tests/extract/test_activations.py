"""Recogniser ``activations``: a printed vector said to be an activation of another (snippets
written for these tests)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import activations
from tests.extract.conftest import ScanText


def _drafted(text: str) -> list[dict[str, object]]:
    return [d.fields for d in activations.recognize(parse_document(text))]


def _findings(scan_text: ScanText, text: str) -> list[tuple[int | None, str, str]]:
    return [(f.line, f.verdict, f.message) for f in scan_text(text) if f.kind == "activation"]


def test_activation_values_right_on_one_line_or_through_a_name_pass(scan_text: ScanText) -> None:
    text = (
        "## The MLP\n\n"
        "GELU([1.0, -1.0]) = [0.84, -0.16] and ReLU([0.3, -2.0]) = [0.3, 0]\n\n"
        "```text\nz = W·x + b = [1.5, -0.5, 0.2, ...]\na = SiLU(z)\n"
        "y = a · W₂ = [1.23, -0.19, 0.11, ...] · W₂\n```\n"
    )
    verdicts = [(line, verdict) for line, verdict, _ in _findings(scan_text, text)]
    assert verdicts == [(3, "pass"), (3, "pass"), (8, "pass")]


def test_relu_values_printed_for_gelu_fail_and_say_so(scan_text: ScanText) -> None:
    text = (
        "## 前馈层\n\n```\nh_in = x · W₁ = [0.8, -0.6, 1.1]\nh = GELU(h_in)\n```\n\n"
        "激活之后 h = [0.8, 0, 1.1]。\n\n"
        "## Another chapter\n\nσ([0.0, 2.0]) = [0.5, 0.8]\n"
    )
    found = _findings(scan_text, text)
    assert [(line, verdict) for line, verdict, _ in found] == [(8, "fail"), (12, "fail")]
    assert "ReLU values" in found[0][2]
    assert "0.8 should be 0.9" in found[1][2]  # sigmoid(2) = 0.8808


def test_no_draft_without_printed_inputs_or_before_the_step() -> None:
    unknown = "## MLP\n\nh = GELU(z)\n\nh = [0.1, 0.2]\n"
    earlier = "## MLP\n\nz = [0.5, 1.0]\n\nh = [0.35, 0.84]\n\nh = GELU(z)\n"
    other_chapter = "## One\n\nz = [0.5, 1.0]\n\n## Two\n\nh = GELU(z)\n\nh = [0.35, 0.84]\n"
    lengths = "## MLP\n\nReLU([0.5, -1.0, 2.0]) = [0.5, 0]\n"
    for text in (unknown, earlier, other_chapter, lengths):
        assert _drafted(text) == [], text
