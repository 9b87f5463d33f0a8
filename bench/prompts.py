"""Benchmark: how often a human at a bot table is prompted, and how long a game lasts.

    ./manage bench prompts [--games N] [--sultans-seats N] [--overlord-seats N] [--seed S]

Plays Sultans of Karaya matches (5 rounds) and Kill the Overlord games through
the real room runtime (``server.hub.Hub``, in-memory database), with quick
windows (S-REACT-5, K-ORD-11: the default) and with strict windows, on a
simulated clock: every wait of the room (timers, bot thinking, a window's
minimum time, the time between rounds) takes simulated time only. Seat 0 is
played as a human would play it: whenever the room says the seat is pending
(a prompt is on its screen) it answers, after ``THINK_PASS`` seconds when
``pass`` is all it may answer and ``THINK`` seconds otherwise, with what the
engine's heuristic bot picks from the seat's own view; a round's result it
reads for ``READ`` seconds, then goes on (Enter). Every other seat is a
bot. The rooms' defaults: ``RoomSettings()`` timers and minimum window time,
the server's default bot delay and time between rounds (``server.config``).

Per game it prints: prompts shown to seat 0, of them prompts where pass was
the only answer, real decisions, windows where the room passed for seat 0,
and the game's length in simulated time. The same seeds are played in both
modes.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import itertools
import random
import statistics
from dataclasses import dataclass
from unittest import mock

from engine.registry import games
from protocol.contract import Identity, RoomSettings
from server.config import RoomsSection
from server.hub import Hub
from server.room import RoomSession
from server.storage import Storage

THINK = 5.0  # seconds the human takes for a real decision
THINK_PASS = 2.0  # ...and to answer a prompt where pass is all it may do ("n", Enter)
READ = 8.0  # ...and to read a round's result before pressing Enter to go on
GAME_CAP = 6 * 3600.0  # simulated seconds: a game still going then is reported as cut


class SimClock:
    """The room's clock and sleep, in simulated time that jumps to the next wake-up."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(0.0, seconds), next(self._seq), fut))
        await fut

    def next_wake(self) -> float | None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)  # a sleep cancelled meanwhile
        return self._sleepers[0][0] if self._sleepers else None

    async def run_to(self, when: float) -> None:
        """Move to ``when``, waking every sleeper due by then in order."""
        while True:
            wake = self.next_wake()
            if wake is None or wake > when:
                break
            _, _, fut = heapq.heappop(self._sleepers)
            self.now = max(self.now, wake)
            fut.set_result(None)
            await settle()
        self.now = max(self.now, when)
        await settle()


async def settle(n: int = 8) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


@dataclass
class Result:
    game: str
    mode: str
    seed: int
    prompts: int = 0
    pass_only: int = 0
    real: int = 0
    passed_for: int = 0
    length: float = 0.0
    finished: bool = False


async def play(game: str, seats: int, seed: int, strict: bool) -> Result:
    defaults = RoomsSection()
    clock = SimClock()
    hub = Hub(
        Storage(":memory:"), host_fingerprint="SHA256:bench", bot_delay=defaults.bot_delay,
        intermission=defaults.intermission, clock=clock.time,
    )
    await hub.start()
    hub.env.sleep = clock.sleep  # type: ignore[method-assign]
    result = Result(game, "strict" if strict else "quick", seed)
    try:
        options = {"rounds": 5} if game == "sultans" else {}
        rc: RoomSession = hub.connect(Identity(name="human")).create_room(
            RoomSettings(game=game, seats=seats, strict_windows=strict, options=options)
        )
        for _ in range(seats - 1):
            rc.add_bot()
        rc.room._think = random.Random(seed)  # the bots' thinking times too: a run is repeatable
        with mock.patch("server.room.runtime.secrets.randbits", lambda _bits: seed):  # the same deal in both modes
            rc.start()
        room = rc.room
        spec = games()[game]
        human = spec.new_bot(0, "heuristic", seed)
        start = clock.now
        due: float | None = None  # when the human answers the prompt on its screen
        passed = False
        read_until: float | None = None  # when the human has read the round's result on its screen
        while room.state == "playing" and clock.now - start < GAME_CAP:
            await settle()
            snap = rc.snapshot()
            if room.table is not None and room.table.between_rounds() and 0 in snap.holding and 0 not in snap.went_on:
                if read_until is None:
                    read_until = clock.now + READ
                elif clock.now >= read_until:
                    rc.go_on()
                    continue
            else:
                read_until = None
            if due is None and rc.pending():
                assert room.table is not None
                only_pass = room.table.answers(0) == ["pass"]
                result.prompts += 1
                result.pass_only += only_pass
                result.real += not only_pass
                due = clock.now + (THINK_PASS if only_pass else THINK)
            nothing = rc.nothing_to_answer()
            result.passed_for += nothing and not passed
            passed = nothing
            if due is not None and clock.now >= due:
                due = None
                if rc.pending():
                    view, legal = rc.view(), rc.legal()
                    assert view is not None
                    action = human.act(view, legal, True) or legal[0]
                    rc.act(action, rc.snapshot().version)
                continue
            wake = clock.next_wake()
            times = [t for t in (wake, due, read_until) if t is not None]
            target = min(times) if times else None
            if target is None:
                raise RuntimeError(f"{game} seed {seed}: the room waits for nothing and nobody")
            await clock.run_to(target)
        result.length = clock.now - start
        result.finished = room.state != "playing"
    finally:
        await hub.stop()
    return result


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3, help="games of each kind per mode (default 3)")
    ap.add_argument("--sultans-seats", type=int, default=6)
    ap.add_argument("--overlord-seats", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    results: list[Result] = []
    print("game      windows  seed  prompts  pass-only  real  passed-for  length")
    for game, seats in (("sultans", args.sultans_seats), ("overlord", args.overlord_seats)):
        for strict in (False, True):
            for k in range(args.games):
                r = await play(game, seats, args.seed + k, strict)
                results.append(r)
                cut = "" if r.finished else " (cut)"
                print(
                    f"{game:<9} {r.mode:<7} {r.seed:>5} {r.prompts:>8} {r.pass_only:>10} {r.real:>5}"
                    f" {r.passed_for:>11}  {minutes(r.length)}{cut}",
                    flush=True,
                )
    print()
    print(f"mean per game (seat 0 of {args.sultans_seats} in Sultans, of {args.overlord_seats} in Overlord;"
          f" simulated time, human answers in {THINK:g} s / {THINK_PASS:g} s):")
    for game in ("sultans", "overlord"):
        for mode in ("quick", "strict"):
            rs = [r for r in results if r.game == game and r.mode == mode]
            if rs:
                print(
                    f"  {game:<9} {mode:<7} prompts {statistics.mean(r.prompts for r in rs):6.1f}"
                    f"  pass-only {statistics.mean(r.pass_only for r in rs):6.1f}"
                    f"  real {statistics.mean(r.real for r in rs):5.1f}"
                    f"  length {minutes(statistics.mean(r.length for r in rs))}"
                )


if __name__ == "__main__":
    asyncio.run(main())
