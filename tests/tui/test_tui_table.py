"""Pilot tests of the plain table and the table-screen registry."""

from __future__ import annotations

import time

import pytest
from fakes import FakeHub, FakeLobby, FakeRoom, FakeRoomClient, screen_text, settle
from textual.app import ComposeResult
from textual.widgets import Input, Static

from protocol.contract import RoomSettings
from protocol.i18n import t
from tui.app import ThroneApp
from tui.screens.dialogs import ConfirmDialog, RoomSettingsDialog
from tui.screens.lobby import LobbyScreen
from tui.screens.plain_table import PlainTableScreen
from tui.screens.room import RoomScreen
from tui.tables import TableScreen, register_table, table_screen_for, unregister_table
from tui.widgets import KeyBar


def started(
    hub: FakeHub, who: str = "alice", *, bots: int = 2, rounds: int = 2, **settings: object
) -> tuple[FakeLobby, FakeRoomClient]:
    """A match under way with ``who`` at seat 0 and to move. The app under test
    gets its own room handle through ``current_room`` (a reconnect)."""
    lobby = hub.lobby(who)
    client = lobby.create_room(
        RoomSettings(game="tokens", seats=bots + 1, options={"rounds": rounds}, **settings)
    )
    for _ in range(bots):
        client.add_bot()
    client.start()
    return lobby, client


def only_room(hub: FakeHub) -> FakeRoom:
    (room,) = hub.rooms.values()
    return room


def acts(app: ThroneApp) -> list[tuple[str, int]]:
    """The actions the app's own room handle sent."""
    assert isinstance(app.room, FakeRoomClient)
    return app.room.acts


def view_text(app: ThroneApp, width: int = 100) -> str:
    """The whole rendered view of the plain table (not only what fits the pane)."""
    from rich.console import Console

    screen = app.screen
    assert isinstance(screen, PlainTableScreen) and screen.view_renderable is not None
    console = Console(width=width, color_system=None, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(screen.view_renderable)
    return console.export_text()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_play_a_whole_match_with_bots_then_play_again(hub: FakeHub, size: tuple[int, int]) -> None:
    lobby, _client = started(hub, bots=2, rounds=2)
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        text = screen_text(app)
        assert "Your move" in text
        assert "take two" in text
        assert "peek 1  (Bot 2)" in text  # seat numbers in actions (notation, from 0) carry the seat's name
        assert "red" not in text.split("Your card")[0]  # nothing about the others before a peek
        room = only_room(hub)
        turns = 0
        while room.state == "playing":
            await pilot.press("down", "enter")  # "take two"
            await settle(pilot)
            turns += 1
            assert turns < 10
        assert turns == 4  # two turns a round, two rounds
        text = screen_text(app)
        assert "The match is over. Press p to play again" in text
        view = view_text(app)
        assert "Scores" in view
        assert "Winners" in view
        assert "Play again" in text.splitlines()[-1]
        assert hub.leaders["alice"].matches == 1
        await pilot.press("p")
        await settle(pilot)
        assert only_room(hub).state == "playing"
        assert "Your move" in screen_text(app)


async def test_after_a_match_o_opens_the_waiting_room_with_the_settings(hub: FakeHub) -> None:
    lobby, _client = started(hub, bots=2, rounds=1)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        room = only_room(hub)
        while room.state == "playing":
            await pilot.press("down", "enter")  # "take two"
            await settle(pilot)
        assert "Press p to play again, or o to change the settings." in screen_text(app)
        bar = screen_text(app).splitlines()[-1]  # the status line names o: at 80 columns the bar keeps F2's label
        assert "Play again" in bar and "F2 中文" in bar, bar
        assert " o " not in bar or "o Settings" in bar, bar  # never a key without its label
        await pilot.press("o")  # the settings over the table: nobody is moved yet
        await settle(pilot)
        assert room.state == "finished"
        assert isinstance(app.screen, RoomSettingsDialog) and isinstance(app.screen_stack[-2], PlainTableScreen)
        await pilot.press("escape")  # cancelled: nothing changes, the table stays
        await settle(pilot)
        assert room.state == "finished" and isinstance(app.screen, PlainTableScreen)
        await pilot.press("o")
        await settle(pilot)
        app.screen.query_one("#seats", Input).value = "4"
        await pilot.click("#ok")  # saved: everyone back to the waiting room, with the settings
        await settle(pilot)
        assert room.state == "waiting" and isinstance(app.screen, RoomScreen)
        assert [s.kind for s in room.seats] == ["human", "bot", "bot", "empty"]


async def test_peek_shows_a_private_note(hub: FakeHub) -> None:
    lobby, _client = started(hub, bots=2)
    app = ThroneApp(lobby)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("down", "down", "enter")  # peek 1
        await settle(pilot)
        assert acts(app) == [("peek 1", 1)]
        room = only_room(hub)
        assert room.game is not None
        peeked = room.game.cards[1]
        view = view_text(app)
        assert "Notes" in view
        assert f"Card={peeked}" in view


async def test_nothing_is_played_without_the_player(hub: FakeHub) -> None:
    lobby, _client = started(hub, bots=2)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(0.2)
        hub.changed()
        await settle(pilot)
        assert acts(app) == []
        assert not any(c.acts for c in hub.clients)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_stale_action_is_refused_with_a_translated_message(hub: FakeHub, lang: str) -> None:
    lobby, _client = started(hub, bots=2)
    lobby.set_lang(lang)  # type: ignore[arg-type]
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        only_room(hub).version += 1  # the table moved on before the screen heard of it
        await pilot.press("enter")
        await settle(pilot)
        expected = "The table changed before your action arrived" if lang == "en" else "你的動作送到前牌局已經變了"
        assert expected in screen_text(app)
        assert acts(app)[-1] == ("take one", 1)


async def test_countdown_when_a_deadline_is_set(hub: FakeHub) -> None:
    lobby, _client = started(hub, bots=2, turn_timer=30)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        room = only_room(hub)
        room.deadline = time.time() + 12.4
        hub.changed()
        await settle(pilot)
        assert "⏱ 12 s" in screen_text(app)


async def test_countdown_ticks_by_the_second_only_for_a_seat_that_must_answer(hub: FakeHub) -> None:
    """The seat the clock runs against sees every second; a spectator sees the
    same deadline in steps of COARSE_CLOCK, so its screen is not repainted
    every second: rounded down (rounded up, 11 s left of a 12-s window read
    15 s, more than the window has), and by the second in the last step."""
    _lobby, _client = started(hub, "bob", bots=2, turn_timer=30)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        room = only_room(hub)
        room.deadline = time.time() + 12.4
        hub.changed()
        await settle(pilot)
        assert "⏱ 10 s" in screen_text(app)
        assert "⏱ 12 s" not in screen_text(app)
        room.deadline = time.time() + 9.4
        hub.changed()
        await settle(pilot)
        assert "⏱ 5 s" in screen_text(app)
        room.deadline = time.time() + 3.2
        hub.changed()
        await settle(pilot)
        assert "⏱ 3 s" in screen_text(app)


async def test_spectator_sees_the_table_without_actions(hub: FakeHub) -> None:
    started(hub, "bob", bots=2)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        text = screen_text(app)
        assert "You are watching" in text
        assert "No actions now" in text
        assert "take one" not in text
        await pilot.press("escape")  # a spectator leaves without a question
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


async def test_a_kept_seat_names_its_room_apart_in_chinese(hub: FakeHub) -> None:
    # "你在 alice 的牌桌 的座位保留著" ran an unnamed room's name into the sentence
    lobby = hub.lobby("alice", lang="zh")
    client = lobby.create_room(RoomSettings(game="tokens", seats=3, options={"rounds": 2}))
    client.add_bot()
    client.add_bot()
    client.start()
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "你在「alice 的牌桌」的座位保留著：選它按 Enter 回去。" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_stray_escape_as_the_table_opens_does_not_ask_to_leave(
    hub: FakeHub, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], lang: str
) -> None:
    """An Escape meant for the waiting room (its chat, its Leave) reached the table
    that the host's start opened under it: "Leave the table?" came up. An Escape
    within STRAY_ESC_SECONDS of the table opening does nothing (a spectator stays
    watching too); after it, Escape asks as the key bar says."""
    import tui.tables

    clock = [1000.0]
    monkeypatch.setattr(tui.tables, "STRAY_ESC_SECONDS", 1.0)
    monkeypatch.setattr(tui.tables, "_now", lambda: clock[0])
    lobby = hub.lobby("alice", lang="zh" if lang == "zh" else "en")
    client = lobby.create_room(RoomSettings(game="tokens", seats=3, options={"rounds": 2}))
    client.add_bot()
    client.add_bot()
    client.start()
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen) and app.screen.opened_at == clock[0]
        clock[0] += 0.9
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        clock[0] += 0.2
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert t("confirm.leave_table", app.screen.lang)[:8] in screen_text(app)
    watcher = ThroneApp(hub.lobby("carol", lang="zh" if lang == "zh" else "en"))
    async with watcher.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(watcher.screen, PlainTableScreen)
        watcher.screen.opened_at = clock[0]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(watcher.screen, PlainTableScreen)  # still watching
        clock[0] += 1.0
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(watcher.screen, LobbyScreen)


async def test_leaving_a_running_match_asks_first(hub: FakeHub) -> None:
    lobby, _client = started(hub, bots=2)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # no
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        room = only_room(hub)
        assert room.seats[0].autoplay  # the seat stays alice's
        assert room.seat_of("alice") == 0
        assert not app._notifications  # leaving is not being removed
        text = screen_text(app)
        assert "Your seat in" in text and "is kept: Enter on it takes you back." in text
        assert "playing · your seat" in text
        other = ThroneApp(hub.lobby("bob"))  # another player's lobby marks no seat
        async with other.run_test(size=(80, 24)) as other_pilot:
            await settle(other_pilot)
            assert "your seat" not in screen_text(other) and "playing" in screen_text(other)
        await pilot.press("enter")  # and back to the seat from the lobby
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        assert not room.seats[0].autoplay


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_markup_hostile_names_at_the_table(hub: FakeHub, size: tuple[int, int]) -> None:
    lobby, client = started(hub, "[/b]", bots=2, name="[red]x[/red]")
    client.chat("[bold]hi[/bold]")
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "[/b]" in text
        assert "[red]x[/red]" in text
        assert "[bold]hi[/bold]" in text


async def test_table_in_traditional_chinese(hub: FakeHub) -> None:
    lobby, _client = started(hub, "阿明", bots=2)
    lobby.set_lang("zh")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "輪到你了" in text
        assert "你的動作" in text
        assert "出手" in text  # key bar


class CustomTable(TableScreen):
    """A stand-in for a game's own table screen."""

    updates = 0

    def compose(self) -> ComposeResult:
        yield Static("custom table", id="custom")
        yield KeyBar()

    def update_table(self) -> None:
        CustomTable.updates += 1
        assert self.snap is not None


async def test_a_registered_table_screen_replaces_the_plain_one(hub: FakeHub) -> None:
    register_table("tokens", CustomTable)
    try:
        assert table_screen_for("tokens") is CustomTable
        lobby, client = started(hub, bots=2)
        app = ThroneApp(lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, CustomTable)
            before = CustomTable.updates
            client.chat("hello")
            await settle(pilot)
            assert CustomTable.updates > before
            assert isinstance(app.screen, CustomTable)
            screen = app.screen
            assert screen.play("take one")
            assert acts(app) == [("take one", 1)]
    finally:
        unregister_table("tokens")


def test_games_without_a_table_get_the_plain_one() -> None:
    assert table_screen_for("no-such-game") is PlainTableScreen
    assert table_screen_for("tokens") is PlainTableScreen
    assert table_screen_for("with space") is PlainTableScreen


async def test_room_back_to_waiting_hands_over_to_the_waiting_room(hub: FakeHub) -> None:
    lobby, _client = started(hub, bots=2)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        only_room(hub).state = "waiting"
        hub.changed()
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)


def test_a_choice_line_too_long_shows_the_choices_around_the_one_picked() -> None:
    """A Bureaucrat's 14 cards at 100 columns: 1-6 were shown, 7-14 typed blind."""
    from tui.table_common import choice_window

    labels = [f"{n}=[Card {n}]" for n in range(1, 15)]  # 11-12 cells each, 2 between
    assert choice_window(labels, 0, 400) == (0, 14)  # all fit
    start, end = choice_window(labels, 0, 60)
    assert start == 0 and 3 <= end < 14
    start, end = choice_window(labels, 12, 60)
    assert start <= 12 < end and start > 0
    start, end = choice_window(labels, 13, 60)
    assert end == 14 and start > 0
    assert choice_window(labels, 5, 5) == (5, 6)  # too narrow even for one: that one, cut by the line
    assert choice_window([], 0, 10) == (0, 0)
