"""README's "Use it in your own course", followed step by step on a small MkDocs-style course.

The course has two ``index.md`` in different folders, an MDX lesson whose JSX comment holds a
wrong number no reader sees, and a notebook with a wrong number in a markdown cell and one in a
printed output. The commands and their exit codes are read from the README itself, so the
section cannot drift from what the tool does; the install line is left to
``tests/test_ci_examples.py``, which installs the package the way the CI examples do.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import nbformat
import pytest
import yaml

from checkers.cli import main

ROOT = Path(__file__).resolve().parent.parent

WEEK1 = """# Week 1: dot products

The score of the first pair is 0.5×0.4 + 0.3×0.2 = 0.28 before scaling.

Eight heads of 64 dimensions each give 8 × 64 = 512 dimensions in all.
"""

WEEK2 = """# Week 2: scaling

The cache holds 2 × 32 × 128 = 8192 numbers per token.

The row we keep for the next section, once it is summed,
comes to 0.2 + 0.3 + 0.4 = 0.9 in total.

Divided by the square root of four: 0.52 / 2 = 0.25 for the scaled score.
"""

MDX = """import Callout from '@site/src/components/Callout'

# Attention sizes

{/* an old figure, kept for the record: 3 × 3 = 10 */}

<Callout type="note" width={320}>
Each of the 12 heads has 768 / 12 = 64 dimensions.
</Callout>
"""


def lab_notebook() -> str:
    book = nbformat.v4.new_notebook()
    book.metadata["language_info"] = {"name": "python"}
    book.cells = [
        nbformat.v4.new_markdown_cell("# Week 3 lab\n\nThe product is 2 × 3 × 4 = 26 here."),
        nbformat.v4.new_code_cell(
            'x = 7 * 8\nprint(f"7 × 8 = {x}")',
            outputs=[nbformat.v4.new_output("stream", name="stdout", text="7 × 8 = 54\n")],
        ),
        nbformat.v4.new_markdown_cell("A square: 3 × 3 = 9."),
    ]
    return str(nbformat.writes(book))


LESSONS = {
    "docs/week1/index.md": WEEK1,
    "docs/week2/index.md": WEEK2,
    "docs/extras/attention.mdx": MDX,
}
NOTEBOOK = "docs/week3/lab.ipynb"

# (lesson, quote) of every wrong number in the course, and the number that corrects it.
WRONG = {
    ("docs/week1/index.md", "0.5×0.4 + 0.3×0.2 = 0.28"): "0.26",
    ("docs/week2/index.md", "0.52 / 2 = 0.25"): "0.26",
    (NOTEBOOK, "2 × 3 × 4 = 26"): "24",
    (NOTEBOOK, "7 × 8 = 54"): "56",
}
CELLS = {"2 × 3 × 4 = 26": "cell 1, line 3", "7 × 8 = 54": "cell 2, output 1, line 1"}


def readme_steps() -> list[tuple[str, int]]:
    """The ``lessoncheck`` commands of the README section, in order, with their ``# exit N``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Use it in your own course", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    steps = []
    for line in block.splitlines():
        if line.startswith("lessoncheck "):
            command, comment = line.split("#", 1)
            found = re.match(r"\s*exit (\d)", comment)
            assert found, f"README step without its exit code: {line}"
            steps.append((command.strip(), int(found.group(1))))
    return steps


def expected_line(lesson: str, text: str, quote: str) -> int:
    """The 1-based line of the file that holds ``quote``: the lesson's line, or for a notebook
    the line of its JSON string (where SARIF points)."""
    lines = text.split("\n")
    return next(number for number, line in enumerate(lines, start=1) if quote in line)


def claim_files(course: Path) -> dict[str, tuple[Path, list[dict[str, Any]]]]:
    """lesson → (claim file, its claims), found by each file's ``lesson:``: one file per lesson."""
    found: dict[str, tuple[Path, list[dict[str, Any]]]] = {}
    for path in sorted((course / "claims").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data["lesson"] not in found, f"two claim files for {data['lesson']}"
        found[data["lesson"]] = (path, data["claims"])
    return found


def snapshot(course: Path) -> dict[str, str]:
    return {
        str(path.relative_to(course)): path.read_text(encoding="utf-8")
        for path in sorted(course.rglob("*"))
        if path.is_file() and "reports" not in path.parts and path.name != "scan.json"
    }


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()  # the repository root: report paths are relative to it
    for name, text in LESSONS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / NOTEBOOK).parent.mkdir(parents=True)
    (tmp_path / NOTEBOOK).write_text(lab_notebook(), encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: A course\ndocs_dir: docs\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def failures(findings: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for finding in findings:
        if finding["verdict"] == "fail":
            key = (finding["source"], finding["quote"])
            assert key not in found, f"reported twice: {key}"
            found[key] = finding
    return found


def assert_every_wrong_number_found(course: Path, findings: list[dict[str, Any]]) -> None:
    found = failures(findings)
    assert set(found) == set(WRONG)
    for (lesson, quote), finding in found.items():
        text = (course / lesson).read_text(encoding="utf-8")
        assert finding["line"] == expected_line(lesson, text, quote), (lesson, quote)
        assert finding["cell"] == CELLS.get(quote), (lesson, quote)
        assert WRONG[(lesson, quote)] in (finding["fix"] or ""), finding


def test_the_readme_steps_on_an_mkdocs_course(course: Path) -> None:
    steps = readme_steps()
    assert [command for command, _ in steps] == [
        "lessoncheck scan docs/",
        "lessoncheck extract docs/",
        "lessoncheck check",
        "lessoncheck fix --diff",
        "lessoncheck fix --write",
        "lessoncheck extract --check docs/",
    ]
    documented = dict(steps)

    def run(command: str, *extra: str) -> None:
        assert main([*shlex.split(command)[1:], *extra]) == documented[command], command

    # 2. First scan: every wrong number, at its file and line (the notebook's: cell and JSON
    # line); the MDX comment's 3 × 3 = 10 is not among them. Nothing is written.
    before = snapshot(course)
    run("lessoncheck scan docs/")
    run("lessoncheck scan docs/", "--json", "scan.json")
    scanned = json.loads((course / "scan.json").read_text(encoding="utf-8"))["findings"]
    assert_every_wrong_number_found(course, scanned)
    assert not any("3 × 3 = 10" in f["quote"] for f in scanned)
    assert snapshot(course) == before

    # 3. First extract: one claim file per lesson (the two index.md apart), and again: nothing
    # changes. A claim the author reviews (origin: auto removed) is not drafted a second time.
    run("lessoncheck extract docs/")
    files = claim_files(course)
    assert set(files) == {*LESSONS, NOTEBOOK}
    assert len({path for path, _ in files.values()}) == 4
    quotes = {lesson: sorted(c["quote"] for c in claims) for lesson, (_, claims) in files.items()}
    for lesson, quote in WRONG:
        assert quote in quotes[lesson]
    assert not any("3 × 3 = 10" in q for q in quotes["docs/extras/attention.mdx"])
    week2, _ = files["docs/week2/index.md"]
    reviewed = re.sub(
        r"(quote: 0\.2 \+ 0\.3 \+ 0\.4 = 0\.9\n)(\s+)origin: auto\n",
        r"\1",
        week2.read_text(encoding="utf-8"),
    )
    assert reviewed != week2.read_text(encoding="utf-8"), "the wrapped-line statement was drafted"
    week2.write_text(reviewed, encoding="utf-8")
    extracted = snapshot(course)
    run("lessoncheck extract docs/")
    assert snapshot(course) == extracted

    # 4. Check: the same wrong numbers, now as claims; fix --diff changes nothing; fix --write
    # corrects them (the notebook stays a valid notebook), and claims/ stays in step.
    assert main(["check", "--json", "check.json"]) == documented["lessoncheck check"]
    checked = json.loads((course / "check.json").read_text(encoding="utf-8"))["findings"]
    assert_every_wrong_number_found(course, checked)
    run("lessoncheck check")
    run("lessoncheck fix --diff")
    assert snapshot(course) == {**extracted, "check.json": snapshot(course)["check.json"]}
    run("lessoncheck fix --write")
    for (lesson, quote), right in WRONG.items():
        text = (course / lesson).read_text(encoding="utf-8")
        assert quote not in text and quote.rsplit(" ", 1)[0] + " " + right in text
    nbformat.validate(nbformat.reads((course / NOTEBOOK).read_text("utf-8"), as_version=4))
    assert "3 × 3 = 10" in (course / "docs/extras/attention.mdx").read_text(encoding="utf-8")
    assert main(["check"]) == 0
    run("lessoncheck extract --check docs/")

    # Nothing lost or duplicated: the same claims, one each, after two extracts and a fix.
    after = claim_files(course)
    assert {lesson: sorted(c["id"] for c in claims) for lesson, (_, claims) in after.items()} == {
        lesson: sorted(c["id"] for c in claims) for lesson, (_, claims) in files.items()
    }
    for lesson, (_, claims) in after.items():
        assert len({c["quote"] for c in claims}) == len(claims), lesson
    fixed = snapshot(course)
    run("lessoncheck extract docs/")
    assert snapshot(course) == fixed
