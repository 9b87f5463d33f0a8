"""Kill the Overlord: the rules engine (pure; rules in ``rules/overlord.md``).

``from engine.overlord import Game``; ``Game.new(roles=[...])`` for an explicit
deal, ``Game.random(players, seed)`` for a dealt game.
"""

from engine.overlord.game import Game, Prompt
from engine.overlord.notation import Action, OverlordIllegal, parse
from engine.overlord.rules import RuleSet, load_ruleset
from engine.overlord.views import Event, Outcome, OverlordView

__all__ = [
    "Action",
    "Event",
    "Game",
    "Outcome",
    "OverlordIllegal",
    "OverlordView",
    "Prompt",
    "RuleSet",
    "load_ruleset",
    "parse",
]
