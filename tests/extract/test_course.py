"""The lesson a lesson continues (:mod:`checkers.extract.course`): weights renormalised from a
row the previous lesson of the course printed, through ``scan`` and ``extract`` of real files.
Lessons written for these tests; softmax([0.2, 0.9, 0.4, 1.1]) = [0.1494, 0.3008, 0.1824,
0.3674], whose top 2 (entries 2 and 4) renormalise to 0.4502 and 0.5498."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkers.extract.course import continues_previous
from checkers.files import numbered_predecessor
from checkers.scan import extract_lesson, scan_lesson

ROUTER = """## Gate example

The router produces `logits = [0.2, 0.9, 0.4, 1.1]`.

After the softmax the gate weights are `{row}`.
"""
MIXING = """## Mixing the two experts

Picking up the router example from the previous lesson, the top 2 experts are:

- Expert 2: weight {w2}
- Expert 4: weight {w4}

Renormalised so that they sum to 1:

- Expert 2: {w2} / {total} = {g2}
- Expert 4: {w4} / {total} = {g4}
"""


def _course(tmp_path: Path, row: str, w2: str, w4: str, g2: str, g4: str) -> Path:
    (tmp_path / "03_router.md").write_text(ROUTER.format(row=row), "utf-8")
    total = f"{float(w2) + float(w4):.2f}"
    mixing = tmp_path / "04_mixing.md"
    mixing.write_text(MIXING.format(w2=w2, w4=w4, total=total, g2=g2, g4=g4), "utf-8")
    return mixing


def test_weights_carried_from_a_wrong_row_of_the_previous_lesson_fail_as_carried(
    tmp_path: Path,
) -> None:
    # The previous lesson's row is wrong (0.33, 0.32 for 0.3008, 0.3674); 0.33 / 0.65 = 0.51 is
    # right from it, but the true weights are 0.45 and 0.55.
    mixing = _course(tmp_path, "[0.15, 0.33, 0.20, 0.32]", "0.33", "0.32", "0.51", "0.49")
    (carried,) = [f for f in scan_lesson(mixing) if f.kind == "renormalised"]
    assert carried.verdict == "fail" and carried.line == 10  # the first weight's line
    assert "printed in 03_router.md:5" in carried.message and "carried" in carried.message
    assert "0.4502" in carried.expected and "0.5498" in carried.expected
    router = [f for f in scan_lesson(tmp_path / "03_router.md") if f.verdict == "fail"]
    assert [f.line for f in router] == [5]  # the row itself fails in its own lesson


def test_weights_from_a_right_row_of_the_previous_lesson_pass(tmp_path: Path) -> None:
    mixing = _course(tmp_path, "[0.15, 0.30, 0.18, 0.37]", "0.30", "0.37", "0.45", "0.55")
    (renormalised,) = [f for f in scan_lesson(mixing) if f.kind == "renormalised"]
    assert renormalised.verdict == "pass"
    wrong = _course(tmp_path, "[0.15, 0.30, 0.18, 0.37]", "0.30", "0.37", "0.40", "0.60")
    (failing,) = [f for f in scan_lesson(wrong) if f.kind == "renormalised"]
    assert failing.verdict == "fail" and "0.40 should be 0.45" in failing.message  # 0.30 / 0.67


def test_extract_drafts_the_same_claim(tmp_path: Path) -> None:
    _course(tmp_path, "[0.15, 0.33, 0.20, 0.32]", "0.33", "0.32", "0.51", "0.49")
    mixing = tmp_path / "04_mixing.md"  # weights stated without arithmetic: no chain covers them
    text = mixing.read_text("utf-8").replace("0.33 / 0.65 = ", "").replace("0.32 / 0.65 = ", "")
    mixing.write_text(text, "utf-8")
    result = extract_lesson(mixing, tmp_path / "claims", write=True, base=tmp_path)
    assert not isinstance(result, str)
    written = (tmp_path / "claims" / "04_mixing.yaml").read_text("utf-8")
    assert "carried_from: 03_router.md:5" in written


@pytest.mark.parametrize(
    ("name", "lead"),
    [
        ("04_mixing.md", "Picking up the router example, the top 2 experts are:"),  # no cue
        ("mixing.md", "Picking up the router example from the previous lesson, the top 2 are:"),
    ],
)
def test_no_carried_row_without_the_cue_or_a_numbered_predecessor(
    tmp_path: Path, name: str, lead: str
) -> None:
    (tmp_path / "03_router.md").write_text(ROUTER.format(row="[0.15, 0.33, 0.20, 0.32]"), "utf-8")
    text = MIXING.format(w2="0.33", w4="0.32", total="0.65", g2="0.51", g4="0.49")
    lesson = tmp_path / name
    lesson.write_text(text.replace(text.splitlines()[2], lead), "utf-8")
    assert [f for f in scan_lesson(lesson) if f.kind == "renormalised"] == []


def test_weights_that_are_not_the_rows_top_entries_are_not_read_against_it(tmp_path: Path) -> None:
    # 0.33 and 0.20 are entries 2 and 3 of the row, not its two largest.
    mixing = _course(tmp_path, "[0.15, 0.33, 0.20, 0.32]", "0.33", "0.20", "0.62", "0.38")
    assert [f for f in scan_lesson(mixing) if f.kind == "renormalised"] == []


def test_the_cue_and_the_predecessor(tmp_path: Path) -> None:
    assert continues_previous("as in the previous lesson … re-normalized to sum to 1")
    assert continues_previous("沿用上一课的例子，重新归一化后")
    assert not continues_previous("from the previous lesson, the weights are kept as they are")
    for name in ("01_intro.md", "03_router.md", "03_router.ipynb", "10_later.md", "notes.md"):
        (tmp_path / name).write_text("x", "utf-8")
    assert numbered_predecessor(tmp_path / "05_mixing.md") == tmp_path / "03_router.md"
    assert numbered_predecessor(tmp_path / "01_intro.md") is None
    assert numbered_predecessor(tmp_path / "mixing.md") is None
    (tmp_path / "03_other.md").write_text("x", "utf-8")  # two lessons numbered 3: ambiguous
    assert numbered_predecessor(tmp_path / "05_mixing.md") is None


def test_the_renormalising_words_are_found_in_any_case() -> None:
    """``continues_previous`` looks for the words with ``in`` before searching the lesson."""
    cue = "We continue with the example from the previous lesson"
    assert continues_previous(f"{cue} and RE-NORMALISE the two weights.")
    assert continues_previous(f"{cue} and ReNormalize the two weights.")
    assert continues_previous(f"{cue} and renormalıze the two weights.")  # a dotless i
    assert continues_previous(f"{cue}, 重新归一化.")
    assert not continues_previous(f"{cue} and add the two weights.")
    assert not continues_previous("We renormalise the two weights of this lesson.")
