"""Choosing an action from ``room.legal()``: kinds, keys and a step-by-step picker.

The legal actions (notation strings) are grouped by *kind* (a key each, see
:data:`KIND_KEYS`); a :class:`Picker` narrows one kind's actions field by
field -- the card, then the seat, then the direction (the General's
Conspire) -- asking only where more than one value is left, then waits for
Enter. The Tyrant's levy is no list of its splits (dozens at 8 seats): it is
put together seat by seat, a number or right adding a gold from that seat,
left giving one back, only ever to a split that is legal. Nothing here knows
a rule: every choice offered is one of the legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.overlord.notation import Action, OverlordIllegal, parse
from protocol.contract import seat_index

VERB_KIND: dict[str, str] = {
    "order": "order",
    "play": "play",
    "pay": "pay",
    "discard-pass": "outlaw",
    "retaliate": "retaliate",
    "plead-guilty": "plead",
    "choose-card": "give_card",
    "choose-gold": "gold",
    "discard": "discard",
    "give": "give",
    "draw": "draw",
    "ignore": "ignore",
    "substitute": "substitute",
    "levy": "levy",
    "show": "show",
    "name": "name",
    "gift": "gift",
    "pass": "pass",
    "die": "die",
}
KIND_KEYS: dict[str, str] = {
    "order": "o",
    "play": "c",
    "pay": "y",
    "outlaw": "u",
    "retaliate": "r",
    "plead": "g",
    "give_card": "k",
    "gold": "m",
    "discard": "x",
    "give": "v",
    "draw": "w",
    "ignore": "i",
    "substitute": "s",
    "levy": "l",
    "show": "e",
    "name": "b",
    "gift": "f",
    "pass": "n",
    "die": "d",
}
KIND_ORDER: list[str] = list(KIND_KEYS)
FIELDS = ("card", "seat", "direction", "levy")

CARD_KINDS = frozenset({"play", "discard", "give", "give_card", "substitute", "outlaw"})
"""Kinds whose card is one of the hand's: asked for by the hand's numbers."""

Value = str | int | tuple[tuple[int, int], ...] | None


def parse_legal(legal: list[str]) -> dict[str, list[Action]]:
    """Legal actions grouped by kind, each kind's actions in the order given."""
    out: dict[str, list[Action]] = {}
    for text in legal:
        try:
            a = parse(text)
        except OverlordIllegal:
            continue
        kind = VERB_KIND.get(a.verb)
        if kind is not None:
            out.setdefault(kind, []).append(a)
    return out


def kind_for_key(key: str, by_kind: dict[str, list[Action]]) -> str | None:
    for kind, k in KIND_KEYS.items():
        if k == key and kind in by_kind:
            return kind
    if key == PASS_ALIAS and "pass" in by_kind:
        return "pass"  # (only when no legal kind has the key: order first)
    return None


PASS_ALIAS = "o"
"""Sultans of Karaya's pass key, passes here too when no legal kind has it (the
order's): a club playing both games pressed ``o`` in an Overlord window."""


def value_of(a: Action, name: str) -> Value:
    v: Value = getattr(a, name)
    return v


@dataclass
class Picker:
    kind: str
    actions: list[Action]
    chosen: dict[str, Value] = field(default_factory=dict)
    step: str = "confirm"
    cursor: int = 0
    hand: tuple[str, ...] = ()  # the player's hand when a key started it: cards go by its numbers
    note: str = ""  # the screen's word on the last key (a number that picked nothing), shown until the next
    refused: bool = False  # the last key was a number that is no choice: Enter then says so once, not sends
    split: dict[int, int] = field(default_factory=dict)  # the levy step: gold taken from each seat so far
    typed: str = ""  # a first digit that a second may make a number of two (a list of 10 choices or more)
    card_typed: bool = False  # the card step's number is whole: a digit now starts the target's step

    @classmethod
    def start(cls, kind: str, actions: list[Action], hand: tuple[str, ...] = ()) -> Picker:
        """``hand``: the hand panel numbers the cards 1..n, and a key that
        chooses a card (:data:`CARD_KINDS`) asks for it by those numbers even
        when only one can be played, or the hand holds one (it was skipped: the
        digit meant for the card then picked a seat, so ``c 1`` gave the order
        to seat 1 with one card in hand and played card 1 with two)."""
        p = cls(kind, list(actions), hand=hand if kind in CARD_KINDS else ())
        p._next_step()
        return p

    def remaining(self) -> list[Action]:
        return [a for a in self.actions if all(value_of(a, f) == v for f, v in self.chosen.items())]

    def candidates(self, step: str | None = None) -> list[Value]:
        step = step or self.step
        if step == "confirm":
            return []
        if step == "levy" and self.step == "levy":  # the seats a levy may take from, in seat order
            seats: list[Value] = [*sorted({s for a in self.remaining() for s, _ in a.levy})]
            return seats
        out: list[Value] = []
        for a in self.remaining():
            v = value_of(a, step)
            if v not in out:
                out.append(v)
        return out

    def _next_step(self) -> None:
        self.cursor = 0
        self.typed = ""
        self.card_typed = False
        for f in FIELDS:
            if f in self.chosen:
                continue
            vals = self.candidates(f)
            if len(vals) > 1 or (f == "card" and self.hand and vals and vals[0] is not None):
                self.step = f
                return
            self.chosen[f] = vals[0] if vals else None
        self.step = "confirm"

    def current(self) -> Value:
        c = self.candidates()
        return c[self.cursor] if c and 0 <= self.cursor < len(c) else None

    def select(self, value: Value) -> bool:
        c = self.candidates()
        if value in c:
            self.cursor = c.index(value)
            return True
        return False

    def move(self, delta: int) -> None:
        c = self.candidates()
        self.typed = ""
        self.card_typed = False
        if c:
            self.cursor = (self.cursor + delta) % len(c)

    def type_digit(self, digit: str) -> bool:
        """A seat step picks the seat with that number (as players see it,
        :func:`protocol.contract.seat_index`); a card step the hand's
        n-th card (its number in the hand panel); the levy step takes one gold
        more from that seat if it may (:meth:`levy_more`); other steps the n-th
        choice (1-based): in a list of ten or more, a digit after one that could
        begin a number of two makes that number ("1" "2": the 12th; the
        Bureaucrat names any of 14 cards, and the 10th-14th were out of reach).

        Once the card's number is whole (no digit can make it longer), the
        next digit answers the step after it, the target: ``c 2 4`` plays card
        2 at seat 4, as ``c 2 Enter 4`` does (it said "4 is not a choice now")."""
        n = int(digit)
        if self.step == "seat":
            return self.select(seat_index(n))
        if self.step == "levy":
            return self.levy_more(seat_index(n)) is not None
        if self.step == "card" and self.hand:
            return self._type_card(digit)
        c = self.candidates()
        first, self.typed = self.typed, ""
        if first and 1 <= int(first + digit) <= len(c):
            self.cursor = int(first + digit) - 1
            return True
        if 1 <= n <= len(c):
            self.cursor = n - 1
            self.typed = digit if n * 10 <= len(c) else ""
            return True
        return False

    def _type_card(self, digit: str) -> bool:
        """A digit in the card step: a card by its number in the hand (two
        digits in a hand of ten or more), or, after a whole number, the first
        digit of the target's step."""
        size = len(self.hand)
        first, self.typed = self.typed, ""
        whole, self.card_typed = self.card_typed or bool(first), False
        if first and 1 <= int(first + digit) <= size and self.select(self.hand[int(first + digit) - 1]):
            self.card_typed = True
            return True
        if whole and self._fix_card():
            return self.type_digit(digit)
        n = int(digit)
        if not (1 <= n <= size and self.select(self.hand[n - 1])):
            return False
        if n * 10 <= size:  # "1" in a hand of 12: a second digit may follow
            self.typed = digit
        else:
            self.card_typed = True
        return True

    def _fix_card(self) -> bool:
        """Take the card under the cursor as the answer if a step (the target)
        comes after it (True); else leave the card step as it was."""
        chosen, cursor = dict(self.chosen), self.cursor
        self.chosen["card"] = self.current()
        self._next_step()
        if self.step not in ("card", "confirm"):
            return True
        self.chosen, self.step, self.cursor = chosen, "card", cursor
        return False

    def levy_more(self, seat: int) -> bool | None:
        """A seat's number in the levy: that seat under the cursor, and a gold
        more from it (True), or none: the levy is at its most or the seat out
        of gold (False, and the screen says which; the number used to put the
        seat back to none, unsaid: a Tyrant pressing 1 five times saw 4 gold
        become nothing). None: the seat is no choice."""
        if not self.select(seat):
            return None
        return self.levy_change(seat, 1)

    def levy_at_most(self) -> bool:
        """No legal levy takes more in all than the one put together so far
        (else a seat that gives no more is out of gold)."""
        total = sum(self.split.values())
        return all(sum(g for _, g in a.levy) <= total for a in self.actions)

    def levy_split(self, split: dict[int, int] | None = None) -> tuple[tuple[int, int], ...]:
        """The levy as the notation writes it: (seat, gold) pairs by seat, no zeros."""
        return tuple(sorted((s, g) for s, g in (self.split if split is None else split).items() if g))

    def levy_change(self, seat: int, delta: int) -> bool:
        """Take ``delta`` gold more (or back, if negative) from ``seat``: done
        (True) when the split it makes is one of the legal levies (or nothing yet)."""
        new = dict(self.split)
        new[seat] = new.get(seat, 0) + delta
        if new[seat] < 0 or delta == 0:
            return False
        split = self.levy_split(new)
        if split and not any(a.levy == split for a in self.remaining()):
            return False
        self.split = new
        return True

    def action(self) -> Action | None:
        r = self.remaining()
        return r[0] if self.step == "confirm" and len(r) == 1 else None

    def preview(self) -> Action | None:
        """The action the current choices lead to (the one under the cursor if one is left)."""
        if self.step == "confirm":
            return self.action()
        if self.step == "levy":
            split = self.levy_split()
            return next((a for a in self.remaining() if a.levy == split), None) if split else None
        cur = self.current()
        r = [a for a in self.remaining() if value_of(a, self.step) == cur]
        return r[0] if len(r) == 1 else None

    def advance(self) -> str | None:
        """Enter: fix the current choice; the action's text once nothing is left to choose."""
        if self.step == "levy":
            a = self.preview()  # the split put together (none yet: nothing to send)
            return str(a) if a is not None else None
        if self.step != "confirm":
            self.chosen[self.step] = self.current()
            self._next_step()
        a = self.action()
        return str(a) if a is not None else None

    def seat_candidates(self) -> set[int]:
        if self.step not in ("seat", "levy"):
            return set()
        return {v for v in self.candidates() if isinstance(v, int)}
