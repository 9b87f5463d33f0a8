"""Non-interference (Hypothesis): what a seat has not seen cannot change what it sees.

Two deals A and B that differ only at positions (seats or the spare) whose
cards the observer has never seen -- a permutation of those cards, and/or an
unseen neutral replaced by a neutral that is not in play (S-DECK-2: nobody is
told which neutrals are in play) -- must give the observer, and spectators,
byte-identical views (``model_dump_json``), and the same pending seats
(S-REACT-2: who is asked never depends on who could react).

The same must hold after any sequence of actions that does not show the
observer one of the differing cards. The test plays such a sequence on both
rounds in lockstep: at each step it picks a seat pending in both (or a seat
that may claim the throne in both) and an action that is legal in *both*
rounds, excluding only actions whose public result depends on a differing
card (an assassination, detention, capture or manipulation of a differing
seat; a peek, foresee or swap that would show the observer a differing
card). Actions of differing seats are allowed whenever they are legal in both
deals (peeks, open and secret swaps, window answers), so a leak of a card,
of a reaction someone *could* have made, or of a secret swap partner fails
the test. The set of differing positions is recomputed after every step from
the engine (cards move with swaps). S-VIEW-1, S-VIEW-2, S-VIEW-4, S-SWAP-2,
S-REACT-2, S-DECK-2. A third test checks that window answers stay private until the
window resolves (S-REACT-3).
"""

from __future__ import annotations

import pickle
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.sultans import Round
from engine.sultans.cards import CARD_NAMES, NEUTRALS, ROLE_TABLE

NEUTRAL_NAMES: list[str] = [CARD_NAMES[c] for c in NEUTRALS]


def base_deck(players: int) -> list[str]:
    sultans, guards, assassins, slaves, _ = ROLE_TABLE[players]
    return ["sultan"] * sultans + ["guard"] * guards + ["assassin"] * assassins + ["slave"] * slaves


def positions(r: Round) -> list[str]:
    """Cards by location: seats 0..n-1, then the spare (index n)."""
    return [*r.cards(), r.spare()]


def differing(a: Round, b: Round) -> set[int]:
    return {i for i, (x, y) in enumerate(zip(positions(a), positions(b), strict=True)) if x != y}


def seat_of(action: str) -> int | None:
    last = action.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else None


def safe(action: str, actor: int, observer: int, diff: set[int], n: int) -> bool:
    """``action`` by ``actor`` (legal in both rounds) cannot show ``observer`` a differing card."""
    words = action.split()
    word = words[0]
    target = seat_of(action)
    spare_loc = n if action.endswith("spare") else None
    if word in ("assassinate", "detain", "capture", "manipulate", "execute"):
        # results (a death reveals, a capture reveals or not, a refusal depends on the card)
        return target is not None and target not in diff
    if word == "peek":
        return actor != observer or target not in diff
    if word in ("swap", "hide"):
        partner = spare_loc if spare_loc is not None else target
        if partner is None:  # plain hide: the card stays put
            return True
        if actor == observer:
            return partner not in diff
        if partner == observer:
            return actor not in diff
        return True
    if word == "foresee":
        return actor != observer or not diff.intersection(int(x) for x in words[1:])
    return True  # revolt, dance, predict, block, join, refuse, claim, pass


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[str], list[str], int, int]:
    """(deal A with spare last, deal B with spare last, observer, first seat)."""
    n = draw(st.integers(5, 15), label="players")
    neutrals = draw(st.permutations(NEUTRAL_NAMES))[: ROLE_TABLE[n][4]]
    a = draw(st.permutations(base_deck(n) + neutrals), label="deal A")
    observer = draw(st.integers(0, n - 1), label="observer")
    first = draw(st.integers(0, n - 1), label="first")
    others = [i for i in range(n + 1) if i != observer]
    chosen = draw(st.lists(st.sampled_from(others), min_size=2, max_size=n, unique=True), label="permuted")
    perm = draw(st.permutations(chosen))
    b = list(a)
    for src, dst in zip(chosen, perm, strict=True):
        b[dst] = a[src]
    unused = [c for c in NEUTRAL_NAMES if c not in a]
    held = [i for i in others if b[i] in NEUTRAL_NAMES]
    if unused and held and draw(st.booleans(), label="swap a neutral"):
        i = draw(st.sampled_from(held))
        b[i] = draw(st.sampled_from(unused))
    if a == b:  # the permutation changed nothing visible: force a difference among the others
        pairs = [(i, j) for i in others for j in others if i < j and a[i] != a[j]]
        i, j = draw(st.sampled_from(pairs))
        b[i], b[j] = a[j], a[i]
    return a, b, observer, first


def same_view(a: Round, b: Round, seat: int | None) -> bool:
    return a.view(seat).model_dump_json() == b.view(seat).model_dump_json()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), data=st.data())
def test_unseen_cards_do_not_change_views(deal: tuple[list[str], list[str], int, int], data: st.DataObject) -> None:
    a_cards, b_cards, observer, first = deal
    n = len(a_cards) - 1
    ra = Round.new(deal=a_cards[:n], spare=a_cards[n], first=first)
    rb = Round.new(deal=b_cards[:n], spare=b_cards[n], first=first)
    diff = differing(ra, rb)
    assert diff and observer not in diff
    # the deals really differ: a differing seat (if any; maybe only the spare) sees its own card
    differing_seats = [p for p in diff if p < n]
    assert not differing_seats or any(not same_view(ra, rb, p) for p in differing_seats)
    steps = data.draw(st.integers(0, 60), label="steps")
    for _ in range(steps + 1):
        if ra.outcome() is not None or rb.outcome() is not None:
            # a round ended (only by actions that do not involve differing cards): both did, the same way
            oa, ob = ra.outcome(), rb.outcome()
            assert oa is not None and ob is not None
            assert (oa.winner, oa.reason) == (ob.winner, ob.reason)
            return
        assert same_view(ra, rb, observer), f"seat {observer}'s view depends on cards it never saw"
        assert same_view(ra, rb, None), "the spectator view depends on hidden cards"
        assert ra.pending() == rb.pending(), "who is pending depends on hidden cards"
        diff = differing(ra, rb)
        assert observer not in diff
        pend = sorted(ra.pending())
        claimers = [s for s in range(n) if s not in pend and "claim" in ra.legal(s) and "claim" in rb.legal(s)]
        moves: list[tuple[int, str]] = [(s, "claim") for s in claimers]
        for s in pend:
            both = set(rb.legal(s))
            moves.extend((s, x) for x in ra.legal(s) if x in both and safe(x, s, observer, diff, n))
        if not moves:
            return  # e.g. a forced seat whose every Action would touch a differing card
        seat, action = data.draw(st.sampled_from(moves), label="move")
        ra.play(seat, action)
        rb.play(seat, action)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(5, 15), data=st.data())
def test_spectators_see_nothing_of_any_deal(n: int, data: st.DataObject) -> None:
    """S-VIEW-3, S-DECK-2: before any reveal, spectators see the same view for any two deals
    of the same player count (any permutation, any choice of neutrals) and the same first seat."""
    first = data.draw(st.integers(0, n - 1))
    turns = data.draw(st.integers(0, 3))
    views = []
    for _ in range(2):
        neutrals = data.draw(st.permutations(NEUTRAL_NAMES))[: ROLE_TABLE[n][4]]
        cards = data.draw(st.permutations(base_deck(n) + neutrals))
        r = Round.new(deal=cards[:n], spare=cards[n], first=first)
        for _ in range(turns):  # a few timeout-default turns (public peeks)
            (s,) = r.pending()
            r.play(s, r.timeout_action(s))
        views.append(r)
    assert same_view(views[0], views[1], None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(5, 15), seed=st.integers(0, 10**6))
def test_window_answers_stay_private_until_resolved(n: int, seed: int) -> None:
    """S-REACT-3: while a window waits for others, a seat's answer (pass, block, join,
    refuse) changes nothing anyone else sees -- only who still owes an answer, which is
    the same whatever it answered."""
    r = Round.random(n, f"answers:{seed}")
    rng = random.Random(seed)
    compared = 0
    while r.outcome() is None and compared < 6:
        pend = sorted(r.pending())
        view = r.view(None)
        if view.window is not None and len(pend) >= 2:
            for s in pend:
                answers = [a for a in r.legal(s) if a != "claim"]
                if len(answers) < 2:
                    continue
                blob = pickle.dumps(r)
                seen = set()
                for a in answers:
                    c = pickle.loads(blob)
                    c.play(s, a)
                    seen.add(tuple(c.view(t).model_dump_json() for t in [None, *range(n)] if t != s))
                assert len(seen) == 1, f"seat {s}'s answer {answers} is visible before the window resolves"
                compared += 1
        s = rng.choice(pend)
        legal = r.legal(s)
        r.play(s, rng.choice(legal))
