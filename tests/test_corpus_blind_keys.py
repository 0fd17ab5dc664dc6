"""The blind corpus's answer keys agree with its lessons and with its README.

``tests/corpus/verify_keys.py`` recomputes every planted mistake and every annotated correct
statement of ``tests/corpus_blind/``; these tests run it there, check the README's lesson table
against the keys, and check that the verifier rejects keys that have gone wrong (so a passing
run means something).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

TESTS = Path(__file__).parent
BLIND = TESTS / "corpus_blind"
VERIFY = TESTS / "corpus" / "verify_keys.py"
# A row of the README's lesson table: | `en-x.md` | lines | planted mistakes | ...
ROW = re.compile(
    r"^\| `(?P<lesson>(?:en|zh)-[a-z0-9-]+\.md)` \| (?P<lines>\d+) \| (?P<mistakes>\d+)"
)


def run_verify(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(VERIFY), str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def readme_table() -> dict[str, tuple[int, int]]:
    """Lesson name -> (lines, planted mistakes) as the README's table states them."""
    rows: dict[str, tuple[int, int]] = {}
    for line in (BLIND / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows[match["lesson"]] = (int(match["lines"]), int(match["mistakes"]))
    return rows


def load_key(lesson: str) -> dict[str, Any]:
    key_path = BLIND / lesson.replace(".md", ".key.yaml")
    data = yaml.safe_load(key_path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), key_path
    return data


def test_verify_keys_accepts_the_blind_corpus() -> None:
    done = run_verify(BLIND)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "keys checked: 10" in done.stdout


def test_the_readme_table_lists_exactly_the_lessons() -> None:
    lessons = {p.name for p in BLIND.glob("*.md") if p.name != "README.md"}
    keyed = {p.name.replace(".key.yaml", ".md") for p in BLIND.glob("*.key.yaml")}
    assert set(readme_table()) == lessons == keyed


@pytest.mark.parametrize("lesson", sorted(readme_table()))
def test_each_key_has_the_mistakes_and_lines_the_readme_says(lesson: str) -> None:
    lines, mistakes = readme_table()[lesson]
    key = load_key(lesson)
    assert len(key["mistakes"] or []) == mistakes
    text = (BLIND / lesson).read_text(encoding="utf-8")
    assert len(text.rstrip("\n").split("\n")) == lines


@pytest.mark.parametrize("lesson", sorted(readme_table()))
def test_every_mistake_says_its_tier_and_shape(lesson: str) -> None:
    for mistake in load_key(lesson)["mistakes"] or []:
        assert mistake["tier"] in (1, 2, 3), mistake
        assert mistake["shape"], mistake


def test_the_corpus_has_the_promised_size() -> None:
    table = readme_table()
    for language in ("en", "zh"):
        lessons = [name for name in table if name.startswith(language + "-")]
        assert len(lessons) >= 5
        controls = [name for name in lessons if table[name][1] == 0]
        assert controls == [name for name in lessons if name.endswith("-clean.md")]
        assert len(controls) == 1
        planted = [table[name][1] for name in lessons if name not in controls]
        assert all(4 <= count <= 7 for count in planted), planted
    assert sum(mistakes for _, mistakes in table.values()) >= 50
    tiers = {m["tier"] for name in table for m in load_key(name)["mistakes"] or []}
    assert tiers == {1, 2, 3}


def copy_lesson(lesson: str, folder: Path) -> tuple[Path, Path]:
    lesson_copy = folder / lesson
    key_copy = folder / lesson.replace(".md", ".key.yaml")
    shutil.copy(BLIND / lesson, lesson_copy)
    shutil.copy(BLIND / key_copy.name, key_copy)
    return lesson_copy, key_copy


def test_verify_keys_rejects_a_planted_mistake_that_is_right(tmp_path: Path) -> None:
    lesson = "en-kv-cache-serving.md"
    lesson_copy, key_copy = copy_lesson(lesson, tmp_path)
    assert run_verify(tmp_path).returncode == 0
    mistake = load_key(lesson)["mistakes"][0]
    # Keep the key's line and column but make the lesson print the true value there.
    lines = lesson_copy.read_text(encoding="utf-8").split("\n")
    row, col = mistake["line"] - 1, mistake["col"] - 1
    text = lines[row]
    assert text[col:].startswith(mistake["printed"])
    lines[row] = text[:col] + mistake["correct"] + text[col + len(mistake["printed"]) :]
    lesson_copy.write_text("\n".join(lines), encoding="utf-8")
    key_text = key_copy.read_text(encoding="utf-8")
    old, new = f'printed: "{mistake["printed"]}"', f'printed: "{mistake["correct"]}"'
    key_copy.write_text(key_text.replace(old, new, 1), encoding="utf-8")
    done = run_verify(tmp_path)
    assert done.returncode == 1
    assert "is actually right" in done.stdout


def test_verify_keys_rejects_a_correct_statement_that_no_longer_agrees(tmp_path: Path) -> None:
    lesson = "zh-position-encoding-clean.md"
    _, key_copy = copy_lesson(lesson, tmp_path)
    key_text = key_copy.read_text(encoding="utf-8")
    # 1 + 2 + 3 + 4 = 10 allowed positions of a 4-token causal mask; claim 11 instead.
    assert 'expr: "1+2+3+4"' in key_text
    key_copy.write_text(key_text.replace('expr: "1+2+3+4"', 'expr: "1+2+3+5"'), encoding="utf-8")
    done = run_verify(tmp_path)
    assert done.returncode == 1
    assert "1+2+3+5" in done.stdout


def test_verify_keys_rejects_a_mistake_within_two_percent(tmp_path: Path) -> None:
    lesson = "zh-moe-routing-notes.md"
    _, key_copy = copy_lesson(lesson, tmp_path)
    key_text = key_copy.read_text(encoding="utf-8")
    # The capacity 640 is planted against 1.25 × 4096 × 2 / 8 = 1,280; 650 × 0.99 is within 2%.
    assert 'expr: "1.25*4096*2/8"' in key_text
    key_copy.write_text(
        key_text.replace('expr: "1.25*4096*2/8"', 'expr: "650*0.99"').replace(
            'correct: "1,280"', 'correct: "644"'
        ),
        encoding="utf-8",
    )
    done = run_verify(tmp_path)
    assert done.returncode == 1
    assert "within 2%" in done.stdout


def test_verify_keys_accepts_the_domain_corpus() -> None:
    done = run_verify(TESTS / "corpus_domain")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "keys checked: 4" in done.stdout
