"""The strong Sultans bot (issue 48): determinised rollouts from its seat's view only.

- A round made from a seat's view (``Round.from_view``) with the true hidden cards
  offers the seat the same moves and shows it the same view as the real one.
- Leak-free: two engine states whose view for the seat is the same (hidden cards
  elsewhere differ), with the same sampler seed, give the same decision and the
  same search statistics.
- Its samples agree with the view: the seat's own card, face-up cards, fresh
  notes, a "not a Slave" note (S-DRV-2), the deck of the table size (S-DECK-1).
- The blunders of the play-test are not made by the strong bot either (S-GRD-2).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.registry import games
from engine.sultans import Round
from engine.sultans.bots import Board
from engine.sultans.cards import CARD_NAMES, base_deck, card_id, neutral_count
from engine.sultans.search import Search, StrongBot, _Informed, _informed_score, searchable
from engine.sultans.views import RoundView


def json_view(r: Round, seat: int) -> RoundView:
    return RoundView.model_validate_json(r.view(seat).model_dump_json())


def deal(cards: str, spare: str, first: int) -> Round:
    return Round.new(deal=cards.split(), spare=spare, first=first)


def to_own_turn(players: int, seed: str, steps: int) -> Round:
    """A random round played at random for ``steps`` turns, stopped at the start of a regular turn."""
    r = Round.random(players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if r.outcome() is not None:
            break
        s = rng.choice(sorted(r.pending()))
        legal = [a for a in r.legal(s) if a != "claim" and not a.startswith(("assassinate", "execute"))]
        r.play(s, rng.choice(legal or r.legal(s)))
    while r.outcome() is None and not searchable(r.view(min(r.pending())), True):
        s = min(r.pending())
        r.play(s, "pass" if "pass" in r.legal(s) else r.legal(s)[0])
    return r


@pytest.mark.parametrize("players", [5, 9, 15])
def test_a_round_from_the_view_with_the_true_cards_is_the_same_for_the_seat(players: int) -> None:
    for k in range(4):
        r = to_own_turn(players, f"fromview:{players}:{k}", 3 + 4 * k)
        if r.outcome() is not None:
            continue
        me = min(r.pending())
        v = json_view(r, me)
        r2 = Round.from_view(v, [card_id(c) for c in r.cards()] + [card_id(r.spare())])
        assert r2.pending() == r.pending() and r2.legal(me) == r.legal(me)
        mine, theirs = r.view(me), r2.view(me)
        assert mine.seats == theirs.seats and mine.crown == theirs.crown and mine.your_bans == theirs.your_bans
        assert (mine.turns_played, mine.active, mine.phase) == (theirs.turns_played, theirs.active, theirs.phase)


def test_from_view_refuses_another_seats_decision() -> None:
    r = deal("assassin slave slave guard sultan", "slave", first=0)
    with pytest.raises(ValueError):
        Round.from_view(json_view(r, 1), [0] * 6)


def test_same_view_same_decision_whatever_the_hidden_cards() -> None:
    """Leak-free (issue 48): the seat at 0 sees only its own Slave. Two deals differ in
    where the other cards lie; the views for seat 0 are equal, and so are its search
    and decision with the same seed."""
    a = deal("slave sultan assassin guard slave slave", "slave", first=0)
    b = deal("slave guard slave slave sultan assassin", "slave", first=0)
    assert a.view(0).model_dump_json() == b.view(0).model_dump_json()
    sa, sb = Search(json_view(a, 0), a.legal(0), "seed"), Search(json_view(b, 0), b.legal(0), "seed")
    for _ in range(6 * len(sa.moves)):
        sa.step()
        sb.step()
    assert sa.total == sb.total and sa.best() == sb.best()
    assert StrongBot(0, 3, samples=4).act(a.view(0), a.legal(0), True) == StrongBot(0, 3, samples=4).act(
        b.view(0), b.legal(0), True
    )


def test_samples_agree_with_the_view() -> None:
    """The seat's card, the face-up Guard, a peeked Sultan and a failed capture
    (S-DRV-2, "not a Slave") hold in every sample; the deck is the table's (S-DECK-1)."""
    r = deal("slave-driver slave guard sultan slave assassin slave", "vizier", first=0)
    r.play(0, "capture 1")  # seat 1 is a Slave: captured, and the Driver takes an extra turn
    r.play(0, "peek 3")
    r.play(2, "detain 4")  # the Guard reveals
    for s in sorted(r.pending()):
        r.play(s, "pass")
    while min(r.pending()) != 0:  # the others peek (or pass) until seat 0's next turn
        s = min(r.pending())
        legal = r.legal(s)
        r.play(s, next((a for a in legal if a.startswith("peek")), "pass" if "pass" in legal else legal[0]))
    assert r.outcome() is None
    v = json_view(r, 0)
    assert searchable(v, True)
    search = Search(v, r.legal(0), 1)
    n = 7
    full = Counter(base_deck(n))
    for _ in range(40):
        cards = search.sample()
        assert cards[0] == card_id("slave-driver") and cards[2] == card_id("guard") and cards[3] == card_id("sultan")
        assert cards[1] == card_id("slave")  # captured: face up
        counts = Counter(cards)
        neutrals = [c for c in cards if CARD_NAMES[c] in ("slave-driver", "belly-dancer", "vizier", "fortune-teller")]
        assert len(neutrals) == neutral_count(n)
        assert all(counts[c] == k for c, k in full.items())
    assert Board(v).card_at(3) == "sultan"


def test_not_a_slave_note_holds_in_every_sample() -> None:
    """S-DRV-2: a failed capture tells everyone the seat holds no Slave."""
    r = deal("slave-driver guard slave sultan slave assassin slave", "vizier", first=0)
    r.play(0, "capture 1")  # seat 1 holds the Guard: not a Slave
    for _ in range(1, 7):
        if r.outcome() is not None or min(r.pending()) == 0:
            break
        p = min(r.pending())
        r.play(p, "peek 0" if "peek 0" in r.legal(p) else r.legal(p)[0])
    while min(r.pending()) != 0:
        p = min(r.pending())
        r.play(p, "pass" if "pass" in r.legal(p) else r.legal(p)[0])
    v = json_view(r, 0)
    if not searchable(v, True):
        pytest.skip("the round did not come back to seat 0's turn")
    search = Search(v, r.legal(0), 2)
    assert 1 in Board(v).not_slave
    assert all(search.sample()[1] != card_id("slave") for _ in range(60))


def test_strong_bot_does_not_strike_past_a_revealed_guard() -> None:
    """S-GRD-2 (issue 44 item 16): the play-test's blunder, for the strong bot too."""
    r = deal("assassin slave slave guard sultan slave slave assassin", "guard", first=3)
    r.play(3, "detain 1")
    for s in sorted(r.pending()):
        r.play(s, "pass")
    r.play(4, "claim")
    for s, a in [(4, "peek 5"), (5, "peek 6"), (6, "peek 7")]:
        r.play(s, a)
    assert r.pending() == {7} and searchable(r.view(7), True)
    assert StrongBot(7, 0, samples=4).act(json_view(r, 7), r.legal(7), True) != "assassinate 4"


def test_the_spec_offers_the_search() -> None:
    spec = games()["sultans"]
    assert spec.search is not None
    r = deal("assassin slave slave guard sultan", "slave", first=0)
    view = spec.search.parse_view(r.view(0).model_dump_json())
    assert spec.search.searchable(view, True)
    search = spec.search.new(view, r.legal(0), "x")
    search.step()
    assert search.best() in r.legal(0)
    assert isinstance(spec.new_bot(0, "strong", 1), StrongBot)


def test_think_searches_within_its_budget_and_from_json() -> None:
    """The pool's worker function: the seat's view as JSON, a time budget (at least one
    rollout), an answer among the legal moves; a fixed sample count gives the same
    answer as the search run by hand (the same seed)."""
    from server.thinking import think

    r = deal("slave sultan assassin guard slave slave", "slave", first=0)
    text = r.view(0).model_dump_json()
    assert think("sultans", text, r.legal(0), "s", 0.0) in r.legal(0)
    search = Search(json_view(r, 0), r.legal(0), "s")
    while search.samples < 3:
        search.step()
    assert think("sultans", text, r.legal(0), "s", 0.0, samples=3) == search.best()


def test_the_rollout_keeps_the_seats_own_notebook() -> None:
    """S-VIEW-2: what the seat learned (a peek, a stale note) is still known in every
    rollout, so a move that uses it later is valued as the seat would play it."""
    r = deal("assassin slave slave guard sultan slave slave", "slave", first=0)
    r.play(0, "peek 4")  # seat 0 learns the Sultan
    for s, a in [(1, "peek 0"), (2, "swap 3"), (3, "peek 1"), (4, "peek 5"), (5, "peek 6"), (6, "peek 0")]:
        r.play(s, a)
    assert r.pending() == {0}
    v = json_view(r, 0)
    search = Search(v, r.legal(0), 1)
    rollout = Round.from_view(v, search.sample())
    search._tell(rollout)
    assert rollout.view(0).notes == v.notes
    assert any(n.seat == 4 and n.card == "sultan" and not n.stale for n in rollout.view(0).notes)


def test_the_other_seats_know_in_a_rollout_what_they_saw_in_public() -> None:
    """S-VIEW-2: a seat that peeked (a public fact) knows the card it saw in each
    sample, the notes follow an open swap (S-SWAP-1), and a hide that may have
    swapped makes them stale (S-SWAP-2); nothing else is known to it."""
    r = deal("sultan slave slave guard assassin slave slave", "slave", first=0)
    r.play(0, "peek 6")
    r.play(1, "peek 0")  # seat 1 knows seat 0's card
    r.play(2, "peek 5")  # seat 2 knows seat 5's card...
    r.play(3, "peek 1")
    r.play(4, "peek 2")
    r.play(5, "swap spare")  # ...which went to the spare, openly
    r.play(6, "peek 3")
    assert r.pending() == {0}
    v = json_view(r, 0)
    search = Search(v, r.legal(0), 1)
    for _ in range(5):
        cards = search.sample()
        rollout = Round.from_view(v, cards)
        search._tell(rollout)
        notes1 = {n.seat: n.card for n in rollout.view(1).notes if not n.stale}
        notes2 = {n.seat: n.card for n in rollout.view(2).notes if not n.stale}
        assert notes1 == {0: "sultan"}
        assert notes2 == {None: CARD_NAMES[cards[7]]}
        assert {n.seat for n in rollout.view(6).notes if not n.stale} == {3}


def test_a_hide_makes_the_other_seats_forget_in_a_rollout() -> None:
    """S-SWAP-2: a revealed seat that hides may have swapped with any hidden seat, so
    what the others peeked at is no longer known to them in a rollout."""
    r = deal("sultan slave slave guard assassin slave slave", "slave", first=0)
    r.play(0, "peek 6")
    r.play(1, "peek 4")  # seat 1 knows the Assassin
    r.play(2, "peek 0")
    r.play(3, "detain 5")  # the Guard reveals
    r.play(5, "pass")
    for s, a in [(4, "peek 2"), (6, "peek 1"), (0, "peek 5"), (1, "peek 2"), (2, "peek 6"), (3, "hide")]:
        assert r.pending() == {s}, (s, r.pending())
        r.play(s, a)
    r.play(4, "peek 3")
    r.play(5, "peek 1")
    r.play(6, "peek 0")
    assert r.pending() == {0}
    v = json_view(r, 0)
    search = Search(v, r.legal(0), 1)
    rollout = Round.from_view(v, search.sample())
    search._tell(rollout)
    assert {n.seat for n in rollout.view(1).notes if not n.stale} == set()
    assert {n.seat for n in rollout.view(6).notes if not n.stale} == {0}  # peeked after the hide


def test_the_search_weighs_each_kind_of_move() -> None:
    """The candidates are the normal bot's choice and its best move of each kind (a peek,
    a swap, the card's Action), not six targets of one Action; successive halving then
    keeps searching the normal bot's choice to the end."""
    r = deal("guard slave slave sultan slave assassin slave assassin guard", "slave", first=0)
    search = Search(json_view(r, 0), r.legal(0), 1)
    kinds = {m.split(" ")[0] for m in search.moves}
    assert {"peek", "swap", "detain"} <= kinds
    default, first = search.default, len(search.moves)
    while search.samples < 12:
        search.step()
    assert default in search.moves and len(search.moves) < first


def test_a_rollouts_view_leaves_out_only_the_log() -> None:
    """The rollouts' bots read views without the log (S-VIEW-4's log is not what they
    decide by); everything else is the seat's view as it is."""
    r = to_own_turn(9, "nolog", 12)
    me = min(r.pending())
    full, short = r.view(me), r.view(me, log=False)
    assert full.log and short.log == ()
    assert full.model_copy(update={"log": ()}) == short


def test_another_move_is_played_only_when_its_gain_stands_out_of_the_noise() -> None:
    """The search plays a move other than the normal bot's only when its mean gain over
    it in the same samples beats the margin by ``z`` standard errors of that gain."""
    r = deal("guard slave slave sultan slave assassin slave assassin guard", "slave", first=0)
    search = Search(json_view(r, 0), r.legal(0), 1, margin=0.0, z=1.0)
    other = next(m for m in search.moves if m != search.default)
    search.moves = [search.default, other]
    search.samples = 4
    search.total = {search.default: 4.0, other: 6.0}  # a gain of 0.5 a sample
    search.sq = {search.default: 0.0, other: 4 * 0.25}  # the same gain in every sample: no spread
    assert search.best() == other
    search.sq[other] = 4.0  # gains of +2, 0, 0, 0: mean 0.5, spread about 0.87, standard error 0.43
    assert search.best() == other
    search.z = 1.5  # 0.5 < 1.5 * 0.43
    assert search.best() == search.default
    search.z, search.margin = 0.0, 0.5  # the gain must beat the margin
    assert search.best() == search.default


def test_a_hidden_sultan_who_would_have_claimed_is_unlikely() -> None:
    """S-SUL-2: at five seats the normal bot's hidden Sultan claims at once; nobody
    claimed, so the search's deals put the Sultan in the spare far more often than
    at any one seat (without the evidence it is anywhere alike)."""
    r = deal("slave assassin slave guard sultan", "slave", first=0)
    v = json_view(r, 0)
    sultan = card_id("sultan")
    uniform = Search(v, r.legal(0), 1, claims=False, unlikely=1.0)
    flat = Counter(uniform.sample().index(sultan) for _ in range(300))
    search = Search(v, r.legal(0), 1, claims=True, unlikely=1.0)
    weighed = Counter(search.sample().index(sultan) for _ in range(300))
    assert flat[5] < 2 * min(flat[s] for s in range(1, 5))
    assert weighed[5] > 3 * max(weighed[s] for s in range(1, 5))


def test_a_seat_that_peeked_rather_than_act_holds_an_acting_card_less_often() -> None:
    """The others play as the normal bot: a hidden seat that peeked, whose card has not
    moved since, holds a card whose Action it would have used (a Guard's Detain,
    S-GRD-1) less often in the search's deals than in uniform deals."""
    r = deal("slave guard slave assassin slave slave guard assassin", "sultan", first=0)
    for s, a in [(0, "peek 2"), (1, "peek 3"), (2, "peek 3"), (3, "peek 4"), (4, "peek 5"), (5, "peek 6"),
                 (6, "peek 7"), (7, "peek 1")]:
        r.play(s, a)
    v = json_view(r, 0)
    search = Search(v, r.legal(0), 1, claims=False, unlikely=0.25)
    assert search._peekers == [1, 3, 4, 5, 6, 7]  # seat 2's card the seat knows
    guard = card_id("guard")
    flat = sum(search._draw()[x] == guard for _ in range(400) for x in search._peekers)
    weighed = sum(search.sample()[x] == guard for _ in range(400) for x in search._peekers)
    assert weighed < 0.9 * flat


def test_a_hide_or_a_swap_ends_what_a_peek_said() -> None:
    """S-SWAP-1/S-SWAP-2: a seat whose card may have moved since it peeked is no evidence."""
    r = deal("slave guard slave assassin slave slave guard assassin", "sultan", first=0)
    for s, a in [(0, "peek 2"), (1, "peek 3"), (2, "swap 1"), (3, "peek 4"), (4, "peek 5"), (5, "peek 6"),
                 (6, "detain 7")]:
        r.play(s, a)
    r.play(7, "pass")  # detained: seat 7's turn is skipped
    search = Search(json_view(r, 0), r.legal(0), 1)
    assert 1 not in search._peekers and 2 not in search._peekers and {3, 4, 5} <= set(search._peekers)


def test_no_guard_stood_beside_an_assassination_nobody_blocked() -> None:
    """S-GRD-2: the normal bot's Guard always blocks when it can; an assassination that
    was not blocked says the hidden free seats beside the Assassin and its target held
    no Guard, so the search's deals seldom put one there (while the cards stay put)."""
    r = deal("slave assassin slave slave slave sultan guard", "vizier", first=1)
    r.play(1, "assassinate 3")
    for s in sorted(r.pending()):
        r.play(s, "pass")
    for s, a in [(2, "peek 0"), (4, "peek 0"), (5, "peek 0"), (6, "peek 0")]:
        assert r.pending() == {s}
        r.play(s, a)
    assert r.pending() == {0}
    search = Search(json_view(r, 0), r.legal(0), 1, claims=False, unlikely=1.0)
    assert search._no_guard == [2, 4]  # beside the Assassin (seat 1) and its target (seat 3); seat 0 is the viewer
    guard = card_id("guard")
    assert sum(search.sample()[x] == guard for _ in range(200) for x in (2, 4)) < 10
    assert sum(search._draw()[x] == guard for _ in range(200) for x in (2, 4)) > 30
    r.play(0, "swap 2")  # an open swap moves seat 2's card: what the window said of it is gone
    for s in (1, 2, 4, 5, 6):
        r.play(s, "peek 0")
    assert r.pending() == {0}
    assert Search(json_view(r, 0), r.legal(0), 1)._no_guard == [4]


def test_a_hidden_free_seat_that_did_not_join_a_revolt_is_seldom_a_slave() -> None:
    """S-SLV-2: the normal bot's hidden free Slave joins a revolt while no Sultan is face
    up; the seats that did not join hold a Slave less often in the search's deals."""
    r = deal("slave slave guard assassin slave sultan vizier", "guard", first=1)
    r.play(1, "revolt")
    for s in sorted(r.pending()):
        r.play(s, "pass")
    for s in (2, 3, 4, 5, 6):
        r.play(s, "peek 0")
    assert r.pending() == {0}
    search = Search(json_view(r, 0), r.legal(0), 1, claims=False, unlikely=1.0)
    assert search._no_slave == [2, 3, 4, 5, 6]
    slave = card_id("slave")
    assert sum(search.sample()[7] == slave for _ in range(200)) > 1.5 * sum(search._draw()[7] == slave for _ in range(200))


def test_a_card_given_away_by_an_open_swap_is_seldom_one_the_normal_bot_keeps() -> None:
    """S-SWAP-1: the normal bot swaps its card away when it looks like losing (a Slave or
    an Assassin while the Loyalists look like winning) and keeps a Guard to detain with;
    the card a seat gave the spare in an open swap is a Guard less often in the search's
    deals than in uniform deals, while it lies there."""
    r = deal("slave assassin guard slave sultan slave guard assassin", "slave", first=1)
    r.play(1, "swap spare")
    for s in range(2, 8):
        r.play(s, "peek 0")
    assert r.pending() == {0}
    search = Search(json_view(r, 0), r.legal(0), 1, claims=False, unlikely=1.0, blocks=False)
    assert search._swappers == [(8, 1)]  # the spare (8) holds what seat 1 gave away
    guard = card_id("guard")
    flat = sum(search._draw()[8] == guard for _ in range(400))
    weighed = sum(search.sample()[8] == guard for _ in range(400))
    assert weighed < 0.6 * flat
    r.play(0, "swap spare")  # the spare's card moved: what seat 1's swap said of it is gone
    for s in range(1, 8):
        r.play(s, "peek 0" if s != 1 else "peek 2")
    assert r.pending() == {0}
    assert Search(json_view(r, 0), r.legal(0), 1)._swappers == []


def test_a_hidden_seat_that_accepted_a_detention_is_seldom_a_guard() -> None:
    """S-GRD-3: the normal bot's Guard always refuses a detention; a hidden seat that
    accepted one holds a Guard far less often in the search's deals (while its card
    stays put)."""
    r = deal("slave guard slave slave sultan assassin guard assassin", "vizier", first=1)
    r.play(1, "detain 2")
    r.play(2, "pass")  # seat 2 accepts: detained
    for s in (3, 4, 5, 6, 7):
        r.play(s, "peek 0")
    assert r.pending() == {0}
    search = Search(json_view(r, 0), r.legal(0), 1, claims=False, unlikely=1.0, swaps=False)
    assert search._accepted == [2]
    guard = card_id("guard")
    assert sum(search.sample()[2] == guard for _ in range(300)) < 0.3 * sum(search._draw()[2] == guard for _ in range(300))


def test_the_candidates_follow_where_the_weighed_deals_put_the_cards() -> None:
    """The candidates are ranked by the normal bot's scoring with the chances the weighed
    deals give, not alike for every unseen place: at five seats nobody claimed, so the
    Sultan likely lies in the spare (S-SUL-2), and a Slave's best swap is with the spare."""
    r = deal("slave assassin slave guard sultan", "slave", first=0)
    v = json_view(r, 0)
    search = Search(v, r.legal(0), 1, informed=64)
    board = _Informed(v, [search.sample() for _ in range(64)])
    assert board.prob(None, "sultan") > 2 * max(board.prob(s, "sultan") for s in range(1, 5))
    swaps = [m for m in r.legal(0) if m.startswith("swap")]
    assert max(swaps, key=lambda a: _informed_score(search.normal, board, a)) == "swap spare"
    assert next(m for m in search.moves if m.startswith("swap")) == "swap spare"
    blind = Search(v, r.legal(0), 1, informed=0)
    assert next(m for m in blind.moves if m.startswith("swap")) != "swap spare"


def test_a_seat_that_peeked_rather_than_swap_its_losing_card_away_holds_one_less_often() -> None:
    """S-PEEK-1, S-SWAP-1: the normal bot swaps away a card on the side that looks like
    losing (a Slave, while the Loyalists look like winning) rather than peek; the hidden
    seats that peeked, whose cards have not moved since, hold a Slave less often in the
    search's deals than in uniform deals, so the spare holds one more often."""
    r = deal("guard slave assassin slave sultan slave vizier", "slave", first=0)
    for s, a in [(0, "peek 1"), (1, "peek 2"), (2, "peek 3"), (3, "peek 4"), (4, "peek 5"), (5, "peek 6"),
                 (6, "peek 0")]:
        r.play(s, a)
    assert r.pending() == {0}
    search = Search(json_view(r, 0), r.legal(0), 1, claims=False, unlikely=0.999, blocks=False, swaps=False)
    assert search._peekers == [2, 3, 4, 5, 6]  # seat 1's card the seat knows
    slave = card_id("slave")
    flat = sum(search._draw()[7] == slave for _ in range(400))
    weighed = sum(search.sample()[7] == slave for _ in range(400))
    assert weighed > 1.2 * flat
