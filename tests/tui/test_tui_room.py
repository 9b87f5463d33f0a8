"""Pilot tests of the waiting room: seats, ready, host controls, kick, reconnect."""

from __future__ import annotations

import pytest
from fakes import FakeHub, FakeLobby, FakeRoom, screen_text, settle
from rich.cells import cell_len

from protocol.contract import RoomSettings
from protocol.i18n import Lang, t
from tui.app import ThroneApp
from tui.screens.dialogs import ConfirmDialog, RoomSettingsDialog
from tui.screens.lobby import LobbyScreen
from tui.screens.plain_table import PlainTableScreen
from tui.screens.room import RoomScreen


def only_room(hub: FakeHub) -> FakeRoom:
    (room,) = hub.rooms.values()
    return room


def key_bar(app: ThroneApp) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_host_adds_and_removes_bots_changes_options_and_starts(hub: FakeHub, size: tuple[int, int]) -> None:
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.enter_room(lobby.create_room(RoomSettings(game="tokens", name="host test", seats=5)), watching=False)
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        room = only_room(hub)
        bar = key_bar(app)
        for label in ("Add bot", "Options", "Start"):
            assert label in bar
        await pilot.press("down", "a")  # a bot in the highlighted empty seat 1
        await settle(pilot)
        assert room.seats[1].kind == "bot"
        assert "Bot 2" in screen_text(app)  # the second seat's bot, as players number seats
        await pilot.press("a", "a")  # then the first empty seats
        await settle(pilot)
        assert [s.kind for s in room.seats] == ["human", "bot", "bot", "bot", "empty"]
        await pilot.press("d")  # remove the highlighted bot (seat 1)
        await settle(pilot)
        assert only_room(hub).seats[1].kind == "empty"
        await pilot.press("o")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RoomSettingsDialog)
        dialog.query_one("#seats").value = "3"  # type: ignore[attr-defined]  # a bot sits in seat 3
        await pilot.click("#ok")
        await settle(pilot)
        assert app.screen is dialog  # the host's refusal is said in the dialog, the form kept
        assert "seats beyond the new count are taken" in screen_text(app)
        dialog.query_one("#seats").value = "6"  # type: ignore[attr-defined]
        assert not dialog.query_one("#row-rounds").display  # no rounds option for this game
        await pilot.pause(0.3)  # a button takes no click in the 0.2 s it shows the last one
        await pilot.click("#ok")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert len(room.seats) == 6
        assert "rounds" not in room.settings.options
        assert "6 seats · turn 60 s" in screen_text(app)
        await pilot.press("s")
        await settle(pilot)
        assert room.state == "playing"
        assert isinstance(app.screen, PlainTableScreen)


async def test_player_who_is_not_host_has_no_host_controls(hub: FakeHub) -> None:
    bob = hub.lobby("bob")
    bob.create_room(RoomSettings(name="bob's"))
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # join
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        bar = key_bar(app)
        assert "Ready" in bar
        assert "Start" not in bar and "Add bot" not in bar and "Options" not in bar
        room = only_room(hub)
        await pilot.press("s", "a", "o")
        await settle(pilot)
        assert room.state == "waiting"
        assert all(s.kind != "bot" for s in room.seats)
        assert isinstance(app.screen, RoomScreen)
        assert "Press r when you are ready." in screen_text(app)
        await pilot.press("r")
        await settle(pilot)
        assert room.seats[1].ready
        assert "ready ✓" in screen_text(app)
        assert "You are ready." in screen_text(app)
        assert " r  Not ready " in key_bar(app)  # r now takes the mark back, and the bar says so
        await pilot.press("r")
        await settle(pilot)
        assert not room.seats[1].ready
        assert " r  Ready " in key_bar(app)


async def test_match_started_by_the_host_opens_the_table(hub: FakeHub) -> None:
    bob = hub.lobby("bob")
    bob_room = bob.create_room(RoomSettings(game="tokens", name="bob's"))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        bob_room.start()
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_long_name_leaves_room_for_the_ready_state_at_80_columns(hub: FakeHub, lang: Lang) -> None:
    """A 20-letter name pushed the status column off the seats pane: the host could
    not see who was ready. The widest column now gives way first."""
    lobby = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        rc = lobby.create_room(RoomSettings())
        hub.lobby("averyveryveryverylon").join(rc.room_id).set_ready(True)
        app.enter_room(rc, watching=False)
        await settle(pilot)
        row = next(line for line in screen_text(app).splitlines() if "avery" in line)
        assert t("seat.ready", lang) in row, row
        own = next(line for line in screen_text(app).splitlines() if "alice" in line and "▶" in line)
        assert t("seat.not_ready", lang) in own, own  # the host's own state was cut to "not rea…"


async def test_a_seat_whose_player_left_says_offline_and_online_goes_unsaid(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rc = lobby.create_room(RoomSettings())
        hub.lobby("bob").join(rc.room_id)
        app.enter_room(rc, watching=False)
        await settle(pilot)
        room = only_room(hub)
        room.seats[1] = room.seats[1].model_copy(update={"connected": False})
        room.version += 1
        hub.changed()
        await settle(pilot)
        rows = {name: next(line for line in screen_text(app).splitlines() if name in line and "│" in line)
                for name in ("alice", "bob")}
        assert "not ready · offline" in rows["bob"], rows["bob"]  # ("away" is a seat a stand-in bot plays)
        assert "not ready" in rows["alice"] and "offline" not in rows["alice"] and "online" not in rows["alice"], rows
        rc.add_bot()
        await settle(pilot)
        bot = next(line for line in screen_text(app).splitlines() if "Bot 3" in line and "│" in line)
        assert "ready ✓" in bot, bot  # as a ready player's ("ready" bare read as another state)


async def test_room_chat(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.enter_room(lobby.create_room(RoomSettings()), watching=False)
        await settle(pilot)
        assert "Start" in key_bar(app)
        await pilot.press("t", *"[b]ready?", "enter")
        await settle(pilot)
        room = only_room(hub)
        assert [c.text for c in room.chat] == ["[b]ready?"]
        assert "alice: [b]ready?" in screen_text(app)
        # the cursor stays in the chat line: the bar says so (its letters type there)
        bar = key_bar(app)
        assert "Send" in bar and "Stop typing" in bar and "Start" not in bar and "Leave" not in bar
        await pilot.press("escape")  # leaves the chat line, not the room
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert "Start" in key_bar(app) and "Leave" in key_bar(app)
        await pilot.press("t", *"go")
        await pilot.click("KeyBar", offset=(key_bar(app).index("Send"), 0))  # the bar's ⏎ sends
        await settle(pilot)
        assert [c.text for c in room.chat] == ["[b]ready?", "go"]


async def test_kick_asks_first_and_the_kicked_player_goes_back_to_the_lobby(hub: FakeHub) -> None:
    bob = hub.lobby("bob")
    bob.create_room(RoomSettings(name="bob's"))
    alice_lobby = hub.lobby("alice")
    alice = alice_lobby.join(next(iter(hub.rooms)))
    bob_app = ThroneApp(bob)
    async with bob_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)  # back in bob's room at once (he holds its seat)
        assert isinstance(bob_app.screen, RoomScreen)
        await pilot.press("down", "d")
        await settle(pilot)
        assert isinstance(bob_app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert only_room(hub).seats[1].kind == "empty"
        assert alice.my_seat is None
    # the kicked player's screen: back to the lobby with a notice
    hub2 = FakeHub()
    carol_host = hub2.lobby("carol")
    carol_host.create_room(RoomSettings(name="carol's"))
    dave = hub2.lobby("dave")
    dave_app = ThroneApp(dave)
    async with dave_app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(dave_app.screen, RoomScreen)
        host_client = carol_host.current_room()
        assert host_client is not None
        host_client.kick(1)
        await settle(pilot)
        assert isinstance(dave_app.screen, LobbyScreen)
        assert any("The host removed you from that room." in n.message for n in dave_app._notifications)


async def test_the_seats_cursor_starts_on_the_player_s_own_seat(hub: FakeHub) -> None:
    """A host in seat 2 pressed down three times for the bot in seat 5: the
    cursor had started on the first row, not at the ▶ of their own seat, and d
    removed the seat below the one meant."""
    bob = hub.lobby("bob")
    rc = bob.create_room(RoomSettings(seats=6))
    rc.take_seat(1)
    for _ in range(4):
        rc.add_bot()
    app = ThroneApp(bob)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RoomScreen)
        seat = screen.selected_seat()
        assert seat is not None and seat.index == 1 and seat.name == "bob"
        await pilot.press("down", "down", "down", "d")
        await settle(pilot)
        assert [s.kind for s in only_room(hub).seats] == ["bot", "human", "bot", "bot", "empty", "empty"]
    # joined from the lobby: the rows above the player's own are in view (over ssh,
    # a cursor put before the list had its size scrolled them away: test_row_list)
    dave = hub.lobby("dave")
    app = ThroneApp(dave)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RoomScreen)
        seat = screen.selected_seat()
        assert seat is not None and seat.index == 4 and seat.name == "dave"
        text = screen_text(app)
        assert all(name in text for name in ("Bot 1", "bob", "Bot 3", "Bot 4", "dave")), text


async def test_leave_asks_and_frees_the_seat(hub: FakeHub) -> None:
    bob = hub.lobby("bob")
    bob.create_room(RoomSettings(name="bob's"))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        await pilot.press("escape", "y")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert only_room(hub).seat_of("alice") is None
        assert app.room is None


async def test_reconnect_goes_straight_back_to_the_waiting_room(hub: FakeHub) -> None:
    lobby = hub.lobby("alice")
    lobby.create_room(RoomSettings(name="mine"))
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert "mine" in screen_text(app)
        assert app.screen_stack == [app.screen]  # no lobby built under the seat: it is made when wanted
        await pilot.press("escape")
        await pilot.press("y")
        await settle(pilot)
        assert_lobby_alone(app)
        await pilot.press("c")  # the lobby made on leaving answers its keys
        await settle(pilot)
        assert isinstance(app.screen, RoomSettingsDialog)


def assert_lobby_alone(app: ThroneApp) -> None:
    """The session shows its lobby, alone, drawn: its name and the host's key."""
    assert isinstance(app.screen, LobbyScreen)
    assert app.screen_stack == [app.screen]
    assert app.room is None
    text = screen_text(app)
    assert "alice" in text
    assert "SHA256:fake" in text


def _left_a_running_table(hub: FakeHub) -> FakeLobby:
    """alice's lobby, her seat at the tokens table "mine" still hers after she left it mid-match."""
    lobby = hub.lobby("alice")
    client = lobby.create_room(RoomSettings(game="tokens", name="mine"))
    client.add_bot()
    client.start()
    client.leave()  # the seat stays alice's while the match goes on
    return lobby


async def test_reconnect_goes_straight_back_to_the_running_table(hub: FakeHub) -> None:
    lobby = _left_a_running_table(hub)
    assert only_room(hub).seat_of("alice") == 0
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        assert "Your move" in screen_text(app)
        assert only_room(hub).seats[0].connected
        assert app.screen_stack == [app.screen]  # the table alone: no lobby built under it


async def test_a_table_come_back_to_hands_over_to_its_waiting_room_then_the_lobby(hub: FakeHub) -> None:
    """A session that came back straight to its table has nothing under it:
    the waiting room replaces the table in place, and leaving makes the lobby."""
    lobby = _left_a_running_table(hub)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen)
        room = only_room(hub)
        room.state = "waiting"  # the host's next match waits for its players
        room.version += 1
        hub.changed()
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert app.screen_stack == [app.screen]
        assert "mine" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("y")
        await settle(pilot)
        assert_lobby_alone(app)
        assert room.seat_of("alice") is None


async def test_a_table_come_back_to_that_closes_under_help_gives_way_to_a_lobby_alone(hub: FakeHub) -> None:
    lobby = _left_a_running_table(hub)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")  # help over the table, then the room goes
        await settle(pilot)
        assert len(app.screen_stack) == 2
        del hub.rooms[only_room(hub).id]
        hub.changed()  # the table, under help, leaves: help and the table go, a lobby comes
        await settle(pilot)
        assert_lobby_alone(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_markup_hostile_names_in_the_room(hub: FakeHub, size: tuple[int, int]) -> None:
    evil = hub.lobby("[/b]")
    evil.create_room(RoomSettings(name="[red]x[/red]"))
    app = ThroneApp(hub.lobby("[red]y[/red]"))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        text = screen_text(app)
        assert "[red]x[/red]" in text
        assert "[/b]" in text
        # at 80 columns the name column gives way to the ready state: the name is cut, still literal
        assert ("[red]y[/red]" if size[0] > 80 else "[red]y[/") in text


async def test_cjk_names_stay_aligned_in_the_seat_table(hub: FakeHub) -> None:
    from rich.cells import cell_len

    host = hub.lobby("王小明", lang="zh")
    host.create_room(RoomSettings(name="中文房間"))
    app = ThroneApp(hub.lobby("al", lang="zh"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        lines = screen_text(app).splitlines()
        rows = [ln for ln in lines if "王小明" in ln and "玩家" in ln] + [ln for ln in lines if " al " in ln and "玩家" in ln]
        assert len(rows) == 2
        columns = {cell_len(row[: row.index("玩家")]) for row in rows}
        assert len(columns) == 1  # the kind column starts at the same cell on both rows


@pytest.mark.slow
async def test_changes_in_the_room_leave_no_reference_cycles(hub: FakeHub) -> None:
    """Seats filling and readying redraw every waiting room's seat list; the
    redraw leaves nothing for the garbage collector (server/heap.py freezes
    what lives and counts on screens not making cyclic garbage)."""
    import gc

    host = hub.lobby("bob")
    room_client = host.create_room(RoomSettings(game="tokens", seats=5))
    app = ThroneApp(hub.lobby("alice"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        gc.collect()
        gc.freeze()  # as server/heap.py does; earlier tests' leftovers, freed when a cache drops them, are not counted
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(3):
                room_client.add_bot(None)
                room_client.set_ready(True)
                await settle(pilot)
                room_client.set_ready(False)
                await settle(pilot)
            gc.collect()
            left = [type(obj).__name__ for obj in gc.garbage]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.unfreeze()
            gc.collect()
        taken = sum(1 for seat in only_room(hub).seats if seat.kind != "empty")
        assert taken >= 4  # bob, alice and the bots
        assert f"Seats {taken}/5" in screen_text(app)  # the redraws were shown
        assert left == []


async def test_a_private_room_says_so_once_and_shows_its_code_to_the_host_only(hub: FakeHub) -> None:
    host = hub.lobby("alice")
    settings = RoomSettings(game="tokens", name="secret", seats=5, private=True, code="abc")
    app = ThroneApp(host)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        app.enter_room(host.create_room(settings), watching=False)
        await settle(pilot)
        head = screen_text(app).splitlines()[:3]
        assert "private" in head[0]
        assert "code: abc · 5 seats" in head[1]
        assert "code needed" not in screen_text(app)
    guest = ThroneApp(hub.lobby("bob"))
    async with guest.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        guest.enter_room(guest.lobby.join(only_room(hub).id, "abc"), watching=False)
        await settle(pilot)
        assert "private" in screen_text(guest).splitlines()[0]
        assert "abc" not in screen_text(guest)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("cols", [60, 72])
async def test_a_narrow_waiting_room_still_shows_f1_and_how_to_start_and_leave(
    hub: FakeHub, lang: Lang, cols: int
) -> None:
    """At 60 columns the host's keys did not fit even with the usual labels
    left out, and the bar, cut at its end, lost F1, the key that lists them
    all (``./manage bench chaos --seed 21``: a host back at a full waiting
    room, no F1 on screen); then keys were shown bare ("a   d   o"). Every
    key shown has its label now; host keys left out are named on the status
    line, and Ready, Start, Leave and F1 stay."""
    from tui.widgets import KeyBar

    lobby = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=(cols, 16)) as pilot:
        await settle(pilot)
        app.enter_room(lobby.create_room(RoomSettings(game="tokens", name="narrow", seats=5)), watching=False)
        await settle(pilot)
        await pilot.press("a", "a", "a", "a", "down")  # every seat taken (no Enter to sit); a bot highlighted (d)
        await settle(pilot)
        assert [s.kind for s in only_room(hub).seats] == ["human", "bot", "bot", "bot", "bot"]
        bar = key_bar(app)
        pairs = app.screen.query_one(KeyBar).pairs
        assert cell_len(bar.rstrip()) <= cols and "…" not in bar, bar
        assert all(label for _key, label in pairs), pairs
        for key, label in (("r", "key.ready"), ("s", "key.start"), ("Esc", "key.leave"), ("F1", "key.help")):
            assert (key, t(label, lang)) in pairs, (key, bar)
        status = str(app.screen.query_one("#room-status").render())  # (a notice says 16 rows are too few)
        for key in ("a", "d", "o"):
            assert any(k == key for k, _label in pairs) or f"{key} " in status, key
        assert status.rstrip() == t("room.status.host", lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.usefixtures("no_small_notice")
async def test_the_host_s_hint_on_a_narrow_terminal_ends_in_an_ellipsis(hub: FakeHub, lang: Lang) -> None:
    """The status line under the seats is one line: at 60 columns the host's
    hint was cut after "start when" with nothing to show it went on (it is
    shorter now: cut on a terminal narrower still)."""
    lobby = hub.lobby("alice", lang=lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=(36 if lang == "zh" else 44, 20)) as pilot:
        await settle(pilot)
        app.enter_room(lobby.create_room(RoomSettings(game="tokens", name="narrow", seats=5)), watching=False)
        await settle(pilot)
        hint = t("room.status.host", lang)
        line = next(ln.strip() for ln in screen_text(app).splitlines() if hint[:6] in ln)
        assert line.endswith("…") and hint.startswith(line[:-1].rstrip())


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_watcher_of_a_full_room_is_told_how_a_seat_frees(hub: FakeHub, lang: Lang) -> None:
    """A watcher of a waiting room whose seats are all taken (bots kept from
    the last match) read "Take an empty seat with Enter" with no empty seat."""
    host = hub.lobby("bob")
    room_client = host.create_room(RoomSettings(game="tokens", seats=3))
    room_client.add_bot(None)
    room_client.add_bot(None)
    lobby = hub.lobby("alice")
    lobby.set_lang(lang)
    app = ThroneApp(lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.enter_room(lobby.watch(only_room(hub).id), watching=True)
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        assert t("room.status.watching_full", lang) in screen_text(app)
        room_client.remove_bot(2)
        await settle(pilot)
        assert t("room.status.watching", lang) in screen_text(app)
        assert t("room.status.watching_full", lang) not in screen_text(app)


async def test_a_long_room_name_leaves_room_for_the_host_and_the_state(hub: FakeHub) -> None:
    """A 40-cell Chinese room name cut the waiting room's header to
    "…在大廳 · 推翻蘇丹 · 房主": the host's name and the state were gone."""
    lobby = hub.lobby("alice", lang="zh")
    lobby.create_room(RoomSettings(name="宮" * 40, seats=5))  # 40 characters: the longest a name may be
    app = ThroneApp(lobby)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        head = next(line for line in screen_text(app).splitlines() if "宮" in line)
        assert "alice" in head and head.rstrip().endswith(t("state.waiting", "zh")), head
        assert "… · " in head and head.count("宮") > 11, head  # as much of the name as fits (it was cut at 24 cells)
        assert cell_len(head.rstrip()) >= 96, head
        await pilot.resize_terminal(80, 24)  # narrower: less of the name, the rest still whole
        await settle(pilot)
        head = next(line for line in screen_text(app).splitlines() if "宮" in line)
        assert "alice" in head and head.rstrip().endswith(t("state.waiting", "zh")) and "… · " in head, head
    bob = hub.lobby("bob")
    bob.create_room(RoomSettings(name="Friday at the palace", seats=5))  # fits: whole
    async with ThroneApp(bob).run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "Friday at the palace · " in screen_text(pilot.app)


@pytest.mark.parametrize(("lang", "bot"), [("en", "Bot 2"), ("zh", "電腦 2")])
async def test_the_waiting_room_names_bots_in_the_reader_s_language(hub: FakeHub, lang: Lang, bot: str) -> None:
    """The Chinese table said "電腦 2" and its waiting room "Bot 2" (the bot in
    the second seat)."""
    lobby = hub.lobby("alice", lang=lang)
    client = lobby.create_room(RoomSettings(name="r", seats=5))
    client.add_bot(1)
    app = ThroneApp(lobby)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert bot in text, text
        if lang == "zh":
            assert "Bot 2" not in text


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_waiting_room_numbers_seats_from_1(hub: FakeHub, lang: Lang, size: tuple[int, int]) -> None:
    """Issue 43: seat numbers start at 1, as at a real table (the host's own
    seat was 0): the host's ▶1, the bot beside it in seat 2 named "Bot 2",
    and a refusal names the seat by the same number."""
    lobby = hub.lobby("alice", lang=lang)
    client = lobby.create_room(RoomSettings(name="r", seats=5))
    client.add_bot(1)
    app = ThroneApp(lobby)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        rows = [line.strip("│ ") for line in screen_text(app).splitlines()]
        assert any(row.startswith("▶1 ") and "alice" in row for row in rows), rows
        bot = t("table.bot_name", lang, n=2)
        assert any(row.startswith("2 ") and bot in row for row in rows), rows
        assert not any(row.startswith(("▶0 ", "0 ")) for row in rows), rows


async def test_a_guest_s_seat_says_guest(hub: FakeHub) -> None:
    lobby = hub.lobby("alice", lang="zh")
    app = ThroneApp(lobby)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        rc = lobby.create_room(RoomSettings())
        hub.lobby("visitor", guest=True).join(rc.room_id)
        app.enter_room(rc, watching=False)
        await settle(pilot)
        rows = {name: next(line for line in screen_text(app).splitlines() if name in line and "│" in line)
                for name in ("alice", "visitor")}
        assert t("kind.guest", "zh") in rows["visitor"] and t("kind.human", "zh") in rows["alice"], rows


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_leave_question_open_as_the_match_starts_gives_way_to_the_table(
    hub: FakeHub, size: tuple[int, int], lang: Lang
) -> None:
    """An Escape in the waiting room as the host started left "Leave this room?"
    over a stale waiting room while the match ran (bob's turn timer too) until it
    was answered. The question goes with the waiting room: the table opens and
    bob keeps his seat; the table's own Escape asks about leaving it."""
    host = hub.lobby("alice")
    client = host.create_room(RoomSettings(game="tokens", seats=3, options={"rounds": 2}))
    app = ThroneApp(hub.lobby("bob", lang=lang))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # bob sits down
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        await pilot.press("r")  # ready
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmDialog)
        assert t("confirm.leave_room", lang) in screen_text(app)
        client.add_bot()
        client.start()
        for _ in range(3):
            await settle(pilot)
        assert isinstance(app.screen, PlainTableScreen), type(app.screen)
        assert only_room(hub).seat_of("bob") == 1 and app.room is not None
        assert t("confirm.leave_room", lang) not in screen_text(app)
