"""A room's clock: each decision's deadline and what happens when it passes, quick
windows' minimum time (S-REACT-5, K-ORD-11), and the break between rounds."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from protocol.contract import ClientError, seat_number
from protocol.i18n import NAMES_SEP
from server.room.state import RoomState, logged_action

log = logging.getLogger("throneroom.room")


class ClockMixin(RoomState):
    """Decisions, timers and breaks (a part of :class:`server.room.Room`)."""

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

    # ------------------------------------------------------------ timeouts

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

    # ------------------------------------------------------ between rounds

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
