"""The throneroom Textual app: one per SSH session (or per local run).

The app talks to the host only through :mod:`protocol.contract`. Change
notifications from the host only mark the app dirty; a single flush, at most
:data:`FLUSH_INTERVAL` apart, re-reads state into the screen in view, so a
busy room costs each session at most ~8 screen updates per second.

Screens: the lobby (always at the bottom of the stack), the waiting room
(:mod:`tui.screens.room`) or the room's table (chosen per game by
:mod:`tui.tables`), and modal dialogs on top.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.driver import Driver
from textual.filter import ANSIToTruecolor, LineFilter
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import Widget
from textual.widgets import Input
from textual.widgets._toast import ToastRack

from protocol.contract import ClientError, LobbyClient, RoomClient, RoomSnapshot
from protocol.i18n import Lang, error_text, t
from tui.screens.admin import AdminScreen
from tui.screens.base import HostScreen, Translatable
from tui.screens.dialogs import ConfirmDialog
from tui.screens.help import HelpScreen
from tui.screens.invite import InviteScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.room import RoomScreen
from tui.tables import TableScreen, table_screen_for
from tui.turns import Turns
from tui.widgets import ChatPanel

T = TypeVar("T")

FLUSH_INTERVAL = 0.125  # seconds between screen refreshes caused by the host (<= 8/s)
LOBBY_FLUSHES = 4
"""Lobby changes (logins, rooms, lobby chat) reach the lobby screen at most every
``LOBBY_FLUSHES * FLUSH_INTERVAL`` (0.5 s): with many players logging in at
once every login changes every lobby screen's "online" line."""
INPUT_ANSWER = 0.25
"""Seconds after a player's input during which their screen's frames are urgent
turns (:class:`tui.turns.Turns`): the echo of a key comes before frames that
other players' actions caused."""
SMALLEST = (60, 20)
"""The smallest terminal every screen is made to fit (the tables are tested at
it): in a smaller one the player is told once, each time it gets too small."""


class Coalesced:
    """Calls ``action`` soon after :meth:`poke`, at most once per ``interval()``
    seconds: pokes that come meanwhile are merged into the next call.

    With ``turns`` (the SSH host: :data:`tui.turns.TURNS`) the call is queued
    there, with every session's screen work (the app keeps reading keys
    meanwhile); pokes while it waits are merged into it too."""

    def __init__(
        self, app: App[Any], interval: Callable[[], float], action: Callable[[], None], turns: Turns | None = None
    ) -> None:
        self._app = app
        self._interval = interval
        self._action = action
        self._turns = turns
        self._armed = False
        self._last = 0.0
        self._queued: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def poke(self) -> None:
        if not self._armed:
            self._armed = self._app.call_later(self._arm)

    def cancel(self) -> None:
        """Drop a call waiting for its time or its turn (the app is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._queued is not None:
            self._queued.cancel()
            self._queued = None

    def _arm(self) -> None:
        wait = self._last + self._interval() - time.monotonic()
        if wait > 0:
            # the event loop's timer, in the app's context (this runs in its message
            # loop): a Textual timer is a task, an event and the repr of the app each
            self._timer = asyncio.get_running_loop().call_later(wait, self._fire)
        else:
            self._run()

    def _fire(self) -> None:
        self._timer = None
        self._guarded(self._run)

    def _run(self) -> None:
        if self._turns is None:
            self._call()
        elif self._queued is None:  # queued from the app's message loop: runs in its context
            self._queued = self._turns.run(self._call_in_turn, refresh=True)

    def _call_in_turn(self) -> None:
        self._queued = None
        self._guarded(self._call)

    def _guarded(self, step: Callable[[], None]) -> None:
        """Run ``step`` from a timer or a turn: what it raises ends the session,
        as if raised in the app's own handler. Not once the app is closing: a
        call that came due while Textual takes its screens down would update
        widgets already removed (the unmount that cancels it comes last)."""
        app = self._app
        if app._exit or not app.is_running:
            self._armed = False
            return
        try:
            step()
        except Exception as error:
            self._app._handle_exception(error)

    def _call(self) -> None:
        self._armed = False
        self._last = time.monotonic()
        self._action()


_SHARED_TRUECOLOR: dict[tuple[int, bool], ANSIToTruecolor] = {}
_CSS_VARIABLES: dict[tuple[int, str, type], tuple[Theme, dict[str, str]]] = {}


def shared_filter(line_filter: LineFilter) -> LineFilter:
    """One ANSI-to-truecolor filter per terminal theme for the whole process.

    Strips cache what a filter made of them, keyed by the filter object; every
    App making its own filter meant the shared strips (seat ring, logs, table
    lines: the same text on every screen of a room) were filtered again for
    each session. The filter holds no state but its theme and ``enabled``,
    which ThroneApp never changes after start (see ``_watch_ansi_color``)."""
    if type(line_filter) is not ANSIToTruecolor:
        return line_filter
    theme = line_filter._terminal_theme
    key = (id(theme), line_filter.enabled)
    shared = _SHARED_TRUECOLOR.get(key)
    if shared is None:  # the entry keeps the theme alive, so its id stays its own
        shared = _SHARED_TRUECOLOR[key] = line_filter
    return shared


class ThroneApp(App[None]):
    """A player's session: lobby, rooms, tables."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    TITLE = "throneroom"
    ALLOW_SELECT = False
    """No text selection by mouse inside the app (the terminal's own, usually
    Shift and drag, still works): Textual's started on the widget a click hit by
    the last layout, and one removed since (a toast that timed out, a pane a
    new screen replaced) has no parent: ``'NoneType' object has no attribute
    'region'``, a session crash seen over ssh."""
    flush_interval: ClassVar[float] = FLUSH_INTERVAL  # tests may set 0
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", show=False),
        Binding("f2", "toggle_lang", show=False),
        # Textual's own: Ctrl+Q quit at once, Ctrl+C said in English "press ctrl+q";
        # both ask as q does, in the player's language, over any screen or dialog
        Binding("ctrl+q", "quit_app", show=False, priority=True),
        Binding("ctrl+c", "interrupt", show=False, priority=True),
    ]

    def __init__(
        self,
        lobby: LobbyClient,
        *,
        driver_class: type[Driver] | None = None,
        turns: Turns | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(driver_class=driver_class, **kw)
        self.retired_nodes: weakref.WeakSet[Widget] = weakref.WeakSet()  # tui.runtime.retire
        self._disable_tooltips = True  # none are used: spares a widget per screen (Textual mounts one anyway)
        self._filters = [shared_filter(f) for f in self._filters]
        self.lobby = lobby
        self.lang: Lang = lobby.identity.lang
        self.bell_on = lobby.identity.bell  # the bell rings when a table waits for this player's decision
        self.ask_every = lobby.identity.ask_every  # asked in every window, even with only pass to answer
        self.room: RoomClient | None = None
        self.room_code = ""  # the private code this session entered the room with
        self.watching = False
        self.turns = turns  # screen updates take turns too (HostScreen._on_timer_update)
        self._input_at = -1.0  # when the player's last key, click or paste came
        self._small_said = ""  # the terminal is too small and the player was told this
        self._host_flush = Coalesced(self, lambda: self.flush_interval, self.refresh_screens, turns)
        self._lobby_flush = Coalesced(self, lambda: self.flush_interval * LOBBY_FLUSHES, self._refresh_lobby, turns)

    def get_css_variables(self) -> dict[str, str]:
        """Textual's, made once per theme for the whole process: Textual builds
        the theme's colour system for every App (~1 ms of each login)."""
        theme = self.current_theme
        key = (id(theme), theme.name, type(self))
        made = _CSS_VARIABLES.get(key)
        if made is None:
            made = (theme, super().get_css_variables())  # the entry keeps the theme, so its id stays its own
            _CSS_VARIABLES[key] = made
        self.theme_variables = dict(made[1])
        return dict(made[1])

    def get_theme(self, theme_name: str) -> Theme | None:
        """Textual's, without copying the registry first: Textual builds a new
        dict of every registered theme (21 of them) at each call, and
        ``current_theme`` calls it whenever a line is drawn with the app's
        colours (~100 calls in a login, several in each frame): ``current_theme``
        took 2.3 us, 0.7 us with this (``timeit``)."""
        theme = self._registered_themes.get(theme_name)  # the usual case: one name
        return theme if theme is not None else super().get_theme(theme_name)

    # ----------------------------------------------------------------- life cycle
    def get_default_screen(self) -> Screen[Any]:
        """The first screen: the lobby (no blank default screen to build and
        draw first), or for a player coming back to a seat, that seat's room or
        table on its own: the lobby is built when the player goes back to it
        (:meth:`_pop_to_lobby`), not under the table. That lobby cost every
        player reconnecting ~20 ms of the server's CPU (a third of a reconnect
        to a table), and after a restart mid-match every seated player
        reconnects at once."""
        if self.lobby.identity.invite_needed:  # a newcomer to a members-only club: the code first
            invite = InviteScreen()
            invite._push_result_callback(invite, None)  # switch_screen takes it off (see below)
            return invite
        try:
            room = self.lobby.current_room()
            screen = None if room is None else self._take_room(room, watching=room.my_seat is None)
        except ClientError as err:
            self.call_later(self.show_error, err)
            screen = None
        if screen is None:
            return LobbyScreen()
        # As Textual's push_screen does for a screen (not for its default one):
        # its CSS, and a result callback for switch_screen to take off it.
        self._load_screen_css(screen)
        screen._push_result_callback(screen, None)
        return screen

    def on_mount(self) -> None:
        self.lobby.set_listener(self.lobby_changed)
        ident = self.lobby.identity
        if not ident.invite_needed:
            self._say_motd()
        if ident.asked_as:  # "h1[/b]x" plays as "h1bx": say so, not only in the online list
            self.notify(self.tr("lobby.renamed", asked=ident.asked_as, name=ident.name), markup=False, timeout=12)
        self._check_small(self.size.width, self.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._check_small(event.size.width, event.size.height)

    def _check_small(self, width: int, height: int) -> None:
        """Tell the player once when the terminal becomes too small to show
        everything (a seat of the ring, a pane's last lines would be missing);
        while the notice is on screen it follows the size, and it goes as soon
        as the size fits."""
        small = width < SMALLEST[0] or height < SMALLEST[1]
        shown = [n for n in self._notifications if self._small_said and n.message == self._small_said]
        if small:
            need_w, need_h = SMALLEST
            text = self.tr("app.small", width=width, height=height, need_w=need_w, need_h=need_h)
            if not self._small_said or (shown and text != self._small_said):  # (still on screen: the new size)
                for old in shown:
                    self._unnotify(old, refresh=False)
                self.notify(text, severity="warning", markup=False, timeout=10)
                self._small_said = text
        else:
            self._small_said = ""
            for old in shown:
                self._unnotify(old, refresh=False)
            if shown:
                self._refresh_notifications()

    def on_unmount(self) -> None:
        self._host_flush.cancel()
        self._lobby_flush.cancel()
        self.lobby.set_listener(None)
        if self.room is not None:
            self.room.set_listener(None)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.InputEvent, events.Paste)):
            self._input_at = time.monotonic()
            if isinstance(event, events.Key) and self._came_back():
                return  # the key gave the seat back; what it was for was meant for a table not yet seen
        await super().on_event(event)

    def _came_back(self) -> bool:
        """Any key of a player whose seat a stand-in bot plays (away after two
        timeouts, or handed over by the host) gives the seat back."""
        room = self.room
        if room is None or self.watching:
            return False
        try:
            seat, snap = room.my_seat, room.snapshot()
            if seat is None or snap.state != "playing" or not 0 <= seat < len(snap.seats) or not snap.seats[seat].away:
                return False
            back = room.come_back()
        except ClientError:
            return False
        if back:
            table = next((s for s in reversed(self.screen_stack) if isinstance(s, TableScreen)), None)
            if table is not None:
                table.said_back()
            else:
                self.notify(self.tr("table.back"), markup=False)
            self.host_changed()
        return back

    def answers_input(self) -> bool:
        """Whether a frame drawn now may show the answer to the player's input
        (a key, a click, a paste within :data:`INPUT_ANSWER` seconds)."""
        return time.monotonic() - self._input_at < INPUT_ANSWER

    # ----------------------------------------------------- coalesced refreshing
    def host_changed(self) -> None:
        """Listener given to the room: cheap, only arms one coalesced refresh."""
        self._host_flush.poke()

    def _watch_ansi_color(self, ansi_color: bool | None) -> None:
        """Textual flips ``enabled`` on the app's filter in place; the filter is
        shared between sessions here, so this app gets its own first."""
        self._filters = [
            ANSIToTruecolor(f._terminal_theme, enabled=f.enabled) if type(f) is ANSIToTruecolor else f
            for f in self._filters
        ]
        super()._watch_ansi_color(ansi_color)

    def _refresh_notifications(self) -> None:
        """Screens are composed without a toast rack (``HostScreen._extend_compose``):
        the first notification shown on a screen mounts one, then Textual's own
        refresh fills it. (Dialogs compose Textual's.)"""
        if self._notifications and self.screen_stack:
            screen = self.screen
            if not screen.is_attached:  # the app is exiting: nobody will read it
                return
            if not screen.is_mounted:
                # pushed a moment ago and not composed yet: a dialog composes its
                # own rack (Textual's), and one mounted now made that a duplicate id
                screen.call_after_refresh(self._refresh_notifications)
                return
            if not any(isinstance(node, ToastRack) for node in screen._nodes):
                screen.mount(ToastRack(id="textual-toastrack"))
                screen.call_after_refresh(self._refresh_notifications)
                return
        super()._refresh_notifications()

    def lobby_changed(self) -> None:
        """Listener given to the lobby. Only the lobby screen shows lobby state
        (other screens read their room); it is refreshed at a calmer pace, and
        when it comes back on top (``HostScreen.on_screen_resume``)."""
        self._lobby_flush.poke()

    def _refresh_lobby(self) -> None:
        for text in self.lobby.take_notices():  # an admin's word to this player, wherever they are
            self.notify(self.tr("admin.notice", text=text), markup=False, timeout=30)
        screen = self._top_host_screen()
        if isinstance(screen, LobbyScreen) and screen.live:
            screen.refresh_data()

    def _top_host_screen(self) -> HostScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, HostScreen):
                return screen
        return None

    def refresh_screens(self) -> None:
        """Re-read host state into the top-most host screen (the one in view,
        perhaps under a dialog). Screens further down catch up when they are
        back on top (``HostScreen.on_screen_resume``)."""
        screen = self._top_host_screen()
        if screen is not None and screen.live and not screen._pruning:  # not while its widgets go
            screen.refresh_data()

    # ------------------------------------------------------------------- rooms
    def enter_room(self, room: RoomClient, *, watching: bool, code: str = "") -> None:
        """Show ``room``: its waiting room or its table, above the lobby."""
        try:
            screen = self._take_room(room, watching=watching, code=code)
        except ClientError as err:
            self.show_error(err)
            return
        self._drop_errors()
        self._pop_to_lobby()
        self.push_screen(screen)

    def _drop_errors(self) -> None:
        """Refusals shown in the lobby ("the match has already started: watch
        instead") are done with once the player is in a room: they stayed on
        over the table's chat."""
        errors = [shown for shown in self._notifications if shown.severity == "error"]
        for shown in errors:
            self._unnotify(shown, refresh=False)
        if errors:
            self._refresh_notifications()

    def _take_room(self, room: RoomClient, *, watching: bool, code: str = "") -> Screen[None]:
        """Make ``room`` this session's and give the screen that shows it (a
        refusal reading it leaves the session without a room, and is raised)."""
        if self.room is not None and self.room is not room:
            self.room.set_listener(None)
        self.room = room
        self.room_code = code
        self.watching = watching
        room.set_listener(self.host_changed)
        try:
            return self.room_screen(room, room.snapshot())
        except ClientError:
            self.room = None
            room.set_listener(None)
            raise

    def _pop_to_lobby(self) -> None:
        """Close every screen above the lobby; a session that came back
        straight to its seat has none under its room: it is made now."""
        while len(self.screen_stack) > 1 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()
        if not isinstance(self.screen, LobbyScreen):
            self.switch_screen(LobbyScreen())

    def become_player(self, room: RoomClient) -> None:
        """A spectator took a seat: ``room`` (from ``lobby.join``) replaces the watching handle."""
        old = self.room
        if old is not None and old is not room:
            old.set_listener(None)
            self.guard(old.leave)
        self.room = room
        self.watching = False
        room.set_listener(self.host_changed)

    @staticmethod
    def room_screen(room: RoomClient, snap: RoomSnapshot) -> Screen[None]:
        """The waiting room, or the table screen registered for the room's game."""
        if snap.state == "waiting":
            return RoomScreen(room)
        return table_screen_for(snap.settings.game)(room)

    def sync_room_screen(self, current: Screen[Any]) -> None:
        """Called by a room screen that no longer matches the room's state
        (the match started, a new one waits, or the host started another one
        from the table): swap it for the right one, a new game's table fresh."""
        room = self.room
        if room is None or self.screen is not current:
            return
        try:
            snap = room.snapshot()
        except ClientError as err:
            self.show_error(err)
            return
        if isinstance(current, TableScreen):
            if snap.state != "waiting" and current.match_id == snap.match:
                return
        elif snap.state == "waiting":
            return
        self.switch_screen(self.room_screen(room, snap))

    def leave_room(self, *, tell_host: bool = True) -> None:
        """Back to the lobby; ``tell_host`` False when the host already removed us."""
        room = self.room
        self.room = None
        self.room_code = ""
        self.watching = False
        if room is not None:
            room.set_listener(None)
            if tell_host:
                self.guard(room.leave)
        self._pop_to_lobby()
        self.host_changed()

    # ---------------------------------------------------------------- helpers
    def tr(self, key: str, **params: object) -> str:
        return t(key, self.lang, **params)

    def show_error(self, err: ClientError) -> None:
        """A refusal as a notice; one already on the screen is not stacked again
        (a chat line refused a few times piled its notice over the screen)."""
        text = error_text(err, self.lang)
        if any(shown.message == text for shown in self._notifications):
            return
        self.notify(text, severity="error", markup=False)

    def send_chat(self, call: Callable[[str], object], sent: ChatPanel.Send) -> None:
        """A chat line to the host; a refused one (too many at once) is said and
        put back in the chat line, not lost."""
        try:
            call(sent.text)
        except ClientError as err:
            self.show_error(err)
            sent.panel.keep(sent.text)

    def guard(self, call: Callable[..., T], *args: Any) -> T | None:
        """Run a host call; a refusal is shown (translated) and gives None."""
        try:
            return call(*args)
        except ClientError as err:
            self.show_error(err)
            return None

    # ----------------------------------------------------------------- actions
    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        self.push_screen(HelpScreen())

    def action_toggle_lang(self) -> None:
        self.set_lang("zh" if self.lang == "en" else "en")

    def set_lang(self, lang: Lang) -> None:
        if lang == self.lang:
            return
        self.lang = lang
        try:
            self.lobby.set_lang(lang)
        except ClientError as err:
            self.show_error(err)
        for screen in list(self.screen_stack):
            if isinstance(screen, Translatable) and getattr(screen, "live", False):
                screen.switch_lang()

    def set_bell(self, on: bool) -> None:
        """Turn the your-turn bell on or off (kept with the identity)."""
        self.bell_on = on
        try:
            self.lobby.set_bell(on)
        except ClientError as err:
            self.show_error(err)

    def action_interrupt(self) -> None:
        """Ctrl+C: copies the text chosen in a field (as Textual's Input does),
        else asks before leaving, as q does."""
        focused = self.focused
        if isinstance(focused, Input) and focused.selected_text:
            focused.action_copy()
            return
        self.action_quit_app()

    def set_ask_every(self, on: bool) -> None:
        """Be asked in every reaction window, or not (kept with the identity; S-REACT-5, K-ORD-11)."""
        self.ask_every = on
        try:
            self.lobby.set_ask_every(on)
        except ClientError as err:
            self.show_error(err)

    def welcome_member(self) -> None:
        """A members-only club accepted this newcomer's invite code: the lobby."""
        self.switch_screen(LobbyScreen())
        self._say_motd()

    def _say_motd(self) -> None:
        motd = self.lobby.motd()
        if motd:
            self.notify(self.tr("lobby.motd", text=motd), markup=False, timeout=15)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "admin":  # F9 is offered to club admins only
            return self.lobby.identity.admin
        return super().check_action(action, parameters)

    def action_admin(self) -> None:
        """The admin screen (F9), for a club admin."""
        admin = self.lobby.admin()
        if admin is None or isinstance(self.screen, AdminScreen):
            return
        self.push_screen(AdminScreen(admin))

    def action_quit_app(self) -> None:
        """Ask before leaving (q, Ctrl+Q, Ctrl+C); asked once however often pressed."""
        if isinstance(self.screen, QuitDialog):
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(QuitDialog(self.tr("confirm.quit")), done)


class QuitDialog(ConfirmDialog):
    """The question before the session ends."""

