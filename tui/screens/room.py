"""The waiting room: seats, ready marks, host controls, room chat."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from protocol.contract import (
    ClientError,
    RoomClient,
    RoomSettings,
    RoomSnapshot,
    SeatInfo,
    seat_number,
)
from protocol.i18n import game_title, level_name, room_title, shown_name
from tui.screens.base import ChatKeys, HostScreen
from tui.screens.dialogs import ConfirmDialog, RoomSettingsDialog
from tui.summary import settings_summary
from tui.text import NameFirst, Packed
from tui.widgets import ChatPanel, KeyBar, KeySpec, PaneBox, RowList

HOST_ACTIONS = {"add_bot", "remove", "options", "start"}


def seat_status(seat: SeatInfo, f: Callable[..., str]) -> str:
    """Connection and ready marks as words (never colour alone)."""
    if seat.kind == "empty":
        return ""
    if seat.kind == "bot":  # always ready, marked as a player who is ("ready" bare read as another state)
        return f("seat.ready")
    # Ready or not comes first and whole; being online is the usual case and
    # goes unsaid, so "not ready" fits beside a long name at 80 columns.
    parts = [f("seat.ready") if seat.ready else f("seat.not_ready")]
    if not seat.connected:
        parts.append(f("seat.away"))
    if seat.away:
        parts.append(f("seat.standin"))
    elif seat.autoplay:
        parts.append(f("seat.autoplay"))
    return " · ".join(parts)


class RoomScreen(ChatKeys, HostScreen):
    """A room before its match starts (players and spectators alike)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "ready", show=False),
        Binding("a", "add_bot", show=False),
        Binding("d", "remove", show=False),
        Binding("o", "options", show=False),
        Binding("s", "start", show=False),
        Binding("t", "chat", show=False),
        Binding("escape", "back", show=False),
        Binding("enter", "sit", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("r", "ready", "key.ready"),
        ("Enter", "sit", "key.sit"),
        ("a", "add_bot", "key.add_bot"),
        ("d", "remove", "key.remove"),
        ("o", "options", "key.options"),
        ("s", "start", "key.start"),
        ("t", "chat", "key.chat"),
        ("Esc", "back", "key.leave"),
        ("F1", "app.help", "key.help"),
        ("F2", "app.toggle_lang", "key.lang"),
    ]

    def __init__(self, room: RoomClient) -> None:
        super().__init__()
        self.room = room
        self.snap: RoomSnapshot | None = None
        self._seat_rows: list[SeatInfo] = []
        self._summary = ""
        self._leaving: ConfirmDialog | None = None  # "Leave this room?", while it is asked

    def compose(self) -> ComposeResult:
        yield Static("", id="room-head", classes="head", markup=False)
        yield Static("", id="room-settings", markup=False)
        with Horizontal(id="room-main"):
            with PaneBox(id="seats-pane", classes="pane"):
                # the seats as plain-text rows (a DataTable re-made its rows' Rich
                # cells in every session at each change in the room, and left them
                # to the garbage collector), the pane's title as their title line
                yield RowList(id="seats")
                yield Static("", id="spectators", markup=False)
            yield ChatPanel(id="room-chat", classes="pane")
        yield Static("", id="room-status", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#seats", RowList).focus()

    # ------------------------------------------------------------ state
    @property
    def is_host(self) -> bool:
        return self.snap is not None and self.snap.host == self.throne.lobby.identity.name

    def my_seat(self) -> SeatInfo | None:
        seat = self.room.my_seat
        if self.snap is None or seat is None or not 0 <= seat < len(self.snap.seats):
            return None
        return self.snap.seats[seat]

    def selected_seat(self) -> SeatInfo | None:
        row = self.query_one("#seats", RowList).cursor_row
        if 0 <= row < len(self._seat_rows):
            return self._seat_rows[row]
        return None

    # --------------------------------------------------------- rendering
    def apply_lang(self) -> None:
        self.query_one("#seats", RowList).set_columns(
            [self.tr(key) for key in ("col.seat", "col.player", "col.kind", "col.status")]
        )
        self._seat_rows = []
        self.query_one(ChatPanel).set_placeholder(self.tr("chat.placeholder.room"))
        super().apply_lang()

    def refresh_data(self) -> None:
        if self.throne.room is not self.room:  # left already; this screen is on its way out
            return
        try:
            snap = self.room.snapshot()
        except ClientError as err:  # the room is gone
            self.error(err)
            if self.is_current:
                self.throne.leave_room(tell_host=False)
            return
        self.snap = snap
        leaving = self._leaving
        if snap.state != "waiting" and leaving is not None and self.app.screen is leaving:
            # the match began under "Leave this room?" (an Escape as the host started): the
            # question went with the waiting room; the table opens, where Escape asks its own
            self._leaving = None
            leaving.dismiss(None)
            return
        if self.is_current:
            if snap.state != "waiting":
                self.throne.sync_room_screen(self)
                return
            if not self.throne.watching and self.room.my_seat is None:
                self.throne.notify(self.tr("room.removed"), markup=False)
                self.throne.leave_room(tell_host=False)
                return
        s = snap.settings
        rest = Text.assemble(
            " · ",
            game_title(s.game, self.lang),
            " · ",
            self.tr("room.host_is", name=snap.host),
            " · ",
            self.tr(f"state.{snap.state}"),
            (" · " + self.tr("lobby.private")) if s.private else "",
            no_wrap=True,
            overflow="ellipsis",
        )
        # a long name is cut to leave the host and the state in (it left them out)
        head = NameFirst(room_title(s.name, snap.host, self.lang), rest)
        self.query_one("#room-head", Static).update(head, layout=False)
        summary = settings_summary(s, self.lang)
        if s.private and s.code and self.is_host:  # the host shares it with friends
            summary = self.tr("room.code_is", code=s.code) + " · " + summary
        if summary != self._summary:  # may wrap to a second line: a layout only when it changes
            self._summary = summary
            self.query_one("#room-settings", Static).update(Packed(Text(summary), (" · ",)))  # breaks between settings
        self._show_seats(snap)
        spectators = self.tr("punct.list").join(snap.spectators) if snap.spectators else "—"
        self.query_one("#spectators", Static).update(
            Text(self.tr("room.spectators", names=spectators), no_wrap=True, overflow="ellipsis"),
            layout=False,
        )
        self.query_one(ChatPanel).set_lines(self.room.chat_lines())
        self._show_status()
        self.refresh_keys()

    _cursor_placed = False  # the seats' cursor was put on the player's own seat

    def _show_seats(self, snap: RoomSnapshot) -> None:
        taken = sum(1 for seat in snap.seats if seat.kind != "empty")
        table = self.query_one("#seats", RowList)
        table.set_title(self.tr("room.seats", taken=taken, n=len(snap.seats)))
        if snap.seats == self._seat_rows:
            return
        mine = self.room.my_seat
        rows: list[tuple[str, ...]] = []
        for seat in snap.seats:
            marker = "▶" if seat.index == mine else " "  # your seat, also without colour
            if seat.kind == "empty":
                name = self.tr("seat.empty")
            else:  # a bot in the reader's language, as at the table
                name = shown_name(seat.name, self.lang) + (" ♛" if seat.name == snap.host else "")
            kind = self.tr("kind.guest" if seat.guest else f"kind.{seat.kind}")
            if seat.kind == "bot" and seat.level is not None:  # "Bot 2" says it is a bot: the kind says how well it plays
                kind = level_name(seat.level, self.lang)
            rows.append((f"{marker}{seat_number(seat.index)}", name, kind, seat_status(seat, self.tr)))
        table.set_rows(rows)
        self._seat_rows = list(snap.seats)
        if not self._cursor_placed and mine is not None:
            self._cursor_placed = True  # the cursor starts where the ▶ is (the first row read as the host's own:
            table.move_cursor(mine)  # three downs from seat 2 meant seat 5 and removed the player at 4)

    def refresh_keys(self) -> None:
        if self.live:  # a ready player's r takes the mark back: the bar says so
            me = self.my_seat()
            ready = me is not None and me.ready and not self.throne.watching
            keys = [(k, a, "key.unready" if a == "ready" and ready else label) for k, a, label in self.KEYS]
            self.keybar().show(self, self.CHAT_KEYS if self.typing() else keys, self.lang)

    def _show_status(self) -> None:
        if self.throne.watching:
            full = self.snap is not None and all(seat.kind != "empty" for seat in self.snap.seats)
            msg = self.tr("room.status.watching_full" if full else "room.status.watching")
        elif self.is_host:
            msg = self.tr("room.status.host")
        else:
            me = self.my_seat()
            ready = me is not None and me.ready
            msg = self.tr("room.status.ready" if ready else "room.status.not_ready")
        self.query_one("#room-status", Static).update(msg, layout=False)

    # ----------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        watching = self.throne.watching
        if action in HOST_ACTIONS and not self.is_host:
            return False
        if action == "ready":
            return not watching and self.my_seat() is not None
        if action == "sit":
            seat = self.selected_seat()
            return (seat is not None and seat.kind == "empty") or None
        if action == "remove":
            seat = self.selected_seat()
            return (seat is not None and seat.kind != "empty" and seat.index != self.room.my_seat) or None
        return True

    def on_key(self, event: events.Key) -> None:
        """Enter on a seat taken by another (the key bar shows "Sit here" dimmed
        there) says why nothing happens: the status line says "take an empty
        seat with Enter", and Enter was silent. Only with the seats in focus:
        Enter in the chat line sends the line."""
        if event.key != "enter" or self.focused is None or self.focused.id != "seats":
            return
        seat = self.selected_seat()
        if seat is not None and seat.kind != "empty" and seat.index != self.room.my_seat:
            event.stop()
            self.throne.show_error(ClientError("seat-taken", "that seat is taken"))

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        self.refresh_keys()

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        event.stop()
        self.action_sit()

    def _after(self) -> None:
        self.throne.host_changed()

    def action_sit(self) -> None:
        seat = self.selected_seat()
        if seat is None or seat.kind != "empty":
            return
        if self.throne.watching:  # a spectator joins the room first, then moves
            client = self.throne.guard(self.throne.lobby.join, self.room.room_id, self.throne.room_code)
            if client is None:
                return
            self.throne.become_player(client)
            self.room = client
        if self.room.my_seat != seat.index:
            self.throne.guard(self.room.take_seat, seat.index)
        self._after()

    def action_ready(self) -> None:
        me = self.my_seat()
        if me is None:
            return
        self.throne.guard(self.room.set_ready, not me.ready)
        self._after()

    def action_add_bot(self) -> None:
        seat = self.selected_seat()
        index = seat.index if seat is not None and seat.kind == "empty" else None
        self.throne.guard(self.room.add_bot, index)
        self._after()

    def action_remove(self) -> None:
        seat = self.selected_seat()
        if seat is None or seat.kind == "empty":
            return
        if seat.kind == "bot":
            self.throne.guard(self.room.remove_bot, seat.index)
            self._after()
            return

        def kick(yes: bool | None) -> None:
            if yes:
                self.throne.guard(self.room.kick, seat.index)
                self._after()

        self.app.push_screen(ConfirmDialog(self.tr("confirm.kick", name=seat.name)), kick)

    def action_options(self) -> None:
        if self.snap is None:
            return
        games = self.throne.lobby.games()

        def saved(settings: RoomSettings | None) -> None:
            if settings is not None:
                self._after()

        self.app.push_screen(RoomSettingsDialog(games, self.snap.settings, self.room.update_settings), saved)

    def action_start(self) -> None:
        self.throne.guard(self.room.start)
        self._after()

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#seats", RowList).focus()
            return
        if self.throne.watching:
            self.throne.leave_room()
            return

        def leave(yes: bool | None) -> None:
            self._leaving = None
            if yes:
                self.throne.leave_room()

        self._leaving = ConfirmDialog(self.tr("confirm.leave_room"))
        self.app.push_screen(self._leaving, leave)

    def on_chat_panel_send(self, event: ChatPanel.Send) -> None:
        self.throne.send_chat(self.room.chat, event)
        self._after()
