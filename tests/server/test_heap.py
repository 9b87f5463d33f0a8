"""server.heap.HeapKeeper: what lives is frozen every epoch; everything is
collected only when memory grew or the server is idle."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator
from typing import Any, cast

import pytest

from server import heap
from server.heap import HeapKeeper


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[weakref.ref[Node], Node]:
    """A two-object reference cycle, its first node's weak reference, and a
    strong reference the caller drops to make it garbage."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a), a


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.enable()
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.collect()


def test_an_epoch_freezes_what_lives_out_of_the_collector_s_reach() -> None:
    keeper = HeapKeeper()
    keeper.base, keeper.base_rss = gc.get_freeze_count(), heap.resident_bytes()
    alive = [Node() for _ in range(1000)]
    frozen = gc.get_freeze_count()
    assert keeper.epoch(idle=False) is None
    assert gc.get_freeze_count() >= frozen + 1000
    assert not any(node is alive[0] for node in gc.get_objects())  # no collection walks them now
    assert alive


def test_a_cycle_frozen_alive_is_freed_by_the_next_full_collection_when_memory_grew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keeper = HeapKeeper()
    keeper.base, keeper.base_rss = gc.get_freeze_count(), 100 << 20
    ref, strong = cycle()
    monkeypatch.setattr(heap, "resident_bytes", lambda: 120 << 20)
    assert keeper.epoch(idle=False) is None  # grown by less than GROW_MIN
    del strong
    gc.collect()
    assert ref() is not None  # frozen: a plain collection does not see it
    monkeypatch.setattr(heap, "resident_bytes", lambda: (100 << 20) + heap.GROW_MIN + 1)
    assert keeper.epoch(idle=False) == "memory grew"
    assert ref() is None
    assert keeper.full_collections == 1
    assert keeper.base_rss == (100 << 20) + heap.GROW_MIN + 1


def test_memory_the_open_sessions_hold_is_not_growth_nor_what_those_who_left_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened, retired = [10], [0]
    keeper = HeapKeeper(opened=lambda: opened[0], retired=lambda: retired[0])
    monkeypatch.setattr(heap, "resident_bytes", lambda: 100 << 20)
    keeper._full("test")  # 100 MiB, 10 sessions open
    assert keeper.epoch(idle=False) is None
    grown = (100 << 20) + heap.GROW_MIN + 50 * heap.PER_SESSION
    monkeypatch.setattr(heap, "resident_bytes", lambda: grown)
    opened[0] = 60  # 50 players logged in since: their screens are alive
    assert keeper.epoch(idle=False) is None
    assert keeper.epoch(idle=False) is None  # however long they stay
    retired[0] = 10  # 10 left, 5 others came: 55 open, the memory of the 10 reused
    opened[0] = 65
    assert keeper.epoch(idle=False) is None
    assert keeper._new_sessions() == 50  # the most open at once since
    monkeypatch.setattr(heap, "resident_bytes", lambda: grown + 1)  # grown beyond that
    assert keeper.epoch(idle=False) == "memory grew"
    assert keeper.full_collections == 2
    assert keeper._new_sessions() == 0  # counted from this collection on
    opened[0] = 70
    assert keeper._new_sessions() == 5


def test_players_leaving_at_once_wait_for_their_apps_taken_apart_and_an_idle_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """150 players leaving at once (``./manage bench load``): counting only the
    sessions still open, their memory was growth at once and a full collection
    walked their whole apps (880,000 objects, 1.7 s). Until their apps are
    taken apart (server.ssh) they count as open; then the idle rule collects
    what is left of them."""
    opened, retired = [0], [0]
    keeper = HeapKeeper(opened=lambda: opened[0], retired=lambda: retired[0])
    monkeypatch.setattr(heap, "resident_bytes", lambda: 75 << 20)
    keeper._full("test")  # start-up: nobody
    opened[0] = 150
    monkeypatch.setattr(heap, "resident_bytes", lambda: 291 << 20)  # all at their tables
    assert keeper.epoch(idle=False) is None
    monkeypatch.setattr(heap, "resident_bytes", lambda: 324 << 20)  # they played, and left
    assert keeper.epoch(idle=False) is None
    assert keeper.epoch(idle=True) is None  # ended, not taken apart yet
    keeper.last_full -= heap.IDLE_GAP
    assert keeper.epoch(idle=True) is None
    retired[0] = 150  # taken apart: their memory is free for the next players
    assert keeper.epoch(idle=False) is None
    assert keeper.epoch(idle=True) == "idle"
    assert keeper.full_collections == 2


def test_an_idle_server_collects_everything_once_the_heap_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    keeper = HeapKeeper()
    monkeypatch.setattr(heap, "resident_bytes", lambda: 100 << 20)
    keeper.base_rss = 100 << 20
    keeper.epoch(idle=False)
    keeper.base = gc.get_freeze_count()
    ref, strong = cycle()
    keeper.epoch(idle=False)
    del strong
    # unchanged heap: nothing to do even when idle
    assert keeper.epoch(idle=True) is None
    # a changed heap, but busy, or idle too soon after the last full collection
    ballast = [Node() for _ in range(int(keeper.base * heap.IDLE_CHANGE) + 100)]
    assert keeper.epoch(idle=False) is None
    keeper.last_full = time.monotonic()
    assert keeper.epoch(idle=True) is None
    keeper.last_full -= heap.IDLE_GAP
    assert ref() is not None
    assert keeper.epoch(idle=True) is None  # counted a moment ago: not again yet (it walks them all)
    keeper._counted_at -= heap.COUNT_EVERY
    assert keeper.epoch(idle=True) == "idle"
    assert ref() is None
    assert ballast


async def test_the_task_freezes_every_epoch_and_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "EPOCH", 0.01)
    keeper = HeapKeeper()
    keeper.start()
    try:
        assert keeper.full_collections == 1  # what start-up made
        assert gc.get_threshold() == heap.THRESHOLDS
        frozen = gc.get_freeze_count()
        alive = [Node() for _ in range(500)]
        await asyncio.sleep(0.1)
        assert gc.get_freeze_count() >= frozen + 500
        assert alive
    finally:
        await keeper.stop()
    assert keeper._task is None


def test_logins_hold_the_automatic_collections_until_the_last_one_drew() -> None:
    """The server holds when its first session starts drawing and releases when
    none is left drawing (two sessions here: ThroneServer.drawing_starts/ends)."""
    import asyncssh

    from server.cli import app_host
    from server.config import Config
    from server.ssh import ThroneServer

    keeper = HeapKeeper()
    key = asyncssh.generate_private_key("ssh-ed25519")
    server = ThroneServer(Config(), hub=cast(Any, None), storage=cast(Any, None), host_key=key, apps=app_host(), heap=keeper)
    assert gc.isenabled()
    server.drawing_starts()
    server.drawing_starts()  # two sessions drawing their first screen
    assert not gc.isenabled() and keeper.held
    built = [Node() for _ in range(1000)]  # what a login builds: lives on
    server.drawing_ends()
    assert not gc.isenabled()  # one still drawing
    frozen = gc.get_freeze_count()
    server.drawing_ends()
    assert gc.isenabled() and not keeper.held
    assert gc.get_freeze_count() >= frozen + 1000  # frozen: the young collections do not walk it
    keeper.release()  # one too many (a hold let go by the epoch) changes nothing
    assert gc.isenabled() and not keeper.held
    keeper.hold()
    keeper.hold()  # holding again changes nothing
    keeper.release()
    assert gc.isenabled() and not keeper.held
    assert built


def test_a_login_stuck_before_its_first_frame_does_not_hold_collections_for_ever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keeper = HeapKeeper()
    keeper.base, keeper.base_rss = gc.get_freeze_count(), heap.resident_bytes()
    clock = [1000.0]
    monkeypatch.setattr(heap.time, "monotonic", lambda: clock[0])
    keeper.hold()
    clock[0] += heap.HOLD_MAX / 2
    keeper.epoch(idle=False)
    assert not gc.isenabled()
    clock[0] += heap.HOLD_MAX
    keeper.epoch(idle=False)
    assert gc.isenabled() and not keeper.held
    keeper.release()  # the stuck session ends at last: nothing to undo
    assert gc.isenabled()
    keeper.hold()  # the next login holds again
    assert not gc.isenabled()
    keeper.release()
    assert gc.isenabled()


async def test_stopping_the_keeper_lets_go_of_a_hold() -> None:
    keeper = HeapKeeper()
    keeper.hold()
    await keeper.stop()
    assert gc.isenabled() and not keeper.held


def test_resident_bytes_reads_this_process() -> None:
    assert 1 << 20 < heap.resident_bytes() < 1 << 40


def test_an_idle_server_collects_once_sessions_were_retired_even_if_the_heap_did_not_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is left of a closed session is garbage in reference cycles: the
    frozen count hardly moves, so sessions retired (ended, their app taken
    apart) are the idle rule's other cue."""
    retired = [0]
    keeper = HeapKeeper(retired=lambda: retired[0])
    monkeypatch.setattr(heap, "resident_bytes", lambda: 100 << 20)
    keeper.base_rss = 100 << 20
    keeper.epoch(idle=False)
    keeper.base = gc.get_freeze_count()
    keeper.last_full = time.monotonic() - heap.IDLE_GAP
    assert keeper.epoch(idle=True) is None  # nothing changed, nobody left
    ref, strong = cycle()
    keeper.epoch(idle=False)
    del strong
    retired[0] = 1
    assert keeper.epoch(idle=False) is None  # busy: later
    assert keeper.epoch(idle=True) == "idle"
    assert ref() is None
    keeper.last_full -= heap.IDLE_GAP
    assert keeper.epoch(idle=True) is None  # counted at that collection: nothing new


def test_an_idle_moment_at_busy_tables_is_no_time_for_a_full_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 45, full collections under load: a full collection walks every open
    session's screens (seconds at 150 sessions, 1.6-4 s for 12 on a loaded
    machine), and sessions leave next to no cyclic garbage (``tui.retire``):
    a quiet half second while players are on is no time for one, however many
    left; once the last player has left, it is."""
    opened, retired = [150], [0]
    keeper = HeapKeeper(opened=lambda: opened[0], retired=lambda: retired[0])
    monkeypatch.setattr(heap, "resident_bytes", lambda: 300 << 20)
    keeper._full("test")  # 150 open
    keeper.last_full -= heap.IDLE_GAP
    retired[0] = 5  # 5 left, 145 still there
    assert keeper.epoch(idle=True) is None
    retired[0] = 149  # one still there
    assert keeper.epoch(idle=True) is None
    retired[0] = 150  # everybody left: collected once idle
    assert keeper.epoch(idle=False) is None
    assert keeper.epoch(idle=True) == "idle"
    keeper.last_full -= heap.IDLE_GAP
    assert keeper.epoch(idle=True) is None  # counted at that collection


def test_the_live_memory_of_an_evening_s_sessions_is_no_growth(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 45, full collections under load: 12 sessions at tables whose logs
    filled (``./manage bench soak``) took the process from 84 to ~240 MiB of
    live memory, past a doubling of the start-up's; a full collection then
    stopped every screen for 1.6 s and freed nothing."""
    opened = [0]
    keeper = HeapKeeper(opened=lambda: opened[0])
    monkeypatch.setattr(heap, "resident_bytes", lambda: 84 << 20)
    keeper._full("start-up")
    opened[0] = 13
    monkeypatch.setattr(heap, "resident_bytes", lambda: 240 << 20)
    assert keeper.epoch(idle=False) is None
    assert keeper.full_collections == 1
