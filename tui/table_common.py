"""What the games' own table screens share: keys, picking, chat, panes, countdown.

:class:`GameTableScreen` is the base of a game's keyboard-first table
(``tui/sultans/table.py``, ``tui/overlord/table.py``). The game subclass
names its widgets and texts with one prefix (``PREFIX``: ids ``#<p>-countdown``,
``#<p>-log``, a ``TailLog`` that also shows the other panes as a sheet; texts ``<p>.key.*``,
``<p>.status.sent``, ``<p>.status.refused``), says which widget has the focus
when nothing else does (``HOME``), and fills in the hooks:

* :meth:`kind_for_key` -- the legal action kind a key starts now, if any;
* :meth:`_kinds` -- the legal action kinds, in key-bar order;
* :meth:`_redraw_choice` -- re-render what a choice in progress shows;
* :meth:`_describe_sent` -- the words of the "sent" line for a notation;
* :meth:`_pane_order` and :meth:`_render_current_pane` -- the Tab cycle.

Picking an action, rendering the view and the log stay in the game's package.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar, Generic, Protocol, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.widget import Widget
from textual.widgets import Input

from protocol.contract import ClientError, RoomClient, WhyNote
from protocol.i18n import Lang, error_text, t
from tui.screens.base import ChatKeys
from tui.screens.match_log import MatchLog
from tui.screens.round_results import RoundResults
from tui.tables import HOST_KEYS, TableScreen
from tui.widgets import ChatPanel, KeyBar, KeySpec, TailLog

P = TypeVar("P")  # the game's picker (a choice of one action in progress)

BANNER_SECONDS = 5.0
"""How long a line that changed the game shows above the log."""


class NotedPicker(Protocol):
    """What the screens keep on a picker about the last key (both games' pickers)."""

    note: str  # the screen's word on the last key, shown until the next
    refused: bool  # the last key was a number that is no choice now
E = TypeVar("E")  # a game's log event

_LOG_LINES: LRUCache[tuple[object, ...], tuple[object, Text, object]] = LRUCache(1024)
"""Log lines by the event object they were made from, for whom, in which language
and with which names, with a share key for their wrapped strips (see
:meth:`GameTableScreen.write_events`)."""


def picker_head(label: str, what: str, hint: str, lang: Lang) -> Text:
    """The first line of a choice in progress: "Levy: how much from whom?  keys"
    (``what`` may be empty). The colon is the language's: "：" in Chinese is its
    own space, so no space follows it."""
    colon = t("punct.colon", lang)
    head = Text(label + colon.rstrip(), style="bold reverse", end="")
    space = colon[len(colon.rstrip()):]
    if what:
        head.append(space + what, style="bold")
        head.append("  " + hint, style="dim")
    else:
        head.append(space + hint, style="dim")
    return head


CHOICE_GAP = "  "
"""Between the choices of a pick ("1=bob  2=carol"): one space made
"1=bob (1) 1 2=bob (1) 2" read as one."""


def choice_window(labels: list[str], current: int, width: int) -> tuple[int, int]:
    """The labels ``[start, end)`` a choice line of ``width`` cells shows: all
    when they fit, else as many as fit around ``current`` (the one picked),
    with room for "… " before and " …" after where some are left out (a
    Bureaucrat's 14 cards at 100 columns showed 1-6, and 7-14 were typed blind)."""
    gap = cell_len(CHOICE_GAP)

    def cells(start: int, end: int) -> int:
        inner = sum(cell_len(label) for label in labels[start:end]) + gap * (end - start - 1)
        return 1 + inner + (2 if start > 0 else 0) + (2 if end < len(labels) else 0)

    if not labels or cells(0, len(labels)) <= width:
        return 0, len(labels)
    current = min(max(current, 0), len(labels) - 1)
    start, end = current, current + 1
    while True:
        if end < len(labels) and cells(start, end + 1) <= width:
            end += 1
        elif start > 0 and cells(start - 1, end) <= width:
            start -= 1
        else:
            return start, end


class GameTableScreen(ChatKeys, TableScreen, Generic[P]):
    """Base of a game's own table screen (see the module docstring)."""

    PREFIX: ClassVar[str]
    HOME: ClassVar[type[Widget]]
    PANES: ClassVar[tuple[str, ...]]
    KIND_KEYS: ClassVar[dict[str, str]]
    HELP_KEY: ClassVar[KeySpec]  # F1 in the key bar

    # A terminal too short for the table's layout cuts the panes at the
    # bottom, and the key bar stays on the last row (the screen scrolled, and
    # its bar was below the terminal's last row).
    DEFAULT_CSS = """
    GameTableScreen { overflow: hidden hidden; }
    GameTableScreen > KeyBar { dock: bottom; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(d), f"key('{d}')", show=False) for d in range(10)),
        Binding("up", "key('up')", show=False),
        Binding("down", "key('down')", show=False),
        Binding("left", "key('up')", show=False),
        Binding("right", "key('down')", show=False),
        Binding("enter", "key('enter')", show=False),
        Binding("t", "chat", show=False),
        Binding("tab", "pane", show=False),
        Binding("pageup", "scroll_pane(-1)", show=False),
        Binding("pagedown", "scroll_pane(1)", show=False),
        Binding("home", "scroll_pane_to(0)", show=False),
        Binding("end", "scroll_pane_to(1)", show=False),
        Binding("f4", "results", show=False),
        Binding("f3", "match_log", show=False),
        Binding("slash", "match_log(True)", show=False),
    ]

    def write_events(
        self, log: TailLog, events: Sequence[E], viewer: int | None, make: Callable[[E], Text]
    ) -> None:
        """Write a log line for each of ``events`` (``make`` phrases one), then
        refresh the log once. A room's spectators share one view object, so one
        object per event: its line is made and wrapped once for all of them (the
        cache entry keeps the event, so its id is not reused while it is there),
        and its rows are drawn once (``tui.widgets``' process-wide row caches)."""
        names = tuple(self.names)

        def line(ev: E) -> tuple[Text, object]:
            key = (id(ev), viewer, self.lang, names)
            made = _LOG_LINES.get(key)
            if made is None or made[0] is not ev:
                made = _LOG_LINES[key] = (ev, make(ev), object())
            return made[1], made[2]

        log.write_lines(line(ev) for ev in events)

    def __init__(self, room: RoomClient) -> None:
        super().__init__(room)
        self.legal: list[str] = []
        self.picker: P | None = None
        self.pane = "log"
        self.names: list[str] = []
        self.message: Text = Text("")
        self._decision: tuple[object, ...] = ()
        self._sheet_kind: str | None = None  # which pane the sheet shows (see _show_sheet)

    def on_mount(self) -> None:
        self.query_one(self.HOME).focus()
        self._start_clock()

    @property
    def watching(self) -> bool:
        return self.throne.watching or self.room.my_seat is None

    @property
    def quick_windows(self) -> bool:
        """The room runs quick windows (S-REACT-5, K-ORD-11): no screen says who
        still owes an answer in a window."""
        return self.snap is None or not self.snap.settings.strict_windows

    def nothing_to_answer(self) -> bool:
        """The room answers ``pass`` for this seat in the open window: no prompt."""
        if self.watching:
            return False
        try:
            return self.room.nothing_to_answer()
        except ClientError:
            return False

    def answer_kept(self, asked: bool, answered: bool) -> bool:
        """This seat answered the open quick window and the room keeps its answer
        until the window's minimum time has passed (the view does not have it yet)."""
        if self.watching or not asked or answered or not self.quick_windows:
            return False
        try:
            return not self.room.pending() and not self.room.nothing_to_answer()
        except ClientError:
            return False

    def apply_lang(self) -> None:
        self.query_one(ChatPanel).set_placeholder(self.tr("chat.placeholder.room"))
        super().apply_lang()

    # ------------------------------------------------------------ the game's
    def kind_for_key(self, key: str) -> str | None:
        """The legal action kind ``key`` starts now (override this)."""
        return None

    def _kinds(self) -> list[str]:
        """The legal action kinds, in key-bar order (override this)."""
        return []

    def _redraw_choice(self) -> None:
        """Re-render what a choice shows, then the keys (override, then call this)."""
        self.refresh_keys()

    def _describe_sent(self, text: str) -> str:
        """What the action ``text`` did, in words, for the "sent" line."""
        return text

    def _pane_order(self) -> list[str]:
        """The panes Tab cycles through now."""
        return list(self.PANES)

    def _render_current_pane(self) -> None:
        """Show ``self.pane`` (override this)."""

    def _kind_label(self, kind: str) -> str:
        return f"{self.PREFIX}.key.{kind}"

    # ---------------------------------------------------------------- render
    def _show_sheet(self, kind: str | None, text: Text | None = None) -> None:
        """The panes other than the log (notes, exchange, result) are a sheet
        the log widget shows in its own place (``TailLog.show_sheet``), so a
        pane switch repaints one widget and lays out nothing. ``kind`` None
        shows the log; another kind than before starts at its top."""
        log = self.query_one(f"#{self.PREFIX}-log", TailLog)
        if kind is None or text is None:
            log.show_sheet(None)
            return
        fresh = kind != self._sheet_kind or log.sheet is None
        self._sheet_kind = kind
        log.show_sheet(text, from_top=fresh)

    # ------------------------------------------------------------------ keys
    def refresh_keys(self) -> None:
        if not self.is_attached:
            return
        pre = self.PREFIX
        typing = isinstance(self.focused, Input)  # letters type in the chat line: no letter keys
        keys: list[KeySpec] = []
        if typing:  # Enter sends the chat line (the bar named no way to send it)
            keys.append(("⏎", "chat_send", f"{pre}.key.chat_send"))
        elif self.picker is not None:
            keys.append(("⏎", "key('enter')", f"{pre}.key.confirm"))
            keys.append(("Esc", "back", f"{pre}.key.cancel"))
        else:
            if self.can_go_on():
                keys.append(("⏎", "go_on", "table.key.go_on"))
            for k in self._kinds():
                keys.append((self.KIND_KEYS[k], f"key('{self.KIND_KEYS[k]}')", self._kind_label(k)))
        if not typing:
            keys += [
                ("p", "play_again", f"{pre}.key.again"),
                ("o", "reopen", f"{pre}.key.reopen"),
                ("F4", "results", "table.key.results"),
                ("t", "chat", f"{pre}.key.chat"),
                ("F3", "match_log", "table.key.log"),
            ]
            if self.picker is None:  # (shown while the match is played: check_action)
                keys += [("z", "standin", "table.key.standin"), ("q", "leave_match", "table.key.leave_match")]
        keys += [
            ("Tab", "pane", f"{pre}.key.pane"),
            self.HELP_KEY,
            ("F2", "app.toggle_lang", f"{pre}.key.lang"),
        ]
        if self.picker is None:
            keys.append(("Esc", "back", f"{pre}.key.chat_done" if typing else f"{pre}.key.leave"))
        self.query_one(KeyBar).show(self, keys, self.lang)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action.startswith("key("):
            return self._key_enabled(action[5:-2])
        if action == "key" and parameters:
            return self._key_enabled(str(parameters[0]))
        if action == "go_on":
            return self.can_go_on()
        if action == "results":
            return not isinstance(self.focused, Input) and bool(self.result_numbers())
        return super().check_action(action, parameters)

    def _key_enabled(self, key: str) -> bool:
        if isinstance(self.focused, Input):
            return False
        if self.picker is not None:
            return True
        if key in ("enter", "space") and self.can_go_on():
            return True
        if key in ("enter", "space", "up", "down") or key.isdigit():
            return False
        return self._idle_key_enabled(key)

    def _idle_key_enabled(self, key: str) -> bool:
        """A letter while no choice is in progress: does it start a legal kind,
        or is it the host's key after the match (:data:`HOST_KEYS`)?"""
        if self.kind_for_key(key) is not None:
            return True
        action = HOST_KEYS.get(key)
        return action is not None and bool(self.check_action(action, ()))

    def _host_key(self, key: str) -> None:
        """A letter that starts no kind: the host's p or o after the match, if
        allowed; Enter (or space) between rounds: go on to the next round."""
        if key in ("enter", "space"):
            if self.can_go_on():
                self.action_go_on()
            return
        action = HOST_KEYS.get(key)
        if action is not None and self.check_action(action, ()):
            getattr(self, f"action_{action}")()

    # ------------------------------------------------------------- sending
    def _send(self, text: str) -> None:
        what = self._describe_sent(text)
        self.picker = None
        if self.play(text):
            self._timed_out = False
            self._back_at = None
            self.message = Text(self.tr(f"{self.PREFIX}.status.sent", what=what), style="dim", end="")
        self._redraw_choice()

    _timeouts_seen: int | None = None  # the seat's count of timeouts when this screen last looked
    _timed_out = False  # the room played for this seat since it last sent an action
    _back_at: tuple[object, ...] | None = None  # the decision at which a key took the seat back from a stand-in
    _back_new = False  # ...taken back since the last update (its decision: the one that update reads)

    PROMPT_ROWS = 4
    """The prompt box's height while a match is played (its ``table.tcss``)."""
    _prompt_rows = PROMPT_ROWS

    def fit_prompt(self, prompt_id: str, lines: int, *, over: bool) -> None:
        """The prompt box keeps its rows while the match is played (nothing
        jumps); once it is over, only the rows it says, so that the result
        below gets the rest of a small terminal (8 of 8 rows at 80x24, not 5)."""
        rows = max(1, min(self.PROMPT_ROWS, lines)) if over else self.PROMPT_ROWS
        if rows != self._prompt_rows:
            self._prompt_rows = rows
            self.query_one(prompt_id).styles.height = rows

    def refuse_number(self, p: NotedPicker, typed: str, step: str) -> None:
        """A number typed that is no choice now: say so, and (a choice is highlighted
        unless only confirming is left) hold the next Enter, meant for that number."""
        p.note = self.tr("pick.not_a_choice", n=typed)
        p.refused = step != "confirm"

    def enter_after_refusal(self, p: NotedPicker, key: str) -> bool:
        """At each key in a picker: its note goes. True for an Enter right after a
        refused number: said, not sent (it would send the highlighted choice)."""
        p.note = ""
        refused, p.refused = p.refused, False
        if key == "enter" and refused:
            p.note = self.tr("pick.enter_again")
            return True
        return False

    def note_timeout(self) -> None:
        """The room played the default for this seat (its timer ran out): say so
        where "Sent: …" goes, since the log shows that action as any other, until
        the player sends an action again (timeouts before this screen: not said)."""
        snap, seat = self.snap, self.room.my_seat
        if snap is None or seat is None:
            return
        if snap.state == "playing" and seat < len(snap.seats) and snap.seats[seat].away:
            # a stand-in bot plays the seat: say so, and how to take it back, above all else
            self._timed_out, self._back_at, self._back_new = False, None, False
            self._timeouts_seen = snap.timeouts[seat] if seat < len(snap.timeouts) else 0
            self.message = Text(self.tr("table.away_you"), style="bold reverse", end="")
            return
        if self._back_new:  # (the table may have moved on since this screen last looked)
            self._back_at, self._back_new = self._decision, False
        if self._back_at is not None:
            if self._back_at == self._decision and snap.state == "playing":  # until the next decision
                self.message = Text(self.tr("table.back"), style="bold", end="")
                return
            self._back_at = None
        count = snap.timeouts[seat] if seat < len(snap.timeouts) else 0
        if self._timeouts_seen is not None and count > self._timeouts_seen:
            self._timed_out = True
        self._timeouts_seen = count
        if self._timed_out and snap.state != "playing":  # the match is over: nothing more is played for anyone
            self._timed_out = False
            self.message = Text("")
        elif self._timed_out:
            self.message = Text(self.tr("table.timed_out"), style="bold", end="")

    def said_back(self) -> None:
        self._timed_out = False
        self._back_at, self._back_new = self._decision, True
        self.message = Text(self.tr("table.back"), style="bold", end="")
        self._redraw_choice()

    def left_line(self, seat_label: Callable[[int], str]) -> Text | None:
        """The result's line naming the seats whose players left the match
        before its end (``seat_label``: a seat as the table names it)."""
        snap = self.snap
        left = [s.index for s in snap.seats if s.left] if snap is not None else []
        if not left:
            return None
        names = self.tr("punct.list").join(seat_label(i) for i in left)
        return Text(self.tr("table.left_seats", names=names), style="italic", end="")

    def on_refused(self, err: ClientError) -> None:
        self._back_at = None
        self._timed_out = False  # the player is acting again: this says what happened now
        self.message = Text(self.tr(f"{self.PREFIX}.status.refused", msg=error_text(err, self.lang)), style="bold", end="")

    # ------------------------------------------------------------ other keys
    def action_back(self) -> None:
        if self.picker is not None:
            if not self._step_back():
                self.picker = None
            self._redraw_choice()
            return
        if isinstance(self.focused, Input):
            self.query_one(self.HOME).focus()
            return
        super().action_back()

    def _step_back(self) -> bool:
        """Escape in a choice of several steps: back one step if the game has
        one to go back to (True), else the choice is dropped."""
        return False

    def action_pane(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one(self.HOME).focus()
        order = self._pane_order()
        self.pane = order[(order.index(self.pane) + 1) % len(order)] if self.pane in order else "log"
        self._render_current_pane()
        self.refresh_keys()

    def action_scroll_pane(self, direction: int) -> None:
        """PageUp/PageDown scroll the shown pane."""
        self.query_one(f"#{self.PREFIX}-log", TailLog).action_scroll_page(-1 if direction < 0 else 1)

    def action_scroll_pane_to(self, end: int) -> None:
        """Home/End: the shown pane's first line, or its newest (the log follows new lines again)."""
        log = self.query_one(f"#{self.PREFIX}-log", TailLog)
        if end:
            log.action_scroll_end()
        else:
            log.action_scroll_home()

    def on_tail_log_scrolled_back(self, event: TailLog.ScrolledBack) -> None:
        event.stop()
        self._render_current_pane()  # the pane's title says so

    # ------------------------------------------------ results and the whole log
    # The game's table says what there is (:class:`tui.screens.round_results.ResultSource`).
    def result_numbers(self) -> list[int]:
        """The finished rounds whose result can be shown again (override this)."""
        return []

    def result_title(self, number: int) -> str:
        return self.tr("table.results.round", n=number)

    def result_body(self, number: int, width: int | None = None) -> Text:
        """The result of round ``number`` (override this), for lines ``width`` cells wide."""
        return Text("")

    def live_result(self) -> int | None:
        """The result the table shows now: a round just ended, or the match's end (override this)."""
        return None

    def full_log(self) -> list[Text]:
        """Every line of the match's log as this seat's pane shows it (override this)."""
        return []

    def between_rounds(self) -> bool:
        """A round's result waits for the table's players to go on."""
        snap = self.snap
        return snap is not None and snap.state == "playing" and self.live_result() is not None

    def can_go_on(self) -> bool:
        """This seat's player may say they have seen the round's result."""
        snap, seat = self.snap, self.room.my_seat
        return (
            not self.watching and seat is not None and snap is not None and self.between_rounds()
            and seat in snap.holding and seat not in snap.went_on
        )

    def action_go_on(self) -> None:
        if self.can_go_on():
            self.throne.guard(self.room.go_on)
            self.throne.host_changed()

    def break_line(self) -> Text:
        """Between rounds: the key to go on (or that this player did), who the
        table still waits for, and when the next round comes at the latest."""
        snap = self.snap
        if snap is None or not self.between_rounds():
            return Text("", end="")
        out = Text(end="")
        seat = None if self.watching else self.room.my_seat
        if self.can_go_on():
            out.append(" " + self.tr("table.break.go_on") + " ", style="reverse bold")
            out.append("  ")
        elif seat is not None and seat in snap.went_on:
            out.append(self.tr("table.break.ready") + "  ", style="bold")
        waiting = [self.names[i] for i in snap.holding if i not in snap.went_on and i != seat and i < len(self.names)]
        if waiting:
            out.append(self.tr("table.break.waiting", names=self.tr("punct.list").join(waiting)) + "  ")
        if snap.deadline is not None:
            left = max(0, round(snap.deadline - time.time()))
            out.append(self.tr("table.break.next_in", s=left), style="bold")
        return out

    def _results_dialog(self) -> RoundResults | None:
        for screen in self.app.screen_stack:
            if isinstance(screen, RoundResults) and screen.source is self:
                return screen
        return None

    _auto_result: int | None = None  # the result this screen opened by itself

    def refresh_data(self) -> None:
        super().refresh_data()
        if self.throne.room is self.room and self.snap is not None:
            self._follow_results()

    def covered(self) -> bool:
        """Whether nothing this table would draw now shows: a round's result or
        the whole log (opaque, the whole screen) is over it, or a round's result
        opens over it with this change. The table is drawn again when it is on
        top again (``on_screen_resume`` re-reads the room): a round's end drew
        every table of the room, then drew its result over each."""
        return isinstance(self.app.screen, (RoundResults, MatchLog)) or self._result_to_open() is not None

    def _new_result(self) -> int | None:
        """The round whose result came with this change (this match's, not yet followed)."""
        snap = self.snap
        live = self.live_result()
        if live is None or live == self._auto_result or snap is None or snap.match != self.match_id:
            return None
        return live

    def _result_to_open(self) -> int | None:
        """The round whose result this change opens over the table, if any."""
        return self._new_result() if self._on_top() else None

    def _on_top(self) -> bool:
        return self.app.screen is self and self.is_attached

    def _follow_results(self) -> None:
        """A round's (or the match's) end opens its result over the table; the
        next round, or another match, closes it."""
        snap = self.snap
        assert snap is not None
        live = self.live_result()
        dialog = self._results_dialog()
        if dialog is not None:
            moved_on = snap.state == "waiting" or snap.match != self.match_id
            if moved_on or (dialog.opened_live and live != dialog.number):
                if self.app.screen is dialog:
                    dialog.dismiss(None)
                return
            dialog.show()
        new = self._new_result()
        if new is not None:
            self._auto_result = new  # followed, whether or not the table was on top to open it
            if self._on_top():
                self.app.push_screen(RoundResults(self, new))

    def _clock_runs_for_me(self) -> bool:
        # a break's countdown ticks each second under the status line ("Next round
        # in 27 s", Sultans): the clock in the header says the same, not "25 s"
        return (self.between_rounds() and not self.covered()) or super()._clock_runs_for_me()

    def _tick(self) -> None:
        super()._tick()
        if self._banner_ended() and not self._pruning:
            self._render_current_pane()
        dialog = self._results_dialog()
        if dialog is not None and not self._pruning:
            dialog.show_foot()

    def action_results(self) -> None:
        numbers = self.result_numbers()
        if numbers and self.app.screen is self:
            live = self.live_result()
            self.app.push_screen(RoundResults(self, live if live in numbers else numbers[-1]))

    def action_match_log(self, search: bool = False) -> None:
        if self.app.screen is self and not isinstance(self.focused, Input):
            self.app.push_screen(MatchLog(self.full_log, search=search))

    def _log_title(self, title: Text, log: TailLog) -> Text:
        """A log pane's title, marked while the log is scrolled back: new lines
        do not show then, and nothing else on screen said so."""
        if log.scrolled_back:
            title.append("  " + self.tr("table.log_back"), style="reverse")
        return self._with_banner(title)

    # ------------------------------------------------------------ why-lines
    _why_written: set[int] | None = None  # the why-notes (by index) the log pane shows

    def why_notes(self) -> Sequence[WhyNote]:
        """This seat's why-lines (the room played for it); none when watching."""
        if self.watching:
            return []
        try:
            return self.room.why_notes()
        except ClientError:
            return []

    def with_why(
        self, number: int, events: Sequence[E], start: int, written: set[int], notes: Sequence[WhyNote] | None = None
    ) -> list[E | WhyNote]:
        """``events[start:]`` of round ``number`` with this seat's why-lines after
        the event each follows (one that came late, first); ``written``: the notes
        (by index) already shown, updated."""
        notes = self.why_notes() if notes is None else notes
        mine = [(i, n, self._why_at(n.after, events)) for i, n in enumerate(notes) if n.round == number and i not in written]
        told = self._told_by_notes([n for n in notes if n.round == number], events)
        out: list[E | WhyNote] = []

        def place(upto: int) -> None:
            for i, n, at in mine:
                if i not in written and at <= upto:
                    out.append(n)
                    written.add(i)

        place(start)
        for k in range(start, len(events)):
            if k not in told:
                out.append(events[k])
            place(k + 1)
        return out

    def _told_by_notes(self, notes: Sequence[WhyNote], events: Sequence[E]) -> set[int]:
        """The events (by index) a why-line says in its own words: for each note,
        the last event before its place that :meth:`told_by` names."""
        told: set[int] = set()
        for note in notes:
            for k in range(min(note.after, len(events)) - 1, -1, -1):
                if self.told_by(note, events[k]):
                    told.add(k)
                    break
        return told

    def told_by(self, note: WhyNote, event: object) -> bool:
        """True for the event of the action ``note`` explains when the note says
        all it said (the room passed for a seat with nothing to answer: "You
        answered: pass." would claim a key the player never pressed); override this."""
        return False

    def _why_at(self, after: int, events: Sequence[E]) -> int:
        """Where a why-line goes: after the action's own lines, before the next
        turn's first line that the same change brought (:meth:`starts_next`)."""
        at = after
        while 0 < at <= len(events) and self.starts_next(events[at - 1]):
            at -= 1
        return at

    def starts_next(self, event: object) -> bool:
        """A log event that begins the next step ("bob's turn."), not part of the
        action before it (override this)."""
        return False

    def why_line(self, note: WhyNote, prefix: str = "") -> Text:
        """A why-line as the log shows it (to this seat alone)."""
        line = Text(prefix, style="dim", end="")
        line.append(self.tr("table.log_private") + " ", style="bold magenta")
        line.append(self.tr(note.key), style="italic bold")
        return line

    # ------------------------------------------------------------- the banner
    _banner: tuple[Text, float] | None = None  # the line, and until when (monotonic)

    def note_events(self, lines: Sequence[Text]) -> None:
        """Lines just written to the log that change the game (a death, a reveal,
        the crown, an execution, a round's end...): the newest shows for
        :data:`BANNER_SECONDS` on the pane's title row, above the log."""
        if lines:
            self._banner = (lines[-1], time.monotonic() + BANNER_SECONDS)

    def _with_banner(self, title: Text) -> Text:
        """``title`` with the banner after it while it lasts."""
        banner = self._banner
        if banner is None:
            return title
        out = title.copy()
        out.append("  ")
        line = banner[0].copy()
        line.stylize("reverse")
        out.append_text(line)
        out.no_wrap, out.overflow = True, "ellipsis"
        return out

    def _banner_ended(self) -> bool:
        """True once when the banner's time is up (the title is drawn again without it)."""
        if self._banner is not None and time.monotonic() >= self._banner[1]:
            self._banner = None
            return True
        return False
