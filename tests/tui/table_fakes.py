"""The shared part of the fake hosts that run a *real* game for the table screens' tests.

``FakeTableRoom`` holds seat infos and names, a version counter, a deadline,
chat and the clients' listeners; a game's room (``OverlordRoom``,
``SultansRoom``) subclasses it and says how its engine object answers
(``is_over``, ``pending_seats``, ``engine_play``, ``view``, ``legal``).
``FakeTableClient`` is one session's ``RoomClient`` on such a room (a seat or
a spectator); ``FakeTableLobby`` is the smallest ``LobbyClient`` that brings
the app straight to the client's table (``current_room``); ``open_table``
runs the app on a seat's (or a spectator's) table.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar, Generic, Literal, TypeVar

from fakes import ClubStubs, settle
from pydantic import BaseModel
from textual.pilot import Pilot

from protocol.contract import (
    ChatLine,
    ClientError,
    Identity,
    LeaderRow,
    Listener,
    RoomSettings,
    RoomSnapshot,
    RoomSummary,
    SeatInfo,
    WhyNote,
)
from tui.app import ThroneApp
from tui.tables import TableScreen


class FakeTableRoom(ABC):
    """One room playing a real game; the subclass owns the engine object."""

    def __init__(
        self,
        n: int,
        settings: RoomSettings,
        *,
        humans: Sequence[int],
        names: Sequence[str],
        deadline_in: float | None,
        host: str,
    ) -> None:
        self.names = list(names)
        self.seats = [
            SeatInfo(index=i, kind="human" if i in humans else "bot", name=self.names[i], connected=True, ready=True)
            for i in range(n)
        ]
        self.settings = settings
        self.host = host
        self.version = 1
        self.deadline_in = deadline_in
        self.deadline: float | None = time.time() + deadline_in if deadline_in else None
        self.chat: list[ChatLine] = []
        self.clients: list[FakeTableClient[Any]] = []
        self.state: Literal["waiting", "playing", "finished"] = "finished" if self.is_over() else "playing"
        self.acts: list[tuple[int, str]] = []
        self.passed_for: set[int] = set()  # seats the room answers pass for in the open quick window (S-REACT-5)
        self.went_on: set[int] = set()
        self.why: dict[int, list[WhyNote]] = {}  # per seat: why-lines (the room played for it)

    # ------------------------------------------- the engine (set it before __init__)
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def pending_seats(self) -> Collection[int]: ...

    @abstractmethod
    def engine_play(self, seat: int, text: str) -> None: ...

    @abstractmethod
    def view(self, seat: int | None) -> BaseModel: ...

    @abstractmethod
    def legal(self, seat: int) -> list[str]: ...

    @abstractmethod
    def round_log(self, seat: int | None, number: int) -> Sequence[object]: ...

    def round_view(self, seat: int | None, number: int) -> BaseModel | None:
        return None

    def between(self) -> bool:
        """A round's result waits for the humans to go on."""
        return False

    def deal(self) -> None:
        """Deal the next round (when every human went on)."""
        raise NotImplementedError("this game has no pause between rounds")

    def go_on(self, seat: int) -> None:
        if not self.between():
            return
        self.went_on.add(seat)
        if all(s.index in self.went_on for s in self.seats if s.kind == "human" and s.connected):
            self.went_on.clear()
            self.deal()
        else:
            self.changed()

    # ------------------------------------------------------------- host side
    def changed(self) -> None:
        self.version += 1
        if self.is_over():
            self.state = "finished"
        self.deadline = time.time() + self.deadline_in if self.deadline_in and self.pending_seats() else None
        if self.between():
            self.deadline = time.time() + self.settings.between_rounds  # the break's countdown
        for c in list(self.clients):
            if c.listener is not None:
                c.listener()

    def play(self, seat: int, text: str) -> None:
        self.engine_play(seat, text)
        self.acts.append((seat, text))
        self.changed()

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
            holding=[s.index for s in self.seats if s.kind == "human" and s.connected] if self.between() else [],
            went_on=sorted(self.went_on) if self.between() else [],
        )


R = TypeVar("R", bound=FakeTableRoom)


class FakeTableClient(Generic[R]):
    """One session's RoomClient on a FakeTableRoom."""

    ON: ClassVar[str] = "the game is on"  # the refusal of room changes while playing

    def __init__(self, room: R, seat: int | None, name: str) -> None:
        self.room = room
        self._seat = seat
        self.name = name
        self.listener: Listener | None = None
        self.sent: list[tuple[str, int]] = []
        self.again = 0
        self.gone_on = 0
        self.reopened = 0
        self.saved: list[RoomSettings] = []  # settings the host saved after a match
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
        return self.room.view(self._seat)

    def round_log(self, number: int) -> Sequence[object]:
        return self.room.round_log(self._seat, number)

    def round_view(self, number: int) -> BaseModel | None:
        return self.room.round_view(self._seat, number)

    def why_notes(self) -> list[WhyNote]:
        return list(self.room.why.get(self._seat, [])) if self._seat is not None else []

    def go_on(self) -> None:
        self.gone_on += 1
        if self._seat is not None:
            self.room.go_on(self._seat)

    def legal(self) -> list[str]:
        if self._seat is None or self.room.state != "playing":
            return []
        if self.nothing_to_answer():  # as the host: the room's pass is no choice of the seat's
            return [a for a in self.room.legal(self._seat) if a != "pass"]
        return self.room.legal(self._seat)

    def pending(self) -> bool:
        return self._seat is not None and self._seat in self.room.pending_seats() and not self.nothing_to_answer()

    def nothing_to_answer(self) -> bool:
        return self._seat is not None and self._seat in self.room.passed_for

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
        raise ClientError("playing", self.ON)

    def take_seat(self, index: int) -> None:
        raise ClientError("playing", self.ON)

    def add_bot(self, index: int | None = None) -> None:
        raise ClientError("playing", self.ON)

    def remove_bot(self, index: int) -> None:
        raise ClientError("playing", self.ON)

    def kick(self, index: int) -> None:
        raise ClientError("not-host", "no")

    def update_settings(self, settings: RoomSettings) -> None:
        if not self.reopened:  # like the real host: only once the room waits again
            raise ClientError("playing", self.ON)
        self.saved.append(settings)

    def start(self) -> None:
        raise ClientError("playing", self.ON)

    def play_again(self) -> None:
        if self.room.host != self.name:
            raise ClientError("not-host", "only the host can do that")
        self.again += 1

    def reopen(self) -> None:
        if self.room.host != self.name:
            raise ClientError("not-host", "only the host can do that")
        self.reopened += 1

    def leave(self) -> None:
        self.listener = None

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener


C = TypeVar("C", bound=FakeTableClient[Any])


class FakeTableLobby(ClubStubs, Generic[C]):
    """The smallest LobbyClient: the app goes straight to ``client``'s table."""

    GAME: ClassVar[tuple[str, str, int, int]]  # the one game this fake offers

    def __init__(self, client: C | None, name: str = "alice", lang: Literal["en", "zh"] = "en") -> None:
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
        return [self.GAME]

    def online(self) -> list[str]:
        return [self._identity.name]

    def online_guests(self) -> frozenset[str]:
        return frozenset({self._identity.name}) if self._identity.guest else frozenset()

    def rooms(self) -> list[RoomSummary]:
        return []

    def create_room(self, settings: RoomSettings) -> C:
        raise ClientError("other", "not in this fake")

    def join(self, room_id: str, code: str = "") -> C:
        raise ClientError("other", "not in this fake")

    def watch(self, room_id: str, code: str = "") -> C:
        raise ClientError("other", "not in this fake")

    def current_room(self) -> C | None:
        if self.client is not None and self.client.my_seat is not None:
            return self.client
        return None

    def chat(self, text: str) -> None:
        pass

    def chat_lines(self) -> list[ChatLine]:
        return []

    def leaderboard(self, game: str | None = None) -> list[LeaderRow]:
        return []

    def set_lang(self, lang: Literal["en", "zh"]) -> None:
        self._identity = self._identity.model_copy(update={"lang": lang})

    def set_bell(self, on: bool) -> None:
        self._identity = self._identity.model_copy(update={"bell": on})

    def set_ask_every(self, on: bool) -> None:
        self._identity = self._identity.model_copy(update={"ask_every": on})

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener


@asynccontextmanager
async def open_table(
    room: R,
    seat: int | None,
    client_class: Callable[[R, int | None, str], C],
    lobby_class: Callable[[C, str, Literal["en", "zh"]], FakeTableLobby[C]],
    screen: type[TableScreen],
    *,
    size: tuple[int, int] = (80, 24),
    lang: Literal["en", "zh"] = "en",
    prepare: Callable[[ThroneApp], None] | None = None,
    results: bool = False,
) -> AsyncIterator[tuple[ThroneApp, Pilot[None], C]]:
    """The app on ``seat``'s table (``None``: a spectator called zoe), settled;
    ``prepare`` is called with the app before it runs. A round's or the match's
    result that opened over the table is closed, unless ``results``."""
    name = room.names[seat] if seat is not None else "zoe"
    client = client_class(room, seat, name)
    app = ThroneApp(lobby_class(client, name, lang))
    if prepare is not None:
        prepare(app)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if seat is None:
            app.enter_room(client, watching=True)
            await settle(pilot)
        if not results:
            await close_results(app, pilot)
        assert isinstance(app.screen, screen) or (results and type(app.screen).__name__ == "RoundResults")
        await settle(pilot)
        yield app, pilot, client


async def close_results(app: ThroneApp, pilot: Pilot[None]) -> None:
    """Escape the round's (or match's) result the table opened over itself, if any."""
    from tui.screens.round_results import RoundResults

    await settle(pilot)
    if isinstance(app.screen, RoundResults):
        await pilot.press("escape")
        await settle(pilot)


async def host_changes_settings(app: ThroneApp, pilot: Pilot[None], client: FakeTableClient[Any]) -> None:
    """After a match the host's o opens the settings over the table: Escape
    changes nothing and moves nobody; saved, they take everyone back to the
    waiting room."""
    from tui.screens.dialogs import RoomSettingsDialog

    await pilot.press("o")
    await settle(pilot)
    assert isinstance(app.screen, RoomSettingsDialog) and client.reopened == 0
    await pilot.press("escape")
    await settle(pilot)
    assert not isinstance(app.screen, RoomSettingsDialog) and client.reopened == 0
    await pilot.press("o")
    await settle(pilot)
    await pilot.click("#ok")
    await settle(pilot)
    assert client.reopened == 1 and len(client.saved) == 1
