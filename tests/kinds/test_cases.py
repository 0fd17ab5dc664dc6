"""Every claim kind against its case table ``tests/fixtures/kinds/<kind>.yaml`` (run only here).

Each case is a claim body that must pass, fail or be an error, with the source of its numbers
(hand-derived or published) named in ``source``. Values in the tables never come from running
the checker itself. A failing case also says why it fails: the value the checker must recompute
(``recomputed``, the outcome's value in base units: 0.5 for 50%, bytes for sizes) or fragments
of its message (``message_contains``), so a checker failing for the wrong reason is caught.
"""

from __future__ import annotations

from typing import Any

import pytest

from checkers.kinds import ALL_KINDS
from tests.cases import FIXTURES, load_cases
from tests.kinds import check_kind


def _all_cases() -> list[Any]:
    params = []
    for kind in sorted(ALL_KINDS):
        path = FIXTURES / "kinds" / f"{kind}.yaml"
        if path.exists():
            for param in load_cases(f"kinds/{kind}.yaml", as_claim_files=True):
                case = param.values[0]
                params.append(pytest.param(kind, case, id=f"{kind}:{param.id}"))
    return params


@pytest.mark.parametrize(("kind", "case"), _all_cases())
def test_kind_case(kind: str, case: dict[str, Any]) -> None:
    assert case.get("source"), "every case names where its numbers come from"
    outcome = check_kind(ALL_KINDS[kind], case["claim"])
    assert outcome.verdict == case["expect"], outcome.message
    for fragment in case.get("message_contains", []):
        assert fragment in outcome.message, outcome.message
    if "recomputed" in case:
        assert outcome.value == pytest.approx(_numbers(case["recomputed"]), rel=1e-9, abs=1e-12)
    if case["expect"] == "fail":
        assert "recomputed" in case or case.get("message_contains"), (
            "a failing case states the recomputed value or a message fragment"
        )


def _numbers(value: Any) -> float | tuple[float, ...]:
    """A ``recomputed:`` field (read as printed text, like claims) as numbers."""
    return tuple(float(item) for item in value) if isinstance(value, list) else float(value)


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_every_kind_has_passing_and_failing_cases(kind: str) -> None:
    path = FIXTURES / "kinds" / f"{kind}.yaml"
    assert path.exists(), f"missing case table {path}"
    expects = [param.values[0]["expect"] for param in load_cases(f"kinds/{kind}.yaml")]
    assert expects.count("pass") >= 4 and expects.count("fail") >= 4
