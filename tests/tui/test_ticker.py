"""The process-wide clock (tui/ticker.py): every registered tick once per
interval, in the context it was registered from, until stopped or its object
is gone; what a tick raises goes to its own handler and the others go on; a
table screen's tick stops when the screen is unmounted."""

from __future__ import annotations

import asyncio
import contextvars
import gc

from tui.ticker import Ticker

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("WHO", default="nobody")


class Clocked:
    def __init__(self, fail: bool = False) -> None:
        self.seen: list[str] = []
        self.fail = fail

    def tick(self) -> None:
        self.seen.append(WHO.get())
        if self.fail:
            raise ValueError("boom")


async def test_ticks_in_their_own_context_until_stopped() -> None:
    ticker = Ticker(0.02)
    a, b, broken = Clocked(), Clocked(), Clocked(fail=True)
    errors: list[tuple[str, Exception]] = []
    WHO.set("a")
    stop_a = ticker.add(a.tick, lambda e: errors.append((WHO.get(), e)))
    WHO.set("b")
    ticker.add(b.tick, lambda e: errors.append((WHO.get(), e)))
    WHO.set("broken")
    ticker.add(broken.tick, lambda e: errors.append((WHO.get(), e)))
    WHO.set("main")
    await asyncio.sleep(0.07)
    assert len(a.seen) >= 2 and set(a.seen) == {"a"}
    assert set(b.seen) == {"b"} and len(broken.seen) == len(a.seen)
    assert errors and all(who == "broken" and isinstance(e, ValueError) for who, e in errors)
    stop_a()
    ticks = len(a.seen)
    await asyncio.sleep(0.05)
    assert len(a.seen) == ticks  # stopped
    assert len(b.seen) > ticks  # the others go on
    del b, broken
    errors.clear()  # their tracebacks hold the last tick's frame
    gc.collect()
    await asyncio.sleep(0.05)
    assert ticker.count == 0 and not ticker._subs  # held weakly: dropped when gone
    assert ticker._handle is None  # nothing left: the clock stops too


async def test_a_table_screen_stops_ticking_when_unmounted() -> None:
    from sultans_fakes import SultansClient, SultansLobby, SultansRoom
    from table_fakes import open_table
    from test_sultans_table import DEAL_A

    from tui.sultans.table import Table
    from tui.ticker import TICKER

    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with open_table(room, 0, SultansClient, SultansLobby, Table) as (app, _pilot, _client):
        screen = app.screen
        assert TICKER.count >= 1
        mine = [ref() for ref, _, _ in TICKER._subs.values()]
        assert any(m is not None and m.__self__ is screen for m in mine)  # type: ignore[attr-defined]
    mine = [ref() for ref, _, _ in TICKER._subs.values()]
    assert not any(m is not None and m.__self__ is screen for m in mine)  # type: ignore[attr-defined]


async def test_a_tick_while_the_table_is_taken_down_is_harmless() -> None:
    """When a session ends (or the table is popped) Textual marks the screen as
    pruning and removes its widgets before the screen's Unmount stops its
    clock; a tick in between found no countdown and ended the session as a
    crash (``./manage bench load``: 8 "session crashed" tracebacks when 150
    players left at once). Such a tick now does nothing."""
    from sultans_fakes import SultansClient, SultansLobby, SultansRoom
    from table_fakes import open_table
    from test_sultans_table import DEAL_A

    from tui.sultans.table import Table

    room = SultansRoom(5, deal=DEAL_A, first=0, humans=(0,))
    async with open_table(room, 0, SultansClient, SultansLobby, Table) as (app, _pilot, _client):
        screen = app.screen
        assert isinstance(screen, Table)
        await screen.query_one(f"#{screen.COUNTDOWN_ID}").remove()  # as when the screen's widgets are pruned
        screen._countdown_shown = None  # type: ignore[attr-defined]  # the text to show changed meanwhile
        screen._pruning = True  # what App._prune sets on the screen first
        screen._tick()
        screen._pruning = False
        try:
            screen._tick()  # the guard is what spared it: a live table without its countdown still fails
        except Exception as error:
            assert type(error).__name__ == "NoMatches"
        else:
            raise AssertionError("a tick without the countdown should fail on a live screen")
