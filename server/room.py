"""The room runtime: one game table, its seats, spectators, chat, clock and bots.

A :class:`Room` is created and owned by :class:`server.hub.Hub`; screens reach it
only through :class:`RoomSession` objects (the ``protocol.contract.RoomClient``
implementation, one per SSH session per room).

How a change flows (``act`` from a screen, a bot, a timeout or an intermission):

1. check (version, seat, state); ``table.play`` validates and applies -- an
   illegal action raises and changes nothing, and nothing is logged;
2. the action is appended to the SQLite log (if that fails the table is rebuilt
   from seed + log, so memory never runs ahead of the disk);
3. the room version bumps, caches are dropped, the clock and the bots are told,
   and every attached session's listener is scheduled once (coalesced: at most
   one call per listener per event-loop iteration).

Time: reaction windows and turns get a deadline from the room's settings
(``window_timer`` when the table says its pending seats answer a reaction
window, ``GameTable.is_window``, else ``turn_timer``; 0 = no timer). A window keeps its deadline while
seats answer. At the deadline the room plays ``table.timeout_action(seat)`` for
each seat still pending; a player's seat whose own decisions timed out
``env.away_after`` times in a row is away (so is one the host hands over): a
stand-in bot plays it until its player presses a key (``come_back``) or acts.
Quick windows (S-REACT-5, K-ORD-11; ``strict_windows`` off): the room answers
``pass`` for each asked seat whose only answer (``GameTable.answers``) is pass,
when the window closes; a window closes no sooner than ``window_min`` after it
opened (an answer that would close it earlier is kept until then); views are
``view(seat, quick=True)``; bots answer within the minimum time; and an answer
the window goes on after is told to its own seat's screens alone.
Between rounds the result stays until every human at the table (connected,
not played by a bot) has pressed to go on (``go_on``), or the room's
``between_rounds`` seconds have passed (at most the server's ``intermission``,
when set); then it logs a ``next-round`` marker and deals. All sleeping goes through ``RoomEnv.sleep``
(``time_scale`` makes tests fast), and every task is created in the hub's
context (never inside a Textual app).

Stale actions: an action carries the room version its screen saw. A version
from the future is stale; an old version is stale when the acting seat's legal
actions changed since then (so two seats answering one window at the same
moment are both accepted, but a turn that moved on is refused).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import secrets
from collections import deque
from collections.abc import Callable, Collection, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from engine.api import Bot, BotLevel, GameSpec, GameTable, IllegalAction
from protocol.contract import (
    AWAY_AFTER,
    BETWEEN_ROUNDS_MAX,
    BOT_DELAY_MAX,
    CHAT_MAX,
    TIMER_MAX,
    WINDOW_MIN,
    ChatLine,
    ClientError,
    Identity,
    Listener,
    RoomSettings,
    RoomSnapshot,
    RoomSummary,
    SeatInfo,
    WhyNote,
    bot_name,
    seat_number,
)
from protocol.i18n import NAMES_SEP, has_key, said_changes, said_names, t
from protocol.names import name_key
from server.club import Club, when
from server.config import DEFAULT_STORAGE_RETRY, SpamSection
from server.gate import source_of
from server.sanitize import clean_text
from server.storage import (
    CHAT_HISTORY,
    LogEntry,
    SeatRecord,
    SeatResult,
    Storage,
    StorageError,
    StoredMatch,
    StoredWatcher,
    room_scope,
)
from server.thinking import Thinker
from server.throttle import Throttle

log = logging.getLogger("throneroom.room")

CHAT_BURST = 8  # chat lines a player may send at once (lobby and rooms together)...
CHAT_EVERY = 1.5  # ...then one every this many seconds
ROOM_NAME_MAX = 40
CODE_MAX = 16
BOT_JITTER = 0.3
T = TypeVar("T")
THINK_GRACE = 2.0  # seconds past the bot delay a search may take before the normal bot answers instead
BOT_REACT_SHARE = 0.6  # a bot answers a quick window within this share of its minimum time (S-REACT-5, K-ORD-11)
ACTION_MAX = 200
STANDIN_BOT: BotLevel = "normal"  # a stand-in for a player (away, handed over, left): normal, whatever the room's bots play

State = Literal["waiting", "playing", "finished"]


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


SETTINGS_SAID = (
    "name", "seats", "turn_timer", "window_timer", "strict_windows", "window_min", "bot_delay", "bot_level", "bot_levels",
    "between_rounds", "private", "code",
)
"""The room settings whose change the chat names (``changed.<field>`` in the catalogue)."""


def settings_changes(old: RoomSettings, new: RoomSettings, spec: GameSpec) -> list[str]:
    """What the host changed of a room's settings, as catalogue ids: the room's
    own fields, then each of the game's options (read through its model, so an
    option written out at its default is no change); one that the catalogue
    does not name is said as "options"."""
    out = [f for f in SETTINGS_SAID if getattr(old, f) != getattr(new, f)]
    if "private" in out and "code" in out:  # (made public it forgets its code, made private it has one: "private")
        out.remove("code")
    try:
        before = spec.options_model.model_validate(old.options).model_dump()
        after = spec.options_model.model_validate(new.options).model_dump()
    except ValidationError:
        before, after = dict(old.options), dict(new.options)
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) != after.get(key):
            said = key if has_key(f"changed.{key}") else "options"
            if said not in out:
                out.append(said)
    return sorted(out, key=lambda c: SETTINGS_ORDER.index(c) if c in SETTINGS_ORDER else len(SETTINGS_ORDER))


SETTINGS_ORDER = (
    "name", "seats", "rounds", "first_to", "round_limit", "turn_timer", "window_timer", "strict_windows", "window_min",
    "bot_delay", "bot_level", "bot_levels", "between_rounds",
    "turn_limit", "notebook", "coronation", "expansion_ranks", "ruleset", "options", "private", "code",
)
"""The order in which the chat names changed settings: the settings dialog's rows
("bot delay, rounds" read backwards)."""


def validate_settings(
    settings: RoomSettings, specs: dict[str, GameSpec], *, default_bot_delay: float
) -> tuple[RoomSettings, GameSpec]:
    """Check and normalise settings from a screen; raise ClientError if unusable."""
    spec = specs.get(settings.game)
    if spec is None:
        raise ClientError("bad-game", f"unknown game {settings.game!r}")
    if not spec.min_players <= settings.seats <= spec.max_players:
        raise ClientError(
            "bad-seats",
            f"{spec.title} needs {spec.min_players}-{spec.max_players} seats, not {settings.seats}",
        )
    try:
        options = spec.options_model.model_validate(settings.options)
    except ValidationError as err:
        raise ClientError("bad-options", f"bad options for {spec.title}: {err}") from err
    levels = spec.bot_levels
    for level in {settings.bot_level, *settings.bot_levels.values()}:
        if level not in levels:
            raise ClientError(
                "bad-level", f"{spec.title} bots play at {', '.join(levels)}, not {level}", params={"level": level}
            )
    code = clean_text(settings.code, CODE_MAX)
    if settings.private and not code:
        code = f"{secrets.randbelow(10_000):04d}"
    bot_delay = settings.bot_delay if "bot_delay" in settings.model_fields_set else default_bot_delay
    clean = settings.model_copy(
        update={
            "name": clean_text(settings.name, ROOM_NAME_MAX),
            "code": code if settings.private else "",
            "turn_timer": min(max(settings.turn_timer, 0), TIMER_MAX),
            "window_timer": min(max(settings.window_timer, 0), TIMER_MAX),
            "bot_delay": min(max(float(bot_delay), 0.0), BOT_DELAY_MAX),
            "window_min": min(max(float(settings.window_min), WINDOW_MIN[0]), WINDOW_MIN[1]),
            # a level for a seat the room no longer has would come back with the seat
            "bot_levels": {i: level for i, level in sorted(settings.bot_levels.items()) if 0 <= i < settings.seats},
            "between_rounds": min(max(settings.between_rounds, 0), BETWEEN_ROUNDS_MAX),
            "options": options.model_dump(mode="json"),
        }
    )
    # keep "explicitly set" so a later update keeps the room's bot delay
    clean.model_fields_set.add("bot_delay")
    return clean, spec


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


class Room:
    """One room. All methods run on the event loop's thread."""

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

    # ------------------------------------------------------------- reading

    def require_not_banned(self, name: str) -> None:
        """Refuse a player the host removed (:meth:`kick`) a seat or a watch here."""
        if name_key(name) in self.banned:
            raise ClientError("banned", "the host removed you from this room")

    def seat_of(self, name: str) -> int | None:
        key = name_key(name)
        for seat in self.seats:
            if seat.kind == "human" and name_key(seat.name) == key:
                return seat.index
        return None

    def guest_seat_of(self, name: str) -> int | None:
        idx = self.seat_of(name)
        return idx if idx is not None and self.seats[idx].guest else None

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.kind == "human"]

    def spectator_names(self) -> list[str]:
        names: list[str] = []
        for s in self.sessions:
            if s.role == "spectator" and s.identity.name not in names:
                names.append(s.identity.name)
        return names

    _snap: tuple[tuple[object, ...], RoomSettings, RoomSnapshot] | None = None

    def snapshot(self) -> RoomSnapshot:
        """The room as its screens show it. Made again only when something in
        it changed: every screen of the room reads it after each change (15
        pydantic snapshots per action at a full table), so they share one,
        which they only read."""
        seats = tuple(
            (s.index, s.kind, s.display(), s.kind == "human" and s.sessions > 0, s.ready, s.kind == "human" and s.autoplay,
             s.kind == "human" and s.guest, s.kind == "human" and s.away, s.kind == "bot" and bool(s.left),
             self.bot_level(s))
            for s in self.seats
        )
        spectators = self.spectator_names()
        timeouts = tuple(self._timeouts.get(i, 0) for i in range(len(self.seats)))
        holding = tuple(self.holding()) if self._intermission is not None else ()
        went_on = tuple(sorted(self._went_on))
        key = (self.version, self.state, self.host, self._deadline, seats, tuple(spectators), self.match_id, timeouts,
               holding, went_on)
        made = self._snap
        if made is not None and made[0] == key and made[1] is self.settings:
            return made[2]
        snap = RoomSnapshot(
            id=self.id,
            settings=self.settings.model_copy(deep=True),
            host=self.host,
            state=self.state,
            seats=[
                SeatInfo(index=index, kind=kind, name=name, connected=connected, ready=ready, autoplay=autoplay, guest=guest,
                         away=away, left=left, level=level)
                for index, kind, name, connected, ready, autoplay, guest, away, left, level in seats
            ],
            spectators=spectators,
            version=self.version,
            deadline=self._deadline,
            names=[self._table_name(seat[0], seat[2]) for seat in seats],
            match=self.match_id,
            timeouts=list(timeouts),
            holding=list(holding),
            went_on=list(went_on),
        )
        self._snap = (key, self.settings, snap)
        return snap

    def summary(self) -> RoomSummary:
        return RoomSummary(
            id=self.id,
            name=self.settings.name,
            game=self.settings.game,
            seats=len(self.seats),
            humans=sum(1 for s in self.seats if s.kind == "human"),
            bots=sum(1 for s in self.seats if s.kind == "bot"),
            spectators=len(self.spectator_names()),
            state=self.state,
            private=self.settings.private,
            host=self.host,
            players=[s.name for s in self.seats if s.kind == "human"],
        )

    def view(self, seat: int | None) -> BaseModel | None:
        """The table's view for ``seat`` (None: spectator), cached per version."""
        if self.table is None:
            return None
        if seat is not None and not 0 <= seat < len(self.seats):
            return None
        cached = self._views.get(seat)
        if cached is None:
            # a quick window's views say whose answer is owed for the viewer alone (S-REACT-5, K-ORD-11)
            cached = self.table.view(seat, quick=True) if self._quick else self.table.view(seat)
            self._views[seat] = cached
        return cached

    def round_log(self, seat: int | None, number: int) -> Sequence[object]:
        """The events ``seat`` saw in round ``number`` of the match (not cached: read
        only when a screen draws its log anew)."""
        if self.table is None or (seat is not None and not 0 <= seat < len(self.seats)):
            return []
        try:
            return self.table.round_log(number, seat)
        except Exception:
            log.exception("room %s: round_log(%s, %s) failed", self.id, number, seat)
            return []

    def round_view(self, seat: int | None, number: int) -> BaseModel | None:
        """What ``seat`` saw at the end of the finished round ``number``."""
        if self.table is None or (seat is not None and not 0 <= seat < len(self.seats)):
            return None
        try:
            return self.table.round_view(number, seat)
        except Exception:
            log.exception("room %s: round_view(%s, %s) failed", self.id, number, seat)
            return None

    def why_notes(self, seat: int | None) -> Sequence[WhyNote]:
        """``seat``'s why-lines this match (its own screen's only)."""
        return self._why.get(seat, []) if seat is not None else []

    def _note_why(self, seat: int, key: str) -> None:
        """Tell ``seat``'s log why the action just played for it happened, where
        its log shows that action."""
        table = self.table
        if table is None:
            return
        try:
            number = table.round_number
            after = len(table.round_log(number, seat))
        except Exception:
            log.exception("room %s: cannot place a why-line for seat %s", self.id, seat)
            return
        self._why.setdefault(seat, []).append(WhyNote(round=number, after=after, key=key))

    def holding(self) -> list[int]:
        """The seats a round's result waits for: humans at the table (connected,
        no bot playing for them: nor a stand-in, while they are away). Bots,
        spectators and absent players hold nothing."""
        return [s.index for s in self.seats if s.kind == "human" and s.sessions > 0 and not s.bot_plays()]

    def go_on(self, seat: int | None) -> None:
        """``seat``'s player has seen the round's result; the last of the table's
        humans to do so deals the next round."""
        if seat is None or self._intermission is None or seat in self._went_on:
            return
        self._went_on.add(seat)
        self._changed()
        self._check_break()

    def _check_break(self) -> None:
        """Deal now when the break between rounds waits for nobody any more."""
        if self._intermission is None or not all(s in self._went_on for s in self.holding()):
            return
        self._intermission.cancel()
        self._intermission = None
        try:
            self._next_round()
        except Exception:
            log.exception("room %s: cannot deal the next round", self.id)

    def legal(self, seat: int | None) -> list[str]:
        if self.table is None or self.state != "playing" or seat is None or not 0 <= seat < len(self._legal):
            return []
        if seat in self._auto or seat in self._held:  # answered by the room, or kept back: no answer is asked
            answers = {"pass", *self._answers(seat)}
            return [a for a in self._legal[seat] if a not in answers]
        return list(self._legal[seat])

    def _answers(self, seat: int) -> list[str]:
        try:
            return self.table.answers(seat) if self.table is not None else []
        except Exception:
            log.exception("room %s: answers(%s) failed", self.id, seat)
            return []

    def is_pending(self, seat: int | None) -> bool:
        return (
            self.state == "playing" and seat is not None and seat in self._pending
            and seat not in self._auto and seat not in self._held
        )

    def nothing_to_answer(self, seat: int | None) -> bool:
        """The room answers ``pass`` for ``seat`` in the open quick window (S-REACT-5, K-ORD-11)."""
        return self.state == "playing" and seat is not None and seat in self._auto

    @property
    def deadline(self) -> float | None:
        return self._deadline

    # ------------------------------------------------------------- sessions

    def attach(self, session: RoomSession) -> None:
        self.sessions.append(session)
        if session.role == "player":
            idx = self.seat_of(session.identity.name)
            if idx is not None:
                seat = self.seats[idx]
                seat.sessions += 1
                # the table was told they dropped (mid-match) or that a bot plays for them
                back = seat.autoplay or (seat.grace is not None and self.state == "playing")
                if seat.grace is not None:
                    seat.grace.cancel()
                    seat.grace = None
                self._mark_gone(seat, None)
                if seat.autoplay:
                    seat.autoplay = False
                    self._keep_autoplay(seat)
                seat.ask_every = session.identity.ask_every
                if back and not seat.away:  # (an away seat's player is back when they press a key)
                    self.system("sys.back", name=seat.name)
        else:
            returning = self.watcher_back(session.identity)  # put back after a restart or a dropped connection
            if not returning and not self._watching_elsewhere(session):
                # who came to watch is said once, however many screens they open (the table lists no watchers)
                self._presence("sys.watching", session.identity)
            self._keep_watcher(StoredWatcher(session.identity.name, session.identity.guest, None))
        self._changed(lobby=True)

    PRESENCE_KEPT = 256  # names whose last presence line a room remembers before it forgets the old ones

    def _presence(self, key: str, who: Identity) -> None:
        """A chat line that ``who`` coming makes (``key``: "is watching"): said at
        most once per ``spam.presence_line_every`` for one name in this room, and
        within its source's budget for such lines, so watching and leaving in a
        loop writes a line a minute, not one a cycle (nor one per name of a source)."""
        env = self.env
        now = env.clock()
        mark = (key, name_key(who.name))
        last = self._presence_at.get(mark)
        if last is not None and now - last < env.spam.presence_line_every:
            return
        source = env.source(who.address)
        if source and not env.source_presence.take(source):
            return
        if len(self._presence_at) >= self.PRESENCE_KEPT:
            self._presence_at = {k: at for k, at in self._presence_at.items() if now - at < env.spam.presence_line_every}
        self._presence_at[mark] = now
        self.system(key, name=who.name)

    def _watching_elsewhere(self, session: RoomSession) -> bool:
        """Another screen of ``session``'s identity watches this room."""
        key = name_key(session.identity.name)
        return any(s is not session and s.role == "spectator" and name_key(s.identity.name) == key for s in self.sessions)

    def watcher_back(self, who: Identity) -> bool:
        """``who`` watched this room until their connection, or the server, went,
        within the grace period (a seat's): they are to be put back watching it."""
        kept = self._watchers.get(name_key(who.name))
        if kept is None or kept.away is None or kept.guest != who.guest or name_key(who.name) in self.banned:
            return False
        if self.env.clock() - kept.away > self.env.grace_period * self.env.time_scale:
            self._forget_watcher(kept.name)
            return False
        return True

    def watcher_away_since(self, who: Identity) -> float | None:
        """When ``who`` went away watching this room, if they are to be put back (:meth:`watcher_back`)."""
        return self._watchers[name_key(who.name)].away if self.watcher_back(who) else None

    def _keep_watcher(self, watcher: StoredWatcher) -> None:
        if self._watchers.get(name_key(watcher.name)) != watcher:
            self._watchers[name_key(watcher.name)] = watcher
            self.env.storage.keep_watcher(self.id, watcher)

    def _forget_watcher(self, name: str) -> None:
        if self._watchers.pop(name_key(name), None) is not None:
            self.env.storage.drop_watcher(self.id, name)

    def _restore_watchers(self) -> None:
        """Who watched the room when the server stopped: put back when they
        connect again within the grace period, counted from now (as seats are)."""
        now = self.env.clock()
        for kept in self.env.storage.watchers(self.id):
            self._keep_watcher(StoredWatcher(kept.name, kept.guest, now if kept.away is None else kept.away))

    def detach(self, session: RoomSession, *, leaving: bool = False) -> None:
        """A session goes away. ``leaving``: the player gave the seat up on purpose."""
        if session not in self.sessions:
            return
        self.sessions.remove(session)
        if session.role == "spectator" and not self._watching_elsewhere(session):
            if leaving:  # gone on purpose: not put back
                self._forget_watcher(session.identity.name)
            elif not self.env.stopping:  # (the server stopping: a restart puts them back from then on)
                self._keep_watcher(StoredWatcher(session.identity.name, session.identity.guest, self.env.clock()))
        if session.role == "player":
            idx = self.seat_of(session.identity.name)
            if idx is not None:
                seat = self.seats[idx]
                seat.sessions = max(0, seat.sessions - 1)
                if seat.sessions > 0 and leaving and self.state != "playing":
                    # left from one of their terminals: the seat goes, and their
                    # other terminals go with it (the seat stayed, its player
                    # in the lobby, until the last terminal left too)
                    for other in [s for s in self.sessions if s.role == "player" and name_key(s.identity.name) == name_key(seat.name)]:
                        self.sessions.remove(other)
                        other._closed = True
                        self.env.notify([other])
                    self._free_seat(seat, "sys.left")
                elif seat.sessions == 0:
                    if leaving and self.state == "playing":
                        self._set_autoplay(seat, "sys.left_autoplay")
                        if seat.guest:  # a guest's name is theirs for the grace period, not the whole match
                            self._start_grace(seat)
                            self._mark_gone(seat, self.env.clock())
                    elif leaving:
                        self._free_seat(seat, "sys.left")
                    else:
                        self._start_grace(seat)
                        if not self.env.stopping:  # (the server stopping: a restart gives the grace period from then)
                            self._mark_gone(seat, self.env.clock())
                        if self.state == "playing" and not seat.autoplay and not self.env.stopping:  # the table waits on them: say so now
                            self.system("sys.dropped", name=seat.name, secs=str(round(self.env.grace_period)))
        self._changed(lobby=True)
        self._check_break()  # a player gone does not hold the table
        self._maybe_close()

    def _start_grace(self, seat: Seat, left: float | None = None) -> None:
        """Wait ``left`` (room time; the whole grace period if None) for the absent player of ``seat``."""
        if seat.grace is not None:
            seat.grace.cancel()
        wait = self.env.grace_period if left is None else left
        seat.grace = self.env.task(self._grace(seat, wait), f"room{self.id}-grace{seat.index}")

    async def _grace(self, seat: Seat, wait: float) -> None:
        await self.env.sleep(wait)
        seat.grace = None
        if self.closed or seat.kind != "human" or seat.sessions > 0:
            return
        if self.state == "playing" and seat.guest and self.match_id is not None:
            # a guest's hold on the name ends here: a key may claim it, and must not
            # find this seat (its cards) waiting under it; a bot plays it out
            self._leave_for_good(seat, "sys.guest_gone")
        elif self.state == "playing":
            self._set_autoplay(seat, "sys.away_autoplay")
        else:
            self._free_seat(seat, "sys.left")
            self._maybe_close()
        self._changed(lobby=True)

    def _mark_gone(self, seat: Seat, at: float | None) -> None:
        """Keep when the grace period of ``seat``'s absent player began (None: they
        are back), so a restart does not give a player who dropped a new one:
        in the match's seats while one is played, else in the lineup (saved by
        the next :meth:`_changed` with ``lobby``)."""
        if seat.gone_at == at:
            return
        seat.gone_at = at
        if self.state != "playing" or self.match_id is None:
            return
        try:
            self.env.storage.mark_gone(self.match_id, seat.index, at)
        except Exception:
            log.exception("room %s: cannot record when the player of seat %s went", self.id, seat.index)

    def _restart_grace(self, seat: Seat, gone: float | None) -> None:
        """After a restart: the grace period of ``seat``'s player counts from when
        they went (``gone``), or from now if they were here when the server
        stopped (kept too: another restart does not start it again)."""
        now = self.env.clock()
        if gone is None:
            self._mark_gone(seat, now)
            self._start_grace(seat)
            return
        seat.gone_at = gone
        spent = max(0.0, now - gone) / self.env.time_scale if self.env.time_scale > 0 else 0.0
        self._start_grace(seat, max(0.0, self.env.grace_period - spent))

    def _set_autoplay(self, seat: Seat, why: str) -> None:
        """A bot plays ``seat`` while its owner is away; ``why`` is the chat line's key."""
        if seat.autoplay:
            return
        seat.autoplay = True
        self._keep_autoplay(seat)
        self.system(why, name=seat.name)
        self._wake_bots()
        self._changed()
        self._check_break()

    def _keep_autoplay(self, seat: Seat) -> None:
        """Keep with the match whether a bot plays ``seat`` for its absent player
        (not while the server stops: its players are put back after the restart)."""
        if self.state != "playing" or self.match_id is None or self.env.stopping:
            return
        try:
            self.env.storage.mark_autoplay(self.match_id, seat.index, seat.autoplay)
        except Exception:
            log.exception("room %s: cannot record that seat %s is played by a bot", self.id, seat.index)

    def come_back(self, who: Identity) -> bool:
        """``who`` pressed a key at the table: a seat of theirs that a stand-in
        plays is theirs again. False when it was not away."""
        idx = self.seat_of(who.name)
        return idx is not None and self.state == "playing" and self._reclaim(self.seats[idx])

    def _reclaim(self, seat: Seat) -> bool:
        if seat.kind != "human" or not seat.away:
            return False
        seat.away = False
        seat.missed = 0
        self._idle.discard(seat.index)
        self.system("sys.standin_back", name=seat.name)
        return True

    def hand_to_standin(self, who: Identity, index: int) -> None:
        """The host hands a player's seat to a stand-in bot during the match (the
        player is at the table but holds it up); any key of theirs takes it back.
        Not the host's own seat: any key of theirs would take it back at once,
        and Escape already lets a bot play it while they are away."""
        self._require_host(who)
        if self.state != "playing" or self.table is None:
            raise ClientError("not-playing", "no match is being played")
        seat = self._seat(index)
        if seat.kind != "human":
            raise ClientError("bad-seat", f"seat {seat_number(index)} has no player", reason="no-player", params={"seat": str(seat_number(index))})
        if name_key(seat.name) == name_key(who.name):
            raise ClientError("bad-seat", "the host cannot hand their own seat to a stand-in", reason="self-standin")
        if seat.away:
            raise ClientError(
                "bad-seat", f"a stand-in plays seat {seat_number(index)} already", reason="standin",
                params={"seat": str(seat_number(index))},
            )
        seat.away = True
        self.system("sys.handed_standin", name=seat.name, host=who.name)
        self._wake_bots()
        self._check_break()  # a round's result no longer waits for them

    def leave_match(self, who: Identity) -> None:
        """``who`` leaves the match being played for good: a bot plays the seat
        to the end, the result marks it as left (a match played and not won, for
        the leaderboard), and they may sit down in another room at once. Their
        terminals in this room are sent back to the lobby. Kept with the match's
        seats, so a restart brings the seat back as left."""
        if self.state != "playing" or self.table is None or self.match_id is None:
            raise ClientError("not-playing", "no match is being played")
        idx = self.seat_of(who.name)
        if idx is None:
            raise ClientError("not-seated", "you have no seat in this room")
        self._leave_for_good(self.seats[idx], "sys.left_match")

    def _leave_for_good(self, seat: Seat, why: str) -> None:
        """A bot plays ``seat`` to the end of the match, marked left (kept with the
        match's seats); its player's name is no longer held by the room. ``why``
        is the chat line's key."""
        assert self.match_id is not None
        idx = seat.index
        name, guest = seat.name, seat.guest
        try:
            self.env.storage.mark_left(self.match_id, idx)
        except Exception:
            log.exception("room %s: cannot record that seat %s left match %s", self.id, idx, self.match_id)
        for session in [s for s in self.sessions if s.role == "player" and name_key(s.identity.name) == name_key(name)]:
            self.sessions.remove(session)
            session._closed = True
            self.env.notify([session])
        seat.clear()
        seat.kind, seat.left, seat.guest = "bot", name, guest
        self._idle.discard(idx)
        self.system(why, name=name)
        if name_key(name) == name_key(self.host):
            self._pass_host()
        self._wake_bots()
        self._changed(lobby=True)
        self._check_break()  # a round's result no longer waits for them

    def _free_seat(self, seat: Seat, why: str) -> None:
        """Empty ``seat``; ``why`` is the chat line's key (its param: the name)."""
        name = seat.name
        seat.clear()
        self.system(why, name=name)
        if name_key(name) == name_key(self.host):
            self._pass_host()
        self._changed(lobby=True)

    def _pass_host(self) -> None:
        humans = self.humans()
        connected = [s for s in humans if s.sessions > 0]
        picks = connected or humans
        if picks:
            pick = picks[0]
            self.host = pick.name
            self.system("sys.new_host", name=pick.name)
            self._save_room()

    def _maybe_close(self) -> None:
        """Close a room nobody is in (never one whose match is in progress)."""
        if self.closed or self.state == "playing" or self.sessions or self.humans():
            return
        self.close()

    def close_by_admin(self, reason: str) -> None:
        """A club admin closes the room: a match being played ends as abandoned,
        everyone goes back to the lobby and is told why."""
        self.closed_reason = reason
        attached = list(self.sessions)
        self.close()
        self.env.notify(attached)  # their screens read the closed room, and say why

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._cancel_tasks()
        try:
            if self.state == "playing" and self.match_id is not None:
                self.env.storage.abandon_match(self.match_id, "room closed")
            self.env.storage.close_room(self.id)
        except Exception:
            log.exception("room %s: cannot record closing", self.id)
        for session in list(self.sessions):
            session._closed = True
        self.sessions.clear()
        self.env.on_closed(self)

    def _cancel_tasks(self) -> None:
        tasks = [self._timer, self._intermission, self._bots, self._min_timer, self._retry]
        tasks += [s.grace for s in self.seats]
        for task in tasks:
            if task is not None:
                task.cancel()
        self._timer = self._intermission = self._bots = self._min_timer = self._retry = None
        for seat in self.seats:
            seat.grace = None

    def shutdown(self) -> list[asyncio.Task[None]]:
        """Stop every task (server stopping) without closing the room in storage."""
        tasks = [t for t in [self._timer, self._intermission, self._bots, self._min_timer, self._retry] if t is not None]
        tasks += [s.grace for s in self.seats if s.grace is not None]
        self._cancel_tasks()
        self.closed = True
        return tasks

    # --------------------------------------------------------- notification

    def _changed(self, *, lobby: bool = False) -> None:
        if lobby:
            self._save_lineup()
            self.env.on_lobby_change()
        if self._told_only is not None:  # an answer inside a quick window: nobody else's screen changes
            self.env.notify([s for s in self.sessions if s.role == "player" and s.my_seat == self._told_only])
        else:
            self.env.notify(self.sessions)

    def lineup(self) -> dict[str, Any]:
        """What a restart needs to bring back a room between matches: who sits
        where, and the finished match whose result it shows (a match being
        played has its seats in its own record)."""
        return {
            "state": self.state,
            "match": self.match_id if self.state == "finished" else None,
            "seats": [
                SeatRecord(
                    kind=s.kind, name=s.name if s.kind == "human" else "", guest=s.guest,
                    gone=s.gone_at if s.kind == "human" else None,
                ).to_json()
                for s in self.seats
            ],
            "ready": [s.index for s in self.seats if s.kind == "human" and s.ready],
        }

    def _save_lineup(self) -> None:
        """Keep the lineup if it changed (a seat taken or given up, bots, the
        match's end, the waiting room again); the rest of the room is in its
        settings, chat and matches."""
        if self.state == "playing" or self.closed:
            return
        lineup = self.lineup()
        if lineup == self._saved_lineup:
            return
        try:
            self.env.storage.save_lineup(self.id, lineup)
        except Exception:
            log.exception("room %s: cannot save its seats", self.id)
            return
        self._saved_lineup = lineup

    def system(self, key: str, /, **params: str) -> None:
        """A system line in the room's chat: a catalogue key (``protocol.catalogue``,
        ``"sys.*"``) and its params, which screens show in each player's
        language; ``text`` is its English rendering. A ``game`` param is a game id."""
        if self._unsaid and key != "sys.timed_out":
            self._say_timeouts()  # what a timeout's default brought comes after it
        english = {**params, "game": self.spec.title} if "game" in params else dict(params)
        if "names" in params:
            english["names"] = said_names(params["names"], "en")
        if "changes" in params:
            english["changes"] = said_changes(params["changes"], "en")
        text = t(key, "en", **english)
        self._add_chat(ChatLine(at=self.env.clock(), name="", text=text, system=True, key=key, params=params))
        self._changed()

    def say(self, name: str, text: str) -> None:
        clean = chat_text(text)
        if not clean:
            return
        line = ChatLine(at=self.env.clock(), name=name, text=clean)
        keep_said(self.env.storage, room_scope(self.id), line)
        self.chat.append(line)
        self._changed()

    def _add_chat(self, line: ChatLine) -> None:
        """Show a chat line and keep it in the database (a restored match has its chat back)."""
        self.chat.append(line)
        self.env.storage.keep_chat(room_scope(self.id), line)

    # ----------------------------------------------------- waiting-room ops

    def _require_host(self, who: Identity) -> None:
        if name_key(who.name) != name_key(self.host):
            raise ClientError("not-host", "only the host may do that")

    def _require_finished(self) -> None:
        """The host's choices after a match (play again, back to the room) need a finished one."""
        if self.state != "finished":
            raise ClientError("playing", "the match is not over")

    def _require_setup(self) -> None:
        if self.state == "playing":
            raise ClientError("playing", "not while a match is being played")

    def _seat(self, index: int) -> Seat:
        if not 0 <= index < len(self.seats):
            raise ClientError(
                "bad-seat", f"there is no seat {seat_number(index)} (seats {seat_number(0)}-{seat_number(len(self.seats) - 1)})",
                reason="none", params={"seat": str(seat_number(index))},
            )
        return self.seats[index]

    def _empty_seat(self, index: int | None) -> Seat:
        """The empty seat at ``index``, or the first empty seat when ``index`` is None."""
        if index is None:
            empty = [s for s in self.seats if s.kind == "empty"]
            if not empty:
                raise ClientError("room-full", "every seat is taken")
            return empty[0]
        seat = self._seat(index)
        if seat.kind != "empty":
            raise ClientError("seat-taken", f"seat {seat_number(index)} is taken")
        return seat

    def seat_human(self, who: Identity, index: int | None = None) -> int:
        """Seat ``who`` at ``index`` (or the first empty seat); returns the seat index."""
        self._require_setup()
        seat = self._empty_seat(index)
        seat.kind, seat.name, seat.guest = "human", who.name, who.guest
        seat.ready = seat.autoplay = False
        seat.ask_every = who.ask_every
        self.system("sys.sat_down", name=who.name)
        self._changed(lobby=True)
        return seat.index

    def take_seat(self, who: Identity, index: int) -> None:
        self._require_setup()
        target = self._seat(index)
        if target.kind != "empty":
            raise ClientError("seat-taken", f"seat {seat_number(index)} is taken")
        old = self.seat_of(who.name)
        if old is None:
            raise ClientError("not-seated", "you have no seat in this room")
        src = self.seats[old]
        target.kind, target.name, target.guest = "human", src.name, src.guest
        target.sessions, target.grace, target.ask_every = src.sessions, src.grace, src.ask_every
        target.gone_at = src.gone_at
        target.ready = target.autoplay = False
        src.grace = None
        src.clear()
        self.system("sys.moved", name=target.name, seat=str(seat_number(index)))  # who sits beside whom matters
        self._changed(lobby=True)

    def set_ask_every(self, name: str, on: bool) -> None:
        """``name`` wants to be asked in every window (or not) from now on (S-REACT-5, K-ORD-11)."""
        idx = self.seat_of(name)
        if idx is None or self.seats[idx].ask_every == on:
            return
        self.seats[idx].ask_every = on
        if self._quick:
            self._quick_step()  # an open window asks it now, or passes for it
            self._wake_bots()
        self._changed()

    def set_ready(self, who: Identity, ready: bool) -> None:
        if self.state != "waiting":
            raise ClientError("playing", "ready only counts before a match")
        idx = self.seat_of(who.name)
        if idx is None:
            raise ClientError("not-seated", "you have no seat in this room")
        self.seats[idx].ready = ready
        self._save_lineup()  # the list of rooms does not show it; a restart keeps it
        self._changed()

    def add_bot(self, who: Identity, index: int | None) -> None:
        self._require_host(who)
        self._require_setup()
        seat = self._empty_seat(index)
        seat.clear()
        seat.kind = "bot"
        self._changed(lobby=True)

    def remove_bot(self, who: Identity, index: int) -> None:
        self._require_host(who)
        self._require_setup()
        seat = self._seat(index)
        if seat.kind != "bot":
            raise ClientError("bad-seat", f"seat {seat_number(index)} has no bot", reason="no-bot", params={"seat": str(seat_number(index))})
        seat.clear()
        self._changed(lobby=True)

    def kick(self, who: Identity, index: int) -> None:
        """Remove a player; during a match a bot takes the seat over for good."""
        self._require_host(who)
        seat = self._seat(index)
        if seat.kind != "human":
            raise ClientError("bad-seat", f"seat {seat_number(index)} has no player", reason="no-player", params={"seat": str(seat_number(index))})
        if name_key(seat.name) == name_key(who.name):
            raise ClientError("bad-seat", "the host cannot kick themselves; leave instead", reason="self")
        name = seat.name
        self.banned.add(name_key(name))  # a kick is for good: back with the code it was a rejoin in seconds
        self.env.storage.kick_from_room(self.id, name)
        for session in [s for s in self.sessions if s.role == "player" and name_key(s.identity.name) == name_key(name)]:
            self.sessions.remove(session)
            session._closed = session.kicked = True
            self.env.notify([session])
        if self.state == "playing":
            seat.clear()
            seat.kind = "bot"
            self._wake_bots()
        else:
            seat.clear()
        self.system("sys.kicked", name=name)
        self._changed(lobby=True)

    def update_settings(self, who: Identity, settings: RoomSettings, specs: dict[str, GameSpec]) -> None:
        self._require_host(who)
        self._require_setup()
        if "bot_delay" not in settings.model_fields_set:
            settings = settings.model_copy(update={"bot_delay": self.settings.bot_delay})
            settings.model_fields_set.add("bot_delay")
        if settings.private and not settings.code and self.settings.private:
            settings = settings.model_copy(update={"code": self.settings.code})
        clean, spec = validate_settings(settings, specs, default_bot_delay=self.settings.bot_delay)
        other_game = clean.game != self.settings.game
        changes = [] if other_game else settings_changes(self.settings, clean, spec)
        if not other_game and not changes:
            return  # the dialog saved as it was (an option at its default too): nobody need be ready again, nothing to say
        if clean.seats < len(self.seats):
            dropped = self.seats[clean.seats :]
            if any(s.kind == "human" for s in dropped):
                raise ClientError("seats-taken", "players sit in the seats that would go; they must move first")
            for s in dropped:
                s.clear()
            del self.seats[clean.seats :]
        while len(self.seats) < clean.seats:
            self.seats.append(Seat(len(self.seats)))
        self.settings, self.spec = clean, spec
        for s in self.seats:
            s.ready = False
        self._save_room()
        if other_game:  # the players' readiness was for the game they sat down to
            self.system("sys.game_changed", game=clean.game)
        else:  # what changed, said: the line alone sent everyone to the header to find it
            self.system("sys.settings_changed_what", changes=NAMES_SEP.join(changes))
        self._changed(lobby=True)

    def _save_room(self) -> None:
        try:
            self.env.storage.update_room(self.id, self.settings.model_dump(mode="json"), self.host)
        except Exception:
            log.exception("room %s: cannot save settings", self.id)

    def start(self, who: Identity) -> None:
        self._require_host(who)
        if self.state != "waiting":
            raise ClientError("playing", "the match has already started")
        waiting_for = [s.name for s in self.humans() if not s.ready and name_key(s.name) != name_key(who.name)]
        if waiting_for:
            names = ", ".join(waiting_for)
            raise ClientError(
                "not-ready", f"waiting for {names} to be ready", reason="waiting", params={"names": NAMES_SEP.join(waiting_for)}
            )
        self._begin_match()

    def play_again(self, who: Identity) -> None:
        self._require_host(who)
        self._require_finished()
        self._release_absent()
        self._begin_match()

    def reopen(self, who: Identity) -> None:
        """After a finished match: back to the waiting room (host only), to change
        the settings or the game, let others sit down, and start when ready.
        The bots stay in their seats; everyone is asked to be ready again."""
        self._require_host(who)
        self._require_finished()
        self._release_absent()
        self.state = "waiting"
        for seat in self.seats:
            seat.ready = False
            seat.bot = None
            seat.left = ""
        self.system("sys.reopened")
        self._changed(lobby=True)

    def _table_name(self, index: int, name: str) -> str:
        """A seat's name at the table: a seat given up after the match (its player
        left) is still theirs in the result, not a blank "#2"."""
        if name or self.state not in ("playing", "finished") or index >= len(self._played_by):
            return name
        return self._played_by[index]

    def _release_absent(self) -> None:
        """After a finished match, the seats of players not at its table (they
        left it, or their connection did) are given up before the next match or
        the waiting room: "play again" drafted a player who had gone on to the
        lobby into a new match, which held him there until it ended."""
        for seat in self.seats:
            if seat.kind == "human" and seat.sessions == 0:
                self._free_seat(seat, "sys.absent")

    # ---------------------------------------------------------------- match

    def _begin_match(self) -> None:
        for seat in self.seats:
            if seat.kind == "empty":
                seat.kind = "bot"
            seat.ready = False
            seat.bot = None
            seat.left = ""  # a seat left in the last match is a bot's like any other now
        seed = secrets.randbits(62)
        options = self.spec.options_model.model_validate(self.settings.options)
        try:
            table = self.spec.new_table(len(self.seats), seed, options)
        except Exception as err:
            log.exception("room %s: cannot create a %s table", self.id, self.spec.id)
            raise ClientError("engine", f"cannot start {self.spec.title}: {err}") from err
        records = [SeatRecord(kind=s.kind, name=s.display(), guest=s.guest, gone=s.gone_at) for s in self.seats]
        self._played_by = [s.display() for s in self.seats]
        match_id = self.env.storage.start_match(
            self.id, self.spec.id, seed, options.model_dump(mode="json"), records
        )
        self.table, self.match_id, self.seed, self.seq, self._options = table, match_id, seed, 0, options
        self._why.clear()
        self._why_next.clear()
        self.state = "playing"
        self._pending = set()
        self._idle.clear()
        self._legal = [[] for _ in self.seats]
        self._legal_changed = [self.version for _ in self.seats]
        self.system("sys.match_begins", game=self.spec.id)
        self._ensure_bot_loop()
        self._after_change(actor=None)
        self.env.on_lobby_change()

    def restore(self, match: StoredMatch) -> None:
        """Rebuild a match from its stored seed and log (server restart)."""
        self.seats = [Seat(i) for i in range(len(match.seats))]
        for seat, rec in zip(self.seats, match.seats, strict=True):
            seat.kind, seat.guest = rec.kind, rec.guest
            seat.name = rec.name if rec.kind == "human" else ""
            if rec.left and rec.kind == "human":  # left for good before the restart: a bot's to the end
                seat.kind, seat.name, seat.left = "bot", "", rec.name
            # left the table before the restart: a bot plays on at once (the table does
            # not wait a grace period again); a guest's hold still ends with it
            seat.autoplay = rec.autoplay and seat.kind == "human"
        self._played_by = [s.display() for s in self.seats]
        options = self.spec.options_model.model_validate(match.options, context={"stored": True})  # as it was started
        table = self.spec.new_table(len(self.seats), match.seed, options)
        _replay(table, match.log)
        self.table, self.match_id, self.seed, self._options = table, match.id, match.seed, options
        self.seq = len(match.log)
        self.version = len(match.log) + 1
        self.state = "playing"
        self._legal = [[] for _ in self.seats]
        self._legal_changed = [0 for _ in self.seats]
        for seat, rec in zip(self.seats, match.seats, strict=True):
            if seat.kind == "human":
                self._restart_grace(seat, rec.gone)
        self.chat.extend(self.env.storage.chat_lines(room_scope(self.id)))
        self._restore_watchers()
        self._hold_from_start = False  # a round's result waits for its players to come back (or its time)
        self.system("sys.restarted")
        self._ensure_bot_loop()
        self._after_change(actor=None)

    def restore_lineup(
        self, seats: Sequence[SeatRecord], finished: StoredMatch | None, ready: Collection[int] = ()
    ) -> None:
        """Bring back a room that was waiting, or showing the result of
        ``finished``, when the server stopped (``lineup``): the same seats,
        bots, ready marks (``ready``: seat indices) and chat; as after a dropped
        connection, its players have the grace period to come back."""
        if len(seats) != len(self.seats):
            raise ValueError(f"{len(seats)} seats kept for a room of {len(self.seats)}")
        for seat, rec in zip(self.seats, seats, strict=True):
            seat.kind, seat.guest = rec.kind, rec.guest
            seat.name = rec.name if rec.kind == "human" else ""
            seat.ready = rec.kind == "human" and seat.index in ready
        if finished is not None:
            options = self.spec.options_model.model_validate(finished.options, context={"stored": True})
            table = self.spec.new_table(len(finished.seats), finished.seed, options)
            _replay(table, finished.log)
            if not table.is_over() or len(finished.seats) != len(self.seats):
                raise ValueError(f"match {finished.id} does not replay to its end at this table")
            self.table, self.match_id, self.seed, self._options = table, finished.id, finished.seed, options
            self.seq = len(finished.log)
            self._played_by = [rec.name if rec.kind == "human" else bot_name(i) for i, rec in enumerate(finished.seats)]
            for seat, rec in zip(self.seats, finished.seats, strict=True):
                if seat.kind == "bot" and rec.kind == "human" and rec.left:  # its result still says who left
                    seat.left = rec.name
            self._legal = [[] for _ in self.seats]
            self._legal_changed = [0 for _ in self.seats]
            self.state = "finished"
        self.version = self.seq + 1
        for seat, rec in zip(self.seats, seats, strict=True):
            if seat.kind == "human":
                self._restart_grace(seat, rec.gone)
        self._save_lineup()  # (with when each grace period began)
        self.chat.extend(self.env.storage.chat_lines(room_scope(self.id)))
        self._restore_watchers()
        self.system("sys.restarted_room")

    def _rebuild(self) -> None:
        """Make the table again from seed + stored log (after a failed write or an engine crash)."""
        assert self.match_id is not None and self._options is not None
        entries = self.env.storage.match_log(self.match_id)
        table = self.spec.new_table(len(self.seats), self.seed, self._options)
        _replay(table, entries)
        self.table, self.seq = table, len(entries)
        self._views.clear()

    def act(self, seat: int | None, text: str, version: int) -> None:
        """A screen's action for ``seat`` seen at ``version``."""
        if self.state != "playing" or self.table is None:
            raise ClientError("not-playing", "no match is being played")
        if seat is None:
            raise ClientError("not-seated", "spectators cannot act")
        if version > self.version or (version < self.version and self._legal_changed[seat] > version):
            raise ClientError("stale", "the table changed; look again")
        self._reclaim(self.seats[seat])  # acting is being back (a screen asks for the seat first)
        self._why_next.pop(seat, None)  # its player's own action: nothing to explain
        self.apply(seat, text[:ACTION_MAX].strip())
        self._idle.discard(seat)  # its player is back: a next timeout is said again
        self.seats[seat].missed = 0  # acted in time: the count of timeouts in a row starts again

    def apply(self, seat: int, text: str) -> None:
        """Validate, log, then publish one action (humans, bots and timeouts alike);
        in a quick window, an answer that would close it before its minimum time
        is kept until then (S-REACT-5, K-ORD-11)."""
        if self._hold(seat, text):
            return
        table = self.table
        # an answer the window goes on after is told to its seat's screens alone: the
        # others' views do not change (S-REACT-5, K-ORD-11), nor should their frames
        quiet = (
            self._quick and table is not None and seat in table.pending()
            and text in self._answers(seat) and table.pending() != {seat}
        )
        self._told_only = seat if quiet else None
        try:
            self._apply_now(seat, text)
        finally:
            self._told_only = None

    def _hold(self, seat: int, text: str) -> bool:
        """Keep back ``seat``'s answer ``text`` if it is the last one a quick window
        waits for and the window's minimum time has not passed."""
        table = self.table
        if not self._quick or self._min_over or table is None or self.state != "playing":
            return False
        if text not in self._answers(seat):
            return False
        if seat in self._held:
            raise ClientError("illegal", f"seat {seat_number(seat)} has answered this window", reason="not-pending")
        if table.pending() != {seat}:
            return False
        self._held[seat] = text
        self._auto.discard(seat)
        self._told_only = seat
        try:
            self._changed()  # its screen: no prompt any more
        finally:
            self._told_only = None
        return True

    def _apply_now(self, seat: int, text: str) -> None:
        table = self.table
        if self.state != "playing" or table is None or self.match_id is None:
            raise ClientError("not-playing", "no match is being played")
        try:
            table.play(seat, text)
        except IllegalAction as err:
            raise ClientError("illegal", str(err), reason=err.code) from err
        except Exception as err:
            log.exception("room %s: engine failed on seat %s %r", self.id, seat, logged_action(text))
            self._rebuild()
            raise ClientError("engine", f"the game could not apply {text!r}") from err
        try:
            self.env.storage.append_action(self.match_id, self.seq, seat, text)
        except Exception as err:
            log.exception("room %s: cannot log seat %s %r; undoing", self.id, seat, logged_action(text))
            self._rebuild()
            self._storage_failed()
            raise ClientError("storage", "the server could not record that action; try again") from err
        self.seq += 1
        why = self._why_next.pop(seat, None)
        if why is not None:
            self._note_why(seat, why)
        self._publish(actor=seat)

    def _publish(self, actor: int | None) -> None:
        """``_after_change`` for an action already applied and logged: an engine
        failure while reading the new state is logged, never raised to the actor."""
        try:
            self._after_change(actor=actor)
        except Exception:
            log.exception("room %s: reading the table after a change failed", self.id)
            self._changed()

    def _next_round(self) -> None:
        table = self.table
        if table is None or self.match_id is None or not table.between_rounds() or table.is_over():
            return
        self.env.storage.append_next_round(self.match_id, self.seq)
        table.next_round()
        self.seq += 1
        self._went_on.clear()
        self._publish(actor=None)

    def _after_change(self, actor: int | None) -> None:
        table = self.table
        assert table is not None
        self.version += 1
        self._views.clear()
        for i in range(len(self.seats)):
            legal = table.legal(i)
            if legal != self._legal[i]:
                self._legal[i] = legal
                self._legal_changed[i] = self.version
        old = self._pending
        if table.is_over():
            self._finish()
        elif table.between_rounds():
            self._new_decision(set())
            if self._intermission is None:
                seconds = self._break_seconds()
                self._went_on.clear()
                self._deadline = self.env.clock() + seconds * self.env.time_scale  # the countdown shows
                self._intermission = self.env.task(self._intermit(seconds), f"room{self.id}-intermission")
                if self._hold_from_start:
                    self.env.loop.call_soon(self._check_break, context=self.env.context)  # nobody at the table: at once
                self._hold_from_start = True
        else:
            new = table.pending()
            # the same decision goes on (its clock too) when an answer or an
            # action by a seat it does not wait for left only seats it waited
            # for; or when a seat a window waits for acted and still owes its
            # answer (a Sultans claim is no answer, S-SUL-2: it gave the whole
            # window its time again)
            same = (
                actor is not None and bool(new) and new <= old and not self._closing
                and (actor not in new or (self._in_window and table.is_window()))
            )
            if same:
                self._pending = new
            else:
                self._new_decision(new)
        self._quick_step()
        self._wake_bots()
        self._changed()

    def _new_decision(self, pending: set[int]) -> None:
        self._told_only = None  # a new decision (or the round's or match's end): every screen is told
        self._pending = pending
        self._decision += 1
        self._in_window = bool(pending) and self.table is not None and self.table.is_window()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._deadline = None
        self._start_quick(self._in_window and not self.settings.strict_windows)
        if not pending or self.table is None:
            return
        seconds = self.settings.window_timer if self.table.is_window() else self.settings.turn_timer
        if seconds > 0:
            self._deadline = self.env.clock() + seconds * self.env.time_scale
            self._timer = self.env.task(self._time_out(self._decision, seconds), f"room{self.id}-timer")

    # ------------------------------------------------------- quick windows

    def _window_min(self) -> float:
        """A quick window's minimum time: the room's, within its reaction timer."""
        least = self.settings.window_min
        return min(least, self.settings.window_timer) if self.settings.window_timer > 0 else least

    def _start_quick(self, quick: bool) -> None:
        """A new decision: a quick window (S-REACT-5, K-ORD-11) starts its minimum
        time; the bots thinking cut their time short to answer within it."""
        self._quick = quick
        self._auto.clear()
        self._held.clear()
        if self._min_timer is not None:
            self._min_timer.cancel()
            self._min_timer = None
        self._min_over = not quick
        if quick:
            self._views.clear()
            self._min_timer = self.env.task(self._min_time(self._decision), f"room{self.id}-window-min")
            if self._bot_sleeper is not None:
                self._bot_sleeper.cancel()

    async def _min_time(self, decision: int) -> None:
        await self.env.sleep(self._window_min())
        if self._decision != decision:
            return
        self._min_timer = None
        self._min_over = True
        try:
            self._quick_step()
        except Exception:
            log.exception("room %s: closing a quick window failed", self.id)
        self._changed()

    def _room_passes(self, seat: int) -> bool:
        """The room answers ``pass`` for ``seat``: it is all it may answer, and its
        player did not ask to be asked in every window."""
        owner = self.seats[seat]
        if owner.kind == "human" and not owner.bot_plays() and owner.ask_every:
            return False
        return self._answers(seat) == ["pass"]

    def _quick_step(self) -> None:
        """After a change in a quick window: which seats the room passes for, and
        once the minimum time has passed and nobody else owes an answer, close it."""
        table = self.table
        if not self._quick or table is None or self._flushing or self.state != "playing":
            return
        owed = table.pending()
        self._held = {s: a for s, a in self._held.items() if s in owed}
        self._auto = {s for s in owed if s not in self._held and self._room_passes(s)}
        if self._min_over and not owed - self._auto - self._held.keys():
            self._flush()

    def _flush(self) -> None:
        """Play the answers kept back and the room's passes (seat order; the engine
        resolves a window by seat order, never by the order answers came)."""
        table = self.table
        todo = sorted(self._held.items()) + [(s, "pass") for s in sorted(self._auto)]
        decision = self._decision
        self._told_only = None  # the window closes: every screen is told
        self._flushing = True
        try:
            for seat, text in todo:
                if self._decision != decision or self.table is not table or table is None or seat not in table.pending():
                    continue
                self._held.pop(seat, None)
                if seat in self._auto:  # its log says the room passed (it pressed nothing)
                    self._auto.discard(seat)
                    if self.seats[seat].kind == "human":
                        self._why_next[seat] = "why.quick_pass"
                self._closing = table.pending() == {seat}  # the window's last answer: what follows is a new decision
                try:
                    self._apply_now(seat, text)
                except ClientError as err:
                    log.warning("room %s: quick answer %r for seat %s refused: %s %s",
                                self.id, logged_action(text), seat, err.code, err.reason)
                    if self._decision == decision and seat in table.pending():
                        self._play_default(seat, "quick answer refused")  # the window must not wait on it
                finally:
                    self._closing = False
        finally:
            self._flushing = False
        if self._decision != decision:
            self._quick_step()  # the next window, if one opened, gets its passes

    async def _time_out(self, decision: int, seconds: float) -> None:
        await self.env.sleep(seconds)
        self._timer = None
        self._deadline = None
        missed: list[int] = []
        if self._quick and self._decision == decision:  # what was kept back and the room's passes come first
            self._min_over = True
            try:
                self._flush()
            except Exception:
                log.exception("room %s: closing a quick window failed", self.id)
        try:
            # play the default for every seat still owing an answer in this decision
            while self.state == "playing" and self.table is not None and self._decision == decision:
                pending = sorted(self.table.pending())
                if not pending:
                    break
                seat = pending[0]
                # a reaction or an option let go ("pass" the default) is no news: nothing is said.
                # Else the game's log shows the default as any other action: the chat says who
                # did not choose it, once until that player acts again (it was every timeout,
                # a flood), and before any line the default brings (the end of the match)
                news = "pass" not in self.table.legal(seat)
                said = news and seat not in self._idle
                if said:
                    self._idle.add(seat)
                    self._unsaid.append(seat)
                played = self._play_default(seat, "timed out", note=self.seats[seat].kind == "human")
                if not played:
                    if said and seat in self._unsaid:
                        self._idle.discard(seat)
                        self._unsaid.remove(seat)
                    break
                if news:
                    self._timeouts[seat] = self._timeouts.get(seat, 0) + 1  # (its screen says so)
                    missed.append(seat)
        except Exception:
            log.exception("room %s: timeout handling failed", self.id)
        self._say_timeouts()
        self._count_missed(missed)
        self._changed()

    def _count_missed(self, seats: Iterable[int]) -> None:
        """Count a decision whose time ran out for each of ``seats`` (a reaction
        let go is none: passing is a choice); a player's seat that missed
        ``env.away_after`` in a row is away: a stand-in bot plays it, at bot pace,
        until its player presses a key at the table (:meth:`come_back`)."""
        for index in sorted(set(seats)):
            seat = self.seats[index]
            if seat.kind != "human" or seat.bot_plays():
                continue
            seat.missed += 1
            if seat.missed >= self.env.away_after and self.state == "playing":
                seat.away = True
                self.system("sys.away_standin", name=seat.name)
                self._wake_bots()

    def _say_timeouts(self) -> None:
        """The chat's line for the seats whose time ran out that it has not named yet."""
        seats, self._unsaid = sorted(set(self._unsaid)), []
        if seats:
            self.system("sys.timed_out", names=NAMES_SEP.join(self.seats[s].display() for s in seats))

    def _play_default(self, seat: int, why: str, *, note: bool = False) -> str | None:
        """Play the table's timeout action for ``seat`` (else its first legal one);
        the action played, or None. ``note``: its player's log says their time ran out."""
        table = self.table
        if table is None:
            return None
        tries: list[str] = []
        try:
            tries.append(table.timeout_action(seat))
        except Exception:
            log.exception("room %s: timeout_action(%s) failed", self.id, seat)
        tries += [a for a in table.legal(seat) if a not in tries]
        for text in tries:
            if note:
                self._why_next[seat] = "why.timeout_pass" if text == "pass" else "why.timeout"
            try:
                self.apply(seat, text)
            except ClientError as err:
                self._why_next.pop(seat, None)
                log.warning("room %s: default %r for seat %s refused: %s %s", self.id, logged_action(text), seat, err.code, err.reason)
                continue
            log.info("room %s: seat %s %s, played %r", self.id, seat, why, logged_action(text))
            return text
        return None

    def _break_seconds(self) -> float:
        """How long a round's result waits at most (in the room's own seconds)."""
        seconds = float(self.settings.between_rounds)
        if self.env.intermission is not None:
            seconds = min(seconds, self.env.intermission)
        return seconds

    async def _intermit(self, seconds: float) -> None:
        try:
            await self.env.sleep(seconds)
        finally:
            if self._intermission is asyncio.current_task():
                self._intermission = None
        try:
            self._next_round()
        except Exception:
            log.exception("room %s: cannot deal the next round", self.id)
            self._storage_failed()

    def _storage_failed(self) -> None:
        """A write of the match failed (a full disk, a read-only file): the match
        stands still, and nothing else may come to move it (a bots' table, a
        default already refused), so it tries again in ``storage_retry`` seconds,
        and again until the write goes through."""
        if self._retry is None and not self.closed and self.state == "playing":
            self._retry = self.env.task(self._retry_later(), f"room{self.id}-retry")

    async def _retry_later(self) -> None:
        try:
            await asyncio.sleep(self.env.storage_retry)  # real seconds: the disk's time, not the room's
        finally:
            self._retry = None
        table = self.table
        if self.closed or self.state != "playing" or table is None:
            return
        log.info("room %s: trying the match's writes again", self.id)
        if table.between_rounds() and not table.is_over():
            if self._intermission is None:
                # the break was over (its deal's write failed): deal now
                self._intermission = self.env.task(self._intermit(0), f"room{self.id}-intermission")
        elif self._timer is None and self._deadline is None and table.pending():
            # its time ran out and the default was refused: the default again, now
            self._timer = self.env.task(self._time_out(self._decision, 0), f"room{self.id}-timer")
        self._wake_bots()

    def _finish(self) -> None:
        table = self.table
        assert table is not None and self.match_id is not None
        self._new_decision(set())
        points = table.standings()
        winners = set(table.winners())
        results: list[SeatResult] = []
        for s in self.seats:
            player = s.kind == "human" or bool(s.left)
            kind: Literal["human", "guest", "bot"] = "bot" if not player else ("guest" if s.guest else "human")
            results.append(
                SeatResult(
                    seat=s.index,
                    name=s.display(),
                    kind=kind,
                    points=int(points[s.index]) if s.index < len(points) else 0,
                    win=s.index in winners,
                    left=bool(s.left),
                )
            )
        try:
            self.env.storage.finish_match(self.match_id, results)
        except Exception:
            log.exception("room %s: cannot record the results of match %s", self.id, self.match_id)
        self.state = "finished"
        if winners:
            self.system("sys.match_over", names=NAMES_SEP.join(self.seats[w].display() for w in sorted(winners)))
        else:
            self.system("sys.match_over_nobody")
        away = {seat.index for seat in self.humans() if seat.autoplay and seat.sessions == 0}
        for seat in self.humans():
            seat.autoplay = seat.away = False
            seat.missed = 0
            if seat.sessions == 0 and seat.grace is None:
                self._start_grace(seat)
                if not self.env.stopping:
                    seat.gone_at = self.env.clock()  # (kept by the lineup saved below)
        host = next((seat for seat in self.humans() if name_key(seat.name) == name_key(self.host)), None)
        if host is not None and host.index in away and any(seat.sessions > 0 for seat in self.humans()):
            # a host gone past the grace period would hold the next match back for another one
            self._pass_host()
        self._save_lineup()
        self.env.on_lobby_change()
        if not self.humans():  # every player left the match: nobody to show its result to but watchers
            self.env.loop.call_soon(self._maybe_close, context=self.env.context)

    # ------------------------------------------------------------------ bots

    def _ensure_bot_loop(self) -> None:
        if self._bots is None or self._bots.done():
            self._bots = self.env.task(self._bot_loop(), f"room{self.id}-bots")

    def _wake_bots(self) -> None:
        if any(s.bot_plays() for s in self.seats):
            self._bot_wake.set()

    def bot_think(self) -> float:
        """How long the bots think this time: the room's bot delay, give or take
        ``BOT_JITTER`` of it, as people do. (Exactly the same delay in every room
        kept the rooms that acted together in step: on a busy server each step
        then drew every screen of all of them at once.) Timing only: the game's
        own randomness stays the seeded engine's."""
        return self.settings.bot_delay * self._think.uniform(1 - BOT_JITTER, 1 + BOT_JITTER)

    def bot_level(self, seat: Seat) -> BotLevel | None:
        """The level of the bot playing ``seat``: the room's per-seat or general level
        for a bot seat; a stand-in for an absent player always plays at normal."""
        if seat.kind == "bot" and not seat.left:
            return self.settings.bot_levels.get(seat.index, self.settings.bot_level)
        if seat.bot_plays():
            return STANDIN_BOT
        return None

    def _bot_for(self, seat: Seat) -> Bot:
        level = self.bot_level(seat) or STANDIN_BOT
        # a strong seat searches in the thinking pool (never on the event loop); its own
        # bot answers the rest (windows, optional actions) and stands in for a search that failed
        kind = "normal" if level == "strong" else level
        if seat.bot is None or seat.bot_kind != kind:
            seat.bot = self.spec.new_bot(seat.index, kind, (self.seed + 7919 * (seat.index + 1)) % (1 << 62))
            seat.bot_kind = kind
        return seat.bot

    def _bot_pause_now(self) -> float:
        """How long the bots think before this round: in a quick window, within its
        minimum time (S-REACT-5, K-ORD-11: a window's close never waits for a bot)."""
        think = self.bot_think()
        if self._quick and not self._min_over:
            think = min(think, BOT_REACT_SHARE * self._window_min())
        return think

    async def _bot_pause(self, seconds: float) -> bool:
        """Sleep ``seconds`` of bot thinking; True when a quick window opening cut it short."""
        sleeper = asyncio.ensure_future(self.env.sleep(seconds))
        self._bot_sleeper = sleeper
        try:
            await asyncio.wait([sleeper])
        finally:
            self._bot_sleeper = None
            sleeper.cancel()
        return sleeper.cancelled()

    async def _bot_loop(self) -> None:
        while not self.closed:
            await self._bot_wake.wait()
            self._bot_wake.clear()
            pause = self._bot_pause_now() if self.settings.bot_delay > 0 else 0.0
            thoughts = self._start_thinking(min(pause, self.settings.bot_delay))  # never longer than the bot delay
            try:
                if self.settings.bot_delay > 0:
                    while await self._bot_pause(pause):
                        pause = self._bot_pause_now()  # a quick window opened meanwhile: think again, within its minimum time
                else:
                    await asyncio.sleep(0)
                answers = await self._thoughts(thoughts)
            finally:
                for task in thoughts.values():
                    task.cancel()
            try:
                self._run_bots(answers)
            except Exception:
                log.exception("room %s: bot round failed", self.id)

    # the strong bots search in the thinking pool while the bot delay runs

    def _searching(self, seat: Seat) -> bool:
        """``seat`` is played by a strong bot that can search now."""
        return (
            self.bot_level(seat) == "strong" and self.env.thinker is not None and not self.env.thinker.closed
            and self.spec.search is not None
        )

    def _start_thinking(self, budget: float) -> dict[int, asyncio.Task[tuple[int, str]]]:
        """Start a search for every strong seat whose own decision this is: from its
        view (as JSON), for ``budget`` seconds (never longer than the bot delay)."""
        table, search, thinker = self.table, self.spec.search, self.env.thinker
        out: dict[int, asyncio.Task[tuple[int, str]]] = {}
        if self.state != "playing" or table is None or search is None or thinker is None:
            return out
        for seat in self.seats:
            if not seat.bot_plays() or not self._searching(seat) or not self.is_pending(seat.index):
                continue
            view = self.view(seat.index)
            if view is None or not search.searchable(view, True):
                continue
            legal = self.legal(seat.index)
            seed = f"{self.seed}:{seat.index}:{self.version}"
            out[seat.index] = self.env.task_of(
                self._search(thinker, view.model_dump_json(), legal, seed, budget), f"room{self.id}-think{seat.index}"
            )
        return out

    async def _search(self, thinker: Thinker, view_json: str, legal: list[str], seed: str, budget: float) -> tuple[int, str]:
        version = self.version  # the room's version the answer is for
        return version, await thinker.decide(self.spec.id, view_json, legal, seed, budget)

    async def _thoughts(self, thoughts: dict[int, asyncio.Task[tuple[int, str]]]) -> dict[int, tuple[int, str | None]]:
        """The searches' answers: seat -> (the room version it is for, the action). A
        search runs its budget and one rollout more; one that fails or takes far longer
        answers ``None`` and the normal bot plays for it."""
        if not thoughts:
            return {}
        version = self.version
        await asyncio.wait(thoughts.values(), timeout=THINK_GRACE + self.settings.bot_delay)
        out: dict[int, tuple[int, str | None]] = {}
        for index, task in thoughts.items():
            if task.done() and not task.cancelled() and task.exception() is None:
                out[index] = task.result()
            else:
                if task.done() and not task.cancelled():
                    log.warning("room %s: the search for seat %s failed: %r", self.id, index, task.exception())
                else:
                    log.warning("room %s: the search for seat %s took too long", self.id, index)
                out[index] = (version, None)
        return out

    def _run_bots(self, answers: dict[int, tuple[int, str | None]] | None = None) -> None:
        """One bot round, against the current state: every bot-played seat that was
        pending when the round began answers (a window is answered by all its bots
        together); then every bot-played seat that is not pending is asked for an
        optional action. Seats that become pending meanwhile wait for the next round
        (after the bot delay). A strong seat plays its search's answer (``answers``:
        seat -> (the room version it was for, the action)) while the room is still at
        that version; a stale one is thrown away and the seat thinks again next round."""
        table = self.table
        if self.state != "playing" or table is None:
            return
        asked = {s for s in table.pending() if self.is_pending(s)}
        for seat in [s for s in self.seats if s.bot_plays() and s.index in asked]:
            if not self._bot_turn(table, seat, must=True, answers=answers or {}):
                return
        for seat in [s for s in self.seats if s.bot_plays()]:
            if not self._bot_turn(table, seat, must=False):
                return

    def _bot_turn(
        self, table: GameTable, seat: Seat, *, must: bool, answers: dict[int, tuple[int, str | None]] | None = None
    ) -> bool:
        """Ask one bot; False when the round should stop (match over, round ended...)."""
        if self.state != "playing" or table is not self.table or table.between_rounds() or table.is_over():
            return False
        if not seat.bot_plays():
            return True
        is_pending = self.is_pending(seat.index)
        if is_pending != must:
            return True
        legal = self.legal(seat.index)
        if not legal:
            return True
        action: str | None
        try:
            view = self.view(seat.index)
            assert view is not None
            search = self.spec.search
            if is_pending and search is not None and self._searching(seat) and search.searchable(view, True):
                answer = (answers or {}).get(seat.index)
                if answer is None or answer[0] != self.version:
                    self._bot_wake.set()  # not searched (or for a state gone by): think again
                    return True
                action = answer[1] if answer[1] is not None else self._bot_for(seat).act(view, legal, True)
            else:
                action = self._bot_for(seat).act(view, legal, is_pending)
        except Exception:
            log.exception("room %s: bot on seat %s crashed", self.id, seat.index)
            action = None
        if action is None:
            if is_pending:
                self._play_default(seat.index, "bot gave no answer")
            return True
        if seat.kind == "human":  # a stand-in played it: its player's log says so
            self._why_next[seat.index] = "why.standin"
        try:
            self.apply(seat.index, action)
        except ClientError as err:
            self._why_next.pop(seat.index, None)
            log.warning(
                "room %s: bot on seat %s played %r: %s %s", self.id, seat.index, logged_action(action), err.code, err.reason
            )
            if is_pending:
                self._play_default(seat.index, "bot answer refused")
        return True


def keep_said(storage: Storage, scope: str, line: ChatLine) -> None:
    """Keep a player's chat line before anyone sees it; a failed write (a full
    disk) refuses it to its sender, who keeps it in the input to send again,
    rather than showing a line that a restart would lose unsaid."""
    try:
        storage.append_chat(scope, line)
    except StorageError as err:
        log.warning("%s", err)
        raise ClientError("chat-storage", "the server could not save that chat line; try again") from err


def chat_text(text: str) -> str:
    """A player's chat line as others see it (cleaned); refused with
    ClientError("chat-long") when longer than CHAT_MAX: never cut unsaid."""
    clean = clean_text(text, CHAT_MAX + 1)
    if len(clean) > CHAT_MAX:
        raise ClientError("chat-long", f"a chat line holds at most {CHAT_MAX} characters", params={"max": str(CHAT_MAX)})
    return clean


def require_unmuted(club: Club, name: str) -> None:
    """Refuse a chat line from a muted player, saying why and until when."""
    mute = club.muted(name)
    if mute is not None:
        until = "" if mute.until is None else when(mute.until)
        raise ClientError(
            "muted", f"an admin muted you in chat: {mute.reason}", reason="timed" if until else "",
            params={"reason": mute.reason, "until": until},
        )


def logged_action(text: str) -> str:
    """An action as a server log line shows it: its verb alone. The rest may be
    private (the card a seat hands on, the secret partner of a hide: S-VIEW-4,
    K-VIEW-1) and the log is read by an operator who may be a player; the whole
    action is in the match's log in the database."""
    verb, _, rest = text.strip().partition(" ")
    return f"{verb} …" if rest else verb


def _replay(table: GameTable, entries: list[LogEntry]) -> None:
    for entry in entries:
        if entry.kind == "next-round":
            table.next_round()
        else:
            assert entry.seat is not None
            table.play(entry.seat, entry.text)


class RoomSession:
    """``protocol.contract.RoomClient`` for one SSH session in one room.

    ``role`` is ``"player"`` (the identity holds a seat) or ``"spectator"``.
    Besides the protocol, ``closed`` says the session was detached by the host
    (kicked) or the room closed; every action then raises ClientError("closed"),
    or ClientError("kicked") when the host removed the player (``kicked``).
    """

    def __init__(self, room: Room, identity: Identity, role: Literal["player", "spectator"],
                 on_leave: Callable[[RoomSession], None] | None = None) -> None:
        self._room = room
        self.identity = identity
        self.role: Literal["player", "spectator"] = role
        self._listener: Listener | None = None
        self._listener_ctx: contextvars.Context | None = None
        self._closed = False
        self.kicked = False  # detached by the host's kick
        self._on_leave = on_leave

    # -- identity of this handle
    @property
    def room(self) -> Room:
        return self._room

    @property
    def room_id(self) -> str:
        return self._room.id

    @property
    def closed(self) -> bool:
        return self._closed or self._room.closed

    @property
    def my_seat(self) -> int | None:
        if self.role != "player" or self.closed:
            return None
        return self._room.seat_of(self.identity.name)

    def _live(self) -> Room:
        if self.closed:
            if self.kicked and not self._room.closed:
                raise ClientError("kicked", "the host removed you from this room")
            if self._room.closed_reason:
                reason = self._room.closed_reason
                raise ClientError("closed-admin", f"an admin closed the room: {reason}", params={"reason": reason})
            raise ClientError("closed", "you are no longer in this room")
        return self._room

    # -- reading
    def snapshot(self) -> RoomSnapshot:
        """The room as the screens show it; ClientError("closed") once this handle is
        detached (left, room closed, server stopping), ClientError("kicked") after a kick."""
        return self._live().snapshot()

    def view(self) -> BaseModel | None:
        if self.role == "spectator":
            return self._room.view(None)
        seat = self.my_seat
        if seat is None:  # kicked: what anyone may see
            return self._room.view(None)
        return self._room.view(seat)

    def round_log(self, number: int) -> Sequence[object]:
        return self._room.round_log(None if self.role == "spectator" else self.my_seat, number)

    def round_view(self, number: int) -> BaseModel | None:
        return self._room.round_view(None if self.role == "spectator" else self.my_seat, number)

    def why_notes(self) -> Sequence[WhyNote]:
        return self._room.why_notes(self.my_seat) if self.role == "player" else []

    def go_on(self) -> None:
        room = self._live()
        if self.role == "player":
            room.go_on(self.my_seat)

    def legal(self) -> list[str]:
        return self._room.legal(self.my_seat)

    def pending(self) -> bool:
        return self._room.is_pending(self.my_seat)

    def nothing_to_answer(self) -> bool:
        return self._room.nothing_to_answer(self.my_seat)

    def chat_lines(self) -> list[ChatLine]:
        return list(self._room.chat)

    # -- acting
    def act(self, text: str, version: int) -> None:
        self._live().act(self.my_seat, text, version)

    def chat(self, text: str) -> None:
        room = self._live()
        if room.env.club is not None:
            require_unmuted(room.env.club, self.identity.name)
        text = chat_text(text)  # a refused line is not counted
        room.env.count_chat(self.identity.name, self.identity.address)
        room.say(self.identity.name, text)

    def set_ready(self, ready: bool) -> None:
        self._live().set_ready(self.identity, ready)

    def take_seat(self, index: int) -> None:
        room = self._live()
        if self.role == "spectator":
            raise ClientError("not-seated", "join the room to take a seat")
        room.take_seat(self.identity, index)

    def add_bot(self, index: int | None = None) -> None:
        self._live().add_bot(self.identity, index)

    def remove_bot(self, index: int) -> None:
        self._live().remove_bot(self.identity, index)

    def kick(self, index: int) -> None:
        self._live().kick(self.identity, index)

    def update_settings(self, settings: RoomSettings) -> None:
        room = self._live()
        room.update_settings(self.identity, settings, self._specs())

    def start(self) -> None:
        self._live().start(self.identity)

    def play_again(self) -> None:
        self._live().play_again(self.identity)

    def reopen(self) -> None:
        self._live().reopen(self.identity)

    def come_back(self) -> bool:
        room = self._live()
        return self.role == "player" and room.come_back(self.identity)

    def hand_to_standin(self, index: int) -> None:
        self._live().hand_to_standin(self.identity, index)

    def leave_match(self) -> None:
        room = self._live()
        if self.role != "player":
            raise ClientError("not-seated", "you have no seat in this room")
        room.leave_match(self.identity)
        self._closed = True
        if self._on_leave is not None:
            self._on_leave(self)

    def leave(self) -> None:
        if not self._closed:
            self._room.detach(self, leaving=True)
            self._closed = True
        if self._on_leave is not None:
            self._on_leave(self)

    def set_listener(self, listener: Listener | None) -> None:
        self._listener = listener
        self._listener_ctx = contextvars.copy_context() if listener is not None else None

    # -- internals
    specs_provider: Callable[[], dict[str, GameSpec]] | None = None

    def _specs(self) -> dict[str, GameSpec]:
        if self.specs_provider is None:
            return {self._room.spec.id: self._room.spec}
        return self.specs_provider()

    def __repr__(self) -> str:
        return f"<RoomSession room={self._room.id} {self.identity.name} {self.role}>"


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


__all__ = [
    "CHAT_HISTORY",
    "CHAT_MAX",
    "Room",
    "RoomEnv",
    "RoomSession",
    "Seat",
    "call_listener",
    "validate_settings",
]
