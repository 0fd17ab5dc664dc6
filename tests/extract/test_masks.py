"""Recogniser ``masks``: a −∞ matrix in a section that calls its mask causal (snippets written
for these tests)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import masks
from tests.extract.conftest import ScanText


def _drafted(text: str) -> list[dict[str, object]]:
    return [d.fields for d in masks.recognize(parse_document(text))]


def _mask_findings(scan_text: ScanText, text: str) -> list[tuple[int | None, str]]:
    return [(f.line, f.verdict) for f in scan_text(text) if f.kind == "masked_softmax"]


def test_causal_matrices_in_text_tables_and_brackets_pass(scan_text: ScanText) -> None:
    text = (
        "## Decoder masking\n\nA token may not attend to future tokens.\n\n"
        "```text\n      a     b     c\n a   1.2   -∞    -∞\n b   0.4   0.9   -∞\n"
        " c   0.3   0.1   0.8\n```\n\n"
        "## 因果掩码\n\n每个位置只能看自己和之前的位置，之后的位置设为 -inf。\n\n"
        "| | 我 | 爱 |\n|---|---|---|\n| 我 | 0.7 | -inf |\n| 爱 | 0.2 | 0.5 |\n\n"
        "## Look-ahead mask in code\n\n```python\nmask = [[0.0, -inf, -inf],\n"
        "        [0.0, 0.0, -inf],\n        [0.0, 0.0, 0.0]]\n```\n"
    )
    assert _mask_findings(scan_text, text) == [(7, "pass"), (18, "pass"), (24, "pass")]


def test_a_transposed_mask_and_a_changed_visible_score_fail(scan_text: ScanText) -> None:
    text = (
        "## Causal attention\n\nScores before masking:\n\n"
        "```\n    t0   t1   t2\nt0  0.5  0.1  0.2\nt1  0.3  0.4  0.6\nt2  0.2  0.7  0.9\n```\n\n"
        "After the causal mask (no peeking at later tokens):\n\n"
        "```\n    t0   t1   t2\nt0  0.5  -∞   -∞\nt1  0.3  0.4  -∞\nt2  0.2  0.8  0.9\n```\n\n"
        "## Causal attention, drawn again\n\n"
        "```\n    t0   t1   t2\nt0  0.5  0.1  0.2\nt1  -∞   0.4  0.6\nt2  -∞   -∞   0.9\n```\n"
    )
    findings = [f for f in scan_text(text) if f.kind == "masked_softmax"]
    assert [(f.line, f.verdict) for f in findings] == [(18, "fail"), (25, "fail")]
    assert "0.8" in findings[0].message or "(2, 1)" in findings[0].message
    assert "(0, 1)" in findings[1].message and "(1, 0)" in findings[1].message


def test_other_masks_and_matrices_without_minus_infinity_are_not_drafted() -> None:
    padded = (
        "## Padding and causal masks\n\nThe last key is padding; future tokens are hidden too.\n\n"
        "```\n    a    b    c\na  0.5  -∞   -∞\nb  0.3  0.4  -∞\nc  0.2  -∞   -∞\n```\n"
    )
    window = (
        "## Sliding-window causal attention\n\nEach token sees the previous token only.\n\n"
        "```\n    a    b    c\na  0.5  -∞   -∞\nb  0.3  0.4  -∞\nc  -∞   0.2  0.9\n```\n"
    )
    unnamed = (
        "## Masking\n\nHere the second key is hidden.\n\n"
        "```\n    a    b\na  0.5  -∞\nb  0.3  -∞\n```\n"
    )
    plain = "## Causal\n\nNo future tokens.\n\n```\n    a    b\na  0.5  0.1\nb  0.3  0.2\n```\n"
    for text in (padded, window, unnamed, plain):
        assert _drafted(text) == [], text
