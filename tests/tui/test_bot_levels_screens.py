"""Bot levels in the screens (issue 48): the room dialog chooses a level for all
bots and per bot seat (in either language's words), the waiting room's seats
and its settings line show them, at 80x24 and 60x20, in English and Chinese."""

from __future__ import annotations

import re

import pytest
from fakes import FakeHub, open_new_room_dialog, screen_text, settle, settle_in_chinese
from textual.widgets import Input, Select, Static

from engine.api import BOT_LEVELS
from protocol.contract import RoomSettings
from protocol.i18n import Lang, level_name
from tui.app import ThroneApp
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.room import RoomScreen
from tui.summary import settings_summary

SIZES = [(80, 24), (60, 20)]
WORDS = {"en": ("easy", "normal"), "zh": ("簡單", "普通")}


async def submit(dialog: RoomSettingsDialog, pilot: object) -> None:
    """Enter in the field just typed (at 60x20 the OK button is below the fold)."""
    dialog.query_one("#bot_levels", Input).focus()
    await pilot.pause(0.3)  # type: ignore[attr-defined]  # one answer at a time
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(pilot)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES)
async def test_the_dialog_sets_levels_and_the_room_shows_them(hub: FakeHub, size: tuple[int, int], lang: Lang) -> None:
    easy, normal = WORDS[lang]
    lobby = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        if lang == "zh":
            await settle_in_chinese(app, pilot)
        dialog = await open_new_room_dialog(app, pilot)
        levels = dialog.query_one("#bot_level", Select)
        assert levels.value == "normal"
        dialog.query_one("#seats", Input).value = "5"
        levels.value = "easy"
        dialog.query_one("#bot_levels", Input).value = "2:genius"
        await submit(dialog, pilot)
        assert app.screen is dialog and not hub.rooms  # refused in the dialog, with what the levels are
        said = str(dialog.query_one("#form-error", Static).render())
        assert re.search(f"2[:：]({'|'.join(level_name(lv, lang) for lv in BOT_LEVELS)})", said)  # the error says how
        dialog.query_one("#bot_levels", Input).value = f"2:{normal} 3:{easy}"  # a seat at the room's level needs no pair
        await submit(dialog, pilot)
        assert isinstance(app.screen, RoomScreen)
        [room] = hub.rooms.values()
        assert room.settings.bot_level == "easy" and room.settings.bot_levels == {1: "normal"}  # seat 2 as shown
        await pilot.press("a", "a")  # bots in seats 2 and 3
        await settle(pilot)
        rows = [line for line in screen_text(app).splitlines() if re.search(r"│\s+[23]\s", line)]
        assert len(rows) == 2
        assert f" {normal} " in rows[0] and f" {easy} " in rows[1]  # the kind column says the level
        said = "bots easy (seat 2 normal)" if lang == "en" else "電腦簡單（座位 2 普通）"
        assert said in settings_summary(room.settings, lang).split(" · ")
        await pilot.press("o")
        await settle(pilot)
        again = app.screen
        assert isinstance(again, RoomSettingsDialog)
        assert again.query_one("#bot_level", Select).value == "easy"
        assert again.query_one("#bot_levels", Input).value == f"2:{normal}"


def test_the_summary_names_the_levels_only_when_not_all_normal() -> None:
    plain = RoomSettings(seats=5)
    assert "bots normal" not in settings_summary(plain, "en")
    mixed = RoomSettings(seats=5, bot_level="easy", bot_levels={2: "normal", 3: "easy"})
    assert "bots easy (seat 3 normal)" in settings_summary(mixed, "en").split(" · ")  # seat index 2, shown from 1
    assert "電腦簡單（座位 3 普通）" in settings_summary(mixed, "zh").split(" · ")
    for level in BOT_LEVELS:
        assert level_name(level, "en") == level and level_name(level, "zh")


# ----------------------------------------------------------- tables and results


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES)
async def test_the_sultans_table_shows_each_bots_level_in_its_seat_and_the_result(size: tuple[int, int], lang: Lang) -> None:
    from sultans_fakes import SultansClient, SultansLobby, SultansRoom
    from table_fakes import close_results, open_table

    from tui.sultans.ring import TableRing
    from tui.sultans.table import Table
    from tui.widgets import TailLog

    room = SultansRoom(5, deal=["sultan", "assassin", "slave", "guard", "slave"], first=1, humans=(0,), rounds=1)
    room.seats[1].level = "normal"
    room.seats[3].level = "easy"
    async with open_table(room, 0, SultansClient, SultansLobby, Table, size=size, lang=lang) as (app, pilot, _c):
        boxes = app.screen.query_one(TableRing).boxes
        seat1 = " ".join(line.plain for line in boxes[1].lines)
        seat3 = " ".join(line.plain for line in boxes[3].lines)
        assert level_name("normal", lang) in seat1 and level_name("easy", lang) in seat3
        room.play(1, "assassinate 0")  # the Assassin kills the Sultan: the match (one round) is over
        for s in (2, 3, 4):
            room.play(s, "pass")
        room.play(0, "pass")
        await settle(pilot)
        assert room.match.is_over()
        await close_results(app, pilot)  # the match's result opened over the table: back to the table
        for _ in range(3):  # Tab to the result pane
            if app.screen.pane == "result":
                break
            await pilot.press("tab")
            await settle(pilot)
        assert app.screen.pane == "result"
        sheet = app.screen.query_one("#sk-log", TailLog).sheet
        assert sheet is not None
        assert f"{room.names[1]}·{level_name('normal', lang)}" in sheet.plain


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_overlord_result_and_seats_show_each_bots_level(lang: Lang) -> None:
    from overlord_fakes import OverlordClient, OverlordLobby, OverlordRoom
    from table_fakes import open_table

    from engine.overlord import Game
    from tui.overlord.table import Table

    g = Game.new(roles=["overlord", "captain", "squire", "peasant"], gold=[5, 20, 5, 5], seed=1,
                 deck=["victimize"] * 5 + ["capitalize"] * 4 + ["extortion"] * 3 + ["sidestep"] * 4)
    for target in (1, 2, 3):  # the ruler commands each in turn; each dies: the ruler is left alone (K-ORD-8)
        g.play(0, f"order {target}")
        while g.pending() and target not in g.pending():
            for s in sorted(g.pending()):
                g.play(s, "pass" if "pass" in g.legal(s) else g.legal(s)[0])
        g.play(target, "die")
        while g.pending() and not any(a.startswith("order") for a in g.legal(0)):
            for s in sorted(g.pending()):
                g.play(s, "pass" if "pass" in g.legal(s) else g.legal(s)[0])
    assert g.is_over()
    room = OverlordRoom(g, humans=(2,))
    room.seats[1].level = "easy"
    async with open_table(room, 2, OverlordClient, OverlordLobby, Table, size=(100, 30), lang=lang) as (app, _p, _c):
        from tui.widgets import TailLog

        sheet = app.screen.query_one("#ov-log", TailLog).sheet
        assert sheet is not None
        assert f"{room.names[1]}·{level_name('easy', lang)}" in sheet.plain
        assert level_name("easy", lang) in screen_text(app)  # in bob's seat state too


@pytest.mark.parametrize("offered", [False, True])
async def test_the_strong_level_is_offered_only_for_a_game_with_a_search(
    hub: FakeHub, offered: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dialog offers a game's own levels (GameSpec.bot_levels: the strong one only
    where the game's search is offered: here for Sultans or not, not for Kill the
    Overlord); switching to a game without it falls back to normal."""
    from dataclasses import replace

    import tui.screens.dialogs
    from engine.registry import games

    specs = dict(games())
    for gid, offer in (("sultans", offered), ("overlord", False)):  # (whatever the registry offers now)
        search = specs[gid].search
        assert search is not None
        specs[gid] = replace(specs[gid], search=replace(search, offered=offer))
    monkeypatch.setattr(tui.screens.dialogs, "registered_games", lambda: specs)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        game = dialog.query_one("#game", Select)
        levels = dialog.query_one("#bot_level", Select)
        for gid in ("sultans", "overlord"):
            if gid not in dialog._games:
                continue
            game.value = gid
            await settle(pilot)
            shown = {str(v) for _, v in levels._options if v is not Select.BLANK}
            assert shown == set(specs[gid].bot_levels)
            assert ("strong" in shown) == (offered and gid == "sultans")
            if "strong" in shown:
                levels.value = "strong"
                await settle(pilot)
        assert levels.value == "normal" if "overlord" in dialog._games else True
