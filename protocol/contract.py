"""The room-client interface: everything a screen may ask of the host.

``tui/`` renders what these objects return and sends actions through them;
it never sees engine state, only the per-seat *views* the engine makes.
``server/`` implements the protocols (one ``LobbyClient`` per SSH session).

Change notification: the server calls the listener set with
``set_listener`` from the event loop whenever something the screen shows may
have changed (a new view, a chat line, a seat taken...). The listener must be
cheap: screens coalesce and re-read state on their own schedule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from engine.api import DEFAULT_BOT_LEVEL, BotLevel
from protocol.names import name_key

Listener = Callable[[], None]


CHAT_MAX = 300
"""Characters a chat line holds at most: the chat line's input stops there and
says so, and the host refuses a longer line (``ClientError("chat-long")``)."""


class ClientError(Exception):
    """A request the host refused. ``code`` is stable (``"room-full"``,
    ``"stale"``, ``"illegal"``, ``"not-host"``, ``"bad-code"``...) and
    translatable; ``str(err)`` is a readable English message. ``reason``
    (optional) refines the code: for ``"illegal"`` it is the engine's
    ``IllegalAction.code`` (``"parse"``, ``"not-pending"``, ``"illegal"``,
    ``"round-over"``...), so screens can say why in the player's language.
    ``params``: literal values (names, seat numbers) its translations show."""

    def __init__(self, code: str, message: str, *, reason: str = "", params: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.params = params or {}


class Identity(BaseModel):
    name: str  # already sanitised
    guest: bool = False
    lang: Literal["en", "zh"] = "en"  # initial language, from the client's LANG
    bell: bool = True  # ring the terminal's bell when the game waits for this player's decision
    ask_every: bool = False  # be asked in every reaction window, even with only ``pass`` to answer (S-REACT-5, K-ORD-11)
    asked_as: str = ""  # the name the client asked for (printable), when cleaning it changed it: said once
    key_fingerprint: str = ""  # the SSH key it logged in with ("" for a guest)
    address: str = ""  # the client's IP address
    admin: bool = False  # a club admin (server.club): the lobby offers the admin screen
    invite_needed: bool = False  # members-only club, key not a member yet: asked for an invite code first


class ChatLine(BaseModel):
    """One chat line. A system line (``system``) may carry ``key``, a message
    catalogue key (``protocol.catalogue``, ``"sys.*"``), and its ``params``; screens then
    show it in the player's language, ``text`` being its English rendering (for
    logs, and for screens that do not know the key). Params are literal text
    (names are never markup); a param named ``game`` holds a game id."""

    at: float  # unix time
    name: str  # sanitised sender name; "" for system lines
    text: str  # sanitised; never markup
    system: bool = False
    key: str | None = None
    params: dict[str, str] = Field(default_factory=dict)


TIMER_MAX = 600
"""The longest turn or reaction timer a room may have, in seconds (0 = no timer)."""
BOT_DELAY_MAX = 30.0
"""The longest a room's bots may "think", in seconds."""
WINDOW_MIN = (1.0, 10.0)
"""The least and the most a quick window's minimum time may be, in seconds (S-REACT-5, K-ORD-11)."""
AWAY_AFTER = 2
"""A player's own decisions in a row whose time ran out before their seat is away
and a stand-in bot plays it (the server's default; its config may set another)."""
BETWEEN_ROUNDS = 30
"""Seconds a round's result stays, at most, before the next round is dealt
(the room setting's default); the room deals sooner once every human at the
table pressed a key to go on."""
BETWEEN_ROUNDS_MAX = 300
"""The longest "between rounds" a room may set (the settings dialog and the room read it)."""


class WhyNote(BaseModel):
    """Why something happened to a seat that its log would not say: the room
    played for it (its time ran out; a stand-in bot while it was away). Only
    that seat's screen gets it. ``round``/``after``: it goes after the first
    ``after`` events of round ``round`` of that seat's log; ``key`` is a
    catalogue key (``why.*``)."""

    model_config = ConfigDict(frozen=True)

    round: int
    after: int
    key: str


class RoomSettings(BaseModel):
    """A room's settings. The bounds the host holds them to (``TIMER_MAX``,
    ``BOT_DELAY_MAX``, ``WINDOW_MIN``) are the ones the settings dialog checks."""

    game: str = "sultans"
    name: str = ""  # shown in the lobby; sanitised by the server
    seats: int = Field(default=5, ge=2, le=15)
    private: bool = False  # private rooms need ``code`` to join
    code: str = ""
    turn_timer: int = 60  # seconds per turn decision, 0 = no timer (S-TIME-1, K-TIME-1 on timeout)
    window_timer: int = 20  # seconds for reaction windows/prompts, 0 = no timer
    bot_delay: float = 1.0  # seconds a bot "thinks" (0 in tests)
    # S-REACT-5 / K-ORD-11: quick windows (False) answer ``pass`` for a seat that
    # has nothing else to answer and hide who answered; strict ones ask everyone
    strict_windows: bool = False
    window_min: float = 2.0  # seconds a quick window stays open at least (within WINDOW_MIN)
    bot_level: BotLevel = DEFAULT_BOT_LEVEL  # how well the room's bots play (engine.api.BOT_LEVELS)
    bot_levels: dict[int, BotLevel] = Field(default_factory=dict)  # seat index -> level, for the bot in that seat
    between_rounds: int = BETWEEN_ROUNDS  # seconds a round's result waits for the humans to go on
    options: dict[str, object] = Field(default_factory=dict)  # game options (rounds, notebook...)


def seat_number(index: int) -> int:
    """The number players see and type for the seat at ``index``: seats count
    from 1, as at a real table, while the host, the views and the engines'
    notation index them from 0. Every screen, prompt, log, chat line and host
    message converts here (and back with :func:`seat_index`), nowhere else."""
    return index + 1


def seat_index(number: int) -> int:
    """The seat index a number a player typed or read means (:func:`seat_number`'s inverse)."""
    return number - 1


def bot_name(seat: int) -> str:
    """The host's name for the bot in ``seat`` (its logs, results and views):
    "Bot 3" sits in the seat players see as 3; screens show it in their
    reader's language."""
    return f"Bot {seat_number(seat)}"


class SeatInfo(BaseModel):
    index: int
    kind: Literal["empty", "human", "bot"]
    name: str = ""  # the identity's name, or "Bot 3"
    connected: bool = False  # humans: a live session is attached
    ready: bool = False
    autoplay: bool = False  # a human seat currently played by a bot (owner away)
    guest: bool = False  # a human seat held by a guest (no key owns the name)
    away: bool = False  # a human seat a stand-in bot plays until its player presses a key at the table
    left: bool = False  # a bot's seat whose player left the match (``name`` is the player's)
    level: BotLevel | None = None  # the level of the bot playing this seat (a bot seat or a stand-in)


class RoomSummary(BaseModel):
    id: str
    name: str
    game: str
    seats: int
    humans: int
    bots: int
    spectators: int
    state: Literal["waiting", "playing", "finished"]
    private: bool
    host: str
    players: list[str] = Field(default_factory=list)  # the names holding its human seats (public: the room shows them)


class RoomSnapshot(BaseModel):
    id: str
    settings: RoomSettings
    host: str  # the name of the room's host
    state: Literal["waiting", "playing", "finished"]
    seats: list[SeatInfo]
    spectators: list[str]
    version: int  # bumps on every applied action; sent back with actions
    deadline: float | None = None  # unix time when the current decision times out
    names: list[str] = Field(default_factory=list)  # display name per seat, for views
    match: int | None = None  # the match its table shows (a new one after "play again")
    timeouts: list[int] = Field(default_factory=list)  # per seat: defaults the room played when time ran out
    # between rounds: the seats whose players the table waits for to go on (connected
    # humans no bot plays for), and of them those who pressed to go on
    holding: list[int] = Field(default_factory=list)
    went_on: list[int] = Field(default_factory=list)


class LeaderRow(BaseModel):
    """One player's line of the leaderboard (read-only: the host hands every
    session the same rows)."""

    model_config = ConfigDict(frozen=True)

    name: str
    matches: int
    wins: int
    points: int

    @property
    def rate(self) -> float:
        """Wins per match (0 with no match)."""
        return self.wins / self.matches if self.matches > 0 else 0.0

    @property
    def percent(self) -> str:
        """The win rate as the boards show it: ``75%``."""
        return f"{round(100 * self.rate)}%"


RANK_Z = 1.96
"""The boards rank by the lower end of the 95% Wilson interval of the win rate
(z = 1.96): the rate a player has shown at least, counting how many matches
show it. 1 win in 1 match is 100% but could be luck (0.21); 5 in 10 ranks
above it (0.24), 3 in 4 above both (0.30); no win is 0 however many matches."""


def rank_rate(wins: int, matches: int) -> float:
    """The win rate the boards rank by (:data:`RANK_Z`)."""
    if matches <= 0 or wins <= 0:
        return 0.0
    n, p, z2 = matches, min(wins, matches) / matches, RANK_Z * RANK_Z
    centre = p + z2 / (2 * n)
    spread = RANK_Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z2 / n))


def leader_key(row: LeaderRow, *, points: bool) -> tuple[float, ...]:
    """Where ``row`` goes on a board (smaller first), and the rows that share
    a place (equal keys): by :func:`rank_rate`; on one game's board
    (``points``) then by points per match (a game's points add up with the
    matches played, so their sum would rank playing more)."""
    rate = -round(rank_rate(row.wins, row.matches), 9)
    if not points:
        return (rate,)
    return (rate, -round(row.points / row.matches, 9) if row.matches > 0 else 0.0)


def leader_order(rows: Sequence[LeaderRow], *, points: bool) -> list[LeaderRow]:
    """``rows`` in the boards' order: :func:`leader_key`, then by name."""
    return sorted(rows, key=lambda row: (*leader_key(row, points=points), name_key(row.name)))


def leader_ranks(rows: Sequence[LeaderRow], *, points: bool) -> list[int]:
    """Each row's place (rows in :func:`leader_order`), shared by rows the
    board's order cannot tell apart ("1, 2, 2, 4")."""
    ranks: list[int] = []
    for i, row in enumerate(rows):
        same = i and leader_key(rows[i - 1], points=points) == leader_key(row, points=points)
        ranks.append(ranks[-1] if same else i + 1)
    return ranks


class RoomClient(Protocol):
    """One session's handle on one room (as a seated player or a spectator)."""

    @property
    def room_id(self) -> str: ...

    @property
    def my_seat(self) -> int | None:
        """The seat this session plays, or None when watching."""
        ...

    def snapshot(self) -> RoomSnapshot: ...

    def view(self) -> BaseModel | None:
        """The game view for ``my_seat`` (spectator view when watching); None before start."""
        ...

    def legal(self) -> list[str]:
        """Legal actions of ``my_seat`` now (empty when watching or not started)."""
        ...

    def round_log(self, number: int) -> Sequence[object]:
        """The log events ``my_seat`` (watching: the public) saw in round ``number``
        of the match, as its views showed them; for a log drawn anew."""
        ...

    def pending(self) -> bool:
        """True when the game waits for ``my_seat`` to answer."""
        ...

    def nothing_to_answer(self) -> bool:
        """True while the room answers ``pass`` for ``my_seat`` in the open quick
        window (S-REACT-5, K-ORD-11): its screen shows no prompt for it."""
        ...

    def why_notes(self) -> Sequence[WhyNote]:
        """Why-lines for ``my_seat``'s log this match (none for a spectator)."""
        ...

    def go_on(self) -> None:
        """Between rounds: this seat's player has seen the round's result; the
        room deals the next round once every human at the table has (no-op for
        a spectator, or when no round result waits)."""
        ...

    def round_view(self, number: int) -> BaseModel | None:
        """What ``my_seat`` (watching: the public) saw at the end of the finished
        round ``number`` of the match; None for a round not finished, or a game
        whose rounds have no result of their own."""
        ...

    def act(self, text: str, version: int) -> None:
        """Play an action; raises ClientError("stale") if ``version`` is old,
        ClientError("illegal") with the engine's message if illegal."""
        ...

    def chat(self, text: str) -> None: ...

    def chat_lines(self) -> list[ChatLine]: ...

    # room management (waiting room); host-only ones raise ClientError("not-host")
    def set_ready(self, ready: bool) -> None: ...

    def take_seat(self, index: int) -> None: ...

    def add_bot(self, index: int | None = None) -> None: ...

    def remove_bot(self, index: int) -> None: ...

    def kick(self, index: int) -> None: ...

    def update_settings(self, settings: RoomSettings) -> None: ...

    def start(self) -> None: ...

    def play_again(self) -> None:
        """After a finished match: a new match with the same seats (host only)."""
        ...

    def reopen(self) -> None:
        """After a finished match: the room waits again, for new settings or
        players before the next match (host only)."""
        ...

    def leave(self) -> None: ...

    # a match being played: stand-ins and leaving it
    def come_back(self) -> bool:
        """A key pressed at the table: ``my_seat``, if a stand-in bot plays it
        (away, or handed over by the host), is the player's again. True if it was."""
        ...

    def hand_to_standin(self, index: int) -> None:
        """The host hands the player's seat ``index`` to a stand-in bot until that
        player presses a key (not the host's own seat)."""
        ...

    def leave_match(self) -> None:
        """Leave the match being played for good: a bot plays the seat to the end,
        the result marks it as left, and this handle is closed (the player may
        join another room at once)."""
        ...

    def set_listener(self, listener: Listener | None) -> None: ...


class LobbyClient(Protocol):
    """One SSH session's handle on the host."""

    @property
    def identity(self) -> Identity: ...

    @property
    def host_fingerprint(self) -> str:
        """The server's host key fingerprint, ``SHA256:...``."""
        ...

    def games(self) -> list[tuple[str, str, int, int]]:
        """(id, English title, min players, max players) of every game offered."""
        ...

    def online(self) -> list[str]: ...

    def online_guests(self) -> frozenset[str]:
        """The names in :meth:`online` that play as guests (no key owns them)."""
        ...

    def rooms(self) -> list[RoomSummary]: ...

    def create_room(self, settings: RoomSettings) -> RoomClient: ...

    def join(self, room_id: str, code: str = "") -> RoomClient:
        """Take a seat (or get back one's own seat after a reconnect)."""
        ...

    def watch(self, room_id: str, code: str = "") -> RoomClient: ...

    def current_room(self) -> RoomClient | None:
        """The room whose seat this identity holds, if any, else the room it
        watched when its connection or the server went (for reconnects: a
        spectator's handle then, ``my_seat`` None)."""
        ...

    def chat(self, text: str) -> None: ...

    def chat_lines(self) -> list[ChatLine]: ...

    def leaderboard(self, game: str | None = None) -> list[LeaderRow]:
        """The ranked players, of one game's matches (its id) or of every game's (None)."""
        ...

    def set_lang(self, lang: Literal["en", "zh"]) -> None:
        """Remember the player's language choice (kept with the identity)."""
        ...

    def set_bell(self, on: bool) -> None:
        """Remember whether the bell rings on the player's turn (kept with the identity)."""
        ...

    def set_ask_every(self, on: bool) -> None:
        """Remember whether the player is asked in every reaction window, even with
        only ``pass`` to answer (kept with the identity; S-REACT-5, K-ORD-11)."""
        ...

    def set_listener(self, listener: Listener | None) -> None: ...

    def motd(self) -> str:
        """The club's message of the day ("" for none)."""
        ...

    def admin(self) -> AdminClient | None:
        """The admin screen's client, for an admin; None for everyone else."""
        ...

    def take_notices(self) -> list[str]:
        """An admin's messages to this player since the last call (shown once)."""
        ...

    def redeem_invite(self, code: str) -> None:
        """Make this key a member with an invite code (members-only clubs)."""
        ...


class OnlinePlayer(BaseModel):
    """A connected session as the admin screen lists it."""

    name: str
    guest: bool
    key_fingerprint: str
    address: str
    where: str  # "lobby", or the room id it is in
    since: float  # unix time the session started
    muted: bool = False


class BanInfo(BaseModel):
    id: int
    kind: Literal["key", "name", "address"]
    value: str
    reason: str
    by: str
    until: float | None  # None: forever


class AuditInfo(BaseModel):
    at: float
    actor: str
    action: str
    target: str
    reason: str


class MemberInfo(BaseModel):
    key_fingerprint: str
    name: str
    invited_by: str
    revoked: bool


class AdminClient(Protocol):
    """What the admin screen may do (only an admin's lobby gives one). Every
    call is written to the audit log; bad input raises :class:`ClientError`."""

    def online_players(self) -> list[OnlinePlayer]: ...

    def message(self, name: str, text: str) -> None: ...

    def kick(self, name: str, reason: str) -> None: ...

    def mute(self, name: str, reason: str, duration: str) -> None:
        """``duration``: ``30m``, ``2h``, ``7d``, ``1w`` or ``forever``."""
        ...

    def unmute(self, name: str) -> None: ...

    def ban(self, kind: Literal["key", "name", "address"], value: str, reason: str, duration: str) -> None: ...

    def unban(self, ban_id: int) -> None: ...

    def bans(self) -> list[BanInfo]: ...

    def free_name(self, name: str) -> None: ...

    def close_room(self, room_id: str, reason: str) -> None: ...

    def announce(self, text: str) -> None: ...

    def set_motd(self, text: str) -> None: ...

    def audit(self) -> list[AuditInfo]: ...

    def add_admin(self, key_fingerprint: str) -> None: ...

    def members(self) -> list[MemberInfo]: ...

    def invite(self, uses: int, expires: str, name: str) -> str:
        """A new invite code (``expires``: a duration or ``forever``; ``name``: "" for any)."""
        ...

    def revoke(self, who: str) -> None: ...
