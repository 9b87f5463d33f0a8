"""Seats and who is in the room: players sitting down, moving,
leaving and being kicked, watchers, the grace period of a player who dropped,
and the stand-in bots that play for players who are away."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from protocol.contract import ClientError, Identity, RoomSettings, seat_number
from protocol.names import name_key
from server.room.settings import check_levels
from server.room.state import RoomState, Seat
from server.storage import StoredWatcher

if TYPE_CHECKING:
    from server.room.session import RoomSession

log = logging.getLogger("throneroom.room")


class SeatsMixin(RoomState):
    """The room's seats and the people in it (a part of :class:`server.room.Room`)."""

    # ------------------------------------------------------------- reading

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
            self._forget_lapsed_watchers()
            self._watchers[name_key(watcher.name)] = watcher
            self.env.storage.keep_watcher(self.id, watcher)

    def _forget_lapsed_watchers(self) -> None:
        """Forget who went away watching longer than the grace period ago
        (:meth:`watcher_back` would not put them back): otherwise every
        watcher who never came back stayed, in memory and in the database,
        for as long as the room."""
        too_old = self.env.clock() - self.env.grace_period * self.env.time_scale
        for kept in [w for w in self._watchers.values() if w.away is not None and w.away < too_old]:
            self._forget_watcher(kept.name)

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

    def check_levels(self, settings: RoomSettings) -> None:
        """:func:`server.room.settings.check_levels` against the players seated now."""
        check_levels(settings, {s.index: s.name for s in self.seats if s.kind == "human"})

    def _drop_level(self, index: int) -> None:
        """A player sat down where the host set a level for a bot: the level goes (the
        settings line and the dialog never name a level for a player's seat)."""
        if index in self.settings.bot_levels:
            levels = {i: level for i, level in self.settings.bot_levels.items() if i != index}
            self.settings = self.settings.model_copy(update={"bot_levels": levels})
            self._save_room()

    def seat_human(self, who: Identity, index: int | None = None) -> int:
        """Seat ``who`` at ``index`` (or the first empty seat); returns the seat index."""
        self._require_setup()
        seat = self._empty_seat(index)
        seat.kind, seat.name, seat.guest = "human", who.name, who.guest
        seat.ready = seat.autoplay = False
        seat.ask_every = who.ask_every
        self._drop_level(seat.index)
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
        self._drop_level(index)
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

    def _release_absent(self) -> None:
        """After a finished match, the seats of players not at its table (they
        left it, or their connection did) are given up before the next match or
        the waiting room: "play again" drafted a player who had gone on to the
        lobby into a new match, which held him there until it ended."""
        for seat in self.seats:
            if seat.kind == "human" and seat.sessions == 0:
                self._free_seat(seat, "sys.absent")
