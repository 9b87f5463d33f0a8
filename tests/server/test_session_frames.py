"""What a session's terminal is sent: the real screens on the real hub through
the SSH driver (server/sshdriver.py), without SSH.

A new screen is laid out and drawn whole once. Textual asked for it to be
drawn whole a second time right after (every widget sized for the first time
asks for a repaint, and two Resize events of an unchanged size each laid the
screen out again): ~10 KB more per login, and a tenth of a login's CPU. The
lobby's layout is final at once (HostScreen.FIXED_LAYOUT).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pyte
import pytest
from hubs import new_hub
from test_ssh_driver import until
from textual.geometry import Region, Size
from textual.widget import Widget
from textual.widgets import Select

from protocol.contract import Identity, RoomSettings, bot_name
from server.cli import app_host
from server.hub import Hub
from server.ssh import prepare_app
from server.sshdriver import SessionTerminal
from tui.app import INPUT_ANSWER, ThroneApp
from tui.screens.dialogs import RoomSettingsDialog
from tui.screens.lobby import LobbyScreen
from tui.screens.room import RoomScreen
from tui.tables import table_screen_for
from tui.turns import Turns
from tui.widgets import TailLog

WHOLE = 1500  # bytes: more than any widget's update, less than a whole screen


def _alice(hub: Hub, writes: list[bytes]) -> tuple[SessionTerminal, ThroneApp, asyncio.Task[Any]]:
    """alice's session at 100x30, as the server starts it; its terminal appends to ``writes``."""
    term = SessionTerminal(writes.append, (100, 30))
    app = ThroneApp(hub.connect(Identity(name="alice")), driver_class=term.driver_class)
    prepare_app(app, app_host())
    return term, app, asyncio.create_task(app.run_async(size=term.size))


async def test_a_new_session_is_sent_the_whole_screen_once_and_again_after_a_resize(hub: Hub) -> None:
    writes: list[bytes] = []
    term, app, task = _alice(hub, writes)
    try:
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        await asyncio.sleep(0.3)  # what the screen's timers and the widgets' requests would add
        whole = [w for w in writes if len(w) > WHOLE]
        assert len(whole) == 1
        assert isinstance(app.screen, LobbyScreen)

        # the lobby (FIXED_LAYOUT) skipped the second layout: one now changes nothing
        def regions() -> dict[str, Region]:
            return {f"{type(w).__name__}#{w.id}": w.region for w in app.screen.walk_children(Widget)}

        first = regions()
        assert all(region.area for region in first.values())
        seen = len(writes)
        app.screen.refresh(layout=True, repaint=False)  # a layout, nothing asked to be drawn
        await asyncio.sleep(0.2)
        assert regions() == first
        assert not any(len(w) > WHOLE for w in writes[seen:])

        # the lobby still shows what changes after that first frame
        hub.say("bob", "hello-after-the-first-frame")
        await until(lambda: any(b"hello-after-the-first-frame" in w for w in writes))

        # a window of another size: laid out and drawn whole again, at its size
        seen = len(writes)
        term.resize(80, 24)
        await until(lambda: any(len(w) > WHOLE for w in writes[seen:]))
        assert app.screen._compositor.size == Size(80, 24)
        assert app.screen.query_one("#fingerprint").region.width == 80
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


class RecordingTurns(Turns):
    """Turns that note each job's kind (a screen's frame or a host refresh) and urgency."""

    def __init__(self) -> None:
        super().__init__()
        self.jobs: list[tuple[str, bool]] = []

    def run(
        self, job: Callable[[], None], *, urgent: bool = False, refresh: bool = False, later: bool = False
    ) -> asyncio.Future[None]:
        self.jobs.append(("refresh" if refresh else "later" if later else "frame", urgent))
        return super().run(job, urgent=urgent, refresh=refresh, later=later)


async def test_with_turns_host_refreshes_and_frames_queue_there_and_a_players_keys_come_first(hub: Hub) -> None:
    writes: list[bytes] = []
    term = SessionTerminal(writes.append, (100, 30))
    turns = RecordingTurns()
    app = ThroneApp(hub.connect(Identity(name="alice")), driver_class=term.driver_class, turns=turns)
    prepare_app(app, app_host())
    task: asyncio.Task[Any] = asyncio.create_task(app.run_async(size=term.size))
    try:
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        await asyncio.sleep(0.2)
        # another player's chat line: the lobby's refresh and its frame took turns, not urgent
        turns.jobs.clear()
        hub.say("bob", "hello-from-bob")
        await until(lambda: any(b"hello-from-bob" in w for w in writes))
        assert ("refresh", False) in turns.jobs and ("frame", False) in turns.jobs
        assert not any(urgent for _, urgent in turns.jobs)
        # alice's own keys: the frames that echo them are urgent
        await asyncio.sleep(INPUT_ANSWER + 0.05)
        turns.jobs.clear()
        term.feed(b"t")
        await asyncio.sleep(0.1)
        term.feed("zyx-käse".encode())
        await until(lambda: b"".join(writes).decode(errors="replace").count("zyx-k") > 0)
        frames = [urgent for kind, urgent in turns.jobs if kind == "frame"]
        assert frames and all(frames)
        assert turns.ran >= len(turns.jobs)
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
    assert turns.waiting == 0  # nothing of the closed app left queued


class RefreshCrash(RuntimeError):
    pass


async def test_with_turns_a_refresh_that_fails_ends_its_own_session_only(hub: Hub) -> None:
    turns = Turns()
    writes: dict[str, list[bytes]] = {"ann": [], "ben": []}
    apps: dict[str, ThroneApp] = {}
    tasks: dict[str, asyncio.Task[Any]] = {}
    for name in ("ann", "ben"):
        term = SessionTerminal(writes[name].append, (100, 30))
        apps[name] = app = ThroneApp(hub.connect(Identity(name=name)), driver_class=term.driver_class, turns=turns)
        prepare_app(app, app_host())
        tasks[name] = asyncio.create_task(app.run_async(size=term.size))
    try:
        for name in ("ann", "ben"):
            await until(lambda name=name: any(b"SHA256:test" in w for w in writes[name]))  # type: ignore[misc]
        await asyncio.sleep(0.2)

        def crash() -> None:
            raise RefreshCrash("ann's lobby cannot refresh")

        lobby = apps["ann"].screen
        assert isinstance(lobby, LobbyScreen)
        lobby.refresh_data = crash  # type: ignore[method-assign]
        hub.say("cat", "hello-from-cat")
        await asyncio.wait_for(asyncio.shield(tasks["ann"]), 5)  # ann's session ended...
        assert apps["ann"].return_code == 1
        await until(lambda: any(b"hello-from-cat" in w for w in writes["ben"]))  # ...ben's goes on
        assert not tasks["ben"].done()
    finally:
        for name in ("ann", "ben"):
            apps[name].exit()
        await asyncio.wait_for(asyncio.gather(*tasks.values(), return_exceptions=True), 5)


def _whole_screens(writes: list[bytes], rows: int) -> int:
    """How many of ``writes`` draw the whole screen: they put the cursor on every row."""
    marks = [f"\x1b[{row};1H".encode() for row in range(1, rows + 1)]
    return sum(all(mark in w for mark in marks) for w in writes)


def _first_and_last(writes: list[bytes], rows: int = 30) -> tuple[list[str], list[str]]:
    """The terminal (pyte) as the first whole frame in ``writes`` left it, and
    as all of ``writes`` leave it."""
    whole = next(i for i, w in enumerate(writes) if _whole_screens([w], rows))
    terminal = pyte.Screen(100, rows)
    first = _shown(terminal, writes[: whole + 1])
    return first, _shown(terminal, writes[whole + 1 :])


async def test_a_lobby_with_chat_shows_the_chat_in_its_first_frame(hub: Hub) -> None:
    """The chat's lines came a frame after the lobby: a log knows its width
    only once laid out, and was written at its Resize event, after the frame
    (a second frame of ~0.8 KB at every login to a lobby with chat)."""
    hub.say("bob", "hello lobby")
    hub.say("bob", "anyone for a game?")
    writes: list[bytes] = []
    _term, app, task = _alice(hub, writes)
    try:
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        await _quiet(writes)
        first, last = _first_and_last(writes)
        assert any("bob: hello lobby" in row for row in first)
        assert any("bob: anyone for a game?" in row for row in first)
        assert first == last  # nothing was left for a second frame
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


@pytest.mark.parametrize(("game", "seats"), [("sultans", 5), ("sultans", 15), ("overlord", 4), ("overlord", 8)])
async def test_a_room_and_its_table_are_each_drawn_whole_once_with_everything_in_it(game: str, seats: int) -> None:
    """Entering a waiting room, the match starting there, and coming back to
    the table each write the new screen whole once, and that frame has it all.

    Textual asked for a second whole frame a moment after each: the widgets a
    new screen mounted, once mounted, asked for a layout and a repaint of the
    whole screen (~7 KB for each room and table opened, for every player in
    the room); and the Overlord table, focusing its seats after its first
    frame, drew it all again. Then the waiting room's chat, the table's log
    and chat, and the table's seats at their real width came in a second,
    partial frame (1.3-4.3 KB for every player at a match's start), the seats
    of the first drawn at a provisional size (a Sultans seat box with its
    "bot" mark squeezed onto the name's line, Overlord's columns one narrower
    and its card texts wrapped shorter)."""
    # the real games; bots that wait; a seat kept for its player a while
    hub = new_hub(bot_delay=1000.0, games=None, time_scale=1.0, grace_period=60.0)
    await hub.start()
    writes: list[bytes] = []
    _term, app, task = _alice(hub, writes)
    try:
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        await _quiet(writes)
        room = app.lobby.create_room(RoomSettings(game=game, seats=seats, turn_timer=0))  # no countdown ticking between frames
        seen = len(writes)
        app.call_later(app.enter_room, room, watching=False)
        await until(lambda: isinstance(app.screen, RoomScreen))
        await _quiet(writes)
        assert _whole_screens(writes[seen:], 30) == 1
        first, last = _first_and_last(writes[seen:])
        assert any("* alice sat down" in row for row in first)
        assert first == last

        seen = len(writes)
        room.start()  # bots take the empty seats; the screen becomes the game's table
        await until(lambda: type(app.screen) is table_screen_for(game))
        await _quiet(writes)
        assert _whole_screens(writes[seen:], 30) == 1
        first, last = _first_and_last(writes[seen:])
        assert any(_newest_log_line(app) in row for row in first)  # the log
        assert any("* a match of" in row for row in first)  # the chat's system line
        assert first == last
        for seat in range(1, seats):  # every seat's name
            assert any(bot_name(seat) in row for row in first)
        assert app.screen.focused is app.screen.query_one(app.screen.HOME)  # type: ignore[attr-defined]

        # alice's connection gone, and alice back: straight to her table, whole in one frame
        app.exit()
        await asyncio.wait_for(task, 5)
        writes = []
        _term, app, task = _alice(hub, writes)
        await until(lambda: bool(app.screen_stack) and type(app.screen) is table_screen_for(game))
        await _quiet(writes)
        assert _whole_screens(writes, 30) == 1
        first, last = _first_and_last(writes)
        assert any(_newest_log_line(app) in row for row in first)
        assert first == last
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
        await hub.stop()


def _newest_log_line(app: ThroneApp) -> str:
    """The newest line of the table's log, as its screen shows it at the
    bottom of the log pane. (Not "── Round 1", its first: the deal is random,
    and a hand with many cards makes the Overlord table's log pane shorter than
    its opening lines, so the first has scrolled out of view.)"""
    screen = app.screen
    log = screen.query_one(f"#{screen.PREFIX}-log", TailLog)  # type: ignore[attr-defined]
    texts = [strip.text.strip() for strip in log.lines]
    assert any(texts), "the log is empty"
    return next(text for text in reversed(texts) if text)


async def _quiet(writes: list[bytes], seconds: float = 0.3) -> None:
    """Until nothing was written for ``seconds`` (a loaded machine draws late)."""
    while True:
        seen = len(writes)
        await asyncio.sleep(seconds)
        if len(writes) == seen:
            return


def _shown(screen: pyte.Screen, writes: list[bytes]) -> list[str]:
    stream = pyte.ByteStream(screen)
    for w in writes:
        stream.feed(w)
    return list(screen.display)


async def test_moving_the_focus_draws_what_it_changes_not_the_whole_screen(hub: Hub) -> None:
    """Tab in the lobby and between a dialog's fields: Textual repainted the
    whole screen at every move of the focus (~6.8 KB in the lobby, ~8.4 KB
    under a dialog, at 100x30), then the whole pane that got or lost it (~5 KB).
    Each move now writes what it changed (a pane's border edges), and the
    terminal then shows exactly what a whole redraw shows."""
    writes: list[bytes] = []
    term, app, task = _alice(hub, writes)
    terminal = pyte.Screen(100, 30)
    try:
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        await _quiet(writes)

        async def tab_around(most: float) -> None:
            """Tab four times: no move writes more than ``most`` of what the
            whole screen drawn again writes."""
            focused, sizes = [], []
            for _ in range(4):
                seen = len(writes)
                term.feed(b"\t")
                await until(lambda seen=seen: len(writes) > seen)  # the move of the focus is drawn
                await _quiet(writes)
                moved = writes[seen:]
                assert _whole_screens(moved, 30) == 0
                sizes.append(sum(map(len, moved)))
                focused.append(app.screen.focused)
            assert len(set(map(id, focused))) > 1  # the focus went round
            shown = _shown(terminal, writes)
            writes.clear()
            app.screen.refresh()  # the whole screen drawn again: nothing on the terminal changes
            await until(lambda: _whole_screens(writes, 30) == 1)
            assert _shown(terminal, writes) == shown
            assert max(sizes) <= most * sum(map(len, writes)), (sizes, sum(map(len, writes)))
            writes.clear()

        # the lobby's panes: the rooms, the chat line, the chat; a pane's border
        # changes colour (its edges are written, a third of the screen's bytes; the
        # whole pane was three quarters, also at the first move after the first frame)
        await tab_around(0.45)
        assert isinstance(app.screen, LobbyScreen)
        seen = len(writes)
        term.feed(b"c")  # the new-room dialog over the lobby
        await until(lambda: isinstance(app.screen, RoomSettingsDialog) and _whole_screens(writes[seen:], 30) > 0)
        await _quiet(writes)
        await tab_around(0.15)  # the dialog's fields: a few cells each
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


@pytest.mark.parametrize("cols", [90, 91])
async def test_a_dialog_that_shrinks_leaves_the_wide_characters_it_uncovers_whole(cols: int) -> None:
    """The new-room dialog over a Chinese lobby, its game switched to Kill the
    Overlord: the dialog is a row shorter, and the row it uncovers was written
    up to its old right edge, cutting the double-width character there in half
    (at 90 columns the leaderboard's 訪 showed as two blank cells). The terminal
    then shows exactly what a whole redraw shows."""
    hub = new_hub(games=None)  # the real games
    await hub.start()
    writes: list[bytes] = []
    term = SessionTerminal(writes.append, (cols, 30))
    app = ThroneApp(hub.connect(Identity(name="alice", lang="zh")), driver_class=term.driver_class)
    prepare_app(app, app_host())
    task: asyncio.Task[Any] = asyncio.create_task(app.run_async(size=term.size))
    terminal = pyte.Screen(cols, 30)
    try:
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        await _quiet(writes)
        term.feed(b"c")
        await until(lambda: isinstance(app.screen, RoomSettingsDialog))
        await _quiet(writes)
        await until(lambda: app.screen.query_one("#settings-dialog").region.height > 0)  # laid out (a busy machine)
        before = app.screen.query_one("#settings-dialog").region.height
        app.screen.query_one("#game", Select).value = "overlord"
        await _quiet(writes)
        assert app.screen.query_one("#settings-dialog").region.height < before
        shown = _shown(terminal, writes)
        writes.clear()
        app.screen.refresh()  # the whole screen drawn again: nothing on the terminal changes
        await until(lambda: _whole_screens(writes, 30) == 1)
        assert _shown(terminal, writes) == shown
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
        await hub.stop()


async def test_with_turns_a_rounds_result_is_drawn_in_turns() -> None:
    """A round's end opens its result on every screen of the room at once, each
    a whole frame; drawn as the dialog opened, outside the turns, fifteen of
    them went before a key typed on another screen (`./manage bench load`'s
    echo p99). Its frames, the first one too, are drawn in turns; and that
    first frame shows it whole (its body came a frame later, once it knew its
    width; its key bar too). That first frame, which the player did not ask
    for, waits for the frames of actions in other rooms (``later``)."""
    hub = new_hub(games=None, time_scale=1.0, grace_period=1e6)  # the real games; bots at once
    await hub.start()
    turns = RecordingTurns()
    writes: list[bytes] = []
    term = SessionTerminal(writes.append, (100, 30))
    app = ThroneApp(hub.connect(Identity(name="alice")), driver_class=term.driver_class, turns=turns)
    prepare_app(app, app_host())
    drawn: list[tuple[str, bool]] = []
    display = app._display

    def recorded(screen: Any, update: Any) -> None:
        drawn.append((type(screen).__name__, turns.running))
        display(screen, update)

    app._display = recorded  # type: ignore[method-assign]
    task: asyncio.Task[Any] = asyncio.create_task(app.run_async(size=term.size))
    try:
        host = hub.connect(Identity(name="hal"))
        rc = host.create_room(RoomSettings(game="sultans", seats=5, rounds=1, turn_timer=0, window_timer=0))
        rc.start()  # hal and four bots
        await until(lambda: any(b"SHA256:test" in w for w in writes))
        app.call_later(app.enter_room, app.lobby.watch(rc.room.id), watching=True)
        await until(lambda: type(app.screen) is table_screen_for("sultans"))
        for _ in range(2000):  # hal plays the first legal action at each of his turns until the round ends
            if type(app.screen).__name__ == "RoundResults":
                break
            if rc.pending():
                rc.act(rc.legal()[0], rc.snapshot().version)
            await asyncio.sleep(0.01)
        await _quiet(writes)
        results = [in_turn for name, in_turn in drawn if name == "RoundResults"]
        assert results, drawn[-10:]
        assert all(results)
        assert turns.jobs.count(("later", False)) == 1  # its first frame
        # the frame that first shows the result shows all of it: its body (made
        # for its width) and its keys, not the table's
        terminal = pyte.Screen(100, 30)
        stream = pyte.ByteStream(terminal)
        for w in writes:
            stream.feed(w)
            if any((" result" in row and "Round" in row) or "Match result" in row for row in terminal.display):
                break
        first = list(terminal.display)
        assert any("Points this round" in row for row in first), first
        assert "Go on" in first[-1] or "Table" in first[-1], first[-1]
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
        await hub.stop()
