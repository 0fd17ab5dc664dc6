"""Recall and false alarms of ``lessoncheck scan`` on the planted-mistake corpus.

``pytest tests/test_corpus.py -s`` prints the figures (the README carries them). The corpus
(``tests/corpus/``) was written without looking at the recognisers; see its README.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.corpus.measure import Figures, measure, report


@pytest.fixture(scope="module")
def figures() -> Figures:
    result = measure()
    print("\n" + report(result))
    return result


def test_recall_is_at_least_ninety_percent(figures: Figures) -> None:
    assert figures.recall >= 0.90, figures.missed


def test_at_most_one_false_alarm_per_lesson(figures: Figures) -> None:
    alarms = figures.false_alarms
    assert max(alarms.values()) <= 1, figures.alarms


def test_clean_lessons_raise_no_alarm(figures: Figures) -> None:
    alarms = figures.false_alarms
    assert alarms["en-tokenization-clean.md"] == 0
    assert alarms["zh-tokenization-clean.md"] == 0


def test_both_languages_are_covered(figures: Figures) -> None:
    lessons = figures.false_alarms
    assert sum(name.startswith("zh-") for name in lessons) == 6
    assert sum(name.startswith("en-") for name in lessons) == 6


def test_the_keys_agree_with_the_lessons() -> None:
    """The corpus checks its own keys (printed text on the stated line, values recomputed)."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "corpus" / "verify_keys.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
