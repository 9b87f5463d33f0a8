"""Turns for screen work, shared by every session of a process.

One change in a room of fifteen makes fifteen sessions re-read it and draw a
frame at the same moment. Each is short (about a millisecond), but asyncio
runs what is ready in the order it became ready, so a key that arrives just
then is read, echoed and written behind all fifteen; two rooms changing
together put it behind thirty, and the frames the refreshes ask for come due
together a moment later and do it again. With :class:`Turns` that work is
queued instead and run a few milliseconds' worth per pass of the event loop
(:data:`BUDGET`): whatever became ready meanwhile (a key, a login's next
step) runs between two batches, and a frame that answers a player's own key
is queued before the frames other players' actions caused. The work itself
takes as long as before; a session whose refresh has not run yet merges
further changes into it (:class:`tui.app.Coalesced`).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import Callable

BUDGET = 0.004
"""Seconds of queued work run in one pass of the event loop (at least one job)."""

LATER_WAIT = 0.5
"""Seconds a ``later`` job waits, at most, behind the other tiers' jobs."""

_Job = tuple[contextvars.Context, Callable[[], None], asyncio.Future[None], float]


class Turns:
    """A queue of jobs run on the event loop a batch per pass, urgent ones
    first, each in the context it was queued from (Textual finds its app and
    message pump there). See the module docstring."""

    def __init__(self, budget: float = BUDGET) -> None:
        self.budget = budget
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queues: tuple[deque[_Job], ...] = (deque(), deque(), deque(), deque())  # urgent, frames, refreshes, later
        self._scheduled = False
        self.running = False  # inside a job now
        self.ran = 0  # jobs run (tests, benchmarks)
        self.passes = 0  # passes of the loop that ran some

    def run(
        self, job: Callable[[], None], *, urgent: bool = False, refresh: bool = False, later: bool = False
    ) -> asyncio.Future[None]:
        """Queue ``job``; the future is done once it ran (with its exception, if
        it raised). Cancel the future to drop a job that has not run yet.

        Jobs run in three tiers, each first come first served: ``urgent`` ones
        (a frame answering a player's key), then frames, then ``refresh`` jobs
        (re-reading the host into a screen): a screen already refreshed is
        drawn before the next one is refreshed, so a room's screens show a
        change one after the other instead of all after the last refresh.
        ``later`` jobs (a round's result opening on every screen of a room: a
        whole frame each, for a screen that will show it for seconds) wait for
        the other tiers, or :data:`LATER_WAIT` at most: an action in another
        room shows on its screens first."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests run several): nothing carried over
            self._loop, self._queues, self._scheduled = loop, (deque(), deque(), deque(), deque()), False
        done: asyncio.Future[None] = loop.create_future()
        tier = 0 if urgent else 2 if refresh else 3 if later else 1
        self._queues[tier].append((contextvars.copy_context(), job, done, time.perf_counter()))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._run_some)
        return done

    def _run_some(self) -> None:
        self._scheduled = False
        self.passes += 1
        deadline = time.perf_counter() + self.budget
        while queue := self._next_queue():
            context, job, done, _ = queue.popleft()
            if done.done():  # dropped (its app closed)
                continue
            self.ran += 1
            self.running = True
            try:
                context.run(job)
            except Exception as error:
                done.set_exception(error)
            else:
                done.set_result(None)
            finally:
                self.running = False
            if time.perf_counter() >= deadline:
                break
        if self._next_queue() is not None and self._loop is not None and not self._loop.is_closed():
            self._scheduled = True
            self._loop.call_soon(self._run_some)

    def _next_queue(self) -> deque[_Job] | None:
        later = self._queues[-1]
        if later and time.perf_counter() - later[0][3] >= LATER_WAIT:
            return later
        for queue in self._queues:
            if queue:
                return queue
        return None

    @property
    def waiting(self) -> int:
        return sum(1 for queue in self._queues for _, _, done, _ in queue if not done.done())


TURNS = Turns()
"""The process-wide turns (one event loop serves every session)."""
