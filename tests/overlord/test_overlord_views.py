"""Views (K-VIEW-1): what each seat and a spectator see, and non-interference of hidden hands."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from ovl_helpers import FILL, RET, close, go, mk, settle

from engine.overlord import Game, OverlordView
from engine.overlord.rules import load_ruleset


def test_k_view_1_public_and_private_parts() -> None:
    """K-VIEW-1: roles, gold, hand sizes, deck/discard, holder and path, tokens public; own hand private."""
    g = mk(["overlord", "captain", "squire", "peasant"],
           [["coercion", *RET[:3]], FILL, ["sidestep", "victimize"], RET], gold=[5, 5, 5, 0])
    go(g, "0: order 3", "3: die", "0: order 2")
    settle(g)
    go(g, "2: play sidestep 1")
    close(g)  # the Retaliate window
    v = g.view(0)
    assert [s.role for s in v.seats] == ["overlord", "captain", "squire", "peasant"]
    assert [s.gold for s in v.seats] == g.gold and [s.hand_size for s in v.seats] == [len(h) for h in g.hands]
    assert v.deck_size == len(g.deck) and v.discard == g.discard
    assert v.holder == 1 and [(p.seat, p.by, p.how) for p in v.path] == [(3, 0, "command"), (2, 0, "command"),
                                                                           (1, 2, "card")]
    assert v.seats[3].token == 1 and not v.seats[3].alive and v.centre == ["peasant"]
    assert v.hand == g.hands[0] and g.view(None).hand is None
    assert v.prompt is not None and v.prompt.kind == "plead" and v.prompt.asked == [2, 0]
    assert sorted(v.prompt.owed) == [0, 2]
    g.play(2, "pass")
    v2 = g.view(None)
    assert v2.prompt is not None and v2.prompt.owed == [0]  # who still owes is public; not what they answered
    played = [(e.params["seat"], e.params["card"]) for e in v2.log if e.kind == "play"]
    assert played == [(2, "sidestep")]
    assert OverlordView.model_validate_json(v.model_dump_json()) == v


def test_k_view_1_given_cards_known_only_to_the_two() -> None:
    """K-VIEW-1: a card given (Coercion) is known only to the giver and the receiver."""
    g = mk(["overlord", "peasant", "squire", "knight"], [FILL, ["coercion", *RET[:3]], ["extortion", "revolt"], FILL],
           gold=[5, 0, 5, 5])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play coercion 2")
    close(g)
    go(g, "2: choose card revolt")
    for seat, sees in ((1, True), (2, True), (0, False), (3, False), (None, False)):
        log = g.view(seat).log
        assert any(e.kind == "gave-card" and e.params["card"] == "revolt" for e in log) is sees
        assert any(e.kind == "give-card" for e in log)  # that a card moved is public
    assert [e.params["card"] for e in g.view(1).notes] == ["revolt"] == [e.params["card"] for e in g.view(2).notes]
    assert g.view(0).notes == [] and g.view(None).notes == []
    # seat 0 and a spectator never learn the card from anything in their view
    assert "revolt" not in g.view(0).model_dump_json()
    assert "revolt" not in g.view(None).model_dump_json()
    assert "revolt" in g.view(1).model_dump_json()


def test_k_view_1_draws_private_counts_public() -> None:
    """K-VIEW-1: which cards a seat drew only it sees; how many is public."""
    g = Game.random(5, 2)
    for s in range(5):
        v = g.view(s)
        for e in v.log:
            if e.kind == "drew":
                assert e.audience == [s] and e.params["seat"] == s
    assert not [e for e in g.view(None).log if e.kind == "drew"]
    assert [e for e in g.view(None).log if e.kind == "draw"]


def test_view_log_window_and_full_log() -> None:
    g = Game.random(4, 9)
    rng = random.Random(1)
    while g.round < 4 and not g.is_over():
        s = min(g.pending())
        g.play(s, rng.choice(g.legal(s)))
    if not g.is_over():
        v = g.view(0)
        assert {e.round for e in v.log} <= {g.round - 1, g.round}
        assert {e.round for e in g.view(0, log_rounds=None).log} >= {1, 2}


# ----------------------------------------------------------- non-interference
CARDS = [c for c in load_ruleset().full_deck() if c != "uprising"]  # Uprising reveals "holds a shield card"


def _deal(n: int, sizes: list[int], pool: list[str]) -> list[list[str]]:
    hands, i = [], 0
    for k in sizes:
        hands.append(pool[i:i + k])
        i += k
    return hands


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_k_view_1_non_interference_of_unseen_cards(data: st.DataObject) -> None:
    """Hands differing only in cards a seat has not seen give that seat identical views, step by step."""
    n = data.draw(st.integers(4, 8), label="players")
    me = data.draw(st.integers(0, n - 1), label="observer")
    # expansion roles too, but not the Soothsayer and the Bureaucrat, whose abilities reveal hands by design
    ranks = data.draw(st.lists(st.sampled_from([8, 7, 5, 3, 2, 1]), unique=True), label="expansion ranks")
    roles = data.draw(st.permutations(load_ruleset().role_set(n, ranks)), label="roles")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    sizes = [data.draw(st.integers(0, 4)) for _ in range(n)]
    pool = list(CARDS)
    random.Random(seed).shuffle(pool)
    hands_a = _deal(n, sizes, pool)
    deck = pool[sum(sizes):]
    others = [c for s in range(n) if s != me for c in hands_a[s]]
    shuffled = data.draw(st.permutations(others), label="others' cards")
    hands_b, i = [], 0
    for s in range(n):
        if s == me:
            hands_b.append(list(hands_a[s]))
        else:
            hands_b.append(list(shuffled[i:i + sizes[s]]))
            i += sizes[s]
    a = Game.new(roles=list(roles), hands=hands_a, deck=deck, seed=seed)
    b = Game.new(roles=list(roles), hands=hands_b, deck=deck, seed=seed)
    rng = random.Random(seed)
    for _ in range(150):
        assert a.view(me).model_dump_json() == b.view(me).model_dump_json()
        assert a.view(None).model_dump_json() == b.view(None).model_dump_json()
        if a.is_over():
            assert b.is_over()
            break
        assert a.pending() == b.pending()  # who is asked never depends on hidden cards
        seat = rng.choice(sorted(a.pending()))
        if seat == me:
            assert a.legal(me) == b.legal(me)
        common = [x for x in a.legal(seat) if x in b.legal(seat)]
        if not common:
            break
        pick = rng.choice(common)
        if pick == "die" and len(common) > 1 and rng.random() < 0.8:
            pick = rng.choice(common[:-1])
        a.play(seat, pick)
        b.play(seat, pick)
