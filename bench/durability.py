"""Benchmark: what synchronous=FULL (a committed action survives a power cut)
costs a room, against NORMAL (a power cut may lose the last commits).

    ./manage bench durability [--players 6] [--seconds 5] [--dir /tmp]

Plays random Sultans rounds as a room does each action: legal actions, the
acting seat's view, apply, and the action written to the match's log in the
database (one commit per action, WAL journal, a file database in ``--dir``:
put it on the disk the server's database lives on). Prints actions/s and the
commit's p50/p99 for each mode, and FULL's cost in throughput.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Literal

from engine.sultans import Round
from server.storage import SeatRecord, Storage


def run(mode: Literal["normal", "full"], players: int, seconds: float, folder: Path) -> tuple[int, float, list[float]]:
    """Actions played and logged for about ``seconds``: (actions, elapsed, commit times)."""
    st = Storage(folder / f"bench-{mode}.db", synchronous=mode)
    room = st.create_room({}, "bench")
    match = st.start_match(room, "sultans", 0, {}, [SeatRecord(kind="bot", name=f"bot{i}") for i in range(players)])
    rng = random.Random(0)
    actions = seq = 0
    commits: list[float] = []
    t0 = time.perf_counter()
    deadline = t0 + seconds
    i = 0
    while time.perf_counter() < deadline:
        r = Round.random(players, seed=f"durability:{i}")
        i += 1
        while r.outcome() is None and time.perf_counter() < deadline:
            pend = sorted(r.pending())
            s = pend[0] if len(pend) == 1 else rng.choice(pend)
            legal = r.legal(s)
            r.view(s)
            text = rng.choice(legal)
            r.play(s, text)
            c0 = time.perf_counter()
            st.append_action(match, seq, s, text)
            commits.append(time.perf_counter() - c0)
            seq += 1
            actions += 1
    elapsed = time.perf_counter() - t0
    st.close()
    return actions, elapsed, commits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--dir", type=Path, default=None, help="folder for the databases (default: a temporary one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        rates: dict[str, float] = {}
        for mode in ("normal", "full"):
            n, dt, commits = run(mode, args.players, args.seconds, Path(tmp))  # type: ignore[arg-type]
            rates[mode] = n / dt
            q = statistics.quantiles(commits, n=100)
            print(
                f"synchronous={mode.upper():6} {n:7,} actions in {dt:.2f} s: {n / dt:8,.0f} actions/s; "
                f"commit p50 {q[49] * 1e3:.3f} ms, p99 {q[98] * 1e3:.3f} ms"
            )
    print(f"FULL keeps {rates['full'] / rates['normal']:.0%} of NORMAL's throughput ({args.players} players, one room, one core)")


if __name__ == "__main__":
    main()
