"""F1 at the Sultans table: the rules of the card you hold, the table's keys and
signs, and the game's rules, in the player's language."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from tui.screens.base import HostModal
from tui.sultans.words import card_rules, card_text


class SultansHelp(HostModal[None]):
    """Scrollable help; Escape, q or F1 closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("q", "close", show=False),
        Binding("f1", "close", show=False),
    ]

    def __init__(self, card: str | None) -> None:
        super().__init__(classes="dialog-screen", id="sultans-help")
        self.card = card
        self.text = Text()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Static("", id="skh-title", classes="dialog-title", markup=False)
            with VerticalScroll(id="skh-body"):
                yield Static("", id="skh-text", markup=False)
            yield Static("", id="skh-foot", markup=False)

    def on_mount(self) -> None:
        self.apply_lang()
        self.query_one("#skh-body").focus()

    def apply_lang(self) -> None:
        lang = self.lang
        self.query_one("#skh-title", Static).update(Text(self.tr("sk.help.title"), style="bold"))
        text = Text()
        if self.card is not None:
            head = Text(self.tr("sk.help.your_card", card="") , style="bold underline")
            text.append_text(head)
            text.append_text(card_text(self.card, lang))
            text.append("\n" + card_rules(self.card, lang) + "\n\n")
        else:
            text.append(self.tr("sk.help.no_card") + "\n\n", style="italic")
        text.append(self.tr("sk.help.keys_title") + "\n", style="bold underline")
        text.append(self.tr("sk.help.keys") + "\n\n")
        text.append(self.tr("sk.help.legend_title") + "\n", style="bold underline")
        text.append(self.tr("sk.legend") + "\n" + self.tr("sk.legend.tokens") + "\n" + self.tr("sk.legend.private") + "\n\n")
        text.append(self.tr("sk.help.game_title") + "\n", style="bold underline")
        text.append(self.tr("help.game.sultans") + "\n")
        self.text = text
        self.query_one("#skh-text", Static).update(text)
        self.query_one("#skh-foot", Static).update(Text(self.tr("help.foot"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)
