"""A node's screen, found without Textual's per-step overhead.

``DOMNode.screen`` walks up a node's parents to the first ``Screen``; each
step goes through the ``_parent`` property (a weak reference, dereferenced)
and every call imports ``Screen`` again. It runs for every ``Widget.size``
and ``region`` (each widget drawn, each refresh and each log line written),
~4.5% of the CPU while bots play (py-spy on ``./manage bench screens
--seated 5``, the play phase), about 4.6 us for a widget three levels down.
The walk here reads the weak references directly (1.3 us): the same screen,
and the same ``NoScreen`` when there is none.

:func:`install` applies it only if Textual's property and ``_parent`` are the
ones this was written against (their source is checked); otherwise Textual's
own is kept.
"""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode, NoScreen
from textual.message_pump import MessagePump
from textual.screen import Screen

from tui.runtime.textual_source import same_source

TEXTUAL_SOURCE_SHA = {"screen": "df1e2422", "_parent": "f3133216"}
"""The first digits of the SHA-256 of the Textual code this reproduces."""

_ORIGINAL = DOMNode.screen


def _screen(self: DOMNode) -> Screen[object]:
    node: Any = self
    while not isinstance(node, Screen):
        try:
            parent = node._MessagePump__parent  # what MessagePump._parent dereferences
        except AttributeError:
            raise RuntimeError(
                "Widget is missing attributes; have you called the constructor in your widget class?"
            ) from None
        node = None if parent is None else parent()
        if node is None:
            raise NoScreen("node has no screen")
    return node


def compatible() -> bool:
    """Whether Textual's ``screen`` and ``_parent`` are the ones this reproduces."""
    screen: Any = _ORIGINAL
    parent: Any = MessagePump._parent
    return same_source(screen.fget, TEXTUAL_SOURCE_SHA["screen"]) and same_source(
        parent.fget, TEXTUAL_SOURCE_SHA["_parent"]
    )


def install() -> bool:
    """Use the quicker walk (once per process); False if Textual's code differs."""
    if DOMNode.screen.fget is _screen:  # type: ignore[attr-defined]
        return True
    if not compatible():
        return False
    DOMNode.screen = property(_screen)  # type: ignore[assignment,method-assign]
    return True
