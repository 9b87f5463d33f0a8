"""The strong Kill the Overlord bot: determinised rollouts from its seat's view only.

On its own decisions in the order phase (the ruler giving the order, K-ORD-1;
the holder acting, K-ORD-3) the bot samples the cards it cannot see,
consistent with its view: the deck (K-SET-4's rule set) less its own hand, the
discard pile and the cards on the table; the other hands by their public
sizes; a hand the Soothsayer showed, while it is not stale; a card it gave
another seat (its notes) while that seat has not been seen to play or lose
it. It builds a :class:`~engine.overlord.game.Game` at that point
(:meth:`Game.at_order`), plays each candidate move there and the rest of the
round with the normal bot (:class:`HeuristicBot`) in every seat, and scores
what it reaches: 1 for a won game, 0 for a lost one, else the chance its seat
wins from the next round's start by a model fitted on normal bots' games
(:data:`WEIGHTS`, ``bench/overlord_value.py``). Every candidate meets the same
samples (common random numbers); the move with the best mean wins, the normal
bot's own choice breaking ties. Every other decision (windows, the round's
start, forced discards) it answers as the normal bot does.

The engine state is never read: a :class:`Search` starts from a view (a JSON
round trip changes nothing) and a seed, so two states with the same view give
the same decision. Pure and clock-free: the caller says how many samples
(:meth:`Search.step` runs one rollout); the server's thinking pool runs steps
until its time budget is spent.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from pydantic import BaseModel

from engine.overlord.bots import HeuristicBot
from engine.overlord.game import Game, OrderPoint
from engine.overlord.rules import RuleSet, load_ruleset
from engine.overlord.views import OverlordView, Param

__all__ = ["FEATURES", "Search", "StrongBot", "features", "parse_view", "searchable", "value"]

ROLLOUT_STEPS = 3000  # a rollout longer than this (the transfer cap is 300 moves) is scored where it stopped
CANDIDATES = 8  # the normal bot's choice and the first others in canonical order (K-TIME-1)
PRUNE_AT = (8, 16, 32)  # after this many samples the worse half of the moves still searched is dropped
MARGIN = 0.01  # the win chance another move must gain over the normal bot's choice to be played instead

FEATURES = ("gold", "ruler", "ruler_gold", "rank", "income", "hand", "crown_near")
WEIGHTS = (0.901, -0.523, -0.290, 1.147, -0.297, 0.791, 2.030)  # fitted by bench/overlord_value.py


def parse_view(text: str) -> BaseModel:
    """A seat's view from JSON (as the thinking pool is sent it)."""
    return OverlordView.model_validate_json(text)


def searchable(view: BaseModel, pending: bool) -> bool:
    """True when the strong bot searches this decision: its own in the order phase,
    giving the order as the ruler (K-ORD-1) or acting as its holder (K-ORD-3)."""
    if not isinstance(view, OverlordView) or not pending or view.me is None or view.prompt is None:
        return False
    p = view.prompt
    return (
        view.phase == "order" and view.outcome is None and not view.chain and p.actor == view.me
        and p.kind in ("turn", "command") and view.me in p.owed
    )


def features(view: OverlordView, seat: int) -> list[float]:
    """What the value model reads of ``seat`` at a round's start (see :data:`FEATURES`)."""
    s = view.seats[seat]
    ruler = 1.0 if view.ruler == seat else 0.0
    gold = s.gold / 10
    near = max(0.0, 1.0 - max(0, view.coronation - s.gold) / view.coronation)
    return [gold, ruler, ruler * gold, s.rank / 8, s.income / 6, s.hand_size / 4, ruler * near * near]


def value(view: OverlordView, me: int) -> float:
    """The chance that ``me`` wins, by the fitted model (0 or 1 once the game is over)."""
    if view.outcome is not None:
        return 1.0 if view.outcome.winner == me else 0.0
    f = [sum(w * x for w, x in zip(WEIGHTS, features(view, s), strict=True)) for s in range(view.players)]
    top = max(f)
    e = [math.exp(v - top) for v in f]
    return e[me] / sum(e)


class Search:
    """One decision's search: ``step()`` adds one rollout, ``best()`` answers."""

    def __init__(self, view: BaseModel, legal: list[str], seed: int | str, candidates: int = CANDIDATES) -> None:
        if not isinstance(view, OverlordView) or view.me is None or view.hand is None:
            raise ValueError("a search needs a seat's view")
        if not searchable(view, True):
            raise ValueError("a search needs the seat's own decision in the order phase")
        self.v = view
        self.me: int = view.me
        self.rules: RuleSet = load_ruleset(view.ruleset)
        # the seed and the view decide everything: the same view searches the same samples
        self.rng = random.Random(f"overlord-search:{seed}:{view.model_dump_json()}")
        self.normal = HeuristicBot(self.me, 0)
        self.default = self.normal.act(view, legal, True) or legal[0]
        self.moves = list(dict.fromkeys([self.default, *legal]))[: max(candidates, 1)]
        self.total = dict.fromkeys(self.moves, 0.0)
        self.samples = 0
        self._next = 0  # the candidate the next step plays in the current sample
        self._deal: tuple[list[list[str]], list[str]] = ([], [])
        self._seed = 0
        self._pending: dict[str, float] = {}
        self._at = self._point()
        self._known, self._likely, self._pool = self._unseen()

    # ----------------------------------------------------------- sampling

    def _point(self) -> OrderPoint:
        """The order phase where the view stands (every part of it is public)."""
        v = self.v
        holder = v.holder
        giver = None
        if holder is not None and v.path and v.path[-1].seat == holder and v.path[-1].how != "plead-guilty":
            giver = v.path[-1].by
        shown = {
            s.seat: (list(s.shown.cards), s.shown.round, s.shown.stale)
            for s in v.seats if s.shown is not None and s.seat != self.me
        }
        uprising = (v.uprising_by, v.uprising_named) if v.uprising_by is not None and v.uprising_named is not None else None
        return OrderPoint(
            round=v.round, discard=list(v.discard), alive=[s.alive for s in v.seats],
            tokens=[s.token for s in v.seats], holder=holder, holder_giver=giver, path=list(v.path),
            transfers=v.transfers, banned=v.banned, uprising=uprising, shown=shown,
        )

    def _unseen(self) -> tuple[dict[int, list[str]], dict[int, list[str]], list[str]]:
        """The hands this seat knows (shown, not stale), the cards it knows another seat
        likely holds (its notes), and every card it cannot place (Counter order: stable)."""
        v, me = self.v, self.me
        pool = Counter(self.rules.full_deck())
        pool.subtract(v.hand or [])
        pool.subtract(v.discard)
        pool.subtract(c.card for c in v.chain)
        known: dict[int, list[str]] = {}
        for s in v.seats:
            if (
                s.seat != me and s.shown is not None and not s.shown.stale and len(s.shown.cards) == s.hand_size
                and all(pool[c] >= k for c, k in Counter(s.shown.cards).items())
            ):
                known[s.seat] = list(s.shown.cards)
                pool.subtract(s.shown.cards)
        likely: dict[int, list[str]] = {}
        for dst, card in self._given():
            if dst not in known and pool[card] > 0 and len(likely.get(dst, [])) < v.seats[dst].hand_size:
                likely.setdefault(dst, []).append(card)
                pool[card] -= 1
        cards = [c for c in self.rules.card_order() for _ in range(max(pool[c], 0))]
        for cs in likely.values():
            cards.extend(cs)  # (back in the pool: a sample places them, mostly where they were given)
        return known, likely, cards

    def _given(self) -> list[tuple[int, str]]:
        """Cards this seat gave another (Coercion, Conspire; its notes) that the log does not
        show leaving that seat's hand since: no play or discard of that card by it, no
        Conspire it gave in. Only notes the view's log still covers count."""
        v, me = self.v, self.me
        first = v.log[0].n if v.log else None
        out: list[tuple[int, str]] = []
        for note in v.notes:
            p = note.params
            if first is None or note.n < first or p.get("src") != me:
                continue
            dst, card = p.get("dst"), p.get("card")
            if not isinstance(dst, int) or not isinstance(card, str) or dst == me:
                continue
            if not any(e.n > note.n and _lost(e.kind, e.params, dst, card) for e in v.log):
                out.append((dst, card))
        return out

    def sample(self) -> tuple[list[list[str]], list[str]]:
        """One deal consistent with the view: every hand (this seat's own as it is) and the
        deck, top first."""
        v, me, rng = self.v, self.me, self.rng
        cards = list(self._pool)
        hands: list[list[str]] = [[] for _ in v.seats]
        hands[me] = list(v.hand or [])
        for s, h in self._known.items():
            hands[s] = list(h)
        likely_cards: list[tuple[int, str]] = [(s, c) for s, cs in self._likely.items() for c in cs]
        for s, c in likely_cards:
            # a card given lately is most likely still there; sometimes it went unseen
            if rng.random() < 0.85:
                hands[s].append(c)
                cards.remove(c)
        rng.shuffle(cards)
        for seat in v.seats:
            s = seat.seat
            if s == me or s in self._known:
                continue
            need = seat.hand_size - len(hands[s])
            if need < 0:  # more likely cards than it holds: keep as many as it holds
                cards.extend(hands[s][seat.hand_size :])
                hands[s] = hands[s][: seat.hand_size]
                rng.shuffle(cards)
                need = 0
            hands[s].extend(cards[:need])
            del cards[:need]
        # (a game dealt from the whole rule set's deck, as every room's is, has these many left)
        return hands, cards[: v.deck_size]

    # ------------------------------------------------------------ rollouts

    def game(self, hands: list[list[str]], deck: list[str], seed: int) -> Game:
        """The sampled deal as a game at the view's decision."""
        v = self.v
        return Game.at_order(
            [s.role for s in v.seats], hands, [s.gold for s in v.seats], deck, self._at, seed,
            ruleset=self.rules, coronation=v.coronation, round_limit=v.round_limit,
        )

    def step(self) -> None:
        """One rollout: the next candidate in the current sample (a new sample once every
        candidate has played in the last one), then the round to its end. ``samples``
        counts the samples every candidate has played."""
        if self._next == 0:
            self._deal = self.sample()
            self._seed = self.rng.randrange(1 << 30)
        move = self.moves[self._next]
        self._pending[move] = self._rollout(move)
        self._next += 1
        if self._next == len(self.moves):
            for m, score in self._pending.items():
                self.total[m] += score
            self._pending.clear()
            self._next = 0
            self.samples += 1
            if self.samples in PRUNE_AT and len(self.moves) > 2:
                # successive halving: the samples go to the moves still in the running
                keep = sorted(self.moves, key=lambda m: -self.total[m])[: (len(self.moves) + 1) // 2]
                self.moves = [m for m in self.moves if m in keep or m == self.default]

    def _rollout(self, move: str) -> float:
        hands, deck = self._deal
        g = self.game(hands, deck, self._seed)
        g.play(self.me, move)
        start = g.round
        bots = [HeuristicBot(s, self._seed) for s in range(g.n)]
        steps = 0
        while not g.is_over() and g.round == start and steps < ROLLOUT_STEPS:
            steps += 1
            s = min(g.pending())
            legal = g.legal(s)
            a = legal[0] if len(legal) == 1 else bots[s].act(g.view(s, log_rounds=0), legal, True)
            g.play(s, a if a is not None else legal[0])
        return value(g.view(self.me, log_rounds=0), self.me)

    def best(self) -> str:
        """The move with the best mean so far (the normal bot's choice when none is better)."""
        if self.samples == 0:
            return self.default
        top = max(self.total[m] for m in self.moves)
        # another move must beat the normal bot's by a margin: the samples are few and noisy
        if self.total[self.default] >= top - MARGIN * self.samples:
            return self.default
        return next(m for m in self.moves if self.total[m] >= top)


def _lost(kind: str, p: dict[str, Param], seat: int, card: str) -> bool:
    """The public event may have taken ``card`` from ``seat``'s hand: played or discarded
    it, or the seat gave a card in a Conspire or as the Outlaw's or Executioner's cost."""
    if kind in ("play", "discard"):
        return p.get("seat") == seat and p.get("card") == card
    if kind == "conspire":
        givers = p.get("givers")
        return isinstance(givers, list) and seat in givers
    return kind in ("discard-pass", "substitute") and p.get("seat") == seat


class StrongBot:
    """The strong level for a table (benchmarks, tests): ``samples`` samples a decision.

    The room runs :class:`Search` in its thinking pool instead, for a time budget."""

    def __init__(self, seat: int, seed: int | str = 0, samples: int = 8) -> None:
        self.seat = seat
        self.seed = seed
        self.normal = HeuristicBot(seat, 0)
        self.samples = samples
        self.decisions = 0

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not legal or not searchable(view, pending):
            return self.normal.act(view, legal, pending)
        if len(legal) == 1:
            return legal[0]
        self.decisions += 1
        search = Search(view, legal, f"{self.seed}:{self.decisions}")
        while search.samples < self.samples:
            search.step()
        return search.best()
