"""The room runtime with the real games from engine.registry (Sultans of Karaya,
Kill the Overlord): whole matches with bots, timeouts (S-TIME-1, K-TIME-1),
hidden information per seat, restart mid-match."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from games import ticks, until
from hubs import new_hub as count_hub

from engine.api import GameSpec
from engine.registry import games
from protocol.contract import Identity, RoomSettings
from server.hub import Hub
from server.room import RoomSession
from server.room import runtime as room_runtime
from server.storage import Storage

SPECS: dict[str, GameSpec] = games()
GAMES = [g for g in ("sultans", "overlord") if g in SPECS]
SMALL_OPTIONS: dict[str, dict[str, Any]] = {"sultans": {"rounds": 2}, "overlord": {}}


def new_hub(storage: Storage | None = None, **kw: Any) -> Hub:
    """A hub of the real games (engine.registry)."""
    return count_hub(storage, **{"games": None, **kw})


def humans(hub: Hub, game: str, n: int, **kw: Any) -> list[RoomSession]:
    """n human players seated and ready in one room (alice hosts)."""
    host = hub.connect(Identity(name="p0")).create_room(
        RoomSettings(game=game, seats=n, options=SMALL_OPTIONS[game], **kw)
    )
    out = [host]
    for i in range(1, n):
        rc = hub.connect(Identity(name=f"p{i}")).join(host.room_id)
        rc.set_ready(True)
        out.append(rc)
    return out


@pytest.mark.parametrize("game", GAMES)
async def test_bots_play_a_whole_match(game: str, caplog: pytest.LogCaptureFixture) -> None:
    spec = SPECS[game]
    h = new_hub()
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(
            RoomSettings(game=game, seats=spec.min_players + 1, options=SMALL_OPTIONS[game], window_timer=0)
        )
        a.start()
        a.leave()  # a bot plays alice's seat
        room = a.room
        with caplog.at_level(logging.WARNING, logger="throneroom.room"):
            await until(lambda: room.state == "finished", timeout=120)
        assert "crashed" not in caplog.text and "refused" not in caplog.text
        table = room.table
        assert table is not None and table.is_over() and table.winners()
        results = h.storage.match_results(room.match_id or 0)
        assert [r.points for r in results] == table.standings()
        assert [r.win for r in results] == [s in table.winners() for s in range(table.players)]
        assert [r.name for r in h.storage.leaderboard()] == ["alice"]
        # the log is complete: seed + entries rebuild the very same final table
        replay = spec.new_table(table.players, room.seed, spec.options_model.model_validate(room.settings.options))
        for e in h.storage.match_log(room.match_id or 0):
            if e.kind == "next-round":
                replay.next_round()
            else:
                assert e.seat is not None
                replay.play(e.seat, e.text)
        assert replay.is_over()
        for s in [None, *range(table.players)]:
            assert replay.view(s).model_dump() == table.view(s).model_dump()
    finally:
        await h.stop()


@pytest.mark.parametrize("game", GAMES)
async def test_timeouts_play_the_tables_default(game: str, caplog: pytest.LogCaptureFixture) -> None:
    """S-TIME-1 / K-TIME-1: every action of a table of idle humans is the table's timeout default.
    The server log names each by its verb only (S-VIEW-4: the rest may be private).
    (Nobody goes away here: a stand-in bot would play on; see test_standin.py.)"""
    spec = SPECS[game]
    h = new_hub(away_after=10**6)
    await h.start()
    try:
        clients = humans(h, game, spec.min_players, turn_timer=2, window_timer=2, strict_windows=True)  # every pass a timeout
        clients[0].start()
        room = clients[0].room
        assert room.snapshot().deadline is not None and room.snapshot().timeouts == [0] * len(room.seats)
        with caplog.at_level(logging.INFO, logger="throneroom.room"):
            await until(lambda: room.seq >= 12 or room.state == "finished", timeout=60)
        # per seat, how many defaults the room played for it (its screen says so), a reaction
        # or an option let go ("pass") not counted: that is no news
        news = [e for e in h.storage.match_log(room.match_id or 0) if e.kind == "action" and e.text != "pass"]
        assert sum(room.snapshot().timeouts) == len(news) > 0
        await h.stop()
        played = [r.getMessage() for r in caplog.records if "timed out, played" in r.getMessage()]
        assert len(played) >= 6
        for line in played:
            shown = line.split("played ", 1)[1].strip("'")
            assert len(shown.split()) == 1 or shown.endswith(" …"), line
        entries = h.storage.match_log(room.match_id or 0)
        assert len(entries) >= 12 or room.state == "finished"
        replay = spec.new_table(len(room.seats), room.seed, spec.options_model.model_validate(room.settings.options))
        for e in entries:
            if e.kind == "next-round":
                replay.next_round()
                continue
            assert e.seat is not None and e.seat in replay.pending()
            assert e.text == replay.timeout_action(e.seat)
            if " " in e.text:
                assert not any(e.text in line for line in played)
            replay.play(e.seat, e.text)
    finally:
        await h.stop()


@pytest.mark.parametrize("game", GAMES)
async def test_each_seat_sees_only_its_own_view(game: str) -> None:
    spec = SPECS[game]
    h = new_hub()
    await h.start()
    try:
        clients = humans(h, game, spec.min_players, strict_windows=True)  # the table's own views (quick: test_quick_windows)
        clients[0].start()
        watcher = h.connect(Identity(name="eve")).watch(clients[0].room_id)
        room = clients[0].room
        table = room.table
        assert table is not None
        for _ in range(15):
            own = {c.my_seat: c.view() for c in clients}
            for c in clients:
                seat = c.my_seat
                assert seat is not None
                v = c.view()
                assert v is not None and v.model_dump() == table.view(seat).model_dump()
                assert c.legal() == table.legal(seat)
                assert c.pending() == (seat in table.pending())
            # at least the private parts differ between seats (own card / hand)
            dumps = [v.model_dump_json() for v in own.values() if v is not None]
            assert len(set(dumps)) == len(dumps)
            sv = watcher.view()
            assert sv is not None and sv.model_dump() == table.view(None).model_dump()
            assert sv.model_dump_json() not in dumps
            mover = next((c for c in clients if c.pending()), None)
            if mover is None or room.state != "playing":
                break
            mover.act(mover.legal()[0], mover.snapshot().version)
            await ticks()
    finally:
        await h.stop()


def _round_of(view: Any) -> int:
    return int(view.round_number if hasattr(view, "round_number") else view.round)


@pytest.mark.parametrize("game", GAMES)
async def test_an_earlier_rounds_log_is_what_each_seat_saw(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``round_log`` (a log drawn anew) gives each seat its own events of an earlier
    round and a spectator only the public ones (S-VIEW-4, K-VIEW-1); after a restart
    the replayed match gives the same."""
    # a deal whose first-choice play reaches round 2 (with some, an Overlord game ends in its first round)
    monkeypatch.setattr(room_runtime.secrets, "randbits", lambda bits: 20261205)
    spec = SPECS[game]
    st = Storage(":memory:")
    h = new_hub(st)
    await h.start()
    try:
        clients = humans(h, game, spec.min_players, window_timer=0)
        clients[0].start()
        watcher = h.connect(Identity(name="eve")).watch(clients[0].room_id)
        room = clients[0].room
        for _ in range(3000):
            v = clients[0].view()
            if room.state != "playing" or (v is not None and _round_of(v) >= 2):
                break
            mover = next((c for c in clients if c.pending()), None)
            if mover is None:
                await ticks()
                continue
            mover.act(mover.legal()[0], mover.snapshot().version)
        v = clients[0].view()
        assert room.state == "playing" and v is not None and _round_of(v) == 2
        table = room.table
        assert table is not None
        spectator = list(watcher.round_log(1))
        assert spectator and all(getattr(ev, "audience", None) is None for ev in spectator)
        for c in clients:
            mine = list(c.round_log(1))
            assert mine == list(table.round_log(1, c.my_seat))
            audiences = [getattr(ev, "audience", None) for ev in mine]
            assert all(a is None or c.my_seat in a for a in audiences)
            assert any(a is not None for a in audiences)  # its private lines are there
            assert [ev for ev, a in zip(mine, audiences, strict=True) if a is None] == spectator
        assert list(watcher.round_log(3)) == [] and list(watcher.round_log(0)) == []
    finally:
        await h.stop()


async def test_sultans_restart_mid_match_restores_every_view(tmp_path: Path) -> None:
    db = tmp_path / "throneroom.db"
    st = Storage(db)
    h1 = new_hub(st)
    await h1.start()
    a = h1.connect(Identity(name="alice")).create_room(
        RoomSettings(game="sultans", seats=7, options={"rounds": 5}, window_timer=0)
    )
    a.start()
    a.leave()
    room = a.room
    await until(lambda: room.seq >= 25 or room.state != "playing", timeout=60)
    await h1.stop()
    assert room.state == "playing", "the match ended before the restart; raise the round count"
    table = room.table
    assert table is not None
    before = [table.view(s).model_dump() for s in [None, *range(table.players)]]
    before_legal = [table.legal(s) for s in range(table.players)]
    rounds = range(1, table.view(None).round_number + 1)
    before_logs = [[ev.model_dump() for ev in table.round_log(n, s)] for n in rounds for s in [None, *range(table.players)]]
    st.close()

    st2 = Storage(db)
    h2 = new_hub(st2)
    await h2.start()
    try:
        restored = h2.rooms[a.room_id]
        t2 = restored.table
        assert t2 is not None
        assert [t2.view(s).model_dump() for s in [None, *range(t2.players)]] == before
        assert [t2.legal(s) for s in range(t2.players)] == before_legal
        assert [[ev.model_dump() for ev in t2.round_log(n, s)] for n in rounds for s in [None, *range(t2.players)]] == before_logs
        back = h2.connect(Identity(name="alice")).current_room()
        assert back is not None and back.my_seat == 0
        back.leave()
        await until(lambda: restored.state == "finished", timeout=120)
        assert st2.unfinished_matches() == []
    finally:
        await h2.stop()
        st2.close()
