"""The games this host offers. Each game package exports ``SPEC`` from ``spec.py``."""

from __future__ import annotations

from engine.api import GameSpec


def games() -> dict[str, GameSpec]:
    """All game specs by id, in lobby order."""
    from engine.overlord.spec import SPEC as overlord
    from engine.sultans.spec import SPEC as sultans

    specs = [sultans, overlord]
    return {s.id: s for s in specs}
