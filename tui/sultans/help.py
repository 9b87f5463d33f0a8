"""F1 at the Sultans table: the rules of the card you hold, the table's keys and
signs, and the game's rules, in the player's language."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text

from tui.screens.help import HelpDialog
from tui.sultans.render import legend_lines
from tui.sultans.words import card_rules, card_text


class SultansHelp(HelpDialog):
    """Scrollable help; Escape, q or F1 closes it."""

    TITLE_KEY: ClassVar[str] = "sk.help.title"

    def __init__(self, card: str | None) -> None:
        super().__init__(id="sultans-help")
        self.card = card

    def body(self) -> Text:
        lang = self.lang
        text = Text()
        if self.card is not None:
            text.append_text(Text(self.tr("sk.help.your_card", card=""), style="bold underline"))
            text.append_text(card_text(self.card, lang))
            text.append("\n" + card_rules(self.card, lang) + "\n\n")
        else:
            text.append(self.tr("sk.help.no_card") + "\n\n", style="italic")
        self.section(text, self.tr("sk.help.keys_title"), self.table_keys("sk.help.keys", watching=self.card is None))
        legend = "\n".join(line.plain for line in legend_lines(lang, watching=self.card is None))
        self.section(text, self.tr("sk.help.legend_title"), legend)
        self.section(text, self.tr("sk.help.states_title"), self.tr("sk.help.states"))
        self.section(text, self.tr("sk.help.game_title"), self.tr("help.game.sultans"))
        return text
