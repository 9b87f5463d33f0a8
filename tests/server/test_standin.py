"""Nobody stalls a table (issue 43): away seats and their stand-in bots, the host
handing a seat to a stand-in, and a player leaving a running match for good.

Driven through the hub with the counting game (tests/server/games.py): alice
(seat 0) starts each round; C-TIME's default is ``add 1`` on a turn and ``pass``
in a window (the S-TIME-1 / K-TIME-1 defaults of the real games).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from games import CountBot, CountView, make_spec, ticks, until
from hubs import new_hub

from protocol.contract import AWAY_AFTER, ClientError, Identity, RoomSettings
from protocol.i18n import system_line
from server.hub import Hub
from server.room import Room, RoomSession
from server.storage import SeatResult, Storage


def settings(**kw: Any) -> RoomSettings:
    base: dict[str, Any] = {"game": "count", "seats": 2, "window_timer": 0, "turn_timer": 0, "bot_delay": 3600.0}
    base.update(kw)
    return RoomSettings(**base)


async def seated(hub: Hub, *others: str, **kw: Any) -> list[RoomSession]:
    """alice hosts, ``others`` sit down ready, the match starts (bots think for an
    hour unless the test says otherwise). Returns every player's session, alice first."""
    a = hub.connect(Identity(name="alice")).create_room(settings(seats=kw.pop("seats", 1 + len(others)), **kw))
    clients = [a]
    for name in others:
        rc = hub.connect(Identity(name=name)).join(a.room_id)
        rc.set_ready(True)
        clients.append(rc)
    a.start()
    await ticks()
    return clients


async def time_out(room: Room) -> None:
    """The room's timer runs out on the decision now open (as its task does at the deadline)."""
    await room._time_out(room._decision, 0)


def act(rc: RoomSession, text: str) -> None:
    rc.act(text, rc.snapshot().version)


def lines(rc: RoomSession, key: str) -> list[dict[str, str]]:
    return [line.params for line in rc.chat_lines() if line.key == key]


async def make_away(a: RoomSession, b: RoomSession) -> None:
    """alice lets her turn run out twice in a row, bob adding between so that no
    total opens a window (C-WINDOW: a multiple of 4)."""
    room = a.room
    for _ in range(AWAY_AFTER):
        assert a.pending() and not a.snapshot().seats[0].away
        await time_out(room)  # add 1
        now = total(b)
        act(b, f"add {next(k for k in (1, 2, 3) if (now + k) % 4 in (1, 2))}")


def total(rc: RoomSession) -> int:
    view = rc.view()
    assert isinstance(view, CountView)
    return view.total


async def test_two_timeouts_in_a_row_make_a_seat_away_and_a_stand_in_plays_it_at_bot_pace(hub: Hub) -> None:
    """S-TIME-1 / K-TIME-1 defaults twice in a row: the seat is away on every
    screen (its snapshot), the chat says so in both languages, and a stand-in bot
    plays it at the room's bot pace, not at the timer's."""
    a, b = await seated(hub, "bob", options={"rounds": 1, "target": 40})
    room = a.room
    await time_out(room)  # alice: add 1 (1)
    assert not a.snapshot().seats[0].away  # once is no habit
    act(b, "add 1")  # 2
    await time_out(room)  # alice again: add 1 (3)
    seats = b.snapshot().seats
    assert seats[0].away and seats[0].connected and not seats[1].away  # bob acted in time
    [said] = lines(a, "sys.away_standin")
    assert said == {"name": "alice"}
    assert system_line("sys.away_standin", said, "en").startswith("alice is away (time ran out twice in a row)")
    assert system_line("sys.away_standin", said, "zh").startswith("alice 暫離（連續兩次超時）")
    act(b, "add 2")  # 5: alice's turn, played by the stand-in once it has thought
    await ticks(5)
    assert a.pending()  # (it thinks for the room's bot delay: an hour here)
    room.settings.bot_delay = 0.0
    room._wake_bots()
    await until(lambda: not a.pending())
    assert room.match_id is not None
    last = hub.storage.match_log(room.match_id)[-1]
    assert last.seat == 0 and total(a) > 5
    assert a.snapshot().timeouts[0] == 2  # the stand-in's moves are no timeouts


async def test_acting_in_time_resets_the_count_and_a_reaction_let_go_is_none(hub: Hub) -> None:
    """Two timeouts with an action in time between do not make a seat away; a
    reaction window let go (its default a pass: a choice) neither counts nor resets
    (strict windows: bob is asked even with nothing but pass to answer)."""
    a, b = await seated(hub, "bob", options={"rounds": 1, "target": 40}, strict_windows=True)
    room = a.room
    await time_out(room)  # alice: add 1 (1)
    act(b, "add 1")  # 2
    act(a, "add 1")  # 3: in time
    assert room.seats[0].missed == 0
    act(b, "add 2")  # 5
    await time_out(room)  # alice: add 1 (6)
    assert room.seats[0].missed == 1 and not a.snapshot().seats[0].away
    await time_out(room)  # bob: add 1 (7)
    act(a, "add 1")  # 8: a window for bob
    assert b.pending() and "pass" in b.legal()
    await time_out(room)  # bob lets it go
    assert room.seats[1].missed == 1 and not b.snapshot().seats[1].away
    assert not lines(a, "sys.away_standin")


async def test_any_key_gives_the_seat_back_and_so_does_acting(hub: Hub) -> None:
    a, b = await seated(hub, "bob", options={"rounds": 1, "target": 40})
    room = a.room
    await make_away(a, b)
    assert a.snapshot().seats[0].away
    assert not b.come_back()  # bob's seat is his already
    assert a.come_back()  # a key at the table
    seat = a.snapshot().seats[0]
    assert not seat.away and room.seats[0].missed == 0
    assert lines(b, "sys.standin_back") == [{"name": "alice"}]
    assert system_line("sys.standin_back", {"name": "alice"}, "zh") == "alice 回來了，重新自己玩他的座位"
    assert not a.come_back()  # a second key says nothing more
    assert len(lines(b, "sys.standin_back")) == 1
    await make_away(a, b)  # away again
    assert a.snapshot().seats[0].away and a.pending()
    act(a, "add 2")  # an action of its player: theirs again too
    assert not a.snapshot().seats[0].away
    watcher = hub.connect(Identity(name="eve")).watch(a.room_id)
    assert not watcher.come_back()


async def test_the_host_hands_a_seat_to_a_stand_in_and_its_player_takes_it_back(hub: Hub) -> None:
    a, b, c = await seated(hub, "bob", "carol", seats=4, options={"rounds": 1, "target": 40})
    room = a.room
    with pytest.raises(ClientError) as err:
        b.hand_to_standin(2)  # only the host
    assert err.value.code == "not-host"
    with pytest.raises(ClientError) as err:
        a.hand_to_standin(0)  # not the host's own seat: any key of theirs would take it back at once
    assert (err.value.code, err.value.reason) == ("bad-seat", "self-standin")
    with pytest.raises(ClientError) as err:
        a.hand_to_standin(3)  # a bot's
    assert (err.value.code, err.value.reason) == ("bad-seat", "no-player")
    a.hand_to_standin(1)
    assert a.snapshot().seats[1].away and room.seats[1].kind == "human"
    [said] = lines(c, "sys.handed_standin")
    assert said == {"name": "bob", "host": "alice"}
    assert system_line("sys.handed_standin", said, "en") == "the host alice handed bob's seat to a stand-in bot until bob presses a key"
    assert system_line("sys.handed_standin", said, "zh") == "房主 alice 把 bob 的座位交給代打電腦，直到 bob 按任一鍵"
    with pytest.raises(ClientError) as err:
        a.hand_to_standin(1)
    assert (err.value.code, err.value.reason) == ("bad-seat", "standin")
    act(a, "add 1")  # bob's turn: his stand-in plays it
    room.settings.bot_delay = 0.0
    room._wake_bots()
    await until(lambda: not b.pending())
    assert room.match_id is not None and [e.seat for e in hub.storage.match_log(room.match_id)][:2] == [0, 1]
    assert b.come_back()
    assert not a.snapshot().seats[1].away and lines(a, "sys.standin_back") == [{"name": "bob"}]


async def test_no_stand_in_is_handed_a_seat_before_the_match(hub: Hub) -> None:
    a = hub.connect(Identity(name="alice")).create_room(settings(seats=3))
    hub.connect(Identity(name="bob")).join(a.room_id)
    with pytest.raises(ClientError) as err:
        a.hand_to_standin(1)
    assert err.value.code == "not-playing"


async def test_a_player_leaves_a_running_match_a_bot_plays_it_out_and_the_result_marks_it(hub: Hub) -> None:
    """Leaving for good: a bot plays the seat to the end, the result marks the
    seat as left (a match played, never won, no points, on the leaderboard),
    and the player may sit down elsewhere at once (it was refused as "in-match")."""
    a, b = await seated(hub, "bob", options={"rounds": 1, "target": 12}, bot_delay=0.0)
    lb = next(s for s in hub.sessions if s.identity.name == "bob")
    room = a.room
    other = hub.connect(Identity(name="dave")).create_room(settings())
    with pytest.raises(ClientError) as err:
        lb.join(other.room_id)  # seated in a match being played: as before
    assert err.value.code == "in-match"
    b.leave_match()
    assert b.closed and lb.current_room() is None and hub.seated_room("bob") is None
    seat = a.snapshot().seats[1]
    assert (seat.kind, seat.name, seat.left, seat.away) == ("bot", "bob", True, False)
    assert lines(a, "sys.left_match") == [{"name": "bob"}]
    assert system_line("sys.left_match", {"name": "bob"}, "zh") == "bob 退出了比賽；由電腦代打他的座位直到結束"
    joined = lb.join(other.room_id)  # free at once
    assert joined.my_seat == 1
    with pytest.raises(ClientError) as err:
        b.act("add 1", b.snapshot().version if not b.closed else 0)
    assert err.value.code == "closed"
    while room.state == "playing":  # alice plays on; the bot plays bob's seat
        if a.pending():
            act(a, next(x for x in a.legal() if x != "bell"))
        await ticks()
    assert room.match_id is not None
    results = hub.storage.match_results(room.match_id)
    assert [(r.name, r.kind, r.left) for r in results] == [("alice", "human", False), ("bob", "human", True)]
    board = {row.name: row for row in hub.storage.leaderboard()}
    assert (board["bob"].matches, board["bob"].wins, board["bob"].points) == (1, 0, 0)
    assert a.snapshot().seats[1].left  # the result still says so
    a.play_again()  # the next match: a bot's seat like any other
    seat = a.snapshot().seats[1]
    assert (seat.kind, seat.name, seat.left) == ("bot", "Bot 2", False)


async def test_leaving_a_match_is_for_seated_players_while_it_is_played(hub: Hub) -> None:
    a = hub.connect(Identity(name="alice")).create_room(settings())
    with pytest.raises(ClientError) as err:
        a.leave_match()  # the room waits: Escape leaves it
    assert err.value.code == "not-playing"
    a.start()
    watcher = hub.connect(Identity(name="eve")).watch(a.room_id)
    with pytest.raises(ClientError) as err:
        watcher.leave_match()
    assert err.value.code == "not-seated"


async def test_the_host_leaving_hands_the_room_on_and_the_last_player_leaving_closes_it_at_the_end(hub: Hub) -> None:
    a, b = await seated(hub, "bob", options={"rounds": 1, "target": 12}, bot_delay=3600.0)
    room = a.room
    a.leave_match()
    assert room.host == "bob" and lines(b, "sys.new_host") == [{"name": "bob"}]
    b.leave_match()  # nobody left at the table: the bots play it out, the results are kept
    assert not room.closed and room.state == "playing"
    room.settings.bot_delay = 0.0
    room._wake_bots()
    await until(lambda: room.closed)
    assert room.match_id is not None
    assert [r.left for r in hub.storage.match_results(room.match_id)] == [True, True]


async def test_a_left_seat_stays_left_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1)
    await h1.start()
    a, b = await seated(h1, "bob", options={"rounds": 1, "target": 12})
    room_id = a.room_id
    act(a, "add 1")
    b.leave_match()
    h1.begin_stop()
    await h1.stop()
    st1.close()
    st2 = Storage(db)
    h2 = new_hub(st2)
    await h2.start()
    try:
        room = h2.rooms[room_id]
        seat = room.snapshot().seats[1]
        assert (seat.kind, seat.name, seat.left) == ("bot", "bob", True)
        lb = h2.connect(Identity(name="bob"))
        assert lb.current_room() is None and lb.create_room(settings()).my_seat == 0  # still free
        a2 = h2.connect(Identity(name="alice")).current_room()
        assert a2 is not None and a2.my_seat == 0
        room.settings.bot_delay = 0.0
        while room.state == "playing":
            if a2.pending():
                act(a2, next(x for x in a2.legal() if x != "bell"))
            await ticks()
        assert room.match_id is not None
        assert [(r.name, r.left) for r in st2.match_results(room.match_id)] == [("alice", False), ("bob", True)]
    finally:
        await h2.stop()
        st2.close()


def test_a_left_seat_counts_as_a_match_played_and_not_won(tmp_path: Path) -> None:
    """Even where the bot that played it out won: its points and win are not the player's."""
    st = Storage(tmp_path / "db.sqlite")
    room = st.create_room({}, "alice")
    for left in (True, False):
        match = st.start_match(room, "count", 1, {}, [])
        st.finish_match(match, [
            SeatResult(seat=0, name="alice", kind="human", points=5, win=True, left=left),
            SeatResult(seat=1, name="bob", kind="human", points=2, win=False),
        ])
    board = {row.name: (row.matches, row.wins, row.points) for row in st.leaderboard()}
    assert board == {"alice": (2, 1, 5), "bob": (2, 0, 4)}
    assert [r.left for r in st.match_results(1)] == [True, False]
    st.close()


async def test_a_stand_in_plays_at_the_normal_level_whatever_the_room_s_bots_play() -> None:
    """The room's bots play easy here; the stand-ins (away, handed over, left) play normal."""
    made: list[tuple[int, str]] = []

    def new_bot(seat: int, kind: str, seed: int) -> CountBot:
        made.append((seat, kind))
        return CountBot(seat, kind, seed)

    hub = new_hub(games={"count": make_spec(new_bot)})
    await hub.start()
    try:
        a, b, _c = await seated(hub, "bob", "carol", seats=4, bot_level="easy", options={"rounds": 1, "target": 40})
        room = a.room
        for _ in range(AWAY_AFTER):  # alice's time ran out twice in a row
            room._count_missed([0])
        assert room.seats[0].away
        a.hand_to_standin(2)  # carol's
        b.leave_match()  # bob's
        room.settings.bot_delay = 0.0
        room._wake_bots()
        await until(lambda: {0, 1, 2, 3} <= {seat for seat, _ in made})
        assert sorted(set(made)) == [(0, "normal"), (1, "normal"), (2, "normal"), (3, "easy")]
    finally:
        await hub.stop()


async def test_the_server_s_config_sets_how_many_timeouts_make_a_seat_away() -> None:
    """``[rooms] away_after`` (here 3): two timeouts in a row are not yet away, the third is."""
    hub = new_hub(away_after=3)
    await hub.start()
    try:
        a, b = await seated(hub, "bob", options={"rounds": 1, "target": 40})
        await make_away(a, b)  # two in a row
        assert not a.snapshot().seats[0].away and a.room.seats[0].missed == 2
        await time_out(a.room)
        assert a.snapshot().seats[0].away
    finally:
        await hub.stop()


async def test_a_finished_match_s_left_seat_is_still_marked_after_a_restart(tmp_path: Path) -> None:
    """A room showing a result comes back showing it (its lineup): the seat its player
    left is still marked left, under their name."""
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1)
    await h1.start()
    a, b = await seated(h1, "bob", options={"rounds": 1, "target": 12}, bot_delay=0.0)
    room, room_id = a.room, a.room_id
    b.leave_match()
    while room.state == "playing":
        if a.pending():
            act(a, next(x for x in a.legal() if x != "bell"))
        await ticks()
    h1.begin_stop()
    await h1.stop()
    st1.close()
    st2 = Storage(db)
    h2 = new_hub(st2, grace_period=3600.0)
    await h2.start()
    try:
        again = h2.rooms[room_id]
        assert again.state == "finished"
        seat = again.snapshot().seats[1]
        assert (seat.kind, seat.name, seat.left) == ("bot", "bob", True)
    finally:
        await h2.stop()
        st2.close()


async def test_a_round_s_result_waits_for_no_seat_a_stand_in_plays_nor_one_left() -> None:
    """Between rounds the table waits for its humans to go on (issue 43): not for one
    away (a stand-in plays the seat) nor for one who left the match."""
    from test_between_rounds import round_of, to_round_end

    for how in ("standin", "left"):
        hub = new_hub(time_scale=0.01, intermission=None)  # the room's own between-rounds time: 0.3 s here
        await hub.start()
        try:
            _, (a, b, _c), room = await to_round_end(hub, seats=3)
            assert a.snapshot().holding == [0, 1, 2]
            a.go_on()
            b.go_on()
            assert round_of(room) == 1 and a.snapshot().went_on == [0, 1]  # carol still reads it
            if how == "standin":
                a.hand_to_standin(2)
            else:
                _c.leave_match()
            assert round_of(room) == 2, how  # carol holds nothing any more: dealt at once
        finally:
            await hub.stop()
