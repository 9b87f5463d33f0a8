"""Between rounds: a round's result stays until every human at the table has
pressed to go on, or the room's "between rounds" time has passed (issue 43).
Bots, spectators and players who dropped do not hold the table."""

from __future__ import annotations

from typing import Any

from games import ticks, until
from hubs import new_hub

from protocol.contract import BETWEEN_ROUNDS, BETWEEN_ROUNDS_MAX, Identity, RoomSettings
from server.hub import Hub, LobbySession
from server.room import Room, RoomSession, validate_settings


def settings(**kw: Any) -> RoomSettings:
    base: dict[str, Any] = {"game": "count", "seats": 2, "window_timer": 0, "turn_timer": 0,
                            "options": {"rounds": 2, "target": 5}}
    base.update(kw)
    return RoomSettings(**base)


async def to_round_end(hub: Hub, seats: int = 2, *, wait: bool = True, **kw: Any) -> tuple[list[LobbySession], list[RoomSession], Room]:
    """alice hosts, bob (and more) join; the humans add 3 until round 1 ends."""
    names = ["alice", "bob", "carol"][:seats]
    lobbies = [hub.connect(Identity(name=n)) for n in names]
    a = lobbies[0].create_room(settings(seats=seats, **kw))
    rooms = [a]
    for lobby in lobbies[1:]:
        rc = lobby.join(a.room_id)
        rc.set_ready(True)
        rooms.append(rc)
    a.start()
    room = a.room
    assert room.table is not None
    for _ in range(20):
        if room.table.between_rounds() or round_of(room) > 1:
            break
        for rc in rooms:
            if rc.pending():
                rc.act("add 3" if "add 3" in rc.legal() else "pass", rc.snapshot().version)
                break
        await ticks()
    assert room.table.between_rounds() == wait
    return lobbies, rooms, room


def round_of(room: Room) -> int:
    view = room.view(None)
    return int(getattr(view, "round", 0))


async def test_the_result_waits_for_every_human_then_deals_at_once() -> None:
    hub = new_hub(time_scale=0.01, intermission=None)  # the default 30 s: 0.3 s of the test's time
    await hub.start()
    try:
        _, (a, b), room = await to_round_end(hub)
        snap = a.snapshot()
        assert snap.holding == [0, 1] and snap.went_on == []
        assert snap.deadline is not None  # the countdown shows
        await ticks(20)
        assert room.table is not None and room.table.between_rounds() and round_of(room) == 1
        a.go_on()
        await ticks(20)
        assert a.snapshot().went_on == [0] and round_of(room) == 1  # bob still reads it
        b.go_on()
        assert round_of(room) == 2 and not room.table.between_rounds()  # dealt before the time ran out
        assert a.snapshot().went_on == [] and a.snapshot().holding == []
    finally:
        await hub.stop()


async def test_nobody_pressed_deals_when_the_between_rounds_time_passed() -> None:
    hub = new_hub(time_scale=0.01, intermission=None)
    await hub.start()
    try:
        _, (a, _b), room = await to_round_end(hub, between_rounds=5)  # 0.05 s
        assert room.table is not None
        loop_start = hub.env.clock() if hub.env is not None else 0.0
        deadline = a.snapshot().deadline
        assert deadline is not None and 0 < deadline - loop_start <= 0.05 + 0.01
        await until(lambda: round_of(room) == 2, timeout=5)
        assert a.snapshot().went_on == []
    finally:
        await hub.stop()


async def test_a_player_who_dropped_does_not_hold_the_table() -> None:
    hub = new_hub(time_scale=0.01, grace_period=1000, intermission=None)
    await hub.start()
    try:
        (_, lb), (a, _b), room = await to_round_end(hub)
        hub.disconnect(lb)  # bob's connection is lost while the result shows
        await ticks(5)
        assert a.snapshot().holding == [0] and round_of(room) == 1
        a.go_on()
        assert round_of(room) == 2
    finally:
        await hub.stop()


async def test_the_last_one_to_drop_deals() -> None:
    """alice went on; bob, who had not, drops: nobody is left to wait for."""
    hub = new_hub(time_scale=0.01, grace_period=1000, intermission=None)
    await hub.start()
    try:
        (_, lb), (a, _b), room = await to_round_end(hub)
        a.go_on()
        await ticks(5)
        assert round_of(room) == 1
        hub.disconnect(lb)
        assert round_of(room) == 2
    finally:
        await hub.stop()


async def test_bots_and_spectators_do_not_hold_the_table() -> None:
    hub = new_hub(time_scale=0.01, intermission=None)
    await hub.start()
    try:
        la = hub.connect(Identity(name="alice"))
        a = la.create_room(settings(seats=3))
        a.add_bot(1)
        a.add_bot(2)
        a.start()
        watcher = hub.connect(Identity(name="carol")).watch(a.room_id)
        room = a.room
        assert room.table is not None
        await until(lambda: room.table is not None and (room.table.between_rounds() or a.pending()))
        while not room.table.between_rounds():
            if a.pending():
                a.act("add 3" if "add 3" in a.legal() else "pass", a.snapshot().version)
            await until(lambda: room.table is not None and (room.table.between_rounds() or a.pending()))
        assert watcher.snapshot().holding == [0]
        watcher.go_on()  # a spectator's key goes nowhere
        await ticks(10)
        assert round_of(room) == 1 and watcher.snapshot().went_on == []
        a.go_on()  # the one human: the bots never wait
        assert round_of(room) == 2
    finally:
        await hub.stop()


async def test_an_empty_table_deals_without_waiting() -> None:
    """Only bots play (the host left): nobody holds the table."""
    hub = new_hub(time_scale=1.0, intermission=None)  # a real 30 s if it waited
    await hub.start()
    try:
        a = hub.connect(Identity(name="alice")).create_room(settings(seats=2))
        a.add_bot(1)
        a.start()
        room = a.room
        a.leave()  # a bot plays alice's seat to the end
        await until(lambda: room.state == "finished", timeout=5)
    finally:
        await hub.stop()


def test_the_setting_defaults_to_30_s_and_is_bounded_once() -> None:
    assert RoomSettings().between_rounds == BETWEEN_ROUNDS == 30
    from engine.registry import games

    specs = games()
    clean, _ = validate_settings(RoomSettings(between_rounds=10**6), specs, default_bot_delay=1.0)
    assert clean.between_rounds == BETWEEN_ROUNDS_MAX
    clean, _ = validate_settings(RoomSettings(between_rounds=-3), specs, default_bot_delay=1.0)
    assert clean.between_rounds == 0


async def test_the_servers_intermission_caps_every_rooms_wait() -> None:
    hub = new_hub(time_scale=1.0, intermission=0.0)
    await hub.start()
    try:
        _, (_a, _b), room = await to_round_end(hub, wait=False)
        assert round_of(room) == 2
    finally:
        await hub.stop()
