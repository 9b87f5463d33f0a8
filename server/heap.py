"""Keeps Python's garbage collector off the live heap of many sessions.

Every session's screens live in one heap: at 150 sessions the collector
tracks ~1.2 million objects. CPython 3.11's collector is generational and
stops the event loop while it walks a generation: its middle generation
walked the 120,000-350,000 young objects that screen updates leave alive
(0.26-0.43 s) and its full collections all of them (0.9-1.8 s), and every
such pause was a late echo and a late table for every player.

Play itself makes no cyclic garbage (the screens' strips are acyclic and
``tui.runtime.compositor`` rebuilds Textual's layout without its self-referencing
closure; ``./manage bench screens --garbage 10`` counts 0 objects), so what
a screen update leaves behind is freed by reference counting and the
collector has nothing to find in the live heap. :class:`HeapKeeper` therefore:

* every ``EPOCH`` seconds freezes what lives (``gc.freeze``: moves every
  tracked object out of the collector's reach, in constant time), so the
  collections Python starts by itself (``THRESHOLDS``; rare while bots play,
  as a screen update frees about as much as it makes) walk only objects made
  since; collecting the young generations at each epoch first cost 3-9% of
  the server's CPU while bots play (py-spy) for garbage play does not make;
* collects everything (``gc.unfreeze`` + a full collection, then freezes
  again), which stops the loop for seconds at a busy server, only:
  when the server is idle (under ``IDLE_CPU`` of a core over the last
  ``IDLE_WINDOW`` seconds) with no session open (a session counts as open
  until it is retired: ended, and its App taken apart by ``server.ssh``
  ``RETIRE_AFTER`` seconds after) and, since the last full collection,
  sessions were retired or the frozen heap changed by ``IDLE_CHANGE``, at
  most once per ``IDLE_GAP`` seconds; or, as a safety valve for cyclic
  garbage that nothing below breaks, when the process has grown by ``GROW``
  of its resident memory (at least ``GROW_MIN`` bytes: ``./manage bench
  soak``'s 12 sessions, their tables' logs full, grew it from 84 to 231 MiB
  of live memory) since the last full collection, beyond ``PER_SESSION`` for each session more than were open
  then, counting the most that were open at once since (an open session's
  screens are live memory, and what players who left held is reused by
  those who come). The resident memory is one read of ``/proc/self/statm``;
  counting the frozen objects walks them all (~10 ms per million), so it is
  done only when idle, at most every ``COUNT_EVERY`` seconds.

  Under load nothing needs a full collection, because sessions leave almost
  no garbage in reference cycles: an ended session's App and widgets are
  taken apart (``tui.retire.take_apart``), a widget or screen a running
  session removed (a round's result after every round, a dialog) has its
  cycles broken ``RETIRE_AFTER`` seconds later (``tui.retire.loosen``), and a
  closed terminal lets go of its session (``server.sshdriver``).
  ``./manage bench soak`` counts what is left after an evening.
* holds the automatic collections while sessions draw their first screen
  (:meth:`HeapKeeper.hold`, :meth:`HeapKeeper.release`; the server holds
  when the first of them starts and releases when none is left drawing): the
  young collections during
  a burst of logins walk the screens being built, which live on (~2,300
  tracked objects a lobby); they freed nothing (0 objects in a burst of 100)
  and cost 7-11% of its CPU (10-30 ms each). When the last of them has
  drawn, what they built is frozen and collection resumes; a hold longer than
  ``HOLD_MAX`` (a login stuck before its first frame, or logins that never
  stop) is let go until the next hold.

What a frozen object leaks until the next full collection: reference cycles
that were still alive at a freeze or became garbage after it; the growth
rule bounds that garbage at ``GROW`` of the process, the idle rule clears it
when the last player has left. While logins hold the automatic collections,
the epochs still freeze.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import resource
import sys
import time
from collections.abc import Callable

log = logging.getLogger("throneroom.heap")

EPOCH = 0.5
GROW = 1.0
GROW_MIN = 256 << 20
PER_SESSION = 2 << 20
IDLE_CPU = 0.10
IDLE_WINDOW = 0.5
IDLE_CHANGE = 0.02
IDLE_GAP = 30.0
COUNT_EVERY = 5.0
THRESHOLDS = (20_000, 5, 10)
"""Automatic collections between epochs walk only unfrozen objects."""
HOLD_MAX = 5.0
"""Seconds automatic collections stay held for logins at most (see the module docstring)."""


def full_collection() -> int:
    """Collect everything, frozen or not, and freeze what lives; the frozen
    objects after it."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """This process's resident memory now (Linux), else its peak."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


class HeapKeeper:
    """See the module docstring. ``start`` collects and freezes what start-up
    made; ``stop`` cancels the task (the heap stays frozen)."""

    def __init__(self, retired: Callable[[], int] = lambda: 0, opened: Callable[[], int] = lambda: 0) -> None:
        self._retired = retired  # sessions ended and taken apart so far: what is left is for a full collection
        self._retired_at_full = 0
        self._opened = opened  # sessions opened so far
        self._open_at_full = 0  # sessions open (not retired) at the last full collection
        self._open_peak = 0  # the most open at once since the last full collection
        self._task: asyncio.Task[None] | None = None
        self.base = 0  # frozen objects after the last full collection
        self.base_rss = 0  # resident bytes after it
        self.last_full = 0.0
        self.full_collections = 0
        self._counted_at = 0.0  # when the idle rule last counted the frozen objects
        self._held_at: float | None = None  # since when automatic collections are held

    def start(self) -> None:
        gc.set_threshold(*THRESHOLDS)
        self._full("start-up")
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="heap")

    async def stop(self) -> None:
        if self._held_at is not None:
            self._held_at = None
            gc.enable()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _full(self, why: str) -> None:
        started = time.perf_counter()
        self._retired_at_full = self._retired()
        self._open_at_full = self._open_peak = self._open()
        self.base = full_collection()
        self.base_rss = resident_bytes()
        self.last_full = time.monotonic()
        self.full_collections += 1
        log.info(
            "full collection (%s): %d objects live, %.0f MiB resident; %.2f s",
            why, self.base, self.base_rss / 2**20, time.perf_counter() - started,
        )

    def hold(self) -> None:
        """Sessions started drawing their first screen: automatic collections
        wait until :meth:`release` (holding again changes nothing)."""
        if self._held_at is None:
            self._held_at = time.monotonic()
            gc.disable()

    def release(self) -> None:
        """Every session drew its first screen (or ended before it did)."""
        if self._held_at is None:  # not held, or let go by the epoch (HOLD_MAX)
            return
        self._held_at = None
        gc.freeze()  # what the logins built lives on: not for the young collections
        gc.enable()

    @property
    def held(self) -> bool:
        return self._held_at is not None

    def epoch(self, idle: bool) -> str | None:
        """One epoch's work; the reason when it ran a full collection."""
        gc.freeze()
        if self._held_at is not None and time.monotonic() - self._held_at > HOLD_MAX:
            log.info("automatic collections held for logins over %.0f s: resumed", HOLD_MAX)
            self._held_at = None
            gc.enable()
        why: str | None = None
        self._open_peak = max(self._open_peak, self._open())
        rss = resident_bytes()
        if rss > self.base_rss + max(GROW * self.base_rss, GROW_MIN) + self._new_sessions() * PER_SESSION:
            why = "memory grew"
        elif idle and time.monotonic() - self.last_full >= IDLE_GAP and self._open() <= 0 and (
            self._retired() != self._retired_at_full or self._heap_changed()
        ):
            why = "idle"
        if why is not None:
            self._full(why)
        return why

    def _open(self) -> int:
        """Sessions open now: opened, not retired yet."""
        return self._opened() - self._retired()

    def _new_sessions(self) -> int:
        """The most sessions open at once since the last full collection (now
        included) beyond those open then."""
        return max(self._open_peak, self._open()) - self._open_at_full

    def _heap_changed(self) -> bool:
        now = time.monotonic()
        if now - self._counted_at < COUNT_EVERY:
            return False
        self._counted_at = now
        return abs(gc.get_freeze_count() - self.base) > IDLE_CHANGE * self.base

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        window: list[tuple[float, float]] = []  # (wall, cpu) at each epoch
        while True:
            await asyncio.sleep(EPOCH)
            now, cpu = loop.time(), time.process_time()
            window.append((now, cpu))
            while len(window) > 1 and now - window[1][0] >= IDLE_WINDOW:
                window.pop(0)
            then, cpu_then = window[0]
            idle = now - then >= IDLE_WINDOW and (cpu - cpu_then) / (now - then) < IDLE_CPU
            self.epoch(idle)
