"""A screen's handle on a room: :class:`RoomSession`, the ``protocol.contract.RoomClient``
implementation, one per SSH session per room."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from engine.api import GameSpec
from protocol.contract import (
    ChatLine,
    ClientError,
    Identity,
    Listener,
    RoomSettings,
    RoomSnapshot,
    WhyNote,
)
from server.room.chat import chat_text, require_unmuted

if TYPE_CHECKING:
    from server.room.runtime import Room


class RoomSession:
    """``protocol.contract.RoomClient`` for one SSH session in one room.

    ``role`` is ``"player"`` (the identity holds a seat) or ``"spectator"``.
    Besides the protocol, ``closed`` says the session was detached by the host
    (kicked) or the room closed; every action then raises ClientError("closed"),
    or ClientError("kicked") when the host removed the player (``kicked``).
    """

    def __init__(self, room: Room, identity: Identity, role: Literal["player", "spectator"],
                 on_leave: Callable[[RoomSession], None] | None = None) -> None:
        self._room = room
        self.identity = identity
        self.role: Literal["player", "spectator"] = role
        self._listener: Listener | None = None
        self._listener_ctx: contextvars.Context | None = None
        self._closed = False
        self.kicked = False  # detached by the host's kick
        self._on_leave = on_leave

    # -- identity of this handle
    @property
    def room(self) -> Room:
        return self._room

    @property
    def room_id(self) -> str:
        return self._room.id

    @property
    def closed(self) -> bool:
        return self._closed or self._room.closed

    @property
    def my_seat(self) -> int | None:
        if self.role != "player" or self.closed:
            return None
        return self._room.seat_of(self.identity.name)

    def _live(self) -> Room:
        if self.closed:
            if self.kicked and not self._room.closed:
                raise ClientError("kicked", "the host removed you from this room")
            if self._room.closed_reason:
                reason = self._room.closed_reason
                raise ClientError("closed-admin", f"an admin closed the room: {reason}", params={"reason": reason})
            raise ClientError("closed", "you are no longer in this room")
        return self._room

    # -- reading
    def snapshot(self) -> RoomSnapshot:
        """The room as the screens show it; ClientError("closed") once this handle is
        detached (left, room closed, server stopping), ClientError("kicked") after a kick."""
        return self._live().snapshot()

    def view(self) -> BaseModel | None:
        if self.role == "spectator":
            return self._room.view(None)
        seat = self.my_seat
        if seat is None:  # kicked: what anyone may see
            return self._room.view(None)
        return self._room.view(seat)

    def round_log(self, number: int) -> Sequence[object]:
        return self._room.round_log(None if self.role == "spectator" else self.my_seat, number)

    def round_view(self, number: int) -> BaseModel | None:
        return self._room.round_view(None if self.role == "spectator" else self.my_seat, number)

    def why_notes(self) -> Sequence[WhyNote]:
        return self._room.why_notes(self.my_seat) if self.role == "player" else []

    def go_on(self) -> None:
        room = self._live()
        if self.role == "player":
            room.go_on(self.my_seat)

    def legal(self) -> list[str]:
        return self._room.legal(self.my_seat)

    def pending(self) -> bool:
        return self._room.is_pending(self.my_seat)

    def nothing_to_answer(self) -> bool:
        return self._room.nothing_to_answer(self.my_seat)

    def chat_lines(self) -> list[ChatLine]:
        return list(self._room.chat)

    # -- acting
    def act(self, text: str, version: int) -> None:
        self._live().act(self.my_seat, text, version)

    def chat(self, text: str) -> None:
        room = self._live()
        if room.env.club is not None:
            require_unmuted(room.env.club, self.identity.name)
        text = chat_text(text)  # a refused line is not counted
        room.env.count_chat(self.identity.name, self.identity.address)
        room.say(self.identity.name, text)

    def set_ready(self, ready: bool) -> None:
        self._live().set_ready(self.identity, ready)

    def take_seat(self, index: int) -> None:
        room = self._live()
        if self.role == "spectator":
            raise ClientError("not-seated", "join the room to take a seat")
        room.take_seat(self.identity, index)

    def add_bot(self, index: int | None = None) -> None:
        self._live().add_bot(self.identity, index)

    def remove_bot(self, index: int) -> None:
        self._live().remove_bot(self.identity, index)

    def kick(self, index: int) -> None:
        self._live().kick(self.identity, index)

    def update_settings(self, settings: RoomSettings) -> None:
        room = self._live()
        room.update_settings(self.identity, settings, self._specs())

    def start(self) -> None:
        self._live().start(self.identity)

    def play_again(self) -> None:
        self._live().play_again(self.identity)

    def reopen(self) -> None:
        self._live().reopen(self.identity)

    def come_back(self) -> bool:
        room = self._live()
        return self.role == "player" and room.come_back(self.identity)

    def hand_to_standin(self, index: int) -> None:
        self._live().hand_to_standin(self.identity, index)

    def leave_match(self) -> None:
        room = self._live()
        if self.role != "player":
            raise ClientError("not-seated", "you have no seat in this room")
        room.leave_match(self.identity)
        self._closed = True
        if self._on_leave is not None:
            self._on_leave(self)

    def leave(self) -> None:
        if not self._closed:
            self._room.detach(self, leaving=True)
            self._closed = True
        if self._on_leave is not None:
            self._on_leave(self)

    def set_listener(self, listener: Listener | None) -> None:
        self._listener = listener
        self._listener_ctx = contextvars.copy_context() if listener is not None else None

    # -- internals
    specs_provider: Callable[[], dict[str, GameSpec]] | None = None

    def _specs(self) -> dict[str, GameSpec]:
        if self.specs_provider is None:
            return {self._room.spec.id: self._room.spec}
        return self.specs_provider()

    def __repr__(self) -> str:
        return f"<RoomSession room={self._room.id} {self.identity.name} {self.role}>"
