"""Turns, peeks, swaps and Actions: S-TURN-2..6, S-PEEK-1, S-SWAP-1..4, S-ACT-1."""

from __future__ import annotations

import pytest

from engine.api import IllegalAction
from engine.sultans.errors import NotationError

from .rules_helpers import answer, deal, idle, kinds, run, snapshot

# 0 assassin, 1 guard, 2 slave, 3 sultan, 4 slave, 5 slave; spare guard
SIX = "assassin guard slave sultan slave slave"


def test_s_turn_2_one_of_peek_swap_or_action_and_no_pass() -> None:
    """S-TURN-2: a hidden seat may Peek, Swap or use its Action; there is no pass."""
    r = deal(SIX, "guard")
    assert r.pending() == {0}
    assert r.legal(0) == [
        *(f"peek {t}" for t in range(1, 6)),
        *(f"swap {t}" for t in range(1, 6)),
        "swap spare",
        *(f"assassinate {t}" for t in range(1, 6)),
    ]
    with pytest.raises(IllegalAction):
        r.play(0, "pass")
    run(r, "0: peek 3")
    assert r.turn == 1 and r.pending() == {1}


def test_s_turn_2_revealed_seat_hides_instead_of_swapping() -> None:
    """S-TURN-2 / S-SWAP-2: a revealed seat is offered hide, hide swap N, hide swap spare."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 4")
    answer(r)
    idle(r, 2, 3)
    assert r.turn == 5  # seat 4 skipped (S-TURN-3)
    idle(r, 5, 0)
    assert r.turn == 1
    assert r.legal(1) == [
        "peek 0",
        "peek 2",
        "peek 3",
        "peek 4",
        "peek 5",
        "hide",
        "hide swap 0",
        "hide swap 2",
        "hide swap 3",
        "hide swap 4",
        "hide swap 5",
        "hide swap spare",
        "detain 0",
        "detain 2",
        "detain 3",
        "detain 4",
        "detain 5",
    ]


def test_s_turn_3_detained_seat_skips_its_next_turn_once() -> None:
    """S-TURN-3: a detained seat's next turn is skipped and the token removed."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 3")
    assert r.pending() == {3}  # the target alone is asked (S-REACT-2)
    run(r, "3: pass")
    assert r.view(None).seats[3].detained
    idle(r, 2)
    assert r.turn == 4
    v = r.view(None)
    assert not v.seats[3].detained
    assert any(e.kind == "skip" and e.seat == 3 and e.cause == "detained" for e in v.log)
    idle(r, 4, 5, 0, 1, 2)
    assert r.turn == 3  # only one turn skipped


def test_s_turn_4_swap_back_ban_ends_even_if_the_turn_is_skipped() -> None:
    """S-TURN-4 / S-SWAP-3: the ban lasts until the end of the banned seat's next turn,
    also when that turn is skipped."""
    r = deal("slave slave guard assassin sultan slave", "guard", first=0)
    run(r, "0: swap 3")
    assert r.view(3).your_bans == (0,)
    idle(r, 1)
    run(r, "2: detain 3")
    answer(r)
    assert r.turn == 4  # seat 3 was skipped
    assert r.view(3).your_bans == ()
    idle(r, 4, 5, 0, 1, 2)
    assert "swap 0" in r.legal(3)


def test_s_turn_5_crown_fires_when_passed_over_a_dead_seat() -> None:
    """S-TURN-5 (1) / S-SUL-3: the crown before a seat that died fires when turn order
    passes over it, if the Sultan is still alive and revealed."""
    r = deal(SIX, "guard", first=5)
    run(r, "3: claim")  # on seat 5's turn: the crown goes before seat 5
    assert r.view(None).crown == 5
    run(r, "5: peek 0", "0: assassinate 5")
    answer(r)
    assert not r.view(None).seats[5].alive
    idle(r, 1, 2, 3)
    assert r.outcome() is None
    idle(r, 4)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "crown"


def test_s_turn_5_crown_fires_when_the_seat_is_skipped() -> None:
    """S-TURN-5: the crown check comes before the skip of a detained seat."""
    r = deal(SIX, "guard", first=4)
    run(r, "3: claim")
    idle(r, 4, 5, 0)
    run(r, "1: detain 4")
    answer(r)
    idle(r, 2)
    assert r.outcome() is None
    idle(r, 3)
    out = r.outcome()
    assert out is not None and out.reason == "crown"
    assert not any(e.kind == "skip" for e in r.view(None).log)


def test_s_turn_5_order_dead_passed_detained_skipped_and_wins_checked() -> None:
    """S-TURN-5 (2): dead seats are passed over; a detained seat is skipped with its
    prison token and exhaustion removed, then wins are checked."""
    r = deal(SIX, "guard")
    run(r, "0: assassinate 2")
    answer(r)
    assert r.turn == 1
    idle(r, 1)
    assert r.turn == 3  # seat 2 is dead: passed over, no skip event
    assert not any(e.kind == "skip" and e.seat == 2 for e in r.view(None).log)


def test_s_turn_6_active_seat_stays_during_a_forced_action() -> None:
    """S-TURN-6: a forced Action inside the Vizier's turn does not change the active seat."""
    r = deal("vizier guard slave sultan assassin slave", "slave")
    run(r, "0: manipulate loyalists 1")
    assert r.turn == 0 and r.pending() == {1}
    v = r.view(None)
    assert v.active == 0 and v.forced == 1 and v.phase == "forced"
    run(r, "1: detain 4")
    assert r.turn == 0
    run(r, "4: pass")
    assert r.turn == 1  # turn order resumes after the Vizier


def test_s_peek_1_peek_is_private_and_public_who_at_whom() -> None:
    """S-PEEK-1: look at one other living hidden seat; never the spare; everyone sees who at whom."""
    r = deal(SIX, "guard")
    run(r, "0: peek 3")
    mine = r.view(0)
    assert any(n.seat == 3 and n.card == "sultan" and n.how == "peek" and not n.stale for n in mine.notes)
    assert any(e.kind == "peek-result" and e.card == "sultan" and e.private for e in mine.log)
    for s in [None, 1, 2, 3, 4, 5]:
        v = r.view(s)
        assert any(e.kind == "peek" and e.seat == 0 and e.target == 3 for e in v.log)
        assert not any(e.kind == "peek-result" for e in v.log)
        assert "sultan" not in v.model_dump_json() or s == 3
    with pytest.raises(NotationError):
        r.play(1, "peek spare")
    with pytest.raises(IllegalAction):
        r.play(1, "peek 1")  # not itself
    run(r, "1: detain 0")
    answer(r)
    assert "peek 1" not in r.legal(2)  # revealed
    assert "peek 0" in r.legal(2)  # detained hidden seats may be peeked at


def test_s_swap_1_open_swap_both_see_new_cards_everyone_sees_who() -> None:
    """S-SWAP-1: a hidden seat swaps with a living hidden non-detained seat or the spare."""
    r = deal(SIX, "guard")
    run(r, "0: swap 3")
    assert r.cards()[:4] == ["sultan", "guard", "slave", "assassin"]
    assert r.view(0).your_card == "sultan" and r.view(3).your_card == "assassin"
    assert any(e.kind == "new-card" and e.card == "sultan" for e in r.view(0).log)
    assert any(e.kind == "new-card" and e.card == "assassin" for e in r.view(3).log)
    for s in [None, 1, 2, 4, 5]:
        v = r.view(s)
        assert any(e.kind == "swap" and e.seat == 0 and e.target == 3 for e in v.log)
        assert not any(e.kind == "new-card" for e in v.log)
    # each swapper also knows where its old card went (S-VIEW-1)
    assert any(n.seat == 3 and n.card == "assassin" for n in r.view(0).notes)
    assert any(n.seat == 0 and n.card == "sultan" for n in r.view(3).notes)
    run(r, "1: swap spare")
    assert r.cards()[1] == "guard" and r.spare() == "guard"
    assert any(e.kind == "swap" and e.seat == 1 and e.spare for e in r.view(None).log)


def test_s_swap_2_hide_with_secret_swap() -> None:
    """S-SWAP-2: a revealed seat hides and may swap; others see only that it hid; the
    partner learns its new card and who took its card."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 0")
    answer(r)
    idle(r, 2, 3, 4, 5)
    run(r, "1: hide swap 2")
    assert r.cards()[1:3] == ["slave", "guard"]
    for s in [None, 0, 3, 4, 5]:
        v = r.view(s)
        assert any(e.kind == "hide" and e.seat == 1 for e in v.log)
        assert not any(e.kind == "hide-swap" for e in v.log)
        assert not v.seats[1].revealed and v.seats[1].card is None
    v2 = r.view(2)
    assert v2.your_card == "guard"
    assert any(e.kind == "hide-swap" and e.seat == 1 and e.target == 2 for e in v2.log)
    v1 = r.view(1)
    assert v1.your_card == "slave"
    assert any(e.kind == "hide-swap" and e.target == 2 for e in v1.log)


def test_s_swap_2_hide_without_swap_keeps_the_card() -> None:
    """S-SWAP-2: a plain ``hide`` turns the card face down without swapping."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 0")
    answer(r)
    idle(r, 2, 3, 4, 5)
    run(r, "1: hide")
    assert r.cards()[1] == "guard"
    assert not r.view(None).seats[1].revealed
    assert "hide" in kinds(r, None)


def test_s_swap_3_swap_back_ban() -> None:
    """S-SWAP-3: if X's swap took Y's card, Y may not choose X until the end of Y's
    next turn, whatever X holds; the spare is never banned."""
    r = deal(SIX, "guard")
    run(r, "0: swap 1")
    assert r.view(1).your_bans == (0,)
    legal = r.legal(1)
    assert "swap 0" not in legal and "swap spare" in legal and "peek 0" in legal
    with pytest.raises(IllegalAction):
        r.play(1, "swap 0")
    run(r, "1: peek 0")
    assert r.view(1).your_bans == ()
    idle(r, 2, 3, 4, 5, 0)
    assert "swap 0" in r.legal(1)


def test_s_swap_3_ban_after_a_secret_swap_and_for_hide_swap() -> None:
    """S-SWAP-3: a hide-swap bans its partner too, for ``swap`` and ``hide swap`` alike."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 0")
    answer(r)
    idle(r, 2, 3, 4, 5)
    run(r, "1: hide swap 2")
    assert r.view(2).your_bans == (1,)
    assert r.view(4).your_bans == ()  # nobody else learns of the ban
    assert "swap 1" not in r.legal(2)


def test_s_swap_4_revealed_dead_and_detained_seats_cannot_be_swapped_with() -> None:
    """S-SWAP-4: only hidden cards move."""
    r = deal("assassin guard slave sultan slave slave guard", "slave")
    run(r, "0: assassinate 2")
    answer(r)
    run(r, "1: detain 4")
    answer(r)
    legal = r.legal(3)
    assert "swap 0" not in legal  # revealed
    assert "swap 1" not in legal  # revealed
    assert "swap 2" not in legal  # dead
    assert "swap 4" not in legal  # detained
    assert "swap 5" in legal and "swap 6" in legal and "swap spare" in legal
    before = snapshot(r)
    with pytest.raises(IllegalAction):
        r.play(3, "swap 2")
    assert snapshot(r) == before


def test_s_act_1_action_reveals_and_may_be_used_again() -> None:
    """S-ACT-1: an Action reveals the card first; the seat stays revealed and may use
    its Action again on a later turn."""
    r = deal(SIX, "guard")
    run(r, "0: peek 1", "1: detain 3")
    v = r.view(None)
    assert v.seats[1].revealed and v.seats[1].card == "guard"
    ev = [e for e in v.log if e.kind == "reveal"]
    assert ev[-1].seat == 1 and ev[-1].card == "guard" and ev[-1].cause == "action"
    run(r, "3: pass")
    idle(r, 2, 4, 5, 0)
    assert r.view(None).seats[1].revealed
    assert "detain 2" in r.legal(1)
    run(r, "1: detain 2")
    assert r.pending() == {2}
