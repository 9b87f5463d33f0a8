"""Stand-ins and leaving a match on the real screens (issue 43, "Nobody stalls a
table"): the away mark and "any key gives the seat back", the host's z, a
player's q, their confirmations, the F1 help and the result's mark, at both
games' tables, at 80x24 and 60x20, in English and Chinese. The real hub and
games behind a Textual pilot; the other players act through their sessions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from hubs import new_hub, settle
from textual.widgets import Input

from protocol.contract import Identity, RoomSettings
from protocol.i18n import Lang, t
from server.hub import Hub
from server.room import Room, RoomSession
from tui.app import ThroneApp
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog
from tui.screens.help import HelpDialog
from tui.screens.lobby import LobbyScreen
from tui.sultans.table import Table as SultansTable
from tui.table_common import GameTableScreen
from tui.widgets import KeyBar, TailLog

GAMES = ("sultans", "overlord")
SIZES = ((80, 24), (60, 20))
LANGS: tuple[Lang, ...] = ("en", "zh")
MARK = {"sultans": "sk.tok", "overlord": "ov.state"}  # the seat marks' catalogue prefix of each table


@pytest.fixture(autouse=True)
def immediate_flush(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)


def screen_text(app: ThroneApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def flat(text: str) -> str:
    """Screen text without line breaks or runs of spaces (a prompt line wraps at 60 columns)."""
    return "".join(text.split())


@asynccontextmanager
async def table_of(
    game: str, me: str, lang: Lang, size: tuple[int, int], others: tuple[str, ...] = ("bob",), time_scale: float = 0.1
) -> AsyncIterator[tuple[Hub, Room, dict[str, RoomSession], ThroneApp, object]]:
    """alice hosts a room of ``game`` (5 seats, bots for the rest, thinking for
    an hour), ``others`` sit down, the match starts; ``me``'s table is an app
    (reconnected straight to the seat), the others act through their sessions."""
    hub = new_hub(games=None, time_scale=time_scale)  # 0.1: bots think 3 s, no round ends under the test's keys
    await hub.start()
    try:
        sessions: dict[str, RoomSession] = {}
        sessions["alice"] = hub.connect(Identity(name="alice")).create_room(
            RoomSettings(game=game, seats=5, window_timer=0, turn_timer=0, bot_delay=3600.0)
        )
        for name in others:
            sessions[name] = hub.connect(Identity(name=name)).join(sessions["alice"].room_id)
            sessions[name].set_ready(True)
        sessions["alice"].start()
        room = sessions["alice"].room
        for lobby in [s for s in hub.sessions if s.identity.name == me]:
            hub.disconnect(lobby)  # an app comes back to the seat
        app = ThroneApp(hub.connect(Identity(name=me, lang=lang)))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, GameTableScreen)
            yield hub, room, sessions, app, pilot
    finally:
        await hub.stop()


def seat_row(app: ThroneApp, name: str, seat: int = 1) -> str:
    """What the seat list shows of ``seat`` (its index; players see its number
    from 1): the Overlord row, or the Sultans ring's box (the lines from its
    number and name down, in its columns)."""
    lines = screen_text(app).splitlines()
    at = next(i for i, line in enumerate(lines) if f"{seat + 1} {name}" in line)
    if not isinstance(app.screen, SultansTable):
        return lines[at]
    col = lines[at].index(f"{seat + 1} {name}")
    return " ".join(line[max(0, col - 3) : col + 20] for line in lines[at : at + 3])


def marked(app: ThroneApp, game: str, lang: Lang, mark: str, name: str = "bob") -> bool:
    """The seat list marks ``name``'s seat with ``mark`` ("standin", "left"): in its
    row or box; or, an Overlord table with no state column (60 columns), below the rows."""
    if t(f"{MARK[game]}.{mark}", lang) in seat_row(app, name):
        return True
    said = t(f"ov.info.{mark}", lang, names="")  # "Away: bob (2)", or on bob's own screen "Away: you (2)"
    return game == "overlord" and any(
        line.lstrip().startswith(said) and "2" in line.lstrip()[len(said) :] for line in screen_text(app).splitlines()
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
async def test_an_away_seat_is_marked_and_any_key_gives_it_back(game: str, size: tuple[int, int], lang: Lang) -> None:
    async with table_of(game, "bob", lang, size) as (_hub, room, sessions, app, pilot):
        sessions["alice"].hand_to_standin(1)  # as two timeouts in a row would
        await settle(pilot, 4)
        text = screen_text(app)
        assert flat(t("table.away_you", lang)) in flat(text), text
        assert marked(app, game, lang, "standin"), text
        await pilot.press("t")  # a key that would open the chat line
        await settle(pilot, 4)
        assert not room.seats[1].away and not isinstance(app.focused, Input)  # it gave the seat back, nothing else
        text = screen_text(app)
        assert flat(t("table.back", lang)) in flat(text), text
        assert not marked(app, game, lang, "standin")
        await pilot.press("t")  # the next key is the game's again
        await settle(pilot, 2)
        assert isinstance(app.focused, Input)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
async def test_the_host_hands_a_seat_to_a_stand_in_with_z_after_a_confirmation(
    game: str, size: tuple[int, int], lang: Lang
) -> None:
    async with table_of(game, "alice", lang, size, others=("bob", "carol")) as (_hub, room, _sessions, app, pilot):
        key_bar = app.screen.query_one(KeyBar)
        bar, shown = key_bar.plain(), {action for *_, action in key_bar._spans}
        assert " q " in bar and "leave_match" in shown, bar
        # z goes before the game's action keys where the bar is short of room (F1 names it)
        assert "standin" in shown or size[0] < 80 or any(action.startswith("key(") for action in shown), bar
        await pilot.press("z")
        await settle(pilot, 3)
        choice = app.screen
        assert isinstance(choice, ChoiceDialog)  # bob's seat or carol's (not the host's own)
        assert t("standin.title", lang) in screen_text(app)
        assert "bob" in screen_text(app) and "carol" in screen_text(app)
        await pilot.press("enter")  # bob's, the first
        await settle(pilot, 3)
        assert isinstance(app.screen, ConfirmDialog)
        question = t("confirm.standin", lang, name="bob", seat="2")  # seat index 1, the second
        assert app.screen._question == question and question[:12] in screen_text(app), screen_text(app)
        await pilot.press("n")  # changed their mind: nothing happens
        await settle(pilot, 3)
        assert isinstance(app.screen, GameTableScreen) and not room.seats[1].away
        await pilot.press("z", "enter", "y")
        await settle(pilot, 4)
        assert isinstance(app.screen, GameTableScreen) and room.seats[1].away and not room.seats[2].away
        assert marked(app, game, lang, "standin"), screen_text(app)
        said = [line for line in room.chat if line.key == "sys.handed_standin"]
        assert [line.params for line in said] == [{"name": "bob", "host": "alice"}]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
async def test_q_leaves_the_match_for_good_after_a_confirmation_that_says_what_happens(
    game: str, size: tuple[int, int], lang: Lang
) -> None:
    async with table_of(game, "bob", lang, size) as (hub, room, _sessions, app, pilot):
        bar = app.screen.query_one(KeyBar).plain()
        assert " q " in bar and " z " not in bar, bar  # z is the host's
        await pilot.press("q")
        await settle(pilot, 3)
        assert isinstance(app.screen, ConfirmDialog)
        question = t("confirm.leave_match", lang)
        assert app.screen._question == question and question[:12] in screen_text(app), screen_text(app)
        await pilot.press("n")
        await settle(pilot, 3)
        assert isinstance(app.screen, GameTableScreen) and room.seat_of("bob") == 1
        await pilot.press("q", "y")
        await settle(pilot, 4)
        assert isinstance(app.screen, LobbyScreen)
        assert hub.seated_room("bob") is None and room.seats[1].left == "bob"
        assert app.lobby.current_room() is None  # free to join another room (Enter there) at once


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
async def test_f1_at_the_table_says_what_q_z_and_the_seat_marks_do(game: str, lang: Lang) -> None:
    async with table_of(game, "bob", lang, (80, 24)) as (_hub, _room, _sessions, app, pilot):
        await pilot.press("f1")
        await settle(pilot, 3)
        help_screen = app.screen
        assert isinstance(help_screen, HelpDialog)
        assert t("table.help.standin", lang) in help_screen.text.plain


@pytest.mark.parametrize("game", GAMES)
async def test_the_result_marks_a_seat_whose_player_left(game: str) -> None:
    async with table_of(game, "alice", "en", (80, 24), time_scale=0.001) as (_hub, room, sessions, app, pilot):
        sessions["bob"].leave_match()
        await settle(pilot, 3)
        assert marked(app, game, "en", "left")  # at the table while a bot plays it out
        room.seats[0].away = True  # alice's seat too (no key of hers comes): the bots play to the end
        room.settings.bot_delay = 0.0
        room._wake_bots()
        for _ in range(4000):
            if room.state != "playing":
                break
            await pilot.pause(0.005)
        await settle(pilot, 4)
        assert room.state == "finished"
        while not isinstance(app.screen, GameTableScreen):  # the round's result over the table
            await pilot.press("escape")
            await settle(pilot, 2)
        log = app.screen.query_one(TailLog)
        said = "Left the match before its end (a bot played on): bob (2)"
        for _ in range(3):  # Tab to the result pane, if the table is not showing it
            if log.sheet is not None and said in log.sheet.plain:
                break
            await pilot.press("tab")
            await settle(pilot, 2)
        assert log.sheet is not None and said in log.sheet.plain


@pytest.mark.parametrize("game", GAMES)
async def test_you_are_back_is_said_when_the_table_moved_on_since_the_screen_last_looked(game: str) -> None:
    """Seen over ssh: bob's key came as his turn began; the screen had not drawn
    that turn yet, so its "You are back" went with the decision it had seen."""
    async with table_of(game, "bob", "en", (80, 24)) as (_hub, _room, sessions, app, pilot):
        sessions["alice"].hand_to_standin(1)
        await settle(pilot, 4)
        table = app.screen
        assert isinstance(table, GameTableScreen)
        table._decision = ("a decision the table has left",)  # what this screen saw last
        await pilot.press("x")
        await settle(pilot, 4)
        assert flat(t("table.back", "en")) in flat(screen_text(app)), screen_text(app)


async def test_no_bell_rings_for_a_decision_a_stand_in_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bell on one's turn: not while a stand-in bot plays the seat; again once it is the player's."""
    async with table_of("sultans", "bob", "en", (80, 24)) as (_hub, _room, sessions, app, pilot):
        rung: list[int] = []
        monkeypatch.setattr(app, "bell", lambda: rung.append(1))
        client = app.room
        assert client is not None
        monkeypatch.setattr(client, "pending", lambda: True)  # a turn of bob's (not one to pass)
        monkeypatch.setattr(client, "legal", lambda: ["peek 2"])
        table = app.screen
        assert isinstance(table, GameTableScreen)
        sessions["alice"].hand_to_standin(1)
        await settle(pilot, 3)
        table._asked = False
        table.refresh_data()
        assert rung == []
        await pilot.press("x")  # bob is back: his turn rings
        await settle(pilot, 3)
        assert rung == [1]
