"""A room clock under a test's control: ``RoomEnv.sleep`` and ``RoomEnv.clock``
replaced by a fake time that moves only when the test says so.

``FakeClock.install(hub)`` after ``hub.start()`` (a hub with ``time_scale=1``);
``await clock.advance(seconds)`` moves time on in small steps, waking every
sleeper whose time has come in the order of its wake-up time, and lets the
event loop run after each step so that what the wake-ups start (bots, closes,
timeouts) happens at that time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools

from server.hub import Hub


class FakeClock:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def install(self, hub: Hub) -> FakeClock:
        env = hub.env
        assert env.time_scale == 1.0, "a fake clock counts room seconds as they are"
        env.clock = self.time
        env.sleep = self.sleep  # type: ignore[method-assign]
        return self

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._seq), fut))
        await fut

    async def settle(self, n: int = 12) -> None:
        for _ in range(n):
            await asyncio.sleep(0)

    async def advance(self, seconds: float, step: float = 0.05) -> None:
        """Move time on by ``seconds``, ``step`` at a time."""
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now = min(end, self.now + step)
            while self._sleepers and self._sleepers[0][0] <= self.now + 1e-9:
                _, _, fut = heapq.heappop(self._sleepers)
                if not fut.done():
                    fut.set_result(None)
                    await self.settle()
            await self.settle()
