"""Ctrl+C and Ctrl+Q ask before leaving, as the lobby's q does, on every screen.

Textual's own bindings quit at once on Ctrl+Q and answered Ctrl+C with an
English notice ("Do you want to quit? Press ctrl+q to quit the app")."""

from __future__ import annotations

import pytest
from fakes import screen_text, settle
from screens_at import OPENERS, Lang, lobby

from protocol.i18n import t
from tui.app import QuitDialog
from tui.screens.lobby import LobbyScreen


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
@pytest.mark.parametrize("where", list(OPENERS))
async def test_ctrl_c_and_ctrl_q_ask_before_leaving_as_q_does(
    where: str, key: str, lang: Lang, size: tuple[int, int]
) -> None:
    async with OPENERS[where](lang, size) as (app, pilot):
        before = app.screen
        await pilot.press(key)
        await settle(pilot)
        assert isinstance(app.screen, QuitDialog), (where, key)
        text = screen_text(app)
        assert t("confirm.quit", lang) in text
        assert "press ctrl+q" not in text.lower() and "Do you want to quit" not in text
        await pilot.press(key)  # pressed again: asked once
        await settle(pilot)
        assert sum(isinstance(s, QuitDialog) for s in app.screen_stack) == 1
        assert app.is_running
        await pilot.press("n")  # no: back where the player was
        await settle(pilot)
        assert app.screen is before and app.is_running
        await pilot.press(key)
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert app._exit


async def test_the_lobby_s_q_still_asks() -> None:
    async with lobby("en", (80, 24)) as (app, pilot):
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, QuitDialog)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
