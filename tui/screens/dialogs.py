"""Modal dialogs: confirm, private-room code, room settings (create / change)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Button, Checkbox, DataTable, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from engine.api import BOT_LEVELS, DEFAULT_BOT_LEVEL, BotLevel
from engine.registry import games as registered_games
from protocol.contract import (
    BETWEEN_ROUNDS_MAX,
    BOT_DELAY_MAX,
    TIMER_MAX,
    WINDOW_MIN,
    ClientError,
    LeaderRow,
    RoomSettings,
    leader_ranks,
    seat_index,
    seat_number,
)
from protocol.i18n import LANGS, Lang, error_text, game_title, guest_marked, has_key, level_name, t
from tui.games import GameUI, OptionField, game_ui
from tui.screens.base import HostModal
from tui.text import Packed, literal
from tui.widgets import KeySpec, RowList, SteadyInput, TickBox

GameInfo = tuple[str, str, int, int]  # (id, English title, min players, max players)



class ConfirmDialog(HostModal[bool]):
    """A yes/no question; Escape answers no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "no", show=False),
        Binding("y", "yes", show=False),
        Binding("n", "no", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [("y", "yes", "button.yes"), ("n", "no", "button.no"), ("Esc", "no", "button.no")]

    def __init__(self, question: str) -> None:
        super().__init__(classes="dialog-screen")
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(literal(self._question), classes="dialog-text")
            with Horizontal(classes="buttons"):
                yield Button("", id="yes", variant="primary")
                yield Button("", id="no")

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one("#no", Button).focus()

    def apply_lang(self) -> None:
        self.query_one("#yes", Button).label = self.tr("button.yes")
        self.query_one("#no", Button).label = self.tr("button.no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)


class ChoiceDialog(HostModal[int | None]):
    """A question and its choices, one a row (``(value, label)``): Enter or a
    click picks the highlighted one, Escape picks none."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [("Enter", "choose", "key.choose"), ("Esc", "cancel", "button.cancel")]

    def __init__(self, question: str, choices: list[tuple[int, str]]) -> None:
        super().__init__(classes="dialog-screen")
        self._question = question
        self._choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(literal(self._question), classes="dialog-title")
            yield OptionList(*(Option(literal(label), id=str(value)) for value, label in self._choices), id="choices")

    def on_mount(self) -> None:
        self.live = True
        options = self.query_one("#choices", OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_choose(self) -> None:
        self.query_one("#choices", OptionList).action_select()

    def action_cancel(self) -> None:
        self.dismiss(None)


class _ErrorLine:
    """A dialog's line for what was refused (``#ERROR_ID``), cleared as soon as
    the player changes a field: it stayed after the field was corrected
    ("Seats: a number from 5 to 15" beside a good number)."""

    ERROR_ID: ClassVar[str]
    _error_shown = False

    def show_error(self, text: Text) -> None:
        line = cast(HostModal[Any], self).query_one(f"#{self.ERROR_ID}", Static)
        line.update(text)
        line.call_after_refresh(line.scroll_visible, animate=False)  # a dialog taller than the terminal: the refusal in view
        self._error_shown = True

    def clear_error(self) -> None:
        if self._error_shown:
            self._error_shown = False
            cast(HostModal[Any], self).query_one(f"#{self.ERROR_ID}", Static).update("")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.clear_error()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.clear_error()


class OkCancel:
    """A dialog's OK and Cancel buttons (ids ``ok`` and ``cancel``): OK submits,
    Cancel answers None."""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self.action_submit()
        else:
            cast(HostModal[Any], self).dismiss(None)

    def action_submit(self) -> None:
        raise NotImplementedError


class CodeDialog(OkCancel, _ErrorLine, HostModal[str | None]):
    """Ask for a private room's code; Escape cancels."""

    ERROR_ID = "code-error"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [("Enter", "submit", "button.ok"), ("Esc", "cancel", "button.cancel")]

    def __init__(self, room_name: str, apply: Callable[[str], object] | None = None) -> None:
        """``apply``: asks the host with the code (joins, watches); a refusal
        (a wrong code) stays in the dialog, the code still there to correct."""
        super().__init__(classes="dialog-screen")
        self._room_name = room_name
        self._apply = apply

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("", id="code-title", classes="dialog-text", markup=False)
            yield SteadyInput(id="code", max_length=40)
            yield Static("", id="code-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("", id="ok", variant="primary")
                yield Button("", id="cancel")

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one("#code", Input).focus()

    def apply_lang(self) -> None:
        self.query_one("#code-title", Static).update(self.tr("dialog.code", room=self._room_name))
        self.query_one("#code", Input).placeholder = self.tr("dialog.code_hint")  # the field seen without colour too
        self.query_one("#ok", Button).label = self.tr("button.ok")
        self.query_one("#cancel", Button).label = self.tr("button.cancel")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        if self._dismissed:
            return
        code = self.query_one("#code", Input).value.strip()
        if self._apply is not None:
            try:
                self._apply(code)
            except ClientError as err:
                self.show_error(literal(error_text(err, self.lang), "bold"))
                return
        self.dismiss(code)

    def action_cancel(self) -> None:
        self.dismiss(None)


class _Row:
    """A row of a game's options in the settings dialog: a field of its options
    model (or the switch between two of them), shared by the games whose
    field of that name is of the same kind (each with its own bounds)."""

    def __init__(self, key: str, wid: str, kind: str, name: str, game: str) -> None:
        self.key = key  # the row is ``#row-<key>``, its label ``#lbl-<key>``
        self.wid = wid  # the field's widget id
        self.kind = kind
        self.name = name  # the options model's field (or the switch's name)
        self.games = [game]


class RoomSettingsDialog(_ErrorLine, HostModal[RoomSettings | None]):
    """Create a room (``initial`` None) or change a waiting room's settings,
    its game included.

    The game's options are rows built from its options model
    (:mod:`tui.games`): its bounds are the ones checked here. Checks every
    field before it returns; the host checks again.
    """

    ERROR_ID = "form-error"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
        Binding("enter", "submit", show=False),  # (a field, a drop-down or a button takes its own Enter first)
    ]
    KEYS: ClassVar[list[KeySpec]] = [
        ("Tab", "app.focus_next", "key.next_field"),
        ("Enter", "submit", "button.ok"),
        ("Esc", "cancel", "button.cancel"),
    ]

    # The focus (Tab) order is the order of the rows. The end-to-end tests fill
    # name, seats, rounds, turn timer, reaction timer and bot delay with Tab, so
    # a game's option rows come after the seats (its ``lead``) or after the
    # time between rounds (the others).
    FIELDS = (
        "game", "name", "seats", "turn_timer", "window_timer", "bot_delay", "between_rounds",
        "strict_windows", "window_min", "bot_level", "bot_levels", "private", "code",
    )

    def __init__(
        self,
        games: list[GameInfo],
        initial: RoomSettings | None,
        apply: Callable[[RoomSettings], object] | None = None,
    ) -> None:
        """``apply``: asks the host (creates the room, changes its settings); a
        refusal stays in the dialog under the fields, with what was typed."""
        super().__init__(classes="dialog-screen")
        self._games = {g[0]: g for g in games}
        self._initial = initial
        self._game_order = [g[0] for g in games]
        self._apply = apply
        self._levels_game = ""  # the game whose levels the level drop-down offers
        self._uis = {g: ui for g in self._game_order if (ui := game_ui(g)) is not None}
        self._rows: dict[str, _Row] = {}
        self._said: dict[str, tuple[tuple[str, str], ...]] = {}  # the choices each option select shows
        self._ids: dict[str, dict[str, _Row]] = {g: {} for g in self._uis}  # game -> field name -> its row
        self._lead: list[_Row] = []
        self._rest: list[_Row] = []
        for gid, ui in self._uis.items():
            fields = ui.fields()
            lead, rest = ui.layout()
            for names, section in ((lead, self._lead), (rest, self._rest)):
                for name in names:
                    if ui.switch is not None and name == ui.switch.name:
                        kind, wid = "switch", f"{name}_mode"
                    elif name in fields:
                        kind, wid = ("choice" if name in ui.choices else fields[name].kind), name
                    else:
                        continue
                    row = self._rows.get(name)
                    if row is not None and row.kind == kind and row in section and kind != "switch":
                        row.games.append(gid)  # the same field of another game: one row, each game's bounds
                    else:
                        key = name if row is None else f"{gid}-{name}"
                        row = _Row(key, wid if row is None else key, kind, name, gid)
                        self._rows[key] = row
                        section.append(row)
                    self._ids[gid][name] = row

    # ---------------------------------------------------------------- layout
    def _start(self, row: _Row, init: RoomSettings) -> object:
        """The value a game's row starts with: the room's option when the room
        plays one of the row's games, else the model's default."""
        gid = init.game if init.game in row.games else row.games[0]
        ui = self._uis[gid]
        options = init.options if init.game == gid else {}
        if row.kind == "switch":
            assert ui.switch is not None
            chosen = [f for f in ui.switch.fields[1:] if options.get(f) is not None]
            return chosen[0] if chosen else ui.switch.fields[0]
        return options.get(row.name, ui.fields()[row.name].default)

    def _option_widget(self, row: _Row, init: RoomSettings) -> Widget:
        value = self._start(row, init)
        if row.kind == "switch":
            return Select(self._switch_choices(row), value=str(value), allow_blank=False, id=row.wid)
        if row.kind == "bool":
            return TickBox("", value is not False, id=row.wid)
        if row.kind == "choice":
            choices = self._choices(row, init.game if init.game in row.games else row.games[0])
            shown = str(value)
            return Select(choices, value=shown if shown in [c for _l, c in choices] else choices[0][1], allow_blank=False, id=row.wid)
        if row.kind == "ints":
            text = " ".join(str(v) for v in value) if isinstance(value, list) else ""
            return SteadyInput(text, id=row.wid, max_length=20)
        widths = [len(str(f.hi)) for g in row.games if (f := self._uis[g].fields()[row.name]).hi is not None]
        return SteadyInput(
            "" if value is None else str(value), id=row.wid, type="integer", max_length=max(widths, default=6)
        )

    def compose(self) -> ComposeResult:
        init = self._initial or RoomSettings(game=self._game_order[0])
        if init.game not in self._games:
            init = init.model_copy(update={"game": self._game_order[0]})

        def rows(fields: list[tuple[str, Widget]]) -> ComposeResult:
            for field, widget in fields:
                with Horizontal(classes="row", id=f"row-{field}"):
                    yield Static("", id=f"lbl-{field}", classes="lbl", markup=False)
                    yield widget
                if field in self._rows and any(
                    self._rows[field].name in self._uis[g].notes for g in self._rows[field].games
                ):
                    yield Static("", id=f"{field}-note", classes="note", markup=False)

        def options(section: list[_Row]) -> list[tuple[str, Widget]]:
            return [(row.key, self._option_widget(row, init)) for row in section]

        with Vertical(classes="dialog wide", id="settings-dialog"):
            yield Static("", id="settings-title", classes="dialog-title", markup=False)
            with Vertical(id="settings-grid"):
                yield from rows([
                    ("game", Select(self._game_options(), value=init.game, allow_blank=False, id="game")),
                    ("name", SteadyInput(init.name, id="name", max_length=40)),
                    ("seats", SteadyInput(str(init.seats), id="seats", type="integer", max_length=2)),
                    *options(self._lead),
                    ("turn_timer", SteadyInput(str(init.turn_timer), id="turn_timer", type="integer",
                                               max_length=len(str(TIMER_MAX)))),
                    ("window_timer", SteadyInput(str(init.window_timer), id="window_timer", type="integer",
                                                 max_length=len(str(TIMER_MAX)))),
                    ("bot_delay", SteadyInput(f"{init.bot_delay:g}", id="bot_delay", type="number", max_length=5)),
                    ("between_rounds", SteadyInput(str(init.between_rounds), id="between_rounds", type="integer",
                                                   max_length=len(str(BETWEEN_ROUNDS_MAX)))),
                    *options(self._rest),
                    ("strict_windows", TickBox("", init.strict_windows, id="strict_windows")),
                    ("window_min", SteadyInput(f"{init.window_min:g}", id="window_min", type="number", max_length=4)),
                    ("bot_level", Select(
                        self._levels(init.game),
                        value=init.bot_level if init.bot_level in self._game_levels(init.game) else DEFAULT_BOT_LEVEL,
                        allow_blank=False,
                        id="bot_level",
                    )),
                    ("bot_levels", SteadyInput(self._seat_levels_text(init), id="bot_levels", max_length=60)),
                    ("private", TickBox("", init.private, id="private")),
                    ("code", SteadyInput(init.code, id="code", max_length=40)),
                ])
            yield Static("", id="form-error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("", id="ok", variant="primary")
                yield Button("", id="cancel")

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self._game_changed()
        self.query_one("#name", Input).focus()

    def apply_lang(self) -> None:
        title = "dialog.settings.change" if self._initial is not None else "dialog.settings.create"
        self.query_one("#settings-title", Static).update(self.tr(title))
        for field in self.FIELDS:
            self.query_one(f"#lbl-{field}", Static).update(self.tr(f"field.{field}"))
        self.query_one("#ok", Button).label = self.tr(
            "button.save" if self._initial is not None else "button.create"
        )
        self.query_one("#cancel", Button).label = self.tr("button.cancel")
        self.query_one("#private", TickBox).label = self.tr("field.private.box")
        self.query_one("#code", Input).placeholder = self.tr("field.code.hint")
        self.query_one("#name", Input).placeholder = self.tr("field.name.hint")
        self.query_one("#bot_levels", Input).placeholder = self.tr("field.bot_levels.hint")
        self._levels_game = ""  # the level names again, in this language (_game_changed below)
        self.query_one("#strict_windows", TickBox).label = self.tr("field.strict_windows.box")
        self._relabel(self.query_one("#game", Select), self._game_options())
        self._game_changed()

    def _label_options(self) -> None:
        """The option rows' labels, hints and choices, as the chosen game says them."""
        gid = self._game()[0]
        for row in self._rows.values():
            ui = self._uis[gid if gid in row.games else row.games[0]]
            self.query_one(f"#lbl-{row.key}", Static).update(ui.label(row.name, self.lang))
            widget = self.query_one(f"#{row.wid}")
            if isinstance(widget, TickBox):
                widget.label = ui.label(row.name, self.lang, ".box")
            elif isinstance(widget, Input):
                widget.placeholder = ui.label(row.name, self.lang, ".hint")
            elif isinstance(widget, Select):
                choices = self._switch_choices(row) if row.kind == "switch" else self._choices(row, ui.id)
                said = tuple((label.plain, value) for label, value in choices)
                if self._said.get(row.wid) != said:  # (a relabelled select says it changed: once)
                    self._said[row.wid] = said
                    self._relabel(widget, choices)

    @staticmethod
    def _relabel(select: Select[str], options: list[tuple[Text, str]]) -> None:
        """New labels for a select's options (a language switch), keeping its
        value; Textual redraws the label shown only when the value changes, so
        a switch while the dialog was open left the old language there."""
        value = select.value
        select.set_options(options)
        if value in [v for _label, v in options]:
            select.value = value
        select.mutate_reactive(Select.value)  # type: ignore[misc]  # the reactive itself, not a value

    def _game_options(self) -> list[tuple[Text, str]]:
        return [(Text(game_title(g, self.lang, fallback=self._games[g][1])), g) for g in self._game_order]

    def _switch_choices(self, row: _Row) -> list[tuple[Text, str]]:
        switch = self._uis[row.games[0]].switch
        assert switch is not None
        ui = self._uis[row.games[0]]
        return [(Text(ui.label(row.name, self.lang, f".{f}")), f) for f in switch.fields]

    def _choices(self, row: _Row, gid: str) -> list[tuple[Text, str]]:
        """A picked field's values: the game's (from the room's rule set), or its model's."""
        ui = self._uis[gid]
        pick = ui.choices.get(row.name)
        init = self._initial.options if self._initial is not None and self._initial.game == gid else {}
        values = list(pick(init)) if pick is not None else list(ui.fields()[row.name].choices)
        return [(Text(ui.choice_label(row.name, v, i, self.lang)), str(v)) for i, v in enumerate(values)]

    def _game_levels(self, game: str | None = None) -> tuple[BotLevel, ...]:
        """The levels ``game``'s (the chosen game's) bots play at: the strong one only
        where the game has a search (``GameSpec.bot_levels``)."""
        gid = game if game is not None else self._game()[0]
        ui = self._uis.get(gid)
        spec = registered_games().get(gid) or (ui.spec if ui is not None else None)
        return spec.bot_levels if spec is not None else tuple(lv for lv in BOT_LEVELS if lv != "strong")

    def _levels(self, game: str | None = None) -> list[tuple[Text, str]]:
        return [(Text(level_name(level, self.lang)), level) for level in self._game_levels(game)]

    def _seat_levels_text(self, init: RoomSettings) -> str:
        """The per-seat levels as the field shows them: "2:strong 4:easy" (in the reader's language)."""
        return " ".join(f"{seat_number(i)}:{level_name(level, self.lang)}" for i, level in sorted(init.bot_levels.items()))

    def _seat_levels(self, seats: int, general: BotLevel) -> dict[int, BotLevel]:
        """The "level by seat" field: ``seat:level`` pairs, a level as either language
        names it or its first letter; a seat at the general level needs no pair."""
        words: dict[str, BotLevel] = {}
        for level in self._game_levels():
            for lang in ("en", "zh"):
                words[level_name(level, lang).lower()] = level
            words[level] = level
            words[level[0]] = level
        out: dict[int, BotLevel] = {}
        for pair in self.query_one("#bot_levels", Input).value.replace(",", " ").replace("：", ":").split():
            seat, _, word = pair.partition(":")
            said = words.get(word.strip().lower())
            index = seat_index(int(seat)) if seat.strip().isdigit() else -1  # the number players see
            if not 0 <= index < seats or said is None:
                raise _FormError(self.tr(
                    "form.bot_levels", lo=seat_number(0), hi=seat_number(seats - 1),
                    level=level_name(self._game_levels()[-1], self.lang),
                ))
            if said != general:
                out[index] = said
        return out

    def _chosen(self, gid: str) -> str | None:
        """The field the game's switch chose (None: the game has no switch)."""
        ui = self._uis.get(gid)
        if ui is None or ui.switch is None:
            return None
        row = self._ids[gid][ui.switch.name]
        return str(self.query_one(f"#{row.wid}", Select).value)

    def _game(self) -> GameInfo:
        value = self.query_one("#game", Select).value
        return self._games.get(str(value), self._games[self._game_order[0]])

    def _game_changed(self) -> None:
        gid, _title, lo, hi = self._game()
        if gid != self._levels_game:  # the strong bot plays only the games with a search
            self._levels_game = gid
            levels = self.query_one("#bot_level", Select)
            if levels.value not in self._game_levels():
                levels.value = DEFAULT_BOT_LEVEL
            self._relabel(levels, self._levels())
        self.query_one("#lbl-seats", Static).update(self.tr("field.seats.range", lo=lo, hi=hi))
        ui = self._uis.get(gid)
        switch, chosen = (ui.switch if ui is not None else None), self._chosen(gid)
        mine = set(self._ids.get(gid, {}).values())
        for row in self._rows.values():
            unchosen = switch is not None and row.name in switch.fields and row.name != chosen
            self.query_one(f"#row-{row.key}").display = row in mine and not unchosen
        self.query_one("#row-between_rounds").display = ui is not None and ui.spec.round_results  # its rounds pause for their result
        self._label_options()
        seats = self.query_one("#seats", Input)
        try:
            n = int(seats.value)
        except ValueError:
            n = lo
        seats.value = str(min(max(n, lo), hi))
        self._show_notes()

    def _show_notes(self) -> None:
        """Under a game's field, what its value means (Kill the Overlord: each
        expansion role by name, its rank, the base role it replaces; K-XROLE-1),
        while the field has the focus or holds something: at 80x24 the list
        always there pushed the buttons below the dialog's fold."""
        gid = self._game()[0]
        ui = self._uis.get(gid)
        try:
            seats = int(self.query_one("#seats", Input).value)
        except ValueError:
            seats = 0
        options = self._initial.options if self._initial is not None and self._initial.game == gid else {}
        for note in self.query(".note").results(Static):
            row = self._rows[str(note.id).removesuffix("-note")]
            say = ui.notes.get(row.name) if ui is not None and row in self._ids[gid].values() else None
            field = self.query_one(f"#{row.wid}", Input)
            note.display = say is not None and (field.has_focus or bool(field.value.strip()))
            if say is not None and note.display:
                note.update(Packed(Text(say(field.value, seats, options, self.lang), style="dim")))

    def on_input_changed(self, event: Input.Changed) -> None:
        super().on_input_changed(event)
        if event.input.id == "seats" or any(row.wid == event.input.id for row in self._rows.values()):
            self._show_notes()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._focus_moved()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._focus_moved()

    def _focus_moved(self) -> None:
        with contextlib.suppress(NoMatches):  # the dialog composed only in part, or closing: nothing to show
            self._show_notes()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()  # the game or a switch: both change which rows show
        if event.select.id != "game" and not any(row.wid == event.select.id and row.kind == "switch" for row in self._rows.values()):
            return  # (a level or a choice changes no row)
        self.clear_error()
        self._game_changed()

    # ------------------------------------------------------------ submitting
    def _int(self, field: str, lo: int, hi: int, label: str = "") -> int:
        raw = self.query_one(f"#{field}", Input).value.strip()
        try:
            value = int(raw)
        except ValueError:
            value = lo - 1
        if not lo <= value <= hi:
            raise _FormError(self.tr("form.range", field=label or self.tr(f"field.{field}"), lo=lo, hi=hi))
        return value

    def _number(self, field: str, lo: float, hi: float) -> float:
        raw = self.query_one(f"#{field}", Input).value.strip()
        try:
            value = float(raw)
        except ValueError:
            value = lo - 1
        if not lo <= value <= hi:
            raise _FormError(self.tr("form.range", field=self.tr(f"field.{field}"), lo=f"{lo:g}", hi=f"{hi:g}"))
        return value

    def _collect(self) -> RoomSettings:
        gid, _title, lo, hi = self._game()
        ui = self._uis.get(gid)
        base_between = (self._initial or RoomSettings()).between_rounds
        seats = self._int("seats", lo, hi)
        turn_timer = self._int("turn_timer", 0, TIMER_MAX)
        window_timer = self._int("window_timer", 0, TIMER_MAX)
        bot_delay = self._number("bot_delay", 0.0, BOT_DELAY_MAX)
        window_min = self._number("window_min", *WINDOW_MIN)
        strict = self.query_one("#strict_windows", TickBox).value
        level_value = str(self.query_one("#bot_level", Select).value)
        bot_level: BotLevel = next((lv for lv in self._game_levels() if lv == level_value), DEFAULT_BOT_LEVEL)
        bot_levels = self._seat_levels(seats, bot_level)
        between = ui is not None and ui.spec.round_results
        between_rounds = self._int("between_rounds", 0, BETWEEN_ROUNDS_MAX) if between else base_between
        private = self.query_one("#private", TickBox).value
        code = self.query_one("#code", Input).value.strip()  # none: the host makes a 4-digit one
        options: dict[str, object] = {}
        if self._initial is not None and self._initial.game == gid:  # another game's options are not this one's
            options = dict(self._initial.options)
        if ui is not None:
            self._options_of(ui, options)
        base = self._initial or RoomSettings()
        return base.model_copy(
            update={
                "game": gid,
                "name": self.query_one("#name", Input).value.strip(),
                "seats": seats,
                "private": private,
                "code": code if private else "",
                "turn_timer": turn_timer,
                "window_timer": window_timer,
                "bot_delay": bot_delay,
                "strict_windows": strict,
                "window_min": window_min,
                "bot_level": bot_level,
                "bot_levels": bot_levels,
                "between_rounds": between_rounds,
                "options": options,
            }
        )

    def _options_of(self, ui: GameUI, options: dict[str, object]) -> None:
        """The game's option rows into ``options``, each checked against its
        model's bounds. The field a switch chose is always sent, the others it
        offers never; an option left at the model's default is not sent (the
        host fills it in), so a plain Sultans room sends only its round count."""
        chosen = self._chosen(ui.id)
        for name, f in ui.fields().items():
            row = self._ids[ui.id].get(name)
            if row is None:
                continue  # (not on the form: the room's, e.g. its rule set)
            if ui.switch is not None and name in ui.switch.fields and name != chosen:
                options.pop(name, None)
                continue
            value = self._option(ui, row, f, required=name == chosen)
            if name == chosen or value != f.default:
                options[name] = value
            else:
                options.pop(name, None)

    def _option(self, ui: GameUI, row: _Row, f: OptionField, *, required: bool) -> object:
        label = ui.label(row.name, self.lang)
        if row.kind == "bool":
            return self.query_one(f"#{row.wid}", TickBox).value
        if row.kind == "choice":
            said = str(self.query_one(f"#{row.wid}", Select).value)
            if row.name in ui.choices:  # (values of the rule set: numbers)
                return int(said)
            return next((v for v in f.choices if str(v) == said), f.default)
        lo = f.lo if f.lo is not None else 0
        hi = f.hi if f.hi is not None else 10**6
        raw = self.query_one(f"#{row.wid}", Input).value.strip()
        if row.kind == "ints":
            words = raw.replace(",", " ").split()
            if not all(w.isdigit() and lo <= int(w) <= hi for w in words):
                raise _FormError(self.tr("form.range", field=label, lo=lo, hi=hi))
            return sorted({int(w) for w in words})
        if not raw and f.optional and not required:
            return None
        needed = f"{ui.id}.form.{row.name}.needed"
        if not raw and has_key(needed):
            raise _FormError(self.tr(needed, lo=lo, hi=hi))
        least = f"{ui.id}.form.{row.name}.min"
        if raw.isdigit() and int(raw) < lo and has_key(least):
            raise _FormError(self.tr(least, lo=lo, hi=hi))
        return self._int(row.wid, lo, hi, label)

    def action_submit(self) -> None:
        if self._dismissed:  # a second Enter before the first one's answer: one room, not two
            return
        try:
            settings = self._collect()
            if self._apply is not None:
                self._apply(settings)
        except _FormError as err:
            self.show_error(literal(str(err), "bold"))
            return
        except ClientError as err:  # the host said no: nothing typed is lost
            self.show_error(literal(error_text(err, self.lang), "bold"))
            return
        self.dismiss(settings)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "ok":
            self.action_submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class _FormError(ValueError):
    pass


class PlayerSettingsDialog(HostModal[Lang | None]):
    """The player's settings: the language (also switched with F2 anywhere),
    the bell on their turn and "ask me in every window" (S-REACT-5, K-ORD-11;
    each toggled here, the dialog stays open)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [("Enter", "choose", "key.choose"), ("Esc", "cancel", "button.cancel")]

    def __init__(self) -> None:
        super().__init__(classes="dialog-screen")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("", id="lang-title", classes="dialog-title", markup=False)
            yield OptionList(
                *(Option(self._lang_text(lang), id=lang) for lang in LANGS),
                Option(self._bell_text(), id="bell"),
                Option(self._ask_text(), id="ask_every"),
                id="langs",
            )
            yield Static("", id="lang-foot", markup=False)

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        options = self.query_one("#langs", OptionList)
        options.highlighted = LANGS.index(self.lang)
        options.focus()

    def _lang_text(self, lang: Lang) -> Text:
        """A language by its own name; the one the screens speak now says so
        (issue 44 item 15: nothing showed which was selected)."""
        name = t("lang.name", lang)
        if lang != self.lang:
            return Text("  " + name)
        return Text(self.tr("settings.lang.current", name=name), style="bold")

    def _bell_text(self) -> Text:
        return Text(self.tr("settings.bell.on" if self.throne.bell_on else "settings.bell.off"))

    def _ask_text(self) -> Text:
        return Text(self.tr("settings.ask_every.on" if self.throne.ask_every else "settings.ask_every.off"))

    def apply_lang(self) -> None:
        self.query_one("#lang-title", Static).update(self.tr("dialog.language"))
        self.query_one("#lang-foot", Static).update(Text(self.tr("dialog.language.foot"), style="dim"))
        for lang in LANGS:  # F2 in the dialog: the mark moves with the language
            self.query_one("#langs", OptionList).replace_option_prompt(lang, self._lang_text(lang))
        self.query_one("#langs", OptionList).replace_option_prompt("bell", self._bell_text())
        self.query_one("#langs", OptionList).replace_option_prompt("ask_every", self._ask_text())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == "bell":
            self.throne.set_bell(not self.throne.bell_on)
            self.query_one("#langs", OptionList).replace_option_prompt("bell", self._bell_text())
            return
        if event.option.id == "ask_every":
            self.throne.set_ask_every(not self.throne.ask_every)
            self.query_one("#langs", OptionList).replace_option_prompt("ask_every", self._ask_text())
            return
        lang = event.option.id
        self.dismiss(lang if lang in LANGS else None)

    def action_choose(self) -> None:
        self.query_one(OptionList).action_select()

    def action_cancel(self) -> None:
        self.dismiss(None)


class LeaderboardDialog(HostModal[None]):
    """The whole leaderboard (the lobby shows its top): of every game, or, with
    ``g``, of each game in turn. Points only on a game's own board: a Sultans
    match scores a few points a round, an Overlord game its gold, and their
    sum ranked nobody fairly (every game's board: wins, then fewest matches)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("b", "close", show=False),
        Binding("g", "next_game", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [("g", "next_game", "key.leaders_game"), ("Esc", "close", "key.close")]

    def __init__(self, read: Callable[[str | None], list[LeaderRow]], games: list[GameInfo]) -> None:
        """``read(game)``: the rows of one game's matches (its id), or of all (None)."""
        super().__init__(classes="dialog-screen")
        self._read = read
        self._games: list[GameInfo | None] = [None, *games]
        self._at = 0
        self._rows = read(None)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="leaders-dialog"):
            yield Static("", id="leaders-dialog-title", classes="dialog-title", markup=False)
            table: DataTable[Text] = DataTable(id="leaders-table", cursor_type="row")
            yield table
            yield Static("", id="leaders-foot", markup=False)

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one("#leaders-table", DataTable).focus()

    def action_next_game(self) -> None:
        self._at = (self._at + 1) % len(self._games)
        game = self._games[self._at]
        self._rows = self._read(None if game is None else game[0])
        self.apply_lang()

    def apply_lang(self) -> None:
        game = self._games[self._at]
        which = self.tr("leaders.all") if game is None else game_title(game[0], self.lang, fallback=game[1])
        self.query_one("#leaders-dialog-title", Static).update(self.tr("leaders.title", game=which))
        foot = self.tr("leaders.foot")  # g and Escape, on an empty board too (it lost them)
        said = self.tr("leaders.how") if self._rows else self.tr("lobby.no_leaders")
        self.query_one("#leaders-foot", Static).update(Text(said + "\n" + foot, style="dim"))
        table = self.query_one("#leaders-table", DataTable)
        table.clear(columns=True)
        points = game is not None
        # wins before matches, as the lobby's side pane has them; one game's board: its average
        # points, which rank equal win rates (protocol.contract.leader_key)
        columns = ("col.rank", "col.player", "col.wins", "col.matches", "col.rate", *(("col.avg_points",) if points else ()))
        for key in columns:
            table.add_column(self.tr(key), key=key)
        for rank, row in zip(leader_ranks(self._rows, points=points), self._rows, strict=True):
            numbers = [str(row.wins), str(row.matches), row.percent]
            if points:
                numbers.append(f"{row.points / row.matches if row.matches else 0.0:.1f}")
            table.add_row(Text(str(rank), justify="right"), literal(row.name), *(Text(n, justify="right") for n in numbers))

    def action_close(self) -> None:
        self.dismiss(None)


class OnlineDialog(HostModal[None]):
    """Everyone online, one name a row (the lobby's side pane shows two lines of
    them and "+8 more"); ``o`` or Escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("o", "close", show=False),
    ]
    KEYS: ClassVar[list[KeySpec]] = [("Esc", "close", "key.close")]

    def __init__(self, names: list[str], guests: Collection[str] = ()) -> None:
        super().__init__(classes="dialog-screen")
        self._names = list(names)
        self._guests = frozenset(guests)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="online-dialog"):
            yield Static("", id="online-title", classes="dialog-title", markup=False)
            yield RowList(id="online-names")

    def on_mount(self) -> None:
        self.live = True
        self.apply_lang()
        self.query_one("#online-names", RowList).focus()

    def apply_lang(self) -> None:
        self.query_one("#online-title", Static).update(self.tr("lobby.online", n=len(self._names)))
        names = self.query_one("#online-names", RowList)
        names.set_columns([self.tr("col.player")])
        names.set_rows([(guest_marked(n, n in self._guests, self.lang),) for n in self._names])

    def action_close(self) -> None:
        self.dismiss(None)
