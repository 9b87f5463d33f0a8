"""The strong Kill the Overlord bot (issue 48): determinised rollouts from its seat's view.

- A game built at an order-phase decision (``Game.at_order``, K-RND-5) with the
  true hidden cards offers the seat the same moves and shows it the same view as
  the real game, when the ruler gives the order (K-ORD-1) or the holder acts (K-ORD-3).
- Leak-free: two games whose view for the seat is the same (the hidden cards
  differ), with the same sampler seed, give the same search and decision.
- Its samples agree with the view: hand sizes and the deck (K-SET-4), its own
  hand, the discard pile, a hand the Soothsayer showed (K-XROLE-SOOTHSAYER).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from ovl_helpers import BASE4, FILL, go, mk, settle

from engine.overlord import Game
from engine.overlord.bots import HeuristicBot
from engine.overlord.game import OrderPoint
from engine.overlord.rules import load_ruleset
from engine.overlord.search import Search, StrongBot, features, parse_view, searchable, value
from engine.overlord.views import OverlordView, PathStep
from engine.registry import games
from server.thinking import think


def json_view(g: Game, seat: int) -> OverlordView:
    view = parse_view(g.view(seat).model_dump_json())
    assert isinstance(view, OverlordView)
    return view


def to_decision(players: int, seed: int, skip: int, expansion: bool = False) -> tuple[Game, int] | None:
    """A game of normal bots stopped at the ``skip``-th searchable decision (None: it ended first)."""
    g = Game.random(players, seed, expansion_ranks=list(range(1, 9)) if expansion else [])
    bots = [HeuristicBot(s, seed) for s in range(players)]
    k = 0
    while not g.is_over():
        s = min(g.pending())
        if searchable(g.view(s), True):
            k += 1
            if k > skip:
                return g, s
        a = bots[s].act(g.view(s), g.legal(s), True)
        assert a is not None
        g.play(s, a)
    return None


def same_for_the_seat(a: Game, b: Game, seat: int) -> None:
    assert a.pending() == b.pending() and a.legal(seat) == b.legal(seat)
    va, vb = a.view(seat).model_dump(exclude={"log", "notes"}), b.view(seat).model_dump(exclude={"log", "notes"})
    assert va == vb


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("expansion", [False, True])
def test_k_rnd_5_a_game_at_an_order_decision_is_the_same_for_the_seat(players: int, expansion: bool) -> None:
    """K-RND-5, K-ORD-1, K-ORD-3: built at the seat's decision with the true hands and
    deck, the game offers the same moves and view, and the seat's dying (``die``, always
    last, K-TIME-1) leads to the same next decisions as in the real game."""
    kinds = set()
    for skip in (0, 3, 9, 17):
        found = to_decision(players, 100 * players + skip, skip, expansion)
        if found is None:
            continue
        g, me = found
        v = json_view(g, me)
        assert v.prompt is not None
        kinds.add(v.prompt.kind)
        s = Search(v, g.legal(me), "t")
        built = s.game([list(h) for h in g.hands], list(g.deck), g.seed)
        same_for_the_seat(g, built, me)
        move = g.legal(me)[-1]
        g.play(me, move)
        built.play(me, move)
        for seat in range(players):
            assert g.legal(seat) == built.legal(seat)
        if not built.is_over():
            s0 = min(built.pending())
            assert built.clone().legal(s0) == built.legal(s0)  # a built game replays like any other
    assert "turn" in kinds


def test_k_ord_1_after_the_holder_died_the_built_game_asks_the_ruler() -> None:
    """K-ORD-1: the holder executed, the ruler gives the order again; a game built there
    (the dead holder in its OrderPoint) asks the ruler the same."""
    g = mk(BASE4, hands=[[], [], [], []], deck=["retaliate"] * 30)  # nothing to pass with
    go(g, "0: order 2", "2: die")
    assert g.prompt() is not None and g.prompt().kind == "command"  # type: ignore[union-attr]
    v = json_view(g, 0)
    assert v.holder == 2 and searchable(v, True)
    built = Search(v, g.legal(0), 1).game([list(h) for h in g.hands], list(g.deck), 0)
    same_for_the_seat(g, built, 0)


def test_order_point_refuses_what_is_not_a_decision() -> None:
    roles = BASE4
    hands: list[list[str]] = [[], [], [], []]
    with pytest.raises(ValueError, match="token"):
        Game.at_order(roles, hands, [5] * 4, [], OrderPoint(round=2, alive=[True, False, True, True]))
    with pytest.raises(ValueError, match="living ruler"):
        Game.at_order(roles, hands, [5] * 4, [], OrderPoint(round=2, alive=[False, True, True, True], tokens=[1, None, None, None]))
    with pytest.raises(ValueError, match="round"):
        Game.at_order(roles, hands, [5] * 4, [], OrderPoint(round=0))
    with pytest.raises(ValueError, match="unknown card"):
        Game.at_order(roles, hands, [5] * 4, [], OrderPoint(round=2, discard=["joker"]))


def two_deals() -> tuple[Game, Game]:
    """Seat 0 (the Overlord) holds and draws the same cards in both; the others' hands
    and the deck below differ."""
    mine = ["sidestep", "capitalize"]
    a = mk(BASE4, hands=[mine, ["retaliate", "victimize"], ["extortion"], ["revolt", "coercion"]],
           deck=["victimize", "sidestep", *(["make-an-example", "retaliate", "plead-guilty"] * 6)])
    b = mk(BASE4, hands=[mine, ["revolt", "coercion"], ["victimize"], ["extortion", "retaliate"]],
           deck=["victimize", "sidestep", *(["plead-guilty", "make-an-example", "sidestep"] * 6)])
    return a, b


def two_holders() -> tuple[Game, Game]:
    """Seat 0 (the Captain) holds the order in round 3, given by the Overlord at seat 1;
    the hidden hands and the deck differ."""
    at = OrderPoint(round=3, discard=["revenge", "sidestep"], holder=0, holder_giver=1, transfers=1,
                    path=[PathStep(seat=0, by=1, how="command")])
    roles, gold, mine = ["captain", "overlord", "squire", "peasant"], [9, 20, 3, 6], ["victimize", "extortion", "revolt"]
    a = Game.at_order(roles, [mine, ["retaliate", "coercion"], ["sidestep"], ["capitalize"] * 3],
                      gold, ["sidestep", "plead-guilty"] * 5, at, 7)
    b = Game.at_order(roles, [mine, ["capitalize", "capitalize"], ["retaliate"], ["coercion", "sidestep", "sidestep"]],
                      gold, ["plead-guilty", "capitalize"] * 5, at, 8)
    return a, b


@pytest.mark.parametrize("deals", [two_deals, two_holders])
def test_same_view_same_decision_whatever_the_hidden_cards(deals: Callable[[], tuple[Game, Game]]) -> None:
    """Leak-free (issue 48): the views of seat 0 are equal, so are its searches and
    decisions with the same seed, as the ruler (K-ORD-1) and as the holder (K-ORD-3);
    also through the thinking pool's entry point (the view as JSON)."""
    a, b = deals()
    assert a.view(0).model_dump_json() == b.view(0).model_dump_json()
    assert a.hands != b.hands and a.deck != b.deck
    assert searchable(a.view(0), True)
    sa, sb = Search(json_view(a, 0), a.legal(0), "seed"), Search(json_view(b, 0), b.legal(0), "seed")
    assert len(sa.moves) > 1
    for _ in range(4 * len(sa.moves)):
        sa.step()
        sb.step()
    assert sa.total == sb.total and sa.best() == sb.best()
    assert StrongBot(0, 3, samples=3).act(a.view(0), a.legal(0), True) == StrongBot(0, 3, samples=3).act(
        b.view(0), b.legal(0), True
    )
    assert think("overlord", a.view(0).model_dump_json(), a.legal(0), "s", 0.0, samples=2) == think(
        "overlord", b.view(0).model_dump_json(), b.legal(0), "s", 0.0, samples=2
    )


def test_samples_agree_with_the_view() -> None:
    """K-SET-4: every sample deals each hidden hand its public size and the deck its
    size, with the rule set's cards less the seat's hand and the discard pile; a hand
    the Soothsayer showed (K-XROLE-SOOTHSAYER) is dealt as shown."""
    at = OrderPoint(round=2, discard=["revenge", "sidestep", "retaliate"], holder=2, holder_giver=0, transfers=1,
                    path=[PathStep(seat=2, by=0, how="command")],
                    shown={3: (["coercion", "revolt"], 2, False), 1: (["victimize"], 2, True)})
    hands = [["sidestep"], ["victimize", "martyrdom"], ["capitalize", "extortion", "conspire"], ["coercion", "revolt"], []]
    deck = Counter(load_ruleset().full_deck())
    deck.subtract([*at.discard, *(c for h in hands for c in h)])
    g = Game.at_order(["tyrant", "knight", "captain", "soothsayer", "peasant"], hands, [5, 5, 5, 5, 5],
                      sorted(deck.elements()), at, 1)
    me = 2
    v = json_view(g, me)
    assert v.seats[3].shown is not None and not v.seats[3].shown.stale and v.seats[1].shown is not None
    assert v.seats[1].shown.stale
    search = Search(v, g.legal(me), 5)
    rs = load_ruleset(v.ruleset)
    full = Counter(rs.full_deck())
    cards_in_play = len(g.deck) + sum(len(h) for h in g.hands) + len(g.discard)
    for _ in range(30):
        hands, deck = search.sample()
        assert hands[me] == v.hand
        assert [len(h) for h in hands] == [s.hand_size for s in v.seats] and len(deck) == v.deck_size
        assert sorted(hands[3]) == ["coercion", "revolt"]
        dealt = Counter(deck) + Counter(v.discard) + Counter(c for h in hands for c in h)
        assert dealt == full and sum(dealt.values()) == cards_in_play


def test_a_card_given_lately_is_mostly_where_it_went() -> None:
    """The seat's notes (K-CARD-CONSPIRE: the card it passed on) place that card in the
    receiver's hand in most samples, while the log shows no sign of it leaving."""
    g = mk(BASE4, hands=[["martyrdom", "revenge"], ["conspire", "sidestep"], ["sidestep"], ["victimize"]],
           deck=["retaliate"] * 30)
    go(g, "0: order 1", "1: play conspire 2")
    settle(g)
    go(g, "0: give revenge", "1: give sidestep", "2: give retaliate",
       "3: give retaliate", "2: discard retaliate", "2: die")
    assert g.prompt() is not None and g.prompt().kind == "command"  # type: ignore[union-attr]
    assert "revenge" in g.hands[1]
    v = json_view(g, 0)
    search = Search(v, g.legal(0), 2)
    held = sum("revenge" in search.sample()[0][1] for _ in range(40))
    assert held >= 28


def test_value_is_the_game_result_once_over_and_a_chance_before() -> None:
    g = Game.random(5, 1)
    bots = [HeuristicBot(s, 1) for s in range(5)]
    v = g.view(0)
    assert sum(value(v, s) for s in range(5)) == pytest.approx(1.0)
    assert len(features(v, 0)) > 0
    while not g.is_over():
        s = min(g.pending())
        g.play(s, bots[s].act(g.view(s), g.legal(s), True) or g.legal(s)[0])
    out = g.outcome()
    assert out is not None
    assert [value(g.view(s), s) for s in range(5)] == [1.0 if s == out.winner else 0.0 for s in range(5)]


def test_searchable_only_for_the_seats_own_order_decisions() -> None:
    """K-ORD-1 (the ruler's command) and K-ORD-3 (the holder's turn) are searched; a
    window (K-ORD-5), another seat's decision or a spectator's view are not."""
    g = mk(BASE4, hands=[["sidestep"], ["retaliate"], ["sidestep", "sidestep"], ["retaliate"]])
    assert searchable(g.view(0), True) and not searchable(g.view(0), False)
    assert not searchable(g.view(1), True) and not searchable(g.view(None), True)
    go(g, "0: order 2")
    assert g.prompt() is not None and g.prompt().kind == "plead"  # type: ignore[union-attr]
    assert not any(searchable(g.view(s), True) for s in g.pending())
    settle(g)
    assert searchable(g.view(2), True)
    go(g, "2: play sidestep 1")
    assert g.prompt() is not None and g.prompt().kind == "retaliate"  # type: ignore[union-attr]
    assert not any(searchable(g.view(s), True) for s in g.pending())


def test_the_strong_level_is_offered_and_made_by_the_spec() -> None:
    spec = games()["overlord"]
    assert spec.search is not None and "strong" in spec.bot_levels
    assert isinstance(spec.new_bot(1, "strong", 0), StrongBot)
    a = spec.search.new(spec.search.parse_view(mk(BASE4).view(0).model_dump_json()), mk(BASE4).legal(0), "x")
    a.step()
    assert a.best() in mk(BASE4).legal(0)


def test_a_strong_seat_plays_a_whole_game_with_legal_moves() -> None:
    rng = random.Random(3)
    g = Game.random(6, 3, expansion_ranks=[1, 5, 8])
    bots = [StrongBot(s, 3, samples=1) if s == 2 else HeuristicBot(s, 3) for s in range(6)]
    steps = 0
    while not g.is_over() and steps < 4000:
        s = rng.choice(sorted(g.pending()))
        a = bots[s].act(g.view(s), g.legal(s), True)
        assert a in g.legal(s)
        g.play(s, a)
        steps += 1
    assert g.is_over()
    assert bots[2].decisions > 0  # type: ignore[union-attr]


def _peasant_holds() -> tuple[Game, int]:
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, [], ["sidestep"], []], gold=[5, 5, 5, 9], deck=[])
    go(g, "0: order 3")
    settle(g)
    return g, 3


def _ruler_holds(card: str) -> Callable[[], tuple[Game, int]]:
    def make() -> tuple[Game, int]:
        g = mk(["overlord", "captain", "squire", "peasant"], [[card], FILL, ["sidestep"], []], gold=[5, 5, 5, 9], deck=[])
        go(g, "0: order 3", "3: pay 0")
        settle(g)
        return g, 0

    return make


@pytest.mark.parametrize("scene", [_peasant_holds, _ruler_holds("uprising"), _ruler_holds("revolution")])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_play_tests_blunders_for_the_strong_bot_too(scene: Callable[[], tuple[Game, int]], seed: int) -> None:
    """K-ROLE-PEASANT, K-CARD-UPRISING, K-CARD-REVOLUTION (issue 44 item 16): a Peasant
    with 9 gold pays rather than dies; a ruler with an Uprising or a Revolution plays it
    rather than dies (K-ORD-8, K-RND-6), for the strong bot as for the normal one."""
    g, seat = scene()
    assert searchable(g.view(seat), True) and "die" in g.legal(seat)
    assert StrongBot(seat, seed, samples=6).act(g.view(seat), g.legal(seat), True) != "die"


def test_a_decision_with_one_answer_is_not_searched() -> None:
    """A holder with nothing to pass the order with can only die (K-ORD-3): the thinking
    pool answers at once, without even reading the view, and its worker is free."""
    g = mk(BASE4, hands=[[], [], [], []], deck=["retaliate"] * 30)
    go(g, "0: order 2")
    settle(g)
    assert g.legal(2) == ["die"] and searchable(g.view(2), True)
    assert think("overlord", "(not a view: never read)", ["die"], "s", 60.0) == "die"
