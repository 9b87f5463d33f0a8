"""Figures for operators: refusals by cause, and an optional Prometheus endpoint.

``throneroom status`` and the endpoint show the same figures: the hub computes them
every :data:`server.club.COMMAND_POLL` seconds on the event loop
(:meth:`server.hub.Hub.status`); the endpoint's thread (prometheus-client's HTTP
server) only reads the last snapshot, so it never touches live state.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger("throneroom.metrics")

REFUSALS: Counter[str] = Counter()
"""Connections and sessions refused since start, by cause (this process's)."""


def refused(cause: str) -> None:
    REFUSALS[cause] += 1


class _Collector:
    """Turns the hub's last status snapshot into Prometheus metrics."""

    def __init__(self, snapshot: Callable[[], dict[str, Any] | None]) -> None:
        self._snapshot = snapshot

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        status = self._snapshot()
        if status is None:
            return
        yield GaugeMetricFamily("throneroom_players_online", "Players online (names)", value=status["players"])
        yield GaugeMetricFamily("throneroom_sessions", "Open SSH sessions with the app", value=status["sessions"])
        rooms = GaugeMetricFamily("throneroom_rooms", "Open rooms by state", labels=["state"])
        for state in ("waiting", "playing", "finished"):
            rooms.add_metric([state], status["rooms"].get(state, 0))
        yield rooms
        yield CounterMetricFamily("throneroom_actions", "Game actions logged since start", value=status["actions_total"])
        yield GaugeMetricFamily("throneroom_actions_per_second", "Actions per second (last interval)", value=status["actions_per_s"])
        yield GaugeMetricFamily("throneroom_loop_lag_seconds", "Event loop lag (last interval)", value=status["loop_lag_ms"] / 1000)
        yield GaugeMetricFamily("throneroom_resident_memory_bytes", "Resident memory", value=status["rss_mib"] * 2**20)
        refusals = CounterMetricFamily("throneroom_refusals", "Refused connections and sessions by cause", labels=["cause"])
        for cause, count in sorted(status["refusals"].items()):
            refusals.add_metric([cause], count)
        yield refusals


def start_endpoint(
    host: str, port: int, snapshot: Callable[[], dict[str, Any] | None]
) -> tuple[Callable[[], None], int]:
    """Serve ``/metrics`` on ``host:port`` in a thread; what stops it, and the port."""
    from prometheus_client import CollectorRegistry, start_http_server

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Collector(snapshot))
    server, thread = start_http_server(port, addr=host, registry=registry)
    log.info("metrics on http://%s:%s/metrics", host, server.server_port)

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return stop, int(server.server_port)
