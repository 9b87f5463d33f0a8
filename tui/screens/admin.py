"""The admin screen (F9 in an admin's lobby): who is online, and what an admin may do
about them; the bans in force, the members, and the audit log of admin actions."""

from __future__ import annotations

import time
from typing import Any, ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from protocol.contract import AdminClient, ClientError
from protocol.i18n import error_text, room_title, t
from tui.screens.base import HostModal, HostScreen
from tui.screens.dialogs import OkCancel
from tui.text import literal
from tui.widgets import KeyBar, KeySpec, LineStatic, Marked, RowList, SteadyInput

View = Literal["online", "bans", "members", "audit"]
VIEWS: tuple[View, ...] = ("online", "bans", "members", "audit")


def _clock(at: float) -> str:
    return time.strftime("%m-%d %H:%M", time.gmtime(at))


def _short(fp: str) -> str:
    return fp if len(fp) <= 18 else fp[:18] + "…"


CLOSE_ROOMS_SHOWN = 6
"""Rooms the close-room form names (number and name) above its fields."""


class FormDialog(OkCancel, HostModal[dict[str, str] | None]):
    """A few labelled text fields; Enter on the last (or OK) answers, Escape cancels.
    ``check`` may refuse the answer (a ClientError), which stays in the dialog."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]
    KEYS: ClassVar[list[KeySpec]] = [("Enter", "submit", "button.ok"), ("Esc", "cancel", "button.cancel")]

    def __init__(
        self, title: str, fields: list[tuple[str, str, str]], check: Any = None, note: str = ""
    ) -> None:
        """``fields``: (id, catalogue key of its label, value to start with);
        ``note``: a line under the title (what the fields need to be answered)."""
        super().__init__(classes="dialog-screen")
        self._title = title
        self._note = note
        self._fields = fields
        self._check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(literal(self._title), classes="dialog-title")
            if self._note:
                yield Static(literal(self._note), classes="dialog-text")
            for field_id, _label, value in self._fields:
                yield Static("", id=f"label-{field_id}", classes="dialog-text", markup=False)
                yield SteadyInput(value=value, id=f"field-{field_id}", max_length=200)
            yield Static("", id="form-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("", id="ok", variant="primary")
                yield Button("", id="cancel")

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one(f"#field-{self._fields[0][0]}", Input).focus()

    def apply_lang(self) -> None:
        for field_id, label, _value in self._fields:
            self.query_one(f"#label-{field_id}", Static).update(self.tr(label))
        self.query_one("#ok", Button).label = self.tr("button.ok")
        self.query_one("#cancel", Button).label = self.tr("button.cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        ids = [f"field-{f[0]}" for f in self._fields]
        at = ids.index(event.input.id or "")
        if at + 1 < len(ids):
            self.query_one(f"#{ids[at + 1]}", Input).focus()
        else:
            self.action_submit()

    def action_submit(self) -> None:
        if self._dismissed:
            return
        values = {f[0]: self.query_one(f"#field-{f[0]}", Input).value.strip() for f in self._fields}
        if self._check is not None:
            try:
                self._check(values)
            except ClientError as err:
                self.query_one("#form-error", Static).update(literal(error_text(err, self.lang), "bold"))
                return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AdminScreen(HostScreen):
    """Tab switches the list (online, bans, members, audit); the keys act on the
    highlighted row. Every action goes through the host, which audits it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "next_view", show=False),
        Binding("escape", "back", show=False),
        Binding("f9", "back", show=False),
        Binding("m", "message", show=False),
        Binding("k", "kick", show=False),
        Binding("u", "mute", show=False),
        Binding("x", "ban", show=False),
        Binding("d", "lift", show=False),
        Binding("f", "free_name", show=False),
        Binding("c", "close_room", show=False),
        Binding("a", "announce", show=False),
        Binding("n", "motd", show=False),
        Binding("i", "invite", show=False),
        Binding("r", "revoke", show=False),
        Binding("g", "add_admin", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("Tab", "next_view", "admin.key.view"),
        ("m", "message", "admin.key.message"),
        ("k", "kick", "admin.key.kick"),
        ("u", "mute", "admin.key.mute"),
        ("x", "ban", "admin.key.ban"),
        ("d", "lift", "admin.key.lift"),
        ("f", "free_name", "admin.key.free"),
        ("i", "invite", "admin.key.invite"),
        ("r", "revoke", "admin.key.revoke"),
        ("g", "add_admin", "admin.key.add_admin"),
        ("a", "announce", "admin.key.announce"),
        ("n", "motd", "admin.key.motd"),
        ("c", "close_room", "admin.key.close"),
        ("Esc", "back", "key.close"),
    ]

    def __init__(self, admin: AdminClient) -> None:
        super().__init__()
        self.admin = admin
        self.view: View = "online"
        self._keys: list[str] = []  # what each row stands for (a name, a ban's number, a key)

    def compose(self) -> ComposeResult:
        yield LineStatic("", id="admin-head", classes="head", markup=False)
        yield RowList(id="admin-rows", classes="pane")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#admin-rows", RowList).focus()

    # Each list has its own keys (all of them would not fit a 60-column key bar):
    # the players online, the bans, the members and invites, the club (its log).
    _PER_VIEW: ClassVar[dict[str, View]] = {
        "message": "online", "kick": "online", "mute": "online", "ban": "online",
        "lift": "bans", "free_name": "bans",
        "invite": "members", "revoke": "members", "add_admin": "members",
        "announce": "audit", "motd": "audit", "close_room": "audit",
    }

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        wanted = self._PER_VIEW.get(action)
        return wanted is None or wanted == self.view

    # ------------------------------------------------------------------ showing
    def refresh_data(self) -> None:
        if not self.live:
            return
        head = self.tr("admin.title", view=self.tr(f"admin.view.{self.view}"))
        self.query_one("#admin-head", Static).update(literal(head, "bold"))
        rows = self.query_one("#admin-rows", RowList)
        if self.view == "online":
            players = self.admin.online_players()
            rows.set_columns([self.tr(k) for k in ("col.player", "admin.col.key", "admin.col.address", "admin.col.where", "admin.col.since")])
            self._keys = [p.name for p in players]
            rows.set_rows([
                (
                    Marked(p.name, self._marks(p.guest, p.muted)),
                    _short(p.key_fingerprint) or "-",
                    p.address or "-",
                    self.tr("admin.lobby") if p.where == "lobby" else self.tr("admin.room", room=p.where),
                    _clock(p.since),
                )
                for p in players
            ])
        elif self.view == "bans":
            bans = self.admin.bans()
            rows.set_columns([self.tr(k) for k in ("admin.col.number", "admin.col.ban", "admin.col.until", "admin.col.reason")])
            self._keys = [str(b.id) for b in bans]
            rows.set_rows([
                (str(b.id), f"{self.tr(f'admin.kind.{b.kind}')} {_short(b.value)}",
                 self.tr("admin.forever") if b.until is None else _clock(b.until), b.reason)
                for b in bans
            ])
        elif self.view == "members":
            members = self.admin.members()
            rows.set_columns([self.tr(k) for k in ("col.player", "admin.col.key", "admin.col.invited_by", "admin.col.state")])
            self._keys = [m.key_fingerprint for m in members]
            rows.set_rows([
                (m.name, _short(m.key_fingerprint), m.invited_by, self.tr("admin.revoked" if m.revoked else "admin.member"))
                for m in members
            ])
        else:
            entries = self.admin.audit()
            rows.set_columns([self.tr(k) for k in ("admin.col.when", "admin.col.who", "admin.col.what", "admin.col.reason")])
            self._keys = ["" for _ in entries]
            rows.set_rows([(_clock(a.at), a.actor, f"{a.action} {a.target}", a.reason) for a in entries])

    def _marks(self, guest: bool, muted: bool) -> str:
        """What follows a name in the list: " (guest) (muted)", "（訪客）（禁言中）"."""
        keys = [k for k, on in (("admin.guest", guest), ("admin.muted", muted)) if on]
        return "".join(self.tr(k, name="") for k in keys)

    def _row(self) -> int | None:
        rows = self.query_one("#admin-rows", RowList)
        return rows.cursor_row if 0 <= rows.cursor_row < len(self._keys) else None

    def _selected(self) -> str | None:
        row = self._row()
        return None if row is None else self._keys[row]

    # ------------------------------------------------------------------ acting
    def _ask(
        self, title_key: str, fields: list[tuple[str, str, str]], act: Any, done_key: str, note: str = "", **params: str
    ) -> None:
        """A form whose answer the host is asked with (a refusal stays in the form)."""

        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                self.throne.notify(self.tr(done_key, **params), markup=False)
                self.refresh_data()

        self.app.push_screen(FormDialog(self.tr(title_key, **params), fields, act, note), done)

    def action_next_view(self) -> None:
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        self.query_one("#admin-rows", RowList).cursor_row = 0
        self.refresh_keys()
        self.refresh_data()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_message(self) -> None:
        name = self._selected()
        if name is not None:
            self._ask("admin.ask.message", [("text", "admin.field.text", "")],
                      lambda v: self.admin.message(name, v["text"]), "admin.done.message", name=name)

    def action_kick(self) -> None:
        name = self._selected()
        if name is not None:
            self._ask("admin.ask.kick", [("reason", "admin.field.reason", "")],
                      lambda v: self.admin.kick(name, v["reason"]), "admin.done.kick", name=name)

    def action_mute(self) -> None:
        name = self._selected()
        if name is not None:
            self._ask("admin.ask.mute", [("reason", "admin.field.reason", ""), ("duration", "admin.field.duration", self.tr("admin.default.mute"))],
                      lambda v: self.admin.mute(name, v["reason"], v["duration"]), "admin.done.mute", name=name)

    def action_ban(self) -> None:
        row = self._row()
        if row is None:
            return
        players = {p.name: p for p in self.admin.online_players()}
        player = players.get(self._keys[row])
        if player is None:
            return
        kind, value = ("name", player.name) if player.guest else ("key", player.key_fingerprint)
        self._ask(
            "admin.ask.ban",
            [("kind", "admin.field.kind", self.tr(f"admin.kind.{kind}")), ("value", "admin.field.value", value),
             ("reason", "admin.field.reason", ""), ("duration", "admin.field.duration", self.tr("admin.forever"))],
            lambda v: self.admin.ban(self._kind(v["kind"]), v["value"], v["reason"], v["duration"]),
            "admin.done.ban", name=player.name,
        )

    def _kind(self, word: str) -> Literal["key", "name", "address"]:
        """A ban's kind as typed in either language ("key" or 金鑰...)."""
        word = word.strip().lower()
        for kind in ("key", "name", "address"):
            if word in (kind, t(f"admin.kind.{kind}", "en"), t(f"admin.kind.{kind}", "zh")):
                return kind
        raise ClientError("admin", word, reason="bad-kind", params={"detail": word})

    def action_lift(self) -> None:
        ban = self._selected()
        if ban is not None:
            self.throne.guard(lambda: self.admin.unban(int(ban)))
            self.throne.notify(self.tr("admin.done.lift", number=ban), markup=False)
            self.refresh_data()

    def action_free_name(self) -> None:
        self._ask("admin.ask.free", [("name", "admin.field.name", ""), ("confirm", "admin.field.confirm", "")],
                  lambda v: self._confirmed(v, lambda: self.admin.free_name(v["name"])), "admin.done.free")

    def action_close_room(self) -> None:
        # the form asks for a room's number, which only the admin screen's online list showed
        rooms = self.throne.lobby.rooms()
        named = " · ".join(f"{r.id} {room_title(r.name, r.host, self.lang)}" for r in rooms[:CLOSE_ROOMS_SHOWN])
        more = " · …" if len(rooms) > CLOSE_ROOMS_SHOWN else ""  # the fields stay on a 20-row screen
        note = self.tr("admin.close.rooms", rooms=named + more) if rooms else self.tr("admin.close.no_rooms")
        self._ask("admin.ask.close", [("room", "admin.field.room", ""), ("reason", "admin.field.reason", "")],
                  lambda v: self.admin.close_room(v["room"], v["reason"]), "admin.done.close", note=note)

    def action_announce(self) -> None:
        self._ask("admin.ask.announce", [("text", "admin.field.text", "")],
                  lambda v: self.admin.announce(v["text"]), "admin.done.announce")

    def action_motd(self) -> None:
        self._ask("admin.ask.motd", [("text", "admin.field.text", self.throne.lobby.motd())],
                  lambda v: self.admin.set_motd(v["text"]), "admin.done.motd")

    def action_invite(self) -> None:
        made: list[str] = []

        def act(v: dict[str, str]) -> None:
            try:
                uses = int(v["uses"] or "1")
            except ValueError as exc:
                raise ClientError("admin", "uses", reason="bad-uses", params={"detail": v["uses"]}) from exc
            made.append(self.admin.invite(uses, v["expires"], v["name"]))

        def done(values: dict[str, str] | None) -> None:
            if values is not None and made:
                self.throne.notify(self.tr("admin.done.invite", code=made[-1]), markup=False, timeout=60)
                self.refresh_data()

        fields = [("uses", "admin.field.uses", "1"), ("expires", "admin.field.expires", self.tr("admin.default.invite")), ("name", "admin.field.only_name", "")]
        self.app.push_screen(FormDialog(self.tr("admin.ask.invite"), fields, act), done)

    def action_revoke(self) -> None:
        key = self._selected()
        if key is not None:
            self._ask("admin.ask.revoke", [("confirm", "admin.field.confirm", "")],
                      lambda v: self._confirmed(v, lambda: self.admin.revoke(key)), "admin.done.revoke", name=key)

    def action_add_admin(self) -> None:
        self._ask("admin.ask.add_admin", [("key", "admin.field.key", "")],
                  lambda v: self.admin.add_admin(v["key"]), "admin.done.add_admin")

    def _confirmed(self, values: dict[str, str], act: Any) -> None:
        if values.get("confirm", "").lower() not in ("y", "yes", "是"):
            raise ClientError("admin", "confirm", reason="confirm", params={"detail": ""})
        act()
