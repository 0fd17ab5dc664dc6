"""Every claim kind against its case table ``tests/fixtures/kinds/<kind>.yaml`` (run only here).

Each case is a claim body that must pass, fail or be an error, with the source of its numbers
(hand-derived or published) named in ``source``. Values in the tables never come from running
the checker itself.
"""

from __future__ import annotations

from typing import Any

import pytest

from checkers.kinds import ALL_KINDS
from checkers.kinds.base import Context
from tests.cases import FIXTURES, load_cases


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
    module = ALL_KINDS[kind]
    assert case.get("source"), "every case names where its numbers come from"
    claim = module.Input.model_validate(case["claim"])
    outcome = module.check(claim, Context())
    assert outcome.verdict == case["expect"], outcome.message
    for fragment in case.get("message_contains", []):
        assert fragment in outcome.message, outcome.message


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_every_kind_has_passing_and_failing_cases(kind: str) -> None:
    path = FIXTURES / "kinds" / f"{kind}.yaml"
    assert path.exists(), f"missing case table {path}"
    expects = [param.values[0]["expect"] for param in load_cases(f"kinds/{kind}.yaml")]
    assert expects.count("pass") >= 4 and expects.count("fail") >= 4
