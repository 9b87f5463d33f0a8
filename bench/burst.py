"""Simultaneous logins against an otherwise idle server: the server in its own
process, the clients in this one, everything on 127.0.0.1.

    ./manage bench burst [--logins 100] [--single 3] [--py-spy FILE]

``--single`` logins one after the other first (warming up), then ``--logins``
clients connect at once; printed: the slowest and the median time from
opening the connection to the lobby's host-key line, and the CPU time the
server and this process spent on the burst. ``bench load`` times the same
burst after 150 players have played and left (a bigger heap); this one
isolates what a login costs the server.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import login, own_cpu, phase_burst, start_py_spy, top_functions
from sshclients import LOAD_LIMITS, ServerUnderTest, machine_speed, make_key, percentile

CONFIG = LOAD_LIMITS


async def run(args: argparse.Namespace) -> int:
    server = ServerUnderTest(config=CONFIG)
    server.start()
    try:
        key = make_key()
        for i in range(args.single):
            client, seconds = await login(server, key, f"solo{i}")
            print(f"single login {i + 1}: first screen after {seconds * 1000:.0f} ms", flush=True)
            await client.close()
        await asyncio.sleep(2.0)
        spy = start_py_spy(server.pid, args.py_spy, 15.0) if args.py_spy else None
        if spy is not None:
            await asyncio.sleep(1.0)
        speed = machine_speed()
        server0, own0 = server.cpu_seconds(), own_cpu()
        times, wall = await phase_burst(server, key, args.logins)
        server_cpu, client_cpu = server.cpu_seconds() - server0, own_cpu() - own0
        print(
            f"{args.logins} logins at once: all served after {max(times):.2f} s "
            f"(median {percentile(times, 50):.2f} s, wall {wall:.2f} s); "
            f"server CPU {server_cpu:.2f} s ({server_cpu / args.logins * 1000:.0f} ms per login), "
            f"clients' CPU {client_cpu:.2f} s; machine speed just before {speed:,.0f} Sultans actions/s",
            flush=True,
        )
        if spy is not None:
            spy.wait(timeout=60)
            print(top_functions(Path(args.py_spy), 40), flush=True)
        return 0
    finally:
        server.cleanup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--logins", type=int, default=100, help="clients that connect at once")
    parser.add_argument("--single", type=int, default=3, help="one-at-a-time logins before the burst")
    parser.add_argument("--py-spy", metavar="FILE", default="",
                        help="sample the server with py-spy during the burst (raw stacks to FILE; prints a summary)")
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
