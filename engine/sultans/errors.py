"""Typed errors of the Sultans engine. All subclass :class:`engine.api.IllegalAction`
(itself a ``ValueError``) and leave the state unchanged."""

from __future__ import annotations

from engine.api import IllegalAction


class NotationError(IllegalAction):
    """The text is not an action in the notation of rules section 9 (code ``"parse"``)."""

    def __init__(self, message: str, *, text: str = "", seat: int | None = None) -> None:
        super().__init__(message, code="parse", text=text, seat=seat)


class IllegalMove(IllegalAction):
    """A well-formed action that this seat may not play now.

    ``code``: ``"not-pending"`` (nothing to do for this seat now),
    ``"illegal"`` (the seat may act but not like this), ``"round-over"``
    (the round or match has ended), ``"bad-seat"`` (no such seat).
    """
