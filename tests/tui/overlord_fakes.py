"""A fake host running a *real* Kill the Overlord game, for the table's screen tests.

``OverlordRoom`` owns an ``engine.overlord.Game`` (``Game.new`` with explicit
roles/hands/gold/deck, or ``Game.random``), seat infos and names, a version
counter and a deadline; ``OverlordClient`` is one session's ``RoomClient`` on
it (a seat or a spectator) returning the engine's real ``OverlordView``.
``OverlordLobby`` brings the app straight to the table. Bots (the engine's
heuristic bots) play the seats marked ``bot`` when ``run_bots`` is called,
each from its own view.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from engine.overlord import Game
from engine.overlord.bots import make_bot
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

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


class OverlordRoom:
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
    ) -> None:
        self.game = game
        n = game.n
        self.names = list(names) if names is not None else NAMES[:n]
        self.seats = [
            SeatInfo(index=i, kind="human" if i in humans else "bot", name=self.names[i], connected=True, ready=True)
            for i in range(n)
        ]
        self.settings = RoomSettings(game="overlord", seats=n, name="test table", bot_delay=0, options={"round_limit": game.round_limit})
        self.host = host
        self.version = 1
        self.deadline_in = deadline_in
        self.deadline: float | None = time.time() + deadline_in if deadline_in else None
        self.chat: list[ChatLine] = []
        self.clients: list[OverlordClient] = []
        self.bots = {i: make_bot(i, bot_kind, 7 + i) for i in range(n) if i not in humans}
        self.state: Literal["waiting", "playing", "finished"] = "finished" if game.outcome() else "playing"
        self.acts: list[tuple[int, str]] = []

    def changed(self) -> None:
        self.version += 1
        if self.game.outcome() is not None:
            self.state = "finished"
        self.deadline = time.time() + self.deadline_in if self.deadline_in and self.game.pending() else None
        for c in list(self.clients):
            if c.listener is not None:
                c.listener()

    def play(self, seat: int, text: str) -> None:
        self.game.play(seat, text)
        self.acts.append((seat, text))
        self.changed()

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


class OverlordClient:
    """One session's RoomClient on an OverlordRoom."""

    def __init__(self, room: OverlordRoom, seat: int | None, name: str) -> None:
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
        return self.room.game.view(self._seat)

    def legal(self) -> list[str]:
        if self._seat is None or self.room.state != "playing":
            return []
        return self.room.game.legal(self._seat)

    def pending(self) -> bool:
        return self._seat is not None and self._seat in self.room.game.pending()

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
        raise ClientError("playing", "the game is on")

    def take_seat(self, index: int) -> None:
        raise ClientError("playing", "the game is on")

    def add_bot(self, index: int | None = None) -> None:
        raise ClientError("playing", "the game is on")

    def remove_bot(self, index: int) -> None:
        raise ClientError("playing", "the game is on")

    def kick(self, index: int) -> None:
        raise ClientError("not-host", "no")

    def update_settings(self, settings: RoomSettings) -> None:
        raise ClientError("playing", "the game is on")

    def start(self) -> None:
        raise ClientError("playing", "the game is on")

    def play_again(self) -> None:
        if self.room.host != self.name:
            raise ClientError("not-host", "only the host can do that")
        self.again += 1

    def leave(self) -> None:
        self.listener = None

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener


class OverlordLobby:
    """The smallest LobbyClient: the app goes straight to ``client``'s table."""

    def __init__(self, client: OverlordClient | None, name: str = "alice", lang: Literal["en", "zh"] = "en") -> None:
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
        return [("overlord", "Kill the Overlord", 4, 8)]

    def online(self) -> list[str]:
        return [self._identity.name]

    def rooms(self) -> list[RoomSummary]:
        return []

    def create_room(self, settings: RoomSettings) -> OverlordClient:
        raise ClientError("other", "not in this fake")

    def join(self, room_id: str, code: str = "") -> OverlordClient:
        raise ClientError("other", "not in this fake")

    def watch(self, room_id: str, code: str = "") -> OverlordClient:
        raise ClientError("other", "not in this fake")

    def current_room(self) -> OverlordClient | None:
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
