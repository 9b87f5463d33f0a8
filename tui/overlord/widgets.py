"""Clickable panels of the Kill the Overlord table: the seats and the hand.

They render the lines the screen gives them and report clicks on a line as
the seat or card that line stands for; they hold no game rules.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static


class LinesPanel(Static):
    """Lines of text, each optionally standing for a value a click reports."""

    def __init__(self, **kw: Any) -> None:
        super().__init__("", markup=False, **kw)
        self.lines: list[Text] = []
        self.values: list[object] = []

    class Resized(Message):
        """The panel's size changed: its lines must be made again."""

    def on_resize(self) -> None:
        self.post_message(self.Resized())

    def set_lines(self, lines: list[Text], values: list[object]) -> bool:
        """Show ``lines``; ``values[i]`` is what a click on line i means. False if unchanged."""
        if lines == self.lines and values == self.values:
            return False
        self.lines, self.values = lines, values
        self.update(Text("\n", end="").join(lines), layout=False)
        return True

    def value_at(self, y: int) -> object:
        return self.values[y] if 0 <= y < len(self.values) else None


class SeatsPanel(LinesPanel):
    can_focus = True  # the table's home: focusable as composed, so the screen's auto-focus picks it

    class SeatClicked(Message):
        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def on_click(self, event: events.Click) -> None:
        v = self.value_at(event.y)
        if isinstance(v, int):
            event.stop()
            self.post_message(self.SeatClicked(v))


class HandPanel(LinesPanel):
    class CardClicked(Message):
        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    def on_click(self, event: events.Click) -> None:
        v = self.value_at(event.y)
        if isinstance(v, str):
            event.stop()
            self.post_message(self.CardClicked(v))
