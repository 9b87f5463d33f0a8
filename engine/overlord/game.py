"""Kill the Overlord: the whole game, one file of rules (docs/rules/overlord.md).

The flow of a game is written as one sequential procedure (``_run``), a
generator that *yields* a :class:`Prompt` whenever seats must decide and is
resumed with their answers. ``play`` checks an answer against the prompt's
legal options (so an illegal action changes nothing) and resumes the flow
once every asked seat has answered (reaction windows ask several seats at
once, K-ORD-5). All chance comes from one ``random.Random(seed)``, so a seed
plus the ordered actions replays a game exactly.

Rule ids in comments point to ``docs/rules/overlord.md``; "Ruling (H3)" marks a
case the rules do not decide, read as close to the seed as we could.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from engine.overlord.notation import Action, OverlordIllegal, parse
from engine.overlord.rules import DESPERATION, PASSING, RuleSet, load_ruleset
from engine.overlord.views import (
    ChainCard,
    Event,
    Outcome,
    OverlordView,
    Param,
    PathStep,
    PromptView,
    SeatView,
    ShownHand,
)


@dataclass
class Prompt:
    """Seats that must answer now, each with its legal options (canonical order, K-TIME-1)."""

    kind: str
    seats: list[int]  # asked, in answer-priority order (K-ORD-5)
    options: dict[int, list[str]]
    actor: int | None = None
    card: str | None = None
    target: int | None = None
    answers: dict[int, Action] = field(default_factory=dict)

    def owed(self) -> list[int]:
        return [s for s in self.seats if s not in self.answers]


@dataclass
class _Played:
    seat: int
    card: str
    target: int | None = None
    direction: str | None = None


@dataclass(frozen=True)
class OrderPoint:
    """Where a game built mid-way (``Game.at_order``) starts: inside the order phase
    (K-RND-5) of ``round``, when the ruler gives the order (``holder`` None or
    executed, K-ORD-1) or the living holder acts (K-ORD-3), with no card on the table. Everything else a
    seat's view shows: the discard pile, who is alive with which token, the
    order's path and transfers this phase, the Bureaucrat's ban, a pending
    Uprising, the hands the Soothsayer showed (cards, round, stale)."""

    round: int
    discard: Sequence[str] = ()
    alive: Sequence[bool] | None = None
    tokens: Sequence[int | None] | None = None
    holder: int | None = None
    holder_giver: int | None = None
    path: Sequence[PathStep] = ()
    transfers: int = 0
    banned: str | None = None
    uprising: tuple[int, int] | None = None
    shown: dict[int, tuple[list[str], int, bool]] = field(default_factory=dict)


class _PhaseOver(Exception):
    """The order phase ends at once (Revolution, the 300-transfer cap)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _GameOver(Exception):
    pass


Flow = Generator[Prompt, dict[int, Action], None]


class Game:
    """One game of Kill the Overlord (many rounds). Also an ``engine.api.GameTable``."""

    # ------------------------------------------------------------------ setup
    def __init__(
        self,
        roles: Sequence[str],
        *,
        hands: Sequence[Sequence[str]] | None = None,
        gold: Sequence[int] | None = None,
        deck: Sequence[str] | None = None,
        seed: int = 0,
        ruleset: str | RuleSet = "house",
        coronation: int | None = None,
        round_limit: int = 30,
        at: OrderPoint | None = None,
    ) -> None:
        self.rules: RuleSet = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        rs = self.rules
        n = len(roles)
        if n < 2:
            raise ValueError("Kill the Overlord needs at least 2 seats")
        for r in roles:
            try:
                rs.role(r)
            except KeyError:
                raise ValueError(f"unknown role {r!r} in rule set {rs.name!r}") from None
        ranks = [rs.role(r).rank for r in roles]
        if 8 not in ranks or len(set(ranks)) != n:  # K-SET-2
            raise ValueError("roles need the rank-8 role and distinct ranks (K-SET-2)")
        if round_limit < 1:
            raise ValueError("round_limit must be at least 1")
        self._init: dict[str, object] = {
            "roles": list(roles), "hands": [list(h) for h in hands] if hands is not None else None,
            "gold": list(gold) if gold is not None else None, "deck": list(deck) if deck is not None else None,
            "seed": seed, "ruleset": rs, "coronation": coronation, "round_limit": round_limit, "at": at,
        }
        self.seed = seed
        self.rng = random.Random(seed)
        self.n = n
        self.roles: list[str] = list(roles)
        self.gold: list[int] = list(gold) if gold is not None else [rs.start_gold] * n  # K-SET-4
        if len(self.gold) != n or min(self.gold) < 0:
            raise ValueError("gold needs one non-negative amount per seat")
        order = rs.card_order()
        self.hands: list[list[str]] = [[] for _ in range(n)]
        if hands is not None:
            if len(hands) != n:
                raise ValueError("hands needs one list per seat")
            for s, h in enumerate(hands):
                for c in h:
                    if c not in order:
                        raise ValueError(f"unknown card {c!r}")
                self.hands[s] = sorted(h, key=order.index)
        if deck is not None:
            for c in deck:
                if c not in order:
                    raise ValueError(f"unknown card {c!r}")
            self.deck: list[str] = list(deck)  # top first
        else:
            pool = rs.full_deck()
            for h in self.hands:
                for c in h:
                    if c in pool:
                        pool.remove(c)
            self.rng.shuffle(pool)
            self.deck = pool
        self.discard: list[str] = []
        self.total_cards = len(self.deck) + sum(len(h) for h in self.hands)
        self.coronation = coronation if coronation is not None else rs.coronation
        self.round_limit = round_limit
        self.round = 0
        self.phase = "start"
        self.alive = [True] * n
        self.tokens: list[int | None] = [None] * n
        self.holder: int | None = None
        self.holder_giver: int | None = None  # who gave the holder the order (None: Plead Guilty)
        self.path: list[PathStep] = []
        self.transfers = 0
        self.table: list[_Played] = []
        self.banned: str | None = None
        self.uprising: tuple[int, int] | None = None
        self.rank8_died = False
        self.hand_version = [0] * n
        self.shown: dict[int, tuple[list[str], int, int]] = {}
        self.events: list[Event] = []
        self._round_start: dict[int, int] = {}
        self._notes: list[list[Event]] = [[] for _ in range(n)]
        self.actions: list[tuple[int, str]] = []
        self._outcome: Outcome | None = None
        self._prompt: Prompt | None = None
        if at is not None:
            self._place(at)
        self._flow: Flow = self._run(resume=at is not None)
        self._resume(None)

    def _place(self, at: OrderPoint) -> None:
        """Set the state of ``at`` (see :class:`OrderPoint`), checking that it is one."""
        n, order = self.n, self.rules.card_order()
        if at.round < 1 or at.round > self.round_limit:
            raise ValueError("the round must be within the round limit")
        for c in at.discard:
            if c not in order:
                raise ValueError(f"unknown card {c!r}")
        alive = list(at.alive) if at.alive is not None else [True] * n
        tokens: list[int | None] = list(at.tokens) if at.tokens is not None else [None] * n
        if len(alive) != n or len(tokens) != n:
            raise ValueError("alive and tokens need one entry per seat")
        if any((t is None) != a for a, t in zip(alive, tokens, strict=True)):
            raise ValueError("the executed, and only they, hold a token (K-ORD-7)")
        ruler = next((s for s in range(n) if alive[s] and self.rank(s) == 8), None)
        if ruler is None or alive.count(True) < 2:
            raise ValueError("the order phase needs a living ruler and another living player (K-ORD-8)")
        if at.holder is not None and not 0 <= at.holder < n:
            raise ValueError(f"no seat {at.holder} holds the order")
        if at.banned is not None and at.banned not in order:
            raise ValueError(f"unknown card {at.banned!r}")
        self.round = at.round
        self._round_start[at.round] = 0
        self.discard = list(at.discard)
        self.total_cards += len(self.discard)
        self.alive, self.tokens = alive, tokens
        self.holder, self.holder_giver = at.holder, at.holder_giver
        self.path, self.transfers = list(at.path), at.transfers
        self.banned, self.uprising = at.banned, at.uprising
        self.phase = "order"
        for s, (cards, rnd, stale) in at.shown.items():
            self.shown[s] = (list(cards), rnd, -1 if stale else self.hand_version[s])

    @classmethod
    def new(
        cls,
        roles: Sequence[str],
        hands: Sequence[Sequence[str]] | None = None,
        gold: Sequence[int] | None = None,
        deck: Sequence[str] | None = None,
        seed: int = 0,
        *,
        ruleset: str | RuleSet = "house",
        coronation: int | None = None,
        round_limit: int = 30,
    ) -> Game:
        """An explicit deal (tests): roles per seat, hands, gold, deck (top first)."""
        return cls(
            roles, hands=hands, gold=gold, deck=deck, seed=seed, ruleset=ruleset,
            coronation=coronation, round_limit=round_limit,
        )

    @classmethod
    def at_order(
        cls,
        roles: Sequence[str],
        hands: Sequence[Sequence[str]],
        gold: Sequence[int],
        deck: Sequence[str],
        at: OrderPoint,
        seed: int = 0,
        *,
        ruleset: str | RuleSet = "house",
        coronation: int | None = None,
        round_limit: int = 30,
    ) -> Game:
        """A game met in the middle (the strong bot's samples): roles, hands, gold and the
        deck (top first) now, at the decision ``at`` in the order phase; the rest of the
        game flows from there as any other (its log starts at that point)."""
        return cls(
            roles, hands=hands, gold=gold, deck=deck, seed=seed, ruleset=ruleset,
            coronation=coronation, round_limit=round_limit, at=at,
        )

    @classmethod
    def random(
        cls,
        players: int,
        seed: int = 0,
        *,
        ruleset: str | RuleSet = "house",
        expansion_ranks: Sequence[int] = (),
        coronation: int | None = None,
        round_limit: int = 30,
        options: BaseModel | None = None,
    ) -> Game:
        """K-SET-4: roles of the player count's set (K-SET-2, K-XROLE-1) dealt from the seed.

        ``options`` (an ``OverlordOptions``) overrides the keyword arguments.
        """
        if options is not None:
            o = options.model_dump()
            ruleset = o.get("ruleset", ruleset)
            expansion_ranks = o.get("expansion_ranks", expansion_ranks)
            coronation = o.get("coronation", coronation)
            round_limit = o.get("round_limit", round_limit)
        rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        roles = rs.role_set(players, tuple(expansion_ranks))
        deal = random.Random(f"overlord-roles-{seed}")
        deal.shuffle(roles)
        return cls(roles, seed=seed, ruleset=rs, coronation=coronation, round_limit=round_limit)

    def clone(self) -> Game:
        """The same game rebuilt from its deal and seed by replaying every action (replay is exact)."""
        g = Game(**self._init)  # type: ignore[arg-type]
        for seat, text in self.actions:
            g.play(seat, text)
        return g

    # ------------------------------------------------------------- GameTable
    @property
    def game(self) -> str:
        return "overlord"

    @property
    def players(self) -> int:
        return self.n

    def pending(self) -> set[int]:
        if self._prompt is None:
            return set()
        return set(self._prompt.owed())

    OWN_CHOICES = frozenset({"levy", "name", "show", "gift"})
    """Prompts that ask a role's holder to use its power or pass: its own
    decision (the Tyrant's levy is put together seat by seat), not a reaction."""

    def is_window(self) -> bool:
        """Plead Guilty and Retaliate windows, and single-seat answers that may
        pass (the Advisor's ignore, the Truant's draw, the Executioner's
        substitute) react; a turn, a forced choice and the round-start powers
        (:data:`OWN_CHOICES`) do not."""
        p = self._prompt
        if p is None or p.kind in self.OWN_CHOICES:
            return False
        return len(p.owed()) > 1 or any("pass" in p.options.get(s, ()) for s in p.owed())

    def legal(self, seat: int) -> list[str]:
        p = self._prompt
        if p is None or seat not in p.options or seat in p.answers:
            return []
        return list(p.options[seat])

    def play(self, seat: int, text: str) -> None:
        self.apply(seat, parse(text), text)

    def apply(self, seat: int, action: Action, text: str | None = None) -> None:
        raw = text if text is not None else str(action)
        if self._outcome is not None:
            raise OverlordIllegal(f"seat {seat}: {raw!r}: the game is over", code="game-over", text=raw, seat=seat)
        p = self._prompt
        if p is None or seat not in p.options or seat in p.answers:
            raise OverlordIllegal(
                f"seat {seat}: {raw!r}: seat {seat} has nothing to answer now", code="not-pending", text=raw, seat=seat
            )
        canon = str(action)
        if canon not in p.options[seat]:
            raise OverlordIllegal(
                f"seat {seat}: {raw!r} is not legal now ({p.kind}); legal: {', '.join(p.options[seat])}",
                code="illegal", text=raw, seat=seat,
            )
        p.answers[seat] = action
        self.actions.append((seat, canon))
        if not p.owed():
            self._resume(dict(p.answers))

    def timeout_action(self, seat: int) -> str:
        """K-TIME-1: options are generated in canonical order, ``pass`` first, ``die`` last."""
        opts = self.legal(seat)
        if not opts:
            raise OverlordIllegal(f"seat {seat} has nothing to answer now", code="not-pending", seat=seat)
        return opts[0]

    @property
    def round_number(self) -> int:
        return self.round

    def round_view(self, number: int, seat: int | None) -> None:
        """No round of a game has a result of its own: the game's end is its
        result (K-END-1), and a round's executions and role exchange are in its log."""
        return None

    def between_rounds(self) -> bool:
        return False  # rounds flow on inside the game; the role exchange is automatic

    def next_round(self) -> None:
        raise OverlordIllegal("Kill the Overlord has no pause between rounds", code="no-rounds")

    def is_over(self) -> bool:
        return self._outcome is not None

    def standings(self) -> list[int]:
        return list(self.gold)

    def winners(self) -> list[int]:
        return [self._outcome.winner] if self._outcome is not None else []

    def outcome(self) -> Outcome | None:
        return self._outcome

    # --------------------------------------------------------------- the flow
    def _resume(self, answers: dict[int, Action] | None) -> None:
        try:
            self._prompt = self._flow.send(answers)  # type: ignore[arg-type]
        except StopIteration:
            self._prompt = None

    def _ask(
        self, seats: list[int], kind: str, options: dict[int, list[str]], *,
        actor: int | None = None, card: str | None = None, target: int | None = None,
    ) -> Generator[Prompt, dict[int, Action], dict[int, Action]]:
        answers = yield Prompt(kind, seats, options, actor=actor, card=card, target=target)
        self._prompt = None
        return answers

    def _ask1(
        self, seat: int, kind: str, options: list[str], *,
        actor: int | None = None, card: str | None = None, target: int | None = None,
    ) -> Generator[Prompt, dict[int, Action], Action]:
        ans = yield from self._ask([seat], kind, {seat: options}, actor=actor, card=card, target=target)
        return ans[seat]

    def _run(self, resume: bool = False) -> Flow:
        try:
            if resume:  # a game built at an OrderPoint: its round goes on from there
                yield from self._round_end(resume=True)
            while True:
                yield from self._round()
        except _GameOver:
            self.phase = "over"
            self._prompt = None

    # -------------------------------------------------------------- helpers
    def rank(self, seat: int) -> int:
        return self.rules.role(self.roles[seat]).rank

    def living(self) -> list[int]:
        return [s for s in range(self.n) if self.alive[s]]

    def ruler(self) -> int | None:
        """K-SET-5: whoever holds the rank-8 role now (a dead player's role is in the centre)."""
        for s in self.living():
            if self.rank(s) == 8:
                return s
        return None

    def _ring_from(self, seat: int) -> list[int]:
        """Living players clockwise starting at the left of ``seat`` (excluding it) (K-ORD-9)."""
        return [(seat + i) % self.n for i in range(1, self.n) if self.alive[(seat + i) % self.n]]

    def _step(self, seat: int, k: int) -> int | None:
        """The k-th living player to the left (k>0) or right (k<0) of ``seat``; None if it lands on him."""
        ring = [seat, *self._ring_from(seat)]
        t = ring[k % len(ring)]
        return None if t == seat else t

    def _emit(self, kind: str, audience: list[int] | None = None, **params: Param) -> None:
        e = Event(n=len(self.events), round=self.round, kind=kind, params=params, audience=audience)
        self.events.append(e)
        if kind in ("gave-card", "passed-card") and audience is not None:
            for s in audience:  # the notebook: cards this seat gave or received, kept all game
                self._notes[s].append(e)

    def _limit(self, seat: int) -> int | None:
        return self.rules.limit_of(self.roles[seat])

    def _sort_hand(self, seat: int) -> None:
        order = self.rules.card_order()
        self.hands[seat].sort(key=order.index)
        self.hand_version[seat] += 1

    def _add(self, seat: int, card: str) -> None:
        self.hands[seat].append(card)
        self._sort_hand(seat)

    def _remove(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self._sort_hand(seat)

    def _symbol(self, card: str) -> str:
        return self.rules.card(card).symbol

    def _has_shield(self, seat: int) -> bool:
        return any(self._symbol(c) == "shield" for c in self.hands[seat])

    def _distinct(self, seat: int) -> list[str]:
        out: list[str] = []
        for c in self.hands[seat]:
            if c not in out:
                out.append(c)
        return out

    def _gain(self, seat: int, amount: int, why: str) -> None:
        if amount > 0:
            self.gold[seat] += amount
            self._emit("gain", seat=seat, gold=amount, why=why)

    def _take(self, src: int, dst: int | None, amount: int, why: str) -> int:
        """Move up to ``amount`` gold from ``src`` to ``dst`` (None: the treasury). Never negative (K-CARD-1)."""
        amount = min(amount, self.gold[src])
        if amount <= 0:
            return 0
        self.gold[src] -= amount
        if dst is not None:
            self.gold[dst] += amount
        self._emit("gold", src=src, dst=dst, gold=amount, why=why)
        return amount

    def _draw(self, seat: int, count: int, why: str) -> None:
        """Draw ``count`` cards; an empty deck first takes in the discard pile (K-RND-7)."""
        got: list[str] = []
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    break
                self.deck = self.discard
                self.discard = []
                self.rng.shuffle(self.deck)
                self._emit("deck-refilled", cards=len(self.deck))
            got.append(self.deck.pop(0))
        for c in got:
            self.hands[seat].append(c)
        if got:
            self._sort_hand(seat)
        self._emit("draw", seat=seat, count=len(got), why=why)
        if got:
            self._emit("drew", audience=[seat], seat=seat, cards=got)

    def _discard_from_hand(self, seat: int, card: str, why: str) -> None:
        """A discard from hand as an effect or a cost: public; a book card may set off Uprising."""
        self._remove(seat, card)
        self.discard.append(card)
        self._emit("discard", seat=seat, card=card, why=why)
        if self._symbol(card) == "book":
            self._book_discarded(seat)

    def _to_discard(self, card: str) -> None:
        self.discard.append(card)

    # ------------------------------------------------------------- a round
    def _round(self) -> Flow:
        self.round += 1
        self._round_start[self.round] = len(self.events)
        self.phase = "start"
        self.banned = None
        self.path = []  # "the order's path this phase": cleared for the new round
        self.transfers = 0
        self._emit("round", round=self.round)
        # K-RND-1: the Tyrant's levy, then the Bureaucrat names
        for s in self.living():
            if self.roles[s] == "tyrant":
                yield from self._levy(s)
        for s in self.living():
            if self.roles[s] == "bureaucrat":
                yield from self._bureaucrat(s)
        # K-RND-2: the draw, from the ruler clockwise
        self.phase = "draw"
        ruler = self.ruler()
        assert ruler is not None
        for s in [ruler, *self._ring_from(ruler)]:
            lim = self._limit(s)
            k = self.rules.draw_per_round if lim is None else max(0, min(self.rules.draw_per_round, lim - len(self.hands[s])))
            self._draw(s, k, "round")
        for s in self.living():
            if self.roles[s] == "soothsayer":
                yield from self._soothsayer(s)
        # K-RND-3: income (not in round 1)
        self.phase = "income"
        ruler = self.ruler()
        assert ruler is not None
        if self.round > 1:
            for s in range(self.n):
                role = self.rules.role(self.roles[s])
                if role.income > 0:
                    self._gain(s, role.income, "income")
                elif role.income < 0:
                    dst = ruler if role.income_to == "ruler" else None
                    if dst != s:
                        self._take(s, dst, -role.income, "income")
        # K-RND-4: coronation
        if self.gold[ruler] >= self.coronation:
            self._finish(ruler, "coronation")
        yield from self._round_end()

    def _round_end(self, resume: bool = False) -> Flow:
        """K-RND-5 to K-RND-7 and the round limit; ``resume``: the order phase is under way."""
        # K-RND-5: the order phase
        self.phase = "order"
        yield from self._order_phase(resume)
        # K-RND-6: role exchange
        self.phase = "exchange"
        self._exchange()
        # K-RND-7: reshuffle deck and discard together; hands are kept
        self.deck = self.deck + self.discard
        self.discard = []
        self.rng.shuffle(self.deck)
        self._emit("reshuffle", cards=len(self.deck))
        # K-END-2: the round limit
        if self.round >= self.round_limit:
            best = max(range(self.n), key=lambda s: (self.gold[s], self.rank(s)))
            tied = self.gold.count(self.gold[best]) > 1  # the higher rank won it
            self._finish(best, "round-limit", tie=tied)

    def _finish(self, winner: int, reason: str, *, tie: bool = False) -> None:
        self._outcome = Outcome(winner=winner, reason=reason, gold=list(self.gold))
        if tie:
            self._emit("game-over", winner=winner, why=reason, tie=True)
        else:
            self._emit("game-over", winner=winner, why=reason)
        raise _GameOver

    def _levy(self, tyrant: int) -> Flow:
        """K-XROLE-TYRANT: up to 4 gold in total from other players, never from the Knight.

        Ruling (H3): ``pass`` takes nothing; the options list every split (sorted by seat).
        """
        payers = [s for s in self._ring_from(tyrant) if self.roles[s] != "knight" and self.gold[s] > 0]
        payers.sort()
        opts = ["pass"]
        total = self.rules.tyrant_levy

        def rec(i: int, left: int, acc: list[tuple[int, int]]) -> None:
            if i == len(payers):
                if acc:
                    opts.append(str(Action("levy", levy=tuple(acc))))
                return
            s = payers[i]
            for a in range(0, min(left, self.gold[s]) + 1):
                rec(i + 1, left - a, [*acc, (s, a)] if a else acc)

        rec(0, total, [])
        a = yield from self._ask1(tyrant, "levy", opts, actor=tyrant)
        if a.verb == "pass":
            self._emit("levy", seat=tyrant, payers=[], amounts=[])
            return
        self._emit("levy", seat=tyrant, payers=[s for s, _ in a.levy], amounts=[g for _, g in a.levy])
        for s, g in a.levy:
            self._take(s, tyrant, g, "levy")

    def _bureaucrat(self, b: int) -> Flow:
        """K-XROLE-BUREAUCRAT: name a card; all but the Knight discard every copy; banned this round."""
        opts = ["pass", *[f"name {c}" for c in self.rules.card_order()]]
        a = yield from self._ask1(b, "name", opts, actor=b)
        if a.verb == "pass":
            self._emit("name", seat=b, card=None)
            return
        card = a.card
        assert card is not None
        self.banned = card
        self._emit("name", seat=b, card=card)
        for s in [b, *self._ring_from(b)]:
            if self.roles[s] == "knight":
                continue
            while card in self.hands[s]:
                self._discard_from_hand(s, card, "named")

    def _soothsayer(self, s: int) -> Flow:
        """K-XROLE-SOOTHSAYER: after the draw, one other player shows their hand to all.

        Ruling (H3): "make one player show" -- another player, never himself.
        """
        opts = ["pass", *[f"show {t}" for t in self._ring_from(s)]]
        a = yield from self._ask1(s, "show", opts, actor=s)
        if a.verb == "pass":
            self._emit("show", seat=s, target=None, cards=[])
            return
        t = a.seat
        assert t is not None
        self.shown[t] = (list(self.hands[t]), self.round, self.hand_version[t])
        self._emit("show", seat=s, target=t, cards=list(self.hands[t]))

    # -------------------------------------------------------- the order phase
    def _order_phase(self, resume: bool = False) -> Flow:
        """K-RND-5; ``resume``: at an :class:`OrderPoint`, the phase's start is behind."""
        if not resume:
            self.path = []
            self.transfers = 0
            self.table = []
            self.uprising = None
            self.rank8_died = False
            self.holder = None
            self.holder_giver = None
            self._emit("order-phase")
        reason = "rank-8-died"
        try:
            if not resume:
                # K-ORD-2: the Squire draws 1 (round 1 too; not optional); the Merchant may trade
                for s in self.living():
                    if self.roles[s] == "squire":
                        self._draw(s, 1, "squire")
                for s in self.living():
                    if self.roles[s] == "merchant":
                        yield from self._merchant(s)
            # (at an OrderPoint: the ruler gives the order when nobody holds it or its holder died)
            command = not resume or self.holder is None or not self.alive[self.holder]
            while True:
                if command:
                    yield from self._command()
                else:
                    yield from self._holder_acts()
                status = self._status()
                if status == "end":
                    break
                if status == "win":
                    ruler = self.ruler()
                    assert ruler is not None
                    self._finish(ruler, "last-alive")
                command = status == "recommand"
        except _PhaseOver as end:
            reason = end.reason
        for p in self.table:  # cards still on the table when the phase ends at once
            self._to_discard(p.card)
        self.table = []
        self.uprising = None
        self._emit("order-phase-end", why=reason)

    def _status(self) -> str:
        """K-ORD-8, after each step."""
        if self.rank8_died:
            return "end"
        if len(self.living()) == 1:
            return "win"
        if self.holder is None or not self.alive[self.holder]:
            return "recommand"
        return "continue"

    def _merchant(self, m: int) -> Flow:
        """K-XROLE-MERCHANT: may give another player 2 gold, then draws 2."""
        opts = ["pass"]
        if self.gold[m] >= self.rules.merchant_gift:
            opts += [f"gift {t}" for t in self._ring_from(m)]
        a = yield from self._ask1(m, "gift", opts, actor=m)
        if a.verb == "pass":
            self._emit("gift", seat=m, target=None)
            return
        t = a.seat
        assert t is not None
        self._emit("gift", seat=m, target=t)
        self._take(m, t, self.rules.merchant_gift, "gift")
        self._draw(m, self.rules.merchant_draw, "merchant")

    def _fee_ok(self, giver: int, target: int, extra: int = 0) -> bool:
        """K-XROLE-TAXCOLLECTOR: a transfer to him needs the fee (the Knight never pays)."""
        if self.roles[target] != "taxcollector" or self.roles[giver] == "knight":
            return True
        return self.gold[giver] >= self.rules.tax_fee + extra

    def _command(self) -> Flow:
        """K-ORD-1: the ruler gives the order to any other living player (no card)."""
        ruler = self.ruler()
        assert ruler is not None
        ring = self._ring_from(ruler)
        targets = [t for t in ring if self._fee_ok(ruler, t)]
        if not targets:  # Ruling K-ORD-1: only the Tax Collector left, ruler short of gold
            targets = ring
        a = yield from self._ask1(ruler, "command", [f"order {t}" for t in targets], actor=ruler)
        t = a.seat
        assert t is not None
        self._emit("command", seat=ruler, target=t)
        roles = list(self.roles)
        yield from self._transfer(ruler, t, "command", None, roles, None)

    def _transfer(
        self, giver: int, receiver: int, how: str, card: str | None, roles: list[str],
        effects: Callable[[], Flow] | None, played: _Played | None = None,
    ) -> Flow:
        """K-ORD-6 steps 2-6 (the Retaliate window, step 1, is done by the caller)."""
        # (2) the Tax Collector's fee
        if roles[receiver] == "taxcollector" and roles[giver] != "knight":
            self._take(giver, receiver, self.rules.tax_fee, "fee")
        elif roles[receiver] == "taxcollector":
            self._emit("protected", seat=giver, role="taxcollector")  # K-ROLE-KNIGHT: the log says why no fee
        # (3) the order moves
        self._move_order(giver, receiver, how, card)
        # (4) the card's other effects
        if effects is not None:
            yield from effects()
        # (5) role triggers, by the roles held when the card was played; only between living players
        # (Ruling (H3): a trigger whose giver or receiver died during the effects is skipped)
        if roles[giver] == "captain" and self.alive[giver] and self.alive[receiver]:
            if roles[receiver] != "knight":
                yield from self._forced_discard(receiver, "captain", giver)
            elif self.hands[receiver]:  # K-ROLE-KNIGHT: the log says why the Captain took nothing
                self._emit("protected", seat=receiver, role="captain")
        if (
            roles[receiver] == "truant" and self.alive[giver] and self.alive[receiver]
            and len(self.hands[giver]) > len(self.hands[receiver])
        ):
            a = yield from self._ask1(receiver, "truant", ["pass", "draw"], actor=receiver)
            if a.verb == "draw":
                self._draw(receiver, 1, "truant")
            else:
                self._emit("truant-pass", seat=receiver)
        # the card has resolved: it leaves the table before the Plead Guilty window
        if played is not None and played in self.table:
            self.table.remove(played)
            self._to_discard(played.card)
        # (6) the Plead Guilty window(s)
        yield from self._plead_windows()

    def _move_order(self, giver: int | None, receiver: int, how: str, card: str | None) -> None:
        self.holder = receiver
        self.holder_giver = giver if how != "plead-guilty" else None
        self.path.append(PathStep(seat=receiver, by=giver, how=how, card=card))
        self.transfers += 1
        self._emit("order", src=giver, dst=receiver, how=how, card=card)
        if self.transfers >= self.rules.transfer_cap:  # K-ORD-10
            raise _PhaseOver("transfer-cap")

    def _forced_discard(self, seat: int, why: str, by: int) -> Flow:
        """Discard one card of the player's choice (Victimize, Captain), if any."""
        if not self.hands[seat]:
            self._emit("no-discard", seat=seat, why=why)  # the log says why nothing was discarded
            return
        opts = [f"discard {c}" for c in self._distinct(seat)]
        a = yield from self._ask1(seat, why, opts, actor=by, target=seat)
        assert a.card is not None
        self._discard_from_hand(seat, a.card, why)

    def _plead_windows(self) -> Flow:
        """K-ORD-6 (6), K-ORD-5: every living player but the holder is asked, whatever they hold."""
        while True:
            if self._status() != "continue":
                return
            h = self.holder
            assert h is not None
            asked = self._ring_from(h)
            opts = {s: self._reaction_opts(s, "plead-guilty") for s in asked}
            ans = yield from self._ask(asked, "plead", opts, actor=h)
            pleader = next((s for s in asked if ans[s].verb == "plead-guilty"), None)
            if pleader is None:
                return
            self._remove(pleader, "plead-guilty")
            self.table.append(_Played(pleader, "plead-guilty", target=h))
            self._emit("play", seat=pleader, card="plead-guilty", target=h, direction=None)
            stands = yield from self._retaliate_chain()
            if not stands:
                # K-ORD-4: the order stays where it was. Ruling (H3): no new window; the holder acts.
                return
            self.table.pop()
            self._to_discard("plead-guilty")
            if not self.alive[pleader] or not self.alive[h] or self.holder != h:
                return
            self._move_order(h, pleader, "plead-guilty", "plead-guilty")
            self._draw(pleader, 1, "plead-guilty")
            self._gain(pleader, 1, "plead-guilty")

    def _reaction_opts(self, seat: int, card: str) -> list[str]:
        if card in self.hands[seat] and self.banned != card:
            return ["pass", card]
        return ["pass"]

    def _retaliate_chain(self) -> Generator[Prompt, dict[int, Action], bool]:
        """K-ORD-4/5: windows on the top card until nobody answers; resolve last in, first out.

        Returns whether the card at the bottom of this chain stands.
        """
        base = len(self.table) - 1
        while True:
            top = self.table[-1]
            asked = self._ring_from(top.seat)
            opts = {s: self._reaction_opts(s, "retaliate") for s in asked}
            ans = yield from self._ask(asked, "retaliate", opts, actor=top.seat, card=top.card, target=top.target)
            r = next((s for s in asked if ans[s].verb == "retaliate"), None)
            if r is None:
                break
            self._remove(r, "retaliate")
            self.table.append(_Played(r, "retaliate", target=top.seat))
            self._emit("play", seat=r, card="retaliate", target=top.seat, direction=None)
        k = len(self.table) - 1 - base
        chain = self.table[base:]
        stands = k % 2 == 0
        # top down: the top Retaliate stands and cancels the card beneath it, and so on; each card
        # stays on the table until it is dealt with (cards still resolving, K-RND-7)
        for j in range(k, -1, -1):
            p = chain[j]
            cancelled = (k - j) % 2 == 1
            if j == 0 and not cancelled:
                break  # the base card stays on the table to resolve
            if cancelled:
                self._emit("cancelled", seat=p.seat, card=p.card)
                if (
                    self.roles[p.seat] == "executioner" and self.alive[p.seat]
                    and self._symbol(p.card) == "book" and self.hands[p.seat]
                ):
                    # K-XROLE-EXECUTIONER (Ruling): discard another card instead; the cancelled card returns.
                    # Ruling (H3): asked only when he holds another card; any card may be the substitute
                    sub = ["pass", *[f"substitute {c}" for c in self._distinct(p.seat)]]
                    a = yield from self._ask1(p.seat, "substitute", sub, actor=p.seat, card=p.card)
                    if a.verb == "substitute":
                        assert a.card is not None
                        self.table.pop()
                        self._add(p.seat, p.card)
                        self._emit("substitute", seat=p.seat, card=a.card, returned=p.card)
                        self._discard_from_hand(p.seat, a.card, "substitute")
                        continue
            self.table.pop()
            self._to_discard(p.card)
        if stands and not self.alive[chain[0].seat]:
            # Ruling (H3): its player died while the chain resolved (Uprising): the card does nothing
            self.table.pop()
            self._to_discard(chain[0].card)
            self._emit("fizzled", seat=chain[0].seat, card=chain[0].card)
            return False
        return stands

    # ----------------------------------------------------------- the holder
    def shield_targets(self, seat: int, card: str) -> list[int]:
        """K-ORD-9 and section 4: living seats ``seat`` may give the order to with ``card``."""
        if self.roles[seat] == "general":  # K-ROLE-GENERAL: any other living player
            cand = self._ring_from(seat)
        elif card == "sidestep":
            cand = [self._step(seat, -1), self._step(seat, -2)]  # type: ignore[list-item]
        elif card == "victimize":
            cand = [self._step(seat, 1), self._step(seat, 2)]  # type: ignore[list-item]
        elif card == "capitalize":
            cand = [self._step(seat, 2), self._step(seat, -2)]  # type: ignore[list-item]
        elif card in ("coercion", "conspire"):
            cand = [self._step(seat, 1), self._step(seat, -1)]  # type: ignore[list-item]
        elif card == "make-an-example":
            others = self._ring_from(seat)
            lowest = all(self.rank(seat) < self.rank(o) for o in others)
            cand = others if lowest else [o for o in others if self.rank(o) < self.rank(seat)]
        elif card == "extortion":
            cand = self._ring_from(seat)
        elif card == "revolt":
            cand = [o for o in self._ring_from(seat) if abs(self.rank(o) - self.rank(seat)) == 1]
        else:
            return []
        out: list[int] = []
        for t in self._ring_from(seat):  # clockwise order, no duplicates, never himself
            if t in cand and t not in out and self._fee_ok(seat, t):
                out.append(t)
        return out

    def _holder_options(self, h: int) -> list[str]:
        """K-ORD-3, in canonical order (K-TIME-1): cards, role passes, desperation, ``die`` last."""
        opts: list[str] = []
        hand = self.hands[h]
        for c in self.rules.card_order():
            if c not in hand or c == self.banned or c not in PASSING:
                continue
            for t in self.shield_targets(h, c):
                if c == "conspire" and self.roles[h] == "general":
                    opts += [f"play conspire {t} left", f"play conspire {t} right"]
                else:
                    opts.append(f"play {c} {t}")
        ring = self._ring_from(h)
        if self.roles[h] == "peasant" and self.gold[h] >= 1:
            opts += [f"pay {t}" for t in ring if self._fee_ok(h, t, extra=1)]
        if self.roles[h] == "outlaw" and hand:
            for t in ring:
                if self._fee_ok(h, t):
                    opts += [f"discard-pass {t} {c}" for c in self._distinct(h)]
        if not self._has_shield(h):
            for c in self.rules.card_order():
                if c in hand and c in DESPERATION and c != self.banned:
                    if c == "uprising":
                        opts += [f"play uprising {t}" for t in ring if self._fee_ok(h, t)]
                    else:
                        opts.append(f"play {c}")
        opts.append("die")
        return opts

    def _holder_acts(self) -> Flow:
        h = self.holder
        assert h is not None
        a = yield from self._ask1(h, "turn", self._holder_options(h), actor=h)
        roles = list(self.roles)
        if a.verb == "die":
            self._emit("die", seat=h)
            self._execute(h)
            return
        t = a.seat
        if a.verb == "pay":  # K-ROLE-PEASANT
            assert t is not None
            self._emit("pay", seat=h, target=t)
            self._take(h, t, 1, "pay")
            yield from self._transfer(h, t, "pay", None, roles, None)
            return
        if a.verb == "discard-pass":  # K-XROLE-OUTLAW
            assert t is not None and a.card is not None
            self._emit("discard-pass", seat=h, target=t, card=a.card)
            self._discard_from_hand(h, a.card, "outlaw-pass")
            if not self.alive[h] or not self.alive[t] or self.rank8_died:
                return  # Ruling (H3): an Uprising set off by the cost killed one of them: no pass
            yield from self._transfer(h, t, "discard-pass", None, roles, None)
            return
        assert a.verb == "play" and a.card is not None
        yield from self._play(h, a, roles)

    def _play(self, h: int, a: Action, roles: list[str]) -> Flow:
        card = a.card
        assert card is not None
        t = a.seat
        self._remove(h, card)
        self.table.append(_Played(h, card, target=t, direction=a.direction))
        self._emit("play", seat=h, card=card, target=t, direction=a.direction)
        stands = yield from self._retaliate_chain()
        if not stands:
            return  # K-ORD-4: the holder acts again, no Plead Guilty window
        played = self.table[-1]
        if t is not None and not self.alive[t]:
            # Ruling (H3): its target died while the chain resolved (an Uprising set off by a
            # substitute): no legal target any more, the card does nothing and the holder acts again
            self.table.pop()
            self._to_discard(card)
            self._emit("fizzled", seat=h, card=card)
            return
        try:
            if card in DESPERATION:
                yield from self._desperation(h, card, t, roles, played)
            else:
                assert t is not None
                yield from self._transfer(
                    h, t, "card", card, roles, lambda: self._effects(h, t, card, roles, a), played
                )
        finally:
            if played in self.table:
                self.table.remove(played)
                self._to_discard(card)

    def _effects(self, h: int, t: int, card: str, roles: list[str], a: Action) -> Flow:
        """Section 4: a shield card's other effects (K-ORD-6 step 4), Knight protections included."""
        # Ruling (H3): the Knight's protection, like the role triggers, goes by the roles held when
        # the card was played (a Revolt swaps roles only in this step)
        knight = roles[t] == "knight"
        if card == "sidestep":
            self._draw(h, 1, "sidestep")
        elif card == "victimize":
            if knight:
                self._emit("protected", seat=t, card=card)
            elif self.hands[t]:
                yield from self._forced_discard(t, "victimize", h)
            else:
                self._take(t, h, 1, "victimize")
        elif card == "capitalize":
            self._gain(h, 2, "capitalize")
        elif card == "coercion":
            if knight or not self.hands[t]:
                # Ruling (H3): a receiver with no card (hand sizes are public) is not asked
                self._emit("choose-gold", seat=t, auto=True)
                self._gain(h, 2, "coercion")
            else:
                opts = ["choose gold", *[f"choose card {c}" for c in self._distinct(t)]]
                c = yield from self._ask1(t, "coercion", opts, actor=h, card=card, target=t)
                if c.verb == "choose-gold":
                    self._emit("choose-gold", seat=t, auto=False)
                    self._gain(h, 2, "coercion")
                else:
                    assert c.card is not None
                    self._remove(t, c.card)
                    self._add(h, c.card)
                    self._emit("give-card", src=t, dst=h)
                    self._emit("gave-card", audience=sorted({t, h}), src=t, dst=h, card=c.card)
        elif card == "make-an-example":
            self._gain(h, 1, "make-an-example")
        elif card == "extortion":
            if knight:
                self._emit("protected", seat=t, card=card)
            else:
                self._take(t, h, 1, "extortion")
        elif card == "conspire":
            yield from self._conspire(h, t, a)
        elif card == "revolt":
            if roles[h] == "general" and abs(self.rules.role(roles[h]).rank - self.rules.role(roles[t]).rank) != 1:
                self._emit("revolt", seat=h, target=t, swapped=False)
            else:
                self.roles[h], self.roles[t] = self.roles[t], self.roles[h]
                self._emit("revolt", seat=h, target=t, swapped=True)

    def _conspire(self, h: int, t: int, a: Action) -> Flow:
        """K-CARD-CONSPIRE: simultaneous secret gifts to the next living player in the direction."""
        if a.direction is not None:
            step = 1 if a.direction == "left" else -1
        else:
            step = 1 if self._step(h, 1) == t else -1
        # only players holding a card are asked (hand sizes are public: no leak), never the Knight
        givers = [s for s in [h, *self._ring_from(h)] if self.hands[s] and self.roles[s] != "knight"]
        self._emit("conspire", seat=h, direction="left" if step == 1 else "right", givers=givers)
        if not givers:
            return
        opts = {s: [f"give {c}" for c in self._distinct(s)] for s in givers}
        ans = yield from self._ask(givers, "conspire", opts, actor=h, card="conspire", target=t)
        moves: list[tuple[int, int, str]] = []
        for s in givers:
            dst = self._step(s, step)
            card = ans[s].card
            assert dst is not None and card is not None
            moves.append((s, dst, card))
        for s, _, card in moves:
            self.hands[s].remove(card)
        for s, dst, card in moves:
            self._add(dst, card)
            self._sort_hand(s)
            self._emit("passed-card", audience=sorted({s, dst}), src=s, dst=dst, card=card)

    def _desperation(self, h: int, card: str, t: int | None, roles: list[str], played: _Played) -> Flow:
        if card == "martyrdom":
            # Ruling (H3): executed first (killer triggers at once, K-ORD-7), then takes 7
            self._execute(h)
            self.gold[h] += self.rules.martyrdom_gold
            self._emit("gain", seat=h, gold=self.rules.martyrdom_gold, why="martyrdom")
        elif card == "revenge":
            killer = self._killer_of(h)
            self._execute(h)
            if killer is None:
                self._emit("revenge-none", seat=h)
            elif not self.alive[killer]:
                pass
            elif self.roles[killer] == "advisor":  # K-ROLE-ADVISOR: ignores another's book card
                self._emit("advisor-ignores", seat=killer, card="revenge")
            else:
                self._execute(killer, killer=None)
        elif card == "revolution":
            yield from self._revolution(h)
        elif card == "uprising":
            assert t is not None
            yield from self._transfer(h, t, "uprising", "uprising", roles, lambda: self._set_uprising(h, t), played)

    def _set_uprising(self, h: int, t: int) -> Flow:
        self.uprising = (h, t)
        self._emit("uprising", seat=h, named=t)
        return
        yield  # a generator with no prompt

    def _revolution(self, h: int) -> Flow:
        """K-CARD-REVOLUTION: living players' roles reshuffled among them; the phase ends."""
        keep: list[int] = []
        for s in self._ring_from(h):
            if self.roles[s] == "advisor":
                a = yield from self._ask1(s, "advisor", ["pass", "ignore"], actor=h, card="revolution")
                if a.verb == "ignore":
                    keep.append(s)
                    self._emit("advisor-ignores", seat=s, card="revolution")
        seats = [s for s in self.living() if s not in keep]
        pool = [self.roles[s] for s in seats]
        self.rng.shuffle(pool)
        for s, r in zip(seats, pool, strict=True):
            self.roles[s] = r
        self._emit("revolution", seat=h, roles=list(self.roles), dealt=seats)
        self.table.pop()
        self._to_discard("revolution")
        raise _PhaseOver("revolution")

    def _book_discarded(self, seat: int) -> None:
        """K-CARD-UPRISING: the first book-card discard from hand after it was played resolves it."""
        if self.uprising is None or not self.alive[seat]:
            return
        u, named = self.uprising
        self.uprising = None
        shield = self._has_shield(seat)
        victim = named if shield else u
        self._emit("uprising-resolves", seat=seat, shield=shield, victim=victim)
        if not self.alive[victim]:
            return
        if self.roles[victim] == "advisor" and victim != u:  # K-ROLE-ADVISOR
            self._emit("advisor-ignores", seat=victim, card="uprising")
            return
        self._execute(victim)

    def _killer_of(self, seat: int) -> int | None:
        """K-ORD-7: who gave the dying player the order they now hold (None by Plead Guilty / not holding)."""
        if seat != self.holder:
            return None
        return self.holder_giver

    def _execute(self, seat: int, killer: int | str | None = "auto") -> None:
        """K-ORD-7: an execution with its numbered token and killer triggers (at once)."""
        k = self._killer_of(seat) if killer == "auto" else killer
        assert k is None or isinstance(k, int)
        used = {t for t in self.tokens if t is not None}
        token = min(i for i in range(1, self.n + 1) if i not in used)
        self.tokens[seat] = token
        self.alive[seat] = False
        role = self.roles[seat]
        if self.rules.role(role).rank == 8:
            self.rank8_died = True
        self._emit("execute", seat=seat, token=token, role=role, killer=k)
        if k is None or not self.alive[k]:
            return  # a dead killer gets nothing
        if role == "outlaw":  # whoever kills the Outlaw takes 5 from the treasury
            self._gain(k, self.rules.outlaw_bounty, "outlaw-bounty")
        if self.roles[k] == "outlaw" and role != "knight":
            self._take(seat, k, self.rules.outlaw_take, "outlaw-kill")
        if self.roles[k] == "actor":  # takes the victim's role from the centre, leaves the Actor there
            self.roles[k], self.roles[seat] = role, "actor"
            self._emit("actor", seat=k, role=role, victim=seat)

    # ------------------------------------------------------ the role exchange
    def _exchange(self) -> None:
        """K-RND-6: survivors by rank held, highest first; then the executed by token (Ruling)."""
        centre = [self.roles[s] for s in range(self.n) if not self.alive[s]]
        if not centre:  # nobody executed (a Revolution ended the phase): the log says nothing changes hands
            self._emit("no-exchange")

        def rk(role: str) -> int:
            return self.rules.role(role).rank

        for s in sorted(self.living(), key=lambda s: -self.rank(s)):
            if centre:
                best = max(centre, key=rk)
                if rk(best) > self.rank(s):
                    centre.remove(best)
                    centre.append(self.roles[s])
                    self._emit("exchange", seat=s, took=best, gave=self.roles[s])
                    self.roles[s] = best
        for s in sorted((s for s in range(self.n) if not self.alive[s]), key=lambda s: self.tokens[s] or 0):
            best = max(centre, key=rk)
            centre.remove(best)
            self._emit("exchange", seat=s, took=best, gave=None)
            self.roles[s] = best
        self.alive = [True] * self.n
        self.tokens = [None] * self.n
        self.holder = None
        self.holder_giver = None

    # ------------------------------------------------------------ the views
    def answers(self, seat: int) -> list[str]:
        """Every legal action answers the prompt (nothing is optional beside it)."""
        return self.legal(seat)

    def view(self, seat: int | None, log_rounds: int | None = 2, *, quick: bool = False) -> OverlordView:
        """K-VIEW-1: everything ``seat`` may know, nothing more (``None``: a spectator).

        ``quick`` (K-ORD-11): in a reaction window, who still owes an answer is
        shown for the viewer alone, never for the others.

        The log holds the events of the last ``log_rounds`` rounds (``None``: the whole game)
        that ``seat`` saw, so views sent on every change stay small.
        """
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat}")
        ruler = self.ruler()
        seats: list[SeatView] = []
        for s in range(self.n):
            role = self.rules.role(self.roles[s])
            shown = None
            if s in self.shown:
                cards, rnd, ver = self.shown[s]
                shown = ShownHand(cards=list(cards), round=rnd, stale=ver != self.hand_version[s])
            seats.append(
                SeatView(
                    seat=s, role=role.id, role_name=role.name, rank=role.rank, income=role.income,
                    alive=self.alive[s], token=self.tokens[s], gold=self.gold[s],
                    hand_size=len(self.hands[s]), hand_limit=self.rules.limit_of(role.id),
                    is_ruler=s == ruler, holds_order=s == self.holder and self.phase == "order",
                    shown=shown,
                )
            )
        p = self._prompt
        prompt = None
        if p is not None:
            owed = p.owed()
            if quick and self.is_window():
                owed = [s for s in owed if s == seat]
            prompt = PromptView(kind=p.kind, actor=p.actor, card=p.card, target=p.target, asked=list(p.seats), owed=owed)
        first = 0 if log_rounds is None else self.round - log_rounds + 1
        log = [
            e for e in self._events_since(first)
            if e.audience is None or (seat is not None and seat in e.audience)
        ]
        return OverlordView(
            me=seat, players=self.n, ruleset=self.rules.name, round=self.round, round_limit=self.round_limit,
            coronation=self.coronation, tax_fee=self.rules.tax_fee, phase=self.phase,
            ruler=ruler, holder=self.holder if self.phase == "order" else None,
            path=list(self.path), transfers=self.transfers, seats=seats,
            centre=[self.roles[s] for s in range(self.n) if not self.alive[s]],
            deck_size=len(self.deck), discard=list(self.discard),
            chain=[ChainCard(seat=c.seat, card=c.card, target=c.target, direction=c.direction) for c in self.table],
            banned=self.banned,
            uprising_by=self.uprising[0] if self.uprising else None,
            uprising_named=self.uprising[1] if self.uprising else None,
            prompt=prompt,
            hand=list(self.hands[seat]) if seat is not None else None,
            log=log,
            notes=list(self._notes[seat]) if seat is not None else [],
            outcome=self._outcome.model_copy() if self._outcome else None,
        )

    def round_log(self, number: int, seat: int | None) -> list[Event]:
        """The events ``seat`` saw in round ``number`` (K-VIEW-1), as its views showed
        them; empty for a round not played."""
        if not 1 <= number <= self.round:
            return []
        start = 0 if number <= 1 else self._round_start.get(number, len(self.events))
        end = self._round_start.get(number + 1, len(self.events))
        return [
            e for e in self.events[start:end]
            if e.audience is None or (seat is not None and seat in e.audience)
        ]

    def _events_since(self, first_round: int) -> list[Event]:
        if first_round <= 1:
            return self.events
        return self.events[self._round_start.get(first_round, len(self.events)) :]

    # -------------------------------------------------------------- checks
    def card_count(self) -> int:
        """Cards in deck, discard, hands and on the table (conserved)."""
        return len(self.deck) + len(self.discard) + sum(len(h) for h in self.hands) + len(self.table)

    def prompt(self) -> Prompt | None:
        return self._prompt
