"""LineStatic: a Static for often-changing lines, drawn directly."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widgets import Static

from tui.text import cut_lines
from tui.widgets.direct import SHARED_LINES, DirectLines, wrapped_strips


class LineStatic(DirectLines, Static):
    """A ``Static`` for often-changing lines (a table's header, countdown and
    prompt; the lobby's head and side pane; every screen's key bar): drawn as
    :class:`DirectLines`. A ``rich.text.Text`` (or a string, literally) is
    wrapped to the width and cached process-wide; another Rich renderable (a
    ``Group``, a ``Table``) is rendered once per update and width. Textual
    keeps the usual content for sizing (``width: auto``) and for readers of
    the widget. Left and right padding and a border are drawn; top or bottom
    padding falls back to Textual's drawing."""

    _text: Text = Text("")
    _renderable: RenderableType | None = None  # not a Text: rendered by Rich as it is
    _share: Hashable = None  # the renderable's key in SHARED_LINES (the same in every session)
    _drawn: tuple[int, Style, list[Strip]] | None = None

    def __init__(self, content: Any = "", *, pack: tuple[str, ...] = (), fit: bool = False, **kw: Any) -> None:
        """``pack``: separators of items that a wrapped line breaks between, not
        inside (a prompt's "· waiting for 4 of 4" moves to the next line whole).
        ``fit``: when the wrapped lines would not all fit in the widget's height,
        each line is cut to one screen line ending in "…" instead (a table's
        prompt box: a long status line wrapped pushed the choices out of it)."""
        super().__init__(content, **kw)
        self._pack = pack
        self._fit = fit
        self._take(content)

    def _take(self, content: Any, share: Hashable = None) -> None:
        self._drawn = None
        self._renderable = None
        self._share = share
        if isinstance(content, Text):
            self._text = content
        elif isinstance(content, str):
            self._text = Text(content)
        else:
            self._renderable = content

    def update(self, content: Any = "", *, layout: bool = True, share: Hashable = None) -> None:
        """Show ``content``. ``share``: a key that stands for a renderable (not a
        ``Text``) in every session, so that it is rendered once for all of them."""
        self._take(content, share)
        super().update(content, layout=layout)

    def render_line(self, y: int) -> Strip:
        width = self.line_size.width
        base = self.line_style
        drawn = self._drawn
        if drawn is None or drawn[0] != width or drawn[1] != base:
            strips: list[Strip] = []
            if width > 0 and self._renderable is not None:
                shared = None if self._share is None else (LineStatic, self._share, width, base)
                found = None if shared is None else SHARED_LINES.get(shared)
                if found is None:
                    console = self.app.console
                    lines = console.render_lines(self._renderable, console.options.update_width(width), pad=False)
                    found = [Strip(line).crop_extend(0, width, base).apply_style(base) for line in lines]
                    if shared is not None:
                        SHARED_LINES[shared] = found
                strips = found
            elif width > 0:
                text = self._text.copy()
                text.end = ""
                wrapped = wrapped_strips(self, text, max(1, width), seps=self._pack)
                if self._fit and len(wrapped) > self.content_size.height > 0:
                    wrapped = wrapped_strips(self, self._cut_to_fit(text, max(1, width)), max(1, width), seps=self._pack)
                strips = [strip.crop_extend(0, width, base).apply_style(base) for strip in wrapped]
            drawn = self._drawn = (width, base, strips)
        strips = drawn[2]
        return strips[y] if y < len(strips) else Strip.blank(width, base)


    def _cut_to_fit(self, text: Text, width: int) -> Text:
        """``text`` with as few of its lines cut to one screen line as makes it fit
        the height: the line that wraps to the most rows first (the earlier of
        equals), so that a picker's choices keep their second row while its
        hint of keys is cut; every line cut if that is still too tall."""
        height = self.content_size.height
        lines = text.split("\n", allow_blank=True)
        rows = [len(wrapped_strips(self, line, width, seps=self._pack)) for line in lines]
        while sum(rows) > height:
            longest = max(range(len(lines)), key=lambda k: (rows[k], -k))
            if rows[longest] <= 1:
                break
            lines[longest].truncate(width, overflow="ellipsis")
            rows[longest] = 1
        if sum(rows) > height:
            return cut_lines(text, width)
        return Text("\n", end="").join(lines)
