"""The room itself (:class:`Room`): its engine table, the actions played on it and
their log, what its screens read, its chat and listeners, and its life from the
waiting room through a match to closing (its seats, clock and bots are its parts)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Collection, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from engine.api import GameSpec, GameTable, IllegalAction
from protocol.contract import (
    ChatLine,
    ClientError,
    Identity,
    RoomSettings,
    RoomSnapshot,
    RoomSummary,
    SeatInfo,
    WhyNote,
    bot_name,
)
from protocol.i18n import NAMES_SEP, said_changes, said_names, t
from protocol.names import name_key
from server.room.bots import BotsMixin
from server.room.chat import chat_text, keep_said
from server.room.clock import ClockMixin
from server.room.seats import SeatsMixin
from server.room.settings import settings_changes, validate_settings
from server.room.state import Seat, logged_action
from server.storage import LogEntry, SeatRecord, SeatResult, StoredMatch, room_scope

log = logging.getLogger("throneroom.room")


ACTION_MAX = 200


class Room(SeatsMixin, ClockMixin, BotsMixin):
    """One room. All methods run on the event loop's thread."""

    # ------------------------------------------------------------- reading

    def require_not_banned(self, name: str) -> None:
        """Refuse a player the host removed (:meth:`kick`) a seat or a watch here."""
        if name_key(name) in self.banned:
            raise ClientError("banned", "the host removed you from this room")

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

    # ------------------------------------------------------------- closing

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

    def update_settings(self, who: Identity, settings: RoomSettings, specs: dict[str, GameSpec]) -> None:
        self._require_host(who)
        self._require_setup()
        if "bot_delay" not in settings.model_fields_set:
            settings = settings.model_copy(update={"bot_delay": self.settings.bot_delay})
            settings.model_fields_set.add("bot_delay")
        if settings.private and not settings.code and self.settings.private:
            settings = settings.model_copy(update={"code": self.settings.code})
        clean, spec = validate_settings(settings, specs, default_bot_delay=self.settings.bot_delay)
        self.check_levels(clean)
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


def _replay(table: GameTable, entries: list[LogEntry]) -> None:
    for entry in entries:
        if entry.kind == "next-round":
            table.next_round()
        else:
            assert entry.seat is not None
            table.play(entry.seat, entry.text)
