"""Baselines: accept today's known failures so that CI fails only on new ones.

A course rarely gets fixed in one go. ``lessoncheck baseline`` records the claims that fail
now; ``--baseline FILE`` on ``check``, ``scan`` and ``pytest claims/`` then fails a run only on
failures that are *not* recorded. Known failures are still listed (as "known (baseline)") and
baseline entries whose claim now holds are reported as "fixed since the baseline", so the file
can shrink as the course gets corrected.

An entry is (claim file, claim id, fingerprint), where the fingerprint is the SHA-256 of the
quote and the claimed value, whitespace-folded like quote anchoring (:func:`checkers.lesson.fold`).
Editing the wrong number into another wrong number therefore makes a *new* failure, while
re-wrapping the sentence does not. A finding that has no claim file (``lessoncheck scan``)
matches an entry on its lesson and fingerprint instead, and so does a claim that was renamed.

Only ``fail`` findings are recorded and excused. A stale claim (its quote left the lesson) and
an error (a claim that could not be read or checked) always fail the run: a baseline accepts
wrong numbers, never claims that are out of sync with their lessons or broken.

The file is JSON (``version: 1``), sorted, one entry per known failure, meant to be committed
and reviewed like any other file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from checkers.files import read_regular_file, write_atomic
from checkers.lesson import fold

if TYPE_CHECKING:
    from checkers.finding import Finding

__all__ = [
    "DEFAULT_FILE",
    "VERSION",
    "Baseline",
    "BaselineError",
    "Comparison",
    "Entry",
    "fingerprint",
    "load",
]

DEFAULT_FILE = "lessoncheck-baseline.json"
"""Where ``lessoncheck baseline`` writes when no ``-o`` is given."""
VERSION = 1
"""Version of the baseline file format."""
EXCUSABLE = "fail"
"""The only verdict a baseline excuses (stale claims and errors always count)."""
_QUIET = ("pass", "suppressed", "marked_wrong")
"""Verdicts that are no problem of the run, so neither known nor new."""
MAX_BYTES = 10_000_000
"""Largest baseline file read (it has one short entry per known failure)."""


def fingerprint(quote: str, claimed: str) -> str:
    """SHA-256 (hex) of the whitespace-folded quote and claimed value."""
    text = f"{fold(quote)[0]}\n{fold(claimed)[0]}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class BaselineError(ValueError):
    """A baseline file that cannot be read; the message says which file and why."""


@dataclass(frozen=True)
class Entry:
    """One known failure."""

    claims_file: str
    """The claim file, relative to the project root (``""`` for a ``scan`` finding)."""
    id: str
    """The claim id."""
    fingerprint: str
    """:func:`fingerprint` of the quote and claimed value."""
    source: str = ""
    """The lesson (for findings without a claim file, and for people reading the file)."""
    quote: str = ""
    """The quote, for people reading the file; not used for matching."""
    claimed: str = ""
    """The claimed value, for people reading the file; not used for matching."""

    @classmethod
    def of(cls, finding: Finding) -> Entry:
        """The entry recording ``finding``."""
        return cls(
            claims_file=finding.claims_file,
            id=finding.id,
            fingerprint=fingerprint(finding.quote, finding.claimed),
            source=finding.source,
            quote=finding.quote,
            claimed=finding.claimed,
        )

    def to_json(self) -> dict[str, str]:
        """A plain dict for the file."""
        return {
            "claims_file": self.claims_file,
            "id": self.id,
            "fingerprint": self.fingerprint,
            "source": self.source,
            "quote": self.quote,
            "claimed": self.claimed,
        }

    def ref(self) -> dict[str, str]:
        """``{claims_file, id, source}``: how the report names the entry."""
        return {"claims_file": self.claims_file, "id": self.id, "source": self.source}

    @property
    def label(self) -> str:
        """``claims/x.yaml::id`` (or ``content/x.md::id`` for a scan entry)."""
        return f"{self.claims_file or self.source}::{self.id}"


def _ref(finding: Finding) -> dict[str, str]:
    return {"claims_file": finding.claims_file, "id": finding.id, "source": finding.source}


def _label(finding: Finding) -> str:
    return f"{finding.claims_file or finding.source}::{finding.id}"


@dataclass(frozen=True)
class Comparison:
    """A run's findings held against a baseline."""

    file: str
    """The baseline file as named on the command line."""
    known: tuple[Finding, ...]
    """Failures recorded in the baseline: listed, but they do not fail the run."""
    new: tuple[Finding, ...]
    """Every other problem (new failures and slips, stale claims, errors); suppressed and
    marked-wrong findings are neither known nor new."""
    fixed: tuple[Entry, ...]
    """Baseline entries whose claim ran and now holds."""

    def is_known(self, finding: Finding) -> bool:
        """True when ``finding`` is one of :attr:`known`."""
        return any(finding is known for known in self.known)

    def summary(self) -> str:
        """``baseline: 21 known, 1 new, 1 fixed since the baseline`` for the summary line."""
        return (
            f"baseline: {len(self.known)} known, {len(self.new)} new, "
            f"{len(self.fixed)} fixed since the baseline"
        )

    def to_json(self) -> dict[str, Any]:
        """The ``baseline`` section of ``report.json``: file, known, new, fixed (and counts)."""
        return {
            "file": self.file,
            "counts": {"known": len(self.known), "new": len(self.new), "fixed": len(self.fixed)},
            "known": [_ref(f) for f in self.known],
            "new": [_ref(f) for f in self.new],
            "fixed": [entry.ref() for entry in self.fixed],
        }

    def fixed_lines(self) -> list[str]:
        """One line per entry fixed since the baseline, for terminals."""
        return [f"fixed since the baseline: {entry.label}" for entry in self.fixed]


@dataclass(frozen=True)
class Baseline:
    """The recorded known failures."""

    entries: tuple[Entry, ...]
    """Sorted by claim file, lesson and id."""

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> Baseline:
        """A baseline recording every ``fail`` finding of a run."""
        entries = {Entry.of(f) for f in findings if f.verdict == EXCUSABLE}
        return cls(tuple(sorted(entries, key=_entry_order)))

    def to_text(self) -> str:
        """The file content: stable JSON, so the file diffs well in review."""
        data = {
            "version": VERSION,
            "tool": "lessoncheck",
            "about": "known failing claims; `lessoncheck baseline` rewrites this file",
            "entries": [entry.to_json() for entry in self.entries],
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

    def write(self, path: Path) -> None:
        """Write the file atomically."""
        write_atomic(path, self.to_text())

    def matches(self, finding: Finding) -> bool:
        """True when ``finding`` is a failure this baseline records."""
        if finding.verdict != EXCUSABLE:
            return False
        print_ = fingerprint(finding.quote, finding.claimed)
        for entry in self.entries:
            if entry.fingerprint != print_:
                continue
            if finding.claims_file and (entry.claims_file, entry.id) == (
                finding.claims_file,
                finding.id,
            ):
                return True
            if finding.source and entry.source == finding.source:
                return True
        return False

    def compare(self, findings: Sequence[Finding], file: str) -> Comparison:
        """Split a run's problems into known and new, and find the entries fixed since."""
        known: list[Finding] = []
        new: list[Finding] = []
        for finding in findings:
            if finding.verdict in _QUIET:
                continue
            (known if self.matches(finding) else new).append(finding)
        passing = {
            (f.claims_file, f.id) if f.claims_file else (f.source, f.id)
            for f in findings
            if f.verdict == "pass"
        }
        fixed = tuple(
            entry
            for entry in self.entries
            if ((entry.claims_file, entry.id) if entry.claims_file else (entry.source, entry.id))
            in passing
        )
        return Comparison(file, tuple(known), tuple(new), fixed)


def _entry_order(entry: Entry) -> tuple[str, str, str, str]:
    return (entry.claims_file, entry.source, entry.id, entry.fingerprint)


def _text(value: Any, name: str, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BaselineError(f"{where}: {name!r} must be a string")
    return value


def parse(text: str, name: str = "baseline") -> Baseline:
    """Read a baseline from its JSON text; raise :class:`BaselineError` when it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BaselineError(
            f"{name}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise BaselineError(f"{name}: expected a lessoncheck baseline with `entries: [...]`")
    if data.get("version") != VERSION:
        raise BaselineError(
            f"{name}: baseline version {data.get('version')!r} is not supported "
            f"(expected {VERSION}); run `lessoncheck baseline` again"
        )
    entries: list[Entry] = []
    for index, raw in enumerate(data["entries"]):
        where = f"{name}: entries[{index}]"
        if not isinstance(raw, dict):
            raise BaselineError(f"{where}: expected an object")
        fields = {
            key: _text(raw.get(key), key, where)
            for key in ("claims_file", "id", "fingerprint", "source", "quote", "claimed")
        }
        if not fields["id"] or len(fields["fingerprint"]) != 64:
            raise BaselineError(f"{where}: needs an `id` and a 64-digit `fingerprint`")
        if not fields["claims_file"] and not fields["source"]:
            raise BaselineError(f"{where}: needs a `claims_file` or a `source`")
        entries.append(Entry(**fields))
    return Baseline(tuple(sorted(entries, key=_entry_order)))


def load(path: Path) -> Baseline:
    """Read a baseline file; raise :class:`BaselineError` when it is missing or malformed."""
    try:
        # The file may be a committed link (to /dev/zero, a FIFO): the same bounded read of
        # a regular file as lessons and claim files.
        text = read_regular_file(path, MAX_BYTES).decode("utf-8-sig")
    except ValueError as error:  # UnicodeDecodeError is one; read_regular_file's reasons too
        if isinstance(error, UnicodeDecodeError):
            raise BaselineError(f"{path}: not UTF-8 text") from None
        raise BaselineError(f"{path}: cannot read the baseline: {error}") from None
    except FileNotFoundError:
        raise BaselineError(
            f"{path}: no such baseline file (create it with `lessoncheck baseline -o {path}`)"
        ) from None
    except OSError as error:
        raise BaselineError(f"{path}: cannot read ({error.strerror})") from None
    return parse(text, str(path))
