"""Kill the Overlord notation (docs/rules/overlord.md section 7, K-NOTE-1).

An :class:`Action` is a small hashable value; ``str(action)`` is its canonical
form and :func:`parse` reads any case with extra spaces, so
``parse(str(a)) == a``. A log line is ``<seat>: <action>``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.api import IllegalAction
from engine.overlord.rules import KNOWN_CARDS


class OverlordIllegal(IllegalAction):
    """An Overlord action that is malformed or not legal now (a ``ValueError``)."""


# verbs without arguments
_BARE = {"die", "retaliate", "plead-guilty", "pass", "draw", "ignore"}
# verbs taking one card
_CARD = {"discard", "give", "substitute", "name"}
# verbs taking one seat
_SEAT = {"order", "pay", "show", "gift"}


@dataclass(frozen=True, order=True)
class Action:
    """One action. ``verb`` is one of the notation's verbs (``choose-card``/``choose-gold`` for ``choose``)."""

    verb: str
    card: str | None = None
    seat: int | None = None
    direction: str | None = None  # "left" / "right": the General's Conspire
    levy: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        v = self.verb
        if v in _BARE:
            return v
        if v in _CARD:
            return f"{v} {self.card}"
        if v in _SEAT:
            return f"{v} {self.seat}"
        if v == "choose-card":
            return f"choose card {self.card}"
        if v == "choose-gold":
            return "choose gold"
        if v == "discard-pass":
            return f"discard-pass {self.seat} {self.card}"
        if v == "levy":
            return "levy " + " ".join(f"{s}:{a}" for s, a in self.levy)
        if v == "play":
            out = f"play {self.card}"
            if self.seat is not None:
                out += f" {self.seat}"
            if self.direction is not None:
                out += f" {self.direction}"
            return out
        raise ValueError(f"unknown verb {v!r}")


def _err(text: str, why: str) -> OverlordIllegal:
    return OverlordIllegal(f"cannot read {text!r}: {why}", code="parse", text=text)


def _seat(text: str, word: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise _err(text, f"{word!r} is not a seat number")
    return int(word)


def _card(text: str, word: str) -> str:
    if word not in KNOWN_CARDS:
        raise _err(text, f"{word!r} is not a card token")
    return word


def parse(text: str) -> Action:
    """Parse one action line (any case, extra spaces); raise :class:`OverlordIllegal` (code ``parse``)."""
    if not isinstance(text, str):
        raise OverlordIllegal(f"an action must be text, not {type(text).__name__}", code="parse")
    words = text.lower().split()
    if not words:
        raise _err(text, "empty action")
    v, args = words[0], words[1:]
    if v in _BARE:
        if args:
            raise _err(text, f"{v!r} takes nothing after it")
        return Action(v)
    if v in _CARD:
        if len(args) != 1:
            raise _err(text, f"{v!r} takes one card")
        return Action(v, card=_card(text, args[0]))
    if v in _SEAT:
        if len(args) != 1:
            raise _err(text, f"{v!r} takes one seat number")
        return Action(v, seat=_seat(text, args[0]))
    if v == "choose":
        if args == ["gold"]:
            return Action("choose-gold")
        if len(args) == 2 and args[0] == "card":
            return Action("choose-card", card=_card(text, args[1]))
        raise _err(text, "write 'choose gold' or 'choose card <card>'")
    if v == "discard-pass":
        if len(args) != 2:
            raise _err(text, "write 'discard-pass <seat> <card>'")
        return Action(v, seat=_seat(text, args[0]), card=_card(text, args[1]))
    if v == "levy":
        if not args:
            raise _err(text, "write 'levy <seat>:<gold> ...'")
        pairs: list[tuple[int, int]] = []
        for a in args:
            s, sep, g = a.partition(":")
            if not sep or not (g.isascii() and g.isdigit()) or len(g) > 3:
                raise _err(text, f"{a!r} is not <seat>:<gold>")
            pairs.append((_seat(text, s), int(g)))
        pairs.sort()
        if len({s for s, _ in pairs}) != len(pairs):
            raise _err(text, "a seat is named twice")
        return Action(v, levy=tuple(pairs))
    if v == "play":
        if not args or len(args) > 3:
            raise _err(text, "write 'play <card> [<seat>] [left|right]'")
        card = _card(text, args[0])
        seat = _seat(text, args[1]) if len(args) >= 2 else None
        direction = None
        if len(args) == 3:
            if args[2] not in ("left", "right"):
                raise _err(text, f"{args[2]!r} is not left or right")
            direction = args[2]
        return Action(v, card=card, seat=seat, direction=direction)
    raise _err(text, f"unknown action {v!r}")


def fmt(action: Action) -> str:
    """The canonical notation of ``action``."""
    return str(action)
