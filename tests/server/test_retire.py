"""tui.runtime.retire: an ended session's App and the widgets of every screen it
showed are taken apart, so reference counting frees them instead of a full
collection of the server's whole heap (server.heap)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from functools import partial

import pytest
from hubs import close_results, new_hub, settle
from textual.screen import Screen

from protocol.contract import Identity, RoomSettings
from server.cli import app_host
from server.hub import Hub
from server.ssh import prepare_app
from tui.app import ThroneApp
from tui.runtime import retire
from tui.screens.lobby import LobbyScreen
from tui.screens.room import RoomScreen
from tui.tables import TableScreen


@pytest.fixture(autouse=True)
def collector_off() -> Iterator[None]:
    """The test counts what only the collector would free: it must not run by itself."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()
    gc.collect()


async def visit_a_room_and_leave(hub: Hub, name: str) -> ThroneApp:
    """A session that makes a room, starts its match with bots, goes back to
    the lobby, opens the help and closes it, and ends: its App, ended. (Run in
    a task of its own, as the server runs each session: Textual's ``run_test``
    leaves the App in its task's context.)"""
    return await asyncio.create_task(_visit(hub, name))


async def _visit(hub: Hub, name: str) -> ThroneApp:
    app = ThroneApp(hub.connect(Identity(name=name)))
    prepare_app(app, app_host())  # shared styles, as the server's sessions
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        room = app.lobby.create_room(RoomSettings(game="sultans", seats=5, window_timer=0, options={"rounds": 1}))
        app.enter_room(room, watching=False)
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        room.start()
        await settle(pilot, 6)
        await close_results(app, pilot)  # the bots may have ended the round and the match: results over the table
        assert isinstance(app.screen, TableScreen)
        app.leave_room()
        await settle(pilot)
        app.action_help()
        await settle(pilot)
        app.action_help()
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
    hub.disconnect(app.lobby)
    await asyncio.sleep(2.5)  # what was queued for the ended App has run (the server waits 10 s)
    return app


def cyclic_garbage() -> int:
    """Objects a full collection finds unreachable now (then frees)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = len(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    gc.collect()
    return found


@pytest.mark.slow
async def test_an_ended_session_taken_apart_leaves_little_for_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured: 8,043 objects for the collector from a session left whole,
    1,939 from one taken apart (what remains was garbage before the session
    ended: a style sheet parsed again when the table showed, and the like).
    (What the sessions removed while they ran is not loosened here: the
    test counts what taking an App apart does on its own.)"""
    monkeypatch.setattr(retire, "RETIRE_AFTER", 3600.0)
    hub = new_hub(games=None)
    await hub.start()
    try:
        await visit_a_room_and_leave(hub, "warm")  # the process's shared caches filled once
        cyclic_garbage()

        await visit_a_room_and_leave(hub, "kept")
        left_whole = cyclic_garbage()

        app = await visit_a_room_and_leave(hub, "apart")
        retired = [weakref.ref(node) for node in app.retired_nodes]
        assert len(retired) > 40  # every screen shown: lobby, waiting room, table, help
        assert retire.take_apart(app) > len(retired)
        del app
        freed = sum(ref() is None for ref in retired)
        assert freed >= 0.9 * len(retired)  # by reference counting, the collector off
        taken_apart = cyclic_garbage()
    finally:
        await hub.stop()
    assert left_whole > 5000
    assert taken_apart < left_whole / 3


async def test_a_running_app_is_left_alone() -> None:
    hub = new_hub()
    await hub.start()
    try:
        app = ThroneApp(hub.connect(Identity(name="alice")))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            assert retire.take_apart(app) == 0
            assert isinstance(app.screen, LobbyScreen)
            await pilot.press("f2")  # and it still answers
            await settle(pilot)
            assert app.lang == "zh"
    finally:
        await hub.stop()


async def test_a_screen_closed_in_a_running_session_is_freed_without_the_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 45, memory over an evening: a screen a running session closes (a
    round's result after each round, the help) lived in reference cycles (its
    widgets' styles, its compositor and timers point back at it), so each one
    waited in the frozen heap for a full collection of the whole server;
    ``RETIRE_AFTER`` seconds after it closed its cycles are broken and
    reference counting frees it and its widgets, while the session goes on."""
    monkeypatch.setattr(retire, "RETIRE_AFTER", 0.05)
    hub = new_hub()
    await hub.start()
    try:
        app = ThroneApp(hub.connect(Identity(name="alice")))
        prepare_app(app, app_host())
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            app.action_help()
            await settle(pilot)
            shown = [weakref.ref(node) for node in [app.screen, *app.screen.walk_children()]]
            assert len(shown) > 3
            app.action_help()
            await settle(pilot)
            await asyncio.sleep(0.2)
            await settle(pilot)
            assert sum(ref() is not None for ref in shown) == 0  # the collector is off (collector_off)
            assert isinstance(app.screen, LobbyScreen)
            app.action_help()  # the session goes on
            await settle(pilot)
            assert not isinstance(app.screen, LobbyScreen)
    finally:
        await hub.stop()


def test_a_closed_screen_with_calls_still_pending_is_loosened() -> None:
    """A screen that closed before its next refresh still lists the calls
    waiting for it (``call_after_refresh``), bound to itself: a cycle that
    :func:`retire.loosen` breaks with the others."""
    screen = Screen[None]()
    screen._callbacks.append((partial(screen.refresh), screen))  # what call_after_refresh queues
    screen._closed = True  # as its message loop leaves it
    gone = weakref.ref(screen)
    assert retire.loosen(screen)
    del screen
    assert gone() is None  # the collector is off (collector_off)
