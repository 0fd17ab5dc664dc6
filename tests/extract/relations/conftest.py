"""Helpers for the relation tests: scan a lesson written in the test, keep the relations'
findings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from checkers.finding import Finding
from checkers.scan import scan_lesson

Scan = Callable[[str], list[Finding]]


@pytest.fixture
def scan(tmp_path: Path) -> Scan:
    """Scan lesson text through the real loader; the findings of relation drafts only."""

    def run(text: str) -> list[Finding]:
        lesson = tmp_path / "lesson.md"
        lesson.write_text(text, encoding="utf-8")
        return [f for f in scan_lesson(lesson) if f.id.startswith("relations-")]

    return run
