"""The server's event loop keeps lazy tasks (server/ssh/apphost.py ``keep_tasks_lazy``).

On Python 3.12 and later Textual's ``App.run_async`` sets the running loop's
task factory to ``asyncio.eager_task_factory``: on the server, the loop of
every session and room. A room starts its timers and bots in its own context,
already entered when a bot's action starts the next timer; an eager task
failed there ("cannot enter context") and left asyncio's record of the
current task wrong: a server on Python 3.13 hung once a match began.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest
from hubs import new_hub
from test_ssh_driver import until

from protocol.contract import Identity, RoomSettings
from server.cli import app_host
from server.hub import Hub
from server.ssh import prepare_app
from server.sshdriver import SessionTerminal
from tui.app import ThroneApp


async def _session(hub: Hub, name: str) -> tuple[ThroneApp, asyncio.Task[Any], list[bytes]]:
    """A session as the server runs one: the app on the SSH driver, through run_async."""
    writes: list[bytes] = []
    term = SessionTerminal(writes.append, (100, 30))
    app = ThroneApp(hub.connect(Identity(name=name)), driver_class=term.driver_class)
    prepare_app(app, app_host())
    task: asyncio.Task[Any] = asyncio.create_task(app.run_async(size=term.size))
    await until(lambda: any(b"SHA256:test" in w for w in writes))
    return app, task, writes


async def test_a_session_leaves_the_loops_task_factory_as_it_was(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[object] = []

    def eager(loop: asyncio.AbstractEventLoop, coro: Any, **kw: Any) -> asyncio.Task[Any]:
        # stands in for asyncio.eager_task_factory, which Textual installs where it exists
        made.append(coro)
        return asyncio.Task(coro, loop=loop, **kw)

    monkeypatch.setattr(asyncio, "eager_task_factory", eager, raising=False)
    loop = asyncio.get_running_loop()
    before = loop.get_task_factory()
    app, task, _ = await _session(hub, "alice")
    try:
        assert loop.get_task_factory() is before
        assert made == []
        # any other factory is still set as asked
        other: Any = lambda loop, coro, **kw: asyncio.Task(coro, loop=loop, **kw)  # noqa: E731
        loop.set_task_factory(other)
        assert loop.get_task_factory() is other
        loop.set_task_factory(before)
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="asyncio.eager_task_factory is Python 3.12+")
async def test_a_match_with_timers_and_bots_plays_beside_a_session_on_python_3_12_and_later() -> None:
    hub = new_hub(games=None)  # Sultans: turn and reaction timers, bots on every other seat
    await hub.start()
    errors: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    app, task, _ = await _session(hub, "alice")
    try:
        lobby = hub.connect(Identity(name="host"))
        room = lobby.create_room(RoomSettings(game="sultans", seats=5, turn_timer=10, window_timer=20))
        room.start()

        def actions() -> int:
            match_id = hub.room(room.room_id).match_id
            return 0 if match_id is None else len(hub.storage.match_log(match_id))

        await until(lambda: actions() >= 30, timeout=20)
        assert errors == []
        assert not task.done()  # the session is still there
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
        await hub.stop()
