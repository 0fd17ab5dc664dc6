"""Relation lr_schedule: linear warmup, cosine decay to a floor (Loshchilov & Hutter 2017, eq. 5),
and inverse square root decay (Vaswani et al. 2017, §5.3), from first
principles: peak 1e-3, floor 1e-4, 1,000 warmup steps, 11,000 steps in all."""

from __future__ import annotations

from tests.extract.relations.conftest import Scan

SCHEDULE = (
    "## Schedule\n\n"
    "Peak learning rate 1e-3, linear warmup over 1,000 steps, then cosine decay to a floor of "
    "1e-4; $T = 11000$ steps in all.\n\n"
)
# step 250 (warmup): 1e-3 × 250/1000 = 2.5e-4
# progress (t − 1000)/10000: step 3,500 → 0.25 → 1e-4 + 4.5e-4 × (1 + cos π/4) = 8.68e-4
# step 6,000 → 0.5 → 5.5e-4; step 8,500 → 0.75 → 1e-4 + 4.5e-4 × 0.2929 = 2.32e-4
# without the floor at 8,500: 4.5e-4 × 0.2929 = 1.32e-4, or 5e-4 × 0.2929 = 1.46e-4


def test_rates_the_schedule_gives_pass_in_lists_tables_and_logs(scan: Scan) -> None:
    lines = (
        "- step 250 (warmup): $1\\times10^{-3} \\times 250 / 1000 = 2.5\\times10^{-4}$\n"
        "- step 3,500: $8.68\\times10^{-4}$\n"
        "- 第 6000 步：学习率约 5.5e-4\n"
    )
    assert [f.verdict for f in scan(SCHEDULE + lines)] == ["pass"] * 3
    table = "| step | lr |\n|---:|---:|\n| 6,000 | 5.50e-4 |\n| 8,500 | 2.32e-4 |\n"
    assert [f.verdict for f in scan(SCHEDULE + table)] == ["pass", "pass"]
    log = "```text\nstep  8500 | lr 2.32e-04 | loss 2.41\n```\n"
    assert [f.verdict for f in scan(SCHEDULE + log)] == ["pass"]


def test_a_cosine_over_all_the_steps_is_a_reading_too(scan: Scan) -> None:
    # progress t/T: step 5,500 → 0.5 → 5.5e-4 (after the warmup offset it would be 6.20e-4)
    assert [f.verdict for f in scan(SCHEDULE + "- step 5,500: 5.5e-4\n")] == ["pass"]


def test_a_rate_that_drops_the_floor_fails_and_says_so(scan: Scan) -> None:
    for value in ("1.32e-4", "1.46e-4"):
        (finding,) = scan(SCHEDULE + f"| step | learning rate |\n|---|---|\n| 8,500 | {value} |\n")
        assert finding.verdict == "fail" and finding.line == 7
        assert "2.32e-4" in finding.message and "without its floor" in finding.message
        assert "min_lr 1e-4 (line 3)" in finding.message


def test_a_warmup_rate_off_the_line_fails(scan: Scan) -> None:
    (finding,) = scan(
        SCHEDULE + "- step 250: $1\\times10^{-3} \\times 250 / 1000 = 5\\times10^{-4}$\n"
    )
    assert finding.verdict == "fail" and "linear warmup" in finding.message
    assert "2.5e-4" in finding.message


def test_no_draft_without_a_schedule_or_for_other_quantities_at_a_step(scan: Scan) -> None:
    for text in (
        "## Run\n\nPeak learning rate 1e-3 and 11,000 steps.\n\n- step 3,500: 8.68e-4\n",
        SCHEDULE + "- step 3,500: loss = 0.62\n",  # not the learning rate
        SCHEDULE + "- step 12,000: 1e-4\n",  # after the schedule's end
        SCHEDULE + "- step 3,500 and step 6,000: 8.68e-4\n",  # which step?
        SCHEDULE + "| step | loss |\n|---|---|\n| 6,000 | 0.55 |\n",
        SCHEDULE + "Step 2: set the peak lr = 1e-3.\n",  # a step of a recipe
        SCHEDULE + "- step 500: the floor, 1e-4, is reached later\n",
    ):
        assert scan(text) == [], text


NOAM = "## Noam\n\nThe inverse square root schedule peaks at step 4,000 and then decays.\n\n"


def test_inverse_square_root_share_of_the_peak(scan: Scan) -> None:
    # (4000 / 36000)^0.5 = 1/3
    assert [f.verdict for f in scan(NOAM + "At step 36,000 the rate is 33% of the peak.\n")] == [
        "pass"
    ]
    zh = "## 调度\n\n逆平方根调度下，步数变为 9 倍时学习率约为峰值的 33%。\n"
    assert [f.verdict for f in scan(zh)] == ["pass"]
    (finding,) = scan(NOAM + "At step 36,000 the rate is 11% of the peak.\n")  # 1/9: linear
    assert finding.verdict == "fail" and "(4000 / 36000)^0.5" in finding.message
    assert "33" in finding.message
