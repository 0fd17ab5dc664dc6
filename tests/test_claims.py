from __future__ import annotations

import json
from pathlib import Path

import pytest

from checkers import safeyaml
from checkers.claims import build_claims_file, load_claims_file
from checkers.cli import main
from tests.conftest import CLAIMS


def write(project: Path, text: str) -> Path:
    path = project / "claims" / "demo.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_file_loads_and_anchors(project: Path) -> None:
    loaded = load_claims_file(project / "claims" / "demo.yaml")
    assert loaded.problems == ()
    assert [c.id for c in loaded.claims] == ["dot-right", "dot-wrong", "scaled", "head-size"]
    assert loaded.claims[0].anchor is not None and loaded.claims[0].anchor.line == 3
    assert loaded.lesson_path == project / "content" / "demo.md"


def test_unknown_kind_suggests_the_nearest(project: Path) -> None:
    path = write(
        project,
        "lesson: content/demo.md\nclaims:\n  - id: a\n    kind: arithmatic\n"
        "    quote: '512/8=64'\n",
    )
    (problem,) = load_claims_file(path).problems
    assert "did you mean 'arithmetic'" in problem.message
    assert problem.location().endswith("demo.yaml:4:11")


def test_misspelt_field_suggests_the_right_one(project: Path) -> None:
    path = write(
        project,
        "lesson: content/demo.md\nclaims:\n  - id: a\n    kind: identity\n"
        "    quote: '512/8=64'\n    statment: 512/8 = 64\n",
    )
    messages = [p.message for p in load_claims_file(path).problems]
    assert any("missing field 'statement'" in m for m in messages)
    assert any(
        "unknown field 'statment'" in m and "did you mean 'statement'" in m for m in messages
    )


def test_bad_claim_does_not_hide_the_others(project: Path) -> None:
    text = (project / "claims" / "demo.yaml").read_text(encoding="utf-8")
    text = text.replace("    claimed: 0.38\n", "    claimed: zero point four\n")
    loaded = load_claims_file(write(project, text))
    assert [c.id for c in loaded.claims] == ["dot-wrong", "scaled", "head-size"]
    (problem,) = loaded.problems
    assert problem.claim_id == "dot-right"
    assert "field 'claimed'" in problem.message
    assert problem.position is not None and problem.position.line == 7


def test_yaml_syntax_error_is_one_located_problem(project: Path) -> None:
    path = write(project, "lesson: content/demo.md\nclaims:\n  - id: [oops\n")
    (problem,) = load_claims_file(path).problems
    assert problem.position is not None
    assert "YAML syntax error" in problem.message


def test_duplicate_ids_and_missing_lesson(project: Path) -> None:
    path = write(
        project,
        "lesson: content/nope.md\nclaims:\n"
        "  - {id: a, kind: identity, quote: x, statement: 1 = 1}\n"
        "  - {id: a, kind: identity, quote: x, statement: 1 = 1}\n",
    )
    messages = [p.message for p in load_claims_file(path).problems]
    assert any("not found" in m for m in messages)
    assert any("duplicate claim id 'a'" in m for m in messages)


def test_lesson_path_may_not_escape_the_project(project: Path) -> None:
    path = write(project, "lesson: ../../etc/passwd\nclaims: []\n")
    (problem,) = load_claims_file(path).problems
    assert "stay inside" in problem.message


def test_tolerance_override_needs_a_reason(project: Path) -> None:
    path = write(
        project,
        "lesson: content/demo.md\nclaims:\n"
        "  - {id: a, kind: identity, quote: '512/8=64', statement: 512/8 = 64,"
        " tolerance: {relative: 0.1}}\n",
    )
    (problem,) = load_claims_file(path).problems
    assert "tolerance.reason" in problem.message
    assert problem.location().endswith("demo.yaml:3:71")  # the `tolerance:` key


def test_a_missing_nested_field_points_at_its_key_line(project: Path) -> None:
    path = write(
        project,
        "lesson: content/demo.md\nclaims:\n  - id: a\n    kind: identity\n"
        "    quote: '512/8=64'\n    statement: 512/8 = 64\n    tolerance:\n"
        "      # the reason is missing\n      relative: 0.1\n",
    )
    (problem,) = load_claims_file(path).problems
    assert problem.location().endswith("demo.yaml:7:5"), problem
    assert "missing field 'tolerance.reason'" in problem.message


def test_a_control_character_is_located_without_parser_jargon(project: Path) -> None:
    text = CLAIMS.replace('0.6×0.4 + 0.2×0.7 = 0.38"', '0.6×0.4 + 0.2×0.7 =\b 0.38"', 1)
    (problem,) = load_claims_file(write(project, text)).problems
    line = next(n for n, row in enumerate(text.split("\n"), 1) if "\b" in row)
    column = text.split("\n")[line - 1].index("\b") + 1
    assert problem.location().endswith(f"demo.yaml:{line}:{column}"), problem
    assert "U+0008" in problem.message
    assert "#x" not in problem.message and "position" not in problem.message


def test_invalid_utf8_names_the_line_and_column_of_the_byte(project: Path) -> None:
    path = project / "claims" / "demo.yaml"
    path.write_bytes(b"lesson: content/demo.md\nclaims:\n  - id: caf\xe9\n")
    (problem,) = load_claims_file(path).problems
    assert problem.location().endswith("demo.yaml:3:12"), problem
    assert "not valid UTF-8" in problem.message and "0xe9" in problem.message
    assert "offset" not in problem.message


def test_inputs_validated_before_are_used_as_they_are(project: Path) -> None:
    path = project / "claims" / "demo.yaml"
    located = safeyaml.load(path.read_text(encoding="utf-8"))
    first, second = load_claims_file(path).claims[:2]
    # Another claim's input stands in for the first claim's: it is taken, not re-validated.
    rebuilt = build_claims_file(path, located, checked=[second.input])
    assert rebuilt.claims[0].input is second.input
    assert rebuilt.claims[1].input == second.input
    # An input of another kind's model is not taken.
    mismatched = build_claims_file(path, located, checked=[object()])  # type: ignore[list-item]
    assert mismatched.claims[0].input == first.input


def test_texts_held_in_memory_are_loaded_without_reading_the_files(project: Path) -> None:
    """``fix`` checks its edits this way: the claim file's and the lesson's texts are given,
    the lesson is still found through ``lesson:`` (path and root from disk)."""
    claims_path = project / "claims" / "demo.yaml"
    lesson_path = project / "content" / "demo.md"
    on_disk = claims_path.read_text(encoding="utf-8")
    edited_lesson = lesson_path.read_text(encoding="utf-8").replace("= 0.52\n", "= 0.50\n", 1)
    edited_claims = on_disk.replace(
        'quote: "score = 0.5×0.5 + 0.5×0.5 = 0.52"', 'quote: "score = 0.5×0.5 + 0.5×0.5 = 0.50"'
    )
    loaded = load_claims_file(claims_path, edited_claims, lesson_text=edited_lesson)
    by_id = {claim.id: claim for claim in loaded.claims}
    assert by_id["dot-wrong"].anchor is not None and not by_id["dot-wrong"].stale
    assert loaded.lesson_path == lesson_path and loaded.root == project.resolve()
    # The files themselves are untouched, and read from disk the old quote still anchors.
    assert claims_path.read_text(encoding="utf-8") == on_disk
    from_disk = {claim.id: claim for claim in load_claims_file(claims_path).claims}
    assert from_disk["dot-wrong"].anchor is not None
    # The edited claim file against the lesson on disk: its quote is gone (stale).
    stale = {c.id: c for c in load_claims_file(claims_path, edited_claims).claims}
    assert stale["dot-wrong"].stale


DUPLICATED = (
    "lesson: content/demo.md\nclaims:\n"
    "  - id: head\n    kind: identity\n    quote: '512/8=64'\n    statement: 512/8 = 64\n"
    "  - id: other\n    kind: identity\n    quote: '512/8=64'\n    statement: 512/8 = 64\n"
    "  - id: head\n    kind: identity\n    quote: '512/8=64'\n    statement: 512/8 = 65\n"
)


def test_a_duplicate_id_names_both_positions_and_keeps_both_claims(project: Path) -> None:
    loaded = load_claims_file(write(project, DUPLICATED))
    assert [c.id for c in loaded.claims] == ["head", "other"]  # the first keeps the id
    assert loaded.order == ("head", "other", "head[3]")
    (problem,) = loaded.problems
    assert problem.claim_id == "head[3]"  # its own label: reported, never silently merged
    assert problem.position is not None and problem.position.line == 11
    assert "the claim at demo.yaml:3:5" in problem.message  # where the id was first used


def test_a_duplicate_id_is_reported_by_check(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, DUPLICATED)
    monkeypatch.chdir(project)
    assert main(["check", "--json", "report.json"]) == 2
    findings = json.loads((project / "report.json").read_text(encoding="utf-8"))["findings"]
    assert [(f["id"], f["verdict"]) for f in findings] == [
        ("head", "pass"),
        ("other", "pass"),
        ("head[3]", "error"),
    ]
    out = capsys.readouterr().out
    assert "claims/demo.yaml:11:5" in out and "demo.yaml:3:5 already has it" in out
