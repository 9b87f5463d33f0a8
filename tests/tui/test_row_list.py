"""RowList (tui/widgets/rowlist.py): the lobby's table of rooms, drawn directly."""

from __future__ import annotations

from fakes import screen_text
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.widgets import RowList


class ListApp(App[None]):
    def __init__(self, rows: list[tuple[str, ...]]) -> None:
        super().__init__()
        self.rows = rows
        self.highlighted: list[int] = []
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield RowList(id="list")
        yield Static("below", id="below")

    def on_mount(self) -> None:
        table = self.query_one(RowList)
        table.styles.height = 6  # a header and five rows
        table.set_columns(["Room", "Host"])
        table.set_rows(self.rows)
        table.focus()

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        self.highlighted.append(event.row)

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        self.selected.append(event.row)


def lines(app: ListApp) -> list[str]:
    table = app.query_one(RowList)
    return [table.render_line(y).text for y in range(table.size.height)]


async def test_cells_are_drawn_literally_in_columns_as_wide_as_their_widest_cell() -> None:
    app = ListApp([("宮廷 Friday", "bob"), ("[b]x[/b]", "carol")])
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        shown = lines(app)
        assert shown[0].startswith(" Room         Host")
        assert shown[1].startswith(" 宮廷 Friday  bob")
        assert shown[2].startswith(" [b]x[/b]     carol")  # never markup
        assert all(cell_len(line) == 40 for line in shown)  # CJK counted in cells


async def test_keys_move_the_cursor_and_the_view_follows_it() -> None:
    app = ListApp([(f"room{i}", f"host{i}") for i in range(12)])
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(RowList)
        await pilot.press("down", "down")
        assert table.cursor_row == 2
        assert app.highlighted == [1, 2]
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 11
        shown = lines(app)
        assert shown[-1].startswith(" room11")
        assert shown[0].rstrip().endswith("8-12/12")  # which rows are in view
        await pilot.press("pageup")
        assert table.cursor_row == 6
        await pilot.press("home", "up")
        assert table.cursor_row == 0
        await pilot.pause()
        assert lines(app)[1].startswith(" room0")
        assert lines(app)[0].rstrip().endswith("1-5/12")
        table.styles.height = 8  # taller: seven rows in view, and the header says so
        await pilot.pause()
        await pilot.pause()
        assert lines(app)[0].rstrip().endswith("1-7/12")


async def test_a_click_moves_the_cursor_and_a_click_on_it_selects_the_row() -> None:
    app = ListApp([("a", "x"), ("b", "y"), ("c", "z")])
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(RowList)
        await pilot.click(RowList, offset=(2, 3))  # the third row (under the header)
        assert table.cursor_row == 2
        assert app.selected == []
        await pilot.click(RowList, offset=(2, 3))
        await pilot.pause()
        assert app.selected == [2]
        await pilot.click(RowList, offset=(2, 0))  # the header: nothing
        await pilot.pause()
        assert table.cursor_row == 2
        assert app.selected == [2]


async def test_the_cursor_row_is_marked_focused_or_not_and_rows_can_shrink() -> None:
    app = ListApp([("a", "x"), ("b", "y")])
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(RowList)
        await pilot.press("down")
        await pilot.pause()
        cursor = table.render_line(2)
        assert all(seg.style is not None and seg.style.reverse for seg in cursor)
        assert not any(seg.style is not None and seg.style.reverse for seg in table.render_line(1))
        table.blur()
        await pilot.pause()
        assert all(seg.style is not None and seg.style.underline for seg in table.render_line(2))
        table.set_rows([("only", "one")])
        assert table.cursor_row == 0
        assert table.row_count == 1
        table.set_rows([])
        assert table.row_count == 0
        await pilot.pause()
        assert lines(app)[1].strip() == ""


async def test_a_title_above_the_header_and_clicks_inside_a_border() -> None:
    app = ListApp([("a", "x"), ("b", "y"), ("c", "z")])
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(RowList)
        table.styles.height = 8
        table.styles.border = ("round", "white")
        table.styles.padding = (0, 1)
        table.set_title("Rooms (3)")
        await pilot.pause()
        assert table.render_line(0).text.startswith("Rooms (3)")
        assert table.render_line(1).text.startswith(" Room  Host")
        assert table.render_line(2).text.startswith(" a")
        # the widget's rows 0 and 1 are the border and the title, then the header
        await pilot.click(RowList, offset=(3, 4))  # the second row: b
        assert table.cursor_row == 1
        await pilot.click(RowList, offset=(3, 1))  # the title: nothing
        await pilot.click(RowList, offset=(3, 0))  # the border: nothing
        await pilot.pause()
        assert table.cursor_row == 1
        assert app.selected == []
        await pilot.click(RowList, offset=(3, 4))
        await pilot.pause()
        assert app.selected == [1]
        assert "│ Rooms (3)" in screen_text(app)  # inside the border, after the padding


class EarlyCursorApp(ListApp):
    def compose(self) -> ComposeResult:
        table = RowList(id="list")
        table.styles.height = 6
        table.set_columns(["Room", "Host"])
        table.set_rows(self.rows)
        table.move_cursor(2)  # before it is laid out: no size yet
        yield table

    def on_mount(self) -> None:
        self.query_one(RowList).focus()


async def test_a_cursor_put_before_the_list_has_its_size_keeps_the_rows_above_in_view() -> None:
    """The waiting room put its cursor on the player's own seat as it was
    first drawn, before the list had its size: a view "one row high" scrolled
    that row to the top, and the seats above it (the host's) stayed hidden."""
    app = EarlyCursorApp([(f"room {i}", "bob") for i in range(4)])
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        table = app.query_one(RowList)
        assert table.cursor_row == 2
        shown = lines(app)
    assert [line.split()[1] for line in shown[1:5]] == ["0", "1", "2", "3"], shown
    # over ssh the list got no resize after its first size, so it never
    # scrolled back: a list with no size yet does not scroll at all
    early = RowList()
    early.set_columns(["Seat"])
    early.set_rows([(str(i),) for i in range(5)])
    early.move_cursor(1)
    assert early.cursor_row == 1 and early._top == 0
