"""The contract's JSON form: every command a screen sends a room, and every
answer it gets (snapshots, per-seat views, log events, chat lines, refusals),
as messages that round-trip through JSON.

Screens and rooms share a process today and call :class:`LobbyClient` and
:class:`RoomClient` directly; :class:`WireLobbyClient` and
:class:`WireRoomClient` put JSON between the two ends of each call, so that a
screen works from what it could have been sent over a socket
(``tests/server/test_wire.py`` plays whole matches through them). A room
command carries the room version its screen last saw; the room refuses a
stale ``act`` (``ClientError("stale")``) and takes the others as they come.
The admin screen's client (:class:`AdminClient`) is not sent: it stays
in-process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.api import ViewModels
from protocol.contract import (
    AdminClient,
    ChatLine,
    ClientError,
    Identity,
    LeaderRow,
    Listener,
    LobbyClient,
    RoomClient,
    RoomSettings,
    RoomSnapshot,
    RoomSummary,
    WhyNote,
)


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int  # the room version the screen last saw


class Act(_Command):
    op: Literal["act"] = "act"
    text: str


class Chat(_Command):
    op: Literal["chat"] = "chat"
    text: str


class SetReady(_Command):
    op: Literal["set_ready"] = "set_ready"
    ready: bool


class TakeSeat(_Command):
    op: Literal["take_seat"] = "take_seat"
    index: int


class AddBot(_Command):
    op: Literal["add_bot"] = "add_bot"
    index: int | None = None


class RemoveBot(_Command):
    op: Literal["remove_bot"] = "remove_bot"
    index: int


class Kick(_Command):
    op: Literal["kick"] = "kick"
    index: int


class UpdateSettings(_Command):
    op: Literal["update_settings"] = "update_settings"
    settings: RoomSettings


class HandToStandin(_Command):
    op: Literal["hand_to_standin"] = "hand_to_standin"
    index: int


class Start(_Command):
    op: Literal["start"] = "start"


class PlayAgain(_Command):
    op: Literal["play_again"] = "play_again"


class Reopen(_Command):
    op: Literal["reopen"] = "reopen"


class Leave(_Command):
    op: Literal["leave"] = "leave"


class ComeBack(_Command):
    op: Literal["come_back"] = "come_back"


class GoOn(_Command):
    op: Literal["go_on"] = "go_on"


class LeaveMatch(_Command):
    op: Literal["leave_match"] = "leave_match"


Command = Annotated[
    Act | Chat | SetReady | TakeSeat | AddBot | RemoveBot | Kick | UpdateSettings | HandToStandin
    | Start | PlayAgain | Reopen | Leave | ComeBack | GoOn | LeaveMatch,
    Field(discriminator="op"),
]
COMMAND: TypeAdapter[Command] = TypeAdapter(Command)


class Refusal(BaseModel):
    """A :class:`ClientError` as sent: its stable code, English message, reason and params."""

    model_config = ConfigDict(frozen=True)

    refused: Literal[True] = True
    code: str
    message: str
    reason: str = ""
    params: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of(cls, err: ClientError) -> Refusal:
        return cls(code=err.code, message=str(err), reason=err.reason, params=dict(err.params))

    def error(self) -> ClientError:
        return ClientError(self.code, self.message, reason=self.reason, params=dict(self.params))


class Done(BaseModel):
    """A command the room took; ``result`` where the call answers (``come_back``)."""

    model_config = ConfigDict(frozen=True)

    refused: Literal[False] = False
    result: bool | None = None


REPLY: TypeAdapter[Refusal | Done] = TypeAdapter(Annotated[Refusal | Done, Field(discriminator="refused")])


def apply(client: RoomClient, command: Command) -> bool | None:
    """Run a decoded command on the room's side of the contract."""
    match command:
        case Act(text=text, version=version):
            client.act(text, version)
        case Chat(text=text):
            client.chat(text)
        case SetReady(ready=ready):
            client.set_ready(ready)
        case TakeSeat(index=index):
            client.take_seat(index)
        case AddBot(index=index):
            client.add_bot(index)
        case RemoveBot(index=index):
            client.remove_bot(index)
        case Kick(index=index):
            client.kick(index)
        case UpdateSettings(settings=settings):
            client.update_settings(settings)
        case HandToStandin(index=index):
            client.hand_to_standin(index)
        case Start():
            client.start()
        case PlayAgain():
            client.play_again()
        case Reopen():
            client.reopen()
        case Leave():
            client.leave()
        case ComeBack():
            return client.come_back()
        case GoOn():
            client.go_on()
        case LeaveMatch():
            client.leave_match()
    return None


def handle(client: RoomClient, sent: str | bytes) -> str:
    """The room's end: a command's JSON in, the reply's JSON out (a refusal is a reply)."""
    try:
        result = apply(client, COMMAND.validate_json(sent))
    except ClientError as err:
        return Refusal.of(err).model_dump_json()
    return Done(result=result).model_dump_json()


_T = TypeVar("_T")


class _Crossing:
    """What both wire clients share: every message crosses as JSON, counted
    (``sent`` messages, ``bytes``)."""

    def __init__(self) -> None:
        self.sent = 0
        self.bytes = 0

    def _cross(self, text: str | bytes) -> str | bytes:
        self.sent += 1
        self.bytes += len(text)
        return text

    def _answer(self, adapter: TypeAdapter[_T], value: _T) -> _T:
        """``value`` as the host's end encodes it and the screen's end decodes it."""
        return adapter.validate_json(self._cross(adapter.dump_json(value)))


class WireRoomClient(_Crossing):
    """A :class:`RoomClient` whose every call crosses JSON: commands are encoded,
    decoded and run by :func:`handle`; every answer is encoded by the room's end
    and decoded by the screen's, views and events by the game's
    :class:`~engine.api.ViewModels`. ``sent``/``bytes`` count the messages."""

    def __init__(self, inner: RoomClient, views: ViewModels) -> None:
        super().__init__()
        self._inner = inner
        self._view: TypeAdapter[Any] = TypeAdapter(views.view | None)
        self._round_view: TypeAdapter[Any] = TypeAdapter((views.round_view or views.view) | None)
        event: Any = views.event if views.event is not None else Any
        self._events: TypeAdapter[list[Any]] = TypeAdapter(list[event])
        self._version = 0

    def _send(self, command: Command) -> bool | None:
        reply = REPLY.validate_json(self._cross(handle(self._inner, self._cross(command.model_dump_json()))))
        if isinstance(reply, Refusal):
            raise reply.error()
        return reply.result

    # -- what a screen reads

    @property
    def room_id(self) -> str:
        return self._inner.room_id

    @property
    def my_seat(self) -> int | None:
        return self._inner.my_seat

    def snapshot(self) -> RoomSnapshot:
        snap = RoomSnapshot.model_validate_json(self._cross(self._inner.snapshot().model_dump_json()))
        self._version = snap.version
        return snap

    def view(self) -> BaseModel | None:
        return self._answer(self._view, self._inner.view())  # type: ignore[no-any-return]

    def legal(self) -> list[str]:
        return self._answer(_STRINGS, self._inner.legal())

    def round_log(self, number: int) -> Sequence[object]:
        return self._answer(self._events, list(self._inner.round_log(number)))

    def pending(self) -> bool:
        return self._answer(_BOOL, self._inner.pending())

    def nothing_to_answer(self) -> bool:
        return self._answer(_BOOL, self._inner.nothing_to_answer())

    def why_notes(self) -> Sequence[WhyNote]:
        return self._answer(_WHY, list(self._inner.why_notes()))

    def round_view(self, number: int) -> BaseModel | None:
        return self._answer(self._round_view, self._inner.round_view(number))  # type: ignore[no-any-return]

    def chat_lines(self) -> list[ChatLine]:
        return self._answer(_CHAT, self._inner.chat_lines())

    # -- what a screen sends

    def act(self, text: str, version: int) -> None:
        self._send(Act(text=text, version=version))

    def chat(self, text: str) -> None:
        self._send(Chat(text=text, version=self._version))

    def go_on(self) -> None:
        self._send(GoOn(version=self._version))

    def set_ready(self, ready: bool) -> None:
        self._send(SetReady(ready=ready, version=self._version))

    def take_seat(self, index: int) -> None:
        self._send(TakeSeat(index=index, version=self._version))

    def add_bot(self, index: int | None = None) -> None:
        self._send(AddBot(index=index, version=self._version))

    def remove_bot(self, index: int) -> None:
        self._send(RemoveBot(index=index, version=self._version))

    def kick(self, index: int) -> None:
        self._send(Kick(index=index, version=self._version))

    def update_settings(self, settings: RoomSettings) -> None:
        self._send(UpdateSettings(settings=settings, version=self._version))

    def start(self) -> None:
        self._send(Start(version=self._version))

    def play_again(self) -> None:
        self._send(PlayAgain(version=self._version))

    def reopen(self) -> None:
        self._send(Reopen(version=self._version))

    def leave(self) -> None:
        self._send(Leave(version=self._version))

    def come_back(self) -> bool:
        return bool(self._send(ComeBack(version=self._version)))

    def hand_to_standin(self, index: int) -> None:
        self._send(HandToStandin(index=index, version=self._version))

    def leave_match(self) -> None:
        self._send(LeaveMatch(version=self._version))

    def set_listener(self, listener: Listener | None) -> None:
        self._inner.set_listener(listener)  # a bare "something changed": no payload to send


_STRINGS: TypeAdapter[list[str]] = TypeAdapter(list[str])
_BOOL: TypeAdapter[bool] = TypeAdapter(bool)
_WHY: TypeAdapter[list[WhyNote]] = TypeAdapter(list[WhyNote])
_CHAT: TypeAdapter[list[ChatLine]] = TypeAdapter(list[ChatLine])


# -- the lobby ------------------------------------------------------------------


class _LobbyCommand(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CreateRoom(_LobbyCommand):
    op: Literal["create_room"] = "create_room"
    settings: RoomSettings


class Join(_LobbyCommand):
    op: Literal["join"] = "join"
    room_id: str
    code: str = ""


class Watch(_LobbyCommand):
    op: Literal["watch"] = "watch"
    room_id: str
    code: str = ""


class LobbyChat(_LobbyCommand):
    op: Literal["lobby_chat"] = "lobby_chat"
    text: str


class SetLang(_LobbyCommand):
    op: Literal["set_lang"] = "set_lang"
    lang: Literal["en", "zh"]


class SetBell(_LobbyCommand):
    op: Literal["set_bell"] = "set_bell"
    on: bool


class SetAskEvery(_LobbyCommand):
    op: Literal["set_ask_every"] = "set_ask_every"
    on: bool


class RedeemInvite(_LobbyCommand):
    op: Literal["redeem_invite"] = "redeem_invite"
    code: str


LobbyCommand = Annotated[
    CreateRoom | Join | Watch | LobbyChat | SetLang | SetBell | SetAskEvery | RedeemInvite,
    Field(discriminator="op"),
]
LOBBY_COMMAND: TypeAdapter[LobbyCommand] = TypeAdapter(LobbyCommand)


class Entered(BaseModel):
    """The room a lobby command took the player to (or the one it is in)."""

    model_config = ConfigDict(frozen=True)

    room_id: str
    seat: int | None  # None: watching


def apply_lobby(lobby: LobbyClient, command: LobbyCommand) -> RoomClient | None:
    """Run a decoded lobby command on the host's side; the room it entered, if any."""
    match command:
        case CreateRoom(settings=settings):
            return lobby.create_room(settings)
        case Join(room_id=room_id, code=code):
            return lobby.join(room_id, code)
        case Watch(room_id=room_id, code=code):
            return lobby.watch(room_id, code)
        case LobbyChat(text=text):
            lobby.chat(text)
        case SetLang(lang=lang):
            lobby.set_lang(lang)
        case SetBell(on=on):
            lobby.set_bell(on)
        case SetAskEvery(on=on):
            lobby.set_ask_every(on)
        case RedeemInvite(code=code):
            lobby.redeem_invite(code)
    return None


class WireLobbyClient(_Crossing):
    """A :class:`LobbyClient` whose every call crosses JSON, as
    :class:`WireRoomClient` does for a room; the rooms it enters are handed
    over as wire clients, their views decoded by ``views(game)``."""

    def __init__(self, inner: LobbyClient, views: Callable[[str], ViewModels]) -> None:
        super().__init__()
        self._inner = inner
        self._views = views
        self._rooms: dict[int, WireRoomClient] = {}  # id() of the host's handle -> its wire client

    def _room(self, inner: RoomClient | None) -> WireRoomClient | None:
        if inner is None:
            return None
        entered = Entered.model_validate_json(self._cross(Entered(room_id=inner.room_id, seat=inner.my_seat).model_dump_json()))
        known = self._rooms.get(id(inner))
        if known is None or known.room_id != entered.room_id:
            game = inner.snapshot().settings.game
            known = self._rooms[id(inner)] = WireRoomClient(inner, self._views(game))
        return known

    def _send(self, command: LobbyCommand) -> WireRoomClient | None:
        sent = LOBBY_COMMAND.validate_json(self._cross(command.model_dump_json()))
        try:
            entered = apply_lobby(self._inner, sent)
        except ClientError as err:
            raise Refusal.model_validate_json(self._cross(Refusal.of(err).model_dump_json())).error() from None
        return self._room(entered)

    # -- what a screen reads

    @property
    def identity(self) -> Identity:
        return self._answer(_IDENTITY, self._inner.identity)

    @property
    def host_fingerprint(self) -> str:
        return self._answer(_STRING, self._inner.host_fingerprint)

    def games(self) -> list[tuple[str, str, int, int]]:
        return self._answer(_GAMES, self._inner.games())

    def online(self) -> list[str]:
        return self._answer(_STRINGS, self._inner.online())

    def online_guests(self) -> frozenset[str]:
        names: list[str] = self._answer(_STRINGS, sorted(self._inner.online_guests()))
        return frozenset(names)

    def rooms(self) -> list[RoomSummary]:
        return self._answer(_SUMMARIES, self._inner.rooms())

    def current_room(self) -> RoomClient | None:
        return self._room(self._inner.current_room())

    def chat_lines(self) -> list[ChatLine]:
        return self._answer(_CHAT, self._inner.chat_lines())

    def leaderboard(self, game: str | None = None) -> list[LeaderRow]:
        return self._answer(_LEADERS, self._inner.leaderboard(game))

    def motd(self) -> str:
        return self._answer(_STRING, self._inner.motd())

    def take_notices(self) -> list[str]:
        return self._answer(_STRINGS, self._inner.take_notices())

    def admin(self) -> AdminClient | None:
        return self._inner.admin()  # (in-process only: see the module's docstring)

    # -- what a screen sends

    def create_room(self, settings: RoomSettings) -> RoomClient:
        room = self._send(CreateRoom(settings=settings))
        assert room is not None
        return room

    def join(self, room_id: str, code: str = "") -> RoomClient:
        room = self._send(Join(room_id=room_id, code=code))
        assert room is not None
        return room

    def watch(self, room_id: str, code: str = "") -> RoomClient:
        room = self._send(Watch(room_id=room_id, code=code))
        assert room is not None
        return room

    def chat(self, text: str) -> None:
        self._send(LobbyChat(text=text))

    def set_lang(self, lang: Literal["en", "zh"]) -> None:
        self._send(SetLang(lang=lang))

    def set_bell(self, on: bool) -> None:
        self._send(SetBell(on=on))

    def set_ask_every(self, on: bool) -> None:
        self._send(SetAskEvery(on=on))

    def redeem_invite(self, code: str) -> None:
        self._send(RedeemInvite(code=code))

    def set_listener(self, listener: Listener | None) -> None:
        self._inner.set_listener(listener)


_STRING: TypeAdapter[str] = TypeAdapter(str)
_IDENTITY: TypeAdapter[Identity] = TypeAdapter(Identity)
_GAMES: TypeAdapter[list[tuple[str, str, int, int]]] = TypeAdapter(list[tuple[str, str, int, int]])
_SUMMARIES: TypeAdapter[list[RoomSummary]] = TypeAdapter(list[RoomSummary])
_LEADERS: TypeAdapter[list[LeaderRow]] = TypeAdapter(list[LeaderRow])
