"""A room's bots: their loop and pace, their levels, the stand-ins for absent
players, and the strong bots' searches in the thinking pool."""

from __future__ import annotations

import asyncio
import logging

from engine.api import Bot, BotLevel, GameTable
from protocol.contract import ClientError
from server.room.state import RoomState, Seat, logged_action
from server.thinking import Thinker

log = logging.getLogger("throneroom.room")


BOT_JITTER = 0.3
THINK_GRACE = 2.0  # seconds past the bot delay a search may take before the normal bot answers instead
BOT_REACT_SHARE = 0.6  # a bot answers a quick window within this share of its minimum time (S-REACT-5, K-ORD-11)
STANDIN_BOT: BotLevel = "normal"  # a stand-in for a player (away, handed over, left): normal, whatever the room's bots play


class BotsMixin(RoomState):
    """The bots that play a room's seats (a part of :class:`server.room.Room`)."""

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
