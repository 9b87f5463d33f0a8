"""Moves a person would not make, that the normal (heuristic) Overlord bot used to
(issue 44 item 16): each test is the bot's view and the move it must not make."""

from __future__ import annotations

from ovl_helpers import FILL, go, mk, settle

from engine.overlord.bots import HeuristicBot


def test_peasant_with_gold_pays_rather_than_dies() -> None:
    """K-ROLE-PEASANT: a Peasant with 9 gold and no card can pass the order for 1 gold as
    often as it likes; dying (K-ORD-3 d) gets no better role than surviving (K-RND-6)."""
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, [], ["sidestep"], []], gold=[5, 5, 5, 9], deck=[])
    go(g, "0: order 3")
    settle(g)
    assert g.pending() == {3} and "pay 1" in g.legal(3)
    a = HeuristicBot(3).act(g.view(3), g.legal(3), True)
    assert a != "die" and a is not None and a.startswith("pay ")


def test_ruler_plays_uprising_rather_than_dies() -> None:
    """K-ORD-8, K-RND-6: a ruler who dies ends the phase and gives up rank 8 for sure; with an
    Uprising (K-CARD-UPRISING) in hand he passes the order on and lives."""
    g = mk(["overlord", "captain", "squire", "peasant"], [["uprising"], FILL, ["sidestep"], []],
           gold=[5, 5, 5, 9], deck=[])
    go(g, "0: order 3", "3: pay 0")
    settle(g)
    assert g.pending() == {0} and "die" in g.legal(0)
    a = HeuristicBot(0).act(g.view(0), g.legal(0), True)
    assert a is not None and a.startswith("play uprising ")


def test_ruler_plays_revolution_rather_than_dies() -> None:
    """K-CARD-REVOLUTION: nobody dies and the ruler may keep rank 8; dying loses it (K-RND-6)."""
    g = mk(["overlord", "captain", "squire", "peasant"], [["revolution"], FILL, ["sidestep"], []],
           gold=[5, 5, 5, 9], deck=[])
    go(g, "0: order 3", "3: pay 0")
    settle(g)
    assert g.legal(0) == ["play revolution", "die"]
    assert HeuristicBot(0).act(g.view(0), g.legal(0), True) == "play revolution"
