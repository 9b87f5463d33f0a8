"""The whole log of a match, full screen, scrollable and searchable (F3 at a table).

The table phrases every line as its log pane does (the earlier rounds too,
and the lines that say why, which only this seat sees); this dialog shows
them all, from the newest. ``/`` then a text and Enter finds it (case does
not matter), ``n`` or Enter again the next match (from the newest back to the
oldest, then round again), Escape leaves the search line, then the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input

from tui.screens.base import HostModal
from tui.widgets import KeySpec, LineStatic, TailLog

LOG_SEARCH_MAX = 60
"""The longest text the log's search line takes."""


class MatchLog(HostModal[None]):
    """Every line of the match (``lines``: made by the table in the reader's language)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("f3", "close", show=False),
        Binding("slash", "search", show=False),
        Binding("n", "next", show=False),
        Binding("enter", "next", show=False),
        Binding("pageup", "scroll(-1)", show=False),
        Binding("pagedown", "scroll(1)", show=False),
        Binding("home", "home", show=False),
        Binding("end", "end", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("/", "search", "log.key.search"),
        ("n", "next", "log.key.next"),
        ("PgUp/PgDn", "scroll(1)", "key.scroll"),
        ("Esc", "close", "results.key.table"),
    ]

    def __init__(self, lines: Callable[[], list[Text]], *, search: bool = False) -> None:
        super().__init__(classes="dialog-screen", id="match-log")
        self._make_lines = lines
        self.lines: list[Text] = []
        self.query_text = ""
        self.hit: int | None = None  # the line of the match on show
        self._start_searching = search
        self._rows: tuple[int, list[int]] | None = None  # (width, first row of each line)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog results"):
            yield LineStatic("", id="log-title", classes="dialog-title", markup=False)
            yield TailLog(id="log-body", wrap=True, markup=False, min_width=10)
            yield LineStatic("", id="log-foot", markup=False)
            yield Input("", id="log-search", max_length=LOG_SEARCH_MAX)

    def on_mount(self) -> None:
        self.live = True
        self.query_one("#log-search").display = False
        self.apply_lang()
        self.query_one("#log-body").focus()
        if self._start_searching:
            self.action_search()

    def apply_lang(self) -> None:
        self.lines = self._make_lines()
        self._rows = None
        self.query_one("#log-search", Input).placeholder = self.tr("log.search_hint")
        self._draw()
        if self.hit is None:
            self.call_after_refresh(self.action_end)

    def _draw(self) -> None:
        title = Text(self.tr("log.title", n=len(self.lines)), style="bold", end="")
        self.query_one("#log-title", LineStatic).update(title, layout=False)
        body = Text("\n", end="").join(self._marked(i, line) for i, line in enumerate(self.lines))
        self.query_one("#log-body", TailLog).show_sheet(body)
        self._foot()

    def _marked(self, index: int, line: Text) -> Text:
        """A line with every match of the search underlined, the one on show reversed."""
        needle = self.query_text.casefold()
        if not needle or needle not in line.plain.casefold():
            return line
        line = line.copy()
        plain = line.plain.casefold()
        at = plain.find(needle)
        while at >= 0:
            line.stylize("reverse bold" if index == self.hit else "underline", at, at + len(needle))
            at = plain.find(needle, at + len(needle))
        return line

    def _foot(self) -> None:
        if not self.query_text:
            foot = Text(self.tr("log.foot"), style="dim", end="")
        else:
            hits = self._hits()
            if not hits:
                foot = Text(self.tr("log.not_found", text=self.query_text), style="bold", end="")
            else:
                at = len(hits) - hits.index(self.hit) if self.hit in hits else 0  # counted from the newest
                foot = Text(self.tr("log.found", text=self.query_text, i=at, n=len(hits)), style="bold", end="")
        self.query_one("#log-foot", LineStatic).update(foot, layout=False)

    def _hits(self) -> list[int]:
        needle = self.query_text.casefold()
        return [i for i, line in enumerate(self.lines) if needle and needle in line.plain.casefold()]

    def _row_of(self, index: int) -> int:
        """The first row of line ``index`` at the log's width now."""
        log = self.query_one("#log-body", TailLog)
        width = log.line_size.width
        if self._rows is None or self._rows[0] != width:
            starts, row = [], 0
            for line in self.lines:
                starts.append(row)
                row += log.sheet_rows(line)
            self._rows = (width, starts)
        return self._rows[1][index] if index < len(self._rows[1]) else 0

    # ------------------------------------------------------------------ keys
    def action_search(self) -> None:
        box = self.query_one("#log-search", Input)
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        box = self.query_one("#log-search", Input)
        box.display = False
        self.query_one("#log-body").focus()
        if text != self.query_text:
            self.query_text = text
            self.hit = None
        self.action_next()

    def action_next(self) -> None:
        """The next match, from the newest line back (the newest first)."""
        hits = self._hits()
        if not hits:
            self.hit = None
            self._draw()
            return
        older = [i for i in hits if self.hit is None or i < self.hit]
        self.hit = older[-1] if older else hits[-1]
        self._draw()
        log = self.query_one("#log-body", TailLog)
        log.scroll_sheet_to(max(0, self._row_of(self.hit) - log.line_size.height // 2))

    def action_scroll(self, step: int) -> None:
        self.query_one("#log-body", TailLog).action_scroll_page(step)

    def action_home(self) -> None:
        self.query_one("#log-body", TailLog).scroll_sheet_to(0)

    def action_end(self) -> None:
        log = self.query_one("#log-body", TailLog)
        log.scroll_sheet_to(1 << 30)

    def action_close(self) -> None:
        box = self.query_one("#log-search", Input)
        if box.display:  # Escape in the search line leaves it; the log stays
            box.display = False
            self.query_one("#log-body").focus()
            return
        self.dismiss(None)
