"""Mount handlers skipped on a screen already taken off the stack (a patch of Textual's Widget.on_event)."""

from __future__ import annotations

from textual import events
from textual.dom import NoScreen
from textual.widget import Widget

_textual_on_event = Widget.on_event


async def _on_event(self: Widget, event: events.Event) -> None:
    """Textual's, but a screen, or a widget of a screen, that was taken off the
    stack (or whose app is exiting) before its own message loop got to its
    Mount skips its mount handlers: they filled widgets already taken down or
    mounted onto it, and what they raised was logged as the session's crash. A
    key that opens a dialog and Escape right behind it on a busy server, or the
    player's connection dropping just then: the dialog itself (its key bar
    mounted onto it, "Can't mount widget(s) before ... is mounted"), or, closed
    a few steps later, its drop-downs (Textual's ``Select`` looked up parts
    already removed: NoMatches)."""
    if type(event) is events.Mount:
        try:
            screen = self.screen
        except NoScreen:
            pass
        else:
            if not (screen.is_attached and screen in self.app.screen_stack):
                return
    await _textual_on_event(self, event)


def guard_widget_mounts() -> None:
    """Install :func:`_on_event` (idempotent)."""
    Widget.on_event = _on_event  # type: ignore[method-assign,assignment]
