"""Recogniser time_conversions: a duration restated in another unit of time in the same clause
(s ↔ min ↔ h ↔ days), checked through scan: must pass, must fail (value and message), must not
draft. Every number is worked by hand in its comment."""

from __future__ import annotations

import pytest

from checkers.extract import draft_claims
from tests.extract.conftest import ScanText


def _found(scan_text: ScanText, text: str) -> list[tuple[str, str]]:
    return [
        (f.verdict, f.message)
        for f in scan_text(text + "\n")
        if f.id.startswith(("time_conversions-", "rates-"))
    ]


@pytest.mark.parametrize(
    "text",
    [
        "The job needs 2.6 × 10⁵ s, or 3.0 days.",  # 260,000 / 86,400 = 3.009
        "All told about 96 hours, i.e. 4 days.",  # 96 / 24
        "总计 5.18×10⁵ s ≈ 6.0 天。",  # 518,000 / 86,400 = 5.995
        "合计 $3.6 \\times 10^5$ 秒，即约 100 小时。",  # 360,000 / 3,600
        "A sweep takes 45 minutes (0.75 h).",  # 45 / 60
        "We waited 5,400 seconds = ~90 minutes.",  # 5,400 / 60
        "训练需要 60 小时，也就是 2.5 天。",  # 60 / 24
        "A week of training (168 hours) is the budget.",  # no number before "week": not read
        "The warm-up lasts 1.5 h, that is 90 min.",  # 1.5 × 60
        "Latency is 1,250 ms (1.25 s) per request.",  # 1,250 / 1,000
        "That run was 6,300 s (= 1.75 h).",  # 6,300 / 3,600
        "共 42 小时（约合 1.75 天）。",  # 42 / 24
        "共 200 秒，约等于 3.3 分钟。",  # 200 / 60 = 3.33
        "It needs 60 h, that's 2.5 days.",  # 60 / 24
    ],
)
def test_a_right_restatement_passes(scan_text: ScanText, text: str) -> None:
    found = _found(scan_text, text)
    assert all(verdict == "pass" for verdict, _ in found), found
    if "week" not in text:
        assert found, text


def test_a_restatement_from_a_rounded_time_holds_from_the_unrounded_one(
    scan_text: ScanText,
) -> None:
    # 725,760 s is 201.6 h exactly; printed as 7.26 × 10⁵ s it reads 201.67 h: the first time
    # stands for anything it rounds from (7.255e5 … 7.265e5 s = 201.53 … 201.81 h).
    ((verdict, message),) = _found(scan_text, "耗时 7.26 × 10⁵ 秒，即 201.6 小时。")
    assert verdict == "pass" and "carried unrounded" in message


@pytest.mark.parametrize(
    ("text", "recomputed"),
    [
        # 4.8e5 s / 86,400 = 5.556 days: 7.5 is the time over 64,000 s a day
        ("The run takes 4.8 × 10⁵ s, or 7.5 days.", "is 5.556 → 5.6, not 7.5"),
        ("It finishes in 150 minutes (3.5 h).", "is 2.5 → 2.5, not 3.5"),  # 150 / 60
        ("总耗时约 200 小时，即约 9 天。", "is 8.333 → ≈ 8, not ≈ 9"),  # 200 / 24
        ("共 200 秒，约等于 4.3 分钟。", "is 3.333 → ≈ 3.3, not ≈ 4.3"),  # 200 / 60
    ],
)
def test_a_changed_number_fails(scan_text: ScanText, text: str, recomputed: str) -> None:
    ((verdict, message),) = _found(scan_text, text)
    assert verdict == "fail" and recomputed in message, message
    assert "restated in" in message and " = " in message  # the conversion factor is named


def test_the_message_names_the_factor_and_the_tolerance(scan_text: ScanText) -> None:
    (finding,) = [
        f
        for f in scan_text("It took 9,000 s, i.e. 3.5 h.\n")
        if f.id.startswith(("time_conversions-", "rates-"))
    ]
    assert finding.verdict == "fail" and "2.5" in finding.message  # 9,000 / 3,600
    assert "1 h = 3,600 s" in finding.message or "/ 3600" in finding.message
    assert "printed decimal" in finding.tolerance


def test_the_claim_is_on_the_line_of_the_second_time() -> None:
    text = "The job needs 2.6 × 10⁵ s,\nor 3.0 days, on our cluster.\n"
    (draft,) = [d for d in draft_claims(text) if d.recognizer == "time_conversions"]
    assert draft.line == 2 and draft.fields["expression"] == "2.6e5 / 86400"


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning takes 30 minutes, or 2 hours on a CPU.",  # a choice, not a restatement
        "Pretraining took 3 days, or 80 hours with restarts.",  # the clause goes on
        "It takes 2–3 h (150 min) end to end.",  # a range's end
        "Plan for 2 to 3 hours (150 minutes).",  # a range's end
        "A step takes 0.5 s, i.e. 500 ms/step.",  # a time per step
        "We trained for 3 days and evaluated for 5 hours.",  # two times, no relation
        "The budget is 1.87e5 GPU-hours (7.6 days on 1,024 GPUs).",  # GPU-hours are not time
        "Each phase takes 90 min (1–2 h).",  # a range in the bracket
        "Two shards at 2 × 3 h (6 h) each.",  # an operand
        "The model has 32 h (32 heads) of width 128.",  # h is not a unit here
        "Ten runs: 10 s, or 20 min.",  # far off any conversion
    ],
)
def test_not_a_restatement_is_not_drafted(text: str) -> None:
    assert [d for d in draft_claims(text + "\n") if d.recognizer == "time_conversions"] == []


def test_code_is_not_read() -> None:
    text = "```python\nsleep(5400)  # 5400 s (2 h)\n```\n"
    assert [d for d in draft_claims(text) if d.recognizer == "time_conversions"] == []


def test_a_long_run_of_spaces_costs_one_pass() -> None:
    # Two runs of white space side by side would be split every way: 20,000 spaces took 20 s.
    import time

    spaces = " " * 20000
    text = f"It took 5 s,{spaces}or{spaces}x and 3 h, then 5 s{spaces}(x 3 h.\n"
    start = time.process_time()
    assert [d for d in draft_claims(text) if d.recognizer == "time_conversions"] == []
    assert time.process_time() - start < 2
