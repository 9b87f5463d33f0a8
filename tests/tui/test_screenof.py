"""A node's screen found by tui/runtime/screenof.py's walk is the one Textual's
``DOMNode.screen`` finds: for widgets at every depth of a mounted app, for the
screen itself, and ``NoScreen`` for a node not (or no longer) on a screen."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from tui.runtime import screenof


class Nested(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="outer"), Vertical(id="inner"):
            yield Static("deep", id="deep")
        yield Static("top", id="top")


def test_installed_for_this_textual() -> None:
    assert screenof.compatible()
    assert screenof.install()


async def test_the_same_screen_as_textual_finds() -> None:
    original = screenof._ORIGINAL.fget
    assert original is not None
    app = Nested()
    async with app.run_test() as pilot:
        await pilot.pause()
        nodes = list(app.screen.walk_children(with_self=True))
        assert len(nodes) >= 5
        for node in nodes:
            assert screenof._screen(node) is original(node) is app.screen
        assert isinstance(screenof._screen(app.screen), Screen)
        deep = app.query_one("#deep")
        await app.query_one("#outer").remove()
        with pytest.raises(NoScreen):
            original(deep)
        with pytest.raises(NoScreen):
            screenof._screen(deep)


def test_a_node_on_no_screen() -> None:
    loose = Widget()
    with pytest.raises(NoScreen):
        screenof._screen(loose)
    parent = Widget()
    loose._parent = parent
    with pytest.raises(NoScreen):
        screenof._screen(loose)
