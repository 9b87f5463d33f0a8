"""Bots: random and heuristic (own view only), behaviour in typical spots, and a small fixed-seed match."""

from __future__ import annotations

from ovl_helpers import FILL, RET, close, go, kind, mk, settle

from engine.api import Bot
from engine.overlord import Game
from engine.overlord.bots import EasyBot, HeuristicBot, RandomBot, make_bot


def ask(bot: Bot, g: Game, seat: int) -> str | None:
    return bot.act(g.view(seat), g.legal(seat), seat in g.pending())


def test_random_bot_uniform_over_legal_and_silent_when_not_pending() -> None:
    g = Game.random(6, 4)
    seat = min(g.pending())
    bot = RandomBot(seat, 1)
    picks = {ask(bot, g, seat) for _ in range(60)}
    assert picks <= set(g.legal(seat)) and len(picks) > 1
    other = next(s for s in range(6) if s not in g.pending())
    assert ask(RandomBot(other, 1), g, other) is None


def test_heuristic_ruler_commands_the_weakest_and_never_pleads() -> None:
    g = mk(["overlord", "captain", "squire", "peasant"], [FILL, FILL, ["sidestep"] * 2, ["retaliate"]], deck=[])
    assert ask(HeuristicBot(0), g, 0) == "order 3"  # fewest cards
    g2 = mk(["overlord", "peasant", "squire", "knight"], [["plead-guilty", *FILL[:3]], FILL, ["sidestep"] * 2, FILL])
    go(g2, "0: order 1")
    assert kind(g2) == "plead" and "plead-guilty" in g2.legal(0)
    assert ask(HeuristicBot(0), g2, 0) == "pass"


def test_heuristic_pleads_guilty_with_shields_to_spare() -> None:
    g = mk(["overlord", "peasant", "squire", "knight"], [FILL, FILL, ["sidestep"] * 2,
                                                          ["plead-guilty", "sidestep", "capitalize", "sidestep"]])
    go(g, "0: order 1")
    assert ask(HeuristicBot(3), g, 3) == "plead-guilty"
    assert ask(HeuristicBot(2), g, 2) == "pass"


def test_heuristic_ruler_retaliates_a_card_sending_him_the_order() -> None:
    g = mk(["overlord", "peasant", "squire", "knight"], [RET, FILL, ["sidestep"] * 2, FILL], gold=[5, 0, 5, 5])
    go(g, "0: order 1")
    settle(g)
    go(g, "1: play sidestep 0")
    assert kind(g) == "retaliate"
    assert ask(HeuristicBot(0), g, 0) == "retaliate"
    assert ask(HeuristicBot(2), g, 2) == "pass"


def test_heuristic_keeps_shields_and_prefers_gold() -> None:
    g = mk(["overlord", "peasant", "squire", "knight"], [FILL, ["capitalize", "retaliate", "sidestep", "revenge"],
                                                         ["sidestep"] * 2, FILL], gold=[5, 0, 5, 5])
    go(g, "0: order 1")
    settle(g)
    a = ask(HeuristicBot(1), g, 1)
    assert a is not None and a.startswith("play ") and a != "die"


def test_heuristic_dies_early_when_the_exchange_pays() -> None:
    """One shield left, the Captain (no cards) will likely die: dying first gets the better role."""
    hands = [FILL, [], ["sidestep"], FILL]
    g = mk(["overlord", "captain", "squire", "peasant"], hands, deck=[])
    go(g, "0: order 2")
    settle(g)
    assert g.legal(2) == ["play sidestep 0", "play sidestep 1", "die"]
    assert ask(HeuristicBot(2), g, 2) == "die"
    # with shields to spare, surviving is better: he passes
    g2 = mk(["overlord", "captain", "squire", "peasant"], [FILL, [], ["sidestep", "sidestep"], FILL], deck=[])
    go(g2, "0: order 2")
    settle(g2)
    a = ask(HeuristicBot(2), g2, 2)
    assert a is not None and a.startswith("play sidestep")


def test_heuristic_takes_revenge_on_the_ruler() -> None:
    g = mk(["overlord", "peasant", "squire", "knight"], [FILL, ["revenge", *RET[:3]], ["sidestep"] * 2, FILL],
           gold=[5, 0, 5, 5])
    go(g, "0: order 1")
    settle(g)
    assert ask(HeuristicBot(1), g, 1) == "play revenge"
    go(g, "1: play revenge")
    close(g)
    assert g.round == 2  # the ruler died with him: the phase ended


def test_make_bot_kinds() -> None:
    assert isinstance(make_bot(0, "random", 1), RandomBot)
    assert isinstance(make_bot(0, "heuristic", 1), HeuristicBot)
    assert isinstance(make_bot(0, "normal", 1), HeuristicBot)
    assert isinstance(make_bot(0, "easy", 1), EasyBot)


def test_easy_bots_play_whole_games_legally() -> None:
    """The easy level (issue 48): legal answers only, and games end."""
    for i in range(6):
        players = 4 + i % 5
        g = Game.random(players, 7000 + i, round_limit=10)
        bots = [make_bot(s, "easy", i) for s in range(players)]
        while not g.is_over():
            s = min(g.pending())
            a = bots[s].act(g.view(s), g.legal(s), True)
            assert a is not None and a in g.legal(s)
            g.play(s, a)
        assert g.outcome() is not None


def test_heuristic_beats_random_on_fixed_seeds() -> None:
    """A small fixed-seed match (the benchmark, bench/overlord_bots.py, measures properly)."""
    wins = 0
    games = 30
    for i in range(games):
        players = 5
        g = Game.random(players, 9000 + i, round_limit=15)
        hero = i % players
        bots = [make_bot(s, "heuristic" if s == hero else "random", i) for s in range(players)]
        while not g.is_over():
            s = min(g.pending())
            a = bots[s].act(g.view(s), g.legal(s), True)
            assert a is not None and a in g.legal(s)
            g.play(s, a)
        wins += g.winners() == [hero]
    assert wins / games >= 2 / 5
