"""A room's settings: checking and bounding what a screen asks for, and naming what
the host changed."""

from __future__ import annotations

import secrets

from pydantic import ValidationError

from engine.api import GameSpec
from protocol.contract import (
    BETWEEN_ROUNDS_MAX,
    BOT_DELAY_MAX,
    TIMER_MAX,
    WINDOW_MIN,
    ClientError,
    RoomSettings,
    seat_number,
)
from protocol.i18n import has_key
from server.sanitize import clean_text

ROOM_NAME_MAX = 40
CODE_MAX = 16


SETTINGS_SAID = (
    "name", "seats", "turn_timer", "window_timer", "strict_windows", "window_min", "bot_delay", "bot_level", "bot_levels",
    "between_rounds", "private", "code",
)
"""The room settings whose change the chat names (``changed.<field>`` in the catalogue)."""


def settings_changes(old: RoomSettings, new: RoomSettings, spec: GameSpec) -> list[str]:
    """What the host changed of a room's settings, as catalogue ids: the room's
    own fields, then each of the game's options (read through its model, so an
    option written out at its default is no change); one that the catalogue
    does not name is said as "options"."""
    out = [f for f in SETTINGS_SAID if getattr(old, f) != getattr(new, f)]
    if "private" in out and "code" in out:  # (made public it forgets its code, made private it has one: "private")
        out.remove("code")
    try:
        before = spec.options_model.model_validate(old.options).model_dump()
        after = spec.options_model.model_validate(new.options).model_dump()
    except ValidationError:
        before, after = dict(old.options), dict(new.options)
    for key in sorted(before.keys() | after.keys()):
        if before.get(key) != after.get(key):
            said = key if has_key(f"changed.{key}") else "options"
            if said not in out:
                out.append(said)
    return sorted(out, key=lambda c: SETTINGS_ORDER.index(c) if c in SETTINGS_ORDER else len(SETTINGS_ORDER))


SETTINGS_ORDER = (
    "name", "seats", "rounds", "first_to", "round_limit", "turn_timer", "window_timer", "strict_windows", "window_min",
    "bot_delay", "bot_level", "bot_levels", "between_rounds",
    "turn_limit", "notebook", "coronation", "expansion_ranks", "ruleset", "options", "private", "code",
)
"""The order in which the chat names changed settings: the settings dialog's rows
("bot delay, rounds" read backwards)."""


def check_levels(settings: RoomSettings, players: dict[int, str]) -> None:
    """A level by seat is for the bot in that seat (one there now, or added later to
    an empty seat): refuse one for a seat a player holds (``players``: index -> name)."""
    for index in sorted(settings.bot_levels):
        if index in players:
            raise ClientError(
                "bad-level", f"seat {seat_number(index)} is {players[index]}'s: a level is for a bot's seat or an empty one",
                reason="player", params={"seat": str(seat_number(index)), "name": players[index]},
            )


def validate_settings(
    settings: RoomSettings, specs: dict[str, GameSpec], *, default_bot_delay: float
) -> tuple[RoomSettings, GameSpec]:
    """Check and normalise settings from a screen; raise ClientError if unusable."""
    spec = specs.get(settings.game)
    if spec is None:
        raise ClientError("bad-game", f"unknown game {settings.game!r}")
    if not spec.min_players <= settings.seats <= spec.max_players:
        raise ClientError(
            "bad-seats",
            f"{spec.title} needs {spec.min_players}-{spec.max_players} seats, not {settings.seats}",
        )
    try:
        options = spec.options_model.model_validate(settings.options)
    except ValidationError as err:
        raise ClientError("bad-options", f"bad options for {spec.title}: {err}") from err
    levels = spec.bot_levels
    for level in {settings.bot_level, *settings.bot_levels.values()}:
        if level not in levels:
            raise ClientError(
                "bad-level", f"{spec.title} bots play at {', '.join(levels)}, not {level}", params={"level": level}
            )
    code = clean_text(settings.code, CODE_MAX)
    if settings.private and not code:
        code = f"{secrets.randbelow(10_000):04d}"
    bot_delay = settings.bot_delay if "bot_delay" in settings.model_fields_set else default_bot_delay
    clean = settings.model_copy(
        update={
            "name": clean_text(settings.name, ROOM_NAME_MAX),
            "code": code if settings.private else "",
            "turn_timer": min(max(settings.turn_timer, 0), TIMER_MAX),
            "window_timer": min(max(settings.window_timer, 0), TIMER_MAX),
            "bot_delay": min(max(float(bot_delay), 0.0), BOT_DELAY_MAX),
            "window_min": min(max(float(settings.window_min), WINDOW_MIN[0]), WINDOW_MIN[1]),
            # a level for a seat the room no longer has would come back with the seat
            "bot_levels": {i: level for i, level in sorted(settings.bot_levels.items()) if 0 <= i < settings.seats},
            "between_rounds": min(max(settings.between_rounds, 0), BETWEEN_ROUNDS_MAX),
            "options": options.model_dump(mode="json"),
        }
    )
    # keep "explicitly set" so a later update keeps the room's bot delay
    clean.model_fields_set.add("bot_delay")
    return clean, spec
