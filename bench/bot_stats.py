"""Confidence intervals for the bot benchmarks (``sultans_bots``, ``overlord_bots``).

Not a benchmark itself: ``./manage bench bot_stats`` only prints this note.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964  # two-sided 95 % normal quantile


def ratio_ci(hero: Sequence[float], field: Sequence[float]) -> tuple[float, float, float]:
    """Ratio of means mean(hero)/mean(field) of paired samples (one pair per round),
    with a 95 % interval by the delta method (normal approximation)."""
    n = len(hero)
    mh = sum(hero) / n
    mf = sum(field) / n
    if n < 2 or mf <= 0:
        return (math.inf, math.inf, math.inf) if mf <= 0 else (mh / mf, 0.0, math.inf)
    r = mh / mf
    vh = sum((h - mh) ** 2 for h in hero) / (n - 1)
    vf = sum((f - mf) ** 2 for f in field) / (n - 1)
    cov = sum((h - mh) * (f - mf) for h, f in zip(hero, field, strict=True)) / (n - 1)
    se = math.sqrt(max(vh - 2 * r * cov + r * r * vf, 0.0) / n) / mf
    return r, r - Z95 * se, r + Z95 * se


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + Z95 * Z95 / n
    c = (p + Z95 * Z95 / (2 * n)) / d
    h = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / d
    return max(c - h, 0.0), min(c + h, 1.0)


if __name__ == "__main__":
    print(__doc__)
