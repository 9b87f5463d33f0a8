"""Room options of a Sultans of Karaya match (S-WIN-4, S-MATCH-1)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

FIRST_TO_CAP = 15
"""Most rounds of a first-to-N match (S-MATCH-1)."""
FIRST_TO_MAX = 2 * FIRST_TO_CAP
"""The most points a first-to-N match may ask for: reachable within the cap,
a seat scoring at most 2 a round (S-SCORE-1)."""


class SultansOptions(BaseModel):
    """Match options.

    - ``rounds``: number of rounds in a fixed-length match (default 5).
    - ``first_to``: if set, the match is "first to N points" instead: it ends
      after the round in which some seat reaches N, or after ``FIRST_TO_CAP``
      rounds (``rounds`` is then ignored); N is at most ``FIRST_TO_MAX``.
    - ``turn_limit``: the house-rule turn limit per round (S-WIN-4), at least 50.
    - ``notebook``: whether views carry the seat's notebook (S-VIEW-2).
    """

    model_config = ConfigDict(extra="forbid")

    rounds: int = Field(default=5, ge=1, le=50)
    first_to: int | None = Field(default=None, ge=1, le=FIRST_TO_MAX)
    turn_limit: int = Field(default=200, ge=50, le=10000)
    notebook: bool = True
