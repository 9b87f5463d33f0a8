"""Benchmark: the Overlord heuristic bot (one seat) against random bots.

    .venv/bin/python bench/overlord_bots.py [--games N] [--expansion] [--seed S]

For each player count 4-8, plays N games (the heuristic seat rotates), prints
its win rate against the base rate 1/players, the ratio (target >= 2x), how
games ended, and the throughput.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from engine.api import Bot
from engine.overlord import Game
from engine.overlord.bots import make_bot


def play_one(players: int, seed: int, hero: int, expansion: bool) -> tuple[Game, int]:
    ranks = list(range(1, 9)) if expansion else []
    g = Game.random(players, seed, expansion_ranks=ranks)
    bots: list[Bot] = [make_bot(s, "heuristic" if s == hero else "random", seed) for s in range(players)]
    steps = 0
    while not g.is_over():
        for s in sorted(g.pending()):
            if s not in g.pending():
                continue
            a = bots[s].act(g.view(s) if s == hero else g.view(None), g.legal(s), True)
            assert a is not None
            g.play(s, a)
            steps += 1
    return g, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400, help="games per player count")
    ap.add_argument("--expansion", action="store_true", help="all expansion roles in play")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, nargs="*", default=[4, 5, 6, 7, 8], help="player counts (4-8)")
    args = ap.parse_args()
    print(f"Kill the Overlord: heuristic bot vs random bots, {args.games} games per count, "
          f"expansion={'all' if args.expansion else 'none'}")
    print(f"{'players':>7} {'wins':>6} {'rate':>7} {'base':>6} {'ratio':>6}  {'rounds':>6}  ends")
    t0 = time.perf_counter()
    total_steps = 0
    total_games = 0
    for players in args.players:
        wins = 0
        rounds = 0
        reasons: Counter[str] = Counter()
        for i in range(args.games):
            hero = i % players
            g, steps = play_one(players, args.seed * 100_000 + players * 10_000 + i, hero, args.expansion)
            total_steps += steps
            total_games += 1
            out = g.outcome()
            assert out is not None
            wins += out.winner == hero
            rounds += g.round
            reasons[out.reason] += 1
        rate = wins / args.games
        base = 1 / players
        ends = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        print(f"{players:>7} {wins:>6} {rate:>7.3f} {base:>6.3f} {rate / base:>5.2f}x  {rounds / args.games:>6.1f}  {ends}")
    dt = time.perf_counter() - t0
    print(f"{total_games} games, {total_steps} actions in {dt:.1f} s "
          f"({total_steps / dt:.0f} actions/s, {total_games / dt:.1f} games/s)")


if __name__ == "__main__":
    main()
