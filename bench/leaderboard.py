"""The leaderboard of a club's database: what its query costs, and what a
lobby's read costs.

    ./manage bench leaderboard [--matches 3000] [--players 300] [--per-match 8]

Fills an in-memory database (the server's schema) with ``--matches``
finished matches of ``--per-match`` players drawn from ``--players`` names,
through ``Storage.finish_match`` as the rooms do, then times: the query
itself (``Storage._read_leaderboard``, every result walked), and 1,000
``Storage.leaderboard()`` reads as the lobbies make them (a login, every
20 s per open lobby), of which the first after a finished match runs the
query.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.storage import SeatRecord, SeatResult, Storage


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--per-match", type=int, default=8)
    args = parser.parse_args(argv)
    rnd = random.Random(1)
    names = [f"player{i}" for i in range(args.players)]
    st = Storage(":memory:")
    room = st.create_room({"game": "sultans", "seats": args.per_match}, names[0])
    for _ in range(args.matches):
        seated = rnd.sample(names, args.per_match)
        match = st.start_match(room, "sultans", rnd.getrandbits(60), {}, [SeatRecord("human", n) for n in seated])
        st.finish_match(match, [
            SeatResult(i, n, "human", rnd.randint(0, 12), i == 0) for i, n in enumerate(seated)
        ])
    results = args.matches * args.per_match
    t0 = time.perf_counter()
    for _ in range(20):
        st._read_leaderboard()
    query = (time.perf_counter() - t0) / 20
    st.finish_match(match, [SeatResult(0, seated[0], "human", 1, True)])  # a match finished: read again
    t0 = time.perf_counter()
    for _ in range(1000):
        st.leaderboard()
    reads = (time.perf_counter() - t0) / 1000
    print(f"{results:,} results of {args.players} players: the query {query * 1000:.2f} ms; "
          f"a lobby's read {reads * 1000:.3f} ms on average over 1,000 (the first runs the query)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
