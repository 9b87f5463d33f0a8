"""Widgets shared by the screens: a translated key bar and a chat panel.

Both render user-provided text literally (``rich.text.Text``), never as markup.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widgets import Checkbox, Input, RichLog, Static

from tui.client import ChatLine
from tui.i18n import LANGS, Lang, system_line, t
from tui.text import clock

# (key as shown, action to run, catalogue key of its label)
KeySpec = tuple[str, str, str]


MINOR_ACTIONS = {"app.help", "app.toggle_lang", "app.quit_app", "language", "leaders", "chat"}


class KeyBar(Static):
    """One line of ``key label`` pairs for the current screen, clickable.

    Only actions the screen allows right now (``check_action``) are shown;
    ones it reports as disabled (``None``) are shown dimmed. When the line is
    too narrow it tightens: less padding, then disabled items dropped and the
    labels of the always-there keys (help, language, quit) left out.
    """

    DEFAULT_CSS = """
    KeyBar { height: 1; width: 1fr; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__("", markup=False, **kw)
        self._spans: list[tuple[int, int, str]] = []
        self._last: tuple[Any, list[KeySpec], Lang] | None = None
        self._shown = Text("")

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
        for level in range(4):
            text, spans = self._layout(items, level)
            if text.cell_len <= room:
                break
        self._spans = spans
        if text != self._shown:  # the same bar again: no repaint
            self._shown = text
            self.update(text, layout=False)

    @staticmethod
    def _layout(items: list[tuple[str, str, str, bool]], level: int) -> tuple[Text, list[tuple[int, int, str]]]:
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        spans: list[tuple[int, int, str]] = []
        x = 0
        for key, label, action, allowed in items:
            if level >= 2 and not allowed:
                continue
            start = x
            key_part = f" {key} "
            if level >= 3 and action in MINOR_ACTIONS:
                label_part = " "
            else:
                label_part = f" {label}  " if level == 0 else f"{label} "
            text.append(key_part, style="reverse bold" if allowed else "reverse dim")
            text.append(label_part, style="" if allowed else "dim")
            x += cell_len(key_part) + cell_len(label_part)
            if allowed:
                spans.append((start, x, action))
        return text, spans

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


class QuietLog(RichLog):
    """A :class:`RichLog` whose new lines repaint only the log itself.

    A plain ``RichLog`` grows its ``virtual_size`` with every line written,
    and ``virtual_size`` re-lays out the whole screen (Textual declares it
    ``layout=True``) although the log's own size never changes. Here a new
    line only updates the log's scrollbar (its thumb) and repaints the log;
    a real layout still happens when the scrollbar has to appear or vanish
    (``show_vertical_scrollbar`` does that itself) and on resizes.
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def _watch_virtual_size(self, size: Size) -> None:
        if self.is_mounted and self.container_size:
            self._scroll_update(size)


def chat_text(line: ChatLine, lang: Lang = "en") -> Text:
    """One chat line, every user-provided part literal. A system line the
    catalogue knows (``line.key``) is said in ``lang``, else its English text."""
    if line.system:
        said = system_line(line.key, line.params, lang) if line.key else None
        return Text.assemble((clock(line.at), "dim"), " ", ("* " + (said or line.text), "italic"))
    return Text.assemble((clock(line.at), "dim"), " ", (line.name, "bold"), ": ", line.text)


class ChatPanel(Vertical):
    """Chat lines (appended incrementally) and an input line."""

    DEFAULT_CSS = """
    ChatPanel { height: 1fr; }
    ChatPanel > RichLog { height: 1fr; scrollbar-size-vertical: 1; }
    ChatPanel > Input { height: 1; border: none; padding: 0 1; }
    ChatPanel > Input:focus { border: none; background: $boost; text-style: bold; }
    """

    MAX_LINES = 300

    class Send(Message):
        """The player submitted a chat line."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._last: tuple[float, str, str, bool] | None = None
        self._lang: Lang | None = None  # the language the shown lines are in
        # Made here, not in compose, so a screen may fill the panel (placeholder,
        # lines) in its own on_mount before the panel's children are mounted.
        self._log = QuietLog(max_lines=self.MAX_LINES, wrap=True, markup=False, min_width=10)
        self._input = Input(max_length=300, id=f"{self.id or 'chat'}-input")

    def compose(self) -> ComposeResult:
        yield self._log
        yield self._input

    @property
    def log_widget(self) -> RichLog:
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
        for line in lines[start:]:
            self.log_widget.write(chat_text(line, lang))
        if keys:
            self._last = keys[-1]

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Send(text))


class TickBox(Checkbox):
    """A checkbox whose mark is visible without colour: ``[X]`` on, ``[ ]`` off."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    def __init__(self, label: str = "", value: bool = False, **kw: Any) -> None:
        super().__init__(label, value, **kw)
        self.BUTTON_INNER = "X" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()
