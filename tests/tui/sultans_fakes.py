"""A fake host running a *real* Sultans of Karaya match, for the table's screen tests.

``SultansRoom`` owns an ``engine.sultans.Match`` (optionally with an explicit
first deal, ``Round.new``), seat infos and names, a version counter and a
deadline; ``SultansClient`` is one session's ``RoomClient`` on it (a seat or
a spectator) returning the engine's real ``MatchView`` for its seat.
``SultansLobby`` is the smallest ``LobbyClient`` that brings the app straight
to the table (``current_room``). Bots (the engine's heuristic bots) play the
seats marked ``bot`` when ``run_bots`` is called, each from its own view.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from engine.sultans import Match, Round, SultansOptions
from engine.sultans.bots import make_bot
from tui.client import (
    ChatLine,
    ClientError,
    Identity,
    LeaderRow,
    Listener,
    RoomSettings,
    RoomSnapshot,
    RoomSummary,
    SeatInfo,
)

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "ken", "lena", "mallory", "nick", "olga"]


class SultansRoom:
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
        notebook: bool = True,
        names: Sequence[str] | None = None,
        deadline_in: float | None = None,
        host: str = "alice",
    ) -> None:
        self.match = Match(players, seed, SultansOptions(rounds=rounds, notebook=notebook))
        if deal is not None:
            self.match.round = Round.new(list(deal), spare, first=first, notebook=notebook)
        self.names = list(names) if names is not None else NAMES[:players]
        self.seats = [
            SeatInfo(index=i, kind="human" if i in humans else "bot", name=self.names[i], connected=True, ready=True)
            for i in range(players)
        ]
        self.settings = RoomSettings(seats=players, name="test table", bot_delay=0, options={"rounds": rounds, "notebook": notebook})
        self.host = host
        self.version = 1
        self.deadline_in = deadline_in
        self.deadline: float | None = time.time() + deadline_in if deadline_in else None
        self.chat: list[ChatLine] = []
        self.clients: list[SultansClient] = []
        self.bots = {i: make_bot(i, "heuristic", 7 + i) for i in range(players) if i not in humans}
        self.state: Literal["waiting", "playing", "finished"] = "playing"
        self.acts: list[tuple[int, str]] = []

    # ------------------------------------------------------------- host side
    def changed(self) -> None:
        self.version += 1
        if self.match.is_over():
            self.state = "finished"
        self.deadline = time.time() + self.deadline_in if self.deadline_in and self.match.pending() else None
        for c in list(self.clients):
            if c.listener is not None:
                c.listener()

    def play(self, seat: int, text: str) -> None:
        self.match.play(seat, text)
        self.acts.append((seat, text))
        self.changed()

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
            m.play(seat, action)
            self.acts.append((seat, action))
            played += 1
            self.changed()
        return played

    def snapshot(self) -> RoomSnapshot:
        return RoomSnapshot(
            id="r1",
            settings=self.settings,
            host=self.host,
            state=self.state,
            seats=[s.model_copy() for s in self.seats],
            spectators=[],
            version=self.version,
            deadline=self.deadline,
            names=list(self.names),
        )


class SultansClient:
    """One session's RoomClient on a SultansRoom."""

    def __init__(self, room: SultansRoom, seat: int | None, name: str) -> None:
        self.room = room
        self._seat = seat
        self.name = name
        self.listener: Listener | None = None
        self.sent: list[tuple[str, int]] = []
        self.again = 0
        room.clients.append(self)

    @property
    def room_id(self) -> str:
        return "r1"

    @property
    def my_seat(self) -> int | None:
        return self._seat

    def snapshot(self) -> RoomSnapshot:
        return self.room.snapshot()

    def view(self) -> BaseModel | None:
        return self.room.match.view(self._seat)

    def legal(self) -> list[str]:
        if self._seat is None or self.room.state != "playing":
            return []
        return self.room.match.legal(self._seat)

    def pending(self) -> bool:
        return self._seat is not None and self._seat in self.room.match.pending()

    def act(self, text: str, version: int) -> None:
        self.sent.append((text, version))
        if self._seat is None:
            raise ClientError("not-seated", "you have no seat here")
        if version != self.room.version:
            raise ClientError("stale", f"version {version} is old (now {self.room.version})")
        try:
            self.room.play(self._seat, text)
        except ValueError as err:
            raise ClientError("illegal", str(err)) from err

    def chat(self, text: str) -> None:
        self.room.chat.append(ChatLine(at=time.time(), name=self.name, text=text))
        self.room.changed()

    def chat_lines(self) -> list[ChatLine]:
        return list(self.room.chat)

    def set_ready(self, ready: bool) -> None:
        raise ClientError("playing", "the match is on")

    def take_seat(self, index: int) -> None:
        raise ClientError("playing", "the match is on")

    def add_bot(self, index: int | None = None) -> None:
        raise ClientError("playing", "the match is on")

    def remove_bot(self, index: int) -> None:
        raise ClientError("playing", "the match is on")

    def kick(self, index: int) -> None:
        raise ClientError("not-host", "no")

    def update_settings(self, settings: RoomSettings) -> None:
        raise ClientError("playing", "the match is on")

    def start(self) -> None:
        raise ClientError("playing", "the match is on")

    def play_again(self) -> None:
        if self.room.host != self.name:
            raise ClientError("not-host", "only the host can do that")
        self.again += 1

    def leave(self) -> None:
        self.listener = None

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener


class SultansLobby:
    """The smallest LobbyClient: the app goes straight to ``client``'s table."""

    def __init__(self, client: SultansClient | None, name: str = "alice", lang: Literal["en", "zh"] = "en") -> None:
        self.client = client
        self._identity = Identity(name=name, lang=lang)
        self.listener: Listener | None = None

    @property
    def identity(self) -> Identity:
        return self._identity

    @property
    def host_fingerprint(self) -> str:
        return "SHA256:fake"

    def games(self) -> list[tuple[str, str, int, int]]:
        return [("sultans", "Sultans of Karaya", 5, 15)]

    def online(self) -> list[str]:
        return [self._identity.name]

    def rooms(self) -> list[RoomSummary]:
        return []

    def create_room(self, settings: RoomSettings) -> SultansClient:
        raise ClientError("other", "not in this fake")

    def join(self, room_id: str, code: str = "") -> SultansClient:
        raise ClientError("other", "not in this fake")

    def watch(self, room_id: str, code: str = "") -> SultansClient:
        raise ClientError("other", "not in this fake")

    def current_room(self) -> SultansClient | None:
        if self.client is not None and self.client.my_seat is not None:
            return self.client
        return None

    def chat(self, text: str) -> None:
        pass

    def chat_lines(self) -> list[ChatLine]:
        return []

    def leaderboard(self) -> list[LeaderRow]:
        return []

    def set_lang(self, lang: Literal["en", "zh"]) -> None:
        self._identity = self._identity.model_copy(update={"lang": lang})

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener
