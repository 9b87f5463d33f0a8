"""PaneBox: a bordered container drawn directly."""

from __future__ import annotations

from textual.containers import Vertical
from textual.strip import Strip

from tui.widgets.direct import DirectRender


class PaneBox(DirectRender, Vertical):
    """A container drawn as :class:`DirectRender`: its border (a ``.pane``)
    from Textual, its inside blank in its own style (its children cover it).
    Textual drew every line of a bordered container through its per-line
    pipeline on every full frame (a lobby's chat pane: ~1 ms of a login)."""

    FOCUS_DRAWN = False

    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.line_size.width, self.line_style)
