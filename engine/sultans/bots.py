"""Bots for Sultans of Karaya (implement :class:`engine.api.Bot`).

Both bots see only what a human in the seat would see: the seat's own
:class:`~engine.sultans.views.RoundView` (or a :class:`MatchView`, whose
``round`` is used) and its list of legal actions. They never touch engine
state, so they work just as well from a view that went through JSON.

- :class:`RandomBot`: uniform over the legal actions (seeded). When it is not
  pending it takes an optional action (Claim the Throne) with a small
  probability per call, else does nothing.
- :class:`HeuristicBot`: reads its view -- its own card, public reveals,
  tokens, the crown, the open window and its notebook (fresh notes only;
  stale ones are known to be unreliable) -- and estimates which side is
  winning. It then prefers actions that win or stop the other side from
  winning (an Assassin strikes a known Sultan, a Guard blocks whenever it can
  and detains a known Assassin, a Sultan claims when the crown is likely to
  hold and executes revealed Rebels, Slaves join a revolt that would win, a
  seat on the side that looks lost swaps away), and it answers every window.

``make_bot(seat, kind, seed)`` builds either kind (``"heuristic"`` or ``"random"``).

Pure: no I/O, no clock; deterministic from the seed and the views given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from pydantic import BaseModel

from engine.sultans.cards import ROLE_TABLE
from engine.sultans.views import MatchView, RoundView

__all__ = ["EasyBot", "HeuristicBot", "RandomBot", "make_bot", "round_view"]

_NEUTRAL_NAMES = ("slave-driver", "belly-dancer", "vizier", "fortune-teller")
_LOYAL = "loyalists"
_REBEL = "rebels"


def round_view(view: BaseModel) -> RoundView:
    """The :class:`RoundView` inside whatever view a bot is given."""
    if isinstance(view, RoundView):
        return view
    if isinstance(view, MatchView):
        return view.round
    raise TypeError(f"a Sultans bot needs a RoundView or MatchView, not {type(view).__name__}")


class RandomBot:
    """Uniform over the legal actions; seeded, so a game with bots replays exactly.

    When not pending, it plays one of its optional actions (only Claim the
    Throne exists) with probability ``optional_rate`` per call.
    """

    def __init__(self, seat: int, seed: int | str = 0, optional_rate: float = 0.05) -> None:
        self.seat = seat
        self.rng = random.Random(f"sultans-random:{seed}:{seat}")
        self.optional_rate = optional_rate

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not legal:
            return None
        if not pending and self.rng.random() >= self.optional_rate:
            return None
        return self.rng.choice(legal)


# ---------------------------------------------------------------- knowledge


def _side_of(card: str, revealed: bool, declared: str | None = None) -> str | None:
    """The side ``card`` is on (S-SIDE-1, S-DRV-1, S-DNC-1, S-VIZ-1); ``None`` = no side."""
    if card in ("sultan", "guard"):
        return _LOYAL
    if card in ("assassin", "slave"):
        return _REBEL
    if card == "slave-driver":
        return _LOYAL if revealed else _REBEL
    if card == "belly-dancer":
        return _REBEL if revealed else _LOYAL
    if card == "vizier":
        return declared if revealed else None
    return None


_PROBS: dict[tuple[object, ...], dict[str, float]] = {}
"""The chances of each card at a position a seat knows nothing of, by what they are
worked out from (:meth:`Board._unknown_probs`): the same few hundred come back again
and again in a search's rollouts. Never changed once made; emptied past :data:`_PROBS_MAX`."""
_PROBS_MAX = 4096
_UNKNOWN_VALUES: dict[tuple[object, ...], float] = {}
"""What holding the card at such a position is worth (:meth:`HeuristicBot._position_value`),
by those chances, "not a Slave" there, and the odds; emptied past :data:`_PROBS_MAX`."""


class Board:
    """What one seat knows, distilled from its view (no engine state)."""

    def __init__(self, v: RoundView) -> None:
        if v.viewer is None:
            raise ValueError("a bot needs a seat's view, not a spectator's")
        self.v = v
        self.me: int = v.viewer
        self.n: int = v.players
        self.my_card: str = v.your_card or ""
        seats = v.seats
        self.alive = [s.alive for s in seats]
        self.rev = [s.revealed for s in seats]
        self.detained = [s.detained for s in seats]
        self.captured = [s.captured for s in seats]
        self.face: list[str | None] = [s.card if (s.revealed or not s.alive) else None for s in seats]
        # fresh knowledge of hidden cards; key None = the spare
        self.known: dict[int | None, str] = {}
        self.not_slave: set[int] = set()
        for note in v.notes:
            if note.stale:
                continue
            if note.seat is not None and (note.seat == self.me or self.rev[note.seat] or not self.alive[note.seat]):
                continue
            if note.negated:
                if note.seat is not None:
                    self.not_slave.add(note.seat)
            else:
                self.known[note.seat] = note.card
        # card_at of every seat, worked out once: the scores ask it for every move
        known = self.known
        self._at: list[str | None] = [
            self.my_card if s == self.me else (f if f is not None else known.get(s)) for s, f in enumerate(self.face)
        ]
        self._ring: tuple[list[int], list[int]] | None = None
        self._disabled: dict[int, bool] = {}
        self._can_block: list[bool] | None = None  # per seat: free to block if it holds a Guard
        self._free_slaves: frozenset[int] | None = None
        self._probs: dict[str, float] | None = None
        self._probs_key: tuple[object, ...] = ()
        self.memo: dict[object, float] = {}  # values the bots work out once per view (a search's rollouts ask often)
        self.prior = 0.7
        self._odds: float | None = None

    # ------------------------------------------------------------ seating

    def _neighbours(self) -> tuple[list[int], list[int]]:
        """Every seat's nearest living seat clockwise and anticlockwise."""
        if self._ring is None:
            n, alive = self.n, self.alive
            living = [s for s in range(n) if alive[s]]
            if not living:
                self._ring = (list(range(n)), list(range(n)))
                return self._ring
            lefts = [0] * n
            rights = [0] * n
            nearest = living[0]  # the first living seat after the last seat
            for s in range(n - 1, -1, -1):
                lefts[s] = nearest
                if alive[s]:
                    nearest = s
            nearest = living[-1]
            for s in range(n):
                rights[s] = nearest
                if alive[s]:
                    nearest = s
            self._ring = (lefts, rights)
        return self._ring

    def left(self, s: int) -> int:
        """Nearest living seat clockwise of ``s`` (S-SEAT-1)."""
        return self._neighbours()[0][s]

    def right(self, s: int) -> int:
        return self._neighbours()[1][s]

    def adjacent(self, a: int, b: int) -> bool:
        if a == b or not self.alive[a] or not self.alive[b]:
            return False
        lefts, rights = self._neighbours()
        return lefts[a] == b or rights[a] == b

    def free(self, s: int) -> bool:
        return not self.detained[s] and not self.captured[s]

    # --------------------------------------------------------- card beliefs

    def card_at(self, s: int) -> str | None:
        """The card at ``s`` if this seat knows it now (own, face up, fresh note)."""
        return self._at[s]

    def unknown_positions(self) -> list[int | None]:
        """Hidden living seats (and the spare, ``None``) whose card this seat does not know."""
        me, alive, rev, known = self.me, self.alive, self.rev, self.known
        out: list[int | None] = [
            s for s in range(self.n) if s != me and alive[s] and not rev[s] and s not in known
        ]
        if None not in self.known:
            out.append(None)
        return out

    def unaccounted(self) -> dict[str, float]:
        """Expected number of each card among the unknown positions."""
        sultans, guards, assassins, slaves, neutrals = ROLE_TABLE.get(self.n, (1, 1, 1, 3, 0))
        count: dict[str, float] = {"sultan": sultans, "guard": guards, "assassin": assassins, "slave": slaves}
        seen: list[str] = [self.my_card] if self.my_card else []
        me = self.me
        seen += [c for s, c in enumerate(self._at) if c is not None and s != me]
        if None in self.known:
            seen.append(self.known[None])
        seen_neutrals = set()
        for c in seen:
            if c in count:
                count[c] = count[c] - 1
            else:
                seen_neutrals.add(c)
                neutrals -= 1
        unseen_types = [c for c in _NEUTRAL_NAMES if c not in seen_neutrals]
        for c in unseen_types:
            count[c] = max(neutrals, 0) / len(unseen_types) if unseen_types else 0.0
        return {c: max(x, 0.0) for c, x in count.items()}

    def prob(self, s: int | None, card: str) -> float:
        """Probability that position ``s`` holds ``card`` as far as this seat knows."""
        if s is not None:
            c = self._at[s]
            if c is not None:
                return 1.0 if c == card else 0.0
            if card == "slave" and s in self.not_slave:
                return 0.0
        elif None in self.known:
            return 1.0 if self.known[None] == card else 0.0
        probs = self._probs
        if probs is None:
            probs = self._unknown_probs()
        return probs.get(card, 0.0)

    def unknown_prob(self, card: str) -> float:
        """:meth:`prob` of a seat whose card this seat does not know (and, for a Slave,
        without a "not a Slave" note there)."""
        probs = self._probs
        if probs is None:
            probs = self._unknown_probs()
        return probs.get(card, 0.0)

    def _unknown_probs(self) -> dict[str, float]:
        # what they are worked out from: the table size, the cards this seat knows (its own,
        # face up, fresh notes; their places do not matter) and the positions it does not
        # (not every seat without a card shown: a dead one may show none in a search's round)
        unk = self.unknown_positions()
        key = self._probs_key = (self.n, tuple(sorted([c for c in self._at if c])), len(unk), self.known.get(None))
        probs = _PROBS.get(key)
        if probs is None:
            total = max(len(unk), 1)
            probs = {c: min(x / total, 1.0) for c, x in self.unaccounted().items()}
            if len(_PROBS) >= _PROBS_MAX:
                _PROBS.clear()
            _PROBS[key] = probs
        self._probs = probs
        return probs

    def sultan_seat(self) -> int | None:
        """A living seat known to hold the Sultan (face up or a fresh note), else ``None``."""
        me, alive = self.me, self.alive
        for s, c in enumerate(self._at):
            if c == "sultan" and s != me and alive[s]:
                return s
        return None

    def guard_disabled(self, g: int) -> bool:
        """S-GRD-4: a Guard beside a revealed, living, non-detained Belly Dancer can neither Detain nor Block."""
        got = self._disabled.get(g)
        if got is None:
            lefts, rights = self._neighbours()
            got = self._disabled[g] = any(
                self.rev[d] and self.alive[d] and not self.detained[d] and self.face[d] == "belly-dancer"
                for d in (lefts[g], rights[g])
                if d != g
            )
        return got

    def possible_blockers(self, assassin: int, target: int) -> set[int]:
        """The seats that could block ``assassin`` striking ``target`` if they hold a Guard
        (S-GRD-2): living and free, beside the Assassin or the target (the target itself
        only when it is beside the Assassin), not held back by a Belly Dancer (S-GRD-4)."""
        lefts, rights = self._neighbours()
        near = {lefts[assassin], rights[assassin], lefts[target], rights[target]}
        near.discard(assassin)
        if not self.adjacent(assassin, target):
            near.discard(target)
        if self._can_block is None:
            self._can_block = [
                self.alive[g] and self.free(g) and not self.guard_disabled(g) for g in range(self.n)
            ]
        can = self._can_block
        return {g for g in near if can[g]}

    def revealed_free_slaves(self) -> frozenset[int]:
        if self._free_slaves is None:
            self._free_slaves = frozenset(
                s for s in range(self.n) if self.alive[s] and self.rev[s] and self.face[s] == "slave" and self.free(s)
            )
        return self._free_slaves

    def revolution_with(self, slaves: AbstractSet[int]) -> bool:
        """S-SLV-3: three living free revealed Slaves A, B, C with B adjacent to both others."""
        if len(slaves) < 3:
            return False
        lefts, rights = self._neighbours()
        for b in slaves:
            lft, rgt = lefts[b], rights[b]
            if lft != rgt and lft in slaves and rgt in slaves and lft != b and rgt != b:
                return True
        return False

    def live_assassins(self) -> float:
        """Expected number of living Assassin cards (held by living seats or in the spare)."""
        total = ROLE_TABLE.get(self.n, (1, 1, 1, 3, 0))[2]
        alive = self.alive
        dead = sum(1 for s, c in enumerate(self.face) if c == "assassin" and not alive[s])
        return float(total - dead)

    def known_assassins(self) -> list[int]:
        """Living seats known to hold an Assassin (other than this seat)."""
        me, alive = self.me, self.alive
        return [s for s, c in enumerate(self._at) if c == "assassin" and s != me and alive[s]]

    def turn_order_until(self, stop: int) -> list[int]:
        """Living seats that turn order steps onto after the active seat, before it reaches ``stop``."""
        a = self.v.active
        if a is None:
            return []
        out: list[int] = []
        n, alive = self.n, self.alive
        t = (a + 1) % n
        for _ in range(n):
            if t == stop:
                break
            if alive[t]:
                out.append(t)
            t = (t + 1) % n
        return out

    # ------------------------------------------------------------ who wins

    @property
    def odds(self) -> float:
        """:meth:`loyal_odds`, computed once per view."""
        if self._odds is None:
            self._odds = self.loyal_odds()
        return self._odds

    def loyal_odds(self) -> float:
        """A rough probability that the Loyalists win this round."""
        p = self.prior
        live_asn = self.live_assassins()
        slaves = self.revealed_free_slaves()
        if live_asn <= 0:
            p = 0.9
        sultan = self.sultan_seat() if self.my_card != "sultan" else self.me
        if sultan is not None and self.rev[sultan] and self.alive[sultan]:
            crown = self.v.crown
            threats = [s for s in self.known_assassins() if self.free(s)]
            if crown is not None:
                between = [*self.turn_order_until(crown), crown]
                threats = [s for s in threats if s in between]
                unknown_turns = [s for s in between if s != self.me and self.card_at(s) is None and self.free(s)]
                risk = sum(self.prob(s, "assassin") for s in unknown_turns) * 0.5
                p = 0.9 - 0.3 * len(threats) - 0.5 * min(risk, 1.0)
            else:
                p = 0.7 - 0.3 * len(threats)
        if self.revolution_with(slaves):
            p = 0.05
        else:
            for s in slaves:
                if self.left(s) in slaves or self.right(s) in slaves:
                    p -= 0.2
                    break
            p -= 0.04 * len(slaves)
        return min(max(p, 0.05), 0.95)


# ---------------------------------------------------------------- heuristic


_REVEALING = frozenset({"detain", "revolt", "capture", "dance", "assassinate"})


def _target(action: str) -> int | None:
    last = action.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else None


_PARSED: dict[str, tuple[str, int | None, tuple[int, ...]]] = {}
"""Moves by their text: (word, last target, every seat named); the bots score
every legal move of every turn, and a table's moves are a few hundred texts."""
_PARSED_MAX = 4096


def _parse(action: str) -> tuple[str, int | None, tuple[int, ...]]:
    got = _PARSED.get(action)
    if got is None:
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        words = action.split(" ")
        got = _PARSED[action] = (words[0], _target(action), tuple(int(x) for x in words[1:] if x.isdigit()))
    return got


class HeuristicBot:
    """A bot that plays from its own view only (see the module docstring).

    Tuning knobs (defaults measured with ``bench/sultans_bots.py``):

    - ``claim_threshold``: a hidden Sultan claims when its estimated chance that the
      crown holds (no Assassin strikes it before the crown fires) is at least this.
    - ``reveal_weight``: how strongly a hidden seat prefers an Action that reveals it
      when its revealed side looks like winning (revealed winners score 2, hidden 1).
    - ``neutral_base``: what a hidden Vizier or Fortune Teller weighs against acting.
    - ``peek_base``: the base value of a peek (information) against a swap or an Action.
    - ``swap_cost``: the margin a swap must gain over keeping the current card.
    """

    def __init__(
        self,
        seat: int,
        seed: int | str = 0,
        claim_threshold: float = 0.5,
        reveal_weight: float = 2.0,
        neutral_base: float = 0.3,
        peek_base: float = 0.15,
        swap_cost: float = 0.0,
    ) -> None:
        self.seat = seat
        self.rng = random.Random(f"sultans-heuristic:{seed}:{seat}")
        self.claim_threshold = claim_threshold
        self.reveal_weight = reveal_weight
        self.neutral_base = neutral_base
        self.peek_base = peek_base
        self.swap_cost = swap_cost

    # -------------------------------------------------------------- entry

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not legal:
            return None
        v = round_view(view)
        if v.viewer is None or v.phase == "over":
            return self.rng.choice(legal) if pending else None
        b = Board(v)
        if "claim" in legal and self._should_claim(b):
            return "claim"
        if not pending:
            return None
        acts = [a for a in legal if a != "claim"]
        if not acts:  # pragma: no cover - a pending seat always has a non-claim answer
            return legal[0]
        if v.phase == "window":
            choice = self._answer(b, acts)
        elif v.phase == "predict":
            choice = "predict loyalists" if b.odds >= 0.5 else "predict rebels"
        else:
            choice = self._turn(b, acts)
        return choice if choice in legal else self.rng.choice(acts)

    # ------------------------------------------------------------- claims

    def survival(self, b: Board) -> float:
        """Chance the crown holds if this seat (a hidden Sultan) claims now."""
        a = b.v.active
        if a is None:
            return 0.0
        me = b.me
        # the crown lies in front of the active seat; every living seat gets a turn before it fires
        alive, at, detained, captured = b.alive, b._at, b.detained, b.captured
        lefts, rights = b._neighbours()
        seats = [s for s in [*b.turn_order_until(a), a] if s != me and alive[s]]
        guards = [g for g in (lefts[me], rights[me]) if at[g] == "guard" and b.free(g)]
        p = 1.0
        for s in seats:
            if captured[s]:
                continue
            pa = b.prob(s, "assassin")
            if pa <= 0:
                continue
            strike = 0.9 if pa >= 1.0 else 0.6
            if detained[s]:
                strike *= 0.3
            lft, rgt = lefts[s], rights[s]
            if (
                guards
                or (at[lft] == "guard" and not detained[lft] and not captured[lft])
                or (at[rgt] == "guard" and not detained[rgt] and not captured[rgt])
            ):
                strike *= 0.4
            p *= 1.0 - pa * strike
        return p

    def _should_claim(self, b: Board) -> bool:
        if b.my_card != "sultan" or b.rev[b.me]:
            return False
        if b.live_assassins() <= 0:
            return True
        return self.survival(b) >= self.claim_threshold

    # ------------------------------------------------------------ windows

    def _answer(self, b: Board, acts: list[str]) -> str:
        w = b.v.window
        if "block" in acts:
            return "block"  # S-GRD-2: the Assassin dies instead
        if "join" in acts:
            slaves = {*b.revealed_free_slaves(), b.me}
            if w is not None:
                slaves.add(w.actor)
            if b.revolution_with(slaves):
                return "join"  # S-SLV-3: this join wins
            sultan = b.sultan_seat()
            executioner = sultan is not None and b.rev[sultan]
            if not executioner and b.odds < 0.7:
                return "join"
            return "pass"
        if "refuse" in acts:
            if b.my_card == "guard":
                return "refuse"
            if b.my_card == "sultan" and (b.rev[b.me] or self._should_claim(b)):
                return "refuse"
        return "pass"

    # --------------------------------------------------------------- turns

    def _turn(self, b: Board, acts: list[str]) -> str:
        """The best-scored move; ties go to a random draw (one for every move, in order)."""
        scores = self._scores(b, acts)
        rnd = self.rng.random
        draws = [rnd() for _ in acts]
        top = max(scores)
        return max((r, a) for score, r, a in zip(scores, draws, acts, strict=True) if score == top)[1]

    def _card_value(self, b: Board, card: str, odds: float) -> float:
        """How much holding ``card`` (hidden, able to reveal later) is worth at round end."""
        pl, pr = odds, 1.0 - odds
        if card in ("sultan", "guard"):
            return 1.6 * pl
        if card in ("assassin", "slave"):
            return 1.6 * pr
        if card == "slave-driver":
            return max(1.6 * pl, pr)
        if card == "belly-dancer":
            return max(1.6 * pr, pl)
        if card == "vizier":
            return 1.5 * max(pl, pr)
        return 1.2 * max(pl, pr)  # fortune teller

    def _position_value(self, b: Board, s: int | None, odds: float) -> float:
        if s is not None:
            c = b.card_at(s)
            if c is not None:
                return self._card_value(b, c, odds)
        elif None in b.known:
            return self._card_value(b, b.known[None], odds)
        # every position this seat knows nothing of is worth the same (but "not a Slave"),
        # and so for every view with the same chances of each card there (a board of
        # another kind may weigh each place's chances its own way: not shared)
        key = ("unknown", s if s in b.not_slave else -1, odds)
        got = b.memo.get(key)
        if got is None:
            cards = ("sultan", "guard", "assassin", "slave", *_NEUTRAL_NAMES)
            if type(b) is not Board:
                got = b.memo[key] = sum(b.prob(s, c) * self._card_value(b, c, odds) for c in cards)
                return got
            if b._probs is None:
                b._unknown_probs()
            shared = (b._probs_key, s is not None and s in b.not_slave, odds)
            got = _UNKNOWN_VALUES.get(shared)
            if got is None:
                got = sum(b.prob(s, c) * self._card_value(b, c, odds) for c in cards)
                if len(_UNKNOWN_VALUES) >= _PROBS_MAX:
                    _UNKNOWN_VALUES.clear()
                _UNKNOWN_VALUES[shared] = got
            b.memo[key] = got
        return got

    def _my_value(self, b: Board, odds: float) -> float:
        """What keeping the current card is worth; worth less as the turn limit nears
        (S-WIN-4: a round that runs out scores nothing), so a stalled round gets moving."""
        key = ("mine", odds)
        got = b.memo.get(key)
        if got is None:
            got = b.memo[key] = self._my_value_now(b, odds)
        return got

    def _my_value_now(self, b: Board, odds: float) -> float:
        c = b.my_card
        if b.rev[b.me]:
            side = _side_of(c, True, b.v.seats[b.me].declared)
            if c == "fortune-teller":
                side = b.v.seats[b.me].prediction
            value = 0.0 if side is None else 2.0 * (odds if side == _LOYAL else 1.0 - odds)
        else:
            value = self._card_value(b, c, odds)
        limit = max(b.v.turn_limit, 1)
        stall = min(max((b.v.turns_played / limit - 0.3) / 0.4, 0.0), 1.0)
        return value * (1.0 - 0.7 * stall)

    def _score(self, b: Board, a: str) -> float:
        return self._scores(b, [a])[0]

    def _scores(self, b: Board, acts: Sequence[str]) -> list[float]:
        """The score of each move in ``acts`` (higher is better). A turn offers a few dozen
        moves, so what they share (the odds, the value of keeping this card, a peek at an
        unknown seat, the reveal bonus) is worked out once."""
        odds = b.odds
        me, card = b.me, b.my_card
        rev_me = b.rev[me]
        at, seat_views = b._at, b.v.seats
        reveals = False
        bonus = 0.0
        if not rev_me:
            # revealing on the side that looks like winning doubles the points (S-SCORE-1)
            side = _side_of(card, True)
            if side is not None:
                p = odds if side == _LOYAL else 1.0 - odds
                reveals, bonus = True, self.reveal_weight * (p - 0.5)
        mine: float | None = None
        peek: float | None = None
        foresee: float | None = None
        unknown: float | None = None  # a swap with a position this seat knows nothing of
        plain = type(b) is Board  # (a board of another kind may weigh each place its own way)
        unsure: dict[int, float] = {}
        not_slave = b.not_slave
        spare_known = None in b.known
        parsed = _PARSED.get
        out: list[float] = []
        for a in acts:
            got = parsed(a)
            word, t, seats = got if got is not None else _parse(a)
            if word == "peek":
                assert t is not None
                if at[t] is not None:
                    value = 0.05
                else:
                    # every seat this one knows nothing of scores the same (the prior odds of its card)
                    if peek is None or not plain:
                        peek = self.peek_base + 0.5 * b.prob(t, "sultan") + 0.3 * b.prob(t, "assassin")
                    value = peek - 0.2 if seat_views[t].must_hide else peek
            elif word == "swap" or word == "hide":
                if mine is None:
                    mine = self._my_value(b, odds)
                if a == "hide":
                    # hide without swap: keeps the card, loses the face-up bonus
                    value = self._card_value(b, card, odds) - mine - 0.1
                else:
                    loc: int | None = None if a.endswith("spare") else t
                    if plain and ((not spare_known) if loc is None else (at[loc] is None and loc not in not_slave)):
                        if unknown is None:
                            unknown = self._position_value(b, loc, odds)
                        gain = unknown - mine
                    else:
                        gain = self._position_value(b, loc, odds) - mine
                    if card == "sultan" and rev_me:
                        gain -= 0.5  # a revealed Sultan hiding gives up the crown
                    value = gain - self.swap_cost
            elif word == "foresee":
                if foresee is None:
                    if mine is None:
                        mine = self._my_value(b, odds)
                    base = mine if rev_me else self.neutral_base
                    foresee = 2.0 * max(odds, 1.0 - odds) - base - 0.4
                value = foresee + 0.05 * sum([unsure[s] if s in unsure else self._unsure(b, s, unsure) for s in seats])
            else:
                value = self._action_score(b, a, odds, word, t)
            if reveals and word in _REVEALING:
                value += bonus
            out.append(value)
        return out

    def _action_score(self, b: Board, a: str, odds: float, word: str, t: int | None) -> float:
        """The score of an Action other than a foresee (``word``, its last target ``t``)."""
        me, card = b.me, b.my_card
        if word == "assassinate":
            assert t is not None
            blockers = b.possible_blockers(me, t)
            ps = b.prob(t, "sultan")
            value = 3.0 * ps + 0.6 * b.prob(t, "guard") - 0.6 * (b.prob(t, "slave") + b.prob(t, "assassin"))
            if any(b.card_at(g) == "guard" for g in blockers):
                # a Guard this seat can see will block (S-GRD-2): the Assassin dies, the target lives;
                # the target still ranks the strikes a Vizier forces (never a known teammate first)
                return value - 4.0
            if any(b.prob(g, "guard") > 0.5 for g in blockers):
                value -= 0.8
            return value - (0.0 if b.rev[me] else 0.2)
        if word == "execute":
            assert t is not None
            c = b.card_at(t)
            if c == "assassin":
                return 3.0
            slaves = b.revealed_free_slaves()
            if t in slaves and (b.left(t) in slaves or b.right(t) in slaves):
                return 2.5
            return 1.2
        if word == "detain":
            assert t is not None
            c = b.card_at(t)
            if c == "assassin" and b.free(t):
                # holding a known Assassin matters while the crown runs (S-SUL-3); otherwise
                # detaining it again and again only stalls the round
                sultan = b.me if card == "sultan" else b.sultan_seat()
                crowned = sultan is not None and b.rev[sultan] and b.v.crown is not None
                return 2.0 if crowned else 0.5
            slaves = b.revealed_free_slaves()
            if t in slaves and (b.left(t) in slaves or b.right(t) in slaves):
                return 1.8
            if c in ("sultan", "guard"):
                return -1.0
            return 0.2 * b.prob(t, "assassin") + (0.1 if odds > 0.5 else -0.3)
        if word == "revolt":
            slaves = b.revealed_free_slaves() | {me}
            if b.revolution_with(slaves):
                return 5.0
            sultan = b.sultan_seat()
            if sultan is not None and b.rev[sultan]:
                return 0.1
            return 0.9 if odds < 0.6 else 0.3
        if word == "capture":
            assert t is not None
            c = b.card_at(t)
            slaves = b.revealed_free_slaves()
            if t in slaves:
                pair = b.left(t) in slaves or b.right(t) in slaves
                return 2.2 if pair else (0.8 if odds >= 0.5 else 0.1)
            return 0.9 * b.prob(t, "slave") if odds >= 0.5 else 0.1
        if word == "dance":
            return 1.0 if odds < 0.45 else -0.2
        if word == "manipulate":
            assert t is not None
            side = a.split(" ")[1]
            p_side = odds if side == _LOYAL else 1.0 - odds
            value = 2.0 * p_side - (self._my_value(b, odds) if b.rev[me] else self.neutral_base) - 0.3
            if side == _LOYAL:
                value += 1.0 * b.prob(t, "sultan") - 0.8 * b.prob(t, "assassin")
            else:
                value += 0.6 * b.prob(t, "slave") - 0.8 * b.prob(t, "sultan") + 0.4 * b.prob(t, "assassin")
            return value
        if word in ("pass", "claim", "predict", "block", "join", "refuse"):
            return 0.0
        return 0.0  # pragma: no cover


    @staticmethod
    def _unsure(b: Board, s: int, known: dict[int, float]) -> float:
        """How little this seat knows of ``s``'s card (1 - its likeliest main card's chance),
        kept in ``known``."""
        got = known[s] = 1.0 - max(b.prob(s, c) for c in ("sultan", "guard", "assassin", "slave"))
        return got


class EasyBot:
    """The easy level: legal moves with light sense, for newcomers.

    On its turn it makes the heuristic's move only some of the time (``sense``);
    otherwise it picks at random among the moves the heuristic does not judge
    plainly bad (so it does not throw itself on a Guard it can see). It answers
    windows as the heuristic does (a Guard blocks, a Slave joins a revolt that
    wins) and claims the throne only as often as it has sense.
    """

    def __init__(self, seat: int, seed: int | str = 0, sense: float = 0.3) -> None:
        self.seat = seat
        self.rng = random.Random(f"sultans-easy:{seed}:{seat}")
        self.normal = HeuristicBot(seat, seed)
        self.sense = sense

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not legal:
            return None
        v = round_view(view)
        if v.viewer is None or v.phase == "over":
            return self.rng.choice(legal) if pending else None
        if not pending:
            return self.normal.act(view, legal, False) if self.rng.random() < self.sense else None
        acts = [a for a in legal if a != "claim"] or legal
        if v.phase != "turn" or self.rng.random() < self.sense:
            return self.normal.act(view, legal, True)
        b = Board(v)
        fair = [a for a in acts if self.normal._score(b, a) > -1.0]
        return self.rng.choice(fair or acts)


def make_bot(seat: int, kind: str, seed: int) -> HeuristicBot | RandomBot | EasyBot:
    """A bot for ``seat`` (``GameSpec.new_bot``): ``kind`` is ``"easy"``, ``"normal"``
    (also called ``"heuristic"``) or ``"random"``. The strong level searches with the
    engine (:mod:`engine.sultans.search`) and is made there."""
    if kind in ("heuristic", "normal"):
        return HeuristicBot(seat, seed)
    if kind == "easy":
        return EasyBot(seat, seed)
    if kind == "random":
        return RandomBot(seat, seed)
    raise ValueError(f"unknown bot kind {kind!r}; expected 'easy', 'normal' or 'random'")

