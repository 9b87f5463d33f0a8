"""A hub for the server tests: fast room time, no bot delay, the counting game.

``new_hub()`` runs rooms of the counting game (tests/server/games.py) on an
in-memory database; keywords override any ``Hub`` option (``games=None``: the
real games of engine.registry). The ``hub`` fixture (tests/server/conftest.py)
is a started one, stopped after the test. ``settle`` lets an App on such a
hub (``run_test``) catch up.
"""

from __future__ import annotations

import asyncio
from typing import Any

from games import COUNT_SPEC
from textual.app import App
from textual.pilot import Pilot

from server.hub import Hub
from server.storage import Storage


def new_hub(storage: Storage | None = None, **kw: Any) -> Hub:
    opts: dict[str, Any] = {
        "host_fingerprint": "SHA256:test",
        "bot_delay": 0.0,
        "grace_period": 5.0,
        "intermission": 0.0,
        "games": {"count": COUNT_SPEC},
        "time_scale": 0.001,  # every second of room time is a millisecond
    }
    opts.update(kw)
    return Hub(storage or Storage(":memory:"), **opts)


async def settle(pilot: Pilot[None], n: int = 3) -> None:
    """``n`` pauses of the pilot: posted host changes flush and the screen repaints."""
    for _ in range(n):
        await pilot.pause()


async def close_results(app: App[Any], pilot: Pilot[None]) -> None:
    """Escape the round's and the match's results a table opens over itself (the
    match's may come a moment after the round's): until none has come for a while."""
    from tui.screens.round_results import RoundResults

    quiet = 0
    for _ in range(40):
        await settle(pilot)
        if isinstance(app.screen, RoundResults):
            await pilot.press("escape")
            quiet = 0
        else:
            quiet += 1
            if quiet >= 4:
                return
            await asyncio.sleep(0.02)
