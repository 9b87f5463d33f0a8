"""The contract between the rules engines and the rest of throneroom.

Every game offers the same shape so that the room runtime (``server/``) can
run any of them and the screens (``tui/``) can render any of them:

* a :class:`GameTable` -- one whole match or game, driven by text actions in
  the game's notation; the runtime never touches engine state beyond it;
* a :class:`Bot` -- picks an action from a seat's own *view* and legal list;
* a :class:`GameSpec` -- metadata and factories, listed in :mod:`engine.registry`.

Pure: no asyncio, no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel


class IllegalAction(ValueError):
    """An action that is malformed or not legal right now.

    Raised by ``play``; the state is unchanged. ``code`` is a stable short
    string (``"parse"``, ``"not-pending"``, ``"illegal"``, ``"round-over"``...)
    that screens can translate; ``str(err)`` is a readable English message
    naming the offending input.
    """

    def __init__(self, message: str, *, code: str = "illegal", text: str = "", seat: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.text = text
        self.seat = seat


@runtime_checkable
class GameTable(Protocol):
    """One match (Sultans: several rounds) or game (Overlord) in progress.

    Everything is deterministic from the seed and the ordered list of
    ``(seat, text)`` actions plus ``next_round()`` calls.
    """

    @property
    def game(self) -> str:
        """Game id, e.g. ``"sultans"`` or ``"overlord"``."""
        ...

    @property
    def players(self) -> int: ...

    def pending(self) -> set[int]:
        """Seats that must answer now (more than one in a reaction window)."""
        ...

    def legal(self, seat: int) -> list[str]:
        """Every legal action of ``seat`` right now, in canonical notation.

        May be non-empty for a seat that is not pending (e.g. Claim the Throne);
        such actions are optional and nobody waits for them.
        """
        ...

    def play(self, seat: int, text: str) -> None:
        """Apply one action; raise :class:`IllegalAction` and change nothing if illegal."""
        ...

    def view(self, seat: int | None, *, quick: bool = False) -> BaseModel:
        """Everything ``seat`` (``None``: a spectator) may know, nothing more.

        ``quick``: the room runs quick windows (S-REACT-5, K-ORD-11): while a
        reaction window is open the view says who was asked but not who has
        answered or still owes an answer, except for the viewer itself."""
        ...

    def answers(self, seat: int) -> list[str]:
        """The actions of ``legal(seat)`` that answer what ``seat`` is pending
        for: without the optional ones that are no answer (Claim the Throne,
        S-SUL-2). Empty when ``seat`` is not pending. A room passes for a seat
        whose only answer is ``pass`` in quick windows (S-REACT-5, K-ORD-11)."""
        ...

    def timeout_action(self, seat: int) -> str:
        """The fixed default the room plays when ``seat`` times out (S-TIME-1, K-TIME-1)."""
        ...

    def is_window(self) -> bool:
        """True when the pending seats answer a reaction window (timed by the
        room's reaction timer): seats reacting to another's action, allowed to
        let it go. False for a seat's own decision, optional or not (a turn, a
        role's power used or passed): the turn timer, time to think."""
        ...

    def round_log(self, number: int, seat: int | None) -> Sequence[object]:
        """The log events ``seat`` saw in round ``number`` (1-based), as its views
        showed them, for a screen drawn anew (a language switch, a return to the
        table); empty for a round not played or not kept."""
        ...

    @property
    def round_number(self) -> int:
        """The number (1-based) of the round being played (or the last one)."""
        ...

    def round_view(self, number: int, seat: int | None) -> BaseModel | None:
        """What ``seat`` saw at the end of the finished round ``number`` (1-based):
        its result, reopened by a screen; None for a round not finished, or a
        game whose rounds have no result of their own."""
        ...

    def between_rounds(self) -> bool:
        """True when a round has ended and the next waits for ``next_round()``."""
        ...

    def next_round(self) -> None:
        """Deal the next round (only when ``between_rounds()``)."""
        ...

    def is_over(self) -> bool:
        """True once the whole match/game has ended."""
        ...

    def standings(self) -> list[int]:
        """Final score per seat (Sultans: match totals; Overlord: gold) -- for the leaderboard."""
        ...

    def winners(self) -> list[int]:
        """Seats that won the match/game (empty until it is over)."""
        ...


BotLevel = Literal["easy", "normal", "strong"]
"""How well a room's bot plays: ``easy`` (legal moves with light sense, for
newcomers), ``normal`` (the heuristic bot), ``strong`` (a search bot that
samples what its seat cannot see and simulates with the engine; offered for
games with a search, ``GameSpec.bot_levels``; without the server's thinking
pool it plays at normal)."""

BOT_LEVELS: tuple[BotLevel, ...] = ("easy", "normal", "strong")
"""Every level, weakest first: the one source of the allowed values."""

DEFAULT_BOT_LEVEL: BotLevel = "normal"
"""A room's bots unless its settings say otherwise; stand-ins for absent players always."""


class Bot(Protocol):
    """A bot for one seat. Sees only that seat's view and legal actions."""

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        """Return an action from ``legal``, or ``None`` to do nothing.

        When ``pending`` is True the bot must return an action. When False it
        may return an optional action (e.g. Claim the Throne) or None.
        """
        ...


class Searcher(Protocol):
    """One decision's search by a strong bot (pure, clock-free): ``step()`` adds
    one sample, ``best()`` answers from what the samples said so far."""

    samples: int

    def step(self) -> None: ...

    def best(self) -> str: ...


@dataclass(frozen=True)
class SearchSpec:
    """How a game's strong bot searches: from a seat's view only."""

    parse_view: Callable[[str], BaseModel]  # the seat's view from JSON (as it is sent to the thinking pool)
    searchable: Callable[[BaseModel, bool], bool]  # (view, pending): is this a decision the search makes?
    new: Callable[[BaseModel, list[str], str], Searcher]  # (view, legal, seed) -> a search
    # rooms may choose the strong level only once it plays clearly better than normal
    # (bench/sultans_bots.py --levels strong:normal); until then it is benchmarked, not offered
    offered: bool = True


@dataclass(frozen=True)
class ViewModels:
    """The models of what a game's table hands a screen, for their JSON form
    (``protocol.wire``): a seat's view, a finished round's view (None where
    rounds have no result of their own) and a log event; each a pydantic model
    or a union of them."""

    view: Any
    round_view: Any = None
    event: Any = None


@dataclass(frozen=True)
class GameSpec:
    """What the server needs to offer a game in the lobby and run it."""

    id: str
    title: str  # English title; screens translate via their catalogue
    min_players: int
    max_players: int
    options_model: type[BaseModel]
    # new_table(players, seed, options) -> GameTable
    new_table: Callable[[int, int, BaseModel], GameTable]
    # new_bot(seat, kind, seed) -> Bot; kind is a BotLevel, "heuristic" (= "normal") or "random"
    new_bot: Callable[[int, str, int], Bot]
    # rounds in a match, from the options (for the lobby's display); 0 = not round based
    describe_options: Callable[[BaseModel], Mapping[str, Any]] = field(default=lambda o: o.model_dump())
    # the strong bot's search, for games that have one
    search: SearchSpec | None = None
    # what its views are, so a screen can be sent them as JSON (None: in-process screens only)
    views: ViewModels | None = None
    # its rounds stop for their result until the next is dealt (``GameTable.between_rounds``):
    # the room's "between rounds" time applies
    round_results: bool = False

    @property
    def bot_levels(self) -> tuple[BotLevel, ...]:
        """The levels this game's bots play at: ``strong`` only where a search exists."""
        if self.search is not None and self.search.offered:
            return BOT_LEVELS
        return tuple(lv for lv in BOT_LEVELS if lv != "strong")
