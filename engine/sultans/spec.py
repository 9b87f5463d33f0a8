"""Sultans of Karaya in the lobby: options and factories (``engine.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from engine.api import Bot, GameSpec, GameTable
from engine.sultans.bots import make_bot
from engine.sultans.match import Match
from engine.sultans.options import SultansOptions


def _options(options: BaseModel) -> SultansOptions:
    if isinstance(options, SultansOptions):
        return options
    return SultansOptions.model_validate(options.model_dump())


def new_table(players: int, seed: int, options: BaseModel) -> GameTable:
    """A whole match (S-MATCH-1) for ``players`` seats, dealt from ``seed``."""
    return Match(players, seed, _options(options))


def new_bot(seat: int, kind: str, seed: int) -> Bot:
    """``kind`` is ``"heuristic"`` or ``"random"`` (see :mod:`engine.sultans.bots`)."""
    return make_bot(seat, kind, seed)


def describe(options: BaseModel) -> Mapping[str, Any]:
    """What the lobby shows of a room's options."""
    o = _options(options)
    return {
        "rounds": 0 if o.first_to is not None else o.rounds,
        "first_to": o.first_to,
        "turn_limit": o.turn_limit,
        "notebook": o.notebook,
    }


SPEC = GameSpec(
    id="sultans",
    title="Sultans of Karaya",
    min_players=5,
    max_players=15,
    options_model=SultansOptions,
    new_table=new_table,
    new_bot=new_bot,
    describe_options=describe,
)
