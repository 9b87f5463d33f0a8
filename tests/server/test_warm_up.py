"""ThroneServer.warm_up (server/ssh/server.py): before listening, one lobby is drawn
for a guest on a terminal that writes nowhere, so the first player after a
start does not pay for the process's one-time work; it leaves nobody online
and nothing stored, and a failure only costs the warm-up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import asyncssh
import pytest
from textual.app import App
from textual.driver import Driver

from protocol.contract import LobbyClient
from server.cli import app_host
from server.config import Config, ServerSection
from server.hub import Hub
from server.ssh import ThroneServer
from server.storage import Storage
from tui.screens.lobby import LobbyScreen

KEY = asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def hub() -> AsyncIterator[Hub]:
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:warm", bot_delay=0.0, intermission=0.0)
    await hub.start()
    yield hub
    await hub.stop()


def make_server(hub: Hub, factory: Any = None) -> ThroneServer:
    config = Config(server=ServerSection(host="127.0.0.1", port=0))
    apps = app_host() if factory is None else replace(app_host(), new_app=factory)
    return ThroneServer(config, hub=hub, storage=hub.storage, host_key=KEY, apps=apps)


async def test_warm_up_draws_the_real_lobby_and_leaves_nobody_behind(hub: Hub) -> None:
    made: list[tuple[App[Any], Any]] = []
    screens: list[str] = []

    def factory(lobby: LobbyClient, driver_class: type[Driver]) -> App[Any]:
        app = app_host().new_app(lobby, driver_class)
        made.append((app, driver_class.keywords["terminal"]))  # type: ignore[attr-defined]  # (a partial)
        app.call_later(lambda: screens.append(type(app.screen).__name__))
        return app

    server = make_server(hub, factory)
    seconds = await server.warm_up()
    assert seconds is not None and 0 < seconds < 10
    assert len(made) == 1
    app, terminal = made[0]
    assert terminal.bytes_written > 2000  # a whole lobby was drawn (to nowhere)
    assert terminal.closed
    assert screens == [LobbyScreen.__name__]
    assert app.return_code == 0 and getattr(app, "_exception", None) is None
    # nobody online, nothing stored, not listening
    assert hub.sessions == [] and hub.online() == []
    assert hub.storage.key_owner("warm-up") is None and hub.storage.get_lang("warm-up") is None
    assert hub.storage.leaderboard() == []
    assert server.port == 0 and server.sessions == set()


async def test_warm_up_twice_is_harmless(hub: Hub) -> None:
    server = make_server(hub)
    assert await server.warm_up() is not None
    assert await server.warm_up() is not None
    assert hub.sessions == []


async def test_a_factory_that_raises_costs_only_the_warm_up(hub: Hub, caplog: pytest.LogCaptureFixture) -> None:
    def broken(lobby: LobbyClient, driver_class: type[Driver]) -> App[Any]:
        raise RuntimeError("no app today")

    caplog.set_level(logging.WARNING, logger="throneroom.ssh")
    assert await make_server(hub, broken).warm_up() is None
    assert "warm-up failed" in caplog.text and "no app today" in caplog.text
    assert hub.sessions == []


class CrashOnMount(App[None]):
    def __init__(self, lobby: LobbyClient, driver_class: type[Driver]) -> None:
        super().__init__(driver_class=driver_class)

    def on_mount(self) -> None:
        raise RuntimeError("boom while warming up")


async def test_an_app_that_crashes_before_drawing(hub: Hub, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="throneroom.ssh")
    assert await make_server(hub, CrashOnMount).warm_up(timeout=10) is None
    assert "warm-up: no first frame (the app ended)" in caplog.text
    assert hub.sessions == []


class NeverDraws(App[None]):
    cancelled = False

    def __init__(self, lobby: LobbyClient, driver_class: type[Driver]) -> None:
        super().__init__(driver_class=driver_class)

    async def run_async(self, **kw: Any) -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            NeverDraws.cancelled = True
            raise


async def test_an_app_that_never_draws_times_out_and_is_stopped(hub: Hub, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="throneroom.ssh")
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await make_server(hub, NeverDraws).warm_up(timeout=0.2) is None
    assert loop.time() - started < 5
    assert "warm-up: no first frame (timed out)" in caplog.text
    assert NeverDraws.cancelled
    assert hub.sessions == []


class RefusingHub:
    """A hub that cannot take a session (its storage went away, say)."""

    def connect(self, identity: Any) -> LobbyClient:
        raise RuntimeError("hub not ready")

    def disconnect(self, client: LobbyClient) -> None:
        raise AssertionError("nothing was connected")

    def guest_seated(self, name: str) -> bool:
        return False


async def test_a_hub_that_refuses_the_guest_costs_only_the_warm_up(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="throneroom.ssh")
    config = Config(server=ServerSection(host="127.0.0.1", port=0))
    server = ThroneServer(config, hub=RefusingHub(), storage=Storage(":memory:"), host_key=KEY, apps=app_host())
    assert await server.warm_up() is None
    assert "warm-up failed" in caplog.text and "hub not ready" in caplog.text
