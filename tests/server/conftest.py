"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hubs import new_hub

import tui.runtime
from server.hub import Hub

# Textual's patches, as the server's composition root installs them (an App never does).
tui.runtime.install()


@pytest.fixture(autouse=True)
def no_stray_escape_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """An Escape at once after a table opens leaves it, as the tests press it (the
    grace for a stray one, ``tui.tables.STRAY_ESC_SECONDS``, is tested on its own)."""
    monkeypatch.setattr("tui.tables.STRAY_ESC_SECONDS", 0.0)


@pytest.fixture
async def hub() -> AsyncIterator[Hub]:
    """A started hub of the counting game (see hubs.new_hub), stopped after the test."""
    h = new_hub()
    await h.start()
    yield h
    await h.stop()
