"""Warnings that a client can trigger at will, logged at most once per interval.

A client that sends the same bad input thousands of times a second must not
fill the log (the log is written on the event loop every session shares):
each kind of warning is written the first time, then at most once per
``interval`` seconds with the count of those left out since.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

DEFAULT_INTERVAL = 60.0
"""Seconds between two lines of one kind (``limits.warn_interval`` sets it for the server)."""


class RateLimitedLog:
    """``warn(kind, ...)``: one line per ``kind`` per :attr:`interval` seconds."""

    def __init__(self, interval: float = DEFAULT_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self._clock = clock
        self._kinds: dict[str, tuple[float, int]] = {}  # kind -> (when last written, left out since)

    def warn(self, logger: logging.Logger, kind: str, text: str, *args: object) -> bool:
        """Log ``text % args`` at WARNING unless ``kind`` was logged less than
        :attr:`interval` ago (then only counted); whether it was written."""
        return self.log(logger, logging.WARNING, kind, text, *args)

    def log(self, logger: logging.Logger, level: int, kind: str, text: str, *args: object) -> bool:
        """:meth:`warn` at another level."""
        now = self._clock()
        last = self._kinds.get(kind)
        if last is not None and now - last[0] < self.interval:
            self._kinds[kind] = (last[0], last[1] + 1)
            return False
        skipped = last[1] if last is not None else 0
        self._kinds[kind] = (now, 0)
        if skipped:
            logger.log(level, text + " (%d more like it in the last %.0f s)", *args, skipped, now - last[0] if last else 0)
        else:
            logger.log(level, text, *args)
        return True


WARNINGS = RateLimitedLog()
"""The process's one log of client-triggered warnings (the server sets its interval)."""
