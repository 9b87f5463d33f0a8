"""Attacks on the SSH host (issue 45, findings 1-5), each at a bounded size
against a fresh server with its default limits, while a canary player types
in the lobby: the server in its own process, everything on 127.0.0.1.

    ./manage bench attack [--seconds 5] [--only NAME ...]

The attacker connects from 127.0.0.1 (and 127.0.0.10-29 where it needs many
sources), the canary from 127.0.0.2, and a normal player logs in from
127.0.0.3 three times during each attack (a lobby within 10 s, one retry a
second later, as a player would). Printed per attack: the canary's echo
p50 / p99 / max (a key every 0.1 s into the lobby's chat line, typed during
the attack; keys not echoed within 3 s count as lost), the server's RSS
before the attack, 3 s after it ended and its peak, the server's CPU during
it (share of one core), the normal logins that got in, and what the attacker
saw. Targets per row: p99 <= 100 ms, max <= 250 ms, RSS after within 10 % of
before, every normal login in. Other load on the machine shows in the
figures: rerun a row with ``--only`` to tell.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import re
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import asyncssh
from sshclients import BenchClient, BenchError, ServerUnderTest, make_key, percentile

ATTACKER, CANARY, PLAYER = "127.0.0.1", "127.0.0.2", "127.0.0.3"
TARGETS = {"p99": 0.100, "max": 0.250, "rss": 0.10}
FULL_COLLECTION = re.compile(r"full collection \((?!start-up)[^)]*\):[^\n]*; (\d+\.\d+) s")


@dataclass
class Context:
    port: int
    fingerprint: str
    key: asyncssh.SSHKey
    seconds: float
    notes: list[str] = field(default_factory=list)
    closers: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    def until(self) -> float:
        return time.monotonic() + self.seconds

    async def session(self, name: str, source: str = ATTACKER, cols: int = 80, rows: int = 24) -> BenchClient:
        client = BenchClient(name, cols=cols, rows=rows)
        await client.connect(self.port, make_key(), source=source)  # a key of its own: a key owns few names
        await client.wait_for(self.fingerprint, timeout=20)
        self.closers.append(client.close)
        return client


async def _paced(client: BenchClient, chunk: bytes, per_second: float, ctx: Context) -> int:
    """Send ``chunk`` ``per_second`` times a second until the attack ends; bytes sent."""
    sent, end = 0, ctx.until()
    while time.monotonic() < end and not client.closed:
        client.send_bytes(chunk)
        sent += len(chunk)
        await asyncio.sleep(1 / per_second)
    return sent


# -- the attacks (finding numbers of issue 45) ----------------------------------------


async def no_attack(ctx: Context) -> None:
    """No attack: the canary and the normal logins alone, for the machine's noise."""
    await asyncio.sleep(ctx.seconds)


async def inband_resize(ctx: Context) -> None:
    """1: ESC[48;20000;20000;200000;200000t, alternating with 80x24, every 50 ms."""
    client = await ctx.session("resizer")
    end, n = ctx.until(), 0
    while time.monotonic() < end and not client.closed:
        client.send_bytes(b"\x1b[48;20000;20000;200000;200000t" if n % 2 == 0 else b"\x1b[48;24;80;0;0t")
        n += 1
        await asyncio.sleep(0.05)
    ctx.notes.append(f"{n} in-band resizes")


async def window_changes(ctx: Context) -> None:
    """1: window-change requests 1000x1000 / 80x24, every 20 ms."""
    client = await ctx.session("winch")
    end, n = ctx.until(), 0
    while time.monotonic() < end and not client.closed:
        client.resize(*((1000, 1000) if n % 2 == 0 else (80, 24)))
        n += 1
        await asyncio.sleep(0.02)
    ctx.notes.append(f"{n} window changes")


async def zero_pixels_then_mouse(ctx: Context) -> None:
    """1: a zero pixel size, then mouse reports at 26 KB/s."""
    client = await ctx.session("pixels")
    client.send_bytes(b"\x1b[48;24;80;0;0t")
    sent = await _paced(client, b"\x1b[<0;5;2M\x1b[<0;5;2m" * 110, 10, ctx)
    ctx.notes.append(f"{sent // 1024} KB of mouse reports")


async def key_flood(ctx: Context) -> None:
    """2: keys at 30 KB/s (inside the input budget), for 12 s."""
    client = await ctx.session("flooder")
    client.send("t")
    sent = await _paced(client, b"abcdefghij" * 300, 10, ctx)
    said = "closed with the flood message" if "faster than the game" in client.text else "not closed"
    ctx.notes.append(f"{sent // 1024} KB of keys; {said}")


async def long_csi(ctx: Context) -> None:
    """2: ESC[ and 100,000 digits, every second."""
    client = await ctx.session("csi")
    client.send("t")
    sent = await _paced(client, b"\x1b[" + b"1" * 100_000 + b"u", 1, ctx)
    ctx.notes.append(f"{sent // 1024} KB of CSI parameters")


async def mouse_burst(ctx: Context) -> None:
    """2: 40,000 mouse reports at once, then again every 2 s."""
    client = await ctx.session("mouse")
    sent = await _paced(client, b"\x1b[<0;5;2M" * 40_000, 0.5, ctx)
    ctx.notes.append(f"{sent // 1024} KB of mouse reports")


async def big_paste(ctx: Context) -> None:
    """3: a 200 KB paste, then a paste that never ends; keys typed after each must echo."""
    client = await ctx.session("paster")
    client.send("t")
    await asyncio.sleep(0.3)
    heard = []
    for paste, wait in ((b"\x1b[200~" + b"pasted " * 30_000 + b"\x1b[201~", 1.0), (b"\x1b[200~never ends", 6.0)):
        client.send_bytes(paste)
        await asyncio.sleep(wait)  # the budget refills; a paste that never ends times out (5 s)
        client.send("\x15")  # Ctrl+U: the chat line emptied of what was pasted
        await asyncio.sleep(1.0)
        mark = client.end
        client.send("zq")
        try:
            await client.wait_for("zq", after=mark, timeout=5)
            heard.append(True)
        except BenchError:
            heard.append(False)
    ctx.notes.append("keys after the 200 KB paste " + ("echoed" if heard[0] else "NOT echoed (deaf)")
                     + ", after the paste without end " + ("echoed" if heard[1] else "NOT echoed (deaf)"))


async def many_sessions(ctx: Context) -> None:
    """4: one connection asks for 25 sessions."""
    conn = await asyncssh.connect("127.0.0.1", ctx.port, username="multi", client_keys=[ctx.key], known_hosts=None,
                                  agent_path=None, local_addr=(ATTACKER, 0))
    ctx.closers.append(_closer(conn))
    opened = 0
    for _ in range(25):
        try:
            await conn.create_session(asyncssh.SSHClientSession, term_type="xterm", term_size=(80, 24), encoding=None)
            opened += 1
        except asyncssh.ChannelOpenError:
            pass
    await asyncio.sleep(ctx.seconds)
    ctx.notes.append(f"{opened} of 25 sessions opened")


async def no_session(ctx: Context) -> None:
    """4: 40 logged-in connections that open no session (ssh -N)."""
    conns = []
    for _ in range(40):
        conn = await asyncssh.connect("127.0.0.1", ctx.port, username="nosession", client_keys=[ctx.key],
                                      known_hosts=None, agent_path=None, local_addr=(ATTACKER, 0))
        conns.append(conn)
        ctx.closers.append(_closer(conn))
    await asyncio.sleep(ctx.seconds)
    ctx.notes.append(f"{sum(1 for c in conns if not c.is_closed())} of 40 open at the end (unused timeout 30 s)")


async def silent_sockets(ctx: Context) -> None:
    """5: 50 silent sockets from one address, reopened as they are closed; a
    player from that address (a venue behind NAT) logs in half-way."""
    await ctx.session("venue1", source=ATTACKER)  # a player of the venue, logged in already
    writers: list[asyncio.StreamWriter] = []
    ctx.closers.append(_close_writers(writers))
    end, opened = ctx.until(), 0

    async def keep_open() -> None:
        nonlocal opened
        while time.monotonic() < end:
            writers[:] = [w for w in writers if not w.transport.is_closing()]
            while len(writers) < 50 and time.monotonic() < end:
                try:
                    _reader, writer = await asyncio.open_connection("127.0.0.1", ctx.port, local_addr=(ATTACKER, 0))
                except OSError:
                    break
                writers.append(writer)
                opened += 1
            await asyncio.sleep(0.2)

    keeper = asyncio.create_task(keep_open())
    await asyncio.sleep(ctx.seconds / 2)
    tries = await _login(ctx, "natmate", ATTACKER)
    await keeper
    ctx.notes.append(f"{opened} sockets opened; a player from the same address "
                     + (f"got in (try {tries})" if tries else "was refused"))


async def silent_sources(ctx: Context) -> None:
    """5: 10 silent sockets from each of 20 addresses (200, past max_startups' full)."""
    writers = []
    for source in range(10, 30):
        for _ in range(10):
            with contextlib.suppress(OSError):
                _reader, writer = await asyncio.open_connection("127.0.0.1", ctx.port, local_addr=(f"127.0.0.{source}", 0))
                writers.append(writer)
    ctx.closers.append(_close_writers(writers))
    await asyncio.sleep(ctx.seconds)
    ctx.notes.append(f"{len(writers)} sockets opened")


async def auth_hammer(ctx: Context) -> None:
    """5: failed logins as fast as 20 at a time go (a wrong key for an owned name)."""
    wrong = asyncssh.generate_private_key("ssh-ed25519")
    end = ctx.until()
    counts = {"attempts": 0, "refused at accept": 0, "auth refused": 0}

    async def one() -> None:
        while time.monotonic() < end:
            counts["attempts"] += 1
            try:
                conn = await asyncio.wait_for(asyncssh.connect(
                    "127.0.0.1", ctx.port, username="canary", client_keys=[wrong], known_hosts=None,
                    agent_path=None, kbdint_auth=False, password_auth=False, gss_auth=False,
                    local_addr=(ATTACKER, 0)), 5)
                conn.close()
            except asyncssh.PermissionDenied:
                counts["auth refused"] += 1
            except (OSError, asyncssh.Error, TimeoutError):
                counts["refused at accept"] += 1

    await asyncio.gather(*(one() for _ in range(20)))
    ctx.notes.append(", ".join(f"{v} {k}" for k, v in counts.items()))


async def many_keys(ctx: Context) -> None:
    """5: connections that each offer 300 keys for an owned name."""
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(300)]
    end, tries, refused = ctx.until(), 0, 0
    while time.monotonic() < end:
        tries += 1
        try:
            conn = await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", ctx.port, username="canary", client_keys=keys, known_hosts=None, agent_path=None,
                kbdint_auth=False, password_auth=False, gss_auth=False, local_addr=(ATTACKER, 0)), 5)
            conn.close()
        except (OSError, asyncssh.Error, TimeoutError) as error:
            refused += "too many authentication failures" in str(error)
    ctx.notes.append(f"{tries} connections, {refused} closed at max_auth_tries")


ATTACKS: dict[str, Callable[[Context], Awaitable[None]]] = {
    "none": no_attack,
    "inband-resize": inband_resize,
    "window-changes": window_changes,
    "zero-pixels-mouse": zero_pixels_then_mouse,
    "key-flood": key_flood,
    "long-csi": long_csi,
    "mouse-burst": mouse_burst,
    "big-paste": big_paste,
    "25-sessions": many_sessions,
    "ssh-N": no_session,
    "silent-sockets": silent_sockets,
    "silent-sources": silent_sources,
    "auth-hammer": auth_hammer,
    "300-keys": many_keys,
}


def _closer(conn: asyncssh.SSHClientConnection) -> Callable[[], Awaitable[None]]:
    async def close() -> None:
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.wait_closed(), 3)

    return close


def _close_writers(writers: list[asyncio.StreamWriter]) -> Callable[[], Awaitable[None]]:
    async def close() -> None:
        for writer in writers:
            writer.close()

    return close


async def _login(ctx: Context, name: str, source: str) -> int:
    """A normal player's login: the lobby within 10 s, tried up to 3 times a
    second apart (as a player would); the try that got in, 0 for none."""
    for attempt in range(1, 4):
        client = BenchClient(name, cols=100, rows=30)
        try:
            await asyncio.wait_for(client.connect(ctx.port, make_key(), source=source), 10)
            await client.wait_for(ctx.fingerprint, timeout=10)
            return attempt
        except (OSError, asyncssh.Error, BenchError, TimeoutError):
            await asyncio.sleep(1.0)
        finally:
            await client.close()
    return 0


# -- the canary ---------------------------------------------------------------------------


@dataclass
class Canary:
    client: BenchClient
    echoes: list[tuple[float, float]] = field(default_factory=list)  # (sent, took)
    lost: list[float] = field(default_factory=list)  # sent

    async def type(self, stop: asyncio.Event) -> None:
        """A letter every 0.1 s into the chat line, a word at a time, then backspaces."""
        client = self.client
        while not stop.is_set() and not client.closed:
            typed = "ZX"
            client.send(typed)
            await asyncio.sleep(0.25)
            for ch in "qwertyuiop":
                if stop.is_set():
                    break
                typed += ch
                mark, sent = client.end, time.monotonic()
                client.send(ch)
                try:
                    at = await client.wait_for(typed, after=mark, timeout=3)
                    self.echoes.append((sent, at - sent))
                except BenchError:
                    self.lost.append(sent)
                await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - sent)))
            client.send("\x7f" * len(typed))
            await asyncio.sleep(0.25)


async def rss_peak(server: ServerUnderTest, stop: asyncio.Event, peak: list[int]) -> None:
    while not stop.is_set():
        with contextlib.suppress(Exception):
            peak[0] = max(peak[0], server.rss_kib())
        await asyncio.sleep(0.1)


async def probes(ctx: Context, got: list[int]) -> None:
    """A normal login from another address at 1 s, half-way, and 1 s before the end."""
    marks = [1.0, ctx.seconds / 2, max(1.0, ctx.seconds - 1.0)]
    start = time.monotonic()
    for i, at in enumerate(marks):
        await asyncio.sleep(max(0.0, start + at - time.monotonic()))
        got.append(await _login(ctx, f"player{i}", PLAYER))


def _attack_process(name: str, port: int, fingerprint: str, key: bytes, seconds: float,
                    out: multiprocessing.connection.Connection) -> None:
    """Run one attack in its own process (its CPU is not the canary's) and send back its notes."""

    async def attack() -> list[str]:
        ctx = Context(port, fingerprint, asyncssh.import_private_key(key), seconds)
        try:
            await asyncio.wait_for(ATTACKS[name](ctx), seconds + 60)
        except Exception as error:  # reported in the table; the other attacks go on
            ctx.notes.append(f"attack error: {error!r:.120}")
        for close in ctx.closers:
            with contextlib.suppress(Exception):
                await close()
        return ctx.notes

    out.send(asyncio.run(attack()))


async def _in_child(name: str, ctx: Context) -> list[str]:
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("spawn").Process(
        target=_attack_process, args=(name, ctx.port, ctx.fingerprint, ctx.key.export_private_key(), ctx.seconds, send),
    )
    child.start()
    try:
        while not receive.poll():
            if not child.is_alive():
                return ["attack process died"]
            await asyncio.sleep(0.05)
        notes: list[str] = receive.recv()
        return notes
    finally:
        child.join(10)
        if child.is_alive():
            child.kill()


async def run_one(name: str, seconds: float) -> dict[str, object]:
    server = ServerUnderTest()
    server.start()
    if name == "key-flood":
        seconds = max(seconds, 12.0)  # past input_flood_timeout (10 s)
    elif name == "silent-sockets":
        seconds = max(seconds, 6.0)
    ctx = Context(server.port, server.fingerprint, make_key(), seconds)
    try:
        canary_client = BenchClient("canary", cols=100, rows=30)
        await canary_client.connect(server.port, ctx.key, source=CANARY)
        await canary_client.wait_for(server.fingerprint, timeout=30)
        canary_client.send("t")
        canary = Canary(canary_client)
        stop_typing = asyncio.Event()
        typing = asyncio.create_task(canary.type(stop_typing))
        await asyncio.sleep(2.0)
        rss_before = server.rss_kib()
        peak = [rss_before]
        stop_sampling = asyncio.Event()
        sampler = asyncio.create_task(rss_peak(server, stop_sampling, peak))
        logins: list[int] = []
        probing = asyncio.create_task(probes(ctx, logins))
        cpu0, t0 = server.cpu_seconds(), time.monotonic()
        ctx.notes = await _in_child(name, ctx)
        t1 = time.monotonic()
        cpu = (server.cpu_seconds() - cpu0) / max(0.001, t1 - t0)
        await probing
        await asyncio.sleep(3.0)
        rss_after = server.rss_kib()
        stop_sampling.set()
        stop_typing.set()
        await sampler
        with contextlib.suppress(Exception):
            await asyncio.wait_for(typing, 5)
        took = [d for sent, d in canary.echoes if t0 <= sent <= t1]
        lost = sum(1 for sent in canary.lost if t0 <= sent <= t1)
        await canary_client.close()
        # the server's own full collections (server.heap: when it is idle and
        # sessions ended, as the probes' did) stop every screen: said, as they
        # are no attack's doing
        pauses = [float(m.group(1)) for m in FULL_COLLECTION.finditer(server.log_text())]
        if pauses:
            ctx.notes.append(f"server's full collections: {', '.join(f'{p:.2f}' for p in pauses)} s")
        return {
            "name": name, "took": took, "lost": lost, "rss": (rss_before, rss_after, peak[0]),
            "cpu": cpu, "logins": logins, "notes": "; ".join(ctx.notes),
            "tracebacks": server.log_text().count("Traceback"),
        }
    finally:
        server.cleanup()


def row(result: dict[str, object]) -> tuple[str, bool]:
    took = result["took"]
    assert isinstance(took, list)
    before, after, peak = result["rss"]  # type: ignore[misc]
    logins = result["logins"]
    assert isinstance(logins, list)
    if took:
        p50, p99, mx = percentile(took, 50), percentile(took, 99), max(took)
        echo = f"{p50 * 1000:.0f} / {p99 * 1000:.0f} / {mx * 1000:.0f} ms (n={len(took)})"
    else:
        p50 = p99 = mx = float("inf")
        echo = "no echo"
    lost = result["lost"]
    if lost:
        echo += f", {lost} lost"
    rss_ok = abs(after - before) <= TARGETS["rss"] * before
    ok = p99 <= TARGETS["p99"] and mx <= TARGETS["max"] and rss_ok and all(logins) and not lost
    retried = sum(1 for t in logins if t > 1)
    got_in = f"{sum(1 for t in logins if t)}/{len(logins)}" + (f" ({retried} on a retry)" if retried else "")
    cells = [
        str(result["name"]), echo,
        f"{before / 1024:.0f} / {after / 1024:.0f} / {peak / 1024:.0f} MB",
        f"{result['cpu']:.0%}", got_in,
        ("met" if ok else "MISSED") + (f", {result['tracebacks']} tracebacks" if result["tracebacks"] else ""),
        str(result["notes"]),
    ]
    return "| " + " | ".join(cells) + " |", ok


async def run(args: argparse.Namespace) -> int:
    names = args.only or list(ATTACKS)
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        print(f"unknown attack(s): {', '.join(unknown)}; known: {', '.join(ATTACKS)}")
        return 2
    print(f"attacks of {args.seconds:g} s (key-flood 12 s), default limits; started {time.strftime('%H:%M UTC', time.gmtime())}",
          flush=True)
    print("| attack | canary echo p50 / p99 / max | server RSS before / after / peak | server CPU | normal logins | targets | attacker saw |")
    print("|---|---|---|---|---|---|---|", flush=True)
    missed = 0
    for name in names:
        line, ok = row(await run_one(name, args.seconds))
        missed += not ok
        print(line, flush=True)
    return 1 if missed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each attack")
    parser.add_argument("--only", nargs="*", metavar="NAME", help=f"run only these: {', '.join(ATTACKS)}")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
