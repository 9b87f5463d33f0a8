"""The room runtime (server.room) driven through the hub with the counting game.

Rules of the test game (C-...) are in tests/server/games.py.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import pytest
from games import CountBot, CountOptions, CountTable, CountView, make_spec, ticks, until
from hubs import new_hub
from pydantic import BaseModel

from engine.api import Bot
from protocol.contract import ClientError, Identity, RoomSettings
from protocol.i18n import system_line
from server.hub import Hub, LobbySession
from server.room import Room, RoomSession
from server.room.chat import CHAT_BURST, CHAT_EVERY
from server.storage import CHAT_HISTORY, StorageError


def settings(**kw: Any) -> RoomSettings:
    base: dict[str, Any] = {"game": "count", "seats": 2, "window_timer": 0, "turn_timer": 0, "strict_windows": True}
    base.update(kw)
    return RoomSettings(**base)


def room_of(rc: RoomSession) -> Room:
    return rc.room


def cview(rc: RoomSession) -> CountView:
    v = rc.view()
    assert isinstance(v, CountView)
    return v


async def two_players(hub: Hub, **kw: Any) -> tuple[LobbySession, RoomSession, LobbySession, RoomSession]:
    """alice hosts, bob joins, both ready, started; no bots."""
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(**kw))
    lb = hub.connect(Identity(name="bob"))
    b = lb.join(a.room_id)
    b.set_ready(True)
    a.start()
    await ticks()
    return la, a, lb, b


def window_open(hub: Hub, others: Sequence[str], **kw: Any) -> tuple[RoomSession, list[RoomSession]]:
    """alice hosts, ``others`` sit down ready, the match starts and the count is driven
    to 4 (add 1, add 3) so a reaction window opens (C-WINDOW). Returns alice's session
    and every seat's, alice first."""
    a = hub.connect(Identity(name="alice")).create_room(settings(seats=1 + len(others), **kw))
    clients = [a]
    for name in others:
        rc = hub.connect(Identity(name=name)).join(a.room_id)
        rc.set_ready(True)
        clients.append(rc)
    a.start()
    for amount in (1, 3):
        mover = next(c for c in clients if c.pending())
        mover.act(f"add {amount}", mover.snapshot().version)
    return a, clients


async def play_out(room: Room, *players: RoomSession) -> None:
    """``players`` play their first legal action whenever asked until the match ends."""
    while room.state == "playing":
        for rc in players:
            if rc.pending():
                rc.act(rc.legal()[0], rc.snapshot().version)
        await ticks()


def on_turn(a: RoomSession, b: RoomSession) -> tuple[RoomSession, RoomSession]:
    return (a, b) if a.pending() else (b, a)


def log_len(rc: RoomSession) -> int:
    room = room_of(rc)
    assert room.match_id is not None
    return len(room.env.storage.match_log(room.match_id))


async def test_stale_version_is_rejected_and_changes_nothing(hub: Hub) -> None:
    _, a, _, b = await two_players(hub)
    mover, other = on_turn(a, b)
    v0 = mover.snapshot().version
    with pytest.raises(ClientError) as err:
        mover.act("add 1", v0 + 1)  # a version from the future
    assert err.value.code == "stale"
    mover.act("add 1", v0)
    assert mover.snapshot().version == v0 + 1
    # `other` is now on turn: its legal list changed at v0 + 1, so v0 is stale for it
    assert other.pending()
    with pytest.raises(ClientError) as err:
        other.act("add 1", v0)
    assert err.value.code == "stale"
    # the first mover's old version is stale too: its own legal list changed
    with pytest.raises(ClientError) as err:
        mover.act("bell", v0)
    assert err.value.code == "stale"
    assert mover.snapshot().version == v0 + 1 and log_len(a) == 1


async def test_old_version_accepted_when_the_seats_choices_did_not_change(hub: Hub) -> None:
    a, clients = window_open(hub, ("bob", "carol", "dan"))
    asked = [c for c in clients if c.pending()]
    assert len(asked) == 3 and cview(asked[0]).window_open
    seen = asked[0].snapshot().version
    for c in asked:
        c.act("pass", seen)  # all answer what they saw at the same moment
    assert not cview(a).window_open
    assert a.snapshot().version == seen + 3


async def test_illegal_action_rejected_nothing_changed_or_logged(hub: Hub) -> None:
    _, a, _, b = await two_players(hub)
    mover, other = on_turn(a, b)
    before = [cview(a).model_dump(), cview(b).model_dump()]
    v = mover.snapshot().version
    for who, text in ((mover, "add 4"), (mover, "frobnicate"), (other, "add 1"), (mover, "pass")):
        with pytest.raises(ClientError) as err:
            who.act(text, v)
        assert err.value.code == "illegal", text
    assert mover.snapshot().version == v
    assert [cview(a).model_dump(), cview(b).model_dump()] == before
    assert log_len(a) == 0


async def test_spectator_cannot_act_and_sees_the_public_view(hub: Hub) -> None:
    _, a, _, _ = await two_players(hub)
    watcher = hub.connect(Identity(name="eve")).watch(a.room_id)
    v = watcher.view()
    assert isinstance(v, CountView) and v.seat is None and v.my_secret is None
    assert watcher.my_seat is None and watcher.legal() == [] and not watcher.pending()
    with pytest.raises(ClientError) as err:
        watcher.act("add 1", watcher.snapshot().version)
    assert err.value.code == "not-seated"
    assert "eve" in a.snapshot().spectators


async def test_hidden_info_each_client_gets_only_its_own_view(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=4))
    a.add_bot()
    b = hub.connect(Identity(name="bob")).join(a.room_id)
    b.set_ready(True)
    a.start()
    spectator = hub.connect(Identity(name="eve")).watch(a.room_id)
    table = room_of(a).table
    assert table is not None
    for _ in range(30):
        for rc in (a, b):
            v = cview(rc)
            assert v.seat == rc.my_seat
            assert rc.my_seat is not None
            assert v.model_dump() == table.view(rc.my_seat).model_dump()
            assert v.model_dump() != table.view(3 - rc.my_seat if rc.my_seat < 3 else 0).model_dump()
            # C-DEAL: a seat's own secret only, and its own private answers only
            assert v.my_secret == table.view(rc.my_seat).my_secret  # type: ignore[attr-defined]
        sv = cview(spectator)
        assert sv.seat is None and sv.my_secret is None
        assert all("your secret" not in e for e in sv.events)
        assert all("you answered" not in e for e in sv.events)
        mover = next((c for c in (a, b) if c.pending()), None)
        if mover is None or room_of(a).state != "playing":
            await ticks()
            continue
        legal = [x for x in mover.legal() if x != "bell"]
        mover.act(legal[0], mover.snapshot().version)
        await ticks()


async def test_bots_fill_seats_and_play_a_whole_match(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=5, options={"rounds": 3, "target": 20}))
    a.start()  # empty seats get bots at start
    snap = a.snapshot()
    assert [s.kind for s in snap.seats] == ["human", "bot", "bot", "bot", "bot"]
    a.leave()  # alice leaves the match: a bot plays her seat at once
    room = room_of(a)
    assert room.seats[0].autoplay
    await until(lambda: room.state == "finished")
    table = room.table
    assert table is not None and table.is_over() and table.winners()
    assert room.match_id is not None
    entries = hub.storage.match_log(room.match_id)
    assert sum(e.kind == "next-round" for e in entries) == 2  # C-ROUNDS: 3 rounds
    results = hub.storage.match_results(room.match_id)
    assert [r.points for r in results] == table.standings()
    assert [r.name for r in hub.storage.leaderboard()] == ["alice"]
    # C-BELL: non-pending bots were polled and took the optional action at least once
    view = table.view(None)
    assert isinstance(view, CountView) and view.bells


async def test_turn_timer_plays_the_default_action(hub: Hub) -> None:
    _, a, _, b = await two_players(hub, turn_timer=5)  # 5 ms with time_scale 0.001
    mover, _ = on_turn(a, b)
    seat = mover.my_seat
    snap = mover.snapshot()
    assert snap.deadline is not None
    await until(lambda: log_len(a) >= 1)
    entry = hub.storage.match_log(room_of(a).match_id or 0)[0]
    assert (entry.seat, entry.text) == (seat, "add 1")  # C-TIME: a turn times out with `add 1`
    # the game's log shows "add 1" as if chosen: the chat says the timer chose it
    await until(lambda: any(line.key == "sys.timed_out" for line in a.chat_lines()))
    line = next(line for line in a.chat_lines() if line.key == "sys.timed_out")
    who = mover.snapshot().seats[seat or 0].name
    assert line.system and line.text == f"time ran out for {who}: the room played the default"
    assert system_line(line.key, line.params, "zh") == f"{who} 時間到了：系統代出預設動作"


def _named(rc: RoomSession, key: str = "sys.timed_out") -> list[str]:
    return [line.params.get("names", "") for line in rc.chat_lines() if line.key == key]


async def test_an_idle_player_is_named_once_until_they_act_again(hub: Hub) -> None:
    """C-TIME with S-TIME-1/K-TIME-1's chat line: a player who lets every turn and
    window run out is named once, not at every timeout (it flooded the chat); once
    they act, their next timeout is said again. (Nobody goes away here: a stand-in
    bot would play on; see test_standin.py.)"""
    hub.env.away_after = 10**6
    _, a, _, b = await two_players(hub, turn_timer=5, window_timer=5, options={"rounds": 5, "target": 40})
    await until(lambda: log_len(a) >= 6)  # both idle: six defaults played
    assert sorted(_named(a)) == ["alice", "bob"]
    mover, _ = on_turn(a, b)
    name = "alice" if mover is a else "bob"
    mover.act(mover.legal()[0], mover.snapshot().version)
    await until(lambda: _named(a).count(name) == 2)
    await until(lambda: log_len(a) >= 14)
    assert sorted(_named(a)) == sorted(["alice", "bob", name])


async def test_the_timeout_line_comes_before_the_end_of_match_it_brought(hub: Hub) -> None:
    """The chat names whose time ran out before what their default brought (here the
    end of the match), not after it."""
    _, a, _, b = await two_players(hub, turn_timer=3600, options={"rounds": 1, "target": 5})
    mover, _ = on_turn(a, b)
    mover.act("add 2", mover.snapshot().version)
    mover, _ = on_turn(a, b)
    mover.act("add 2", mover.snapshot().version)  # 4: a window (no timer) for the other seat
    answer = next(c for c in (a, b) if c.pending())
    answer.act("pass", answer.snapshot().version)
    room = room_of(a)
    assert cview(a).total == 4 and room.state == "playing"
    room.settings.turn_timer = 1  # the running timer is for an hour: restart it short
    room._new_decision(room._pending)
    await until(lambda: room.state == "finished")  # the default "add 1" reaches the target
    keys = [line.key for line in a.chat_lines()]
    assert keys.index("sys.timed_out") < keys.index("sys.match_over"), keys


async def test_window_timer_passes_every_seat_still_asked(hub: Hub) -> None:
    a, clients = window_open(hub, ("bob", "carol"), window_timer=3600)
    asked = [c for c in clients if c.pending()]
    assert len(asked) == 2
    deadline = a.snapshot().deadline
    assert deadline is not None
    asked[0].act("pass", asked[0].snapshot().version)
    assert a.snapshot().deadline == deadline  # the window keeps its deadline while seats answer
    room = room_of(a)
    room.settings.window_timer = 1  # (the running timer is for an hour; restart it short)
    room._new_decision(room._pending)
    await until(lambda: not cview(a).window_open)
    entries = hub.storage.match_log(room.match_id or 0)
    assert entries[-1].text == "pass" and entries[-1].seat == asked[1].my_seat
    # a reaction let go is no news: neither the chat nor the seat's prompt says time ran out
    assert not [line for line in a.chat_lines() if line.key == "sys.timed_out"]
    assert a.snapshot().timeouts == [0, 0, 0]


async def test_a_seat_that_acts_in_a_window_and_still_owes_its_answer_keeps_the_window_s_clock(hub: Hub) -> None:
    """S-SUL-2: "a pending seat that claims stays pending", and the window is
    the same window: a claim in a Block window gave everyone its time again
    (seen over ssh: 11 s left, a claim, 11 s again). C-BELL in a window is such
    an action."""
    a, clients = window_open(hub, ("bob", "carol"), window_timer=3600)
    asked = [c for c in clients if c.pending()]
    deadline = a.snapshot().deadline
    assert deadline is not None and "bell" in asked[0].legal()
    asked[0].act("bell", asked[0].snapshot().version)
    assert asked[0].pending() and "bell" not in asked[0].legal()  # still owes its answer
    assert a.snapshot().deadline == deadline
    asked[0].act("pass", asked[0].snapshot().version)
    assert a.snapshot().deadline == deadline and asked[1].pending()


async def test_the_chat_names_the_settings_the_host_changed(hub: Hub) -> None:
    """"the host changed the settings" alone sent everyone to the header to find
    what; an option written out at its default is no change; a code is named,
    never said."""
    a = hub.connect(Identity(name="alice")).create_room(settings(seats=3, options={"rounds": 2}))

    def change(**kw: Any) -> str:
        a.update_settings(a.snapshot().settings.model_copy(update=kw))
        return a.chat_lines()[-1].text

    assert change(turn_timer=30, bot_delay=2.0) == "the host changed the settings: turn timer, bot delay"
    assert change(bot_delay=1.0, options={"rounds": 1}) == "the host changed the settings: rounds, bot delay"  # the dialog's order
    assert change(options={"rounds": 3}) == "the host changed the settings: rounds"  # (from 1)
    assert change(private=True, code="swan") == "the host changed the settings: private"
    line = change(code="heron")
    assert line == "the host changed the settings: code" and "heron" not in line
    n = len(a.chat_lines())
    a.update_settings(a.snapshot().settings.model_copy(update={"options": {"rounds": 3, "target": 12}}))  # 12: its default
    assert len(a.chat_lines()) == n


async def test_reconnect_gets_the_same_seat(hub: Hub) -> None:
    _, a, lb, b = await two_players(hub)
    seat = b.my_seat
    hub.disconnect(lb)
    assert not a.snapshot().seats[seat or 0].connected
    lb2 = hub.connect(Identity(name="bob"))
    back = lb2.current_room()
    assert back is not None and back.room_id == a.room_id and back.my_seat == seat
    assert a.snapshot().seats[seat or 0].connected
    again = lb2.join(a.room_id)  # join of a room where one sits: the same seat
    assert again.my_seat == seat
    assert cview(back).seat == seat


async def test_leaving_from_one_of_two_terminals_gives_the_seat_up_for_both(hub: Hub) -> None:
    """A player in a waiting room on two terminals left from one: the other
    kept the seat (and the host's crown) with its player in the lobby, and
    nothing was said until the second terminal left too."""
    la, lb = hub.connect(Identity(name="alice")), hub.connect(Identity(name="bob"))
    a = la.create_room(settings(seats=3))
    b = lb.join(a.room_id)
    a2 = hub.connect(Identity(name="alice")).current_room()
    assert a2 is not None and a2.my_seat == 0
    a.leave()
    assert a2.closed and a2.my_seat is None
    with pytest.raises(ClientError) as err:
        a2.snapshot()
    assert err.value.code == "closed"  # its screen: "You are no longer in that room."
    room = b.room
    assert room.seats[0].kind == "empty" and room.host == "bob"
    assert [line.key for line in b.chat_lines()][-2:] == ["sys.left", "sys.new_host"]
    assert all(s.identity.name != "alice" for s in room.sessions)
    # mid-match the seat is theirs while a terminal plays it: leaving one is no leaving
    a3 = la.join(room.id)
    a3.set_ready(True)
    b.start()
    a4 = hub.connect(Identity(name="alice")).current_room()
    assert a4 is not None and a4.my_seat == a3.my_seat
    a3.leave()
    assert not a4.closed and not room.seats[a4.my_seat or 0].autoplay


async def test_two_sessions_of_one_identity_share_the_seat(hub: Hub) -> None:
    _, a, lb, b = await two_players(hub)
    lb2 = hub.connect(Identity(name="bob"))
    b2 = lb2.current_room()
    assert b2 is not None and b2.my_seat == b.my_seat
    hub.disconnect(lb)
    room = room_of(a)
    seat = room.seats[b.my_seat or 0]
    assert seat.sessions == 1 and seat.grace is None  # still connected through the second session
    assert hub.online() == ["alice", "bob"]


async def test_grace_period_autoplay_and_return() -> None:
    h = new_hub(grace_period=10.0)  # 10 ms of real time
    await h.start()
    try:
        _, a, lb, b = await two_players(h)
        seat = b.my_seat
        assert seat is not None
        hub_room = room_of(a)
        hub_room.settings.bot_delay = 0.0
        h.disconnect(lb)
        await until(lambda: hub_room.seats[seat].autoplay)
        assert a.snapshot().seats[seat].autoplay
        # the bot now plays bob's turns: alice plays, bob's seat answers by itself
        for _ in range(3):
            if a.pending():
                a.act(next(x for x in a.legal() if x != "bell"), a.snapshot().version)
            await until(lambda: a.pending() or hub_room.state != "playing" or hub_room.table is None or hub_room.table.between_rounds())
            if hub_room.state != "playing":
                break
        assert any(e.seat == seat for e in h.storage.match_log(hub_room.match_id or 0))
        back = h.connect(Identity(name="bob")).current_room()
        assert back is not None and back.my_seat == seat
        assert not hub_room.seats[seat].autoplay
    finally:
        await h.stop()


async def test_a_player_who_drops_mid_match_is_said_at_once_and_their_return_too(hub: Hub) -> None:
    """A lost connection was said only when the grace period ran out ("bob is
    away; a bot plays their seat"): for a minute the table waited on a player
    nobody knew was gone, and a return within it was not said."""
    _, a, lb, _ = await two_players(hub)
    hub.disconnect(lb)
    keys = [(line.key, line.params) for line in a.chat_lines() if line.system][-1:]
    assert keys == [("sys.dropped", {"name": "bob", "secs": str(round(hub.env.grace_period))})]
    assert "bob lost the connection" in a.chat_lines()[-1].text
    back = hub.connect(Identity(name="bob")).current_room()
    assert back is not None and back.my_seat == 1
    assert [(line.key, line.params) for line in a.chat_lines() if line.system][-1] == ("sys.back", {"name": "bob"})
    b2 = back  # a second screen of the same player coming and going says nothing
    extra = hub.connect(Identity(name="bob"))
    extra.current_room()
    count = len(a.chat_lines())
    hub.disconnect(extra)
    assert len(a.chat_lines()) == count and b2.my_seat == 1


async def test_settings_saved_unchanged_keep_everyone_ready_and_say_nothing(hub: Hub) -> None:
    """The host's options dialog saved without a change still said "the host
    changed the settings" and made everyone ready again."""
    a = hub.connect(Identity(name="alice")).create_room(settings(seats=3))
    b = hub.connect(Identity(name="bob")).join(a.room_id)
    b.set_ready(True)
    lines = len(a.chat_lines())
    a.update_settings(a.snapshot().settings)
    assert len(a.chat_lines()) == lines and a.snapshot().seats[1].ready
    a.update_settings(a.snapshot().settings.model_copy(update={"seats": 4}))
    assert a.chat_lines()[-1].text == "the host changed the settings: seats" and not a.snapshot().seats[1].ready


async def test_chat_is_sanitised_and_bounded(hub: Hub) -> None:
    _, a, _, b = await two_players(hub)
    a.chat("hi \x1b[31mred\x1b[0m \x1b]52;c;ZXZpbA==\x07[/b] \u202eevil")
    b.chat("\x1b[2J")  # nothing left: ignored
    lines = [line for line in b.chat_lines() if not line.system]
    assert [(line.name, line.text) for line in lines] == [("alice", "hi red [/b] evil")]
    with pytest.raises(ClientError):  # refused, said (see below), never cut unsaid
        a.chat("x" * 5000)
    a.chat("\x1b[31m" + "x" * 300 + "\x1b[0m")  # what is left after cleaning counts
    assert b.chat_lines()[-1].text == "x" * 300
    for i in range(CHAT_HISTORY + 10):
        room_of(a).say("alice", f"line {i}")  # (a player's own lines are throttled: see below)
    assert len(a.chat_lines()) == CHAT_HISTORY
    assert a.chat_lines()[-1].text == f"line {CHAT_HISTORY + 9}"


async def test_a_player_sending_chat_lines_faster_than_anyone_reads_is_held_back() -> None:
    """A flood (15 lines in a second pushed the lobby's history away): a player may
    send CHAT_BURST lines at once, lobby and room together, then one every
    CHAT_EVERY seconds; the others are not held back by it."""
    now = [1000.0]
    h = new_hub(clock=lambda: now[0])
    await h.start()
    try:
        la, a, _, b = await two_players(h)
        for i in range(CHAT_BURST - 1):
            a.chat(f"line {i}")
        la.chat("and one in the lobby")  # the lobby counts too
        with pytest.raises(ClientError) as err:
            a.chat("one too many")
        assert err.value.code == "chat-fast"
        assert a.chat_lines()[-1].text == f"line {CHAT_BURST - 2}"
        b.chat("bob is not held back")
        now[0] += CHAT_EVERY
        a.chat("after a moment")
        with pytest.raises(ClientError):
            a.chat("but not two")
        assert [line.text for line in a.chat_lines()[-2:]] == ["bob is not held back", "after a moment"]
    finally:
        await h.stop()


async def test_a_chat_line_longer_than_chat_max_is_refused_not_cut_unsaid() -> None:
    """Issue 44 item 9: a line over CHAT_MAX characters (the one bound the chat
    line's input reads too) is refused with a reason the screens translate,
    and not counted against the sender; one of CHAT_MAX is sent whole."""
    from protocol.contract import CHAT_MAX
    from protocol.i18n import error_text

    h = new_hub()
    await h.start()
    try:
        la, a, _, _ = await two_players(h)
        for call in (a.chat, la.chat):
            with pytest.raises(ClientError) as err:
                call("y" * (CHAT_MAX + 1))
            assert err.value.code == "chat-long" and err.value.params == {"max": str(CHAT_MAX)}
            assert error_text(err.value, "zh").startswith(f"一則聊天訊息最多 {CHAT_MAX} 個字")
        for _ in range(CHAT_BURST):  # the refused lines were not counted
            a.chat("x" * CHAT_MAX)
        assert a.chat_lines()[-1].text == "x" * CHAT_MAX
        assert [line.text for line in la.chat_lines()] == []
    finally:
        await h.stop()


async def test_wrong_codes_for_a_private_room_are_limited_per_player() -> None:
    """Guessing a 4-digit code: CODE_TRIES wrong codes at once, then one every
    CODE_EVERY seconds; while held back even the right code is refused."""
    from server.hub import CODE_EVERY, CODE_TRIES

    now = [1000.0]
    h = new_hub(clock=lambda: now[0])
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(settings(seats=3, private=True))
        code = a.snapshot().settings.code
        lb = h.connect(Identity(name="bob"))
        for _ in range(CODE_TRIES):
            with pytest.raises(ClientError) as err:
                lb.join(a.room_id, "wrong")
            assert err.value.code == "bad-code"
        with pytest.raises(ClientError) as err:
            lb.join(a.room_id, code)
        assert err.value.code == "code-tries"
        h.connect(Identity(name="carol")).join(a.room_id, code)  # another player is not held back
        now[0] += CODE_EVERY
        assert lb.join(a.room_id, code).my_seat is not None
    finally:
        await h.stop()


async def test_notifications_are_coalesced(hub: Hub) -> None:
    _, a, _, b = await two_players(hub)
    await ticks()
    calls = {"a": 0, "b": 0}
    a.set_listener(lambda: calls.__setitem__("a", calls["a"] + 1))
    b.set_listener(lambda: calls.__setitem__("b", calls["b"] + 1))
    mover, _ = on_turn(a, b)
    mover.act("add 1", mover.snapshot().version)  # three changes in one tick
    a.chat("hello")
    b.chat("hi")
    assert calls == {"a": 0, "b": 0}  # never called synchronously
    await ticks(1)
    assert calls == {"a": 1, "b": 1}
    await ticks(5)
    assert calls == {"a": 1, "b": 1}
    a.chat("again")
    await ticks(2)
    assert calls == {"a": 2, "b": 2}


async def test_one_listener_on_lobby_and_room_is_called_once_per_tick(hub: Hub) -> None:
    la, a, _, b = await two_players(hub)
    await ticks()
    calls: list[int] = []

    def listener() -> None:
        calls.append(1)

    la.set_listener(listener)  # a screen app gives the same callable to both
    a.set_listener(listener)
    b.chat("hi")  # room change
    la.chat("lobby hi")  # lobby change
    hub.connect(Identity(name="carol"))  # lobby change
    await ticks(3)
    assert calls == [1]


async def test_a_listener_that_raises_does_not_break_the_room(hub: Hub, caplog: pytest.LogCaptureFixture) -> None:
    _, a, _, b = await two_players(hub)
    got: list[int] = []

    def broken() -> None:
        raise RuntimeError("screen bug")

    a.set_listener(broken)
    b.set_listener(lambda: got.append(1))
    with caplog.at_level(logging.ERROR):
        for _ in range(3):
            mover, _ = on_turn(a, b)
            mover.act("add 1", mover.snapshot().version)
            await ticks(2)
    assert len(got) == 3
    assert "screen bug" in caplog.text
    assert room_of(a).state == "playing" and log_len(a) == 3


class CrashingBot:
    """Raises on every other call; returns illegal text otherwise."""

    def __init__(self, seat: int, kind: str, seed: int) -> None:
        self.calls = 0

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        self.calls += 1
        if self.calls % 2:
            raise RuntimeError("bot bug")
        return "add 99"


async def test_a_crashing_bot_is_logged_and_the_match_still_ends(caplog: pytest.LogCaptureFixture) -> None:
    def new_bot(seat: int, kind: str, seed: int) -> Bot:
        return CrashingBot(seat, kind, seed) if seat == 1 else CountBot(seat, kind, seed)

    h = new_hub(games={"count": make_spec(new_bot)})
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(settings(seats=3, options={"rounds": 1}))
        a.start()
        a.leave()
        room = room_of(a)
        with caplog.at_level(logging.WARNING):
            await until(lambda: room.state == "finished")
        assert "bot bug" in caplog.text
        assert any(e.seat == 1 for e in h.storage.match_log(room.match_id or 0))
    finally:
        await h.stop()


async def test_host_controls_and_waiting_room(hub: Hub) -> None:
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=4))
    b = hub.connect(Identity(name="bob")).join(a.room_id)
    calls: list[Callable[[], object]] = [
        lambda: b.add_bot(),
        lambda: b.kick(0),
        lambda: b.start(),
        lambda: b.update_settings(settings(seats=3)),
    ]
    for call in calls:
        with pytest.raises(ClientError) as err:
            call()
        assert err.value.code == "not-host"
    a.add_bot(3)
    with pytest.raises(ClientError):
        a.add_bot(3)  # taken
    with pytest.raises(ClientError) as err:
        a.start()
    assert err.value.code == "not-ready"  # bob is not ready
    b.take_seat(2)
    assert b.my_seat == 2
    moved = b.chat_lines()[-1]  # the others hear of it: who sits beside whom matters (S-SEAT-1)
    assert moved.system and moved.key == "sys.moved" and moved.text == "bob moved to seat 3"  # as players number it
    assert system_line(moved.key, moved.params, "zh") == "bob 換到 3 號座位"
    with pytest.raises(ClientError) as err:
        a.update_settings(settings(seats=2))  # bob sits in seat 3 of 2
    assert err.value.code == "seats-taken"
    a.update_settings(settings(seats=3, name="\x1b[1mBig\x1b[0m table"))
    snap = a.snapshot()
    assert len(snap.seats) == 3 and snap.settings.name == "Big table"
    assert [s.kind for s in snap.seats] == ["human", "empty", "human"]  # the bot in seat 4 went
    a.update_settings(settings(seats=3, name=""))  # the name cleared: unnamed again ("alice's table" on screens)
    assert a.snapshot().settings.name == ""
    a.update_settings(settings(seats=3, name="Big table"))
    a.add_bot(1)
    a.remove_bot(1)
    a.kick(2)
    assert b.closed and b.my_seat is None
    with pytest.raises(ClientError) as err:
        b.snapshot()  # screens see the room is gone for them, and why
    assert err.value.code == "kicked"
    with pytest.raises(ClientError) as err:
        b.act("add 1", 0)
    assert err.value.code == "kicked"
    assert [s.kind for s in a.snapshot().seats] == ["human", "empty", "empty"]
    lb2 = hub.connect(Identity(name="BOB"))  # a kick is for good: no seat, no watching (he was back in seconds)
    for call in (lambda: lb2.join(a.room_id), lambda: lb2.watch(a.room_id)):
        with pytest.raises(ClientError) as err:
            call()
        assert err.value.code == "banned"
    b2 = hub.connect(Identity(name="carol")).join(a.room_id)
    b2.set_ready(True)
    a.start()
    assert [s.kind for s in a.snapshot().seats] == ["human", "human", "bot"]
    with pytest.raises(ClientError):
        a.add_bot()  # not during a match
    a.leave()
    b2.leave()
    room = room_of(a)
    await until(lambda: room.state == "finished")
    first = room.match_id
    a2 = la.current_room()
    assert a2 is not None and a2.my_seat == 0
    a2.play_again()  # the same seats, a new match
    assert room.state == "playing" and room.match_id != first
    assert room.seats[0].name == "alice"


async def test_after_a_match_the_host_brings_everyone_back_to_the_waiting_room(hub: Hub) -> None:
    """The host's o on a finished table: the room waits again, to change the
    settings (or the game) and let others sit down before the next match;
    the bots keep their seats and everyone is asked to be ready again."""
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=3))
    a.start()  # two bots
    lb = hub.connect(Identity(name="bob"))
    watcher = lb.watch(a.room_id)
    room = room_of(a)
    a.leave()  # a bot plays alice's seat to the end
    await until(lambda: room.state == "finished")
    for call in (watcher.reopen, watcher.play_again):
        with pytest.raises(ClientError) as err:
            call()
        assert err.value.code == "not-host"
    a2 = la.current_room()
    assert a2 is not None and a2.my_seat == 0
    a2.reopen()
    snap = a2.snapshot()
    assert snap.state == "waiting" and room.state == "waiting"
    assert [s.kind for s in snap.seats] == ["human", "bot", "bot"] and not any(s.ready for s in snap.seats)
    line = a2.chat_lines()[-1]
    assert line.system and line.key == "sys.reopened"
    assert line.text == "the host brought everyone back to the room to change the settings"
    assert system_line(line.key, line.params, "zh") == "房主請大家回到房間，先更改設定"
    with pytest.raises(ClientError) as err:
        a2.reopen()  # once is enough: the room waits already
    assert err.value.code == "playing"
    with pytest.raises(ClientError):
        a2.play_again()  # from the waiting room, a match starts with s
    a2.update_settings(settings(seats=4, name="round two"))  # the settings change now, as in any waiting room
    watcher.leave()
    b = lb.join(a2.room_id)
    assert b.my_seat == 3
    first = room.match_id
    with pytest.raises(ClientError) as err:
        a2.start()
    assert err.value.code == "not-ready"  # bob sat down after the match
    b.set_ready(True)
    a2.start()
    assert room.state == "playing" and room.match_id != first
    assert [s.kind for s in room.seats] == ["human", "bot", "bot", "human"]


@pytest.mark.parametrize("then", ["play_again", "reopen"])
async def test_after_a_match_the_seats_of_players_not_at_the_table_are_given_up(hub: Hub, then: str) -> None:
    """Play again drafted bob, who had left the table for the lobby during the
    match: a bot played his turns and he could join no other room until the
    new match ended. Now seats whose owners are not at the table are freed."""
    la, lb, lc = (hub.connect(Identity(name=n)) for n in ("alice", "bob", "carol"))
    a = la.create_room(settings(seats=4))
    b, c = lb.join(a.room_id), lc.join(a.room_id)
    b.set_ready(True)
    c.set_ready(True)
    a.start()
    room = room_of(a)
    b.leave()  # to the lobby: a bot plays his seat to the end
    hub.disconnect(lc)  # carol's connection went: her seat waits for her
    a.leave()  # and alice's too (she comes back to the finished table below)
    await until(lambda: room.state == "finished")
    a2 = la.current_room()
    assert a2 is not None
    getattr(a2, then)()
    kinds = [s.kind for s in room.seats]
    assert kinds[0] == "human" and room.seats[0].name == "alice"
    assert kinds[1:3] == (["bot", "bot"] if then == "play_again" else ["empty", "empty"])
    freed = [line.params["name"] for line in a2.chat_lines() if line.key == "sys.absent"]
    assert sorted(freed) == ["bob", "carol"]
    line = next(line for line in a2.chat_lines() if line.key == "sys.absent")
    assert system_line(line.key, line.params, "en").endswith("was not at the table: the seat is free for the next match")
    assert lb.current_room() is None
    lb.create_room(settings())  # free to play elsewhere


async def test_a_seat_given_up_after_the_match_keeps_its_name_at_the_finished_table(hub: Hub) -> None:
    """A player whose connection went during the match loses the seat once the grace
    period ends after it; the result at the table still names them (it read "#1")."""
    _, a, lb, _ = await two_players(hub, seats=3)
    room = room_of(a)
    hub.disconnect(lb)
    await play_out(room, a)  # alice plays on; a bot plays bob's seat once his grace runs out
    await until(lambda: room.seats[1].kind == "empty")  # and then the seat is free
    snap = a.snapshot()
    assert snap.seats[1].name == "" and snap.names[:2] == ["alice", "bob"]
    a.reopen()  # back in the waiting room the free seat has no name
    assert room.state == "waiting" and a.snapshot().names[1] == ""


async def test_a_host_away_past_the_grace_period_hands_over_when_the_match_ends(hub: Hub) -> None:
    """The host's connection went mid-match and a bot played the seat: at the end the
    players still there could not play again or change the settings for another
    whole grace period. A player at the table is the host at once."""
    la, a, _, b = await two_players(hub, seats=3)
    room = room_of(a)
    hub.disconnect(la)
    await until(lambda: room.seats[0].autoplay)  # alice's grace ran out: a bot plays her seat
    await play_out(room, b)
    assert room.host == "bob"
    assert [line.params.get("name") for line in b.chat_lines() if line.key == "sys.new_host"] == ["bob"]
    b.play_again()  # the new host's key works at once


async def test_a_host_who_is_back_keeps_the_room_when_the_match_ends(hub: Hub) -> None:
    _, a, _, b = await two_players(hub, seats=3)
    room = room_of(a)
    await play_out(room, a, b)
    assert room.host == "alice"


async def test_private_room_needs_its_code(hub: Hub) -> None:
    a = hub.connect(Identity(name="alice")).create_room(settings(private=True))
    code = a.snapshot().settings.code
    assert code
    lb = hub.connect(Identity(name="bob"))
    calls: list[Callable[[], object]] = [lambda: lb.join(a.room_id, "nope"), lambda: lb.watch(a.room_id, "nope")]
    for call in calls:
        with pytest.raises(ClientError) as err:
            call()
        assert err.value.code == "bad-code"
    for _ in range(10):  # no code at all is asked for (a screen then asks the player), not a guess counted
        for empty in (lambda: lb.join(a.room_id), lambda: lb.watch(a.room_id, " ")):
            with pytest.raises(ClientError) as err:
                empty()
            assert err.value.code == "code-needed"
    assert lb.join(a.room_id, code).my_seat == 1


async def test_a_kicked_player_or_a_full_room_is_told_before_any_code_is_asked(hub: Hub) -> None:
    """bruno, kicked from a private room, was asked for its code and only then
    told he may not come back; the same for a room full or playing."""
    a = hub.connect(Identity(name="alice")).create_room(settings(private=True, seats=2))
    code = a.snapshot().settings.code
    lb = hub.connect(Identity(name="bruno"))
    lb.join(a.room_id, code)
    a.kick(1)
    for call in (lambda: lb.join(a.room_id), lambda: lb.watch(a.room_id)):
        with pytest.raises(ClientError) as err:
            call()
        assert err.value.code == "banned"
    hub.connect(Identity(name="carol")).join(a.room_id, code)
    with pytest.raises(ClientError) as err:
        hub.connect(Identity(name="dave")).join(a.room_id)
    assert err.value.code == "room-full"


async def test_a_private_room_s_code_is_read_in_any_case(hub: Hub) -> None:
    """A code the host chose, told aloud, is typed back in whatever case:
    "Swan" and " SWAN " open the room; "swam" does not."""
    a = hub.connect(Identity(name="alice")).create_room(settings(private=True, code="Swan"))
    assert a.snapshot().settings.code == "Swan"
    with pytest.raises(ClientError) as err:
        hub.connect(Identity(name="bob")).join(a.room_id, "swam")
    assert err.value.code == "bad-code"
    assert hub.connect(Identity(name="bob")).join(a.room_id, " SWAN ").my_seat == 1
    assert hub.connect(Identity(name="carol")).watch(a.room_id, "swan").my_seat is None


async def test_who_comes_to_watch_is_said_once_in_the_room_s_chat_waiting_or_playing(hub: Hub) -> None:
    """A spectator who comes is named in the room's chat, in the waiting room
    as at the table (the README says both do), once however many screens they
    open; a second screen of the same watcher says nothing again."""
    lc = hub.connect(Identity(name="carol"))
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings())
    lc.watch(a.room_id)  # the room is waiting
    hub.connect(Identity(name="carol")).watch(a.room_id)  # carol's second terminal
    lines = [(line.key, line.params) for line in a.chat_lines() if line.key == "sys.watching"]
    assert lines == [("sys.watching", {"name": "carol"})]
    lb = hub.connect(Identity(name="bob"))
    lb.join(a.room_id).set_ready(True)
    a.start()
    await ticks()
    w1 = hub.connect(Identity(name="dave")).watch(a.room_id)
    hub.connect(Identity(name="dave")).watch(a.room_id)  # a second screen of the same player
    lines = [(line.key, line.params) for line in a.chat_lines() if line.key in ("sys.watching", "sys.back")]
    assert lines == [("sys.watching", {"name": "carol"}), ("sys.watching", {"name": "dave"})]
    assert "dave is watching" in [line.text for line in w1.chat_lines()]


MARKER: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="hub")


class RecordingBot(CountBot):
    seen: ClassVar[list[str]] = []

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        RecordingBot.seen.append(MARKER.get())
        return super().act(view, legal, pending)


async def test_bots_and_listeners_run_in_the_right_context() -> None:
    """Bot/timer tasks run in the hub's context even when a screen (another
    context, like a Textual app's) triggers them; listeners run in the context
    they were registered from."""
    RecordingBot.seen = []
    h = new_hub(games={"count": make_spec(RecordingBot)})
    await h.start()
    seen: list[str] = []
    try:
        token = MARKER.set("screen")  # as if inside a Textual app
        try:
            a = h.connect(Identity(name="alice")).create_room(settings(seats=2, turn_timer=2, window_timer=2))
            a.set_listener(lambda: seen.append(MARKER.get()))
            a.start()  # starts the bot loop and the first timer from "inside the app"
            room = room_of(a)
            assert room._bots is not None
        finally:
            MARKER.reset(token)
        await until(lambda: len(RecordingBot.seen) > 3)
        assert set(RecordingBot.seen) == {"hub"}
        assert seen and set(seen) == {"screen"}
    finally:
        await h.stop()


async def test_a_failed_log_write_undoes_the_action(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    """Log before publish: if the write fails the action is not kept, nobody hears of it."""
    _, a, _, b = await two_players(hub)
    await ticks()
    mover, _ = on_turn(a, b)
    before = [cview(a).model_dump(), cview(b).model_dump()]
    version = mover.snapshot().version
    calls: list[int] = []
    b.set_listener(lambda: calls.append(1))

    def broken(*args: object) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(hub.storage, "append_action", broken)
    with pytest.raises(ClientError) as err:
        mover.act("add 2", version)
    assert err.value.code == "storage"
    await ticks(2)
    assert calls == []
    assert [cview(a).model_dump(), cview(b).model_dump()] == before
    assert mover.snapshot().version == version
    monkeypatch.undo()
    mover.act("add 2", version)
    assert cview(a).total == 2 and log_len(a) == 1


class FlakyTable(CountTable):
    """Corrupts itself and raises a non-engine error on ``add 3`` (an engine bug)."""

    def play(self, seat: int, text: str) -> None:
        if text == "add 3":
            self._total += 100
            raise RuntimeError("engine bug")
        super().play(seat, text)


async def test_an_engine_crash_rebuilds_the_table_from_the_log(caplog: pytest.LogCaptureFixture) -> None:
    def new_table(players: int, seed: int, options: BaseModel) -> CountTable:
        return FlakyTable(players, seed, CountOptions.model_validate(options.model_dump()))

    h = new_hub(games={"count": make_spec(new_table=new_table)})
    await h.start()
    try:
        _, a, _, b = await two_players(h)
        mover, _ = on_turn(a, b)
        mover.act("add 1", mover.snapshot().version)
        mover, _ = on_turn(a, b)
        with caplog.at_level(logging.ERROR), pytest.raises(ClientError) as err:
            mover.act("add 3", mover.snapshot().version)
        assert err.value.code == "engine" and "engine bug" in caplog.text
        assert cview(a).total == 1  # rebuilt from seed + log, the corruption is gone
        mover.act("add 1", mover.snapshot().version)
        assert cview(a).total == 2
    finally:
        await h.stop()


async def test_bots_think_about_the_room_s_delay_give_or_take_its_jitter(hub: Hub) -> None:
    """Bot delays vary (human-like, and rooms that acted together drift apart):
    each within BOT_JITTER of the room's delay, not all the same."""
    from server.room.bots import BOT_JITTER

    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=5, bot_delay=2.0))
    room = room_of(a)
    thoughts = [room.bot_think() for _ in range(200)]
    assert all(2.0 * (1 - BOT_JITTER) <= t <= 2.0 * (1 + BOT_JITTER) for t in thoughts)
    assert max(thoughts) - min(thoughts) > 2.0 * BOT_JITTER  # spread over the range, not one value
    slept: list[float] = []
    real_sleep = room.env.sleep

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await real_sleep(seconds)

    room.env.sleep = sleep  # type: ignore[method-assign]
    a.start()
    a.leave()  # a bot plays alice's seat too: every turn is a bot's
    await until(lambda: len(slept) >= 3)
    bot_sleeps = [t for t in slept if 2.0 * (1 - BOT_JITTER) <= t <= 2.0 * (1 + BOT_JITTER)]
    assert len(bot_sleeps) >= 3 and len(set(bot_sleeps)) >= 2


async def test_the_room_s_screens_share_one_snapshot_until_something_in_it_changes(hub: Hub) -> None:
    """Every screen of a room reads its snapshot after each change: one is made
    per change, not per screen; each change (a seat, a ready mark, a
    spectator, a setting, a start, an action) gives a new one that shows it."""
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=3))
    first = a.snapshot()
    assert a.snapshot() is first
    b = hub.connect(Identity(name="bob")).join(a.room_id)
    joined = b.snapshot()
    assert joined is not first and a.snapshot() is joined
    assert [s.name for s in joined.seats if s.kind == "human"] == ["alice", "bob"]
    b.set_ready(True)
    assert a.snapshot() is not joined and any(s.ready for s in a.snapshot().seats)
    c = hub.connect(Identity(name="carol")).watch(a.room_id)
    assert c.snapshot().spectators == ["carol"]
    before = a.snapshot()
    a.update_settings(settings(seats=3, name="renamed"))
    assert a.snapshot() is not before and a.snapshot().settings.name == "renamed"
    b.set_ready(True)
    a.add_bot(2)
    a.start()
    await ticks()
    started = a.snapshot()
    assert started.state == "playing" and started.seats[2].kind == "bot"
    assert b.snapshot() is started is c.snapshot()
    mover, _other = on_turn(a, b)
    mover.act("add 1", started.version)
    assert a.snapshot().version == started.version + 1


async def test_a_rooms_summary_names_its_players_not_its_bots(hub: Hub) -> None:
    # the lobby marks the room where a player's seat is kept (tui/screens/lobby.py)
    la = hub.connect(Identity(name="alice"))
    a = la.create_room(settings(seats=3))
    lb = hub.connect(Identity(name="bob"))
    lb.join(a.room_id)
    a.add_bot()
    [summary] = lb.rooms()
    assert summary.players == ["alice", "bob"] and summary.bots == 1
    assert la.rooms()[0].players == ["alice", "bob"]
