"""Fixtures for the end-to-end tests (real server subprocess + real OpenSSH client).

Every test in this folder is marked ``e2e``. Without an ``ssh`` binary they are
skipped locally but FAIL under CI (``CI=true``), so a CI image that lost its
OpenSSH client cannot pass by skipping.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ServerProcess, keygen, require_openssh


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """``make_server(config=None, bot_delay=0, ...)``: a started server in its own temp folder."""
    require_openssh()
    servers: list[ServerProcess] = []

    def make(
        *, config: str | None = None, bot_delay: float = 0.0, name: str = "server", **kw: Any
    ) -> ServerProcess:
        """``kw``: ServerProcess's own (``launcher``, ``in_terminal``)."""
        server = ServerProcess(tmp_path / name, bot_delay=bot_delay, config=config, **kw)
        servers.append(server)
        server.start()
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: Callable[..., ServerProcess]) -> ServerProcess:
    """A started server with the default config (bot delay 0)."""
    return make_server()


@pytest.fixture
def client_key(tmp_path: Path) -> Callable[[str], Path]:
    """``client_key("alice")``: path of a fresh ed25519 private key (made once per name)."""
    require_openssh()

    def make(name: str) -> Path:
        return keygen(tmp_path / "client-keys", name)

    return make
