"""Kill the Overlord: what one seat (or a spectator) may see (K-VIEW-1).

Pydantic models that round-trip through JSON. Made by ``Game.view(seat)``,
a pure function of the game state; screens render these and nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Param = int | str | bool | None | list[int] | list[str]


class Event(BaseModel):
    """One thing that happened. ``kind`` + ``params`` so screens can phrase it in any language.

    ``audience`` is ``None`` for a public event, else the seats that saw it
    (e.g. the two players of a Coercion or Conspire card hand-over). Frozen:
    views share these objects with the game's log.
    """

    model_config = ConfigDict(frozen=True)

    n: int  # sequence number in the whole game
    round: int
    kind: str
    params: dict[str, Param] = Field(default_factory=dict)
    audience: list[int] | None = None


class ShownHand(BaseModel):
    """A hand the Soothsayer made public: the cards as shown, stale once the hand changed."""

    cards: list[str]
    round: int
    stale: bool


class SeatView(BaseModel):
    seat: int
    role: str  # role id; for an executed seat, the role it left in the centre
    role_name: str
    rank: int
    income: int
    alive: bool
    token: int | None  # execution token this phase
    gold: int
    hand_size: int
    hand_limit: int | None
    is_ruler: bool
    holds_order: bool
    shown: ShownHand | None = None


class PathStep(BaseModel):
    """One move of the order this phase: to ``seat`` from ``by`` (None: nobody)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    by: int | None
    how: Literal["command", "card", "pay", "discard-pass", "plead-guilty", "uprising"]
    card: str | None = None


class ChainCard(BaseModel):
    """A card played and still resolving (the Retaliate chain, bottom first)."""

    seat: int
    card: str
    target: int | None = None
    direction: str | None = None


class PromptView(BaseModel):
    """The open decision or window: what kind, about whom, who was asked, who still owes."""

    kind: str
    actor: int | None = None  # the seat whose card/turn/transfer the prompt is about
    card: str | None = None
    target: int | None = None
    asked: list[int]
    owed: list[int]


class Outcome(BaseModel):
    winner: int
    reason: Literal["coronation", "last-alive", "round-limit"]
    gold: list[int]


class OverlordView(BaseModel):
    game: Literal["overlord"] = "overlord"
    me: int | None  # the seat this view is for (None: spectator)
    players: int
    ruleset: str
    round: int
    round_limit: int
    coronation: int
    tax_fee: int  # K-XROLE-TAXCOLLECTOR: the gold a player pays the Tax Collector to pass him the order (the rule set's)
    phase: Literal["start", "draw", "income", "order", "exchange", "over"]
    ruler: int | None
    holder: int | None
    path: list[PathStep]
    transfers: int
    seats: list[SeatView]
    centre: list[str]  # roles in the centre (executed players' roles) now
    deck_size: int
    discard: list[str]  # the discard pile, oldest first (every discard is public)
    chain: list[ChainCard]
    banned: str | None  # the card the Bureaucrat named this round
    uprising_by: int | None
    uprising_named: int | None
    prompt: PromptView | None
    hand: list[str] | None  # own hand (None for a spectator)
    log: list[Event]  # what this seat saw, of the last rounds (Game.view(log_rounds=...))
    notes: list[Event] = Field(default_factory=list)  # cards this seat gave or received, whole game
    outcome: Outcome | None
