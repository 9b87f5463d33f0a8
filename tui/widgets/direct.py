"""The direct line renderer: widgets whose lines go to the screen finished, not
through Textual's per-line style pipeline, and the process-wide caches of
rendered lines every session shares."""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, Self

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.color import Color
from textual.css._style_properties import BoxProperty
from textual.css.styles import Styles
from textual.dom import NoScreen
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from tui.text import Packed

STRIP_CACHE_SIZE = 8192
"""Wrapped lines kept process-wide (:func:`wrapped_strips`). The screens of one
room mostly show the same lines (a seat box, a log line), so each is
rendered once for all of them."""


class LinesCache:
    """Least recently used lists of strips, at most ``max_lines`` strips in all.

    A bound on the entries let the wrapped texts' memory grow for an evening:
    a round's result sheet is one entry of dozens of lines. The newest entry
    stays even when it alone is over the bound."""

    def __init__(self, max_lines: int) -> None:
        self.max_lines = max_lines
        self.lines = 0  # the strips held
        self._entries: OrderedDict[Hashable, list[Strip]] = OrderedDict()

    def get(self, key: Hashable) -> list[Strip] | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def __setitem__(self, key: Hashable, value: list[Strip]) -> None:
        entries = self._entries
        old = entries.pop(key, None)
        if old is not None:
            self.lines -= len(old)
        entries[key] = value
        self.lines += len(value)
        while self.lines > self.max_lines and len(entries) > 1:
            self.lines -= len(entries.popitem(last=False)[1])

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self.lines = 0


ROW_CACHE_SIZE = 2048
"""Single rows kept process-wide (:func:`text_strip`: a table ring's rows, each
with its mouse offsets, ~4.5 KB). A row changes with the match and the
room's screens draw it at about the same time, so the older rows kept are
mostly ones no state shows again, and memory the cache fills slowly: at
4,096 rows it was still filling 15 minutes into an evening (`./manage bench
soak --holders`), about 9 MiB more at the end."""

_strips: LRUCache[Hashable, Strip] = LRUCache(ROW_CACHE_SIZE)
_wrapped = LinesCache(STRIP_CACHE_SIZE)


def text_key(text: Text) -> Hashable:
    """A hashable key of everything that decides how ``text`` renders."""
    return (text.plain, text.style, tuple(text.spans), text.justify, text.overflow, text.no_wrap)


def text_strip(widget: Widget, text: Text, width: int, y: int | None = None, base: Style | None = None) -> Strip:
    """One line of rich ``text`` as a strip of exactly ``width`` cells in the
    widget's style (``base``, default ``widget.rich_style``), not wrapped; with
    ``y``, its cells know their row (mouse offsets). Rendered straight to
    segments, not through Textual's ``Content`` (~10x the cost per line), and
    cached process-wide (:data:`ROW_CACHE_SIZE`)."""
    if base is None:
        base = widget.rich_style
    key = (text_key(text), width, base, y)
    strip = _strips.get(key)
    if strip is None:
        strip = _line_strip(widget.app.console, text).crop_extend(0, width, base).apply_style(base)
        if y is not None:
            strip = strip.apply_offsets(0, y)
        _strips[key] = strip
    return strip


def wrapped_strips(
    widget: Widget, text: Text, width: int, *, wrap: bool = True, seps: tuple[str, ...] = ()
) -> list[Strip]:
    """``text`` wrapped to ``width`` cells (cut instead when not ``wrap``), one
    strip per line, cached process-wide like :func:`text_strip`. With ``seps``
    a line breaks between its items (:class:`tui.text.Packed`)."""
    key = (text_key(text), width, wrap, seps)
    strips = _wrapped.get(key)
    if strips is None:
        console = widget.app.console
        strips = _fitting_lines(console, text, width)
        if strips is None:
            strips = _rich_lines(console, Packed(text, seps) if seps and wrap else text, width, wrap=wrap)
        _wrapped[key] = strips
    return strips


def _rich_lines(console: Console, text: RenderableType, width: int, *, wrap: bool) -> list[Strip]:
    """``text`` wrapped (or cut) to ``width`` by Rich, one strip per line."""
    options = console.options.update_width(width)
    if not wrap:
        options = options.update(overflow="ignore", no_wrap=True)
    lines = console.render_lines(text, options, pad=False, new_lines=False)
    return [Strip(line) for line in lines] or [Strip.blank(width)]


def _fitting_lines(console: Console, text: Text, width: int) -> list[Strip] | None:
    """The lines of ``text`` as Rich draws them when every line fits in ``width``
    and is left-justified (nothing to wrap, cut or pad: each line's segments as
    they are, at a fifth of the cost of Rich's wrapping); else ``None``."""
    plain = text.plain
    if text.justify not in (None, "default", "left") or "\t" in plain or not plain:
        return None
    if "\n" not in plain:
        return [_line_strip(console, text)] if cell_len(plain) <= width else None
    if plain.endswith("\n") or any(cell_len(part) > width for part in plain.split("\n")):
        return None
    return [_line_strip(console, line) for line in text.split("\n", allow_blank=True)]


def _line_strip(console: Console, line: Text) -> Strip:
    """One line of text as Rich renders it (``Text.render`` leaves out the
    text's own style when it has no spans; Rich's wrapping puts it back)."""
    if line.style and not line.spans:
        return Strip([Segment(line.plain, console.get_style(line.style, default=Style.null()))])
    return Strip(list(line.render(console, end="")))


if TYPE_CHECKING:
    _WidgetMixin = Widget
else:
    _WidgetMixin = object


class ScreenRepaint(_WidgetMixin):
    """A widget whose plain repaints reach its screen directly.

    Textual runs every widget as its own message pump: ``refresh()`` posts a
    ``Prompt`` to the widget, whose task wakes, goes idle and posts an
    ``Update`` to the screen, whose task wakes and marks the widget dirty;
    then the screen's update timer draws. With 150 sessions those hops were
    about half of the ~2,200 messages dispatched per second while bots play
    (``./manage bench screens``), each a task switch. A repaint that needs
    nothing else (no layout, scroll or style refresh pending) is marked on
    the screen here, as the screen's ``Update`` handler would, and the
    screen's update timer is started, as its ``Idle`` handler would (that
    was a ``Prompt`` to the screen and its task woken, ~1.4 a second per
    session at a table); the rest goes Textual's way. A mixin: put it
    before the widget class in the bases."""

    def check_idle(self) -> None:
        if (
            self._repaint_required
            and not (self._layout_required or self._scroll_required or self._refresh_styles_required)
            and self._is_mounted
            and not self._closing
            and self._parent is not None
            and self.display
        ):
            try:
                screen = self.screen
            except NoScreen:
                pass
            else:
                self._repaint_required = False
                if screen in screen._compositor:
                    screen._dirty_widgets.add(self)
                    if screen.is_current and not screen.app._batch_count:
                        # what the screen's idle handler does for a dirty widget
                        # (a Prompt to the screen, its task woken for an Idle)
                        screen._update_timer.resume()
                    else:
                        screen.check_idle()
                return
        super().check_idle()


_FINALS: LRUCache[Hashable, tuple[Strip, Any, Strip]] = LRUCache(8192)
"""Lines as drawn (padded, filtered, between a border's edges) by the identity of
the line a widget gave and how it was drawn; the entry keeps the line (and the
edges) alive, so an id is not reused while its entry is there."""


_EDGES: LRUCache[Hashable, tuple[Strip, Strip]] = LRUCache(256)
"""A border's left and right cells by everything they are drawn from (see DirectRender._edges)."""


class DirectRender(ScreenRepaint):
    """Widgets whose ``render_line`` already gives finished lines: the
    width of the widget's content, in its own style (``rich_style``).

    Their lines go to the screen as they are (padded left and right as CSS
    says, plus the app's line filters), not through Textual's per-line style
    pipeline (``StylesCache.render_line``), which measured ~140 us per line and
    was over half of a busy server's CPU (``./manage bench load``). A border
    is Textual's own: its top and bottom lines are drawn by Textual, and its
    left and right cells are cut once from a line Textual draws (a lobby's
    first frame drew every line of its bordered panes Textual's way: ~6 ms
    of a login's ~22 ms). Padding above or below falls back to Textual's
    pipeline. A line is padded and filtered once per strip object
    ``render_line`` gives (on any row, in any session: ``_FINALS``).
    """

    _direct_key: tuple[Any, ...] = ()
    _direct_lines: dict[int, tuple[Strip, Strip]]
    _drawing: Size | None = None  # the content size while render_lines runs
    _style_key: tuple[int, ...] = ()
    _style: tuple[Style, Color]

    _base: Style | None = None  # the widget's style as render_lines last looked it up

    @property
    def line_style(self) -> Style:
        """The widget's style as the last draw looked it up (once for all its lines)."""
        return self._base or self.rich_style

    @property
    def line_size(self) -> Size:
        """The content size: while drawing, the one looked up for the whole
        draw (each lookup walks up to the screen and asks its compositor, and
        ``render_line`` needs it for every line)."""
        return self._drawing or self.content_size

    def _direct_style(self) -> tuple[Style, Color]:
        """``rich_style`` and the background colour, computed again only when the
        styles of this widget or an ancestor changed (Textual bumps a style's
        ``_cache_key`` on every change). Both walk all the ancestors' styles:
        ~8% of a busy server's CPU when computed for every draw."""
        key = tuple(node.styles._cache_key for node in self.ancestors_with_self)
        if key != self._style_key:
            self._style_key, self._style = key, (self.rich_style, self.background_colors[1])
        return self._style

    def render_lines(self, crop: Region) -> list[Strip]:
        styles = self.styles
        padding = styles.padding
        if self.BLANK or padding.top or padding.bottom:
            return super().render_lines(crop)  # padding above or below: Textual's way
        gutter = styles.gutter
        b_top, b_bottom = gutter.top, gutter.bottom
        b_left, b_right = gutter.left - padding.left, gutter.right - padding.right
        size = self.size
        width = size.width
        base, background = self._direct_style()
        self._base = base
        filters = self.get_line_filters()
        left, right = padding.left, padding.right
        filter_key = tuple(filters)
        key: tuple[Any, ...] = (width, base, background, filter_key, left, right)
        edges: tuple[Strip, Strip] | None = None
        if b_top or b_bottom or b_left or b_right:
            edges = self._edges(width + left + right, b_top, b_left, b_right, filter_key)
            key += (edges,)
        if key != self._direct_key:
            self._direct_key, self._direct_lines = key, {}
        done = self._direct_lines
        lines: list[Strip] = []
        self._drawing = size
        try:
            for y in crop.line_range:
                row = y - b_top
                if row < 0 or row >= size.height:  # a border line: Textual's (its title, corners)
                    lines.append(super().render_lines(Region(0, y, width + gutter.width, 1))[0])
                    continue
                line = self.render_line(row)
                seen = done.get(row)
                if seen is not None and seen[0] is line:
                    final = seen[1]
                    lines.append(final)
                    continue
                # the same line drawn before (by this widget on another row, a log
                # that scrolled; or by another session, a shared seat ring row)
                shared = (id(line), width, left, right, base, background, filter_key, id(edges))
                made = _FINALS.get(shared)
                if made is not None and made[0] is line and made[1] is edges:
                    final = made[2]
                else:
                    final = line
                    if left or right:
                        final = Strip.join([Strip.blank(left, base), final, Strip.blank(right, base)])
                    if final.cell_length > width + left + right:  # drawn a cell wider, as Input does
                        final = final.crop(0, width + left + right)
                    for line_filter in filters:
                        # cached on the strip: the process-wide strips (and the app's shared
                        # filter, tui/app.py) make one filtering serve every session
                        final = final.apply_filter(line_filter, background)
                    if edges is not None:
                        final = Strip.join([edges[0], final, edges[1]])
                    _FINALS[shared] = (line, edges, final)
                done[row] = (line, final)
                lines.append(final)
        finally:
            self._drawing = None
        x1, x2 = crop.column_span
        if (x1, x2) != (0, width + gutter.width):
            lines = [line.crop(x1, x2) for line in lines]
        return lines

    FOCUS_DRAWN: ClassVar[bool] = True
    """Whether ``render_line`` draws anything differently with the focus; if
    not, Textual's refresh of the whole widget as it gains or loses the focus
    is skipped (a style the focus changes still refreshes what it changes)."""

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if repaint and not regions and not layout and not recompose:
            if not self.FOCUS_DRAWN and sys._getframe(1).f_code in _FOCUS_HANDLERS:
                return self  # Textual's focus and blur handlers: nothing drawn changed
            edge = _border_changed()
            if edge is not None:
                # only an edge of the border changed its look (a pane's colour as
                # it gains or loses the focus): that edge is drawn again, not the
                # whole widget (~5 KB for a lobby pane at each Tab); its lines
                # inside take the new edge cells when they are next drawn
                regions = (self._edge_region(edge),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _edge_region(self, edge: str) -> Region:
        """The cells of the border's ``edge`` (``border_top`` ...), in content
        coordinates (as ``refresh`` takes regions)."""
        width, height = self.outer_size  # a border's edge is one cell wide
        if edge == "border_top":
            region = Region(0, 0, width, 1)
        elif edge == "border_bottom":
            region = Region(0, height - 1, width, 1)
        elif edge == "border_left":
            region = Region(0, 0, 1, height)
        else:
            region = Region(width - 1, 0, 1, height)
        return region.translate(-self.content_offset)

    _edges_key: tuple[Any, ...] = ()
    _edge_strips: tuple[Strip, Strip]

    def _edges(
        self, inner: int, b_top: int, b_left: int, b_right: int, filter_key: tuple[Any, ...]
    ) -> tuple[Strip, Strip]:
        """The border's left and right cells beside a line of content, as
        Textual draws them (cut from one line it draws), drawn again only when a
        style of the widget or an ancestor changed or the size did."""
        key = (self._style_key, inner, b_top, b_left, b_right)
        if key != self._edges_key:
            styles = self.styles
            shared = (
                styles.border_left, styles.border_right, self.background_colors, self._style[0],
                styles.tint, self.opacity, filter_key, inner, b_left, b_right,
            )
            edges = _EDGES.get(shared)  # the same pane in every session: cut once
            if edges is None:
                self._drawing = None
                row = super().render_lines(Region(0, b_top, inner + b_left + b_right, 1))[0]
                edges = (row.crop(0, b_left), row.crop(b_left + inner, b_left + inner + b_right))
                _EDGES[shared] = edges
            self._edges_key, self._edge_strips = key, edges
        return self._edge_strips


_BORDER_EDGES = frozenset(("border_top", "border_right", "border_bottom", "border_left"))
_STYLES_REFRESH = Styles.refresh.__code__
_BOX_SET = BoxProperty.__set__.__code__
_FOCUS_HANDLERS = frozenset((Widget._on_focus.__code__, Widget._on_blur.__code__))


def _border_changed() -> str | None:
    """The border edge whose change of look (its colour or its kind of line,
    not whether there is one: that is a layout) called
    :meth:`DirectRender.refresh`, through Textual's ``Styles.refresh`` from the
    border's style property; None for any other refresh, also if a Textual
    release renames those (its whole refresh then stays as it is)."""
    caller = sys._getframe(2)  # 0: this, 1: DirectRender.refresh, 2: its caller
    if caller.f_code is not _STYLES_REFRESH:
        return None
    setter = caller.f_back
    if setter is None or setter.f_code is not _BOX_SET:
        return None
    name = getattr(setter.f_locals.get("self"), "name", None)
    return name if name in _BORDER_EDGES else None


class DirectLines(DirectRender, Widget):
    """Base of widgets drawn as :class:`DirectRender` (a mixin, so that a
    subclass of another widget, :class:`ChatInput`, keeps that widget's CSS)."""


SHARED_LINES: LRUCache[Hashable, list[Strip]] = LRUCache(1024)
"""Content given with a share key (the same in every session), drawn once per
width: a LineStatic's renderable (see LineStatic.update), a log line (see
TailLog.write); each keys its entries with its own class."""
