"""Cards, seats, sides and the deal: S-DECK-1..3, S-SEAT-1..2, S-SIDE-1, S-TURN-1."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.sultans import Match, Round
from engine.sultans.cards import (
    ASSASSIN,
    DANCER,
    DRIVER,
    GUARD,
    LOYALISTS,
    NEUTRALS,
    REBELS,
    ROLE_TABLE,
    SLAVE,
    SULTAN,
    TELLER,
    VIZIER,
    side_of,
)

from .rules_helpers import answer, deal, run

NEUTRAL_NAMES = {"slave-driver", "belly-dancer", "vizier", "fortune-teller"}


@pytest.mark.parametrize("players", sorted(ROLE_TABLE))
def test_s_deck_1_role_table(players: int) -> None:
    """S-DECK-1: players + 1 cards, in the counts of the table, for every seed."""
    sultans, guards, assassins, slaves, neutrals = ROLE_TABLE[players]
    for seed in range(20):
        r = Round.random(players, seed)
        cards = Counter([*r.cards(), r.spare()])
        assert sum(cards.values()) == players + 1
        assert cards["sultan"] == sultans == 1
        assert cards["guard"] == guards
        assert cards["assassin"] == assassins
        assert cards["slave"] == slaves
        assert sum(cards[c] for c in NEUTRAL_NAMES) == neutrals
        assert all(cards[c] <= 1 for c in NEUTRAL_NAMES)  # S-DECK-2: no repeats


def test_s_deck_1_table_literal() -> None:
    """S-DECK-1: the table as printed in the rules."""
    assert ROLE_TABLE[5] == (1, 1, 1, 3, 0)
    assert ROLE_TABLE[8] == (1, 2, 2, 3, 1)
    assert ROLE_TABLE[11] == (1, 2, 2, 4, 3)
    assert ROLE_TABLE[12] == (1, 3, 3, 4, 2)
    assert ROLE_TABLE[15] == (1, 3, 3, 5, 4)
    assert all(sum(v) == p + 1 for p, v in ROLE_TABLE.items())
    with pytest.raises(ValueError):
        Round.random(4, 1)
    with pytest.raises(ValueError):
        Round.random(16, 1)


def test_s_deck_2_neutrals_random_unseen_and_anew_each_round() -> None:
    """S-DECK-2: neutrals are drawn at random per round (different subsets appear)
    and nobody is told which: a fresh view names no card but the seat's own."""
    subsets = set()
    for seed in range(40):
        r = Round.random(7, seed)
        subsets.add(frozenset(c for c in [*r.cards(), r.spare()] if c in NEUTRAL_NAMES))
    assert len(subsets) >= 4
    r = Round.random(9, 4)
    for s in range(9):
        text = r.view(s).model_dump_json()
        named = {c for c in ["sultan", "guard", "assassin", "slave", *NEUTRAL_NAMES] if f'"{c}"' in text}
        assert named == {r.cards()[s]}
    spectator = r.view(None).model_dump_json()
    assert not any(f'"{c}"' in spectator for c in ["sultan", "guard", "assassin", "slave", *NEUTRAL_NAMES])


def test_s_deck_2_explicit_deal_is_not_checked_against_the_table() -> None:
    """S-DECK-2: an explicit test deal may hold any cards (here two Sultans' worth of oddity)."""
    r = deal("vizier vizier assassin slave slave", "fortune-teller")
    assert r.cards() == ["vizier", "vizier", "assassin", "slave", "slave"]
    assert r.spare() == "fortune-teller"


def test_s_deck_3_deal_and_own_card() -> None:
    """S-DECK-3: seat i gets deal[i], the spare is face down, each seat sees its own card only."""
    r = deal("slave guard sultan assassin slave", "slave")
    for s, c in enumerate(["slave", "guard", "sultan", "assassin", "slave"]):
        v = r.view(s)
        assert v.your_card == c
        assert v.seats[s].card == c
        assert all(v.seats[t].card is None for t in range(5) if t != s)
        assert v.spare_card is None
    assert r.view(None).your_card is None


def test_s_seat_1_adjacency_skips_dead_seats_and_never_the_spare() -> None:
    """S-SEAT-1: adjacent = nearest living seat on each side, around the circle."""
    r = deal("assassin guard slave sultan slave slave", "slave")
    assert r.adjacent(0, 1) and r.adjacent(0, 5) and not r.adjacent(0, 2)
    run(r, "0: assassinate 1")
    answer(r)
    assert not r.view(None).seats[1].alive
    assert r.adjacent(0, 2) and r.adjacent(2, 0)
    assert not r.adjacent(0, 1) and not r.adjacent(1, 2)
    assert not r.adjacent(0, 0)


def test_s_seat_2_free_means_neither_detained_nor_captured() -> None:
    """S-SEAT-2 / S-SLV-3: three revealed Slaves in a row with the middle one detained
    are no revolution; it happens when the prison token is removed at the skip."""
    r = deal("slave slave slave guard assassin sultan", "guard", first=0)
    run(r, "0: revolt")
    answer(r, {1: "join"})
    run(r, "1: peek 3", "2: peek 3", "3: detain 1")
    answer(r)  # seat 1 accepts detention
    run(r, "4: peek 5", "5: peek 2", "0: revolt")
    assert r.legal(1) == ["pass"]  # detained (and already revealed): no Join
    answer(r, {2: "join"})
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.reason == "revolution"
    log = r.view(None).log
    i_join = max(i for i, e in enumerate(log) if e.kind == "join")
    i_skip = next(i for i, e in enumerate(log) if e.kind == "skip" and e.seat == 1)
    i_win = next(i for i, e in enumerate(log) if e.kind == "win")
    assert i_join < i_skip < i_win  # not won at the join: seat 1 was not free


def test_s_seat_2_detention_makes_a_slave_unfree_for_s_win_2() -> None:
    """S-SEAT-2 / S-WIN-2: with no Assassin alive, detaining one of three free Slaves
    leaves fewer than three free Slaves: the Loyalists win at once."""
    r = deal("assassin guard slave sultan slave slave", "guard", first=0)
    run(r, "0: peek 1", "1: detain 2")
    answer(r)
    assert r.outcome() is None  # an Assassin is alive
    r = deal("guard guard slave sultan slave slave", "guard", first=0)
    run(r, "0: detain 2")
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "no-rebels"


def test_s_side_1_sides_of_every_card() -> None:
    """S-SIDE-1 (with S-DRV-1, S-DNC-1, S-VIZ-1, S-FTL-1): sides by card and state."""
    assert side_of(SULTAN, False) == side_of(GUARD, True) == LOYALISTS
    assert side_of(ASSASSIN, False) == side_of(SLAVE, True) == REBELS
    assert side_of(DRIVER, False) == REBELS and side_of(DRIVER, True) == LOYALISTS
    assert side_of(DANCER, False) == LOYALISTS and side_of(DANCER, True) == REBELS
    assert side_of(VIZIER, False) == -1 and side_of(VIZIER, True, REBELS) == REBELS
    assert side_of(TELLER, True) == -1
    assert set(NEUTRALS) == {DRIVER, DANCER, VIZIER, TELLER}


def test_s_turn_1_random_first_seat_then_one_clockwise_per_round() -> None:
    """S-TURN-1: round 1 starts at a seed-chosen seat; each later round one seat clockwise."""
    firsts_r1 = {Match.new(players=6, seed=s).round.first for s in range(30)}
    assert len(firsts_r1) > 1
    m = Match.new(players=6, seed=2, rounds=3)
    f0 = m.round.first
    assert m.round.turn == f0
    seen = [f0]
    while not m.is_over():
        if m.between_rounds():
            m.next_round()
            seen.append(m.round.first)
            assert m.round.turn == m.round.first
            continue
        s = min(m.pending())
        m.play(s, m.timeout_action(s))
    assert seen == [f0, (f0 + 1) % 6, (f0 + 2) % 6]
    assert Round.random(8, 5, first=3).turn == 3
