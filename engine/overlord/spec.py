"""Kill the Overlord in the lobby: options and factories (``engine.registry``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from engine.api import Bot, GameSpec, GameTable, SearchSpec, ViewModels
from engine.overlord.bots import make_bot
from engine.overlord.game import Game
from engine.overlord.rules import load_ruleset
from engine.overlord.search import Search, StrongBot, parse_view, searchable
from engine.overlord.views import Event, OverlordView


class OverlordOptions(BaseModel):
    """Room options (docs/rules/overlord.md: K-XROLE-1, K-RND-4, K-END-2)."""

    ruleset: str = "house"
    # ranks whose expansion role replaces the base role (only ranks in play count; K-XROLE-1)
    expansion_ranks: list[Annotated[int, Field(ge=1, le=8)]] = Field(default_factory=list)
    # coronation threshold; None: the rule set's (house: 40; the option 30)
    coronation: int | None = Field(default=None, ge=1)
    round_limit: int = Field(default=30, ge=1, le=200)

    @field_validator("expansion_ranks")
    @classmethod
    def _ranks(cls, v: list[int]) -> list[int]:
        return sorted(set(v))

    @field_validator("coronation")
    @classmethod
    def _crown(cls, v: int | None, info: ValidationInfo) -> int | None:
        """K-RND-4: 40 gold, or the option 30 (the rule set's two). A stored
        match keeps what it was started with (``context={"stored": True}``)."""
        if v is None or (info.context or {}).get("stored") or "ruleset" not in info.data:
            return v  # (a bad rule set has its own error)
        rs = load_ruleset(info.data["ruleset"])
        if v not in (rs.coronation, rs.coronation_alternative):
            raise ValueError(f"the coronation is at {rs.coronation} or {rs.coronation_alternative} gold (K-RND-4), not {v}")
        return v

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, v: str) -> str:
        load_ruleset(v)  # raises ValueError for an unknown or invalid rule set
        return v


def new_table(players: int, seed: int, options: BaseModel) -> GameTable:
    o = options if isinstance(options, OverlordOptions) else OverlordOptions.model_validate(options.model_dump())
    return Game.random(players, seed, options=o)


def new_bot(seat: int, kind: str, seed: int) -> Bot:
    """``kind`` is a bot level, ``"heuristic"`` or ``"random"`` (see :mod:`engine.overlord.bots`);
    ``"strong"`` searches a fixed number of samples a decision (the room searches in its pool)."""
    if kind == "strong":
        return StrongBot(seat, seed)
    return make_bot(seat, kind, seed)


def describe(options: BaseModel) -> Mapping[str, Any]:
    o = options if isinstance(options, OverlordOptions) else OverlordOptions.model_validate(options.model_dump())
    rs = load_ruleset(o.ruleset)
    return {
        "ruleset": o.ruleset,
        "expansion_ranks": o.expansion_ranks,
        "coronation": o.coronation if o.coronation is not None else rs.coronation,
        "round_limit": o.round_limit,
        "rounds": 0,
    }


SPEC = GameSpec(
    id="overlord",
    title="Kill the Overlord",
    min_players=4,
    max_players=8,
    options_model=OverlordOptions,
    new_table=new_table,
    new_bot=new_bot,
    describe_options=describe,
    # offered: it wins about 3.3x a normal seat's rate (target 1.5x; README, Benchmarks)
    search=SearchSpec(parse_view=parse_view, searchable=searchable, new=Search, offered=True),
    views=ViewModels(view=OverlordView, event=Event),
)
