"""Benchmark: one Sultans heuristic seat among random seats.

    .venv/bin/python bench/sultans_bots.py [--rounds N] [--seed S] [--kind heuristic|random]

Plays N rounds (default 2,200: 200 per player count 5-15). In each round one
seat (rotating) is played by the heuristic bot from its own view; every
other seat is a :class:`RandomBot`. Prints, per player count and overall, the
heuristic seat's mean points per round, a random seat's mean points per
round, and their ratio (target >= 1.5x), plus how the rounds ended.

``--kind random`` puts a random bot in the "hero" seat too (a control: the
ratio should then be about 1.0).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from engine.sultans import Round
from engine.sultans.bots import HeuristicBot, RandomBot, make_bot


def play_round(players: int, seed: int, hero: int, kind: str) -> tuple[Round, int]:
    """Play one round to the end; returns it and the number of actions played."""
    r = Round.random(players, seed=f"bench-bots:{seed}")
    bots: list[HeuristicBot | RandomBot] = [
        make_bot(s, kind if s == hero else "random", seed) for s in range(players)
    ]
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2200, help="rounds in total, spread over 5-15 players")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kind", default="heuristic", choices=["heuristic", "random"], help="bot in the hero seat")
    args = ap.parse_args()
    counts = list(range(5, 16))
    per = max(1, args.rounds // len(counts))
    print(f"Sultans of Karaya: one {args.kind} seat among random seats, {per} rounds per player count")
    print(f"{'players':>7} {'hero pts':>9} {'random pts':>10} {'ratio':>6}  {'hero won':>8}  ends")
    t0 = time.perf_counter()
    all_hero = 0.0
    all_rand = 0.0
    all_n = 0
    total_steps = 0
    for players in counts:
        hero_pts = 0
        rand_pts = 0.0
        hero_wins = 0
        ends: Counter[str] = Counter()
        for i in range(per):
            seed = args.seed * 100_000 + players * 1000 + i
            hero = i % players
            r, steps = play_round(players, seed, hero, args.kind)
            total_steps += steps
            out = r.outcome()
            assert out is not None
            hero_pts += out.points[hero]
            hero_wins += out.points[hero] > 0
            rand_pts += sum(out.points[s] for s in range(players) if s != hero) / (players - 1)
            ends[f"{out.winner or 'none'}/{out.reason}"] += 1
        h, rnd = hero_pts / per, rand_pts / per
        all_hero += hero_pts
        all_rand += rand_pts
        all_n += per
        ratio = h / rnd if rnd else float("inf")
        top = ", ".join(f"{k} {v}" for k, v in ends.most_common(4))
        print(f"{players:>7} {h:>9.3f} {rnd:>10.3f} {ratio:>6.2f}  {hero_wins / per:>8.0%}  {top}")
    dt = time.perf_counter() - t0
    h, rnd = all_hero / all_n, all_rand / all_n
    ratio = h / rnd if rnd else float("inf")
    if args.kind == "random":
        verdict = "control: about 1.0 expected"
    else:
        verdict = "meets the 1.5x target" if ratio >= 1.5 else "MISSES the 1.5x target"
    print(
        f"\nall {all_n} rounds: {args.kind} seat {h:.3f} points/round, random seat {rnd:.3f} "
        f"points/round, ratio {ratio:.2f}x ({verdict}); "
        f"{total_steps} actions in {dt:.1f}s"
    )


if __name__ == "__main__":
    main()
