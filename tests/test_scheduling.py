"""``./manage test`` shares the tests out over two workers with every end-to-end
test on one of them (tests/sharing.py): two at once missed their waits."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from sharing import make_scheduler, scope_of, yield_to_end_to_end

COLLECTION = [
    "tests/e2e/test_login.py::test_a",
    "tests/e2e/test_rooms.py::test_b",
    "tests/e2e/test_rooms.py::test_c[x]",
    "tests/e2e/test_restart.py::test_d",
    "tests/sultans/test_rules_end.py::test_e",
    "tests/tui/test_tui_lobby.py::test_f",
    "tests/tui/test_tui_lobby.py::test_g[en]",
    "tests/server/test_room.py::test_h",
]


class FakeWorker:
    """What the scheduler asks of a worker: take tests by index, shut down."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.given: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.given += indices

    def send_runtest_all(self) -> None:  # pragma: no cover - not used by this scheduler
        raise AssertionError("the whole collection was sent to one worker")

    def shutdown(self) -> None:
        self.shutting_down = True


def config(dist: str) -> Any:
    options = {"dist": dist, "tx": ["2*popen"], "numprocesses": 2}
    return SimpleNamespace(
        getvalue=options.__getitem__,
        option=SimpleNamespace(loadscopereorder=True, maxschedchunk=None, **options),
    )


def test_end_to_end_tests_are_one_unit_and_every_other_test_its_own() -> None:
    assert {scope_of(n) for n in COLLECTION[:4]} == {"e2e"}
    assert [scope_of(n) for n in COLLECTION[4:]] == COLLECTION[4:]


def test_loadgroup_gives_every_end_to_end_test_to_one_worker_and_the_rest_to_both() -> None:
    pytest.importorskip("xdist")
    scheduler = make_scheduler(config("loadgroup"), SimpleNamespace(loadscopesched=print))
    workers = [FakeWorker("gw0"), FakeWorker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, COLLECTION)
    scheduler.schedule()
    e2e_first, other = workers
    # the largest unit goes out first: the whole end-to-end group, to one worker
    assert e2e_first.given[:4] == [0, 1, 2, 3]
    assert not any(i < 4 for i in other.given)
    while scheduler.workqueue:  # each test done is answered with more work, one test a unit
        for worker in workers:
            for index in list(worker.given):
                scheduler.mark_test_complete(worker, index)
    given = sorted(e2e_first.given + other.given)
    assert given == list(range(len(COLLECTION)))
    assert any(i >= 4 for i in other.given)


def test_other_ways_of_sharing_out_are_pytest_xdist_s_own() -> None:
    assert make_scheduler(config("load"), None) is None


def test_a_worker_running_other_tests_yields_to_the_end_to_end_tests_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    niced: list[int] = []
    monkeypatch.setattr("os.nice", niced.append)
    grouped = config("loadgroup")
    assert not yield_to_end_to_end(grouped, COLLECTION[0], "gw0")  # an end-to-end test
    assert not yield_to_end_to_end(grouped, COLLECTION[4], None)  # no workers: one process
    assert not yield_to_end_to_end(config("load"), COLLECTION[4], "gw1")
    assert yield_to_end_to_end(grouped, COLLECTION[4], "gw1")
    assert not yield_to_end_to_end(grouped, COLLECTION[5], "gw1")  # once
    assert niced == [5]
