"""Fixtures of the recogniser tests: scan a snippet written as a lesson."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from checkers.finding import Finding
from checkers.scan import scan_lesson

ScanText = Callable[[str], list[Finding]]


@pytest.fixture
def scan_text(tmp_path: Path) -> ScanText:
    """``scan`` of a lesson holding ``text``: its findings, drafted by every recogniser."""

    def scan(text: str) -> list[Finding]:
        lesson = tmp_path / "lesson.md"
        lesson.write_text(text, encoding="utf-8")
        return scan_lesson(lesson)

    return scan
