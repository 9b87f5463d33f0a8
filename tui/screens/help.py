"""Help (F1): the keys of every screen and a rules summary of each game."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tui.i18n import game_title, has_key
from tui.screens.base import HostModal


class HelpScreen(HostModal[None]):
    """Scrollable help in the player's language; Escape or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")
        self.text = Text()  # the whole help, as shown

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
        self.query_one("#help-title", Static).update(Text(self.tr("help.title"), style="bold"))
        text = Text()
        text.append(self.tr("help.keys.title") + "\n", style="bold underline")
        text.append(self.tr("help.keys") + "\n\n")
        for gid, _title, lo, hi in self.throne.lobby.games():
            title = self.tr("help.game.title", game=game_title(gid, self.lang), lo=lo, hi=hi)
            text.append(title + "\n", style="bold underline")
            key = f"help.game.{gid}"
            text.append((self.tr(key) if has_key(key) else self.tr("help.game.none")) + "\n\n")
        self.text = text
        self.query_one("#help-text", Static).update(text)
        self.query_one("#help-foot", Static).update(Text(self.tr("help.foot"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
