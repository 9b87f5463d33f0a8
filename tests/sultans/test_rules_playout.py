"""Smoke test: random playouts of whole rounds and a match never crash and always end.

(H2's property tests go much further; this one guards the engine itself.)
"""

from __future__ import annotations

import random

import pytest

from engine.api import GameTable, IllegalAction
from engine.sultans import Match, Round


def _playout(players: int, seed: int) -> Round:
    r = Round.random(players, seed)
    rng = random.Random(seed)
    steps = 0
    while r.outcome() is None:
        pend = sorted(r.pending())
        assert pend, "a round in play always waits for someone"
        s = rng.choice(pend)
        legal = r.legal(s)
        assert legal, f"pending seat {s} has no legal action"
        r.play(s, rng.choice(legal))
        steps += 1
        assert steps < 20_000
    return r


@pytest.mark.parametrize("players", range(5, 16))
def test_random_rounds_end_and_score(players: int) -> None:
    """S-WIN-4: every round ends (at the latest at the turn limit); S-SCORE-1 points are 0-2."""
    for seed in range(12):
        r = _playout(players, seed)
        out = r.outcome()
        assert out is not None
        assert r.turns_played <= r.turn_limit + 20
        assert set(out.points) == set(range(players))
        assert all(0 <= p <= 2 for p in out.points.values())
        if out.winner is None:
            assert out.reason == "turn-limit" and not any(out.points.values())
        assert r.pending() == set()
        assert r.turn is None
        with pytest.raises(IllegalAction):
            r.play(0, "pass")
        # every card is shown at round end (S-VIEW-3)
        sv = r.view(None)
        assert all(s.card is not None for s in sv.seats) and sv.spare_card is not None


def test_random_match_plays_to_the_end() -> None:
    """S-MATCH-1 / S-TURN-1: a 5-round match ends; each round starts one seat clockwise."""
    m = Match.new(players=7, seed=11, rounds=5)
    assert isinstance(m, GameTable)
    rng = random.Random(5)
    while not m.is_over():
        if m.between_rounds():
            m.next_round()
            continue
        s = rng.choice(sorted(m.pending()))
        m.play(s, rng.choice(m.legal(s)))
    assert len(m.history) == 5
    assert [h.first for h in m.history] == [(m.history[0].first + k) % 7 for k in range(5)]
    assert m.standings() == [sum(h.points[s] for h in m.history) for s in range(7)]
    assert m.winners()
