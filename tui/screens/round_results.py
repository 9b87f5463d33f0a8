"""A round's result over the table, and every earlier one of the match (F4).

When a round ends (Sultans) or the match does, the table opens this dialog on
every screen, players' and spectators' alike: the result stays until the
table deals the next round, which the room does once every human at the table
has pressed Enter to go on, or its "between rounds" time has passed (the
countdown shows). Escape or q (as in the help: q closes a view) looks at the
table meanwhile, and the key bar says both; F4 opens it again, for any
finished round (← →).

The table owns what is shown (:class:`ResultSource`); this dialog only pages
through it and sends "go on" through the table.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from tui.screens.base import HostModal
from tui.tables import HOST_KEYS
from tui.widgets import KeySpec, LineStatic, TailLog


class ResultSource(Protocol):
    """What a table gives the results dialog."""

    def result_numbers(self) -> list[int]:
        """The results there are to show, oldest first (round numbers)."""
        ...

    def result_title(self, number: int) -> str: ...

    def result_body(self, number: int, width: int | None = None) -> Text:
        """A result, its tables within ``width`` cells (None: not laid out yet)."""
        ...

    def live_result(self) -> int | None:
        """The result the table is showing now (a round just ended, or the
        match's end), else None."""
        ...

    def break_line(self) -> Text:
        """Between rounds: what the table waits for (who is still reading, the
        countdown, the key to go on); empty otherwise."""
        ...

    def can_go_on(self) -> bool: ...

    def action_go_on(self) -> None: ...


class RoundResults(HostModal[None]):
    """The result of round ``number`` (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("f4", "close", show=False),
        Binding("q", "close", show=False),
        Binding("enter", "go_on", show=False),
        Binding("space", "go_on", show=False),
        Binding("left", "other(-1)", show=False),
        Binding("right", "other(1)", show=False),
        Binding("pageup", "scroll(-1)", show=False),
        Binding("pagedown", "scroll(1)", show=False),
        *(Binding(key, action, show=False) for key, action in HOST_KEYS.items()),  # done by the table beneath
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("⏎", "go_on", "results.key.go_on"),
        ("←→", "other(1)", "results.key.other"),
        ("PgUp/PgDn", "scroll(1)", "key.scroll"),
        # the host's keys after the match, as the result says (a narrow bar leaves them to it)
        ("p", "play_again", "key.play_again"),
        ("o", "reopen", "key.reopen"),
        ("Esc/q", "close", "results.key.table"),  # q too: the table's "q Leave match" is not this view's
    ]

    def __init__(self, source: ResultSource, number: int) -> None:
        super().__init__(classes="dialog-screen")
        self.source = source
        self.number = number
        self.opened_live = source.live_result() == number  # opened by the round's end: goes with it
        self._body_key: tuple[object, ...] = ()
        self._body_width = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog results"):
            yield LineStatic("", id="results-title", classes="dialog-title", markup=False)
            yield TailLog(id="results-body", wrap=True, markup=False, min_width=10)
            yield LineStatic("", id="results-foot", markup=False)

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one("#results-body").focus()

    def on_sized(self) -> None:
        super().on_sized()
        self.show()  # the body, made for the width it has, in the first frame

    def on_resize(self) -> None:
        # the body's tables are fitted to the width (its first was made in on_sized)
        log = self.query_one("#results-body", TailLog)
        if log.content_size.width and log.text_width() != self._body_width:
            self.call_after_refresh(self.show)

    def apply_lang(self) -> None:
        self._body_key = ()
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go_on":
            return self.source.can_go_on() and self.number == self.source.live_result()
        if action == "other":
            return len(self.source.result_numbers()) > 1
        if action in HOST_KEYS.values():  # the host's p and o after the match, as on the table beneath
            check = getattr(self.source, "check_action", None)
            return check is not None and check(action, ()) is True
        return True

    @property
    def drawable(self) -> bool:
        """Mounted and not being taken down: a session that ends closes its
        screens from the top, and the table beneath, still ticking, asked the
        result to draw its foot when its widgets were gone."""
        return self.live and not self._pruning

    def show(self) -> None:
        """Draw the result and the foot again (the table calls it after each change)."""
        if not self.drawable:
            return
        numbers = self.source.result_numbers()
        title = Text(self.source.result_title(self.number), style="bold", end="")
        if len(numbers) > 1 and self.number in numbers:
            title.append("  " + self.tr("table.results.position", i=numbers.index(self.number) + 1, n=len(numbers)), style="dim")
        self.query_one("#results-title", LineStatic).update(title, layout=False)
        log = self.query_one("#results-body", TailLog)
        if log.content_size.width:  # laid out: a result is made for a width
            self._body_width = log.text_width()
            body = self.source.result_body(self.number, self._body_width)
            key = (self.lang, body.plain, tuple(body.spans))
            if key != self._body_key:
                fresh = not self._body_key
                self._body_key = key
                log.show_sheet(body, from_top=fresh)
        self.show_foot()
        self.show_keys()

    def show_foot(self) -> None:
        if not self.drawable:
            return
        foot = self.source.break_line() if self.number == self.source.live_result() else Text("")
        self.query_one("#results-foot", LineStatic).update(foot, layout=False)

    def action_go_on(self) -> None:
        if self.source.can_go_on():
            self.source.action_go_on()
            self.show()

    def action_play_again(self) -> None:
        self._host("play_again")

    def action_reopen(self) -> None:
        self._host("reopen")

    def _host(self, name: str) -> None:
        """p or o as the result says ("Press p to play again, o to change the settings"):
        done by the table beneath, with this result closed."""
        act = getattr(self.source, f"action_{name}", None)
        if act is None or self.check_action(name, ()) is not True:
            return
        self.dismiss(None)
        act()

    def action_other(self, step: int) -> None:
        numbers = self.source.result_numbers()
        if not numbers:
            return
        at = numbers.index(self.number) if self.number in numbers else len(numbers) - 1
        self.number = numbers[(at + step) % len(numbers)]
        self._body_key = ()
        self.show()

    def action_scroll(self, step: int) -> None:
        self.query_one("#results-body", TailLog).action_scroll_page(step)

    def action_close(self) -> None:
        self.dismiss(None)
