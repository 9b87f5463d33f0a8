"""Actions of Sultans of Karaya and their notation (rules section 9, S-NOTE-1).

An :class:`Action` is a small frozen pydantic model; its notation string is
``format_action(a)`` (also ``str(a)``) and :func:`parse_action` reads it back:
``parse_action(format_action(a)) == a``. ``parse_action`` accepts any case and
extra spaces; ``format_action`` writes lower-case words and decimal seat
numbers separated by single spaces.

Grammar (``N`` = decimal seat number, ``SIDE`` = ``loyalists`` | ``rebels``)::

    peek N            swap N          swap spare
    hide              hide swap N     hide swap spare
    execute N         detain N        assassinate N     revolt
    capture N         dance           manipulate SIDE N
    foresee [N [N [N]]]               predict SIDE
    block             join            refuse            claim       pass

``foresee`` takes 0-3 distinct seats, written ascending; parse accepts any
order and rejects duplicates or more than three seats. (Whether the count is
right for the position -- exactly min(3, k) -- is a legality question, checked
by the round.)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from engine.sultans.cards import Side
from engine.sultans.errors import NotationError

ActionKind = Literal[
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
    "claim",
    "pass",
]
"""Every action word. ``swap`` = swap while hidden (S-SWAP-1); ``hide`` = hide while
revealed, optionally with a secret swap (S-SWAP-2)."""

_TARGETED = frozenset({"peek", "execute", "detain", "assassinate", "capture"})
_BARE = frozenset({"revolt", "dance", "block", "join", "refuse", "claim", "pass"})
_MAX_SEAT = 999


class Action(BaseModel):
    """One action in structured form.

    Fields:

    - ``kind``: the action word (:data:`ActionKind`).
    - ``target``: the seat the action names (``peek``, ``swap``, ``hide swap``,
      ``execute``, ``detain``, ``assassinate``, ``capture``, ``manipulate``),
      else ``None``.
    - ``spare``: ``True`` for ``swap spare`` / ``hide swap spare`` (then
      ``target`` is ``None``).
    - ``side``: the side of ``manipulate`` and ``predict``, else ``None``.
    - ``seats``: the seats of ``foresee``, ascending (empty otherwise).

    A plain ``hide`` (no swap) has ``target=None, spare=False``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ActionKind
    target: int | None = None
    spare: bool = False
    side: Side | None = None
    seats: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _check_shape(self) -> Action:
        k = self.kind
        if self.target is not None and self.target < 0:
            raise ValueError("seat numbers are never negative")
        if k in _TARGETED:
            ok = self.target is not None and not self.spare and self.side is None and not self.seats
        elif k == "swap":
            ok = (self.target is None) == self.spare and self.side is None and not self.seats
        elif k == "hide":
            ok = not (self.target is not None and self.spare) and self.side is None and not self.seats
        elif k == "manipulate":
            ok = self.target is not None and not self.spare and self.side is not None and not self.seats
        elif k == "predict":
            ok = self.target is None and not self.spare and self.side is not None and not self.seats
        elif k == "foresee":
            ok = (
                self.target is None
                and not self.spare
                and self.side is None
                and len(self.seats) <= 3
                and list(self.seats) == sorted(set(self.seats))
                and all(s >= 0 for s in self.seats)
            )
        else:
            ok = self.target is None and not self.spare and self.side is None and not self.seats
        if not ok:
            raise ValueError(f"fields do not fit a {k!r} action")
        return self

    def __str__(self) -> str:
        return format_action(self)

    @property
    def notation(self) -> str:
        """The canonical notation string."""
        return format_action(self)


def format_action(a: Action) -> str:
    """Canonical notation of ``a`` (S-NOTE-1)."""
    k = a.kind
    if k in _TARGETED:
        return f"{k} {a.target}"
    if k == "swap":
        return "swap spare" if a.spare else f"swap {a.target}"
    if k == "hide":
        if a.spare:
            return "hide swap spare"
        return "hide" if a.target is None else f"hide swap {a.target}"
    if k == "manipulate":
        return f"manipulate {a.side} {a.target}"
    if k == "predict":
        return f"predict {a.side}"
    if k == "foresee":
        return " ".join(["foresee", *(str(s) for s in a.seats)])
    return k


def _seat(tok: str, text: str) -> int:
    if not (tok.isascii() and tok.isdigit()) or len(tok) > 3:
        raise NotationError(f"{text!r}: {tok!r} is not a seat number", text=text)
    v = int(tok)
    if v > _MAX_SEAT:  # pragma: no cover - guarded by len check
        raise NotationError(f"{text!r}: seat {tok} is out of range", text=text)
    return v


def _side(tok: str, text: str) -> Side:
    if tok == "loyalists":
        return "loyalists"
    if tok == "rebels":
        return "rebels"
    raise NotationError(f"{text!r}: {tok!r} is not a side (loyalists or rebels)", text=text)


def parse_action(text: str) -> Action:
    """Parse notation (any case, extra spaces) into an :class:`Action`.

    Raises :class:`~engine.sultans.errors.NotationError` (an
    ``IllegalAction``/``ValueError``) naming the input and what is wrong.
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a string", text=str(text))
    toks = text.lower().split()
    if not toks:
        raise NotationError("empty action", text=text)
    word, rest = toks[0], toks[1:]
    if word in _BARE:
        if rest:
            raise NotationError(f"{text!r}: {word!r} takes no arguments", text=text)
        return Action.model_construct(kind=word, target=None, spare=False, side=None, seats=())  # type: ignore[arg-type]
    if word in _TARGETED:
        if len(rest) != 1:
            raise NotationError(f"{text!r}: {word!r} takes exactly one seat number", text=text)
        return Action.model_construct(kind=word, target=_seat(rest[0], text), spare=False, side=None, seats=())  # type: ignore[arg-type]
    if word == "swap":
        if len(rest) != 1:
            raise NotationError(f"{text!r}: 'swap' takes one seat number or 'spare'", text=text)
        if rest[0] == "spare":
            return Action(kind="swap", spare=True)
        return Action(kind="swap", target=_seat(rest[0], text))
    if word == "hide":
        if not rest:
            return Action(kind="hide")
        if len(rest) != 2 or rest[0] != "swap":
            raise NotationError(f"{text!r}: expected 'hide', 'hide swap N' or 'hide swap spare'", text=text)
        if rest[1] == "spare":
            return Action(kind="hide", spare=True)
        return Action(kind="hide", target=_seat(rest[1], text))
    if word == "manipulate":
        if len(rest) != 2:
            raise NotationError(f"{text!r}: expected 'manipulate loyalists|rebels N'", text=text)
        return Action(kind="manipulate", side=_side(rest[0], text), target=_seat(rest[1], text))
    if word == "predict":
        if len(rest) != 1:
            raise NotationError(f"{text!r}: expected 'predict loyalists' or 'predict rebels'", text=text)
        return Action(kind="predict", side=_side(rest[0], text))
    if word == "foresee":
        seats = [_seat(t, text) for t in rest]
        if len(seats) > 3:
            raise NotationError(f"{text!r}: 'foresee' takes at most three seats", text=text)
        if len(set(seats)) != len(seats):
            raise NotationError(f"{text!r}: 'foresee' names a seat twice", text=text)
        return Action(kind="foresee", seats=tuple(sorted(seats)))
    raise NotationError(f"{text!r}: unknown action {word!r}", text=text)


def canonical(text: str) -> str:
    """``format_action(parse_action(text))``: the canonical form of ``text``."""
    return format_action(parse_action(text))
