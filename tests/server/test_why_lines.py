"""Why-lines (issue 43): when the room plays for a seat (its time ran out, a
stand-in bot while its player was away), that seat's log says so, placed after
the action; no other seat and no spectator gets the line."""

from __future__ import annotations

from typing import Any

from games import ticks, until
from hubs import new_hub

from protocol.contract import Identity, RoomSettings
from server.hub import Hub
from server.room import RoomSession


def settings(**kw: Any) -> RoomSettings:
    base: dict[str, Any] = {"game": "count", "seats": 2, "window_timer": 0, "turn_timer": 0,
                            "options": {"rounds": 1, "target": 40}}
    base.update(kw)
    return RoomSettings(**base)


async def two(hub: Hub, **kw: Any) -> tuple[RoomSession, RoomSession, RoomSession]:
    a = hub.connect(Identity(name="alice")).create_room(settings(**kw))
    b = hub.connect(Identity(name="bob")).join(a.room_id)
    b.set_ready(True)
    a.start()
    watcher = hub.connect(Identity(name="carol")).watch(a.room_id)
    await ticks()
    return a, b, watcher


async def test_a_timeout_is_explained_on_that_seats_log_alone(hub: Hub) -> None:
    """S-TIME-1 / K-TIME-1 as the count game's C-TIME: the turn's default (add 1)."""
    a, b, watcher = await two(hub, turn_timer=5)  # 5 ms of the test's time
    mover = a if a.pending() else b
    other = b if mover is a else a
    await until(lambda: bool(mover.why_notes()))
    notes = list(mover.why_notes())
    assert notes[0].key == "why.timeout" and notes[0].round == 1
    assert not other.why_notes() or all(n.key == "why.timeout" for n in other.why_notes())
    assert list(watcher.why_notes()) == []


async def test_a_pass_played_for_a_seat_says_the_room_passed(hub: Hub) -> None:
    """A reaction window's timeout passes (C-TIME, strict windows: the room asks everyone)."""
    a, b, _ = await two(hub, window_timer=5, strict_windows=True)
    room = a.room
    mover = a if a.pending() else b
    mover.act("add 3", mover.snapshot().version)
    mover2 = a if a.pending() else b
    mover2.act("add 1", mover2.snapshot().version)  # total 4: a window for the other seat (C-WINDOW)
    table = room.table
    assert table is not None and table.is_window()
    owed = a if a.pending() else b
    await until(lambda: bool(owed.why_notes()))
    assert [n.key for n in owed.why_notes()] == ["why.timeout_pass"]


async def test_a_stand_in_bots_move_is_explained(hub: Hub) -> None:
    """A seat away (its player dropped past the grace period): the stand-in's moves
    read as the player's own in the log; a why-line says a bot played them."""
    h = new_hub(grace_period=1.0)
    await h.start()
    try:
        la = h.connect(Identity(name="alice"))
        a = la.create_room(settings())
        lb = h.connect(Identity(name="bob"))
        b = lb.join(a.room_id)
        b.set_ready(True)
        a.start()
        await ticks()
        room = a.room
        seat = b.my_seat
        assert seat is not None
        h.disconnect(lb)
        await until(lambda: room.seats[seat].autoplay)
        for _ in range(4):
            if a.pending():
                a.act(next(x for x in a.legal() if x != "bell"), a.snapshot().version)
            await until(lambda: a.pending() or room.state != "playing")
            if room.state != "playing":
                break
        keys = {n.key for n in room.why_notes(seat)}
        assert "why.standin" in keys and keys <= {"why.standin", "why.quick_pass"}
        assert {n.key for n in a.why_notes()} <= {"why.quick_pass"}  # alice played her own turns (a window may pass for her)
    finally:
        await h.stop()


async def test_a_quick_windows_pass_says_the_room_passed_on_that_seats_log_alone(hub: Hub) -> None:
    """S-REACT-5 as the count game's C-WINDOW: a seat that may only pass is passed for by
    the room when the window closes; its log says so (it pressed nothing), no one else's."""
    a, b, watcher = await two(hub, window_timer=0)
    room = a.room
    table = room.table
    assert table is not None
    for seat in range(2):
        table._secrets[seat] = 2  # even: nothing to answer but pass (C-WINDOW)
    mover = a if a.pending() else b
    mover.act("add 3", mover.snapshot().version)
    mover2 = a if a.pending() else b
    mover2.act("add 1", mover2.snapshot().version)  # total 4: a window
    owed = a if mover2 is b else b
    await until(lambda: bool(owed.why_notes()), timeout=30)
    assert [n.key for n in owed.why_notes()] == ["why.quick_pass"]
    assert [n.key for n in mover2.why_notes()] == [] and list(watcher.why_notes()) == []
