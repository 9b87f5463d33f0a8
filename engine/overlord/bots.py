"""Kill the Overlord bots: random (uniform over legal) and heuristic (own view only).

Both implement ``engine.api.Bot``: they see one seat's :class:`OverlordView`
and its legal actions, nothing else.
"""

from __future__ import annotations

import random

from pydantic import BaseModel

from engine.api import Bot
from engine.overlord.notation import Action, parse
from engine.overlord.views import OverlordView

# how much the heuristic likes to keep a card in hand
_KEEP: dict[str, float] = {
    "capitalize": 5.5, "make-an-example": 5.2, "extortion": 5.3, "coercion": 5.1, "sidestep": 5.4,
    "victimize": 5.0, "conspire": 4.6, "revolt": 4.4, "retaliate": 4.8, "plead-guilty": 2.0,
    "martyrdom": 3.0, "revenge": 2.8, "uprising": 2.2, "revolution": 1.5,
}
_PASSING = frozenset({"sidestep", "victimize", "capitalize", "coercion", "make-an-example", "extortion",
                      "conspire", "revolt"})
_GOLD: dict[str, float] = {
    "capitalize": 2.0, "make-an-example": 1.0, "extortion": 1.5, "coercion": 1.5, "sidestep": 1.2,
}


class RandomBot:
    """Uniform over the legal actions."""

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"overlord-random-{seat}-{seed}")

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not pending or not legal:
            return None
        return self.rng.choice(legal)


def _keep(card: str | None) -> float:
    return _KEEP.get(card or "", 1.0)


class HeuristicBot:
    """Keeps shields, reacts sensibly, dies when dying early pays, hoards as ruler."""

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"overlord-heuristic-{seat}-{seed}")

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not pending or not legal:
            return None
        if len(legal) == 1 or not isinstance(view, OverlordView) or view.prompt is None:
            return legal[0]
        v = view
        kind = view.prompt.kind
        acts = [(text, parse(text)) for text in legal]
        pick = {
            "turn": self._turn, "command": self._command, "retaliate": self._retaliate,
            "plead": self._plead, "levy": self._levy, "name": self._name, "gift": self._gift,
        }.get(kind)
        if pick is not None:
            return pick(v, acts)
        if kind in ("victimize", "captain", "conspire"):  # give up the card we like least
            return min(acts, key=lambda ta: _keep(ta[1].card))[0]
        if kind == "coercion":
            hand = v.hand or []
            if len(hand) >= 3:
                cards = [ta for ta in acts if ta[1].verb == "choose-card"]
                worst = min(cards, key=lambda ta: _keep(ta[1].card))
                if _keep(worst[1].card) < 3.5:
                    return worst[0]
            return "choose gold" if "choose gold" in legal else legal[0]
        if kind == "substitute":
            cards = [ta for ta in acts if ta[1].verb == "substitute"]
            worst = min(cards, key=lambda ta: _keep(ta[1].card))
            return worst[0] if _keep(worst[1].card) < _keep(view.prompt.card) else "pass"
        if kind == "truant":
            return "draw" if "draw" in legal else legal[0]
        if kind == "advisor":
            return "ignore" if "ignore" in legal else legal[0]
        return "pass" if "pass" in legal else legal[0]

    # -------------------------------------------------------------- helpers
    def _rank(self, v: OverlordView, seat: int) -> int:
        return v.seats[seat].rank

    def _is_ruler(self, v: OverlordView) -> bool:
        return v.ruler == self.seat

    def _target_score(self, v: OverlordView, t: int) -> float:
        s = v.seats[t]
        if t == v.ruler and not self._is_ruler(v):
            # the ruler's death ends the phase: we may rise; the Actor killing him takes his role
            bonus = 6.0 if v.seats[self.seat].role == "actor" else 0.0
            return 6.0 + bonus - 1.5 * s.hand_size
        # a player with few cards is likely to die with the order and not send it back
        return 3.0 - s.hand_size + (0.5 if s.rank < self._rank(v, self.seat) else 0.0)

    def _rank_after_exchange(self, v: OverlordView, dead_order: list[int]) -> int:
        """Simulate K-RND-6 with ``dead_order`` (executed seats in token order); our rank after it."""
        roles = {s.seat: s.rank for s in v.seats}
        centre = [roles[s] for s in dead_order]
        for s in sorted((x for x in roles if x not in dead_order), key=lambda x: -roles[x]):
            if centre and max(centre) > roles[s]:
                best = max(centre)
                centre.remove(best)
                centre.append(roles[s])
                roles[s] = best
        for s in dead_order:
            best = max(centre)
            centre.remove(best)
            roles[s] = best
        return roles[self.seat]

    def _shields(self, v: OverlordView, legal: list[str]) -> int:
        """How many more times this seat can pass the order on: its shield cards, and a role's
        pass (K-ROLE-PEASANT pays 1 gold a time, K-XROLE-OUTLAW discards any card a time)."""
        hand = v.hand or []
        n = sum(1 for c in hand if c in _PASSING)
        if any(a.startswith("pay ") for a in legal):
            n += v.seats[self.seat].gold
        if any(a.startswith("discard-pass ") for a in legal):
            n += len(hand)
        return n

    def _dying_pays(self, v: OverlordView, shields: int) -> bool:
        """Dying now pays when it gets a better role in the exchange (K-RND-6) than the alternative:
        surviving (with 2+ ways to pass) or, with one or none, dying later after the likely victims
        (players holding no card; the ruler's death would end the phase, so it comes last)."""
        me = self.seat
        if self._is_ruler(v) or v.ruler is None:
            return False
        dead = sorted((s.seat for s in v.seats if not s.alive), key=lambda x: v.seats[x].token or 0)
        likely = [s.seat for s in v.seats if s.alive and s.seat not in (me, v.ruler) and s.hand_size == 0]
        tail = [v.ruler] if v.seats[v.ruler].hand_size == 0 else []
        now = self._rank_after_exchange(v, [*dead, me, *likely, *tail])
        if shields >= 2:
            return now > self._rank_after_exchange(v, [*dead, *likely, *tail])
        return now > self._rank_after_exchange(v, [*dead, *likely, me, *tail])

    # ------------------------------------------------------------ decisions
    def _turn(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        me = self.seat
        passes = [ta for ta in acts if ta[1].verb in ("play", "pay", "discard-pass") and ta[1].card not in
                  ("martyrdom", "revenge", "revolution", "uprising")]
        killer = v.path[-1].by if v.path and v.path[-1].seat == me and v.path[-1].how != "plead-guilty" else None
        dying_pays = self._dying_pays(v, self._shields(v, [ta[0] for ta in acts]))
        if passes and not dying_pays:
            def score(ta: tuple[str, Action]) -> float:
                a = ta[1]
                t = a.seat if a.seat is not None else me
                sc = self._target_score(v, t)
                if a.verb == "play":
                    sc += _GOLD.get(a.card or "", 0.0) - 0.6 * _keep(a.card)
                    if a.card == "revolt":
                        sc += 2.0 * (v.seats[t].rank - v.seats[me].rank)
                elif a.verb == "pay":
                    sc += 0.5 if v.seats[me].gold > 3 else -2.0
                else:
                    sc -= 0.6 * _keep(a.card)
                if v.seats[t].role == "taxcollector":
                    sc -= 2.0
                return sc + self.rng.random() * 0.01

            return max(passes, key=score)[0]
        legal = [ta[0] for ta in acts]
        if killer is not None and killer == v.ruler and "play revenge" in legal:
            return "play revenge"
        ups = [ta for ta in acts if ta[1].card == "uprising"]
        if ups:  # the order moves on and this seat lives (for the ruler: keeps the crown, K-ORD-8)
            return max(ups, key=lambda ta: self._target_score(v, ta[1].seat or 0))[0]
        if "play martyrdom" in legal:
            return "play martyrdom"
        if "play revolution" in legal and (v.seats[me].rank <= 4 or self._is_ruler(v)):
            # a ruler who dies gives up rank 8 for sure (K-RND-6); a reshuffle may keep it
            return "play revolution"
        if killer is not None and "play revenge" in legal and v.seats[killer].rank > v.seats[me].rank:
            return "play revenge"
        return "die"  # nothing to pass with, or dying now pays in the role exchange

    def _command(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        def score(ta: tuple[str, Action]) -> float:
            t = ta[1].seat or 0
            s = v.seats[t]
            sc = -2.0 * s.hand_size - (3.0 if s.role == "truant" else 0.0) - (4.0 if s.role == "taxcollector" else 0.0)
            return sc + self.rng.random() * 0.01

        return max(acts, key=score)[0]

    def _retaliate(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        legal = [ta[0] for ta in acts]
        if "retaliate" not in legal or not v.chain:
            return "pass"
        top = v.chain[-1]
        me = self.seat
        if top.card == "retaliate" and top.target == me:
            return "retaliate"  # keep our own card standing
        if top.card == "revenge" and v.path and v.path[-1].seat == top.seat and v.path[-1].by == me:
            return "retaliate"  # we would die with him
        if top.target == me and top.card not in ("plead-guilty", "retaliate"):
            shields = sum(1 for c in (v.hand or []) if c in _PASSING)
            if self._is_ruler(v) or shields == 0:
                return "retaliate"
        if top.card == "plead-guilty" and top.target == me:
            return "pass"  # someone takes the order from us: welcome
        return "pass"

    def _plead(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        legal = [ta[0] for ta in acts]
        if "plead-guilty" not in legal or self._is_ruler(v):
            return "pass"
        hand = v.hand or []
        shields = sum(1 for c in hand if c in _PASSING)
        if v.holder == v.ruler:
            return "pass"
        return "plead-guilty" if shields >= 2 else "pass"

    def _levy(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        def score(ta: tuple[str, Action]) -> float:
            return sum(g for _, g in ta[1].levy) * 10 + sum(v.seats[s].gold * g for s, g in ta[1].levy) * 0.01

        return max(acts, key=score)[0]

    def _name(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        hand = set(v.hand or [])
        for c in ("sidestep", "victimize", "capitalize", "coercion"):
            if c not in hand and f"name {c}" in [ta[0] for ta in acts]:
                return f"name {c}"
        return "pass"

    def _gift(self, v: OverlordView, acts: list[tuple[str, Action]]) -> str:
        me = v.seats[self.seat]
        if me.gold >= 7 and me.hand_size <= 2:
            gifts = [ta for ta in acts if ta[1].verb == "gift"]
            if gifts:
                return min(gifts, key=lambda ta: v.seats[ta[1].seat or 0].gold)[0]
        return "pass"


class EasyBot:
    """The easy level: legal moves with light sense, for newcomers. It makes the
    heuristic's choice some of the time (``sense``), else a random legal one."""

    def __init__(self, seat: int, seed: int = 0, sense: float = 0.5) -> None:
        self.seat = seat
        self.rng = random.Random(f"overlord-easy-{seat}-{seed}")
        self.normal = HeuristicBot(seat, seed)
        self.sense = sense

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not pending or not legal:
            return None
        if self.rng.random() < self.sense:
            return self.normal.act(view, legal, pending)
        return self.rng.choice(legal)


def make_bot(seat: int, kind: str, seed: int) -> Bot:
    """A bot for ``seat`` (``GameSpec.new_bot``): ``kind`` is ``"easy"``, ``"normal"``
    (also called ``"heuristic"``) or ``"random"``; the strong level is made by
    :mod:`engine.overlord.search`."""
    if kind == "random":
        return RandomBot(seat, seed)
    if kind in ("heuristic", "normal"):
        return HeuristicBot(seat, seed)
    if kind == "easy":
        return EasyBot(seat, seed)
    raise ValueError(f"unknown bot kind {kind!r}")
