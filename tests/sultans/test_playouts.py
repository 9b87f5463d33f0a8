"""Property tests: random playouts of Sultans of Karaya for every player count.

Checked at every step of thousands of random rounds (5-15 players):

- the engine never crashes; a round in play always waits for someone and
  every pending seat has a legal action (S-TURN-2, S-REACT-2);
- every action ``legal()`` lists is accepted (exhaustively on copies for a
  sample of positions; the playout itself plays random ones);
- malformed, garbage and not-legal-now strings are rejected with an
  ``IllegalAction`` (a ``ValueError``) and change nothing: every seat's view,
  the spectator's, ``pending`` and ``legal`` are byte-identical before and after
  (S-NOTE-1); case and spacing variants of legal actions are accepted;
- cards are conserved: the multiset of held cards plus the spare never
  changes (S-DECK-3, S-SWAP-1, S-SWAP-2); every seat's view shows exactly its
  own card (S-VIEW-1) and the round-end reveal matches (S-VIEW-3);
- rounds end within the turn limit (S-WIN-4), scores are 0-2 for living
  seats on the winning side only (S-SCORE-1, S-DIE-1);
- seed + ordered action list replays a round (and a match) exactly;
- golden counts (perft-like, ``golden.txt``): for fixed seeds the number of
  legal actions at every step and the final outcome.

Regenerate ``golden.txt`` only after a deliberate rules change::

    .venv/bin/python -m tests.sultans.test_playouts --regen
"""

from __future__ import annotations

import pickle
import random
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from engine.api import GameTable, IllegalAction
from engine.sultans import Match, Round
from engine.sultans.actions import canonical
from engine.sultans.cards import ROLE_TABLE
from engine.sultans.views import RoundView

GOLDEN = Path(__file__).with_name("golden.txt")
COUNTS = list(range(5, 16))

Step = tuple[int, str]


# ----------------------------------------------------------------- driving


def choose(r: Round, rng: random.Random, claim_rate: float = 0.05) -> Step:
    """A random next action: usually a pending seat's, sometimes an optional claim."""
    pend = sorted(r.pending())
    assert pend, "a round in play always waits for someone"
    if rng.random() < claim_rate:
        optional = [s for s in range(r.players) if s not in pend and r.legal(s)]
        if optional:
            s = rng.choice(optional)
            assert r.legal(s) == ["claim"], "only Claim the Throne is offered to a seat nobody waits for"
            return s, "claim"
    s = pend[0] if len(pend) == 1 else rng.choice(pend)
    legal = r.legal(s)
    assert legal, f"pending seat {s} has no legal action"
    return s, rng.choice(legal)


def snapshot(r: Round) -> str:
    """Everything observable from outside: all views (JSON), pending and legal lists."""
    parts = [r.view(s).model_dump_json() for s in [None, *range(r.players)]]
    parts.append(repr(sorted(r.pending())))
    parts.extend(repr(r.legal(s)) for s in range(r.players))
    parts.append(repr(r.outcome()))
    return "\n".join(parts)


def deck(r: Round) -> Counter[str]:
    return Counter([*r.cards(), r.spare()])


def check_step_invariants(r: Round, dealt: Counter[str]) -> None:
    """S-DECK-3 conservation and basic shape, cheap enough for every step."""
    assert deck(r) == dealt, "cards held + spare must be the cards dealt"
    if r.outcome() is None:
        pend = r.pending()
        assert pend
        for s in pend:
            assert r.legal(s), f"pending seat {s} has no legal action"
        assert r.turn is not None
        # S-WIN-4: the limit is checked when turn order steps onto a seat, so only a
        # Slave Driver's extra turns (inside the last turn) may run past it
        assert r.turns_played <= r.turn_limit or r.view(None).extra_turn


GARBAGE_WORDS = [
    "peek", "swap", "hide", "execute", "detain", "assassinate", "revolt", "capture",
    "dance", "manipulate", "foresee", "predict", "block", "join", "refuse", "claim",
    "pass", "spare", "loyalists", "rebels", "sultan", "-1", "99", "1000", "0", "1",
    "2", "3", "7", "14", "15", "x", "", "３", "٣", "\x00", "\x1b[2J", "peek3",
]


def garbage(rng: random.Random, n: int) -> str:
    kind = rng.randrange(4)
    if kind == 0:  # random characters
        return "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(0, 12)))
    if kind == 1:  # a word soup
        return " ".join(rng.choice(GARBAGE_WORDS) for _ in range(rng.randrange(0, 5)))
    if kind == 2:  # well formed, any seat (often not legal now)
        word = rng.choice(["peek", "swap", "execute", "detain", "assassinate", "capture", "hide swap"])
        return f"{word} {rng.randrange(0, n + 3)}"
    return rng.choice(["block", "join", "refuse", "claim", "pass", "revolt", "dance", "hide",
                       "swap spare", "predict rebels", "manipulate loyalists 0", "foresee 0 1 2"])


def check_garbage(r: Round, rng: random.Random, tries: int = 6) -> None:
    """Malformed or not-legal-now input raises IllegalAction and changes nothing."""
    before = snapshot(r)
    n = r.players
    for _ in range(tries):
        seat = rng.randrange(n)
        text = garbage(rng, n)
        try:
            legal_now = canonical(text) in r.legal(seat)
        except IllegalAction:
            legal_now = False
        if legal_now:
            continue
        with pytest.raises(IllegalAction) as err:
            r.play(seat, text)
        assert isinstance(err.value, ValueError)
        assert str(err.value), "the error says what was wrong"
    for seat, text in [(-1, "pass"), (n, "pass"), (n + 7, "claim")]:
        with pytest.raises(IllegalAction):
            r.play(seat, text)
    after = snapshot(r)
    assert after == before, "a rejected action changed the state"


def check_all_legal_accepted(r: Round, rng: random.Random, cap: int = 40) -> None:
    """Every listed action of every seat is accepted (on copies); spelling variants too."""
    blob = pickle.dumps(r)
    for s in range(r.players):
        legal = r.legal(s)
        sample = legal if len(legal) <= cap else rng.sample(legal, cap)
        for a in sample:
            c = pickle.loads(blob)
            text = a if rng.random() < 0.7 else "  " + a.upper().replace(" ", "   ") + " "
            c.play(s, text)  # must not raise
            assert deck(c) == deck(r)


def playout(players: int, seed: int | str, *, turn_limit: int = 200, garbage_every: int = 0,
            exhaustive_every: int = 0) -> tuple[Round, list[Step]]:
    r = Round.random(players, seed, turn_limit=turn_limit)
    rng = random.Random(f"playout:{seed}")
    dealt = deck(r)
    assert sum(dealt.values()) == players + 1  # S-DECK-1
    steps: list[Step] = []
    check_step_invariants(r, dealt)
    while r.outcome() is None:
        i = len(steps)
        if garbage_every and i % garbage_every == 0:
            check_garbage(r, rng)
        if exhaustive_every and i % exhaustive_every == 0:
            check_all_legal_accepted(r, rng)
        s, a = choose(r, rng)
        r.play(s, a)
        steps.append((s, a))
        check_step_invariants(r, dealt)
        assert len(steps) < 50 * turn_limit * players, "a round must end"
    return r, steps


def check_outcome(r: Round, players: int) -> None:
    out = r.outcome()
    assert out is not None and r.turn is None and not r.pending()
    assert set(out.points) == set(range(players))
    n_extra = sum(1 for e in r.view(None).log if e.kind == "extra-turn")
    assert out.turns <= r.turn_limit + n_extra, "S-WIN-4: rounds end at the turn limit"
    if out.winner is None:
        assert out.reason == "turn-limit" and out.turns >= r.turn_limit
        assert all(p == 0 for p in out.points.values()), "S-WIN-4: no winner, every seat scores 0"
    assert [out.points[s] for s in range(players)] == expected_points(r), "S-SCORE-1"
    for s in range(players):
        assert out.points[s] in (0, 1, 2), "S-SCORE-1"
        if not out.alive[s]:
            assert out.points[s] == 0, "S-DIE-1: dead seats score nothing"
    # S-VIEW-3: at round end every card, the spare included, is shown to everyone
    for viewer in [None, *range(players)]:
        v = r.view(viewer)
        assert v.phase == "over" and v.legal == () and v.pending == ()
        assert [sv.card for sv in v.seats] == list(out.cards)
        assert v.spare_card == out.spare
    assert Counter([*out.cards, out.spare]) == deck(r)
    check_end_reason(r)


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("players", COUNTS)
def test_random_playouts(players: int) -> None:
    """Thousands of rounds in total: never crash, conserve cards, end, score sanely."""
    reasons: Counter[str] = Counter()
    for seed in range(400):
        r, _ = playout(players, f"p{players}:{seed}", garbage_every=97 if seed % 10 == 0 else 0)
        check_outcome(r, players)
        out = r.outcome()
        assert out is not None
        reasons[out.reason] += 1
    # the random walk reaches several ways of ending (a playout that never did would be suspicious)
    assert len(reasons) >= 3, reasons


def swap_back_bans(v: RoundView, y: int) -> list[int]:
    """S-SWAP-3 recomputed from seat ``y``'s own log: X's swap (open, or secret and told to
    ``y``) that took ``y``'s card bans X until the end of ``y``'s next turn (S-TURN-4: also a
    skipped one; S-DRV-2: an extra turn counts)."""
    bans: dict[int, bool] = {}  # partner -> expires at the end of the turn now running
    in_turn = False
    for e in v.log:
        if e.kind in ("turn", "skip"):
            if in_turn:
                bans = {x: exp for x, exp in bans.items() if not exp}
                in_turn = False
            if e.seat == y:
                if e.kind == "skip":
                    bans = {}
                else:
                    bans = dict.fromkeys(bans, True)
                    in_turn = True
        elif e.kind in ("swap", "hide-swap") and e.target == y and not e.spare and e.seat not in (None, y):
            bans[e.seat] = False
    return sorted(bans)


def expected_legal(v: RoundView) -> set[str]:
    """Every legal action of the viewer, recomputed from its own view alone (perft-like
    oracle for S-TURN-2/3, S-PEEK-1, S-SWAP-1..4, S-SUL-1/2, S-GRD-1..4, S-ASN-1, S-SLV-1/2,
    S-DRV-2, S-DNC-1, S-VIZ-2/3, S-FTL-2, S-REACT-2/3)."""
    p = v.viewer
    assert p is not None
    n = v.players
    seats = v.seats
    card = v.your_card
    alive = [sv.alive for sv in seats]
    rev = [sv.revealed for sv in seats]
    det = [sv.detained for sv in seats]
    cap = [sv.captured for sv in seats]
    out: set[str] = set()
    if v.phase == "over":
        return out

    def neighbours(g: int) -> set[int]:
        return set(living_neighbours(alive, g)) - {g}

    def dancer_blocks(g: int) -> bool:
        return any(seats[t].card == "belly-dancer" and rev[t] and not det[t] for t in neighbours(g))

    def actions() -> set[str]:
        acts: set[str] = set()
        others = [t for t in range(n) if t != p and alive[t]]
        if card == "sultan":
            acts |= {f"execute {t}" for t in others if rev[t] and seats[t].card in ("assassin", "slave")}
        elif card == "guard" and not dancer_blocks(p):
            acts |= {f"detain {t}" for t in others if not det[t]}
        elif card == "assassin":
            acts |= {f"assassinate {t}" for t in others}
        elif card == "slave":
            acts.add("revolt")
        elif card == "slave-driver":
            acts |= {f"capture {t}" for t in others if not rev[t] or (seats[t].card == "slave" and not cap[t])}
        elif card == "belly-dancer" and not rev[p]:
            acts.add("dance")
        elif card == "vizier":
            targets = [t for t in others if not rev[t] and not det[t]]
            declared = seats[p].declared if rev[p] else None
            for side in ("loyalists", "rebels"):
                if declared is None or declared == side:
                    acts |= {f"manipulate {side} {t}" for t in targets}
        elif card == "fortune-teller":
            hidden = [t for t in others if not rev[t]]
            acts |= {" ".join(["foresee", *map(str, c)]) for c in combinations(hidden, min(3, len(hidden)))}
        return acts

    if card == "sultan" and alive[p] and not rev[p]:
        out.add("claim")
    if p not in v.pending:
        return out
    if v.phase == "turn":
        me = seats[p]
        if not me.must_hide:
            out |= {f"peek {t}" for t in range(n) if t != p and alive[t] and not rev[t]}
        partners = [t for t in range(n) if t != p and alive[t] and not rev[t] and not det[t] and t not in v.your_bans]
        if rev[p]:
            out |= {"hide", "hide swap spare"} | {f"hide swap {t}" for t in partners}
        else:
            out |= {"swap spare"} | {f"swap {t}" for t in partners}
        if not me.must_hide and not me.exhausted:
            out |= actions()
    elif v.phase == "forced":
        out |= actions()
    elif v.phase == "predict":
        out |= {"predict loyalists", "predict rebels"}
    else:
        w = v.window
        assert w is not None
        out.add("pass")
        free = not det[p] and not cap[p]
        if w.kind == "block" and card == "guard" and free and not dancer_blocks(p):
            assert w.target is not None
            if w.actor in neighbours(p) or (p != w.target and w.target in neighbours(p)):
                out.add("block")
        elif w.kind == "join" and card == "slave" and not rev[p] and free:
            out.add("join")
        elif w.kind == "detention" and card in ("sultan", "guard"):
            out.add("refuse")
    return out


def check_views(r: Round) -> None:
    """Every seat's view and the spectator's tell the truth and nothing more (S-VIEW-1..4)."""
    n = r.players
    where = [*r.cards(), r.spare()]
    pend = sorted(r.pending())
    for s in range(n):
        v = r.view(s)
        assert v.viewer == s and v.your_card == where[s], "S-VIEW-1: a seat knows its own card"
        assert v.spare_card is None
        for t, sv in enumerate(v.seats):
            if t == s or sv.revealed or not sv.alive:
                assert sv.card == where[t]
            else:
                assert sv.card is None, f"seat {s} sees hidden seat {t}'s card"
        assert list(v.legal) == r.legal(s) and list(v.pending) == pend
        assert set(v.legal) == expected_legal(v), f"seat {s}: legal actions differ from the rules"
        for note in v.notes:  # S-VIEW-2: a note not marked stale is still true
            if not note.stale:
                actual = where[n if note.seat is None else note.seat]
                assert (actual != note.card) if note.negated else (actual == note.card), note
        for e in v.log:  # S-VIEW-4: private events only for their audience
            assert e.audience is None or s in e.audience, e
        bans = swap_back_bans(v, s)
        assert list(v.your_bans) == bans, "S-SWAP-3: bans as the seat's own log implies"
        for x in bans:
            assert f"swap {x}" not in v.legal and f"hide swap {x}" not in v.legal
    spect = r.view(None)
    assert spect.your_card is None and spect.spare_card is None
    for note in spect.notes:  # only what everyone saw: a face-up card that hid, a failed capture
        assert note.how in ("revealed", "not-slave"), note
        if not note.stale:
            actual = where[n if note.seat is None else note.seat]
            assert (actual != note.card) if note.negated else (actual == note.card), note
    assert all(sv.card is None for sv in spect.seats if sv.alive and not sv.revealed)
    assert all(e.audience is None for e in spect.log), "S-VIEW-3: spectators see public events only"
    assert all(spect.seats[p].alive for p in pend), "S-REACT-3: dead seats are never pending"
    check_win_state(r, where, spect)
    for p in pend:
        legal = r.legal(p)
        default = r.timeout_action(p)  # S-TIME-1
        assert default in legal
        if spect.phase == "window":
            assert "pass" in legal, "S-NOTE-1: pass is always an answer"
            assert default == "pass"
        elif spect.phase == "turn":  # S-TURN-2: there is no pass, but always a swap or a hide
            assert ("swap spare" in legal) != ("hide swap spare" in legal and "hide" in legal)
            peeks = [f"peek {(p + k) % n}" for k in range(1, n) if f"peek {(p + k) % n}" in legal]
            assert default == (peeks[0] if peeks else "swap spare" if "swap spare" in legal else "hide")
        elif spect.phase == "predict":
            assert legal == ["predict loyalists", "predict rebels"]
            assert default == "predict loyalists"
        else:
            assert spect.phase == "forced" and spect.forced == p
            assert not any(a.startswith(("peek", "swap", "hide", "pass")) for a in legal), "S-VIZ-2"
            assert default == legal[0]
    w = spect.window
    if w is not None:  # S-REACT-2: who is asked never depends on who could react
        if w.kind == "detention":
            assert w.asked == (w.target,)
        else:
            living = tuple(t for t in range(n) if spect.seats[t].alive and t != w.actor)
            assert w.asked == living, f"{w.kind} window asks {w.asked}, expected {living}"
        assert set(w.waiting) == set(pend) and set(w.waiting) <= set(w.asked)


def living_neighbours(alive: list[bool], s: int) -> tuple[int, int]:
    n = len(alive)
    lt = (s + 1) % n
    while not alive[lt]:
        lt = (lt + 1) % n
    rt = (s - 1) % n
    while not alive[rt]:
        rt = (rt - 1) % n
    return lt, rt


def win_facts(where: list[str], v: RoundView) -> tuple[bool, bool, bool]:
    """(revolution, no Assassin alive and fewer than three free Slaves, Sultan alive and revealed)
    computed from the true cards and the public tokens (S-SLV-3, S-WIN-2, S-SUL-3)."""
    n = v.players
    alive = [sv.alive for sv in v.seats]
    free = [not sv.detained and not sv.captured for sv in v.seats]
    rslave = {s for s in range(n) if alive[s] and v.seats[s].revealed and free[s] and where[s] == "slave"}
    revolution = False
    for b in rslave:
        a, c = living_neighbours(alive, b)
        if a != c and a in rslave and c in rslave:
            revolution = True
    assassins = any(alive[s] and where[s] == "assassin" for s in range(n)) or where[n] == "assassin"
    free_slaves = sum(1 for s in range(n) if alive[s] and free[s] and where[s] == "slave") + (where[n] == "slave")
    no_rebels = not assassins and free_slaves < 3
    crowned = any(alive[s] and v.seats[s].revealed and where[s] == "sultan" for s in range(n))
    return revolution, no_rebels, crowned


def check_win_state(r: Round, where: list[str], spect: RoundView) -> None:
    """During play no win condition holds (S-WIN-3: wins are checked after every event), and
    the crown is out exactly while the Sultan is alive and revealed (S-SUL-3)."""
    revolution, no_rebels, crowned = win_facts(where, spect)
    assert not revolution, "S-SLV-3: a revolution stands but the round goes on"
    assert not no_rebels, "S-WIN-2: no Assassin and fewer than three free Slaves, but the round goes on"
    assert (spect.crown is not None) == crowned, "S-SUL-3: the crown is out iff the Sultan is alive and revealed"
    alive = [sv.alive for sv in spect.seats]
    assert all(where[s] != "sultan" for s in range(r.players) if not alive[s]), "S-WIN-1: a dead Sultan ends the round"


def check_end_reason(r: Round) -> None:
    """The reason a round ended holds in its final state; the crown never passed a seat it was due at."""
    out = r.outcome()
    assert out is not None
    v = r.view(None)
    n = r.players
    where: list[str] = [*out.cards, out.spare or ""]
    revolution, no_rebels, crowned = win_facts(where, v)
    if out.reason == "sultan-killed":
        assert out.winner == "rebels"
        assert any(e.kind == "death" and e.card == "sultan" for e in v.log)
    elif out.reason == "revolution":  # S-WIN-3 order: a killed Sultan would have come first
        assert out.winner == "rebels" and revolution
        assert not any(e.kind == "death" and e.card == "sultan" for e in v.log)
    elif out.reason == "no-rebels":
        assert out.winner == "loyalists" and no_rebels and not revolution
    elif out.reason == "crown":
        assert out.winner == "loyalists" and crowned
    else:
        assert out.reason == "turn-limit" and out.winner is None
    # S-TURN-5 (1): each step of turn order (a regular turn or a skip; dead seats in between
    # are passed over) must not land on the crown's seat -- landing there ends the round
    # S-TURN-5 (2): order goes clockwise, passing over only dead seats; a skip is owed to a
    # prison token got since the seat's last step, or to a capture not yet released
    crown: int | None = None
    prev = (r.first - 1) % n
    prison: set[int] = set()
    captives: set[int] = set()
    for e in v.log:
        if e.kind == "crown":
            crown = e.target
        elif e.kind == "detained":
            assert e.seat is not None
            prison.add(e.seat)
        elif e.kind == "captured":
            assert e.target is not None
            captives.add(e.target)
        elif e.kind == "release":
            captives -= set(e.seats)
        elif (e.kind == "turn" and not e.extra) or e.kind == "skip":
            assert e.seat is not None
            t = (prev + 1) % n
            while True:
                assert t != crown, f"turn order stepped onto seat {t} with the crown and play went on"
                if t == e.seat:
                    break
                assert not out.alive[t], f"turn order passed over living seat {t}"
                t = (t + 1) % n
            prev = e.seat
            if e.kind == "skip":
                assert e.seat in (prison if e.cause == "detained" else captives), e
            else:
                assert e.seat not in prison and e.seat not in captives, f"seat {e.seat} should be skipped"
            prison.discard(e.seat)


SIDE_WHEN = {"sultan": ("loyalists", "loyalists"), "guard": ("loyalists", "loyalists"),
             "assassin": ("rebels", "rebels"), "slave": ("rebels", "rebels"),
             "slave-driver": ("rebels", "loyalists"), "belly-dancer": ("loyalists", "rebels")}


def expected_points(r: Round) -> list[int]:
    """S-SCORE-1 / S-VIZ-1 / S-FTL-1 recomputed from the final public view."""
    out = r.outcome()
    assert out is not None
    v = r.view(None)
    n = r.players
    pts = [0] * n
    if out.winner is None:
        return pts
    vizier = None
    for s in range(n):
        sv = v.seats[s]
        card = out.cards[s]
        if not sv.alive:
            continue
        if card in SIDE_WHEN:
            side = SIDE_WHEN[card][1 if sv.revealed else 0]
            if side == out.winner:
                pts[s] = 2 if sv.revealed else 1
        elif card == "vizier":
            if sv.revealed:
                pts[s] = 2 if sv.declared == out.winner else 0
            else:
                vizier = s
        elif card == "fortune-teller":
            pts[s] = 2 if sv.revealed and sv.prediction == out.winner else 0
    if vizier is not None:
        living = [t for t in range(n) if v.seats[t].alive]
        i = living.index(vizier)
        neighbours = {living[(i - 1) % len(living)], living[(i + 1) % len(living)]} - {vizier}
        pts[vizier] = 1 if any(pts[t] == 2 for t in neighbours) else 0
    return pts


@pytest.mark.parametrize("players", COUNTS)
def test_deck_table_and_truthful_views(players: int) -> None:
    """S-DECK-1/2/3: the deal follows the table (neutrals random, no repeats); at every step
    of whole rounds every view shows exactly what its seat may know (check_views)."""
    for seed in range(20):
        r = Round.random(players, seed)
        sultans, guards, assassins, slaves, neutrals = ROLE_TABLE[players]
        c = deck(r)
        assert (c["sultan"], c["guard"], c["assassin"], c["slave"]) == (sultans, guards, assassins, slaves)
        others = [k for k in c if k not in ("sultan", "guard", "assassin", "slave")]
        assert len(others) == neutrals and all(c[k] == 1 for k in others), "neutrals without repeats"
        if seed >= 8:
            continue
        rng = random.Random(seed)
        while r.outcome() is None:
            check_views(r)
            r.play(*choose(r, rng))
        check_outcome(r, players)


@pytest.mark.parametrize("players", COUNTS)
def test_every_legal_action_is_accepted(players: int) -> None:
    """Every action in legal() is accepted, at many positions, for every seat (on copies)."""
    for seed in range(2):
        r, _ = playout(players, f"x{players}:{seed}", exhaustive_every=3, garbage_every=5)
        check_outcome(r, players)


@pytest.mark.parametrize("players", COUNTS)
def test_turn_limit(players: int) -> None:
    """S-WIN-4: with the minimum limit (50) random rounds still end, at the latest at the
    limit, and some of them by the limit (no winner, 0 points each)."""
    hit = 0
    for seed in range(40):
        r, _ = playout(players, f"t{players}:{seed}", turn_limit=50)
        check_outcome(r, players)
        out = r.outcome()
        assert out is not None
        hit += out.reason == "turn-limit"
    assert hit >= 1
    # only peeks (the S-TIME-1 default turn): nothing happens until the limit ends the round
    r = Round.random(players, f"idle{players}", turn_limit=50)
    while r.outcome() is None:
        (s,) = r.pending()
        r.play(s, r.timeout_action(s))
    out = r.outcome()
    assert out is not None and out.winner is None and out.reason == "turn-limit"
    assert out.turns == 50 and sum(out.points.values()) == 0


@pytest.mark.parametrize("players", COUNTS)
def test_replay_round_from_seed_and_actions(players: int) -> None:
    """Seed + ordered action list reproduces a round exactly (all views, every seat)."""
    for seed in range(4):
        r, steps = playout(players, f"r{players}:{seed}")
        again = Round.random(players, f"r{players}:{seed}")
        for i, (s, a) in enumerate(steps):
            assert r.outcome() is not None
            again.play(s, a)
            if i == len(steps) // 2:
                mid = snapshot(again)
                third = Round.random(players, f"r{players}:{seed}")
                for s2, a2 in steps[: i + 1]:
                    third.play(s2, a2)
                assert snapshot(third) == mid
        assert snapshot(again) == snapshot(r)


def test_replay_match_from_seed_and_actions() -> None:
    """A whole match replays from its seed and the ordered play/next_round calls."""
    for players in (5, 9, 15):
        m = Match.new(players=players, seed=f"m{players}", rounds=3)
        assert isinstance(m, GameTable)
        rng = random.Random(players)
        script: list[Step | None] = []
        while not m.is_over():
            if m.between_rounds():
                m.next_round()
                script.append(None)
                continue
            s, a = choose(m.round, rng)
            m.play(s, a)
            script.append((s, a))
        assert len(m.view(None).history) == 3
        assert sum(m.standings()) == sum(sum(h.points) for h in m.view(None).history)
        again = Match.new(players=players, seed=f"m{players}", rounds=3)
        for step in script:
            if step is None:
                again.next_round()
            else:
                again.play(*step)
        for viewer in [None, *range(players)]:
            assert again.view(viewer).model_dump_json() == m.view(viewer).model_dump_json()
        assert again.winners() == m.winners() and m.winners()
        with pytest.raises(IllegalAction):
            m.play(0, "pass")


def expected_match_winners(history: list[list[int]]) -> list[int]:
    """S-MATCH-1: highest total; tie -> the tied seat whose latest 2-point round is latest;
    shared if that round is the same for several, or if none of them ever scored 2."""
    n = len(history[0])
    totals = [sum(h[s] for h in history) for s in range(n)]
    best = max(totals)
    tied = [s for s in range(n) if totals[s] == best]
    if len(tied) == 1:
        return tied
    latest = {s: max((i for i, h in enumerate(history) if h[s] == 2), default=-1) for s in tied}
    top = max(latest.values())
    return tied if top < 0 else [s for s in tied if latest[s] == top]


@pytest.mark.parametrize("players", [5, 6, 9, 12, 15])
def test_match_totals_and_winners(players: int) -> None:
    """S-MATCH-1: totals add up the rounds; winners and tie-breaks as the rule says, in
    fixed-length and first-to-N matches (ends after the round someone reaches N, at most 15)."""
    for k in range(6):
        first_to = 4 if k % 2 else None
        m = Match.new(players=players, seed=f"mt{players}:{k}", rounds=3, first_to=first_to)
        rng = random.Random(k)
        while not m.is_over():
            if m.between_rounds():
                m.next_round()
                continue
            m.play(*choose(m.round, rng))
        hist = [list(h.points) for h in m.history]
        totals = [sum(h[s] for h in hist) for s in range(players)]
        assert m.standings() == totals
        assert m.winners() == expected_match_winners(hist)
        if first_to is None:
            assert len(hist) == 3
        else:
            reached = [i for i in range(len(hist)) if max(sum(h[s] for h in hist[: i + 1]) for s in range(players)) >= first_to]
            assert len(hist) == (reached[0] + 1 if reached else 15)
        with pytest.raises(IllegalAction):
            m.next_round()


# ------------------------------------------------------------ golden counts

GOLDEN_CASES = [(5, 1), (5, 2), (6, 3), (7, 4), (8, 5), (9, 6), (10, 7), (11, 8), (12, 9),
                (13, 10), (14, 11), (15, 12), (15, 13)]


def golden_line(players: int, seed: int) -> str:
    """One deterministic playout as a line: legal counts per step and the outcome."""
    r = Round.random(players, f"golden:{seed}")
    rng = random.Random(f"golden:{players}:{seed}")
    counts: list[int] = []
    while r.outcome() is None:
        # choices from sorted lists, so the line depends on the rules, not on listing order
        pend = sorted(r.pending())
        optional = [t for t in range(players) if t not in pend and r.legal(t)]
        s = rng.choice(optional) if optional and rng.random() < 0.05 else rng.choice(pend)
        legal = sorted(r.legal(s))
        counts.append(len(legal))
        r.play(s, rng.choice(legal))
    out = r.outcome()
    assert out is not None
    pts = ",".join(str(out.points[s]) for s in range(players))
    return (f"players={players} seed={seed} first={r.first} steps={len(counts)} total={sum(counts)} "
            f"winner={out.winner} reason={out.reason} turns={out.turns} points={pts} "
            f"counts={','.join(map(str, counts))}")


def golden_text() -> str:
    head = ("# Golden counts (perft-like) for Sultans of Karaya random playouts.\n"
            "# One line per (players, seed): legal actions offered to the acting seat at each step,\n"
            "# and the final outcome. Checked by tests/sultans/test_playouts.py::test_golden_counts.\n"
            "# Regenerate only after a deliberate rules change:\n"
            "#   .venv/bin/python -m tests.sultans.test_playouts --regen\n")
    return head + "".join(golden_line(p, s) + "\n" for p, s in GOLDEN_CASES)


def _fields(line: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in line.split())


@pytest.mark.parametrize(("players", "seed"), GOLDEN_CASES)
def test_golden_counts(players: int, seed: int) -> None:
    """Legal-action counts at every step and the outcome match golden.txt for fixed seeds."""
    stored = {}
    for line in GOLDEN.read_text().splitlines():
        if line and not line.startswith("#"):
            f = _fields(line)
            stored[(int(f["players"]), int(f["seed"]))] = f
    want = stored[(players, seed)]
    got = _fields(golden_line(players, seed))
    wc, gc = want.pop("counts").split(","), got.pop("counts").split(",")
    for i, (w, g) in enumerate(zip(wc, gc, strict=False)):
        assert w == g, f"step {i}: {g} legal actions, golden says {w}"
    assert len(wc) == len(gc)
    assert got == want


@pytest.mark.long
@pytest.mark.parametrize("players", COUNTS)
def test_random_playouts_long(players: int, request: pytest.FixtureRequest) -> None:
    """The same checks over many more seeds; runs only when asked: ``pytest -m long``."""
    if "long" not in str(request.config.getoption("markexpr", "")):
        pytest.skip("long random playouts: run with -m long")
    for seed in range(5000):
        r, _ = playout(players, f"slow{players}:{seed}", garbage_every=53 if seed % 20 == 0 else 0,
                       exhaustive_every=11 if seed % 200 == 0 else 0)
        check_outcome(r, players)


if __name__ == "__main__":
    if sys.argv[1:] == ["--regen"]:
        GOLDEN.write_text(golden_text())
        print(f"wrote {GOLDEN}")
    else:
        print(golden_text(), end="")
