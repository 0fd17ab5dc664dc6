"""The files one ``fix`` run involves (the claim files named and their lessons), their texts as
read, and checks of edited texts: claim files and lessons are loaded from the texts in memory
(:func:`checkers.claims.load_claims_file` and :func:`checkers.lesson.load_lesson` take text), so
no scratch copy is ever written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from checkers.claims import Claim, ClaimsFile, load_claims_file
from checkers.finding import Finding
from checkers.fix.plan import display
from checkers.runner import iter_claim_files, run_file

__all__ = ["Key", "Snapshot", "Workspace"]

Key = tuple[Path, str]
"""(claim file, claim id)."""


@dataclass
class Snapshot:
    """One checked state of the files."""

    files: dict[Path, ClaimsFile]
    claims: dict[Key, Claim]
    findings: dict[Key, Finding]
    order: list[Key]


class Workspace:
    """The claim files named and their lessons: their original texts, and checks of edited
    texts run in memory (nothing is written until the plan is)."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.claim_files: list[Path] = []
        self.lesson_of: dict[Path, Path] = {}
        self.original: dict[Path, str] = {}
        self.boms: set[Path] = set()
        self.unread: list[Finding] = []
        """What ``check`` reports about the claim files not rewritten because they, or their
        lessons, cannot be read: ``fix`` reports it too (an input error, exit 2)."""
        for path in (p.resolve() for p in iter_claim_files(list(paths))):
            loaded = load_claims_file(path)
            lesson = loaded.lesson_path.resolve() if loaded.lesson_path else None
            texts = [self._read(file) for file in (path, lesson) if file is not None]
            if None in texts:
                self.unread.extend(run_file(loaded))
                continue
            self.claim_files.append(path)
            if lesson is not None:
                self.lesson_of[path] = lesson
        self._memo: dict[tuple[Path, str, str], tuple[ClaimsFile, list[Finding]]] = {}

    def _read(self, path: Path) -> str | None:
        if path not in self.original:
            try:
                data = path.read_bytes()
                self.original[path] = data.decode("utf-8-sig")
            except (OSError, UnicodeDecodeError):
                return None
            if data.startswith(b"\xef\xbb\xbf"):
                self.boms.add(path)
        return self.original[path]

    def label(self, key: Key) -> str:
        return f"{display(key[0])}::{key[1]}"

    def check(self, texts: dict[Path, str]) -> Snapshot:
        """Run every claim file on ``texts`` (original text where absent), in memory.

        A claim file's findings depend only on its text and its lesson's, so files whose texts
        were checked before are not run again.
        """
        snapshot = Snapshot({}, {}, {}, [])
        for path in self.claim_files:
            lesson = self.lesson_of.get(path)
            claims_text = texts.get(path, self.original[path])
            lesson_text = texts.get(lesson, self.original[lesson]) if lesson else None
            memo_key = (path, claims_text, lesson_text or "")
            if memo_key not in self._memo:
                claims_file = load_claims_file(path, claims_text, lesson_text=lesson_text)
                self._memo[memo_key] = (claims_file, run_file(claims_file))
            claims_file, findings = self._memo[memo_key]
            snapshot.files[path] = claims_file
            for claim in claims_file.claims:
                snapshot.claims[(path, claim.id)] = claim
            for finding in findings:
                key = (path, finding.id)
                snapshot.findings[key] = finding
                snapshot.order.append(key)
        return snapshot
