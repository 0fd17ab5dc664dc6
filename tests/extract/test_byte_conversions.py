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
        "In int8 the file is 27.5 GB, which is 25.6 GiB.",  # 27.5e9 / 2^30 = 25.61
        "It weighs 9.0 GB in fp16, or 8.38 GiB.",  # 9e9 / 2^30 = 8.382: the type it is in
        "Both shards come to 3 TB, that comes to 2.73 TiB.",  # 3e12 / 2^40 = 2.728
        "约 60 GB，即 55.88 GiB。",  # 60e9 / 2^30 = 55.88
        "The cache is 30 GiB (= 32.2 GB).",  # 30 × 2^30 = 32.21e9
        "权重 50 GB（即 46.57 GiB）。",  # 50e9 / 2^30 = 46.57
        "The checkpoint is 12.46 GB, which is 11.6 GiB, and fits.",  # 12.46e9 / 2^30 = 11.60
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


@pytest.mark.parametrize(
    ("text", "recomputed"),
    [
        # 52.3e9 / 2^30 = 48.71 GiB; 56.2 is 52.3 × 1.074, the factor applied the wrong way
        ("Stored in bf16 it takes 52.3 GB, which is 56.2 GiB.", "is 48.71 GiB"),
        ("The index is 4.2 GB, or 4.51 GiB.", "is 3.912 GiB"),  # 4.2e9 / 2^30 = 3.912
        ("The archive is 5 TB, which is 5.5 TiB.", "is 4.547 TiB"),  # 5e12 / 2^40 = 4.547
    ],
)
def test_a_gib_figure_larger_than_its_gb_figure_fails_in_every_spelling(
    tmp_path: Path, text: str, recomputed: str
) -> None:
    (wrong,) = _scan(tmp_path, text + "\n")
    assert wrong.verdict == "fail" and recomputed in wrong.message, wrong.message
    assert "printed decimal" in wrong.tolerance  # the tolerance is the claim's own digits


def test_a_rounded_first_size_stands_for_what_it_rounds_from(tmp_path: Path) -> None:
    # 1.5 GB as printed is 1.397 GiB; from 1.45 … 1.55 GB it is 1.350 … 1.444 GiB
    (finding,) = _scan(tmp_path, "The adapter is 1.5 GB, i.e. 1.44 GiB.\n")
    assert finding.verdict == "pass" and "carried unrounded" in finding.message


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
        "Pick 16 GB, or 24 GiB for the big model.",  # a choice offered, the clause goes on
        "Pick 16 GB, or 32 GiB.",  # a choice: twice the first size, not a restatement
        "The card has 16 GB (16 GiB).",  # right only with GB read as GiB: one unit, two names
        "That is 16,384 MB, i.e. 16 GiB.",  # likewise: MB used for MiB
        "We keep 16 GB of weights and 15 GiB of cache.",  # two sizes of two things
        "It needs 8–16 GB (14.9 GiB) of cache.",  # a range's end in another unit
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


def test_a_long_run_of_spaces_costs_one_pass() -> None:
    # Two runs of white space side by side would be split every way: 20,000 spaces took 40 s.
    import time

    spaces = " " * 20000
    text = f"It is 5 GB{spaces}, x 3 GiB, and 5 GB ({spaces}x 3 GiB.\n"
    start = time.process_time()
    assert [d for d in draft_claims(text) if d.recognizer == "byte_conversions"] == []
    assert time.process_time() - start < 2


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_lines_of_sizes_are_counted_whatever_the_line_breaks(newline: str) -> None:
    text = newline.join(["# Sizes", "", "The file is 6 GB, that is", "5.59 GiB.", "", "Also 4 GB."])
    drafts = [d for d in draft_claims(text + newline) if d.recognizer == "byte_conversions"]
    assert [(d.line, d.fields["claimed"]) for d in drafts] == [(4, "5.59 GiB")]
