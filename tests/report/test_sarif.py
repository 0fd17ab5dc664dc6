"""report.sarif: SARIF 2.1.0, checked by hand against the schema's essential constraints."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from checkers.catalog import KINDS
from checkers.finding import Finding
from checkers.kinds import ALL_KINDS
from checkers.report import sarif
from tests.report import ERROR, EVIL, FAIL, FILE_ERROR, FINDINGS, PASS, PROBLEMS, STALE

LEVELS = {"none", "note", "warning", "error"}


def _check_message(message: Any) -> None:
    assert isinstance(message, dict)
    assert isinstance(message.get("text"), str) and message["text"]


def _check_location(location: Any) -> None:
    physical = location["physicalLocation"]
    artifact = physical["artifactLocation"]
    assert isinstance(artifact["uri"], str) and artifact["uri"]
    # A URI reference: no spaces or other characters that must be percent-encoded.
    assert re.fullmatch(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+", artifact["uri"])
    if "uriBaseId" in artifact:
        assert artifact["uriBaseId"] == sarif.SRCROOT
        assert not artifact["uri"].startswith("/")
    region = physical.get("region")
    if region is not None:
        assert set(region) <= {"startLine", "startColumn", "endLine", "endColumn"}
        for key, value in region.items():
            assert isinstance(value, int) and value >= 1, key


def validate(log: dict[str, Any]) -> None:
    """The constraints of the SARIF 2.1.0 schema that this writer could get wrong."""
    json.dumps(log)  # serialisable
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "lessoncheck"
    if "informationUri" in driver:
        assert not re.match(r"[a-z]+://", driver["informationUri"])
    rules = driver["rules"]
    rule_ids = [rule["id"] for rule in rules]
    assert len(set(rule_ids)) == len(rule_ids)
    for rule in rules:
        assert isinstance(rule["id"], str) and rule["id"]
        _check_message(rule["shortDescription"])
        _check_message(rule["fullDescription"])
        assert rule["defaultConfiguration"]["level"] in LEVELS
    assert run.get("columnKind", "utf16CodeUnits") in {"utf16CodeUnits", "unicodeCodePoints"}
    for result in run["results"]:
        assert result["ruleId"] in rule_ids
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in LEVELS
        _check_message(result["message"])
        assert len(result["locations"]) >= 1
        for location in result["locations"]:
            _check_location(location)
        for related in result.get("relatedLocations", []):
            assert isinstance(related["id"], int) and related["id"] >= 0
            _check_location(related)
        fingerprints = result["partialFingerprints"]
        assert all(isinstance(v, str) for v in fingerprints.values())


def test_each_kind_rule_has_its_own_help() -> None:
    rules = {
        rule["id"]: rule for rule in sarif.build(FINDINGS)["runs"][0]["tool"]["driver"]["rules"]
    }
    helps = []
    for name, entry in KINDS.items():
        rule = rules[f"lessoncheck/{name}"]
        assert rule["fullDescription"]["text"] == entry.summary
        assert rule["help"]["text"].startswith(entry.summary)
        assert f"lessoncheck kinds {name}" in rule["help"]["text"]
        assert entry.summary.removeprefix(f"Kind {name}: ") in rule["help"]["markdown"]
        helps.append(rule["help"]["text"])
    assert len(set(helps)) == len(KINDS)


def _results(findings: list[Finding]) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = sarif.build(findings)["runs"][0]["results"]
    return results


def test_structure_is_valid() -> None:
    validate(sarif.build(FINDINGS))
    validate(sarif.build([]))
    validate(sarif.build([PASS]))


def test_rules_one_per_kind_plus_stale_and_error() -> None:
    rules = sarif.build(FINDINGS)["runs"][0]["tool"]["driver"]["rules"]
    ids = {rule["id"] for rule in rules}
    assert {f"lessoncheck/{kind}" for kind in ALL_KINDS} <= ids
    assert {"lessoncheck/stale", "lessoncheck/claim-error"} <= ids
    unknown = replace(FAIL, kind="brand-new")
    rules = sarif.build([unknown])["runs"][0]["tool"]["driver"]["rules"]
    assert "lessoncheck/brand-new" in {rule["id"] for rule in rules}


def test_one_result_per_problem_with_rule_and_level() -> None:
    results = _results(FINDINGS)
    assert [r["properties"]["claimId"] for r in results] == [
        f.id for f in sorted(PROBLEMS, key=lambda f: (f.claims_file, f.source, f.line or 0, f.id))
    ]
    by_id = {r["properties"]["claimId"]: r for r in results}
    assert by_id[FAIL.id]["ruleId"] == "lessoncheck/arithmetic"
    assert by_id[FAIL.id]["level"] == "error"
    assert by_id[STALE.id]["ruleId"] == "lessoncheck/stale"
    assert by_id[STALE.id]["level"] == "warning"
    assert by_id[ERROR.id]["ruleId"] == "lessoncheck/claim-error"
    assert by_id[ERROR.id]["level"] == "error"
    assert _results([PASS]) == []


def test_locations_point_at_the_lesson_or_the_claim_file() -> None:
    by_id = {r["properties"]["claimId"]: r for r in _results(FINDINGS)}
    lesson = by_id[EVIL.id]["locations"][0]["physicalLocation"]
    assert lesson["artifactLocation"] == {"uri": "content/demo.md", "uriBaseId": "%SRCROOT%"}
    assert lesson["region"] == {"startLine": 7, "startColumn": 3}
    related = by_id[EVIL.id]["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
    assert related["uri"] == "claims/demo.yaml"
    stale = by_id[STALE.id]["locations"][0]["physicalLocation"]
    assert stale["artifactLocation"]["uri"] == "claims/demo.yaml"
    assert stale["region"] == {"startLine": 24, "startColumn": 13}
    whole_file = by_id[FILE_ERROR.id]["locations"][0]["physicalLocation"]
    assert whole_file["artifactLocation"]["uri"] == "claims/broken.yaml"
    assert "region" not in whole_file


def test_uris_are_percent_encoded() -> None:
    odd = replace(FAIL, source="content/第 1 课.md")
    result = _results([odd])[0]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "content/%E7%AC%AC%201%20%E8%AF%BE.md"
    validate(sarif.build([odd]))


def test_message_has_message_values_and_fix() -> None:
    text = next(r for r in _results(FINDINGS) if r["properties"]["claimId"] == FAIL.id)["message"][
        "text"
    ]
    assert text.splitlines() == [
        FAIL.message,
        "claimed 0.52 → recomputed 0.5 → 0.50 (±0.005: 2 printed decimals)",
        f"fix: {FAIL.fix}",
    ]


def test_fingerprints_are_stable_and_ignore_the_line() -> None:
    first = _results([FAIL])[0]["partialFingerprints"]
    assert first == _results([FAIL])[0]["partialFingerprints"]
    assert first == _results([replace(FAIL, line=40)])[0]["partialFingerprints"]
    assert first != _results([replace(FAIL, quote="other = 0.52")])[0]["partialFingerprints"]
    assert first != _results([replace(FAIL, id="other")])[0]["partialFingerprints"]
    assert re.fullmatch(r"[0-9a-f]{64}", first[sarif.FINGERPRINT])


def test_write_is_atomic_json(tmp_path: Path) -> None:
    target = tmp_path / "report.sarif"
    sarif.write(target, FINDINGS)
    log = json.loads(target.read_text(encoding="utf-8"))
    validate(log)
    assert log == json.loads(json.dumps(sarif.build(FINDINGS)))
    assert [p.name for p in tmp_path.iterdir()] == ["report.sarif"]


def test_levels_follow_severity_and_quiet_findings_carry_suppressions() -> None:
    from tests.report import QUIET

    log = sarif.build(QUIET)
    validate(log)
    results = {r["properties"]["claimId"]: r for r in log["runs"][0]["results"]}
    assert set(results) == {
        "share-truncated",
        "dot-wrong",
        "legacy",
        "old",
        "quarter-four",
        "quarter-eight",
    }  # nothing quiet is dropped; the pass is no result
    assert results["share-truncated"]["level"] == "warning"
    assert results["share-truncated"]["properties"]["severity"] == "slip"
    assert results["dot-wrong"]["level"] == "error"
    assert "suppressions" not in results["dot-wrong"]
    assert results["legacy"]["suppressions"] == [
        {"kind": "inSource", "justification": "<!-- lessoncheck: ignore --> on line 8"}
    ]
    assert results["old"]["suppressions"][0]["kind"] == "external"
    assert results["quarter-four"]["suppressions"] == [
        {"kind": "inSource", "justification": "marked wrong by the author (❌ on line 2)"}
    ]
    # Marked wrong but right: a note for the author, not suppressed and not an error.
    assert results["quarter-eight"]["level"] == "note"
    assert "suppressions" not in results["quarter-eight"]
