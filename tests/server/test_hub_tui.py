"""The real hub behind the real screens (tui.app.ThroneApp, Textual pilot):
reconnect straight to one's seat, play from the plain table while bots play,
listeners firing inside the app."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hubs import close_results, new_hub, settle
from textual.widgets import Input, Select, Static

import tui.app
from protocol.contract import Identity, RoomSettings
from protocol.i18n import Lang, game_title, t
from server.hub import Hub
from server.room import Room
from server.storage import Storage
from tui.app import ThroneApp
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.lobby import LobbyScreen
from tui.screens.plain_table import PlainTableScreen
from tui.screens.room import RoomScreen
from tui.tables import TableScreen, register_table, table_screen_for, unregister_table
from tui.turns import Turns


@pytest.fixture(autouse=True)
def immediate_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)


@pytest.fixture
def plain_sultans_table() -> Iterator[None]:
    """This test plays by Enter on the plain table's highlighted action: keep
    Sultans rooms on the plain table even now that Sultans has its own screen."""
    register_table("sultans", PlainTableScreen)
    yield
    unregister_table("sultans")


@pytest.mark.usefixtures("plain_sultans_table")
async def test_player_plays_a_sultans_match_from_the_table_screen() -> None:
    # (alice's seat waits for her: with the room's short grace a bot would play it while her screen opens)
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=0.0, intermission=0.0, time_scale=0.001,
              grace_period=1e6)
    await hub.start()
    try:
        first = hub.connect(Identity(name="alice"))
        rc = first.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, turn_timer=0, options={"rounds": 3}))
        rc.start()  # four bots
        hub.disconnect(first)  # alice drops; she comes back in a new session (an app)
        room = rc.room
        lobby = hub.connect(Identity(name="alice"))
        app = ThroneApp(lobby)
        played = 0
        async with app.run_test(size=(120, 40)) as pilot:
            await close_results(app, pilot)  # (the bots may have ended a round without her: its result over the table)
            assert isinstance(app.screen, TableScreen)  # reconnect: straight to the seat
            for _ in range(3000):
                if room.state != "playing":
                    break
                if room.is_pending(0):
                    await settle(pilot, 2)
                    before = room.seq
                    await pilot.press("enter")  # the highlighted legal action
                    await settle(pilot, 2)
                    played += room.seq > before
                else:
                    await asyncio.sleep(0.002)
            await settle(pilot)
        assert played > 0
        assert room.state == "finished"  # alice's moves and the bots' took the match to its end
        assert room.match_id is not None
        mine = [e for e in hub.storage.match_log(room.match_id) if e.seat == 0]
        assert len(mine) >= played
    finally:
        await hub.stop()


async def test_spectators_of_a_room_share_one_ring_and_see_the_same() -> None:
    """The hub hands every spectator the same view object per version; their
    Sultans tables then share the seat boxes made from it (made once, not once
    per screen), and show the same ring."""
    from tui.sultans.ring import TableRing

    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=0.0, intermission=0.0)
    await hub.start()
    try:
        host = hub.connect(Identity(name="alice"))
        rc = host.create_room(RoomSettings(game="sultans", seats=5, turn_timer=0, window_timer=0))
        rc.start()  # alice and four bots; alice's turn first or soon: the match waits for her
        apps = [ThroneApp(hub.connect(Identity(name=n))) for n in ("wes", "zoe")]
        async with apps[0].run_test(size=(100, 30)) as p1, apps[1].run_test(size=(100, 30)) as p2:
            for app, pilot in zip(apps, (p1, p2), strict=True):
                await settle(pilot)
                app.call_later(app.enter_room, app.lobby.watch(rc.room.id), watching=True)
                await settle(pilot, 3)
            for _ in range(600):  # (a quick window alice has nothing to answer in lasts its 2 s; a busy machine more)
                if rc.pending():
                    break
                await asyncio.sleep(0.05)
            rc.act(rc.legal()[0], rc.snapshot().version)  # the bots play on until alice's next turn
            for _ in range(10):
                await asyncio.sleep(0.05)
                for pilot in (p1, p2):
                    await settle(pilot, 2)
            rings = [app.screen.query_one(TableRing) for app in apps]
            assert rings[0].boxes and rings[0].boxes is rings[1].boxes
            shown = ["\n".join(strip.text for strip in app.screen._compositor.render_strips()) for app in apps]
            ring_rows = [[line for line in text.splitlines() if "│" in line] for text in shown]
            assert ring_rows[0] == ring_rows[1]
    finally:
        await hub.stop()



class SlowToClose(Static):
    """A widget that takes its time to close, as widgets of a busy server do:
    Textual's shutdown waits for it with the lobby screen half taken down."""

    async def on_unmount(self) -> None:
        await asyncio.sleep(0.3)


class ClosingApp(ThroneApp):
    CSS_PATH = str(Path(tui.app.__file__).with_name("app.tcss"))
    flush_interval = 0.02  # the lobby's: 0.08 s


@pytest.mark.parametrize("turns", [False, True], ids=["direct", "turns"])
async def test_a_lobby_change_while_a_session_closes_is_no_crash(turns: bool) -> None:
    """Players leaving one after another: each one's session ends and leaves
    the hub, which asks every lobby still there to show the new "online" count,
    while the next player's App is shutting down. A lobby screen whose widgets
    Textual had already removed was refreshed then ("No nodes match
    '#lobby-head'"), and that session ended as a crash, with a traceback in the
    server log (seen with 20 players leaving one by one over ssh)."""
    hub = new_hub()
    await hub.start()
    try:
        app = ClosingApp(hub.connect(Identity(name="alice")), turns=Turns() if turns else None)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, LobbyScreen)
            await app.screen.mount(SlowToClose("…"))
            hub.connect(Identity(name="bob"))  # the lobby's "online" line changes: drawn at once
            await settle(pilot)
            hub.connect(Identity(name="carol"))  # and again: drawn 0.08 s after the first
            app.exit()
        assert app._exception is None
        assert app.return_code == 0
    finally:
        await hub.stop()


def screen_text(app: ThroneApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def short_match(hub: Hub, game: str) -> Room:
    """A room of ``game`` with alice and four bots, one round (Sultans) or two
    (Overlord) long, started; alice's session gone (an app comes back to it)."""
    first = hub.connect(Identity(name="alice"))
    options: dict[str, object] = {"rounds": 1} if game == "sultans" else {"round_limit": 2}
    rc = first.create_room(RoomSettings(game=game, seats=5, window_timer=0, turn_timer=0, options=options))
    rc.start()  # four bots
    hub.disconnect(first)
    return rc.room


async def play_first_choices(app: ThroneApp, room: Room) -> None:
    """Alice (seat 0, ``app``) takes her first choice each time, to the match's end."""
    for _ in range(20000):
        if room.state != "playing":
            return
        client = app.room
        assert client is not None
        if room.is_pending(0) and (legal := client.legal()):
            client.act(legal[0], client.snapshot().version)
        await asyncio.sleep(0.001)


@pytest.mark.parametrize("game", ["overlord", "sultans"])
async def test_play_again_opens_a_fresh_table_for_the_new_game(game: str) -> None:
    """The host's p after a finished match starts another one (S-MATCH-1, K-END-1):
    the table's log went on showing the last game's end and its result pane
    stayed marked as shown (seen over ssh, Overlord); now the new game gets a
    fresh table screen."""
    hub = new_hub(games=None)
    await hub.start()
    try:
        room = short_match(hub, game)
        old = room.match_id
        app = ThroneApp(hub.connect(Identity(name="alice")))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await close_results(app, pilot)  # (quick bots may end a round before the first look)
            table = app.screen
            assert old is not None and isinstance(table, TableScreen) and table.match_id == old
            await play_first_choices(app, room)
            await settle(pilot)
            await close_results(app, pilot)  # the match's result opens over the table
            assert room.state == "finished" and app.screen is table
            assert "Press p to play again" in screen_text(app)
            for _ in range(5):  # (a late result over the table may take a key: it closes, p again)
                await pilot.press("p")
                await settle(pilot, 6)
                if room.state == "playing":
                    break
                await close_results(app, pilot)
            assert room.state == "playing" and room.match_id != old
            fresh = app.screen
            assert isinstance(fresh, TableScreen) and fresh is not table and fresh.match_id == room.match_id
            text = screen_text(app)
            assert "Game over" not in text and "The match is over" not in text and "play again" not in text
            assert re.search(r"Round 1/1" if game == "sultans" else r"Round [12]/2", text.splitlines()[0])  # (bots are quick)
    finally:
        await hub.stop()


@pytest.mark.parametrize("game", ["overlord", "sultans"])
async def test_after_a_match_o_takes_everyone_back_to_the_room_to_change_the_settings(game: str) -> None:
    """A club plays another game, or with other settings, after a match: the
    host's o on the finished table brings every screen back to the waiting
    room (a watcher's too) and opens the host's settings dialog there; p
    would start the same again. Escape keeps the settings; s starts."""
    hub = new_hub(games=None)
    await hub.start()
    try:
        room = short_match(hub, game)
        bob = ThroneApp(hub.connect(Identity(name="bob")))
        app = ThroneApp(hub.connect(Identity(name="alice")))
        async with app.run_test(size=(120, 40)) as pilot, bob.run_test(size=(100, 30)) as bob_pilot:
            bob.enter_room(bob.lobby.watch(room.id), watching=True)
            await settle(bob_pilot)
            await settle(pilot)
            await close_results(app, pilot)  # (quick bots may end a round before the first look)
            table = app.screen
            assert isinstance(table, TableScreen)
            await play_first_choices(app, room)
            await settle(pilot)
            await settle(bob_pilot)
            await close_results(app, pilot)  # the match's result opens over the table
            await close_results(bob, bob_pilot)
            assert room.state == "finished" and app.screen is table
            assert "o to change the settings" in screen_text(app)
            assert re.search(r" o +Settings ", screen_text(app).splitlines()[-1])
            assert " o Settings" not in screen_text(bob)  # the host's key only
            await bob_pilot.press("o")
            await settle(bob_pilot)
            assert room.state == "finished"
            await pilot.press("o")
            await settle(pilot, 6)
            assert room.state == "finished"  # the dialog over the table: nobody moved yet
            dialog = app.screen
            assert isinstance(dialog, RoomSettingsDialog)
            assert app.screen_stack[-2] is table
            assert dialog.query_one("#game", Select).value == game
            await pilot.press("escape")  # cancelled: nothing changes, nobody is moved
            await settle(pilot, 6)
            assert room.state == "finished" and app.screen is table
            await pilot.press("o")
            await settle(pilot, 6)
            await pilot.click("#ok")  # the settings as they were, saved: everyone back to the waiting room
            await settle(pilot, 6)
            assert room.state == "waiting" and isinstance(app.screen, RoomScreen)
            await settle(bob_pilot, 6)
            assert isinstance(bob.screen, RoomScreen)  # the watcher sees the room wait again
            assert "* the host brought everyone" in screen_text(bob)  # the chat wraps the rest
            assert re.search(r" s +Start ", screen_text(app).splitlines()[-1])
            old = room.match_id
            await pilot.press("s")
            await settle(pilot, 6)
            # (an Overlord game may end without asking alice: quick bots can finish it in the wait)
            assert room.match_id != old and room.state in ("playing", "finished")
            tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
            assert tables and tables[-1] is not table and tables[-1].match_id == room.match_id
    finally:
        await hub.stop()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_host_changes_a_waiting_rooms_game(lang: Lang) -> None:
    """The settings dialog of a waiting room changes its game too (it could
    not: the host had to open another room and everyone move). The seat count
    comes into the new game's range, the old game's options go, readiness is
    asked again, and the chat says which game it is now, in each language."""
    hub = new_hub(games=None)
    await hub.start()
    try:
        alice = hub.connect(Identity(name="alice", lang=lang))
        rc = alice.create_room(RoomSettings(game="sultans", seats=12, turn_timer=0, options={"rounds": 3}))
        bob = hub.connect(Identity(name="bob")).join(rc.room_id)
        bob.take_seat(10)
        bob.set_ready(True)
        room = rc.room
        app = ThroneApp(hub.connect(Identity(name="alice", lang=lang)))
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, RoomScreen)
            await pilot.press("o")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, RoomSettingsDialog)
            await pilot.press("shift+tab", "enter")  # from the room's name to the game, and open it
            await settle(pilot)
            await pilot.press("down", "enter")  # Sultans of Karaya -> Kill the Overlord
            await settle(pilot)
            assert dialog.query_one("#game", Select).value == "overlord"
            assert dialog.query_one("#seats", Input).value == "8"  # 4-8 seats
            assert dialog.query_one("#row-round_limit").display and not dialog.query_one("#row-rounds").display
            await pilot.click("#ok")
            await settle(pilot)
            refusal = {"en": "Players sit in the seats", "zh": "要取消的座位上還有玩家"}[lang]
            assert app.screen is dialog and refusal in screen_text(app)  # bob sits in seat 10 of 8: the form stays
            assert room.settings.game == "sultans"
            bob.take_seat(3)
            bob.set_ready(True)
            await pilot.pause(0.3)  # a button takes no click in the 0.2 s it shows the last one
            await pilot.click("#ok")
            await settle(pilot, 6)
            assert isinstance(app.screen, RoomScreen)
            assert room.settings.game == "overlord" and room.spec.id == "overlord"
            assert len(room.seats) == 8 and "rounds" not in room.settings.options
            assert not any(seat.ready for seat in room.seats)  # bob sat down to another game
            stored = hub.storage.room(room.id)  # a restart brings the room back with its new game
            assert stored is not None and stored.settings["game"] == "overlord" and stored.settings["seats"] == 8
            said = {"en": "* the host changed the game", "zh": "* 房主把遊戲換成《刺殺領主》"}[lang]
            shown = screen_text(app)
            assert said in shown  # the chat wraps the rest
            assert game_title("overlord", lang) in shown and game_title("sultans", lang) not in shown
            assert bob.chat_lines()[-1].text == "the host changed the game to Kill the Overlord"
            bob.set_ready(True)
            await pilot.press("s")
            await settle(pilot, 6)
            # (an Overlord game may end without asking alice: quick bots can finish it in the wait)
            assert room.state in ("playing", "finished") and room.spec.id == "overlord"
            assert any(isinstance(s, table_screen_for("overlord")) for s in app.screen_stack)
    finally:
        await hub.stop()


@pytest.mark.parametrize("game", ["sultans", "overlord"])
async def test_bots_are_named_in_the_reader_s_language(game: str) -> None:
    """The host names the bot in the seat shown as 3 "Bot 3"; a Chinese table
    read "Bot 3" among Chinese words. Now "電腦 3" there, "Bot 3" in English;
    players keep theirs."""
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:x", bot_delay=60.0, intermission=0.0, time_scale=0.001)
    await hub.start()
    try:
        first = hub.connect(Identity(name="alice", lang="zh"))
        rc = first.create_room(RoomSettings(game=game, seats=5, window_timer=0, turn_timer=0))
        rc.start()  # four bots
        assert rc.snapshot().names[2] == "Bot 3"  # the host's name, for its logs and results
        hub.disconnect(first)
        for lang, bot in (("zh", "電腦 3"), ("en", "Bot 3")):
            app = ThroneApp(hub.connect(Identity(name="alice", lang=lang)))
            async with app.run_test(size=(120, 40)) as pilot:
                await settle(pilot)
                assert isinstance(app.screen, TableScreen)
                text = screen_text(app)
                assert bot in text and "alice" in text, text
                if lang == "zh":
                    assert "Bot 3" not in text, text
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_waiting_room_says_who_came_to_watch(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 item 10: a waiting room names who came to watch in its chat,
    as a playing table does, in the player's language, at 80x24 and 60x20."""
    hub = new_hub()
    await hub.start()
    try:
        host = hub.connect(Identity(name="alice", lang=lang))
        room = host.create_room(RoomSettings(game="count", seats=3))
        app = ThroneApp(host)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, RoomScreen)  # back to her room: no lobby step
            hub.connect(Identity(name="carol")).watch(room.room_id)
            await settle(pilot, 6)
            said = "carol is watching" if lang == "en" else "carol 在觀戰"
            text = screen_text(app)
            chat = "".join(line.split("││")[-1] for line in text.splitlines() if "││" in line)  # the right pane
            assert said.replace(" ", "") in re.sub(r"[\s│]", "", chat), text
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_watcher_who_comes_back_starts_on_the_room_watching(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 item 8: a spectator whose connection (or the server) went while
    watching a waiting room connects again: the first screen is that room, as
    a watcher ("You are watching"), not the lobby, at 80x24 and 60x20."""
    hub = new_hub(time_scale=1.0, grace_period=60.0)
    await hub.start()
    try:
        room = hub.connect(Identity(name="alice")).create_room(RoomSettings(game="count", seats=3))
        first = hub.connect(Identity(name="carol", lang=lang))
        first.watch(room.room_id)
        hub.disconnect(first)
        app = ThroneApp(hub.connect(Identity(name="carol", lang=lang)))
        async with app.run_test(size=size) as pilot:
            await settle(pilot, 6)
            assert isinstance(app.screen, RoomScreen) and app.watching
            text = screen_text(app)
            said = "You are watching." if lang == "en" else "你正在觀戰。"
            assert said in text, text
            assert room.room.spectator_names() == ["carol"]
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_chat_line_that_is_full_says_so_to_its_sender(size: tuple[int, int], lang: Lang) -> None:
    """Issue 44 item 9: a chat line stops at CHAT_MAX characters; a key or a
    paste past it was dropped without a word. The sender is told (a notice on
    their screen only, in their language); what they send is what the line
    shows, all of it."""
    from textual import events

    from protocol.contract import CHAT_MAX
    from tui.widgets import ChatInput

    hub = new_hub()
    await hub.start()
    try:
        host = hub.connect(Identity(name="alice", lang=lang))
        room = host.create_room(RoomSettings(game="count", seats=3))
        other = ThroneApp(hub.connect(Identity(name="bob", lang=lang)))
        app = ThroneApp(host)
        said = t("chat.full", lang, max=str(CHAT_MAX))
        async with app.run_test(size=size) as pilot, other.run_test(size=size) as other_pilot:
            await settle(pilot)
            await pilot.press("t")
            field = app.screen.query_one(ChatInput)
            assert field.has_focus and field.max_length == CHAT_MAX
            field.value = "word " * ((CHAT_MAX - 1) // 5) + "x" * ((CHAT_MAX - 1) % 5)
            field.cursor_position = len(field.value)
            await pilot.press("y", "z")  # the 300th character, then one too many
            await settle(pilot)
            assert len(field.value) == CHAT_MAX and field.value.endswith("y")
            assert [n.message for n in app._notifications] == [said]
            flat = re.sub(r"\s", "", screen_text(app))
            assert said.replace(" ", "")[:12] in flat  # the notice is on the screen
            await pilot.press("z", "z")  # a held key: one notice, not a pile
            await settle(pilot)
            assert [n.message for n in app._notifications] == [said]
            await pilot.press("enter")
            await settle(pilot)
            sent = [line.text for line in room.chat_lines() if line.name == "alice"]
            assert sent == ["word " * ((CHAT_MAX - 1) // 5) + "x" * ((CHAT_MAX - 1) % 5) + "y"]
            for note in list(app._notifications):
                app._unnotify(note)
            field.value = "x" * (CHAT_MAX - 3)
            field.cursor_position = len(field.value)
            field.post_message(events.Paste("abcdef"))  # a paste that does not fit is cut, and said
            await settle(pilot)
            assert field.value == "x" * (CHAT_MAX - 3) + "abc"
            assert [n.message for n in app._notifications] == [said]
            await settle(other_pilot)
            assert not other._notifications  # only the sender is told
    finally:
        await hub.stop()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_room_dialog_refuses_a_level_for_a_players_seat(size: tuple[int, int], lang: Lang) -> None:
    """The room dialog took "2:easy" for bob's seat and the settings line then said
    "seat 2 easy" beside him: a level by seat is for a bot's seat or an empty one.
    The dialog says whose seat it is and stays; a level for an empty seat is kept,
    and the waiting room's settings line names it; when bob sits there it goes,
    from the line and from the dialog."""
    from protocol.i18n import level_name
    from tui.summary import settings_summary

    hub = new_hub()
    await hub.start()
    try:
        alice = hub.connect(Identity(name="alice", lang=lang))
        rc = alice.create_room(RoomSettings(game="count", seats=4, turn_timer=0))
        bob = hub.connect(Identity(name="bob")).join(rc.room_id)
        room = rc.room
        easy = level_name("easy", lang)
        app = ThroneApp(hub.connect(Identity(name="alice", lang=lang)))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, RoomScreen)

            async def save(levels: str) -> RoomSettingsDialog:
                await pilot.press("o")
                await settle(pilot)
                dialog = app.screen
                assert isinstance(dialog, RoomSettingsDialog)
                field = dialog.query_one("#bot_levels", Input)
                field.value = levels
                field.focus()
                await pilot.pause(0.3)  # (one answer at a time)
                await pilot.press("enter")
                await settle(pilot, 6)
                return dialog

            dialog = await save(f"2:{easy}")
            assert app.screen is dialog
            said = str(dialog.query_one("#form-error", Static).render())
            assert said == t("err.bad-level.player", lang, seat="2", name="bob"), said
            assert room.settings.bot_levels == {}
            await pilot.press("escape")
            await settle(pilot)
            await save(f"3:{easy}")
            assert isinstance(app.screen, RoomScreen) and room.settings.bot_levels == {2: "easy"}
            line = {"en": "(seat 3 easy)", "zh": "（座位 3 簡單）"}[lang]
            assert line in settings_summary(room.settings, lang)
            assert line.replace(" ", "") in re.sub(r"\s", "", screen_text(app))  # the settings line (wrapped at 60)
            bob.take_seat(2)
            await settle(pilot, 6)
            assert room.settings.bot_levels == {}
            assert line.replace(" ", "") not in re.sub(r"\s", "", screen_text(app))
            await pilot.press("o")
            await settle(pilot)
            again = app.screen
            assert isinstance(again, RoomSettingsDialog) and again.query_one("#bot_levels", Input).value == ""
    finally:
        await hub.stop()
