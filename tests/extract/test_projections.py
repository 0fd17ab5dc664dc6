"""Recogniser ``projections``: Q/K/V vectors of a stated projection x·W (snippets written for
these tests)."""

from __future__ import annotations

from checkers.extract.document import parse_document
from checkers.extract.recognizers import projections
from tests.extract.conftest import ScanText

SETUP = (
    "## Keys\n\nEach token's key is K = x · W_k.\n\n"
    "```\nx_sun = [1.0, 0.0, 2.0]\nx_sea = [0.5, 1.0, 0.0]\nx_sky = [0.0, 1.0, 1.0]\n"
    "W_k = [[0.2, 0.1],\n       [0.4, 0.3],\n       [0.1, 0.5]]\n```\n\n"
)


def _drafted(text: str) -> list[object]:
    return [d.fields["name"] for d in projections.recognize(parse_document(text))]


def _verdicts(scan_text: ScanText, text: str) -> list[tuple[str, str]]:
    return [(f.quote, f.verdict) for f in scan_text(text) if f.kind == "projection"]


def test_keys_that_are_x_times_w_pass_and_one_that_is_not_fails(scan_text: ScanText) -> None:
    # sun: [0.2 + 0.2, 0.1 + 1.0] = [0.4, 1.1]; sea: [0.1 + 0.4, 0.05 + 0.3] = [0.5, 0.35]
    # sky: [0.4 + 0.1, 0.3 + 0.5] = [0.5, 0.8], printed here as [0.3, 0.8]
    text = (
        SETUP
        + "### The keys\n\n```\nK_sun = [0.4, 1.1]\nK_sea = [0.5, 0.35]\nK_sky = [0.3, 0.8]\n```\n"
    )
    assert _verdicts(scan_text, text) == [
        ("K_sun = [0.4, 1.1]", "pass"),
        ("K_sea = [0.5, 0.35]", "pass"),
        ("K_sky = [0.3, 0.8]", "fail"),
    ]


def test_an_embedding_list_gives_the_inputs_and_a_computed_step_shows_intent(
    scan_text: ScanText,
) -> None:
    text = (
        "## 查询向量\n\n```\n太阳 → [1.0, 0.0]\n大海 → [0.0, 1.0]\n```\n\n"
        "Q = x · W_q，其中 W_q = [[0.5, 0.1],\n[0.2, 0.3]]\n\n"
        "计算 Q_太阳 = x_太阳 · W_q：\n\n```\nQ_大海 = [0.3, 0.3]\n```\n"
    )
    assert _verdicts(scan_text, text) == [("Q_大海 = [0.3, 0.3]", "fail")]  # x·W = [0.2, 0.3]


def test_illustrative_vectors_and_vectors_of_another_size_are_not_drafted() -> None:
    # None of the printed keys reproduces x·W and none is computed: another example's numbers.
    unrelated = SETUP + "```\nK_sun = [0.9, 0.2]\nK_sea = [0.7, 0.6]\n```\n"
    other_size = SETUP + "```\nK_sun = [0.4, 1.1, 0.3]\n```\n"
    no_rule = SETUP.replace("Each token's key is K = x · W_k.", "Keys follow.") + (
        "```\nK_sun = [0.5, 1.1]\n```\n"
    )
    for text in (unrelated, other_size, no_rule):
        assert _drafted(text) == [], text
