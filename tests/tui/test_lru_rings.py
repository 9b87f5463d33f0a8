"""tui.runtime.retire: Textual's LRUCache keeps its entries in a ring of lists; a
cache emptied or dropped with entries left the ring, and all its entries held,
for the cyclic collector. Patched, reference counting frees them."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from textual.cache import LRUCache

from tui.runtime import retire


class Value:
    pass


@pytest.fixture(autouse=True)
def collector_off() -> Iterator[None]:
    retire.install()
    gc.collect()
    gc.disable()
    yield
    gc.enable()
    gc.collect()


def filled(n: int) -> tuple[LRUCache[int, Value], list[weakref.ref[Value]]]:
    cache: LRUCache[int, Value] = LRUCache(4)
    values = [Value() for _ in range(n)]
    for i, value in enumerate(values):
        cache[i] = value
    return cache, [weakref.ref(v) for v in values]


@pytest.mark.parametrize("n", [1, 3, 6])  # one link (its own ring), some, more than it keeps
def test_a_cleared_cache_frees_its_entries_without_the_collector(n: int) -> None:
    cache, refs = filled(n)
    cache.clear()
    assert all(ref() is None for ref in refs)
    cache[7] = Value()  # and it works as before
    assert cache.get(7) is not None and len(cache) == 1


def test_a_dropped_cache_frees_its_entries_without_the_collector() -> None:
    cache, refs = filled(3)
    del cache
    assert all(ref() is None for ref in refs)


def test_the_cache_still_evicts_the_least_recently_used() -> None:
    cache, refs = filled(4)
    assert cache.get(0) is not None  # 0 used: 1 is the oldest now
    cache[9] = Value()
    assert cache.get(1) is None and cache.get(0) is not None
    assert refs[1]() is None  # the evicted entry went at once
