"""Bot levels (issue 48): the room's settings choose a level for all its bots and per
bot seat; seats show it; stand-ins for absent players play at normal; the levels
survive a restart like the other settings."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from games import CountBot, make_spec, until
from hubs import new_hub
from pydantic import BaseModel

from engine.api import BOT_LEVELS, Bot, GameSpec
from engine.registry import games
from protocol.contract import ClientError, Identity, RoomSettings
from server.room import validate_settings
from server.storage import Storage


def with_strong() -> dict[str, GameSpec]:
    """The registry with the Sultans strong level offered (whatever the registry offers now)."""
    specs = dict(games())
    search = specs["sultans"].search
    assert search is not None
    specs["sultans"] = replace(specs["sultans"], search=replace(search, offered=True))
    return specs


def settings(**kw: Any) -> RoomSettings:
    base: dict[str, Any] = {"game": "count", "seats": 4, "window_timer": 0, "turn_timer": 0, "bot_delay": 0.0}
    base.update(kw)
    return RoomSettings(**base)


class KindBot(CountBot):
    """The counting game's bot, remembering the kind the room asked for."""

    made: ClassVar[list[tuple[int, str]]] = []

    def __init__(self, seat: int, kind: str, seed: int) -> None:
        super().__init__(seat, kind, seed)
        KindBot.made.append((seat, kind))

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        return super().act(view, legal, pending)


def new_kind_bot(seat: int, kind: str, seed: int) -> Bot:
    return KindBot(seat, kind, seed)


async def test_bots_play_at_the_room_level_and_per_seat_levels() -> None:
    KindBot.made = []
    h = new_hub(games={"count": make_spec(new_kind_bot)})
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(
            settings(bot_level="easy", bot_levels={2: "normal"}, options={"target": 6})
        )
        a.add_bot(1)
        a.add_bot(2)
        a.add_bot(3)
        levels = [s.level for s in a.snapshot().seats]
        assert levels == [None, "easy", "normal", "easy"]  # alice's own seat has no bot
        a.start()
        a.leave()  # alice's seat is played for her: a stand-in, at normal
        room = h.rooms[a.room_id]
        await until(lambda: room.state == "finished" or {s for s, _ in KindBot.made} == {0, 1, 2, 3})
        kinds = dict(KindBot.made)
        assert kinds == {0: "normal", 1: "easy", 2: "normal", 3: "easy"}
    finally:
        await h.stop()


def test_levels_for_seats_the_room_does_not_have_are_dropped() -> None:
    clean, _ = validate_settings(
        RoomSettings(game="sultans", seats=5, bot_levels={1: "easy", 4: "normal", 9: "easy"}),
        games(), default_bot_delay=1.0,
    )
    assert clean.bot_levels == {1: "easy", 4: "normal"}


def test_only_the_known_levels_are_accepted() -> None:
    """One source of the allowed values (engine.api.BOT_LEVELS) for the settings model."""
    assert set(BOT_LEVELS) == {"easy", "normal", "strong"}
    with pytest.raises(ValueError):
        RoomSettings(bot_level="genius")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        RoomSettings(bot_levels={1: "genius"})  # type: ignore[dict-item]


async def test_a_changed_level_is_shown_and_said() -> None:
    KindBot.made = []
    h = new_hub(games={"count": make_spec(new_kind_bot)})
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(settings())
        a.add_bot(1)
        assert a.snapshot().seats[1].level == "normal"
        a.update_settings(settings(bot_levels={1: "easy"}))
        assert a.snapshot().seats[1].level == "easy"
        said = [line.params for line in a.chat_lines() if line.key == "sys.settings_changed_what"]
        assert said[-1] == {"changes": "bot_levels"}
        a.update_settings(settings(bot_level="easy", bot_levels={1: "normal"}))
        assert [line.params for line in a.chat_lines() if line.key == "sys.settings_changed_what"][-1] == {
            "changes": "bot_level\nbot_levels"
        }
        a.add_bot(2)
        assert [s.level for s in a.snapshot().seats] == [None, "normal", "easy", None]
    finally:
        await h.stop()


async def test_levels_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    st1 = Storage(db)
    h1 = new_hub(st1)
    await h1.start()
    a = h1.connect(Identity(name="alice")).create_room(settings(bot_level="easy", bot_levels={3: "normal"}))
    a.add_bot(3)
    a.add_bot(2)
    room_id = a.room_id
    h1.begin_stop()
    await h1.stop()
    st1.close()
    st2 = Storage(db)
    h2 = new_hub(st2)
    await h2.start()
    try:
        snap = h2.rooms[room_id].snapshot()
        assert snap.settings.bot_level == "easy" and snap.settings.bot_levels == {3: "normal"}
        assert [s.level for s in snap.seats] == [None, None, "easy", "normal"]
    finally:
        await h2.stop()
        st2.close()


# ------------------------------------------------------------- the strong level


async def test_strong_seats_search_in_the_thinking_pool_and_the_match_goes_on() -> None:
    """Issue 48: a strong seat's own turns are searched in the server's process pool
    (off the event loop), from the seat's view as JSON; the match plays on. (Five
    rounds: one round may end after two strong turns, and the searches' answers,
    which depend on the machine's speed, decide how long a round lasts.)"""
    from server.hub import Hub
    from server.thinking import Thinker

    thinker = Thinker(workers=1)
    asked: list[tuple[str, list[str]]] = []
    real = thinker.decide

    async def counted(game: str, view_json: str, legal: list[str], seed: str, budget: float) -> str:
        asked.append((view_json, legal))
        answer = await real(game, view_json, legal, seed, budget)
        assert answer in legal
        return answer

    thinker.decide = counted  # type: ignore[method-assign]
    h = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=0.05, intermission=0.0, thinker=thinker,
            games=with_strong())
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(
            RoomSettings(game="sultans", seats=5, bot_level="strong", bot_delay=0.05, turn_timer=0, window_timer=0,
                         options={"rounds": 5})
        )
        a.start()
        room = h.rooms[a.room_id]
        assert [s.level for s in room.snapshot().seats][1:] == ["strong"] * 4
        a.leave()  # a stand-in (normal) plays alice's seat out
        await until(lambda: len(asked) >= 3 or room.state == "finished", timeout=60.0)
        assert len(asked) >= 3
        assert all('"viewer":' in v for v, _ in asked)  # a seat's view, never the engine's state
    finally:
        await h.stop()
        thinker.close()


async def test_a_stale_search_answer_is_thrown_away() -> None:
    """A search answers for the room version it began at; once the room moved on the
    answer is not played and the seat thinks again (the bots are woken)."""
    from server.hub import Hub
    from server.thinking import Thinker

    thinker = Thinker(workers=1)
    h = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=3600.0, intermission=0.0, thinker=thinker,
            games=with_strong())
    await h.start()
    try:
        a = h.connect(Identity(name="alice")).create_room(
            RoomSettings(game="sultans", seats=5, bot_level="strong", bot_delay=3600.0, turn_timer=0, window_timer=0)
        )
        a.start()
        room = h.rooms[a.room_id]
        table = room.table
        assert table is not None
        seat = min(table.pending())
        if seat == 0:  # alice's own turn first: she plays it, a bot is next
            a.act(a.legal()[0], a.snapshot().version)
            seat = min(table.pending())
        before = room.version
        legal = room.legal(seat)
        room._bot_wake.clear()
        turns = table.view(None).round.turns_played  # type: ignore[attr-defined]
        room._run_bots({seat: (before - 1, legal[0])})  # (a hidden Sultan's bot may claim meanwhile)
        assert seat in table.pending() and table.view(None).round.turns_played == turns  # type: ignore[attr-defined]
        assert room._bot_wake.is_set()
        room._bot_wake.clear()
        room._run_bots({seat: (room.version, legal[0])})
        assert seat not in table.pending() or table.view(None).round.turns_played > turns  # type: ignore[attr-defined]
    finally:
        await h.stop()
        thinker.close()


def test_the_strong_level_only_where_a_search_is_offered() -> None:
    """Kill the Overlord's search is offered: its rooms take the strong level. A game
    whose search is benchmarked but not offered (Sultans, unless it is by now) refuses
    it (GameSpec.bot_levels), and takes it once its search is offered."""
    assert games()["overlord"].bot_levels == BOT_LEVELS
    clean, _ = validate_settings(RoomSettings(game="overlord", seats=5, bot_levels={2: "strong"}), games(),
                                 default_bot_delay=1.0)
    assert clean.bot_levels == {2: "strong"}
    specs = dict(games())
    for game in ("overlord", "sultans"):
        search = specs[game].search
        assert search is not None
        specs[game] = replace(specs[game], search=replace(search, offered=False))
        with pytest.raises(ClientError) as err:
            validate_settings(RoomSettings(game=game, seats=5, bot_levels={2: "strong"}), specs, default_bot_delay=1.0)
        assert err.value.code == "bad-level"
        assert specs[game].bot_levels == ("easy", "normal")
    clean, _ = validate_settings(RoomSettings(game="sultans", seats=5, bot_level="strong"), with_strong(),
                                 default_bot_delay=1.0)
    assert clean.bot_level == "strong" and with_strong()["sultans"].bot_levels == BOT_LEVELS


async def test_a_level_by_seat_is_for_a_bots_seat_never_a_players() -> None:
    """The dialog took "2:easy" for the seat bob sat in, and the settings line said
    "seat 2 easy" beside him. A level by seat is for a bot's seat or an empty one:
    one for a player's seat is refused (saying whose), the creator's seat too; a
    player who sits down where a level was set drops it, from the stored settings
    and so from the settings line and the dialog."""
    from protocol.i18n import error_text
    from tui.summary import settings_summary

    h = new_hub()
    await h.start()
    try:
        alice = h.connect(Identity(name="alice"))
        with pytest.raises(ClientError) as err:
            alice.create_room(settings(bot_levels={0: "easy"}))
        assert (err.value.code, err.value.reason, err.value.params) == ("bad-level", "player", {"seat": "1", "name": "alice"})
        assert error_text(err.value, "en") == "Seat 1 is alice's: a level by seat is for a bot's seat, or an empty one a bot will take."
        assert error_text(err.value, "zh").startswith("座位 1 是 alice 的")
        assert not h.rooms
        a = alice.create_room(settings(bot_levels={2: "easy", 3: "easy"}))
        room = h.rooms[a.room_id]
        b = h.connect(Identity(name="bob")).join(a.room_id)
        assert b.my_seat == 1
        with pytest.raises(ClientError) as err:
            a.update_settings(settings(bot_levels={1: "easy"}))
        assert err.value.params == {"seat": "2", "name": "bob"}
        assert room.settings.bot_levels == {2: "easy", 3: "easy"}  # unchanged
        b.take_seat(2)  # bob moves where a bot was to play at easy
        assert room.settings.bot_levels == {3: "easy"}
        stored = h.storage.room(a.room_id)
        assert stored is not None and stored.settings["bot_levels"] == {"3": "easy"}  # as a restart reads it
        assert "bots normal (seat 4 easy)" in settings_summary(room.settings, "en").split(" · ")
        carol = h.connect(Identity(name="carol")).join(a.room_id)
        assert carol.my_seat == 1 and room.settings.bot_levels == {3: "easy"}  # seat 2 had none: nothing goes
        dave = h.connect(Identity(name="dave")).join(a.room_id)
        assert dave.my_seat == 3 and room.settings.bot_levels == {}
        assert "bots normal" not in settings_summary(room.settings, "en")
    finally:
        await h.stop()


async def test_a_thinking_worker_is_deaf_to_ctrl_c() -> None:
    """Ctrl-C on `./manage serve` reaches the thinking pool's workers too (the
    terminal's process group): each printed a KeyboardInterrupt traceback. The
    server stops them; they ignore it and go on answering."""
    import os
    import signal

    from server.thinking import Thinker

    thinker = Thinker(workers=1)
    try:
        pid = await asyncio.wrap_future(thinker.pool.submit(os.getpid))  # started: its initializer ran
        os.kill(pid, signal.SIGINT)
        await asyncio.sleep(0.3)
        assert thinker.pool._processes[pid].is_alive()
        assert await asyncio.wrap_future(thinker.pool.submit(os.getpid)) == pid
    finally:
        thinker.close()
