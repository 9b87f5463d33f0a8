"""Each host screen fills itself (re-reads the host, re-draws) once when it is
mounted and shown, and once each time it is back on top.

Textual calls the ``on_mount``/``on_screen_resume`` of every class along the
MRO, so a subclass handler that also called ``super()``'s ran the base's twice
(three times for a subclass of a subclass): every login and every table paid
for whole refreshes two or three times over, plus the one of the resume that
shows a new screen, and the Overlord table ran two countdown timers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from fakes import FakeHub, settle
from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from table_fakes import open_table
from test_overlord_table import ROLES4, new_game
from test_sultans_table import DEAL_A

from protocol.contract import RoomSettings
from tui.app import ThroneApp
from tui.overlord.table import Table as OverlordTable
from tui.screens.base import HostScreen
from tui.screens.help import HelpScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.plain_table import PlainTableScreen
from tui.screens.room import RoomScreen
from tui.sultans.table import Table as SultansTable
from tui.tables import TableScreen


@pytest.fixture
def fills(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each screen class re-read the host (``refresh_data``)."""
    counts: Counter[str] = Counter()

    def counting(original: Callable[[Any], None]) -> Callable[[Any], None]:
        def counted(self: Any) -> None:
            counts[type(self).__name__] += 1
            original(self)

        return counted

    for cls in (LobbyScreen, RoomScreen, TableScreen):
        monkeypatch.setattr(cls, "refresh_data", counting(cls.refresh_data))
    return counts


def _tickers(screen: object) -> int:
    """The screen's one-second countdown ticks on the process-wide clock (tui/ticker.py)
    and Textual timers."""
    from tui.ticker import TICKER

    assert isinstance(screen, TableScreen)
    ticks = [ref() for ref, _, _ in TICKER._subs.values()]
    on_clock = sum(1 for m in ticks if m is not None and m.__self__ is screen and m.__func__ is type(screen)._tick)  # type: ignore[attr-defined]
    timers = sum(1 for timer in screen._timers if getattr(timer._callback, "__func__", None) is type(screen)._tick)
    return on_clock + timers


async def test_the_lobby_fills_itself_once_when_shown_and_once_when_back(hub: FakeHub, fills: Counter[str]) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert fills["LobbyScreen"] == 1
        await pilot.press("f1")  # help above the lobby, then back
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert fills["LobbyScreen"] == 1
        assert "if the Overlord has 40 gold (30 where the room chose the shorter game) he is crowned" in app.screen.text.plain
        assert "{" not in app.screen.text.plain  # every game's summary filled in
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert fills["LobbyScreen"] == 2


async def test_the_room_and_the_plain_table_fill_themselves_once(hub: FakeHub, fills: Counter[str]) -> None:
    client = hub.lobby("alice").create_room(RoomSettings(game="tokens", seats=3, options={"rounds": 1}))
    client.add_bot()
    client.add_bot()

    async def reconnect(expected: type[HostScreen]) -> None:
        """alice connects again: straight back to her room or table."""
        app = ThroneApp(hub.lobby("alice"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, expected)
            assert fills[expected.__name__] == 1
            if isinstance(app.screen, TableScreen):
                assert _tickers(app.screen) == 1

    await reconnect(RoomScreen)
    client.start()
    await reconnect(PlainTableScreen)


async def test_the_sultans_table_fills_itself_once_with_one_ticker(fills: Counter[str]) -> None:
    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with open_table(room, 0, SultansClient, SultansLobby, SultansTable) as (app, _pilot, _client):
        assert fills["Table"] == 1
        assert _tickers(app.screen) == 1


async def test_the_overlord_table_fills_itself_once_with_one_ticker(fills: Counter[str]) -> None:
    room = OverlordRoom(new_game(ROLES4), humans=(0,))
    async with open_table(room, 0, OverlordClient, OverlordLobby, OverlordTable) as (app, _pilot, _client):
        assert fills["Table"] == 1
        assert _tickers(app.screen) == 1


async def _styles_were_current(app: ThroneApp, pilot: Any) -> None:
    """The screen as shown equals the screen after re-applying the stylesheet to
    every widget (what Textual does when a screen comes on top, skipped for a
    screen shown for the first time: its widgets got their styles when mounted)."""
    await settle(pilot)
    shown = app.export_screenshot()
    app.screen.update_node_styles(animate=False)
    app.screen.refresh(layout=True)
    await settle(pilot)
    assert app.export_screenshot() == shown


async def test_a_new_screen_shows_current_styles_without_the_second_stylesheet_pass(hub: FakeHub) -> None:
    client = hub.lobby("bob").create_room(RoomSettings(game="tokens", seats=3, options={"rounds": 1}))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, LobbyScreen)
        await _styles_were_current(app, pilot)
        await pilot.press("enter")  # join bob's room
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        await _styles_were_current(app, pilot)
        await pilot.press("r")  # ready
        await settle(pilot)
        client.add_bot()
        client.start()
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        await _styles_were_current(app, pilot)
    for room, client_class, lobby_class, table in (
        (SultansRoom(5, deal=DEAL_A, first=0, humans=(0,)), SultansClient, SultansLobby, SultansTable),
        (OverlordRoom(new_game(ROLES4), humans=(0,)), OverlordClient, OverlordLobby, OverlordTable),
    ):
        async with open_table(room, 0, client_class, lobby_class, table) as (app, pilot, _client):  # type: ignore[arg-type]
            await _styles_were_current(app, pilot)


async def test_keys_do_not_search_for_a_tooltip_that_is_not_there(hub: FakeHub, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key made Textual look for the screen's tooltip by raising NoMatches (its
    message the repr of every child); the app mounts none, so a key looks no further.
    A tooltip that is there is still hidden, as Textual does."""
    from textual.widget import Widget
    from textual.widgets._tooltip import Tooltip

    searches: list[type] = []
    original = Widget.get_child_by_type

    def counted(self: Widget, expect_type: type) -> Any:
        searches.append(expect_type)
        return original(self, expect_type)

    monkeypatch.setattr(Widget, "get_child_by_type", counted)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        for key in "down", "up", "x":
            await pilot.press(key)
        await settle(pilot)
        assert Tooltip not in searches
        tip = Tooltip()
        await app.screen.mount(tip)
        tip.display = True
        app.screen._clear_tooltip()
        assert not tip.display
