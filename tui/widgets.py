"""Widgets shared by the screens: a translated key bar and a chat panel.

Both render user-provided text literally (``rich.text.Text``), never as markup.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.color import Color
from textual.containers import Vertical
from textual.css._style_properties import BoxProperty
from textual.css.styles import Styles
from textual.dom import NoScreen
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList, Static
from textual.widgets.input import Selection

from protocol.contract import CHAT_MAX, ChatLine
from protocol.i18n import LANGS, Lang, system_line, t
from tui.text import Packed, clip, clock, cut_lines, fit

# (key as shown, action to run, catalogue key of its label)
KeySpec = tuple[str, str, str]


SPARE_ACTIONS = {"online", "results", "match_log"}
"""Keys the key bar leaves out first when it is too narrow: the screen says
them (the lobby's "+8 more (o)"; a table's help, its round-end line "F4 shows its result"). (The lobby's Settings, ``l``, was one, "F2
does the same"; it holds the bell too, and a newcomer at 80 columns never
found it: the chat's field and the leaderboard's title say their keys instead.)"""
ACTION_KEYS = "key(…)"
"""In a group of keys below: every ``key('x')`` action (a table's game actions)."""
ALL_BUT_LEAVE = "*"
"""In :data:`UNLABELLED_FIRST`: every key but the one that leaves the screen."""
DROPPED_FIRST: tuple[frozenset[str], ...] = (
    frozenset({"app.quit_app"}),
    frozenset({"reopen"}),
    frozenset({"play_again"}),
    frozenset({"leaders"}),
    frozenset({"chat"}),
    frozenset({"pane"}),
    frozenset({"standin"}),
)
"""Then keys left out whole, a group (by action, or by key for the function
keys) at a time, never shown without their label (the lobby's bar read
" t   b   F1 Help  F2 中文  l Settings  q"): each is said elsewhere too, and
F1 lists them all. q first (F1; Ctrl+C asks too); then a finished table's
host keys, the longer first (its status line says "Press p to play again, or
o to change the settings"); the leaderboard and chat (the leaderboard's title
and the chat's field say their keys); a table's Tab (its pane's title); the
host's z for a stand-in (F1 says what it does)."""
DROPPED_LAST: tuple[frozenset[str], ...] = (
    frozenset({ACTION_KEYS}),
    frozenset({"leave_match"}),
    frozenset({"add_bot", "remove", "options"}),
)
"""After that the bar packs its keys closer ("w Watch c New room"), then
leaves out the keys of the game's actions (the table's prompt line names
them), then a match's q (only F1 says what it does: a player needs to find how
to leave a match), then a waiting room's host keys (F1 lists them), so that its host
still sees Ready, Start and Leave. What is left of any screen's bar fits 60
columns with every label, in both languages."""
UNLABELLED_FIRST: tuple[frozenset[str], ...] = (
    frozenset({"F1"}),
    frozenset({"F2"}),
    frozenset({ALL_BUT_LEAVE}),
)
"""Under 60 columns (the player is told the terminal is too small) labels go
last of all: F1's, F2's, then every label but Leave's."""


def _in_group(group: frozenset[str], key: str, action: str) -> bool:
    return (
        action in group
        or key in group
        or (action.startswith("key(") and ACTION_KEYS in group)
        or (ALL_BUT_LEAVE in group and action != "back")
    )


BarStep = tuple[int, bool, frozenset[str], frozenset[str]]
"""One way to lay out a key bar: spacing (0 wide, 1 tight, 2 packed), whether
disabled keys are left out, the groups left out, the groups without labels."""


def _bar_steps() -> list[BarStep]:
    none: frozenset[str] = frozenset()
    spare = frozenset(SPARE_ACTIONS)
    steps: list[BarStep] = [(0, False, none, none), (1, False, none, none), (1, True, none, none), (1, True, spare, none)]
    dropped = spare
    for group in DROPPED_FIRST:
        dropped |= group
        steps.append((1, True, dropped, none))
    steps.append((2, True, dropped, none))
    for group in DROPPED_LAST:
        dropped |= group
        steps.append((2, True, dropped, none))
    unlabelled = none
    for group in UNLABELLED_FIRST:
        unlabelled |= group
        steps.append((2, True, dropped, unlabelled))
    return steps


BAR_STEPS = _bar_steps()
"""The key bar's layouts, the roomiest first (see :class:`KeyBar`)."""


STRIP_CACHE_SIZE = 8192
"""Rendered lines kept process-wide. The screens of one room mostly show the
same lines (a seat box, a log line), so each is rendered once for all of them."""

_strips: LRUCache[Hashable, Strip] = LRUCache(STRIP_CACHE_SIZE)
_wrapped: LRUCache[Hashable, list[Strip]] = LRUCache(STRIP_CACHE_SIZE)


def text_key(text: Text) -> Hashable:
    """A hashable key of everything that decides how ``text`` renders."""
    return (text.plain, text.style, tuple(text.spans), text.justify, text.overflow, text.no_wrap)


def text_strip(widget: Widget, text: Text, width: int, y: int | None = None, base: Style | None = None) -> Strip:
    """One line of rich ``text`` as a strip of exactly ``width`` cells in the
    widget's style (``base``, default ``widget.rich_style``), not wrapped; with
    ``y``, its cells know their row (mouse offsets). Rendered straight to
    segments, not through Textual's ``Content`` (~10x the cost per line), and
    cached process-wide (:data:`STRIP_CACHE_SIZE`)."""
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

_LOG_ROWS: LRUCache[tuple[int, str, Style], tuple[Strip, Strip]] = LRUCache(8192)
"""A log's rows as drawn (its line and the scroll mark beside it) by the line's
identity, the mark and the style: the entry keeps the line alive, so an id is
not reused while its entry is there (see TailLog.render_line). Each log drew its
own rows before, so a line every spectator of a room shares was padded and
filtered again in each session: over half of the logs' rows (bench screens)."""

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


LaidBar = tuple[Text, list[tuple[int, int, str]], tuple[tuple[str, str], ...]]
"""A key bar laid out: its text, where each action is, the keys with their labels."""
_BARS: LRUCache[Hashable, LaidBar] = LRUCache(256)
"""Key bars laid out, by their items and width (see KeyBar.show); never changed after."""

_SHARED_LINES: LRUCache[Hashable, list[Strip]] = LRUCache(1024)
"""Content given with a share key (the same in every session), drawn once per
width: a LineStatic's renderable (see LineStatic.update), a log line (see
TailLog.write); each keys its entries with its own class."""

REWRAP_WRITES = 200
"""A log's newest writes that a change of its width wraps again (older lines keep their wrapping)."""


class LineStatic(DirectLines, Static):
    """A ``Static`` for often-changing lines (a table's header, countdown and
    prompt; the lobby's head and side pane; every screen's key bar): drawn as
    :class:`DirectLines`. A ``rich.text.Text`` (or a string, literally) is
    wrapped to the width and cached process-wide; another Rich renderable (a
    ``Group``, a ``Table``) is rendered once per update and width. Textual
    keeps the usual content for sizing (``width: auto``) and for readers of
    the widget. Left and right padding and a border are drawn; top or bottom
    padding falls back to Textual's drawing."""

    _text: Text = Text("")
    _renderable: RenderableType | None = None  # not a Text: rendered by Rich as it is
    _share: Hashable = None  # the renderable's key in _SHARED_LINES (the same in every session)
    _drawn: tuple[int, Style, list[Strip]] | None = None

    def __init__(self, content: Any = "", *, pack: tuple[str, ...] = (), fit: bool = False, **kw: Any) -> None:
        """``pack``: separators of items that a wrapped line breaks between, not
        inside (a prompt's "· waiting for 4 of 4" moves to the next line whole).
        ``fit``: when the wrapped lines would not all fit in the widget's height,
        each line is cut to one screen line ending in "…" instead (a table's
        prompt box: a long status line wrapped pushed the choices out of it)."""
        super().__init__(content, **kw)
        self._pack = pack
        self._fit = fit
        self._take(content)

    def _take(self, content: Any, share: Hashable = None) -> None:
        self._drawn = None
        self._renderable = None
        self._share = share
        if isinstance(content, Text):
            self._text = content
        elif isinstance(content, str):
            self._text = Text(content)
        else:
            self._renderable = content

    def update(self, content: Any = "", *, layout: bool = True, share: Hashable = None) -> None:
        """Show ``content``. ``share``: a key that stands for a renderable (not a
        ``Text``) in every session, so that it is rendered once for all of them."""
        self._take(content, share)
        super().update(content, layout=layout)

    def render_line(self, y: int) -> Strip:
        width = self.line_size.width
        base = self.line_style
        drawn = self._drawn
        if drawn is None or drawn[0] != width or drawn[1] != base:
            strips: list[Strip] = []
            if width > 0 and self._renderable is not None:
                shared = None if self._share is None else (LineStatic, self._share, width, base)
                found = None if shared is None else _SHARED_LINES.get(shared)
                if found is None:
                    console = self.app.console
                    lines = console.render_lines(self._renderable, console.options.update_width(width), pad=False)
                    found = [Strip(line).crop_extend(0, width, base).apply_style(base) for line in lines]
                    if shared is not None:
                        _SHARED_LINES[shared] = found
                strips = found
            elif width > 0:
                text = self._text.copy()
                text.end = ""
                wrapped = wrapped_strips(self, text, max(1, width), seps=self._pack)
                if self._fit and len(wrapped) > self.content_size.height > 0:
                    wrapped = wrapped_strips(self, self._cut_to_fit(text, max(1, width)), max(1, width), seps=self._pack)
                strips = [strip.crop_extend(0, width, base).apply_style(base) for strip in wrapped]
            drawn = self._drawn = (width, base, strips)
        strips = drawn[2]
        return strips[y] if y < len(strips) else Strip.blank(width, base)


    def _cut_to_fit(self, text: Text, width: int) -> Text:
        """``text`` with as few of its lines cut to one screen line as makes it fit
        the height: the line that wraps to the most rows first (the earlier of
        equals), so that a picker's choices keep their second row while its
        hint of keys is cut; every line cut if that is still too tall."""
        height = self.content_size.height
        lines = text.split("\n", allow_blank=True)
        rows = [len(wrapped_strips(self, line, width, seps=self._pack)) for line in lines]
        while sum(rows) > height:
            longest = max(range(len(lines)), key=lambda k: (rows[k], -k))
            if rows[longest] <= 1:
                break
            lines[longest].truncate(width, overflow="ellipsis")
            rows[longest] = 1
        if sum(rows) > height:
            return cut_lines(text, width)
        return Text("\n", end="").join(lines)


class KeyBar(LineStatic):
    """One line of ``key label`` pairs for the current screen, clickable.

    Only actions the screen allows right now (``check_action``) are shown;
    ones it reports as disabled (``None``) are shown dimmed. When the line is
    too narrow it tightens (:data:`BAR_STEPS`): less padding, then disabled
    items dropped and the keys that another key already offers left out
    (:data:`SPARE_ACTIONS`), then whole keys that the screen says elsewhere
    (:data:`DROPPED_FIRST`), packed closer, fewer keys again
    (:data:`DROPPED_LAST`), and only under 60 columns labels
    (:data:`UNLABELLED_FIRST`). Drawn as a :class:`LineStatic` (every screen
    has one, redrawn as its keys change).
    """

    DEFAULT_CSS = """
    KeyBar { height: 1; width: 1fr; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__("", markup=False, **kw)
        self._spans: list[tuple[int, int, str]] = []
        self._last: tuple[Any, list[KeySpec], Lang] | None = None
        self._shown = Text("")
        self.pairs: tuple[tuple[str, str], ...] = ()
        """The keys shown now, each with its label ("" where it has none)."""

    def show(self, node: Any, keys: list[KeySpec], lang: Lang) -> None:
        self._last = (node, keys, lang)
        items: list[tuple[str, str, str, bool]] = []  # key, label, action, enabled
        for key, action, label_key in keys:
            name = action.removeprefix("app.")
            target = node.app if action.startswith("app.") else node
            allowed = target.check_action(name, ())
            if allowed is False:
                continue
            items.append((key, t(label_key, lang), action, bool(allowed)))
        room = self.size.width or self.app.size.width
        bar_key = (tuple(items), room)
        laid = _BARS.get(bar_key)  # the same keys in every session at a table
        if laid is None:
            for step in BAR_STEPS:
                laid = self._layout(items, step)
                if laid[0].cell_len <= room:
                    break
            assert laid is not None
            _BARS[bar_key] = laid
        text, spans, self.pairs = laid
        self._spans = spans
        if text is not self._shown and text != self._shown:  # the same bar again: no repaint
            self._shown = text
            self.update(text, layout=False)

    @staticmethod
    def _layout(items: list[tuple[str, str, str, bool]], step: BarStep) -> LaidBar:
        spacing, drop_disabled, dropped, unlabelled = step
        text = Text(" " if spacing == 2 else "", no_wrap=True, overflow="ellipsis", end="")
        spans: list[tuple[int, int, str]] = []
        pairs: list[tuple[str, str]] = []
        x = text.cell_len
        for key, label, action, allowed in items:
            if (drop_disabled and not allowed) or _in_group(dropped, key, action):
                continue
            start = x
            key_part = key if spacing == 2 else f" {key} "
            if _in_group(unlabelled, key, action):
                label_part, label = " ", ""
            else:
                label_part = (f" {label}  ", f"{label} ", f" {label} ")[spacing]
            text.append(key_part, style="reverse bold" if allowed else "reverse dim")
            text.append(label_part, style="" if allowed else "dim")
            pairs.append((key, label))
            x += cell_len(key_part) + cell_len(label_part)
            if allowed:
                spans.append((start, x, action))
        return text, spans, tuple(pairs)

    def on_resize(self) -> None:
        if self._last is not None:
            self.show(*self._last)

    def plain(self) -> str:
        """The bar as plain text (for tests and screen readers)."""
        return str(self.render())

    async def on_click(self, event: events.Click) -> None:
        for start, end, action in self._spans:
            if start <= event.x < end:
                event.stop()
                await self.app.run_action(action, self.screen)
                return


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
        lines = None if share is None else _SHARED_LINES.get(key)
        if lines is None:
            text = Text(content) if isinstance(content, str) else content.copy()
            text.expand_tabs()
            lines = self._wrap(text, width, wrap=self.wrap)
            if share is not None:
                _SHARED_LINES[key] = lines
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

    def _wrap(self, text: Text, width: int, *, wrap: bool) -> list[Strip]:
        """``text`` (a copy with tabs expanded) as lines for a log ``width``
        wide: the rightmost column is the scroll indicator."""
        text.end = ""
        return wrapped_strips(self, text, max(self.min_width, width - 1), wrap=wrap)

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
        text = " " + "  ".join(fit(cell, w) for cell, w in zip(cells, self._fitted(width), strict=False))
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


@lru_cache(maxsize=64)
def _blank(width: int, base: Style) -> Strip:
    return Strip.blank(width, base)


@lru_cache(maxsize=64)
def _bar(mark: str, base: Style) -> Strip:
    return Strip([Segment(mark, base + _BAR_STYLE)], 1)


_BAR_STYLE = Style(dim=True)


class SteadyInput(Input):
    """A text field whose cursor does not blink. Over SSH a blink is a repaint
    and a frame sent every 0.5 s for as long as a field has focus, in every
    session; the steady cursor (reverse video) shows the same place."""

    cursor_blink: Reactive[bool] = Reactive(False, init=False)

    def render_line(self, y: int) -> Strip:
        """Textual's line, with a placeholder wider than the field cut to end in
        "…" (Textual cuts it anywhere: "the code friends type to" on a narrow
        dialog)."""
        hint = self.placeholder
        if y != 0 or self.value or not hint:
            return super().render_line(y)
        room = self.scrollable_content_region.width
        if room <= 0 or cell_len(hint) <= room:
            return super().render_line(y)
        self.set_reactive(Input.placeholder, clip(hint, room))  # for this drawing only
        try:
            return super().render_line(y)
        finally:
            self.set_reactive(Input.placeholder, hint)

    def _on_paste(self, event: events.Paste) -> None:
        """A paste of several lines is one line, its lines joined by spaces, and
        one longer than the room the length limit leaves is cut to fit.
        Textual's handler (which runs next, with the text changed) took the
        first line only, and dropped it whole, silently, when it did not fit."""
        if not event.text:
            return
        lines = event.text.splitlines() or [""]
        line = lines[0] if len(lines) == 1 else " ".join(part.strip() for part in lines if part.strip())
        event.text = line
        if not self.max_length:
            return
        start, end = sorted(self.selection)
        room = max(0, self.max_length - (len(self.value) - (end - start)))
        if len(line) > room:
            event.text = line[:room]
            self.cut_short()

    def cut_short(self) -> None:
        """Text typed or pasted went past ``max_length`` and was left out."""


class ChatInput(DirectRender, SteadyInput):
    """The chat line. Textual's ``Input`` re-lays out the whole screen on every
    keystroke (its ``virtual_size`` follows the text and is declared
    ``layout=True``); the chat line's own size never changes, so here a key
    repaints only the line (measured: one layout plus a full-screen redraw per
    key at a busy table otherwise). Its repaints reach the screen directly
    (:class:`ScreenRepaint`), and it keeps its ``Changed`` messages to itself:
    nobody reads them, and each bubbled through four nodes per key.

    Drawn as :class:`DirectRender`: the text, the cursor and the placeholder
    are put together as segments (:meth:`render_line`), not through Rich's
    console and Textual's per-line style pipeline, which cost ~0.6 ms a key at
    a busy table (``./manage bench screens --widgets``: 10% of the server's
    CPU with three typists per room). A selection, a suggestion, a password, a
    highlighter, tabs or control characters go Textual's way."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def restricted(self) -> None:
        """Textual rings the bell for a key it refused; one refused because the
        line is full is said (the player kept typing into a line that took
        nothing, and learnt it only from the line sent)."""
        if self.max_length and len(self.value) >= self.max_length:
            self.cut_short()
        else:
            super().restricted()

    def cut_short(self) -> None:
        """Tell the player the line holds no more (once while it is shown: a held key is one notice)."""
        app = self.app
        lang = getattr(app, "lang", "en")
        text = t("chat.full", lang if lang in LANGS else "en", max=str(self.max_length))
        if not any(shown.message == text for shown in app._notifications):
            app.notify(text, severity="warning", markup=False)

    _line_key: tuple[Any, ...] = ()
    _line: Strip | None = None
    _parts_key: tuple[Any, ...] = ()
    _parts: tuple[Style, Style, Style]

    def post_message(self, message: Message) -> bool:
        if isinstance(message, Input.Changed):
            return True
        return super().post_message(message)

    # A key's edit sets the value, the virtual size and the selection: three
    # reactives, each repainting the line (each repaint clears caches and marks
    # the screen) and the selection's watcher asking the scroll machinery
    # whether the cursor is in view. Here one edit is one repaint, and a cursor
    # in view of an unscrolled line needs no scrolling (an edit took 1.25 ms
    # under cProfile, now 1.17: most of it is Textual's reactives). The state
    # after each key is Textual's (tests/tui/test_chat_input.py types the same
    # keys into an Input).
    _editing = 0
    _edit_repaint = False

    def replace(self, text: str, start: int, end: int) -> None:
        value = self.value
        start, end = sorted((max(0, start), min(len(value), end)))
        if self._edit_in_place(f"{value[:start]}{text}{value[end:]}", start + len(text)):
            return
        self._editing += 1
        try:
            super().replace(text, start, end)
        finally:
            self._editing -= 1
            if not self._editing and self._edit_repaint:
                self._edit_repaint = False
                super().refresh()

    def _edit_in_place(self, value: str, cursor: int) -> bool:
        """The common edit (a key typed or deleted with the line unscrolled and
        the cursor in view after it) without Textual's reactives: the same value,
        selection, virtual size and terminal cursor that :meth:`Input.replace`
        leaves, one repaint. Setting those reactives (their watchers, validators
        and compute passes) was most of an edit's CPU: 4.6 of the 5.5% of the
        server's samples the chat line's edits took under the load benchmark;
        an edit alone took 188-219 us, now 68-107 (``bench/chat_edits.py``). Anything
        else (text over the length limit, a restriction, validators, a
        suggester, a first value, a line that has to scroll) goes Textual's
        way: False."""
        if (
            (self.max_length and len(value) > self.max_length)
            or self.restrict
            or self.type != "text"
            or self.validators
            or self.suggester is not None
            or self.password
            or self.highlighter is not None
            or (self.placeholder and not value)
            or self.styles.auto_dimensions
            or self._suggestion
            or not value.isprintable()
            # the cursor's cell in the new text (Input._cursor_offset, no tabs here)
            or not self._in_view_unscrolled(cell_len(value[:cursor]) + (1 if cursor == len(value) else 0))
        ):
            return False
        self.set_reactive(Input.value, value)
        self.set_reactive(Input.selection, Selection.cursor(cursor))
        self.set_reactive(Widget.virtual_size, Size(cell_len(value) + 1, 1))
        self._place_cursor()
        super().refresh()
        return True

    def _in_view_unscrolled(self, offset: int) -> bool:
        """The line is not scrolled and shows a cursor at cell ``offset``: no
        scrolling to do (Textual's selection watcher asks the scroll machinery)."""
        if self._initial_value or self.scroll_x or self.scroll_y:
            return False
        window = self.scrollable_content_region
        return 0 <= offset < window.width and window.height > 0

    def _place_cursor(self) -> None:
        """What Textual's selection watcher does besides scrolling."""
        self.app.clear_selection()
        self.app.cursor_position = self.cursor_screen_offset

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self._editing and repaint and not (regions or layout or recompose):
            self._edit_repaint = True  # once, when the edit is done
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _watch_selection(self, selection: Selection) -> None:
        if self._in_view_unscrolled(self._cursor_offset):
            self._place_cursor()
            return
        super()._watch_selection(selection)

    def _part_styles(self, base: Style, focus: bool) -> tuple[Style, Style, Style]:
        """The cursor's, the placeholder's and the cursor on the placeholder's
        styles over ``base``, looked up again
        only when a style of the field or an ancestor changed (Textual's own cache
        of component styles is emptied often: ~0.2 ms a lookup at a busy table)."""
        key = (self._style_key, base, focus)
        if key != self._parts_key:
            cursor = self.get_component_rich_style("input--cursor")
            hint = base + self.get_component_rich_style("input--placeholder")
            self._parts_key, self._parts = key, (base + cursor, hint, hint + cursor)
        return self._parts

    def render_line(self, y: int) -> Strip:
        width = self.line_size.width
        base = self.line_style
        if y != 0 or width <= 0:
            return Strip.blank(max(0, width), base)
        value = self.value
        focus = self.has_focus
        selection = self.selection
        if (
            self.password
            or self.highlighter is not None
            or not (value.isprintable() and self.placeholder.isprintable())
            or (focus and (not selection.is_empty or len(self._suggestion) > len(value)))
        ):
            self._line_key = ()
            return super().render_line(y)  # Textual's drawing
        scroll_x = int(self.scroll_offset.x)
        cursor_shown = focus and self._cursor_visible
        key = (width, base, self._style_key, value, selection.end, scroll_x, cursor_shown, self.placeholder)
        if key == self._line_key and self._line is not None:
            return self._line  # the same strip: DirectRender keeps its drawn copy
        cursor_style, hint_style, hint_cursor = self._part_styles(base, focus)
        if value:
            if cursor_shown:
                at = selection.end
                segments = [Segment(value[:at], base), Segment(value[at : at + 1] or " ", cursor_style)]
                if at + 1 < len(value):
                    segments.append(Segment(value[at + 1 :], base))
            else:
                segments = [Segment(value, base)]
            line = Strip(segments).crop(scroll_x, scroll_x + width + 1)
        else:
            hint = clip(self.placeholder, width)  # a hint too long ends in "…", not mid-word
            if cursor_shown:
                first = hint[:1] or " "
                segments = [Segment(first, hint_cursor), Segment(hint[1:], hint_style)]
            else:
                segments = [Segment(hint, hint_style)]
            line = Strip(segments).crop(0, width + 1)
        # a cell wider than the content, as Input draws it (its scrolling counts on
        # it); the padding is drawn over, and DirectRender cuts the line to the widget
        line = line.extend_cell_length(width + 1, base)
        self._line_key, self._line = key, line
        return line


def chat_text(line: ChatLine, lang: Lang = "en") -> Text:
    """One chat line, every user-provided part literal. A system line the
    catalogue knows (``line.key``) is said in ``lang``, else its English text."""
    if line.system:
        said = system_line(line.key, line.params, lang) if line.key else None
        return Text.assemble((clock(line.at), "dim"), " ", ("* " + (said or line.text), "italic"))
    return Text.assemble((clock(line.at), "dim"), " ", (line.name, "bold"), t("punct.colon", lang), line.text)


class PaneBox(DirectRender, Vertical):
    """A container drawn as :class:`DirectRender`: its border (a ``.pane``)
    from Textual, its inside blank in its own style (its children cover it).
    Textual drew every line of a bordered container through its per-line
    pipeline on every full frame (a lobby's chat pane: ~1 ms of a login)."""

    FOCUS_DRAWN = False

    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.line_size.width, self.line_style)


class ChatPanel(PaneBox):
    """Chat lines (appended incrementally) and an input line."""

    DEFAULT_CSS = """
    ChatPanel { height: 1fr; }
    ChatPanel > TailLog { height: 1fr; }
    ChatPanel > Input { height: 1; border: none; padding: 0 1; }
    ChatPanel > Input:focus { border: none; background: $boost; text-style: bold; }
    """

    MAX_LINES = 300

    class Send(Message):
        """The player submitted a chat line (the chat line is empty again:
        :meth:`ChatPanel.keep` puts a refused one back)."""

        def __init__(self, panel: ChatPanel, text: str) -> None:
            super().__init__()
            self.panel = panel
            self.text = text

    def keep(self, text: str) -> None:
        """A line the host refused goes back into the chat line, unless the player typed on."""
        if not self._input.value:
            self._input.value = text
            self._input.cursor_position = len(text)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._last: tuple[float, str, str, bool] | None = None
        self._lang: Lang | None = None  # the language the shown lines are in
        # Made here, not in compose, so a screen may fill the panel (placeholder,
        # lines) in its own on_mount before the panel's children are mounted.
        self._log = TailLog(max_lines=self.MAX_LINES, wrap=True, markup=False, min_width=10)
        self._input = ChatInput(max_length=CHAT_MAX, id=f"{self.id or 'chat'}-input")

    def compose(self) -> ComposeResult:
        yield self._log
        yield self._input

    @property
    def log_widget(self) -> TailLog:
        return self._log

    @property
    def input(self) -> Input:
        return self._input

    def set_placeholder(self, text: str) -> None:
        self.input.placeholder = text

    def set_lines(self, lines: list[ChatLine], lang: Lang | None = None) -> None:
        """Show ``lines`` (the host's whole recent chat), writing only new ones;
        system lines in ``lang`` (default: the app's language). A new language
        writes every line again."""
        if lang is None:
            app_lang = getattr(self.app, "lang", "en")
            lang = app_lang if app_lang in LANGS else "en"
        keys = [(ln.at, ln.name, ln.text, ln.system) for ln in lines]
        start = 0
        if lang != self._lang:
            self._lang = lang
            if self._last is not None:
                self.log_widget.clear()
                self._last = None
        if self._last is not None:
            try:
                start = len(keys) - 1 - keys[::-1].index(self._last) + 1
            except ValueError:
                self.log_widget.clear()
                start = 0
        self.log_widget.write_lines((chat_text(line, lang), None) for line in lines[start:])
        if keys:
            self._last = keys[-1]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Send(self, text))


class TickBox(Checkbox, inherit_bindings=False):
    """A checkbox whose mark is visible without colour: ``[X]`` on, ``[ ]`` off.
    Space ticks it; Enter is the form's (its key bar says "Enter OK": a host
    who unticked Private with Space and pressed Enter ticked it again)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "toggle_button", show=False)]
    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    def __init__(self, label: str = "", value: bool = False, **kw: Any) -> None:
        super().__init__(label, value, **kw)
        self.BUTTON_INNER = "X" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()


_textual_move_page = OptionList._move_page


def _move_page(self: OptionList, direction: Literal[-1, 1]) -> None:
    """Textual's Page Up / Page Down in an option list (a drop-down's), but not
    on a list that has laid out no lines: with no room (a terminal made very
    small) it looked the highlighted option up among none (KeyError, a session
    crash seen over ssh)."""
    if not self._lines or (self.highlighted or 0) not in self._index_to_line:
        return
    _textual_move_page(self, direction)


def guard_option_lists() -> None:
    """Install :func:`_move_page` (idempotent)."""
    OptionList._move_page = _move_page  # type: ignore[method-assign]


_textual_on_event = Widget.on_event


async def _on_event(self: Widget, event: events.Event) -> None:
    """Textual's, but a screen, or a widget of a screen, that was taken off the
    stack (or whose app is exiting) before its own message loop got to its
    Mount skips its mount handlers: they filled widgets already taken down or
    mounted onto it, and what they raised was logged as the session's crash. A
    key that opens a dialog and Escape right behind it on a busy server, or the
    player's connection dropping just then: the dialog itself (its key bar
    mounted onto it, "Can't mount widget(s) before ... is mounted"), or, closed
    a few steps later, its drop-downs (Textual's ``Select`` looked up parts
    already removed: NoMatches)."""
    if type(event) is events.Mount:
        try:
            screen = self.screen
        except NoScreen:
            pass
        else:
            if not (screen.is_attached and screen in self.app.screen_stack):
                return
    await _textual_on_event(self, event)


def guard_widget_mounts() -> None:
    """Install :func:`_on_event` (idempotent)."""
    Widget.on_event = _on_event  # type: ignore[method-assign,assignment]
