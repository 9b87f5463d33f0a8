"""A match of Sultans of Karaya: several rounds, the score table and tie-breaks
(S-TURN-1, S-MATCH-1, S-TIME-1). Implements :class:`engine.api.GameTable`.

Round ``k`` (1-based) is dealt by ``random.Random(f"sultans:{seed}:{k}")``;
round 1's first seat comes from ``random.Random(f"sultans:{seed}:first")`` and
each later round starts one seat clockwise of the previous first seat. So the
match seed plus the ordered ``play``/``next_round`` calls replay a match exactly.
A finished round waits for an explicit :meth:`Match.next_round`.
"""

from __future__ import annotations

import random

from engine.sultans.actions import Action, format_action
from engine.sultans.errors import IllegalMove
from engine.sultans.options import FIRST_TO_CAP, SultansOptions
from engine.sultans.round import PH_WINDOW, Round
from engine.sultans.views import Event, MatchView, RoundResult, RoundView, TieBreak


class Match:
    """A whole match; ``m.round`` is the current :class:`Round`."""

    game = "sultans"

    def __init__(self, players: int, seed: int | str, options: SultansOptions | None = None) -> None:
        self.options = options if options is not None else SultansOptions()
        self.seed = seed
        self._players = players
        self.totals: list[int] = [0] * players
        self.history: list[RoundResult] = []
        self._earlier: list[Round] = []  # the finished rounds before ``round``, for their logs
        self.round_number = 1
        self._first0 = random.Random(f"sultans:{seed}:first").randrange(players)
        self.round = self._deal(1)
        self._over = False
        self._winners: list[int] = []
        self.tiebreak: TieBreak | None = None
        self._after_play()

    @classmethod
    def new(
        cls,
        players: int,
        seed: int | str,
        rounds: int = 5,
        options: SultansOptions | None = None,
        *,
        first_to: int | None = None,
        turn_limit: int = 200,
        notebook: bool = True,
    ) -> Match:
        """``Match.new(players=8, seed=3, rounds=5)``; ``options`` (if given) wins over the keywords."""
        if options is None:
            options = SultansOptions(rounds=rounds, first_to=first_to, turn_limit=turn_limit, notebook=notebook)
        return cls(players, seed, options)

    # -------------------------------------------------------------- rounds

    @property
    def players(self) -> int:
        return self._players

    @property
    def max_rounds(self) -> int:
        return FIRST_TO_CAP if self.options.first_to is not None else self.options.rounds

    def _deal(self, k: int) -> Round:
        first = (self._first0 + k - 1) % self._players  # S-TURN-1
        return Round.random(
            self._players,
            seed=f"sultans:{self.seed}:{k}",
            first=first,
            turn_limit=self.options.turn_limit,
            notebook=self.options.notebook,
        )

    def _after_play(self) -> None:
        r = self.round
        out = r.outcome()
        if out is None or len(self.history) >= self.round_number:
            return
        n = self._players
        pts = tuple(out.points[s] for s in range(n))
        for s in range(n):
            self.totals[s] += pts[s]
        assert out.spare is not None
        self.history.append(
            RoundResult(
                number=self.round_number,
                first=r.first,
                winner=out.winner,
                reason=out.reason,
                points=pts,
                cards=out.cards,
                spare=out.spare,
                turns=out.turns,
            )
        )
        ft = self.options.first_to
        if ft is not None:
            done = max(self.totals) >= ft or self.round_number >= FIRST_TO_CAP
        else:
            done = self.round_number >= self.options.rounds
        if done:
            self._over = True
            self.tiebreak = self._decide()
            self._winners = list(self.tiebreak.winners)

    def _decide(self) -> TieBreak:
        """S-MATCH-1: highest total; tie -> latest 2-point round; else shared."""
        best = max(self.totals)
        tied = [s for s in range(self._players) if self.totals[s] == best]
        if len(tied) == 1:
            return TieBreak(code="sole-highest", tied=tuple(tied), winners=tuple(tied), total=best)
        last2: dict[int, int] = {}
        for res in self.history:
            for s in tied:
                if res.points[s] == 2:
                    last2[s] = res.number
        if not last2:
            return TieBreak(code="shared-no-two", tied=tuple(tied), winners=tuple(tied), total=best)
        latest = max(last2.values())
        ws = tuple(s for s in tied if last2.get(s) == latest)
        code = "latest-two" if len(ws) == 1 else "shared-same-round"
        return TieBreak(code=code, tied=tuple(tied), winners=ws, total=best, round=latest)

    # ------------------------------------------------------- GameTable API

    def pending(self) -> set[int]:
        return self.round.pending()

    def legal(self, seat: int) -> list[str]:
        return self.round.legal(seat)

    def play(self, seat: int, text: str) -> None:
        if self._over:
            raise IllegalMove(f"seat {seat}: {text!r}: the match is over", code="round-over", text=str(text), seat=seat)
        self.round.play(seat, text)
        self._after_play()

    def apply(self, seat: int, action: Action) -> None:
        """Apply a structured :class:`Action`."""
        self.play(seat, format_action(action))

    def answers(self, seat: int) -> list[str]:
        """``legal`` without Claim the Throne, which is never an answer (S-SUL-2)."""
        if seat not in self.round.pending():
            return []
        return [a for a in self.round.legal(seat) if a != "claim"]

    def view(self, seat: int | None, *, quick: bool = False) -> MatchView:
        rv = self.round.view(seat, quick=quick)
        return MatchView(
            viewer=seat,
            players=self._players,
            round=rv,
            round_number=self.round_number,
            rounds=None if self.options.first_to is not None else self.options.rounds,
            first_to=self.options.first_to,
            max_rounds=self.max_rounds,
            totals=tuple(self.totals),
            history=tuple(self.history),
            between_rounds=self.between_rounds(),
            over=self._over,
            winners=tuple(self._winners),
            tiebreak=self.tiebreak,
        )

    def timeout_action(self, seat: int) -> str:
        """S-TIME-1."""
        return self.round.timeout_action(seat)

    def is_window(self) -> bool:
        """S-REACT: a block or revolt window, or a detention's target deciding."""
        return self.round.phase == PH_WINDOW

    def between_rounds(self) -> bool:
        return self.round.over and not self._over

    def next_round(self) -> None:
        """Deal the next round; it starts one seat clockwise of the previous first seat."""
        if not self.between_rounds():
            raise IllegalMove("next_round: no finished round is waiting (round in play or match over)", code="illegal")
        self.round_number += 1
        self._earlier.append(self.round)
        self.round = self._deal(self.round_number)
        self._after_play()

    def round_log(self, number: int, seat: int | None) -> list[Event]:
        """The events ``seat`` saw in round ``number`` (1-based; the current round
        too), as its view showed them (S-VIEW-4); empty for a round not played."""
        if number == self.round_number:
            return self.round.events(seat)
        if 1 <= number <= len(self._earlier):
            return self._earlier[number - 1].events(seat)
        return []

    def round_view(self, number: int, seat: int | None) -> RoundView | None:
        """The view ``seat`` had at the end of round ``number`` (every card
        shown, S-VIEW-3); None for a round not finished."""
        if 1 <= number <= len(self._earlier):
            return self._earlier[number - 1].view(seat)
        if number == self.round_number and self.round.over:
            return self.round.view(seat)
        return None

    def is_over(self) -> bool:
        return self._over

    def standings(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def winner_seats(self) -> list[int]:
        """Same as :meth:`winners` (attribute form)."""
        return list(self._winners)
