"""Build the practice lessons from ``src/``: a planted lesson with its key, and a clean twin.

A source line marks each planted mistake as ``[[planted|correct|tier|category]]`` (a fifth field
names the printed number the key looks for when the planted text is longer than the number).
``<name>.md`` gets the planted text and ``<name>.key.yaml`` its key in the corpus format;
``<name>-right.md`` gets the correct text and a key with no mistakes (every flag on it is a
false alarm). Run ``python tests/extract/practice/build.py``; ``tests/corpus/measure.py
tests/extract/practice`` measures them.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
MARK = re.compile(r"\[\[([^|\]]+)\|([^|\]]+)\|(\d)\|(\w+)(?:\|([^\]]+))?\]\]")


def build(source: Path) -> None:
    planted_lines: list[str] = []
    right_lines: list[str] = []
    mistakes: list[dict[str, object]] = []
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
        planted, right, at = "", "", 0
        for match in MARK.finditer(line):
            planted += line[at : match.start()]
            right += line[at : match.start()]
            printed = match.group(5) or match.group(1)
            col = len(planted) + match.group(1).find(printed) + 1
            planted += match.group(1)
            right += match.group(2)
            at = match.end()
            mistakes.append(
                {
                    "line": number,
                    "col": col,
                    "printed": printed,
                    "correct": match.group(2),
                    "category": match.group(4),
                    "tier": int(match.group(3)),
                }
            )
        planted_lines.append(planted + line[at:])
        right_lines.append(right + line[at:])
    name = source.stem
    language = "zh" if name.startswith("zh") else "en"
    (HERE / f"{name}.md").write_text("\n".join(planted_lines) + "\n", encoding="utf-8")
    (HERE / f"{name}-right.md").write_text("\n".join(right_lines) + "\n", encoding="utf-8")
    for lesson, entries in ((f"{name}.md", mistakes), (f"{name}-right.md", [])):
        key = {"lesson": lesson, "language": language, "mistakes": entries}
        (HERE / lesson.replace(".md", ".key.yaml")).write_text(
            yaml.safe_dump(key, allow_unicode=True, sort_keys=False), encoding="utf-8"
        )


if __name__ == "__main__":
    for path in sorted((HERE / "src").glob("*.md")):
        build(path)
