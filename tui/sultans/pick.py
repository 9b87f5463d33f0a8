"""Choosing an action from the legal list: the key of a kind, then its targets.

A :class:`Picker` is built from the seat's legal actions (``RoomClient.legal()``)
and one action kind. It walks the steps the kind needs -- a side
(``manipulate``/``predict``), one target (a seat, the spare, or "no swap" when
hiding), several seats (``foresee``), or nothing but a confirmation -- and
gives the notation to send only when it is in the legal list. It holds no
rules: every candidate comes from a legal action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from engine.sultans.actions import Action, parse_action
from protocol.contract import seat_index, seat_number

Cand = int | Literal["spare", "none", "loyalists", "rebels", "go"]
Step = Literal["side", "target", "seats", "confirm"]

KIND_KEYS: dict[str, str] = {
    "peek": "p",
    "swap": "s",
    "hide": "s",
    "execute": "x",
    "detain": "d",
    "assassinate": "a",
    "revolt": "r",
    "capture": "g",
    "dance": "n",
    "manipulate": "m",
    "foresee": "f",
    "predict": "l",
    "block": "b",
    "join": "j",
    "refuse": "u",
    "claim": "c",
    "pass": "o",
}
"""The key of each action kind (``s`` is Swap when hidden, Hide when revealed)."""

KIND_ORDER: tuple[str, ...] = (
    "peek",
    "swap",
    "hide",
    "execute",
    "detain",
    "assassinate",
    "revolt",
    "capture",
    "dance",
    "manipulate",
    "foresee",
    "predict",
    "block",
    "join",
    "refuse",
    "pass",
    "claim",
)


def parse_legal(legal: list[str] | tuple[str, ...]) -> dict[str, list[Action]]:
    """Legal actions grouped by kind, in the engine's order."""
    out: dict[str, list[Action]] = {}
    for text in legal:
        try:
            a = parse_action(text)
        except ValueError:
            continue
        out.setdefault(a.kind, []).append(a)
    return out


def kinds_for_key(key: str, by_kind: dict[str, list[Action]]) -> str | None:
    """The legal kind a key starts now (``l``/``r`` also pick a side when predicting)."""
    for kind in KIND_ORDER:
        if KIND_KEYS[kind] == key and kind in by_kind:
            return kind
    if key == "r" and "predict" in by_kind:
        return "predict"
    if key == PASS_ALIAS and "pass" in by_kind:
        return "pass"  # (only when no legal kind has the key: the Dancer's dance first)
    return None


PASS_ALIAS = "n"
"""Kill the Overlord's pass key, passes here too (its own key taken by no legal
kind): a club playing both games pressed ``n`` in a Sultans window and ``o``
(Overlord's order) in an Overlord one."""


@dataclass
class Picker:
    """The state of choosing one action of ``kind``."""

    kind: str
    actions: list[Action]
    step: Step = "confirm"
    side: str | None = None
    cursor: int = 0
    chosen: list[int] = field(default_factory=list)
    need: int = 0  # foresee: how many seats
    digits: str = ""
    note: str = ""  # the screen's word on the last key (a number that picked nothing), shown until the next
    refused: bool = False  # the last key was a number that is no choice: Enter then says so once, not sends

    @classmethod
    def start(cls, kind: str, actions: list[Action]) -> Picker:
        p = cls(kind=kind, actions=actions)
        if kind in ("manipulate", "predict"):
            sides = p.sides()
            if kind == "manipulate" and len(sides) == 1:
                p.side = sides[0]
                p.step = "target"
            else:
                p.step = "side"
        elif kind == "foresee":
            p.need = len(actions[0].seats) if actions else 0
            p.step = "seats" if p.need > 0 else "confirm"
        elif any(a.target is not None or a.spare for a in actions):
            p.step = "target"
        return p

    # ------------------------------------------------------------ candidates
    def candidates(self) -> list[Cand]:
        if self.step == "side":
            return [s for s in ("loyalists", "rebels") if any(a.side == s for a in self.actions)]
        if self.step == "target":
            acts = [a for a in self.actions if self.side is None or a.side == self.side]
            seats = sorted({a.target for a in acts if a.target is not None})
            out: list[Cand] = []
            if self.kind == "hide" and any(a.target is None and not a.spare for a in acts):
                out.append("none")
            out.extend(seats)
            if any(a.spare for a in acts):
                out.append("spare")
            return out
        if self.step == "seats":
            return sorted({s for a in self.actions for s in a.seats})
        return ["go"]

    def current(self) -> Cand | None:
        cands = self.candidates()
        if not cands:
            return None
        return cands[self.cursor % len(cands)]

    def seat_candidates(self) -> set[int]:
        return {c for c in self.candidates() if isinstance(c, int)}

    def move(self, delta: int) -> None:
        n = len(self.candidates())
        if n:
            self.cursor = (self.cursor + delta) % n

    def select(self, cand: Cand) -> bool:
        cands = self.candidates()
        if cand not in cands:
            return False
        self.cursor = cands.index(cand)
        return True

    def type_digit(self, d: str, seats: int) -> bool:
        """A digit typed: pick the seat with that number as players see it
        (:func:`protocol.contract.seat_index`; two digits for 10 and up). True if
        something was picked."""
        cands = self.seat_candidates()
        if self.digits:
            two = seat_index(int(self.digits + d))
            self.digits = ""
            if two in cands:
                return self._pick_seat(two)
        one = seat_index(int(d))
        if d != "0" and any(n >= 10 and str(n).startswith(d) for n in map(seat_number, range(seats))):
            self.digits = d
        return self._pick_seat(one) if one in cands else False

    def _pick_seat(self, seat: int) -> bool:
        if self.step == "seats":
            self.cursor = self.candidates().index(seat)
            self.toggle(seat)
            return True
        return self.select(seat)

    def toggle(self, seat: int) -> None:
        if seat in self.chosen:
            self.chosen.remove(seat)
        elif len(self.chosen) < self.need:
            self.chosen.append(seat)

    # ---------------------------------------------------------------- result
    def advance(self) -> str | None:
        """Enter: go to the next step, or return the notation to send (legal only)."""
        if self.step == "side":
            side = self.current()
            if side not in ("loyalists", "rebels"):
                return None
            if self.kind == "predict":
                return self._legal(f"predict {side}")
            self.side = side
            self.step = "target"
            self.cursor = 0
            return None
        if self.step == "seats":
            if len(self.chosen) != self.need:
                cur = self.current()
                if isinstance(cur, int) and cur not in self.chosen:
                    self.toggle(cur)
                if len(self.chosen) != self.need:
                    return None
            return self._legal("foresee " + " ".join(str(s) for s in sorted(self.chosen)))
        return self.text_for(self.current())

    def text_for(self, cand: Cand | None) -> str | None:
        k = self.kind
        if cand is None:
            return None
        if self.step == "confirm":
            return self._legal("foresee" if k == "foresee" else k)
        if k == "hide":
            if cand == "none":
                return self._legal("hide")
            return self._legal("hide swap spare" if cand == "spare" else f"hide swap {cand}")
        if k == "swap":
            return self._legal("swap spare" if cand == "spare" else f"swap {cand}")
        if k == "manipulate":
            return self._legal(f"manipulate {self.side} {cand}")
        return self._legal(f"{k} {cand}")

    def preview(self) -> str | None:
        """The notation the current selection would send (for the plain-words line)."""
        if self.step == "side":
            side = self.current()
            if self.kind == "predict":
                return self._legal(f"predict {side}")
            return None
        if self.step == "seats":
            if len(self.chosen) == self.need:
                return self._legal("foresee " + " ".join(str(s) for s in sorted(self.chosen)))
            return None
        return self.text_for(self.current())

    def back(self) -> bool:
        """Back from a Manipulate's seat to its side, when there was a side to
        pick (True); False: nothing to go back to."""
        sides = self.sides()
        if self.kind == "manipulate" and self.step == "target" and len(sides) > 1 and self.side in sides:
            self.cursor = sides.index(self.side)
            self.side = None
            self.step = "side"
            return True
        return False

    def sides(self) -> list[str]:
        return sorted({a.side for a in self.actions if a.side is not None})

    def _legal(self, text: str) -> str | None:
        try:
            a = parse_action(text)
        except ValueError:
            return None
        return a.notation if a in self.actions else None
