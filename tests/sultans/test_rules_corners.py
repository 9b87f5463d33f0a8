"""Corner cases of the rulings (and the engine's own rulings where the rules are silent)."""

from __future__ import annotations

from .rules_helpers import answer, deal, idle, run


def test_s_viz_2_claim_leaves_forced_driver_without_target_ruling() -> None:
    """S-VIZ-2 / S-SUL-2 (engine ruling): a forced Slave Driver whose only target was the
    hidden Sultan loses it when the Sultan claims; revealing was then the whole effect:
    it is exhausted and the Vizier's turn ends. The crown goes before the Vizier."""
    r = deal("vizier slave-driver sultan guard assassin slave", "slave", first=3)
    run(r, "3: detain 5", "5: pass", "4: assassinate 5")
    answer(r)
    assert r.turn == 0  # seat 5 dead
    run(r, "0: manipulate loyalists 1")
    assert r.legal(1) == ["capture 2"]
    run(r, "2: claim")
    v = r.view(None)
    assert v.seats[1].exhausted and v.forced is None and v.crown == 0
    assert r.turn == 1 and r.pending() == {1}


def test_s_sul_3_extra_turn_never_fires_the_crown() -> None:
    """S-SUL-3: the crown before the Slave Driver does not fire at its extra turn; it
    fires one full circle later."""
    r = deal("slave-driver slave guard slave sultan assassin", "guard")
    run(r, "4: claim", "0: capture 1")
    assert r.outcome() is None and r.view(None).extra_turn and r.view(None).crown == 0
    run(r, "0: peek 2")
    assert r.outcome() is None
    idle(r, 2, 3, 4, 5)  # seat 1 is captured: skipped
    out = r.outcome()
    assert out is not None and out.reason == "crown"


def test_s_turn_4_captured_and_detained_loses_prison_token_at_first_skip() -> None:
    """S-TURN-4 / S-GRD-1: a captured seat may be detained; at its first skip it loses the
    prison token and stays captured, skipping every turn."""
    r = deal("slave-driver slave guard sultan assassin slave", "guard")
    run(r, "0: capture 1", "0: peek 3", "2: detain 1", "1: pass")  # seat 1 skipped once already
    v = r.view(None)
    assert v.seats[1].captured and v.seats[1].detained
    idle(r, 3, 4, 5, 0)
    v = r.view(None)
    assert v.seats[1].captured and not v.seats[1].detained
    skips = [e.cause for e in v.log if e.kind == "skip" and e.seat == 1]
    assert skips == ["captured", "detained"]
    idle(r, 2, 3, 4, 5, 0)
    skips = [e.cause for e in r.view(None).log if e.kind == "skip" and e.seat == 1]
    assert skips == ["captured", "detained", "captured"]


def test_s_grd_2_exhausted_guard_still_blocks() -> None:
    """S-GRD-2 / S-TURN-3: exhaustion does not stop reactions."""
    r = deal("guard slave vizier sultan assassin slave", "slave", first=2)
    run(r, "2: manipulate loyalists 0", "0: detain 1", "1: pass")
    assert r.view(None).seats[0].exhausted
    idle(r, 3)
    run(r, "4: assassinate 5")
    assert r.legal(0) == ["pass", "block"]
    answer(r, {0: "block"})
    assert not r.view(None).seats[4].alive and r.view(None).seats[5].alive


def test_s_ftl_2_forced_with_nobody_hidden_foresees_nothing() -> None:
    """S-FTL-2: with k = 0 hidden seats the Fortune Teller's Foresee names no seat."""
    r = deal("vizier fortune-teller guard sultan slave", "assassin", first=2)
    run(r, "2: detain 3", "3: refuse", "3: peek 1", "4: revolt")
    answer(r)
    assert r.turn == 0
    run(r, "0: manipulate rebels 1")
    assert r.legal(1) == ["foresee"]
    run(r, "1: foresee", "1: predict rebels")
    v = r.view(None)
    assert v.seats[1].foreseen == () and v.seats[1].prediction == "rebels"


def test_s_sul_2_target_sultan_claims_inside_a_block_window() -> None:
    """S-SUL-2: a claim inside a window keeps the seat pending; the window goes on."""
    r = deal("assassin guard slave sultan slave slave", "guard")
    run(r, "0: assassinate 3", "3: claim")
    assert 3 in r.pending() and r.view(None).window is not None
    assert r.legal(3) == ["pass"]
    answer(r)
    out = r.outcome()
    assert out is not None and out.reason == "sultan-killed"
    assert r.view(None).crown is None  # the Sultan died: the crown went back (S-SUL-3)
    assert any(e.kind == "crown" and e.cause == "sultan-died" for e in r.view(None).log)


def test_s_react_2_window_waits_for_everyone_even_with_no_possible_reaction() -> None:
    """S-REACT-2: even when no seat can block, every living seat but the actor is asked."""
    r = deal("assassin slave slave sultan slave slave", "guard")
    run(r, "0: assassinate 4")
    assert r.pending() == {1, 2, 3, 4, 5}
    assert all(r.legal(s) in (["pass"], ["pass", "claim"]) for s in r.pending())


def test_s_turn_3_exhaustion_outlives_extra_turns_ruling() -> None:
    """S-TURN-3 / S-TURN-4 / S-DRV-2 (engine ruling): extra turns are not the seat's "next
    turn" for exhaustion; a manipulated Slave Driver that hides in its extra turn stays
    exhausted (face down) until its next regular turn, which allows no Action."""
    r = deal("vizier slave-driver slave sultan assassin slave guard", "guard")
    run(r, "0: manipulate loyalists 1", "1: capture 2", "1: hide")
    v = r.view(None)
    assert not v.seats[1].revealed and v.seats[1].exhausted and not v.seats[2].captured
    assert r.turn == 1
    assert not any(a.startswith("capture") for a in r.legal(1))
    run(r, "1: peek 3")
    assert not r.view(None).seats[1].exhausted


def test_s_sul_2_claim_on_own_turn_then_act() -> None:
    """S-SUL-2 / S-REACT-1: a hidden Sultan may claim on its own turn and still take it."""
    r = deal("slave guard slave sultan slave assassin", "slave")
    run(r, "0: revolt")
    answer(r)
    idle(r, 1, 2)
    run(r, "3: claim")
    assert r.pending() == {3} and r.view(None).crown == 3
    run(r, "3: execute 0")
    assert not r.view(None).seats[0].alive and r.turn == 4
