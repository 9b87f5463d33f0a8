"""Benchmark: how fast the strong Sultans bot searches (rollouts and sampled deals per second).

    ./manage bench sultans_search_speed [--decisions 40] [--samples 8] [--players 5 10 15] [--profile]

Collects ``--decisions`` of the strong bot's decisions per player count (its own
regular turns, from seeded rounds played by normal bots), then runs the search
on each for exactly ``--samples`` sampled deals, on one core. The work is the
same on any machine and for any version whose decisions are the same, so the
rates compare versions: it prints rollouts per second, sampled deals per
second and the time a decision's samples took, per second of this process's
CPU time (what a version costs, whatever else the machine runs; the wall-clock
rate is printed beside it), and a digest of every decision's answer and search
statistics (equal digests: the same play).
``--profile`` runs the searches under cProfile and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import time

from engine.sultans import Round
from engine.sultans.bots import HeuristicBot
from engine.sultans.search import Search, searchable
from engine.sultans.views import RoundView


def decisions(players: int, count: int) -> list[tuple[str, list[str], str]]:
    """``count`` decisions of a strong seat at ``players`` seats: (view JSON, legal, seed)."""
    out: list[tuple[str, list[str], str]] = []
    game = 0
    while len(out) < count:
        r = Round.random(players, seed=f"search-speed:{players}:{game}")
        bots = [HeuristicBot(s, game) for s in range(players)]
        order = random.Random(f"search-speed-order:{players}:{game}")
        turn = 0
        while r.outcome() is None and len(out) < count:
            s = order.choice(sorted(r.pending()))
            v = r.view(s)
            legal = r.legal(s)
            if searchable(v, True) and turn % 3 == 0:
                out.append((v.model_dump_json(), legal, f"{players}:{game}:{turn}"))
            turn += 1
            a = bots[s].act(v, legal, True)
            r.play(s, a if a is not None else legal[0])
        game += 1
    return out


def search_all(work: list[tuple[str, list[str], str]], samples: int) -> tuple[int, int, float, float, str]:
    """Search each decision for ``samples`` samples: (rollouts, samples, CPU seconds,
    wall seconds, digest)."""
    digest = hashlib.sha256()
    rollouts = done = 0
    cpu = wall = 0.0
    for view_json, legal, seed in work:
        view = RoundView.model_validate_json(view_json)
        c0, t0 = time.process_time(), time.perf_counter()
        search = Search(view, legal, seed)
        while search.samples < samples:
            search.step()
            rollouts += 1
        best = search.best()
        cpu += time.process_time() - c0
        wall += time.perf_counter() - t0
        done += search.samples
        digest.update(repr((best, sorted(search.total.items()), sorted(search.sq.items()))).encode())
    return rollouts, done, cpu, wall, digest.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=int, default=40, help="decisions per player count")
    ap.add_argument("--samples", type=int, default=8, help="sampled deals searched a decision")
    ap.add_argument("--players", type=int, nargs="*", default=[5, 10, 15])
    ap.add_argument("--profile", action="store_true", help="profile the searches with cProfile")
    args = ap.parse_args()
    work = {p: decisions(p, args.decisions) for p in args.players}
    prof = cProfile.Profile() if args.profile else None
    print(f"Sultans strong bot search, {args.decisions} decisions per player count, {args.samples} samples each, one core")
    print("(per CPU second of this process; wall clock in brackets)")
    print(f"{'players':>7} {'rollouts/s':>11} {'samples/s':>10} {'ms/decision':>12} {'[samples/s]':>12}  digest")
    total_r = total_s = 0
    total_c = total_w = 0.0
    for players, w in work.items():
        if prof is not None:
            prof.enable()
        rollouts, samples, cpu, wall, digest = search_all(w, args.samples)
        if prof is not None:
            prof.disable()
        total_r += rollouts
        total_s += samples
        total_c += cpu
        total_w += wall
        print(f"{players:>7} {rollouts / cpu:>11,.0f} {samples / cpu:>10,.1f} {cpu / len(w) * 1000:>12.0f} "
              f"{f'[{samples / wall:,.1f}]':>12}  {digest}", flush=True)
    decided = sum(map(len, work.values()))
    print(f"{'all':>7} {total_r / total_c:>11,.0f} {total_s / total_c:>10,.1f} {total_c / decided * 1000:>12.0f} "
          f"{f'[{total_s / total_w:,.1f}]':>12}")
    if prof is not None:
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
