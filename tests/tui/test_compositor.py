"""tui.runtime.compositor.RegionCompositor: a frame that repaints several separate
regions (a top line and a bottom line) draws exactly what a full repaint of
the screen shows, and visits only the widgets in those regions."""

from __future__ import annotations

from typing import Any

import pyte
from rich.console import Console
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Static

from tui.runtime.compositor import RegionCompositor, compositor

W, H = 40, 12


class OnRegionCompositor(Screen[None]):
    """A test screen drawn by the compositor the app's screens use."""

    def __init__(self) -> None:
        super().__init__()
        self._compositor = compositor()


class Board(OnRegionCompositor):
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


def assert_shows_full_repaint(term: pyte.Screen, screen: Screen[Any]) -> None:
    """The terminal's text is what a full repaint of ``screen`` draws now."""
    expected = [strip.text for strip in screen._compositor.render_strips()]
    assert [line.rstrip() for line in term.display] == [line.rstrip() for line in expected]


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
        assert_shows_full_repaint(term, board)
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


async def test_a_table_s_frames_while_bots_play_match_a_full_repaint() -> None:
    """The real Sultans table (a spectator's, with its containers, panes and
    seat ring) through a dozen actions: every frame the app sends, played into
    a terminal, leaves exactly what a full repaint shows. Containers hidden
    behind their children are skipped (RegionCompositor._get_renders)."""
    from sultans_fakes import SultansClient, SultansLobby, SultansRoom
    from table_fakes import open_table

    from tui.app import ThroneApp
    from tui.sultans.table import Table

    room = SultansRoom(7, humans=(), seed=3)
    async with open_table(room, None, SultansClient, SultansLobby, Table, size=(90, 28)) as (app, pilot, _):
        assert isinstance(app.screen._compositor, RegionCompositor)
        console = Console(width=90, height=28, color_system=None, force_terminal=True)
        term = pyte.Screen(90, 28)
        full = app.screen._compositor.render_update(full=True)
        assert full is not None
        draw(term, full.render_segments(console))
        frames: list[str] = []
        original = ThroneApp._display

        def capture(self: ThroneApp, screen: Screen[Any], renderable: Any) -> None:
            if renderable is not None and hasattr(renderable, "render_segments"):
                frames.append(renderable.render_segments(console))
            original(self, screen, renderable)

        ThroneApp._display = capture  # type: ignore[method-assign]
        try:
            for _ in range(12):
                assert room.run_bots(limit=1) == 1
                await pilot.pause(0.2)
        finally:
            ThroneApp._display = original  # type: ignore[method-assign]
        assert frames
        for frame in frames:
            draw(term, frame)
        assert_shows_full_repaint(term, app.screen)


class Boxed(OnRegionCompositor):
    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        yield Static("top line", id="top")
        with Vertical(id="box"):
            yield Static("inside the box", id="inner")
        yield Static("bottom line", id="bottom")


class BoxedApp(App[None]):
    CSS = "#box { height: 1fr; border: round white; } #inner { height: 1fr; } #top, #bottom { height: 1; }"

    def get_default_screen(self) -> Screen[Any]:
        return Boxed()


async def test_a_container_is_drawn_where_its_children_do_not_cover_it() -> None:
    from textual.containers import Vertical

    app = BoxedApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board, console, term = drawn(app)
        box, inner = app.query_one("#box", Vertical), app.query_one("#inner", Static)
        drawn_by: list[str] = []
        original = Vertical.render_lines

        def counting(self: Vertical, crop: Any) -> Any:
            drawn_by.append(self.id or "")
            return original(self, crop)

        Vertical.render_lines = counting  # type: ignore[method-assign]
        try:
            # the child changed: the box behind it is not drawn for it
            inner.update("INSIDE changed", layout=False)
            update, _ = partial_update(board, inner.region, Region(0, H - 1, W, 1))
            assert update is not None
            draw(term, update.render_segments(console))
            assert drawn_by == []
            # the box's own border changed: it is drawn around its child
            box.styles.border = ("heavy", "white")
            update, _ = partial_update(board, box.region, Region(0, 0, W, 1))
            assert update is not None
            draw(term, update.render_segments(console))
            assert drawn_by == ["box"]
        finally:
            Vertical.render_lines = original  # type: ignore[method-assign]
        assert_shows_full_repaint(term, board)
        assert "┏" in term.display[1] and "INSIDE changed" in term.display[2]


class Shelf(OnRegionCompositor):
    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        yield Static("top line", id="top")
        with Vertical(id="shelf"):
            yield Static("on the shelf", id="item")


class ShelfApp(App[None]):
    CSS = "#shelf { height: 1fr; background: blue; } #item { height: 3; background: red; } #top { height: 1; }"

    def get_default_screen(self) -> Screen[Any]:
        return Shelf()


def cells(term: pyte.Screen) -> list[list[tuple[str, str, str]]]:
    return [[(c.data, c.fg, c.bg) for c in (term.buffer[y][x] for x in range(term.columns))] for y in range(term.lines)]


async def test_a_container_below_its_child_is_repainted_with_its_colours() -> None:
    """Rows of a container that its child covers are skipped, the others drawn:
    compared cell by cell, colours included, with a full repaint."""
    from textual.containers import Vertical

    app = ShelfApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board = app.screen
        console = Console(width=W, height=H, color_system="truecolor", force_terminal=True)
        term = pyte.Screen(W, H)
        full = board._compositor.render_update(full=True)
        assert full is not None
        draw(term, full.render_segments(console))
        app.query_one("#shelf", Vertical).styles.background = "green"
        app.query_one("#top", Static).update("TOP changed", layout=False)
        update, _ = partial_update(board, app.query_one("#shelf", Vertical).region, Region(0, 0, W, 1))
        assert update is not None
        draw(term, update.render_segments(console))
        fresh = pyte.Screen(W, H)
        again = board._compositor.render_update(full=True)
        assert again is not None
        draw(fresh, again.render_segments(console))
        assert cells(term) == cells(fresh)
        assert term.buffer[H - 1][0].bg != term.buffer[1][0].bg  # the shelf's own rows show, in its new colour


def layout_garbage(arrange: Any, compositor: Any, board: Screen[Any]) -> int:
    """Objects in reference cycles that five layouts of ``board`` with
    ``arrange`` (a compositor's ``_arrange_root``) leave for the collector."""
    import gc

    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            arrange(compositor, board, board.size)
        return gc.collect()
    finally:
        gc.enable()


async def test_a_layout_leaves_no_cyclic_garbage_and_places_widgets_as_textual_does() -> None:
    """Textual's ``_arrange_root`` keeps its recursive inner function alive
    through its own closure, so every layout of a screen was cyclic garbage
    (the collector's only garbage while bots play at 150 sessions). The
    compositor's rebuilt copy frees its map by reference counting and places
    every widget where Textual's own does."""

    from textual._compositor import Compositor

    app = BoxedApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board = app.screen
        compositor = board._compositor
        assert isinstance(compositor, RegionCompositor)
        assert type(compositor)._arrange_root is not Compositor._arrange_root
        ours = compositor._arrange_root(board, board.size)
        stock = Compositor._arrange_root(compositor, board, board.size)
        assert ours == stock
        assert {w.id for w in ours[0]} >= {"top", "box", "inner", "bottom"}
        del ours, stock

        assert layout_garbage(type(compositor)._arrange_root, compositor, board) == 0
        assert layout_garbage(Compositor._arrange_root, compositor, board) > 0  # what it was without the rebuild


def test_the_rebuild_keeps_textual_s_method_when_the_source_is_not_as_expected() -> None:
    from tui.runtime.compositor import _acyclic

    def no_inner(x: int) -> int:
        return x

    def two_inner(x: int) -> int:
        def a() -> int:
            return x

        def b() -> int:
            return a()

        return b()

    assert _acyclic(no_inner) is None
    assert _acyclic(two_inner) is None
    assert _acyclic(print) is None  # no Python source

    def recursive(n: int) -> list[int]:
        out: list[int] = []

        def walk(k: int) -> None:
            if k:
                out.append(k)
                walk(k - 1)

        walk(n)
        return out

    rebuilt = _acyclic(recursive)
    assert rebuilt is not None
    assert rebuilt(3) == [3, 2, 1]


def test_rows_refreshed_one_by_one_are_one_crop() -> None:
    from tui.runtime.compositor import _stacked

    rows = [Region(2, y, 10, 1) for y in (5, 3, 4, 8)]
    assert sorted(_stacked([*rows, Region(0, 0, W, 1), Region(2, 6, 9, 1)])) == sorted([
        Region(0, 0, W, 1),
        Region(2, 3, 10, 3),  # rows 3-5
        Region(2, 8, 10, 1),  # not touching row 5
        Region(2, 6, 9, 1),  # other columns
    ])


async def test_many_changed_rows_are_drawn_region_by_region() -> None:
    """Rows of the middle refreshed one by one (all but one) and the top
    line: ten regions, three crops (Textual's one crop around them all would
    draw the unchanged row too); the frame shows a full repaint."""
    app = BoardApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board, console, term = drawn(app)
        app.query_one("#mid", Static).update("MIDDLE\nOF THE\nSCREEN", layout=False)
        app.query_one("#top", Static).update("TOP changed", layout=False)
        rows = [Region(0, y, W, 1) for y in range(1, H - 1) if y != 6]
        update, heights = partial_update(board, Region(0, 0, W, 1), *rows)
        assert update is not None
        draw(term, update.render_segments(console))
        assert_shows_full_repaint(term, board)
        assert term.display[1].rstrip() == "MIDDLE"
        assert sorted(heights["mid"]) == [4, 5]  # rows 1-5 and 7-10: two crops, not one per row


async def test_a_dialog_s_layout_leaves_no_cyclic_garbage() -> None:
    """Dialogs keep Textual's repaints (drawn over the screen below) but lay
    out with the rebuilt method: with players opening dialogs, their layouts
    were most of a busy server's cyclic garbage."""

    from textual._compositor import Compositor

    from tui.runtime.compositor import AcyclicCompositor
    from tui.screens.dialogs import ConfirmDialog

    dialog = ConfirmDialog("sure?")
    compositor = dialog._compositor
    assert isinstance(compositor, AcyclicCompositor)
    assert not isinstance(compositor, RegionCompositor)
    app = BoxedApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board = app.screen

        assert layout_garbage(type(compositor)._arrange_root, compositor, board) == 0
        assert layout_garbage(Compositor._arrange_root, compositor, board) > 0


async def test_a_changed_column_is_written_from_that_column_not_from_the_line_s_start() -> None:
    """Two one-cell columns of a line (a pane's border edges as the focus moves)
    are written as those cells: Textual wrote each chop from its start, so the
    right edge alone wrote the whole line. A column that falls on the right
    half of a wide character is written from the character (half of one
    would leave the terminal showing a broken character)."""
    app = BoardApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board, console, term = drawn(app)
        app.query_one("#top", Static).update("a" * 10 + "b" * 28 + "XY", layout=False)
        update, _ = partial_update(board, Region(0, 0, 1, 1), Region(W - 1, 0, 1, 1))
        assert update is not None
        out = update.render_segments(console)
        draw(term, out)
        assert "b" not in out and "X" not in out  # the two cells only
        assert term.display[0] == "a" + "op line".ljust(W - 2) + "Y"  # the rest as it was

        app.query_one("#top", Static).update("中文" * 10, layout=False)  # 40 cells: 20 characters
        update, _ = partial_update(board, Region(0, 0, W, 1))
        assert update is not None
        draw(term, update.render_segments(console))
        app.query_one("#top", Static).update("字文" + "中文" * 8 + "中字", layout=False)
        # cell 0 is the left half of the first character, cell 39 the right half
        # of the last: each written whole
        update, _ = partial_update(board, Region(0, 0, 1, 1), Region(W - 1, 0, 1, 1))
        assert update is not None
        out = update.render_segments(console)
        assert out.count("字") == 2 and "中" not in out and "文" not in out
        draw(term, out)
        assert "".join(term.display[0].split()) == "字文" + "中文" * 8 + "中字"
        assert_shows_full_repaint(term, board)


class Overlaid(OnRegionCompositor):
    """Two panes side by side (the cut between them at column 20) and, on a
    layer above, a line of Chinese whose third character spans columns 19-20."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            yield Static("left " * 4, id="left")
            yield Static("right " * 3, id="right")
        yield Static("ab中文字cd", id="over")
        yield Static("bottom line", id="bottom")


class OverlaidApp(App[None]):
    CSS = """
    Screen { layers: base over; }
    #panes { height: 1fr; }
    #left, #right { width: 20; height: 1fr; }
    #over { layer: over; offset: 17 0; width: 10; height: 1; }
    #bottom { height: 1; }
    """

    def get_default_screen(self) -> Screen[Any]:
        return Overlaid()


async def test_a_wide_character_over_the_edge_between_two_widgets_stays_whole() -> None:
    """Textual divided a line at every widget edge below it, and a double-width
    character across an edge became two blanks (a Chinese toast over the edge
    between the waiting room's two panes read "房主把  請出了那個房間", seen over
    ssh; Textual issue 6357). Full repaints and partial ones keep it whole."""
    app = OverlaidApp()
    async with app.run_test(size=(W, H)) as pilot:
        await pilot.pause()
        board, console, term = drawn(app)
        line = board._compositor.render_strips()[0].text
        assert line[17:].startswith("ab中文字cd"), line
        assert term.display[0].startswith("left left left leab中文字cdight"), term.display[0]
        # the left pane changes beneath it, with another region (two crops)
        app.query_one("#left", Static).update("LEFT " * 4, layout=False)
        app.query_one("#bottom", Static).update("BOTTOM", layout=False)
        update, _ = partial_update(board, Region(0, 0, 20, H - 1), Region(0, H - 1, W, 1))
        assert update is not None
        draw(term, update.render_segments(console))
        assert term.display[0].startswith("LEFT LEFT LEFT LEab中文字cdight"), term.display[0]
        assert_shows_full_repaint(term, board)
        # the overlay itself changes (one crop)
        app.query_one("#over", Static).update("xy字中文zw", layout=False)
        update, _ = partial_update(board, Region(17, 0, 10, 1))
        assert update is not None
        draw(term, update.render_segments(console))
        assert term.display[0].startswith("LEFT LEFT LEFT LExy字中文zwight"), term.display[0]
        assert_shows_full_repaint(term, board)
