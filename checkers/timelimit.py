"""Time limits for one check: a runaway computation is interrupted, the run goes on.

On the main thread the limit is a SIGALRM timer (it interrupts Python code, including the ``re``
module); elsewhere (a thread, or a process whose alarm handler was installed outside Python) a
check is only measured. The budgets themselves are the runner's (:mod:`checkers.runner`).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ClaimTimeout", "time_limit"]


class ClaimTimeout(BaseException):
    """A check ran past its time limit (:data:`checkers.runner.CLAIM_SECONDS`).

    A BaseException, like KeyboardInterrupt, so that an ``except Exception`` inside a kind
    cannot swallow it and run on with the alarm already spent.
    """


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt a runaway check on the main thread (SIGALRM); elsewhere, only measure."""
    use_alarm = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        # None: a handler installed outside Python (libFuzzer, an embedding program), which
        # could not be put back; leave its alarm alone and only measure.
        and signal.getsignal(signal.SIGALRM) is not None
    )
    if not use_alarm:
        yield
        return

    def _raise(signum: int, frame: object) -> None:
        raise ClaimTimeout

    # An outer alarm (pytest-timeout's signal method, say) is paused, not cancelled: it is
    # re-armed afterwards with what was left of it, and it bounds our own limit.
    outer, interval = signal.setitimer(signal.ITIMER_REAL, 0)
    previous = signal.signal(signal.SIGALRM, _raise)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, min(seconds, outer) if outer else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            left = outer - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), interval)
