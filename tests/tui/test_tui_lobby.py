"""Pilot tests of the lobby: rooms, online, chat, create, join, watch, language, help."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import cast

import pytest
from fakes import FakeHub, open_new_room_dialog, screen_text, settle
from textual import events
from textual.notifications import Notification, Notify
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from protocol.contract import ClientError, RoomSettings
from protocol.i18n import Lang, t
from tui.app import ThroneApp
from tui.screens.dialogs import CodeDialog, RoomSettingsDialog
from tui.screens.help import HelpScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.room import RoomScreen
from tui.widgets import TickBox

SIZES = [(80, 24), (120, 40)]


def room_by(hub: FakeHub, host: str) -> RoomSettings:
    return next(r.settings for r in hub.rooms.values() if r.host == host)


@pytest.mark.parametrize("size", SIZES)
async def test_lobby_shows_rooms_online_chat_and_host_key(hub: FakeHub, size: tuple[int, int]) -> None:
    bob = hub.lobby("bob")
    bob.create_room(RoomSettings(name="Bob's table", seats=6))
    bob.chat("hello everyone")
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        assert "Bob's table" in text
        assert "Sultans" in text
        assert "1/6" in text  # seats taken / seats
        assert "waiting" in text
        assert "bob" in text and "alice" in text  # online
        assert "hello everyone" in text
        assert hub.fingerprint in text
        assert "New room" in text  # key bar


@pytest.mark.parametrize(("lang", "title"), [("en", "carol's table"), ("zh", "carol 的牌桌")])
async def test_an_unnamed_room_is_its_host_s_table_in_the_reader_s_language(
    hub: FakeHub, lang: Lang, title: str
) -> None:
    hub.lobby("carol").create_room(RoomSettings(name="", seats=5))
    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert title in screen_text(app)
        await pilot.press("enter")  # join it: the room's header names it the same way
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert title in screen_text(app).splitlines()[0]


async def test_lobby_updates_when_the_host_changes(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "No rooms yet" in screen_text(app)
        hub.lobby("carol").create_room(RoomSettings(name="Late room"))
        await settle(pilot)
        assert "Late room" in screen_text(app)
        assert "carol" in screen_text(app)


async def test_create_room_dialog_checks_fields_and_creates(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        await pilot.press(*"Friday")
        seats = dialog.query_one("#seats")
        seats.value = "3"  # type: ignore[attr-defined]
        rounds = dialog.query_one("#rounds")
        rounds.value = "3"  # type: ignore[attr-defined]
        dialog.query_one("#bot_delay").value = "0"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog  # refused: Sultans needs 5-15 seats
        assert "Seats: a number from 5 to 15" in screen_text(app)
        assert not hub.rooms
        seats.value = "6"  # type: ignore[attr-defined]
        await settle(pilot)
        assert "Seats: a number" not in screen_text(app)  # corrected: the refusal goes
        await pilot.click("#private")
        dialog.query_one("#code").value = "sesame"  # type: ignore[attr-defined]
        await pilot.click("#ok")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        settings = room_by(hub, "alice")
        assert settings.name == "Friday"
        assert settings.seats == 6
        assert settings.options == {"rounds": 3}
        assert settings.bot_delay == 0.0
        assert settings.private and settings.code == "sesame"
        assert "Friday" in screen_text(app)
        assert "code: sesame" in screen_text(app)  # the host sees the code to share


async def test_a_private_room_with_no_code_typed_is_created_for_the_host_to_make_one(hub: FakeHub) -> None:
    """The dialog refused "Private" with an empty code, though the host makes up a
    4-digit code then (server.room.validate_settings); the field's hint says so."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        assert "4 random digits" in dialog.query_one("#code", Input).placeholder
        await pilot.click("#private")
        await pilot.click("#ok")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        settings = room_by(hub, "alice")
        assert settings.private and settings.code == ""  # the host's to make


async def test_space_ticks_a_box_and_enter_on_it_creates_the_room(hub: FakeHub) -> None:
    """The key bar says "Enter OK": a host who ticked Private with Space and
    pressed Enter unticked it again, and the dialog stayed open."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        dialog.query_one("#private").focus()
        await pilot.press("space")
        await settle(pilot)
        assert dialog.query_one("#private", TickBox).value
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert room_by(hub, "alice").private


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_refused_new_room_keeps_the_dialog_and_what_was_typed(hub: FakeHub, lang: Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host refuses a room (here: a seat in a match elsewhere): the dialog
    closed and a toast said why, and everything typed was gone. Now the
    reason shows under the fields; fixed (here: the match ended), Enter creates."""
    lobby = hub.lobby("alice", lang=lang)
    real = lobby.create_room
    refuse = [True]

    def create_room(settings: RoomSettings) -> object:
        if refuse[0]:
            raise ClientError("in-match", "you have a seat in a match being played (room 9)")
        return real(settings)

    monkeypatch.setattr(lobby, "create_room", create_room)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)
        await pilot.press(*"Friday")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        said = t("err.in-match", lang).replace("：", ":").split(":")[0]  # its first part (the rest wraps)
        assert "".join(said.split()) in "".join(screen_text(app).split())
        assert dialog.query_one("#name", Input).value == "Friday"
        assert not hub.rooms
        refuse[0] = False
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert room_by(hub, "alice").name == "Friday"


async def test_create_dialog_escape_cancels(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.click("#private")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert not hub.rooms


async def test_screens_carry_no_tooltip_or_toast_widgets_until_a_notification_shows(hub: FakeHub) -> None:
    """Each is a widget per screen per session (memory, collector work): tooltips
    are off, and the toast rack is mounted by the first notification, which shows."""
    from textual.widgets import Tooltip
    from textual.widgets._toast import ToastRack

    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not app.screen.query(Tooltip) and not app.screen.query(ToastRack)
        app.show_error(ClientError("in-progress", "that match has started; watch it instead"))
        await settle(pilot)
        await pilot.pause(0.3)
        assert isinstance(app.screen, LobbyScreen) and len(app.screen.query(ToastRack)) == 1
        assert "watch it instead" in screen_text(app)  # the toast is drawn on the lobby
        app.notify("second")
        await settle(pilot)
        await pilot.pause(0.3)
        assert len(app.screen.query(ToastRack)) == 1 and "second" in screen_text(app)


async def test_private_room_asks_for_its_code(hub: FakeHub) -> None:
    hub.lobby("bob").create_room(RoomSettings(name="secret", private=True, code="1234"))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, CodeDialog)
        assert t("dialog.code_hint", "en") in screen_text(app)  # the empty field is seen without colour too
        await pilot.press(*"999", "enter")
        await settle(pilot)
        assert app.screen is dialog  # a wrong code is said in the dialog, the code kept to correct
        assert "Wrong code" in screen_text(app)
        assert dialog.query_one("#code", Input).value == "999"
        await pilot.press("backspace")
        await settle(pilot)
        assert "Wrong code" not in screen_text(app)  # being corrected: the refusal goes
        await pilot.press("backspace", "backspace", *"1234", "enter")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(iter(hub.rooms.values()))
        assert room.seat_of("alice") == 1


@pytest.mark.parametrize("key", ["enter", "w"])
async def test_a_kicked_player_is_told_so_before_being_asked_for_the_code(hub: FakeHub, key: str) -> None:
    """bruno, kicked from a private room, was asked for its code and told he was
    not welcome only after typing it right."""
    host = hub.lobby("bob").create_room(RoomSettings(name="secret", private=True, code="1234"))
    lobby = hub.lobby("bruno")
    lobby.join(host.room_id, "1234")
    host.kick(1)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)  # no code dialog
        assert [n.message for n in app._notifications] == [t("err.banned", "en")]


async def test_back_to_one_s_own_seat_in_a_private_room_asks_no_code(hub: FakeHub) -> None:
    # the lobby said "your seat is kept: select it and press Enter", then asked
    # for the code (any code, even none, let the player back in)
    hub.lobby("bob").create_room(RoomSettings(name="secret", private=True, code="1234"))
    room = next(iter(hub.rooms.values()))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = hub.lobby("alice").join(room.id, "1234")  # alice's other terminal sits down ...
        room.start_game()
        table.leave()  # ... and leaves the table: the match goes on, the seat stays hers
        await settle(pilot)
        assert "Your seat in" in screen_text(app)
        await pilot.press("c")  # a new room is refused while the seat is hers: said before the form
        await settle(pilot)
        assert not isinstance(app.screen, RoomSettingsDialog)
        assert "itisyoursuntil" in "".join(screen_text(app).split())  # a toast (it wraps)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.has_class("table-screen")  # back at her seat's table, no code asked
        assert room.seat_of("alice") == 1 and room.seats[1].connected
    app = ThroneApp(hub.lobby("carol"))  # not seated there: asked, as before
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CodeDialog)


@pytest.mark.parametrize("from_lobby", [False, True])
async def test_the_lobby_puts_the_cursor_on_the_room_where_one_s_seat_is_kept(hub: FakeHub, from_lobby: bool) -> None:
    """bob left his table mid-match; his lobby listed another room first, said
    "select it and press Enter", and Enter tried the other room ("That room is
    full"). The cursor goes to the kept seat's room, in a lobby just made and in
    the one he started the room from: Enter takes him back."""
    other = hub.lobby("carol").create_room(RoomSettings(name="first"))
    hub.rooms[other.room_id].start_game()
    lobby = hub.lobby("bob")
    if not from_lobby:
        lobby.create_room(RoomSettings(name="mine"))
    app = ThroneApp(lobby)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        if from_lobby:
            await pilot.press("c")
            await settle(pilot)
            assert isinstance(app.screen, RoomSettingsDialog)
            await pilot.press(*"mine", "enter")
            await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        await pilot.press("s")
        await settle(pilot)
        assert app.screen.has_class("table-screen")
        await pilot.press("escape", "y")  # leaves the table: the match goes on, the seat stays his
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen._rooms[0].name == "first"  # the other room is listed first
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.has_class("table-screen")
        room = next(r for r in hub.rooms.values() if r.settings.name == "mine")
        assert room.seat_of("bob") == 0 and room.seats[0].connected


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Room bob's table is private. Its code:"),
    ("zh", "「bob 的牌桌」是私人房間。請輸入密碼："),
])
async def test_a_private_room_s_name_stands_apart_in_its_question(hub: FakeHub, lang: Lang, said: str) -> None:
    # "房間 bob 的牌桌 是私人房間" ran the room's name into the sentence
    hub.lobby("bob").create_room(RoomSettings(name="", private=True, code="1234"))
    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CodeDialog)
        assert said in screen_text(app)


async def test_watch_then_take_a_seat(hub: FakeHub) -> None:
    hub.lobby("bob").create_room(RoomSettings(name="open room"))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        room = next(iter(hub.rooms.values()))
        assert room.spectators == ["alice"]
        assert "You are watching" in screen_text(app)
        assert "Ready" not in screen_text(app).splitlines()[-1]  # no ready key for spectators
        await pilot.press("enter")  # seat 0 is bob's: said so, nothing else
        await settle(pilot)
        assert "That seat is taken." in screen_text(app) and room.spectators == ["alice"]
        app.clear_notifications()
        await pilot.press("t", "h", "i", "enter")  # Enter in the chat line sends it, whatever seat is picked
        await settle(pilot)
        assert [line.text for line in room.chat] == ["hi"] and list(app._notifications) == []
        await pilot.press("escape")  # back to the seats
        await pilot.press("down", "down", "enter")  # seat 2 is empty
        await settle(pilot)
        assert room.seat_of("alice") == 2
        assert room.spectators == []
        assert not app.watching
        assert "Press r when you are ready." in screen_text(app)


async def test_a_refusal_in_the_lobby_does_not_follow_the_player_into_the_room(hub: FakeHub) -> None:
    """Enter on a room already playing says "watch it instead"; after w the
    notice stayed on over the table's chat."""
    bob = hub.lobby("bob").create_room(RoomSettings(name="busy room"))
    bob.start()
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.notify("a note that is not an error", markup=False)
        await pilot.press("enter")
        await settle(pilot)
        refusal = t("err.in-progress", "en")
        assert refusal in [n.message for n in app._notifications]
        await pilot.press("w")
        await settle(pilot)
        assert not isinstance(app.screen, LobbyScreen)
        assert [n.message for n in app._notifications] == ["a note that is not an error"]
        assert "watch it instead" not in screen_text(app)


async def test_lobby_chat_is_sent_and_shown(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await pilot.press(*"hi all", "enter")
        await settle(pilot)
        assert [line.text for line in hub.chat] == ["hi all"]
        assert "alice: hi all" in screen_text(app)
        await pilot.press("escape")  # back from the chat line to the rooms
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)


@pytest.mark.parametrize("size", SIZES)
async def test_markup_hostile_text_is_literal_in_the_lobby(hub: FakeHub, size: tuple[int, int]) -> None:
    evil = hub.lobby("[/b]")
    evil.create_room(RoomSettings(name="[red]x[/red]"))
    evil.chat("[bold]not bold[/bold] [/]")
    app = ThroneApp(hub.lobby("[red]x[/red]"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "[/b]" in text
        assert "[red]x[/red]" in text
        assert "[bold]not bold[/bold] [/]" in text


async def test_language_switch_to_traditional_chinese(hub: FakeHub) -> None:
    hub.lobby("bob").create_room(RoomSettings(name="牌局"))
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Rooms (1)" in screen_text(app)
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "房間（1）" in text
        assert "推翻蘇丹" in text
        assert "等待中" in text
        assert "開房間" in text  # key bar
        assert "主機金鑰" in text
        assert lobby.langs == ["zh"]
        await pilot.press("c")
        await settle(pilot)
        assert "開新房間" in screen_text(app)
        await pilot.press("escape", "f2")
        await settle(pilot)
        assert "Rooms (1)" in screen_text(app)
        assert lobby.langs == ["zh", "en"]


async def test_lists_and_asides_are_punctuated_in_the_screen_s_language(hub: FakeHub) -> None:
    """Chinese lists names with 、 and sets an aside in （）: "alice、bob",
    "guest-7（訪客）" (it said "alice, bob" and "guest-7 (訪客)")."""
    hub.lobby("bob")
    app = ThroneApp(hub.lobby("guest-7", guest=True, lang="zh"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "guest-7（訪客）" in text
        assert "bob、guest-7" in text or "guest-7、bob" in text
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "guest-7 (guest)" in text
        assert "bob, guest-7" in text or "guest-7, bob" in text


@pytest.mark.usefixtures("no_small_notice")
async def test_a_short_new_room_dialog_scrolls_to_the_field_in_focus(hub: FakeHub) -> None:
    """At 40x12 Tab went on to fields below the terminal's last row: typing
    changed a field nobody could see, and Create could not be seen."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(50, 14)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert t("field.code", "en") not in screen_text(app)  # below the fold
        while app.focused is None or app.focused.id != "code":
            await pilot.press("tab")
        await pilot.press("Z")
        await settle(pilot)
        row = next(r for r in screen_text(app).splitlines() if t("field.code", "en") in r)
        assert row.split(t("field.code", "en"), 1)[1].strip(" █").startswith("Z"), row
        await pilot.press("tab")  # Create
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "ok"
        assert t("button.create", "en") in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.usefixtures("no_small_notice")
async def test_a_narrow_new_room_dialog_ends_cut_hints_in_an_ellipsis(hub: FakeHub, lang: Lang) -> None:
    """At 60 columns (52 in Chinese) the notebook box's label and the code
    field's hint did not fit and were cut anywhere ("shows what you have se",
    "the code friends type to"); they end in "…" now. A focused box still shows
    in reverse video."""
    from tui.widgets import TickBox

    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=(60 if lang == "en" else 52, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        rows = screen_text(app).splitlines()
        box = next(r for r in rows if t("sultans.opt.notebook", lang) in r)
        code = next(r for r in rows if r.strip("█ ").startswith(t("field.code", lang)))
        assert box.rstrip("█ ").endswith("…")
        assert code.rstrip("█ ").endswith("…") or t("field.code.hint", lang) in code  # (the shorter hint fits)
        assert t("sultans.opt.notebook.box", lang)[:4] in box and t("field.code.hint", lang)[:4] in code
        notebook = app.screen.query_one("#notebook", TickBox)
        notebook.focus()
        await settle(pilot)
        assert notebook.styles.text_style.reverse


async def test_language_default_follows_identity(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("阿明", lang="zh"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "還沒有房間" in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_shows_keys_and_rules_and_closes(hub: FakeHub, lang: str) -> None:
    app = ThroneApp(hub.lobby("alice", lang=lang))  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert ("Keys" if lang == "en" else "按鍵") in text
        help_text = app.screen.text.plain
        assert ("Sultans of Karaya (5-15 players)" if lang == "en" else "推翻蘇丹（5-15 人）") in help_text
        assert ("Kill the Overlord" if lang == "en" else "刺殺領主") in help_text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


async def test_help_has_its_own_keys_scrolls_switches_language_and_f1_closes_it(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        bottom = screen_text(app).splitlines()[-1]
        assert "Scroll" in bottom and "Close" in bottom
        assert "New room" not in bottom  # the lobby's keys do nothing under the help
        body = app.screen.query_one("#help-body")
        assert body.scroll_y == 0 and body.max_scroll_y > 0
        await pilot.click(offset=(bottom.index("Scroll"), 23))  # the bar's scroll key: a page down
        await settle(pilot)
        assert body.scroll_y > 0
        await pilot.press("f2")  # the language switch works in the help and re-phrases it
        await settle(pilot)
        assert app.lang == "zh"
        assert "按鍵" in app.screen.text.plain and "捲動" in screen_text(app).splitlines()[-1]
        await pilot.press("f1")  # F1 closes the help as its foot says (the app's binding does not reach a modal)
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "開房間" in screen_text(app).splitlines()[-1]


async def test_host_changes_are_coalesced(hub: FakeHub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.125)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        refreshes = _count_refreshes(app, monkeypatch)
        for _ in range(200):  # a burst of lobby changes (logins, say)
            hub.changed()
        await pilot.pause(0.3)
        # lobby changes are flushed at most every 4 x flush_interval (0.5 s)
        assert refreshes == [1]
        assert hub.notifications >= 200
        for _ in range(50):
            hub.changed()
        await pilot.pause(0.1)
        assert refreshes == [1]  # not yet: the last flush was < 0.5 s ago
        await pilot.pause(0.5)
        assert refreshes == [2]


def _count_refreshes(app: ThroneApp, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often the lobby screen re-reads the host from now on (one number in a list)."""
    lobby_screen = app.screen
    assert isinstance(lobby_screen, LobbyScreen)
    original = lobby_screen.refresh_data
    refreshes = [0]

    def counting() -> None:
        refreshes[0] += 1
        original()

    monkeypatch.setattr(lobby_screen, "refresh_data", counting)
    return refreshes


async def test_a_flush_waiting_for_its_time_is_dropped_when_the_app_closes(
    hub: FakeHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A coalesced flush that waits for its time waits on the event loop (not a
    Textual timer: a task, an event and the app's repr each), and the app's end
    drops it: no refresh of a closed app."""
    import asyncio

    monkeypatch.setattr(ThroneApp, "flush_interval", 0.125)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        refreshes = _count_refreshes(app, monkeypatch)
        hub.changed()
        await pilot.pause(0.05)
        assert refreshes == [1]
        timers = len(app._timers)
        hub.changed()
        await pilot.pause(0.05)
        assert app._lobby_flush._timer is not None  # waiting: the last flush was < 0.5 s ago
        assert len(app._timers) == timers
    assert app._lobby_flush._timer is None
    await asyncio.sleep(0.6)
    assert refreshes == [1]


async def test_language_setting_dialog(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert "繁體中文" in screen_text(app)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.lang == "zh"
        assert lobby.langs == ["zh"]
        assert "線上玩家" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_settings_say_which_language_is_selected_now(hub: FakeHub, lang: Lang, size: tuple[int, int]) -> None:
    """Issue 44 item 15: the settings listed English and 繁體中文 alike; the
    language the screens speak now is ticked and said, and F2 moves the tick."""
    lobby = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        other: Lang = "zh" if lang == "en" else "en"
        rows = [line.strip("│ ▎▊█") for line in screen_text(app).splitlines()]
        now = t("settings.lang.current", lang, name=t("lang.name", lang))
        assert any(row.startswith(now) for row in rows), rows
        assert not any(row.startswith("✓ " + t("lang.name", other)) for row in rows), rows
        await pilot.press("f2")
        await settle(pilot)
        rows = [line.strip("│ ▎▊█") for line in screen_text(app).splitlines()]
        assert any(row.startswith("✓ " + t("lang.name", other)) for row in rows), rows
        assert not any(row.startswith("✓ " + t("lang.name", lang)) for row in rows), rows


async def test_the_settings_dialog_turns_the_bell_off_and_on_and_stays_open(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.bell_on is True  # the identity's setting
        await pilot.press("l")
        await settle(pilot)
        assert "Bell on your turn: on" in screen_text(app)
        await pilot.press("down", "down", "enter")  # English, 繁體中文, the bell
        await settle(pilot)
        assert not isinstance(app.screen, LobbyScreen)  # still open
        assert "Bell on your turn: off" in screen_text(app)
        assert app.bell_on is False and lobby.bells == [False]
        await pilot.press("f2")
        await settle(pilot)
        assert "輪到你時響鈴：關" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.bell_on is True and lobby.bells == [False, True]
        assert "輪到你時響鈴：開" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and app.lang == "zh"


async def test_dialogs_show_their_own_keys_over_the_lobbys(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "New room" in screen_text(app).splitlines()[-1]
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)
        bottom = screen_text(app).splitlines()[-1]
        assert "Next field" in bottom and "Cancel" in bottom
        assert "New room" not in bottom  # the lobby's keys do nothing in the dialog
        await pilot.press("f2")  # the language switch works in a dialog too, and the bar follows it
        await settle(pilot)
        assert app.lang == "zh"
        assert "下一欄" in screen_text(app).splitlines()[-1]
        text = screen_text(app)
        assert "開新房間" in text  # the dialog's own title
        assert "固定局數" in text and "a set number of rounds" not in text  # a select's shown option too
        await pilot.press("f2")
        await settle(pilot)
        assert app.lang == "en"
        # a click on "Esc Cancel" closes the dialog
        bottom = screen_text(app).splitlines()[-1]
        await pilot.click(offset=(bottom.index("Cancel"), 29))
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "New room" in screen_text(app).splitlines()[-1]
        await pilot.press("q")
        await settle(pilot)
        bottom = screen_text(app).splitlines()[-1]
        assert "Yes" in bottom and "No" in bottom
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


async def test_leaderboard_in_the_lobby_and_in_full(hub: FakeHub) -> None:
    from protocol.contract import LeaderRow

    for i, name in enumerate(["[/b]", "bob", "carol"]):
        hub.leaders[name] = LeaderRow(name=name, matches=3, wins=i, points=10 - i)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Leaderboard" in text and "[/b]" in text
        await pilot.press("b")
        await settle(pilot)
        text = screen_text(app)
        assert "Matches" in text
        assert "carol" in text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


def test_tied_players_share_their_place_on_the_leaderboard() -> None:
    """Four players with no win were numbered 1-4 in an order nobody could
    read: rows the board's order cannot tell apart share a place, and the next
    one's place counts them ("1, 2, 2, 4")."""
    from protocol.contract import LeaderRow, leader_order, leader_ranks

    def row(name: str, wins: int, matches: int, points: int = 0) -> LeaderRow:
        return LeaderRow(name=name, matches=matches, wins=wins, points=points)

    rows = [row("a", 3, 4, 9), row("b", 1, 2, 5), row("c", 1, 2, 7), row("d", 0, 1), row("e", 0, 1), row("f", 0, 3)]
    board = leader_order(rows, points=False)
    assert [r.name for r in board] == ["a", "b", "c", "d", "e", "f"]
    assert leader_ranks(board, points=False) == [1, 2, 2, 4, 4, 4]
    board = leader_order(rows, points=True)  # one game's board: equal rates by average points
    assert [r.name for r in board] == ["a", "c", "b", "d", "e", "f"]
    assert leader_ranks(board, points=True) == [1, 2, 3, 4, 4, 4]
    assert leader_ranks([], points=False) == []


def test_the_leaderboard_ranks_by_win_rate_counting_how_many_matches_show_it() -> None:
    """Issue 44 item 12: the board ranked `1 carol 0 1`, `1 dave 0 1`, `3 bob 0 3`,
    `4 alice 0 6`: with equal wins, playing more ranked you lower. Now by the
    lower end of the 95% Wilson interval of the win rate: no win is no win
    however many matches (one shared place); a rate shown over more matches
    counts for more than a lucky one."""
    from protocol.contract import LeaderRow, leader_order, leader_ranks, rank_rate

    def row(name: str, wins: int, matches: int) -> LeaderRow:
        return LeaderRow(name=name, matches=matches, wins=wins, points=0)

    seen = [row("carol", 0, 1), row("dave", 0, 1), row("bob", 0, 3), row("alice", 0, 6)]
    board = leader_order(seen, points=False)
    assert [(rank, r.name, r.percent) for rank, r in zip(leader_ranks(board, points=False), board, strict=True)] == [
        (1, "alice", "0%"), (1, "bob", "0%"), (1, "carol", "0%"), (1, "dave", "0%"),
    ]
    rows = [row("lucky", 1, 1), row("half", 5, 10), row("steady", 3, 4), row("some", 3, 10), row("twenty", 10, 20)]
    assert [r.name for r in leader_order(rows, points=False)] == ["steady", "twenty", "half", "lucky", "some"]
    assert round(rank_rate(1, 1), 3) == 0.207 and round(rank_rate(3, 4), 3) == 0.301
    assert rank_rate(0, 9) == 0.0 and rank_rate(0, 0) == 0.0
    assert rank_rate(1, 2) > rank_rate(1, 3) > 0  # equal wins: a lower rate ranks lower, as it should
    assert row("x", 2, 3).percent == "67%" and row("x", 0, 0).percent == "0%"


async def test_tied_players_share_their_place_in_the_side_pane_and_the_full_board(hub: FakeHub) -> None:
    from protocol.contract import LeaderRow

    for name, wins in (("ann", 2), ("bob", 0), ("cy", 0), ("dee", 0)):
        hub.leaders[name] = LeaderRow(name=name, matches=1, wins=wins, points=0)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        def places(edge: str) -> list[tuple[str, str]]:  # the side pane's rows, or the dialog's
            found = (re.search(edge + r"\s*(\d+)\s+(ann|bob|cy|dee)\s", line) for line in screen_text(app).splitlines())
            return [(m[2], m[1]) for m in found if m]

        assert places("│") == [("ann", "1"), ("bob", "2"), ("cy", "2"), ("dee", "2")]
        await pilot.press("b")
        await settle(pilot)
        assert places("█") == [("ann", "1"), ("bob", "2"), ("cy", "2"), ("dee", "2")]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_full_leaderboard_shows_each_game_with_g(hub: FakeHub, lang: Lang) -> None:
    """Sultans points and Overlord gold do not add up: the full leaderboard is of
    every game first, and g shows each game's own, then every game's again."""
    from protocol.contract import LeaderRow

    hub.leaders = {"bob": LeaderRow(name="bob", matches=2, wins=1, points=43), "dave": LeaderRow(name="dave", matches=1, wins=0, points=2)}
    hub.game_leaders = {
        "sultans": {"dave": LeaderRow(name="dave", matches=1, wins=0, points=2), "bob": LeaderRow(name="bob", matches=1, wins=0, points=1)},
        "overlord": {"bob": LeaderRow(name="bob", matches=1, wins=1, points=42)},
    }
    lobby = hub.lobby("alice")
    lobby.set_lang(lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        board = app.screen

        def rows() -> list[tuple[str, ...]]:  # (name, wins, matches, win rate[, average points])
            found = (re.search(r"█\s+\d+\s+(bob|dave)\s+([\d.%\s]*?)\s+█", line) for line in screen_text(app).splitlines())
            return [(m[1], *m[2].split()) for m in found if m]

        def title() -> str:
            return next(line for line in screen_text(app).splitlines() if t("key.leaders", lang) + " · " in line)

        assert t("leaders.all", lang) in title() and t("key.leaders_game", lang) in screen_text(app)
        assert rows() == [("bob", "1", "2", "50%"), ("dave", "0", "1", "0%")]  # every game's board has no points column
        columns = [str(c.label) for c in board.query_one("#leaders-table", DataTable).columns.values()]
        assert t("col.points", lang) not in columns
        assert columns.index(t("col.wins", lang)) < columns.index(t("col.matches", lang))  # as in the side pane
        await pilot.press("g")
        await settle(pilot)
        assert t("game.sultans", lang) in title()
        assert rows() == [("dave", "0", "1", "0%", "2.0"), ("bob", "0", "1", "0%", "1.0")]  # equal rates: average points
        await pilot.press("g")
        await settle(pilot)
        assert t("game.overlord", lang) in title()
        assert rows() == [("bob", "1", "1", "100%", "42.0")]
        await pilot.press("g")
        await settle(pilot)
        assert "Tokens" in title() and rows() == []  # a game the catalogue does not know: its own title
        assert t("lobby.no_leaders", lang)[:12] in screen_text(app)
        assert t("leaders.foot", lang)[:12] in screen_text(app)  # an empty board lost how to go on
        await pilot.press("g")
        await settle(pilot)
        assert t("leaders.all", lang) in title() and rows() == [("bob", "1", "2", "50%"), ("dave", "0", "1", "0%")]
        assert app.screen is board


def board_rows(text: str) -> list[str]:
    """The full leaderboard's rows, their cells one space apart."""
    found = (re.search(r"█\s+(\d+\s+\S.*?)\s*█", line) for line in text.splitlines())
    return [re.sub(r"\s+", " ", m[1]) for m in found if m]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_leaderboard_shows_wins_matches_and_win_rate_in_the_side_pane_and_in_full(
    hub: FakeHub, lang: Lang, size: tuple[int, int], no_small_notice: None
) -> None:
    """Issue 44 item 12, on screen at 80x24 and 60x20: the side pane's rows
    are place, name, wins/matches and win rate (the numbers whole, a long name
    cut); the full board (b) has wins, matches and win rate, g each game's
    with its average points; ties share a place; the board says how it ranks."""
    from protocol.contract import LeaderRow

    for name, wins, matches in (("carol", 0, 1), ("dave", 0, 1), ("bob", 0, 3), ("alice", 0, 6), ("erin_the_long_name", 3, 4)):
        hub.leaders[name] = LeaderRow(name=name, matches=matches, wins=wins, points=7 * wins)
    hub.game_leaders = {"sultans": {"erin_the_long_name": LeaderRow(name="erin_the_long_name", matches=4, wins=3, points=10)}}
    lobby = hub.lobby("zoe")
    lobby.set_lang(lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        side = [line.split("││")[-1] for line in screen_text(app).splitlines() if "││" in line]
        header = next(line for line in side if t("col.record", lang) in line)
        assert t("col.rate_short", lang) in header
        first = side[side.index(header) + 1]
        assert re.fullmatch(r" 1 erin_t\S*…\s+3/4\s+75% │", first), first
        assert re.fullmatch(r" 2 alice\s+0/6\s+0% │", side[side.index(header) + 2])
        await pilot.press("b")
        await settle(pilot)
        text = screen_text(app)
        for key in ("col.wins", "col.matches", "col.rate"):
            assert t(key, lang) in text
        rows = board_rows(text)
        assert rows[:3] == ["1 erin_the_long_name 3 4 75%", "2 alice 0 6 0%", "2 bob 0 3 0%"]
        assert t("leaders.how", lang)[:10] in text
        await pilot.press("g")
        await settle(pilot)
        rows = board_rows(screen_text(app))
        assert t("col.avg_points", lang) in screen_text(app)
        assert rows == ["1 erin_the_long_name 3 4 75% 2.5"]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_help_says_how_the_leaderboard_ranks(hub: FakeHub, lang: Lang) -> None:
    lobby = hub.lobby("zoe")
    lobby.set_lang(lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.body().plain
        assert t("help.leaders.title", lang) in body and t("help.leaders", lang) in body
        assert "Wilson" in body


async def test_o_shows_everyone_online_that_the_side_pane_cuts(hub: FakeHub) -> None:
    """The side pane has two lines of names and "+8 more (o)": o lists them all."""
    from tui.screens.dialogs import OnlineDialog

    names = [f"player{i:02d}" for i in range(30)]
    for name in names:
        hub.lobby(name)
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert re.search(r"\+\d+ more \(o\)", screen_text(app))
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OnlineDialog)
        assert "Online (31)" in screen_text(app) and "player00" in screen_text(app)
        await pilot.press("end")
        await settle(pilot)
        assert "player29" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_guests_online_are_shown_as_guests(hub: FakeHub, lang: Lang) -> None:
    """Issue 3: keyless clients are "shown as guests", to everyone, not only on
    their own screen: in the side pane and in the o list."""
    from tui.screens.dialogs import OnlineDialog

    hub.lobby("visitor", guest=True)
    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        marked = t("lobby.as_guest", lang, name="visitor")
        assert marked in screen_text(app) and t("lobby.as_guest", lang, name="alice") not in screen_text(app)
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, OnlineDialog) and marked in screen_text(app)
        await pilot.press("f2")
        await settle(pilot)
        other: Lang = "zh" if lang == "en" else "en"
        assert t("lobby.as_guest", other, name="visitor") in screen_text(app)


async def test_key_bar_works_with_the_mouse(hub: FakeHub) -> None:
    from tui.widgets import KeyBar

    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(KeyBar)
        column = bar.plain().index("New room")
        await pilot.click(KeyBar, offset=(column, 0))
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)


async def test_a_chat_line_the_host_holds_back_stays_in_the_chat_line(hub: FakeHub, monkeypatch: pytest.MonkeyPatch) -> None:
    """Too many lines at once: the refusal is said and the line is put back to
    send again (the chat line was emptied before the host answered)."""
    from tui.widgets import ChatPanel

    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)

    def too_fast(text: str) -> None:
        raise ClientError("chat-fast", "too many chat lines at once; wait a moment")

    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(lobby, "chat", too_fast)
        await pilot.press("t", *"hello again", "enter")
        await settle(pilot)
        assert app.screen.query_one(ChatPanel).input.value == "hello again"
        assert "Too many chat lines at once" in screen_text(app)
        await pilot.press("enter", "enter")  # refused again: the notice on the screen is not stacked
        await settle(pilot)
        assert len(app._notifications) == 1
        monkeypatch.undo()
        await pilot.press("enter")
        await settle(pilot)
        assert [line.text for line in hub.chat] == ["hello again"]
        assert app.screen.query_one(ChatPanel).input.value == ""


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_key_bar_says_how_to_send_and_stop_while_typing_in_the_chat(hub: FakeHub, lang: Lang) -> None:
    """While the chat line has the cursor the lobby's letter keys type there: the bar
    shows Send and Esc to stop typing instead of keys that would only type letters."""
    from tui.widgets import KeyBar

    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert t("key.leaders", lang) in app.screen.query_one(KeyBar).plain()
        await pilot.press("t", *"hi", "enter")
        await settle(pilot)
        bar = app.screen.query_one(KeyBar).plain()
        assert f"⏎  {t('key.chat_send', lang)}" in bar and f"Esc  {t('key.chat_done', lang)}" in bar
        assert t("key.leaders", lang) not in bar and t("key.create", lang) not in bar
        await pilot.press("b")  # types
        await pilot.press("escape")
        await settle(pilot)
        assert t("key.leaders", lang) in app.screen.query_one(KeyBar).plain()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_narrow_key_bar_shows_no_key_without_its_label(hub: FakeHub, lang: Lang, size: tuple[int, int]) -> None:
    """With a room to join the lobby's keys do not all fit at 80 columns: the
    bar read " Enter Join  w Watch  c New room  t   b   F1 Help  F2 中文  l
    Settings  q", and at 60 columns no key had a label. Keys the screen says
    elsewhere are left out whole now (q, then the leaderboard's b and chat's
    t, whose panes say their keys); join, watch, create, help, F2 (the other
    language's name) and the settings (the bell is there too) stay, each
    with its label."""
    from tui.widgets import KeyBar

    hub.lobby("bob").create_room(RoomSettings(name="open room"))
    app = ThroneApp(hub.lobby("alice", lang=lang))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        wide = app.screen.query_one(KeyBar).plain()
        assert t("key.settings", lang) in wide and t("key.quit", lang) in wide
        await pilot.resize_terminal(*size)
        await settle(pilot)
        keybar = app.screen.query_one(KeyBar)
        bar = keybar.plain()
        assert len(bar) <= size[0]
        assert all(label for _key, label in keybar.pairs), keybar.pairs
        for key in ("key.join", "key.watch", "key.create", "key.help", "key.settings"):
            assert f" {t(key, lang)}" in bar, (key, bar)
        assert "F2 " + t("key.lang", lang) in bar
        text = screen_text(app)  # where the keys left out are said: the chat's field begins with its key
        assert t("lobby.leaders", lang) in text and ("(b)" in text or "（b）" in text)
        assert any(line.strip().lstrip("│ ").startswith(("t: ", "t：")) for line in text.splitlines()), text


async def test_a_game_the_catalogue_does_not_know_shows_its_english_title(hub: FakeHub) -> None:
    hub.lobby("bob").create_room(RoomSettings(game="tokens", name="t"))
    app = ThroneApp(hub.lobby("alice", lang="zh"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Tokens" in screen_text(app)


async def test_many_names_online_share_the_side_pane_with_a_long_leaderboard(hub: FakeHub) -> None:
    """The side pane is one widget; with a long leaderboard the online list
    takes half of the pane and says how many it leaves out."""
    from protocol.contract import LeaderRow

    for i in range(40):
        hub.lobby(f"player{i:02d}")
    for i in range(10):
        hub.leaders[f"ranked{i}"] = LeaderRow(name=f"ranked{i}", matches=10, wins=10 - i, points=0)
    app = ThroneApp(hub.lobby("zed"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        side = [line.split("││")[-1] for line in screen_text(app).splitlines() if "││" in line]
        top = next(i for i, line in enumerate(side) if "Online (41)" in line)
        board = next(i for i, line in enumerate(side) if "Leaderboard" in line)
        assert "player00" in side[top + 1] and board - top - 1 == (len(side) - 2 + 1) // 2  # half of the lines
        assert "ranked0" in side[board + 2] and "ranked1" in side[board + 3]
        assert "player39" not in screen_text(app)
        shown = "".join(side[top + 1 : board])
        more = re.search(r"\+(\d+) more", shown)  # how many are not shown (was: cut mid-name, no sign)
        assert more is not None and int(more.group(1)) == 41 - shown.count("player") - shown.count("zed")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("ranked", [False, True])
async def test_several_players_online_are_all_listed_while_the_pane_has_room(
    hub: FakeHub, lang: Lang, size: tuple[int, int], ranked: bool, no_small_notice: None
) -> None:
    """Five guests online: the side pane listed one ("alice (guest), +4 more (o)")
    above a leaderboard note of four lines. Names come first: they take the lines
    the board does not need, and half of the pane when it is long; a cut board
    note ends in "…"."""
    from protocol.contract import LeaderRow

    guests = ["alice", "bob", "carol", "dave", "erin"]
    for name in guests:
        hub.lobby(name, guest=True)
    if ranked:
        for i in range(10):
            hub.leaders[f"r{i}"] = LeaderRow(name=f"r{i}", matches=10, wins=10 - i, points=0)
    app = ThroneApp(hub.lobby("zoe", lang=lang))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        side = [line.split("││")[-1].rstrip("│ ") for line in screen_text(app).splitlines() if "││" in line]
        top = next(i for i, line in enumerate(side) if t("lobby.online", lang, n=6) in line)
        board = next(i for i, line in enumerate(side) if t("lobby.leaders", lang) in line)
        names = "".join(side[top + 1 : board])
        listed = [g for g in guests if t("lobby.as_guest", lang, name=g) in names]
        more = re.search(re.escape(t("lobby.online_more", lang, n=999)).replace("999", r"(\d+)"), names)
        free = len(side) - 2
        assert len(listed) + ("zoe" in names) + (int(more.group(1)) if more else 0) == 6, side
        if ranked:
            assert board - top - 1 == (free + 1) // 2 and len(listed) >= board - top - 2, side
            assert "r0" in side[board + 2], side  # the board's header and its first row stay
        else:  # the note keeps one line, cut
            assert len(listed) >= free - 2 and board == len(side) - 2 and side[-1].endswith("…"), side
        await pilot.press("f2")
        await settle(pilot)
        assert t("lobby.leaders", "zh" if lang == "en" else "en") in screen_text(app)


def test_name_rows_keep_names_whole_and_say_how_many_are_left_out() -> None:
    from tui.text import name_rows

    def more(n: int) -> str:
        return f"+{n} more"

    names = ["paalice", "pabob", "pacarol", "padave", "pbEve", "pb李", "pb王", "pb陳陳", "pb觀眾"]
    assert name_rows(names[:3], ", ", 30, 2, more) == ["paalice, pabob, pacarol"]
    assert name_rows(names, ", ", 16, 2, more) == ["paalice, pabob,", "pacarol, +6 more"]
    assert name_rows(names, "、", 32, 2, lambda n: f"另 {n} 人") == ["paalice、pabob、pacarol、", "padave、pbEve、pb李、另 3 人"]
    assert name_rows(["x" * 50, "[/b]"], ", ", 10, 1, more) == ["+2 more"]
    assert name_rows(["x" * 50], ", ", 10, 2, more) == ["xxxxxxxx…"]


async def test_sessions_share_one_truecolor_filter(hub: FakeHub) -> None:
    """Strips cache their filtered copies by filter object: one filter for every
    session lets the strips they share be filtered once (tui/app.py)."""
    from textual.filter import ANSIToTruecolor

    first, second = ThroneApp(hub.lobby("alice")), ThroneApp(hub.lobby("bob"))
    async with first.run_test(size=(80, 24)) as p1, second.run_test(size=(80, 24)) as p2:
        await settle(p1)
        await settle(p2)
        mine = [f for f in first._filters if isinstance(f, ANSIToTruecolor)]
        theirs = [f for f in second._filters if isinstance(f, ANSIToTruecolor)]
        assert mine and mine[0] is theirs[0]
        first._watch_ansi_color(True)  # a change of one app's setting is its own
        assert not next(f for f in first._filters if isinstance(f, ANSIToTruecolor)).enabled
        assert theirs[0].enabled


@pytest.mark.usefixtures("no_small_notice")
async def test_a_short_terminal_still_shows_the_rooms_and_the_start_of_the_host_key(hub: FakeHub) -> None:
    # the chat and side panes took a fixed 10 rows: at 16 the rooms pane had room for its title only
    hub.lobby("bob").create_room(RoomSettings(name="open room"))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(50, 16)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "open room" in text, text
        assert "Host key SHA256:" in text and "…" in text.splitlines()[-2], text
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        lines = screen_text(app).splitlines()
        assert lines[-2].strip() == f"Host key {hub.fingerprint}" or hub.fingerprint in lines[-2]
        bottom = next(i for i, line in enumerate(lines) if "Online (2)" in line)
        assert len(lines) - bottom >= 10  # a tall terminal: the bottom panes keep their 10 rows


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_terminal_too_small_is_said_once_each_time_it_gets_too_small(hub: FakeHub, lang: Lang) -> None:
    """At 40x12 a table of five showed three seats and nothing said two were
    missing: a terminal under 60x20 gets a notice with its size and what is
    needed, again only after it was large enough in between (while it is on
    screen it follows the size)."""
    app = ThroneApp(hub.lobby("alice", lang=lang))

    def said() -> list[str]:
        return [str(n.message) for n in app._notifications]

    async with app.run_test(size=(50, 16)) as pilot:
        await settle(pilot)
        assert said() == [t("app.small", lang, width=50, height=16, need_w=60, need_h=20)]
        assert "50×16" in screen_text(app) and "60×20" in screen_text(app)
        await pilot.resize_terminal(100, 30)
        await settle(pilot)  # (the first notice goes: the size fits)
        await pilot.resize_terminal(100, 19)  # too short now
        await settle(pilot)
        assert said() == [t("app.small", lang, width=100, height=19, need_w=60, need_h=20)]
        await pilot.resize_terminal(58, 19)  # still too small: not said again, the notice shown follows the size
        await settle(pilot)
        assert said() == [t("app.small", lang, width=58, height=19, need_w=60, need_h=20)]
        app.clear_notifications()
        await pilot.resize_terminal(55, 18)  # nothing on screen: nothing said
        await settle(pilot)
        assert said() == []
        app.clear_notifications()
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        assert said() == []  # large enough


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("fits", [(80, 24), (60, 20)])
async def test_the_too_small_notice_goes_as_soon_as_the_terminal_fits(
    hub: FakeHub, lang: Lang, fits: tuple[int, int]
) -> None:
    """The notice stayed its whole 10 s after the terminal was made large
    enough, over the screen it no longer had to excuse."""
    app = ThroneApp(hub.lobby("alice", lang=lang))
    notice = t("app.small", lang, width=50, height=16, need_w=60, need_h=20)
    async with app.run_test(size=(50, 16)) as pilot:
        await settle(pilot)
        assert [str(n.message) for n in app._notifications] == [notice]
        await pilot.resize_terminal(*fits)
        await settle(pilot)
        assert list(app._notifications) == []
        assert "50×16" not in screen_text(app)
        await pilot.resize_terminal(55, 18)  # too small again: said again
        await settle(pilot)
        assert [str(n.message) for n in app._notifications] == [
            t("app.small", lang, width=55, height=18, need_w=60, need_h=20)
        ]


async def test_a_terminal_large_enough_is_told_nothing(hub: FakeHub) -> None:
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert list(app._notifications) == []


DIALOG_ACTIONS = ["create", "leaders", "language", "app.help", "app.quit_app"]
"""Actions that open a dialog from the lobby ("app." for the app's own)."""


def dialog_opener(app: ThroneApp, opens: str) -> Callable[[], object]:
    """The action ``opens`` (of :data:`DIALOG_ACTIONS`) of the lobby on top, or of the app."""
    owner, _, action = opens.rpartition(".")
    return cast("Callable[[], object]", getattr(app if owner else app.screen, f"action_{action}"))


@pytest.mark.parametrize("opens", DIALOG_ACTIONS)
async def test_a_dialog_closed_before_it_mounted_is_no_crash(hub: FakeHub, opens: str) -> None:
    """A key that opens a dialog and Escape right behind it, on a busy server:
    the dialog is off the screen stack before its own message loop gets to its
    Mount. Its mount handlers ran anyway, filling widgets already taken down
    (NoMatches) or mounting its key bar onto it, and the session ended."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        lobby = app.screen
        open_dialog = dialog_opener(app, opens)

        def open_and_close() -> None:  # in one step: the dialog's loop has not run yet
            open_dialog()
            assert app.screen is not lobby
            app.pop_screen()

        app.call_later(open_and_close)
        await settle(pilot)
        await settle(pilot)
        assert app.screen is lobby
        await pilot.press("c")  # and the lobby works on
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)
    assert app._exception is None
    assert app.return_code in (0, None)


@pytest.mark.parametrize("opens", DIALOG_ACTIONS)
async def test_a_dialog_closed_a_few_steps_after_it_opened_is_no_crash(hub: FakeHub, opens: str) -> None:
    """As above, but the dialog's loop has begun: closed 3 or 4 steps of the
    event loop after it opened, the new-room dialog's drop-downs mounted with
    their parts already taken down, and Textual's ``Select`` looked them up
    (NoMatches, a session crash seen with random input over ssh)."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        lobby = app.screen
        for steps in range(1, 9):
            dialog_opener(app, opens)()
            for _ in range(steps):
                await asyncio.sleep(0)
            if app.screen is not lobby:
                app.pop_screen()
            await settle(pilot)
            assert app._exception is None, steps
        assert app.screen is lobby
    assert app._exception is None
    assert app.return_code in (0, None)


@pytest.mark.parametrize("opens", DIALOG_ACTIONS)
async def test_a_dialog_opened_as_the_connection_drops_is_no_crash(hub: FakeHub, opens: str) -> None:
    """The player's last key opens a dialog and the connection drops before the
    dialog mounts: the app exits, and the dialog's key bar was mounted onto it
    then ("Can't mount widget(s) before LeaderboardDialog is mounted", seen over
    ssh): the end of the session was logged as a crash, with a traceback."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        open_dialog = dialog_opener(app, opens)

        def open_and_drop() -> None:
            open_dialog()
            app.exit()  # what server.ssh.Session.end does when the client vanishes

        app.call_later(open_and_drop)
        await settle(pilot)
    assert app._exception is None
    assert app.return_code in (0, None)


async def test_a_form_submitted_twice_makes_one_room(hub: FakeHub) -> None:
    """Enter pressed twice before the first one's answer (a busy server, a
    double click on OK): the dialog was dismissed twice, its callback ran
    again and Textual popped the lobby under it ("Can't pop screen; there must
    be at least one screen on the stack", seen over ssh), ending the session.
    The second submit is ignored now."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = await open_new_room_dialog(app, pilot)

        def twice() -> None:
            dialog.action_submit()
            dialog.action_submit()

        app.call_later(twice)
        await settle(pilot)
        await settle(pilot)
        assert len(hub.rooms) == 1
        assert isinstance(app.screen, RoomScreen)
        assert [type(s) for s in app.screen_stack] == [LobbyScreen, RoomScreen]
    assert app._exception is None


@pytest.mark.parametrize("opens", DIALOG_ACTIONS)
async def test_a_notice_that_comes_as_a_dialog_opens_is_shown_on_it(hub: FakeHub, opens: str) -> None:
    """A notice (a refusal, a room that closed) that comes between a dialog's
    opening and its compose: the app mounted a toast rack onto the dialog, then
    the dialog's compose brought its own ("Tried to insert a widget with ID
    'textual-toastrack'", seen over ssh) and the session ended."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:  # as on the host
        await settle(pilot)
        lobby = app.screen
        open_dialog = dialog_opener(app, opens)

        def open_and_notify() -> None:  # the notice is handled before the dialog's loop runs
            open_dialog()
            app._on_notify(Notify(Notification("The room closed.")))

        app.call_later(open_and_notify)
        for _ in range(40):  # (a loaded machine takes more than two pauses to show the toast)
            await settle(pilot)
            if app.screen is not lobby and "The room closed." in screen_text(app):
                break
        assert app.screen is not lobby
        assert "The room closed." in screen_text(app)
    assert app._exception is None


async def open_the_game_list(app: ThroneApp, pilot: Pilot[None]) -> None:
    """From the lobby: the new-room dialog, its game drop-down open."""
    dialog = await open_new_room_dialog(app, pilot)
    dialog.query_one("#game").focus()
    await pilot.press("enter")
    await settle(pilot)


async def test_an_open_drop_down_survives_a_terminal_made_very_narrow(hub: FakeHub) -> None:
    """The game list of the new-room dialog open, the terminal shrunk to a few
    columns: Textual laid the list out at width 0 and Rich's folding divided by
    it ("range() arg 3 must not be zero", seen over ssh), ending the session."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_the_game_list(app, pilot)
        for width in (40, 20, 12, 8, 5, 3, 1):
            await pilot.resize_terminal(width, 10)
            await settle(pilot)
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert "Sultans of Karaya" in screen_text(app)
    assert app._exception is None


async def test_a_click_where_a_widget_was_just_removed_is_no_crash(hub: FakeHub) -> None:
    """A click that lands on a widget removed since the last layout (a toast
    that timed out, a pane a new screen replaced): Textual's text selection
    started on it and read its parent's region ("'NoneType' object has no
    attribute 'region'", seen over ssh), ending the session. Selection by
    mouse is off in the app (the terminal's own still works)."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        gone = app.screen.query_one("#fingerprint")
        x, y = gone.region.x + 2, gone.region.y

        def remove_and_click() -> None:  # before a layout takes the widget off the map
            gone.remove()
            app.post_message(events.MouseDown(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))
            app.post_message(events.MouseUp(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))

        app.call_later(remove_and_click)
        await settle(pilot)
        await pilot.press("c")  # the lobby works on
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)
    assert app._exception is None


async def test_a_notice_as_the_connection_drops_is_no_crash(hub: FakeHub) -> None:
    """A notice that comes after the player's connection dropped (the app is
    exiting): a toast rack was mounted onto the lobby then ("Can't mount
    widget(s) before LobbyScreen() is mounted", seen over ssh) and the end of
    the session was logged as a crash."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)

        def drop_then_notice() -> None:
            app.exit()
            app._on_notify(Notify(Notification("Bob left the room.")))

        app.call_later(drop_then_notice)
        await settle(pilot)
    assert app._exception is None


@pytest.mark.parametrize("key", ["pagedown", "pageup"])
async def test_paging_an_open_drop_down_with_no_room_is_no_crash(hub: FakeHub, key: str) -> None:
    """Page Down in the new-room dialog's open game list on a terminal too small
    to show it: Textual's list had laid out no lines and looked its option up
    among them (KeyError, a session crash seen over ssh)."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_the_game_list(app, pilot)
        await pilot.resize_terminal(3, 2)
        await settle(pilot)
        await pilot.press(key, key)
        await settle(pilot)
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)
    assert app._exception is None


async def test_a_tall_terminal_gives_the_lobby_chat_more_rows(hub: FakeHub) -> None:
    """The chat and who is online had 10 rows at most: at 60 rows the chat showed
    8 lines under 46 rows of a rooms list with two rooms in it. They keep 10 rows
    on a short terminal (the rooms keep theirs) and take two fifths of a tall one,
    also after a resize."""
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#lobby-bottom").size.height == 10
        rooms = app.screen.query_one("#rooms").size.height
        await pilot.resize_terminal(100, 60)
        await settle(pilot)
        assert app.screen.query_one("#lobby-bottom").size.height == 24
        assert app.screen.query_one("#rooms").size.height > rooms
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.screen.query_one("#lobby-bottom").size.height == 10
    app = ThroneApp(hub.lobby("bob"))
    async with app.run_test(size=(100, 60)) as pilot:  # tall from the start
        await settle(pilot)
        assert app.screen.query_one("#lobby-bottom").size.height == 24


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_name_cleaned_at_login_is_said_once(hub: FakeHub, lang: Lang) -> None:
    """ssh h1[/b]x@host played as "h1bx" with no word of why; now a toast says
    the name and what was asked (literally: no markup)."""
    lobby = hub.lobby("h1bx", lang=lang)
    lobby._identity = lobby._identity.model_copy(update={"asked_as": "h1[/b]x"})
    app = ThroneApp(lobby)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = "".join(screen_text(app).split())
        said = t("lobby.renamed", lang, name="h1bx", asked="h1[/b]x")
        assert "".join(said.split())[:12] in text, text  # (the toast wraps)
        assert "h1[/b]x" in text


def test_the_fake_lobbies_share_one_set_of_club_stubs() -> None:
    """The lobby fakes (tests/tui/fakes.py, table_fakes.py) had the same four
    LobbyClient methods each: one definition, so a change to the contract is
    made once."""
    from fakes import ClubStubs, FakeLobby
    from table_fakes import FakeTableLobby

    for name in ("motd", "admin", "take_notices", "redeem_invite"):
        assert getattr(FakeLobby, name) is getattr(ClubStubs, name) is getattr(FakeTableLobby, name), name
