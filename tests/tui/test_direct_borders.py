"""DirectRender widgets with a border (the lobby's rooms list, its panes):
their content lines are drawn directly and the border's cells come from
Textual, and the whole must look as Textual draws the widget itself: the
corners and title, the edges beside every line, the focus colour of
``.pane:focus-within``, a crop of part of the widget."""

from __future__ import annotations

from rich.text import Text
from shown_cells import Cell, cells
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from tui.widgets import DirectRender, LineStatic, RowList, TailLog


class Panes(App[None]):
    CSS = """
    .pane { border: round $primary-lighten-2 50%; padding: 0 1; }
    .pane:focus-within { border: round $accent; }
    #rooms { height: 8; }
    #log { height: 6; border: heavy red; }
    #note { height: 3; border: solid green; padding: 0 2; }
    """

    def compose(self) -> ComposeResult:
        yield RowList(id="rooms", classes="pane")
        yield TailLog(id="log")
        yield LineStatic("a note 世界", id="note", markup=False)


def both_ways(widget: DirectRender, crop: Region | None = None) -> tuple[list[list[Cell]], list[list[Cell]]]:
    assert isinstance(widget, Widget)
    if crop is None:
        crop = Region(0, 0, widget.outer_size.width, widget.outer_size.height)
    widget._direct_key = ()
    ours = cells(widget.render_lines(crop))
    assert widget._direct_key  # the direct way, not Textual's fallback
    widget._styles_cache.clear()
    textual = cells(Widget.render_lines(widget, crop))
    return ours, textual


async def test_bordered_direct_widgets_look_as_textual_draws_them() -> None:
    app = Panes()
    async with app.run_test(size=(50, 20)) as pilot:
        rooms = app.query_one("#rooms", RowList)
        rooms.set_columns(["room", "game", "seats"])
        rooms.set_rows([("kasbah", "Sultans", "5/7"), ("黃金城", "Overlord", "3/8")])
        rooms.border_title = "Rooms"
        log = app.query_one("#log", TailLog)
        for i in range(9):
            log.write(Text(f"line {i} 世界", style="bold" if i % 2 else ""))
        note = app.query_one("#note", LineStatic)
        await pilot.pause()
        app.set_focus(None)
        await pilot.pause()
        checked = 0
        for widget in (rooms, log, note):
            ours, textual = both_ways(widget)
            assert ours == textual, widget.id
            ours, textual = both_ways(widget, Region(3, 1, 12, 3))  # a crop inside, across the left edge
            assert ours == textual, widget.id
            checked += 1
        unfocused = both_ways(rooms)[0][0]
        rooms.focus()
        await pilot.pause()
        ours, textual = both_ways(rooms)
        assert ours == textual
        assert ours[0] != unfocused  # the focused pane's border has the accent colour
        rooms.set_rows([("kasbah", "Sultans", "6/7")])
        await pilot.pause()
        ours, textual = both_ways(rooms)
        assert ours == textual
        assert checked == 3


async def test_a_content_change_draws_its_lines_directly() -> None:
    app = Panes()
    async with app.run_test(size=(50, 20)) as pilot:
        log = app.query_one("#log", TailLog)
        log.write("first")
        await pilot.pause()
        full = Region(0, 0, log.outer_size.width, log.outer_size.height)
        log.render_lines(full)
        drawn: list[int] = []
        original = log._styles_cache.render_widget

        def spy(widget: Widget, crop: Region) -> list[Strip]:
            drawn.extend(crop.line_range)
            return original(widget, crop)

        log._styles_cache.render_widget = spy  # type: ignore[method-assign]
        log.write("second")
        await pilot.pause()
        log.render_lines(full)
        assert drawn  # the border lines are Textual's
        assert all(y in (0, full.height - 1) for y in drawn)  # no line of content went Textual's way


class TwoPanes(App[None]):
    CSS = """
    .pane { border: round $primary-lighten-2 50%; padding: 0 1; height: 8; width: 30; }
    """

    def compose(self) -> ComposeResult:
        from textual.widgets import Static

        yield LineStatic("", id="direct", classes="pane", markup=False)
        yield Static("", id="textual", classes="pane", markup=False)


async def test_a_rich_renderable_in_a_line_static_shows_as_in_a_static() -> None:
    """The lobby's side pane: a Group of lines and a grid (rich.table)."""
    from rich.console import Group
    from rich.table import Table
    from textual.widgets import Static

    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right")
    grid.add_column(no_wrap=True, overflow="ellipsis", ratio=1)
    grid.add_row(Text("#"), Text("player"), style="bold")
    grid.add_row(Text("1"), Text("[/b] a very long name 世界世界世界世界"))
    content = Group(Text("Online (2)", style="bold underline"), Text("ana, 黃金"), grid)
    app = TwoPanes()
    async with app.run_test(size=(40, 20)) as pilot:
        direct = app.query_one("#direct", LineStatic)
        textual = app.query_one("#textual", Static)
        direct.update(content)
        textual.update(content)
        await pilot.pause()
        crop = Region(0, 0, 30, 8)
        ours = cells(direct.render_lines(crop))
        theirs = cells(textual.render_lines(crop))
        assert ours == theirs
        assert "Online" in "".join(ch for ch, _ in ours[1])


class Boxes(App[None]):
    CSS = """
    .pane { border: round $primary-lighten-2 50%; padding: 0 1; height: 6; width: 24; }
    .pane:focus-within { border: round $accent; }
    """

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        from tui.widgets import PaneBox

        with PaneBox(id="direct", classes="pane"):
            yield TailLog(id="in-direct")
        yield Vertical(id="textual", classes="pane")


async def test_a_pane_box_draws_as_a_textual_container() -> None:
    from textual.containers import Vertical

    from tui.widgets import PaneBox

    app = Boxes()
    async with app.run_test(size=(40, 20)) as pilot:
        box = app.query_one("#direct", PaneBox)
        plain = app.query_one("#textual", Vertical)
        app.set_focus(None)
        await pilot.pause()
        crop = Region(0, 0, 24, 6)
        ours = cells(box.render_lines(crop))
        assert ours == cells(plain.render_lines(crop))
        app.query_one("#in-direct", TailLog).focus()  # focus within: the accent border
        await pilot.pause()
        focused = cells(box.render_lines(crop))
        assert focused != ours
        assert focused[0][0][1] != ours[0][0][1]


async def test_two_sessions_share_a_pane_s_edges_and_a_shared_renderable() -> None:
    """The border cells and a LineStatic's shared renderable are made once for
    every session showing the same pane, and still look as Textual draws them."""
    from rich.console import Group

    from tui.app import shared_filter

    class SharedPanes(Panes):
        def __init__(self) -> None:
            super().__init__()
            self._filters = [shared_filter(f) for f in self._filters]  # as ThroneApp does

    first, second = SharedPanes(), SharedPanes()
    async with first.run_test(size=(50, 20)) as pilot1, second.run_test(size=(50, 20)) as pilot2:
        notes = [app.query_one("#note", LineStatic) for app in (first, second)]
        for note in notes:
            note.update(Group(Text("shared"), Text("pane 世界")), share=("test-pane", 1))
        await pilot1.pause()
        await pilot2.pause()
        crop = Region(0, 0, notes[0].outer_size.width, notes[0].outer_size.height)
        drawn = [cells(note.render_lines(crop)) for note in notes]
        assert drawn[0] == drawn[1]
        assert notes[0]._edge_strips is notes[1]._edge_strips
        assert notes[0]._drawn is not None and notes[1]._drawn is not None
        assert notes[0]._drawn[2] is notes[1]._drawn[2]  # rendered once
        ours, textual = both_ways(notes[1])
        assert ours == textual
        assert "shared" in "".join(ch for ch, _ in ours[1])
