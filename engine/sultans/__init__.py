"""Sultans of Karaya: the pure rules engine (``docs/rules/sultans.md``).

``from engine.sultans import Round, Match`` -- see :mod:`engine.sultans.round`
(every rule of a round) and :mod:`engine.sultans.match` (the match and its
tie-breaks). Views and events: :mod:`engine.sultans.views`; notation:
:mod:`engine.sultans.actions`.
"""

from engine.sultans.actions import Action, format_action, parse_action
from engine.sultans.errors import IllegalMove, NotationError
from engine.sultans.match import Match
from engine.sultans.options import SultansOptions
from engine.sultans.round import Round
from engine.sultans.views import MatchView, Outcome, RoundView

__all__ = [
    "Action",
    "IllegalMove",
    "Match",
    "MatchView",
    "NotationError",
    "Outcome",
    "Round",
    "RoundView",
    "SultansOptions",
    "format_action",
    "parse_action",
]
