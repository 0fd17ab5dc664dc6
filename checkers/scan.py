"""``scan`` and ``extract``: claims drafted from lesson text, checked at once or written out.

Sits beside :mod:`checkers.runner`: it reads lessons, asks :mod:`checkers.extract` for drafts,
and either checks them in memory (scan) or merges them into claim files (extract).
"""

from __future__ import annotations

import os
from pathlib import Path

from checkers import safeyaml
from checkers.anchors import Lesson, LessonError, load_lesson
from checkers.claims import build_claims_file
from checkers.extract import draft_claims, to_claim_data
from checkers.extract.merge import MergeResult, merge_claims
from checkers.report import write_atomic
from checkers.runner import Finding, run_file

__all__ = ["extract_lesson", "scan_lesson"]


def _lesson_ref(path: Path) -> str:
    """The lesson as a claim file names it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _error(path: Path, message: str) -> Finding:
    return Finding(
        id="(lesson)",
        kind="",
        claims_file="",
        source=_lesson_ref(path),
        line=None,
        quote="",
        verdict="error",
        claimed="",
        expected="",
        tolerance="",
        message=message,
        fix=None,
    )


def scan_lesson(path: Path) -> list[Finding]:
    """Draft claims from one lesson and check them; an unreadable lesson is one error finding."""
    try:
        lesson = load_lesson(path)
    except LessonError as error:
        return [_error(path, str(error))]
    claims = to_claim_data(path, lesson.text, draft_claims(lesson.text))
    located = safeyaml.Located({"lesson": _lesson_ref(path), "claims": claims}, {})
    claims_file = build_claims_file(path, located, lesson_file=path)
    findings = run_file(claims_file)
    # A drafted claim lives in no claim file: point every finding at the lesson itself.
    return [Finding(**{**finding.__dict__, "claims_file": ""}) for finding in findings]


def extract_lesson(path: Path, claims_dir: Path, *, write: bool) -> MergeResult | str:
    """Merge drafts for one lesson into ``claims_dir/<lesson>.yaml``; a string on failure."""
    try:
        lesson: Lesson = load_lesson(path)
    except LessonError as error:
        return str(error)
    found = draft_claims(lesson.text)
    drafts = list(
        zip(to_claim_data(path, lesson.text, found), (d.line for d in found), strict=True)
    )
    target = claims_dir / f"{path.stem}.yaml"
    ref = os.path.relpath(path.resolve(), Path.cwd().resolve())
    result = merge_claims(target, Path(ref).as_posix(), lesson, drafts)
    if not target.exists() and not result.added:
        result.changed = False  # nothing found: no empty claim file
    if write and result.changed:
        write_atomic(target, result.text)
    return result
