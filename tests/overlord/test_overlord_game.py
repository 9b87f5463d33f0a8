"""Setup, rounds, end, notation, timeouts and the GameTable contract (K-SET, K-RND, K-END, K-NOTE, K-TIME)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ovl_helpers import BASE4, FILL, RET, capped, close, events, go, kind, last, mk, settle

from engine.api import GameTable, IllegalAction
from engine.overlord import Action, Game, OverlordIllegal, parse
from engine.overlord.rules import RuleSet, load_ruleset
from engine.overlord.spec import SPEC, OverlordOptions


# ---------------------------------------------------------------- setup
def test_k_set_2_role_sets_per_player_count() -> None:
    """K-SET-2: 4: Overlord, Captain, Squire, Peasant; 5 +General; 6 +Knight; 7 +Truant; 8 +Advisor."""
    rs = load_ruleset()
    assert rs.role_set(4) == ["overlord", "captain", "squire", "peasant"]
    assert rs.role_set(5) == ["overlord", "general", "captain", "squire", "peasant"]
    assert rs.role_set(6) == ["overlord", "general", "captain", "knight", "squire", "peasant"]
    assert rs.role_set(7) == ["overlord", "general", "captain", "knight", "squire", "peasant", "truant"]
    assert rs.role_set(8) == ["overlord", "advisor", "general", "captain", "knight", "squire", "peasant", "truant"]
    for n in range(4, 9):
        assert sorted(Game.random(n, n).roles) == sorted(rs.role_set(n))
    with pytest.raises(ValueError):
        Game.new(roles=["captain", "squire", "peasant", "truant"])  # no rank 8
    with pytest.raises(ValueError):
        Game.new(roles=["overlord", "captain", "taxcollector", "peasant"])  # two of rank 5
    bad = load_ruleset().model_dump()
    bad["role_sets"][4] = ["overlord", "captain", "squire", "squire"]
    with pytest.raises(ValueError):
        RuleSet.model_validate(bad)


def test_k_set_4_deal_gold_deck_hidden_hands() -> None:
    """K-SET-4: one role each at random, 5 gold each, the 44-card deck shuffled; hands hidden."""
    deals = {tuple(Game.random(6, seed).roles) for seed in range(12)}
    assert len(deals) > 1
    g = Game.random(5, 3)
    assert g.total_cards == 44 == len(load_ruleset().full_deck())
    assert g.card_count() == 44
    v = g.view(0)
    assert v.hand == g.hands[0]
    assert all(s.hand_size == len(g.hands[s.seat]) for s in v.seats)
    assert "hands" not in v.model_dump()
    assert all(s.gold == 5 for s in Game.random(4, 1).view(None).seats)


def test_k_set_5_ruler_is_whoever_holds_rank_8_now() -> None:
    """K-SET-5: the ruler is whoever holds the rank-8 role at that moment (Revolt moves it)."""
    g = mk(["overlord", "advisor", "squire", "peasant"], [["revolt", *RET[:3]], FILL, ["sidestep"] * 2, FILL])
    assert g.ruler() == 0
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    settle(g)
    go(g, "0: play revolt 1")
    close(g)
    assert g.roles[:2] == ["advisor", "overlord"] and g.ruler() == 1
    assert g.view(None).ruler == 1


# ---------------------------------------------------------------- a round
def test_k_rnd_1_start_levy_then_name_then_draw() -> None:
    """K-RND-1: the Tyrant's levy, then the Bureaucrat names, then the draw."""
    g = mk(["tyrant", "bureaucrat", "squire", "peasant"], [FILL, FILL, [], FILL])
    assert kind(g) == "levy" and not events(g, "draw")
    go(g, "0: pass")
    assert kind(g) == "name" and not events(g, "draw")
    go(g, "1: pass")
    assert events(g, "draw") and kind(g) == "command"


def test_k_rnd_2_draw_from_ruler_clockwise_up_to_limit() -> None:
    """K-RND-2: from the ruler clockwise, each draws min(2, limit - hand), at least 0; Squire limit 2."""
    g = mk(["peasant", "squire", "overlord", "captain"], [["sidestep"], [], ["sidestep"] * 3, FILL])
    draws = [(e.params["seat"], e.params["count"]) for e in events(g, "draw") if e.params["why"] == "round"]
    assert draws == [(2, 1), (3, 0), (0, 2), (1, 2)]


def test_k_rnd_3_income_skipped_in_round_1_negative_as_far_as_possible() -> None:
    """K-RND-3: no income in round 1; from round 2 each role's income; a negative income as far as possible."""
    roles = ["overlord", "captain", "squire", "peasant", "general", "knight", "truant"]
    g = mk(roles, [FILL, FILL, ["sidestep"] * 2, FILL, FILL, FILL, FILL], gold=[5, 5, 5, 5, 5, 5, 0],
           ruleset=capped(1), deck=["capitalize"] * 40)
    assert not [e for e in g.events if e.params.get("why") == "income"]
    go(g, "0: order 1")
    settle(g)
    assert g.round == 2
    assert g.gold == [11, 8, 6, 5, 9, 7, 0]  # the Truant had nothing to pay


def test_k_rnd_4_coronation_at_40_or_option_30() -> None:
    """K-RND-4: a ruler with at least 40 gold (option 30) at the coronation wins."""
    g = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL], gold=[40, 5, 5, 5])
    out = g.outcome()
    assert out is not None and out.winner == 0 and out.reason == "coronation"
    assert g.is_over() and g.pending() == set()
    g2 = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL], gold=[30, 5, 5, 5])
    assert not g2.is_over()
    g3 = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL], gold=[30, 5, 5, 5], coronation=30)
    assert g3.outcome() is not None
    assert load_ruleset().coronation == 40 and load_ruleset().coronation_alternative == 30


def test_k_rnd_5_order_phase_follows() -> None:
    """K-RND-5: after the coronation check the order phase begins."""
    g = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL])
    assert g.phase == "order" and g.view(None).phase == "order"
    assert [e.kind for e in g.events].index("order-phase") > [e.kind for e in g.events].index("draw")


def test_k_rnd_6_role_exchange() -> None:
    """K-RND-6: survivors by rank take the best centre role if better; then the executed by token."""
    g = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, RET], gold=[5, 5, 5, 0])
    go(g, "0: order 3", "3: die", "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    close(g)
    go(g, "0: discard sidestep")  # the Captain's trigger
    settle(g)
    go(g, "0: die")
    assert g.round == 2
    ex = [(e.params["seat"], e.params["took"], e.params["gave"]) for e in events(g, "exchange")]
    assert ex == [(1, "overlord", "captain"), (2, "captain", "squire"), (3, "squire", None), (0, "peasant", None)]
    assert g.roles == ["peasant", "overlord", "captain", "squire"]
    assert all(g.alive) and g.tokens == [None] * 4


def test_k_rnd_7_reshuffle_and_refill_from_discard() -> None:
    """K-RND-7: a draw from an empty deck shuffles in the discard (cards resolving excluded); both empty: no draw."""
    roles = ["overlord", "peasant", "squire", "knight"]
    g = mk(roles, [FILL, ["capitalize", *RET[:3]], ["sidestep"] * 2, ["sidestep", *RET[:3]]], gold=[5, 0, 5, 5],
           deck=[])
    assert last(g, "draw").params == {"seat": 2, "count": 0, "why": "squire"}  # both empty: no draw
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play capitalize 3")
    settle(g)
    assert g.discard == ["capitalize"]
    go(g, "3: play sidestep 2")
    close(g)
    assert last(g, "deck-refilled").params == {"cards": 1}
    assert "capitalize" in g.hands[3]  # not the Sidestep still resolving
    # at the round's end, deck and discard are shuffled together; hands are kept
    settle(g)
    go(g, "2: play sidestep 0")
    settle(g)
    go(g, "0: die")
    cards = last(g, "reshuffle").params["cards"]
    assert g.round == 2 and cards == 1  # deck (empty) + discard (the last Sidestep)
    assert g.card_count() == g.total_cards


# ---------------------------------------------------------------- the end
def test_k_end_1_exactly_one_winner() -> None:
    """K-END-1: the game ends by coronation, last ruler alive or the round limit; exactly one player wins."""
    g = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, RET], gold=[5, 5, 5, 0])
    go(g, "0: order 1", "1: die", "0: order 2", "2: die", "0: order 3", "3: die")
    assert g.winners() == [0] and g.standings() == g.gold


def test_k_end_2_round_limit_most_gold_tie_by_rank() -> None:
    """K-END-2 (Ruling): after the final round's exchange the most gold wins; a tie goes to the highest rank."""
    g = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL], gold=[5, 9, 9, 1], ruleset=capped(1), round_limit=1)
    go(g, "0: order 3")
    settle(g)
    out = g.outcome()
    assert out is not None and out.reason == "round-limit" and out.winner == 1  # Captain 5 beats Squire 3
    over = [e for e in g.events if e.kind == "game-over"]
    assert [e.params.get("tie") for e in over] == [True]  # the log can say the rank decided it
    g2 = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL], gold=[5, 5, 5, 7], ruleset=capped(1), round_limit=1)
    go(g2, "0: order 3")
    settle(g2)
    assert g2.winners() == [3]
    assert [e.params.get("tie") for e in g2.events if e.kind == "game-over"] == [None]


# ---------------------------------------------------------------- notation, timeouts
EXAMPLES = [
    "order 3", "play sidestep 5", "play conspire 3", "play conspire 3 left", "pay 4",
    "discard-pass 4 capitalize", "play martyrdom", "play revenge", "play revolution", "play uprising 3",
    "die", "retaliate", "plead-guilty", "pass", "choose card revolt", "choose gold", "discard victimize",
    "give make-an-example", "draw", "ignore", "substitute coercion", "levy 3:2 5:2", "show 2",
    "name extortion", "gift 3",
]


def test_k_note_1_round_trip_and_lenient_parse() -> None:
    """K-NOTE-1: parse accepts any case and extra spaces; format writes the canonical form; round trip."""
    for text in EXAMPLES:
        a = parse(text)
        assert str(a) == text and parse(str(a)) == a
        assert parse("  " + text.upper().replace(" ", "   ") + " ") == a
    assert parse("levy 5:2 3:2") == parse("levy 3:2 5:2")
    assert isinstance(parse("die"), Action) and hash(parse("die")) == hash(Action("die"))
    for bad in ["", "fly", "order", "order x", "play", "play joker 3", "play sidestep 3 up", "levy 3",
                "levy 3:2 3:1", "choose", "choose card", "die now", "discard-pass 3"]:
        with pytest.raises(OverlordIllegal) as err:
            parse(bad)
        assert err.value.code == "parse" and isinstance(err.value, ValueError)
    g = mk(BASE4, [FILL, FILL, ["sidestep"] * 2, FILL])
    go(g, "0: ORDER   1")
    assert g.actions[-1] == (0, "order 1")  # the log line <seat>: <action>, canonical


def test_k_time_1_timeout_defaults() -> None:
    """K-TIME-1: windows pass; Coercion target chooses gold; forced discards the first card; command clockwise."""
    g = mk(BASE4, [["coercion", *RET[:3]], FILL, ["sidestep", "victimize"], ["plead-guilty", *FILL[:3]]])
    assert g.timeout_action(0) == "order 1"
    go(g, "0: order 2")
    assert kind(g) == "plead" and all(g.timeout_action(s) == "pass" for s in g.pending())
    settle(g)
    assert g.timeout_action(2).startswith("play ")  # the holder: first legal action, die last
    assert g.legal(2)[-1] == "die"
    go(g, "2: play sidestep 1")
    assert all(g.timeout_action(s) == "pass" for s in g.pending())
    settle(g)
    go(g, "1: play sidestep 0")
    close(g)
    assert kind(g) == "captain" and g.timeout_action(0) == "discard coercion"  # canonical card order
    go(g, "0: discard retaliate")
    settle(g)
    go(g, "0: play coercion 1")
    close(g)
    assert kind(g) == "coercion" and g.timeout_action(1) == "choose gold"
    with pytest.raises(OverlordIllegal):
        g.timeout_action(3)  # not pending


# ---------------------------------------------------------------- contract
def test_gametable_contract_and_illegal_actions_change_nothing() -> None:
    g = Game.random(5, 11)
    assert isinstance(g, GameTable)
    assert g.game == "overlord" and g.players == 5
    assert g.between_rounds() is False
    with pytest.raises(IllegalAction):
        g.next_round()
    seat = next(iter(g.pending()))
    before = g.view(seat).model_dump_json()
    other = next(s for s in range(5) if s not in g.pending())
    for s, text in [(seat, "fly away"), (seat, "order 99"), (other, "pass"), (seat, "die")]:
        with pytest.raises(IllegalAction) as err:
            g.play(s, text)
        assert err.value.code in ("parse", "illegal", "not-pending")
        assert str(err.value)
    assert g.view(seat).model_dump_json() == before
    assert g.standings() == [5] * 5 and g.winners() == []


def test_k_rnd_4_a_room_is_crowned_at_40_or_the_option_30_only() -> None:
    """K-RND-4 names two thresholds; a room set to 9 gold ended in round 2 with a
    coronation (and went onto the leaderboard). A match already stored keeps
    the threshold it was started with (a restart replays it)."""
    assert OverlordOptions(coronation=40).coronation == 40
    assert OverlordOptions.model_validate({"coronation": 30}).coronation == 30
    for bad in (9, 35, 41):
        with pytest.raises(ValueError, match="40 or 30 gold"):
            OverlordOptions.model_validate({"coronation": bad})
    assert OverlordOptions.model_validate({"coronation": 9}, context={"stored": True}).coronation == 9


def test_spec_and_registry() -> None:
    from engine.registry import games

    assert games()["overlord"] is SPEC
    assert SPEC.id == "overlord" and SPEC.title == "Kill the Overlord"
    assert (SPEC.min_players, SPEC.max_players) == (4, 8)
    o = OverlordOptions()
    assert o.ruleset == "house" and o.expansion_ranks == [] and o.coronation is None and o.round_limit == 30
    assert SPEC.describe_options(o)["coronation"] == 40
    t = SPEC.new_table(6, 5, OverlordOptions(expansion_ranks=[8, 1], coronation=30, round_limit=10))
    assert isinstance(t, Game) and t.coronation == 30 and t.round_limit == 10
    assert "tyrant" in t.roles and "truant" not in t.roles  # 6 players: rank 1 not in play
    with pytest.raises(ValueError):
        OverlordOptions(ruleset="nonexistent")
    with pytest.raises(ValueError):
        OverlordOptions(expansion_ranks=[9])
    bot = SPEC.new_bot(0, "heuristic", 1)
    seat = next(iter(t.pending()))
    a = bot.act(t.view(seat), t.legal(seat), True)
    assert a in t.legal(seat)
    assert SPEC.new_bot(0, "random", 1).act(t.view(seat), t.legal(seat), False) is None


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=30))
def test_k_note_1_arbitrary_text_is_legal_or_refused_without_change(text: str) -> None:
    """K-NOTE-1: any string either parses to a legal action or raises IllegalAction, changing nothing."""
    g = Game.random(5, 21)
    seat = min(g.pending())
    before = g.view(None).model_dump_json(), list(g.actions)
    try:
        a = parse(text)
    except IllegalAction:
        with pytest.raises(IllegalAction):
            g.play(seat, text)
        assert (g.view(None).model_dump_json(), g.actions) == before
        return
    if str(a) in g.legal(seat):
        g.play(seat, text)
        assert g.actions[-1] == (seat, str(a))
    else:
        with pytest.raises(IllegalAction):
            g.play(seat, text)
        assert (g.view(None).model_dump_json(), g.actions) == before


def test_random_constructor_takes_options() -> None:
    g = Game.random(8, 3, options=OverlordOptions(expansion_ranks=[3], coronation=30, round_limit=5))
    assert "merchant" in g.roles and g.coronation == 30 and g.round_limit == 5
    with pytest.raises(OverlordIllegal):
        parse("order １")  # decimal ASCII seat numbers only


def test_rule_set_is_data_a_club_can_correct() -> None:
    """The deck, copies, symbols, roles, incomes and thresholds come from the rule set file."""
    from engine.overlord.rules import available_rulesets

    assert "house" in available_rulesets()
    data = load_ruleset().model_dump()
    for c in data["cards"]:
        if c["token"] == "sidestep":
            c["copies"] = 7
    data["coronation"] = 30
    rs = RuleSet.model_validate(data)
    g = Game.random(4, 1, ruleset=rs)
    assert g.total_cards == 46 and g.coronation == 30
    data["cards"][0]["token"] = "joker"
    with pytest.raises(ValueError):
        RuleSet.model_validate(data)
