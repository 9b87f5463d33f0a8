"""What every part of a room (:mod:`~server.room.seats`, :mod:`~server.room.clock`,
:mod:`~server.room.bots`, :mod:`~server.room.runtime`) reads and writes: its
:class:`Seat` objects and the :class:`RoomState`."""

from __future__ import annotations

import asyncio
import random
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from engine.api import Bot, GameSpec, GameTable
from protocol.contract import ChatLine, RoomSettings, WhyNote, bot_name
from server.storage import CHAT_HISTORY, StoredWatcher

if TYPE_CHECKING:
    from server.room.env import RoomEnv
    from server.room.session import RoomSession


State = Literal["waiting", "playing", "finished"]


@dataclass
class Seat:
    index: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str = ""
    guest: bool = False
    ready: bool = False
    autoplay: bool = False  # a bot plays the seat while its player is not at the table
    away: bool = False  # a stand-in bot plays the seat until its player presses a key at the table
    missed: int = 0  # decisions in a row whose time ran out for this seat (see AWAY_AFTER)
    left: str = ""  # a bot's seat that a player left mid-match: the player's name (the result marks it)
    sessions: int = 0  # attached sessions of the owner
    ask_every: bool = False  # its player is asked in every window, even with only ``pass`` to answer
    bot: Bot | None = None
    bot_kind: str = ""  # the kind ``bot`` was made as (a level change makes a new one)
    grace: asyncio.Task[None] | None = None
    gone_at: float | None = None  # unix time the grace period of its absent player began (kept: see _mark_gone)

    def display(self) -> str:
        if self.kind == "bot":
            return self.left or bot_name(self.index)
        return self.name

    def bot_plays(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and (self.autoplay or self.away))

    def clear(self) -> None:
        if self.grace is not None:
            self.grace.cancel()
        self.kind, self.name, self.guest = "empty", "", False
        self.ready = self.autoplay = self.away = self.ask_every = False
        self.missed = 0
        self.left = ""
        self.sessions = 0
        self.bot = None
        self.grace = None
        self.gone_at = None


class RoomState:
    """A room's state; :class:`server.room.Room` is it with its parts."""

    def __init__(self, env: RoomEnv, room_id: str, settings: RoomSettings, host: str, spec: GameSpec) -> None:
        self.env = env
        self.id = room_id
        self.settings = settings
        self.host = host
        self.spec = spec
        self.state: State = "waiting"
        self.closed = False
        self._retry: asyncio.Task[None] | None = None  # a failed write's retry (storage_retry)
        self._presence_at: dict[tuple[str, str], float] = {}  # (line, name key) -> when said (_presence)
        self.seats = [Seat(i) for i in range(settings.seats)]
        self.banned: set[str] = env.storage.room_kicks(room_id)  # name keys the host removed (kept)
        self.closed_reason = ""  # why a club admin closed the room
        self.source = ""  # the source (server.gate.source_of) of who created it; "" for a room restored
        self.sessions: list[RoomSession] = []
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_HISTORY)
        self.version = 0
        # the match in progress (or the last one, once finished)
        self.table: GameTable | None = None
        self.match_id: int | None = None
        self.seed = 0
        self.seq = 0  # entries in the match log
        self._options: BaseModel | None = None
        self._views: dict[int | None, BaseModel] = {}
        self._legal: list[list[str]] = []
        self._legal_changed: list[int] = []  # version at which each seat's legal list last changed
        self._pending: set[int] = set()
        self._deadline: float | None = None
        self._timeouts: dict[int, int] = {}  # seat -> defaults the room played for it when time ran out
        self._idle: set[int] = set()  # seats the chat said ran out of time, until their player acts again
        self._unsaid: list[int] = []  # of those, the seats the chat has still to name
        self._played_by: list[str] = []  # each seat's name when the match began (a seat freed after it keeps it at the table)
        self._decision = 0  # bumps whenever a new decision (turn/window) starts
        self._in_window = False  # that decision is a reaction window
        self._timer: asyncio.Task[None] | None = None
        self._intermission: asyncio.Task[None] | None = None
        self._went_on: set[int] = set()  # between rounds: seats whose players pressed to go on
        self._why: dict[int, list[WhyNote]] = {}  # per seat: why the room played for it (its screen alone)
        self._why_next: dict[int, str] = {}  # the why-line of the action about to be played for a seat
        self._hold_from_start = True  # a break's first check may deal at once (not after a restart: nobody is back yet)
        self._bots: asyncio.Task[None] | None = None
        self._bot_wake = asyncio.Event()
        self._bot_sleeper: asyncio.Future[None] | None = None  # the bots' thinking time under way
        # quick windows (S-REACT-5, K-ORD-11): the open decision is one; the seats the
        # room passes for when it closes; answers kept back that would have closed it
        # before its minimum time; whether that time has passed
        self._quick = False
        self._auto: set[int] = set()
        self._held: dict[int, str] = {}
        self._min_over = True
        self._min_timer: asyncio.Task[None] | None = None
        self._flushing = False
        self._closing = False
        self._told_only: int | None = None  # a change only this seat's screens are told of
        self._think = random.Random()  # bot thinking times (not the game's randomness)
        self._saved_lineup: dict[str, Any] | None = None  # the lineup last kept in the database
        self._watchers: dict[str, StoredWatcher] = {}  # by name key: who watches, or went away watching (kept)

    if TYPE_CHECKING:
        # What one part of a room calls of another (each defined once, in the part
        # named; mypy checks that these signatures are the ones defined there).

        # runtime
        def view(self, seat: int | None) -> BaseModel | None: ...
        def legal(self, seat: int | None) -> list[str]: ...
        def _answers(self, seat: int) -> list[str]: ...
        def is_pending(self, seat: int | None) -> bool: ...
        def apply(self, seat: int, text: str) -> None: ...
        def _apply_now(self, seat: int, text: str) -> None: ...
        def _next_round(self) -> None: ...
        def _storage_failed(self) -> None: ...
        def _changed(self, *, lobby: bool = False) -> None: ...
        def system(self, key: str, /, **params: str) -> None: ...
        def _save_lineup(self) -> None: ...
        def _save_room(self) -> None: ...
        def _maybe_close(self) -> None: ...

        # clock
        def _window_min(self) -> float: ...
        def _quick_step(self) -> None: ...
        def _play_default(self, seat: int, why: str, *, note: bool = False) -> str | None: ...
        def _check_break(self) -> None: ...

        # bots
        def _wake_bots(self) -> None: ...


def logged_action(text: str) -> str:
    """An action as a server log line shows it: its verb alone. The rest may be
    private (the card a seat hands on, the secret partner of a hide: S-VIEW-4,
    K-VIEW-1) and the log is read by an operator who may be a player; the whole
    action is in the match's log in the database."""
    verb, _, rest = text.strip().partition(" ")
    return f"{verb} …" if rest else verb
