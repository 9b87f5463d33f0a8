"""The bots of the bot benchmarks (``sultans_bots``, ``overlord_bots``): each
level as a room makes it, the strong one timed.

Not a benchmark itself: ``./manage bench bot_makers`` only prints this note.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pydantic import BaseModel

from engine.api import Bot
from protocol.contract import RoomSettings
from server.thinking import think

BotMaker = Callable[[int, str, int], Bot]


def bot_maker(
    game: str,
    make_bot: BotMaker,
    searchable: Callable[[BaseModel, bool], bool],
    budget: float | None,
    samples: int = 0,
    searched: list[int] | None = None,
) -> tuple[BotMaker, list[float]]:
    """Makes ``game``'s bots; the strong bot's decision times (seconds) go to the list,
    and the samples it searched each decision to ``searched`` when given."""
    times: list[float] = []
    spend = budget if budget is not None else RoomSettings().bot_delay

    def make(seat: int, kind: str, seed: int) -> Bot:
        if kind == "strong":
            return TimedStrong(
                game, make_bot(seat, "normal", seed), searchable, seat, seed, spend, times, samples, searched
            )
        return make_bot(seat, kind, seed)

    return make, times


class TimedStrong:
    """The strong bot as a room runs it: a search for ``budget`` seconds a decision
    (here in this process, timed), the normal bot for the rest."""

    def __init__(
        self, game: str, normal: Bot, searchable: Callable[[BaseModel, bool], bool], seat: int, seed: int,
        budget: float, times: list[float], samples: int = 0, searched: list[int] | None = None,
    ) -> None:
        self.game, self.normal, self.searchable = game, normal, searchable
        self.seat, self.seed, self.budget, self.times, self.samples = seat, seed, budget, times, samples
        self.searched = searched
        self.decisions = 0

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not legal or not self.searchable(view, pending):
            return self.normal.act(view, legal, pending)
        self.decisions += 1
        t0 = time.perf_counter()
        seed = f"{self.seed}:{self.seat}:{self.decisions}"
        answer = think(self.game, view.model_dump_json(), legal, seed, self.budget, self.samples, self.searched)
        self.times.append(time.perf_counter() - t0)
        return answer


def report_times(times: list[float], searched: list[int] | None = None) -> None:
    """The strong bot's decision times, p50 and p99 (and the samples it searched a decision)."""
    if times:
        times.sort()
        p50, p99 = times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"strong bot: {len(times)} decisions, p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")
    if searched:
        searched = sorted(searched)
        print(f"strong bot: sampled deals searched a decision: p50 {searched[len(searched) // 2]}, "
              f"mean {sum(searched) / len(searched):.1f}, p10 {searched[len(searched) // 10]}")


if __name__ == "__main__":
    print(__doc__)
