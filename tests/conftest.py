from __future__ import annotations

from pathlib import Path

import pytest

LESSON = """# Demo lesson

Q我·K我 = 0.6×0.4 + 0.2×0.7 = 0.38

score = 0.5×0.5 + 0.5×0.5 = 0.52

scaled = 0.52 / 2 = 0.26

每个头分到 512/8=64 维
"""

CLAIMS = """lesson: content/demo.md
claims:
  - id: dot-right
    kind: arithmetic
    quote: "Q我·K我 = 0.6×0.4 + 0.2×0.7 = 0.38"
    expression: 0.6×0.4 + 0.2×0.7
    claimed: 0.38
  - id: dot-wrong
    kind: arithmetic
    quote: "score = 0.5×0.5 + 0.5×0.5 = 0.52"
    expression: 0.5×0.5 + 0.5×0.5
    claimed: 0.52
  - id: scaled
    kind: arithmetic
    quote: "scaled = 0.52 / 2 = 0.26"
    uses: {s: dot-wrong}
    expression: s / 2
    claimed: 0.26
  - id: head-size
    kind: identity
    quote: "512/8=64"
    statement: 512/8 = 64
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A tiny course: one lesson with one right, one wrong and one inheriting claim."""
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "demo.md").write_text(LESSON, encoding="utf-8")
    (tmp_path / "claims" / "demo.yaml").write_text(CLAIMS, encoding="utf-8")
    return tmp_path


@pytest.fixture(autouse=True)
def _not_in_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite runs the CLI and plugin in-process; in a real GitHub job they must not annotate
    the job or append to its summary. Tests of that behaviour set the variables themselves."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
