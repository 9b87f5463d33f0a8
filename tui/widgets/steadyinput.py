"""SteadyInput: a text field whose cursor does not blink."""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widgets import Input

from tui.text import clip


class SteadyInput(Input):
    """A text field whose cursor does not blink. Over SSH a blink is a repaint
    and a frame sent every 0.5 s for as long as a field has focus, in every
    session; the steady cursor (reverse video) shows the same place."""

    cursor_blink: Reactive[bool] = Reactive(False, init=False)

    def render_line(self, y: int) -> Strip:
        """Textual's line, with a placeholder wider than the field cut to end in
        "…" (Textual cuts it anywhere: "the code friends type to" on a narrow
        dialog)."""
        hint = self.placeholder
        if y != 0 or self.value or not hint:
            return super().render_line(y)
        room = self.scrollable_content_region.width
        if room <= 0 or cell_len(hint) <= room:
            return super().render_line(y)
        self.set_reactive(Input.placeholder, clip(hint, room))  # for this drawing only
        try:
            return super().render_line(y)
        finally:
            self.set_reactive(Input.placeholder, hint)

    def _on_paste(self, event: events.Paste) -> None:
        """A paste of several lines is one line, its lines joined by spaces, and
        one longer than the room the length limit leaves is cut to fit.
        Textual's handler (which runs next, with the text changed) took the
        first line only, and dropped it whole, silently, when it did not fit."""
        if not event.text:
            return
        lines = event.text.splitlines() or [""]
        line = lines[0] if len(lines) == 1 else " ".join(part.strip() for part in lines if part.strip())
        event.text = line
        if not self.max_length:
            return
        start, end = sorted(self.selection)
        room = max(0, self.max_length - (len(self.value) - (end - start)))
        if len(line) > room:
            event.text = line[:room]
            self.cut_short()

    def cut_short(self) -> None:
        """Text typed or pasted went past ``max_length`` and was left out."""
