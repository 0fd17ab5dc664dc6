"""Claim files: loading, validation with positions, and anchoring to the lesson.

A claim file is YAML::

    lesson: content/transformer-fundamentals.md
    claims:
      - id: score-cat-cat
        kind: arithmetic
        quote: "score(猫, 猫) = Q_猫 · K_猫 = 0.58×0.71 + 0.74×0.52 = 0.78"
        expression: 0.58×0.71 + 0.74×0.52
        claimed: 0.78

Every claim has the common fields of :class:`ClaimHeader`; the rest belong to its kind's
``Input`` model. Problems are collected, never raised: a file with one broken claim still yields
all its other claims, and each problem carries ``file:line:column`` and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from checkers import safeyaml
from checkers.files import (
    NotText,
    decode_text,
    read_regular_file,
    real_path,
    report_root,
    resolve_lesson,
    search_root,
)
from checkers.kinds.base import Context, Kind, KindInput, check_variable_names
from checkers.lesson import Anchor, AnchorError, Lesson, LessonError, load_lesson
from checkers.numbers import Tolerance
from checkers.registry import UnknownKind, did_you_mean, lookup
from checkers.safeyaml import Position

__all__ = [
    "Claim",
    "ClaimHeader",
    "ClaimsFile",
    "Problem",
    "ToleranceOverride",
    "build_claims_file",
    "decode_claims",
    "load_claims_file",
    "read_claims_bytes",
    "read_claims_text",
]

_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"


class ToleranceOverride(BaseModel):
    """A claim's own tolerance, used instead of the printed precision; the reason is required."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    absolute: float | None = Field(default=None, ge=0)
    """Allowed absolute difference, in the value's base unit."""
    relative: float | None = Field(default=None, ge=0, le=1)
    """Allowed difference as a fraction of the printed value."""
    reason: str = Field(min_length=3)
    """Why this tolerance is right; shown in every verdict."""

    def to_tolerance(self) -> Tolerance:
        """The numeric tolerance with its explanation."""
        parts = []
        if self.absolute is not None:
            parts.append(f"±{self.absolute:g}")
        if self.relative is not None:
            parts.append(f"±{self.relative:.0%}")
        return Tolerance(
            absolute=self.absolute or 0.0,
            relative=self.relative or 0.0,
            reason=f"{' or '.join(parts) or '±0'}: {self.reason}",
        )


class ClaimHeader(BaseModel):
    """The fields every claim has, whatever its kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=_ID_PATTERN, max_length=120)
    """Stable, readable name; the pytest node id is ``claims/<file>.yaml::<id>``."""
    kind: str
    """Which checker recomputes this claim (a key of ``checkers.kinds.ALL_KINDS``)."""
    quote: str = Field(min_length=1, max_length=5000)
    """The exact text the claim checks, copied from the lesson."""
    occurrence: int | None = Field(default=None, ge=1)
    """Which occurrence of the quote is meant when it appears more than once (1 = first)."""
    note: str | None = None
    """Free text for reviewers: why the claim is set up this way."""
    tolerance: ToleranceOverride | None = None
    """Overrides the tolerance read from the printed digits."""
    origin: Literal["auto", "reviewed"] | None = None
    """``auto`` for claims drafted by ``lessoncheck extract`` and not yet reviewed."""
    confidence: float | None = Field(default=None, ge=0, le=1)
    """How sure the recogniser that drafted the claim was (0–1); absent for hand-written claims."""
    uses: dict[str, str] = Field(default_factory=dict)
    """Variables this claim takes from other claims' printed values: name → claim id."""

    @field_validator("uses")
    @classmethod
    def _names_are_identifiers(cls, value: dict[str, str]) -> dict[str, str]:
        return check_variable_names(value)


HEADER_FIELDS = frozenset(ClaimHeader.model_fields)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a claim file, located for an editor."""

    path: Path
    """The claim file."""
    position: Position | None
    """Line and column in the claim file, when known."""
    message: str
    """What is wrong and what was expected."""
    claim_id: str | None = None
    """The claim it concerns, when it concerns one."""

    def location(self) -> str:
        """``claims/x.yaml:12:5`` (or just the path when the position is unknown)."""
        if self.position is None:
            return str(self.path)
        return f"{self.path}:{self.position.line}:{self.position.column}"

    def __str__(self) -> str:
        return f"{self.location()}: {self.message}"


@dataclass(frozen=True)
class Claim:
    """A validated claim, anchored to its lesson (or carrying why it could not be)."""

    header: ClaimHeader
    """The common fields."""
    kind: Kind
    """The kind module that checks it."""
    input: KindInput
    """The kind's validated fields."""
    claims_file: Path
    """The YAML file it came from."""
    position: Position | None
    """Where the claim starts in the YAML file."""
    lesson_path: Path | None
    """The lesson it quotes, resolved."""
    anchor: Anchor | None
    """Where the quote is in the lesson; None when stale or unreadable."""
    anchor_problem: str | None
    """Why the claim could not be anchored, when it could not."""
    stale: bool
    """True when the quote no longer appears in the lesson."""

    @property
    def id(self) -> str:
        """The claim id."""
        return self.header.id

    def context(self, variables: Mapping[str, float] | None = None) -> Context:
        """The context the kind's check runs with."""
        tolerance = self.header.tolerance.to_tolerance() if self.header.tolerance else None
        return Context(tolerance=tolerance, variables=dict(variables or {}))


@dataclass(frozen=True)
class ClaimsFile:
    """Everything loaded from one claim file: claims that validated, and problems."""

    path: Path
    """The YAML file."""
    lesson: str | None
    """The ``lesson:`` field as written."""
    lesson_path: Path | None
    """The lesson, resolved to a file that exists."""
    root: Path
    """The folder report paths are relative to: the repository (see ``files.report_root``)."""
    claims: tuple[Claim, ...]
    """Claims that validated, in file order."""
    problems: tuple[Problem, ...]
    """Everything that did not validate, in file order."""
    order: tuple[str, ...]
    """Claim ids (or ``claim[N]`` for claims without a usable id) in file order."""
    lesson_document: Lesson | None = None
    """The lesson as read and anchored against (None when it could not be read), for what is
    asked of its text after checking (:mod:`checkers.lesson_marks`)."""


def read_claims_bytes(path: Path) -> bytes:
    """The bytes of a claim file, refused (YamlError) unless it is a small regular file inside
    the project (a symlink in a pull request must not make CI read another file)."""
    try:
        target = path.resolve()
    except (OSError, RuntimeError):
        message = "the claim file is a symbolic link that never reaches a file (a loop)"
        raise safeyaml.YamlError(message, None) from None
    if not target.is_relative_to(real_path(search_root(path))):
        raise safeyaml.YamlError("the claim file is a link to a file outside the project", None)
    try:
        return read_regular_file(path, safeyaml.MAX_BYTES)
    except ValueError as error:
        raise safeyaml.YamlError(f"cannot read the claim file: {error}", None) from None


def decode_claims(data: bytes) -> str:
    """The text of a claim file's bytes (UTF-8, a byte-order mark dropped), or YamlError."""
    try:
        return decode_text(data)
    except NotText as error:
        where = Position(error.line, error.column) if error.start is not None else None
        raise safeyaml.YamlError(str(error), where) from None


def read_claims_text(path: Path) -> str:
    """The text of a claim file (:func:`read_claims_bytes`, :func:`decode_claims`)."""
    return decode_claims(read_claims_bytes(path))


def _pydantic_problems(
    error: ValidationError,
    located: safeyaml.Located,
    base: tuple[Any, ...],
    path: Path,
    claim_id: str | None,
    allowed: Sequence[str],
    kind_name: str,
) -> list[Problem]:
    problems = []
    seen_fields: set[Any] = set()
    for item in error.errors():
        loc = tuple(item["loc"])
        # A union field (one number or a vector) reports once per alternative: keep the first.
        if loc[:1] in seen_fields and item["type"] != "extra_forbidden":
            continue
        seen_fields.add(loc[:1])
        loc = tuple(part for part in loc if not str(part).startswith("function-"))
        field = ".".join(str(part) for part in loc) or "claim"
        where = located.position((*base, *loc))
        if item["type"] == "extra_forbidden":
            message = (
                f"unknown field {field!r} for kind {kind_name!r}"
                + did_you_mean(str(loc[-1]), allowed)
                + f"; fields: {', '.join(allowed)}"
            )
        elif item["type"] == "missing" and len(loc) > 1:
            # tolerance.reason: the mapping that lacks it is the one under `tolerance:`.
            parent = loc[:-1]
            message = f"missing field {field!r} (required in `{parent[-1]}:`)"
            where = located.key_position((*base, *parent))
        elif item["type"] == "missing":
            needs = "every claim" if loc[0] in HEADER_FIELDS else f"kind {kind_name!r}"
            message = f"missing field {field!r} ({needs} needs it)"
            where = located.position(base)
        else:
            message = f"field {field!r}: {item['msg']}"
        problems.append(Problem(path, where, message, claim_id))
    return problems


def load_claims_file(
    path: Path, text: str | None = None, *, lesson_text: str | None = None
) -> ClaimsFile:
    """Load, validate and anchor one claim file. Never raises for bad content.

    ``text`` and ``lesson_text`` are the claim file's and its lesson's contents when the caller
    holds them in memory (``fix`` while rewriting): those files are then not read, though the
    lesson is still looked up from ``lesson:`` (its path and project root come from disk).
    """
    root = report_root(path)
    try:
        located = safeyaml.load(read_claims_text(path) if text is None else text)
    except safeyaml.YamlError as error:
        return ClaimsFile(
            path, None, None, root, (), (Problem(path, error.position, error.message),), ()
        )
    except OSError as error:
        return ClaimsFile(
            path, None, None, root, (), (Problem(path, None, f"cannot read: {error.strerror}"),), ()
        )
    return build_claims_file(path, located, lesson_text=lesson_text)


def build_claims_file(
    path: Path,
    located: safeyaml.Located,
    *,
    lesson_file: Path | None = None,
    lesson_text: str | None = None,
    lesson_loaded: Lesson | None = None,
    checked: Sequence[KindInput | None] = (),
) -> ClaimsFile:
    """Validate and anchor claims already parsed (from a file, or drafted in memory by ``scan``).

    ``lesson_file`` names the lesson directly instead of resolving the ``lesson:`` field;
    ``lesson_text`` is the lesson's text when the caller holds it (see :func:`load_lesson`), and
    ``lesson_loaded`` the lesson itself when the caller already loaded ``lesson_file`` (``scan``
    drafted from it: reading and folding it again cost a tenth of the scan).
    ``checked`` holds inputs already validated from the same fields, by claim index (``scan``
    validated each draft to decide whether to keep it).
    """
    root = report_root(path)
    data = located.data
    top_fields = ("lesson", "claims")
    if not isinstance(data, dict):
        return ClaimsFile(
            path,
            None,
            None,
            root,
            (),
            (
                Problem(
                    path, located.position(()), "expected a mapping with `lesson:` and `claims:`"
                ),
            ),
            (),
        )
    problems: list[Problem] = []
    for key in data:
        if key not in top_fields:
            problems.append(
                Problem(
                    path,
                    located.position((key,)),
                    f"unknown top-level field {key!r}{did_you_mean(str(key), top_fields)}; "
                    "expected `lesson:` and `claims:`",
                )
            )
    lesson = data.get("lesson")
    lesson_path: Path | None = None
    lesson_obj: Lesson | None = None
    lesson_problem: str | None = None
    if not isinstance(lesson, str) or not lesson:
        problems.append(
            Problem(
                path,
                located.position(("lesson",)),
                "missing field 'lesson': the lesson file this claim file checks",
            )
        )
        lesson_problem = "the claim file names no lesson"
    else:
        resolved = (lesson_file, root) if lesson_file is not None else resolve_lesson(path, lesson)
        if isinstance(resolved, str):
            problems.append(Problem(path, located.position(("lesson",)), resolved))
            lesson_problem = resolved
        else:
            # Report paths stay relative to the repository (report_root), not to the folder
            # the lesson was found in: `pytest course/claims/` names course/content/x.md.
            lesson_path = resolved[0]
            try:
                lesson_obj = (
                    lesson_loaded
                    if lesson_loaded is not None and lesson_file is not None
                    else load_lesson(lesson_path, lesson_text)
                )
            except LessonError as error:
                lesson_problem = str(error)
                problems.append(Problem(path, located.position(("lesson",)), lesson_problem))
    raw_claims = data.get("claims")
    if raw_claims is None:
        raw_claims = []
        problems.append(
            Problem(path, located.position(()), "missing field 'claims': a list of claims")
        )
    if not isinstance(raw_claims, list):
        problems.append(
            Problem(path, located.position(("claims",)), "`claims:` must be a list of claims")
        )
        raw_claims = []

    claims: list[Claim] = []
    order: list[str] = []
    seen: dict[str, Position | None] = {}
    for index, raw in enumerate(raw_claims):
        base = ("claims", index)
        where = located.position(base)
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        label = (
            raw_id
            if isinstance(raw_id, str) and re.fullmatch(_ID_PATTERN, raw_id)
            else f"claim[{index + 1}]"
        )
        duplicate = label in seen
        if duplicate:
            # The first claim keeps the id (``uses:`` and the baseline refer to it); this one
            # is reported under its own label, so neither is hidden behind the other.
            first = seen[label]
            first_at = f"{path.name}:{first.line}:{first.column}" if first else path.name
            problems.append(
                Problem(
                    path,
                    where,
                    f"duplicate claim id {label!r}: the claim at {first_at} already has it; "
                    "ids must be unique in a file (rename one of them)",
                    f"{label}[{index + 1}]",
                )
            )
            label = f"{label}[{index + 1}]"
        seen[label] = where
        order.append(label)
        claim = _load_claim(
            path,
            located,
            base,
            raw,
            label,
            lesson_path,
            lesson_obj,
            lesson_problem,
            problems,
            checked[index] if index < len(checked) else None,
        )
        if claim is not None and not duplicate:
            claims.append(claim)
    return ClaimsFile(
        path,
        lesson if isinstance(lesson, str) else None,
        lesson_path,
        root,
        tuple(claims),
        tuple(problems),
        tuple(order),
        lesson_obj,
    )


def _load_claim(
    path: Path,
    located: safeyaml.Located,
    base: tuple[Any, ...],
    raw: Any,
    label: str,
    lesson_path: Path | None,
    lesson: Lesson | None,
    lesson_problem: str | None,
    problems: list[Problem],
    checked: KindInput | None = None,
) -> Claim | None:
    where = located.position(base)
    if not isinstance(raw, dict):
        problems.append(
            Problem(path, where, "each claim must be a mapping with id, kind, quote, ...", label)
        )
        return None
    kind_name = raw.get("kind")
    kind: Kind | None = None
    kind_fields: list[str] = []
    if isinstance(kind_name, str):
        try:
            kind = lookup(kind_name)
            kind_fields = list(kind.Input.model_fields)
        except UnknownKind as error:
            problems.append(Problem(path, located.position((*base, "kind")), error.message, label))
    header_raw = {k: v for k, v in raw.items() if k in HEADER_FIELDS}
    body_raw = {k: v for k, v in raw.items() if k not in HEADER_FIELDS}
    allowed = sorted(HEADER_FIELDS | set(kind_fields))
    failed = False
    header: ClaimHeader | None = None
    try:
        header = ClaimHeader.model_validate(header_raw)
    except ValidationError as error:
        problems.extend(
            _pydantic_problems(error, located, base, path, label, allowed, str(kind_name))
        )
        failed = True
    if kind is None:
        if not isinstance(kind_name, str):
            problems.append(
                Problem(
                    path, where, "missing field 'kind': which checker recomputes this claim", label
                )
            )
        return None
    try:
        claim_input = (
            checked if isinstance(checked, kind.Input) else kind.Input.model_validate(body_raw)
        )
    except ValidationError as error:
        problems.extend(
            _pydantic_problems(error, located, base, path, label, allowed, str(kind_name))
        )
        return None
    except (ArithmeticError, TypeError, LookupError, AttributeError, RecursionError) as error:
        # A kind's validator that trips over an odd value (a bug there) must cost this claim,
        # not the loading of the whole file: the file's other claims still run.
        text = str(error)
        text = text if len(text) <= 200 else text[:199] + "…"
        message = f"the {kind_name} fields could not be read ({type(error).__name__}: {text})"
        problems.append(Problem(path, where, message, label))
        return None
    if failed or header is None:
        return None
    anchor: Anchor | None = None
    anchor_problem = lesson_problem
    stale = False
    if lesson is not None:
        try:
            anchor = lesson.anchor(header.quote, header.occurrence)
        except AnchorError as error:
            anchor_problem, stale = error.message, error.stale
    return Claim(header, kind, claim_input, path, where, lesson_path, anchor, anchor_problem, stale)
