"""Tiny loader for YAML case tables (``tests/fixtures/**.yaml``) fed to ``parametrize``.

Like markdown-it-py's fixture files: the cases are data, the test is a few lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from checkers import safeyaml

FIXTURES = Path(__file__).parent / "fixtures"


def load_cases(relative: str, *, as_claim_files: bool = False) -> list[Any]:
    """Cases from ``tests/fixtures/<relative>`` as ``pytest.param`` with readable ids.

    ``as_claim_files`` reads the table with the claim-file loader, so numbers stay the strings
    the author typed, exactly as kinds receive them from ``claims/*.yaml``.
    """
    text = (FIXTURES / relative).read_text(encoding="utf-8")
    data = safeyaml.load(text).data if as_claim_files else yaml.safe_load(text)
    if not isinstance(data, list):
        raise ValueError(f"{relative}: expected a list of cases")
    params = []
    for index, case in enumerate(data):
        case_id = str(case.get("id", index)) if isinstance(case, dict) else str(index)
        params.append(pytest.param(case, id=case_id))
    return params
