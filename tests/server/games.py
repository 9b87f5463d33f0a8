"""Count to the target: a small but real game for testing the room runtime.

It has what the runtime must handle in the real games, in a few dozen lines of rules:

* C-DEAL: every round, each seat is dealt a hidden secret 1-3 from the seed's RNG;
  a seat's view shows only its own secret until the round ends (then all are shown).
* C-TURN: the seat on turn plays ``add 1`` / ``add 2`` / ``add 3`` to the shared total.
  Reaching the target exactly scores 3, passing it scores 1; either ends the round.
* C-WINDOW: when an add leaves the total at a multiple of 4 (round not over), a
  reaction window opens: every other seat is pending at once and answers ``pass``
  or, if its secret is odd, ``echo`` (+1 point). Answers are private until the
  last one comes in; then the echoers are announced and the turn passes on.
* C-BELL: once per match, any seat may ``bell`` (+1 point) while no window is
  open -- an optional action by seats that are not pending; in a window, a
  seat that owes an answer may too, and still owes it (as a Sultans claim is
  no answer, S-SUL-2).
* C-ROUNDS: a match is ``rounds`` rounds; between rounds the table waits for
  ``next_round()``; the match winners have the highest total.
* C-TIME: on timeout the room plays ``pass`` in a window, ``add 1`` on a turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pydantic import BaseModel, Field

from engine.api import Bot, GameSpec, GameTable, IllegalAction


class CountOptions(BaseModel):
    rounds: int = Field(default=2, ge=1, le=5)
    target: int = Field(default=12, ge=5, le=40)


class CountView(BaseModel):
    game: str = "count"
    seat: int | None
    players: int
    round: int
    rounds: int
    target: int
    total: int
    turn: int
    window_open: bool
    owed: list[int]  # who still owes an answer in the window (public)
    my_secret: int | None  # None for spectators
    my_answer: str | None  # this seat's own answer in the open window (private)
    secrets: list[int] | None  # every secret, shown once the round is over
    scores: list[int]
    bells: list[int]
    events: list[str]


class CountTable:
    """One match of the counting game (implements :class:`engine.api.GameTable`)."""

    def __init__(self, players: int, seed: int, options: CountOptions) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"count: 2-6 players, not {players}")
        self._n = players
        self._rng = random.Random(seed)
        self._opts = options
        self._round = 0
        self._scores = [0] * players
        self._bells: list[int] = []
        self._public: list[str] = []
        self._private: list[list[str]] = [[] for _ in range(players)]
        self._deal()

    # -- state helpers
    def _deal(self) -> None:
        self._secrets = [self._rng.randint(1, 3) for _ in range(self._n)]
        self._total = 0
        self._turn = self._round % self._n
        self._window: dict[int, str | None] | None = None
        self._round_over = False
        self._public.append(f"round {self._round + 1} dealt; P{self._turn + 1} starts")
        for s in range(self._n):
            self._private[s].append(f"round {self._round + 1}: your secret is {self._secrets[s]}")

    @property
    def game(self) -> str:
        return "count"

    @property
    def players(self) -> int:
        return self._n

    def pending(self) -> set[int]:
        if self._round_over:
            return set()
        if self._window is not None:
            return {s for s, a in self._window.items() if a is None}
        return {self._turn}

    def legal(self, seat: int) -> list[str]:
        if self._round_over or not 0 <= seat < self._n:
            return []
        out: list[str] = []
        if self._window is not None:
            if self._window.get(seat, "x") is None:
                out.append("pass")
                if self._secrets[seat] % 2 == 1:
                    out.append("echo")
                if seat not in self._bells:
                    out.append("bell")
            return out
        if seat == self._turn:
            out += ["add 1", "add 2", "add 3"]
        if seat not in self._bells:
            out.append("bell")
        return out

    def play(self, seat: int, text: str) -> None:
        words = text.strip().split()
        if not words or words[0] not in ("add", "pass", "echo", "bell"):
            raise IllegalAction(f"cannot parse {text!r}", code="parse", text=text, seat=seat)
        canonical = " ".join(words)
        if canonical not in self.legal(seat):
            code = "not-pending" if seat not in self.pending() and words[0] != "bell" else "illegal"
            raise IllegalAction(f"P{seat + 1} may not play {text!r} now", code=code, text=text, seat=seat)
        if words[0] == "bell":
            self._bells.append(seat)
            self._scores[seat] += 1
            self._public.append(f"P{seat + 1} rang the bell")
        elif words[0] == "add":
            self._add(seat, int(words[1]))
        else:
            assert self._window is not None
            self._window[seat] = words[0]
            self._private[seat].append(f"you answered {words[0]}")
            if all(a is not None for a in self._window.values()):
                echoers = [s for s, a in self._window.items() if a == "echo"]
                for s in echoers:
                    self._scores[s] += 1
                self._public.append(
                    "window closed; echoed: " + (", ".join(f"P{s + 1}" for s in echoers) or "nobody")
                )
                self._window = None
                self._turn = (self._turn + 1) % self._n

    def _add(self, seat: int, k: int) -> None:
        self._total += k
        self._public.append(f"P{seat + 1} added {k}: total {self._total}")
        if self._total >= self._opts.target:
            exact = self._total == self._opts.target
            self._scores[seat] += 3 if exact else 1
            self._public.append(f"round {self._round + 1} over: P{seat + 1} {'hit' if exact else 'passed'} the target")
            self._round_over = True
        elif self._total % 4 == 0:
            self._window = {s: None for s in range(self._n) if s != seat}
            self._public.append("window open")
        else:
            self._turn = (self._turn + 1) % self._n

    def answers(self, seat: int) -> list[str]:
        """``legal`` without the bell, which is no answer (as a Sultans claim, S-SUL-2)."""
        return [a for a in self.legal(seat) if a != "bell"] if seat in self.pending() else []

    def view(self, seat: int | None, *, quick: bool = False) -> CountView:
        events = list(self._public)
        owed = sorted(self.pending()) if self._window is not None else []
        if quick:  # S-REACT-5: who still owes an answer is the viewer's own business
            owed = [s for s in owed if s == seat]
        if seat is not None:
            events += self._private[seat]
        return CountView(
            seat=seat,
            players=self._n,
            round=self._round + 1,
            rounds=self._opts.rounds,
            target=self._opts.target,
            total=self._total,
            turn=self._turn,
            window_open=self._window is not None,
            owed=owed,
            my_secret=None if seat is None else self._secrets[seat],
            my_answer=None if seat is None or self._window is None else self._window.get(seat),
            secrets=list(self._secrets) if self._round_over else None,
            scores=list(self._scores),
            bells=list(self._bells),
            events=events,
        )

    def timeout_action(self, seat: int) -> str:
        return "pass" if self._window is not None else "add 1"

    def is_window(self) -> bool:
        return self._window is not None

    def round_log(self, number: int, seat: int | None) -> list[str]:
        return []  # the view's events are the whole game's

    @property
    def round_number(self) -> int:
        return self._round + 1

    def round_view(self, number: int, seat: int | None) -> CountView | None:
        return None

    def between_rounds(self) -> bool:
        return self._round_over and self._round + 1 < self._opts.rounds

    def next_round(self) -> None:
        if not self.between_rounds():
            raise IllegalAction("no round to deal", code="round-over")
        self._round += 1
        self._deal()

    def is_over(self) -> bool:
        return self._round_over and self._round + 1 >= self._opts.rounds

    def standings(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        if not self.is_over():
            return []
        best = max(self._scores)
        return [s for s, p in enumerate(self._scores) if p == best]


class CountBot:
    """Heuristic: hit the target when it can, echo when it can, ring the bell now and then."""

    def __init__(self, seat: int, kind: str, seed: int) -> None:
        self.seat = seat
        self.kind = kind
        self._rng = random.Random(seed)

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        assert isinstance(view, CountView)
        if not legal:
            return None
        if not pending:
            return "bell" if "bell" in legal and self._rng.random() < 0.2 else None
        choices = [a for a in legal if a != "bell"] or legal
        if self.kind == "heuristic":
            need = view.target - view.total
            if f"add {need}" in choices:
                return f"add {need}"
            if "echo" in choices:
                return "echo"
        return self._rng.choice(choices)


def _new_table(players: int, seed: int, options: BaseModel) -> GameTable:
    return CountTable(players, seed, CountOptions.model_validate(options.model_dump()))


def make_spec(
    new_bot: Callable[[int, str, int], Bot] | None = None,
    *,
    new_table: Callable[[int, int, BaseModel], GameTable] | None = None,
    game_id: str = "count",
) -> GameSpec:
    """The counting game's spec; ``new_bot``/``new_table`` swap in others (e.g. ones that crash)."""
    return GameSpec(
        id=game_id,
        title="Count to the Target",
        min_players=2,
        max_players=6,
        options_model=CountOptions,
        new_table=new_table or _new_table,
        new_bot=new_bot or CountBot,
        round_results=True,  # C-ROUNDS: a finished round waits for next_round()
    )


COUNT_SPEC = make_spec()


# ---------------------------------------------------------------- test helpers


async def until(cond: Callable[[], bool], *, timeout: float = 10.0, step: float = 0.002) -> None:
    """Let the loop run until ``cond()`` holds; fail (not hang) after ``timeout`` seconds."""
    import asyncio

    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("condition not reached")
        await asyncio.sleep(step)


async def ticks(n: int = 3) -> None:
    """Let ``n`` event-loop iterations pass."""
    import asyncio

    for _ in range(n):
        await asyncio.sleep(0)
