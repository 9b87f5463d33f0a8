"""Memory over a long stretch of play, in one process, without SSH: does it
level off or keep growing?

    ./manage bench soak [--minutes 10] [--rooms 2] [--per-room 6] [--seats 12]
                        [--game sultans] [--bot-delay 0.01] [--every 30]

Each room has a host at the table (a Peek or a pass as soon as it is their
turn), bots in the other seats (``--bot-delay`` seconds a move: many matches
in little time) and ``--per-room - 1`` watchers, all real sessions
(``ThroneApp`` with the session driver, as bench/screens.py runs them); a
finished match is played again at once. Every ``--every`` seconds, after a
full collection: the process's RSS, the objects the collector tracks, the
matches finished, and the types that grew most since the last sample. At
the end: the growth in the first and the second half of the samples. The
process-wide caches (the strips, the wrapped lines, the log rows) and each
table log's 2,000 lines fill in the first minutes; after that, what is still
growing is a leak.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from screens import SESSIONS, Session, _print, play_a_peek_or_pass, rss_mib

from server.heap import HeapKeeper
from server.hub import Hub
from server.storage import Storage
from tui.client import RoomClient, RoomSettings


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


async def main(args: argparse.Namespace, db: Path) -> None:
    heap = HeapKeeper(opened=lambda: SESSIONS[0], retired=lambda: SESSIONS[1])
    heap.start()
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

    samples: list[tuple[float, float, int]] = []  # seconds, RSS MiB, objects
    before = census()
    start = time.monotonic()
    matches = 0
    last = -args.every
    _print(f"{args.rooms} rooms of {args.seats} seats ({args.game}), {len(sessions)} sessions, {args.minutes} min")
    while (now := time.monotonic() - start) < args.minutes * 60:
        await asyncio.sleep(1)
        for _, table in rooms:
            if table.snapshot().state == "finished":
                matches += 1
                table.play_again()
        if now - last < args.every:
            continue
        last = now
        counts = census()
        objects = sum(counts.values())
        samples.append((now, rss_mib(), objects))
        grew = ", ".join(f"{kind.rsplit('.', 1)[-1]} +{n}" for kind, n in (counts - before).most_common(6))
        before = counts
        _print(
            f"{now:6.0f} s  RSS {rss_mib():6.1f} MiB  objects {objects:9,d}  matches {matches:4d}  "
            f"grew: {grew or '-'}"
        )
    for task in actors:
        task.cancel()
    half = len(samples) // 2
    if half >= 1:
        first, mid, end = samples[0], samples[half], samples[-1]
        for label, a, b in (("first half", first, mid), ("second half", mid, end)):
            minutes = (b[0] - a[0]) / 60 or 1.0
            _print(
                f"{label}: RSS {a[1]:.1f} -> {b[1]:.1f} MiB ({(b[1] - a[1]) / minutes:+.1f} MiB/min), "
                f"objects {a[2]:,d} -> {b[2]:,d} ({(b[2] - a[2]) / minutes:+,.0f}/min)"
            )
    _print(f"{matches} matches finished")
    await heap.stop()


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
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
