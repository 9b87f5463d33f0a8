"""CPU and memory of the screens themselves, in one process, without SSH.

    ./manage bench screens [--rooms 2] [--per-room 15] [--seconds 20]
                           [--bot-delay 0.5] [--logins 20] [--burst N]
                           [--seated N] [--typers N] [--settle S] [--widgets]
                           [--profile FILE] [--login-profile FILE]
                           [--census] [--garbage SECONDS] [--reconnects N]

The server's sessions run exactly as over SSH (``ThroneApp`` with the
session driver on one event loop, input fed through the session terminal)
but their terminals write into a counter, so the figures are the screens'
own cost: CPU of a login and the time to its first frame, ``--burst``
logins at once, then rooms of one host (bots fill the seats) and watchers,
or with ``--seated N`` N players at each table (they play a Peek or pass in
turn, as bench/load.py's do, looking every 0.5 s), ``--typers`` watchers typing in the chat line: CPU per frame written and per
action while bots play (each action updates every screen of its room),
garbage-collection time, and memory per session. ``--widgets`` counts the
widgets drawn and re-laid out; ``--profile`` and ``--login-profile`` write
cProfiles of the play phase and of the logins; ``--census`` counts the
objects the garbage collector tracks, by type, at the tables; ``--garbage``
counts what that many seconds of play leave in reference cycles;
``--reconnects N`` has a player seated at a running table (bots that wait)
come back N times, one at a time: CPU from its App's start to 0.25 s after
its table's first frame.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import resource
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from protocol.contract import ClientError, Identity, RoomSettings
from server.cli import app_host
from server.heap import HeapKeeper
from server.hub import Hub
from server.ssh import prepare_app
from server.sshdriver import SessionTerminal
from server.storage import Storage
from tui.app import ThroneApp
from tui.turns import TURNS


def _print(*args: object) -> None:
    sys.__stdout__.write(" ".join(str(a) for a in args) + "\n")
    sys.__stdout__.flush()


SESSIONS = [0, 0]  # opened, retired (ended and collected): the heap keeper's cues, as the server's


class Session:
    """One App on a terminal that counts what it is sent (the first frame:
    the first write that takes the total past 1,500 bytes, a screen's worth)."""

    def __init__(self, hub: Hub, name: str, size: tuple[int, int]) -> None:
        self.bytes = 0
        self.frames = 0
        self.first_frame = asyncio.get_running_loop().create_future()
        self.terminal = SessionTerminal(self._write, size)
        self.lobby = hub.connect(Identity(name=name))
        host = app_host()  # patches Textual once per process, as the server's start does
        self.app = ThroneApp(self.lobby, driver_class=self.terminal.driver_class, turns=TURNS)
        prepare_app(self.app, host)
        self.task: asyncio.Task[Any] | None = None
        SESSIONS[0] += 1

    def _write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.frames += 1
        if not self.first_frame.done() and self.bytes > 1500:
            self.first_frame.set_result(time.perf_counter())

    def start(self) -> None:
        self.task = asyncio.create_task(self.app.run_async(size=self.terminal.size))


async def close_all(hub: Hub, sessions: list[Session]) -> None:
    """End the sessions' apps, disconnect them from the hub, collect."""
    for s in sessions:
        s.app.exit()
    await asyncio.gather(*(s.task for s in sessions if s.task))
    for s in sessions:
        hub.disconnect(s.lobby)
    SESSIONS[1] += len(sessions)
    sessions.clear()
    gc.collect()


def play_a_peek_or_pass(room: Any) -> None:
    """A seated player's move, if it has one: a Peek on its turn, a pass in a
    reaction window (the first legal action otherwise)."""
    legal = room.legal()
    pick = next((a for a in legal if a.startswith(("peek", "pass"))), legal[0] if legal else None)
    if pick is not None:
        with contextlib.suppress(ClientError):  # a bot's action or a timeout came first
            room.act(pick, room.snapshot().version)


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


GC_TIME = [0.0, 0, 0.0]  # seconds in collections, collections, longest


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        GC_TIME[2] = max(GC_TIME[2], 0.0)
        _gc_timer.started = time.perf_counter()  # type: ignore[attr-defined]
    else:
        spent = time.perf_counter() - _gc_timer.started  # type: ignore[attr-defined]
        GC_TIME[0] += spent
        GC_TIME[1] += 1
        GC_TIME[2] = max(GC_TIME[2], spent)


async def run(args: argparse.Namespace) -> None:
    heap = HeapKeeper(opened=lambda: SESSIONS[0], retired=lambda: SESSIONS[1])
    heap.start()  # as the server does
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:bench", bot_delay=args.bot_delay, intermission=1.0)
    await hub.start()
    size = (args.cols, args.rows)

    # -- logins: one at a time, CPU from App start to its first frame
    login_cpu: list[float] = []
    login_frames: list[tuple[int, int]] = []
    login_wall: list[float] = []
    warm: list[Session] = []
    login_profiler = cProfile.Profile() if args.login_profile else None
    for i in range(args.logins):
        if login_profiler and i == 2:
            login_profiler.enable()
        before = cpu()
        s = Session(hub, f"login{i}", size)
        s.start()
        started = time.perf_counter()
        first = await s.first_frame
        login_wall.append(first - started)
        warm.append(s)
        await asyncio.sleep(0.25)
        login_cpu.append(cpu() - before)
        login_frames.append((s.frames, s.bytes))
    if login_profiler:
        login_profiler.disable()
        login_profiler.dump_stats(args.login_profile)
    await close_all(hub, warm)

    # -- a burst: --burst sessions start at once; time until every one has drawn its lobby
    if args.burst:
        c0, t0 = cpu(), time.perf_counter()
        burst_profiler = cProfile.Profile() if args.burst_profile else None
        if burst_profiler:
            burst_profiler.enable()
        burst = [Session(hub, f"burst{i}", size) for i in range(args.burst)]
        for s in burst:
            s.start()
        await asyncio.gather(*(s.first_frame for s in burst))
        burst_wall, burst_cpu = time.perf_counter() - t0, cpu() - c0
        if burst_profiler:
            burst_profiler.disable()
            burst_profiler.dump_stats(args.burst_profile)
        await asyncio.sleep(1.0)
        burst_after = cpu() - c0
        _print(f"burst of {args.burst} logins: all drawn after {burst_wall * 1000:.0f} ms "
               f"(CPU {burst_cpu * 1000:.0f} ms; {burst_after * 1000:.0f} ms with the next second)")
        await close_all(hub, burst)

    if args.reconnects:
        await reconnects(args, size)

    # -- rooms: a host and bots at each table, the rest of the room's clients watch
    base_rss = rss_mib()
    sessions: list[Session] = []
    rooms = []
    seated: list[tuple[Session, Any]] = []  # players other than the hosts, and their room clients
    actors: list[Any] = []  # the room clients that play (with --seated > 1, the hosts too)
    for r in range(args.rooms):
        host = Session(hub, f"host{r}", size)
        rc = host.lobby.create_room(RoomSettings(
            game=args.game, seats=args.per_room, turn_timer=10, window_timer=5,
            options={"rounds": 5} if args.game == "sultans" else {},
        ))
        rooms.append(rc.room)
        sessions.append(host)
        if args.seated > 1:
            actors.append(rc)
        others = [Session(hub, f"watch{r}_{i}", size) for i in range(args.per_room - 1)]
        for s in others[: args.seated - 1]:
            joined = s.lobby.join(rc.room.id)
            joined.set_ready(True)
            seated.append((s, joined))
            actors.append(joined)
        rc.start()
        sessions.extend(others)
    for s in sessions:
        s.start()
    await asyncio.gather(*(s.first_frame for s in sessions))
    players = {id(s): joined for s, joined in seated}
    for r, room in enumerate(rooms):
        for s in sessions[r * args.per_room + 1:(r + 1) * args.per_room]:
            if id(s) in players:
                s.app.call_later(s.app.enter_room, players[id(s)], watching=False)
            else:
                s.app.call_later(s.app.enter_room, s.lobby.watch(room.id), watching=True)
    await asyncio.sleep(args.settle)
    gc.collect()
    at_tables = rss_mib()
    if args.census:
        census: dict[str, int] = {}
        tracked = gc.get_objects()
        for obj in tracked:
            name = type(obj).__qualname__
            census[name] = census.get(name, 0) + 1
        _print(f"objects the collector tracks: {len(tracked)} ({len(tracked) / len(sessions):.0f} per session)")
        for name, n in sorted(census.items(), key=lambda kv: -kv[1])[:25]:
            _print(f"  {n:8d} {n / len(sessions):8.0f}/session  {name}")
        del tracked
    tracemalloc.start(1)
    await asyncio.sleep(0.1)
    snap_before = tracemalloc.take_snapshot()
    tracemalloc.stop()
    del snap_before

    stop = asyncio.Event()

    async def typist(session: Session) -> None:
        """Types into the chat line (``t`` focuses it) like bench/load.py's typers."""
        session.terminal.feed(b"t")
        await asyncio.sleep(0.5)
        while not stop.is_set():
            for ch in b"ZXqwertyuiop":
                session.terminal.feed(bytes([ch]))
                await asyncio.sleep(0.5)
            for _ in range(12):
                session.terminal.feed(b"\x7f")
                await asyncio.sleep(0.03)

    async def player(joined: Any) -> None:
        """A seated player: on its turn plays a Peek, in a reaction window passes
        (as bench/load.py's seated players do through their screens), looking every 0.5 s."""
        while not stop.is_set():
            await asyncio.sleep(0.5)
            play_a_peek_or_pass(joined)

    typists = [asyncio.create_task(player(joined)) for joined in actors] + [
        asyncio.create_task(typist(sessions[r * args.per_room + args.per_room - 1 - i]))
        for r in range(args.rooms) for i in range(min(args.typers, args.per_room - 1))
    ]

    # -- play: bots act; every action updates the room's screens
    gc.callbacks.append(_gc_timer)
    frames0 = sum(s.frames for s in sessions)
    bytes0 = sum(s.bytes for s in sessions)
    seq0 = sum(room.seq for room in rooms)
    counts: dict[str, list[float]] = {}
    if args.widgets:
        from textual.widget import Widget

        original = Widget.render_lines

        def counted(self: Widget, crop: Any) -> Any:
            t = time.perf_counter()
            out = original(self, crop)
            key = f"{type(self).__name__}#{self.id or ''} h={crop.height}"
            c = counts.setdefault(key, [0, 0.0, 0])
            c[0] += 1
            c[1] += time.perf_counter() - t
            c[2] += crop.height
            return out

        Widget.render_lines = counted  # type: ignore[method-assign]
        import traceback

        original_refresh = Widget.refresh

        def counted_refresh(self: Widget, *regions: Any, repaint: bool = True, layout: bool = False,
                            recompose: bool = False) -> Any:
            if layout:
                where = traceback.extract_stack(limit=4)[0]
                key = f"  layout by {type(self).__name__}#{self.id or ''} from {where.name}:{where.lineno}"
                c = counts.setdefault(key, [0, 0.0, 0])
                c[0] += 1
            return original_refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

        Widget.refresh = counted_refresh  # type: ignore[method-assign]
        from textual._styles_cache import StylesCache

        original_line = StylesCache.render_line

        def counted_line(self: StylesCache, styles: Any, y: int, *rest: Any) -> Any:
            out = original_line(self, styles, y, *rest)
            node = styles.node
            key = f"  lines redrawn: {type(node).__name__}#{getattr(node, 'id', '') or ''}"
            c = counts.setdefault(key, [0, 0.0, 0])
            c[0] += 1
            return out

        StylesCache.render_line = counted_line  # type: ignore[method-assign]
    profiler = cProfile.Profile() if args.profile else None
    t0, c0 = time.perf_counter(), cpu()
    if profiler:
        profiler.enable()
    await asyncio.sleep(args.seconds)
    if args.garbage:
        await heap.stop()  # nothing frozen: every cycle is found
        gc.unfreeze()
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        await asyncio.sleep(args.garbage)
        gc.collect()
        gc.set_debug(0)
        junk: dict[str, int] = {}
        for obj in gc.garbage:
            junk[type(obj).__qualname__] = junk.get(type(obj).__qualname__, 0) + 1
        _print(f"cyclic garbage in {args.garbage:g} s of play: {len(gc.garbage)} objects")
        for name, n in sorted(junk.items(), key=lambda kv: -kv[1])[:30]:
            _print(f"  {n:8d}  {name}")
        # where the cycles come from: the functions (closures) in them
        origins: dict[str, int] = {}
        for obj in gc.garbage:
            code = getattr(obj, "__code__", None)
            if code is not None:
                key = f"{code.co_filename.rsplit('/', 2)[-1]}:{code.co_firstlineno} {code.co_qualname}"
                origins[key] = origins.get(key, 0) + 1
            elif type(obj).__name__ == "builtin_function_or_method":
                key = f"builtin {obj.__qualname__} of {type(getattr(obj, '__self__', None)).__qualname__}"
                origins[key] = origins.get(key, 0) + 1
        for name, n in sorted(origins.items(), key=lambda kv: -kv[1])[:15]:
            _print(f"  {n:8d}  from {name}")
        gc.garbage.clear()
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
    wall, used = time.perf_counter() - t0, cpu() - c0
    gc.callbacks.remove(_gc_timer)
    stop.set()
    await asyncio.gather(*typists)
    actions = sum(room.seq for room in rooms) - seq0
    frames = sum(s.frames for s in sessions) - frames0
    sent = sum(s.bytes for s in sessions) - bytes0

    login_cpu.sort()
    print = _print  # Textual swaps sys.stdout while apps run
    login_wall.sort()
    print(f"login: CPU of a whole login (its first 250 ms), median of {len(login_cpu)}: "
          f"{login_cpu[len(login_cpu) // 2] * 1000:.1f} ms (min {login_cpu[0] * 1000:.1f}); "
          f"first frame after {login_wall[len(login_wall) // 2] * 1000:.1f} ms; "
          f"{login_frames[-1][0]} writes, {login_frames[-1][1]} bytes")
    print(f"memory per session at tables: {(at_tables - base_rss) / len(sessions):.2f} MiB "
          f"({len(sessions)} sessions, RSS {base_rss:.0f} -> {at_tables:.0f} MiB)")
    print(f"play {wall:.1f} s: CPU {used / wall * 100:.0f}% of a core, {actions} actions "
          f"({actions / wall:.1f}/s), {frames} frames written ({frames / wall:.0f}/s)")
    print(f"  garbage collection: {GC_TIME[0] * 1000:.0f} ms in {GC_TIME[1]} collections, longest {GC_TIME[2] * 1000:.0f} ms; "
          f"{heap.full_collections} full collections since start-up")
    if frames:
        print(f"  CPU per frame {used / frames * 1000:.2f} ms, per action {used / max(actions, 1) * 1000:.1f} ms, "
              f"{sent / frames:.0f} bytes per frame")
    if args.widgets:
        from tui.widgets import TailLog

        log = sessions[1].app.screen.query_one("#sk-log", TailLog)
        log._base = log.rich_style
        t = time.perf_counter()
        for _ in range(100):
            for y in range(7):
                log.render_line(y)
        print(f"sk-log render_line: {(time.perf_counter() - t) / 700 * 1e6:.1f} us, {len(log.lines)} lines, "
              f"segments of the last: {[len(list(x)) for x in log.lines[-7:]]}, size {log.size} {log.content_size}")
    if counts:
        print("widgets drawn while playing (calls, ms total, lines):")
        for key, (n, t, lines) in sorted(counts.items(), key=lambda kv: (-kv[1][1], -kv[1][0]))[:40]:
            print(f"  {n:6d} {t * 1000:8.0f} ms {int(lines):7d}  {key}")
    c0, t0 = cpu(), time.perf_counter()
    for s in sessions:
        s.app.exit()
    await asyncio.gather(*(s.task for s in sessions if s.task), return_exceptions=True)
    for s in sessions:
        hub.disconnect(s.lobby)
    used, wall = cpu() - c0, time.perf_counter() - t0
    print(f"all {len(sessions)} sessions ended at once: {wall:.2f} s, CPU {used / len(sessions) * 1000:.1f} ms per session")
    await heap.stop()
    await hub.stop()


async def reconnects(args: argparse.Namespace, size: tuple[int, int]) -> None:
    """A seated player comes back to its running table, ``--reconnects`` times,
    on a hub of its own whose bots wait (the figures are the table's)."""
    hub = Hub(Storage(":memory:"), host_fingerprint="SHA256:bench", bot_delay=3600.0, intermission=1.0)
    await hub.start()
    lobby = hub.connect(Identity(name="seated"))
    most = next(top for game, _title, _least, top in lobby.games() if game == args.game)
    seats = min(args.per_room, most)
    room = lobby.create_room(RoomSettings(game=args.game, seats=seats, turn_timer=0, window_timer=0))
    room.start()
    hub.disconnect(lobby)  # the seat stays the player's while the match goes on
    used: list[float] = []
    written: list[tuple[int, int]] = []
    screen = ""
    for _ in range(args.reconnects):
        before = cpu()
        s = Session(hub, "seated", size)
        s.start()
        await s.first_frame
        await asyncio.sleep(0.25)
        used.append(cpu() - before)
        written.append((s.frames, s.bytes))
        screen = "/".join(type(each).__name__ for each in s.app.screen_stack)
        await close_all(hub, [s])
    later = sorted(used[1:]) or used  # the first builds the process's caches
    _print(f"{args.reconnects} reconnects to a {seats}-seat {args.game} table ({screen}): CPU "
           f"first {used[0] * 1000:.1f} ms, then median {later[len(later) // 2] * 1000:.1f} ms, "
           f"max {later[-1] * 1000:.1f} ms; written {written[-1][0]} times, {written[-1][1]:,} bytes")
    await hub.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rooms", type=int, default=2)
    parser.add_argument("--per-room", type=int, default=15)
    parser.add_argument("--game", default="sultans")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--logins", type=int, default=20)
    parser.add_argument("--cols", type=int, default=100)
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--profile", default="")
    parser.add_argument("--burst", type=int, default=0, help="also time this many logins at once")
    parser.add_argument("--burst-profile", help="cProfile of the burst to this file")
    parser.add_argument("--seated", type=int, default=1,
                        help="players at each table, the host included (the others play a Peek or pass)")
    parser.add_argument("--typers", type=int, default=0, help="watchers per room typing in the chat line, 2 keys/s")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds between entering the rooms and measuring")
    parser.add_argument("--login-profile", default="", help="cProfile of the logins (after two) to this file")
    parser.add_argument("--garbage", type=float, default=0.0,
                        help="after playing, count what this many seconds of play leave in reference cycles")
    parser.add_argument("--census", action="store_true", help="count the objects the garbage collector tracks, by type")
    parser.add_argument("--widgets", action="store_true", help="count the widgets drawn while playing")
    parser.add_argument("--reconnects", type=int, default=0,
                        help="a seated player comes back to its running table this many times")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
