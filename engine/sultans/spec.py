"""Sultans of Karaya in the lobby: options and factories (``engine.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, TypeAdapter

from engine.api import Bot, GameSpec, GameTable, SearchSpec, ViewModels
from engine.sultans.bots import make_bot
from engine.sultans.match import Match
from engine.sultans.options import SultansOptions
from engine.sultans.search import Search, StrongBot, searchable
from engine.sultans.views import Event, MatchView, RoundView


def _options(options: BaseModel) -> SultansOptions:
    if isinstance(options, SultansOptions):
        return options
    return SultansOptions.model_validate(options.model_dump())


def new_table(players: int, seed: int, options: BaseModel) -> GameTable:
    """A whole match (S-MATCH-1) for ``players`` seats, dealt from ``seed``."""
    return Match(players, seed, _options(options))


def new_bot(seat: int, kind: str, seed: int) -> Bot:
    """``kind`` is a bot level, ``"heuristic"`` or ``"random"`` (see :mod:`engine.sultans.bots`);
    ``"strong"`` searches a fixed number of samples a decision (the room searches in its pool)."""
    if kind == "strong":
        return StrongBot(seat, seed)
    return make_bot(seat, kind, seed)


_VIEWS: TypeAdapter[MatchView | RoundView] = TypeAdapter(MatchView | RoundView)


def _parse_view(text: str) -> BaseModel:
    """A seat's view (a match's, or a lone round's) from JSON."""
    return _VIEWS.validate_json(text)


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
    # offered: it scores about 1.3x the normal bot's points (target 1.3x; README, Benchmarks)
    search=SearchSpec(parse_view=_parse_view, searchable=searchable, new=Search, offered=True),
    views=ViewModels(view=MatchView | RoundView, round_view=RoundView, event=Event),
    round_results=True,
)
