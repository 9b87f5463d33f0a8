"""Benchmark: one Sultans bot seat (the hero) among seats of another kind.

    ./manage bench sultans_bots [--rounds N] [--seed S] [--levels HERO:FIELD] [--budget SECONDS] [--samples K] [--jobs J]

Plays N rounds (default 2,200: 200 per player count 5-15). In each round one
seat (rotating) is played by the hero bot from its own view; every other seat
by the field bot. Prints, per player count and overall, the hero seat's mean
points per round, a field seat's mean points per round, and their ratio with a
95 % interval (delta method over the rounds, normal approximation), plus how
the rounds ended.

``--levels`` names the two kinds, each ``easy``, ``normal``, ``strong`` or
``random`` (default ``normal:random``, target >= 1.5x; ``normal:easy`` and
``strong:normal`` target >= 1.3x; ``random:random`` is a control, about 1.0).
``--budget`` is the strong bot's thinking time per decision (its default is
the room's default bot delay); the strong bot's decision times, and the sampled
deals it searched a decision, are printed.
``--samples`` searches exactly K sampled deals a decision instead (the same
play on a busy or an idle machine, for comparing versions of the search).
``--jobs`` plays that many rounds at once, each in its own process (the
results are the same as with one).
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.pool
import random
import time
from collections import Counter

from bot_makers import BotMaker, report_times
from bot_makers import bot_maker as shared_bot_maker
from bot_stats import ratio_ci

from engine.api import Bot
from engine.sultans import Round
from engine.sultans.bots import make_bot
from engine.sultans.search import searchable

KINDS = ("easy", "normal", "strong", "random")
TARGETS = {("normal", "random"): 1.5, ("normal", "easy"): 1.3, ("strong", "normal"): 1.3}


def bot_maker(
    budget: float | None, samples: int = 0, searched: list[int] | None = None
) -> tuple[BotMaker, list[float]]:
    """Makes the bots; the strong bot's decision times (seconds) go to the list, the
    samples it searched each decision to ``searched``."""
    return shared_bot_maker("sultans", make_bot, searchable, budget, samples, searched)


def play_round(players: int, seed: int, hero: int, levels: tuple[str, str], make: BotMaker) -> tuple[Round, int]:
    """Play one round to the end; returns it and the number of actions played."""
    r = Round.random(players, seed=f"bench-bots:{seed}")
    bots: list[Bot] = [make(s, levels[0] if s == hero else levels[1], seed) for s in range(players)]
    order = random.Random(f"bench-order:{seed}")
    steps = 0
    while r.outcome() is None:
        pend = r.pending()
        # optional actions (Claim the Throne) from seats nobody waits for
        acted = False
        for s in range(players):
            if s in pend:
                continue
            legal = r.legal(s)
            if legal:
                a = bots[s].act(r.view(s), legal, False)
                if a is not None:
                    r.play(s, a)
                    steps += 1
                    acted = True
                    break
        if acted:
            continue
        s = order.choice(sorted(pend))
        a = bots[s].act(r.view(s), r.legal(s), True)
        assert a is not None, f"seat {s} returned nothing while pending"
        r.play(s, a)
        steps += 1
    return r, steps


def one_round(
    task: tuple[int, int, int, tuple[str, str], float | None, int],
) -> tuple[float, float, str, int, list[float], list[int]]:
    """One round with the hero at seat ``hero``: its points, a field seat's mean points,
    how it ended, the actions played, the strong bot's decision times and the samples
    it searched each decision."""
    players, seed, hero, levels, budget, samples = task
    searched: list[int] = []
    make, times = bot_maker(budget, samples, searched)
    r, steps = play_round(players, seed, hero, levels, make)
    out = r.outcome()
    assert out is not None
    field = sum(out.points[s] for s in range(players) if s != hero) / (players - 1)
    return float(out.points[hero]), field, f"{out.winner or 'none'}/{out.reason}", steps, times, searched


def _pool(jobs: int) -> multiprocessing.pool.Pool | None:
    return multiprocessing.get_context("spawn").Pool(jobs) if jobs > 1 else None


def parse_levels(text: str) -> tuple[str, str]:
    hero, _, field = text.partition(":")
    for kind in (hero, field):
        if kind not in KINDS:
            raise SystemExit(f"--levels: {kind!r} is not one of {', '.join(KINDS)} (HERO:FIELD, e.g. strong:normal)")
    return hero, field


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2200, help="rounds in total, spread over 5-15 players")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--levels", default="normal:random", help="HERO:FIELD bot kinds (easy, normal, strong, random)")
    ap.add_argument("--players", type=int, nargs="*", default=list(range(5, 16)), help="player counts (5-15)")
    ap.add_argument("--budget", type=float, default=None, help="the strong bot's thinking seconds per decision")
    ap.add_argument("--jobs", type=int, default=1, help="rounds played at once, each in its own process")
    ap.add_argument("--samples", type=int, default=0, help="search exactly this many samples a decision (not a time budget)")
    args = ap.parse_args()
    levels = parse_levels(args.levels)
    times: list[float] = []
    searched: list[int] = []
    counts = list(args.players)
    per = max(1, args.rounds // len(counts))
    print(f"Sultans of Karaya: one {levels[0]} seat among {levels[1]} seats, {per} rounds per player count")
    print(f"{'players':>7} {'hero pts':>9} {'field pts':>10} {'ratio':>6} {'95% CI':>13}  {'hero won':>8}  ends")
    t0 = time.perf_counter()
    all_hero: list[float] = []
    all_field: list[float] = []
    total_steps = 0
    tasks = [
        (players, args.seed * 100_000 + players * 1000 + i, i % players, levels, args.budget, args.samples)
        for players in counts for i in range(per)
    ]
    # each round on its own (a process per job): rounds are independent, results kept in order
    results = iter(pool.imap(one_round, tasks) if (pool := _pool(args.jobs)) else map(one_round, tasks))
    for players in counts:
        hero_pts: list[float] = []
        field_pts: list[float] = []
        ends: Counter[str] = Counter()
        for _ in range(per):
            hero_p, field_p, end, steps, took, deals = next(results)
            total_steps += steps
            times += took
            searched += deals
            hero_pts.append(hero_p)
            field_pts.append(field_p)
            ends[end] += 1
        all_hero += hero_pts
        all_field += field_pts
        ratio, lo, hi = ratio_ci(hero_pts, field_pts)
        won = sum(1 for p in hero_pts if p > 0) / per
        top = ", ".join(f"{k} {v}" for k, v in ends.most_common(3))
        print(f"{players:>7} {sum(hero_pts) / per:>9.3f} {sum(field_pts) / per:>10.3f} {ratio:>6.2f} "
              f"{f'{lo:.2f}-{hi:.2f}':>13}  {won:>8.0%}  {top}", flush=True)
    if pool:
        pool.close()
    dt = time.perf_counter() - t0
    n = len(all_hero)
    ratio, lo, hi = ratio_ci(all_hero, all_field)
    target = TARGETS.get(levels)
    if target is None:
        verdict = "control: about 1.0 expected" if levels[0] == levels[1] else "no target"
    else:
        verdict = f"{'meets' if ratio >= target else 'MISSES'} the {target}x target"
    print(
        f"\nall {n} rounds: {levels[0]} seat {sum(all_hero) / n:.3f} points/round, {levels[1]} seat "
        f"{sum(all_field) / n:.3f} points/round, ratio {ratio:.2f}x, 95% CI {lo:.2f}-{hi:.2f} "
        f"(delta method) ({verdict}); {total_steps} actions in {dt:.1f}s"
    )
    report_times(times, searched)


if __name__ == "__main__":
    main()
