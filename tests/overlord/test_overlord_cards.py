"""Scenario tests for the plot cards (docs/rules/overlord.md section 4, K-CARD-*)."""

from __future__ import annotations

from ovl_helpers import FILL, close, events, go, kind, last, mk, settle

from engine.overlord import Game

# seat 0 Overlord (8), 1 Peasant (2, no gold: no role pass), 2 Squire (3), 3 Advisor (7)
ROLES = ["overlord", "peasant", "squire", "advisor"]


def holder1(hand: list[str], *, others: list[list[str]] | None = None, gold: list[int] | None = None,
            deck: list[str] | None = None) -> Game:
    """Seat 1 holds the order (commanded by the ruler) with ``hand``; windows passed."""
    o = others or [FILL, ["sidestep", "sidestep"], FILL]
    g = mk(ROLES, [o[0], hand, o[1], o[2]], gold or [5, 0, 5, 5], deck)
    go(g, "0: order 1")
    settle(g)
    assert g.holder == 1 and kind(g) == "turn"
    return g


def test_k_card_sidestep_right_one_or_two_and_draw() -> None:
    """K-CARD-SIDESTEP: order to a player 1-2 seats to your right; draw 1."""
    g = holder1(["sidestep", "retaliate", "retaliate", "retaliate"])
    assert [o for o in g.legal(1) if "sidestep" in o] == ["play sidestep 3", "play sidestep 0"]
    go(g, "1: play sidestep 3")
    close(g)
    assert g.holder == 3
    assert g.hands[1] == ["capitalize", "retaliate", "retaliate", "retaliate"]


def test_k_card_victimize_discard_or_gold() -> None:
    """K-CARD-VICTIMIZE: 1-2 seats to your left; they discard a card of their choice, or you take 1 gold."""
    g = holder1(["victimize", "retaliate", "retaliate", "retaliate"])
    assert [o for o in g.legal(1) if "victimize" in o] == ["play victimize 2", "play victimize 3"]
    go(g, "1: play victimize 3")
    close(g)
    assert kind(g) == "victimize" and g.pending() == {3}
    assert g.legal(3) == ["discard sidestep"]
    go(g, "3: discard sidestep")
    assert last(g, "discard").params == {"seat": 3, "card": "sidestep", "why": "victimize"}
    # a target without cards gives 1 gold instead (empty deck: nobody draws)
    g2 = holder1(["victimize", "retaliate"], others=[FILL, ["sidestep", "sidestep"], []], deck=[])
    go(g2, "1: play victimize 3")
    close(g2)
    assert g2.gold[1] == 1 and g2.gold[3] == 4


def test_k_card_capitalize_exactly_two_seats_take_two() -> None:
    """K-CARD-CAPITALIZE: the player exactly 2 seats to your left or right; take 2 from the treasury."""
    g = holder1(["capitalize", "retaliate", "retaliate", "retaliate"])
    assert [o for o in g.legal(1) if "capitalize" in o] == ["play capitalize 3"]
    go(g, "1: play capitalize 3")
    close(g)
    assert g.gold[1] == 2 and g.holder == 3


def test_k_card_coercion_adjacent_card_or_gold() -> None:
    """K-CARD-COERCION: adjacent; the receiver gives you a card (only you two see it) or you take 2."""
    g = holder1(["coercion", "retaliate", "retaliate", "retaliate"])
    assert [o for o in g.legal(1) if "coercion" in o] == ["play coercion 2", "play coercion 0"]
    go(g, "1: play coercion 2")
    close(g)
    assert kind(g) == "coercion" and g.legal(2)[0] == "choose gold"  # K-TIME-1: gold first
    go(g, "2: choose card sidestep")
    assert "sidestep" in g.hands[1]
    private = last(g, "gave-card")
    assert private.audience == [1, 2] and private.params["card"] == "sidestep"
    assert "sidestep" not in str(g.view(0).log[-3:])  # the others see only that a card moved
    g2 = holder1(["coercion", "retaliate", "retaliate", "retaliate"])
    go(g2, "1: play coercion 2")
    close(g2)
    go(g2, "2: choose gold")
    assert g2.gold[1] == 2


def test_k_card_example_lower_rank_or_any_if_lowest() -> None:
    """K-CARD-EXAMPLE: to a living player of lower rank (any if you rank lowest); take 1."""
    g = holder1(["make-an-example", "retaliate", "retaliate", "retaliate"])
    # the Peasant (rank 2) ranks lowest: any player
    assert [o for o in g.legal(1) if "example" in o] == [
        "play make-an-example 2", "play make-an-example 3", "play make-an-example 0"]
    go(g, "1: play make-an-example 3")
    close(g)
    assert g.gold[1] == 1
    # the Advisor (7) may target only the Peasant (2) and the Squire (3)
    g.hands[3] = ["make-an-example"]
    assert g.shield_targets(3, "make-an-example") == [1, 2]


def test_k_card_extortion_any_player_take_one() -> None:
    """K-CARD-EXTORTION: to any player; take 1 of their gold (nothing if they have none)."""
    g = holder1(["extortion", "retaliate", "retaliate", "retaliate"])
    assert [o for o in g.legal(1) if "extortion" in o] == ["play extortion 2", "play extortion 3", "play extortion 0"]
    go(g, "1: play extortion 0")
    close(g)
    assert g.gold[1] == 1 and g.gold[0] == 4 and g.holder == 0


def test_k_card_conspire_simultaneous_gifts_in_direction() -> None:
    """K-CARD-CONSPIRE: adjacent; every living player holding a card secretly gives one onward at once."""
    g = holder1(["conspire", "revenge", "retaliate", "retaliate"],
                others=[["capitalize"] * 4, ["victimize", "victimize"], ["extortion"] * 4])
    go(g, "1: play conspire 2")  # seat 2 is to the left: cards move left (1 -> 2 -> 3 -> 0 -> 1)
    close(g)
    p = g.prompt()
    assert p is not None and p.kind == "conspire" and p.seats == [1, 2, 3, 0]
    assert g.legal(2) == ["give victimize", "give capitalize"]  # the Squire drew a Capitalize at the start
    go(g, "1: give revenge", "2: give victimize", "0: give capitalize", "3: give extortion")
    assert "revenge" in g.hands[2] and "victimize" in g.hands[3] and "extortion" in g.hands[0]
    assert "capitalize" in g.hands[1]
    moved = events(g, "passed-card")
    assert {(e.params["src"], e.params["dst"]) for e in moved} == {(1, 2), (2, 3), (3, 0), (0, 1)}
    assert all(e.audience == sorted([e.params["src"], e.params["dst"]]) for e in moved)  # type: ignore[type-var]
    assert kind(g) == "plead"


def test_k_card_revolt_swap_roles_rank_one_apart() -> None:
    """K-CARD-REVOLT: to a player whose rank differs by exactly 1; swap roles."""
    g = holder1(["revolt", "retaliate", "retaliate", "retaliate"])
    assert [o for o in g.legal(1) if "revolt" in o] == ["play revolt 2"]  # Squire 3, Peasant 2
    go(g, "1: play revolt 2")
    close(g)
    assert g.roles[1] == "squire" and g.roles[2] == "peasant" and g.holder == 2


def test_k_card_retaliate_a_retaliate_opens_its_own_window() -> None:
    """K-CARD-RETALIATE: cancels the card being played; a Retaliate opens a window too."""
    g = holder1(["capitalize", "retaliate", "retaliate", "retaliate"],
                others=[["retaliate"] * 4, ["sidestep", "sidestep"], FILL])
    go(g, "1: play capitalize 3", "0: retaliate")
    close(g)
    p = g.prompt()
    assert p is not None and p.kind == "retaliate" and p.card == "retaliate" and p.actor == 0
    assert 1 in g.pending()
    settle(g)
    assert g.holder == 1 and g.gold[1] == 0  # cancelled: no gold, holder acts again


def test_k_card_plead_guilty_takes_the_order() -> None:
    """K-CARD-PLEAD: take the order from its holder; draw 1; take 1 from the treasury."""
    g = mk(ROLES, [FILL, FILL, ["sidestep", "sidestep"], ["plead-guilty", "sidestep", "sidestep", "sidestep"]])
    go(g, "0: order 1", "3: plead-guilty")
    settle(g)
    assert g.holder == 3 and g.gold[3] == 6 and len(g.hands[3]) == 4
    assert g.path[-1].how == "plead-guilty"


def test_k_card_martyrdom_executed_and_takes_seven() -> None:
    """K-CARD-MARTYRDOM: desperation: you are executed and take 7 from the treasury."""
    g = holder1(["martyrdom", "retaliate", "retaliate", "retaliate"])
    assert g.legal(1) == ["play martyrdom", "die"]
    go(g, "1: play martyrdom")
    close(g)
    assert not g.alive[1] and g.gold[1] == 7
    assert last(g, "execute").params["killer"] == 0
    assert kind(g) == "command"


def test_k_card_revenge_killer_dies_too() -> None:
    """K-CARD-REVENGE: you are executed, then your killer is executed with no killer."""
    g = mk(ROLES, [FILL, ["revenge", "retaliate", "retaliate", "retaliate"], ["sidestep", "sidestep"], FILL])
    go(g, "0: order 2")
    settle(g)
    go(g, "2: play sidestep 1")  # the Squire gives the order to the Peasant
    settle(g)
    go(g, "1: play revenge")
    close(g)
    ex = events(g, "execute")
    assert [(e.params["seat"], e.params["killer"]) for e in ex] == [(1, 2), (2, None)]
    assert kind(g) == "command"


def test_k_card_revenge_by_plead_guilty_only_you_die() -> None:
    """K-CARD-REVENGE: if you hold the order by Plead Guilty only you die."""
    g = mk(ROLES, [FILL, FILL, ["sidestep", "sidestep"], ["plead-guilty", "revenge", "retaliate", "retaliate"]],
           deck=["retaliate"] * 10)
    go(g, "0: order 1", "3: plead-guilty")
    settle(g)
    assert g.holder == 3
    go(g, "3: play revenge")
    close(g)
    assert [e.params["seat"] for e in events(g, "execute")] == [3]


def test_k_card_revolution_reshuffles_living_roles_phase_ends() -> None:
    """K-CARD-REVOLUTION: living roles shuffled and dealt again; executed keep theirs; nobody dies; phase ends."""
    roles5 = ["overlord", "peasant", "squire", "knight", "captain"]
    g = mk(roles5, [FILL, ["revolution", "retaliate", "retaliate", "retaliate"], ["sidestep", "sidestep"], FILL, FILL],
           gold=[5, 0, 5, 5, 5], seed=3)
    go(g, "0: order 3", "3: die", "0: order 1")
    settle(g)
    go(g, "1: play revolution")
    close(g)
    rev = last(g, "revolution")
    assert rev.params["seat"] == 1
    assert rev.params["dealt"] == [0, 1, 2, 4]  # who was dealt again, public (K-VIEW-1: roles)
    assert rev.params["roles"][3] == "knight" and sorted(rev.params["roles"]) == sorted(roles5)
    assert last(g, "order-phase-end").params["why"] == "revolution"
    # the executed Knight kept his role through the revolution; the exchange then ran
    assert sorted(g.roles) == sorted(roles5)
    assert [e.params["seat"] for e in events(g, "execute")] == [3]
    assert g.round == 2


def test_k_card_revolution_before_any_execution_logs_that_no_role_changes_hands() -> None:
    """K-CARD-REVOLUTION / K-RND-6: nobody executed, so the role exchange moves
    nothing; the log says so (it was silent, and the exchange read as skipped)."""
    roles5 = ["overlord", "peasant", "squire", "knight", "captain"]
    g = mk(roles5, [FILL, ["revolution", "retaliate", "retaliate", "retaliate"], ["sidestep", "sidestep"], FILL, FILL],
           gold=[5, 0, 5, 5, 5], seed=3)
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play revolution")
    close(g)
    assert g.round == 2 and not events(g, "execute")
    assert [e.round for e in events(g, "no-exchange")] == [1] and not events(g, "exchange")


def test_k_card_uprising_book_discard_with_shield_kills_named() -> None:
    """K-CARD-UPRISING: the first book discard: discarder holds a shield -> the named player dies."""
    g = holder1(["uprising", "retaliate", "retaliate", "retaliate"],
                others=[FILL, ["victimize", "victimize"], ["plead-guilty", "sidestep", "sidestep", "sidestep"]])
    assert [o for o in g.legal(1) if "uprising" in o] == ["play uprising 2", "play uprising 3", "play uprising 0", ]
    go(g, "1: play uprising 2")
    settle(g)
    assert g.holder == 2 and g.uprising == (1, 2)
    go(g, "2: play victimize 3")
    close(g)
    go(g, "3: discard plead-guilty")  # a book card, the Advisor still holds Sidesteps
    res = last(g, "uprising-resolves")
    assert res.params == {"seat": 3, "shield": True, "victim": 2}
    assert not g.alive[2] and g.uprising is None


def test_k_card_uprising_discarder_without_shield_kills_player() -> None:
    """K-CARD-UPRISING: the discarder holds no shield card -> the Uprising's player dies."""
    g = holder1(["uprising", "retaliate", "retaliate", "retaliate"],
                others=[FILL, ["victimize", "victimize"], ["plead-guilty"]], deck=[])
    go(g, "1: play uprising 2")
    settle(g)
    go(g, "2: play victimize 3")
    close(g)
    # a single card: the Advisor discards it and holds no shield
    go(g, "3: discard plead-guilty")
    assert last(g, "uprising-resolves").params == {"seat": 3, "shield": False, "victim": 1}
    assert not g.alive[1]
    assert last(g, "execute").params["killer"] is None  # he did not hold the order


def test_k_card_1_costs_in_full_losses_as_far_as_possible() -> None:
    """K-CARD-1: optional costs paid in full or unavailable; forced losses take what there is; never negative."""
    g = holder1(["extortion", "retaliate", "retaliate", "retaliate"], gold=[0, 0, 5, 5])
    assert not any(o.startswith("pay") for o in g.legal(1))  # the Peasant cannot pay 1 gold
    go(g, "1: play extortion 0")
    close(g)
    assert g.gold[0] == 0 and g.gold[1] == 0  # nothing to take
    assert min(g.gold) >= 0
