"""Fixtures for the screen tests: a fresh fake host, immediate flushes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakes import FakeHub

import tui.runtime
from tui.app import ThroneApp

# Textual's patches, as the server's composition root installs them (an App never does).
tui.runtime.install()


@pytest.fixture(autouse=True)
def immediate_flush(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Host changes reach the screen at once (coalescing is tested on its own)."""
    monkeypatch.setattr(ThroneApp, "flush_interval", 0.0)
    yield


@pytest.fixture(autouse=True)
def no_stray_escape_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """An Escape at once after a table opens leaves it, as the tests press it (the
    grace for a stray one, ``tui.tables.STRAY_ESC_SECONDS``, is tested on its own)."""
    monkeypatch.setattr("tui.tables.STRAY_ESC_SECONDS", 0.0)


@pytest.fixture
def no_small_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests of how a screen fits a small terminal: the notice that the
    terminal is too small (``ThroneApp._check_small``, tested on its own) would
    cover part of what they read."""
    monkeypatch.setattr("tui.app.SMALLEST", (0, 0))


@pytest.fixture
def hub() -> FakeHub:
    return FakeHub()
