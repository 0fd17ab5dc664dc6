"""Tiny loader for YAML case tables (``tests/fixtures/**.yaml``) fed to ``parametrize``.

Like markdown-it-py's fixture files: the cases are data, the test is a few lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

FIXTURES = Path(__file__).parent / "fixtures"


def load_cases(relative: str) -> list[Any]:
    """Cases from ``tests/fixtures/<relative>`` as ``pytest.param`` with readable ids."""
    data = yaml.safe_load((FIXTURES / relative).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{relative}: expected a list of cases")
    params = []
    for index, case in enumerate(data):
        case_id = str(case.get("id", index)) if isinstance(case, dict) else str(index)
        params.append(pytest.param(case, id=case_id))
    return params
