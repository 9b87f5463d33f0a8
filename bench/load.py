"""Load benchmark of the SSH game host: clients in this process, the server in
another, everything on 127.0.0.1.

    ./manage bench load [--rooms 10] [--per-room 15] [--seated 5] [--typers 3]
                        [--seconds 30] [--bot-delay 1.0] [--bot-level normal] [--burst 100] [--quick]
                        [--timeline] [--py-spy FILE [--spy-phase play|burst]]

Phases (each bounded; the script stops the server and exits by itself):

1. **first screen, 1 login**: ``--single`` logins one after the other; time
   from opening the TCP connection to the lobby's host-key line in the output.
   The server's RSS after them is the memory baseline.
2. **rooms**: ``--rooms`` rooms of ``--per-room`` clients, all made through the
   screens like players do: a host creates a 15-seat room in the dialog (bot
   delay ``--bot-delay``, bots at ``--bot-level``: a level the game offers), ``--seated - 1`` players join from the lobby and
   press ``r``, the rest of the room's clients watch it (``w``); the host
   starts and bots fill the empty seats.
3. **play** for ``--seconds``: bots play; seated players play a Peek (``p``,
   Enter) on their turn and Pass (``o``, Enter) in reaction windows (each
   seated player starts looking 0-2 s after the play phase begins, seeded,
   unless ``--lockstep``: the turns that waited during the setup are not all
   played at the same instant); in each room ``--typers`` watchers type into
   the chat line at 2 keys/s (a word of 12 keys, then 12 quick backspaces;
   each typer starts 0-6 s after the others, seeded, unless ``--lockstep``).
4. **simultaneous logins**: the room clients leave; once the server has torn
   their sessions down (``TEARDOWN`` s at least: it takes their apps apart
   10 s after they ended) and is idle again (under 10% of a core in each of
   3 seconds in a row: after it has collected the garbage of the players
   that left) ``--burst`` clients connect at once; time until each sees its
   lobby.

Figures:

* **echo**: from sending one character to the chat line until the line with
  that character arrives back (the typed text so far, contiguous in the output);
  a word during which a round's result opened over the table (it takes the
  keys, as it would a person's) is counted apart, neither timed nor lost;
* **action to all screens**: from a seated player's Enter that plays a Peek
  until every *other* client of the room has received the table with the next
  turn number (``turn N/...`` in the header); p99 over (action, screen) pairs
  and over actions (the slowest screen of each). Each action is checked
  against the server's action log (played by that seat, a peek, at that time).
  A peek after which the next turn is in a new round (the round ended) is
  counted apart and not timed: that turn comes after the room's intermission;
* **memory per session**: server RSS (``/proc/PID/status`` VmRSS) with all room
  clients at their tables, minus the baseline, divided by the clients.

Targets (2 cores): first screen <= 100 ms; 100 simultaneous logins <= 2 s;
echo p99 <= 100 ms; action to all screens p99 <= 250 ms; <= 2 MB per session.
The client process also uses CPU (one asyncssh connection per player), so on
2 cores the figures include its share; the client's own event-loop lag is
printed next to them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sshclients import (
    LOAD_LIMITS,
    BenchClient,
    BenchError,
    ServerUnderTest,
    machine_speed,
    make_key,
    percentile,
)

from engine.api import BOT_LEVELS, DEFAULT_BOT_LEVEL
from server.sshlib import asyncssh  # (set up once, without DSA)

T = TypeVar("T")

HEADER = re.compile(r"Round (\d+)/\d+ · turn (\d+)/\d+")
NOW = re.compile(r"Now: ([^\x1b\r\n]*)|Nothing to do now|You are dead")
ESC = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RESULT = re.compile(r"Round \d+ result|Match result")  # a result over the table, where the chat was

TARGETS = {
    "first": 0.100,
    "burst": 2.0,
    "echo": 0.100,
    "action": 0.250,
    "mem": 2.0,
}


# -- per-client bookkeeping ------------------------------------------------------


@dataclass
class Player:
    client: BenchClient
    room: int
    role: str  # "host" | "seated" | "watcher"
    typer: bool = False
    turns: list[tuple[float, tuple[int, int]]] = field(default_factory=list)
    """(time first seen, (round, turn)) for every header this client received."""
    now_line: str = ""
    now_at: float = 0.0
    key: tuple[int, int] = (0, 0)
    key_at: float = 0.0
    acted_key: tuple[int, int] | None = None
    pending_echoes: list[tuple[str, int, float]] = field(default_factory=list)
    """(text typed so far, output index when sent, time sent) of keys not echoed yet."""
    echoes: list[float] = field(default_factory=list)
    echo_sent: list[float] = field(default_factory=list)  # when each of ``echoes`` was typed
    lost_echoes: int = 0
    results_seen: int = 0
    """Times a round's or the match's result was drawn over this client's table."""
    results_at: list[float] = field(default_factory=list)  # when each of them came
    covered_keys: int = 0
    """Keys typed in a word during which a result covered the chat line: not timed,
    not lost (they went to the result, as a person's would)."""

    def watch(self) -> None:
        self.client.watchers.append(self._on_output)

    def _on_output(self, client: BenchClient, start: int, at: float) -> None:
        new = client.since(max(client.offset, start - 48))
        for m in HEADER.finditer(new):
            key = (int(m.group(1)), int(m.group(2)))
            if key != self.key:
                self.key, self.key_at = key, at
                self.turns.append((at, key))
        if RESULT.search(new):
            self.results_seen += 1
            self.results_at.append(at)
        found = list(NOW.finditer(new))
        if found:
            last_now = found[-1]
            self.now_line, self.now_at = last_now.group(0), at
        if self.pending_echoes:
            # a key is echoed when the line shows the text typed up to it (or further:
            # a busy server may draw several keys in one frame)
            still = []
            for typed, index, sent in self.pending_echoes:
                if typed in client.since(index):
                    self.echoes.append(at - sent)
                    self.echo_sent.append(sent)
                else:
                    still.append((typed, index, sent))
            self.pending_echoes = still


@dataclass
class Action:
    player: Player
    key: tuple[int, int]
    sent: float  # monotonic
    wall: float  # time.time() when sent


# -- helpers ---------------------------------------------------------------------------


async def bounded(coro: Awaitable[T], seconds: float, what: str) -> T:
    try:
        return await asyncio.wait_for(coro, timeout=seconds)
    except TimeoutError as err:
        raise BenchError(f"{what}: no result within {seconds}s") from err


async def login(server: ServerUnderTest, key: asyncssh.SSHKey, name: str, cols: int = 100, rows: int = 30) -> tuple[BenchClient, float]:
    """Connect and wait for the lobby; returns the client and seconds to its first screen."""
    client = BenchClient(name, cols=cols, rows=rows)
    await client.connect(server.port, key)
    seen = await client.wait_for(server.fingerprint, timeout=30)
    return client, seen - client.started


async def loop_lag(stop: asyncio.Event, out: list[float]) -> None:
    """How late this (client) process's event loop wakes up, every 50 ms."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(0.05)
        out.append(time.monotonic() - t - 0.05)


def own_cpu() -> float:
    """CPU seconds this process has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


# -- phases ------------------------------------------------------------------------------


async def phase_single(server: ServerUnderTest, key: asyncssh.SSHKey, n: int) -> list[float]:
    times = []
    for i in range(n):
        client, seconds = await login(server, key, f"solo{i}")
        times.append(seconds)
        await client.close()
        await asyncio.sleep(0.2)
    return times


async def phase_burst(server: ServerUnderTest, key: asyncssh.SSHKey, n: int) -> tuple[list[float], float]:
    t0 = time.monotonic()
    results = await bounded(
        asyncio.gather(*(login(server, key, f"burst{i}") for i in range(n))), 60, "burst logins"
    )
    wall = time.monotonic() - t0
    await asyncio.gather(*(c.close() for c, _ in results))
    return [s for _, s in results], wall


async def create_room(
    host: BenchClient, name: str, seats: int, bot_delay: float, turn_timer: int = 10, window_timer: int = 5,
    bot_level: str = DEFAULT_BOT_LEVEL,
) -> None:
    """``c``, the dialog's fields one by one, Enter; again if the form was refused.

    Each key waits for the screen's answer: keys that arrive in one burst right
    after a Tab can land in the field that had the focus before (see the report)."""
    for attempt in range(3):
        try:
            mark = host.end
            await host.settled("c")
            await host.wait_for("Room name", after=mark, timeout=10)
            for ch in name:
                await host.settled(ch, quiet=0.02)
            # seats, rounds, turn timer, reaction timer, bot delay (the dialog's focus order)
            for value in (seats, 15, turn_timer, window_timer, f"{bot_delay:g}"):
                for key in ("\t", "\x01", "\x0b", *str(value)):
                    await host.settled(key, quiet=0.04)
            if bot_level != DEFAULT_BOT_LEVEL:
                await choose_bot_level(host, bot_level)
            mark = host.end
            host.send("\r")
            await host.wait_for(f"Seats 1/{seats}", after=mark, timeout=10)
            if bot_level != DEFAULT_BOT_LEVEL:
                await host.wait_for(f"bots {bot_level}", after=mark, timeout=10)  # the room's summary line
            if attempt:
                print(f"{host.name}: room {name} made at attempt {attempt + 1}", flush=True)
            return
        except BenchError as err:
            print(f"{host.name}: attempt {attempt + 1} to make room {name} failed: {str(err).splitlines()[0]}",
                  flush=True)
            host.send("\x1b")  # close the dialog if it is open, try again
            await asyncio.sleep(1.0)
    raise BenchError(f"{host.name}: could not create room {name}\n{host.screen()}")


# Tabs from the bot delay to the bot level in a Sultans room's dialog: between rounds, the
# match mode, the turn limit, the notebook, strict windows, the window minimum (first-to is
# hidden while the match is a count of rounds)
BOT_LEVEL_TABS = 7


async def choose_bot_level(host: BenchClient, level: str) -> None:
    """From the bot delay field: Tab to the level drop-down (the rows between are
    the Sultans rows of the dialog's focus order), open it and move from the
    default to ``level`` (the drop-down lists ``BOT_LEVELS`` in order)."""
    for _ in range(BOT_LEVEL_TABS):
        await host.settled("\t", quiet=0.04)
    await host.settled("\r", quiet=0.1)
    step = [str(lv) for lv in BOT_LEVELS].index(level) - BOT_LEVELS.index(DEFAULT_BOT_LEVEL)
    for _ in range(abs(step)):
        await host.settled("\x1b[B" if step > 0 else "\x1b[A", quiet=0.04)
    await host.settled("\r", quiet=0.1)
    await host.settled("\t", quiet=0.04)  # off the drop-down: Enter there would open it, not make the room


ROOMS_TITLE = re.compile(r"Rooms \((\d+)\)")


async def enter_room(player: Player, row: int, room_name: str, watch: bool) -> None:
    """From the lobby: the cursor down to ``row`` (rooms are listed in the order
    they were made), then Enter (join, then ``r``) or ``w`` (watch)."""
    client = player.client

    def listed() -> bool:
        counts = [int(m.group(1)) for m in ROOMS_TITLE.finditer(client.text)]
        return bool(counts) and counts[-1] > row

    await client.wait_until(listed, what=f"{row + 1} rooms listed", timeout=30)
    await asyncio.sleep(0.2)
    for _ in range(row):
        await client.settled("\x1b[B", quiet=0.03)
    mark = client.end
    if watch:
        client.send("w")
        await client.wait_for("You are watching.", after=mark, timeout=20)
    else:
        client.send("\r")
        await client.wait_for("Press r when you are ready", after=mark, timeout=20)
    if not re.search(re.escape(room_name) + r"(?:\x1b\[[0-9;]*m)*\s*·", client.since(mark)):
        raise BenchError(f"{client.name}: entered another room than {room_name}\n{client.screen()}")
    if not watch:
        mark = client.end
        client.send("r")
        await client.wait_for("You are ready.", after=mark, timeout=20)


async def setup_room(
    server: ServerUnderTest, key: asyncssh.SSHKey, index: int, args: argparse.Namespace,
    created: asyncio.Event, previous: asyncio.Event | None,
) -> list[Player]:
    """One room: the host makes it (after the previous room exists, so rows keep
    their order), the others join or watch, the host starts."""
    name = f"Bench{index:02d}"
    host_client, _ = await login(server, key, f"r{index:02d}host")
    host = Player(host_client, index, "host")
    if previous is not None:
        await previous.wait()
    await create_room(host_client, name, args.per_room, args.bot_delay, args.turn_timer, args.window_timer,
                      args.bot_level)
    created.set()
    others: list[Player] = []
    logins = await asyncio.gather(
        *(login(server, key, f"r{index:02d}p{j:02d}") for j in range(1, args.per_room))
    )
    for j, (client, _) in enumerate(logins, start=1):
        role = "seated" if j < args.seated else "watcher"
        others.append(Player(client, index, role, typer=role == "watcher" and j >= args.per_room - args.typers))
    seated = [p for p in others if p.role == "seated"]
    watchers = [p for p in others if p.role == "watcher"]
    await asyncio.gather(*(enter_room(p, index, name, watch=False) for p in seated))
    await host_client.wait_for(f"Seats {args.seated}/{args.per_room}", timeout=20)
    await asyncio.gather(*(enter_room(p, index, name, watch=True) for p in watchers))
    everyone = [host, *others]
    for p in everyone:
        p.watch()
    for _attempt in range(20):
        mark = host_client.end
        host_client.send("s")
        try:
            await host_client.wait_for(HEADER, after=mark, timeout=2)
            break
        except BenchError:
            continue
    else:
        raise BenchError(f"room {name} did not start")
    await asyncio.gather(*(p.client.wait_for(HEADER, timeout=20) for p in everyone))
    return everyone


# -- playing ----------------------------------------------------------------------------


async def seated_loop(player: Player, actions: list[Action], stop: asyncio.Event, offset: float = 0.0) -> None:
    """Play a Peek on one's turn, Pass in a window; otherwise wait (timers exist).
    ``offset`` delays the first look at the screen: the turns that waited for
    the seated players during the setup are not all answered at the same instant."""
    client = player.client
    await asyncio.sleep(offset)
    while not stop.is_set():
        await asyncio.sleep(0.05)
        now = time.monotonic()
        if now - max(player.key_at, player.now_at) < 0.15:
            continue  # let the frame arrive whole
        if player.acted_key == player.key:
            continue
        line = player.now_line
        if "p Peek" in line:
            client.send("p")
            await asyncio.sleep(0.1)
            if player.acted_key == player.key or stop.is_set():
                continue
            key = player.key
            actions.append(Action(player, key, time.monotonic(), time.time()))
            client.send("\r")
            player.acted_key = key
        elif "o Pass" in line:
            client.send("o")
            await asyncio.sleep(0.1)
            client.send("\r")
            player.acted_key = player.key


async def typer_loop(player: Player, stop: asyncio.Event, rate: float, offset: float = 0.0) -> None:
    """Type into the chat line at ``rate`` keys/s; each key's echo is timed (keys
    whose echo has not come 3 s after the last key of a word count as lost).
    A word, its echo and its 12 quick backspaces take ~6 s; ``offset`` delays
    the first word so typers are not all in the same phase of it."""
    client = player.client
    client.send("t")
    await asyncio.sleep(0.5 + offset)
    letters = "qwertyuiop"
    while not stop.is_set():
        client.send("ZX")
        await asyncio.sleep(0.4)
        typed = "ZX"
        results = player.results_seen
        for ch in letters:
            if stop.is_set():
                break
            typed += ch
            player.pending_echoes.append((typed, client.end, time.monotonic()))
            client.send(ch)
            await asyncio.sleep(1.0 / rate)
        deadline = time.monotonic() + 3.0
        while player.pending_echoes and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if player.results_seen != results:  # a round ended: its result took the keys
            player.covered_keys += len(player.pending_echoes)
        else:
            player.lost_echoes += len(player.pending_echoes)
        player.pending_echoes = []
        for _ in range(len(typed)):
            client.send("\x7f")
            await asyncio.sleep(0.03)
        await asyncio.sleep(0.3)


def print_timeline(samples: list[tuple[float, float]], t0: float) -> None:
    """The echoes typed in each second of play: count, slowest, and how many
    took over 100 ms (monotonic ``t0`` = the start of play)."""
    by_second: dict[int, list[float]] = {}
    for sent, took in samples:
        by_second.setdefault(int(sent - t0), []).append(took)
    for second in sorted(by_second):
        took = by_second[second]
        slow = sum(1 for x in took if x > 0.1)
        print(f"  play +{second:3d} s: {len(took):3d} echoes, slowest {max(took) * 1000:6.0f} ms, "
              f"{slow:3d} over 100 ms", flush=True)


def seats_by_name(db: Path) -> dict[str, tuple[int, int]]:
    """name -> (match id, seat) for every match in the server's database."""
    out: dict[str, tuple[int, int]] = {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        for mid, seats in con.execute("SELECT id, seats FROM matches"):
            for i, s in enumerate(json.loads(seats)):
                out[s["name"]] = (int(mid), i)
    finally:
        con.close()
    return out


def logged_actions(db: Path) -> list[tuple[int, int | None, str, float]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [
            (int(m), s, str(t), float(a))
            for m, s, t, a in con.execute("SELECT match_id, seat, text, at FROM actions WHERE kind='action'")
        ]
    finally:
        con.close()


@dataclass
class ActionResult:
    per_screen: list[float]
    per_action: list[float]
    apply_delay: list[float]  # key sent -> action logged by the server
    unconfirmed: int
    missed_screens: int
    ended_round: int = 0  # actions after which the next turn was in a new round (not timed)
    timed: list[tuple[float, float, float, int]] = field(default_factory=list)
    """(sent, slowest screen, Enter -> logged, room) of each action in ``per_action``."""


def score_actions(actions: list[Action], rooms: list[list[Player]], db: Path) -> ActionResult:
    seats = seats_by_name(db)
    log = logged_actions(db)
    per_screen: list[float] = []
    per_action: list[float] = []
    apply_delay: list[float] = []
    unconfirmed = missed = ended_round = 0
    timed: list[tuple[float, float, float, int]] = []
    for act in actions:
        me = seats.get(act.player.client.name)
        hit = None
        if me is not None:
            for mid, seat, text, at in log:
                if mid == me[0] and seat == me[1] and text.startswith("peek") and act.wall - 0.05 <= at <= act.wall + 2.0:
                    hit = at
                    break
        if hit is None:
            unconfirmed += 1
            continue
        apply_delay.append(hit - act.wall)
        others = [other for other in rooms[act.player.room] if other is not act.player]
        firsts = [next(((t, k) for t, k in other.turns if t >= act.sent and k > act.key), None) for other in others]
        if any(first is not None and first[1][0] != act.key[0] for first in firsts):
            # the peek ended the round (S-SUL-3: the crown fires when the turn passes on): the
            # next turn comes after the room's intermission, which is not the screens' delay
            ended_round += 1
            continue
        slowest = 0.0
        complete = True
        for first in firsts:
            if first is None or first[0] - act.sent > 5.0:
                missed += 1
                complete = False
                continue
            per_screen.append(first[0] - act.sent)
            slowest = max(slowest, first[0] - act.sent)
        if complete:
            per_action.append(slowest)
            timed.append((act.sent, slowest, hit - act.wall, act.player.room))
    return ActionResult(per_screen, per_action, apply_delay, unconfirmed, missed, ended_round, timed)


# -- main ------------------------------------------------------------------------------


TEARDOWN = 12.0
"""Seconds the server takes, at least, to tear down sessions that ended: it
takes an ended session's App apart 10 s after its end (``tui.runtime.retire``
``RETIRE_AFTER``), and collects what is left once idle (``server.heap``)."""


async def wait_quiet(server: ServerUnderTest, limit: float = 60.0, quiet_for: int = 3, after: float = 0.0) -> float:
    """Wait (at most ``limit``) until, ``after`` seconds from now at the
    earliest, the server used < 10% of a core in each of ``quiet_for`` seconds
    in a row; the seconds waited. The burst after the players left waits
    ``TEARDOWN`` and then three such seconds: their sessions are torn down and
    the idle server collected their garbage (server/heap.py), and the logins
    are timed after that, not against it."""
    start = time.monotonic()
    quiet = 0
    while time.monotonic() - start < limit:
        before = server.cpu_seconds()
        await asyncio.sleep(1.0)
        quiet = quiet + 1 if server.cpu_seconds() - before < 0.1 else 0
        if quiet >= quiet_for and time.monotonic() - start >= after:
            break
    return time.monotonic() - start


def server_pauses(log: str) -> dict[str, tuple[int, float]]:
    """Slow garbage collections and late event-loop ticks the server logged
    (server/health.py; at most one line per kind per 10 s): count, longest."""
    found: dict[str, tuple[int, float]] = {}
    for kind, rx in (("gc", r"slow garbage collection: generation \d+ took ([\d.]+) s"),
                     ("lag", r"event loop late by ([\d.]+) s")):
        seconds = [float(m.group(1)) for m in re.finditer(rx, log)]
        found[kind] = (len(seconds), max(seconds, default=0.0))
    return found


def start_py_spy(pid: int, out: str, seconds: float) -> subprocess.Popen[bytes]:
    """Sample the server with py-spy (``pip install py-spy`` into .venv; a profiling
    aid, not a dependency) for ``seconds``, raw collapsed stacks into ``out``."""
    exe = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen(
        [str(exe if exe.exists() else "py-spy"), "record", "-p", str(pid), "-o", out, "-f", "raw",
         "-r", "100", "-d", str(max(1, int(seconds))), "--nonblocking"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def top_functions(path: Path, count: int = 30) -> str:
    """Inclusive share of samples per function (file:function) from py-spy's raw output."""
    inclusive: dict[str, int] = {}
    total = 0
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit() or "_worker (" in stack:
            continue  # idle executor threads
        samples = int(count_text)
        total += samples
        seen: set[str] = set()
        for frame in stack.split(";"):
            m = re.match(r"(.*?) \((?:.*/)?([^/:]+)(?::\d+)?\)$", frame)
            key = f"{m.group(2)}:{m.group(1)}" if m else frame
            if key not in seen:
                seen.add(key)
                inclusive[key] = inclusive.get(key, 0) + samples
    lines = [f"py-spy: {total} samples of the server's main thread, inclusive share:"]
    for key, hits in sorted(inclusive.items(), key=lambda kv: -kv[1])[:count]:
        lines.append(f"  {hits / max(total, 1) * 100:5.1f}%  {key}")
    return "\n".join(lines)


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="ascii").split()[:3])
    except OSError:
        return "?"


async def run(args: argparse.Namespace) -> int:
    config = LOAD_LIMITS + "[rooms]\nintermission = 3\ngrace_period = 60\n"
    server = ServerUnderTest(bot_delay=args.bot_delay, config=config)
    server.start()
    key = make_key()
    lag: list[float] = []
    stop_lag = asyncio.Event()
    lag_task = asyncio.create_task(loop_lag(stop_lag, lag))
    rows: list[tuple[str, str, str, str]] = []
    rooms: list[list[Player]] = []
    load_before = load_average()
    try:
        rss_start = server.rss_kib()
        print(f"server pid {server.pid} on 127.0.0.1:{server.port}, RSS at start {rss_start / 1024:.1f} MiB; "
              f"load average {load_before}", flush=True)

        # 1. one login at a time
        single = await bounded(phase_single(server, key, args.single), 60, "single logins")
        med = percentile(single, 50)
        rows.append((f"first screen, 1 login (median of {len(single)})", fmt_ms(med),
                     f"<= {fmt_ms(TARGETS['first'])}", "ok" if med <= TARGETS["first"] else "MISSED"))
        rows.append(("  ... each", " ".join(f"{s * 1000:.0f}" for s in single) + " ms", "", ""))
        print("single logins:", " ".join(fmt_ms(s) for s in single), flush=True)

        # 2. rooms of players, at their tables (memory per session)
        await asyncio.sleep(1.0)
        rss_base = server.rss_kib()
        t_setup = time.monotonic()
        created = [asyncio.Event() for _ in range(args.rooms)]
        rooms = list(await bounded(
            asyncio.gather(*(
                setup_room(server, key, i, args, created[i], created[i - 1] if i else None)
                for i in range(args.rooms)
            )),
            args.rooms * 30 + 90,
            "room setup",
        ))
        players = [p for room in rooms for p in room]
        print(f"{time.strftime('%H:%M:%S')} {len(players)} clients at {args.rooms} tables after "
              f"{time.monotonic() - t_setup:.1f}s of setup", flush=True)
        await asyncio.sleep(2.0)
        rss_tables = server.rss_kib()

        # 3. play: bots, seated players' actions, typing watchers
        stop = asyncio.Event()
        actions: list[Action] = []
        lag.clear()
        cpu0, t0, wall0 = server.cpu_seconds(), time.monotonic(), time.time()
        stagger = random.Random(1) if args.stagger else None  # the same offsets on every run
        tasks = [
            asyncio.create_task(seated_loop(p, actions, stop, stagger.uniform(0.0, 2.0) if stagger else 0.0))
            for p in players if p.role in ("host", "seated")
        ]
        tasks += [
            asyncio.create_task(typer_loop(p, stop, args.rate, stagger.uniform(0.0, 6.0) if stagger else 0.0))
            for p in players if p.typer
        ]
        spying = args.py_spy and args.spy_phase == "play"
        spy = start_py_spy(server.pid, args.py_spy, min(args.seconds, 20.0)) if spying else None
        print(f"{time.strftime('%H:%M:%S')} play for {args.seconds:g} s", flush=True)
        await asyncio.sleep(args.seconds)
        rss_play = server.rss_kib()
        cpu = (server.cpu_seconds() - cpu0) / (time.monotonic() - t0)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(1.0)  # the last actions' screens
        play_lag = list(lag)
        if spy is not None:
            spy.wait(timeout=30)
            print(top_functions(Path(args.py_spy)), flush=True)
        db = server.folder / "data" / "throneroom.db"
        result = score_actions(actions, rooms, db)
        logged = [a for a in logged_actions(db) if wall0 <= a[3] <= wall0 + args.seconds]

        echoes = [e for p in players for e in p.echoes]
        if args.timeline:
            print_timeline([(t, e) for p in players for t, e in zip(p.echo_sent, p.echoes, strict=True)], t0)
            for index, room_players in enumerate(rooms):
                # a result opens over a room's every screen at once: when the first of them showed it
                opened = sorted({round(t - t0, 1) for p in room_players for t in p.results_at})
                firsts = [t for i, t in enumerate(opened) if i == 0 or t - opened[i - 1] > 2.0]
                if firsts:
                    print(f"  room {index}: a result opened at play " + ", ".join(f"+{t:.1f} s" for t in firsts), flush=True)
            for sent, slowest, applied, room in sorted(result.timed):
                if slowest > 0.25:
                    print(f"  action at play +{sent - t0:5.1f} s in room {room}: all screens after "
                          f"{slowest * 1000:.0f} ms (logged after {applied * 1000:.0f} ms)", flush=True)
        lost = sum(p.lost_echoes for p in players)
        typers = sum(1 for p in players if p.typer)
        if echoes:
            p99 = percentile(echoes, 99)
            rows.append((f"echo p50 / p99 ({len(echoes)} keys, {typers} typing at {args.rate:g}/s)",
                         f"{fmt_ms(percentile(echoes, 50))} / {fmt_ms(p99)}",
                         f"p99 <= {fmt_ms(TARGETS['echo'])}", "ok" if p99 <= TARGETS["echo"] else "MISSED"))
        else:
            rows.append(("echo", "no echo measured", "", "MISSED"))
        if echoes:
            rows.append((f"  ... p90 / p95; typers {'staggered over 6 s' if args.stagger else 'in lockstep'}",
                         f"{fmt_ms(percentile(echoes, 90))} / {fmt_ms(percentile(echoes, 95))}", "", ""))
        rows.append(("  ... keys whose echo did not come within 3 s (not in the p50/p99)", str(lost), "", ""))
        covered = sum(p.covered_keys for p in players)
        rows.append(("  ... keys typed while a round's result covered the chat (not timed)", str(covered), "", ""))
        if result.per_screen:
            p99 = percentile(result.per_screen, 99)
            rows.append((f"action -> all screens p99, per screen ({len(result.per_screen)})", fmt_ms(p99),
                         f"<= {fmt_ms(TARGETS['action'])}", "ok" if p99 <= TARGETS["action"] else "MISSED"))
            rows.append(("  ... p50 per screen", fmt_ms(percentile(result.per_screen, 50)), "", ""))
        else:
            rows.append(("action -> all screens", "no action measured", "", "MISSED"))
        if result.per_action:
            rows.append((f"  ... p50 / p99 of the slowest screen per action ({len(result.per_action)})",
                         f"{fmt_ms(percentile(result.per_action, 50))} / {fmt_ms(percentile(result.per_action, 99))}", "", ""))
        if result.apply_delay:
            rows.append(("  ... Enter -> action in the server's log, p50 / p99",
                         f"{fmt_ms(percentile(result.apply_delay, 50))} / {fmt_ms(percentile(result.apply_delay, 99))}", "", ""))
        rows.append(("  ... actions not found in the log / screens that never showed it",
                     f"{result.unconfirmed} / {result.missed_screens}", "", ""))
        rows.append(("  ... actions that ended a round (next turn after the intermission: not timed)",
                     str(result.ended_round), "", ""))
        per_session = (rss_tables - rss_base) / 1024 / len(players)
        rows.append((f"memory per session ({len(players)} at tables)", f"{per_session:.2f} MB",
                     f"<= {TARGETS['mem']:.0f} MB", "ok" if per_session <= TARGETS["mem"] else "MISSED"))
        rows.append(("  ... server RSS start / base / at tables / after play",
                     f"{rss_start / 1024:.0f} / {rss_base / 1024:.0f} / {rss_tables / 1024:.0f} / {rss_play / 1024:.0f} MiB", "", ""))
        rows.append(("  ... server CPU while playing", f"{cpu * 100:.0f}% of a core", "", ""))
        rows.append(("  ... actions logged per second (all rooms)", f"{len(logged) / args.seconds:.1f}", "", ""))
        if play_lag:
            rows.append(("  ... client loop lag while playing, p50 / p99 (this process)",
                         f"{fmt_ms(percentile(play_lag, 50))} / {fmt_ms(percentile(play_lag, 99))}", "", ""))

        # 4. everyone leaves; then a burst of simultaneous logins
        await asyncio.gather(*(p.client.close() for p in players), return_exceptions=True)
        rooms = []
        if args.burst > 0:  # --burst 0: play only
            quiet_after = await wait_quiet(server, after=TEARDOWN)  # the 150 sessions' teardown is not the logins' cost
            spy = start_py_spy(server.pid, args.py_spy, 4.0) if args.py_spy and args.spy_phase == "burst" else None
            if spy is not None:
                await asyncio.sleep(1.0)  # py-spy attached
            speed = machine_speed()  # this process: the server is idle, the clients have left
            server0, own0 = server.cpu_seconds(), own_cpu()
            burst, wall = await phase_burst(server, key, args.burst)
            server_cpu, own = server.cpu_seconds() - server0, own_cpu() - own0
            if spy is not None:
                spy.wait(timeout=30)
                print(top_functions(Path(args.py_spy)), flush=True)
            worst = max(burst)
            rows.append((f"{args.burst} simultaneous logins: all served", fmt_ms(worst),
                         f"<= {TARGETS['burst']:.0f} s", "ok" if worst <= TARGETS["burst"] else "MISSED"))
            rows.append((f"  ... p50 / p99 of the {args.burst}",
                         f"{fmt_ms(percentile(burst, 50))} / {fmt_ms(percentile(burst, 99))}", "", ""))
            rows.append(("  ... CPU meanwhile: server / the clients (this process)",
                         f"{server_cpu:.2f} s / {own:.2f} s", "", ""))
            rows.append(("  ... machine speed just before (bench/sultans_speed.py's playouts, 0.5 s)",
                         f"{speed:,.0f} actions/s", "", ""))
            rows.append((f"  ... started once the server was idle (< 10% CPU, 3 s in a row; {TEARDOWN:.0f} s at least) after the rooms left",
                         f"{quiet_after:.1f} s later", "", ""))
            print(f"{time.strftime('%H:%M:%S')} burst: {args.burst} logins, slowest {fmt_ms(worst)}, wall {fmt_ms(wall)}", flush=True)
    except BaseException:
        print("--- server log tail ---\n" + server.log_tail(40), file=sys.stderr)
        raise
    finally:
        stop_lag.set()
        await lag_task
        await asyncio.gather(*(p.client.close() for room in rooms for p in room), return_exceptions=True)
        tracebacks = server.log_text().count("Traceback")
        code = server.stop()
        rows.append(("  ... server exit code / tracebacks in its log", f"{code} / {tracebacks}", "", ""))
        pauses = server_pauses(server.log_text())
        rows.append(("  ... pauses the server logged: slow collections / loop late (longest)",
                     f"{pauses['gc'][0]} ({pauses['gc'][1]:.2f} s) / {pauses['lag'][0]} ({pauses['lag'][1]:.2f} s)",
                     "", ""))
        rows.append(("  ... machine load average before / after (2 cores shared)",
                     f"{load_before} / {load_average()}", "", ""))
        if tracebacks:  # the first one, with the line that logged it
            text = server.log_text()
            first = text.index("Traceback")
            print("--- the server's first traceback ---\n" + text[text.rfind("\n", 0, first - 1) + 1:][:4000], file=sys.stderr)
            kept = Path(tempfile.mkstemp(prefix="throneroom-bench-server-", suffix=".log")[1])
            kept.write_text(text, encoding="utf-8")
            print(f"--- the whole server log: {kept}", file=sys.stderr)
        for line in server.log_text().splitlines():
            if "throneroom.health" in line or "throneroom.heap" in line:
                print("server:", line, flush=True)
        server.cleanup()

    width = max(len(r[0]) for r in rows)
    print()
    print(f"{'measure':<{width}}  {'value':>24}  {'target':>14}  result")
    print("-" * (width + 52))
    for name, value, target, verdict in rows:
        print(f"{name:<{width}}  {value:>24}  {target:>14}  {verdict}")
    return 0 if all(r[3] in ("", "ok") for r in rows) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--per-room", type=int, default=15, help="clients per room (and seats)")
    parser.add_argument("--seated", type=int, default=5, help="players who sit per room (host included)")
    parser.add_argument("--typers", type=int, default=3, help="watchers per room typing in the chat line")
    parser.add_argument("--rate", type=float, default=2.0, help="keys per second per typer")
    parser.add_argument("--lockstep", dest="stagger", action="store_false",
                        help="all typers and seated players start together (default: typers 0-6 s later, "
                             "seated players 0-2 s, seeded)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the play phase")
    parser.add_argument("--bot-delay", type=float, default=1.0)
    parser.add_argument("--bot-level", default=DEFAULT_BOT_LEVEL, choices=BOT_LEVELS,
                        help="the rooms' bot level (strong: the bots search in the server's thinking pool)")
    parser.add_argument("--turn-timer", type=int, default=10, help="room turn timer, s (0: off)")
    parser.add_argument("--window-timer", type=int, default=5, help="room reaction timer, s (0: off)")
    parser.add_argument("--single", type=int, default=5, help="one-at-a-time logins")
    parser.add_argument("--burst", type=int, default=100, help="simultaneous logins")
    parser.add_argument("--py-spy", metavar="FILE", default="",
                        help="sample the server with py-spy during play (raw stacks to FILE; prints a summary)")
    parser.add_argument("--spy-phase", choices=("play", "burst"), default="play",
                        help="what --py-spy samples: 20 s of play, or the simultaneous logins (4 s)")
    parser.add_argument("--timeline", action="store_true",
                        help="print the slowest echo of each second of play (where the tail comes from)")
    parser.add_argument("--quick", action="store_true", help="2 rooms of 6, 10 s, burst of 20 (a smoke run)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rooms, args.per_room, args.seated, args.typers = 2, 6, 3, 1
        args.seconds, args.burst, args.single = 10.0, 20, 3
    if not 5 <= args.per_room <= 15 or not 1 <= args.seated <= args.per_room:
        parser.error("--per-room must be 5..15 and --seated 1..per-room")
    args.typers = min(args.typers, args.per_room - args.seated)
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
