"""The strong Sultans bot: determinised rollouts from its seat's view only.

On its own regular turn the bot samples the cards it cannot see, consistent
with its view (face-up cards, its own card, its fresh notes, "not a Slave"
notes, the deck of the table size) and weighed by how likely the others' public
play is in each deal when they play as the normal bot does (a hidden Sultan
who would have claimed, a seat that peeked where it would have used its card's
Action or swapped it away, a card given away by an open swap that the normal
bot would have kept, a Guard that would have blocked or refused a detention, a
Slave that would have joined are unlikely: sampling-importance-resampling),
builds a :class:`~engine.sultans.round.Round` in that state
(:meth:`Round.from_view`), plays each candidate move there and
then the rest of the round with the normal bot (:class:`HeuristicBot`) in every
seat, and keeps the points its seat scored (S-SCORE-1). The candidates are the
moves the normal bot's scoring ranks best when it reads the chances of each
unseen card from the weighed deals (where the Sultan likely is, which swap
likely gains), the best of each kind first. Every candidate meets
the same samples (common random numbers); the move with the best mean wins if
it beats the normal bot's own choice by a margin, else the normal bot's choice
is played. Everything else (windows, forced
Actions, predictions, extra turns, Claim the Throne) it answers as the normal
bot does.

The engine state is never read: a :class:`Search` starts from a view (a JSON
round trip changes nothing) and a seed, so two states with the same view give
the same decision. Pure and clock-free: the caller says how many samples
(:meth:`Search.step` runs one); the server's thinking pool runs steps until
its time budget is spent.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from pydantic import BaseModel

from engine.sultans.bots import Board, HeuristicBot, round_view
from engine.sultans.cards import (
    GUARD,
    NEUTRALS,
    SLAVE,
    SULTAN,
    base_deck,
    card_id,
    neutral_count,
)
from engine.sultans.round import Round
from engine.sultans.views import RoundView

__all__ = ["Search", "StrongBot", "searchable"]

ROLLOUT_STEPS = 400  # a rollout longer than this scores what the heuristic expects (rounds end far sooner)
MARGIN = 0.0  # points a round another move must gain over the normal bot's choice to be played instead
CANDIDATES = 10  # the normal bot's best few moves are searched; the rest are not worth the samples
PRUNE_AT = (8, 16, 24)  # after this many samples the worse half of the moves still searched is dropped
Z = 0.0  # and by this many standard errors of its gain
CLAIMS = True  # a deal where a hidden Sultan's holder would have claimed is unlikely
UNLIKELY_CLAIM = 0.1  # (this likely, relative to one where it would not)
UNLIKELY = 0.25  # a deal where a seat that peeked would have used its card's Action instead, per such seat
BLOCKS = True  # a deal with a Guard that could have blocked an unblocked assassination is unlikely
UNLIKELY_BLOCK = 0.05
UNLIKELY_JOIN = 0.3  # a deal with a Slave that did not join a revolt (the normal bot joins unless it looks lost)
UNLIKELY_PEEK = 0.5  # a deal where a seat that peeked would have swapped its card away instead
UNLIKELY_REFUSE = 0.05  # a deal with a Guard that accepted a detention (the normal bot's Guard always refuses)
SWAPS = True  # a deal where a seat gave away by an open swap a card the normal bot would have kept is unlikely
UNLIKELY_SWAP = 0.25  # (this likely, per such swap)
INFORMED = 32  # weighed deals drawn to rank the candidates (0: rank them as the normal bot does)
TRIES = 8  # deals drawn for one sample at most (then the likeliest of them)


class PublicPlay(NamedTuple):
    """What the others' public play says of the cards (see :meth:`Search._public_play`)."""

    peekers: list[int]
    no_guard: list[int]
    no_slave: list[int]
    accepted: list[int]
    swapped: list[tuple[int, int]]  # (where the card lies, the seat that gave it away)


def searchable(view: BaseModel, pending: bool) -> bool:
    """True when the strong bot searches this decision: its own regular turn."""
    v = round_view(view)
    me = v.viewer
    return (
        pending and me is not None and v.phase == "turn" and not v.extra_turn
        and v.playing == me and v.active == me
    )


class Search:
    """One decision's search: ``step()`` adds one sample, ``best()`` answers."""

    def __init__(
        self,
        view: BaseModel,
        legal: list[str],
        seed: int | str,
        candidates: int = CANDIDATES,
        margin: float = MARGIN,
        prune_at: tuple[int, ...] = PRUNE_AT,
        z: float = Z,
        claims: bool = CLAIMS,
        unlikely: float = UNLIKELY,
        tries: int = TRIES,
        blocks: bool = BLOCKS,
        swaps: bool = SWAPS,
        informed: int = INFORMED,
    ) -> None:
        v = round_view(view)
        if v.viewer is None:
            raise ValueError("a search needs a seat's view")
        self.v: RoundView = v
        self.me: int = v.viewer
        self.board = Board(v)
        # the seed and the view decide everything: the same view searches the same samples
        self.rng = random.Random(f"sultans-search:{seed}:{v.model_dump_json()}")
        self.normal = HeuristicBot(self.me, seed)
        acts = [a for a in legal if a != "claim"]
        self.default = self.normal.act(v, legal, True) or acts[0]
        self.margin, self.prune_at, self.z = margin, prune_at, z
        self.samples = 0
        self._deck = self._unseen_pool()
        self._next = 0  # the candidate the next step plays in the current sample
        self._cards: list[int] = []
        self._seed = 0
        self._pending: dict[str, float] = {}
        self._mine = self._own_notes()
        self._theirs = self._their_knowledge()
        self.claims, self.unlikely, self.tries = claims, unlikely, tries
        self.unlikely_claim = UNLIKELY_CLAIM
        self._judged: dict[tuple[object, ...], float] = {}
        play = self._public_play()
        self._no_slave = play.no_slave if blocks else []
        self._peekers = play.peekers if unlikely < 1.0 else []
        self._no_guard = play.no_guard if blocks else []
        self._accepted = play.accepted if blocks else []
        self._swappers = play.swapped if swaps else []
        # the normal bot's scores with the chances of each card where this seat cannot see
        # it read from the weighed deals (where the Sultan likely is, which swap likely
        # gains): the candidates are the moves that look best to the normal bot so informed
        board = self.board
        if informed > 0:
            board = _Informed(v, [self.sample() for _ in range(informed)])
        ranked = sorted(acts, key=lambda a: -_informed_score(self.normal, board, a))
        # the best move of each kind first (a peek, a swap or hide, each Action), so the
        # search weighs different plans rather than six targets of one
        kinds: dict[str, str] = {}
        for a in ranked:
            kinds.setdefault(_kind(a), a)
        self.moves = list(dict.fromkeys([self.default, *kinds.values(), *ranked]))[: max(candidates, 1)]
        self.total = dict.fromkeys(self.moves, 0.0)
        self.sq = dict.fromkeys(self.moves, 0.0)  # sum of squared gains over the normal bot's move, per sample

    # ----------------------------------------------------------- sampling

    def _unseen_pool(self) -> tuple[list[int | None], list[int], list[int]]:
        """The positions this seat cannot see (seats, ``None`` = the spare), the
        known cards (``-1`` where unknown) and the cards left for the unknown ones."""
        b, n = self.board, self.v.players
        known: list[int] = [-1] * (n + 1)
        for s in range(n):
            name = b.card_at(s)
            if name is not None:
                known[s] = card_id(name)
        if None in b.known:
            known[n] = card_id(b.known[None])
        deck = base_deck(n)
        seen_neutrals = {c for c in known if c in NEUTRALS}
        pool = list(deck)
        for c in known:
            if c >= 0 and c in pool:
                pool.remove(c)
        # the neutrals in play (S-DECK-2): those seen, then random unseen ones for the rest
        missing = neutral_count(n) - len(seen_neutrals)
        self._neutral_choices = [c for c in NEUTRALS if c not in seen_neutrals]
        self._missing_neutrals = max(missing, 0)
        unknown: list[int | None] = [s if s < n else None for s in range(n + 1) if known[s] < 0]
        return unknown, known, pool

    def sample(self) -> list[int]:
        """One deal consistent with the view, drawn in proportion to how likely the others'
        play makes it when they play as the normal bot does (sampling-importance-resampling:
        one of ``tries`` uniform deals, in proportion to that likelihood): a hidden Sultan's
        holder who would have claimed (S-SUL-2) is unlikely, and so is a card whose Action
        a seat would have used where it peeked instead, and so on (:meth:`_public_play`)."""
        if not (self.claims or self._peekers or self._no_guard or self._no_slave or self._accepted or self._swappers):
            return self._draw()
        deals = [self._draw() for _ in range(max(self.tries, 1))]
        weights = [self._likelihood(cards) for cards in deals]
        if sum(weights) <= 0:
            return deals[0]
        return self.rng.choices(deals, weights)[0]

    def _likelihood(self, cards: list[int]) -> float:
        """How likely the others' public play is in this deal, relative to the likeliest.
        A seat's play depends on its card and on what it knows, so each (seat, its card,
        the cards where it knows them) is judged once per search."""
        me, n = self.me, self.v.players
        r: Round | None = None
        like = 1.0
        for x in self._no_guard:
            if cards[x] == GUARD:
                like *= UNLIKELY_BLOCK
        for x in self._no_slave:
            if cards[x] == SLAVE:
                like *= UNLIKELY_JOIN
        for x in self._accepted:
            if cards[x] == GUARD:
                like *= UNLIKELY_REFUSE
        # (seat, what its play was: "peek", "claim" or the location it swapped its card to)
        checks: list[tuple[int, str | int]] = [(x, "peek") for x in self._peekers]
        checks += [(x, loc) for loc, x in self._swappers]
        if self.claims:
            x = cards.index(SULTAN)
            if x < n and x != me and self.v.seats[x].alive and not self.v.seats[x].revealed:
                checks.append((x, "claim"))
        for x, play in checks:
            key = (x, play, cards[x], *(cards[loc] for loc in sorted(self._theirs[x])))
            if isinstance(play, int):
                key += (cards[play],)
            factor = self._judged.get(key)
            if factor is None:
                if r is None:
                    r = Round.from_view(self.v, cards)
                    self._tell(r)
                factor = self._judge(r, x, play)
                self._judged[key] = factor
            like *= factor
        return like

    def _judge(self, r: Round, x: int, play: str | int) -> float:
        """The factor seat ``x``'s public play gives this deal: it did not claim the
        throne (``"claim"``), it peeked on its last turn (``"peek"``), or it swapped its
        card to the location ``play`` (a seat, or ``n`` for the spare; S-SWAP-1)."""
        if play == "claim":
            return self.unlikely_claim if HeuristicBot(x, 0)._should_claim(Board(r.view(x, log=False))) else 1.0
        # the seat's turn as it would be now, with the card this deal gives it (before its
        # swap: the card now at the swap's other end, which it did not know unless peeked)
        active, player, exh, hide = r.active, r.player, r.snap_exh, r.snap_hide
        r.active = r.player = x
        r.snap_exh, r.snap_hide = r.exhausted[x], r.must_hide[x]
        note = None
        if isinstance(play, int):
            r.card[x], r.card[play] = r.card[play], r.card[x]
            note = r.notes[x].pop(play, None)
        r._cache = {}
        legal = [a for a in r.legal(x) if a != "claim"]
        choice = HeuristicBot(x, 0)._turn(Board(r.view(x, log=False)), legal) if legal else "peek"
        if isinstance(play, int):
            r.card[x], r.card[play] = r.card[play], r.card[x]
            if note is not None:
                r.notes[x][play] = note
        r.active, r.player, r.snap_exh, r.snap_hide = active, player, exh, hide
        r._cache = {}
        if isinstance(play, int):
            return 1.0 if _kind(choice) == "swap" else UNLIKELY_SWAP
        kind = _kind(choice)
        return 1.0 if kind == "peek" else UNLIKELY_PEEK if kind == "swap" else self.unlikely

    def _public_play(self) -> PublicPlay:
        """What the others' public play says of their cards now, where the cards have
        surely not moved since (no open swap of theirs, no hide by anyone, S-SWAP-2):
        the hidden seats whose last turn was a peek while they could have used their
        card's Action (a card they chose not to act with), and the hidden seats that
        could have blocked an assassination that was not blocked (no free Guard there,
        S-GRD-2; the normal bot always blocks), and the hidden free seats that did not
        join a revolt while no Sultan was face up (the normal bot's Slave joins then, S-SLV-2),
        the hidden seats that accepted a detention (no Guard, S-GRD-3), and the cards a
        seat gave away by an open swap (S-SWAP-1), where they still lie."""
        v, n = self.v, self.v.players
        quiet: set[int] = set()
        no_guard: set[int] = set()
        alive = [True] * n
        shown: set[int] = set()  # revealed now
        held: set[int] = set()  # detained or captured: cannot block (S-REACT-3)
        dancers: set[int] = set()  # revealed Belly Dancers (S-GRD-4)
        sultans: set[int] = set()  # where the Sultan was seen face up
        strike: set[int] = set()
        no_slave: set[int] = set()
        called: set[int] = set()  # who could join the open revolt
        accepted: set[int] = set()
        swapped: dict[int, int] = {}  # where a card given away by an open swap lies -> who gave it
        crowned = False  # a Sultan is face up

        def side(s: int, step: int) -> int:
            t = (s + step) % n
            while not alive[t] and t != s:
                t = (t + step) % n
            return t

        for ev in v.log:
            x = ev.seat
            if x is None or not 0 <= x < n:
                continue
            kind = ev.kind
            if kind == "peek":
                quiet.add(x)
            elif kind == "swap":
                for known in (quiet, no_guard, no_slave, accepted):
                    known.discard(x)
                    if not ev.spare and ev.target is not None:
                        known.discard(ev.target)
                loc = n if ev.spare or ev.target is None else ev.target
                swapped.pop(x, None)
                swapped[loc] = x
            elif kind == "hide":
                quiet.clear()
                no_guard.clear()
                no_slave.clear()
                accepted.clear()
                swapped.clear()
                if ev.seat in sultans:
                    crowned = False
                shown.discard(x)
                dancers.discard(x)
            elif kind == "reveal":
                quiet.discard(x)
                shown.add(x)
                if ev.card == "belly-dancer":
                    dancers.add(x)
                if ev.card == "sultan":
                    crowned = True
                    sultans.add(x)
            elif kind == "exhausted":
                quiet.discard(x)
            elif kind == "death":
                quiet.discard(x)
                alive[x] = False
                dancers.discard(x)
                if ev.card == "sultan":
                    crowned = False
                if ev.cause == "assassinated":
                    no_guard |= strike
                strike = set()
            elif kind == "detained":
                held.add(x)
                if x not in shown:
                    accepted.add(x)
            elif kind == "skip" and ev.cause == "detained":
                held.discard(x)
            elif kind == "captured" and ev.target is not None:
                held.add(ev.target)
            elif kind == "release":
                held -= set(ev.seats)
            elif kind == "block":
                strike = set()
            elif kind == "revolt":
                called = set() if crowned else {
                    s for s in range(n) if s != x and alive[s] and s not in shown and s not in held
                }
            elif kind == "join":
                no_slave |= called - set(ev.seats)
                called = set()
            elif kind == "assassinate" and ev.target is not None:
                t = ev.target
                near = {side(x, 1), side(x, -1), side(t, 1), side(t, -1)} - {x}
                if t not in (side(x, 1), side(x, -1)):
                    near.discard(t)
                strike = {
                    g for g in near
                    if alive[g] and g not in shown and g not in held
                    and not any(d in dancers and d not in held for d in (side(g, 1), side(g, -1)))
                }
        seats = v.seats

        def unknown(x: int) -> bool:
            return x != self.me and seats[x].alive and not seats[x].revealed and self.board.card_at(x) is None

        def gave(loc: int, x: int) -> bool:  # x could play its turn now, the card it gave is unseen
            spot = unknown(loc) if loc < n else None not in self.board.known
            return spot and x != self.me and seats[x].alive and not seats[x].revealed and not seats[x].exhausted

        return PublicPlay(
            peekers=sorted(x for x in quiet if unknown(x) and not seats[x].exhausted),
            no_guard=sorted(x for x in no_guard if unknown(x)),
            no_slave=sorted(x for x in no_slave if unknown(x)),
            accepted=sorted(x for x in accepted if unknown(x)),
            swapped=sorted((loc, x) for loc, x in swapped.items() if gave(loc, x)),
        )

    def _draw(self) -> list[int]:
        """One deal consistent with the view: every card where this seat cannot see it."""
        unknown, known, pool = self._deck
        rng = self.rng
        cards = [*pool, *rng.sample(self._neutral_choices, min(self._missing_neutrals, len(self._neutral_choices)))]
        rng.shuffle(cards)
        n = self.v.players
        out = list(known)
        slots = [n if u is None else u for u in unknown]
        for slot, c in zip(slots, cards, strict=False):
            out[slot] = c
        # a failed capture said "not a Slave" (S-DRV-2): move a Slave dealt there elsewhere
        for s in self.board.not_slave:
            if s in slots and out[s] == SLAVE:
                swaps = [t for t in slots if t not in self.board.not_slave and out[t] != SLAVE]
                if swaps:
                    t = rng.choice(swaps)
                    out[s], out[t] = out[t], out[s]
        return out

    # ---------------------------------------------------------- knowledge

    def _own_notes(self) -> dict[int, list[object]]:
        """This seat's notebook as the engine keeps it (its view shows every note), so
        that in a rollout it still knows what it learned (S-VIEW-2)."""
        n = self.v.players
        return {
            n if note.seat is None else note.seat: [
                card_id(note.card), note.negated, note.turn, note.how, note.stale, note.stale_turn,
            ]
            for note in self.v.notes
        }

    def _their_knowledge(self) -> list[set[int]]:
        """Where each other seat still knows the card (``n`` = the spare), from the public
        log only: its peeks and foresees, and the open swaps it made or suffered, followed
        as the cards move in the open and forgotten where a hide may have moved them
        (S-SWAP-2, S-VIEW-2). What they saw is then read from each sampled deal, so a
        rollout's other seats act on what they know, as they do at the table."""
        v, n = self.v, self.v.players
        fresh: list[set[int]] = [set() for _ in range(n)]
        alive = [True] * n
        for ev in v.log:
            x = ev.seat
            if x is None or not 0 <= x < n:
                continue
            if ev.kind == "peek" and ev.target is not None:
                fresh[x].add(ev.target)
            elif ev.kind == "foresee":
                fresh[x].update(ev.seats)
            elif ev.kind == "swap":
                loc = n if ev.spare or ev.target is None else ev.target
                for known in fresh:  # the notes move with the cards
                    a, b = x in known, loc in known
                    known.discard(x)
                    known.discard(loc)
                    if a:
                        known.add(loc)
                    if b:
                        known.add(x)
                fresh[x].add(loc)
                fresh[x].discard(x)
                if loc < n:
                    fresh[loc].add(x)
                    fresh[loc].discard(loc)
            elif ev.kind == "hide":
                # the hider may have swapped with any hidden seat or the spare: nobody
                # else can follow those cards any more
                moved = {x, n, *(t for t in range(n) if alive[t])}
                for w in range(n):
                    if w != x:
                        fresh[w] -= moved
            elif ev.kind == "death":
                alive[x] = False
        return fresh

    def _tell(self, r: Round) -> None:
        """Give the rollout's seats their notebooks: this seat's own as its view shows it,
        the others' fresh knowledge read from the sampled deal (their public "not a Slave"
        notes too, S-DRV-2)."""
        n, me = r.n, self.me
        r.notes[me] = {loc: list(note) for loc, note in self._mine.items()}
        public = {loc: note for loc, note in self._mine.items() if note[1] and not note[4]}
        turn = self.v.turns_played
        for w in range(n):
            if w == me:
                continue
            notes = r.notes[w]
            for loc, note in public.items():
                if loc != w:
                    notes[loc] = list(note)
            for loc in self._theirs[w]:
                if loc != w and (loc == n or (r.alive[loc] and not r.revealed[loc])):
                    notes[loc] = [r.card[loc], False, turn, "peek", False, None]

    # ------------------------------------------------------------ rollouts

    def step(self) -> None:
        """One rollout: the next candidate in the current sample (a new sample once
        every candidate has played in the last one), then the round to its end.
        ``samples`` counts the samples every candidate has played."""
        if self._next == 0:
            self._cards = self.sample()
            self._seed = self.rng.randrange(1 << 30)
        move = self.moves[self._next]
        self._pending[move] = self._rollout(self._cards, move, self._seed)
        self._next += 1
        if self._next == len(self.moves):
            base = self._pending[self.default]
            for m, points in self._pending.items():
                self.total[m] += points
                self.sq[m] += (points - base) ** 2
            self._pending.clear()
            self._next = 0
            self.samples += 1
            if self.samples in self.prune_at and len(self.moves) > 2:
                # successive halving: the samples go to the moves still in the running
                keep = sorted(self.moves, key=lambda m: -self.total[m])[: (len(self.moves) + 1) // 2]
                self.moves = [m for m in self.moves if m in keep or m == self.default]

    def _rollout(self, cards: list[int], move: str, seed: int) -> float:
        r = Round.from_view(self.v, cards)
        self._tell(r)
        r.play(self.me, move)
        n = r.n
        bots = [HeuristicBot(s, seed) for s in range(n)]
        order = random.Random(seed)
        steps = 0
        while r.outcome() is None and steps < ROLLOUT_STEPS:
            steps += 1
            pend = r.pending()
            # a hidden Sultan may claim at any time (S-SUL-2): this is a sampled deal, so
            # the rollout knows where the Sultan lies
            sultan = r.card.index(SULTAN)
            if sultan < n and sultan not in pend and r.alive[sultan] and not r.revealed[sultan]:
                legal = r.legal(sultan)
                if "claim" in legal:
                    claim = bots[sultan].act(r.view(sultan, log=False), legal, False)
                    if claim is not None:
                        r.play(sultan, claim)
                        continue
            s = order.choice(sorted(pend))
            legal = r.legal(s)
            if all(a in ("pass", "claim") for a in legal):
                r.play(s, "pass")  # nothing to decide (as a quick window answers, S-REACT-5)
                continue
            a = bots[s].act(r.view(s, log=False), legal, True)
            r.play(s, a if a is not None else legal[0])
        out = r.outcome()
        return float(out.points[self.me]) if out is not None else 0.0

    def best(self) -> str:
        """The move with the best mean so far (the normal bot's choice when none is better)."""
        if self.samples == 0:
            return self.default
        k = self.samples
        top = max(self.total[m] for m in self.moves)
        best = next(m for m in self.moves if self.total[m] >= top)
        # another move must beat the normal bot's by a margin and by ``z`` standard errors of
        # the gain (the same samples for both, so the gain's own spread): rollouts are noisy
        gain = (top - self.total[self.default]) / k
        spread = max(self.sq[best] / k - gain * gain, 0.0) ** 0.5
        if gain <= self.margin + self.z * spread / k**0.5:
            return self.default
        return best


class _Informed(Board):
    """A seat's board whose chances for the cards it cannot see are the frequencies in
    some weighed deals (the normal bot's chances are the same for every unseen place)."""

    def __init__(self, v: RoundView, deals: list[list[int]]) -> None:
        super().__init__(v)
        n = v.players
        self.freq: list[Counter[int]] = [Counter(d[loc] for d in deals) for loc in range(n + 1)]
        self.deals = max(len(deals), 1)
        self.focus: int | None = None  # the unseen seat the normal bot's "any unseen seat" means

    def prob(self, s: int | None, card: str) -> float:
        if s is None:
            if None in self.known:
                return super().prob(s, card)
            return self.freq[self.n][card_id(card)] / self.deals
        if self.card_at(s) is not None:
            return super().prob(s, card)
        return self.freq[s][card_id(card)] / self.deals

    def unknown_prob(self, card: str) -> float:
        if self.focus is None:
            return super().unknown_prob(card)
        return self.prob(self.focus, card)


def _informed_score(bot: HeuristicBot, b: Board, a: str) -> float:
    """The normal bot's score of ``a`` on board ``b``; a peek's and a swap's from the
    chances of the cards at their other end (its own scoring values every unseen place
    alike)."""
    word = a.split(" ", 1)[0]
    if not isinstance(b, _Informed) or word not in ("peek", "swap", "hide") or a == "hide":
        return bot._score(b, a)
    if word == "peek":
        b.focus = int(a.rsplit(" ", 1)[-1])
        try:
            return bot._score(b, a)
        finally:
            b.focus = None
    b.memo.clear()  # the bot keeps one value for every unseen place: here each has its own
    return bot._score(b, a)


def _kind(action: str) -> str:
    """The kind of a turn's move: a peek, a swap or hide, or the Action's word."""
    word = action.split(" ", 1)[0]
    return "swap" if word == "hide" else word


class StrongBot:
    """The strong level for a table (benchmarks, tests): ``samples`` samples a decision.

    The room runs :class:`Search` in its thinking pool instead, for a time budget."""

    def __init__(self, seat: int, seed: int | str = 0, samples: int = 8) -> None:
        self.seat = seat
        self.seed = seed
        self.normal = HeuristicBot(seat, seed)
        self.samples = samples
        self.decisions = 0

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not legal or not searchable(view, pending):
            return self.normal.act(view, legal, pending)
        self.decisions += 1
        search = Search(view, legal, f"{self.seed}:{self.decisions}")
        while search.samples < self.samples:
            search.step()
        return search.best()
