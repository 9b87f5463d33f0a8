"""The normal and easy Sultans bots play exactly as recorded (issue 48).

The strong bot's rollouts play whole rounds with the normal bot, and its
candidates are ranked by the normal bot's move scores, so making those faster
must not change a single decision. Seeded rounds at every table size (5-15
seats: from 6 seats the neutral roles, up to all four at 14-15) are played to
the end by normal bots, and by a mix of normal and easy bots; the whole action
sequence, and at every turn the normal bot's score of each legal move, is
hashed and compared with digests recorded from the code as it played before
its rollouts were made faster. Optional claims (S-SUL-2) are asked of every
seat at every step, as a room does; the bots are given views without the log
(as in a rollout) in half the rounds. Rounds made from a seat's view, as the
strong bot's rollouts make them, are played out and hashed the same way.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.sultans import Round
from engine.sultans.bots import Board, EasyBot, HeuristicBot
from engine.sultans.cards import card_id
from engine.sultans.search import searchable

# players -> digest of the action sequences and scores (recorded before the speed-ups)
NORMAL = {
    5: "f2fcb101ac83e4611fad7025725cf53f",
    6: "afb775e472fc5422e96954a6e7df1112",
    7: "726a5cf293ed278f0a998d21e87439a7",
    8: "7dcecbd75b7e7e348608f86a496da404",
    9: "7b968224a49d417a73adff4777d8a4e4",
    10: "979a7b6d6a3b57e33eebed107d2dd1bc",
    11: "6e7b4fe724d4932289e812101883fbfe",
    12: "0d969e7b914e96d1dcbfe892a7f4b2f2",
    13: "aab76b41ccd74144b067c2bc19b16b3a",
    14: "71945cd479cc19f4f241a2a5bb0ee303",
    15: "065c5e7a444cb4d91aa59e57b4d5780d",
}
MIXED = {
    5: "c7f07a6c5e1a0edaa799f0570e6659e2",
    8: "8e8a020d5490349f2e30d88a69cc0fdc",
    11: "7f2660edaec38768c314ae4bc7bed255",
    15: "3d7eeb83f2389300bf513a7d0185b9ad",
}
ROLLOUTS = {
    5: "0cbac8d02c9de819a2671662dedd9985",
    8: "dccfd9db85463c8802adb57dee1117ba",
    11: "a5bf9b251ca0824fca0f47bac4af0d60",
    15: "f647ec543db9fc8cc0066cea12793192",
}
ROUNDS = 10


def play(players: int, seed: int, easy: bool) -> tuple[list[str], int]:
    """One seeded round to its end; returns the lines hashed and the actions played."""
    r = Round.random(players, f"replay:{players}:{seed}:{easy}")
    bots: list[HeuristicBot | EasyBot] = [
        EasyBot(s, seed) if easy and s % 2 else HeuristicBot(s, seed) for s in range(players)
    ]
    return drive(r, bots, random.Random(f"replay-order:{players}:{seed}"), seed % 2 == 0, HeuristicBot(0, seed))


def drive(
    r: Round, bots: list[HeuristicBot | EasyBot], order: random.Random, log: bool, scorer: HeuristicBot
) -> tuple[list[str], int]:
    """Play ``r`` to its end with ``bots`` (views with the log or not); the lines hashed
    (every move, and at every turn ``scorer``'s score of each legal move) and the actions."""
    players = r.players
    lines: list[str] = []
    actions = 0
    while r.outcome() is None:
        pend = r.pending()
        played = False
        for s in range(players):
            if s in pend:
                continue
            legal = r.legal(s)
            if legal:
                a = bots[s].act(r.view(s, log=log), legal, False)
                if a is not None:
                    r.play(s, a)
                    lines.append(f"{s} {a}")
                    played = True
                    break
        if played:
            actions += 1
            continue
        s = order.choice(sorted(pend))
        v = r.view(s, log=log)
        legal = r.legal(s)
        if v.phase == "turn":
            b = Board(v)
            lines.append(" ".join(f"{a}={scorer._score(b, a)!r}" for a in legal))
        a = bots[s].act(v, legal, True)
        assert a is not None and a in legal
        r.play(s, a)
        lines.append(f"{s} {a}")
        actions += 1
    out = r.outcome()
    assert out is not None
    lines.append(f"{out.reason} {sorted(out.points.items())!r}")
    return lines, actions


def digest(players: int, easy: bool) -> str:
    h = hashlib.sha256()
    for seed in range(ROUNDS):
        lines, _ = play(players, seed, easy)
        h.update("\n".join(lines).encode())
    return h.hexdigest()[:32]


def rollouts(players: int, seed: int) -> tuple[list[str], int]:
    """A seeded round played by normal bots; from each of its seats' own turns after the
    first few, the rest of the round played out from that seat's view with the true
    cards (``Round.from_view``, as the strong bot's rollouts are: the others' notes
    start empty, a dead seat shows its card to nobody) by normal bots without the log."""
    r = Round.random(players, f"replay-rollouts:{players}:{seed}")
    bots = [HeuristicBot(s, seed) for s in range(players)]
    order = random.Random(f"replay-rollouts-order:{players}:{seed}")
    lines: list[str] = []
    actions = 0
    while r.outcome() is None:
        s = order.choice(sorted(r.pending()))
        v = r.view(s)
        legal = r.legal(s)
        if v.turns_played >= 4 and searchable(v, True):
            deal = [card_id(c) for c in r.cards()] + [card_id(r.spare())]
            sub = Round.from_view(v, deal)
            out, n = drive(
                sub, [HeuristicBot(t, v.turns_played) for t in range(players)],
                random.Random(v.turns_played), False, HeuristicBot(s, seed),
            )
            lines += out
            actions += n
        a = bots[s].act(v, legal, True)
        assert a is not None
        r.play(s, a)
    return lines, actions


def rollouts_digest(players: int) -> str:
    h = hashlib.sha256()
    for seed in range(ROUNDS // 2):
        lines, _ = rollouts(players, seed)
        h.update("\n".join(lines).encode())
    return h.hexdigest()[:32]


@pytest.mark.parametrize("players", sorted(NORMAL))
def test_normal_bots_play_as_recorded(players: int) -> None:
    """Normal bots at every seat: the same moves (claims, turns, window answers,
    predictions) and the same move scores as recorded, round after round."""
    assert digest(players, False) == NORMAL[players]


@pytest.mark.parametrize("players", sorted(ROLLOUTS))
def test_rounds_played_out_from_a_seats_view_as_recorded(players: int) -> None:
    """Rounds made from a seat's view with the true cards, as the strong bot's rollouts
    make them, played out by normal bots without the log: as recorded (S-VIEW-1, S-DIE-1:
    there a dead seat's card is shown to nobody)."""
    assert rollouts_digest(players) == ROLLOUTS[players]


@pytest.mark.parametrize("players", sorted(MIXED))
def test_easy_and_normal_bots_play_as_recorded(players: int) -> None:
    """Easy bots (which choose among the normal bot's fair moves) beside normal ones: as recorded."""
    assert digest(players, True) == MIXED[players]


def test_the_recorded_rounds_are_long_and_varied() -> None:
    """The recorded rounds exercise the bots: every kind of move and several endings."""
    words: set[str] = set()
    reasons: set[str] = set()
    actions = 0
    for players in sorted(NORMAL):
        for seed in range(ROUNDS):
            lines, n = play(players, seed, False)
            actions += n
            words |= {line.split()[1] for line in lines[:-1] if "=" not in line}
            reasons.add(lines[-1].split()[0])
    assert actions > 2000
    assert words >= {
        "peek", "swap", "hide", "claim", "pass", "block", "join", "refuse", "assassinate", "execute",
        "detain", "revolt", "capture", "dance", "manipulate", "foresee", "predict",
    }
    assert len(reasons) >= 3


def test_board_neighbours_skip_the_dead_seats() -> None:
    """S-SEAT-1: a seat's left and right are the nearest living seats either way, for any
    pattern of dead seats (a seat alone alive, or none, is its own neighbour)."""
    rng = random.Random(3)
    for players in (5, 9, 15):
        r = Round.random(players, f"ring:{players}")
        v = r.view(0, log=False)
        for k in range(200):
            alive = [rng.random() < 0.6 for _ in range(players)] if k else [False] * players
            seats = tuple(sv.model_copy(update={"alive": alive[i]}) for i, sv in enumerate(v.seats))
            b = Board(v.model_copy(update={"seats": seats}))
            for s in range(players):
                t = (s + 1) % players
                while not alive[t] and t != s:
                    t = (t + 1) % players
                u = (s - 1) % players
                while not alive[u] and u != s:
                    u = (u - 1) % players
                assert (b.left(s), b.right(s)) == (t, u)


def test_board_chances_kept_between_views_are_each_views_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chances of each card at an unknown position, and what holding that card is
    worth, kept between views by what they are worked out from (and emptied when the
    cache is full), are those each view gives: at every step of bot-played rounds, for
    every seat (S-DECK-1, S-DECK-2)."""
    from engine.sultans import bots as bots_module

    monkeypatch.setattr(bots_module, "_PROBS_MAX", 50)
    bots_module._PROBS.clear()
    bots_module._UNKNOWN_VALUES.clear()
    cards = ("sultan", "guard", "assassin", "slave", "slave-driver", "belly-dancer", "vizier", "fortune-teller")

    def check(b: Board) -> None:
        total = max(len(b.unknown_positions()), 1)
        fresh = {c: min(x / total, 1.0) for c, x in b.unaccounted().items()}
        assert [b.unknown_prob(c) for c in cards] == [fresh.get(c, 0.0) for c in cards]
        # and what holding the card at each such position is worth
        bot = HeuristicBot(b.me)
        for s in b.unknown_positions():
            worth = sum(b.prob(s, c) * bot._card_value(b, c, b.odds) for c in cards)
            assert bot._position_value(b, s, b.odds) == worth
        assert len(bots_module._PROBS) <= 50 and len(bots_module._UNKNOWN_VALUES) <= 50

    # seat 0 swapped with the spare and knows it holds a Slave; seat 1 knows only its own
    # Slave: the same cards seen, but not the same unknown positions
    r = Round.new(["slave", "slave", "sultan", "guard", "assassin"], "slave", first=0)
    r.play(0, "swap spare")
    for seat in (0, 1, 0):
        check(Board(r.view(seat, log=False)))
    # a search's round made from a view shows a dead seat's card to nobody: the same cards
    # seen, and as many seats without one, as before the death, but one unknown fewer
    r = Round.new(["assassin", "slave", "sultan", "guard", "slave"], "slave", first=0)
    r.play(0, "assassinate 1")
    check(Board(r.view(2, log=False)))
    for s in sorted(r.pending()):
        r.play(s, "pass")
    assert not r.alive[1] and searchable(r.view(2), True)
    deal = [card_id(c) for c in r.cards()] + [card_id(r.spare())]
    check(Board(Round.from_view(r.view(2), deal).view(2, log=False)))
    check(Board(r.view(2, log=False)))
    # a failed capture says "not a Slave" there (S-DRV-2): worth less to a seat on the rebels' side
    r = Round.new(["slave-driver", "guard", "sultan", "assassin", "slave", "slave"], "slave", first=0)
    r.play(0, "capture 1")
    b = Board(r.view(3, log=False))
    assert b.not_slave == {1} and b.prob(1, "slave") == 0.0 < b.prob(2, "slave")
    check(b)
    for players in (5, 8, 11, 15):
        r = Round.random(players, f"chances:{players}")
        bots = [HeuristicBot(s, 1) for s in range(players)]
        order = random.Random(players)
        while r.outcome() is None:
            for seat in range(players):
                check(Board(r.view(seat, log=False)))
            s = order.choice(sorted(r.pending()))
            a = bots[s].act(r.view(s), r.legal(s), True)
            assert a is not None
            r.play(s, a)


def test_think_tells_how_many_samples_it_searched() -> None:
    """The thinking pool's worker says how many sampled deals it searched (the bot
    benchmark prints them a decision): the count asked for, and nothing where one answer
    is all there is (no search)."""
    from server.thinking import think

    r = Round.new(["slave", "sultan", "assassin", "guard", "slave", "slave"], "slave", first=0)
    text = r.view(0).model_dump_json()
    searched: list[int] = []
    think("sultans", text, r.legal(0), "s", 0.0, samples=3, searched=searched)
    think("sultans", text, ["peek 1"], "s", 0.0, searched=searched)
    think("sultans", text, r.legal(0), "s", 0.0, samples=2, searched=searched)
    assert searched == [3, 2]


def test_a_board_of_another_kind_keeps_its_own_chances() -> None:
    """A board that weighs each unknown place its own way (as the strong bot's informed
    ranking does) gets its own score for a peek and a swap there, never one kept from a
    plain board; and a plain board after it still gets the plain scores."""

    class Tilted(Board):
        def prob(self, s: int | None, card: str) -> float:
            if s is not None and self.card_at(s) is None:
                return 1.0 if card == ("sultan" if s == 2 else "slave") else 0.0
            return super().prob(s, card)

    r = Round.new(["assassin", "slave", "sultan", "guard", "slave"], "slave", first=0)
    v = r.view(0, log=False)
    legal = [a for a in r.legal(0) if a.startswith(("peek", "swap"))]
    bot = HeuristicBot(0)
    plain = bot._scores(Board(v), legal)
    assert len(set(plain[:4])) == 1  # every unseen seat alike
    b = Tilted(v)
    peeks = bot._scores(b, ["peek 2", "peek 3"])
    assert peeks == [bot.peek_base + 0.5 * 1.0 + 0.3 * 0.0, bot.peek_base + 0.5 * 0.0 + 0.3 * 0.0]
    swaps = []
    for a in ("swap 2", "swap 3"):
        b.memo.clear()  # the bot keeps one value for every unseen place of a board
        swaps.append(bot._score(b, a))
    odds = b.odds
    mine = bot._my_value(Board(v), odds)
    assert swaps == [bot._card_value(b, "sultan", odds) - mine, bot._card_value(b, "slave", odds) - mine]
    assert bot._scores(Board(v), legal) == plain
