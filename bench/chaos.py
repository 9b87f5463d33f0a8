"""Random use of the real server by many light ssh clients at once: the
server in its own process, the clients (asyncssh, a PTY, raw output) in this
one, everything on 127.0.0.1.

    ./manage bench chaos [--seconds 240] [--players 20] [--seed 1]

Each player logs in (half with ``LANG`` Chinese) at a random terminal size
and for 3-40 s does random things: keys (letters, Enter, Escape, Tab,
arrows, F1, F2, Page Up/Down, Ctrl-C, Chinese characters), bytes no
terminal sends (broken UTF-8, cut escapes, terminal replies), resizes (to a
few cells too), clicks anywhere, bracketed pastes with markup and escapes,
"create a room and start it with bots", "watch"; then it drops the
connection and comes back after 0-2 s (to the lobby, or straight to the
table of its kept seat). At the end a newcomer must still get the lobby.

Printed: logins, the server's tracebacks, sessions that ended as crashes
and error lines (the first traceback in full), and its full garbage
collections. Exit status 1 when the server logged a traceback or a crash.
Not a timing benchmark: it found the crashes fixed on 12-02 (bench/HISTORY.md, ninth session).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sshclients import LOAD_LIMITS, BenchClient, ServerUnderTest, make_key

from server.sshlib import asyncssh  # (set up once, without DSA)

KEYS = [
    *"abcdefghijklmnoprstuvwxyz0123456789", *["\r"] * 6,
    "\x1b", "\t", "\x1b[Z", "\x7f", "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1bOP", "\x1bOQ",
    "\x1b[5~", "\x1b[6~", "\x1b[H", "\x1b[F", "\x1b[3~", " ", "\x03", "世", "界", "é",
]
GARBAGE = [
    b"\xff\xfe", b"\x1b[", b"\x1b]52;c;aGVsbG8=\x07", b"\x1b[999;999R", b"\x00\x01\x02",
    b"\xe4\xb8", b"\x1b[<0;5;5", b"\x1bP+q\x1b\\", b"\x9b31m",
]
CONFIG = LOAD_LIMITS
ARRIVED = re.compile("throneroom|F1")
"""The lobby's head line, or the key bar of a kept seat's table or waiting
room (its keys' labels go before F1 does, down to 60 columns)."""


async def act(client: BenchClient, rnd: random.Random) -> None:
    """One random thing a player (or a broken terminal) does."""
    roll = rnd.random()
    if roll < 0.80:
        client.send(rnd.choice(KEYS))
    elif roll < 0.85:
        client.send_bytes(rnd.choice(GARBAGE))
    elif roll < 0.90:
        client.resize(rnd.choice([1, 3, 40, 60, 80, 100, 150]), rnd.choice([2, 10, 16, 24, 40]))
    elif roll < 0.93:
        x, y = rnd.randint(1, 100), rnd.randint(1, 30)
        client.send(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m")
    elif roll < 0.95:
        text = "".join(rnd.choice("ab 世界\n\t[/b]\x1b") for _ in range(rnd.randint(1, 300)))
        client.send("\x1b[200~" + text + "\x1b[201~")
    elif roll < 0.97:
        for key in ("c", "\r", "s"):  # a room with bots, started
            client.send(key)
            await asyncio.sleep(0.3)
    else:
        client.send("w")


shown: list[str] = []
"""What the first login whose lobby or key bar did not show had received (the screen's tail)."""


async def player(server: ServerUnderTest, key: asyncssh.SSHKey, i: int, rnd: random.Random,
                 stop: asyncio.Event, stats: dict[str, int]) -> None:
    lang = "zh_TW.UTF-8" if i % 2 else "C.UTF-8"
    while not stop.is_set():
        client = BenchClient(f"c{i}", cols=rnd.choice([60, 80, 100, 120]), rows=rnd.choice([16, 24, 30, 40]))
        try:
            await client.connect(server.port, key, lang=lang)
            await client.wait_for(ARRIVED, timeout=30)
        except Exception as error:
            stats["logins whose lobby or key bar did not show in 30 s"] += 1
            if not shown:
                shown.append(f"{client.name}: {error!r:.4000}")
            await client.close()
            await asyncio.sleep(1)
            continue
        stats["logins"] += 1
        leave = time.monotonic() + rnd.uniform(3, 40)
        while time.monotonic() < leave and not stop.is_set() and not client.closed:
            try:
                await act(client, rnd)
            except (OSError, asyncssh.Error):
                break  # the session ended (a quit, or the server closed it)
            stats["inputs"] += 1
            await asyncio.sleep(rnd.expovariate(8))
        await client.close()
        await asyncio.sleep(rnd.uniform(0, 2))


async def run(args: argparse.Namespace) -> int:
    server = ServerUnderTest(bot_delay=0.05, config=CONFIG)
    server.start()
    stats = {"logins": 0, "logins whose lobby or key bar did not show in 30 s": 0, "inputs": 0}
    try:
        key = make_key()
        stop = asyncio.Event()
        seeds = random.Random(args.seed)
        tasks = [
            asyncio.create_task(player(server, key, i, random.Random(seeds.random()), stop, stats))
            for i in range(args.players)
        ]
        await asyncio.sleep(args.seconds)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 90)
        newcomer = BenchClient("newcomer", cols=100, rows=30)
        await newcomer.connect(server.port, key)
        await newcomer.wait_for(server.fingerprint, timeout=30)
        await newcomer.close()
        print("a newcomer got the lobby afterwards")
    finally:
        code = server.stop()
        text = server.log_text()
        server.cleanup()
    for name, value in stats.items():
        print(f"{name}: {value}")
    for line in shown:
        print("  the first of them:", line)
    tracebacks, crashed = text.count("Traceback"), text.count(" crashed")
    print(f"server exit code {code}; tracebacks {tracebacks}; sessions crashed {crashed}; "
          f"error lines {len(re.findall(r' ERROR ', text))}")
    for line in text.splitlines():
        if "full collection" in line or "slow garbage collection" in line:
            print("server:", line)
    if tracebacks:
        first = text.index("Traceback")
        print("--- the first traceback ---\n" + text[text.rfind("\n", 0, first - 1) + 1:][:4000])
    return 1 if tracebacks or crashed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
