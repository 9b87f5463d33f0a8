"""Widgets' background styles cached by colour (tui/runtime/stylescache.py): the same
styles as Textual's, and no cache keeps closed widgets' drawings alive."""

from __future__ import annotations

import gc

import pytest
from fakes import FakeHub, settle
from textual._styles_cache import StylesCache
from textual.color import Color

from tui.app import ThroneApp
from tui.runtime import stylescache
from tui.screens.help import HelpScreen


def test_installed_for_this_textual() -> None:
    assert stylescache.compatible()
    assert stylescache.install()
    assert StylesCache.__dict__["get_inner_outer"] is stylescache._get_inner_outer


def test_the_same_styles_as_textual() -> None:
    textual = stylescache._ORIGINAL.__wrapped__
    colours = [Color(18, 18, 18), Color(255, 0, 0, 0.5), Color(0, 0, 0, 0), Color(30, 144, 255)]
    for base in colours:
        for background in colours:
            assert stylescache.inner_outer(base, background) == textual(None, base, background)


def live_styles_caches() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, StylesCache))


@pytest.mark.slow
async def test_closed_dialogs_leave_no_drawings_behind() -> None:
    """Textual's cache held the last 1,024 widgets' StylesCache (and the lines
    each drew) after the widgets were gone: ~7 for every help opened and closed."""
    app = ThroneApp(FakeHub().lobby("alice"))  # type: ignore[arg-type]
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press("f1")
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await settle(pilot)
        before = live_styles_caches()
        for _ in range(20):
            await pilot.press("f1")
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
        assert live_styles_caches() <= before + 2
