"""F1 at the Kill the Overlord table: your role and hand with their rules, every
role at the table, the plot cards, the table's keys and signs, and the game's
rules, in the player's language.

Only what the seat's view holds is shown: roles are public, a hand is its
owner's (a spectator's view has none)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text

from engine.overlord.rules import RuleSet, load_ruleset
from engine.overlord.views import OverlordView, SeatView
from tui.overlord.catalogue import CARDS_EN
from tui.overlord.pick import KIND_KEYS
from tui.overlord.ui import help_text
from tui.overlord.words import card_str, effect_str, role_str
from tui.screens.help import HelpDialog


def income_str(income: int) -> str:
    return f"{income:+d}" if income else "0"


class OverlordHelp(HelpDialog):
    """Scrollable help; Escape, q or F1 closes it."""

    TITLE_KEY: ClassVar[str] = "ov.help.title"

    def __init__(self, view: OverlordView | None) -> None:
        super().__init__(id="overlord-help")
        self.view = view

    def body(self) -> Text:
        text = Text()
        ov = self.view
        me = ov.seats[ov.me] if ov is not None and ov.me is not None and ov.me < len(ov.seats) else None
        if ov is None or me is None:
            text.append(self.tr("ov.help.watching") + "\n\n", style="italic")
        else:
            self.section(text, self._role_text("ov.help.your_role", me), self.tr(f"ov.rolerule.{me.role}"))
            self.section(text, self.tr("ov.help.your_hand"), self._hand(ov.hand or []))
        if ov is not None:
            self.section(text, self.tr("ov.help.roles_title"), self._roles(ov.seats))
        self.section(text, self.tr("ov.help.cards_title"), self._cards())
        self.section(text, self.tr("ov.help.uprising_title"), self._uprising())
        keys = self.table_keys("ov.help.keys", watching=me is None)
        if me is not None:
            keys = " · ".join(f"{key} {self.tr(f'ov.key.{kind}')}" for kind, key in KIND_KEYS.items()) + "\n" + keys
        self.section(text, self.tr("ov.help.keys_title"), keys)
        self.section(text, self.tr("ov.help.legend_title"), self.tr("ov.help.legend"))
        if ov is not None:
            rules = self.tr("help.game.overlord", crown=self.tr("help.game.crown", n=ov.coronation))
        else:
            rules = help_text(self.lang)
        self.section(text, self.tr("ov.help.game_title"), rules)
        return text

    def _role_text(self, key: str, sv: SeatView) -> str:
        """``key``'s text for ``sv``'s role, rank and income."""
        return self.tr(key, role=role_str(sv.role, self.lang), rank=sv.rank, income=income_str(sv.income))

    def _hand(self, hand: list[str]) -> Text:
        if not hand:
            return Text(self.tr("ov.help.hand_empty"), style="dim", end="")
        lines = Text(end="")
        for i, card in enumerate(sorted(set(hand), key=hand.index)):
            if i:
                lines.append("\n")
            count = hand.count(card)
            lines.append(card_str(card, self.lang) + (f" ×{count}" if count > 1 else ""), style="bold")
            lines.append(" " + effect_str(card, self.lang))
        return lines

    def _roles(self, seats: list[SeatView]) -> Text:
        """Every role at the table (each seat's, an executed seat's in the centre), highest rank first."""
        lines = Text(end="")
        seen: set[str] = set()
        for sv in sorted(seats, key=lambda s: -s.rank):
            if sv.role in seen:
                continue
            if seen:
                lines.append("\n")
            seen.add(sv.role)
            lines.append(self._role_text("ov.help.role_line", sv), style="bold")
            lines.append(self.tr(f"ov.rolerule.{sv.role}"))
        return lines

    def _ruleset(self) -> RuleSet:
        """The table's rule set (the house one when it cannot be read)."""
        try:
            return load_ruleset(self.view.ruleset if self.view is not None else "house")
        except ValueError:
            return load_ruleset()

    def _cards(self) -> Text:
        """Every kind of plot card, by name (unbracketed: a bracketed card on a
        screen means one the seat knows of), its symbol (shield or book, from
        the rule set: an Uprising and the desperation cards turn on them) and effect."""
        symbols = {c.token: c.symbol for c in self._ruleset().cards}
        lines = Text(end="")
        for i, card in enumerate(CARDS_EN):
            if i:
                lines.append("\n")
            symbol = symbols.get(card)
            name = self.tr(f"ov.card.{card}")
            if symbol is not None:
                name = self.tr("ov.help.card_symbol", card=name, symbol=self.tr(f"ov.symbol.{symbol}"))
            lines.append(name + self.tr("punct.colon"), style="bold")
            lines.append(effect_str(card, self.lang))
        return lines

    def _uprising(self) -> str:
        """K-CARD-UPRISING: what "the next book card" is, the book cards named."""
        books = [c.token for c in self._ruleset().cards if c.symbol == "book"]
        return self.tr("ov.help.uprising", books=self.tr("punct.list").join(self.tr(f"ov.card.{b}") for b in books))
