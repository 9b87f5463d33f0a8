"""Memory over an evening of play, in one process, without SSH: does it
level off or keep growing, and how long do full collections stop the loop?

    ./manage bench soak [--minutes 120] [--settle 15] [--churn 10] [--rooms 2]
                        [--per-room 6] [--seats 12] [--game sultans]
                        [--bot-delay 0.01] [--every 30] [--census]
                        [--tracemalloc 10] [--sizes] [--holders] [--garbage]
                        [--trim]

Each room has a host at the table (a Peek or a pass as soon as it is their
turn), bots in the other seats (``--bot-delay`` seconds a move: many matches
in little time) and ``--per-room - 1`` watchers, all real sessions
(``ThroneApp`` with the session driver, as bench/screens.py runs them); a
finished match is played again at once. Players come and go: every
``--churn`` seconds a watcher leaves (its app ends, the hub forgets it) and a
newcomer under a new name logs in and watches. The garbage collector is left
to the server's heap keeper (server/heap.py), as in the server.

Every ``--every`` seconds: the process's RSS and the matches finished (with
``--census``, after a full collection of the bench's own, the objects the
collector tracks and the types that grew most: it changes what is measured;
with ``--tracemalloc N``, from the settle point on, where the memory Python
allocated grew since then, by call stack of N frames, and what it did not
free since the previous sample: slow and large, to find a leak, not to
measure RSS; with ``--trim``, what the C and Python allocators hold in use
and free, and RSS after giving glibc's free pages back to the system
(``malloc_trim``): what is fragmentation, not live memory;
with ``--sizes``, the bytes of live objects by type (each with the strings
and numbers it holds) and the types that grew most since the previous sample;
with ``--holders``, the bytes each of the process's caches and each
widget attribute (by widget type) holds, and what grew;
with ``--garbage``, the objects left in reference cycles since the previous
sample, by type, then collected: it changes what is measured).
At the end: RSS after ``--settle`` minutes and at the end (target: within
10%), every full collection (generation 2) the process made, with its
pause (target under load: 100 ms at most), and what was left in reference
cycles over the run (what only a full collection would free).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import os
import re
import sys
import tempfile
import time
import tracemalloc
import weakref
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from screens import SESSIONS, Session, _print, play_a_peek_or_pass, rss_mib

from protocol.contract import RoomClient, RoomSettings
from server.heap import HeapKeeper
from server.hub import Hub
from server.storage import Storage
from tui.app import ThroneApp
from tui.runtime import retire


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
    )]


def allocators() -> str:
    """What the C allocator (glibc's ``mallinfo2``) and Python's small-object
    allocator (``sys._debugmallocstats``) hold: in use, and free but kept."""
    out = []
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        info = libc.mallinfo2()
        out.append(
            f"malloc in use {(info.uordblks + info.hblkhd) / 2**20:.1f} MiB, free {info.fordblks / 2**20:.1f} MiB"
        )
    with tempfile.TemporaryFile() as f:
        saved = os.dup(2)  # the stats go to the C stderr
        try:
            os.dup2(f.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        stats = f.read().decode(errors="replace")
    found = dict(re.findall(r"# (arenas allocated current|bytes in allocated blocks) *= *([\d,]+)", stats))
    if len(found) == 2:
        arenas = int(found["arenas allocated current"].replace(",", ""))  # of 1 MiB (CPython 3.10+)
        used = int(found["bytes in allocated blocks"].replace(",", "")) / 2**20
        out.append(f"pymalloc blocks {used:.1f} MiB in {arenas:.0f} MiB of arenas")
    return "; ".join(out)


def trimmed_rss() -> float:
    """RSS after glibc's ``malloc_trim(0)`` (the process's RSS where there is no glibc)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return rss_mib()


REPO = str(Path(__file__).resolve().parent.parent) + "/"


def _where(frame: tracemalloc.Frame) -> str:
    name = re.sub(r".*/site-packages/|.*/lib/python3\.\d+/", "", frame.filename)
    return f"{name.removeprefix(REPO)}:{frame.lineno}"


def _ours(frame: tracemalloc.Frame) -> bool:
    name = frame.filename
    return name.startswith(REPO) and "/site-packages/" not in name and not name.startswith(REPO + "bench/")


def grown(since: tracemalloc.Snapshot, now: tracemalloc.Snapshot, top: int = 12) -> list[str]:
    """Where the live allocations grew most from ``since`` to ``now``: by the
    innermost line of the project's code on the call stack (the total), then
    the call stacks (innermost first) that grew most."""
    ignore = (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>"))
    diffs = now.filter_traces(ignore).compare_to(since.filter_traces(ignore), "traceback")
    by_line: Counter[str] = Counter()
    blocks: Counter[str] = Counter()
    for stat in diffs:
        ours = next((f for f in reversed(list(stat.traceback)) if _ours(f)), None)
        key = _where(ours) if ours is not None else "(outside the project) " + _where(list(stat.traceback)[-1])
        by_line[key] += stat.size_diff
        blocks[key] += stat.count_diff
    lines = [f"    {size / 1024:+9.1f} KiB {blocks[key]:+7d} blocks  {key}" for key, size in by_line.most_common(top) if size > 0]
    lines.append("    call stacks:")
    for stat in [d for d in diffs if d.size_diff > 0][:top]:
        stack = " < ".join(_where(f) for f in reversed(list(stat.traceback)))
        lines.append(f"    {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  {stack}")
    return lines


def sizes() -> tuple[Counter[str], Counter[str]]:
    """Bytes and numbers of the objects the collector tracks, by type, each with
    the untracked objects (strings, numbers, flat tuples) it alone refers to
    first (``sys.getsizeof``); no collection (frozen objects too)."""
    gc.unfreeze()
    try:
        seen: set[int] = set()
        size: Counter[str] = Counter()
        count: Counter[str] = Counter()
        for o in gc.get_objects():
            kind = _kind(o)
            count[kind] += 1
            n = sys.getsizeof(o)
            for part in gc.get_referents(o):
                if not gc.is_tracked(part) and id(part) not in seen:
                    seen.add(id(part))
                    n += sys.getsizeof(part)
            size[kind] += n
    finally:
        gc.freeze()
    return size, count


ENTRIES: dict[str, str] = {}
"""The entries and items (a list's lines) of each cache :func:`holders` found."""


def holders() -> Counter[str]:
    """Bytes reachable from each cache of the process (a module's ``LRUCache``
    or ``FIFOCache`` by its name, first come first counted), then from every
    widget's lines and caches by the widget's type; the walk does not go into
    widgets, Apps, modules, classes or functions."""
    from textual.cache import FIFOCache, LRUCache
    from textual.dom import DOMNode

    stop = (DOMNode, type, type(sys), type(holders), type(print))
    seen: set[int] = set()

    def deep(root: object) -> int:
        total = 0
        todo = [root]
        while todo:
            o = todo.pop()
            if id(o) in seen or isinstance(o, stop):
                continue
            seen.add(id(o))
            total += sys.getsizeof(o)
            todo.extend(gc.get_referents(o))
        return total

    found: Counter[str] = Counter()
    for name, module in list(sys.modules.items()):
        if not name.startswith(("tui", "server", "protocol", "engine", "textual", "rich")):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, (LRUCache, FIFOCache)):
                values = [v for v in value._cache.values()]  # an LRUCache's are links [prev, next, key, value]
                values = [v[3] if isinstance(value, LRUCache) else v for v in values]
                lines = sum(len(v) if isinstance(v, list) else 1 for v in values)
                found[f"{name}.{attr}"] += deep(value)
                ENTRIES[f"{name}.{attr}"] = f" ({len(values)} entries, {lines} items)"
            elif callable(getattr(value, "cache_info", None)):
                found[f"{name}.{attr}"] += deep(value)
    gc.unfreeze()
    try:
        nodes = [o for o in gc.get_objects() if isinstance(o, DOMNode)]
    finally:
        gc.freeze()
    for node in nodes:
        for attr, value in list(vars(node).items()):
            if isinstance(value, (list, dict, tuple, LRUCache, FIFOCache)) or hasattr(value, "__slots__"):
                n = deep(value)
                if n:
                    found[f"{type(node).__qualname__}.{attr}"] += n
    return found


def census() -> Counter[str]:
    """Objects the collector tracks, by type (frozen ones too)."""
    gc.collect()
    gc.unfreeze()
    counts = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())
    gc.freeze()  # as the heap keeper leaves the old heap, so the next collections stay quick
    return counts


async def host_plays(room: RoomClient) -> None:
    """The host's seat: a Peek or a pass (the first legal action otherwise)."""
    while True:
        await asyncio.sleep(0.05)
        play_a_peek_or_pass(room)


class FullCollections:
    """Times every generation-2 collection (``gc.callbacks``), but the bench's own."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self.ours = False  # a census is collecting: not counted
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2 or self.ours:
            return
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._t0)


async def leave(hub: Hub, session: Session) -> None:
    """A player goes, as the server ends a session: the app ends, its terminal
    closes, the hub forgets them, and ``RETIRE_AFTER`` seconds later the app is
    taken apart (``tui.retire``) and the session counts as retired."""
    session.app.exit()
    if session.task is not None:
        await session.task
    session.terminal.close()
    hub.disconnect(session.lobby)
    asyncio.get_running_loop().call_later(retire.RETIRE_AFTER, _take_apart, weakref.ref(session.app))


def _take_apart(ended: weakref.ref[ThroneApp]) -> None:
    app = ended()
    if app is not None:
        retire.take_apart(app)
    SESSIONS[1] += 1


async def main(args: argparse.Namespace, db: Path) -> None:
    heap = HeapKeeper(opened=lambda: SESSIONS[0], retired=lambda: SESSIONS[1])
    heap.start()
    full = FullCollections()
    gc.callbacks.append(full)
    hub = Hub(Storage(db), host_fingerprint="SHA256:soak", bot_delay=args.bot_delay, intermission=0.2)
    await hub.start()
    size = (100, 32)
    sessions: list[Session] = []
    rooms: list[tuple[list[Session], RoomClient]] = []
    for r in range(args.rooms):
        host = Session(hub, f"host{r}", size)
        settings = RoomSettings(game=args.game, seats=args.seats, turn_timer=10, window_timer=5, options={})
        room = host.lobby.create_room(settings)
        room.start()
        watchers = [Session(hub, f"watcher{r}_{i}", size) for i in range(args.per_room - 1)]
        rooms.append((watchers, room))
        sessions += [host, *watchers]
    for s in sessions:
        s.start()
    await asyncio.gather(*(s.first_frame for s in sessions))
    for watchers, table in rooms:
        for s in watchers:
            s.app.call_later(s.app.enter_room, s.lobby.watch(table.room_id), watching=True)
    actors = [asyncio.create_task(host_plays(table)) for _, table in rooms]

    samples: list[tuple[float, float]] = []  # seconds, RSS MiB
    sized: tuple[Counter[str], Counter[str]] | None = None
    held_before: Counter[str] | None = None
    first_snapshot: tracemalloc.Snapshot | None = None
    last_snapshot: tracemalloc.Snapshot | None = None
    settled: tuple[float, float] | None = None
    before = census() if args.census else Counter[str]()
    start = time.monotonic()
    matches = comers = 0
    last = -args.every
    last_churn = 0.0
    _print(
        f"{args.rooms} rooms of {args.seats} seats ({args.game}), {len(sessions)} sessions, {args.minutes} min, "
        f"a watcher leaves and another comes every {args.churn:g} s"
    )
    while (now := time.monotonic() - start) < args.minutes * 60:
        await asyncio.sleep(1)
        for _, table in rooms:
            if table.snapshot().state == "finished":
                matches += 1
                table.play_again()
        if args.churn > 0 and now - last_churn >= args.churn:
            last_churn = now
            watchers, table = rooms[comers % len(rooms)]
            if watchers:
                await leave(hub, watchers.pop(0))
            comers += 1
            newcomer = Session(hub, f"comer{comers}", size)
            newcomer.start()
            await newcomer.first_frame
            newcomer.app.call_later(newcomer.app.enter_room, newcomer.lobby.watch(table.room_id), watching=True)
            watchers.append(newcomer)
        if settled is None and now >= args.settle * 60:
            settled = (now, rss_mib())
            _print(f"{now:6.0f} s  RSS {settled[1]:6.1f} MiB  after the first {args.settle:g} min (the reference)")
            if args.tracemalloc:
                tracemalloc.start(args.tracemalloc)
                first_snapshot = last_snapshot = tracemalloc.take_snapshot()
        if now - last < args.every:
            continue
        last = now
        rss = rss_mib()
        samples.append((now, rss))
        grew = ""
        if args.census:
            full.ours = True
            counts = census()
            full.ours = False
            grew = "  objects {:9,d}  grew: {}".format(
                sum(counts.values()),
                ", ".join(f"{kind.rsplit('.', 1)[-1]} +{n}" for kind, n in (counts - before).most_common(6)) or "-",
            )
            before = counts
        if args.sizes:
            full.ours = True
            now_sizes, now_counts = sizes()
            full.ours = False
            if sized is not None:
                grew_most = (now_sizes - sized[0]).most_common(10)
                grew += "  sizes: total {:.1f} MiB, grew: {}".format(
                    now_sizes.total() / 2**20,
                    ", ".join(
                        f"{kind} {n / 2**20:+.2f} MiB ({now_counts[kind] - sized[1][kind]:+d})" for kind, n in grew_most
                    ),
                )
            sized = (now_sizes, now_counts)
        if args.holders:
            held = holders()
            grew += "  held: total {:.1f} MiB, most: {}".format(
                held.total() / 2**20,
                ", ".join(f"{kind} {n / 2**20:.2f} MiB{ENTRIES.get(kind, '')}" for kind, n in held.most_common(14)),
            )
            if held_before is not None:
                grew += "; grew: " + ", ".join(
                    f"{kind} {n / 2**20:+.2f} MiB" for kind, n in (held - held_before).most_common(8)
                )
            held_before = held
        if args.garbage:
            full.ours = True
            found, garbage_bytes = cyclic_garbage(sized=True)
            full.ours = False
            kinds = ", ".join(f"{kind} {n}" for kind, n in found.most_common(8))
            grew += f"  cyclic garbage {found.total():,d} objects, {garbage_bytes / 2**20:.1f} MiB ({kinds or '-'})"
        if args.trim:
            grew += f"  ({allocators()})  RSS trimmed {trimmed_rss():6.1f} MiB"
        pauses = sorted(full.pauses)
        worst = f"{pauses[-1] * 1e3:.0f} ms" if pauses else "-"
        _print(
            f"{now:6.0f} s  RSS {rss:6.1f} MiB  matches {matches:4d}  comers {comers:4d}  "
            f"full collections {len(pauses)} (longest {worst}){grew}"
        )
        if first_snapshot is not None and last_snapshot is not None and settled is not None and now > settled[0]:
            snapshot = tracemalloc.take_snapshot()
            traced, _ = tracemalloc.get_traced_memory()
            _print(f"  traced {traced / 2**20:.1f} MiB; grew since the settle point:")
            for line in grown(first_snapshot, snapshot):
                _print(line)
            _print("  grew since the previous sample:")
            for line in grown(last_snapshot, snapshot, top=6):
                _print(line)
            last_snapshot = snapshot
    for task in actors:
        task.cancel()
    end = (time.monotonic() - start, rss_mib())
    _print(f"{matches} matches finished, {comers} players came and {comers} went")
    if settled is not None:
        change = (end[1] - settled[1]) / settled[1]
        verdict = "meets" if abs(change) <= 0.10 else "MISSES"
        _print(
            f"RSS after {args.settle:g} min {settled[1]:.1f} MiB, at the end ({end[0] / 60:.1f} min) {end[1]:.1f} MiB: "
            f"{change:+.1%} ({verdict} the 10% target)"
        )
    else:
        _print(f"RSS at the end ({end[0] / 60:.1f} min) {end[1]:.1f} MiB (the run was shorter than --settle)")
    pauses = sorted(full.pauses)
    if pauses:
        verdict = "meets" if pauses[-1] <= 0.100 else "MISSES"
        _print(
            f"full collections: {len(pauses)}, pause median {pauses[len(pauses) // 2] * 1e3:.0f} ms, "
            f"longest {pauses[-1] * 1e3:.0f} ms ({verdict} the 100 ms target)"
        )
    else:
        _print("full collections: none")
    gc.callbacks.remove(full)
    await heap.stop()
    await asyncio.sleep(retire.RETIRE_AFTER + 1)  # the last leaver's app taken apart
    garbage, _ = cyclic_garbage()
    kinds = ", ".join(f"{kind} {n}" for kind, n in garbage.most_common(5))
    _print(f"cyclic garbage left (what a full collection would free): {garbage.total():,d} objects ({kinds or '-'})")


def _kind(o: object) -> str:
    kind = type(o)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def cyclic_garbage(sized: bool = False) -> tuple[Counter[str], int]:
    """The objects in unreachable reference cycles, frozen ones too, by type,
    and (``sized``) their bytes with the untracked objects only they hold (a
    full collection that keeps them to count, then frees them and freezes
    what lives, as the heap keeper does)."""
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    size = 0
    try:
        gc.collect()
        found = Counter(_kind(o) for o in gc.garbage)
        if sized:
            seen: set[int] = set()
            for o in gc.garbage:
                for part in (o, *gc.get_referents(o)):
                    if id(part) not in seen and (part is o or not gc.is_tracked(part)):
                        seen.add(id(part))
                        size += sys.getsizeof(part)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    gc.collect()
    gc.freeze()
    return found, size


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=120.0, help="how long to play (an evening: 120)")
    parser.add_argument("--settle", type=float, default=15.0, help="minutes after which RSS is the reference")
    parser.add_argument("--churn", type=float, default=10.0, help="seconds between a watcher leaving and another coming")
    parser.add_argument("--census", action="store_true", help="count the objects by type at each sample (collects)")
    parser.add_argument(
        "--tracemalloc", type=int, default=0, metavar="FRAMES",
        help="trace allocations from the settle point on, call stacks of FRAMES frames (slow)",
    )
    parser.add_argument(
        "--sizes", action="store_true",
        help="at each sample, the bytes of live objects by type and what grew since the previous sample",
    )
    parser.add_argument(
        "--holders", action="store_true",
        help="at each sample, the bytes each cache and each widget attribute holds (by type), and what grew",
    )
    parser.add_argument(
        "--garbage", action="store_true",
        help="at each sample, the cyclic garbage made since the previous one, by type (collects it)",
    )
    parser.add_argument("--trim", action="store_true", help="also RSS after malloc_trim at each sample (changes RSS)")
    parser.add_argument("--rooms", type=int, default=2)
    parser.add_argument("--per-room", type=int, default=6, help="sessions per room: the host and watchers")
    parser.add_argument("--seats", type=int, default=12)
    parser.add_argument("--game", default="sultans")
    parser.add_argument("--bot-delay", type=float, default=0.01)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(main(args, Path(folder) / "soak.db"))


if __name__ == "__main__":
    run()
