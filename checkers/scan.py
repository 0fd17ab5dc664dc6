"""``scan`` and ``extract``: claims drafted from lesson text, checked at once or written out.

Sits beside :mod:`checkers.runner`: it reads lessons, asks :mod:`checkers.extract` for drafts,
and either checks them in memory (scan) or merges them into claim files (extract).
"""

from __future__ import annotations

import os
from pathlib import Path

from checkers import safeyaml
from checkers.claims import build_claims_file, read_claims_text
from checkers.extract import draft_claims, to_claim_data
from checkers.extract.merge import MergeResult, merge_claims
from checkers.files import link_outside_working_folder, real_path, write_atomic
from checkers.finding import Finding
from checkers.lesson import Lesson, LessonError, load_lesson
from checkers.runner import run_file

__all__ = ["extract_lesson", "scan_lesson"]


def _lesson_ref(path: Path) -> str:
    """The lesson as a claim file names it: relative to the working folder when inside it."""
    try:
        return real_path(path).relative_to(real_path(Path.cwd())).as_posix()
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


def _read_lesson(path: Path) -> Lesson | str:
    """The lesson, or why it cannot be read (the message names the file)."""
    refused = link_outside_working_folder(path)
    if refused is not None:
        return f"{path}: the lesson {refused}; not read"
    try:
        return load_lesson(path)
    except LessonError as error:
        return str(error)


def scan_lesson(path: Path, *, marked_wrong: list[Finding] | None = None) -> list[Finding]:
    """Draft claims from one lesson and check them; an unreadable lesson is one error finding.

    A failing draft of a statement the author marks wrong (``52 / 2 = 25 ✗``, a block headed
    ``❌ 错误计算``) is not reported: the lesson shows that mistake on purpose. Such findings go
    to ``marked_wrong`` when it is given, so a caller can count them or report them as marked.
    """
    lesson = _read_lesson(path)
    if isinstance(lesson, str):
        return [_error(path, lesson)]
    drafts = draft_claims(lesson.text)
    claims = to_claim_data(lesson, drafts)
    located = safeyaml.Located({"lesson": _lesson_ref(path), "claims": claims}, {})
    checked = [draft.checked for draft in drafts]
    claims_file = build_claims_file(path, located, lesson_file=path, checked=checked)
    marked = {claim["id"] for claim, draft in zip(claims, drafts, strict=True) if draft.author_mark}
    findings: list[Finding] = []
    for finding in run_file(claims_file):
        # A drafted claim lives in no claim file: point every finding at the lesson itself.
        finding = Finding(**{**finding.__dict__, "claims_file": ""})
        if finding.verdict == "fail" and finding.id in marked:
            if marked_wrong is not None:
                marked_wrong.append(finding)
            continue
        findings.append(finding)
    return findings


def extract_lesson(path: Path, claims_dir: Path, *, write: bool) -> MergeResult | str:
    """Merge drafts for one lesson into ``claims_dir/<lesson>.yaml``; a string on failure."""
    lesson = _read_lesson(path)
    if isinstance(lesson, str):
        return lesson
    target = claims_dir / f"{path.stem}.yaml"
    refused = _refuse_target(claims_dir, target)
    if refused is not None:
        return refused
    found = draft_claims(lesson.text)
    drafts = list(zip(to_claim_data(lesson, found), (d.line for d in found), strict=True))
    ref = os.path.relpath(real_path(path), real_path(Path.cwd()))
    result = merge_claims(target, Path(ref).as_posix(), lesson, drafts)
    if not target.exists() and not result.added:
        result.changed = False  # nothing found: no empty claim file
    if write and result.changed:
        write_atomic(target, result.text)
    return result


def _refuse_target(claims_dir: Path, target: Path) -> str | None:
    """Why ``extract`` must not touch ``target``, or None. It writes only inside the claims
    folder, and reads an existing claim file only once it passed the same checks as ``check``
    (size, text, safe YAML), so the round-trip YAML library never sees hostile input."""
    refused = link_outside_working_folder(claims_dir)
    if refused is not None:
        return f"{claims_dir}: the claims folder {refused.replace('file', 'folder')}"
    if target.is_symlink():
        return f"{target}: is a symbolic link; extract only updates regular files"
    if not target.exists():
        return None
    try:
        safeyaml.load(read_claims_text(target))
    except safeyaml.YamlError as error:
        where = f":{error.position.line}:{error.position.column}" if error.position else ""
        return f"{target}{where}: {error.message}; fix it before extracting into it"
    except OSError as error:
        return f"{target}: cannot read ({error.strerror})"
    return None
