"""Benchmark: one Kill the Overlord bot seat (the hero) among seats of another kind.

    ./manage bench overlord_bots [--games N] [--expansion] [--seed S] [--levels HERO:FIELD] [--budget SECONDS]
                                 [--samples K] [--jobs J]

For each player count 4-8, plays N games (the hero seat rotates) and prints the
hero's win rate with its 95 % Wilson interval, a field seat's win rate at the
same table size ((1 - hero rate) / (players - 1)), and their ratio with the
interval carried over from the hero's (the ratio rises with the hero's rate);
then the same over all counts (ratio of the summed rates, with a 95 % interval
by the delta method over the per-count win rates, normal approximation), how
games ended, and the throughput.

``--levels`` names the two kinds, each ``easy``, ``normal``, ``strong`` or
``random`` (default ``normal:random``, target >= 2x the base rate;
``normal:easy`` and ``strong:normal`` target >= 1.5x). ``--budget`` is the
strong bot's thinking time per decision (its default is the room's default bot
delay); its decision times are printed. ``--samples`` searches exactly K
sampled deals a decision instead (the same play on a busy or an idle machine,
for comparing versions of the search). ``--jobs`` plays that many games at
once, each in its own process (the results are the same as with one).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import multiprocessing.pool
import time
from collections import Counter
from collections.abc import Sequence

from bot_makers import BotMaker, report_times
from bot_makers import bot_maker as shared_bot_maker
from bot_stats import Z95, wilson

from engine.api import Bot
from engine.overlord import Game
from engine.overlord.bots import make_bot
from engine.overlord.search import searchable
from engine.registry import games

KINDS = ("easy", "normal", "strong", "random")
TARGETS = {("normal", "random"): 2.0, ("normal", "easy"): 1.5, ("strong", "normal"): 1.5}


def bot_maker(budget: float | None, samples: int = 0) -> tuple[BotMaker, list[float]]:
    """Makes the bots; the strong bot's decision times (seconds) go to the list."""
    return shared_bot_maker("overlord", make_bot, searchable, budget, samples)


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


def one_game(task: tuple[int, int, int, bool, tuple[str, str], float | None, int]) -> tuple[int, int, str, int, list[float]]:
    """One game with the hero at seat ``hero``: the winner, the rounds, how it ended,
    the actions played and the strong bot's decision times."""
    players, seed, hero, expansion, levels, budget, samples = task
    make, times = bot_maker(budget, samples)
    g, steps = play_one(players, seed, hero, expansion, levels, make)
    out = g.outcome()
    assert out is not None
    return out.winner, g.round, out.reason, steps, times


def overall_ci(rates: Sequence[tuple[float, int, int]]) -> tuple[float, float, float]:
    """The ratio of the summed hero rates to the summed field rates over the table
    sizes ((rate, players, games) each), with a 95 % interval by the delta method
    (normal approximation; the counts' rates are independent binomials)."""
    hero = sum(p for p, _, _ in rates)
    fld = sum(field_rate(p, n) for p, n, _ in rates)
    if fld <= 0:
        return math.inf, math.inf, math.inf
    r = hero / fld
    var = 0.0
    for p, n, games_played in rates:
        d = 1 / fld + hero / (fld * fld * (n - 1))  # d r / d p for this count
        var += d * d * p * (1 - p) / games_played
    se = math.sqrt(var)
    return r, r - Z95 * se, r + Z95 * se


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
    ap.add_argument("--samples", type=int, default=0, help="search exactly this many samples a decision (not a time budget)")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once, each in its own process")
    args = ap.parse_args()
    hero_kind, _, field_kind = args.levels.partition(":")
    for k in (hero_kind, field_kind):
        if k not in KINDS:
            raise SystemExit(f"--levels: {k!r} is not one of {', '.join(KINDS)} (HERO:FIELD, e.g. strong:normal)")
    levels = (hero_kind, field_kind)
    if "strong" in levels and games()["overlord"].search is None:
        raise SystemExit("Kill the Overlord has no strong bot yet (no search): levels easy, normal and random only")
    times: list[float] = []
    print(f"Kill the Overlord: one {hero_kind} seat among {field_kind} seats, {args.games} games per count, "
          f"expansion={'all' if args.expansion else 'none'}")
    print(f"{'players':>7} {'wins':>5} {'hero':>6} {'95% CI':>12} {'field':>6} {'ratio':>6} {'95% CI':>12} "
          f"{'rounds':>6}  ends")
    t0 = time.perf_counter()
    total_steps = 0
    total_games = 0
    rates: list[tuple[float, int, int]] = []
    tasks = [
        (players, args.seed * 100_000 + players * 10_000 + i, i % players, args.expansion, levels, args.budget, args.samples)
        for players in args.players for i in range(args.games)
    ]
    # each game on its own (a process per job): games are independent, results kept in order
    pool = multiprocessing.get_context("spawn").Pool(args.jobs) if args.jobs > 1 else None
    results = iter(pool.imap(one_game, tasks) if pool else map(one_game, tasks))
    for players in args.players:
        wins = 0
        rounds = 0
        reasons: Counter[str] = Counter()
        for i in range(args.games):
            winner, played, reason, steps, took = next(results)
            total_steps += steps
            total_games += 1
            times += took
            wins += winner == i % players
            rounds += played
            reasons[reason] += 1
        p = wins / args.games
        lo, hi = wilson(wins, args.games)
        rates.append((p, players, args.games))
        ends = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        print(f"{players:>7} {wins:>5} {p:>6.3f} {f'{lo:.3f}-{hi:.3f}':>12} {field_rate(p, players):>6.3f} "
              f"{ratio(p, players):>5.2f}x {f'{ratio(lo, players):.2f}-{ratio(hi, players):.2f}':>12} "
              f"{rounds / args.games:>6.1f}  {ends}", flush=True)
    if pool:
        pool.close()
    dt = time.perf_counter() - t0
    overall, lo, hi = overall_ci(rates)
    target = TARGETS.get(levels)
    verdict = "no target" if target is None else f"{'meets' if overall >= target else 'MISSES'} the {target}x target"
    print(f"all counts: {hero_kind} seat's rate / {field_kind} seat's rate = {overall:.2f}x, 95% CI {lo:.2f}-{hi:.2f} "
          f"(delta method) ({verdict}); per-count 95% Wilson intervals above")
    print(f"{total_games} games, {total_steps} actions in {dt:.1f} s "
          f"({total_steps / dt:.0f} actions/s, {total_games / dt:.1f} games/s)")
    report_times(times)


if __name__ == "__main__":
    main()
