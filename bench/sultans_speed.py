"""Benchmark: Sultans engine speed, random playouts on one core.

    .venv/bin/python bench/sultans_speed.py [--players 15] [--seconds 5] [--profile]

Plays random rounds (uniform over the legal actions of a random pending
seat) for about ``--seconds`` and counts *actions*: one action = one
``pending()`` + ``legal(seat)`` + ``play(seat, text)``. Prints actions per
second (target >= 20,000/s for 15 players), rounds per second, and how many
legal actions a step offered on average. ``--views`` also builds the acting
seat's view at every step (what a room does), reported separately.
``--profile`` runs the playouts under cProfile and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from engine.sultans import Round


def playouts(players: int, seconds: float, views: bool, seed: int = 0) -> tuple[int, int, int, float]:
    """Random rounds for about ``seconds``; returns (actions, rounds, legal options seen, elapsed)."""
    rng = random.Random(seed)
    actions = rounds = options = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    i = 0
    while time.perf_counter() < deadline:
        r = Round.random(players, seed=f"speed:{seed}:{i}")
        i += 1
        while r.outcome() is None:
            pend = sorted(r.pending())
            s = pend[0] if len(pend) == 1 else rng.choice(pend)
            legal = r.legal(s)
            options += len(legal)
            if views:
                r.view(s)
            r.play(s, rng.choice(legal))
            actions += 1
        rounds += 1
    return actions, rounds, options, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--views", action="store_true", help="also build the acting seat's view every step")
    ap.add_argument("--profile", action="store_true", help="profile the playouts with cProfile")
    args = ap.parse_args()
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        a, n, o, dt = playouts(args.players, args.seconds, args.views)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    else:
        a, n, o, dt = playouts(args.players, args.seconds, args.views)
    rate = a / dt
    what = "legal+apply+view" if args.views else "legal+apply"
    verdict = "" if args.views else (" (meets the 20,000/s target)" if rate >= 20_000 else " (MISSES the 20,000/s target)")
    print(
        f"Sultans of Karaya, {args.players} players, random playouts on one core: "
        f"{a} actions in {n} rounds in {dt:.2f}s"
    )
    print(f"  {rate:,.0f} {what} actions/s{verdict}")
    print(f"  {n / dt:,.1f} rounds/s, {a / max(n, 1):.1f} actions/round, {o / max(a, 1):.1f} legal options/step")


if __name__ == "__main__":
    main()
