"""``report.json``: the machine-readable contract of design.md (``version: 1``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from checkers.files import write_atomic
from checkers.finding import Finding, summarize

__all__ = ["VERSION", "build", "render", "write"]

VERSION = 1
"""Bumped only when a field changes meaning or disappears."""


def build(findings: Sequence[Finding], extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The report as a plain dict: ``version``, ``summary`` counts per verdict, ``findings``.

    ``extra`` adds top-level sections (e.g. ``baseline``); additions never change the meaning
    of the fields above, so ``version`` stays 1.
    """
    report: dict[str, Any] = {
        "version": VERSION,
        "summary": summarize(list(findings)),
        "findings": [finding.to_json() for finding in sorted(findings, key=_order)],
    }
    for name, section in (extra or {}).items():
        report.setdefault(name, section)
    return report


def _order(finding: Finding) -> tuple[str, str, int, str]:
    # Lesson order within each claim file, the same whatever order (or worker) ran the claims.
    return (finding.claims_file, finding.source, finding.line or 0, finding.id)


def render(findings: Sequence[Finding], extra: Mapping[str, Any] | None = None) -> str:
    """The report's text (with the optional ``extra`` sections)."""
    return json.dumps(build(findings, extra), ensure_ascii=False, indent=2) + "\n"


def write(path: Path, findings: Sequence[Finding], extra: Mapping[str, Any] | None = None) -> None:
    """Write the JSON report atomically (with the optional ``extra`` sections)."""
    write_atomic(path, render(findings, extra))
