"""The lobby: rooms, who is online, leaderboard, lobby chat, the host key."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from protocol.contract import (
    ClientError,
    LeaderRow,
    RoomClient,
    RoomSettings,
    RoomSummary,
    leader_ranks,
)
from protocol.i18n import Lang, game_title, guest_marked, room_title
from protocol.names import name_key
from tui.screens.base import ChatKeys, HostScreen
from tui.screens.dialogs import (
    CodeDialog,
    LeaderboardDialog,
    OnlineDialog,
    PlayerSettingsDialog,
    RoomSettingsDialog,
)
from tui.text import NameRows, clip, literal, name_rows
from tui.widgets import ChatPanel, KeyBar, KeySpec, LineStatic, RowList

LEADERS_EVERY = 20.0  # seconds between leaderboard reads while the lobby is shown
BOTTOM_ROWS = 10  # the chat and who is online: half of a short terminal (the rooms keep rows) ...
BOTTOM_SHARE = 0.4  # ... or two fifths of a tall one (at 60 rows the chat had 8 lines under 46 of rooms)


class SidePane:
    """The lobby's side pane in ``rows`` lines: who is online, then the top of
    the leaderboard. The names take the lines they need up to what the board
    does not, and at least half of the pane (and two lines) when both are long;
    a board that is only a note ("no ranked matches yet") keeps one line."""

    def __init__(
        self, online_title: Text, names: Sequence[str], sep: str, more: Callable[[int], str],
        board_title: Text, board: RenderableType, ranked: bool, rows: int,
    ) -> None:
        self.online_title, self.names, self.sep, self.more = online_title, list(names), sep, more
        self.board_title, self.board, self.ranked, self.rows = board_title, board, ranked, rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        free = max(0, self.rows - 2)  # under the two titles
        need = len(name_rows(self.names, self.sep, width, max(1, len(self.names)), self.more))
        board = console.render_lines(self.board, options.update(height=None), pad=False)
        wanted = len(board) if self.ranked else 1
        names = min(need, max(2, free - wanted, (free + 1) // 2))
        yield self.online_title
        yield NameRows(self.names, self.sep, names, self.more)
        yield self.board_title
        left = max(1, free - names)
        if len(board) > left and isinstance(self.board, Text):  # a note cut after whole lines, ending in "…"
            lines = list(self.board.wrap(console, width))[:left]
            last = lines[-1]
            last.truncate(max(0, width - 1))
            last.rstrip()
            last.append("…")
            yield from lines
            return
        yield self.board


class SideStatic(LineStatic):
    """The side pane's widget: laid out anew (another terminal size), the lobby
    shares its lines out again (the pane alone: the rest of the lobby is as it was)."""

    def on_resize(self, event: events.Resize) -> None:
        if isinstance(self.screen, LobbyScreen) and self.screen.is_mounted:
            self.screen.refresh_side()


class LobbyScreen(ChatKeys, HostScreen):
    """The first screen of every session."""

    FIXED_LAYOUT = True  # lines and panes of fixed or fractional size (a tenth of a login's CPU less)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", show=False),
        Binding("w", "watch", show=False),
        Binding("c", "create", show=False),
        Binding("t", "chat", show=False),
        Binding("b", "leaders", show=False),
        Binding("o", "online", show=False),
        Binding("l", "language", show=False),
        Binding("escape", "back", show=False),
        Binding("q", "app.quit_app", show=False),
        Binding("f9", "app.admin", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("Enter", "join", "key.join"),
        ("w", "watch", "key.watch"),
        ("c", "create", "key.create"),
        ("t", "chat", "key.chat"),
        ("b", "leaders", "key.leaders"),
        ("o", "online", "key.online"),
        ("F1", "app.help", "key.help"),
        ("F2", "app.toggle_lang", "key.lang"),
        ("l", "language", "key.settings"),
        ("F9", "app.admin", "key.admin"),
        ("q", "app.quit_app", "key.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._rooms: list[RoomSummary] = []
        self._kept_id: str | None = None  # the room whose kept seat the cursor was last put on
        self._leaders_at = -LEADERS_EVERY
        self._titles: dict[str, str] = {}  # English titles of the games offered
        self._leaders: list[LeaderRow] = []

    def compose(self) -> ComposeResult:
        yield LineStatic("", id="lobby-head", classes="head", markup=False)
        yield RowList(id="rooms", classes="pane")
        with Horizontal(id="lobby-bottom"):
            yield ChatPanel(id="lobby-chat", classes="pane")
            yield SideStatic("", id="side-pane", classes="pane", markup=False)  # who is online, the leaders
        yield LineStatic("", id="fingerprint", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self._titles = {gid: title for gid, title, _lo, _hi in self.throne.lobby.games()}
        self._size_bottom(self.app.size.height)  # before the first layout: no second one at login
        self.query_one("#rooms", RowList).focus()

    def on_resize(self, event: events.Resize) -> None:
        self._size_bottom(event.size.height)

    def side_rows(self) -> int:
        """Lines inside the side pane (as laid out; before the first layout, as the CSS wants)."""
        pane = self.query_one("#side-pane", SideStatic)
        return pane.content_size.height or BOTTOM_ROWS - pane.styles.gutter.height

    def _size_bottom(self, height: int) -> None:
        rows = max(BOTTOM_ROWS, int(height * BOTTOM_SHARE))
        bottom = self.query_one("#lobby-bottom").styles
        if bottom.max_height is None or bottom.max_height.value != rows:
            bottom.max_height = rows

    # ------------------------------------------------------------- rendering
    def apply_lang(self) -> None:
        self.query_one("#rooms", RowList).set_columns(
            [self.tr(key) for key in ("col.room", "col.game", "col.seats", "col.watchers", "col.state", "col.host")]
        )
        self.query_one(ChatPanel).set_placeholder(self.tr("chat.placeholder.lobby"))

        self.query_one("#fingerprint", Static).update(  # one line: cut with an ellipsis where narrow
            Text(self.tr("lobby.fingerprint", fp=self.throne.lobby.host_fingerprint), no_wrap=True, overflow="ellipsis", end="")
        )
        self._rooms = []
        self._shown.clear()
        self._leaders_at = -LEADERS_EVERY
        super().apply_lang()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self._leaders_at = -LEADERS_EVERY  # back from a match: fresh scores

    def refresh_data(self) -> None:
        lobby = self.throne.lobby
        me = lobby.identity
        guests = lobby.online_guests()
        online = [guest_marked(name, name in guests, self.lang) for name in lobby.online()]
        who = guest_marked(me.name, me.guest, self.lang)
        motd = lobby.motd()
        if self._changed("lobby-head", (who, len(online), self.lang, motd)):
            head = Text.assemble(
                ("throneroom", "bold"),
                " · ",
                (who, "bold"),
                " · ",
                self.tr("lobby.count_online", n=len(online)),
                " · ",
                self.tr("lang.name"),
                *((" · ", (motd, "italic")) if motd else ()),
                no_wrap=True,
                overflow="ellipsis",
            )
            self.query_one("#lobby-head", Static).update(head, layout=False)
        self._show_rooms(lobby.rooms())
        if time.monotonic() - self._leaders_at > LEADERS_EVERY:
            self._leaders_at = time.monotonic()
            self._leaders = self.throne.lobby.leaderboard()[:10]
        self.refresh_side(online)
        self.query_one(ChatPanel).set_lines(lobby.chat_lines())

    def refresh_side(self, online: Sequence[str] | None = None) -> None:
        """The side pane alone, for the lines it has now (its size changed, or the lobby's data)."""
        if online is None:
            guests = self.throne.lobby.online_guests()
            online = [guest_marked(name, name in guests, self.lang) for name in self.throne.lobby.online()]
        rows = self.side_rows()
        if self._changed("side-pane", (tuple(online), self._leaders, self.lang, rows)):
            self._show_side(online, rows)

    def _seated_in(self, room: RoomSummary) -> bool:
        me = name_key(self.throne.lobby.identity.name)
        return any(name_key(p) == me for p in room.players)

    def _kept_seat(self, rooms: list[RoomSummary]) -> RoomSummary | None:
        """The room of a match being played where this player has a seat (it is
        theirs until the match ends), if any."""
        return next((r for r in rooms if r.state == "playing" and self._seated_in(r)), None)

    def _show_rooms(self, rooms: list[RoomSummary]) -> None:
        title = self.tr("lobby.rooms", n=len(rooms))
        if not rooms:
            title += "  " + self.tr("lobby.no_rooms")
        mine = self._kept_seat(rooms)
        if mine is not None:  # a seat kept after leaving its table: say where it is and how to get back
            title += "  " + self.tr("lobby.seat_kept", room=clip(room_title(mine.name, mine.host, self.lang), 20))
        table = self.query_one("#rooms", RowList)
        table.set_title(title)
        if rooms == self._rooms:
            return
        selected = self.selected_room()
        rows: list[tuple[str, ...]] = []
        for room in rooms:
            taken = room.humans + room.bots
            state = self.tr(f"state.{room.state}")
            if mine is not None and room.id == mine.id:
                state += " · " + self.tr("lobby.your_seat")
            if room.private:
                state += " · " + self.tr("lobby.private")
            rows.append((
                clip(room_title(room.name, room.host, self.lang), 20),
                game_title(room.game, self.lang, short=True, fallback=self._titles.get(room.game, "")),
                f"{taken}/{room.seats}",
                str(room.spectators),
                state,
                clip(room.host, 16),
            ))
        table.set_rows(rows)
        emptiness_changed = bool(rooms) != bool(self._rooms)
        self._rooms = list(rooms)
        if emptiness_changed:
            self.refresh_keys()  # join and watch come and go with the rooms
        if mine is not None and mine.id != self._kept_id:  # a seat just left at its table: the cursor goes to its room
            selected = mine
        self._kept_id = mine.id if mine is not None else None
        if selected is not None:
            for row, room in enumerate(rooms):
                if room.id == selected.id:
                    table.move_cursor(row)

    def _show_side(self, online: Sequence[str], rows: int) -> None:
        """The side pane, one widget: who is online (two lines at most) and the
        top of the leaderboard (read every LEADERS_EVERY seconds, not on every
        lobby change)."""
        title = Style(bold=True, underline=True)
        board: RenderableType
        if not self._leaders:
            board = Text(self.tr("lobby.no_leaders"))
        else:
            # of every game: no points (a Sultans point and an Overlord gold do not add up). The
            # numbers keep their width and the name takes what is left (at 60 columns 8 cells)
            grid = Table.grid(padding=(0, 1), expand=True)
            grid.add_column(justify="right", no_wrap=True)
            grid.add_column(no_wrap=True, overflow="ellipsis", ratio=1)
            grid.add_column(justify="right", no_wrap=True)  # wins/matches
            grid.add_column(justify="right", no_wrap=True)  # win rate
            grid.add_row(
                Text("#"), Text(self.tr("col.player"), no_wrap=True, overflow="ellipsis"),
                Text(self.tr("col.record")), Text(self.tr("col.rate_short")),
                style="bold",
            )
            for rank, row in zip(leader_ranks(self._leaders, points=False), self._leaders, strict=True):
                grid.add_row(
                    Text(str(rank)), literal(row.name), Text(f"{row.wins}/{row.matches}"), Text(row.percent)
                )
            board = grid
        pane = SidePane(
            Text(self.tr("lobby.online", n=len(online)), style=title, no_wrap=True, overflow="ellipsis"),
            online, self.tr("punct.list"), lambda n: self.tr("lobby.online_more", n=n),
            Text(self.tr("lobby.leaders"), style=title, no_wrap=True, overflow="ellipsis"),
            board, bool(self._leaders), rows,
        )
        leaders = tuple((row.name, row.wins, row.matches) for row in self._leaders)
        share = ("lobby-side", tuple(online), leaders, self.lang, rows)  # every lobby shows the same pane
        self.query_one("#side-pane", SideStatic).update(pane, layout=False, share=share)

    # --------------------------------------------------------------- actions
    def selected_room(self) -> RoomSummary | None:
        table = self.query_one("#rooms", RowList)
        if not self._rooms or table.row_count == 0:
            return None
        row = table.cursor_row
        if 0 <= row < len(self._rooms):
            return self._rooms[row]
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("join", "watch"):
            return self.selected_room() is not None or None
        return True

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        event.stop()
        self.action_join()

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        self.refresh_keys()

    def action_join(self) -> None:
        self._enter(watch=False)

    def action_watch(self) -> None:
        self._enter(watch=True)

    def _enter(self, *, watch: bool) -> None:
        room = self.selected_room()
        if room is None:
            return
        lobby = self.throne.lobby
        call = lobby.watch if watch else lobby.join
        try:  # a room needing no code (public, or back to one's own seat) is entered at once
            client = call(room.id, "")
        except ClientError as err:
            if err.code != "code-needed":  # a ban, a full room...: said before any code is asked for
                self.throne.show_error(err)
                return
        else:
            self.throne.enter_room(client, watching=watch, code="")
            return
        entered: list[RoomClient] = []

        def ask(code: str) -> None:  # in the dialog: a wrong code is said there
            entered.append(call(room.id, code))

        def went(code: str | None) -> None:
            if code is not None and entered:
                self.throne.enter_room(entered[-1], watching=watch, code=code)

        self.app.push_screen(CodeDialog(room_title(room.name, room.host, self.lang), ask), went)

    def action_create(self) -> None:
        games = self.throne.lobby.games()
        if not games:
            return
        if self._kept_seat(self.throne.lobby.rooms()) is not None:  # refused: say so before the form is filled in
            self.throne.show_error(ClientError("in-match", "you have a seat in a match being played"))
            return

        made: list[RoomClient] = []

        def create(settings: RoomSettings) -> None:  # in the dialog: a refusal stays there
            made.append(self.throne.lobby.create_room(settings))

        def created(settings: RoomSettings | None) -> None:
            if settings is not None and made:
                self.throne.enter_room(made[-1], watching=False)

        self.app.push_screen(RoomSettingsDialog(games, None, create), created)

    def action_leaders(self) -> None:
        self.app.push_screen(LeaderboardDialog(self.throne.lobby.leaderboard, self.throne.lobby.games()))

    def action_online(self) -> None:
        lobby = self.throne.lobby
        self.app.push_screen(OnlineDialog(lobby.online(), lobby.online_guests()))

    def action_language(self) -> None:
        def chosen(lang: Lang | None) -> None:
            if lang is not None:
                self.throne.set_lang(lang)

        self.app.push_screen(PlayerSettingsDialog(), chosen)

    def refresh_keys(self) -> None:
        if self.live:
            self.keybar().show(self, self.CHAT_KEYS if self.typing() else self.KEYS, self.lang)

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#rooms", RowList).focus()

    def on_chat_panel_send(self, event: ChatPanel.Send) -> None:
        self.throne.send_chat(self.throne.lobby.chat, event)
        self.throne.host_changed()
