"""The authoring reference: the JSON Schema of claim files, ``lessoncheck kinds`` and
``lessoncheck schema``, ``--version``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from checkers import __version__, safeyaml
from checkers.catalog import KINDS
from checkers.claims import HEADER_FIELDS, build_claims_file
from checkers.cli import main
from checkers.kinds.base import Context
from checkers.reference import claim_file_schema, examples, field_docs, schema_text
from checkers.registry import lookup

ROOT = Path(__file__).resolve().parent.parent
CLAIM_FILES = sorted((ROOT / "claims").glob("**/*.yaml"))
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "kinds").glob("*.yaml"))


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = claim_file_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _as_editor_reads(text: str) -> Any:
    """YAML as a language server hands it to the schema: native types, keys as JSON text."""
    return json.loads(json.dumps(yaml.safe_load(text)))


def _errors(validator: jsonschema.protocols.Validator, data: Any) -> list[str]:
    return [error.message for error in validator.iter_errors(data)]


@pytest.mark.slow  # builds and checks the whole claim-file schema
@pytest.mark.parametrize("path", CLAIM_FILES, ids=lambda p: p.name)
def test_schema_validates_every_claim_file(
    validator: jsonschema.protocols.Validator, path: Path
) -> None:
    assert not _errors(validator, _as_editor_reads(path.read_text(encoding="utf-8")))


def test_claims_folder_is_not_empty() -> None:
    assert len(CLAIM_FILES) >= 3


@pytest.mark.slow  # builds and checks the whole claim-file schema
@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_schema_accepts_every_case_the_kind_accepts(
    validator: jsonschema.protocols.Validator, path: Path
) -> None:
    """Every pass and fail case of a kind's table is a claim lessoncheck reads; so must the
    schema (an editor must not underline a claim the tool accepts)."""
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))
    readable = [case for case in cases if case.get("expect") in ("pass", "fail")]
    assert readable
    for case in readable:
        claim = {"id": "case", "kind": path.stem, "quote": "q", **case["claim"]}
        data = json.loads(json.dumps({"lesson": "lesson.md", "claims": [claim]}))
        assert not _errors(validator, data), case["id"]


GOOD = """lesson: content/demo.md
claims:
  - id: dot
    kind: arithmetic
    quote: "0.6×0.4 + 0.2×0.7 = 0.38"
    expression: 0.6×0.4 + 0.2×0.7
    claimed: 0.38
  - id: heads
    kind: identity
    quote: "512/8=64"
    statement: 512/8 = 64
"""

BROKEN = {
    "misspelt kind": ("kind: arithmetic", "kind: arithmatic"),
    "misspelt field": ("expression: 0.6", "expresion: 0.6"),
    "field of another kind": ("statement: 512/8 = 64", "expression: 512/8"),
    "missing quote": ('    quote: "512/8=64"\n', ""),
    "missing lesson": ("lesson: content/demo.md\n", ""),
    "unknown top-level field": ("claims:\n", "claim:\n  - {}\nclaims:\n"),
    "claimed is a mapping": ("claimed: 0.38", "claimed: {value: 0.38}"),
    "negative occurrence": ("    kind: identity\n", "    kind: identity\n    occurrence: 0\n"),
    "id with a space": ("id: heads", "id: two heads"),
}


@pytest.mark.slow  # builds and checks the whole claim-file schema
def test_schema_accepts_the_good_file(validator: jsonschema.protocols.Validator) -> None:
    assert not _errors(validator, _as_editor_reads(GOOD))


@pytest.mark.slow  # builds and checks the whole claim-file schema
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_schema_rejects_a_broken_file_as_the_loader_does(
    validator: jsonschema.protocols.Validator, name: str
) -> None:
    old, new = BROKEN[name]
    assert old in GOOD
    text = GOOD.replace(old, new)
    assert _errors(validator, _as_editor_reads(text))
    loaded = build_claims_file(Path("claims/demo.yaml"), safeyaml.load(text))
    assert loaded.problems, "the loader accepts what the schema rejects"


def test_every_property_of_every_claim_is_documented() -> None:
    schema = claim_file_schema()
    for kind in KINDS:
        claim = schema["$defs"][f"{kind.title().replace('_', '')}Claim"]
        assert claim["properties"]["kind"] == {"const": kind, "type": "string", **_doc("kind")}
        undocumented = [n for n, p in claim["properties"].items() if not p.get("description")]
        assert not undocumented, (kind, undocumented)
        assert set(claim["required"]) >= {"id", "kind", "quote"}


def _doc(field: str) -> dict[str, str]:
    from checkers.claims import ClaimHeader

    return {"description": field_docs(ClaimHeader)[field]}


@pytest.mark.slow  # builds and checks the whole claim-file schema
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_a_docstring_example_that_it_reads_and_checks(
    validator: jsonschema.protocols.Validator, kind: str
) -> None:
    found = examples(kind)
    assert found, f"the docstring of {kind} has no Example:: block"
    for example in found:
        text = f"lesson: lesson.md\nclaims:\n{example.claim}\n"
        assert not _errors(validator, _as_editor_reads(text)), example.claim
        (claim,) = safeyaml.load(text).data["claims"]
        assert claim["kind"] == kind
        fields = {k: v for k, v in claim.items() if k not in HEADER_FIELDS}
        outcome = lookup(kind).check(lookup(kind).Input.model_validate(fields), Context())
        assert outcome.verdict in ("pass", "fail"), outcome.message


def test_kinds_lists_every_registered_kind_with_its_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["kinds"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = {line.split()[0]: line.split(None, 1)[1] for line in lines if line[:1].isalpha()}
    assert set(KINDS) <= set(listed)
    for name, entry in KINDS.items():
        assert entry.summary.endswith(listed[name])


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_kinds_name_shows_each_field_of_the_model(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["kinds", kind]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{kind}: ")
    model = lookup(kind).Input
    docs = field_docs(model)
    for field, info in model.model_fields.items():
        status = "required" if info.is_required() else ""
        assert f"\n  {field} ({status}" in out, field
        assert docs[field].splitlines()[0] in out, field
    for field in HEADER_FIELDS - {"kind"}:
        assert f"\n  {field} (" in out
    assert "Example" in out and f"kind: {kind}" in out
    assert "What it checks:" in out


def test_kinds_name_types_come_from_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kinds", "memory"]) == 0
    out = capsys.readouterr().out
    assert "\n  claimed (required): printed number\n" in out
    assert "\n  quantity (optional): one of weights, kv_cache, total\n" in out
    assert '\n  prefixes (default "as_printed"): one of as_printed, binary, either\n' in out
    assert "\n  layers (optional): printed whole number\n" in out
    assert "\n  quote (required): text\n" in out


def test_kinds_unknown_name_suggests_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kinds", "sofmax"]) == 2
    captured = capsys.readouterr()
    assert "unknown kind 'sofmax'; did you mean 'softmax'" in captured.err
    assert captured.out == ""


def test_schema_command_writes_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "editor" / "claims.schema.json"
    assert main(["schema", "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == schema_text()
    assert json.loads(schema_text())["$defs"]["SoftmaxClaim"]["properties"]["kind"]["const"] == (
        "softmax"
    )
    capsys.readouterr()
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == schema_text()


def test_schema_command_reports_an_unwritable_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert main(["schema", "-o", str(blocker / "schema.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"lessoncheck {__version__}"


def test_readme_names_the_schema_modeline() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "# yaml-language-server: $schema=" in readme
    assert "lessoncheck schema -o" in readme
