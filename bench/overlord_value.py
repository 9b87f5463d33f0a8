"""Fit the strong Overlord bot's value of a round's start (engine/overlord/search.py).

    ./manage bench overlord_value [--games N] [--seed S]

Plays N games of normal bots at each table size 4-8 (half with every expansion
role), records every seat at the first decision of each round (from round 2),
and fits a conditional logit: the chance that seat s wins is
exp(w . x_s) / sum_t exp(w . x_t), x being :func:`engine.overlord.search.features`.
Prints the weights (to paste into ``WEIGHTS``) and the fit's log-likelihood per
state against the uniform guess, on the games and on as many held-out games.
"""

from __future__ import annotations

import argparse
import math

from engine.overlord import Game
from engine.overlord.bots import HeuristicBot
from engine.overlord.search import FEATURES, features

State = tuple[list[list[float]], int]


def play(players: int, seed: int, expansion: bool) -> list[State]:
    g = Game.random(players, seed, expansion_ranks=list(range(1, 9)) if expansion else [])
    bots = [HeuristicBot(s, seed) for s in range(players)]
    seen: list[list[list[float]]] = []
    last = 1
    while not g.is_over():
        if g.round > last:
            last = g.round
            seen.append([features(g.view(s, log_rounds=0), s) for s in range(players)])
        s = min(g.pending())
        a = bots[s].act(g.view(s, log_rounds=0), g.legal(s), True)
        assert a is not None
        g.play(s, a)
    out = g.outcome()
    assert out is not None
    return [(x, out.winner) for x in seen]


def loglik(w: list[float], data: list[State]) -> tuple[float, list[float]]:
    total, grad = 0.0, [0.0] * len(w)
    for xs, win in data:
        f = [sum(wi * xi for wi, xi in zip(w, x, strict=True)) for x in xs]
        top = max(f)
        e = [math.exp(v - top) for v in f]
        z = sum(e)
        total += f[win] - top - math.log(z)
        for k in range(len(w)):
            grad[k] += xs[win][k] - sum(ei * x[k] for ei, x in zip(e, xs, strict=True)) / z
    return total, grad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per table size (and as many held out)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    fit: list[State] = []
    held: list[State] = []
    for players in range(4, 9):
        for i in range(2 * args.games):
            states = play(players, args.seed * 1_000_000 + players * 10_000 + i, i % 4 >= 2)
            (fit if i % 2 == 0 else held).extend(states)
    w = [0.0] * len(FEATURES)
    step = 1.0 / len(fit)
    for _ in range(400):
        _, grad = loglik(w, fit)
        w = [wi + 2.0 * step * gi for wi, gi in zip(w, grad, strict=True)]
    for name, data in (("fit", fit), ("held out", held)):
        ll, _ = loglik(w, data)
        base = -sum(math.log(len(xs)) for xs, _ in data)
        print(f"{name}: {len(data)} states, log-likelihood per state {ll / len(data):.3f} (uniform {base / len(data):.3f})")
    print("WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")  # " + ", ".join(FEATURES))


if __name__ == "__main__":
    main()
