"""Recall and false alarms of ``lessoncheck scan`` on a planted-mistake corpus.

Run ``python tests/corpus/measure.py [FOLDER]`` (default: this corpus; ``tests/corpus_blind`` is
the other) or ``pytest tests/test_corpus.py -s`` to print the figures: per category, per
recogniser, and per tier and shape where the key gives them. A planted mistake counts as found
when scan fails a claim whose quote covers its line and holds the wrong number as printed. Every
other failing claim is a false alarm, except one that quotes a planted number on its line (the
same mistake, seen from another column).

A planted mistake whose key entry carries ``debatable: <why>`` is right under a reading the
rule of every verdict accepts (the README of the corpus lists them); it counts neither as
planted nor, when flagged, as a false alarm.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CORPUS = Path(__file__).resolve().parent
sys.path.insert(0, str(CORPUS.parent.parent))

from checkers.extract.recognizers import ALL_RECOGNIZERS  # noqa: E402
from checkers.lesson import Lesson, fold  # noqa: E402
from checkers.scan import scan_lesson  # noqa: E402


@dataclass
class Figures:
    """What scan found on the corpus."""

    planted: Counter[str] = field(default_factory=Counter)
    """Planted mistakes per category."""
    found: Counter[str] = field(default_factory=Counter)
    """Planted mistakes found, per category."""
    planted_by: dict[str, Counter[str]] = field(default_factory=dict)
    """Planted mistakes per value of each optional key field (``tier``, ``shape``)."""
    found_by: dict[str, Counter[str]] = field(default_factory=dict)
    """Planted mistakes found, per value of each optional key field."""
    false_alarms: dict[str, int] = field(default_factory=dict)
    """False alarms per lesson."""
    by_recognizer: Counter[str] = field(default_factory=Counter)
    """Failing claims per recogniser (true finds)."""
    alarms_by_recognizer: Counter[str] = field(default_factory=Counter)
    """False alarms per recogniser."""
    drafts_by_recognizer: Counter[str] = field(default_factory=Counter)
    """Drafted claims per recogniser."""
    missed: list[str] = field(default_factory=list)
    """Planted mistakes not found: lesson:line printed (category)."""
    debatable: list[str] = field(default_factory=list)
    """Planted entries the key calls debatable: lesson:line printed (why); not counted."""
    alarms: list[str] = field(default_factory=list)
    """False alarms: lesson:line message."""

    @property
    def recall(self) -> float:
        return sum(self.found.values()) / max(1, sum(self.planted.values()))

    @property
    def found_total(self) -> int:
        """Planted mistakes found."""
        return sum(self.found.values())

    @property
    def false_alarm_total(self) -> int:
        """False alarms in all lessons."""
        return sum(self.false_alarms.values())


def _lines(lesson: Lesson, quote: str, first: int) -> range:
    """The lesson lines a drafted quote covers (a chain may run over several lines)."""
    needle = fold(quote)[0]
    start = lesson.folded.find(needle)
    while start != -1 and lesson.position(lesson.offsets[start])[0] < first:
        start = lesson.folded.find(needle, start + 1)
    if start == -1 or not needle:
        return range(first, first + 1)
    last = lesson.position(lesson.offsets[start + len(needle) - 1])[0]
    return range(first, last + 1)


def _recognizer(claim_id: str) -> str:
    return next((name for name in RECOGNIZERS if claim_id.startswith(name + "-")), "?")


RECOGNIZERS = tuple(ALL_RECOGNIZERS)


BREAKDOWNS = ("tier", "shape")
"""Optional fields of a key's mistakes that the figures are also broken down by."""


def measure(corpus: Path = CORPUS) -> Figures:
    """Scan every lesson of ``corpus`` that has a key (``<lesson>.key.yaml``) and score it."""
    figures = Figures()
    for key_path in sorted(corpus.glob("*.key.yaml")):
        key = yaml.safe_load(key_path.read_text(encoding="utf-8"))
        lesson = corpus / key["lesson"]
        entries = key.get("mistakes") or []
        mistakes = [m for m in entries if not m.get("debatable")]
        figures.debatable += [
            f"{key['lesson']}:{m['line']} {m['printed']} ({m['debatable']})"
            for m in entries
            if m.get("debatable")
        ]
        findings = scan_lesson(lesson)
        text = Lesson.from_text(lesson, lesson.read_text(encoding="utf-8"))
        failing = [f for f in findings if f.verdict != "pass"]
        for finding in findings:
            figures.drafts_by_recognizer[_recognizer(finding.id)] += 1
        matched: set[int] = set()
        for mistake in mistakes:
            figures.planted[mistake["category"]] += 1
            for name in BREAKDOWNS:
                if name in mistake:
                    figures.planted_by.setdefault(name, Counter())[str(mistake[name])] += 1
            printed = fold(str(mistake["printed"]))[0]
            hit = next(
                (
                    i
                    for i, f in enumerate(failing)
                    if f.line is not None
                    and mistake["line"] in _lines(text, f.quote, f.line)
                    and printed in fold(f.quote + f.claimed)[0]
                ),
                None,
            )
            if hit is None:
                where = f"{key['lesson']}:{mistake['line']}"
                figures.missed.append(f"{where} {mistake['printed']} ({mistake['category']})")
                continue
            matched.add(hit)
            figures.found[mistake["category"]] += 1
            for name in BREAKDOWNS:
                if name in mistake:
                    figures.found_by.setdefault(name, Counter())[str(mistake[name])] += 1
            figures.by_recognizer[_recognizer(failing[hit].id)] += 1
        # A second finding that quotes the same planted number (a table row whose other column
        # it makes inconsistent) points at the same mistake: not a false alarm.
        alarms = [
            f
            for i, f in enumerate(failing)
            if i not in matched
            and not any(
                m["line"] in _lines(text, f.quote, f.line or 0)
                and fold(str(m["printed"]))[0] in fold(f.quote)[0]
                for m in entries
            )
        ]
        figures.false_alarms[key["lesson"]] = len(alarms)
        for alarm in alarms:
            figures.alarms_by_recognizer[_recognizer(alarm.id)] += 1
            figures.alarms.append(f"{key['lesson']}:{alarm.line} {alarm.message[:140]}")
    return figures


def report(figures: Figures) -> str:
    lines = [
        f"recall {sum(figures.found.values())}/{sum(figures.planted.values())} = "
        f"{figures.recall:.0%}; false alarms {sum(figures.false_alarms.values())} in "
        f"{len(figures.false_alarms)} lessons "
        f"(max {max(figures.false_alarms.values(), default=0)} per lesson)",
        "",
        "| category | planted | found |",
        "|---|---:|---:|",
    ]
    for category in sorted(figures.planted):
        lines.append(f"| {category} | {figures.planted[category]} | {figures.found[category]} |")
    for name in BREAKDOWNS:
        planted = figures.planted_by.get(name)
        if not planted:
            continue
        found = figures.found_by.get(name, Counter())
        lines += ["", f"| {name} | planted | found |", "|---|---:|---:|"]
        lines += [f"| {value} | {planted[value]} | {found[value]} |" for value in sorted(planted)]
    lines += ["", "| recogniser | drafts | mistakes found | false alarms |", "|---|---:|---:|---:|"]
    for name in RECOGNIZERS:
        lines.append(
            f"| {name} | {figures.drafts_by_recognizer[name]} | {figures.by_recognizer[name]} | "
            f"{figures.alarms_by_recognizer[name]} |"
        )
    if figures.missed:
        lines += ["", "missed:", *(f"  {m}" for m in figures.missed)]
    if figures.debatable:
        lines += ["", "debatable (not counted):", *(f"  {d}" for d in figures.debatable)]
    if figures.alarms:
        lines += ["", "false alarms:", *(f"  {a}" for a in figures.alarms)]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure(Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS)))
