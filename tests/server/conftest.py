"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hubs import new_hub

from server.hub import Hub


@pytest.fixture
async def hub() -> AsyncIterator[Hub]:
    """A started hub of the counting game (see hubs.new_hub), stopped after the test."""
    h = new_hub()
    await h.start()
    yield h
    await h.stop()
