"""``lessoncheck scan`` on the seed course, with no hand-written claims.

Every seed error that lies in an equation chain, a unit calculation, a softmax row, a model
table, an index range, a mask, an activation, a projection, a size law or a moment of q·k must
be flagged, and the lesson whose numbers are all correct must raise no alarm.
"""

from __future__ import annotations

from pathlib import Path

from checkers.scan import scan_lesson

CONTENT = Path(__file__).resolve().parent.parent / "content"

EXPECTED_FAILING_LINES = {
    "attention-in-six-questions.md": set(),
    "transformer-explained.md": {
        170,  # GPT-2 (1.5B) table row
        175,  # params ≈ layers × hidden × constant does not hold on the table
    },
    "transformer-fundamentals.md": {
        115,
        116,  # Q vectors that are not x·W_q for the printed W_q
        130,
        131,
        132,  # the three dot products
        392,  # the index range of i runs one pair too far
        404,
        405,
        415,
        416,
        418,
        435,
        436,  # positional encodings with the wrong exponent
        476,  # the box drawing of PE(0..3)
        556,  # "GELU" values that are ReLU's
        837,  # the "causal" mask is not causal
        846,
        847,  # masked softmax rows
        1044,
        1045,
        1066,  # moments of q·k: the mean taken for the variance, √(2d_k) for √d_k
    },
}


def test_scan_flags_the_seed_errors_and_nothing_else() -> None:
    for name, expected in EXPECTED_FAILING_LINES.items():
        findings = scan_lesson(CONTENT / name)
        failing = {f.line for f in findings if f.verdict != "pass"}
        assert failing == expected, name
        assert all(f.verdict in ("pass", "fail") for f in findings), name


def test_scan_drafts_many_claims_on_the_correct_lesson() -> None:
    findings = scan_lesson(CONTENT / "attention-in-six-questions.md")
    assert len(findings) >= 12
    assert {f.verdict for f in findings} == {"pass"}
