"""Kill the Overlord: the rule set (deck, symbols, copies, roles, numbers) as data.

The abilities of roles and the effects of cards are code (``game.py``); which
roles exist at which rank, their incomes, which cards are in the deck with how
many copies and which symbol, and the numbers marked (option) in
``docs/rules/overlord.md`` are data in a JSON rule set shipped with the package
(``rulesets/<name>.json``), validated by :class:`RuleSet`. A club corrects a
card count or the coronation threshold by editing or adding a rule set file.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

# Every role ability and card effect the engine knows (ids of docs/rules/overlord.md).
KNOWN_ROLES: frozenset[str] = frozenset(
    {
        "overlord", "advisor", "general", "captain", "knight", "squire", "peasant", "truant",
        "tyrant", "executioner", "soothsayer", "taxcollector", "bureaucrat", "merchant",
        "actor", "outlaw",
    }
)
KNOWN_CARDS: frozenset[str] = frozenset(
    {
        "sidestep", "victimize", "capitalize", "coercion", "make-an-example", "extortion",
        "conspire", "revolt", "retaliate", "plead-guilty", "martyrdom", "revenge",
        "revolution", "uprising",
    }
)
# Cards the holder plays only when holding no shield card (K-ORD-3 c).
DESPERATION: frozenset[str] = frozenset({"martyrdom", "revenge", "revolution", "uprising"})
# Cards the holder plays to give the order with their own targets (section 4).
PASSING: frozenset[str] = frozenset(
    {"sidestep", "victimize", "capitalize", "coercion", "make-an-example", "extortion", "conspire", "revolt"}
)
# Cards that are never the holder's action (K-ORD-3): reactions.
REACTIONS: frozenset[str] = frozenset({"retaliate", "plead-guilty"})


class RoleDef(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    rank: int = Field(ge=1, le=8)
    income: int
    # where a negative income goes: "self" (not negative), "ruler" (Truant), "treasury"
    income_to: Literal["self", "ruler", "treasury"] = "self"
    expansion: bool = False
    # None: no hand limit (Merchant); absent: the rule set's hand_limit
    hand_limit: int | None = -1


class CardDef(BaseModel):
    model_config = ConfigDict(frozen=True)

    token: str
    name: str
    copies: int = Field(ge=0)
    symbol: Literal["shield", "book"]


class RuleSet(BaseModel):
    """A validated rule set. ``house.json`` is the house default."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str = ""
    start_gold: int = Field(5, ge=0)
    hand_limit: int = Field(4, ge=0)
    draw_per_round: int = Field(2, ge=0)
    coronation: int = Field(40, ge=1)
    coronation_alternative: int = Field(30, ge=1)
    transfer_cap: int = Field(300, ge=1)
    martyrdom_gold: int = Field(7, ge=0)
    outlaw_bounty: int = Field(5, ge=0)
    outlaw_take: int = Field(5, ge=0)
    tax_fee: int = Field(2, ge=0)
    tyrant_levy: int = Field(4, ge=0)
    merchant_gift: int = Field(2, ge=0)
    merchant_draw: int = Field(2, ge=0)
    roles: list[RoleDef]
    role_sets: dict[int, list[str]]
    cards: list[CardDef]

    _role_by_id: dict[str, RoleDef] = PrivateAttr(default_factory=dict)
    _card_by_token: dict[str, CardDef] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> RuleSet:
        ids = [r.id for r in self.roles]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate role id")
        unknown = set(ids) - KNOWN_ROLES
        if unknown:
            raise ValueError(f"unknown roles (no ability in the engine): {sorted(unknown)}")
        by_id = {r.id: r for r in self.roles}
        for n, members in self.role_sets.items():
            if len(members) != n:
                raise ValueError(f"role set for {n} players has {len(members)} roles")
            ranks = [by_id[m].rank if m in by_id else -1 for m in members]
            if -1 in ranks:
                raise ValueError(f"role set for {n} players names an unknown role")
            if any(by_id[m].expansion for m in members):
                raise ValueError(f"role set for {n} players holds an expansion role")
            if 8 not in ranks or len(set(ranks)) != len(ranks):  # K-SET-2
                raise ValueError(f"role set for {n} players needs rank 8 and distinct ranks")
        exp_ranks = [r.rank for r in self.roles if r.expansion]
        if len(set(exp_ranks)) != len(exp_ranks):
            raise ValueError("two expansion roles share a rank")
        tokens = [c.token for c in self.cards]
        if len(set(tokens)) != len(tokens):
            raise ValueError("duplicate card token")
        unknown = set(tokens) - KNOWN_CARDS
        if unknown:
            raise ValueError(f"unknown cards (no effect in the engine): {sorted(unknown)}")
        self._role_by_id.update(by_id)
        self._card_by_token.update({c.token: c for c in self.cards})
        return self

    # ---- look-ups -------------------------------------------------------------
    def role(self, role_id: str) -> RoleDef:
        return self._role_by_id[role_id]

    def card(self, token: str) -> CardDef:
        return self._card_by_token[token]

    def card_order(self) -> list[str]:
        """Canonical card order (K-TIME-1): the order of the rule set's card list."""
        return [c.token for c in self.cards]

    def full_deck(self) -> list[str]:
        out: list[str] = []
        for c in self.cards:
            out.extend([c.token] * c.copies)
        return out

    def limit_of(self, role_id: str) -> int | None:
        lim = self.role(role_id).hand_limit
        return self.hand_limit if lim == -1 else lim

    def expansion_for_rank(self, rank: int) -> str | None:
        for r in self.roles:
            if r.expansion and r.rank == rank:
                return r.id
        return None

    def role_set(self, players: int, expansion_ranks: list[int] | tuple[int, ...] = ()) -> list[str]:
        """K-SET-2 / K-XROLE-1: the roles in play, highest rank first."""
        if players not in self.role_sets:
            raise ValueError(f"no role set for {players} players in rule set {self.name!r}")
        out: list[str] = []
        for rid in self.role_sets[players]:
            rank = self.role(rid).rank
            x = self.expansion_for_rank(rank) if rank in expansion_ranks else None
            out.append(x or rid)
        return sorted(out, key=lambda r: -self.role(r).rank)


def load_ruleset(name: str = "house") -> RuleSet:
    """Load and validate ``rulesets/<name>.json`` shipped with the package."""
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"bad rule set name {name!r}")
    try:
        text = resources.files("engine.overlord").joinpath("rulesets", f"{name}.json").read_text("utf-8")
    except FileNotFoundError as err:
        raise ValueError(f"no rule set named {name!r}") from err
    return RuleSet.model_validate(json.loads(text))


def available_rulesets() -> list[str]:
    folder = resources.files("engine.overlord").joinpath("rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))
