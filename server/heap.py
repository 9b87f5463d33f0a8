"""Keeping the garbage collector out of the way of a loop that serves many screens.

One process holds every session's Textual App, so the heap holds millions of
objects (about 20,000 per session). CPython's collector walks all of them in a
full collection: measured with ``./manage bench load`` (150 sessions), full
collections stalled the event loop for 1.7-3.7 s every half minute and the
middle generation for 0.2-0.5 s several times per 10 s, which alone breaks
any latency target.

:class:`HeapKeeper` therefore:

* every :data:`SETTLE_EVERY` seconds collects the young generations (cheap:
  only what was made since the last time) and freezes the survivors
  (``gc.freeze``), so long-lived objects (screens, widgets, caches) are never
  walked again by routine collections;
* keeps generation 0 small (:data:`THRESHOLDS`), so each routine pause is short;
* compacts: unfreezes everything and runs a full collection, which frees
  cycles of objects that died after they were frozen (a closed session, a
  screen that was left). It does so when no session is connected (nobody
  waits on the loop), or at the latest every :data:`COMPACT_EVERY` seconds,
  and logs the pause. Between compactions that garbage stays in memory; the
  bound is what the players of :data:`COMPACT_EVERY` seconds leave behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("throneroom.heap")

SETTLE_EVERY = 5.0
COMPACT_EVERY = 900.0
THRESHOLDS = (5_000, 10, 10)


class HeapKeeper:
    """See the module docstring. ``sessions`` reports how many sessions are
    connected now; ``clock`` is monotonic seconds (tests pass their own)."""

    def __init__(
        self,
        sessions: Callable[[], int],
        *,
        settle_every: float = SETTLE_EVERY,
        compact_every: float = COMPACT_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sessions = sessions
        self.settle_every = settle_every
        self.compact_every = compact_every
        self.clock = clock
        self.compacted_at = clock()
        self.frozen_since_compaction = False
        self.used_since_compaction = False  # a session was connected since the last compaction
        self.longest_pause = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze start-up objects, set the thresholds, run the keeper on the loop."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(*THRESHOLDS)
        self.compacted_at = self.clock()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="heap-keeper")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settle_every)
            try:
                self.tick()
            except Exception:  # never let bookkeeping take the server down
                log.exception("heap keeper failed")

    def tick(self) -> None:
        live = self.sessions()
        if live:
            self.used_since_compaction = True
        due = self.clock() - self.compacted_at >= self.compact_every
        if self.frozen_since_compaction and (due or (live == 0 and self.used_since_compaction)):
            self.compact()
            self.used_since_compaction = live > 0
        else:
            self.settle()

    def settle(self) -> None:
        """Collect the young generations and freeze what survived."""
        started = time.perf_counter()
        gc.collect(1)
        gc.freeze()
        self.frozen_since_compaction = True
        self._pause(time.perf_counter() - started)

    def compact(self) -> int:
        """Unfreeze, collect everything, freeze again; returns the objects freed."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        pause = time.perf_counter() - started
        self._pause(pause)
        self.compacted_at = self.clock()
        self.frozen_since_compaction = False
        log.info("heap compacted: %d unreachable objects freed in %.0f ms, %d sessions", freed, pause * 1000, self.sessions())
        return freed

    def _pause(self, seconds: float) -> None:
        self.longest_pause = max(self.longest_pause, seconds)
