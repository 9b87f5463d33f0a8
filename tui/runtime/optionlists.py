"""Page Up / Page Down in an option list with no lines laid out (a patch of Textual's OptionList)."""

from __future__ import annotations

from typing import Literal

from textual.widgets import OptionList

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
