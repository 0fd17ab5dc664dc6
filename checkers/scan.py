"""``scan`` and ``extract``: claims drafted from lesson text, checked at once or written out.

Sits beside :mod:`checkers.runner`: it reads lessons, asks :mod:`checkers.extract` for drafts,
and either checks them in memory (scan) or merges them into claim files (extract).
"""

from __future__ import annotations

import codecs
import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from checkers import safeyaml
from checkers.claims import build_claims_file, decode_claims, read_claims_bytes
from checkers.extract import drafts_of, to_claim_data
from checkers.extract.course import carried_rows, continues_previous
from checkers.extract.coverage import LessonCoverage, lesson_coverage
from checkers.extract.document import Document, parse_document
from checkers.extract.merge import BOM, MergeRefused, MergeResult, merge_claims
from checkers.files import (
    WriteError,
    claim_file_candidates,
    link_outside_working_folder,
    numbered_predecessor,
    real_path,
    real_working_folder,
    report_root,
    resolve_lesson,
    write_atomic,
)
from checkers.finding import Finding
from checkers.lesson import Lesson, LessonError, load_lesson
from checkers.runner import run_file

__all__ = ["extract_lesson", "scan_lesson", "scan_lesson_with_coverage"]


def _lesson_ref(path: Path) -> str:
    """The lesson as a claim file names it: relative to the working folder when inside it."""
    try:
        return real_path(path).relative_to(real_working_folder()).as_posix()
    except ValueError:
        return path.as_posix()


def _source(path: Path) -> str:
    """The lesson as reports name it (relative to the repository, as its findings are), by its
    own name: a link is named, not where it points (that may be a file we refuse to name)."""
    where = real_path(path.parent) / path.name
    try:
        return where.relative_to(report_root(path)).as_posix()
    except ValueError:
        return path.as_posix()


def _error(path: Path, message: str) -> Finding:
    return Finding(
        id="(lesson)",
        kind="",
        claims_file="",
        source=_source(path),
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


def _document(path: Path, lesson: Lesson) -> Document:
    """The lesson parsed, with the rows it carries from the previous lesson of its course when
    it says it continues that lesson's example (:mod:`checkers.extract.course`); a previous
    lesson that cannot be read carries nothing."""
    document = parse_document(lesson.readable)
    if not continues_previous(lesson.readable):
        return document
    previous = numbered_predecessor(path)
    if previous is None:
        return document
    earlier = _read_lesson(previous)
    if isinstance(earlier, str):
        return document
    rows = carried_rows(parse_document(earlier.readable), previous.name)
    return dataclasses.replace(document, continues=rows) if rows else document


def scan_lesson(path: Path, *, marked_wrong: list[Finding] | None = None) -> list[Finding]:
    """Draft claims from one lesson and check them; an unreadable lesson is one error finding.

    A failing draft of a statement the author marks wrong (``52 / 2 = 25 ✗``, a block headed
    ``❌ 错误计算``) does not fail: the lesson shows that mistake on purpose. It is reported as
    ``marked_wrong`` by the runner when the lesson's marks reach its line (one detector for
    drafts and hand-written claims alike: :func:`checkers.lesson_marks.apply_marks`), and also
    goes to ``marked_wrong`` when that list is given, so a caller can count or list them apart.
    """
    return _scan(path, marked_wrong, coverage=False)[0]


def scan_lesson_with_coverage(path: Path) -> tuple[list[Finding], LessonCoverage]:
    """:func:`scan_lesson`, and how many of the lesson's numbers the drafts checked (see
    :mod:`checkers.extract.coverage`); an unreadable lesson has no numbers."""
    findings, coverage = _scan(path, None, coverage=True)
    return findings, coverage or LessonCoverage(_lesson_ref(path), 0, 0)


def _scan(
    path: Path, marked_wrong: list[Finding] | None, *, coverage: bool
) -> tuple[list[Finding], LessonCoverage | None]:
    lesson = _read_lesson(path)
    if isinstance(lesson, str):
        return [_error(path, lesson)], None
    document = _document(path, lesson)
    drafts = drafts_of(document)
    if not drafts:  # no claims to check (two lessons in three): no claim file to build
        covered = lesson_coverage(_lesson_ref(path), document, lesson, [], {}) if coverage else None
        return [], covered
    claims = to_claim_data(lesson, drafts)
    located = safeyaml.Located({"lesson": _lesson_ref(path), "claims": claims}, {})
    checked = [draft.checked for draft in drafts]
    claims_file = build_claims_file(
        path, located, lesson_file=path, lesson_loaded=lesson, checked=checked
    )
    findings: list[Finding] = []
    verdicts: dict[str, str] = {}  # every draft's, those marked wrong included: they were checked
    for finding in run_file(claims_file):
        verdicts[finding.id] = finding.verdict
        # A drafted claim lives in no claim file: point every finding at the lesson itself.
        finding = Finding(**{**finding.__dict__, "claims_file": ""})
        quiet = finding.verdict == "marked_wrong" and finding.severity is not None
        if quiet and marked_wrong is not None:
            marked_wrong.append(finding)
        findings.append(finding)
    if not coverage:
        return findings, None
    inputs = {
        str(claim["id"]): draft.inputs
        for claim, draft in zip(claims, drafts, strict=True)
        if draft.inputs
    }
    counted = {
        str(claim["id"]): draft.counted
        for claim, draft in zip(claims, drafts, strict=True)
        if draft.counted is not None
    }
    return findings, lesson_coverage(
        _lesson_ref(path), document, lesson, claims, verdicts, inputs=inputs, counted=counted
    )


def extract_lesson(
    path: Path,
    claims_dir: Path,
    *,
    write: bool,
    roots: Sequence[Path] = (),
    base: Path | None = None,
) -> MergeResult | str:
    """Merge drafts for one lesson into its claim file under ``claims_dir``; a string (naming
    the file) when the lesson or its claim file cannot be used.

    The claim file is the one :func:`checkers.files.claim_file_candidates` names for the
    lesson (``roots``: the configured lesson roots; ``base``: the project folder, the
    configuration's, by default the working folder): the first that exists and
    records this lesson in its ``lesson:``, else the first place no other lesson's claims hold.
    A claim file that records another lesson is never written to (``site/intro.md`` and
    ``blog/intro.md`` must not share one), nor one that cannot be read."""
    lesson = _read_lesson(path)
    if isinstance(lesson, str):
        return lesson
    refused = link_outside_working_folder(claims_dir)
    if refused is not None:
        return f"{claims_dir}: the claims folder {refused.replace('file', 'folder')}"
    project = base if base is not None else Path.cwd()
    ref = _recorded_ref(path, project)
    chosen = _claim_file(path, ref, claim_file_candidates(path, claims_dir, roots, project))
    if isinstance(chosen, _Refused):
        return chosen.message
    target, old_text, note = chosen
    found = drafts_of(_document(path, lesson))
    drafts = to_claim_data(lesson, found)
    try:
        result = merge_claims(target, old_text, ref, lesson, drafts, verify=write)
    except safeyaml.YamlError as error:
        return f"{_located(target, error.position)}: {error.message}; fix it before extracting"
    except MergeRefused as error:
        return f"{target}: {error}; nothing was changed (add the drafts by hand)"
    if old_text is None and not result.added:
        result.changed = False  # nothing found: no empty claim file
    result.note = note
    if write and result.changed:
        try:
            write_atomic(target, result.text)
        except WriteError as error:  # a folder below the claims folder that links out, say
            return f"{error}; nothing was written"
    return result


def _recorded_ref(path: Path, project: Path) -> str:
    """The lesson as its claim file's ``lesson:`` records it: relative to the project folder
    (the loader looks it up from the claim file's folder upwards, so this finds it from any
    claim file inside the project), else relative to the working folder."""
    lesson = real_path(path.parent) / path.name
    if lesson.is_relative_to(real_path(project)):
        return lesson.relative_to(real_path(project)).as_posix()
    return Path(os.path.relpath(lesson, real_working_folder())).as_posix()


def _claim_file(
    path: Path, ref: str, candidates: Sequence[Path]
) -> tuple[Path, str | None, str] | _Refused:
    """(claim file, its text or None when new, a note when it is not the usual place) for the
    lesson at ``path`` among ``candidates`` (preferred first), or why none may be written."""
    taken: list[str] = []
    free: list[Path] = []
    for index, candidate in enumerate(candidates):
        if not candidate.exists() and not candidate.is_symlink():
            free.append(candidate)
            continue
        text = _existing_claims(candidate)
        if isinstance(text, _Refused):
            return text  # never passed over: it may hold this lesson's claims
        owner = _owner(text)
        if owner is not None and _same_lesson(candidate, owner, path, ref):
            return candidate, text, _note(taken) if index else ""
        if owner is None and index == 0:
            return candidate, text, ""  # the usual place, recording no lesson yet
        if owner is not None:
            taken.append(f"{candidate} holds the claims of {owner}")
    if not free:
        return _Refused(
            f"{path}: {'; '.join(taken)}: no claim file left for this lesson; nothing was "
            "written (set `lesson-roots` in the project configuration, or rename a lesson)"
        )
    return free[0], None, _note(taken) if free[0] != candidates[0] else ""


def _note(taken: Sequence[str]) -> str:
    return f"not the usual claim file: {'; '.join(taken)}" if taken else ""


def _owner(text: str | None) -> str | None:
    """The lesson a claim file records (its ``lesson:`` as written), None when it records
    none (an empty or comment-only file). Unreadable YAML is reported by the merge."""
    if text is None:
        return None
    try:
        data = safeyaml.load(text.removeprefix(BOM)).data
    except safeyaml.YamlError:
        return None
    recorded = data.get("lesson") if isinstance(data, dict) else None
    return recorded if isinstance(recorded, str) and recorded else None


def _same_lesson(claims_path: Path, recorded: str, path: Path, ref: str) -> bool:
    """Whether a claim file's ``lesson: recorded`` is the lesson at ``path``: the file the
    loader would find for it is that lesson, or (not found) it is written as ``ref``."""
    found = resolve_lesson(claims_path, recorded)
    if isinstance(found, str):
        return PurePosixPath(recorded).as_posix().removeprefix("./") == ref
    return real_path(found[0]) == real_path(path)


@dataclass(frozen=True)
class _Refused:
    message: str


def _located(path: Path, position: safeyaml.Position | None) -> str:
    return f"{path}:{position.line}:{position.column}" if position else str(path)


def _existing_claims(target: Path) -> str | _Refused | None:
    """The text of the claim file ``extract`` is to update (a byte-order mark kept), None when
    there is none yet, or why it must not be touched. It writes only inside the project (the
    claims folder is checked before), and reads an existing claim file with the same checks as
    ``check`` (size, text; safe YAML is :func:`merge_claims`'s)."""
    refused = link_outside_working_folder(target.parent)
    if refused is not None:
        return _Refused(f"{target.parent}: the folder {refused.replace('file', 'folder')}")
    if target.is_symlink():
        return _Refused(f"{target}: is a symbolic link; extract only updates regular files")
    if not target.exists():
        return None
    try:
        data = read_claims_bytes(target)
        text = decode_claims(data)
    except safeyaml.YamlError as error:
        return _Refused(f"{_located(target, error.position)}: {error.message}; fix it first")
    except OSError as error:
        return _Refused(f"{target}: cannot read ({error.strerror})")
    return BOM + text if data.startswith(codecs.BOM_UTF8) else text
