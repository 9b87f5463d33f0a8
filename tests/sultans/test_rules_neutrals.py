"""Neutral cards: S-DRV-1..3, S-DNC-1, S-VIZ-1..3, S-FTL-1..2 (with S-TURN-3/4/6)."""

from __future__ import annotations

import pytest

from engine.api import IllegalAction

from .rules_helpers import answer, deal, idle, run

# ------------------------------------------------------------ Slave Driver


def test_s_drv_2_capture_hidden_slave_gives_an_extra_turn() -> None:
    """S-DRV-2: Capture hidden on a Slave reveals and captures it; the Slave Driver takes
    an extra turn at once (a full turn, counted for the turn limit); turn order then
    resumes after the active seat."""
    r = deal("slave-driver slave guard slave sultan assassin slave", "slave")
    run(r, "0: capture 1")
    v = r.view(None)
    assert v.seats[1].revealed and v.seats[1].captured and v.seats[1].card == "slave"
    assert r.pending() == {0} and r.turn == 0 and v.extra_turn and v.turns_played == 2
    assert any(e.kind == "turn" and e.extra and e.seat == 0 for e in v.log)
    legal = r.legal(0)
    assert "capture 1" not in legal and "capture 3" in legal and "hide" in legal
    run(r, "0: capture 2")  # not a Slave: nothing revealed, the turn ends
    v = r.view(None)
    assert not v.seats[2].revealed
    assert any(e.kind == "not-slave" and e.target == 2 for e in v.log)
    for s in [None, 0, 3, 5]:
        assert any(n.seat == 2 and n.card == "slave" and n.negated for n in r.view(s).notes)
    assert r.turn == 2  # seat 1 is captured: skipped (S-DRV-3)
    assert any(e.kind == "skip" and e.seat == 1 and e.cause == "captured" for e in r.view(None).log)


def test_s_drv_2_capture_known_slave_no_extra_turn() -> None:
    """S-DRV-2: Capture known Slave puts a token on a revealed uncaptured Slave."""
    r = deal("slave-driver slave guard slave sultan assassin slave", "slave", first=1)
    run(r, "1: revolt")
    answer(r)
    idle(r, 2, 3, 4, 5, 6)
    assert "capture 1" in r.legal(0)
    run(r, "0: capture 1")
    assert r.view(None).seats[1].captured
    assert r.turn == 2  # no extra turn; seat 1 skipped


def test_s_drv_2_and_s_viz_2_manipulated_driver_extra_turn_exhausted_ends_bans() -> None:
    """S-DRV-2 / S-VIZ-2 / S-TURN-6: a manipulated Slave Driver's extra turn is played at
    once, exhausted, with the Vizier still active; it ends the driver's swap-back ban;
    then turn order resumes after the Vizier."""
    r = deal("vizier guard slave slave-driver sultan assassin slave", "slave", first=3)
    run(r, "3: swap 1")  # seat 1 now holds the Slave Driver and may not pick seat 3
    assert r.view(1).your_bans == (3,)
    idle(r, 4, 5, 6)
    run(r, "0: manipulate loyalists 1")
    assert r.pending() == {1}
    assert r.legal(1) == [f"capture {t}" for t in (2, 3, 4, 5, 6)]  # only Actions
    run(r, "1: capture 2")
    v = r.view(None)
    assert v.seats[2].captured and v.seats[1].exhausted
    assert r.turn == 0 and r.pending() == {1} and v.extra_turn
    legal = r.legal(1)
    assert not any(a.startswith("capture") for a in legal)  # exhausted
    assert "hide swap 3" not in legal and "hide swap 4" in legal  # still banned
    run(r, "1: peek 4")
    assert r.view(1).your_bans == ()  # the extra turn ended the ban
    assert r.turn == 1  # after the Vizier
    legal = r.legal(1)
    assert not any(a.startswith("capture") for a in legal)  # still exhausted: its next turn
    assert "hide swap 3" in legal
    run(r, "1: peek 4")
    assert not r.view(None).seats[1].exhausted


def test_s_drv_3_release_when_the_driver_hides_then_revolution() -> None:
    """S-DRV-3: captives are freed the moment the Slave Driver's card hides; S-SLV-3 is checked."""
    r = deal("slave-driver slave slave slave guard sultan assassin", "guard")
    run(r, "0: capture 2", "0: peek 4", "1: revolt")
    assert r.legal(2) == ["pass"]  # captured: cannot join
    answer(r, {3: "join"})
    assert r.outcome() is None  # 1, 2, 3 revealed, but 2 is captured
    idle(r, 3, 4, 5, 6)  # seat 2 skipped
    run(r, "0: hide")
    out = r.outcome()
    assert out is not None and out.reason == "revolution"
    assert any(e.kind == "release" and e.seats == (2,) and e.cause == "driver-hid" for e in r.view(None).log)


def test_s_drv_3_release_when_the_driver_dies() -> None:
    """S-DRV-3: captives are freed when the Slave Driver's card dies."""
    r = deal("slave-driver slave slave slave guard sultan assassin", "guard")
    run(r, "0: capture 2", "0: peek 4", "1: revolt")
    answer(r, {3: "join"})
    idle(r, 3, 4, 5)
    run(r, "6: assassinate 0")
    answer(r)
    out = r.outcome()
    assert out is not None and out.reason == "revolution"
    assert any(e.kind == "release" and e.cause == "driver-died" for e in r.view(None).log)


def test_s_drv_1_side_follows_state_in_scoring() -> None:
    """S-DRV-1: hidden Slave Driver = Rebel (scores 1 when the Rebels win)."""
    r = deal("assassin slave-driver slave sultan slave guard", "slave")
    run(r, "0: assassinate 3")
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.points[1] == 1


# ------------------------------------------------------------- Belly Dancer


def test_s_dnc_1_dance_only_while_hidden_and_sides() -> None:
    """S-DNC-1: Dance reveals and is legal only while hidden; hidden = Loyalist."""
    r = deal("belly-dancer guard assassin sultan slave slave", "slave")
    assert "dance" in r.legal(0)
    run(r, "0: dance")
    assert r.view(None).seats[0].revealed
    idle(r, 1, 2, 3, 4, 5)
    assert "dance" not in r.legal(0)
    r = deal("belly-dancer guard assassin sultan slave slave", "slave")
    run(r, "3: claim")  # the crown goes before seat 0
    idle(r, 0, 1, 2, 3, 4, 5)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "crown"
    assert out.points == {0: 1, 1: 1, 2: 0, 3: 2, 4: 0, 5: 0}


# ------------------------------------------------------------------ Vizier


def test_s_viz_2_forced_assassin_vizier_is_asked() -> None:
    """S-VIZ-2: the forced seat chooses its own target; it is the actor (not asked);
    the Vizier is asked like everyone else; afterwards the Vizier's turn ends."""
    r = deal("vizier guard assassin sultan slave slave slave", "slave")
    run(r, "0: manipulate rebels 2")
    v = r.view(None)
    assert v.seats[0].revealed and v.seats[0].declared == "rebels"
    assert v.seats[2].revealed and v.phase == "forced" and v.forced == 2
    assert r.legal(2) == [f"assassinate {t}" for t in (0, 1, 3, 4, 5, 6)]
    with pytest.raises(IllegalAction):
        r.play(2, "peek 3")
    run(r, "2: assassinate 0")
    assert r.pending() == {0, 1, 3, 4, 5, 6}
    kinds = [(e.kind, e.seat) for e in r.view(None).log]
    at = kinds.index(("assassinate", 2))  # "…; it is then exhausted": logged after the attack, not before
    assert kinds[at + 1] == ("exhausted", 2) and kinds.count(("exhausted", 2)) == 1
    assert r.legal(1) == ["pass", "block"]
    answer(r, {1: "block"})
    v = r.view(None)
    assert not v.seats[2].alive and v.seats[0].alive
    assert r.turn == 1


def test_s_viz_2_manipulated_sultan_crown_before_the_vizier() -> None:
    """S-VIZ-2 / S-SUL-3: a Sultan revealed by manipulation puts the crown before the
    Vizier; with no legal Action, revealing is the whole effect (then exhausted)."""
    r = deal("vizier guard assassin sultan slave slave", "slave")
    run(r, "0: manipulate loyalists 3")
    v = r.view(None)
    assert v.crown == 0 and v.seats[3].revealed and v.seats[3].exhausted
    assert r.turn == 1 and r.pending() == {1}
    idle(r, 1, 2)
    assert not any(a.startswith("execute") for a in r.legal(3))
    idle(r, 3, 4, 5)
    out = r.outcome()
    assert out is not None and out.reason == "crown"
    assert out.points[0] == 2  # the Vizier declared the winning side


def test_s_viz_2_forced_detention_refused_ends_the_vizier_turn() -> None:
    """S-VIZ-2: afterwards the Vizier's turn ends, also when a forced detention is refused."""
    r = deal("vizier guard assassin sultan slave guard", "slave")
    run(r, "0: manipulate loyalists 1", "1: detain 5", "5: refuse")
    assert r.turn == 1 and r.view(None).seats[1].exhausted
    assert not any(a.startswith("detain") for a in r.legal(1))


def test_s_viz_2_forced_slave_revolt_and_win_discards_the_rest() -> None:
    """S-VIZ-2 / S-SLV-2 / S-REACT-4: a manipulated Slave must call; the Vizier is asked
    in the Join window. A reveal that completes a revolution wins at once and the
    forced Action is discarded."""
    r = deal("vizier slave slave guard sultan assassin slave", "slave")
    run(r, "0: manipulate rebels 1")
    assert r.legal(1) == ["revolt"]
    run(r, "1: revolt")
    assert 0 in r.pending() and 1 not in r.pending()
    answer(r)
    r = deal("vizier slave slave slave sultan assassin guard", "guard", first=1)
    run(r, "1: revolt")
    answer(r, {3: "join"})
    idle(r, 2, 3, 4, 5, 6)
    run(r, "0: manipulate rebels 2")
    out = r.outcome()
    assert out is not None and out.reason == "revolution" and r.pending() == set()


def test_s_viz_2_target_must_be_hidden_living_not_detained() -> None:
    """S-VIZ-2 (Ruling): the target is a living, hidden, non-detained seat."""
    r = deal("guard vizier assassin sultan slave slave", "slave")
    run(r, "0: detain 3", "3: pass")
    legal = r.legal(1)
    assert "manipulate loyalists 3" not in legal  # detained
    assert "manipulate loyalists 0" not in legal  # revealed
    assert "manipulate rebels 2" in legal


def test_s_viz_3_declared_side_is_fixed_until_hiding() -> None:
    """S-VIZ-3: while revealed only ``manipulate <that side> N``; hiding clears it."""
    r = deal("vizier guard assassin sultan slave slave slave", "slave")
    run(r, "0: manipulate rebels 4", "4: revolt")
    answer(r)
    idle(r, 1, 2, 3, 4, 5, 6)
    legal = r.legal(0)
    assert any(a.startswith("manipulate rebels") for a in legal)
    assert not any(a.startswith("manipulate loyalists") for a in legal)
    run(r, "0: hide")
    assert r.view(None).seats[0].declared is None
    idle(r, 1, 2, 3, 4, 5, 6)
    legal = r.legal(0)
    assert any(a.startswith("manipulate loyalists") for a in legal)
    assert any(a.startswith("manipulate rebels") for a in legal)


def test_s_viz_1_hidden_vizier_next_to_a_two_point_seat() -> None:
    """S-VIZ-1: a hidden Vizier scores 1 when adjacent (over living seats) to a seat
    that scores 2; otherwise 0."""
    r = deal("assassin sultan vizier guard slave slave", "slave")
    run(r, "0: assassinate 1")
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "rebels"
    assert out.points[0] == 2 and out.points[2] == 1  # 1 is dead: 2's neighbour is 0
    r = deal("assassin sultan guard vizier slave slave", "slave")
    run(r, "0: assassinate 1")
    answer(r)
    out = r.outcome()
    assert out is not None and out.points[3] == 0  # neighbours 2 (Guard, 0) and 4 (hidden Slave, 1)


# --------------------------------------------------------- Fortune Teller


def test_s_ftl_2_foresee_predict_and_forced_hide() -> None:
    """S-FTL-2: exactly min(3, k) hidden seats; only she sees them, everyone sees which;
    then she predicts publicly with only her pending; next turn she must Swap/Hide."""
    r = deal("fortune-teller guard assassin sultan slave slave", "slave")
    foresee = [a for a in r.legal(0) if a.startswith("foresee")]
    assert len(foresee) == 10 and "foresee 1 2 3" in foresee  # C(5, 3)
    with pytest.raises(IllegalAction):
        r.play(0, "foresee 1 2")
    run(r, "0: foresee 3 1 2")
    assert r.pending() == {0}
    assert r.legal(0) == ["predict loyalists", "predict rebels"]
    assert "claim" in r.legal(3)
    mine = r.view(0)
    assert {(n.seat, n.card) for n in mine.notes} == {(1, "guard"), (2, "assassin"), (3, "sultan")}
    other = r.view(4)
    assert other.seats[0].foreseen == (1, 2, 3)
    assert not any(e.kind == "foresee-result" for e in other.log)
    run(r, "0: predict rebels")
    assert r.view(5).seats[0].prediction == "rebels"
    idle(r, 1, 2, 3, 4, 5)
    assert r.legal(0) == ["hide", "hide swap 1", "hide swap 2", "hide swap 3", "hide swap 4", "hide swap 5", "hide swap spare"]
    assert r.timeout_action(0) == "hide"
    run(r, "0: hide")
    v = r.view(None)
    assert v.seats[0].prediction is None and v.seats[0].foreseen == ()


def test_s_ftl_2_fewer_than_three_hidden_seats() -> None:
    """S-FTL-2: with k < 3 hidden seats she foresees exactly k (zero: bare ``foresee``)."""
    r = deal("guard fortune-teller slave sultan slave assassin", "slave", first=2)
    run(r, "2: revolt")
    answer(r, {4: "join"})
    run(r, "3: claim")
    idle(r, 3)
    run(r, "4: revolt")
    answer(r)
    run(r, "5: peek 1", "0: detain 3", "3: refuse")
    assert [a for a in r.legal(1) if a.startswith("foresee")] == ["foresee 5"]


def test_s_ftl_2_skipped_turn_lapses_the_forced_hide_prediction_stands() -> None:
    """S-FTL-2 / S-TURN-4: if her next turn is skipped the forced hide lapses and her
    prediction stands; a later Foresee replaces it."""
    r = deal("fortune-teller guard assassin sultan slave slave", "slave")
    run(r, "0: foresee 1 2 3", "0: predict loyalists", "1: detain 0", "0: pass")
    idle(r, 2, 3, 4, 5)
    assert r.turn == 1  # seat 0 skipped
    v = r.view(None)
    assert not v.seats[0].must_hide and v.seats[0].prediction == "loyalists"
    idle(r, 1, 2, 3, 4, 5)
    assert any(a.startswith("foresee") for a in r.legal(0))  # no forced hide any more
    run(r, "0: foresee 2 3 4", "0: predict rebels")
    assert r.view(None).seats[0].prediction == "rebels"


def test_s_ftl_2_forced_by_the_vizier() -> None:
    """S-FTL-2 / S-VIZ-2: forced, she chooses seats and prediction herself; exhaustion
    and forced hide fall on the same next turn."""
    r = deal("vizier fortune-teller guard sultan assassin slave slave", "slave")
    run(r, "0: manipulate loyalists 1")
    assert all(a.startswith("foresee") for a in r.legal(1))
    run(r, "1: foresee 2 3 4")
    assert r.pending() == {1} and r.turn == 0
    run(r, "1: predict rebels")
    assert r.turn == 1
    v = r.view(None)
    assert v.seats[1].exhausted and v.seats[1].must_hide
    assert all(a.startswith("hide") for a in r.legal(1))
    run(r, "1: hide")
    v = r.view(None)
    assert not v.seats[1].exhausted and not v.seats[1].must_hide


def test_s_ftl_1_and_s_score_1_neutral_scoring_rebel_win() -> None:
    """S-FTL-1 / S-SCORE-1 / S-VIZ-1 / S-DRV-1 / S-DNC-1: a revealed Fortune Teller with
    the right prediction scores 2; a hidden Vizier next to a 2-point seat 1; a hidden
    Slave Driver (Rebel) 1; a hidden Belly Dancer (Loyalist) 0."""
    r = deal("assassin sultan vizier guard fortune-teller belly-dancer slave-driver slave", "slave", first=4)
    run(r, "4: foresee 0 1 2", "4: predict rebels")
    idle(r, 5, 6, 7)
    run(r, "0: assassinate 1")
    answer(r)
    out = r.outcome()
    assert out is not None and out.winner == "rebels"
    assert out.points == {0: 2, 1: 0, 2: 1, 3: 0, 4: 2, 5: 0, 6: 1, 7: 1}


def test_s_ftl_1_and_s_score_1_neutral_scoring_loyalist_win() -> None:
    """S-SCORE-1: revealed Vizier of the winning side 2, revealed Belly Dancer (Rebel) 0,
    revealed Slave Driver (Loyalist) 2, revealed Fortune Teller right 2, hidden Teller 0;
    captured and detained seats score normally."""
    r = deal("vizier belly-dancer slave-driver sultan guard slave assassin fortune-teller", "slave")
    run(r, "0: manipulate loyalists 4", "4: detain 6", "6: pass", "1: dance", "2: capture 5", "2: peek 3")
    run(r, "3: claim")
    idle(r, 3, 4)  # seats 5 (captured) and 6 (detained) are skipped
    assert r.turn == 7
    run(r, "7: foresee 6", "7: predict loyalists")
    idle(r, 0, 1, 2)
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "crown"
    assert out.points == {0: 2, 1: 0, 2: 2, 3: 2, 4: 2, 5: 0, 6: 0, 7: 2}
