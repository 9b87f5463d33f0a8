"""An in-memory host for screen tests: a FakeHub with lobbies, rooms and a tiny game.

``FakeLobby`` and ``FakeRoomClient`` implement ``protocol.contract.LobbyClient`` and
``RoomClient`` the way a real host behaves towards screens: seats, ready
marks, host-only controls, private codes, chat, spectators, versions (stale
actions refused), listeners called on every change, and a small game with a
per-seat pydantic view so the plain table can play a whole match with bots.

The game ("Tokens"): every seat holds a secret card (a colour). On its turn
the active seat plays ``take one``, ``take two`` or ``peek N`` (see seat N's
card: a private note). Each seat plays two turns a round; a round's points
are the tokens taken; the match lasts ``options["rounds"]`` rounds (default 2).
Bots play ``take two``. (As in the real notations, numbers are seat numbers.)
"""

from __future__ import annotations

import itertools
import time
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

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
    bot_name,
    leader_order,
)

if TYPE_CHECKING:
    from tui.screens.dialogs import RoomSettingsDialog

# "tokens" is the fake game below: it has no table screen of its own, so rooms of it
# get the plain table (real Sultans/Overlord rooms get theirs once registered)
GAMES = [("sultans", "Sultans of Karaya", 5, 15), ("overlord", "Kill the Overlord", 4, 8), ("tokens", "Tokens", 2, 8)]
CARDS = ["red", "blue", "green", "gold", "black", "white", "grey", "pink", "teal", "plum", "rust", "jade", "sand", "navy", "ruby"]


class SeatView(BaseModel):
    name: str
    card: str | None  # known only for one's own seat and peeked seats
    tokens: int
    turns_left: int


class Note(BaseModel):
    seat: int
    card: str
    turn: int


class TokensView(BaseModel):
    round: int
    rounds: int
    active_seat: int
    my_card: str | None
    seats: list[SeatView]
    notes: list[Note]
    log: list[str]
    scores: list[list[int]]
    winners: list[int]


class TokensGame:
    TURNS = 2

    def __init__(self, names: list[str], rounds: int) -> None:
        self.names = names
        self.n = len(names)
        self.rounds = rounds
        self.round = 1
        self.scores: list[list[int]] = []
        self.log: list[str] = []
        self.notes: dict[int, list[Note]] = {i: [] for i in range(self.n)}
        self.turn_no = 0
        self._deal()

    def _deal(self) -> None:
        self.cards = [CARDS[(i + self.round) % len(CARDS)] for i in range(self.n)]
        self.tokens = [0] * self.n
        self.turns_left = [self.TURNS] * self.n
        self.active = 0

    def is_over(self) -> bool:
        return len(self.scores) >= self.rounds

    def legal(self, seat: int) -> list[str]:
        if self.is_over() or seat != self.active:
            return []
        return ["take one", "take two"] + [f"peek {i}" for i in range(self.n) if i != seat]

    def play(self, seat: int, text: str) -> None:
        if text not in self.legal(seat):
            raise ClientError("illegal", f"{text!r} is not legal for seat {seat} now")
        self.turn_no += 1
        if text.startswith("take"):
            self.tokens[seat] += 1 if text == "take one" else 2
            self.log.append(f"{seat}: {text}")
        else:
            target = int(text.split()[1])
            self.notes[seat].append(Note(seat=target, card=self.cards[target], turn=self.turn_no))
            self.log.append(f"{seat} peeked at {target}")
        self.turns_left[seat] -= 1
        if all(left == 0 for left in self.turns_left):
            self.scores.append(list(self.tokens))
            self.log.append(f"round {self.round} over")
            if not self.is_over():
                self.round += 1
                self._deal()
            return
        self.active = (self.active + 1) % self.n

    def totals(self) -> list[int]:
        return [sum(r[i] for r in self.scores) for i in range(self.n)]

    def winners(self) -> list[int]:
        if not self.is_over():
            return []
        totals = self.totals()
        best = max(totals)
        return [i for i, v in enumerate(totals) if v == best]

    def view(self, seat: int | None) -> TokensView:
        known = {note.seat: note.card for note in self.notes.get(seat, [])} if seat is not None else {}
        seats = [
            SeatView(
                name=self.names[i],
                card=self.cards[i] if i == seat or self.is_over() else known.get(i),
                tokens=self.tokens[i],
                turns_left=self.turns_left[i],
            )
            for i in range(self.n)
        ]
        return TokensView(
            round=self.round,
            rounds=self.rounds,
            active_seat=self.active,
            my_card=self.cards[seat] if seat is not None else None,
            seats=seats,
            notes=list(self.notes.get(seat, [])) if seat is not None else [],
            log=list(self.log),
            scores=[list(r) for r in self.scores],
            winners=self.winners(),
        )


class FakeRoom:
    def __init__(self, hub: FakeHub, room_id: str, settings: RoomSettings, host: str) -> None:
        self.hub = hub
        self.id = room_id
        self.settings = settings
        self.host = host
        self.state: Literal["waiting", "playing", "finished"] = "waiting"
        self.seats = [SeatInfo(index=i, kind="empty") for i in range(settings.seats)]
        self.spectators: list[str] = []
        self.banned: set[str] = set()  # names the host kicked
        self.chat: list[ChatLine] = []
        self.version = 0
        self.game: TokensGame | None = None
        self.deadline: float | None = None

    def summary(self) -> RoomSummary:
        return RoomSummary(
            id=self.id,
            name=self.settings.name,
            game=self.settings.game,
            seats=len(self.seats),
            humans=sum(1 for s in self.seats if s.kind == "human"),
            bots=sum(1 for s in self.seats if s.kind == "bot"),
            spectators=len(self.spectators),
            state=self.state,
            private=self.settings.private,
            host=self.host,
            players=[s.name for s in self.seats if s.kind == "human"],
        )

    def seat_of(self, name: str) -> int | None:
        for seat in self.seats:
            if seat.kind == "human" and seat.name == name:
                return seat.index
        return None

    def snapshot(self) -> RoomSnapshot:
        return RoomSnapshot(
            id=self.id,
            settings=self.settings,
            host=self.host,
            state=self.state,
            # like the real host: a bot seat plays at its level (the room's, or the seat's own)
            seats=[
                s.model_copy(update={"level": self.settings.bot_levels.get(s.index, self.settings.bot_level)})
                if s.kind == "bot" else s.model_copy()
                for s in self.seats
            ],
            spectators=list(self.spectators),
            version=self.version,
            deadline=self.deadline,
            names=[s.name for s in self.seats],
        )

    def start_game(self) -> None:
        rounds = self.settings.options.get("rounds", 2)
        self.game = TokensGame([s.name for s in self.seats], rounds if isinstance(rounds, int) else 2)
        self.state = "playing"
        self.version += 1
        self.deadline = time.time() + self.settings.turn_timer if self.settings.turn_timer else None
        self.run_bots()

    def run_bots(self) -> None:
        game = self.game
        assert game is not None
        while not game.is_over() and self.seats[game.active].kind == "bot":
            game.play(game.active, "take two")
            self.version += 1
        if game.is_over():
            self.state = "finished"
            self.deadline = None
            self.hub.record(self)


class FakeHub:
    """The shared host state of many sessions."""

    def __init__(self, fingerprint: str = "SHA256:fakeFINGERPRINTfakeFINGERPRINTfake0123456") -> None:
        self.fingerprint = fingerprint
        self.rooms: dict[str, FakeRoom] = {}
        self.lobbies: list[FakeLobby] = []
        self.clients: list[FakeRoomClient] = []
        self.chat: list[ChatLine] = []
        self.leaders: dict[str, LeaderRow] = {}
        self.game_leaders: dict[str, dict[str, LeaderRow]] = {}  # the same, by game id
        self._ids = itertools.count(1)
        self.notifications = 0

    def lobby(self, name: str, *, guest: bool = False, lang: Literal["en", "zh"] = "en") -> FakeLobby:
        lobby = FakeLobby(self, Identity(name=name, guest=guest, lang=lang))
        self.lobbies.append(lobby)
        self.changed()
        return lobby

    def new_room_id(self) -> str:
        return f"r{next(self._ids)}"

    def changed(self) -> None:
        self.notifications += 1
        for listener in [lb.listener for lb in self.lobbies] + [c.listener for c in self.clients]:
            if listener is not None:
                listener()

    def record(self, room: FakeRoom) -> None:
        game = room.game
        assert game is not None
        totals = game.totals()
        for seat in room.seats:
            if seat.kind != "human":
                continue
            for board in (self.leaders, self.game_leaders.setdefault(room.settings.game, {})):
                row = board.get(seat.name, LeaderRow(name=seat.name, matches=0, wins=0, points=0))
                board[seat.name] = row.model_copy(update={
                    "matches": row.matches + 1,
                    "points": row.points + totals[seat.index],
                    "wins": row.wins + (seat.index in game.winners()),
                })


class FakeRoomClient:
    """One session's handle on one room."""

    def __init__(self, lobby: FakeLobby, room: FakeRoom, seat: int | None) -> None:
        self.lobby = lobby
        self.room = room
        self._seat = seat
        self.listener: Listener | None = None
        self.acts: list[tuple[str, int]] = []
        self.closed = False  # like the real host: a handle that left is dead
        self.kicked = False  # ... or was detached by the host's kick
        lobby.hub.clients.append(self)

    @property
    def name(self) -> str:
        return self.lobby.identity.name

    @property
    def room_id(self) -> str:
        return self.room.id

    @property
    def my_seat(self) -> int | None:
        seat = self._seat
        if seat is None or self.closed:
            return None
        info = self.room.seats[seat] if seat < len(self.room.seats) else None
        if info is None or info.kind != "human" or info.name != self.name:
            return None  # kicked, or the seat went away
        return seat

    def _host_only(self) -> None:
        if self.room.host != self.name:
            raise ClientError("not-host", "only the host can do that")

    def _waiting(self) -> None:
        if self.room.state != "waiting":
            raise ClientError("playing", "the match has already started")

    def _changed(self) -> None:
        self.lobby.hub.changed()

    def snapshot(self) -> RoomSnapshot:
        if self.room.id not in self.lobby.hub.rooms:
            raise ClientError("closed", "you are no longer in this room")
        if self.kicked:
            raise ClientError("kicked", "the host removed you from this room")
        return self.room.snapshot()

    def view(self) -> BaseModel | None:
        if self.room.game is None:
            return None
        return self.room.game.view(self.my_seat)

    def round_log(self, number: int) -> list[object]:
        return []  # the tokens game's view holds its whole log

    def round_view(self, number: int) -> BaseModel | None:
        return None

    def go_on(self) -> None:
        pass  # the tokens game has no pause between rounds

    def why_notes(self) -> list[object]:
        return []

    def legal(self) -> list[str]:
        seat = self.my_seat
        if self.room.game is None or seat is None or self.room.state != "playing":
            return []
        return self.room.game.legal(seat)

    def pending(self) -> bool:
        return bool(self.legal())

    def nothing_to_answer(self) -> bool:
        return False

    def act(self, text: str, version: int) -> None:
        self.acts.append((text, version))
        seat = self.my_seat
        if seat is None or self.room.game is None:
            raise ClientError("not-seated", "you have no seat here")
        if version != self.room.version:
            raise ClientError("stale", f"version {version} is old (now {self.room.version})")
        self.room.game.play(seat, text)
        self.room.version += 1
        self.room.run_bots()
        self._changed()

    def chat(self, text: str) -> None:
        self.room.chat.append(ChatLine(at=time.time(), name=self.name, text=text))
        self._changed()

    def chat_lines(self) -> list[ChatLine]:
        return list(self.room.chat)

    def set_ready(self, ready: bool) -> None:
        seat = self.my_seat
        if seat is None:
            raise ClientError("not-seated", "you have no seat here")
        self.room.seats[seat].ready = ready
        self._changed()

    def take_seat(self, index: int) -> None:
        if self._seat is None:
            raise ClientError("not-seated", "join the room to take a seat")
        self._waiting()
        target = self.room.seats[index]
        if target.kind != "empty":
            raise ClientError("seat-taken", "that seat is taken")
        old = self.my_seat
        if old is not None:
            self.room.seats[old] = SeatInfo(index=old, kind="empty")
        if self.name in self.room.spectators:
            self.room.spectators.remove(self.name)
        self.room.seats[index] = SeatInfo(index=index, kind="human", name=self.name, connected=True)
        self._seat = index
        self._changed()

    def add_bot(self, index: int | None = None) -> None:
        self._host_only()
        self._waiting()
        empties = [s.index for s in self.room.seats if s.kind == "empty"]
        if index is None:
            if not empties:
                raise ClientError("room-full", "no empty seat")
            index = empties[0]
        if self.room.seats[index].kind != "empty":
            raise ClientError("seat-taken", "that seat is taken")
        self.room.seats[index] = SeatInfo(index=index, kind="bot", name=bot_name(index), ready=True)
        self._changed()

    def remove_bot(self, index: int) -> None:
        self._host_only()
        self._waiting()
        if self.room.seats[index].kind != "bot":
            raise ClientError("not-bot", "that seat is not a bot")
        self.room.seats[index] = SeatInfo(index=index, kind="empty")
        self._changed()

    def kick(self, index: int) -> None:
        self._host_only()
        if self.room.seats[index].kind != "human":
            raise ClientError("bad-seat", "no player in that seat")
        name = self.room.seats[index].name
        self.room.banned.add(name)
        for client in self.lobby.hub.clients:  # like the real host: the player's handles are detached
            if client.room is self.room and client._seat == index and client.name == name:
                client.closed = client.kicked = True
        if self.room.state == "waiting":
            self.room.seats[index] = SeatInfo(index=index, kind="empty")
        else:  # like the real host: a bot takes the seat over for good
            self.room.seats[index] = SeatInfo(index=index, kind="bot", name=bot_name(index), ready=True)
        self._changed()

    def update_settings(self, settings: RoomSettings) -> None:
        self._host_only()
        self._waiting()
        old = self.room.seats
        if settings.seats < len(old) and any(s.kind != "empty" for s in old[settings.seats :]):
            raise ClientError("bad-settings", "seats beyond the new count are taken")
        self.room.seats = [old[i] if i < len(old) else SeatInfo(index=i, kind="empty") for i in range(settings.seats)]
        self.room.settings = settings
        self._changed()

    def start(self) -> None:
        self._host_only()
        self._waiting()
        if any(s.kind == "human" and not s.ready and s.name != self.room.host for s in self.room.seats):
            raise ClientError("not-ready", "someone is not ready")
        for seat in self.room.seats:  # like the real host: bots take the empty seats
            if seat.kind == "empty":
                self.room.seats[seat.index] = SeatInfo(index=seat.index, kind="bot", name=bot_name(seat.index), ready=True)
        self.room.start_game()
        self._changed()

    def play_again(self) -> None:
        self._host_only()
        if self.room.state != "finished":
            raise ClientError("playing", "the match is not over")
        self.room.start_game()
        self._changed()

    def reopen(self) -> None:
        self._host_only()
        if self.room.state != "finished":
            raise ClientError("playing", "the match is not over")
        self.room.state = "waiting"
        self.room.seats = [seat.model_copy(update={"ready": False}) for seat in self.room.seats]
        self._changed()

    def leave(self) -> None:
        seat = self.my_seat
        if seat is not None:
            if self.room.state == "waiting":
                self.room.seats[seat] = SeatInfo(index=seat, kind="empty")
            else:
                self.room.seats[seat].connected = False
                self.room.seats[seat].autoplay = True
        if self.name in self.room.spectators:
            self.room.spectators.remove(self.name)
        self.closed = True
        self._changed()

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener


class ClubStubs:
    """The LobbyClient's club parts for a fake lobby of an open club without an
    admin: no message of the day, no admin screen, no notices, no invites."""

    def motd(self) -> str:
        return ""

    def admin(self) -> None:
        return None

    def take_notices(self) -> list[str]:
        return []

    def redeem_invite(self, code: str) -> None:
        raise AssertionError("not a members-only club")


class FakeLobby(ClubStubs):
    """One session's handle on the FakeHub."""

    def __init__(self, hub: FakeHub, identity: Identity) -> None:
        self.hub = hub
        self._identity = identity
        self.listener: Listener | None = None
        self.langs: list[str] = []
        self.bells: list[bool] = []
        self.asks: list[bool] = []  # "ask me in every window" as the player set it

    @property
    def identity(self) -> Identity:
        return self._identity

    @property
    def host_fingerprint(self) -> str:
        return self.hub.fingerprint

    def games(self) -> list[tuple[str, str, int, int]]:
        return list(GAMES)

    def online(self) -> list[str]:
        return sorted(lb.identity.name for lb in self.hub.lobbies)

    def online_guests(self) -> frozenset[str]:
        return frozenset(lb.identity.name for lb in self.hub.lobbies if lb.identity.guest)

    def rooms(self) -> list[RoomSummary]:
        return [room.summary() for room in self.hub.rooms.values()]

    def create_room(self, settings: RoomSettings) -> FakeRoomClient:
        room = FakeRoom(self.hub, self.hub.new_room_id(), settings, self.identity.name)
        room.seats[0] = SeatInfo(index=0, kind="human", name=self.identity.name, connected=True, guest=self.identity.guest)
        self.hub.rooms[room.id] = room
        self.hub.changed()
        return FakeRoomClient(self, room, 0)

    def _room(self, room_id: str, code: str) -> FakeRoom:
        room = self.hub.rooms.get(room_id)
        if room is None:
            raise ClientError("no-room", "no such room")
        if self.identity.name in room.banned:  # like the real host: said before a code is asked for
            raise ClientError("banned", "the host removed you from this room")
        if room.settings.private and code != room.settings.code and room.seat_of(self.identity.name) is None:
            raise ClientError("bad-code" if code else "code-needed", "wrong code")
        return room

    def join(self, room_id: str, code: str = "") -> FakeRoomClient:
        room = self._room(room_id, code)
        mine = room.seat_of(self.identity.name)
        if mine is not None:
            room.seats[mine].connected = True
            room.seats[mine].autoplay = False
            self.hub.changed()
            return FakeRoomClient(self, room, mine)
        if room.state != "waiting":
            raise ClientError("in-progress", "that match has started; watch it instead")
        for seat in room.seats:
            if seat.kind == "empty":
                room.seats[seat.index] = SeatInfo(index=seat.index, kind="human", name=self.identity.name, connected=True, guest=self.identity.guest)
                self.hub.changed()
                return FakeRoomClient(self, room, seat.index)
        raise ClientError("room-full", "the room is full")

    def watch(self, room_id: str, code: str = "") -> FakeRoomClient:
        room = self._room(room_id, code)
        room.spectators.append(self.identity.name)
        self.hub.changed()
        return FakeRoomClient(self, room, None)

    def current_room(self) -> FakeRoomClient | None:
        for room in self.hub.rooms.values():
            seat = room.seat_of(self.identity.name)
            if seat is not None and room.state != "finished":
                room.seats[seat].connected = True
                return FakeRoomClient(self, room, seat)
        return None

    def chat(self, text: str) -> None:
        self.hub.chat.append(ChatLine(at=time.time(), name=self.identity.name, text=text))
        self.hub.changed()

    def chat_lines(self) -> list[ChatLine]:
        return list(self.hub.chat)

    def leaderboard(self, game: str | None = None) -> list[LeaderRow]:
        board = self.hub.leaders if game is None else self.hub.game_leaders.get(game, {})
        return leader_order(list(board.values()), points=game is not None)

    def set_lang(self, lang: Literal["en", "zh"]) -> None:
        self.langs.append(lang)
        self._identity = self._identity.model_copy(update={"lang": lang})

    def set_bell(self, on: bool) -> None:
        self.bells.append(on)
        self._identity = self._identity.model_copy(update={"bell": on})

    def set_ask_every(self, on: bool) -> None:
        self.asks.append(on)
        self._identity = self._identity.model_copy(update={"ask_every": on})

    def set_listener(self, listener: Listener | None) -> None:
        self.listener = listener


# ---------------------------------------------------------------- test helpers
def screen_text(app: object) -> str:
    """What the top screen shows now, as plain text lines."""
    from textual.app import App

    assert isinstance(app, App)
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot: object) -> None:
    """Let posted host changes flush and the screen repaint."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    for _ in range(3):
        await pilot.pause()


async def open_new_room_dialog(app: object, pilot: object) -> RoomSettingsDialog:
    """From the lobby: press ``c`` and get the new-room dialog it opens."""
    from textual.pilot import Pilot

    from tui.screens.dialogs import RoomSettingsDialog

    assert isinstance(pilot, Pilot)
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)
    dialog = getattr(app, "screen", None)
    assert isinstance(dialog, RoomSettingsDialog)
    return dialog


async def settle_in_chinese(app: object, pilot: object) -> None:
    """Settle an app whose player chose Chinese, switching with F2 if it did not start in it."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    await settle(pilot)
    if getattr(app, "lang", None) != "zh":
        await pilot.press("f2")
        await settle(pilot)
