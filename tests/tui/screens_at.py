"""Every kind of screen a player meets, opened for a test: each opener is an
async context manager giving the app and its pilot, settled on that screen."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Literal

from fakes import FakeHub, settle
from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from table_fakes import open_table
from textual.pilot import Pilot
from textual.widgets import Input

from engine.overlord import Game
from protocol.contract import RoomSettings
from tui.app import ThroneApp
from tui.overlord.table import Table as OverlordTable
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.help import HelpScreen
from tui.screens.room import RoomScreen
from tui.screens.round_results import RoundResults
from tui.sultans.table import Table as SultansTable

Lang = Literal["en", "zh"]
Opened = tuple[ThroneApp, Pilot[None]]


@asynccontextmanager
async def lobby(lang: Lang, size: tuple[int, int], keys: tuple[str, ...] = ()) -> AsyncIterator[Opened]:
    hub = FakeHub()
    hub.lobby("bob").create_room(RoomSettings(name="open room"))
    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if keys:
            await pilot.press(*keys)
            await settle(pilot)
        yield app, pilot


@asynccontextmanager
async def room(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with lobby(lang, size, ("enter",)) as (app, pilot):
        assert isinstance(app.screen, RoomScreen)
        yield app, pilot


@asynccontextmanager
async def room_host(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    """A host's waiting room, every seat taken by bots, a bot highlighted (all the host's keys)."""
    hub = FakeHub()
    lobby_client = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby_client)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.enter_room(lobby_client.create_room(RoomSettings(name="mine", seats=5)), watching=False)
        await settle(pilot)
        await pilot.press("a", "a", "a", "a", "down")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        yield app, pilot


@asynccontextmanager
async def room_chat(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with room(lang, size) as (app, pilot):
        await pilot.press("t")
        await settle(pilot)
        yield app, pilot


@asynccontextmanager
async def sultans_turn(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    """A Sultans turn with three actions (peek, swap, revolt)."""
    table = SultansRoom(5, deal=["slave", "assassin", "guard", "sultan", "slave"], first=0, humans=(0,))
    async with open_table(table, 0, SultansClient, SultansLobby, SultansTable, size=size, lang=lang) as (app, pilot, _c):
        yield app, pilot


@asynccontextmanager
async def sultans_chat(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with sultans_turn(lang, size) as (app, pilot):
        await pilot.press("t")
        await settle(pilot)
        yield app, pilot


@asynccontextmanager
async def overlord_pick(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with overlord(lang, size) as (app, pilot):
        await pilot.press("o")
        await settle(pilot)
        yield app, pilot


@asynccontextmanager
async def sultans(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    table = SultansRoom(5, deal=["guard", "assassin", "slave", "sultan", "slave"], humans=(0,))
    async with open_table(table, 0, SultansClient, SultansLobby, SultansTable, size=size, lang=lang) as (app, pilot, _c):
        yield app, pilot


@asynccontextmanager
async def overlord(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    game = Game.new(roles=["overlord", "captain", "squire", "peasant"], seed=1)
    table = OverlordRoom(game, humans=(0,))
    async with open_table(table, 0, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang) as (app, pilot, _c):
        yield app, pilot


@asynccontextmanager
async def help_dialog(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with lobby(lang, size, ("f1",)) as (app, pilot):
        assert isinstance(app.screen, HelpScreen)
        yield app, pilot


@asynccontextmanager
async def new_room_dialog(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with lobby(lang, size, ("c",)) as (app, pilot):
        assert isinstance(app.screen, RoomSettingsDialog)
        yield app, pilot


@asynccontextmanager
async def lobby_chat(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    async with lobby(lang, size, ("t", "h", "i")) as (app, pilot):
        assert isinstance(app.focused, Input)
        yield app, pilot


Opener = Callable[[Lang, tuple[int, int]], AbstractAsyncContextManager[Opened]]
OPENERS: dict[str, Opener] = {
    "lobby": lobby,
    "room": room,
    "sultans": sultans,
    "overlord": overlord,
    "help": help_dialog,
    "new-room": new_room_dialog,
    "lobby-chat": lobby_chat,
}




@asynccontextmanager
async def empty_lobby(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    app = ThroneApp(FakeHub().lobby("alice", lang=lang))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        yield app, pilot


async def _the_table_after_the_match(app: ThroneApp, pilot: Pilot[None]) -> None:
    """The match's result opens over the table at its end: look at the table."""
    if isinstance(app.screen, RoundResults):
        await pilot.press("escape")
        await settle(pilot)


@asynccontextmanager
async def overlord_over(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    """The host's table after an Overlord match (the host's p and o)."""
    game = Game.new(roles=["overlord", "captain", "squire", "peasant"], seed=1, round_limit=1)
    while game.outcome() is None:
        seat = min(game.pending())
        game.play(seat, game.timeout_action(seat))
    table = OverlordRoom(game, humans=(0,))
    async with open_table(table, 0, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang) as (app, pilot, _c):
        await _the_table_after_the_match(app, pilot)
        yield app, pilot


@asynccontextmanager
async def overlord_result(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    """The game's result over the host's table after an Overlord match (its p and o)."""
    game = Game.new(roles=["overlord", "captain", "squire", "peasant"], seed=1, round_limit=1)
    while game.outcome() is None:
        seat = min(game.pending())
        game.play(seat, game.timeout_action(seat))
    table = OverlordRoom(game, humans=(0,))
    async with open_table(
        table, 0, OverlordClient, OverlordLobby, OverlordTable, size=size, lang=lang, results=True
    ) as (app, pilot, _c):
        assert isinstance(app.screen, RoundResults)
        yield app, pilot


@asynccontextmanager
async def sultans_over(lang: Lang, size: tuple[int, int]) -> AsyncIterator[Opened]:
    """The host's table after a Sultans match, as its room says it."""
    table = SultansRoom(5, deal=["guard", "assassin", "slave", "sultan", "slave"], humans=(0,))
    playing = table.snapshot
    table.snapshot = lambda: playing().model_copy(update={"state": "finished"})  # type: ignore[method-assign]
    async with open_table(table, 0, SultansClient, SultansLobby, SultansTable, size=size, lang=lang) as (app, pilot, _c):
        await _the_table_after_the_match(app, pilot)
        yield app, pilot


AFTER_A_MATCH: dict[str, Opener] = {"overlord-over": overlord_over, "sultans-over": sultans_over}
"""A host's table when the match is over."""

WITH_KEY_BARS: dict[str, Opener] = {
    **OPENERS,
    "empty-lobby": empty_lobby,
    "room-host": room_host,
    "room-chat": room_chat,
    "sultans-turn": sultans_turn,
    "sultans-chat": sultans_chat,
    "overlord-pick": overlord_pick,
    **AFTER_A_MATCH,
    "overlord-result": overlord_result,
}
"""Every screen above and a few more states of each: all show a key bar."""
