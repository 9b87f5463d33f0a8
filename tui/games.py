"""Games as plug-ins: what the screens need of each game besides its engine.

A game's screens live in ``tui/<game>/``; its ``ui.py`` exports ``UI``, a
:class:`GameUI` beside the engine's :class:`~engine.api.GameSpec`: the
catalogue (both languages), the rules summary for help, the game's part of
the waiting room's settings line, and how the settings dialog lays out the
fields of the options model. The dialog builds those fields from the model
itself (:func:`option_fields`: kinds, bounds, defaults), so a bound has one
source, the model; labels are the catalogue's ``<game>.opt.<field>``.

Every game of :func:`engine.registry.games` that has a ``tui.<game>.ui``
module is registered when :mod:`tui` is imported (:func:`load_games`): adding
a game is its engine package, its screens package and its line in the
engine's registry. :func:`register_game` adds another (a test's game).
"""

from __future__ import annotations

import functools
import importlib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from engine.api import GameSpec
from protocol.contract import RoomSettings
from protocol.i18n import Lang, add_catalogue, drop_catalogue, has_key, t

FieldKind = Literal["int", "bool", "choice", "ints"]


@dataclass(frozen=True)
class OptionField:
    """One field of a game's options model as a form shows it."""

    name: str
    kind: FieldKind
    default: object
    lo: int | None = None  # an int's (or each int's of a list) least and most, from the model
    hi: int | None = None
    optional: bool = False  # None is a value (an empty field)
    choices: tuple[object, ...] = ()  # a Literal's values


def _bounds(metadata: Sequence[object]) -> tuple[int | None, int | None]:
    lo = hi = None
    for m in metadata:
        if isinstance(m, Ge) and isinstance(m.ge, int):
            lo = m.ge
        elif isinstance(m, Gt) and isinstance(m.gt, int):
            lo = m.gt + 1
        elif isinstance(m, Le) and isinstance(m.le, int):
            hi = m.le
        elif isinstance(m, Lt) and isinstance(m.lt, int):
            hi = m.lt - 1
        elif isinstance(m, FieldInfo):
            inner = _bounds(m.metadata)
            lo, hi = inner[0] if inner[0] is not None else lo, inner[1] if inner[1] is not None else hi
    return lo, hi


def _field(name: str, info: FieldInfo) -> OptionField | None:
    """``name`` of a model as a form field, or None for a type no form edits."""
    annotation: Any = info.annotation
    default = info.get_default(call_default_factory=True)
    optional = False
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            return None
        annotation, optional = rest[0], True
    lo, hi = _bounds(info.metadata)
    if annotation is bool:
        return OptionField(name, "bool", default)
    if annotation is int:
        return OptionField(name, "int", default, lo, hi, optional)
    if typing.get_origin(annotation) is Literal:
        return OptionField(name, "choice", default, optional=optional, choices=typing.get_args(annotation))
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation) or (None,)
        meta: list[object] = []
        if typing.get_origin(item) is typing.Annotated:
            item, *meta = typing.get_args(item)
        if item is int:
            return OptionField(name, "ints", default, *_bounds(meta), optional)
    return None


@functools.cache
def option_fields(model: type[BaseModel]) -> dict[str, OptionField]:
    """The fields of ``model`` a form can edit, by name, in the model's order
    (others, a rule set's name, stay as the room has them)."""
    out = {}
    for name, info in model.model_fields.items():
        found = _field(name, info)
        if found is not None:
            out[name] = found
    return out


@dataclass(frozen=True)
class Switch:
    """A select between option fields of which a room sets one (Sultans of
    Karaya: a number of rounds, or first to N points): the chosen one is
    always sent, the others never. Its widget is ``#<name>_mode``, its
    label ``<game>.opt.<name>``, each choice ``<game>.opt.<name>.<field>``."""

    name: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class SummaryParts:
    """A game's parts of the waiting room's settings line (" · " between them)."""

    head: list[str] = field(default_factory=list)  # after the seats: how long a match is
    tail: list[str] = field(default_factory=list)  # after the bots: the rest of the game's options
    last: list[str] = field(default_factory=list)  # at the very end (long ones: the timers stay on the first line)


Summary = Callable[[RoomSettings, Lang], SummaryParts]
Note = Callable[[str, int, Mapping[str, object], Lang], str]
"""(the field's text, seats, the room's options, lang) -> a line under the field."""
Choices = Callable[[Mapping[str, object]], Sequence[int]]
"""(the room's options) -> the values a field may take (from the rule set)."""


@dataclass(frozen=True)
class GameUI:
    """What the screens need of one game, beside its spec."""

    spec: GameSpec
    en: Mapping[str, str]  # the game's catalogue: table words, titles, help, option labels
    zh: Mapping[str, str]
    # option rows before the room's timers (the end-to-end tests Tab through the
    # dialog's first rows); the others come after the "between rounds" row
    lead: tuple[str, ...] = ()
    rest: tuple[str, ...] | None = None  # None: every other field of the model, in its order
    switch: Switch | None = None
    choices: Mapping[str, Choices] = field(default_factory=dict)  # an int field picked from these values
    notes: Mapping[str, Note] = field(default_factory=dict)  # a line under a field while it is edited or set
    facts: Mapping[str, object] = field(default_factory=dict)  # rule facts its labels say ("{cap} rounds max")
    summary: Summary | None = None  # None: ``<game>.summary.<field>`` of each option the catalogue has
    help: Callable[[Lang], str] | None = None  # None: ``help.game.<game>``
    table: str = ""  # "module:Class" of its table screen ("": ``tui.<game>.table.Table``, or a plain one)

    @property
    def id(self) -> str:
        return self.spec.id

    def fields(self) -> dict[str, OptionField]:
        return option_fields(self.spec.options_model)

    def layout(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The rows before the timers and after, by field (or switch) name."""
        names = list(self.fields())
        if self.switch is not None:
            names.append(self.switch.name)
        rest = self.rest if self.rest is not None else tuple(n for n in names if n not in self.lead)
        return self.lead, rest

    def label(self, name: str, lang: Lang, suffix: str = "") -> str:
        """``<game>.opt.<name><suffix>``, told the game's facts and the field's
        bounds (``{lo}``, ``{hi}``); a field without a label its name."""
        key = f"{self.id}.opt.{name}{suffix}"
        if not has_key(key):
            return "" if suffix else name.replace("_", " ").capitalize()
        f = self.fields().get(name)
        return t(key, lang, **self.facts, **({"lo": f.lo, "hi": f.hi} if f is not None else {}))

    def choice_label(self, name: str, value: object, index: int, lang: Lang) -> str:
        """A drop-down's choice: ``<game>.opt.<name>.<value>``, else by its place
        (``.0``, ``.1``: "{n} (the rules)", the value being the rule set's), else the value."""
        for key in (f"{self.id}.opt.{name}.{value}", f"{self.id}.opt.{name}.{index}"):
            if has_key(key):
                return t(key, lang, **self.facts, n=value)
        return str(value)

    def help_text(self, lang: Lang) -> str:
        if self.help is not None:
            return self.help(lang)
        key = f"help.game.{self.id}"
        return t(key, lang) if has_key(key) else t("help.game.none", lang)

    def summary_parts(self, settings: RoomSettings, lang: Lang) -> SummaryParts:
        if self.summary is not None:
            return self.summary(settings, lang)
        parts = SummaryParts()
        for name, f in self.fields().items():
            key = f"{self.id}.summary.{name}"
            value = settings.options.get(name, f.default)
            if has_key(key) and value is not None:
                parts.head.append(t(key, lang, n=" ".join(map(str, value)) if isinstance(value, list) else value))
        return parts


_GAMES: dict[str, GameUI] = {}


def register_game(ui: GameUI) -> None:
    """Offer ``ui``'s game on the screens: its catalogue joins the core one."""
    if _GAMES.get(ui.id) is ui:
        return
    unregister_game(ui.id)
    add_catalogue(ui.en, ui.zh)
    _GAMES[ui.id] = ui


def unregister_game(game: str) -> None:
    ui = _GAMES.pop(game, None)
    if ui is not None:
        drop_catalogue(ui.en, ui.zh)
        from tui.tables import unregister_table

        unregister_table(game)


def game_ui(game: str) -> GameUI | None:
    return _GAMES.get(game)


def game_uis() -> list[GameUI]:
    return list(_GAMES.values())


def load_games() -> None:
    """Register the screens of every game of the engine's registry that has them (``tui.<game>.ui``)."""
    from engine.registry import games

    for gid in games():
        try:
            module = importlib.import_module(f"tui.{gid}.ui")
        except ModuleNotFoundError as err:
            if err.name not in (f"tui.{gid}", f"tui.{gid}.ui"):
                raise
            continue
        register_game(module.UI)
