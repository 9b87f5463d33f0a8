"""The floor under a login: what the SSH library alone and what a stock Textual
app alone cost on this machine, for comparison with ``bench burst`` (the real
server) and ``bench screens --burst`` (the real screens without SSH).

    ./manage bench floor [--logins 100] [--bytes 6928]

1. SSH alone: an asyncssh server in its own process with the server's
   ciphers, public-key login, a PTY and a shell that writes ``--bytes`` (a
   lobby's first frame) and a mark; the clients in this process, as
   ``bench burst``'s, connect at once. Printed: the slowest and the median
   time to the mark, and the server's CPU per login.
2. Textual alone: ``--logins`` stock Textual apps of the lobby's shape (a
   head line, a list, a chat and a side pane side by side, two lines; six
   widgets and one container, one rule of CSS) started at once in this
   process, headless, 100x30. Printed: the time until all have drawn their
   first frame and the CPU per app until then (their exits not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from load import own_cpu
from sshclients import OPENSSH_CIPHERS, OPENSSH_MACS, make_key, percentile, process_cpu
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from server.config import CIPHERS, MACS
from server.sshlib import asyncssh  # (set up once, without DSA)

MARK = b"\x1b[0m--floor-mark--"


# -- 1. SSH alone -----------------------------------------------------------------------


class _AcceptAll(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return True


def _ssh_server(ports: Any, payload_bytes: int) -> None:
    payload = b"\x1b[H" + b"x" * max(0, payload_bytes - 3) + MARK

    async def shell(process: asyncssh.SSHServerProcess[bytes]) -> None:
        process.stdout.write(payload)
        with contextlib.suppress(asyncssh.Error, ConnectionError, asyncio.IncompleteReadError):
            await process.stdin.read(1)  # until the client hangs up
        process.exit(0)

    async def main() -> None:
        server = await asyncssh.create_server(
            _AcceptAll, "127.0.0.1", 0,
            server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            process_factory=shell, encoding=None,
            encryption_algs=list(CIPHERS), mac_algs=list(MACS),
        )
        ports.put(server.sockets[0].getsockname()[1])
        await asyncio.Event().wait()

    asyncio.run(main())


async def _ssh_login(port: int, key: asyncssh.SSHKey, name: str) -> tuple[asyncssh.SSHClientConnection, float]:
    started = time.monotonic()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key],
        known_hosts=None, agent_path=None, preferred_auth="publickey",
        keepalive_interval=0, encryption_algs=OPENSSH_CIPHERS, mac_algs=OPENSSH_MACS,
    )
    process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
    seen = b""
    while MARK not in seen:
        chunk = await process.stdout.read(65536)
        if not chunk:
            raise RuntimeError("the floor server hung up before its mark")
        seen = seen[-len(MARK):] + chunk
    return conn, time.monotonic() - started


async def ssh_floor(logins: int, payload_bytes: int) -> None:
    ports: Any = multiprocessing.get_context("fork").Queue()
    child = multiprocessing.get_context("fork").Process(target=_ssh_server, args=(ports, payload_bytes), daemon=True)
    child.start()
    try:
        port = ports.get(timeout=30)
        assert child.pid is not None
        key = make_key()
        for i in range(3):
            conn, seconds = await _ssh_login(port, key, f"solo{i}")
            print(f"SSH alone, single login {i + 1}: {seconds * 1000:.0f} ms", flush=True)
            conn.close()
        await asyncio.sleep(1.0)
        cpu0 = process_cpu(child.pid)
        results = await asyncio.gather(*(_ssh_login(port, key, f"burst{i}") for i in range(logins)))
        cpu = process_cpu(child.pid) - cpu0
        times = [seconds for _, seconds in results]
        print(
            f"SSH alone, {logins} logins at once: all after {max(times):.2f} s "
            f"(median {percentile(times, 50):.2f} s); server CPU {cpu:.2f} s "
            f"({cpu / logins * 1000:.1f} ms per login)",
            flush=True,
        )
        for conn, _ in results:
            conn.close()
    finally:
        child.kill()
        child.join(5)


# -- 2. Textual alone -------------------------------------------------------------------


class LobbyShaped(App[None]):
    """A stock Textual app with the lobby's widgets; ``drawn`` is set after its first frame."""

    CSS = "Static { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.drawn = asyncio.Event()

    def compose(self) -> ComposeResult:
        yield Static("throneroom · name · 3 online · English")
        yield Static("\n".join(f"room {i}  Sultans  3/10  waiting" for i in range(8)))
        with Horizontal():
            yield Static("\n".join(f"chat line {i}" for i in range(5)))
            yield Static("\n".join(f"player {i}" for i in range(5)))
        yield Static("host key SHA256:...")
        yield Static("c create  j join  w watch  F1 help")

    def on_mount(self) -> None:
        self.call_after_refresh(self.drawn.set)


async def _drawn_apps(count: int) -> tuple[float, float, list[asyncio.Task[None]]]:
    """Start ``count`` apps at once; seconds and CPU seconds until all have drawn."""
    apps = [LobbyShaped() for _ in range(count)]
    cpu0, wall0 = own_cpu(), time.monotonic()
    runs = [asyncio.create_task(app.run_async(headless=True, size=(100, 30))) for app in apps]
    await asyncio.gather(*(app.drawn.wait() for app in apps))
    cpu, wall = own_cpu() - cpu0, time.monotonic() - wall0
    for app in apps:
        app.exit()
    return wall, cpu, runs


async def textual_floor(logins: int) -> None:
    for _ in range(3):
        *_, runs = await _drawn_apps(1)
        await asyncio.gather(*runs)
    gc.collect()
    gc.disable()  # as the server during a burst of first screens
    try:
        wall, cpu, runs = await _drawn_apps(logins)
        await asyncio.gather(*runs)
    finally:
        gc.enable()
    print(
        f"Textual alone, {logins} stock apps of the lobby's shape at once: all drawn after "
        f"{wall:.2f} s, CPU {cpu:.2f} s ({cpu / logins * 1000:.1f} ms per app)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logins", type=int, default=100, help="logins (apps) at once")
    parser.add_argument("--bytes", type=int, default=6928, help="bytes the SSH-only shell writes (a first frame)")
    args = parser.parse_args(argv)
    asyncio.run(ssh_floor(args.logins, args.bytes))
    asyncio.run(textual_floor(args.logins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
