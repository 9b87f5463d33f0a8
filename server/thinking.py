"""The strong bots' thinking, off the event loop.

A search (``GameSpec.search``) is pure engine code that adds one sample per
``step()``; :func:`think` runs steps until its time budget is spent, in a
worker process of the :class:`Thinker` pool the server makes at start (so a
second core does the searching and the event loop never waits for it). The
room sends the seat's view as JSON, never engine state, and throws an answer
away when the decision it was for has passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor

from engine.registry import games

log = logging.getLogger("throneroom.thinking")

TIMES_KEPT = 10_000


def think(
    game: str, view_json: str, legal: list[str], seed: str, budget: float, samples: int = 0,
    searched: list[int] | None = None,
) -> str:
    """The strong bot's decision: search ``view_json`` (the seat's own view) for
    ``budget`` seconds (at least one sample; exactly ``samples`` when given). The
    number of samples searched goes to ``searched`` when given (benchmarks)."""
    if len(legal) == 1:
        return legal[0]  # one answer (a holder who can only die): nothing to search, the worker is free at once
    deadline = time.perf_counter() + budget  # setting the search up is part of the budget
    spec = games()[game]
    assert spec.search is not None, f"{game} has no search"
    view = spec.search.parse_view(view_json)
    search = spec.search.new(view, legal, seed)
    while True:
        start = time.perf_counter()
        search.step()
        now = time.perf_counter()
        if samples:
            if search.samples >= samples:
                break
        elif now + (now - start) > deadline:  # another rollout like the last would overrun the budget
            break
    if searched is not None:
        searched.append(search.samples)
    return search.best()


WORKER_NICE = 10  # the workers yield the CPU to the event loop (its players' screens come first)


def _worker_start() -> None:
    """A new worker: lower priority than the server, so searching never slows the
    screens; deaf to Ctrl-C, which the terminal sends to the server's whole process
    group (each worker printed a KeyboardInterrupt traceback; the server stops them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # (not permitted here: it still works, at the same priority)
        os.nice(WORKER_NICE)


def _warm() -> int:
    """Load the engines in a new worker (its first search would otherwise pay for it)."""
    return len(games())


class Thinker:
    """The process pool the strong bots think in (at most two workers: the
    machine's second core; one on a single-core machine)."""

    def __init__(self, workers: int | None = None) -> None:
        n = workers if workers is not None else max(1, min(2, (os.cpu_count() or 1)))
        # spawn: a worker starts clean, without the server's event loop, threads or sockets
        self.pool = ProcessPoolExecutor(
            max_workers=n, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
        )
        self.workers = n
        self.closed = False
        self.thinking = 0  # searches submitted and not answered yet
        self.times: list[float] = []  # seconds from asking to answer (benchmarks read it; kept short)

    def warm(self) -> None:
        for _ in range(self.workers):
            self.pool.submit(_warm)

    async def decide(self, game: str, view_json: str, legal: list[str], seed: str, budget: float) -> str:
        """The search's answer within about ``budget`` seconds from now: when more searches
        are under way than there are workers, each gets its share of the workers' time
        (so none waits past its room's bot delay). Cancelling the await leaves the worker
        to finish its (bounded) budget and its answer unread."""
        loop = asyncio.get_running_loop()
        self.thinking += 1
        share = budget * min(1.0, self.workers / self.thinking)
        start = time.perf_counter()
        try:
            return await loop.run_in_executor(self.pool, think, game, view_json, legal, seed, share)
        finally:
            self.thinking -= 1
            self.times.append(time.perf_counter() - start)
            del self.times[:-TIMES_KEPT]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.pool.shutdown(wait=False, cancel_futures=True)
