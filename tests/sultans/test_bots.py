"""The Sultans bots: legal answers to every decision, from views only; matches finish.

- Bots only ever return actions from ``legal``; a pending bot always answers,
  a non-pending one returns ``None`` or an optional action (Claim the Throne).
- Bots read nothing but the view they are given: every view here went
  through JSON first (``RoundView.model_validate_json``), so it carries no
  reference to engine state; the same view gives the same decision.
- Whole matches (``Match`` through the ``GameTable`` interface, bots fed
  ``MatchView``s) finish for every player count, with heuristic, random and
  mixed tables.
- The heuristic bot's preferences in small scenarios: an Assassin strikes a
  known Sultan (S-ASN-1, S-WIN-1), a Guard blocks (S-GRD-2), a Slave joins a
  revolt that wins (S-SLV-2, S-SLV-3), a Sultan claims once no Assassin is
  alive (S-SUL-2, S-SUL-3), a revealed Sultan executes a revealed Assassin
  (S-SUL-1), stale notes are not trusted (S-VIEW-2), a seat on the losing side
  swaps away.
"""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel

from engine.api import Bot, GameTable
from engine.registry import games
from engine.sultans import Match, Round
from engine.sultans.bots import Board, EasyBot, HeuristicBot, RandomBot, make_bot, round_view
from engine.sultans.views import MatchView, RoundView

from .test_playouts import check_outcome, check_views

COUNTS = list(range(5, 16))


def json_view(r: Round, seat: int) -> RoundView:
    """The seat's view after a JSON round trip: plain data, no link to the engine."""
    return RoundView.model_validate_json(r.view(seat).model_dump_json())


def drive_round(r: Round, bots: list[HeuristicBot | RandomBot], rng: random.Random) -> int:
    """Play a round with bots, asking every seat every step; checks each answer. Returns steps."""
    steps = 0
    n = r.players
    while r.outcome() is None:
        pend = r.pending()
        assert pend
        moves: list[tuple[int, str]] = []
        for s in range(n):
            legal = r.legal(s)
            if not legal:
                assert s not in pend
                assert bots[s].act(r.view(s), legal, False) is None
                continue
            v = json_view(r, s)
            assert list(v.legal) == legal
            a = bots[s].act(v, legal, s in pend)
            if s in pend:
                assert a is not None, f"pending seat {s} ({type(bots[s]).__name__}) gave no answer"
            if a is not None:
                assert a in legal, f"seat {s} returned {a!r}, not among {legal}"
                moves.append((s, a))
        # optional moves (claims) are played before answers, like a room would
        optional = [m for m in moves if m[0] not in pend]
        s, a = optional[0] if optional else rng.choice([m for m in moves if m[0] in pend])
        r.play(s, a)
        steps += 1
        assert steps < 20_000
    return steps


@pytest.mark.parametrize("players", COUNTS)
def test_bots_answer_every_decision_with_a_legal_action(players: int) -> None:
    """Heuristic-only, random-only and mixed tables, every seat consulted at every step."""
    for seed in range(3):
        for mix in ("heuristic", "random", "mixed"):
            kinds = [mix if mix != "mixed" else ("heuristic" if s % 2 else "random") for s in range(players)]
            bots = [make_bot(s, k, seed) for s, k in enumerate(kinds)]
            r = Round.random(players, f"bots:{players}:{seed}:{mix}")
            drive_round(r, bots, random.Random(seed))
            assert r.outcome() is not None


@pytest.mark.parametrize("players", COUNTS)
def test_bot_driven_rounds_keep_every_invariant(players: int) -> None:
    """Bots reach positions random play rarely does (reveals, executions, revolts, forced
    Actions); every view, legal list, win check and score there obeys the playout oracles."""
    for seed in range(4):
        r = Round.random(players, f"bot-oracle:{players}:{seed}")
        bots = [make_bot(s, "heuristic" if (s + seed) % 3 else "random", seed) for s in range(players)]
        rng = random.Random(seed)
        while r.outcome() is None:
            check_views(r)
            pend = r.pending()
            optional = [(s, a) for s in range(players) if s not in pend and r.legal(s)
                        for a in [bots[s].act(r.view(s), r.legal(s), False)] if a is not None]
            if optional:
                r.play(*optional[0])
                continue
            s = rng.choice(sorted(pend))
            a = bots[s].act(r.view(s), r.legal(s), True)
            assert a is not None
            r.play(s, a)
        check_outcome(r, players)


def test_bot_decisions_depend_only_on_the_view() -> None:
    """Same seed + same view (even via JSON) = same decision; engine state is never needed."""
    for players in (5, 10, 15):
        r = Round.random(players, f"pure:{players}")
        rng = random.Random(players)
        for _ in range(60):
            if r.outcome() is not None:
                break
            pend = sorted(r.pending())
            for s in pend:
                legal = r.legal(s)
                a1 = HeuristicBot(s, 7).act(r.view(s), legal, True)
                a2 = HeuristicBot(s, 7).act(json_view(r, s), list(legal), True)
                a3 = HeuristicBot(s, 7).act(r.view(s).model_copy(deep=True), list(legal), True)
                assert a1 == a2 == a3
            s = rng.choice(pend)
            r.play(s, rng.choice(r.legal(s)))


@pytest.mark.parametrize("players", COUNTS)
def test_full_matches_finish(players: int) -> None:
    """Whole matches through the GameTable interface (bots see MatchViews) finish and score."""
    spec = games()["sultans"]
    for mix in ("heuristic", "mixed"):
        seed = players * 10 + (mix == "mixed")
        table = spec.new_table(players, seed, spec.options_model.model_validate({"rounds": 3}))
        assert isinstance(table, GameTable)
        bots: list[Bot] = [
            spec.new_bot(s, "heuristic" if mix == "heuristic" or s % 3 == 0 else "random", seed)
            for s in range(players)
        ]
        steps = 0
        while not table.is_over():
            if table.between_rounds():
                table.next_round()
                continue
            pend = sorted(table.pending())
            acted = False
            for s in range(players):
                legal = table.legal(s)
                if not legal:
                    continue
                view: BaseModel = MatchView.model_validate_json(table.view(s).model_dump_json())
                a = bots[s].act(view, legal, s in pend)
                if s in pend:
                    assert a is not None
                if a is not None:
                    assert a in legal
                    table.play(s, a)
                    acted = True
                    break
            assert acted
            steps += 1
            assert steps < 50_000
        assert len(table.winners()) >= 1
        assert isinstance(table, Match) and len(table.history) == 3
        assert sum(table.standings()) == sum(sum(h.points) for h in table.history)


@pytest.mark.parametrize("players", [5, 9, 15])
def test_easy_bots_answer_every_decision_with_a_legal_action(players: int) -> None:
    """The easy level (issue 48): legal moves, every seat consulted at every step, rounds end."""
    for seed in range(3):
        bots: list[HeuristicBot | RandomBot | EasyBot] = [make_bot(s, "easy", seed) for s in range(players)]
        r = Round.random(players, f"easy:{players}:{seed}")
        drive_round(r, bots, random.Random(seed))  # type: ignore[arg-type]
        assert r.outcome() is not None


def test_easy_bot_does_not_throw_itself_on_a_guard_it_sees() -> None:
    """Light sense (S-GRD-2): whatever its dice say, the easy Assassin never strikes past a revealed Guard."""
    r = deal("assassin slave slave guard sultan slave slave assassin", "guard", first=3)
    r.play(3, "detain 1")
    answer_all(r, {})
    r.play(4, "claim")
    for s, a in [(4, "peek 5"), (5, "peek 6"), (6, "peek 7")]:
        r.play(s, a)
    picks = {EasyBot(7, seed).act(json_view(r, 7), r.legal(7), True) for seed in range(40)}
    assert "assassinate 4" not in picks and len(picks) > 3


def test_make_bot_kinds() -> None:
    assert isinstance(make_bot(0, "normal", 1), HeuristicBot)
    assert isinstance(make_bot(0, "easy", 1), EasyBot)
    assert isinstance(make_bot(0, "heuristic", 1), HeuristicBot)
    assert isinstance(make_bot(0, "random", 1), RandomBot)
    with pytest.raises(ValueError):
        make_bot(0, "clever", 1)
    assert round_view(Match.new(5, 1).view(0)).viewer == 0
    with pytest.raises(TypeError):
        round_view(Round.random(5, 1).view(0).seats[0])


def test_random_bot_is_seeded_and_uniform() -> None:
    legal = [f"peek {i}" for i in range(1, 5)]
    r = Round.random(5, 3)
    picks = [RandomBot(0, 11).act(r.view(0), legal, True) for _ in range(3)]
    assert len(set(picks)) == 1, "same seed, same first choice"
    bot = RandomBot(0, 12)
    seen = {bot.act(r.view(0), legal, True) for _ in range(200)}
    assert seen == set(legal)
    assert RandomBot(0, 1).act(r.view(0), [], False) is None


# ------------------------------------------------------- heuristic scenarios


def deal(cards: str, spare: str, first: int) -> Round:
    return Round.new(deal=cards.split(), spare=spare, first=first)


def ask(r: Round, seat: int) -> str | None:
    return HeuristicBot(seat, 0).act(json_view(r, seat), r.legal(seat), seat in r.pending())


def answer_all(r: Round, answers: dict[int, str]) -> None:
    for s in sorted(r.pending()):
        r.play(s, answers.get(s, "pass"))


def test_assassin_strikes_a_revealed_sultan() -> None:
    """S-ASN-1/S-WIN-1: the Sultan claimed; the Assassin's bot kills it."""
    r = deal("slave guard sultan slave assassin slave", "slave", first=4)
    r.play(2, "claim")
    assert ask(r, 4) == "assassinate 2"


def test_assassin_strikes_a_peeked_sultan() -> None:
    """The Assassin remembers (its notebook) that it peeked the Sultan, and strikes it next turn."""
    r = deal("assassin slave slave sultan slave", "guard", first=0)
    r.play(0, "peek 3")
    for s in (1, 2, 3, 4):
        r.play(s, "peek 0" if s != 0 else "peek 1")
    assert r.pending() == {0}
    assert ask(r, 0) == "assassinate 3"


def test_guard_blocks() -> None:
    """S-GRD-2: a Guard adjacent to the target is asked and blocks."""
    r = deal("assassin slave guard sultan slave", "slave", first=0)
    r.play(0, "assassinate 3")
    assert 2 in r.pending()
    assert ask(r, 2) == "block"
    for s in sorted(r.pending()):
        a = ask(r, s)
        assert a is not None and a in r.legal(s)


def test_slave_joins_a_winning_revolt() -> None:
    """S-SLV-2/S-SLV-3: seat 3 is a revealed Slave; seat 1 calls; seat 2 joining wins."""
    r = deal("guard slave slave slave assassin sultan", "guard", first=3)
    r.play(3, "revolt")
    answer_all(r, {})
    r.play(4, "peek 0")
    r.play(5, "peek 0")
    r.play(0, "peek 1")
    r.play(1, "revolt")
    assert ask(r, 2) == "join"
    answer_all(r, {2: "join"})
    out = r.outcome()
    assert out is not None and out.winner == "rebels" and out.reason == "revolution"


def test_sultan_claims_when_no_assassin_is_alive() -> None:
    """S-SUL-2: once the only Assassin is dead (blocked), the hidden Sultan claims at once."""
    r = deal("sultan slave assassin guard slave", "slave", first=2)
    r.play(2, "assassinate 4")
    answer_all(r, {3: "block"})
    assert r.outcome() is None and not r.view(None).seats[2].alive
    assert r.legal(0) == ["claim"] and 0 not in r.pending()
    assert ask(r, 0) == "claim"


def test_sultan_waits_while_a_known_assassin_is_free() -> None:
    """The Sultan peeked the Assassin (next in turn order, free): claiming now would lose."""
    r = deal("slave sultan assassin slave slave guard slave slave", "slave", first=1)
    r.play(1, "peek 2")
    assert r.pending() == {2}
    assert ask(r, 1) is None


def test_revealed_sultan_executes_a_revealed_assassin() -> None:
    """S-SUL-1: a revealed Sultan on its turn executes the revealed Assassin (S-SUL-3: the
    claim during seat 1's turn put the crown in front of seat 1, so it has not fired yet)."""
    r = deal("sultan slave assassin guard slave", "slave", first=0)
    r.play(0, "peek 1")
    r.play(0, "claim")  # during seat 1's turn
    assert r.view(None).crown == 1
    r.play(1, "peek 2")
    r.play(2, "assassinate 4")
    answer_all(r, {})
    r.play(3, "peek 1")
    assert r.outcome() is None and r.pending() == {0}
    assert ask(r, 0) == "execute 2"


def test_stale_notes_are_not_trusted() -> None:
    """S-VIEW-2: after a secret swap the bot no longer 'knows' the card it peeked."""
    r = deal("slave sultan assassin guard slave", "slave", first=0)
    r.play(0, "peek 1")
    b = Board(json_view(r, 0))
    assert b.card_at(1) == "sultan"
    r.play(1, "claim")  # seat 1 reveals; on its turn it hides and may swap
    r.play(1, "hide swap 3")
    b = Board(json_view(r, 0))
    assert b.card_at(1) is None and b.card_at(3) is None
    assert any(note.stale for note in json_view(r, 0).notes)


def test_losing_side_swaps_away() -> None:
    """A hidden Slave that sees the crown about to fire (S-SUL-3) swaps for the Guard it
    peeked, and so ends the round on the winning side (S-SCORE-1)."""
    r = deal("slave guard sultan assassin slave slave", "slave", first=0)
    r.play(0, "peek 1")
    r.play(2, "claim")  # during seat 1's turn: the crown lies in front of seat 1
    for s, a in [(1, "peek 3"), (2, "peek 3"), (3, "peek 4"), (4, "peek 5"), (5, "peek 0")]:
        r.play(s, a)
    assert r.pending() == {0} and r.view(None).crown == 1
    assert ask(r, 0) == "swap 1"
    r.play(0, "swap 1")
    out = r.outcome()
    assert out is not None and out.winner == "loyalists" and out.reason == "crown"
    assert out.points[0] == 1


# ------------------------------------------- blunders a person would not make


def test_assassin_does_not_strike_past_a_revealed_guard() -> None:
    """S-GRD-2 (issue 44 item 16): the Sultan claimed beside a revealed Guard; an Assassin that
    strikes it is blocked and dies. The bot sees the Guard and does not strike the Sultan."""
    r = deal("assassin slave slave guard sultan slave slave assassin", "guard", first=3)
    r.play(3, "detain 1")  # the Guard reveals (S-ACT-1)
    answer_all(r, {})
    r.play(4, "claim")
    for s, a in [(4, "peek 5"), (5, "peek 6"), (6, "peek 7")]:
        r.play(s, a)
    assert r.pending() == {7} and "assassinate 4" in r.legal(7)
    assert ask(r, 7) != "assassinate 4"


def test_second_assassin_does_not_follow_the_first_into_the_block() -> None:
    """S-GRD-2: the first Assassin struck the revealed Sultan and the hidden Guard beside it
    blocked (revealing) and the Assassin died; the second Assassin, next in turn, has seen it
    and does not strike the Sultan again."""
    r = deal("slave slave vizier guard sultan slave assassin assassin", "guard", first=4)
    r.play(4, "claim")
    r.play(4, "peek 5")
    r.play(5, "peek 6")
    r.play(6, "assassinate 4")
    answer_all(r, {3: "block"})
    pub = r.view(None)
    assert not pub.seats[6].alive and pub.seats[3].revealed and r.outcome() is None
    assert r.pending() == {7} and "assassinate 4" in r.legal(7)
    assert ask(r, 7) != "assassinate 4"


def test_assassin_does_not_strike_a_revealed_guard_beside_it() -> None:
    """S-GRD-2: a Guard that is the target blocks when it sits beside the Assassin."""
    r = deal("guard assassin slave sultan slave", "slave", first=0)
    r.play(0, "detain 3")
    answer_all(r, {})
    assert r.pending() == {1}
    assert ask(r, 1) != "assassinate 0"


def test_belly_dancer_keeps_the_guard_from_blocking() -> None:
    """S-GRD-4: the Assassin peeked the Guard beside the Sultan, but a revealed Belly Dancer sits
    beside that Guard, so it cannot block: the Assassin strikes the claimed Sultan (S-ASN-1)."""
    r = deal("slave belly-dancer guard sultan slave assassin", "slave", first=5)
    r.play(5, "peek 2")
    r.play(0, "peek 1")
    r.play(1, "dance")
    r.play(2, "peek 0")
    r.play(3, "claim")
    r.play(3, "peek 0")
    r.play(4, "peek 0")
    assert r.pending() == {5} and r.outcome() is None
    b = Board(json_view(r, 5))
    assert b.card_at(2) == "guard" and b.guard_disabled(2) and 2 not in b.possible_blockers(5, 3)
    assert ask(r, 5) == "assassinate 3"


def test_forced_assassin_never_strikes_a_known_teammate_first() -> None:
    """S-VIZ-2: a Vizier forced the Assassin at seat 11 to strike; every target sits beside
    a Guard it can see (S-GRD-2), so it dies whoever it strikes, but it does not strike a
    seat it knows holds a Rebel card (a Slave or an Assassin)."""
    r = Round.random(12, "scan51")
    plays = [(0, "swap 1"), (1, "swap 3"), (2, "swap spare"), (3, "swap 9"), (4, "swap 2"), (5, "peek 1"),
             (6, "swap 9"), (7, "swap 11"), (8, "peek 1"), (9, "swap spare"), (10, "detain 1"), (1, "refuse"),
             (11, "peek 9"), (0, "detain 6"), (6, "pass"), (1, "peek 4"), (2, "peek 7"), (3, "manipulate loyalists 11")]
    for s, a in plays:
        r.play(s, a)
    assert r.pending() == {11} and all(a.startswith("assassinate") for a in r.legal(11))
    v = json_view(r, 11)
    b = Board(v)
    rebels = [t for t in range(12) if t != 11 and r.view(None).seats[t].alive and b.card_at(t) in ("slave", "assassin")]
    assert rebels, "the scenario needs a known Rebel among the targets"
    for seed in range(40):  # (its dice break ties: none may land on a teammate)
        a = HeuristicBot(11, seed).act(v, r.legal(11), True)
        assert a is not None and int(a.split()[-1]) not in rebels
