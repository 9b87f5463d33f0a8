"""Ctrl+C and Ctrl+Q ask before leaving, as the lobby's q does, on every screen.

Textual's own bindings quit at once on Ctrl+Q and answered Ctrl+C with an
English notice ("Do you want to quit? Press ctrl+q to quit the app")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal

import pytest
from fakes import FakeHub, screen_text, settle
from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from table_fakes import open_table
from textual.pilot import Pilot
from textual.widgets import Input

from engine.overlord import Game
from tui.app import QuitDialog, ThroneApp
from tui.client import RoomSettings
from tui.i18n import t
from tui.overlord.table import Table as OverlordTable
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.help import HelpScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.room import RoomScreen
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


OPENERS = {
    "lobby": lobby,
    "room": room,
    "sultans": sultans,
    "overlord": overlord,
    "help": help_dialog,
    "new-room": new_room_dialog,
    "lobby-chat": lobby_chat,
}


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
@pytest.mark.parametrize("where", list(OPENERS))
async def test_ctrl_c_and_ctrl_q_ask_before_leaving_as_q_does(
    where: str, key: str, lang: Lang, size: tuple[int, int]
) -> None:
    async with OPENERS[where](lang, size) as (app, pilot):
        before = app.screen
        await pilot.press(key)
        await settle(pilot)
        assert isinstance(app.screen, QuitDialog), (where, key)
        text = screen_text(app)
        assert t("confirm.quit", lang) in text
        assert "press ctrl+q" not in text.lower() and "Do you want to quit" not in text
        await pilot.press(key)  # pressed again: asked once
        await settle(pilot)
        assert sum(isinstance(s, QuitDialog) for s in app.screen_stack) == 1
        assert app.is_running
        await pilot.press("n")  # no: back where the player was
        await settle(pilot)
        assert app.screen is before and app.is_running
        await pilot.press(key)
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert app._exit


async def test_the_lobby_s_q_still_asks() -> None:
    async with lobby("en", (80, 24)) as (app, pilot):
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, QuitDialog)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
