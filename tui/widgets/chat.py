"""The chat: its input line, its panel, and how a chat line reads.

Every user-provided part is rendered literally (``rich.text.Text``), never as markup."""

from __future__ import annotations

from typing import Any, Self

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input
from textual.widgets.input import Selection

from protocol.contract import CHAT_MAX, ChatLine
from protocol.i18n import LANGS, Lang, system_line, t
from tui.text import clip, clock
from tui.widgets.direct import DirectRender
from tui.widgets.panebox import PaneBox
from tui.widgets.steadyinput import SteadyInput
from tui.widgets.taillog import TailLog


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
