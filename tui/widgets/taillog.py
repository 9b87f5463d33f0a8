"""TailLog: a log that shows its newest lines, wrapped once when written."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.message import Message
from textual.strip import Strip

from tui.widgets.direct import SHARED_LINES, DirectLines, text_key, wrapped_strips

_LOG_ROWS: LRUCache[tuple[int, str, Style], tuple[Strip, Strip]] = LRUCache(8192)
"""A log's rows as drawn (its line and the scroll mark beside it) by the line's
identity, the mark and the style: the entry keeps the line alive, so an id is
not reused while its entry is there (see TailLog.render_line). Each log drew its
own rows before, so a line every spectator of a room shares was padded and
filtered again in each session: over half of the logs' rows (bench screens)."""


REWRAP_WRITES = 200
"""A log's newest writes that a change of its width wraps again (older lines keep their wrapping)."""


class TailLog(DirectLines, can_focus=True):
    """A log that shows its newest lines (or, scrolled back, older ones).

    Drop-in for the parts of ``RichLog`` the screens use (``write``,
    ``clear``, ``lines``, ``max_lines``, ``wrap``, ``min_width``) but much
    cheaper to draw when lines keep arriving, as they do at a busy table:

    * a line is wrapped once, when written, to the width the log has then,
      and again only when that width changes (``RichLog`` never re-wraps: a
      narrower terminal cut its old lines' ends off, a wider one left them
      in a narrow column);
    * drawing a line is a lookup of its strip, never a render of text;
    * no scrollbar widget and no virtual size, so a new line never re-lays
      out the screen and never redraws a scrollbar: the rightmost column is a
      drawn scroll indicator (``│`` track, ``┃`` thumb) when the log is longer
      than its height.

    Scrolling: mouse wheel, and Up/Down/PageUp/PageDown/Home/End when
    focused. Scrolled to the bottom (or never scrolled) it follows new lines.

    A *sheet* (:meth:`show_sheet`: a table's notes, exchange or round result)
    can be shown in the log's place, from its top, while the log keeps
    collecting lines underneath; hiding it shows the log again. Switching is
    a repaint of this widget: swapping two widgets' ``display`` re-laid out
    the screen, twice with the sheet's scroll container, in every session of
    a room at each round's end (the echo stalls ``bench load --timeline``
    showed).
    """

    DEFAULT_CSS = """
    TailLog { height: 1fr; }
    """
    FOCUS_DRAWN = False  # its pane's border shows the focus

    class ScrolledBack(Message):
        """The log stopped following its newest line (``back``), or follows it again."""

        def __init__(self, back: bool) -> None:
            super().__init__()
            self.back = back

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_lines(-1)", show=False),
        Binding("down", "scroll_lines(1)", show=False),
        Binding("pageup", "scroll_page(-1)", show=False),
        Binding("pagedown", "scroll_page(1)", show=False),
        Binding("home", "scroll_home", show=False),
        Binding("end", "scroll_end", show=False),
    ]

    def __init__(
        self,
        *,
        max_lines: int | None = None,
        wrap: bool = True,
        markup: bool = False,
        min_width: int = 10,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.max_lines = max_lines
        self.wrap = wrap
        self.min_width = min_width
        self.lines: list[Strip] = []
        # what the last REWRAP_WRITES writes were, for wrapping again at another width:
        # [content, share, lines it made]; ``lines`` begins with ``_old`` lines of older
        # writes, kept as they were wrapped (a table's 2,000 writes kept would hold ~1.3 MB)
        self._entries: deque[list[Any]] = deque()
        self._old = 0
        self._wrapped_at = 0  # the width ``lines`` were wrapped to
        self._top: int | None = None  # first line shown when scrolled back; None: follow the end
        self._deferred: list[tuple[Text | str, Hashable]] = []  # written before the log knew its width (share keys)
        self.sheet: Text | None = None  # shown instead of the log when set
        self._sheet_lines: list[Strip] = []
        self._sheet_width = 0
        self._sheet_top = 0

    # -- the sheet ----------------------------------------------------------

    def show_sheet(self, text: Text | None, *, from_top: bool = False) -> None:
        """Show ``text`` in the log's place (None: the log again); ``from_top``
        scrolls it to its first line, else it keeps its place."""
        if text is None:
            if self.sheet is not None:
                self.sheet, self._sheet_lines, self._sheet_width = None, [], 0
                self.refresh()
            return
        if from_top:
            self._sheet_top = 0
        if self.sheet is not None and text_key(text) == text_key(self.sheet) and not from_top:
            return
        self.sheet, self._sheet_width = text, 0
        self.refresh()

    def sheet_rows(self, text: Text) -> int:
        """How many rows ``text`` takes in this log at its width now (to find a
        line of a sheet made of several)."""
        width = self.line_size.width
        return len(self._wrap(text.copy(), width, wrap=True)) if width > 1 else 1

    def scroll_sheet_to(self, row: int) -> None:
        """Show the sheet from its ``row``."""
        self._show_from(row)

    def _shown(self) -> list[Strip]:
        """The lines on show: the sheet's (wrapped to the width now) or the log's."""
        if self.sheet is None:
            return self.lines
        width = self.line_size.width
        if width != self._sheet_width:
            text = self.sheet.copy()
            text.expand_tabs()
            self._sheet_lines = self._wrap(text, width, wrap=True) if width > 1 else []
            self._sheet_width = width
        return self._sheet_lines

    # -- writing ------------------------------------------------------------

    def write(self, content: Text | str, *, share: Hashable = None, refresh: bool = True) -> TailLog:
        """Add ``content`` at the end. ``share``: a key that stands for this
        content in every session (a log line made from a view object the
        room's spectators share), so that it is wrapped once for all of them.
        ``refresh=False``: the caller writes more lines and refreshes the log
        once after them (each refresh marks the widget dirty on its screen
        again: ~1-2% of play by cProfile when every line of an action did)."""
        width = self.content_size.width
        if width <= 1:
            self._deferred.append((content, share))
            return self
        if width != self._wrapped_at:
            self.rewrap()  # a write before the resize event: the old lines first
        lines = self._wrap_entry(content, share, width)
        self._wrapped_at = width
        entries = self._entries
        entries.append([content, share, len(lines)])
        if len(entries) > REWRAP_WRITES:
            self._old += entries.popleft()[2]
        self._append_lines(lines)
        if refresh:
            self.refresh()
        return self

    def _wrap_entry(self, content: Text | str, share: Hashable, width: int) -> list[Strip]:
        key = (TailLog, share, width, self.wrap, self.min_width)
        lines = None if share is None else SHARED_LINES.get(key)
        if lines is None:
            text = Text(content) if isinstance(content, str) else content.copy()
            text.expand_tabs()
            lines = self._wrap(text, width, wrap=self.wrap)
            if share is not None:
                SHARED_LINES[key] = lines
        return lines

    def rewrap(self) -> None:
        """Wrap every line written again, to the width the log has now, if it
        changed; a log scrolled back keeps the same line at its top."""
        width = self.content_size.width
        if width <= 1 or width == self._wrapped_at or not self._entries:
            return
        top_entry = None
        top = self._top
        if top is not None and top >= self._old:  # the entry whose line is at the top
            at = top - self._old
            for i, entry in enumerate(self._entries):
                if at < entry[2]:
                    top_entry = i
                    break
                at -= entry[2]
        lines = self.lines[: self._old]
        for i, entry in enumerate(self._entries):
            if i == top_entry:
                top = len(lines)
            wrapped = self._wrap_entry(entry[0], entry[1], width)
            entry[2] = len(wrapped)
            lines.extend(wrapped)
        self.lines = lines
        self._wrapped_at = width
        self._top = top
        self._trim()
        self.refresh()

    def write_lines(self, lines: Iterable[tuple[Text | str, Hashable]]) -> None:
        """:meth:`write` each ``(content, share)``, then refresh the log once (if
        any was written)."""
        written = False
        for content, share in lines:
            self.write(content, share=share, refresh=False)
            written = True
        if written:
            self.refresh()

    def text_width(self, width: int | None = None) -> int:
        """Cells a line has in a log ``width`` wide (its own now by default):
        the rightmost column is the scroll indicator."""
        return max(self.min_width, (self.content_size.width if width is None else width) - 1)

    def _wrap(self, text: Text, width: int, *, wrap: bool) -> list[Strip]:
        """``text`` (a copy with tabs expanded) as lines for a log ``width`` wide."""
        text.end = ""
        return wrapped_strips(self, text, self.text_width(width), wrap=wrap)

    def _append_lines(self, lines: list[Strip]) -> None:
        self.lines.extend(lines)
        self._trim()

    def _trim(self) -> None:
        """Keep the newest ``max_lines`` lines (and the writes they came from)."""
        if self.max_lines is not None and len(self.lines) > self.max_lines:
            drop = len(self.lines) - self.max_lines
            del self.lines[:drop]
            if self._top is not None:
                self._top = max(0, self._top - drop)
            old = min(drop, self._old)
            self._old -= old
            drop -= old
            entries = self._entries
            while entries and drop >= entries[0][2]:
                drop -= entries.popleft()[2]
            if entries and drop:
                entries[0][2] -= drop  # a write partly dropped: wrapped again, it shows whole

    def clear(self) -> TailLog:
        self.lines.clear()
        self._entries.clear()
        self._old = 0
        self._deferred.clear()
        self._set_top(None)
        self.refresh()
        return self

    def on_resize(self) -> None:
        self.rewrap()
        self.write_deferred()

    def write_deferred(self) -> None:
        """Write the lines that came before the log knew its width, now that
        it does. A screen's first lines come before its first layout; they are
        written with their share keys (a spectator who opens a table takes the
        lines another screen of the room wrapped). The screen does this between
        its first layout and its first frame (``HostScreen.on_sized``), so that
        the frame shows them; a later resize finds nothing left."""
        if self._deferred and self.content_size.width > 1:
            pending, self._deferred = self._deferred, []
            self.write_lines(pending)

    # -- scrolling ----------------------------------------------------------

    def _first_shown(self) -> int:
        end = max(0, len(self._shown()) - self.line_size.height)
        if self.sheet is not None:
            return min(self._sheet_top, end)
        return end if self._top is None else min(self._top, end)

    def _show_from(self, top: int) -> None:
        end = max(0, len(self._shown()) - self.content_size.height)
        top = max(0, min(top, end))
        if self.sheet is not None:
            if top != self._sheet_top:
                self._sheet_top = top
                self.refresh()
            return
        new = None if top >= end else top
        if new != self._top:
            self._set_top(new)
            self.refresh()

    def _set_top(self, top: int | None) -> None:
        if (top is None) != (self._top is None):
            self.post_message(self.ScrolledBack(top is not None))
        self._top = top

    @property
    def scrolled_back(self) -> bool:
        """Scrolled back from the newest line (so new lines do not show)."""
        return self._top is not None and self.sheet is None

    def action_scroll_lines(self, delta: int) -> None:
        self._show_from(self._first_shown() + delta)

    def action_scroll_page(self, delta: int) -> None:
        self._show_from(self._first_shown() + delta * max(1, self.content_size.height - 1))

    def action_scroll_home(self) -> None:
        self._show_from(0)

    def action_scroll_end(self) -> None:
        self._show_from(len(self.lines))

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._show_from(self._first_shown() - 3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._show_from(self._first_shown() + 3)

    # -- drawing ------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width, height = self.line_size
        base = self.line_style
        if width <= 0:
            return Strip.blank(0, base)
        lines = self._shown()
        total = len(lines)
        top = self._first_shown()
        index = top + y
        body = width - 1
        if index < total:
            # both steps are cached in the (shared) strip itself
            line = lines[index].crop_extend(0, body, base).apply_style(base)
        else:
            line = _blank(body, base)  # one object: its row is found in _LOG_ROWS
        mark = " "
        if total > height > 0:
            thumb = max(1, height * height // total)
            at = (top * (height - thumb)) // max(1, total - height)
            mark = "┃" if at <= y < at + thumb else "│"
        # the same strip for the same line and mark, in every session (a room's
        # logs share their lines): then a line is not drawn again when nothing
        # changed, nor when it only moved, and is padded and filtered once for
        # all the sessions that show it (DirectRender's _FINALS)
        key = (id(line), mark, base)
        joined = _LOG_ROWS.get(key)
        if joined is None or joined[0] is not line:
            joined = _LOG_ROWS[key] = (line, Strip.join([line, _bar(mark, base)]))
        return joined[1]


@lru_cache(maxsize=64)
def _blank(width: int, base: Style) -> Strip:
    return Strip.blank(width, base)


@lru_cache(maxsize=64)
def _bar(mark: str, base: Style) -> Strip:
    return Strip([Segment(mark, base + _BAR_STYLE)], 1)


_BAR_STYLE = Style(dim=True)
