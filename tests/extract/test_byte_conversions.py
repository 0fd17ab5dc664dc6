"""Recogniser byte_conversions: a size restated in another byte unit (GB ↔ GiB, bytes → KiB),
checked through scan: must pass, must fail (value and message), must not draft."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkers.extract import draft_claims
from checkers.finding import Finding
from checkers.scan import scan_lesson


def _scan(tmp_path: Path, text: str) -> list[Finding]:
    lesson = tmp_path / "lesson.md"
    lesson.write_text(text, encoding="utf-8")
    return [f for f in scan_lesson(lesson) if f.id.startswith("byte_conversions-")]


@pytest.mark.parametrize(
    "text",
    [
        "Our checkpoint is 6 GB, that is 5.59 GiB on disk.",  # 6e9 / 2^30 = 5.588
        "Each token costs 196,608 bytes, i.e. 192 KiB.",  # 196,608 / 1024
        "The cache reaches 20 GiB (21.5 GB) per sequence.",  # 20 × 2^30 = 21.47e9
        "bf16 权重 26 GB，约合 24.2 GiB。",  # 26e9 / 2^30 = 24.21
        "The adapter is 50 MiB, or about 52 MB.",  # 52.4e6
        "Four chats hold 6 GiB of cache, or about 6.4 GB.",  # 6.44e9: what the size is of
    ],
)
def test_a_right_restatement_passes(tmp_path: Path, text: str) -> None:
    (finding,) = _scan(tmp_path, text + "\n")
    assert finding.verdict == "pass", finding.message


def test_a_gib_figure_larger_than_its_gb_figure_fails(tmp_path: Path) -> None:
    # The wrapped sentence: the claim is on the second line.
    text = "The weights take 24 GB, i.e.\n25.8 GiB on the dashboard.\n"
    (wrong,) = _scan(tmp_path, text)
    assert wrong.verdict == "fail"
    assert "is 22.35 GiB" in wrong.message and "GiB figure is the smaller" in wrong.message
    (draft,) = [d for d in draft_claims(text) if d.recognizer == "byte_conversions"]
    assert draft.line == 2  # the line of the claimed number


def test_a_wrong_restatement_in_a_list_fails(tmp_path: Path) -> None:
    (wrong,) = _scan(tmp_path, "- int8：70 GB，约合 75 GiB；\n")
    assert wrong.verdict == "fail" and "65.19 GiB" in wrong.message


@pytest.mark.parametrize(
    "text",
    [
        "Choose a 16 GB or 32 GiB card.",  # alternatives, not a restatement
        "Weights take 14 GB (2 × 7 GB per shard).",  # the bracket holds more than a size
        "The two halves, 2 × 8 GB (16 GB), fill the card.",  # a factor of a product
        "8 GiB per chat, about 8.6 GB.",  # words between: the subject may change
        "It is 14 GB (14 GB with padding).",  # the same unit
        "32 GiB, which is roughly 34.4 GB.",  # chains reads "which is roughly"
    ],
)
def test_not_a_restatement_is_not_drafted(text: str) -> None:
    assert [d for d in draft_claims(text + "\n") if d.recognizer == "byte_conversions"] == []


def test_sizes_wrapped_across_a_quotes_lines_are_still_read() -> None:
    # The lesson's first test looks for two sizes in its source, where a quote's markers stand
    # between a number and its unit on the next line; the paragraph is read joined.
    text = "> Our checkpoint is 6\n> GB, that is 5.59\n> GiB on disk.\n"
    drafts = [d for d in draft_claims(text) if d.recognizer == "byte_conversions"]
    assert [d.fields["claimed"] for d in drafts] == ["5.59 GiB"]
