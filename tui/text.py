"""Small text helpers: user-provided text is always literal, widths are cell widths.

Everything a player typed (names, chat, room names) reaches the screen through
:func:`literal`, a ``rich.text.Text`` that is never parsed as markup.
Alignment uses terminal cell widths (``rich.cells``), so CJK text lines up.
"""

from __future__ import annotations

import time
import unicodedata

from rich.cells import cell_len, set_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text


def name_key(name: str) -> str:
    """The identity a name stands for: NFKC-normalised and case-folded, so that
    ``Alice``/``alice`` (and ``Émile``/``émile``, full-width letters...) are one
    identity and can never belong to two keys. Rooms and screens compare names with it."""
    return unicodedata.normalize("NFKC", name).casefold()


def literal(text: str, style: str = "") -> Text:
    """``text`` as it is: brackets, backslashes and all, never markup."""
    return Text(text, style=style, no_wrap=False, end="")


def fit(text: str, width: int) -> str:
    """Pad or cut ``text`` to exactly ``width`` terminal cells (cut text ends in ``…``)."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, width - 1) + "…"


def clip(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` terminal cells (cut text ends in ``…``)."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1) + "…"


def clock(at: float) -> str:
    """``HH:MM`` in the server's local time, for chat lines."""
    return time.strftime("%H:%M", time.localtime(at))


def width(text: str) -> int:
    return cell_len(text)


class FirstLines:
    """A Rich renderable: ``text`` wrapped to the width it is given, cut after
    ``lines`` lines (a fixed-height part of a larger renderable)."""

    def __init__(self, text: Text, lines: int) -> None:
        self.text = text
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.text, options, pad=False)[: self.lines]:
            yield from line
            yield Segment.line()
