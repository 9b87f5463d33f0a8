"""TickBox: a checkbox whose mark is visible without colour."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Checkbox


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
