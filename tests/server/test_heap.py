"""server.heap.HeapKeeper: routine ticks freeze what survived (so routine
collections never walk it again); a compaction frees cycles that died after
they were frozen, when nobody is connected or when it is due."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from server.heap import HeapKeeper


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> Node:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a


@pytest.fixture(autouse=True)
def restore_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_settle_freezes_survivors_and_compaction_frees_frozen_cycles() -> None:
    sessions = 3
    now = 0.0
    keeper = HeapKeeper(lambda: sessions, compact_every=100.0, clock=lambda: now)
    gc.unfreeze()
    held = cycle()
    keeper.tick()  # a routine tick: the cycle survives (it is held) and is frozen
    assert gc.get_freeze_count() > 0
    assert keeper.frozen_since_compaction
    del held  # now garbage, but frozen: routine collections do not see it
    gc.collect()
    assert any(isinstance(o, Node) for o in _frozen_objects())
    now = 50.0
    keeper.tick()  # players are connected and it is not due: no compaction
    assert any(isinstance(o, Node) for o in _frozen_objects())
    now = 100.0
    keeper.tick()  # due: unfreeze, collect, freeze
    assert not any(isinstance(o, Node) for o in _frozen_objects())
    assert keeper.compacted_at == 100.0


def test_compacts_when_the_last_session_left() -> None:
    sessions = 2
    keeper = HeapKeeper(lambda: sessions, compact_every=10_000.0, clock=lambda: 0.0)
    gc.unfreeze()
    held = cycle()
    keeper.tick()
    del held
    sessions = 0
    keeper.tick()  # nobody is waiting on the loop: compact now
    assert not any(isinstance(o, Node) for o in _frozen_objects())
    assert not keeper.frozen_since_compaction
    keeper.tick()  # still nobody: a routine tick, not another compaction
    assert keeper.frozen_since_compaction


def _frozen_objects() -> list[object]:
    """What is frozen now (unfreezes to look, freezes back)."""
    gc.unfreeze()
    found = [o for o in gc.get_objects() if isinstance(o, Node)]
    gc.freeze()
    return found
