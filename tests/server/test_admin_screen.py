"""The admin screen (F9) on the real hub behind the real app (Textual pilot), at
80x24 and 60x20 in both languages; and the invite screen of a members-only club."""

from __future__ import annotations

import pytest
from hubs import new_hub, settle
from textual.widgets import Input

from protocol.contract import Identity, RoomSettings
from protocol.i18n import room_title, t
from tui.app import ThroneApp
from tui.screens.admin import AdminScreen, FormDialog
from tui.screens.invite import InviteScreen
from tui.screens.lobby import LobbyScreen

ADMIN = "SHA256:adminkey"


@pytest.fixture(autouse=True)
def immediate_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)


def screen_text(app: ThroneApp) -> str:
    """What the top screen shows now, as plain text lines."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_an_admin_bans_a_troublemaker_from_the_admin_screen(size: tuple[int, int], lang: str) -> None:
    hub = new_hub()
    await hub.start()
    try:
        hub.club.config_admins = frozenset({ADMIN})
        troll = hub.connect(Identity(name="troll", key_fingerprint="SHA256:trollkey", address="192.0.2.5"))
        ended: list[str] = []
        troll.ender = lambda key, values: ended.append(values["reason"])
        lobby = hub.connect(Identity(name="boss", key_fingerprint=ADMIN, admin=True, lang=lang))  # type: ignore[arg-type]
        app = ThroneApp(lobby)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
            assert "F9" in screen_text(app).splitlines()[-1]
            await pilot.press("f9")
            await settle(pilot)
            assert isinstance(app.screen, AdminScreen)
            shown = screen_text(app)
            assert "troll" in shown and "192.0.2.5" in shown
            # the cursor on troll (rows sorted by name: boss, troll)
            await pilot.press("down", "x")
            await settle(pilot)
            assert isinstance(app.screen, FormDialog)
            fields = list(app.screen.query(Input))
            assert [f.value for f in fields[:2]] == [t("admin.kind.key", lang), "SHA256:trollkey"]  # type: ignore[arg-type]
            fields[2].value = "spamming"
            app.screen.action_submit()
            await settle(pilot)
            hub.run_club_commands()  # the ban's "enforce" row, as the hub's poll (every 2 s) reads it on a slow run
            assert ended == ["spamming"]  # troll is ended once (the poll ran the ban twice)
            assert hub.club.ban_for(key="SHA256:trollkey") is not None
            await pilot.press("tab")  # the bans
            await settle(pilot)
            assert "spamming" in screen_text(app), screen_text(app)
            await pilot.press("d")
            await settle(pilot)
            assert hub.club.bans() == []
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_online_list_keeps_a_cut_names_marks(size: tuple[int, int], lang: str) -> None:
    """At 60x20 in Chinese "visitor_long（訪客）" was cut to "visitor_l…": the
    name gives way, its marks (guest, muted) stay."""
    hub = new_hub()
    await hub.start()
    try:
        hub.club.config_admins = frozenset({ADMIN})
        hub.connect(Identity(name="visitor_long", guest=True, address="192.0.2.5"))
        hub.connect(Identity(name="trollish_name", key_fingerprint="SHA256:trollkey", address="192.0.2.6"))
        hub.club.mute("boss", "trollish_name", "spam", None)
        lobby = hub.connect(Identity(name="boss", key_fingerprint=ADMIN, admin=True, lang=lang))  # type: ignore[arg-type]
        app = ThroneApp(lobby)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("f9")
            await settle(pilot)
            lines = screen_text(app).splitlines()
            guest = next(line for line in lines if "192.0.2.5" in line)
            muted = next(line for line in lines if "192.0.2.6" in line)
            assert t("admin.guest", lang, name="") in guest and guest.lstrip("│ ").startswith("v"), guest  # type: ignore[arg-type]
            assert t("admin.muted", lang, name="") in muted and muted.lstrip("│ ").startswith("t"), muted  # type: ignore[arg-type]
    finally:
        await hub.stop()


async def test_f9_is_not_offered_to_players() -> None:
    hub = new_hub()
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="bob", key_fingerprint="SHA256:bob"))
        app = ThroneApp(lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert "F9" not in screen_text(app)
            await pilot.press("f9")
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
    finally:
        await hub.stop()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_newcomer_to_a_members_only_club_sees_nothing_before_the_code(lang: str) -> None:
    hub = new_hub(members_only=True)
    await hub.start()
    try:
        hub.connect(Identity(name="member", key_fingerprint="SHA256:member")).chat("secret plans")
        code = hub.club.invite("admin").code
        lobby = hub.connect(Identity(name="newbie", key_fingerprint="SHA256:new", invite_needed=True, lang=lang))  # type: ignore[arg-type]
        app = ThroneApp(lobby)
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, InviteScreen)
            shown = screen_text(app)
            assert "secret plans" not in shown and "member" not in shown.replace("members", "")
            field = app.screen.query_one(Input)
            field.value = "wrong"
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, InviteScreen)
            field.value = code
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
            assert hub.club.is_member("SHA256:new") and hub.storage.key_owner("newbie") == "SHA256:new"
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_invite_screen_centres_its_dialog_and_keeps_its_keys_at_the_bottom(size: tuple[int, int]) -> None:
    """The invite screen's dialog sat on the top rows with its key bar right under
    it (the rest of the terminal blank), and the bar named no F2: a newcomer did
    not learn they could read it in the other language."""
    hub = new_hub(members_only=True)
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="newbie", key_fingerprint="SHA256:new", invite_needed=True))
        app = ThroneApp(lobby)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, InviteScreen)
            lines = screen_text(app).splitlines()
            assert len(lines) == size[1]
            assert "Enter" in lines[-1] and "F2" in lines[-1] and "中文" in lines[-1], lines[-1]
            top = next(i for i, line in enumerate(lines) if "newbie" in line)
            assert top > 2, "the dialog is centred, not on the top rows"
            await pilot.press("f2")
            await settle(pilot)
            lines = screen_text(app).splitlines()
            assert "English" in lines[-1] and "邀請碼" in screen_text(app), lines[-1]
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_closing_a_room_names_the_open_rooms_by_number(size: tuple[int, int], lang: str) -> None:
    """The close-room form asks for a room number, and neither the lobby nor the
    admin screen showed one: the form lists the open rooms with their numbers."""
    hub = new_hub()
    await hub.start()
    try:
        hub.club.config_admins = frozenset({ADMIN})
        room = hub.connect(Identity(name="bob", key_fingerprint="SHA256:bob")).create_room(
            RoomSettings(game="count", seats=2, name="late table"))
        unnamed = hub.connect(Identity(name="carol", key_fingerprint="SHA256:carol")).create_room(
            RoomSettings(game="count", seats=2))  # shown as the lobby shows it: carol's table
        lobby = hub.connect(Identity(name="boss", key_fingerprint=ADMIN, admin=True, lang=lang))  # type: ignore[arg-type]
        app = ThroneApp(lobby)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("f9", "tab", "tab", "tab")  # online, bans, members, the audit log
            await settle(pilot)
            await pilot.press("c")
            await settle(pilot)
            assert isinstance(app.screen, FormDialog)
            shown = screen_text(app)
            assert f"{room.room_id} late table" in shown, shown
            assert f"{unnamed.room_id} {room_title('', 'carol', lang)}" in shown, shown  # type: ignore[arg-type]
            fields = list(app.screen.query(Input))
            fields[0].value = room.room_id
            app.screen.action_submit()
            await settle(pilot)
            assert not isinstance(app.screen, FormDialog)
            assert hub.chat[-1].key == "sys.room_closed_admin_named"
    finally:
        await hub.stop()


async def test_a_refused_invite_code_is_typed_over_not_added_to() -> None:
    """After "That invite code is not valid", typing the code again appended it
    to the refused one ("4a599ca7bc34a599ca7bc32"): the refused code is selected."""
    hub = new_hub(members_only=True)
    await hub.start()
    try:
        code = hub.club.invite("admin").code
        lobby = hub.connect(Identity(name="newbie", key_fingerprint="SHA256:new", invite_needed=True))
        app = ThroneApp(lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press(*"wrong", "enter")
            await settle(pilot)
            assert isinstance(app.screen, InviteScreen)
            assert app.screen.query_one(Input).value == "wrong"
            await pilot.press(*code)
            await settle(pilot)
            assert app.screen.query_one(Input).value == code
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
    finally:
        await hub.stop()
