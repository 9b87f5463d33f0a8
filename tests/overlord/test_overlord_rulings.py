"""The cases the rules leave open, read as close to the seed as we could (each marked Ruling (H3) in game.py)."""

from __future__ import annotations

from ovl_helpers import FILL, RET, close, events, go, kind, last, mk, settle


def test_ruling_card_whose_player_dies_in_its_chain_does_nothing() -> None:
    """K-ORD-4 / K-CARD-UPRISING: an Executioner's substitute (a book card) sets off an Uprising that kills
    the player of the card at the bottom of the chain: the card does nothing; K-ORD-8 then applies."""
    roles = ["overlord", "executioner", "squire", "peasant"]
    g = mk(roles, [RET, ["retaliate", "plead-guilty", "sidestep", "sidestep"], ["sidestep", "sidestep"],
                   ["uprising", "retaliate", "retaliate", "retaliate"]], gold=[5, 5, 5, 0], deck=[])
    go(g, "0: order 3")
    settle(g)
    go(g, "3: play uprising 2")
    settle(g)
    assert g.uprising == (3, 2) and g.holder == 2
    go(g, "2: play sidestep 1", "1: retaliate")
    close(g)
    go(g, "0: retaliate")  # cancels the Executioner's Retaliate
    settle(g)
    assert kind(g) == "substitute"
    go(g, "1: substitute plead-guilty")  # a book card: the Uprising resolves; he holds a shield: the named dies
    assert last(g, "uprising-resolves").params == {"seat": 1, "shield": True, "victim": 2}
    assert last(g, "fizzled").params == {"seat": 2, "card": "sidestep"}
    assert last(g, "execute").params["killer"] == 3  # he held the order the Uprising gave him
    assert g.holder == 2 and not g.alive[2] and kind(g) == "command"
    assert g.card_count() == g.total_cards


def test_ruling_outlaw_killed_by_his_own_pass_cost_does_not_pass() -> None:
    """K-XROLE-OUTLAW / K-CARD-UPRISING: the Outlaw's discard (a book card) sets off an Uprising that kills
    him: the pass does not happen, the ruler commands again."""
    roles = ["overlord", "outlaw", "squire", "peasant"]
    g = mk(roles, [FILL, ["uprising", "plead-guilty", "retaliate", "retaliate"], ["sidestep", "sidestep"], FILL],
           deck=[])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play uprising 2")
    settle(g)
    go(g, "2: play sidestep 1")  # the order comes back to the Outlaw
    settle(g)
    go(g, "1: discard-pass 3 plead-guilty")
    assert last(g, "uprising-resolves").params == {"seat": 1, "shield": False, "victim": 1}
    assert not g.alive[1] and g.holder == 1 and kind(g) == "command"
    assert [p.seat for p in g.path] == [1, 2, 1]  # seat 3 never got the order
    assert last(g, "execute").params["killer"] == 2


def test_ruling_coercion_target_without_cards_gives_gold_unasked() -> None:
    """K-CARD-COERCION: a receiver holding no card cannot give one: the treasury option, without a prompt."""
    g = mk(["overlord", "peasant", "squire", "knight"], [FILL, ["coercion", *RET[:3]], [], FILL],
           gold=[5, 0, 5, 5], deck=[])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play coercion 2")
    close(g)
    assert last(g, "choose-gold").params == {"seat": 2, "auto": True}
    assert g.gold[1] == 2 and kind(g) == "plead"


def test_ruling_martyrdom_execution_then_seven_gold() -> None:
    """K-CARD-MARTYRDOM: executed first (the Outlaw killer takes his 5 at once), then he takes 7."""
    g = mk(["overlord", "outlaw", "squire", "peasant"], [FILL, ["sidestep", *RET[:3]], ["sidestep", "sidestep"],
                                                         ["martyrdom", *RET[:3]]], gold=[5, 5, 5, 3], deck=[])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 3")  # 2 seats to his right... 1 right is 0, 2 right is 3
    settle(g)
    go(g, "3: play martyrdom")
    close(g)
    assert g.gold[1] == 5 + 3 and g.gold[3] == 7


def test_ruling_soothsayer_shows_another_player_only() -> None:
    """K-XROLE-SOOTHSAYER: he makes another player show their hand (never his own)."""
    g = mk(["overlord", "soothsayer", "squire", "peasant"], [FILL, FILL, ["sidestep"] * 2, FILL])
    assert "show 1" not in g.legal(1)


def test_ruling_squire_draw_not_optional_and_no_prompt() -> None:
    """K-ROLE-SQUIRE (Ruling: not optional): the Squire's draw at the phase start is automatic."""
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, FILL, FILL, FILL])
    assert len(g.hands[2]) == 5 and kind(g) == "command"
    assert [e.params["count"] for e in events(g, "draw") if e.params["why"] == "squire"] == [1]
