"""One clock for every session's countdown.

Each table screen shows the seconds left to its room's deadline and repaints
that line when the text changes. A Textual interval per screen is a task
that wakes every second, with its sleep, event and handler dispatch: with a
hundred sessions at tables that was ~2% of the CPU while bots play (py-spy,
``./manage bench screens --seated 5``). Here one event-loop timer calls every
registered tick once a second, each in the context it was registered from
(its app's: Textual finds the app and the message pump there), and an
exception goes to the handler given with it (the app's: that session ends).
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import weakref
from collections.abc import Callable

INTERVAL = 1.0
"""Seconds between ticks."""

_Sub = tuple["weakref.WeakMethod[Callable[[], None]]", contextvars.Context, Callable[[Exception], None]]


class Ticker:
    """Calls registered bound methods every :attr:`interval` seconds (see the module docstring)."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subs: dict[int, _Sub] = {}
        self._handle: asyncio.TimerHandle | None = None
        self._ids = itertools.count()

    def add(self, tick: Callable[[], None], on_error: Callable[[Exception], None]) -> Callable[[], None]:
        """Call ``tick`` (a bound method, held weakly) every interval, in the
        current context, until the returned function is called or its object is
        gone; ``on_error`` gets what it raises."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests run several): nothing carried over
            self._loop, self._subs, self._handle = loop, {}, None
        key = next(self._ids)
        self._subs[key] = (weakref.WeakMethod(tick), contextvars.copy_context(), on_error)
        if self._handle is None:
            self._handle = loop.call_later(self.interval, self._run)
        subs = self._subs

        def stop() -> None:
            subs.pop(key, None)

        return stop

    @property
    def count(self) -> int:
        """Ticks registered now (tests)."""
        return sum(1 for ref, _, _ in self._subs.values() if ref() is not None)

    def _run(self) -> None:
        self._handle = None
        for key, (ref, context, on_error) in list(self._subs.items()):
            tick = ref()
            if tick is None:
                self._subs.pop(key, None)
                continue
            try:
                context.run(tick)
            except Exception as error:
                context.run(on_error, error)
        loop = self._loop
        if self._subs and loop is not None and not loop.is_closed():
            self._handle = loop.call_later(self.interval, self._run)


TICKER = Ticker()
"""The process-wide clock (one event loop serves every session)."""
