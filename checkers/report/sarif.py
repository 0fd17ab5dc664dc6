"""``report.sarif``: the claims that need attention as SARIF 2.1.0, for code-scanning UIs.

One run of the tool ``lessoncheck`` with one rule per claim kind (``lessoncheck/<kind>``, for a
number that does not hold) plus ``lessoncheck/stale`` (the quote is gone from the lesson) and
``lessoncheck/claim-error`` (the claim could not be read or evaluated). Each fail, stale or error
finding is one result at its lesson line (or claim-file line), with a fingerprint built from the
claim itself, so an alert survives the lesson lines moving.

Levels: ``error`` for a number wrong beyond every reading, ``warning`` for a slip (only the last
printed digit off) and for a stale claim. Quiet findings are results too, never dropped: a
suppressed failure carries ``suppressions`` (kind ``inSource`` for a ``lessoncheck: ignore``
comment, ``external`` for the project configuration), a statement the author marked wrong an
``inSource`` suppression saying so, and one marked wrong that holds after all is a ``note``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote as url_quote

from checkers import __version__
from checkers.catalog import KINDS
from checkers.files import write_atomic
from checkers.finding import Finding
from checkers.report import explain, location, needs_attention, quieted

__all__ = ["FINGERPRINT", "SCHEMA", "SRCROOT", "build", "render", "rule_id", "write"]

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "lessoncheckClaim/v1"
"""partialFingerprints key; bump the suffix if the hashed fields ever change."""

STALE_RULE = "lessoncheck/stale"
ERROR_RULE = "lessoncheck/claim-error"

_LEVELS = {"fail": "error", "error": "error", "stale": "warning"}


def level(finding: Finding) -> str:
    """The SARIF level: by severity for a number that does not hold (``warning`` for a slip),
    ``note`` for a statement marked wrong that holds, else by verdict."""
    if finding.verdict == "marked_wrong" and finding.severity is None:
        return "note"
    if finding.verdict in ("fail", "suppressed", "marked_wrong"):
        return "warning" if finding.severity == "slip" else "error"
    return _LEVELS[finding.verdict]


def _suppressions(finding: Finding) -> list[dict[str, str]]:
    if finding.suppression is not None:
        return [finding.suppression.to_json()]
    if finding.verdict == "marked_wrong" and finding.severity is not None:
        return [
            {"kind": "inSource", "justification": f"marked wrong by the author ({finding.marked})"}
        ]
    return []


def rule_id(finding: Finding) -> str:
    """The rule a non-passing finding breaks."""
    if finding.verdict == "stale":
        return STALE_RULE
    if finding.verdict == "error" or not finding.kind:
        return ERROR_RULE
    return f"lessoncheck/{finding.kind}"


def _kind_summary(kind: str) -> str:
    entry = KINDS.get(kind)
    return entry.summary if entry is not None else f"A {kind} claim in a lesson does not hold."


_FIX_ADVICE = (
    "Each alert names the reading and tolerance used, the recomputed value and the corrected "
    "number: correct the lesson (`lessoncheck fix` rewrites plain numbers), or correct the claim "
    "if it misreads the lesson."
)


def _kind_help(kind: str) -> dict[str, str]:
    """The rule's help: what a claim of this kind states (its catalog summary), what to do, and
    where its fields are described."""
    summary = _kind_summary(kind)
    reference = f"The kind's fields and an example: `lessoncheck kinds {kind}`."
    what = summary.removeprefix(f"Kind {kind}: ")
    return {
        "text": f"{summary} {_FIX_ADVICE} {reference}",
        "markdown": f"**`{kind}`**: {what}\n\n{_FIX_ADVICE}\n\n{reference}",
    }


def _rules(findings: Sequence[Finding]) -> list[dict[str, Any]]:
    # Every registered kind, so rule indices do not depend on which kinds happen to fail.
    kinds = sorted(set(KINDS) | {f.kind for f in findings if f.kind})
    rules = [
        {
            "id": f"lessoncheck/{kind}",
            "name": "".join(part.capitalize() for part in kind.replace("-", "_").split("_")),
            "shortDescription": {"text": f"A printed {kind} value does not hold"},
            "fullDescription": {"text": _kind_summary(kind)},
            "defaultConfiguration": {"level": "error"},
            "help": _kind_help(kind),
        }
        for kind in kinds
    ]
    rules.append(
        {
            "id": STALE_RULE,
            "name": "StaleClaim",
            "shortDescription": {"text": "A claim's quote is no longer in its lesson"},
            "fullDescription": {
                "text": "The lesson was edited and the quoted sentence is gone; the claim no "
                "longer checks anything."
            },
            "defaultConfiguration": {"level": "warning"},
            "help": {"text": "Update the claim's quote (and values) to the edited lesson."},
        }
    )
    rules.append(
        {
            "id": ERROR_RULE,
            "name": "ClaimError",
            "shortDescription": {"text": "A claim could not be read or evaluated"},
            "fullDescription": {
                "text": "The claim file or claim is malformed, or its check could not run."
            },
            "defaultConfiguration": {"level": "error"},
            "help": {"text": "Fix the claim as the message says."},
        }
    )
    return rules


def _artifact(path: str) -> dict[str, str]:
    # Project-relative paths resolve against %SRCROOT% (the checkout); anything absolute is
    # given as a file URI on its own. Percent-encoding keeps spaces and CJK names valid URIs.
    if PurePosixPath(path).is_absolute():
        return {"uri": "file://" + url_quote(path, safe="/")}
    return {"uri": url_quote(path, safe="/"), "uriBaseId": SRCROOT}


def fingerprint(finding: Finding) -> str:
    """A stable hash of what identifies the claim: (claims_file, id, quote)."""
    key = "\x00".join((finding.claims_file, finding.id, finding.quote))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _result(finding: Finding, rule_index: dict[str, int]) -> dict[str, Any]:
    path, line, column = location(finding)
    physical: dict[str, Any] = {"artifactLocation": _artifact(path)}
    if line is not None and line >= 1:
        region: dict[str, int] = {"startLine": line}
        if column is not None and column >= 1:
            region["startColumn"] = column
        physical["region"] = region
    rule = rule_id(finding)
    result: dict[str, Any] = {
        "ruleId": rule,
        "ruleIndex": rule_index[rule],
        "level": level(finding),
        "message": {"text": "\n".join(explain(finding)) or finding.verdict},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {FINGERPRINT: fingerprint(finding)},
        "properties": {
            "verdict": finding.verdict,
            "severity": finding.severity,
            "claimId": finding.id,
            "claimsFile": finding.claims_file,
            "kind": finding.kind,
        },
    }
    suppressions = _suppressions(finding)
    if suppressions:
        result["suppressions"] = suppressions
    if finding.location_kind == "lesson" and finding.claims_file:
        # Where the claim itself is written, for reviewers who need to change the claim.
        result["relatedLocations"] = [
            {
                "id": 1,
                "physicalLocation": {"artifactLocation": _artifact(finding.claims_file)},
                "message": {"text": f"claim {finding.id}"},
            }
        ]
    return result


def build(findings: Sequence[Finding]) -> dict[str, Any]:
    """The SARIF log as a plain dict: one run, its rules, one result per claim needing
    attention."""
    rules = _rules(findings)
    rule_index = {rule["id"]: index for index, rule in enumerate(rules)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "lessoncheck",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                # Columns come from Python string offsets (checkers.lesson), i.e. code points.
                "columnKind": "unicodeCodePoints",
                "results": [
                    _result(f, rule_index) for f in [*needs_attention(findings), *quieted(findings)]
                ],
            }
        ],
    }


def render(findings: Sequence[Finding]) -> str:
    """The SARIF log's text."""
    return json.dumps(build(findings), ensure_ascii=False, indent=2) + "\n"


def write(path: Path, findings: Sequence[Finding]) -> None:
    """Write the SARIF report atomically."""
    write_atomic(path, render(findings))
