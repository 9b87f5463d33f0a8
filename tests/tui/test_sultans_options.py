"""The create-room dialog offers the Sultans of Karaya room options and the
waiting room names them: match mode (S-MATCH-1: rounds, or first to N points
with a 15-round cap), turn limit (S-WIN-4: default 200, at least 50) and the
notebook (S-VIEW-2), in English and Traditional Chinese."""

from __future__ import annotations

import re

import pytest
from fakes import FakeHub, open_new_room_dialog, screen_text, settle, settle_in_chinese
from sultans_fakes import SultansClient, SultansLobby, SultansRoom
from textual.geometry import Region
from textual.widgets import Input, Select, Static

from engine.sultans import SultansOptions
from engine.sultans.options import FIRST_TO_CAP, FIRST_TO_MAX
from protocol.contract import BETWEEN_ROUNDS, BETWEEN_ROUNDS_MAX, RoomSettings
from tui.app import ThroneApp
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.room import RoomScreen
from tui.sultans.table import Table
from tui.summary import settings_summary
from tui.widgets import TickBox


def test_the_first_to_bound_is_reachable_within_the_cap() -> None:
    """S-MATCH-1: first to N points ends after FIRST_TO_CAP rounds at most; a seat
    scores at most 2 a round (S-SCORE-1), so the options model allows no N above that."""
    assert FIRST_TO_MAX == 2 * FIRST_TO_CAP
    assert SultansOptions.model_fields["first_to"].metadata[-1].le == FIRST_TO_MAX  # type: ignore[attr-defined]


async def submit(dialog: RoomSettingsDialog, pilot: object) -> None:
    await pilot.pause(0.3)  # type: ignore[attr-defined]  # a button ignores a second press while it shows the first
    await pilot.click("#ok")  # type: ignore[attr-defined]
    await settle(pilot)


async def test_dialog_first_to_turn_limit_and_notebook_are_checked_and_sent(hub: FakeHub) -> None:
    """S-MATCH-1, S-WIN-4, S-VIEW-2 from the dialog to the waiting room's line."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        text = screen_text(app)
        assert "Match" in text and "a set number of rounds" in text
        assert "Turn limit per round (min 50)" in text and "Notebook" in text and "[X] shows what you have seen" in text
        assert dialog.query_one("#row-rounds").display and not dialog.query_one("#row-first_to").display
        assert dialog.query_one("#turn_limit", Input).value == "200"
        # first to N points: the round count gives way to the points to win
        dialog.query_one("#match_mode", Select).value = "first_to"
        await settle(pilot)
        assert not dialog.query_one("#row-rounds").display and dialog.query_one("#row-first_to").display
        assert "Points to win (15 rounds max)" in screen_text(app)
        dialog.query_one("#bot_delay", Input).value = "0"
        await submit(dialog, pilot)
        assert app.screen is dialog and not hub.rooms
        assert f"First to N points: how many points win? A number from 1 to {FIRST_TO_MAX}" in screen_text(app)
        dialog.query_one("#first_to", Input).value = "31"  # unreachable in 15 rounds
        await submit(dialog, pilot)
        assert app.screen is dialog and "Points to win (15 rounds max): a number from 1 to 30, please." in screen_text(app)
        dialog.query_one("#first_to", Input).value = "12"
        dialog.query_one("#turn_limit", Input).value = "49"
        await submit(dialog, pilot)
        assert app.screen is dialog and "Turn limit per round: at least 50 turns (house rule)." in screen_text(app)
        dialog.query_one("#turn_limit", Input).value = "120"
        dialog.query_one("#notebook", TickBox).value = False
        await submit(dialog, pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(r for r in hub.rooms.values() if r.host == "alice")
        assert room.settings.options == {"first_to": 12, "turn_limit": 120, "notebook": False}
        o = SultansOptions.model_validate(room.settings.options)  # what the host's spec reads
        assert (o.first_to, o.turn_limit, o.notebook) == (12, 120, False)
        text = screen_text(app)
        assert "first to 12 points (at most 15 rounds)" in text and "turn limit 120" in text
        assert "notebook off" in text and not re.search(r"\d+ rounds ·", text)  # no round count beside first-to


async def test_dialog_defaults_send_only_the_round_count(hub: FakeHub) -> None:
    """Options left at the engine's defaults are not sent; the line still names them."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        dialog.query_one("#rounds", Input).value = "4"
        dialog.query_one("#first_to", Input).value = "9"  # hidden in rounds mode: ignored
        await submit(dialog, pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(r for r in hub.rooms.values() if r.host == "alice")
        assert room.settings.options == {"rounds": 4}
        assert "5 seats · 4 rounds · " in screen_text(app)
        assert "turn limit 200" in screen_text(app) and "notebook on" in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_settings_line_breaks_between_settings(hub: FakeHub, lang: str) -> None:
    """A waiting room's line of settings too long for one line breaks between two
    settings, never inside one ("notebook" at the end of a line, "on" below)."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        if lang == "zh":
            await settle_in_chinese(app, pilot)
        dialog = await open_new_room_dialog(app, pilot)
        await submit(dialog, pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(r for r in hub.rooms.values() if r.host == "alice")
        parts = settings_summary(room.settings, app.lang).split(" · ")
        shown = app.screen.query_one("#room-settings", Static)
        lines = [strip.text.strip() for strip in shown.render_lines(Region(0, 0, *shown.size))]
        lines = [line for line in lines if line]
        assert len(lines) == 2  # too long for one line at 100 columns
        assert " · ".join(lines).split(" · ") == parts


async def test_tab_order_keeps_the_round_count_before_the_timers(hub: FakeHub) -> None:
    """The end-to-end tests fill name, seats, rounds, timers and bot delay with Tab:
    the new Sultans rows come after the bot delay."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_new_room_dialog(app, pilot)
        order = []
        for _ in range(10):
            assert app.focused is not None
            order.append(app.focused.id)
            await pilot.press("tab")
            await settle(pilot)
        assert order == [
            "name", "seats", "rounds", "turn_timer", "window_timer", "bot_delay", "between_rounds", "match_mode",
            "turn_limit", "notebook",
        ]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_between_rounds_time_is_set_in_the_dialog_within_its_bound(hub: FakeHub, lang: str) -> None:
    """Issue 43: how long a round's result waits for the players is the room's
    setting (default 30 s), bounded by BETWEEN_ROUNDS_MAX, in both languages."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(60, 20)) as pilot:
        if lang == "zh":
            await settle_in_chinese(app, pilot)
        dialog = await open_new_room_dialog(app, pilot)
        field = dialog.query_one("#between_rounds", Input)
        assert field.value == str(BETWEEN_ROUNDS) and dialog.query_one("#row-between_rounds").display
        field.focus()
        await settle(pilot)
        assert ("Between rounds (s)" if lang == "en" else "局間等待（秒）") in screen_text(app)
        field.value = str(BETWEEN_ROUNDS_MAX + 1)
        await settle(pilot)
        await pilot.press("enter")  # (at 60x20 the OK button is below the fold)
        await settle(pilot)
        assert app.screen is dialog and not hub.rooms
        error = str(dialog.query_one("#form-error", Static).content)
        assert f"0 {'to' if lang == 'en' else '到'} {BETWEEN_ROUNDS_MAX}" in error
        field.value = "45"
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(r for r in hub.rooms.values() if r.host == "alice")
        assert room.settings.between_rounds == 45
        assert settings_summary(room.settings, lang).count("45") == 1


async def test_change_dialog_starts_from_the_rooms_options(hub: FakeHub) -> None:
    """The host's own options (as the host normalised them) fill the change dialog."""
    options = SultansOptions(first_to=10, turn_limit=300, notebook=False).model_dump(mode="json")
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(RoomSettingsDialog(hub.lobby("alice").games(), RoomSettings(seats=6, options=options)))
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RoomSettingsDialog)
        assert dialog.query_one("#match_mode", Select).value == "first_to"
        assert dialog.query_one("#first_to", Input).value == "10"
        assert dialog.query_one("#turn_limit", Input).value == "300"
        assert dialog.query_one("#notebook", TickBox).value is False
        # back to a set number of rounds: first_to goes, the rest stays
        dialog.query_one("#match_mode", Select).value = "rounds"
        await settle(pilot)
        dialog.query_one("#rounds", Input).value = "3"
        dialog.query_one("#notebook", TickBox).value = True
        settings = dialog._collect()
        assert settings.options == {"rounds": 3, "turn_limit": 300}


async def test_dialog_and_summary_in_chinese(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    lobby.set_lang("zh")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_in_chinese(app, pilot)
        dialog = await open_new_room_dialog(app, pilot)
        dialog.query_one("#match_mode", Select).value = "first_to"
        await settle(pilot)
        text = screen_text(app)
        assert "比賽方式" in text and "先到 N 分" in text and "獲勝分數（最多 15 局）" in text
        assert "每局回合上限（至少 50）" in text and "筆記本" in text and "顯示你看過的角色卡" in text
        dialog.query_one("#bot_delay", Input).value = "0"
        dialog.query_one("#first_to", Input).value = "40"
        await submit(dialog, pilot)
        assert app.screen is dialog and "獲勝分數（最多 15 局）：請輸入 1 到 30 之間的數字。" in screen_text(app)
        dialog.query_one("#first_to", Input).value = "8"
        dialog.query_one("#turn_limit", Input).value = "20"
        await submit(dialog, pilot)
        assert app.screen is dialog and "每局回合上限：至少 50 回合（房規）。" in screen_text(app)


def test_summary_names_the_sultans_options() -> None:
    """S-MATCH-1, S-WIN-4, S-VIEW-2: the waiting room's settings line, both languages;
    with which windows the room runs (S-REACT-5) and the 60 s turn timer of a new room."""
    plain = RoomSettings(seats=7, bot_delay=0, options=SultansOptions(rounds=3).model_dump(mode="json"))
    assert settings_summary(plain, "en") == (
        "7 seats · 3 rounds · turn 60 s · reactions 20 s · bots think 0 s · quick windows (at least 2 s)"
        " · results stay 30 s · turn limit 200 · notebook on"
    )
    purist = RoomSettings(
        seats=5, turn_timer=0, bot_delay=1, strict_windows=True,
        options=SultansOptions(first_to=9, turn_limit=80, notebook=False).model_dump(mode="json"),
    )
    assert settings_summary(purist, "en") == (
        "5 seats · first to 9 points (at most 15 rounds) · no turn timer · reactions 20 s · bots think 1 s"
        " · strict windows (everyone answers) · results stay 30 s · turn limit 80 · notebook off"
    )
    assert settings_summary(purist, "zh") == (
        "5 個座位 · 先到 9 分（最多 15 局） · 回合不限時 · 回應 20 秒 · 電腦思考 1 秒 · 嚴格回應時機（每人都要回答）"
        " · 結果停留 30 秒 · 回合上限 80 · 筆記本關閉"
    )
    assert "快速回應時機（至少 3 秒）" in settings_summary(plain.model_copy(update={"window_min": 3.0}), "zh")
    # another game's options are not read as the Sultans' ones
    other = RoomSettings(game="tokens", seats=3, options={"rounds": 2, "first_to": 4, "notebook": False})
    text = settings_summary(other, "en")
    assert "2 rounds" in text and "first to" not in text and "notebook" not in text
    # one of each reads in the singular ("1 rounds" in the room's header)
    one = RoomSettings(seats=5, options=SultansOptions(rounds=1).model_dump(mode="json"))
    assert settings_summary(one, "en").startswith("5 seats · 1 round · ")
    first = RoomSettings(seats=5, options=SultansOptions(first_to=1).model_dump(mode="json"))
    assert " · first to 1 point (at most 15 rounds) · " in settings_summary(first, "en")


async def test_the_table_follows_the_views_notebook_not_the_settings() -> None:
    """S-VIEW-2: the match's own option (in its views) decides; room settings
    changed after the start (or missing) do not bring the notebook back."""
    room = SultansRoom(5, deal=["guard", "assassin", "slave", "sultan", "slave"], first=0, humans=(0,), notebook=False)
    room.settings.options.pop("notebook")  # the settings say nothing: the default would be on
    client = SultansClient(room, 0, room.names[0])
    app = ThroneApp(SultansLobby(client, room.names[0], "en"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, Table)
        await pilot.press("p", "1", "enter")  # a peek: something to note
        await settle(pilot)
        for _ in range(3):
            await pilot.press("tab")
            await settle(pilot)
            assert str(app.screen.query_one("#sk-pane-title", Static).render()) != "Notebook"
            assert "Notebook" not in screen_text(app)
