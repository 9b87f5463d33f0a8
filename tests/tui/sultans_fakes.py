"""A fake host running a *real* Sultans of Karaya match, for the table's screen tests.

``SultansRoom`` owns an ``engine.sultans.Match`` (optionally with an explicit
first deal, ``Round.new``), seat infos and names, a version counter and a
deadline; ``SultansClient`` is one session's ``RoomClient`` on it (a seat or
a spectator) returning the engine's real ``MatchView`` for its seat.
``SultansLobby`` is the smallest ``LobbyClient`` that brings the app straight
to the table (``current_room``). Bots (the engine's heuristic bots) play the
seats marked ``bot`` when ``run_bots`` is called, each from its own view.
The room/client/lobby plumbing is shared with the Overlord fake
(tests/tui/table_fakes.py).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from table_fakes import FakeTableClient, FakeTableLobby, FakeTableRoom

from engine.sultans import Match, Round, SultansOptions
from engine.sultans.bots import make_bot
from engine.sultans.views import Event, MatchView, RoundView
from protocol.contract import RoomSettings

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "ken", "lena", "mallory", "nick", "olga"]


class SultansRoom(FakeTableRoom):
    """One room playing a real match."""

    def __init__(
        self,
        players: int = 5,
        *,
        deal: Sequence[str] | None = None,
        spare: str = "slave",
        first: int = 0,
        humans: Sequence[int] = (0,),
        seed: int = 1,
        rounds: int = 2,
        first_to: int | None = None,
        notebook: bool = True,
        names: Sequence[str] | None = None,
        deadline_in: float | None = None,
        host: str = "alice",
        strict: bool = False,
    ) -> None:
        self.match = Match(players, seed, SultansOptions(rounds=rounds, first_to=first_to, notebook=notebook))
        if deal is not None:
            self.match.round = Round.new(list(deal), spare, first=first, notebook=notebook)
        settings = RoomSettings(seats=players, name="test table", bot_delay=0, strict_windows=strict, options={"rounds": rounds, "notebook": notebook} | ({"first_to": first_to} if first_to else {}))
        super().__init__(players, settings, humans=humans, names=names if names is not None else NAMES[:players], deadline_in=deadline_in, host=host)
        self.bots = {i: make_bot(i, "heuristic", 7 + i) for i in range(players) if i not in humans}

    def is_over(self) -> bool:
        return self.match.is_over()

    def pending_seats(self) -> Collection[int]:
        return self.match.pending()

    def engine_play(self, seat: int, text: str) -> None:
        self.match.play(seat, text)

    def round_log(self, seat: int | None, number: int) -> list[Event]:
        return self.match.round_log(number, seat)

    def view(self, seat: int | None) -> MatchView:
        return self.match.view(seat, quick=not self.settings.strict_windows)  # as the room shows it (S-REACT-5)

    def round_view(self, seat: int | None, number: int) -> RoundView | None:
        return self.match.round_view(number, seat)

    def between(self) -> bool:
        return self.match.between_rounds()

    def deal(self) -> None:
        self.next_round()

    def legal(self, seat: int) -> list[str]:
        return self.match.legal(seat)

    # ------------------------------------------------------------- host side
    def next_round(self) -> None:
        self.match.next_round()
        self.changed()

    def run_bots(self, *, next_rounds: bool = False, limit: int = 20000) -> int:
        """Let the bots play while only bots are pending. Returns actions played."""
        played = 0
        for _ in range(limit):
            m = self.match
            if m.is_over():
                break
            if m.between_rounds():
                if not next_rounds:
                    break
                m.next_round()
                self.changed()
                continue
            pending = sorted(m.pending())
            bots = [s for s in pending if s in self.bots]
            if not bots:
                break  # a human must answer
            seat = bots[0]
            bot = self.bots[seat]
            action = bot.act(m.view(seat), m.legal(seat), True)
            if action is None:
                action = m.timeout_action(seat)
            self.play(seat, action)
            played += 1
        return played


class SultansClient(FakeTableClient[SultansRoom]):
    """One session's RoomClient on a SultansRoom."""

    ON = "the match is on"


class SultansLobby(FakeTableLobby[SultansClient]):
    """The smallest LobbyClient: the app goes straight to ``client``'s table."""

    GAME = ("sultans", "Sultans of Karaya", 5, 15)
