"""tui.turns.Turns: the queue every session's screen work takes turns in on the SSH host."""

from __future__ import annotations

import asyncio
import contextvars

import pytest

import tui.turns
from tui.turns import Turns

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")


async def settle(turns: Turns) -> None:
    for _ in range(100):
        if not turns.waiting:
            break
        await asyncio.sleep(0)
    await asyncio.sleep(0)


async def test_jobs_run_in_order_urgent_ones_first() -> None:
    turns = Turns()
    ran: list[str] = []
    for name in ("a", "b"):
        turns.run(lambda name=name: ran.append(name))
    turns.run(lambda: ran.append("key"), urgent=True)
    turns.run(lambda: ran.append("c"))
    await settle(turns)
    assert ran == ["key", "a", "b", "c"]


async def test_frames_go_before_refreshes_so_a_refreshed_screen_is_drawn_before_the_next_is_refreshed() -> None:
    turns = Turns(budget=0.0)
    ran: list[str] = []

    def refresh(n: int) -> None:
        ran.append(f"refresh{n}")
        turns.run(lambda: ran.append(f"frame{n}"))  # the screen's frame, asked for by its refresh

    for n in range(3):
        turns.run(lambda n=n: refresh(n), refresh=True)
    turns.run(lambda: ran.append("key"), urgent=True)
    await settle(turns)
    assert ran == ["key", "refresh0", "frame0", "refresh1", "frame1", "refresh2", "frame2"]


async def test_later_jobs_wait_for_the_others_but_not_for_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's result opening on the fifteen screens of a room (``later``)
    waits for the refresh and frame of an action in another room, and for
    nothing that comes after ``LATER_WAIT``."""
    turns = Turns(budget=0.0)
    ran: list[str] = []
    for n in range(2):
        turns.run(lambda n=n: ran.append(f"result{n}"), later=True)
    turns.run(lambda: ran.append("refresh"), refresh=True)
    turns.run(lambda: ran.append("frame"))
    await settle(turns)
    assert ran == ["frame", "refresh", "result0", "result1"]

    ran.clear()
    clock = [100.0]
    monkeypatch.setattr(tui.turns.time, "perf_counter", lambda: clock[0])
    turns.run(lambda: ran.append("result"), later=True)
    clock[0] += tui.turns.LATER_WAIT  # it has waited its longest
    turns.run(lambda: ran.append("refresh"), refresh=True)
    await settle(turns)
    assert ran == ["result", "refresh"]


async def test_a_job_runs_in_the_context_it_was_queued_from() -> None:
    turns = Turns()
    seen: list[str] = []

    async def queue_as(name: str) -> None:
        WHO.set(name)  # this task's own context, as each Textual app's task has its app
        turns.run(lambda: seen.append(WHO.get()))

    await asyncio.gather(queue_as("alice"), queue_as("bob"))
    await settle(turns)
    assert sorted(seen) == ["alice", "bob"]
    assert WHO.get() == "nobody"


async def test_what_becomes_ready_meanwhile_runs_between_two_batches() -> None:
    turns = Turns(budget=0.0)  # one job per pass of the loop
    loop = asyncio.get_running_loop()
    order: list[str] = []

    def job(n: int) -> None:
        order.append(f"job{n}")
        if n == 0:  # e.g. a key read while the first frame was drawn
            loop.call_soon(order.append, "key")

    for n in range(3):
        turns.run(lambda n=n: job(n))
    await settle(turns)
    assert order == ["job0", "key", "job1", "job2"]
    assert turns.passes == 3


async def test_a_batch_runs_several_jobs_in_one_pass_within_its_budget() -> None:
    turns = Turns(budget=10.0)
    ran: list[int] = []
    for n in range(5):
        turns.run(lambda n=n: ran.append(n))
    await settle(turns)
    assert ran == [0, 1, 2, 3, 4]
    assert turns.passes == 1


async def test_a_dropped_job_never_runs_and_a_failing_one_stops_nothing() -> None:
    turns = Turns()
    ran: list[str] = []

    def boom() -> None:
        raise RuntimeError("boom")

    dropped = turns.run(lambda: ran.append("dropped"))
    failed = turns.run(boom)
    done = turns.run(lambda: ran.append("after"))
    dropped.cancel()  # its app closed before its turn
    await done
    assert ran == ["after"]
    with pytest.raises(RuntimeError, match="boom"):
        await failed
    assert turns.ran == 2


def test_each_event_loop_starts_with_an_empty_queue() -> None:
    turns = Turns(budget=0.0)
    ran: list[str] = []

    async def queue_only() -> None:
        turns.run(lambda: ran.append("first loop"))
        turns.run(lambda: ran.append("left behind"))

    loop = asyncio.new_event_loop()
    loop.run_until_complete(queue_only())  # the loop stopped and closed before the second job's turn
    loop.close()

    async def queue_and_wait() -> None:
        await turns.run(lambda: ran.append("second loop"))

    asyncio.run(queue_and_wait())
    assert ran == ["first loop", "second loop"]
