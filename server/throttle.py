"""How often a player may do a thing others pay for: chat lines, private-room
codes tried. A leaky bucket per player: ``burst`` at once, then one more every
``every`` seconds."""

from __future__ import annotations

from collections.abc import Callable

from protocol.names import name_key


class Throttle:
    """At most ``burst`` hits per key at once, refilled one per ``every`` seconds."""

    PRUNE_AT = 1024  # keys kept before the drained ones are dropped

    def __init__(self, burst: int, every: float, clock: Callable[[], float]) -> None:
        self.burst = burst
        self.every = every
        self._clock = clock
        self._used: dict[str, tuple[float, float]] = {}  # key -> (hits not yet drained, when counted)

    def _level(self, key: str, now: float) -> float:
        used, at = self._used.get(key, (0.0, now))
        return max(0.0, used - (now - at) / self.every)

    def full(self, who: str) -> bool:
        """Whether one more hit by ``who`` (a player's name) is over the limit."""
        return self._level(name_key(who), self._clock()) + 1 > self.burst

    def hit(self, who: str) -> None:
        now = self._clock()
        key = name_key(who)
        self._used[key] = (self._level(key, now) + 1, now)
        if len(self._used) > self.PRUNE_AT:
            self._used = {k: v for k, v in self._used.items() if self._level(k, now) > 0}

    def take(self, who: str) -> bool:
        """Count a hit if there is room for it; whether there was."""
        if self.full(who):
            return False
        self.hit(who)
        return True
