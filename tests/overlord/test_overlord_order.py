"""Scenario tests for the order phase (docs/rules/overlord.md section 3, K-ORD-*)."""

from __future__ import annotations

import pytest
from ovl_helpers import BASE4, close, events, go, kind, last, mk, settle

from engine.overlord import Game, OverlordIllegal
from engine.overlord.rules import RuleSet, load_ruleset

FULL = ["sidestep", "victimize", "capitalize", "extortion"]
# seat 1 is a Peasant with no gold (no role pass) unless a test says otherwise
PLAIN = ["overlord", "peasant", "squire", "knight"]


def base_game(**kw: object) -> Game:
    """4 players, full hands (nobody draws in round 1's draw), the Squire draws 1 at the phase start."""
    hands = kw.pop("hands", None) or [FULL, FULL, ["sidestep", "victimize"], FULL]
    gold = kw.pop("gold", None) or [5, 0, 5, 5]
    return mk(PLAIN, hands, gold, **kw)  # type: ignore[arg-type]


def test_k_ord_1_ruler_commands_any_other_living_player() -> None:
    """K-ORD-1: at the start of the phase the ruler gives the order (no card), clockwise from his left."""
    g = base_game()
    assert g.pending() == {0}
    assert kind(g) == "command"
    assert g.legal(0) == ["order 1", "order 2", "order 3"]
    assert g.timeout_action(0) == "order 1"  # K-TIME-1: the first legal seat clockwise
    go(g, "0: order 2")
    assert g.holder == 2 and g.holder_giver == 0
    assert g.path[-1].how == "command"


def test_k_ord_1_ruler_commands_again_after_holder_executed() -> None:
    """K-ORD-1 / K-ORD-8 (3): the holder was executed, the ruler gives the order again."""
    g = base_game()
    go(g, "0: order 1", "1: die")
    assert g.pending() == {0} and kind(g) == "command"
    assert g.legal(0) == ["order 2", "order 3"]  # the dead cannot be targeted (K-ORD-7)


def test_k_ord_1_ruling_tax_collector_only_target_and_ruler_poor() -> None:
    """K-ORD-1 Ruling: if only the Tax Collector can be commanded and the ruler is short, he is commanded anyway."""
    g = mk(["overlord", "taxcollector", "squire", "peasant"], [FULL, FULL, ["sidestep"], FULL], gold=[1, 5, 5, 5])
    # the ruler cannot afford the fee, so while others live the Tax Collector is no target
    assert g.legal(0) == ["order 2", "order 3"]
    go(g, "0: order 2", "2: die", "0: order 3", "3: die")
    assert g.legal(0) == ["order 1"]
    go(g, "0: order 1")
    fee = last(g, "gold")
    assert fee.params == {"src": 0, "dst": 1, "gold": 1, "why": "fee"}
    assert g.gold[0] == 0 and g.gold[1] == 6


def test_k_ord_2_squire_draws_and_merchant_trades_at_phase_start() -> None:
    """K-ORD-2: the Squire draws 1 (above his limit), then the ruler commands."""
    g = base_game()
    assert len(g.hands[2]) == 3  # limit 2, drew 1 at the start of the order phase
    draws = [e.params for e in events(g, "draw") if e.params["why"] == "squire"]
    assert draws == [{"seat": 2, "count": 1, "why": "squire"}]
    # the Merchant (rank 3 like the Squire) may trade instead
    g2 = mk(["overlord", "captain", "merchant", "peasant"], [FULL, FULL, FULL, FULL])
    assert kind(g2) == "gift" and g2.pending() == {2}
    assert g2.legal(2)[0] == "pass"


def test_k_ord_3_holder_options_and_die_always_last() -> None:
    """K-ORD-3: shield cards with a legal target, role pass, desperation only without shields, die last."""
    g = base_game(hands=[FULL, ["sidestep", "retaliate", "plead-guilty", "martyrdom"], ["sidestep", "victimize"], FULL])
    go(g, "0: order 1")
    settle(g)
    opts = g.legal(1)
    assert opts[-1] == "die"
    assert "play sidestep 0" in opts and "play sidestep 3" in opts
    assert not any(o.startswith("play martyrdom") for o in opts)  # holds a shield card
    assert "retaliate" not in opts and "plead-guilty" not in opts  # reactions, never the holder's action
    # without any shield card the desperation card is playable
    g2 = base_game(hands=[FULL, ["retaliate", "martyrdom", "retaliate", "plead-guilty"], ["sidestep", "victimize"], FULL])
    go(g2, "0: order 1")
    settle(g2)
    assert g2.legal(1) == ["play martyrdom", "die"]


def test_k_ord_3_desperation_blocked_by_unplayable_shield() -> None:
    """K-ORD-3 (c): holding a shield card, even one with no legal target, forbids desperation cards."""
    # Revolt needs a rank differing by exactly 1: the Captain (5) has no rank 4 or 6 around
    g = mk(BASE4, [FULL, ["revolt", "martyrdom", "retaliate", "retaliate"], ["sidestep", "victimize"], FULL])
    go(g, "0: order 1")
    settle(g)
    assert g.legal(1) == ["die"]


def test_k_ord_3_die_is_always_legal_and_never_automatic() -> None:
    """K-ORD-3 (d): a holder with nothing playable is asked, not executed by the engine."""
    g = base_game(hands=[FULL, ["retaliate"] * 4, ["sidestep", "victimize"], FULL])
    go(g, "0: order 1")
    settle(g)
    assert g.pending() == {1} and g.legal(1) == ["die"]
    assert g.alive[1]


def test_k_ord_4_retaliate_cancels_and_holder_acts_again() -> None:
    """K-ORD-4: a standing Retaliate cancels the card; the holder acts again, no Plead Guilty window."""
    g = base_game(hands=[FULL, FULL, ["sidestep", "victimize"], ["retaliate", "sidestep", "sidestep", "sidestep"]])
    go(g, "0: order 1", "1: play capitalize 3")
    assert kind(g) == "retaliate"
    go(g, "3: retaliate")
    settle(g)
    assert g.holder == 1 and kind(g) == "turn" and g.pending() == {1}
    assert "capitalize" in g.discard and "retaliate" in g.discard
    assert g.gold[1] == 0  # no effect, no gain
    assert [e.params["card"] for e in events(g, "cancelled")] == ["capitalize"]


def test_k_ord_4_chain_resolves_last_in_first_out() -> None:
    """K-ORD-4: Retaliate on Retaliate: the top stands, cancels the one below, so the card stands."""
    g = base_game(hands=[FULL, ["retaliate", "capitalize", "sidestep", "sidestep"], ["sidestep", "victimize"],
                         ["retaliate", "sidestep", "sidestep", "sidestep"]])
    go(g, "0: order 1", "1: play capitalize 3", "3: retaliate")
    close(g)
    p = g.prompt()
    assert p is not None and p.actor == 3 and p.seats == [0, 1, 2]  # everyone but the Retaliate's player
    go(g, "1: retaliate")
    settle(g)
    assert g.holder == 3  # the Capitalize stood
    assert g.gold[1] == 2
    assert [e.params["seat"] for e in events(g, "cancelled")] == [3]


def test_k_ord_4_cancelled_plead_guilty_leaves_the_order() -> None:
    """K-ORD-4: if a Plead Guilty is cancelled the order stays where it was (Ruling: the holder then acts)."""
    g = base_game(hands=[["retaliate", "sidestep", "sidestep", "sidestep"], FULL, ["sidestep", "victimize"],
                         ["plead-guilty", "sidestep", "sidestep", "sidestep"]])
    go(g, "0: order 1", "3: plead-guilty")
    close(g)
    go(g, "0: retaliate")
    settle(g)
    assert g.holder == 1 and kind(g) == "turn"
    assert "plead-guilty" in g.discard


def test_k_ord_5_plead_window_asks_everyone_but_holder_first_clockwise_plays() -> None:
    """K-ORD-5: every living player but the holder is asked, whatever they hold; the first clockwise plays."""
    plead = ["plead-guilty", "sidestep", "sidestep", "sidestep"]
    g = base_game(hands=[plead, FULL, ["sidestep", "victimize"], plead])
    go(g, "0: order 1")
    p = g.prompt()
    assert p is not None and p.kind == "plead" and p.seats == [2, 3, 0]
    assert g.pending() == {0, 2, 3}
    assert g.legal(2) == ["pass"]  # asked although he holds no Plead Guilty
    assert g.legal(3) == ["pass", "plead-guilty"]
    g.play(0, "plead-guilty")
    g.play(3, "plead-guilty")
    assert kind(g) == "plead"  # still waiting for seat 2
    g.play(2, "pass")
    # seat 3 is first clockwise from the left of the holder (seat 1): he plays, seat 0 keeps his card
    assert kind(g) == "retaliate"
    assert "plead-guilty" in g.hands[0] and "plead-guilty" not in g.hands[3]


def test_k_ord_5_retaliate_window_asks_everyone_but_card_player() -> None:
    """K-ORD-5: the Retaliate window asks every living player except the card's player."""
    g = base_game()
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    p = g.prompt()
    assert p is not None and p.kind == "retaliate" and p.seats == [2, 3, 0] and p.card == "sidestep"
    assert all(g.legal(s) == ["pass"] for s in (0, 2, 3))


def test_k_ord_6_plead_guilty_takes_order_draws_and_gains() -> None:
    """K-ORD-6: a standing Plead Guilty: the pleader takes the order, draws 1, takes 1; a new window opens."""
    g = base_game(hands=[FULL, FULL, ["sidestep", "victimize"], ["plead-guilty", "sidestep", "sidestep", "sidestep"]])
    go(g, "0: order 1", "3: plead-guilty")
    close(g)
    assert kind(g) == "retaliate"
    close(g)
    assert g.holder == 3 and g.holder_giver is None
    assert g.gold[3] == 6 and len(g.hands[3]) == 4
    p = g.prompt()
    assert p is not None and p.kind == "plead" and p.actor == 3 and p.seats == [0, 1, 2]


def test_k_ord_6_transfer_steps_in_order() -> None:
    """K-ORD-6: (2) the fee, (3) the order moves, (4) the card's effects, (5) triggers, (6) the Plead window."""
    g = mk(["overlord", "general", "taxcollector", "peasant"], [FULL, FULL, FULL, FULL])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play capitalize 2")
    close(g)
    kinds = [e.kind for e in g.events if e.kind in ("gold", "order", "gain")][-3:]
    assert kinds == ["gold", "order", "gain"]  # fee, move, Capitalize +2
    assert kind(g) == "plead" and g.holder == 2
    assert g.gold[1] == 5 - 2 + 2 and g.gold[2] == 7
    assert g.view(None).chain == [] and g.discard[-1] == "capitalize"  # resolved before the window
    # the Captain's trigger comes after the card's own effect (Victimize: the receiver discards first)
    g2 = mk(BASE4, [FULL, FULL, ["sidestep", "victimize"], FULL])
    go(g2, "0: order 1")
    settle(g2)
    go(g2, "1: play victimize 2")
    close(g2)
    assert kind(g2) == "victimize" and g2.pending() == {2}
    go(g2, "2: discard victimize")
    assert kind(g2) == "captain" and g2.pending() == {2}
    go(g2, "2: discard sidestep")
    assert kind(g2) == "plead"
    assert [e.params["why"] for e in events(g2, "discard")] == ["victimize", "captain"]


def test_k_ord_7_execution_tokens_and_killer() -> None:
    """K-ORD-7: lowest free token, role to the centre, hand and gold kept, killer = who gave the order."""
    g = base_game()
    go(g, "0: order 1", "1: die")
    ex = last(g, "execute")
    assert ex.params == {"seat": 1, "token": 1, "role": "peasant", "killer": 0}
    assert g.view(None).centre == ["peasant"]
    assert len(g.hands[1]) == 4 and g.gold[1] == 0
    go(g, "0: order 2")
    settle(g)
    go(g, "2: die")
    assert last(g, "execute").params["token"] == 2


def test_k_ord_7_plead_guilty_holder_has_no_killer() -> None:
    """K-ORD-7: a player holding the order by Plead Guilty has no killer."""
    g = base_game(hands=[FULL, FULL, ["sidestep", "victimize"], ["plead-guilty", "sidestep", "sidestep", "sidestep"]])
    go(g, "0: order 1", "3: plead-guilty")
    settle(g)
    go(g, "3: die")
    assert last(g, "execute").params["killer"] is None


def test_k_ord_8_overlord_death_ends_the_phase() -> None:
    """K-ORD-8 (1): once a player who held rank 8 dies, the phase ends (then K-RND-6)."""
    g = base_game()
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    settle(g)
    go(g, "0: die")
    assert last(g, "order-phase-end").params["why"] == "rank-8-died"
    assert g.round == 2


def test_k_ord_8_only_ruler_alive_wins() -> None:
    """K-ORD-8 (2): if only the ruler is alive, the ruler wins the game."""
    g = base_game()
    go(g, "0: order 1", "1: die", "0: order 2", "2: die", "0: order 3", "3: die")
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.reason == "last-alive"
    assert g.is_over() and g.winners() == [0] and g.pending() == set()
    with pytest.raises(OverlordIllegal):
        g.play(0, "order 1")


def test_k_ord_9_distance_skips_the_dead_and_never_lands_on_self() -> None:
    """K-ORD-9: counts skip dead seats; a count landing on yourself is no target."""
    roles = ["overlord", "general", "captain", "squire", "peasant"]
    g = mk(roles, [FULL, FULL, FULL, ["sidestep", "victimize"], FULL])
    go(g, "0: order 3", "3: die", "0: order 2")
    settle(g)
    # Victimize goes 1-2 seats to the left: seat 3 is dead, so seats 4 and 0
    assert [o for o in g.legal(2) if o.startswith("play victimize")] == ["play victimize 4", "play victimize 0"]
    # Sidestep goes 1-2 seats to the right: seats 1 and 0
    assert [o for o in g.shield_targets(2, "sidestep")] == [0, 1]
    # with two living players, "2 seats away" lands on yourself
    g2 = mk(BASE4, [FULL, FULL, ["sidestep", "victimize"], FULL])
    go(g2, "0: order 1", "1: die", "0: order 2", "2: die", "0: order 3")
    settle(g2)
    assert g2.shield_targets(3, "capitalize") == []
    assert g2.shield_targets(3, "sidestep") == [0]


def test_k_ord_9_anyone_may_pass_to_the_ruler_who_acts_like_any_holder() -> None:
    """K-ORD-9: the ruler is a legal target and, holding the order, acts like any holder."""
    g = base_game()
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    settle(g)
    assert g.holder == 0 and kind(g) == "turn"
    assert "play sidestep 3" in g.legal(0)


def _capped(cap: int) -> RuleSet:
    data = load_ruleset().model_dump()
    data["transfer_cap"] = cap
    return RuleSet.model_validate(data)


def test_k_ord_10_transfer_cap_ends_the_phase_without_reshuffling_roles() -> None:
    """K-ORD-10: at the cap the phase ends at once, nobody else dies, roles are not reshuffled."""
    assert load_ruleset().transfer_cap == 300
    g = base_game(ruleset=_capped(3))
    go(g, "0: order 1")  # transfer 1
    settle(g)
    go(g, "1: play sidestep 0")  # transfer 2
    settle(g)
    roles = list(g.roles)
    go(g, "0: play sidestep 3")  # transfer 3: the cap
    settle(g)
    assert last(g, "order-phase-end").params["why"] == "transfer-cap"
    assert g.round == 2 and g.roles == roles and all(g.alive)
    assert g.card_count() == g.total_cards
