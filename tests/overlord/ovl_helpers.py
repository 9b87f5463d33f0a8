"""Helpers for the Kill the Overlord scenario tests."""

from __future__ import annotations

from collections.abc import Sequence

from engine.overlord import Game
from engine.overlord.rules import RuleSet, load_ruleset
from engine.overlord.views import Event

BASE4 = ["overlord", "captain", "squire", "peasant"]
FILL = ["sidestep", "sidestep", "sidestep", "sidestep"]  # a hand of four Sidesteps
RET = ["retaliate", "retaliate", "retaliate", "retaliate"]  # a hand of four Retaliates
WINDOWS = ("retaliate", "plead")


def mk(
    roles: Sequence[str],
    hands: Sequence[Sequence[str]] | None = None,
    gold: Sequence[int] | None = None,
    deck: Sequence[str] | None = None,
    **kw: object,
) -> Game:
    """An explicit deal; the deck defaults to 30 Capitalize cards (predictable draws)."""
    if deck is None:
        deck = ["capitalize"] * 30
    return Game.new(roles=list(roles), hands=hands, gold=gold, deck=deck, **kw)  # type: ignore[arg-type]


def kind(g: Game) -> str | None:
    p = g.prompt()
    return p.kind if p is not None else None


def settle(g: Game) -> None:
    """Everyone still owing in an open Retaliate / Plead Guilty window passes."""
    while kind(g) in WINDOWS:
        for s in sorted(g.pending()):
            g.play(s, "pass")


def go(g: Game, *lines: str) -> None:
    """Play ``"<seat>: <action>"`` lines; open windows the line's seat is not asked in are passed first."""
    for line in lines:
        seat_s, _, text = line.partition(":")
        seat = int(seat_s)
        while seat not in g.pending() and kind(g) in WINDOWS:
            for s in sorted(g.pending()):
                g.play(s, "pass")
        g.play(seat, text.strip())


def events(g: Game, kind_: str) -> list[Event]:
    return [e for e in g.events if e.kind == kind_]


def last(g: Game, kind_: str) -> Event:
    ev = events(g, kind_)
    assert ev, f"no {kind_} event"
    return ev[-1]


def close(g: Game) -> None:
    """Every seat still owing in the current window passes (one window only)."""
    assert kind(g) in WINDOWS
    for s in sorted(g.pending()):
        g.play(s, "pass")


def capped(cap: int) -> RuleSet:
    """The standard rule set with a different ``transfer_cap``."""
    data = load_ruleset().model_dump()
    data["transfer_cap"] = cap
    return RuleSet.model_validate(data)
