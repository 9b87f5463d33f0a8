"""Widgets shared by the screens, a widget per module.

``direct`` is the line renderer most of them draw through (finished lines, not
Textual's per-line style pipeline); every widget renders user-provided text
literally (``rich.text.Text``), never as markup.
"""

from tui.widgets.chat import ChatInput, ChatPanel, chat_text
from tui.widgets.direct import (
    DirectLines,
    DirectRender,
    ScreenRepaint,
    text_key,
    text_strip,
    wrapped_strips,
)
from tui.widgets.keybar import KeyBar, KeySpec
from tui.widgets.linestatic import LineStatic
from tui.widgets.panebox import PaneBox
from tui.widgets.rowlist import Marked, RowList
from tui.widgets.steadyinput import SteadyInput
from tui.widgets.taillog import TailLog
from tui.widgets.tickbox import TickBox

__all__ = [
    "ChatInput",
    "ChatPanel",
    "DirectLines",
    "DirectRender",
    "KeyBar",
    "KeySpec",
    "LineStatic",
    "Marked",
    "PaneBox",
    "RowList",
    "ScreenRepaint",
    "SteadyInput",
    "TailLog",
    "TickBox",
    "chat_text",
    "text_key",
    "text_strip",
    "wrapped_strips",
]
