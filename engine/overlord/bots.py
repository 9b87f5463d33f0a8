"""Kill the Overlord bots: random (uniform over legal) and heuristic (own view only)."""

from __future__ import annotations

import random

from pydantic import BaseModel

from engine.api import Bot


class RandomBot:
    """Uniform over the legal actions."""

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"overlord-random-{seat}-{seed}")

    def act(self, view: BaseModel, legal: list[str], pending: bool) -> str | None:
        if not pending or not legal:
            return None
        return self.rng.choice(legal)


def make_bot(seat: int, kind: str, seed: int) -> Bot:
    if kind == "random":
        return RandomBot(seat, seed)
    raise ValueError(f"unknown bot kind {kind!r}")
