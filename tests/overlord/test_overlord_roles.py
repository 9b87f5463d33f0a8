"""Scenario tests for the roles (docs/rules/overlord.md section 1: K-ROLE-*, K-XROLE-*)."""

from __future__ import annotations

from ovl_helpers import FILL, RET, capped, close, events, go, kind, last, mk, settle

from engine.overlord import Game
from engine.overlord.rules import load_ruleset


def test_k_role_1_ranks_and_incomes_are_data() -> None:
    """K-ROLE-1: each role has a rank and an income (rule set data); income paid from round 2."""
    rs = load_ruleset()
    table = {r.id: (r.rank, r.income) for r in rs.roles if not r.expansion}
    assert table == {"overlord": (8, 6), "advisor": (7, 5), "general": (6, 4), "captain": (5, 3),
                     "knight": (4, 2), "squire": (3, 1), "peasant": (2, 0), "truant": (1, -1)}
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, FILL, ["sidestep"] * 2, FILL], ruleset=capped(1))
    go(g, "0: order 1")  # the cap of 1 ends the phase at once: round 2
    settle(g)
    assert g.round == 2
    assert [(e.params["seat"], e.params["gold"]) for e in events(g, "gain") if e.params["why"] == "income"] == [
        (0, 6), (1, 3), (2, 1)]


def test_k_role_overlord_gives_the_order() -> None:
    """K-ROLE-OVERLORD: the rank-8 role gives the order."""
    g = mk(["peasant", "squire", "overlord", "captain"], [FILL, ["sidestep"] * 2, FILL, FILL])
    assert g.pending() == {2} and g.legal(2) == ["order 3", "order 0", "order 1"]


def test_k_role_advisor_ignores_revenge_and_uprising_keeps_role_in_revolution() -> None:
    """K-ROLE-ADVISOR: another's Revenge and Uprising never execute him; he may sit out a Revolution."""
    roles = ["overlord", "peasant", "squire", "advisor"]
    # Revenge: the Advisor gave the order to the Peasant, who takes revenge: only the Peasant dies
    g = mk(roles, [FILL, ["revenge", *RET[:3]], ["sidestep"] * 2, FILL], gold=[5, 0, 5, 5])
    go(g, "0: order 3")
    settle(g)
    go(g, "3: play sidestep 1")  # 2 seats to the Advisor's right
    settle(g)
    go(g, "1: play revenge")
    close(g)
    assert [e.params["seat"] for e in events(g, "execute")] == [1]
    assert last(g, "advisor-ignores").params == {"seat": 3, "card": "revenge"}
    # Revolution: he answers ignore and keeps his role
    g2 = mk(roles, [FILL, ["revolution", *RET[:3]], ["sidestep"] * 2, FILL], gold=[5, 0, 5, 5], seed=1)
    go(g2, "0: order 1")
    settle(g2)
    go(g2, "1: play revolution")
    close(g2)
    assert kind(g2) == "advisor" and g2.pending() == {3} and g2.legal(3) == ["pass", "ignore"]
    go(g2, "3: ignore")
    rev = last(g2, "revolution")
    assert rev.params["roles"][3] == "advisor"  # type: ignore[index]
    # Retaliate still cancels his cards; Plead Guilty still takes the order from him
    g3 = mk(roles, [FILL, ["plead-guilty", *RET[:3]], ["sidestep"] * 2, ["capitalize", *FILL[:3]]],
            gold=[5, 0, 5, 5])
    go(g3, "0: order 3", "1: plead-guilty")
    settle(g3)
    assert g3.holder == 1


def test_k_role_advisor_named_by_uprising_is_not_executed() -> None:
    """K-ROLE-ADVISOR: an Uprising naming the Advisor never executes him."""
    roles = ["overlord", "peasant", "squire", "advisor"]
    g = mk(roles, [["plead-guilty", "sidestep", "sidestep", "sidestep"], ["uprising", *RET[:3]], ["sidestep"] * 2,
                   ["victimize", "sidestep", "sidestep", "sidestep"]], gold=[5, 0, 5, 5])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play uprising 3")
    settle(g)
    go(g, "3: play victimize 0")  # the Overlord must discard
    close(g)
    assert kind(g) == "victimize"
    go(g, "0: discard plead-guilty")  # a book card while holding a shield: the named player would die
    assert last(g, "advisor-ignores").params == {"seat": 3, "card": "uprising"}
    assert all(g.alive) and g.uprising is None


def test_k_role_general_any_target_direction_and_revolt() -> None:
    """K-ROLE-GENERAL: a shield card to any other living player; Conspire with a direction; Revolt swaps
    only when the ranks differ by exactly 1."""
    roles = ["overlord", "general", "captain", "squire", "peasant"]
    g = mk(roles, [FILL, ["sidestep", "conspire", "revolt", "retaliate"], FILL, ["sidestep"] * 2, FILL])
    go(g, "0: order 1")
    settle(g)
    opts = g.legal(1)
    assert [o for o in opts if o.startswith("play sidestep")] == [
        "play sidestep 2", "play sidestep 3", "play sidestep 4", "play sidestep 0"]
    assert "play conspire 3 left" in opts and "play conspire 3 right" in opts
    assert "play conspire 3" not in opts
    go(g, "1: play revolt 4")  # Peasant rank 2, General 6: no swap
    close(g)
    assert last(g, "revolt").params["swapped"] is False
    assert g.roles[1] == "general" and g.holder == 4


def test_k_role_captain_receiver_discards_but_not_the_knight() -> None:
    """K-ROLE-CAPTAIN: whoever he gives the order to discards a card of their choice (not the Knight)."""
    roles = ["overlord", "captain", "squire", "knight"]
    g = mk(roles, [FILL, ["capitalize", "sidestep", "sidestep", "sidestep"], ["sidestep"] * 2, FILL])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play capitalize 3")  # to the Knight: no discard
    close(g)
    assert kind(g) == "plead" and len(g.hands[3]) == 4
    # the log says why the Captain took nothing (the discard was silently skipped)
    assert last(g, "protected").params == {"seat": 3, "role": "captain"}
    g2 = mk(roles, [FILL, ["sidestep", "sidestep", "sidestep", "sidestep"], ["sidestep"] * 2, FILL])
    go(g2, "0: order 1")
    settle(g2)
    go(g2, "1: play sidestep 0")
    close(g2)
    assert kind(g2) == "captain" and g2.pending() == {0}
    go(g2, "0: discard sidestep")
    assert len(g2.hands[0]) == 3


def test_k_role_captain_receiver_with_no_card_is_logged() -> None:
    """K-ROLE-CAPTAIN: a receiver with no card discards nothing, and the log says
    so (it said nothing, and the Captain's power read as forgotten)."""
    roles = ["overlord", "captain", "peasant", "squire"]
    g = mk(roles, [FILL, ["capitalize", "sidestep", "sidestep", "sidestep"], ["sidestep"] * 2, []], deck=[])  # no draws
    go(g, "0: order 1")
    settle(g)
    assert g.hands[3] == []
    go(g, "1: play capitalize 3")
    close(g)
    assert last(g, "no-discard").params == {"seat": 3, "why": "captain"}
    assert kind(g) != "captain"


def test_k_role_knight_nobody_takes_from_him() -> None:
    """K-ROLE-KNIGHT: Coercion -> treasury; Victimize, Extortion take nothing; Conspire: he gives nothing."""
    roles = ["overlord", "peasant", "squire", "knight"]
    hand = ["coercion", "victimize", "extortion", "conspire"]
    for card in ("victimize", "extortion"):
        g = mk(roles, [FILL, hand, ["sidestep"] * 2, FILL], gold=[5, 0, 5, 5])
        go(g, "0: order 1")
        settle(g)
        go(g, f"1: play {card} 3")
        close(g)
        assert kind(g) == "plead", card
        assert len(g.hands[3]) == 4 and g.gold[3] == 5 and g.gold[1] == 0, card
        assert last(g, "protected").params == {"seat": 3, "card": card}
    # Coercion against the Knight resolves as the treasury option, without asking him
    g2 = mk(["overlord", "knight", "squire", "peasant"], [["coercion", *RET[:3]], FILL, ["sidestep"] * 2, FILL])
    go(g2, "0: order 2")
    settle(g2)
    go(g2, "2: play sidestep 0")
    settle(g2)
    go(g2, "0: play coercion 1")
    close(g2)
    assert last(g2, "choose-gold").params == {"seat": 1, "auto": True}
    assert g2.gold[0] == 7 and kind(g2) == "plead"
    # Conspire: the Knight gives nothing but still receives
    g3 = mk(["overlord", "knight", "squire", "peasant"], [["conspire", *RET[:3]], FILL, ["sidestep"] * 2, FILL])
    go(g3, "0: order 2")
    settle(g3)
    go(g3, "2: play sidestep 0")
    settle(g3)
    go(g3, "0: play conspire 1")
    close(g3)
    p = g3.prompt()
    assert p is not None and p.kind == "conspire" and 1 not in p.seats
    go(g3, "0: give retaliate", "2: give sidestep", "3: give sidestep")
    assert len(g3.hands[1]) == 5  # received from seat 0, gave nothing


def test_k_role_knight_never_pays_the_tax_collector() -> None:
    """K-ROLE-KNIGHT: he never pays the Tax Collector, so the Tax Collector is always his legal target."""
    g = mk(["overlord", "knight", "taxcollector", "squire"], [FILL, ["victimize"] * 4, FILL, ["sidestep"] * 2],
           gold=[5, 0, 5, 5])
    go(g, "0: order 1")
    settle(g)
    assert g.legal(1) == ["play victimize 2", "play victimize 3", "die"]
    go(g, "1: play victimize 2")
    close(g)
    assert g.gold[1] == 0 and g.gold[2] == 5
    assert last(g, "protected").params == {"seat": 1, "role": "taxcollector"}  # the log says why no fee


def test_k_role_squire_limit_two_and_draws_at_phase_start() -> None:
    """K-ROLE-SQUIRE: hand limit 2 in the draw; draws 1 at every order phase start, above the limit."""
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, FILL, [], FILL])
    draws = [(e.params["seat"], e.params["count"], e.params["why"]) for e in events(g, "draw")]
    assert (2, 2, "round") in draws and (2, 1, "squire") in draws
    assert len(g.hands[2]) == 3


def test_k_role_peasant_pays_one_gold_to_pass() -> None:
    """K-ROLE-PEASANT: may pass the order to any other living player by paying that player 1 gold."""
    g = mk(["overlord", "peasant", "squire", "captain"], [FILL, RET, ["sidestep"] * 2, FILL])
    go(g, "0: order 1")
    settle(g)
    assert [o for o in g.legal(1) if o.startswith("pay")] == ["pay 2", "pay 3", "pay 0"]
    go(g, "1: pay 3")
    assert g.gold[1] == 4 and g.gold[3] == 6 and g.holder == 3
    assert g.path[-1].how == "pay" and kind(g) == "plead"  # no card: no Retaliate window


def test_k_role_truant_pays_ruler_and_may_draw() -> None:
    """K-ROLE-TRUANT: pays 1 to the ruler at income; may draw when the giver holds more cards."""
    roles = ["overlord", "captain", "squire", "peasant", "general", "knight", "truant"]
    hands = [FILL, FILL, ["sidestep"] * 2, FILL, FILL, FILL, []]
    g = mk(roles, hands, deck=["capitalize"] * 40)
    # the Truant drew 2 in the draw; the ruler (4 cards) commands him
    go(g, "0: order 6")
    assert kind(g) == "truant" and g.legal(6) == ["pass", "draw"]
    go(g, "6: draw")
    assert len(g.hands[6]) == 3
    g2 = mk(roles, hands, ruleset=capped(1), deck=["capitalize"] * 40)
    go(g2, "0: order 1")
    settle(g2)
    assert g2.round == 2
    inc = [e.params for e in events(g2, "gold") if e.params["why"] == "income"]
    assert inc == [{"src": 6, "dst": 0, "gold": 1, "why": "income"}]


def test_k_xrole_1_expansion_roles_replace_ranks_in_play() -> None:
    """K-XROLE-1: expansion roles replace the base role of their rank, only for ranks in play."""
    rs = load_ruleset()
    assert rs.role_set(4, [8, 7]) == ["tyrant", "captain", "squire", "peasant"]
    assert rs.role_set(8, list(range(1, 9))) == [
        "tyrant", "executioner", "soothsayer", "taxcollector", "bureaucrat", "merchant", "actor", "outlaw"]
    g = Game.random(5, 7, expansion_ranks=[6, 1])
    assert sorted(g.roles) == sorted(["overlord", "soothsayer", "captain", "squire", "peasant"])


def test_k_xrole_tyrant_levy() -> None:
    """K-XROLE-TYRANT: at round start takes up to 4 gold in total, never more than a player has, not from the Knight."""
    g = mk(["tyrant", "knight", "squire", "peasant"], [FILL, FILL, ["sidestep"] * 2, FILL], gold=[5, 5, 1, 5])
    assert kind(g) == "levy" and g.pending() == {0}
    opts = g.legal(0)
    assert opts[0] == "pass"
    assert "levy 2:1 3:3" in opts and "levy 3:4" in opts
    assert not any("1:" in o for o in opts)  # never from the Knight
    assert "levy 2:2 3:2" not in opts  # seat 2 has only 1
    assert all(sum(int(x.split(":")[1]) for x in o.split()[1:]) <= 4 for o in opts[1:])
    assert not g.is_window()  # his own decision, on the turn timer: a levy is put together seat by seat
    go(g, "0: levy 2:1 3:3")
    assert g.gold == [9, 5, 0, 2]
    assert kind(g) == "command" and g.pending() == {0}  # he gives the order like the Overlord
    assert not g.is_window()


def test_windows_that_react_are_timed_as_windows_and_own_decisions_as_turns() -> None:
    """K-TIME-1: the room times a reaction window with its reaction timer and a
    player's own decision with the turn timer (the Tyrant had 5 s of a reaction
    timer to put his levy together)."""
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, ["capitalize", *FILL[:3]], ["sidestep"] * 2, FILL])
    assert kind(g) == "command" and not g.is_window()
    go(g, "0: order 1")
    assert kind(g) in ("retaliate", "plead") and g.is_window()  # everyone may answer
    settle(g)
    assert g.pending() == {1} and not g.is_window()  # the holder's turn


def test_k_xrole_executioner_substitutes_a_cancelled_book_card() -> None:
    """K-XROLE-EXECUTIONER (Ruling): a cancelled book card of his returns to hand; he discards another."""
    roles = ["overlord", "executioner", "squire", "peasant"]
    g2 = mk(roles, [["capitalize", *RET[:3]], ["retaliate", "sidestep", "sidestep", "extortion"], ["sidestep"] * 2,
                    ["retaliate", *FILL[:3]]])
    go(g2, "0: order 3")
    settle(g2)
    go(g2, "3: play sidestep 2", "1: retaliate")  # the Executioner retaliates the Peasant's Sidestep
    close(g2)
    go(g2, "3: retaliate")  # ... and the Peasant retaliates back
    settle(g2)
    assert kind(g2) == "substitute" and g2.pending() == {1}
    assert g2.legal(1) == ["pass", "substitute sidestep", "substitute extortion"]
    go(g2, "1: substitute extortion")
    assert "retaliate" in g2.hands[1] and "extortion" not in g2.hands[1]
    assert last(g2, "substitute").params == {"seat": 1, "card": "extortion", "returned": "retaliate"}
    assert g2.card_count() == g2.total_cards


def test_k_xrole_soothsayer_shows_a_hand_marked_stale() -> None:
    """K-XROLE-SOOTHSAYER: after the draw he may make one player show their hand to all; stale once changed."""
    g = mk(["overlord", "soothsayer", "squire", "peasant"], [FILL, FILL, ["victimize", "sidestep"], FILL])
    assert kind(g) == "show" and g.legal(1) == ["pass", "show 2", "show 3", "show 0"]
    go(g, "1: show 3")
    assert last(g, "show").params == {"seat": 1, "target": 3, "cards": FILL}
    sh = g.view(0).seats[3].shown
    assert sh is not None and sh.cards == FILL and not sh.stale
    go(g, "0: order 3")
    settle(g)
    go(g, "3: play sidestep 2")
    sh = g.view(None).seats[3].shown
    assert sh is not None and sh.stale and sh.cards == FILL


def test_k_xrole_taxcollector_fee_and_affordability() -> None:
    """K-XROLE-TAXCOLLECTOR: a transfer to him costs the giver 2 gold (3 for a Peasant pass); -1 income."""
    roles = ["overlord", "peasant", "taxcollector", "squire"]
    hands = [FILL, ["sidestep", *RET[:3]], FILL, ["sidestep"] * 2]
    g = mk(roles, hands, gold=[5, 2, 5, 5])
    go(g, "0: order 1")
    settle(g)
    assert "pay 2" not in g.legal(1) and "pay 3" in g.legal(1)  # 1 + 2 needed
    g = mk(roles, hands, gold=[5, 3, 5, 5])
    go(g, "0: order 1")
    settle(g)
    assert "pay 2" in g.legal(1)
    go(g, "1: pay 2")
    assert g.gold[1] == 0 and g.gold[2] == 5 + 1 + 2
    rs = load_ruleset()
    assert rs.role("taxcollector").income == -1 and rs.role("taxcollector").income_to == "treasury"


def test_k_xrole_taxcollector_cancelled_card_pays_nothing() -> None:
    """K-XROLE-TAXCOLLECTOR: a cancelled card pays nothing."""
    roles = ["overlord", "peasant", "squire", "taxcollector"]
    g = mk(roles, [RET, ["sidestep", *RET[:3]], ["sidestep"] * 2, FILL], gold=[5, 2, 5, 5])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 3", "0: retaliate")
    settle(g)
    assert g.gold[1] == 2 and g.gold[3] == 5 and g.holder == 1


def test_k_xrole_bureaucrat_names_a_card() -> None:
    """K-XROLE-BUREAUCRAT: all but the Knight discard every copy, publicly; nobody may play it this round."""
    roles = ["overlord", "bureaucrat", "squire", "peasant"]
    g = mk(roles, [["sidestep", "capitalize", "capitalize", "sidestep"], FILL, ["sidestep", "retaliate"],
                   ["retaliate", "capitalize", "sidestep", "sidestep"]], deck=["retaliate"] * 20)
    assert kind(g) == "name" and g.legal(1)[0] == "pass"
    go(g, "1: name sidestep")
    assert g.banned == "sidestep"
    assert all("sidestep" not in h for h in g.hands)
    assert g.discard.count("sidestep") == 9
    go(g, "0: order 3")
    settle(g)
    assert not any("sidestep" in o for o in g.legal(3))


def test_k_xrole_merchant_no_limit_and_gift() -> None:
    """K-XROLE-MERCHANT: draws 2 whatever his hand; at the phase start may give 2 gold, then draws 2."""
    roles = ["overlord", "captain", "merchant", "peasant"]
    g = mk(roles, [FILL, FILL, FILL, FILL])
    assert len(g.hands[2]) == 6  # no hand limit: drew 2 in the draw
    assert kind(g) == "gift" and g.legal(2) == ["pass", "gift 3", "gift 0", "gift 1"]
    go(g, "2: gift 0")
    assert g.gold[2] == 3 and g.gold[0] == 7 and len(g.hands[2]) == 8
    g2 = mk(roles, [FILL, FILL, FILL, FILL], gold=[5, 5, 1, 5])
    assert g2.legal(2) == ["pass"]  # K-CARD-1: he cannot pay 2


def test_k_xrole_actor_takes_victims_role() -> None:
    """K-XROLE-ACTOR: when he is the killer, he takes the victim's role and leaves the Actor in the centre."""
    roles = ["overlord", "actor", "squire", "captain"]
    g = mk(roles, [FILL, FILL, ["sidestep"] * 2, FILL])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    settle(g)
    go(g, "0: die")  # killed by the Actor
    assert last(g, "actor").params == {"seat": 1, "role": "overlord", "victim": 0}
    # phase over (rank 8 died); in the exchange the Actor kept the Overlord role
    assert g.roles[1] == "overlord"


def test_k_xrole_outlaw_discard_pass_and_killer_triggers() -> None:
    """K-XROLE-OUTLAW: passes by discarding any card; as killer takes up to 5 gold; his killer takes 5."""
    roles = ["overlord", "outlaw", "squire", "captain"]
    g = mk(roles, [FILL, ["retaliate", "plead-guilty", "retaliate", "retaliate"], ["sidestep"] * 2, FILL],
           gold=[5, 3, 5, 4])
    go(g, "0: order 1")
    settle(g)
    opts = g.legal(1)
    assert "discard-pass 3 plead-guilty" in opts and "discard-pass 2 retaliate" in opts
    go(g, "1: discard-pass 3 plead-guilty")
    assert g.holder == 3 and g.path[-1].how == "discard-pass" and "plead-guilty" in g.discard
    settle(g)
    go(g, "3: die")  # killed by the Outlaw: he takes up to 5 of the victim's gold
    assert g.gold[1] == 3 + 4 and g.gold[3] == 0
    # whoever kills the Outlaw takes 5 from the treasury
    g2 = mk(roles, [FILL, RET, ["sidestep"] * 2, FILL])
    go(g2, "0: order 1")
    settle(g2)
    go(g2, "1: die")
    assert g2.gold[0] == 10
    assert last(g2, "gain").params == {"seat": 0, "gold": 5, "why": "outlaw-bounty"}
