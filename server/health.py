"""The server's pauses, in its log: slow garbage collections and a late event loop.

Every session shares one event loop, so a pause anywhere delays every
screen. An operator (and the load benchmark) reads the causes here:

* ``slow garbage collection``: a collection that took at least
  ``GC_WARN`` seconds, with its generation and how many objects it freed;
* ``event loop late``: the loop ran a timer at least ``LAG_WARN`` seconds
  after it was due (CPU saturated, or one long step), with the longest
  collection since the last check when one explains it.

Each kind is logged at most once per ``QUIET`` seconds (with a count of the
ones not logged) so a saturated server does not flood its log.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Any

log = logging.getLogger("throneroom.health")

GC_WARN = 0.25
LAG_WARN = 0.5
TICK = 0.25
QUIET = 10.0


class _Throttle:
    def __init__(self) -> None:
        self.last = -QUIET
        self.skipped = 0

    def allow(self, now: float) -> int | None:
        """The count skipped since the last allowed one, or None to stay quiet."""
        if now - self.last < QUIET:
            self.skipped += 1
            return None
        skipped, self.skipped, self.last = self.skipped, 0, now
        return skipped


class HealthMonitor:
    """Logs slow collections (a ``gc.callbacks`` hook) and loop lag (a task)."""

    def __init__(self) -> None:
        self._gc_started = 0.0
        self._gc_longest = 0.0
        self._gc_throttle = _Throttle()
        self._lag_throttle = _Throttle()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch_loop(), name="health")

    async def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_started = now
            return
        spent = now - self._gc_started
        self._gc_longest = max(self._gc_longest, spent)
        if spent < GC_WARN:
            return
        skipped = self._gc_throttle.allow(now)
        if skipped is None:
            return
        log.warning(
            "slow garbage collection: generation %s took %.2f s (%d objects freed)%s",
            info.get("generation"),
            spent,
            info.get("collected", 0),
            f"; {skipped} more since the last report" if skipped else "",
        )

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + TICK
            await asyncio.sleep(TICK)
            late = loop.time() - due
            longest_gc, self._gc_longest = self._gc_longest, 0.0
            if late < LAG_WARN:
                continue
            skipped = self._lag_throttle.allow(time.perf_counter())
            if skipped is None:
                continue
            log.warning(
                "event loop late by %.2f s (longest garbage collection meanwhile %.2f s)%s",
                late,
                longest_gc,
                f"; {skipped} more since the last report" if skipped else "",
            )
