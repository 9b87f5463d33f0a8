"""Help (F1): the keys of every screen and a rules summary of each game.

:class:`HelpDialog` is the frame every help shares (a title, the text in a
scrolling pane, a foot line and a key bar); the lobby's and the room's help is
:class:`HelpScreen`; each game's table has its own (``tui/sultans/help.py``,
``tui/overlord/help.py``).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from protocol.i18n import game_title
from tui.games import game_ui
from tui.screens.base import HostModal
from tui.text import Packed
from tui.widgets import KeySpec


class HelpDialog(HostModal[None]):
    """A scrollable help text in the player's language; Escape, q or F1 closes it.

    Subclasses give :attr:`TITLE_KEY` and :meth:`body`; the text is made again
    after a language switch. ``text`` is the whole help as shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
        # a modal screen shuts out the app's bindings: F1 (the app's help key) closes here
        Binding("f1", "close", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("↑↓", "page_down", "key.scroll"),
        ("Esc", "close", "key.close"),
    ]
    TITLE_KEY: ClassVar[str] = "help.title"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(classes="dialog-screen", id=id)
        self.text = Text()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static("", id="help-title", classes="dialog-title", markup=False)
            with VerticalScroll(id="help-body"):
                yield Static("", id="help-text", markup=False)
            yield Static("", id="help-foot", markup=False)

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one("#help-body").focus()

    def apply_lang(self) -> None:
        self.query_one("#help-title", Static).update(Text(self.tr(self.TITLE_KEY), style="bold"))
        self.text = self.body()
        self.query_one("#help-text", Static).update(Packed(self.text))  # lists break between items
        self.query_one("#help-foot", Static).update(Text(self.tr("help.foot"), style="dim"))

    def body(self) -> Text:
        """The help text in the player's language."""
        raise NotImplementedError

    def section(self, text: Text, title: str, body: str | Text) -> None:
        """Append a titled section to ``text``."""
        text.append(title + "\n", style="bold underline")
        if isinstance(body, Text):
            text.append_text(body)
            text.append("\n\n")
        else:
            text.append(body + "\n\n")

    def table_keys(self, key: str, *, watching: bool) -> str:
        """A table's keys (catalogue ``key``, its last line the keys of every
        screen). A spectator gets that line alone, without the host's p/o and
        with Escape that stops watching: it plays nothing and keeps no seat."""
        if not watching:  # and what leaving the match, stand-ins and the seats' marks mean
            return self.tr(key, leave=self.tr("table.help.leave")) + "\n" + self.tr("table.help.standin")
        general = self.tr(key, leave=self.tr("table.help.leave_watching")).split("\n")[-1]
        return " · ".join(item for item in general.split(" · ") if not item.startswith("p "))

    def action_page_down(self) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        if body.scroll_y >= body.max_scroll_y:
            body.scroll_home(animate=False)  # at the end, a click starts again at the top
        else:
            body.scroll_page_down(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(HelpDialog):
    """The keys of every screen and a rules summary of each game offered."""

    def body(self) -> Text:
        text = Text()
        self.section(text, self.tr("help.keys.title"), self.tr("help.keys"))
        self.section(text, self.tr("help.leaders.title"), self.tr("help.leaders"))
        for gid, _title, lo, hi in self.throne.lobby.games():
            title = self.tr("help.game.title", game=game_title(gid, self.lang), lo=lo, hi=hi)
            ui = game_ui(gid)
            self.section(text, title, ui.help_text(self.lang) if ui is not None else self.tr("help.game.none"))
        return text
