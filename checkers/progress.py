"""A progress line on stderr for long runs of the command line.

A course of 10,000 claims takes seconds; a terminal that shows nothing meanwhile looks hung. The
line (``lessoncheck: 1,200 of 4,000 files…``) appears only once a run has taken
:data:`DELAY` seconds, is rewritten in place, and is erased before the results are printed. It
is never shown where nobody watches it or where it would pollute a log: when stderr is not a
terminal, under CI (the ``CI`` variable every CI service sets), or with ``-q``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import TextIO

__all__ = ["DELAY", "Progress", "wanted"]

DELAY = 2.0
"""Seconds a run goes before the line appears: short runs never show it."""

INTERVAL = 0.2
"""Seconds between two rewrites of the line (a terminal is slow to redraw)."""


def wanted(stream: TextIO, environ: Mapping[str, str], quiet: bool) -> bool:
    """Whether a progress line belongs on ``stream``: a terminal, outside CI, not quiet."""
    if quiet or environ.get("CI", "").lower() not in ("", "0", "false"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """Call with (done, total) as files finish; :meth:`close` erases the line."""

    def __init__(
        self,
        stream: TextIO,
        what: str = "files",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stream = stream
        self._what = what
        self._clock = clock
        self._start = clock()
        self._shown_at: float | None = None
        self._width = 0

    def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if now - self._start < DELAY:
            return
        if self._shown_at is not None and now - self._shown_at < INTERVAL and done < total:
            return
        self._shown_at = now
        line = (
            f"lessoncheck: {done:,} of {total:,} {self._what} checked ({now - self._start:.0f} s)"
        )
        self._stream.write("\r" + line.ljust(self._width))
        self._stream.flush()
        self._width = len(line)

    def close(self) -> None:
        """Erase the line, if one was shown, so that the results start on a clean line."""
        if self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0


def for_command(stream: TextIO, quiet: bool, what: str = "files") -> Progress | None:
    """A :class:`Progress` on ``stream`` when one is :func:`wanted` there, else None."""
    return Progress(stream, what) if wanted(stream, os.environ, quiet) else None
