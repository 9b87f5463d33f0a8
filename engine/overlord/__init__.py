"""Kill the Overlord: the rules engine (pure; rules in ``docs/rules/overlord.md``).

Files: ``rules.py`` (the rule set model; ``rulesets/house.json`` is the house
default deck, symbols, copies, role sets, incomes, thresholds), ``notation.py``
(actions and their notation, K-NOTE-1), ``game.py`` (the whole game),
``views.py`` (what a seat may see, K-VIEW-1), ``bots.py``, ``search.py`` (the
strong bot), ``spec.py`` (lobby).

Facade::

    from engine.overlord import Game
    g = Game.new(roles=["overlord", "captain", "squire", "peasant"],
                 hands=None, gold=None, deck=None, seed=0)   # deck: top first
    g = Game.random(players, seed, options=OverlordOptions(...))  # dealt from the seed
    g.pending(); g.legal(seat); g.play(seat, "play sidestep 2")
    g.roles          # role id per seat now (an executed seat: the role it left in the centre)
    g.outcome()      # None, or Outcome(winner, reason, gold)
    g.view(seat); g.view(None)   # OverlordView (pydantic, JSON round-trip)
    g.clone()        # the same game replayed from its deal, seed and actions
    Game.at_order(roles, hands, gold, deck, OrderPoint(round=3, holder=2, ...))  # met mid-phase

``Game`` is also an ``engine.api.GameTable`` (rounds flow on inside the game).
"""

from engine.overlord.game import Game, OrderPoint, Prompt
from engine.overlord.notation import Action, OverlordIllegal, parse
from engine.overlord.rules import RuleSet, load_ruleset
from engine.overlord.views import Event, Outcome, OverlordView

__all__ = [
    "Action",
    "Event",
    "Game",
    "OrderPoint",
    "Outcome",
    "OverlordIllegal",
    "OverlordView",
    "Prompt",
    "RuleSet",
    "load_ruleset",
    "parse",
]
