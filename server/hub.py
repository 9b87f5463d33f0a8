"""The hub: every room, every connected session, the lobby.

One :class:`Hub` per server process. The SSH layer calls :meth:`Hub.connect`
once per session (after authentication) and gets a :class:`LobbySession`, the
``protocol.contract.LobbyClient`` the screens use; :meth:`Hub.disconnect` when the
session ends.

Decisions:

* Several sessions of one identity may be connected at once (two terminals);
  they share the identity's seat: both can act for it, and the seat counts as
  connected while either is attached.
* An identity holds at most one seat at a time. Joining or creating a room
  gives up a seat in a room that is waiting or finished; a seat in a match
  being played is kept until the match ends, so joining elsewhere is refused
  with ``ClientError("in-match")``, unless its player left the match for good
  (``RoomSession.leave_match``: a bot plays the seat out, the seat is no longer
  theirs). Watching is always allowed.
* A player who leaves the table of a match in progress (Escape) keeps the seat
  (a bot plays it at once) and gets it back with ``join``/``current_room``; a
  dropped connection gets ``grace_period`` seconds before a bot takes over.
* A watcher whose connection (or the server) went while watching is put back
  watching that room by ``current_room`` within the grace period, as a seat
  is kept; one who left it, or went to another room, is not.
* Rooms nobody sits in or watches close (a match in progress never closes;
  bots play it out and the results are recorded).
* ``start()`` restores every unfinished match from the database, and every
  room that was waiting or showing a finished match's result with somebody
  seated (its lineup): a restart is a dropped connection for its players.
* A room's ``bot_delay`` is the screen's value when it sets one explicitly,
  else the hub's ``bot_delay``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Literal

from engine.api import GameSpec
from protocol.contract import (
    AWAY_AFTER,
    ChatLine,
    ClientError,
    Identity,
    LeaderRow,
    Listener,
    RoomSettings,
    RoomSummary,
)
from protocol.i18n import t
from protocol.names import name_key
from server.admin import AdminSession
from server.club import COMMAND_POLL, Club, ClubError, when
from server.config import DEFAULT_STORAGE_RETRY, SpamSection
from server.metrics import REFUSALS
from server.room import (
    Room,
    RoomEnv,
    RoomSession,
    chat_text,
    check_levels,
    keep_said,
    require_unmuted,
    validate_settings,
)
from server.storage import CHAT_HISTORY, LOBBY_CHAT, SeatRecord, Storage, StoredRoom
from server.thinking import Thinker
from server.throttle import Throttle

log = logging.getLogger("throneroom.hub")

CODE_TRIES = 5  # wrong private-room codes a player may type at once...
CODE_EVERY = 12.0  # ...then one more every this many seconds


PRESENCE_WAIT_MAX = 2.0
"""Seconds the lobby screens wait at most to be told who came and went while
sessions are still drawing their first screen (:attr:`Hub.drawing`)."""
PRESENCE_CHECK = 0.05


class Hub:
    """All rooms and sessions of one server."""

    def __init__(
        self,
        storage: Storage,
        *,
        host_fingerprint: str,
        bot_delay: float = 1.0,
        grace_period: float = 60.0,
        intermission: float | None = None,
        away_after: int = AWAY_AFTER,
        games: Mapping[str, GameSpec] | None = None,
        clock: Callable[[], float] = time.time,
        time_scale: float = 1.0,
        club: Club | None = None,
        members_only: bool = False,
        storage_retry: float = DEFAULT_STORAGE_RETRY,
        thinker: Thinker | None = None,
        spam: SpamSection | None = None,
        netblock: tuple[int, int] = (32, 64),
    ) -> None:
        self.storage = storage
        self.storage_retry = storage_retry
        self.spam = spam or SpamSection()
        self.netblock = netblock
        self.club = club if club is not None else Club(storage, clock=clock)
        self.members_only = members_only  # [players] members = "invite"
        self.thinker = thinker  # the strong bots' process pool (the server's; without it they play at normal)
        self._club_task: asyncio.Task[None] | None = None
        self._motd: str | None = None  # the message of the day, read once until it changes
        self.last_status: dict[str, object] | None = None  # for the metrics endpoint's thread (server.metrics)
        self.host_fingerprint = host_fingerprint
        self.bot_delay = bot_delay
        self.grace_period = grace_period
        self.intermission = intermission
        self.away_after = away_after
        self.time_scale = time_scale
        self._clock = clock
        self._games = dict(games) if games is not None else None
        self.rooms: dict[str, Room] = {}
        self.sessions: list[LobbySession] = []
        self.chat: deque[ChatLine] = deque(storage.chat_lines(LOBBY_CHAT), maxlen=CHAT_HISTORY)
        self.code_tries = Throttle(CODE_TRIES, CODE_EVERY, clock)  # wrong private-room codes per player
        self._env: RoomEnv | None = None
        self._online: list[str] | None = None  # online(), until a session comes or goes
        self._guests: frozenset[str] = frozenset()  # online_guests(), made with online()
        self.drawing: Callable[[], bool] = lambda: False
        """True while sessions are drawing their first screen (the server sets it).
        Meanwhile the lobby screens are not told who came and went: in a burst of
        logins every login redrew every lobby's "online" line and list (1.4 KB a
        screen) at the pace of its refreshes, CPU the logins still waiting for
        their first screen needed. They are told once none is drawing, or
        ``PRESENCE_WAIT_MAX`` seconds after the first change they were not told;
        anything else the lobby shows (chat, rooms) tells them at once, with who
        is online."""
        self._presence_since: float | None = None  # when a change was first held back

    # ------------------------------------------------------------ lifecycle

    @property
    def specs(self) -> dict[str, GameSpec]:
        if self._games is None:
            from engine.registry import games

            self._games = games()
        return self._games

    @property
    def env(self) -> RoomEnv:
        if self._env is None:
            raise RuntimeError("Hub.start() has not been awaited")
        return self._env

    async def start(self) -> None:
        """Bind to the running loop and restore every unfinished match."""
        if self._env is not None:
            raise RuntimeError("Hub.start() was already awaited")
        loop = asyncio.get_running_loop()
        if self.members_only:
            kept = self.club.grandfather()
            if kept:
                log.info("invite mode: %d key(s) that already owned a name are members", len(kept))
        self._env = RoomEnv(
            storage=self.storage,
            loop=loop,
            context=contextvars.copy_context(),
            clock=self._clock,
            time_scale=self.time_scale,
            grace_period=self.grace_period,
            intermission=self.intermission,
            away_after=self.away_after,
            on_lobby_change=self._lobby_changed,
            on_closed=self._room_closed,
            club=self.club,
            storage_retry=self.storage_retry,
            thinker=self.thinker,
            spam=self.spam,
            netblock=self.netblock,
        )
        for match in self.storage.unfinished_matches():
            spec = self.specs.get(match.game)
            if spec is None or match.room.closed is not None or match.room.id in self.rooms:
                why = (
                    "game not offered" if spec is None
                    else "room closed" if match.room.closed is not None
                    else "another unfinished match of its room was restored"
                )
                log.warning("match %s (room %s) not restored: %s", match.id, match.room.id, why)
                self.storage.abandon_match(match.id, why)
                continue
            try:
                settings = RoomSettings.model_validate(match.room.settings)
                room = Room(self._env, match.room.id, settings, match.room.host, spec)
                self.rooms[room.id] = room  # before restore: restore may finish the match
                room.restore(match)
            except Exception as err:
                log.exception("match %s (room %s): replay failed", match.id, match.room.id)
                failed = self.rooms.pop(match.room.id, None)
                if failed is not None:
                    failed.shutdown()
                self.storage.abandon_match(match.id, f"replay failed: {err}")
                continue
            log.info("room %s: match %s restored after %d log entries", room.id, match.id, len(match.log))
        for stored in self.storage.open_rooms():
            if stored.id not in self.rooms and not self._restore_lineup(stored):
                self.storage.close_room(stored.id)
        self._club_task = loop.create_task(self._club_loop(), name="club commands")

    def _restore_lineup(self, stored: StoredRoom) -> bool:
        """Bring back a room that was waiting, or showing a result, when the
        server stopped: its seats, bots and chat (its players get the grace
        period to come back). False: nothing to bring back (nobody sat there,
        or what was kept no longer reads); the room is to be closed."""
        lineup = stored.lineup
        if not lineup or lineup.get("state") not in ("waiting", "finished"):
            return False
        room: Room | None = None
        try:
            seats = [SeatRecord.from_json(s) for s in lineup["seats"]]
            if not any(s.kind == "human" for s in seats):
                return False
            settings = RoomSettings.model_validate(stored.settings)
            spec = self.specs.get(settings.game)
            if spec is None:
                log.warning("room %s not restored: game %r not offered", stored.id, settings.game)
                return False
            finished = None
            if lineup.get("state") == "finished" and isinstance(lineup.get("match"), int):
                finished = self.storage.finished_match(lineup["match"])
            room = Room(self.env, stored.id, settings, stored.host, spec)
            ready = lineup.get("ready", [])
            if not isinstance(ready, list) or not all(isinstance(i, int) for i in ready):
                raise ValueError(f"bad ready marks {ready!r}")
            room.restore_lineup(seats, finished, ready)
        except Exception:
            log.exception("room %s: cannot bring it back", stored.id)
            if room is not None:
                room.shutdown()
            return False
        self.rooms[room.id] = room
        log.info("room %s restored (%s)", room.id, room.state)
        return True

    def begin_stop(self) -> None:
        """The server is about to end every session: the rooms are not to say that
        their players lost the connection (after the restart the chat would)."""
        if self._env is not None:
            self._env.stopping = True

    async def stop(self) -> None:
        """Stop every room's tasks and detach every session (the database stays open)."""
        tasks: list[asyncio.Task[None]] = []
        if self._club_task is not None:
            self._club_task.cancel()
            tasks.append(self._club_task)
            self._club_task = None
        for room in list(self.rooms.values()):
            tasks += room.shutdown()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        for session in self.sessions:
            if session._room is not None:
                session._room._closed = True
        self.rooms.clear()
        self.sessions.clear()
        self._online = None
        self._presence_since = None
        if self._env is not None and self._env.notifier is not None:
            self._env.notifier.clear()

    # ------------------------------------------------------------- sessions

    def connect(self, identity: Identity) -> LobbySession:
        """A new SSH session for ``identity`` (several per identity are allowed)."""
        self.env  # noqa: B018 -- fail early if not started
        if identity.guest and identity.address:
            chosen = self.storage.get_guest_lang(identity.name, identity.address)
            if chosen in ("en", "zh") and chosen != identity.lang:
                identity = identity.model_copy(update={"lang": chosen})
        if not identity.guest:
            stored = self.storage.get_lang(identity.name)
            if stored in ("en", "zh") and stored != identity.lang:
                identity = identity.model_copy(update={"lang": stored})
            bell = self.storage.get_bell(identity.name)
            if bell is not None and bell != identity.bell:
                identity = identity.model_copy(update={"bell": bell})
            ask_every = self.storage.get_ask_every(identity.name)
            if ask_every is not None and ask_every != identity.ask_every:
                identity = identity.model_copy(update={"ask_every": ask_every})
        session = LobbySession(self, identity)
        self.sessions.append(session)
        self._presence_changed()
        return session

    def disconnect(self, client: LobbySession) -> None:
        """The session ended: its room seat (if any) starts its grace period."""
        if client in self.sessions:
            self.sessions.remove(client)
        client._drop_room(leaving=False)
        client._listener = None
        self._presence_changed()

    def _presence(self) -> list[str]:
        """Who is online and which of them are guests, made again once a session came or went."""
        if self._online is None:
            seen: dict[str, str] = {}
            for s in self.sessions:
                seen.setdefault(name_key(s.identity.name), s.identity.name)
            self._online = sorted(seen.values(), key=name_key)
            self._guests = frozenset(s.identity.name for s in self.sessions if s.identity.guest)
        return self._online

    def online(self) -> list[str]:
        """Names of the sessions, each once, sorted (a new list)."""
        return list(self._presence())

    def online_guests(self) -> frozenset[str]:
        """The names of :meth:`online` that play as guests."""
        self._presence()
        return self._guests

    def room_allowed(self, who: Identity) -> None:
        """Refuse a new room past ``spam.rooms_total`` open rooms, or past
        ``spam.rooms_per_source`` open rooms created from ``who``'s source."""
        open_rooms = [room for room in self.rooms.values() if not room.closed]
        if len(open_rooms) >= self.spam.rooms_total:
            raise ClientError("rooms-full", "the server has as many rooms as it may: join one, or try later",
                              params={"max": str(self.spam.rooms_total)})
        source = self.env.source(who.address)
        if source and sum(room.source == source for room in open_rooms) >= self.spam.rooms_per_source:
            raise ClientError("rooms-source", "your address has as many open rooms as it may: join one, or close one",
                              params={"max": str(self.spam.rooms_per_source)})

    def guest_seated(self, name: str) -> bool:
        """A guest holds a seat as ``name`` in an open room (a key may not claim
        the name then: it would take the guest's seat, and its card)."""
        return any(not room.closed and room.guest_seat_of(name) is not None for room in self.rooms.values())

    def watched_room(self, who: Identity) -> Room | None:
        """The room ``who`` went away from watching (their connection or the
        server went) and is to be put back in (``Room.watcher_back``), the
        latest if several."""
        away = [(room.watcher_away_since(who), room) for room in self.rooms.values() if not room.closed]
        found = [(since, room) for since, room in away if since is not None]
        return max(found, key=lambda pair: pair[0])[1] if found else None

    def seated_room(self, name: str) -> Room | None:
        for room in self.rooms.values():
            if not room.closed and room.seat_of(name) is not None:
                return room
        return None

    # ---------------------------------------------------------------- lobby

    def _lobby_changed(self) -> None:
        if self._env is not None:
            self._presence_since = None  # told now, with whatever was held back
            self._env.notify(self.sessions)

    def _presence_changed(self) -> None:
        """A session came or went (see :attr:`drawing`)."""
        self._online = None
        if self._env is None or not self.drawing():
            self._lobby_changed()
        elif self._presence_since is None:
            self._presence_since = self._env.loop.time()
            self._env.loop.call_later(PRESENCE_CHECK, self._presence_check)

    def _presence_check(self) -> None:
        since = self._presence_since
        if since is None or self._env is None:  # told meanwhile, or stopped
            return
        if self.drawing() and self._env.loop.time() - since < PRESENCE_WAIT_MAX:
            self._env.loop.call_later(PRESENCE_CHECK, self._presence_check)
        else:
            self._lobby_changed()

    def _room_closed(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        self._lobby_changed()

    def say(self, name: str, text: str) -> None:
        clean = chat_text(text)
        if clean:
            line = ChatLine(at=self._clock(), name=name, text=clean)
            keep_said(self.storage, LOBBY_CHAT, line)
            self.chat.append(line)
            self._lobby_changed()

    def system(self, key: str, /, **params: str) -> None:
        """A system line in the lobby's chat (a catalogue key, shown in each player's language)."""
        line = ChatLine(at=self._clock(), name="", text=t(key, "en", **params), system=True, key=key, params=params)
        self.chat.append(line)
        self.storage.keep_chat(LOBBY_CHAT, line)
        self._lobby_changed()

    # ---------------------------------------------------------------- club

    async def _club_loop(self) -> None:
        """What the command line (``throneroom admin``) left for the running server,
        and the figures ``throneroom status`` reads, every ``COMMAND_POLL`` seconds."""
        loop = asyncio.get_running_loop()
        started = last = loop.time()
        actions = self.storage.actions_logged
        while True:
            await asyncio.sleep(COMMAND_POLL)
            now = loop.time()
            lag = max(0.0, now - last - COMMAND_POLL)  # how late the loop woke us
            try:
                self.run_club_commands()
                done = self.storage.actions_logged
                self.last_status = self.status(now - started, lag, (done - actions) / (now - last))
                self.storage.set_status(self.last_status)
                actions = done
            except Exception:
                log.exception("club commands failed")
            last = now

    def status(self, uptime: float, lag: float, actions_per_s: float) -> dict[str, object]:
        rooms: dict[str, int] = {}
        for room in self.rooms.values():
            if not room.closed:
                rooms[room.state] = rooms.get(room.state, 0) + 1
        return {
            "at": self._clock(),
            "pid": os.getpid(),
            "uptime_s": round(uptime),
            "players": len({name_key(s.identity.name) for s in self.sessions}),
            "sessions": len(self.sessions),
            "rooms": rooms,
            "actions_per_s": round(actions_per_s, 1),
            "actions_total": self.storage.actions_logged,
            "refusals": dict(REFUSALS),
            "loop_lag_ms": round(lag * 1000, 1),
            "rss_mib": round(resident_mib(), 1),
        }

    def run_club_commands(self) -> None:
        for kind, payload in self.club.take_commands():
            if kind == "announce":
                self.announce(str(payload.get("text", "")))
            elif kind == "enforce":
                self.enforce()
            elif kind == "motd":
                self._motd = None
                self._lobby_changed()

    def motd(self) -> str:
        if self._motd is None:
            self._motd = self.club.motd()
        return self._motd

    def motd_changed(self) -> None:
        self._motd = None
        self._lobby_changed()

    def announce(self, text: str) -> None:
        """An admin's announcement: every lobby and every room's chat now."""
        self.system("sys.announce", text=text)
        for room in list(self.rooms.values()):
            if not room.closed:
                room.system("sys.announce", text=text)

    def refusal(self, identity: Identity) -> tuple[str, dict[str, str]] | None:
        """Why ``identity`` may not be here (a ban, a revoked membership): a message
        key of the SSH layer and its values; None when it may."""
        ban = self.club.ban_for(key=identity.key_fingerprint or None, name=identity.name, address=identity.address or None)
        if ban is not None:
            if ban.until is None:
                return "banned", {"reason": ban.reason}
            return "banned-until", {"reason": ban.reason, "until": when(ban.until)}
        if self.members_only and not identity.invite_needed and not self.club.is_member(identity.key_fingerprint or None):
            return "not-member", {}
        return None

    def enforce(self) -> None:
        """End the sessions a ban or a revoked membership now shuts out."""
        for session in list(self.sessions):
            why = self.refusal(session.identity)
            if why is not None:
                session.end(why[0], **why[1])

    def end_player(self, name: str, key: str, **values: str) -> int:
        """End every session of ``name`` with the SSH layer's message ``key``; how many."""
        ended = [s for s in self.sessions if name_key(s.identity.name) == name_key(name)]
        for session in ended:
            session.end(key, **values)
        return len(ended)

    def room(self, room_id: str) -> Room:
        room = self.rooms.get(str(room_id).strip())
        if room is None or room.closed:
            raise ClientError("no-room", f"there is no room {room_id!r}")
        return room


class LobbySession:
    """``protocol.contract.LobbyClient`` for one SSH session."""

    def __init__(self, hub: Hub, identity: Identity) -> None:
        self._hub = hub
        self._identity = identity
        self._listener: Listener | None = None
        self._listener_ctx: contextvars.Context | None = None
        self._room: RoomSession | None = None
        self.since = hub._clock()
        self.ender: Callable[[str, dict[str, str]], None] | None = None
        """Ends the SSH session with one of its messages (the SSH layer sets it)."""
        self.notices: deque[str] = deque(maxlen=20)  # an admin's private messages, shown by the lobby
        self._ended = False

    def end(self, key: str, **values: str) -> None:
        """End the SSH session with the message ``key``, once: a ban made in the running
        server ends it at once, and the "enforce" its command row leaves comes round
        again at the next poll, while the session may still be closing."""
        if self.ender is not None and not self._ended:
            self._ended = True
            self.ender(key, values)

    @property
    def identity(self) -> Identity:
        return self._identity

    def __repr__(self) -> str:
        return f"<LobbySession {self._identity.name}>"

    @property
    def host_fingerprint(self) -> str:
        return self._hub.host_fingerprint

    def games(self) -> list[tuple[str, str, int, int]]:
        return [(s.id, s.title, s.min_players, s.max_players) for s in self._hub.specs.values()]

    def online(self) -> list[str]:
        return self._hub.online()

    def online_guests(self) -> frozenset[str]:
        return self._hub.online_guests()

    def rooms(self) -> list[RoomSummary]:
        rooms = sorted(self._hub.rooms.values(), key=lambda r: int(r.id) if r.id.isdigit() else 0)
        return [r.summary() for r in rooms if not r.closed]

    def leaderboard(self, game: str | None = None) -> list[LeaderRow]:
        return self._hub.storage.leaderboard(game=game)

    def chat(self, text: str) -> None:
        require_unmuted(self._hub.club, self._identity.name)
        text = chat_text(text)  # a refused line is not counted
        self._hub.env.count_chat(self._identity.name, self._identity.address)
        self._hub.say(self._identity.name, text)

    def motd(self) -> str:
        return self._hub.motd()

    def take_notices(self) -> list[str]:
        """An admin's messages to this player since the last call."""
        notes = list(self.notices)
        self.notices.clear()
        return notes

    def admin(self) -> AdminSession | None:
        if not self._identity.admin or not self._hub.club.is_admin(self._identity.key_fingerprint or None):
            return None
        return AdminSession(self._hub, self._identity)

    def redeem_invite(self, code: str) -> None:
        identity = self._identity
        if not identity.invite_needed or not identity.key_fingerprint:
            raise ClientError("not-needed", "you are a member already")
        if self._hub.storage.key_owner(identity.name) not in (None, identity.key_fingerprint):
            raise ClientError("name-owned", "that name belongs to another key: connect under another name")
        tries = self._hub.code_tries
        if tries.full(identity.name):
            raise ClientError("code-tries", "too many wrong codes; wait a minute")
        try:
            self._hub.club.redeem(code, identity.key_fingerprint, identity.name)
        except ClubError as err:
            tries.hit(identity.name)
            raise ClientError(err.code, str(err)) from err
        self._identity = identity.model_copy(update={"invite_needed": False})
        self._hub.storage.claim_name(identity.name, identity.key_fingerprint)

    def chat_lines(self) -> list[ChatLine]:
        return list(self._hub.chat)

    def set_lang(self, lang: Literal["en", "zh"]) -> None:
        if lang not in ("en", "zh"):
            raise ClientError("bad-lang", f"unknown language {lang!r}")
        self._identity = self._identity.model_copy(update={"lang": lang})
        if not self._identity.guest:
            self._hub.storage.set_lang(self._identity.name, lang)
        elif self._identity.address:  # the same guest coming back (after a restart too) keeps it
            self._hub.storage.set_guest_lang(self._identity.name, self._identity.address, lang)

    def set_bell(self, on: bool) -> None:
        self._identity = self._identity.model_copy(update={"bell": bool(on)})
        if not self._identity.guest:
            self._hub.storage.set_bell(self._identity.name, bool(on))

    def set_ask_every(self, on: bool) -> None:
        self._identity = self._identity.model_copy(update={"ask_every": bool(on)})
        if not self._identity.guest:
            self._hub.storage.set_ask_every(self._identity.name, bool(on))
        for other in self._hub.sessions:  # the player's other terminals open their next rooms with it too
            if other is not self and name_key(other._identity.name) == name_key(self._identity.name):
                other._identity = other._identity.model_copy(update={"ask_every": bool(on)})
        room = self._hub.seated_room(self._identity.name)
        if room is not None:
            room.set_ask_every(self._identity.name, bool(on))

    def set_listener(self, listener: Listener | None) -> None:
        self._listener = listener
        self._listener_ctx = contextvars.copy_context() if listener is not None else None

    # ---------------------------------------------------------------- rooms

    def create_room(self, settings: RoomSettings) -> RoomSession:
        hub = self._hub
        clean, spec = validate_settings(settings, hub.specs, default_bot_delay=hub.bot_delay)
        check_levels(clean, {0: self._identity.name})  # the creator sits in the first seat
        hub.room_allowed(self._identity)
        self._release_seat(except_room=None)
        try:
            room_id = hub.storage.create_room(clean.model_dump(mode="json"), self._identity.name)
        except sqlite3.Error as err:  # a full disk, a read-only file: said, not a crashed session
            log.warning("cannot create a room for %s: %s", self._identity.name, err)
            raise ClientError("storage", "the server could not save the new room; try again") from err
        room = Room(hub.env, room_id, clean, self._identity.name, spec)
        room.source = hub.env.source(self._identity.address)
        hub.rooms[room_id] = room
        room.seat_human(self._identity, 0)
        log.info("room %s: %s created by %s", room_id, spec.id, self._identity.name)
        return self._open(room, "player")

    def join(self, room_id: str, code: str = "") -> RoomSession:
        room = self._hub.room(room_id)
        if room.seat_of(self._identity.name) is not None:
            return self._open(room, "player")
        room.require_not_banned(self._identity.name)
        # what the lobby's list shows anyway is said before a code is asked for
        if room.state == "playing":
            raise ClientError("in-progress", "that match has started; watch it instead")
        if not any(s.kind == "empty" for s in room.seats):
            raise ClientError("room-full", "every seat is taken")
        self._check_code(room, code)
        self._release_seat(except_room=room)
        room.seat_human(self._identity)
        return self._open(room, "player")

    def watch(self, room_id: str, code: str = "") -> RoomSession:
        room = self._hub.room(room_id)
        if room.seat_of(self._identity.name) is None:
            room.require_not_banned(self._identity.name)
            self._check_code(room, code)
        return self._open(room, "spectator")

    def current_room(self) -> RoomSession | None:
        current = self._room
        if current is not None and not current.closed and current.role == "player" and current.my_seat is not None:
            return current
        room = self._hub.seated_room(self._identity.name)
        if room is not None:
            return self._open(room, "player")
        room = self._hub.watched_room(self._identity)
        return None if room is None else self._open(room, "spectator")

    # -- internals
    def _check_code(self, room: Room, code: str) -> None:
        if not room.settings.private:
            return
        if not code.strip():  # asked for, so that a screen knows to ask the player: no guess, not counted
            raise ClientError("code-needed", "that room is private; type its code")
        tries = self._hub.code_tries
        if tries.full(self._identity.name):  # a right code too: guessing goes no faster
            raise ClientError("code-tries", "too many wrong codes; wait a minute")
        if code.strip().casefold() != room.settings.code.casefold():  # read aloud, typed in any case
            tries.hit(self._identity.name)
            raise ClientError("bad-code", "that room is private; ask its host for the code")

    def _release_seat(self, except_room: Room | None) -> None:
        """Give up a seat held elsewhere (refused if its match is being played)."""
        room = self._hub.seated_room(self._identity.name)
        if room is None or room is except_room:
            return
        if room.state == "playing":
            raise ClientError("in-match", f"you have a seat in a match being played (room {room.id})")
        idx = room.seat_of(self._identity.name)
        assert idx is not None
        for session in [s for s in room.sessions if s.role == "player" and name_key(s.identity.name) == name_key(self._identity.name)]:
            room.sessions.remove(session)
            session._closed = True
        room._free_seat(room.seats[idx], "sys.left")
        room._maybe_close()

    def _open(self, room: Room, role: Literal["player", "spectator"]) -> RoomSession:
        current = self._room
        if current is not None and current.room is room and current.role == role and not current.closed:
            return current
        self._drop_room(leaving=current is not None and current.role == "spectator")  # a watcher moved on
        session = RoomSession(room, self._identity, role, on_leave=self._left)
        session.specs_provider = lambda: self._hub.specs
        room.attach(session)
        self._room = session
        return session

    def _left(self, session: RoomSession) -> None:
        if self._room is session:
            self._room = None

    def _drop_room(self, *, leaving: bool) -> None:
        current, self._room = self._room, None
        if current is not None and not current.closed:
            current.room.detach(current, leaving=leaving)
            current._closed = True


def resident_mib() -> float:
    """This process's resident memory (Linux; 0 where /proc is not there)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
