"""The table drawn as a ring of seat boxes around a centre.

:class:`TableRing` is a fixed-size widget (its size comes from the screen's
CSS, never from its content): the screen hands it :class:`SeatBox` contents
and centre lines with :meth:`TableRing.set_content`, which only repaints.
Seats go clockwise around the rectangle starting top-left, spread evenly over
the boxes the size allows (:func:`ring_layout`). Clicking a seat box posts
:class:`TableRing.SeatClicked` (``seat=None`` = the centre / the spare).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.style import Style as VisualStyle

from tui.text import MEASURE, pack_items
from tui.widgets import DirectLines, text_key, text_strip


@dataclass(frozen=True)
class Layout:
    """Where the boxes go: ``boxes[seat]`` = (x, y) of its top-left cell."""

    cell_w: int
    cell_h: int
    boxes: tuple[tuple[int, int], ...]
    centre: tuple[int, int, int, int]  # x, y, width, height

    @property
    def has_centre(self) -> bool:
        return self.centre[2] > 0 and self.centre[3] > 0


def _perimeter(cols: int, rows: int) -> list[tuple[int, int]]:
    """Box positions (col, row) clockwise from the top-left corner."""
    out = [(c, 0) for c in range(cols)]
    out += [(cols - 1, r) for r in range(1, rows - 1)]
    out += [(c, rows - 1) for c in range(cols - 1, -1, -1)]
    out += [(0, r) for r in range(rows - 2, 0, -1)]
    return out


def _spread(seats: int, places: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(places[(i * len(places)) // seats] for i in range(seats))


@lru_cache(maxsize=256)
def ring_layout(seats: int, width: int, height: int) -> Layout:
    """Pick where the boxes of ``seats`` seats go in ``width`` x ``height`` cells
    (made once per process for each size: every screen asks on every update).

    Few seats: a row on top and a row at the bottom with the centre between,
    full width. Many seats: a ring of boxes (top, right, bottom, left) around
    the centre, boxes at least 14 (better 18) cells wide, few empty places,
    3+ lines per box when they fit, vertically centred.
    """
    seats = max(1, seats)
    cols2 = max(2, math.ceil(seats / 2))
    w2 = width // cols2
    h2 = max(2, min(4, (height - 4) // 2))
    if w2 >= 18 and 2 * h2 + 3 <= height:
        places = [(c * w2, 0) for c in range(cols2)] + [(c * w2, height - h2) for c in range(cols2 - 1, -1, -1)]
        return Layout(w2, h2, _spread(seats, places), (0, h2, width, height - 2 * h2))
    best: tuple[tuple[int, ...], Layout] | None = None
    for rows in range(3, max(3, height // 2) + 1):
        cols = max(3, math.ceil((seats - 2 * (rows - 2)) / 2))
        perim = 2 * cols + 2 * (rows - 2)
        cell_h = max(2, min(6, height // rows))
        cell_w = max(1, width // cols)
        centre_h = (rows - 2) * cell_h
        score = (
            int(rows * cell_h <= height),
            int(cell_w >= 14),
            -(perim - seats),
            int(cell_w >= 18),
            min(cell_h, 3),
            min(centre_h, 6),
            cell_h,
        )
        if best is None or score > best[0]:
            top = max(0, (height - rows * cell_h) // 2)
            places = [(c * cell_w, top + r * cell_h) for c, r in _perimeter(cols, rows)]
            centre = (cell_w, top + cell_h, (cols - 2) * cell_w, centre_h)
            best = (score, Layout(cell_w, cell_h, _spread(seats, places), centre))
    assert best is not None
    return best[1]


def ring_height(seats: int, width: int, most: int, centre_need: Callable[[int], int]) -> int:
    """The fewest rows (at most ``most``) in which :func:`ring_layout` shows every
    seat's box as tall as it would in ``most`` rows and a centre of
    ``centre_need(its width)`` rows: the rows below the ring are the log's."""
    most = max(3, most)
    full = ring_layout(seats, width, most).cell_h
    for height in range(3, most):
        lay = ring_layout(seats, width, height)
        if (
            lay.cell_h >= full
            and all(y + lay.cell_h <= height for _x, y in lay.boxes)
            and lay.has_centre
            and lay.centre[3] >= centre_need(lay.centre[2] - 2)
        ):
            return height
    return most


@dataclass
class SeatBox:
    """What one seat box shows: up to ``cell_h`` lines, each cut to the box."""

    lines: list[Text] = field(default_factory=list)
    style: str = ""  # applied to the whole box (selection, candidates)



_ROWS: LRUCache[Hashable, list[Text]] = LRUCache(256)
"""Laid-out rings by their contents (see :meth:`TableRing._build_rows`)."""
_ROWS_OF: LRUCache[tuple[int, int, int, int], tuple[list[SeatBox], list[Text], list[Text]]] = LRUCache(256)
"""The same, by the identity of the box and centre lists (kept alive here, so an
id is not reused): screens given the very lists skip even computing the key."""


_CELLS: LRUCache[Hashable, Text] = LRUCache(4096)
"""One line of a seat box or of the centre, cut and padded to its width: most
boxes are the same from one action to the next and on every screen of a room
(only the viewer's own box differs), so each is made once. Shared: never
modified once made."""

_WRAPPED: LRUCache[Hashable, list[tuple[Hashable, Text]]] = LRUCache(512)
"""A centre line wrapped to a width: its parts and their keys."""

_ROW: LRUCache[Hashable, Text] = LRUCache(2048)
"""One line of the ring by the cells in it: a seated player's ring differs from
the others' only in the rows of their own box (and of the centre), so the other
rows are the very ``Text`` objects another screen of the room was given."""

_EMPTY = Text("")

_KEYS_OF: LRUCache[int, tuple[list[Text], tuple[Hashable, ...]]] = LRUCache(2048)
"""The :func:`text_key` of each line of a box, by the identity of its list of
lines (boxes' lines are shared between screens: tui/sultans/render.py)."""


def _line_keys(lines: list[Text]) -> tuple[Hashable, ...]:
    hit = _KEYS_OF.get(id(lines))
    if hit is not None and hit[0] is lines:
        return hit[1]
    keys = tuple(text_key(line) for line in lines)
    _KEYS_OF[id(lines)] = (lines, keys)
    return keys


def _box_cell(line: Text, key: Hashable, cell_w: int, style: str) -> tuple[Hashable, Text]:
    """``line`` (``key`` its :func:`text_key`) as a cell of a box ``cell_w`` wide, and the cell's key."""
    cache_key = (key, cell_w, style)
    cell = _CELLS.get(cache_key)
    if cell is None:
        cell = Text(" ", end="")
        cell.append_text(_fit(line, cell_w - 2))
        cell.append(" ")
        if style:
            cell.stylize(style)
        _CELLS[cache_key] = cell
    return cache_key, cell


def _centre_cells(line: Text, width: int) -> list[tuple[Hashable, Text]]:
    """``line`` wrapped to ``width`` cells, each part a centre cell (a space, the part cut to
    ``width``), with its key."""
    key = (text_key(line), width)
    cells = _WRAPPED.get(key)
    if cells is None:
        cells = []
        for part in wrap_lines([line], width):
            cell_key = ("centre", text_key(part), width)
            cell = _CELLS.get(cell_key)
            if cell is None:
                cell = Text(" ", end="")
                cell.append_text(_fit(part, width))
                _CELLS[cell_key] = cell
            cells.append((cell_key, cell))
        _WRAPPED[key] = cells
    return cells


def _row(segs: list[tuple[int, Hashable, Text]]) -> Text:
    """One ring line from its cells ``(x, key, cell)`` in order of ``x`` (made once per
    set of cells)."""
    key = tuple((x, cell_key) for x, cell_key, _ in segs)
    row = _ROW.get(key)
    if row is None:
        row = Text(no_wrap=True, end="")
        pos = 0
        for x, _, seg in segs:
            if x > pos:
                row.append(" " * (x - pos))
                pos = x
            row.append_text(seg)
            pos += cell_len(seg.plain)
        _ROW[key] = row
    return row


def wrap_lines(lines: list[Text], width: int) -> list[Text]:
    """Wrap each line to ``width`` cells (CJK-aware), between the items its
    double spaces separate where it has them (the legend's signs), else
    between words (:func:`tui.text.pack_items`)."""
    out: list[Text] = []
    for line in lines:
        out.extend(pack_items(line, width, MEASURE))
    return out


def _fit(text: Text, width: int) -> Text:
    out = text.copy()
    out.no_wrap = True
    out.end = ""
    if cell_len(out.plain) > width:
        out.truncate(max(0, width - 1), overflow="crop")
        out.append("…")
    out.truncate(width, pad=True)
    return out


class TableRing(DirectLines):
    """The seats around the table; a repaint never changes the layout."""

    DEFAULT_CSS = """
    TableRing { width: 1fr; height: 1fr; }
    """

    can_focus = True

    class Resized(Message):
        """The ring's size changed: its boxes may need other contents."""

    class SeatClicked(Message):
        """A seat box (``seat``) or the centre (``seat=None``) was clicked."""

        def __init__(self, seat: int | None) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.boxes: list[SeatBox] = []
        self.centre: list[Text] = []
        self.layout_: Layout | None = None
        self._rows: list[Text] = []  # the ring's lines as last set
        self._rows_size = Size(0, 0)  # the widget size they were made for
        self._strips: dict[int, Strip] = {}  # painted lines, by y
        self._strip_style: VisualStyle | None = None  # the widget style they were painted with

    def set_content(self, boxes: list[SeatBox], centre: list[Text]) -> None:
        self.boxes = boxes
        self.centre = centre
        size = self.size
        rows = self._build_rows()
        if size != self._rows_size or len(rows) != len(self._rows) or not rows:
            self._rows, self._rows_size, self._strips = rows, size, {}
            self.refresh()
            return
        changed = [y for y, (old, new) in enumerate(zip(self._rows, rows, strict=True)) if old is not new and old != new]
        self._rows = rows
        for y in changed:
            self._strips.pop(y, None)
        if changed:  # repaint only the rows that differ (a seat box or two per action)
            self.refresh(*(Region(0, y, size.width, 1) for y in changed))

    def current_layout(self) -> Layout:
        return ring_layout(max(1, len(self.boxes)), self.size.width, self.size.height)

    def _build_rows(self) -> list[Text]:
        """The ring as one ``Text`` per line of the widget (none when empty).

        Cached process-wide: the screens of one room mostly show the same ring
        (every spectator's is the same), so it is laid out once for all of them.
        """
        width, height = self.size.width, self.size.height
        if not self.boxes or width <= 0 or height <= 0:
            return []
        lay = self.current_layout()
        self.layout_ = lay
        same = _ROWS_OF.get((id(self.boxes), id(self.centre), width, height))
        if same is not None and same[0] is self.boxes and same[1] is self.centre:
            return same[2]  # the very lists another screen laid out (tui/sultans/table.py shares them)
        box_keys = tuple((_line_keys(box.lines), box.style) for box in self.boxes)
        key = (width, height, box_keys, tuple(text_key(line) for line in self.centre))
        rows = _ROWS.get(key)
        if rows is None:
            rows = self._lay_out_rows(lay, width, height, box_keys)
            _ROWS[key] = rows
        _ROWS_OF[(id(self.boxes), id(self.centre), width, height)] = (self.boxes, self.centre, rows)
        return rows

    def _lay_out_rows(
        self, lay: Layout, width: int, height: int, box_keys: tuple[tuple[tuple[Hashable, ...], str], ...]
    ) -> list[Text]:
        grid: list[list[tuple[int, Hashable, Text]]] = [[] for _ in range(height)]
        for seat, (x, y) in enumerate(lay.boxes):
            box = self.boxes[seat]
            line_keys = box_keys[seat][0]
            for i in range(lay.cell_h):
                if y + i >= height:
                    break
                if i < len(box.lines):
                    grid[y + i].append((x, *_box_cell(box.lines[i], line_keys[i], lay.cell_w, box.style)))
                else:
                    grid[y + i].append((x, *_box_cell(_EMPTY, None, lay.cell_w, box.style)))
        if lay.has_centre:
            cx, cy, cw, ch = lay.centre
            y = cy
            for line in self.centre:
                for cell_key, cell in _centre_cells(line, cw - 2):
                    if y >= min(height, cy + ch):
                        break
                    grid[y].append((cx, cell_key, cell))
                    y += 1
        for segs in grid:
            segs.sort(key=lambda s: s[0])
        return [_row(segs) for segs in grid]

    def render(self) -> RenderableType:
        """The whole ring as one ``Text`` (the screen paints it line by line, :meth:`render_line`)."""
        rows = self._build_rows()
        if not rows:
            return Text("")
        out = Text(no_wrap=True, end="")
        for y, row in enumerate(rows):
            out.append_text(row)
            if y < len(rows) - 1:
                out.append("\n")
        return out

    def render_line(self, y: int) -> Strip:
        """One line of the ring, drawn once per change of that line.

        Textual's default draws the whole widget again for any dirty region;
        here each line is kept as a strip until :meth:`set_content` finds it
        changed (then only its region is refreshed), or the size or the
        widget's style changes.
        """
        self._dirty_regions.clear()
        size = self.line_size
        style = self.visual_style
        if size != self._rows_size:
            self._rows, self._rows_size, self._strips = self._build_rows(), size, {}
        if style != self._strip_style:
            self._strip_style, self._strips = style, {}
        strip = self._strips.get(y)
        if strip is None:
            if y < len(self._rows):
                # drawn alone the line thinks it is line 0: give its cells their real row (mouse offsets)
                strip = text_strip(self, self._rows[y], size.width, y, style.rich_style)
            else:
                strip = Strip.blank(size.width, style.rich_style)
            self._strips[y] = strip
        return strip

    def seat_at(self, x: int, y: int) -> int | bool | None:
        """The seat whose box holds (x, y); ``None`` for the centre; ``False`` for nothing."""
        lay = self.layout_ or self.current_layout()
        for seat, (bx, by) in enumerate(lay.boxes):
            if bx <= x < bx + lay.cell_w and by <= y < by + lay.cell_h:
                return seat
        cx, cy, cw, ch = lay.centre
        if cx <= x < cx + cw and cy <= y < cy + ch:
            return None
        return False

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized())

    def on_click(self, event: events.Click) -> None:
        hit = self.seat_at(event.x, event.y)
        if hit is False:
            return
        event.stop()
        self.post_message(self.SeatClicked(hit if isinstance(hit, int) and not isinstance(hit, bool) else None))
