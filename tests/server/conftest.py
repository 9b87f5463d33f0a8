"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hubs import new_hub

import tui.runtime
from server.hub import Hub

# Textual's patches, as the server's composition root installs them (an App never does).
tui.runtime.install()


@pytest.fixture
async def hub() -> AsyncIterator[Hub]:
    """A started hub of the counting game (see hubs.new_hub), stopped after the test."""
    h = new_hub()
    await h.start()
    yield h
    await h.stop()
