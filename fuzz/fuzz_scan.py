"""Coverage-guided fuzzing of the whole lesson pipeline: Markdown → drafts → claims → verdicts.

Each input (any bytes) is written as a lesson and goes through what ``lessoncheck scan`` does
(``scan_lesson``: read, parse the Markdown, draft claims with every recogniser, validate and
anchor them, check them), and through ``lessoncheck extract``'s drafting. The properties:

* nothing raises (an unreadable lesson is one error finding);
* every draft's quote anchors in the lesson and validates as a claim of its kind;
* no finding reports an internal error of a kind;
* no input takes longer than ``SLOW_SECONDS``.

Run (atheris: ``pip install atheris``; see docs/security.md)::

    mkdir -p /tmp/fuzz/scan
    python fuzz/fuzz_scan.py /tmp/fuzz/scan -max_total_time=300 -timeout=20 -rss_limit_mb=1024

An empty corpus folder is first filled with seeds: the lessons of ``content/``,
``tests/corpus/`` and ``tests/hostile/lessons/``, one paragraph per seed.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import time
from pathlib import Path

import atheris  # type: ignore[import-untyped]

with atheris.instrument_imports(include=["checkers"]):
    from checkers import lesson as lessons
    from checkers.claims import HEADER_FIELDS, ClaimHeader
    from checkers.extract import draft_claims, to_claim_data
    from checkers.kinds import ALL_KINDS, KIND_MODULES
    from checkers.scan import scan_lesson

    for _module in KIND_MODULES.values():  # kinds load lazily: instrument them now
        importlib.import_module(_module)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_expr import fill_corpus

ROOT = Path(__file__).resolve().parent.parent
SLOW_SECONDS = 15.0
"""One lesson slower than this is reported as a crash (the worst hostile lesson takes 8)."""
MAX_BYTES = 200_000
_SHM = "/dev/shm"  # a lesson is written per input: keep it in memory where there is tmpfs
_FOLDER = Path(
    tempfile.mkdtemp(prefix="lessoncheck-fuzz-", dir=_SHM if os.path.isdir(_SHM) else None)
)
_LESSON = _FOLDER / "lesson.md"


class Broken(AssertionError):
    """A property of the pipeline does not hold for this input."""


def check_lesson(data: bytes) -> None:
    """Scan ``data`` as a lesson and check the drafts' properties."""
    _LESSON.write_bytes(data)
    lessons._load.cache_clear()  # the cache keys on mtime, which may not change between inputs
    started = time.monotonic()
    findings = scan_lesson(_LESSON)
    for finding in findings:
        if "internal error" in finding.message or "could not be read" in finding.message:
            raise Broken(finding.message)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return
    if "\x00" in text:
        return
    lesson = lessons.Lesson.from_text(_LESSON, text)
    for claim in to_claim_data(_LESSON, text, draft_claims(text)):
        lesson.anchor(claim["quote"], claim.get("occurrence"))  # raises AnchorError if lost
        ClaimHeader.model_validate({k: v for k, v in claim.items() if k in HEADER_FIELDS})
        fields = {k: v for k, v in claim.items() if k not in HEADER_FIELDS}
        ALL_KINDS[str(claim["kind"])].Input.model_validate(fields)
    if time.monotonic() - started > SLOW_SECONDS:
        raise Broken(f"{len(data)} bytes took {time.monotonic() - started:.1f} s")


def test_one_input(data: bytes) -> None:
    """libFuzzer's entry point."""
    check_lesson(data[:MAX_BYTES])


def seeds() -> list[str]:
    """Paragraphs of every lesson we have."""
    found: list[str] = []
    for folder in ("content", "tests/corpus", "tests/hostile/lessons"):
        for lesson in sorted((ROOT / folder).glob("*.md")):
            text = lesson.read_text(encoding="utf-8")
            found += [p for p in text.split("\n\n") if p.strip()]
            found.append(text)
    return found


if __name__ == "__main__":
    fill_corpus(sys.argv, seeds)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
