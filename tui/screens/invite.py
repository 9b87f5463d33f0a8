"""The first screen of a newcomer to a members-only club: their invite code."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from protocol.contract import ClientError
from protocol.i18n import error_text
from tui.screens.base import HostScreen
from tui.text import literal
from tui.widgets import KeyBar, KeySpec, SteadyInput


class InviteScreen(HostScreen):
    """Asks once for the code an admin gave; the lobby follows. Nothing of the club
    (rooms, chat, who is online) is shown before the code is accepted."""

    # centred as every dialog is, its keys on the terminal's last line (not right under it)
    DEFAULT_CSS = """
    InviteScreen { align: center middle; }
    InviteScreen > KeyBar { dock: bottom; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.quit_app", show=False)]
    KEYS: ClassVar[list[KeySpec]] = [
        ("Enter", "submit", "button.ok"),
        ("F2", "app.toggle_lang", "key.lang"),  # a newcomer reads the club in either language from the start
        ("Esc", "app.quit_app", "key.quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="invite"):
            yield Static("", id="invite-title", classes="dialog-text", markup=False)
            yield SteadyInput(id="invite-code", max_length=40)
            yield Static("", id="invite-error", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#invite-code", Input).focus()

    def apply_lang(self) -> None:
        self.query_one("#invite-title", Static).update(self.tr("invite.title", name=self.throne.lobby.identity.name))
        self.query_one("#invite-code", Input).placeholder = self.tr("invite.hint")
        super().apply_lang()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        code = self.query_one("#invite-code", Input).value.strip()
        if not code:
            return
        try:
            self.throne.lobby.redeem_invite(code)
        except ClientError as err:
            self.query_one("#invite-error", Static).update(literal(error_text(err, self.lang), "bold"))
            self.query_one("#invite-code", Input).select_all()  # the next code typed replaces it (an arrow key edits it)
            return
        self.throne.welcome_member()
