"""End of round, scoring, match, timeouts: S-WIN-1..4, S-SCORE-1, S-MATCH-1, S-TIME-1."""

from __future__ import annotations

import random

import pytest

from engine.api import IllegalAction
from engine.sultans import Match, SultansOptions
from engine.sultans.views import RoundResult

from .rules_helpers import answer, deal, idle, run

SIX = "assassin guard slave sultan slave slave"


def test_s_win_1_assassin_kills_the_sultan() -> None:
    """S-WIN-1: the Rebels win at once when an Assassin kills the Sultan's seat."""
    r = deal(SIX, "guard")
    run(r, "0: assassinate 3")
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.reason == "sultan-killed"
    assert out.points == {0: 2, 1: 0, 2: 1, 3: 0, 4: 1, 5: 1}  # S-SCORE-1
    assert r.turn is None and r.pending() == set() and r.legal(0) == []


def test_s_win_1_revolution() -> None:
    """S-WIN-1 / S-SLV-3: three adjacent free revealed Slaves win for the Rebels."""
    r = deal("slave slave slave guard sultan assassin", "guard")
    run(r, "0: revolt")
    answer(r, {1: "join", 2: "join"})
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.reason == "revolution"
    assert out.points == {0: 2, 1: 2, 2: 2, 3: 0, 4: 0, 5: 1}


def test_s_win_2_no_assassin_and_fewer_than_three_free_slaves() -> None:
    """S-WIN-2: no Assassin alive (seats or spare) and fewer than three free Slaves
    (a Slave in the spare is free) -> the Loyalists win at once."""
    # the only Assassin is blocked; Slaves 2 and 4 + a Guard in the spare: 2 free
    r = deal("guard assassin slave sultan slave guard", "guard", first=1)
    run(r, "1: assassinate 3")
    answer(r, {0: "block"})
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "no-rebels"
    # a Slave in the spare is free: 3 free Slaves, play goes on
    r = deal("guard assassin slave sultan slave guard", "slave", first=1)
    run(r, "1: assassinate 3")
    answer(r, {0: "block"})
    assert r.outcome() is None
    # an Assassin in the spare is alive: play goes on
    r = deal("guard assassin slave sultan slave guard", "assassin", first=1)
    run(r, "1: assassinate 3")
    answer(r, {0: "block"})
    assert r.outcome() is None


def test_s_win_2_explicit_deal_checked_at_once() -> None:
    """S-WIN-2 (Ruling: checked when the round is created): a deal with no Assassin
    and fewer than three free Slaves is a Loyalist win before any turn."""
    r = deal("guard guard slave sultan slave guard", "guard")
    out = r.outcome()
    assert out is not None and out.reason == "no-rebels" and out.turns == 0


def test_s_win_2_crown_is_a_loyalist_win() -> None:
    """S-WIN-2: the Loyalists win by the crown (S-SUL-3)."""
    r = deal(SIX, "guard")
    run(r, "3: claim")
    idle(r, 0, 1, 2, 3, 4, 5)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "crown"
    assert out.points == {0: 0, 1: 1, 2: 0, 3: 2, 4: 0, 5: 0}


def test_s_win_3_order_sultan_killed_before_revolution() -> None:
    """S-WIN-3: after an event wins are checked in order: Sultan killed first (here the
    Sultan's death also closes a gap between revealed Slaves)."""
    r = deal("slave slave sultan slave assassin guard", "guard")
    run(r, "0: revolt")
    answer(r, {1: "join", 3: "join"})
    idle(r, 1, 2, 3)
    run(r, "4: assassinate 2")
    answer(r)
    out = r.outcome()
    assert out is not None and out.reason == "sultan-killed"


def test_s_win_3_claim_does_not_win_by_itself() -> None:
    """S-WIN-3: the crown fires only by S-TURN-5, never at the claim."""
    r = deal(SIX, "guard")
    run(r, "3: claim")
    assert r.outcome() is None


def test_s_win_4_turn_limit_no_winner() -> None:
    """S-WIN-4: when the limit is reached as turn order steps onto a seat, the round ends
    with no winner and every seat scores 0."""
    r = deal(SIX, "guard", turn_limit=7)
    idle(r, 0, 1, 2, 3, 4, 5, 0)
    out = r.outcome()
    assert out is not None and out.winner is None and out.reason == "turn-limit"
    assert set(out.points.values()) == {0} and out.turns == 7


def test_s_win_4_due_crown_still_wins_at_the_limit() -> None:
    """S-WIN-4: a crown due on the limit step still wins."""
    r = deal(SIX, "guard", turn_limit=6)
    run(r, "3: claim")
    idle(r, 0, 1, 2, 3, 4, 5)
    out = r.outcome()
    assert out is not None and out.reason == "crown"


def test_s_win_4_extra_turns_count() -> None:
    """S-WIN-4: the limit counts turns played, regular and extra."""
    r = deal("slave-driver slave guard slave sultan assassin slave", "slave", turn_limit=3)
    run(r, "0: capture 1", "0: peek 2")
    assert r.view(None).turns_played == 3  # turn 1, its extra turn, seat 2's turn
    idle(r, 2)
    out = r.outcome()
    assert out is not None and out.reason == "turn-limit"


def test_s_win_4_option_minimum_and_round_counts_in_match() -> None:
    """S-WIN-4: the room option is at least 50; a round ended by the limit still counts."""
    with pytest.raises(ValueError):
        SultansOptions(turn_limit=49)
    m = Match.new(players=5, seed=1, rounds=2, turn_limit=50)
    while not m.round.over:
        s = min(m.pending())
        m.play(s, m.timeout_action(s))  # peeks only: nobody acts
    assert m.history[0].reason == "turn-limit" and m.history[0].winner is None
    assert m.totals == [0] * 5 and m.between_rounds() and not m.is_over()


def test_s_score_1_revealed_two_hidden_one_dead_zero() -> None:
    """S-SCORE-1: each living winner scores 2 revealed, 1 hidden, by the card it holds at
    the end (swaps count); detained seats score normally."""
    r = deal("guard assassin slave sultan slave slave", "guard", first=0)
    run(r, "0: detain 2", "2: pass")
    run(r, "1: swap 3")  # seat 1 now holds the Sultan (hidden), seat 3 the Assassin
    idle(r, 3, 4, 5, 0)
    run(r, "1: claim")  # on its own turn: the crown fires one full circle later
    idle(r, 1, 2, 3, 4, 5, 0)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists"
    assert out.points == {0: 2, 1: 2, 2: 0, 3: 0, 4: 0, 5: 0}


# ------------------------------------------------------------------ match


def _result(number: int, points: list[int]) -> RoundResult:
    n = len(points)
    return RoundResult(
        number=number,
        first=0,
        winner="rebels",
        reason="revolution",
        points=tuple(points),
        cards=tuple(["slave"] * n),
        spare="slave",
        turns=1,
    )


def _decide(rounds: list[list[int]]) -> tuple[str, tuple[int, ...], int | None]:
    m = Match.new(players=len(rounds[0]), seed=0)
    m.history = [_result(i + 1, p) for i, p in enumerate(rounds)]
    m.totals = [sum(p[s] for p in rounds) for s in range(len(rounds[0]))]
    tb = m._decide()
    return tb.code, tb.winners, tb.round


def test_s_match_1_tie_breaks() -> None:
    """S-MATCH-1: highest total; tie -> latest 2-point round wins; same round or none ->
    shared."""
    assert _decide([[2, 1, 0, 0, 0], [1, 0, 0, 0, 0]]) == ("sole-highest", (0,), None)
    # 0 and 1 tie on 3; 1 scored 2 in round 2, 0 in round 1 -> 1 wins
    assert _decide([[2, 1, 0, 0, 0], [1, 2, 0, 0, 0]]) == ("latest-two", (1,), 2)
    # both scored 2 last in round 2 -> shared
    assert _decide([[1, 1, 0, 0, 0], [2, 2, 0, 0, 0]]) == ("shared-same-round", (0, 1), 2)
    # nobody ever scored 2 -> shared
    assert _decide([[1, 1, 0, 0, 0], [1, 1, 1, 0, 0]]) == ("shared-no-two", (0, 1), None)
    # the latest 2-point round counts, not the number of them
    assert _decide([[2, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 0]]) == ("latest-two", (1,), 3)


def test_s_match_1_five_rounds_and_explicit_next_round() -> None:
    """S-MATCH-1: a match is 5 rounds; a finished round waits for next_round()."""
    m = Match.new(players=6, seed=4)
    rng = random.Random(2)
    with pytest.raises(IllegalAction):
        m.next_round()
    rounds = 0
    while not m.is_over():
        if m.between_rounds():
            assert m.pending() == set()
            with pytest.raises(IllegalAction):
                m.play(0, "pass")
            m.next_round()
            continue
        if m.round.over:
            break
        s = rng.choice(sorted(m.pending()))
        m.play(s, rng.choice(m.legal(s)))
        rounds = len(m.history)
    assert rounds == 5 and m.round_number == 5
    assert m.winners() and m.view(None).tiebreak is not None
    assert m.view(None).over and m.view(3).winners == tuple(m.winners())
    with pytest.raises(IllegalAction):
        m.next_round()


def test_s_match_1_first_to_n_with_cap() -> None:
    """S-MATCH-1: first to N ends after the round in which someone reaches N, at most
    15 rounds."""
    m = Match.new(players=5, seed=7, first_to=4, turn_limit=50)
    rng = random.Random(3)
    while not m.is_over():
        if m.between_rounds():
            assert max(m.totals) < 4
            m.next_round()
            continue
        s = rng.choice(sorted(m.pending()))
        m.play(s, rng.choice(m.legal(s)))
    assert max(m.totals) >= 4 or len(m.history) == 15
    v = m.view(None)
    assert v.rounds is None and v.first_to == 4 and v.max_rounds == 15
    # nobody ever scores (timeouts only peek): the cap ends it, all share
    m = Match.new(players=5, seed=7, first_to=4, turn_limit=50)
    while not m.is_over():
        if m.between_rounds():
            m.next_round()
            continue
        s = min(m.pending())
        m.play(s, m.timeout_action(s))
    assert len(m.history) == 15 and m.winners() == [0, 1, 2, 3, 4]
    assert m.tiebreak is not None and m.tiebreak.code == "shared-no-two"


# ---------------------------------------------------------------- timeouts


def test_s_time_1_timeout_defaults() -> None:
    """S-TIME-1: window/detention -> pass; forced -> first legal; turn -> peek the first
    hidden seat clockwise, else swap spare / hide; second step -> predict loyalists."""
    r = deal("vizier guard assassin sultan slave fortune-teller", "slave", first=5)
    assert r.timeout_action(5) == "peek 0"
    with pytest.raises(IllegalAction):
        r.timeout_action(0)  # not pending
    run(r, "5: foresee 0 1 2")
    assert r.timeout_action(5) == "predict loyalists"
    run(r, "5: predict loyalists", "0: manipulate loyalists 1")
    assert r.timeout_action(1) == "detain 0"
    run(r, "1: detain 3")
    assert r.timeout_action(3) == "pass"
    run(r, "3: pass")
    assert r.turn == 1
    assert r.timeout_action(1) == "peek 2"
    run(r, "1: peek 2", "2: assassinate 4")
    assert {r.timeout_action(s) for s in r.pending()} == {"pass"}
    answer(r)


def test_s_time_1_swap_spare_or_hide_when_nobody_is_hidden() -> None:
    """S-TIME-1: with nobody hidden to peek at, a hidden seat swaps with the spare and
    a revealed seat hides."""
    r = deal("belly-dancer slave guard assassin slave vizier", "sultan")
    run(r, "0: dance", "1: revolt")
    answer(r)
    run(r, "2: detain 1", "1: pass", "3: assassinate 4")
    answer(r)
    assert r.turn == 5 and r.timeout_action(5) == "swap spare"
    run(r, "5: swap spare")
    assert r.turn == 0 and r.timeout_action(0) == "peek 5"  # 5 is hidden again
    r = deal("slave slave slave sultan assassin", "guard", first=3)
    run(r, "3: claim", "3: peek 0", "4: assassinate 0")
    answer(r)
    run(r, "1: revolt")
    answer(r, {2: "join"})
    assert r.turn == 2 and r.timeout_action(2) == "hide"  # all others revealed or dead
