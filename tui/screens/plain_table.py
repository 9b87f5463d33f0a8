"""The plain table: any game's view, rendered generically, and its legal actions.

The fallback for every game without its own table screen. Enough to play a
whole match: the view (seats, own card, what the seat knows, log, scores),
the legal actions as a list (Enter plays the highlighted one; nothing is ever
played on the player's behalf), a countdown when a decision has a deadline,
room chat, and the match end with "play again" for the room's host.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from protocol.contract import ClientError, RoomClient, seat_number
from protocol.i18n import error_text, game_title, room_title
from tui.tables import TableScreen
from tui.viewrender import ViewRenderer, action_label
from tui.widgets import ChatPanel, KeyBar, KeySpec


class PlainTableScreen(TableScreen):
    """A seat's (or a spectator's) generic view of a running match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "chat", show=False),
        Binding("a", "actions", show=False),
        Binding("v", "view", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("Enter", "play_selected", "key.play"),
        ("a", "actions", "key.actions"),
        ("v", "view", "key.view"),
        ("t", "chat", "key.chat"),
        ("p", "play_again", "key.play_again"),
        ("o", "reopen", "key.reopen"),
        ("z", "standin", "table.key.standin"),
        ("q", "leave_match", "table.key.leave_match"),
        ("Esc", "back", "key.leave"),
        ("F1", "app.help", "key.help"),
        ("F2", "app.toggle_lang", "key.lang"),
    ]

    def __init__(self, room: RoomClient) -> None:
        super().__init__(room)
        self._legal: list[str] = []
        self._names: list[str] = []
        self.view_renderable: RenderableType | None = None  # the whole view as last rendered

    def compose(self) -> ComposeResult:
        with Horizontal(id="table-top"):
            yield Static("", id="table-head", classes="head", markup=False)
            yield Static("", id="countdown", markup=False)
        yield Static("", id="turn", markup=False)
        with Horizontal(id="table-main"):
            with VerticalScroll(id="view-pane", classes="pane"):
                yield Static("", id="view", markup=False)
            with Vertical(id="side-pane", classes="pane"):
                yield Static("", id="actions-title", classes="title", markup=False)
                yield OptionList(id="actions")
                yield ChatPanel(id="table-chat")
        yield Static("", id="status", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#actions", OptionList).focus()
        self._start_clock()

    # ---------------------------------------------------------- rendering
    def apply_lang(self) -> None:
        self.query_one(ChatPanel).set_placeholder(self.tr("chat.placeholder.room"))
        self._legal = []  # rebuild the labels
        super().apply_lang()

    def update_table(self) -> None:
        snap = self.snap
        assert snap is not None
        room = self.room
        watching = self.throne.watching or room.my_seat is None
        s = snap.settings
        head = Text.assemble(
            (room_title(s.name, snap.host, self.lang), "bold"),
            " · ",
            game_title(s.game, self.lang),
            " · ",
            self.tr(f"state.{snap.state}"),
            " · ",
            self.tr("table.seat_you", seat=seat_number(room.my_seat) if room.my_seat is not None else "") if not watching else self.tr("table.spectator"),
            no_wrap=True,
            overflow="ellipsis",
        )
        self.query_one("#table-head", Static).update(head, layout=False)
        self._names = self.seat_names(snap)
        view = room.view()
        legal = [] if watching else room.legal()
        pending = False if watching else room.pending()
        self._show_turn(
            pending=pending,
            legal=legal,
            watching=watching,
            finished=snap.state == "finished",
            between=bool(getattr(view, "between_rounds", False)),
        )
        if view is None:
            self.query_one("#view", Static).update(self.tr("table.no_view"))
        else:
            renderer = ViewRenderer(self._names, self.lang, room.my_seat)
            self.view_renderable = renderer.render(view)
            self.query_one("#view", Static).update(self.view_renderable)
        self._show_actions(legal, pending)
        self.query_one(ChatPanel).set_lines(room.chat_lines())
        self._tick()
        self.refresh_keys()

    def _show_turn(
        self, *, pending: bool, legal: list[str], watching: bool, finished: bool, between: bool
    ) -> None:
        if finished:
            key = "table.finished_host" if self.is_host else "table.finished"
            text = Text("■ " + self.tr(key), style="bold")
        elif between and not pending:
            text = Text("■ " + self.tr("table.between_rounds"), style="bold")
        elif watching:
            text = Text(self.tr("table.watching"))
        elif pending:
            text = Text("▶ " + self.tr("table.your_move") + " ◀", style="reverse bold")
        elif legal:
            text = Text(self.tr("table.optional"))
        else:
            text = Text(self.tr("table.waiting"), style="dim")
        self.query_one("#turn", Static).update(text, layout=False)

    def _show_actions(self, legal: list[str], pending: bool) -> None:
        self.query_one("#actions-title", Static).update(
            self.tr("table.actions", n=len(legal)) if legal else self.tr("table.no_actions"), layout=False
        )
        if legal == self._legal:
            return
        options = self.query_one("#actions", OptionList)
        options.clear_options()
        options.add_options(
            Option(Text(action_label(text, self._names)), id=str(i)) for i, text in enumerate(legal)
        )
        if legal:
            options.highlighted = 0
        self._legal = list(legal)

    # ------------------------------------------------------------ actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._play_index(event.option_index)

    def _play_index(self, index: int) -> None:
        if not 0 <= index < len(self._legal):
            return
        text = self._legal[index]
        if self.play(text):
            self.query_one("#status", Static).update(
                Text(self.tr("table.played", action=text)), layout=False
            )

    def on_refused(self, err: ClientError) -> None:
        self.query_one("#status", Static).update(
            Text("✗ " + error_text(err, self.lang), style="bold"), layout=False
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play_selected":
            return bool(self._legal) or None
        return super().check_action(action, parameters)

    def action_play_selected(self) -> None:
        highlighted = self.query_one("#actions", OptionList).highlighted
        if highlighted is not None:
            self._play_index(highlighted)

    def action_actions(self) -> None:
        self.query_one("#actions", OptionList).focus()

    def action_view(self) -> None:
        self.query_one("#view-pane", VerticalScroll).focus()

    def action_chat(self) -> None:
        self.query_one(ChatPanel).input.focus()

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#actions", OptionList).focus()
            return
        super().action_back()
