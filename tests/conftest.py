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


# A course for severities and quiet findings. Each quiet case sits next to a case of the same
# shape with a real mistake, which must still fail.
QUIET_LESSON = """# Shares and marks

Share of the budget: 2 / 7 = 0.28

Another share: 5 / 7 = 0.70

Batch rows: 3 × 13 = 38 ✗ no: 3 × 13 = 39

❌ 一个常见的错误计算
quarter of four: 4 × 0.25 = 1.5
quarter of eight: 8 × 0.25 = 2

✅ 正确计算
quarter of six: 6 × 0.25 = 1.6

<!-- lessoncheck: ignore -->
legacy figure: 9 × 9 = 80
next figure: 9 × 8 = 71
"""

QUIET_CLAIMS = """lesson: content/quiet.md
claims:
  - id: share-truncated
    kind: arithmetic
    quote: "2 / 7 = 0.28"
    expression: 2 / 7
    claimed: 0.28
  - id: share-wrong
    kind: arithmetic
    quote: "5 / 7 = 0.70"
    expression: 5 / 7
    claimed: 0.70
  - id: rows-marked
    kind: arithmetic
    quote: "3 × 13 = 38"
    expression: 3 × 13
    claimed: 38
  - id: rows-corrected
    kind: arithmetic
    quote: "3 × 13 = 39"
    expression: 3 × 13
    claimed: 39
  - id: quarter-four
    kind: arithmetic
    quote: "4 × 0.25 = 1.5"
    expression: 4 × 0.25
    claimed: 1.5
  - id: quarter-eight
    kind: arithmetic
    quote: "8 × 0.25 = 2"
    expression: 8 × 0.25
    claimed: 2
  - id: quarter-six
    kind: arithmetic
    quote: "6 × 0.25 = 1.6"
    expression: 6 × 0.25
    claimed: 1.6
  - id: legacy
    kind: arithmetic
    quote: "9 × 9 = 80"
    expression: 9 × 9
    claimed: 80
  - id: next-figure
    kind: arithmetic
    quote: "9 × 8 = 71"
    expression: 9 × 8
    claimed: 71
"""
"""Verdicts: share-truncated a slip (2/7 = 0.2857 printed 0.28), share-wrong an error (0.714
printed 0.70), rows-marked marked wrong (✗ after it), rows-corrected passes (after the ✗),
quarter-four marked wrong and wrong, quarter-eight marked wrong but holds, quarter-six an error
(after the ✅ line), legacy suppressed, next-figure an error (the comment silences one line)."""


@pytest.fixture
def quiet_project(tmp_path: Path) -> Path:
    """A course with a slip, marked-wrong statements and a suppressed line (see QUIET_LESSON)."""
    (tmp_path / "content").mkdir()
    (tmp_path / "claims").mkdir()
    (tmp_path / "content" / "quiet.md").write_text(QUIET_LESSON, encoding="utf-8")
    (tmp_path / "claims" / "quiet.yaml").write_text(QUIET_CLAIMS, encoding="utf-8")
    return tmp_path
