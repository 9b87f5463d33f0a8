"""A fake host running a *real* Kill the Overlord game, for the table's screen tests.

``OverlordRoom`` owns an ``engine.overlord.Game`` (``Game.new`` with explicit
roles/hands/gold/deck, or ``Game.random``), seat infos and names, a version
counter and a deadline; ``OverlordClient`` is one session's ``RoomClient`` on
it (a seat or a spectator) returning the engine's real ``OverlordView``.
``OverlordLobby`` brings the app straight to the table. Bots (the engine's
heuristic bots) play the seats marked ``bot`` when ``run_bots`` is called,
each from its own view. The room/client/lobby plumbing is shared with the
Sultans fake (tests/tui/table_fakes.py).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from table_fakes import FakeTableClient, FakeTableLobby, FakeTableRoom

from engine.overlord import Game
from engine.overlord.bots import make_bot
from engine.overlord.views import Event, OverlordView
from protocol.contract import RoomSettings

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


class OverlordRoom(FakeTableRoom):
    """One room playing a real game."""

    def __init__(
        self,
        game: Game,
        *,
        humans: Sequence[int] = (0,),
        names: Sequence[str] | None = None,
        deadline_in: float | None = None,
        host: str = "alice",
        bot_kind: str = "heuristic",
        strict: bool = False,
    ) -> None:
        self.game = game
        n = game.n
        settings = RoomSettings(game="overlord", seats=n, name="test table", bot_delay=0, strict_windows=strict, options={"round_limit": game.round_limit})
        super().__init__(n, settings, humans=humans, names=names if names is not None else NAMES[:n], deadline_in=deadline_in, host=host)
        self.bots = {i: make_bot(i, bot_kind, 7 + i) for i in range(n) if i not in humans}

    def is_over(self) -> bool:
        return self.game.outcome() is not None

    def pending_seats(self) -> Collection[int]:
        return self.game.pending()

    def engine_play(self, seat: int, text: str) -> None:
        self.game.play(seat, text)

    def round_log(self, seat: int | None, number: int) -> list[Event]:
        return self.game.round_log(number, seat)

    def view(self, seat: int | None) -> OverlordView:
        return self.game.view(seat, quick=not self.settings.strict_windows)  # as the room shows it (K-ORD-11)

    def legal(self, seat: int) -> list[str]:
        return self.game.legal(seat)

    def bot_step(self) -> bool:
        """One bot answers (the first pending bot seat). False if none is pending."""
        g = self.game
        if g.outcome() is not None:
            return False
        bots = [s for s in sorted(g.pending()) if s in self.bots]
        if not bots:
            return False
        seat = bots[0]
        action = self.bots[seat].act(g.view(seat), g.legal(seat), True)
        if action is None:
            action = g.timeout_action(seat)
        self.play(seat, action)
        return True

    def run_bots(self, limit: int = 20000) -> int:
        """Let the bots play while only bots are pending. Returns actions played."""
        played = 0
        while played < limit and self.bot_step():
            played += 1
        return played


class OverlordClient(FakeTableClient[OverlordRoom]):
    """One session's RoomClient on an OverlordRoom."""


class OverlordLobby(FakeTableLobby[OverlordClient]):
    """The smallest LobbyClient: the app goes straight to ``client``'s table."""

    GAME = ("overlord", "Kill the Overlord", 4, 8)
