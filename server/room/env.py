"""What a room needs from its hub (:class:`RoomEnv`), and the :class:`Notifier`
that calls screens' listeners after a change."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from protocol.contract import AWAY_AFTER, ClientError, Listener
from server.club import Club
from server.config import DEFAULT_STORAGE_RETRY, SpamSection
from server.gate import source_of
from server.room.chat import CHAT_BURST, CHAT_EVERY
from server.storage import Storage
from server.thinking import Thinker
from server.throttle import Throttle

if TYPE_CHECKING:
    from server.room.runtime import Room

log = logging.getLogger("throneroom.room")


T = TypeVar("T")


class Notifier:
    """Calls screens' listeners soon after a change, each at most once per event-loop
    iteration however many changes (room, lobby) happened meanwhile.

    A target is any object with ``_listener`` and ``_listener_ctx`` attributes (a
    session); a listener runs in the context it was registered from (its own app's),
    a listener that raises is logged and the others still run.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, context: contextvars.Context) -> None:
        self._loop = loop
        self._context = context
        self._due: dict[int, Any] = {}
        self._scheduled = False

    def add(self, targets: Iterable[Any]) -> None:
        for target in targets:
            self._due[id(target)] = target
        if self._due and not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self._flush, context=self._context)

    def clear(self) -> None:
        """Forget pending calls (the server is stopping)."""
        self._due.clear()

    def _flush(self) -> None:
        self._scheduled = False
        due, self._due = list(self._due.values()), {}
        called: list[Listener] = []
        for target in due:
            listener: Listener | None = target._listener
            if listener is None or listener in called:
                continue
            called.append(listener)
            call_listener(listener, target._listener_ctx, f"listener of {target!r}")


@dataclass
class RoomEnv:
    """What a room needs from its hub."""

    storage: Storage
    loop: asyncio.AbstractEventLoop
    context: contextvars.Context  # the hub's context: tasks and callbacks run in it
    clock: Callable[[], float]  # unix time
    time_scale: float = 1.0  # multiplies every delay (timers, bots, grace, intermission)
    grace_period: float = 60.0
    away_after: int = AWAY_AFTER  # a player's decisions in a row that time out before a stand-in plays the seat
    stopping: bool = False  # the server is stopping: its sessions end, nobody "lost the connection"
    intermission: float | None = None  # the longest any room waits between rounds, whatever its setting (tests: 0)
    notifier: Notifier | None = None  # made from loop/context when not given
    on_lobby_change: Callable[[], None] = lambda: None
    on_closed: Callable[[Room], None] = lambda room: None
    chat_throttle: Throttle | None = None  # a player's chat lines, lobby and rooms together (made when not given)
    club: Club | None = None  # mutes (server.club)
    storage_retry: float = DEFAULT_STORAGE_RETRY  # seconds before a match stopped by a failed write goes on
    thinker: Thinker | None = None  # the strong bots' process pool (without one they play at normal)
    spam: SpamSection = field(default_factory=SpamSection)  # what one source may make others read
    netblock: tuple[int, int] = (32, 64)  # how addresses group into sources (limits.per_source_netblock)

    def __post_init__(self) -> None:
        if self.notifier is None:
            self.notifier = Notifier(self.loop, self.context)
        if self.chat_throttle is None:
            self.chat_throttle = Throttle(CHAT_BURST, CHAT_EVERY, self.clock)
        spam = self.spam
        self.source_chat = Throttle(spam.chat_per_source_burst, spam.chat_per_source_every, self.clock)
        self.source_presence = Throttle(spam.presence_per_source_burst, spam.presence_per_source_every, self.clock)

    def source(self, address: str) -> str:
        """The source ``address`` counts for ("" for none: in-process clients, tests)."""
        return source_of(address, *self.netblock) if address else ""

    def count_chat(self, name: str, address: str = "") -> None:
        """Count a chat line by ``name`` from ``address``; refused when the name, or all
        the names of its source together, send lines faster than anyone reads."""
        assert self.chat_throttle is not None
        source = self.source(address)
        if self.chat_throttle.full(name) or (source and self.source_chat.full(source)):
            raise ClientError("chat-fast", "too many chat lines at once; wait a moment")
        self.chat_throttle.hit(name)
        if source:
            self.source_chat.hit(source)

    def notify(self, targets: Iterable[Any]) -> None:
        assert self.notifier is not None
        self.notifier.add(targets)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds * self.time_scale))

    def task(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Start a background task in the hub's context (outside any Textual app)."""
        return self.loop.create_task(coro, name=name, context=self.context)

    def task_of(self, coro: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
        """:meth:`task` for a coroutine with a result."""
        return self.loop.create_task(coro, name=name, context=self.context)


def call_listener(listener: Listener | None, ctx: contextvars.Context | None, where: str) -> None:
    """Run a screen's listener in the context it was registered from; log, never raise."""
    if listener is None:
        return
    try:
        if ctx is None:
            listener()
        else:
            ctx.run(listener)
    except Exception:
        log.exception("%s: listener failed", where)
