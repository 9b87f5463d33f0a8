"""Reactions, windows, Loyalists and Rebels: S-REACT-1..4, S-SUL-1..3, S-GRD-1..4,
S-ASN-1..2, S-SLV-1..3, S-DIE-1."""

from __future__ import annotations

import pytest

from engine.api import IllegalAction
from engine.sultans.errors import NotationError

from .rules_helpers import answer, deal, idle, kinds, run

# 0 assassin, 1 guard, 2 slave, 3 sultan, 4 slave, 5 slave; spare guard
SIX = "assassin guard slave sultan slave slave"


# --------------------------------------------------------------- S-REACT


def test_s_react_1_reaction_costs_no_turn_and_is_optional() -> None:
    """S-REACT-1: Claim on another seat's turn reveals and costs no turn; nobody must react."""
    r = deal(SIX, "guard")
    assert "claim" in r.legal(3) and 3 not in r.pending()
    run(r, "3: claim")
    assert r.turn == 0 and r.pending() == {0}
    assert r.view(None).seats[3].revealed
    idle(r, 0, 1, 2)
    assert r.turn == 3  # the Sultan still gets its own turn


def test_s_react_2_window_asks_every_living_seat_but_the_actor() -> None:
    """S-REACT-2: who is asked never depends on who could react."""
    pendings = []
    for cards in (SIX, "assassin slave slave sultan guard slave", "assassin slave guard slave sultan slave"):
        r = deal(cards, "guard")
        run(r, "0: assassinate 3")
        pendings.append(r.pending())
        v = r.view(None)
        assert v.window is not None and v.window.kind == "block"
        assert v.window.asked == (1, 2, 3, 4, 5) and v.window.waiting == (1, 2, 3, 4, 5)
    assert pendings[0] == pendings[1] == pendings[2] == {1, 2, 3, 4, 5}


def test_s_react_2_only_real_responses_plus_pass_are_offered() -> None:
    """S-REACT-2: a seat is offered only what it can really do, plus pass."""
    r = deal(SIX, "guard")
    run(r, "0: assassinate 2")
    assert r.legal(0) == []  # the actor is not asked
    assert r.legal(1) == ["pass", "block"]  # Guard adjacent to the Assassin
    assert r.legal(2) == ["pass"]
    assert r.legal(3) == ["pass", "claim"]  # the claim is extra, never an answer
    assert r.legal(4) == ["pass"] and r.legal(5) == ["pass"]


def test_s_react_2_detention_asks_its_target_alone() -> None:
    """S-REACT-2 / S-GRD-3: a detention asks its target alone, whatever it holds."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 2")
    assert r.pending() == {2}
    assert r.legal(2) == ["pass"]
    w = r.view(4).window
    assert w is not None and w.kind == "detention" and w.asked == (2,) and w.target == 2
    run(r, "2: pass")  # the target's pass accepts the detention: its private answer says so
    assert [e.cause for e in r.view(2).log if e.kind == "answer"] == ["accept"]
    assert not any(e.kind == "answer" for e in r.view(1).log)


def test_windows_are_timed_as_windows_and_turns_as_turns() -> None:
    """S-TIME-1 / S-REACT: the room times a block window and a detention's
    answer with its reaction timer (``is_window``), a turn with the turn timer."""
    from engine.sultans.match import Match
    from engine.sultans.options import SultansOptions
    from engine.sultans.round import Round

    m = Match(5, 1, SultansOptions())
    m.round = Round.new(["guard", "assassin", "slave", "sultan", "slave"], "slave", first=0)
    assert not m.is_window()  # seat 0's turn
    m.play(0, "detain 2")
    assert m.pending() == {2} and m.is_window()  # the target answers
    m.play(2, "pass")
    assert m.pending() == {1} and not m.is_window()
    m.play(1, "assassinate 3")
    assert len(m.pending()) > 1 and m.is_window()


def test_s_react_3_detained_guard_cannot_block_dead_seats_never_asked() -> None:
    """S-REACT-3: Block needs a free seat; dead seats have no reactions and are never
    pending; answers are private but who still owes one is public."""
    r = deal("guard assassin guard sultan slave slave slave", "slave")
    run(r, "0: detain 2")
    answer(r)
    run(r, "1: assassinate 4")
    assert r.legal(2) == ["pass"]  # detained, though adjacent to the Assassin
    assert r.legal(0) == ["pass", "block"]  # revealed, free, adjacent to the Assassin
    run(r, "5: pass")
    assert r.view(6).window is not None
    assert r.view(6).window.waiting == (0, 2, 3, 4, 6)  # type: ignore[union-attr]
    assert not any(e.kind == "answer" for e in r.view(6).log)  # 5's answer is private
    assert any(e.kind == "answer" and e.cause == "pass" for e in r.view(5).log)
    assert r.view(5).window.your_answer == "pass"  # type: ignore[union-attr]
    answer(r)
    assert not r.view(None).seats[4].alive
    assert r.turn == 3  # seat 2 (detained) skipped
    idle(r, 3, 5, 6, 0)
    run(r, "1: assassinate 5")
    assert r.pending() == {0, 2, 3, 5, 6}  # dead seat 4 never asked; the target is


def test_s_react_3_detained_sultan_can_still_claim_and_refuse() -> None:
    """S-REACT-3: detention never stops Claim the Throne or Refuse Detention."""
    r = deal("assassin guard guard sultan slave slave", "slave")
    run(r, "0: peek 1", "1: detain 3", "3: pass")
    assert r.view(None).seats[3].detained
    assert "claim" in r.legal(3)
    run(r, "3: claim")  # on seat 2's turn, while detained
    v = r.view(None)
    assert v.seats[3].revealed and v.seats[3].detained and v.crown == 2


def test_s_react_4_first_blocker_clockwise_from_the_assassins_left() -> None:
    """S-REACT-4: Block resolves by the first blocker clockwise starting from the
    Assassin's left neighbour; other would-be blockers stay as they were."""
    r = deal("sultan slave slave slave guard assassin guard", "slave", first=5)
    run(r, "5: assassinate 0")
    assert r.legal(4) == ["pass", "block"] and r.legal(6) == ["pass", "block"]
    answer(r, {4: "block", 6: "block"})
    v = r.view(None)
    assert v.seats[6].revealed and not v.seats[4].revealed
    assert not v.seats[5].alive and v.seats[0].alive
    block = [e for e in v.log if e.kind == "block"]
    assert len(block) == 1 and block[0].seat == 6 and block[0].target == 5
    assert r.outcome() is None
    assert r.turn == 6


def test_s_react_4_one_window_at_a_time_wins_checked_once_at_resolution() -> None:
    """S-REACT-4: no answer opens another window; the window resolves when its last
    asked seat answers, then wins are checked once."""
    r = deal(SIX, "guard")
    run(r, "0: assassinate 3")
    for s in (1, 2, 4, 5):
        run(r, f"{s}: pass")
        assert r.outcome() is None and r.view(None).window is not None
    run(r, "3: pass")
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.reason == "sultan-killed"
    assert r.view(None).window is None and r.pending() == set()


# ------------------------------------------------------------------ S-SUL


def test_s_sul_1_execute_only_revealed_assassins_and_slaves_unblockable() -> None:
    """S-SUL-1: Execute kills a revealed Assassin or Slave; not a hidden seat (even one
    peeked at); no window opens."""
    r = deal(SIX, "guard", first=2)
    run(r, "2: revolt")
    answer(r)
    assert [a for a in r.legal(3) if a.startswith("execute")] == ["execute 2"]
    run(r, "3: peek 0")
    idle(r, 4, 5, 0, 1, 2)
    legal = r.legal(3)
    assert "execute 2" in legal and "execute 0" not in legal  # 0 peeked at, but hidden
    run(r, "3: execute 2")
    v = r.view(None)
    assert not v.seats[2].alive and v.window is None
    assert r.pending() == {4}


def test_s_sul_1_execute_detained_yes_neutral_no() -> None:
    """S-SUL-1: a detained revealed Slave can be executed; a revealed neutral cannot."""
    r = deal("belly-dancer slave guard sultan assassin slave", "slave")
    run(r, "0: dance", "1: revolt")
    answer(r)
    run(r, "2: detain 1")
    assert r.legal(2) == []  # the acting Guard is not asked
    answer(r)
    legal = r.legal(3)
    assert "execute 1" in legal and "execute 0" not in legal


def test_s_sul_2_claim_anywhere_never_an_answer() -> None:
    """S-SUL-2: a hidden Sultan may claim in its own detention prompt and stays pending;
    a revealed Sultan who hid may claim again at once."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 3")
    assert r.legal(3) == ["pass", "refuse", "claim"]
    run(r, "3: claim")
    assert r.pending() == {3}
    assert r.legal(3) == ["pass", "refuse"]
    assert r.view(None).crown == 1  # before the active seat (S-SUL-3)
    run(r, "3: refuse")
    v = r.view(None)
    assert v.crown == 1 and not v.seats[3].detained  # a revealed Sultan refuses; crown stays
    idle(r, 2)
    run(r, "3: hide")
    assert r.view(None).crown is None  # the Sultan hid: crown back to the centre
    assert "claim" in r.legal(3)
    run(r, "3: claim")
    assert r.view(None).crown == 4


def test_s_sul_3_crown_before_the_active_seat_fires_one_circle_later() -> None:
    """S-SUL-3: revealing by Execute puts the crown before the active seat (the Sultan
    itself); it fires one full circle later, passing over dead seats."""
    r = deal(SIX, "guard", first=2)
    run(r, "2: revolt")
    answer(r)
    run(r, "3: execute 2")
    assert r.view(None).crown == 3
    idle(r, 4, 5, 0, 1)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "crown"


def test_s_sul_3_crown_never_follows_a_moving_card() -> None:
    """S-SUL-3: the crown stays before the seat, whatever that seat swaps."""
    r = deal(SIX, "guard")
    run(r, "3: claim", "0: swap spare")
    assert r.view(None).crown == 0
    idle(r, 1, 2)
    run(r, "3: hide swap 4")
    assert r.view(None).crown is None  # the Sultan hid (and moved): crown to the centre


def test_s_sul_3_claim_on_another_turn_puts_crown_before_that_seat() -> None:
    """S-SUL-3: the crown goes before the active seat, possibly not the Sultan."""
    r = deal(SIX, "guard", first=1)
    run(r, "3: claim")
    assert r.view(None).crown == 1 and r.view(None).seats[1].crown
    idle(r, 1, 2, 3, 4, 5, 0)
    out = r.outcome()
    assert out is not None and out.reason == "crown"


# ------------------------------------------------------------------ S-GRD


def test_s_grd_1_detain_any_other_living_seat_not_already_detained() -> None:
    """S-GRD-1: hidden, revealed or captured seats may be detained, not a detained one."""
    r = deal("guard guard slave sultan assassin slave slave", "slave")
    run(r, "0: detain 3")
    answer(r)
    legal = r.legal(1)
    assert "detain 3" not in legal and "detain 0" in legal and "detain 1" not in legal
    run(r, "1: detain 0")
    assert r.legal(0) == ["pass", "refuse"]
    run(r, "0: pass")
    assert r.view(None).seats[0].detained


def test_s_grd_2_block_adjacency_rules() -> None:
    """S-GRD-2: a Guard adjacent to the Assassin or the target may block; a Guard who
    is the target only if adjacent to the Assassin."""
    r = deal("assassin slave guard sultan slave guard", "slave")
    run(r, "0: assassinate 2")  # Guard target, not next to the Assassin
    assert r.legal(2) == ["pass"]
    assert r.legal(5) == ["pass", "block"]  # next to the Assassin
    r = deal("assassin slave guard sultan slave guard", "slave")
    run(r, "0: assassinate 5")  # Guard target next to the Assassin
    assert r.legal(5) == ["pass", "block"]
    assert r.legal(2) == ["pass"]  # next to neither
    r = deal("assassin slave guard sultan slave guard", "slave")
    run(r, "0: assassinate 1")
    assert r.legal(2) == ["pass", "block"]  # next to the target
    answer(r, {2: "block"})
    v = r.view(None)
    assert v.seats[2].revealed and not v.seats[0].alive and v.seats[1].alive
    assert [e.cause for e in v.log if e.kind == "death"] == ["blocked"]


def test_s_grd_2_a_block_not_needed_is_said_to_its_guard_alone() -> None:
    """S-GRD-2: when two Guards answer block, the first clockwise from the Assassin
    blocks and reveals; the other is told, privately, that its block was not
    needed and its card stays hidden (issue 43's "why" line); nobody else hears it."""
    r = deal("guard assassin guard sultan slave slave", "slave", first=1)
    run(r, "1: assassinate 3")
    assert r.legal(0) == ["pass", "block"] and r.legal(2) == ["pass", "block"]
    answer(r, {0: "block", 2: "block"})
    v = r.view(None)
    assert v.seats[2].revealed and not v.seats[0].revealed and not v.seats[1].alive  # seat 2 is first from the Assassin
    mine = [e for e in r.view(0).log if e.kind == "block-unused"]
    assert [(e.seat, e.target, e.cause, e.private) for e in mine] == [(0, 2, "hidden", True)]
    for seat in (None, 1, 2, 3, 4, 5):
        assert not [e for e in r.view(seat).log if e.kind == "block-unused"]


def test_s_grd_2_revealed_guard_blocks_too() -> None:
    """S-GRD-2: a revealed Guard may block."""
    r = deal("guard assassin slave sultan slave slave", "slave")
    run(r, "0: detain 3", "3: pass", "1: assassinate 2")
    assert r.legal(0) == ["pass", "block"]
    answer(r, {0: "block"})
    assert not r.view(None).seats[1].alive


def test_s_grd_3_refuse_detention() -> None:
    """S-GRD-3: a Guard or Sultan may refuse (a hidden one reveals; a hidden Sultan so
    places the crown); others can only accept with pass."""
    r = deal("guard guard slave sultan assassin slave", "slave")
    run(r, "0: detain 1")
    assert r.legal(1) == ["pass", "refuse"]
    run(r, "1: refuse")
    v = r.view(None)
    assert v.seats[1].revealed and not v.seats[1].detained and v.crown is None
    assert r.turn == 1  # the Guard's turn ended
    run(r, "1: detain 3", "3: refuse")
    v = r.view(None)
    assert v.seats[3].revealed and not v.seats[3].detained and v.crown == 1
    assert [e.cause for e in v.log if e.kind == "reveal" and e.seat == 3] == ["refuse"]
    idle(r, 2)
    run(r, "3: peek 4", "4: peek 5", "5: peek 2", "0: detain 2")
    assert r.legal(2) == ["pass"]


def test_s_grd_4_belly_dancer_stops_adjacent_guards() -> None:
    """S-GRD-4: a Guard next to a revealed, living, non-detained Belly Dancer can
    neither Detain nor Block; its Refuse still works."""
    r = deal("belly-dancer guard assassin sultan guard slave guard", "slave")
    run(r, "0: dance")
    assert not any(a.startswith("detain") for a in r.legal(1))
    run(r, "1: peek 3", "2: peek 3", "3: peek 2", "4: detain 1")
    assert r.legal(1) == ["pass", "refuse"]  # Refuse still works
    run(r, "1: refuse")
    idle(r, 5)
    assert not any(a.startswith("detain") for a in r.legal(6))  # right of the Dancer
    idle(r, 6, 0, 1)
    run(r, "2: assassinate 3")
    assert r.legal(1) == ["pass"]  # next to the Assassin, but next to the Dancer
    assert r.legal(4) == ["pass", "block"]  # next to the target, far from the Dancer
    answer(r)
    out = r.outcome()
    assert out is not None and out.reason == "sultan-killed"


def test_s_grd_4_detained_dancer_stops_nothing() -> None:
    """S-GRD-4 / S-DNC-1: the Dancer's effect stops while she is detained."""
    r = deal("belly-dancer guard assassin sultan guard slave guard", "slave")
    run(r, "0: dance")
    idle(r, 1, 2, 3)
    run(r, "4: detain 0", "0: pass")
    idle(r, 5)
    assert "detain 1" in r.legal(6)


# ------------------------------------------------------------- S-ASN / S-SLV


def test_s_asn_1_assassinate_any_other_living_seat() -> None:
    """S-ASN-1: hidden or revealed, never the spare, never itself."""
    r = deal(SIX, "guard")
    assert [a for a in r.legal(0) if a.startswith("assassinate")] == [f"assassinate {t}" for t in range(1, 6)]
    with pytest.raises(NotationError):
        r.play(0, "assassinate spare")
    with pytest.raises(IllegalAction):
        r.play(0, "assassinate 0")
    run(r, "0: peek 1", "1: detain 2", "2: pass")
    idle(r, 3, 4, 5)
    assert "assassinate 1" in r.legal(0)  # revealed seats too


def test_s_asn_2_window_before_the_kill() -> None:
    """S-ASN-2: the target is alive while the Block window is open."""
    r = deal(SIX, "guard")
    run(r, "0: assassinate 4")
    v = r.view(None)
    assert v.seats[4].alive and v.window is not None and v.window.target == 4 and v.window.actor == 0
    assert v.seats[0].revealed
    answer(r)
    v = r.view(None)
    assert not v.seats[4].alive and v.seats[4].card == "slave"
    assert [e.cause for e in v.log if e.kind == "death"] == ["assassinated"]


def test_s_slv_1_call_reveals_and_may_win_before_the_window() -> None:
    """S-SLV-1: the caller reveals; if that completes a revolution the Rebels win
    before any Join window opens."""
    r = deal("slave slave slave sultan guard assassin", "guard")
    run(r, "0: revolt")
    v = r.view(None)
    assert v.seats[0].revealed and v.window is not None and v.window.kind == "join"
    answer(r, {1: "join"})
    idle(r, 1)
    n_windows = kinds(r, None).count("window")
    run(r, "2: revolt")
    out = r.outcome()
    assert out is not None and out.reason == "revolution"
    assert kinds(r, None).count("window") == n_windows


def test_s_slv_2_join_hidden_free_slaves_reveal_together() -> None:
    """S-SLV-2: hidden free Slaves may join; detained hidden Slaves cannot (Ruling);
    all who join reveal together."""
    r = deal("guard slave assassin slave sultan slave slave", "slave")
    run(r, "0: detain 3", "3: pass", "1: revolt")
    assert r.legal(3) == ["pass"]  # detained hidden Slave
    assert r.legal(5) == ["pass", "join"] and r.legal(6) == ["pass", "join"]
    assert r.legal(2) == ["pass"]
    run(r, "5: join")
    assert not r.view(None).seats[5].revealed  # answers are private until resolution
    answer(r, {6: "join"})
    v = r.view(None)
    assert v.seats[5].revealed and v.seats[6].revealed and not v.seats[3].revealed
    join = [e for e in v.log if e.kind == "join"]
    assert join[-1].seats == (5, 6) and join[-1].seat == 1
    assert r.outcome() is None  # 5-6 are next to 0 (a Guard), not to 1


def test_s_slv_3_revolution_by_a_death_closing_a_gap() -> None:
    """S-SLV-3: three adjacent free revealed Slaves, however it came about."""
    r = deal("slave slave guard slave assassin sultan guard", "slave")
    run(r, "0: revolt")
    answer(r, {1: "join", 3: "join"})
    assert r.outcome() is None
    idle(r, 1, 2, 3)
    run(r, "4: assassinate 2")
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.reason == "revolution"


def test_s_slv_3_neutrals_never_count() -> None:
    """S-SLV-3: only Slave cards count, never a neutral of the Rebel side."""
    r = deal("slave slave belly-dancer sultan guard assassin", "slave")
    run(r, "0: revolt")
    answer(r, {1: "join"})
    idle(r, 1)
    run(r, "2: dance")
    assert r.outcome() is None


# ------------------------------------------------------------------ S-DIE


def test_s_die_1_dead_seat_reveals_and_scores_nothing() -> None:
    """S-DIE-1: a killed seat reveals, has no turns or reactions, scores 0 even if its
    side wins; its card can never be swapped; a Sultan revealed by dying places no crown."""
    r = deal(SIX, "guard")
    run(r, "0: assassinate 2")
    answer(r)
    v = r.view(4)
    assert not v.seats[2].alive and v.seats[2].revealed and v.seats[2].card == "slave"
    idle(r, 1)
    assert r.turn == 3  # no turn for the dead seat
    idle(r, 3, 4, 5)
    run(r, "0: assassinate 3")
    assert 2 not in r.pending()
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "rebels"
    assert out.points == {0: 2, 1: 0, 2: 0, 3: 0, 4: 1, 5: 1}
    assert r.view(None).crown is None
