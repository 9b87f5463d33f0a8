"""The contract round-trips through JSON (protocol.wire): whole matches of both
games played with every command, snapshot, view, log event, chat line and
refusal encoded and decoded between the room and the player, and the table
screen playing a match from what crossed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from hubs import close_results, new_hub, settle

from engine.api import ViewModels
from engine.registry import games
from protocol.contract import ClientError, Identity, LobbyClient, RoomClient, RoomSettings
from protocol.wire import (
    COMMAND,
    LOBBY_COMMAND,
    Act,
    AddBot,
    Chat,
    ComeBack,
    CreateRoom,
    GoOn,
    HandToStandin,
    Join,
    Kick,
    Leave,
    LeaveMatch,
    LobbyChat,
    PlayAgain,
    RedeemInvite,
    RemoveBot,
    Reopen,
    SetAskEvery,
    SetBell,
    SetLang,
    SetReady,
    Start,
    TakeSeat,
    UpdateSettings,
    Watch,
    WireLobbyClient,
    WireRoomClient,
)
from server.room import Room
from tui.app import ThroneApp
from tui.screens.plain_table import PlainTableScreen
from tui.tables import TableScreen, register_table, unregister_table

OPTIONS: dict[str, dict[str, object]] = {"sultans": {"rounds": 2}, "overlord": {"round_limit": 2}}


@pytest.mark.parametrize(
    "command",
    [
        Act(text="claim", version=7), Chat(text="hi 你好", version=1), SetReady(ready=True, version=0),
        TakeSeat(index=3, version=0), AddBot(version=0), AddBot(index=2, version=0), RemoveBot(index=2, version=0),
        Kick(index=1, version=0), UpdateSettings(settings=RoomSettings(game="overlord", seats=6, bot_levels={2: "easy"}), version=3),
        HandToStandin(index=4, version=9), Start(version=0), PlayAgain(version=0), Reopen(version=0),
        Leave(version=0), ComeBack(version=5), GoOn(version=5), LeaveMatch(version=5),
    ],
    ids=lambda c: c.op,
)
def test_every_command_round_trips_through_json(command: Any) -> None:
    assert COMMAND.validate_json(command.model_dump_json()) == command


def test_a_malformed_command_is_refused_by_the_decoder() -> None:
    from pydantic import ValidationError

    for text in ('{"op": "act", "text": "x"}', '{"op": "shout", "version": 1}', '{"op": "act", "text": 1, "version": 1}', "[]"):
        with pytest.raises(ValidationError):
            COMMAND.validate_json(text)


class Checked(WireRoomClient):
    """A wire client that also asks the room directly and compares: what crossed is what was meant."""

    def __init__(self, inner: RoomClient, game: str) -> None:
        views = games()[game].views
        assert views is not None
        super().__init__(inner, views)
        self.direct = inner
        self.mismatches: list[str] = []

    def compare(self) -> None:
        for name in ("snapshot", "view", "legal", "pending", "nothing_to_answer", "why_notes", "chat_lines"):
            if getattr(self, name)() != getattr(self.direct, name)():
                self.mismatches.append(name)


@pytest.mark.parametrize("game", ["sultans", "overlord"])
async def test_a_whole_bot_match_through_json(game: str) -> None:
    """A human seat plays a whole match with four bots, every message of the
    contract crossing JSON; what arrived equals what the room meant, each round's
    log and result too, and the match is stored as played."""
    hub = new_hub(games=None)
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="alice"))
        direct = lobby.create_room(RoomSettings(game=game, seats=5, window_timer=0, turn_timer=0, options=OPTIONS[game]))
        wire = Checked(direct, game)
        wire.chat("good luck")
        wire.start()
        room: Room = hub.rooms[wire.room_id]
        acted = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120  # (a count of loop turns ran out first on a loaded machine)
        while room.state == "playing" and loop.time() < deadline:
            wire.compare()
            if wire.pending() and (legal := wire.legal()):
                wire.act(legal[0], wire.snapshot().version)
                acted += 1
            wire.go_on()
            await asyncio.sleep(0.001)
        # (an Overlord game may end without asking alice: its bots can execute one of their own)
        assert room.state == "finished" and (acted > 0 or game == "overlord")
        wire.compare()
        assert wire.mismatches == []
        logged = [n for n in range(1, 30) if direct.round_log(n)]
        assert logged and logged[0] == 1
        for number in logged:
            assert wire.round_log(number) == direct.round_log(number)
            assert wire.round_view(number) == direct.round_view(number)
        assert wire.sent > 2 * acted  # every act crossed, with the reads beside it
        assert any(line.text == "good luck" for line in wire.chat_lines())
    finally:
        await hub.stop()


async def test_a_refusal_crosses_as_the_same_error() -> None:
    """ClientError's code, reason and params survive the wire: a stale version,
    an illegal action, a host-only command from a guest."""
    hub = new_hub(games=None)
    await hub.start()
    try:
        host = hub.connect(Identity(name="alice"))
        direct = host.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, turn_timer=0))
        wire = Checked(direct, "sultans")
        wire.start()
        room: Room = hub.rooms[wire.room_id]
        for _ in range(10_000):  # (a stale version is refused where the seat may act)
            if room.is_pending(0):
                break
            await asyncio.sleep(0.001)
        version = wire.snapshot().version
        with pytest.raises(ClientError) as stale:
            wire.act("pass", version - 1)
        assert stale.value.code == "stale"
        with pytest.raises(ClientError) as illegal:
            wire.act("no such move", wire.snapshot().version)
        assert illegal.value.code == "illegal" and illegal.value.reason
        guest = Checked(hub.connect(Identity(name="bob")).watch(wire.room_id), "sultans")
        with pytest.raises(ClientError) as not_host:
            guest.kick(1)
        assert not_host.value.code == "not-host"
    finally:
        await hub.stop()


def wire_lobby(inner: LobbyClient) -> WireLobbyClient:
    def views(game: str) -> ViewModels:
        spec = games()[game].views
        assert spec is not None
        return spec

    return WireLobbyClient(inner, views)


def test_every_lobby_command_round_trips_through_json() -> None:
    for command in (
        CreateRoom(settings=RoomSettings(game="sultans", name="水 & <b>", private=True, code="x1")), Join(room_id="3"),
        Watch(room_id="3", code="abc"), LobbyChat(text="hello 你好"), SetLang(lang="zh"), SetBell(on=False),
        SetAskEvery(on=True), RedeemInvite(code="K7-Q2"),
    ):
        assert LOBBY_COMMAND.validate_json(command.model_dump_json()) == command


async def test_the_lobby_through_json_creates_joins_and_refuses() -> None:
    """The lobby's answers and commands cross JSON too: a room created and
    joined, the rooms list and chat as sent, a refusal with its code."""
    hub = new_hub(games=None)
    await hub.start()
    try:
        alice = wire_lobby(hub.connect(Identity(name="alice")))
        bob = wire_lobby(hub.connect(Identity(name="bob")))
        room = alice.create_room(RoomSettings(game="overlord", seats=4, name="Den"))
        assert isinstance(room, WireRoomClient) and room.my_seat == 0
        assert [r.name for r in bob.rooms()] == ["Den"] and bob.rooms()[0].game == "overlord"
        seat = bob.join(room.room_id)
        assert seat.my_seat == 1 and bob.current_room() is seat
        bob.set_lang("zh")
        assert bob.identity.lang == "zh"
        with pytest.raises(ClientError) as missing:
            bob.watch("nope")
        assert missing.value.code
        assert set(alice.online()) == {"alice", "bob"} and alice.online_guests() == frozenset()
        assert alice.sent >= 4
    finally:
        await hub.stop()


@pytest.fixture
def plain_sultans_table() -> Iterator[None]:
    """Enter plays the plain table's highlighted action: the loop below needs no game's keys."""
    register_table("sultans", PlainTableScreen)
    yield
    unregister_table("sultans")


async def test_the_sultans_table_draws_from_what_crossed_the_wire() -> None:
    """The Sultans table screen, fed only through JSON, shows alice her card and her turn."""
    hub = new_hub(games=None, grace_period=1e6)  # (alice's seat waits for her screen: a bot took it after 60 ms)
    await hub.start()
    try:
        first = hub.connect(Identity(name="alice"))
        rc = first.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, turn_timer=0, bot_delay=0.5))
        rc.start()
        hub.disconnect(first)
        lobby = wire_lobby(hub.connect(Identity(name="alice")))
        app = ThroneApp(lobby)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, TableScreen) and isinstance(app.room, WireRoomClient)
            text = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
            assert "Your card: " in text and "you are alice (1)" in text
        assert isinstance(app.room, WireRoomClient) and app.room.sent > 10 and lobby.sent > 3
    finally:
        await hub.stop()


@pytest.mark.usefixtures("plain_sultans_table")
async def test_the_table_screen_plays_a_match_from_what_crossed_the_wire() -> None:
    """A table screen, fed only through JSON, plays alice's seat to the match's
    end with the keys a player presses."""
    hub = new_hub(games=None, grace_period=1e6)  # (alice's seat waits for her screen: a bot took it after 60 ms)
    await hub.start()
    try:
        first = hub.connect(Identity(name="alice"))
        # (three rounds: the bots can end one before alice's first turn, CI saw '0 played' on 3.13)
        rc = first.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, turn_timer=0, options={"rounds": 3}))
        rc.start()
        hub.disconnect(first)
        room = rc.room
        lobby = wire_lobby(hub.connect(Identity(name="alice")))
        app = ThroneApp(lobby)
        played = 0
        async with app.run_test(size=(100, 32)) as pilot:
            await close_results(app, pilot)  # (a round the bots ended before her screen: its result over the table)
            assert isinstance(app.screen, TableScreen) and isinstance(app.room, WireRoomClient)
            for _ in range(3000):
                if room.state != "playing":
                    break
                if room.is_pending(0):
                    await settle(pilot, 2)
                    before = room.seq
                    await pilot.press("enter")
                    await settle(pilot, 2)
                    played += room.seq > before
                else:
                    await asyncio.sleep(0.002)
        assert played > 0 and room.state == "finished"
        assert isinstance(app.room, WireRoomClient) and app.room.sent > played * 2
    finally:
        await hub.stop()
