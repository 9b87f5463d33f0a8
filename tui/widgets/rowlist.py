"""RowList: a table of rows with a cursor (the lobby's rooms), drawn directly."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from tui.text import fit
from tui.widgets.direct import DirectLines


class Marked(str):
    """A cell of a name and its marks ("troll (guest) (muted)"): cut in a narrow
    column, the name gives way and the marks stay ("tr… (guest) (muted)")."""

    mark: str

    def __new__(cls, name: str, mark: str) -> Marked:
        made = super().__new__(cls, name + mark)
        made.mark = mark
        return made

    def fitted(self, width: int) -> str:
        name_w = width - cell_len(self.mark)
        if cell_len(self) <= width or name_w < 2 or not self.mark:
            return fit(self, width)
        return fit(self[: len(self) - len(self.mark)], name_w) + self.mark


def _fit_cell(cell: str, width: int) -> str:
    return cell.fitted(width) if isinstance(cell, Marked) else fit(cell, width)


class RowList(DirectLines, can_focus=True):
    """A table of plain-text rows under a header line, with a row cursor: the
    lobby's rooms. In place of Textual's ``DataTable``, whose cells are Rich
    renderables each drawn through a Console, and whose dozen component
    classes each get the stylesheet applied: with ten rooms listed, the rooms
    table was a third of a login's CPU (``./manage bench load``'s burst).

    Cells are plain strings, drawn as they are (never markup), padded to each
    column's widest cell in terminal cells (CJK lines up); an optional title
    line goes above the header (the lobby's pane is this one widget, not a
    container with a title and a table in it: each widget is ~5% of a
    login's CPU). Up/Down, PageUp/PageDown, Home/End and the mouse wheel
    move the cursor, a click puts it on a row and a click on the cursor's
    row selects it; the view follows the cursor (the header's right end
    says which rows are in view when they do not all fit). ``Highlighted``
    is posted when the cursor moves, ``Selected`` on that second click
    (Enter is left to the screen).
    """

    DEFAULT_CSS = """
    RowList { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", show=False),
        Binding("down", "cursor(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "cursor(-1000000)", show=False),
        Binding("end", "cursor(1000000)", show=False),
    ]

    FOCUS_DRAWN = False  # but for the cursor's row: see on_focus
    CURSOR = Style(reverse=True, bold=True)  # visible without colour too
    CURSOR_BLURRED = Style(underline=True)
    HEADER = Style(bold=True)
    TITLE = Style(bold=True, underline=True)
    NARROWEST = 10  # cells a column keeps when the row is too wide for the line

    class Highlighted(Message):
        def __init__(self, row_list: RowList, row: int) -> None:
            super().__init__()
            self.row_list = row_list
            self.row = row

    class Selected(Message):
        def __init__(self, row_list: RowList, row: int) -> None:
            super().__init__()
            self.row_list = row_list
            self.row = row

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._title = ""
        self._labels: list[str] = []
        self._rows: list[tuple[str, ...]] = []
        self._widths: list[int] = []
        self._fit: tuple[int, list[int], list[int]] | None = None  # (width, of _widths, fitted widths)
        self.cursor_row = 0
        self._top = 0  # the first row in view
        self._strips: dict[int, Strip] = {}
        self._strips_key: tuple[Any, ...] = ()

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def set_title(self, title: str) -> None:
        """A line above the header (none when empty)."""
        if title != self._title:
            self._title = title
            self._redraw()  # the columns stay as they are

    @property
    def _above(self) -> int:
        """Lines above the first row: the title (if any) and the header."""
        return 2 if self._title else 1

    def set_columns(self, labels: list[str]) -> None:
        self._labels = list(labels)
        self._measure()
        self._redraw()

    def set_rows(self, rows: list[tuple[str, ...]]) -> None:
        """Show these rows; the cursor keeps its index (within the new rows)."""
        self._rows = list(rows)
        self.cursor_row = max(0, min(self.cursor_row, len(self._rows) - 1))
        self._measure()
        self._redraw()

    def _measure(self) -> None:
        """Each column as wide as its widest cell (header included)."""
        columns = [self._labels, *self._rows]
        count = max((len(row) for row in columns), default=0)
        self._widths = [
            max((cell_len(row[i]) for row in columns if i < len(row)), default=0) for i in range(count)
        ]

    def _redraw(self) -> None:
        """Draw the lines anew, the cursor's row in view."""
        self._strips.clear()
        self._follow()
        self.refresh()

    def move_cursor(self, row: int) -> None:
        row = max(0, min(row, len(self._rows) - 1))
        if row != self.cursor_row:
            self.cursor_row = row
            self._redraw()
            self.post_message(self.Highlighted(self, row))

    def _view_height(self) -> int:
        return max(1, self.content_size.height - self._above)

    def _follow(self) -> None:
        """Scroll so the cursor's row is in view (once the list has its size:
        before, a view one row high scrolled a cursor put on row 1 to the
        top and the rows above it stayed hidden; ``on_resize`` follows then)."""
        if self.content_size.height <= 0:
            return
        height = self._view_height()
        top = min(self._top, self.cursor_row)
        top = max(top, self.cursor_row - height + 1)
        self._top = max(0, min(top, max(0, len(self._rows) - height)))

    def action_cursor(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta)

    def action_page(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta * self._view_height())

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.move_cursor(self.cursor_row - 1)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.move_cursor(self.cursor_row + 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # inside a border and padding
        if offset is None or offset.y < self._above:
            return
        row = self._top + offset.y - self._above
        if not 0 <= row < len(self._rows):
            return
        if row == self.cursor_row:
            self.post_message(self.Selected(self, row))
        else:
            self.move_cursor(row)

    def on_focus(self) -> None:
        self._refresh_cursor()  # the cursor's look follows the focus (its drawn lines are keyed by it)

    def on_blur(self) -> None:
        self._refresh_cursor()

    def _refresh_cursor(self) -> None:
        """Draw the cursor's row again (if it is in view): the other rows look
        the same with the focus and without."""
        y = self._above + self.cursor_row - self._top
        if 0 <= self.cursor_row < len(self._rows) and self._above <= y < self.content_size.height:
            self.refresh(Region(0, y, self.content_size.width, 1))

    def on_resize(self) -> None:
        self._follow()

    def _fitted(self, width: int) -> list[int]:
        """The columns' widths in ``width`` cells: when the widest cells do not all
        fit, the widest column but the last gives a cell at a time (down to
        :attr:`NARROWEST`), then the last, so a long name no longer pushes the
        last column (a seat's ready state, a room's state) off the line."""
        if self._fit is not None and self._fit[0] == width and self._fit[1] is self._widths:
            return self._fit[2]
        widths = list(self._widths)
        over = 1 + sum(widths) + 2 * max(0, len(widths) - 1) - width
        while over > 0 and widths:
            widest = max(range(len(widths) - 1), key=widths.__getitem__, default=0)
            if widths[widest] <= self.NARROWEST:
                widest = len(widths) - 1
                if widths[widest] <= self.NARROWEST:
                    break
            widths[widest] -= 1
            over -= 1
        self._fit = (width, self._widths, widths)
        return widths

    def _line(self, cells: tuple[str, ...], width: int, style: Style) -> Strip:
        text = " " + "  ".join(_fit_cell(cell, w) for cell, w in zip(cells, self._fitted(width), strict=False))
        return Strip([Segment(fit(text, width), style)], width)

    def render_line(self, y: int) -> Strip:
        size = self.line_size
        width = size.width
        base = self.line_style
        key = (size, base, self.has_focus, self._top)  # the height too: the header's "rows in view"
        if key != self._strips_key:
            self._strips_key, self._strips = key, {}
        strip = self._strips.get(y)
        if strip is None:
            above = self._above
            if y < above - 1:
                strip = Strip([Segment(fit(self._title, width), base + self.TITLE)], width)
            elif y == above - 1:
                strip = self._line(tuple(self._labels), width, base + self.HEADER)
                height, count = self._view_height(), len(self._rows)
                if count > height:  # which rows are in view, at the header's right end
                    where = f" {self._top + 1}-{min(self._top + height, count)}/{count} "
                    if cell_len(where) < width:
                        strip = Strip.join([strip.crop(0, width - cell_len(where)), Strip([Segment(where, base)])])
            elif 0 <= (index := self._top + y - above) < len(self._rows):
                style = base
                if index == self.cursor_row:
                    style = base + (self.CURSOR if self.has_focus else self.CURSOR_BLURRED)
                strip = self._line(self._rows[index], width, style)
            else:
                strip = Strip.blank(width, base)
            self._strips[y] = strip
        return strip
