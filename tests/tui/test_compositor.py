"""tui.compositor.RegionCompositor: a frame that repaints several separate
regions (a top line and a bottom line) draws exactly what a full repaint of
the screen shows, and visits only the widgets in those regions."""

from __future__ import annotations

from typing import Any

import pyte
from rich.console import Console
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Static

from tui.compositor import RegionCompositor, compositor

W, H = 40, 12


class Board(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self._compositor = compositor()

    def compose(self) -> ComposeResult:
        yield Static("top line", id="top")
        yield Static("middle\nof the\nscreen", id="mid")
        yield Static("bottom line", id="bottom")


class BoardApp(App[None]):
    CSS = "#mid { height: 1fr; } #top, #bottom { height: 1; }"

    def get_default_screen(self) -> Screen[Any]:
        return Board()


def draw(screen: pyte.Screen, text: str) -> None:
    pyte.ByteStream(screen).feed(text.encode())


def drawn(app: App[None]) -> tuple[Screen[Any], Console, pyte.Screen]:
    """The app's screen, a console, and a terminal showing its full repaint."""
    board = app.screen
    console = Console(width=W, height=H, color_system=None, force_terminal=True)
    term = pyte.Screen(W, H)
    full = board._compositor.render_update(full=True)
    assert full is not None
    draw(term, full.render_segments(console))
    return board, console, term


def partial_update(board: Screen[Any], *dirty: Region) -> tuple[Any, dict[str, list[int]]]:
    """The compositor's partial update for ``dirty`` regions, and the rows each
    Static was asked to draw for it (by id)."""
    heights: dict[str, list[int]] = {}
    original = Static.render_lines

    def counting(self: Static, crop: Any) -> Any:
        heights.setdefault(self.id or "", []).append(crop.height)
        return original(self, crop)

    Static.render_lines = counting  # type: ignore[method-assign]
    try:
        board._compositor._dirty_regions.update(dirty)
        return board._compositor.render_partial_update(), heights
    finally:
        Static.render_lines = original  # type: ignore[method-assign]


async def test_partial_update_of_two_regions_matches_a_full_repaint() -> None:
    app = BoardApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board, console, term = drawn(app)
        assert isinstance(board._compositor, RegionCompositor)
        assert "top line" in term.display[0]

        app.query_one("#top", Static).update("TOP changed", layout=False)
        app.query_one("#bottom", Static).update("BOTTOM changed too", layout=False)
        # the two lines, as the screen's update timer would report them
        update, heights = partial_update(board, Region(0, 0, W, 1), Region(0, H - 1, W, 1))
        assert update is not None
        draw(term, update.render_segments(console))
        expected = [strip.text for strip in board._compositor.render_strips()]
        assert [line.rstrip() for line in term.display] == [line.rstrip() for line in expected]
        assert "TOP changed" in term.display[0]
        assert "BOTTOM changed too" in term.display[H - 1]
        assert "mid" not in heights  # the middle was not redrawn for a change above and below it


async def test_a_changed_row_draws_only_that_row_of_a_tall_widget() -> None:
    app = BoardApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board, console, term = drawn(app)
        app.query_one("#mid", Static).update("middle\nOF THE\nscreen", layout=False)
        # the middle widget's second row (screen row 2) and the bottom line
        update, heights = partial_update(board, Region(0, 2, W, 1), Region(0, H - 1, W, 1))
        assert update is not None
        draw(term, update.render_segments(console))
        assert term.display[2].rstrip() == "OF THE"
        assert heights["mid"] == [1]  # one row of a ten-row widget
        assert heights["bottom"] == [1]
        assert "top" not in heights
