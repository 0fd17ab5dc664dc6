"""Where the numbers ``scan`` skips as code stand: line shapes, with their numbers and lessons.

``python benchmarks/code_shapes.py FOLDER [--samples N]`` scans every ``*.md`` under FOLDER as
``lessoncheck scan --stats`` does, takes the numbers it skipped with the reason ``code`` (a line
of a code or output block, or inline code) and groups their lines by shape, the first of
:data:`SHAPES` that matches: a comment with a digit after code, a printed call, a function's
keyword argument, a literal list, a shape tuple… Printed per shape: numbers, lessons, and N
sample lines. It tells where a recogniser of code could still find statements, and where the
numbers are hyperparameters, labels and logs that state nothing.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

if __package__ in (None, ""):
    sys.path.append(str(Path(__file__).resolve().parent.parent))

from checkers import safeyaml
from checkers.claims import build_claims_file
from checkers.extract import drafts_of, to_claim_data
from checkers.extract.coverage import _checked_spans, numbers_seen
from checkers.extract.document import Block, parse_document
from checkers.lesson import LessonError, load_lesson
from checkers.runner import run_file

__all__ = ["SHAPES", "main", "shape_of"]

SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "a shape: .shape, torch.Size, a tuple in a comment",
        re.compile(r"torch\.Size|\.shape\b|(?:#|//)[^\n]*[(\[]\s*\d+\s*,\s*\d+"),
    ),
    ("comment with a digit", re.compile(r"(?:#|//)[^\n]*\d")),
    ("print call", re.compile(r"\bprint\s*\(")),
    ("assignment of a literal", re.compile(r"^\s*[\w.]+\s*[:=]\s*[-\d.e_]+\s*[,;]?\s*$")),
    ("keyword argument", re.compile(r"\w+\s*=\s*[-\d.]+")),
    ("dict entry", re.compile(r"""^\s*['"]?\w+['"]?\s*:\s*[-\d.]+""")),
    ("call with a literal", re.compile(r"\w\(\s*[-\d.]+")),
    ("label: value (logs, outputs)", re.compile(r"^\s*[A-Za-z][\w ()/-]*[:=]\s*[-\d.]")),
    ("index or slice", re.compile(r"\[\s*-?\d+\s*[\]:]")),
    ("literal list", re.compile(r"\[\s*[-\d.]+\s*,")),
    ("diagram or table", re.compile(r"[|│┌└├→]|-->|->")),
)
"""Line shapes, tried in order; a line matching none is ``other``."""


def shape_of(line: str, block: Block | None) -> str:
    """The shape of a code line (``inline code`` when it is not in a code block)."""
    if block is None or block.kind != "fence":
        return "inline code"
    if block.info.split()[:1] == ["mermaid"]:
        return "mermaid diagram"
    return next((name for name, pattern in SHAPES if pattern.search(line)), "other")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--samples", type=int, default=5)
    options = parser.parse_args(argv)
    numbers: Counter[str] = Counter()
    lessons: dict[str, set[Path]] = defaultdict(set)
    lines: dict[str, list[str]] = defaultdict(list)
    for path in sorted(options.folder.rglob("*.md")):
        try:
            lesson = load_lesson(path)
        except LessonError:
            continue
        document = parse_document(lesson.readable)
        drafts = drafts_of(document)
        claims = to_claim_data(lesson, drafts)
        located = safeyaml.Located({"lesson": str(path), "claims": claims}, {})
        checked = [draft.checked for draft in drafts]
        claims_file = build_claims_file(
            path, located, lesson_file=path, lesson_loaded=lesson, checked=checked
        )
        verdicts = {finding.id: finding.verdict for finding in run_file(claims_file)}
        blocks = {line.number: block for block, line in document.lines()}
        for number in numbers_seen(document, lesson, _checked_spans(lesson, claims, verdicts)):
            if number.reason != "code":
                continue
            text = document.raw_line(number.line)
            shape = shape_of(text, blocks.get(number.line))
            numbers[shape] += 1
            lessons[shape].add(path)
            lines[shape].append(f"{path.relative_to(options.folder)}:{number.line}: {text.strip()}")
    rng = random.Random(0)
    print(f"{sum(numbers.values())} numbers skipped as code")
    for shape, count in numbers.most_common():
        print(f"{count:7} numbers in {len(lessons[shape]):4} lessons  {shape}")
        unique = sorted(set(lines[shape]))
        for sample in rng.sample(unique, min(options.samples, len(unique))):
            print(f"          {sample[:140]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
