"""server/health.py: the server logs its own pauses (slow collections, a late loop), throttled."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from server import health


async def test_a_slow_collection_is_logged(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(health, "GC_WARN", 0.0)  # every collection counts as slow
    monitor = health.HealthMonitor()
    monitor.start()
    try:
        with caplog.at_level(logging.WARNING, logger="throneroom.health"):
            gc.collect()
            gc.collect()  # within QUIET of the first: not logged again
    finally:
        await monitor.stop()
    lines = [r.getMessage() for r in caplog.records if "garbage collection" in r.getMessage()]
    assert len(lines) == 1 and "generation 2 took" in lines[0]
    assert monitor._on_gc not in gc.callbacks  # stop() unhooks it


async def test_fast_collections_are_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    monitor = health.HealthMonitor()
    monitor.start()
    try:
        with caplog.at_level(logging.WARNING, logger="throneroom.health"):
            gc.collect(0)
            await asyncio.sleep(0.3)
    finally:
        await monitor.stop()
    assert not [r for r in caplog.records if r.name == "throneroom.health"]


async def test_a_blocked_loop_is_logged_once_per_quiet_period(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(health, "TICK", 0.02)
    monkeypatch.setattr(health, "LAG_WARN", 0.1)
    monitor = health.HealthMonitor()
    monitor.start()
    try:
        with caplog.at_level(logging.WARNING, logger="throneroom.health"):
            await asyncio.sleep(0.05)
            for _ in range(2):
                time.sleep(0.3)  # one long step of the loop
                await asyncio.sleep(0.1)
    finally:
        await monitor.stop()
    lines = [r.getMessage() for r in caplog.records if "event loop late" in r.getMessage()]
    assert len(lines) == 1, lines  # the second stall is within QUIET: counted, not logged
    late = float(lines[0].split("late by ")[1].split(" s")[0])
    assert late >= 0.2
    assert monitor._lag_throttle.skipped == 1
