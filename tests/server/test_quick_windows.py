"""Quick windows (S-REACT-5, K-ORD-11) in the room runtime, with the room's clock
under the test's control (tests/server/fakeclock.py).

The counting game (tests/server/games.py, C-WINDOW) opens a window in which
a seat with an odd secret may ``echo``; a seat with an even one can only pass.
The timing test plays real deals of both games, each twice.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from fakeclock import FakeClock
from games import CountOptions, CountTable, make_spec
from hubs import new_hub
from pydantic import BaseModel

from engine.api import Bot, GameTable
from engine.sultans import Match, Round, SultansOptions
from engine.sultans.bots import make_bot as sultans_bot
from protocol.contract import Identity, RoomSettings
from server.hub import Hub
from server.room import Room, RoomSession


def secrets_spec(secrets: Sequence[int]) -> Any:
    """The counting game with every seat's secret fixed (C-DEAL): odd may echo."""

    def new_table(players: int, seed: int, options: BaseModel) -> GameTable:
        table = CountTable(players, seed, CountOptions.model_validate(options.model_dump()))
        table._secrets = list(secrets)
        return table

    return make_spec(new_table=new_table)


async def count_room(
    secrets: Sequence[int], *, strict: bool = False, window_min: float = 2.0, ask_every: Sequence[str] = (), **kw: Any
) -> tuple[Hub, FakeClock, list[RoomSession]]:
    """alice hosts a room of len(secrets) humans (alice, bob, carol, dan...) on a fake clock; started."""
    hub = new_hub(games={"count": secrets_spec(secrets)}, time_scale=1.0)
    await hub.start()
    clock = FakeClock().install(hub)
    names = ["alice", "bob", "carol", "dan", "erin", "fred"][: len(secrets)]
    settings = RoomSettings(
        game="count", seats=len(secrets), turn_timer=0, window_timer=0, strict_windows=strict, window_min=window_min, **kw
    )
    a = hub.connect(Identity(name="alice", ask_every="alice" in ask_every)).create_room(settings)
    clients = [a]
    for name in names[1:]:
        rc = hub.connect(Identity(name=name, ask_every=name in ask_every)).join(a.room_id)
        rc.set_ready(True)
        clients.append(rc)
    a.start()
    await clock.settle()
    return hub, clock, clients


def open_window(clients: Sequence[RoomSession]) -> None:
    """The count goes to 4 (add 1, add 3): a window opens (C-WINDOW) for every seat but the adder."""
    for amount in (1, 3):
        mover = next(c for c in clients if c.pending())
        mover.act(f"add {amount}", mover.snapshot().version)


def room(rc: RoomSession) -> Room:
    return rc.room


async def test_quick_window_passes_at_once_for_seats_with_only_pass_and_asks_the_others() -> None:
    """S-REACT-5 / K-ORD-11: the room answers pass for a seat whose only answer is
    pass (a bell, like Claim the Throne, is no answer): no prompt on its screen; a
    seat with a real choice is asked."""
    hub, _clock, (a, b, c, d) = await count_room([1, 2, 3, 4])
    try:
        open_window([a, b, c, d])  # alice adds 1, bob adds 3: the window asks alice, carol, dan
        r = room(a)
        assert r.table is not None and r.table.is_window()
        assert r.table.pending() == {0, 2, 3}  # the engine still asks everyone but the actor
        assert a.pending() and "echo" in a.legal()  # alice (1) may echo: asked
        assert c.pending() and "echo" in c.legal()  # carol (3) too
        assert not d.pending() and d.nothing_to_answer()  # dan (4): nothing to answer
        assert "pass" not in d.legal() and d.legal() == ["bell"]  # the bell stays his (no answer)
        assert not b.pending() and not b.nothing_to_answer()  # bob acted: not asked
    finally:
        await hub.stop()


async def test_a_quick_window_stays_open_its_minimum_time_whatever_the_answers() -> None:
    """S-REACT-5 / K-ORD-11: every seat answered (or was answered for) at once, yet the
    window resolves only once its minimum time has passed since it opened."""
    hub, clock, (a, b, c, d) = await count_room([2, 2, 2, 2], window_min=3.0)
    try:
        open_window([a, b, c, d])
        r = room(a)
        assert r.table is not None and r.table.is_window()
        assert all(x.nothing_to_answer() for x in (a, c, d))
        await clock.advance(2.9)
        assert r.table.is_window()  # still open
        await clock.advance(0.2)
        assert not r.table.is_window()  # closed at 3 s
        assert "window closed; echoed: nobody" in a.view().model_dump()["events"]  # type: ignore[union-attr]
    finally:
        await hub.stop()


async def test_the_last_answer_before_the_minimum_time_is_kept_until_then() -> None:
    """S-REACT-5: a window where everyone asked has a real choice and answers at
    once still lasts its minimum time; the last answer is kept, its screen shows no
    prompt, a second answer from it is refused."""
    hub, clock, (a, b, c, d) = await count_room([1, 1, 1, 1])
    try:
        open_window([a, b, c, d])
        r = room(a)
        assert r.table is not None
        for x in (a, c, d):
            assert x.pending()
            x.act("echo", x.snapshot().version)
        assert r.table.is_window() and not d.pending() and not d.nothing_to_answer()
        assert d.legal() == ["bell"]
        with pytest.raises(Exception) as err:
            d.act("pass", d.snapshot().version)
        assert getattr(err.value, "code", "") in ("illegal", "stale")
        await clock.advance(2.1)
        assert not r.table.is_window()
        assert r.table.standings()[3] == 1  # dan's kept echo counted
    finally:
        await hub.stop()


async def test_a_kept_answer_refused_at_the_close_does_not_hold_the_window() -> None:
    """S-REACT-5: an answer kept until the minimum time that the table refuses then
    is replaced by the table's default (K-TIME-1/S-TIME-1's pass): the window closes
    at its minimum time, even without a reaction timer."""
    hub, clock, (a, b, c, d) = await count_room([1, 1, 1, 1])
    try:
        open_window([a, b, c, d])
        r = room(a)
        table = r.table
        assert table is not None
        for x in (a, c, d):
            x.act("echo", x.snapshot().version)  # dan's, the last, is kept
        play = table.play

        def refuse_echo(seat: int, text: str) -> None:
            if text == "echo":
                from engine.api import IllegalAction

                raise IllegalAction("no echo now", code="illegal", text=text, seat=seat)
            play(seat, text)

        table.play = refuse_echo  # type: ignore[method-assign]
        await clock.advance(2.1)
        assert not table.is_window()
        assert table.standings()[3] == 0  # dan passed
    finally:
        await hub.stop()


async def test_ask_me_in_every_window_prompts_a_seat_with_only_pass() -> None:
    """S-REACT-5: a player who chose "ask me in every window" is asked even with
    only pass to answer; turning it on during a window asks them at once."""
    hub, clock, (a, b, c, d) = await count_room([2, 2, 2, 2], ask_every=("carol",))
    try:
        open_window([a, b, c, d])
        assert c.pending() and c.legal()[:1] == ["pass"]
        assert a.nothing_to_answer() and d.nothing_to_answer()
        await clock.advance(5)
        assert room(a).table is not None and room(a).table.is_window()  # carol has not answered
        lobby_d = next(s for s in hub.sessions if s.identity.name == "dan")
        lobby_d.set_ask_every(True)
        assert d.pending() and not d.nothing_to_answer()
        assert hub.storage.get_ask_every("dan") is True  # kept with the key (the name's row)
    finally:
        await hub.stop()


async def test_strict_windows_ask_everyone_as_before() -> None:
    """S-REACT-2 / K-ORD-5 as written, the "strict windows" setting: everyone asked answers."""
    hub, clock, (a, b, c, d) = await count_room([2, 2, 2, 2], strict=True)
    try:
        open_window([a, b, c, d])
        assert all(x.pending() and not x.nothing_to_answer() for x in (a, c, d))
        assert a.view().model_dump()["owed"] == [0, 2, 3]  # type: ignore[union-attr]
        await clock.advance(10)
        assert room(a).table is not None and room(a).table.is_window()
    finally:
        await hub.stop()


async def test_quick_views_say_nothing_of_who_answered() -> None:
    """S-REACT-5 / K-ORD-11: in a quick window no view (seat or spectator) says who
    has answered or how many still owe; each seat sees its own state only."""
    hub, clock, (a, b, c, d) = await count_room([1, 2, 1, 2])
    try:
        watcher = hub.connect(Identity(name="eve")).watch(a.room_id)
        open_window([a, b, c, d])
        before = {x.identity.name: x.view().model_dump() for x in (b, d, watcher)}  # type: ignore[union-attr]
        assert before["eve"]["owed"] == [] and before["bob"]["owed"] == []
        a.act("echo", a.snapshot().version)  # alice answers; carol still owes
        await clock.settle()
        after = {x.identity.name: x.view().model_dump() for x in (b, d, watcher)}  # type: ignore[union-attr]
        assert after == before
        assert c.view().model_dump()["owed"] == [2]  # type: ignore[union-attr]
        assert a.view().model_dump()["owed"] == []  # type: ignore[union-attr]
    finally:
        await hub.stop()


@pytest.mark.parametrize("strict", [False, True])
async def test_an_answer_inside_a_quick_window_is_told_to_its_own_screens_only(strict: bool) -> None:
    """S-REACT-5 / K-ORD-11: an answer after which the window stays open changes no
    other screen, so no other screen is even told (its frames cannot show when
    someone answered); strict windows tell everyone (their count changes)."""
    hub, clock, (a, b, c, d) = await count_room([1, 2, 1, 2], strict=strict)
    try:
        watcher = hub.connect(Identity(name="eve")).watch(a.room_id)
        open_window([a, b, c, d])
        await clock.settle()
        calls = {x.identity.name: 0 for x in (a, b, c, d, watcher)}
        for x in (a, b, c, d, watcher):
            x.set_listener(lambda name=x.identity.name: calls.__setitem__(name, calls[name] + 1))
        a.act("echo", a.snapshot().version)  # alice answers; carol still owes
        await clock.settle()
        if strict:
            assert all(n == 1 for n in calls.values()), calls
        else:
            assert calls == {"alice": 1, "bob": 0, "carol": 0, "dan": 0, "eve": 0}
            c.act("pass", c.snapshot().version)  # the last answer: the window closes at 2 s
            await clock.advance(2.1)
            assert all(n >= 1 for n in calls.values()), calls  # the close is everyone's news
    finally:
        await hub.stop()


class EchoBot:
    """Adds 1 on its turn; echoes whenever it may (a real choice in every window)."""

    def __init__(self, seat: int, kind: str, seed: int) -> None:
        pass

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not pending:
            return None
        return "echo" if "echo" in legal else "pass" if "pass" in legal else "add 1"


async def test_bots_with_a_real_choice_answer_within_the_minimum_time() -> None:
    """S-REACT-5 / K-ORD-11: bots that may echo answer inside the window's minimum
    time, whatever the room's bot delay (10 s here), so the window closes at its
    minimum (2 s), as it would if they had nothing to answer."""
    spec = dataclasses.replace(secrets_spec([2, 1, 1, 1]), new_bot=EchoBot)
    hub = new_hub(games={"count": spec}, time_scale=1.0)
    await hub.start()
    clock = FakeClock().install(hub)
    try:
        a = hub.connect(Identity(name="alice")).create_room(
            RoomSettings(game="count", seats=4, turn_timer=0, window_timer=0, bot_delay=10.0)
        )
        for _ in range(3):
            a.add_bot()
        a.start()
        r = room(a)
        await clock.settle()
        a.act("add 1", a.snapshot().version)  # then each bot adds 1: the third makes 4 (C-WINDOW)
        opened = None
        for _ in range(5000):
            await clock.advance(0.01, step=0.01)
            if r.table is not None and r.table.is_window():
                opened = clock.now
                break
        assert opened is not None and a.nothing_to_answer()
        await clock.advance(1.9, step=0.01)
        assert r.table is not None and r.table.is_window()
        await clock.advance(0.2, step=0.01)
        assert not r.table.is_window()  # closed at its minimum, not after the bots' 10 s
        assert r.table.standings()[1:] == [1, 1, 0]  # bots 1 and 2 echoed (bot 3 opened it)
    finally:
        await hub.stop()


# ------------------------------------------------------------------ timing test


class PassingBot:
    """A bot that lets every window go (it holds a card that could react and does not use it)."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if pending and "pass" in legal:
            return "pass"
        return None if not pending else self.inner.act(view, legal, pending)


def sultans_spec(deal: list[str], spare: str) -> Any:
    from engine.sultans.spec import SPEC

    def new_table(players: int, seed: int, options: BaseModel) -> GameTable:
        match = Match(players, seed, SultansOptions.model_validate(options.model_dump()))
        match.round = Round.new(deal, spare, first=1)
        return match

    def new_bot(seat: int, kind: str, seed: int) -> Bot:
        return PassingBot(sultans_bot(seat, kind, seed))

    return dataclasses.replace(SPEC, new_table=new_table, new_bot=new_bot)


# Seat 1 (the Assassin) attacks seat 3. Seat 0 sits next to the Assassin: in deal A it
# holds the Guard (it could block), in deal B a Slave (only pass); the Guard is the
# spare then. Nothing else differs, and seat 0's card is seen by nobody else.
DEAL_A = (["guard", "assassin", "sultan", "slave", "slave"], "slave")
DEAL_B = (["slave", "assassin", "sultan", "slave", "slave"], "guard")


def overlord_spec(hands: list[list[str]]) -> Any:
    from engine.overlord import Game
    from engine.overlord.spec import SPEC

    deck = ["victimize"] * 5 + ["capitalize"] * 4 + ["extortion"] * 3 + ["sidestep"] * 4  # no reaction card

    def new_table(players: int, seed: int, options: BaseModel) -> GameTable:
        return Game.new(roles=["overlord", "captain", "squire", "peasant"], hands=hands, deck=deck, seed=1)

    def new_bot(seat: int, kind: str, seed: int) -> Bot:
        return PassingBot(SPEC.new_bot(seat, kind, seed))

    return dataclasses.replace(SPEC, new_table=new_table, new_bot=new_bot)


# Kill the Overlord: the Overlord (0) commands the Captain (1); the Plead Guilty window
# asks 0, 2 and 3 (K-ORD-5). Seat 3 holds Plead Guilty in deal A (it could take the
# order), Extortion in deal B (only pass); the others can only pass.
OV_A = [["capitalize"], ["sidestep"], ["extortion"], ["plead-guilty"]]
OV_B = [["capitalize"], ["sidestep"], ["extortion"], ["extortion"]]


@dataclass
class Scene:
    """One game's two deals for the timing test."""

    game: str
    specs: tuple[Any, Any]
    players: int
    x: int  # the seat whose card differs: it lets the window go
    actor: int  # the seat whose action opens the window
    action: str

    def phase(self, view: dict[str, Any]) -> str:
        return str(view["round"]["phase"] if self.game == "sultans" else (view["prompt"] or {}).get("kind"))


SCENES = {
    "sultans": Scene("sultans", (sultans_spec(*DEAL_A), sultans_spec(*DEAL_B)), 5, 0, 1, "assassinate 3"),
    "overlord": Scene("overlord", (overlord_spec(OV_A), overlord_spec(OV_B)), 4, 3, 0, "order 1"),
}


async def record_screens(scene: Scene, spec: Any, x_kind: str) -> tuple[list[Any], dict[str, Any]]:
    """Play the deal on a fake clock; every 0.1 s for 5 s, what every seat but ``scene.x``
    and a spectator are shown. ``x_kind``: "bot" (a bot that lets the window go),
    "human" (passes at 0.7 s when it has a real choice; the room passes for it when it
    has none)."""
    hub = new_hub(games={scene.game: spec}, time_scale=1.0, bot_delay=1.0)
    await hub.start()
    clock = FakeClock().install(hub)
    names = ["ann", "bob", "carol", "dan", "erin"]
    try:
        settings = RoomSettings(game=scene.game, seats=scene.players, turn_timer=60, window_timer=20, bot_delay=1.0)
        host_seat = next(s for s in range(scene.players) if s != scene.x)
        host = hub.connect(Identity(name=names[host_seat])).create_room(settings)
        if host.my_seat != host_seat:
            host.take_seat(host_seat)
        if x_kind == "bot":
            host.add_bot(scene.x)
        sessions = {host_seat: host}
        for seat in range(scene.players):
            if seat == host_seat or (seat == scene.x and x_kind == "bot"):
                continue
            rc = hub.connect(Identity(name=names[seat])).join(host.room_id)
            if rc.my_seat != seat:
                rc.take_seat(seat)
            rc.set_ready(True)
            sessions[seat] = rc
        watcher = hub.connect(Identity(name="zoe")).watch(host.room_id)
        r = room(host)
        r._think = random.Random(5)  # the same bot thinking times in both deals
        host.start()
        await clock.settle()
        assert r.table is not None and r.is_pending(scene.actor)
        sessions[scene.actor].act(scene.action, sessions[scene.actor].snapshot().version)
        await clock.settle()
        assert r.table.is_window()
        x = scene.x
        facts: dict[str, Any] = {"x_pending": r.is_pending(x), "x_nothing": r.nothing_to_answer(x)}
        frames: list[Any] = []
        for step in range(50):  # 5 s: the window opens, closes, and the next decision waits
            if x_kind == "human" and step == 7 and r.is_pending(x):
                sessions[x].act("pass", sessions[x].snapshot().version)
            frame = []
            for seat in sorted(sessions):
                if seat == x:
                    continue
                rc = sessions[seat]
                snap = rc.snapshot().model_dump()
                snap.pop("version")
                frame.append((seat, rc.view().model_dump(), rc.legal(), rc.pending(), rc.nothing_to_answer(), snap))  # type: ignore[union-attr]
            spectator = watcher.snapshot().model_dump()
            spectator.pop("version")
            frame.append((None, watcher.view().model_dump(), spectator))  # type: ignore[union-attr]
            frame.append([line.model_dump() for line in watcher.chat_lines()])
            frames.append(frame)
            await clock.advance(0.1)
        first = scene.phase(frames[0][-2][1])
        facts["closed_at"] = next(i for i, f in enumerate(frames) if scene.phase(f[-2][1]) != first)
        return frames, facts
    finally:
        await hub.stop()


@pytest.mark.parametrize("x_kind", ["bot", "human"])
@pytest.mark.parametrize("game", ["sultans", "overlord"])
async def test_timing_leaks_nothing_of_who_could_react(game: str, x_kind: str) -> None:
    """S-REACT-5 / K-ORD-11: two deals that differ only in whether a seat that lets
    the window go (a Sultans Block window, an Overlord Plead Guilty window) holds a
    card that could react (a bot that decides, or a human who passes at 0.7 s) or
    holds nothing (the room passes for it) give every other seat and the spectator
    the same screens at the same times, the window's close included (at its 2 s
    minimum)."""
    scene = SCENES[game]
    frames_a, facts_a = await record_screens(scene, scene.specs[0], x_kind)
    frames_b, facts_b = await record_screens(scene, scene.specs[1], x_kind)
    assert facts_a["x_pending"] and not facts_a["x_nothing"]  # A: a real choice
    assert not facts_b["x_pending"] and facts_b["x_nothing"]  # B: the room passes for it
    assert facts_a["closed_at"] == facts_b["closed_at"] == 20  # 2.0 s after the window opened
    for i, (fa, fb) in enumerate(zip(frames_a, frames_b, strict=True)):
        assert fa == fb, f"the screens differ at {i / 10:.1f} s"


async def test_who_is_asked_never_depends_on_the_cards() -> None:
    """S-REACT-2 / S-REACT-5: the engine asks the same seats in both deals; only the
    room's answering for a seat with nothing to answer differs, and no one sees it."""
    tables = []
    for deal, spare in (DEAL_A, DEAL_B):
        r = Round.new(deal, spare, first=1)
        r.play(1, "assassinate 3")
        tables.append(r)
    assert tables[0].pending() == tables[1].pending() == {0, 2, 3, 4}


async def test_the_window_settings_are_held_to_their_bounds_and_their_change_is_said() -> None:
    """S-REACT-5: a window's minimum time is at least 1 s (and at most WINDOW_MIN's
    most); switching to strict windows is named in the room's chat."""
    from protocol.contract import WINDOW_MIN

    hub = new_hub()
    await hub.start()
    try:
        a = hub.connect(Identity(name="alice")).create_room(RoomSettings(game="count", seats=3, window_min=0.2))
        assert a.snapshot().settings.window_min == WINDOW_MIN[0] == 1.0
        a.update_settings(a.snapshot().settings.model_copy(update={"window_min": 99.0, "strict_windows": True}))
        settings = a.snapshot().settings
        assert settings.window_min == WINDOW_MIN[1] and settings.strict_windows
        said = a.chat_lines()[-1]
        assert said.key == "sys.settings_changed_what" and "strict windows" in said.text and "window minimum" in said.text
    finally:
        await hub.stop()
