"""The time limit of one check (``checkers.timelimit``)."""

from __future__ import annotations

import signal
import threading
import time
from contextlib import suppress

import pytest

from checkers import timelimit


@pytest.mark.slow
def test_the_time_limit_cannot_be_swallowed_and_spares_an_outer_alarm() -> None:
    """A kind's ``except Exception`` does not stop the limit; an outer timer still fires."""
    fired: list[float] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(time.monotonic()))
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, 0.6)
    try:
        with pytest.raises(timelimit.ClaimTimeout), timelimit.time_limit(0.1):
            while True:
                with suppress(Exception):  # what a careless kind might do
                    time.sleep(0.01)
        time.sleep(0.8)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert len(fired) == 1 and 0.5 < fired[0] - started < 0.9


def test_a_check_that_ends_in_time_returns_normally() -> None:
    with timelimit.time_limit(5.0):
        value = sum(range(1000))
    assert value == 499500
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind


def test_off_the_main_thread_a_check_is_only_measured() -> None:
    """SIGALRM reaches only the main thread: elsewhere the limit must not arm a timer."""
    finished: list[bool] = []

    def work() -> None:
        with timelimit.time_limit(0.05):
            time.sleep(0.2)
        finished.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert finished == [True]
