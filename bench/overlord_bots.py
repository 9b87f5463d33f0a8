"""Benchmark: one Kill the Overlord bot seat (the hero) among seats of another kind.

    ./manage bench overlord_bots [--games N] [--expansion] [--seed S] [--levels HERO:FIELD] [--budget SECONDS]

For each player count 4-8, plays N games (the hero seat rotates) and prints the
hero's win rate with its 95 % Wilson interval, a field seat's win rate at the
same table size ((1 - hero rate) / (players - 1)), and their ratio with the
interval carried over from the hero's (the ratio rises with the hero's rate);
then the same over all counts (ratio of the summed rates), how games ended, and
the throughput.

``--levels`` names the two kinds, each ``easy``, ``normal``, ``strong`` or
``random`` (default ``normal:random``, target >= 2x the base rate;
``normal:easy`` and ``strong:normal`` target >= 1.5x). ``--budget`` is the
strong bot's thinking time per decision; its decision times are printed.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable

from bot_stats import wilson

from engine.api import Bot
from engine.overlord import Game
from engine.overlord.bots import make_bot
from engine.registry import games

KINDS = ("easy", "normal", "strong", "random")
BotMaker = Callable[[int, str, int], Bot]
TARGETS = {("normal", "random"): 2.0, ("normal", "easy"): 1.5, ("strong", "normal"): 1.5}


def bot_maker(budget: float | None) -> tuple[BotMaker, list[float]]:
    """Makes the bots; the strong bot's decision times (seconds) go to the list."""
    times: list[float] = []

    def make(seat: int, kind: str, seed: int) -> Bot:
        return make_bot(seat, kind, seed)

    return make, times


def play_one(players: int, seed: int, hero: int, expansion: bool, levels: tuple[str, str],
             make: BotMaker) -> tuple[Game, int]:
    ranks = list(range(1, 9)) if expansion else []
    g = Game.random(players, seed, expansion_ranks=ranks)
    bots: list[Bot] = [make(s, levels[0] if s == hero else levels[1], seed) for s in range(players)]
    steps = 0
    while not g.is_over():
        for s in sorted(g.pending()):
            if s not in g.pending():
                continue
            a = bots[s].act(g.view(s), g.legal(s), True)
            assert a is not None
            g.play(s, a)
            steps += 1
    return g, steps


def field_rate(p: float, players: int) -> float:
    return (1 - p) / (players - 1)


def ratio(p: float, players: int) -> float:
    f = field_rate(p, players)
    return p / f if f > 0 else float("inf")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400, help="games per player count")
    ap.add_argument("--expansion", action="store_true", help="all expansion roles in play")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, nargs="*", default=[4, 5, 6, 7, 8], help="player counts (4-8)")
    ap.add_argument("--levels", default="normal:random", help="HERO:FIELD bot kinds (easy, normal, strong, random)")
    ap.add_argument("--budget", type=float, default=None, help="the strong bot's thinking seconds per decision")
    args = ap.parse_args()
    hero_kind, _, field_kind = args.levels.partition(":")
    for k in (hero_kind, field_kind):
        if k not in KINDS:
            raise SystemExit(f"--levels: {k!r} is not one of {', '.join(KINDS)} (HERO:FIELD, e.g. strong:normal)")
    levels = (hero_kind, field_kind)
    if "strong" in levels and games()["overlord"].search is None:
        raise SystemExit("Kill the Overlord has no strong bot yet (no search): levels easy, normal and random only")
    make, times = bot_maker(args.budget)
    print(f"Kill the Overlord: one {hero_kind} seat among {field_kind} seats, {args.games} games per count, "
          f"expansion={'all' if args.expansion else 'none'}")
    print(f"{'players':>7} {'wins':>5} {'hero':>6} {'95% CI':>12} {'field':>6} {'ratio':>6} {'95% CI':>12} "
          f"{'rounds':>6}  ends")
    t0 = time.perf_counter()
    total_steps = 0
    total_games = 0
    sum_hero = sum_field = 0.0
    sum_lo = sum_hi = 0.0
    for players in args.players:
        wins = 0
        rounds = 0
        reasons: Counter[str] = Counter()
        for i in range(args.games):
            hero = i % players
            g, steps = play_one(players, args.seed * 100_000 + players * 10_000 + i, hero, args.expansion, levels, make)
            total_steps += steps
            total_games += 1
            out = g.outcome()
            assert out is not None
            wins += out.winner == hero
            rounds += g.round
            reasons[out.reason] += 1
        p = wins / args.games
        lo, hi = wilson(wins, args.games)
        sum_hero += p
        sum_field += field_rate(p, players)
        sum_lo += lo
        sum_hi += hi
        ends = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        print(f"{players:>7} {wins:>5} {p:>6.3f} {f'{lo:.3f}-{hi:.3f}':>12} {field_rate(p, players):>6.3f} "
              f"{ratio(p, players):>5.2f}x {f'{ratio(lo, players):.2f}-{ratio(hi, players):.2f}':>12} "
              f"{rounds / args.games:>6.1f}  {ends}")
    dt = time.perf_counter() - t0
    overall = sum_hero / sum_field if sum_field else float("inf")
    target = TARGETS.get(levels)
    verdict = "no target" if target is None else f"{'meets' if overall >= target else 'MISSES'} the {target}x target"
    print(f"all counts: {hero_kind} seat's rate / {field_kind} seat's rate = {overall:.2f}x ({verdict}); "
          f"per-count 95% Wilson intervals above")
    print(f"{total_games} games, {total_steps} actions in {dt:.1f} s "
          f"({total_steps / dt:.0f} actions/s, {total_games / dt:.1f} games/s)")
    if times:
        times.sort()
        p50, p99 = times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"strong bot: {len(times)} decisions, p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")


if __name__ == "__main__":
    main()
