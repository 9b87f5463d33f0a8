"""server.hub: lobby, identities' seats, restart/restore from the database."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from games import CountView, ticks, until
from hubs import new_hub

from protocol.contract import ClientError, Identity, RoomSettings
from server import hub as hub_module
from server.hub import Hub, LobbySession
from server.room import RoomSession
from server.storage import Storage, room_scope


def settings(**kw: Any) -> RoomSettings:
    base: dict[str, Any] = {"game": "count", "seats": 3, "window_timer": 0, "turn_timer": 0, "strict_windows": True}
    base.update(kw)
    return RoomSettings(**base)


def views(rc: RoomSession) -> list[dict[str, Any]]:
    table = rc.room.table
    assert table is not None
    return [table.view(s).model_dump() for s in [None, *range(table.players)]]


async def test_lobby_basics(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    lb = hub.connect(Identity(name="Bob"))
    hub.connect(Identity(name="alice"))  # a second terminal of alice
    assert la.host_fingerprint == "SHA256:test"
    assert la.games() == [("count", "Count to the Target", 2, 6)]
    assert la.online() == ["alice", "Bob"]
    calls: list[str] = []
    lb.set_listener(lambda: calls.append("b"))
    la.chat("hello \x1b[5mall\x1b[0m")
    la.chat("   ")
    await ticks(2)
    assert [(c.name, c.text) for c in lb.chat_lines()] == [("alice", "hello all")]
    assert calls == ["b"]  # coalesced: connect + chat in one tick
    rc = la.create_room(settings(name="\x1b]0;pwned\x07Friday\u202e night"))
    [summary] = lb.rooms()
    assert summary.id == rc.room_id and summary.name == "Friday night" and summary.host == "alice"
    assert (summary.humans, summary.bots, summary.state, summary.seats) == (1, 0, "waiting", 3)
    rc.add_bot()
    lb.watch(rc.room_id)
    [summary] = lb.rooms()
    assert (summary.humans, summary.bots, summary.spectators) == (1, 1, 1)
    hub.disconnect(lb)
    assert la.online() == ["alice"]


async def test_guests_are_told_apart_online_and_in_their_seats(hub: Hub) -> None:
    """Issue 3, Identities: keyless clients play "shown as guests": in the list
    of who is online and in the seat they take, not only on their own screen."""
    la = hub.connect(Identity(name="alice"))
    lg = hub.connect(Identity(name="visitor", guest=True))
    assert la.online() == ["alice", "visitor"] and la.online_guests() == frozenset({"visitor"})
    rc = la.create_room(settings())
    lg.join(rc.room_id)
    seats = {s.name: s.guest for s in rc.snapshot().seats if s.kind == "human"}
    assert seats == {"alice": False, "visitor": True}
    hub.disconnect(lg)
    assert la.online_guests() == frozenset()


async def test_who_came_and_went_waits_for_the_first_screens(hub: Hub) -> None:
    """While sessions draw their first screen (a burst of logins), the lobby
    screens are not told each login: once, when none is drawing any more."""
    watcher = hub.connect(Identity(name="watcher"))
    calls: list[str] = []
    watcher.set_listener(lambda: calls.append("w"))
    await ticks(2)
    calls.clear()  # its own arrival
    drawing = [True]
    hub.drawing = lambda: drawing[0]
    for i in range(5):
        hub.connect(Identity(name=f"new{i}"))
        await ticks(2)
    await asyncio.sleep(0.2)
    assert calls == []  # not told yet
    assert len(watcher.online()) == 6  # but what it reads is current
    drawing[0] = False
    await until(lambda: calls == ["w"])
    await asyncio.sleep(0.2)
    assert calls == ["w"]  # once for the five
    # nobody drawing: told at once
    hub.connect(Identity(name="late"))
    await ticks(2)
    assert calls == ["w", "w"]
    # anything else the lobby shows is told at once, with who came meanwhile
    drawing[0] = True
    hub.connect(Identity(name="later"))
    watcher.chat("hi")
    await ticks(2)
    assert calls == ["w", "w", "w"]
    await asyncio.sleep(0.2)
    assert calls == ["w", "w", "w"]  # the held-back login was told with the chat line


async def test_logins_that_keep_drawing_hold_back_who_came_only_so_long(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "PRESENCE_WAIT_MAX", 0.3)
    watcher = hub.connect(Identity(name="watcher"))
    calls: list[float] = []
    loop = asyncio.get_running_loop()
    watcher.set_listener(lambda: calls.append(loop.time()))
    await ticks(2)
    calls.clear()  # its own arrival
    hub.drawing = lambda: True  # a login stuck before its first frame
    t0 = loop.time()
    hub.connect(Identity(name="newcomer"))
    await until(lambda: len(calls) == 1)
    assert 0.3 <= calls[0] - t0 < 1.0
    assert watcher.online() == ["newcomer", "watcher"]
    hub.disconnect(watcher)  # gone: online() is recounted
    assert hub.online() == ["newcomer"]


async def test_create_room_is_validated(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    cases: list[tuple[RoomSettings, str]] = [
        (settings(game="chess"), "bad-game"),
        (settings(seats=7), "bad-seats"),
        (settings(options={"rounds": 9}), "bad-options"),
        (settings(options={"target": "lots"}), "bad-options"),
    ]
    for bad, code in cases:
        with pytest.raises(ClientError) as err:
            la.create_room(bad)
        assert err.value.code == code
    assert la.rooms() == []
    rc = la.create_room(settings(turn_timer=100000, options={"rounds": 1}))
    snap = rc.snapshot()
    assert snap.settings.turn_timer == 600  # capped
    assert snap.settings.options == {"rounds": 1, "target": 12}  # normalised by the game's model
    assert snap.settings.bot_delay == 0.0  # the hub's default when the screen sets none
    assert snap.settings.name == ""  # unnamed: each screen calls it the host's table in its own language
    with pytest.raises(ClientError) as err:
        la.join("999")
    assert err.value.code == "no-room"


async def test_one_seat_per_identity(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    first = la.create_room(settings())
    second = la.create_room(settings())  # leaves the first (waiting) room; nobody left there: it closes
    assert first.closed and first.room_id not in hub.rooms
    lb = hub.connect(Identity(name="bob"))
    b = lb.join(second.room_id)
    b.set_ready(True)
    second.start()
    with pytest.raises(ClientError) as err:
        la.create_room(settings())  # alice's seat is in a match being played
    assert err.value.code == "in-match"
    with pytest.raises(ClientError) as err:
        hub.connect(Identity(name="carol")).join(second.room_id)
    assert err.value.code == "in-progress"
    watcher = hub.connect(Identity(name="carol")).watch(second.room_id)
    assert watcher.my_seat is None


async def test_set_lang_is_kept_with_the_identity(hub: Hub) -> None:
    hub.storage.claim_name("alice", "SHA256:a")
    la = hub.connect(Identity(name="alice", lang="en"))
    la.set_lang("zh")
    assert la.identity.lang == "zh"
    assert hub.storage.get_lang("alice") == "zh"
    assert hub.connect(Identity(name="alice", lang="en")).identity.lang == "zh"
    guest = hub.connect(Identity(name="guest-7", guest=True))
    guest.set_lang("zh")
    assert guest.identity.lang == "zh" and hub.storage.get_lang("guest-7") is None


async def test_a_guests_language_is_kept_for_them_over_a_restart(tmp_path: Path) -> None:
    """A guest who chose Chinese comes back in Chinese (same name, same address),
    after a restart too; another guest of that name elsewhere, and a key that claims
    the name later, do not get it."""
    db = tmp_path / "db.sqlite"
    first = new_hub(Storage(db))
    await first.start()
    try:
        first.connect(Identity(name="Gina", guest=True, address="192.0.2.7")).set_lang("zh")
    finally:
        await first.stop()
        first.storage.close()
    hub = new_hub(Storage(db))
    await hub.start()
    try:
        assert hub.connect(Identity(name="gina", guest=True, lang="en", address="192.0.2.7")).identity.lang == "zh"
        assert hub.connect(Identity(name="gina", guest=True, lang="en", address="198.51.100.1")).identity.lang == "en"
        hub.storage.claim_name("gina", "SHA256:g")
        assert hub.connect(Identity(name="gina", lang="en", address="192.0.2.7")).identity.lang == "en"
        back = hub.connect(Identity(name="gina", guest=True, address="192.0.2.7"))
        back.set_lang("en")
        assert hub.connect(Identity(name="gina", guest=True, lang="zh", address="192.0.2.7")).identity.lang == "en"
    finally:
        await hub.stop()


async def test_the_bell_setting_is_kept_with_the_identity(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    assert la.identity.bell is True  # rings unless turned off
    la.set_bell(False)
    assert la.identity.bell is False and hub.storage.get_bell("alice") is False
    again = hub.connect(Identity(name="alice"))  # the next login
    assert again.identity.bell is False
    guest = hub.connect(Identity(name="guest-8", guest=True))
    guest.set_bell(False)  # for this session only: a guest's name is nobody's
    assert guest.identity.bell is False and hub.storage.get_bell("guest-8") is None
    assert hub.connect(Identity(name="guest-8", guest=True)).identity.bell is True


async def test_empty_waiting_room_closes(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    rc = la.create_room(settings())
    room_id = rc.room_id
    rc.leave()
    assert room_id not in hub.rooms and la.rooms() == []
    stored = hub.storage.room(room_id)
    assert stored is not None and stored.closed is not None


async def test_host_passes_on_when_the_host_leaves(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings())
    b = hub.connect(Identity(name="bob")).join(a.room_id)
    a.leave()
    assert b.snapshot().host == "bob"
    b.add_bot()  # bob may now act as host


async def _play(clients: list[RoomSession], n: int) -> None:
    """Play ``n`` actions by whichever human is pending (first non-bell choice)."""
    for _ in range(n):
        mover = next(c for c in clients if c.pending())
        mover.act(next(x for x in mover.legal() if x != "bell"), mover.snapshot().version)
        await ticks()


async def test_restart_restores_the_match_from_the_log(tmp_path: Path) -> None:
    db = tmp_path / "data" / "throneroom.db"
    st1 = Storage(db)
    h1 = new_hub(st1, intermission=3600.0)  # round breaks last an hour on the first server
    await h1.start()
    la, lb = h1.connect(Identity(name="alice")), h1.connect(Identity(name="bob"))
    a = la.create_room(settings(seats=3, options={"rounds": 2, "target": 9}))
    b = lb.join(a.room_id)
    b.set_ready(True)
    a.start()  # seat 2 is a bot
    await ticks()
    await _play([a, b], 3)
    room_id, seat_b = a.room_id, b.my_seat
    before = views(a)
    before_log = st1.match_log(a.room.match_id or 0)
    assert before_log
    await h1.stop()
    st1.close()

    st2 = Storage(db)
    h2 = new_hub(st2, intermission=3600.0)
    await h2.start()  # nothing runs until we yield: compare the restored state as it is
    try:
        assert list(h2.rooms) == [room_id]
        room = h2.rooms[room_id]
        assert room.state == "playing" and room.host == "alice"
        table = room.table
        assert table is not None
        assert [table.view(s).model_dump() for s in [None, *range(table.players)]] == before
        assert [s.name for s in room.snapshot().seats] == ["alice", "bob", "Bot 3"]
        assert all(not s.connected for s in room.snapshot().seats if s.kind == "human")
        # players reconnect to their seats
        b2 = h2.connect(Identity(name="bob")).current_room()
        a2 = h2.connect(Identity(name="alice")).current_room()
        assert b2 is not None and a2 is not None
        assert b2.room_id == room_id and b2.my_seat == seat_b and a2.my_seat == 0
        assert views(b2) == before
        # and play on: the log continues where it stopped
        await ticks()
        while not room.table.between_rounds() if room.table else False:
            await _play([a2, b2], 1)
        log2 = st2.match_log(room.match_id or 0)
        assert log2[: len(before_log)] == before_log and len(log2) > len(before_log)
        assert [e.seq for e in log2] == list(range(len(log2)))
        between = views(a2)
    finally:
        await h2.stop()
        st2.close()

    # a restart during the break between rounds deals the next round after the intermission
    st3 = Storage(db)
    h3 = new_hub(st3, intermission=0.0)
    await h3.start()
    try:
        room = h3.rooms[room_id]
        assert room.table is not None and room.table.between_rounds()
        assert views(h3.connect(Identity(name="alice")).current_room() or a) == between
        await until(lambda: room.table is not None and not room.table.between_rounds())
        entries = st3.match_log(room.match_id or 0)
        assert entries[-1].kind == "next-round"
        v = room.view(0)
        assert isinstance(v, CountView) and v.round == 2
    finally:
        await h3.stop()
        st3.close()


async def test_a_restart_keeps_the_lobby_chat_and_a_restored_room_s_chat(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1, bot_delay=3600.0)
    await h1.start()
    la, lb = h1.connect(Identity(name="alice")), h1.connect(Identity(name="bob"))
    la.chat("good evening [b]all[/b]")
    a = la.create_room(settings(seats=3, bot_delay=3600.0))
    b = lb.join(a.room_id)
    b.chat("I bluff, you know")
    b.set_ready(True)
    a.start()
    a.chat("we will see")
    waiting = h1.connect(Identity(name="carol")).create_room(settings(seats=3))
    waiting.chat("anyone?")  # a room still waiting comes back with its chat (below)
    empty = h1.connect(Identity(name="erin")).create_room(settings(seats=3))
    empty.chat("nobody here")
    empty.leave()  # a room nobody sits in closes, its chat with it
    before = [(line.name, line.text, line.key) for line in a.chat_lines()]
    await h1.stop()
    st1.close()

    st2 = Storage(db)
    h2 = new_hub(st2, bot_delay=3600.0)
    await h2.start()
    try:
        assert list(h2.rooms) == [a.room_id, waiting.room_id]
        lobby = h2.connect(Identity(name="dave"))
        assert [(line.name, line.text) for line in lobby.chat_lines()] == [("alice", "good evening [b]all[/b]")]
        a2 = h2.connect(Identity(name="alice")).current_room()
        assert a2 is not None
        after = [(line.name, line.text, line.key) for line in a2.chat_lines()]
        assert after[: len(before)] == before and ("bob", "I bluff, you know", None) in before
        assert after[len(before)][2] == "sys.restarted"
        assert [line.text for line in h2.rooms[waiting.room_id].chat if line.name == "carol"] == ["anyone?"]
        assert st2.chat_lines(room_scope(empty.room_id)) == []
    finally:
        await h2.stop()
        st2.close()


async def restart(hub: Hub, storage: Storage, db: Path, **kw: Any) -> tuple[Hub, Storage]:
    """Stop ``hub`` as the server does and start another on the same database."""
    hub.begin_stop()
    await hub.stop()
    storage.close()
    again = Storage(db)
    h = new_hub(again, **kw)
    await h.start()
    return h, again


async def test_a_restart_brings_back_a_waiting_room_its_seats_bots_and_host(tmp_path: Path) -> None:
    """Issue 3, Persistence: a restart is a dropped connection for the players
    of a room still waiting too: the same seats, bots, host, settings, ready
    marks and chat; whoever is not back within the grace period gives the seat up."""
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1)
    await h1.start()
    la, lb, lc = (h1.connect(Identity(name=n, guest=n == "carol")) for n in ("alice", "bob", "carol"))
    a = la.create_room(settings(seats=5, name="Friday", private=True, code="Swan"))
    b = lb.join(a.room_id, code="swan")
    c = lc.join(a.room_id, code="SWAN")
    b.take_seat(4)
    a.add_bot(1)
    b.set_ready(True)
    c.chat("brb")
    before = [(s.kind, s.name, s.guest) for s in a.snapshot().seats]
    assert before == [("human", "alice", False), ("bot", "Bot 2", False), ("human", "carol", True),
                      ("empty", "", False), ("human", "bob", False)]
    room_id = a.room_id
    h2, st2 = await restart(h1, st1, db, grace_period=3600.0)
    try:
        room = h2.rooms[room_id]
        snap = room.snapshot()
        assert snap.state == "waiting" and snap.host == "alice" and snap.settings.name == "Friday"
        assert snap.settings.private and snap.settings.code == "Swan"
        assert [(s.kind, s.name, s.guest) for s in snap.seats] == before
        assert not any(s.connected for s in snap.seats)
        assert [s.ready for s in snap.seats] == [False, False, False, False, True]  # bob was ready: he still is
        [summary] = h2.connect(Identity(name="dave")).rooms()
        assert (summary.humans, summary.bots, summary.state) == (3, 1, "waiting")
        b2 = h2.connect(Identity(name="bob")).current_room()  # straight back to the seat, no code asked
        assert b2 is not None and b2.room_id == room_id and b2.my_seat == 4
        assert room.snapshot().seats[4].connected
        lines = [(line.name, line.text, line.key) for line in b2.chat_lines()]
        assert ("carol", "brb", None) in lines and lines[-1][2] == "sys.restarted_room"
        # carol and alice do not come back: their seats go after the grace period
        room.env.grace_period = 0.0
        for seat in room.humans():
            if seat.sessions == 0:
                room._start_grace(seat)
        await until(lambda: len(room.humans()) == 1)
        assert room.host == "bob" and [s.name for s in room.humans()] == ["bob"]
        b2.start()  # the new host plays with the bot kept from before the restart, and new ones
        assert room.state == "playing" and [s.kind for s in room.seats] == ["bot", "bot", "bot", "bot", "human"]
    finally:
        await h2.stop()
        st2.close()


async def test_a_restart_brings_back_a_finished_match_s_result_once(tmp_path: Path) -> None:
    """A room showing a match's result comes back showing it (replayed from
    its log, not recorded twice), and its host can play again from there."""
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1)
    await h1.start()
    la, lb = h1.connect(Identity(name="alice")), h1.connect(Identity(name="bob"))
    a = la.create_room(settings(seats=3, options={"rounds": 1, "target": 9}))
    b = lb.join(a.room_id)
    b.set_ready(True)
    a.start()
    await ticks()
    while a.room.state == "playing":
        await _play([a, b], 1)
    room_id, match_id = a.room_id, a.room.match_id
    before = views(a)
    board = st1.leaderboard()
    h2, st2 = await restart(h1, st1, db, grace_period=3600.0)
    try:
        room = h2.rooms[room_id]
        assert room.state == "finished" and room.match_id == match_id
        a2 = h2.connect(Identity(name="alice")).current_room()
        assert a2 is not None and a2.my_seat == 0 and a2.snapshot().state == "finished"
        assert views(a2) == before
        assert a2.snapshot().names == ["alice", "bob", "Bot 3"]
        assert st2.leaderboard() == board and st2.unfinished_matches() == []
        b2 = h2.connect(Identity(name="bob")).current_room()
        assert b2 is not None
        a2.play_again()
        assert room.state == "playing" and room.match_id != match_id
    finally:
        await h2.stop()
        st2.close()


async def test_a_lineup_that_no_longer_reads_closes_its_room(tmp_path: Path) -> None:
    """Kept seats that do not fit the room (or name a game no longer offered)
    close it at the start, with a line in the log: the server still starts."""
    st = Storage(tmp_path / "db.sqlite")
    odd = st.create_room(settings(seats=3).model_dump(mode="json"), "alice")
    st.save_lineup(odd, {"state": "waiting", "match": None, "seats": [{"kind": "human", "name": "alice"}]})
    gone = st.create_room(settings(game="nosuchgame").model_dump(mode="json"), "bob")
    st.save_lineup(gone, {"state": "waiting", "match": None, "seats": [{"kind": "human", "name": "bob"}] * 3})
    bots = st.create_room(settings(seats=2).model_dump(mode="json"), "carol")
    st.save_lineup(bots, {"state": "waiting", "match": None, "seats": [{"kind": "bot"}] * 2})
    h = new_hub(st)
    await h.start()
    try:
        assert h.rooms == {} and st.open_rooms() == []
    finally:
        await h.stop()
        st.close()


async def test_restore_with_only_bots_plays_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    st = Storage(db)
    h1 = new_hub(st, bot_delay=3600.0)  # bots think for an hour: nothing moves before the restart
    await h1.start()
    a = h1.connect(Identity(name="alice")).create_room(settings(seats=4, options={"rounds": 2}, bot_delay=3600.0))
    a.start()
    a.leave()
    room_id = a.room_id
    await h1.stop()
    st.close()
    st2 = Storage(db)
    h2 = new_hub(st2)
    await h2.start()
    try:
        room = h2.rooms[room_id]
        room.settings.bot_delay = 0.0
        room._wake_bots()
        await until(lambda: room.state == "finished")
        assert st2.unfinished_matches() == []
        assert [r.name for r in st2.leaderboard()] == ["alice"]
    finally:
        await h2.stop()
        st2.close()


async def test_unreplayable_match_is_abandoned_not_fatal(tmp_path: Path) -> None:
    st = Storage(tmp_path / "db.sqlite")
    room_id = st.create_room(settings().model_dump(mode="json"), "alice")
    from server.storage import SeatRecord

    match = st.start_match(room_id, "count", 1, {"rounds": 1, "target": 12}, [SeatRecord("human", "alice"), SeatRecord("bot")])
    st.append_action(match, 0, 1, "add 3")  # seat 1 is not on turn in round 1: cannot replay
    gone = st.start_match(st.create_room({}, "x"), "nosuchgame", 1, {}, [SeatRecord("bot"), SeatRecord("bot")])
    h = new_hub(st)
    await h.start()
    try:
        assert h.rooms == {}
        assert st.unfinished_matches() == []
        assert gone > match
    finally:
        await h.stop()
        st.close()


async def test_lobby_session_is_a_lobby_client(hub: Hub) -> None:
    from protocol.contract import LobbyClient, RoomClient

    la: LobbyClient = hub.connect(Identity(name="alice"))
    rc: RoomClient = la.create_room(settings())
    assert isinstance(la, LobbySession) and isinstance(rc, RoomSession)


async def test_spectator_joins_then_drops_the_watching_handle(hub: Hub) -> None:
    """The screens' flow: watch a waiting room, then take a seat with ``join``
    and ``leave`` the old watching handle."""
    a = hub.connect(Identity(name="alice")).create_room(settings())
    lb = hub.connect(Identity(name="bob"))
    watching = lb.watch(a.room_id)
    assert a.snapshot().spectators == ["bob"]
    seated = lb.join(a.room_id)
    watching.leave()
    assert seated.my_seat == 1 and not seated.closed
    snap = a.snapshot()
    assert snap.spectators == [] and snap.seats[1].name == "bob" and snap.seats[1].connected
    assert lb.current_room() is seated
    seated.take_seat(2)
    assert seated.my_seat == 2 and a.snapshot().seats[2].connected


async def test_leaving_a_match_and_coming_back(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=2, bot_delay=3600.0))
    lb = hub.connect(Identity(name="bob"))
    b = lb.join(a.room_id)
    b.set_ready(True)
    a.start()
    b.leave()  # mid-match: the seat stays bob's, a bot plays it at once
    seat = a.snapshot().seats[1]
    assert seat.name == "bob" and seat.autoplay and not seat.connected
    assert lb.current_room() is not None  # and bob gets it back
    seat = a.snapshot().seats[1]
    assert not seat.autoplay and seat.connected


async def test_a_guest_seat_holds_its_name_while_the_room_is_open(hub: Hub) -> None:
    """The SSH layer asks this before a key may own a name (server.ssh): seats
    go by name, so a key claiming a seated guest's name would take the seat."""
    guest = hub.connect(Identity(name="Gwen", guest=True))
    owner = hub.connect(Identity(name="kim"))
    rc = guest.create_room(settings())
    owner.join(rc.room_id)
    assert hub.guest_seated("gwen") and hub.guest_seated("GWEN")
    assert not hub.guest_seated("kim")  # a key's seat
    assert not hub.guest_seated("nobody")
    other = hub.connect(Identity(name="Hal", guest=True))
    other.join(rc.room_id).leave()  # sat down, then gave the seat up
    assert not hub.guest_seated("Hal")
    hub.disconnect(guest)  # gone, but the seat waits for its grace period
    assert hub.guest_seated("Gwen")


async def test_watchers_are_put_back_after_a_restart_but_not_who_left(tmp_path: Path) -> None:
    """Issue 44 item 8: a spectator of a room that survives a restart (a match
    being played, a waiting room) comes back watching it when they connect
    again, as seated players come back to their seats; a watcher who left the
    room, or went to watch another, lands in the lobby; a seat wins over a watch."""
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1, time_scale=1.0, grace_period=60.0)
    await h1.start()
    la, lb = h1.connect(Identity(name="alice")), h1.connect(Identity(name="bob"))
    playing = la.create_room(settings(options={"rounds": 2, "target": 9}))
    playing.start()
    waiting = lb.create_room(settings())
    carol = h1.connect(Identity(name="carol"))
    carol.watch(playing.room_id)
    h1.connect(Identity(name="Dave")).watch(waiting.room_id)
    h1.connect(Identity(name="zed", guest=True)).watch(waiting.room_id)
    erin = h1.connect(Identity(name="erin"))
    erin.watch(waiting.room_id).leave()  # left on purpose: not put back
    frank = h1.connect(Identity(name="frank"))
    frank.watch(waiting.room_id)
    frank.watch(playing.room_id)  # went on to watch the other room: put back there
    h1.connect(Identity(name="bob")).watch(playing.room_id)  # bob's seat wins over his watch
    h1.begin_stop()  # SIGTERM: the sessions end, then the hub stops
    for session in list(h1.sessions):
        h1.disconnect(session)
    await h1.stop()
    st1.close()

    st2 = Storage(db)
    h2 = new_hub(st2, time_scale=1.0, grace_period=60.0)
    await h2.start()
    try:
        assert sorted(h2.rooms) == sorted([playing.room_id, waiting.room_id])
        back = {name: h2.connect(Identity(name=name)).current_room() for name in ("carol", "dave", "erin", "frank", "bob")}
        assert h2.connect(Identity(name="zed")).current_room() is None  # a key's zed is not the guest who watched
        zed = h2.connect(Identity(name="zed", guest=True)).current_room()
        for name, room_id in (("carol", playing.room_id), ("dave", waiting.room_id), ("frank", playing.room_id)):
            rc = back[name]
            assert rc is not None and rc.room_id == room_id and rc.role == "spectator" and rc.my_seat is None, name
        assert zed is not None and zed.room_id == waiting.room_id and zed.role == "spectator"
        assert back["erin"] is None
        bob = back["bob"]
        assert bob is not None and bob.room_id == waiting.room_id and bob.role == "player"
        assert h2.rooms[waiting.room_id].snapshot().spectators == ["dave", "zed"]
        said = [line.params.get("name") for line in h2.rooms[playing.room_id].chat if line.key == "sys.watching"]
        assert said == ["carol", "frank", "bob"]  # when they first came; coming back is no news
    finally:
        await h2.stop()
        st2.close()


async def test_a_watcher_whose_connection_dropped_is_put_back_within_the_grace_period() -> None:
    """Keyed to identity like a seat: a watcher whose connection drops comes
    back watching within the grace period, not after it; after a SIGKILL (no
    session ended) the grace period counts from the restart."""
    now = [1000.0]
    hub = new_hub(time_scale=1.0, grace_period=60.0, clock=lambda: now[0])
    await hub.start()
    try:
        rc = hub.connect(Identity(name="alice")).create_room(settings())
        first = hub.connect(Identity(name="carol"))
        first.watch(rc.room_id)
        hub.disconnect(first)
        now[0] += 59
        again = hub.connect(Identity(name="carol"))
        back = again.current_room()
        assert back is not None and back.room_id == rc.room_id and back.role == "spectator"
        hub.disconnect(again)
        now[0] += 61
        assert hub.connect(Identity(name="carol")).current_room() is None
        assert hub.storage.watchers(rc.room_id) == []  # forgotten
    finally:
        await hub.stop()


async def test_a_room_forgets_watchers_who_did_not_come_back_within_the_grace_period() -> None:
    """An evening of watchers coming and going under new names: the room keeps
    only those still within their grace period, in memory and in the database
    (it kept every one of them for as long as the room lived)."""
    now = [1000.0]
    hub = new_hub(time_scale=1.0, grace_period=60.0, clock=lambda: now[0])
    await hub.start()
    try:
        rc = hub.connect(Identity(name="alice")).create_room(settings())
        room = hub.rooms[rc.room_id]
        for i in range(50):
            comer = hub.connect(Identity(name=f"comer{i}"))
            comer.watch(rc.room_id)
            hub.disconnect(comer)
            now[0] += 10
        kept = {w.name for w in hub.storage.watchers(rc.room_id)}
        assert kept == {f"comer{i}" for i in range(43, 50)}  # away at most 60 s (or just kept)
        assert len(room._watchers) == len(kept)
        back = hub.connect(Identity(name="comer49")).current_room()
        assert back is not None and back.role == "spectator"  # the ones in their grace period still come back
    finally:
        await hub.stop()


async def test_after_a_kill_watchers_get_the_grace_period_from_the_restart(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    now = [1000.0]
    st1 = Storage(db)
    h1 = new_hub(st1, time_scale=1.0, grace_period=60.0, clock=lambda: now[0])
    await h1.start()
    rc = h1.connect(Identity(name="alice")).create_room(settings())
    h1.connect(Identity(name="carol")).watch(rc.room_id)
    await h1.stop()  # SIGKILL: no session ended, nothing said
    st1.close()
    now[0] += 3600  # the server was down an hour
    st2 = Storage(db)
    h2 = new_hub(st2, time_scale=1.0, grace_period=60.0, clock=lambda: now[0])
    await h2.start()
    try:
        now[0] += 30
        back = h2.connect(Identity(name="carol")).current_room()
        assert back is not None and back.room_id == rc.room_id and back.role == "spectator"
    finally:
        await h2.stop()
        st2.close()


async def _sigterm(hub: Hub, storage: Storage) -> None:
    """Stop ``hub`` as SIGTERM does: every session ends, then the hub stops."""
    hub.begin_stop()
    for session in list(hub.sessions):
        hub.disconnect(session)
    await hub.stop()
    storage.close()


async def test_a_restart_does_not_give_a_player_who_dropped_a_new_grace_period(tmp_path: Path) -> None:
    """Issue 45 item 9: the grace period of a player whose connection dropped
    counts from the drop, over any number of restarts, in a waiting room and
    in a match (a bot plays for them at its end); one who was here when the
    server stopped has it from the first restart, not from each."""
    db = tmp_path / "db.sqlite"
    now = [1000.0]
    opts: dict[str, Any] = {"time_scale": 1.0, "grace_period": 60.0, "clock": lambda: now[0], "bot_delay": 3600.0}
    st = Storage(db)
    hub = new_hub(st, **opts)
    await hub.start()
    la, lb = hub.connect(Identity(name="alice")), hub.connect(Identity(name="bob"))
    waiting = la.create_room(settings(seats=3))
    lb.join(waiting.room_id)
    lc, ld = hub.connect(Identity(name="carol")), hub.connect(Identity(name="dave"))
    playing = lc.create_room(settings(seats=3, options={"rounds": 2, "target": 40}, bot_delay=3600.0))
    ld.join(playing.room_id).set_ready(True)
    playing.start()
    assert playing.room.state == "playing"
    hub.disconnect(lb)  # bob's and dave's connections drop at 1000
    hub.disconnect(ld)
    now[0] += 30
    await _sigterm(hub, st)  # alice and carol are here when the server stops at 1030

    for step in (20.0, 15.0):  # restarts at 1050 and 1065: bob and dave are gone past 60 s at the second
        now[0] += step
        st = Storage(db)
        hub = new_hub(st, **opts)
        await hub.start()
        room, match = hub.rooms[waiting.room_id], hub.rooms[playing.room_id]
        if now[0] < 1060:
            await ticks(3)
            assert [s.name for s in room.humans()] == ["alice", "bob"]
            assert not any(s.autoplay for s in match.humans())
            await _sigterm(hub, st)
    try:
        await until(lambda: [s.name for s in room.humans()] == ["alice"], timeout=5.0)
        await until(lambda: [s.name for s in match.humans() if s.autoplay] == ["dave"], timeout=5.0)
        assert not match.seats[0].autoplay  # carol, here when the server stopped, has until 1050 + 60
        now[0] += 46  # 1111: a third restart does not give alice and carol another 60 s
        await _sigterm(hub, st)
        st = Storage(db)
        hub = new_hub(st, **opts)
        await hub.start()
        await until(lambda: hub.rooms[playing.room_id].seats[0].autoplay, timeout=5.0)
        await until(lambda: waiting.room_id not in hub.rooms, timeout=5.0)  # its last player's seat went
    finally:
        await hub.stop()
        st.close()
