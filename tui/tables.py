"""Which screen shows a running game: one table screen class per game id.

A game-specific table is a :class:`TableScreen` subclass. It plugs in without
editing the app in either of two ways:

* put it in ``tui/<game>/table.py`` as ``class Table(TableScreen)`` (the
  module is imported on first use; Sultans: ``tui/sultans/table.py``), or
* call ``register_table("<game>", MyTable)`` at import time of any module the
  app imports (tests use this).

Games without their own screen get :class:`tui.screens.plain_table.PlainTableScreen`.

The contract of a table screen (see :class:`TableScreen`):

* ``__init__(self, room: RoomClient)``; the room is also ``self.room``;
* ``update_table()`` is called (coalesced, at most ~8 times/s) after the host
  reports a change, on mount, on a language switch and when the screen comes
  back on top, with ``self.snap`` (the room's ``RoomSnapshot``) fresh; read
  ``room.view()``, ``room.legal()``, ``room.pending()``, ``room.chat_lines()``
  there, and update fixed-size widgets with ``update(..., layout=False)``
  where the size cannot change;
* ``apply_lang()`` re-renders labels after a language switch (``self.lang``,
  ``self.tr(key, **params)``); call ``super().apply_lang()``;
* a countdown: call :meth:`_tick` every second (``set_interval``); it fills the
  Static ``#<COUNTDOWN_ID>`` with the text ``COUNTDOWN_TEXT`` (in whole seconds
  for a seat that must answer, else in steps of :data:`COARSE_CLOCK`); the room chat: a
  ``ChatPanel``'s lines are sent by the base class;
* send actions with ``self.play(text)`` (adds the snapshot version, shows a
  refusal translated via :meth:`on_refused`); leave with
  ``self.action_leave()`` (Escape does it); the host's "play again" is
  ``self.action_play_again()`` (key p), or new settings and back to the
  waiting room, ``self.action_reopen()`` (key o). When the room waits again or is
  gone, the base class hands over to the waiting room or the lobby.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.widgets import Static

from protocol.contract import (
    ClientError,
    RoomClient,
    RoomSettings,
    RoomSnapshot,
    SeatInfo,
    seat_number,
)
from protocol.i18n import seat_shown, shown_name
from tui.games import game_ui
from tui.screens.base import HostScreen
from tui.screens.dialogs import ChoiceDialog, ConfirmDialog, RoomSettingsDialog
from tui.ticker import TICKER
from tui.widgets import ChatPanel

COARSE_CLOCK = 5
"""Seconds per step of the countdown on screens that are not asked to answer
(spectators, seats that answered or wait), above its last step: only the
seats the clock runs against see it tick every second until then, which
spares a repaint per second on every other screen of a busy server. A step
shows the time left rounded down, never more than there is."""

HOST_KEYS = {"p": "play_again", "o": "reopen"}
MATCH_KEYS = {"q": "leave_match", "z": "standin"}
"""While a match is played: a seated player leaves it for good (q); the host
hands a player's seat to a stand-in bot (z: zzz, away; h is a finished round's)."""
"""The host's keys after a match (bound below). A game's table binds every
letter its action kinds use, and a subclass's binding of a key hides the base
class's, so such a table runs these itself when no kind takes the letter
(``tui.table_common``)."""

MOUNT_RETRIES = 50
"""Redraws a table screen tries while its nested panes are still being mounted."""

STRAY_ESC_SECONDS = 1.0
"""An Escape this soon after a table opens is one meant for the screen before it
(the waiting room's chat or its Leave, pressed as the host started): it does
not ask about leaving the table, nor takes a spectator out of the room."""


def _now() -> float:
    return time.monotonic()


class TableScreen(HostScreen):
    """Base of every table screen: a room whose match is running or finished."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", show=False),
        *(Binding(key, action, show=False) for key, action in HOST_KEYS.items()),
        *(Binding(key, action, show=False) for key, action in MATCH_KEYS.items()),
    ]
    COUNTDOWN_ID: ClassVar[str] = "countdown"  # the Static that :meth:`_tick` fills
    COUNTDOWN_TEXT: ClassVar[str] = "table.countdown"  # its text, with ``s`` seconds

    def __init__(self, room: RoomClient) -> None:
        super().__init__(classes="table-screen")
        self.room = room
        self.snap: RoomSnapshot | None = None
        self._stop_clock: Callable[[], None] | None = None
        self._asked = False  # the seat was asked for a decision at the last refresh (see _ring_if_asked)
        self.match_id: int | None = None  # the match this screen shows (set at its first snapshot)
        self.opened_at = _now()  # (see STRAY_ESC_SECONDS)

    def _start_clock(self) -> None:
        """Call :meth:`_tick` every second (the process-wide clock: one timer for
        every session's countdown) until the screen is unmounted."""
        if self._stop_clock is None:
            self._stop_clock = TICKER.add(self._tick, self.app._handle_exception)

    def on_unmount(self) -> None:
        if self._stop_clock is not None:
            self._stop_clock()
            self._stop_clock = None

    def seat_names(self, snap: RoomSnapshot) -> list[str]:
        """Each seat's name on this screen: the player's, or a bot's in the
        reader's language ("電腦 2"; the host names bots "Bot 2" for its logs)."""
        names = list(snap.names) or [seat.name for seat in snap.seats]
        return [shown_name(name, self.lang) for name in names]

    def result_names(self) -> list[str]:
        """Each seat's name as the results show it: a bot's with its level
        ("電腦 2·強"), so a table sees whom it beat."""
        snap = self.snap
        if snap is None:
            return []
        names = list(snap.names) or [seat.name for seat in snap.seats]
        return [
            seat_shown(snap.seats[i], name, self.lang) if i < len(snap.seats) else shown_name(name, self.lang)
            for i, name in enumerate(names)
        ]

    @property
    def is_host(self) -> bool:
        return self.snap is not None and self.snap.host == self.throne.lobby.identity.name

    def refresh_data(self) -> None:
        """Read the snapshot into ``self.snap``, then :meth:`update_table`.

        Hands over to the waiting room when the room waits again, and back to
        the lobby when the room is gone.
        """
        if self.throne.room is not self.room:  # left already; its screen is on its way out
            return
        first = self.snap is None
        try:
            self.snap = self.room.snapshot()
        except ClientError as err:
            self.error(err)
            if self.is_current:
                self.throne.leave_room(tell_host=False)
            return
        if first:
            self.match_id = self.snap.match
        if self.is_current and (self.snap.state == "waiting" or self.snap.match != self.match_id):
            # waiting again, or another game begun ("play again"): a fresh screen for it,
            # with nothing of the last game's log, result pane or choices
            self.throne.sync_room_screen(self)
            return
        if self.is_current and not self.throne.watching and self.room.my_seat is None:
            self.throne.notify(self.tr("room.removed"), markup=False)
            self.throne.leave_room(tell_host=False)
            return
        try:
            self.update_table()
        except ClientError as err:  # a refusal while reading: show it, keep the screen
            self.error(err)
        except NoMatches:
            # A pane nested in a container is composed only when that container
            # mounts, which may come after this screen's own Mount: draw again
            # after the next refresh (a bounded number of times).
            self._mount_retries = getattr(self, "_mount_retries", 0) + 1
            if self._mount_retries > MOUNT_RETRIES:
                raise
            self.call_after_refresh(self.refresh_data)
        else:
            self._mount_retries = 0
            self._ring_if_asked()

    def _ring_if_asked(self) -> None:
        """Ring the terminal's bell once when the game starts waiting for this
        seat's decision: a turn or a prompt it must answer (one that cannot be
        passed; optional reactions, offered to many seats at once, stay quiet),
        for players who look at another window meanwhile. Off in the settings,
        and while a stand-in bot plays the seat (it is the bot that decides)."""
        snap = self.snap
        seat = self.room.my_seat
        asked = (
            snap is not None
            and snap.state == "playing"
            and not self.throne.watching
            and not (seat is not None and seat < len(snap.seats) and snap.seats[seat].away)
            and self.room.pending()
            and "pass" not in self.room.legal()
        )
        if asked and not self._asked and self.throne.bell_on:
            self.throne.bell()
        self._asked = asked

    def update_table(self) -> None:
        """Render the table from ``self.snap`` and the room (override this)."""

    def play(self, text: str) -> bool:
        """Send one action with the version this screen last saw. True if accepted."""
        version = self.snap.version if self.snap is not None else self.room.snapshot().version
        try:
            self.room.act(text, version)
        except ClientError as err:
            self.on_refused(err)
            return False
        self.throne.host_changed()
        return True

    def on_refused(self, err: ClientError) -> None:
        """Show a refused action; table screens may show it in place."""
        self.error(err)

    def _tick(self) -> None:
        """The countdown to the deadline, in whole seconds (empty when there is none)."""
        if self._pruning:
            # being taken down (popped, or the session ended): Textual removes the
            # widgets before the screen's Unmount stops the clock, so a tick that
            # comes in between found no countdown and ended the session as a crash
            return
        snap = self.snap
        if snap is None or snap.deadline is None or snap.state != "playing":
            shown: tuple[str, bool] = ("", False)
        else:
            left = max(0, round(snap.deadline - time.time()))
            if not self._clock_runs_for_me() and left > COARSE_CLOCK:
                # down to its step (rounded up, 11 s left of a 12-s window read
                # 15 s: more than the window has); the last seconds tick for all
                left -= left % COARSE_CLOCK
            shown = (self.tr(self.COUNTDOWN_TEXT, s=left), left <= 5)
        if shown == getattr(self, "_countdown_shown", None):
            return  # called on every refresh: repaint only when the text changes
        self._countdown_shown = shown
        text, urgent = shown
        countdown = self.query_one(f"#{self.COUNTDOWN_ID}", Static)
        countdown.update(Text(text, style="reverse bold" if urgent else "bold") if text else "", layout=False)

    def _clock_runs_for_me(self) -> bool:
        """True when this screen's seat is asked to answer before the deadline."""
        if self.throne.watching:
            return False
        try:
            return self.room.pending()
        except ClientError:
            return False

    def on_chat_panel_send(self, event: ChatPanel.Send) -> None:
        self.throne.send_chat(self.room.chat, event)
        self.throne.host_changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in HOST_KEYS.values():
            return self.snap is not None and self.snap.state == "finished" and self.is_host
        if action == "leave_match":
            return self.snap is not None and self.snap.state == "playing" and not self.throne.watching and self.room.my_seat is not None
        if action == "standin":
            return self.snap is not None and self.snap.state == "playing" and self.is_host and bool(self.standin_seats())
        return True

    def standin_seats(self) -> list[SeatInfo]:
        """The seats the host may hand to a stand-in bot now: every other player's
        that no stand-in plays yet."""
        snap, me = self.snap, self.room.my_seat
        if snap is None:
            return []
        return [s for s in snap.seats if s.kind == "human" and not s.away and s.index != me]

    def action_leave_match(self) -> None:
        """q: leave the match for good, once the player confirmed what that does."""
        if not self.check_action("leave_match", ()):
            return

        def leave(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.room.leave_match()
            except ClientError as err:
                self.error(err)
                return
            self.throne.leave_room(tell_host=False)

        self.app.push_screen(ConfirmDialog(self.tr("confirm.leave_match")), leave)

    def action_standin(self) -> None:
        """z (host): pick a player's seat, confirm, and a stand-in bot plays it
        until that player presses a key."""
        if not self.check_action("standin", ()):
            return
        snap = self.snap
        assert snap is not None
        names = self.seat_names(snap)
        seats = self.standin_seats()

        def confirm(index: int | None) -> None:
            if index is None:
                return

            def hand(yes: bool | None) -> None:
                if yes:
                    self.throne.guard(self.room.hand_to_standin, index)
                    self.throne.host_changed()

            question = self.tr("confirm.standin", name=names[index], seat=self.seat_label(index))
            self.app.push_screen(ConfirmDialog(question), hand)

        if len(seats) == 1:
            confirm(seats[0].index)
            return
        choices = [(s.index, f"{self.seat_label(s.index)}  {names[s.index]}") for s in seats]
        self.app.push_screen(ChoiceDialog(self.tr("standin.title"), choices), confirm)

    def seat_label(self, index: int) -> str:
        """A seat's number as players see and type it."""
        return str(seat_number(index))

    def said_back(self) -> None:
        """A key of this player took their seat back from a stand-in bot: say so."""
        self.throne.notify(self.tr("table.back"), markup=False)

    def action_play_again(self) -> None:
        self.throne.guard(self.room.play_again)
        self.throne.host_changed()

    def action_reopen(self) -> None:
        """The host's o after a match: the settings dialog (the game too) over the
        table; saved, everyone goes back to the waiting room with those settings;
        Escape changes nothing and moves nobody."""
        snap = self.snap
        if snap is None:
            return

        def apply(settings: RoomSettings) -> None:  # a refusal stays in the dialog
            if self.room.snapshot().state == "finished":  # (not again after a refusal of the settings)
                self.room.reopen()
            self.room.update_settings(settings)

        def saved(settings: RoomSettings | None) -> None:
            if settings is not None:
                self.throne.sync_room_screen(self)
                self.throne.host_changed()

        self.app.push_screen(RoomSettingsDialog(self.throne.lobby.games(), snap.settings, apply), saved)

    def action_leave(self) -> None:
        if self.throne.watching or (self.snap is not None and self.snap.state == "finished"):
            self.throne.leave_room()
            return

        def leave(yes: bool | None) -> None:
            if yes:
                self.throne.leave_room()

        self.app.push_screen(ConfirmDialog(self.tr("confirm.leave_table")), leave)

    def action_back(self) -> None:
        if _now() - self.opened_at < STRAY_ESC_SECONDS:
            return
        self.action_leave()


_TABLES: dict[str, type[TableScreen]] = {}
_LOOKED_UP: set[str] = set()


def register_table(game: str, screen: type[TableScreen]) -> None:
    """Use ``screen`` for rooms of ``game`` from now on."""
    _TABLES[game] = screen


def unregister_table(game: str) -> None:
    _TABLES.pop(game, None)
    _LOOKED_UP.discard(game)


def table_screen_for(game: str) -> type[TableScreen]:
    """The table screen class for ``game``: registered, its :class:`~tui.games.GameUI`'s,
    ``tui.<game>.table.Table``, or plain."""
    ui = game_ui(game)
    if game not in _TABLES and ui is not None and ui.table:
        path, _, name = ui.table.partition(":")
        _TABLES[game] = getattr(importlib.import_module(path), name)
    if game not in _TABLES and game not in _LOOKED_UP and game.isidentifier():
        _LOOKED_UP.add(game)
        try:
            module = importlib.import_module(f"tui.{game}.table")
        except ModuleNotFoundError as err:
            if err.name not in (f"tui.{game}", f"tui.{game}.table"):
                raise
        else:
            found = getattr(module, "Table", None)
            if isinstance(found, type) and issubclass(found, TableScreen):
                _TABLES.setdefault(game, found)
    if game in _TABLES:
        return _TABLES[game]
    from tui.screens.plain_table import PlainTableScreen

    return PlainTableScreen
