"""Load-benchmark plumbing: the real server in a subprocess on loopback, and
light SSH clients (asyncssh, a PTY, ``xterm-256color``) that read the raw
output stream without emulating a terminal.

A :class:`BenchClient` keeps the decoded output (a bounded tail) and the
monotonic time of every chunk, so a benchmark can wait for a marker
(:meth:`BenchClient.wait_for`) or ask when a pattern first appeared after a
moment. Matching is done on raw output: Textual sends changed lines whole, so
short texts of one style (a room name, ``turn 5/200``, an echoed input line)
arrive contiguous.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from server.sshlib import asyncssh  # (set up once, without DSA)

ROOT = Path(__file__).resolve().parents[1]

TAIL = 64 * 1024
"""Characters of decoded output a client keeps."""

KEEP_ALL = bool(os.environ.get("BENCH_SCREENS"))
"""``BENCH_SCREENS=1``: keep every client's whole output and show its screen
(rendered with pyte) when something it waited for does not come."""


LOAD_LIMITS = (
    "[limits]\nmax_sessions = 2000\nmax_per_address = 2000\nidle_timeout = 0\n"
    'max_startups = "2000"\nper_source_max_startups = 2000\npenalty_exempt = ["127.0.0.0/8"]\n'
    "[players]\nnames_per_key = 100000\nname_claims_per_hour = 100000\n"
    "[spam]\nchat_per_source_burst = 100000\nrooms_per_source = 100000\npresence_per_source_burst = 100000\n"
)
"""Config for benchmarks whose players all come from 127.0.0.1, many at once,
with one key (:func:`make_key`): no caps on connections, logins still in
progress, penalties, names per key, or what one source may say or open."""


class BenchError(RuntimeError):
    """Something the benchmark waited for did not happen."""


# -- the server ------------------------------------------------------------------


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServerUnderTest:
    """``python -m server.cli serve`` on 127.0.0.1:0 with a temporary key folder and DB."""

    def __init__(self, *, bot_delay: float = 1.0, config: str = "") -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="throneroom-bench-")
        self.folder = Path(self._tmp.name)
        self.config_path = self.folder / "throneroom.toml"
        self.config_path.write_text(config, encoding="utf-8")
        self.log_path = self.folder / "server.log"
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.fingerprint = ""

    def start(self, timeout: float = 30.0) -> None:
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        cmd = [
            sys.executable, "-m", "server.cli", "serve",
            "--host", "127.0.0.1", "--port", "0",
            "--keys", str(self.folder / "keys"),
            "--db", str(self.folder / "data" / "throneroom.db"),
            "--config", str(self.config_path),
            "--bot-delay", str(self.bot_delay),
        ]
        with self.log_path.open("a", encoding="utf-8") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=self.folder, stdout=subprocess.PIPE, stderr=log,
                stdin=subprocess.DEVNULL, text=True, env=env,
            )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while not self.port:
            if time.monotonic() > deadline:
                self.stop()
                raise BenchError(f"server did not listen within {timeout}s")
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if not ready:
                continue
            line = self.proc.stdout.readline()
            if not line:
                raise BenchError(f"server exited: {self.log_tail()}")
            if m := re.search(r"host key fingerprint (SHA256:\S+)", line):
                self.fingerprint = m.group(1)
            if m := re.search(r"listening on \S*:(\d+)", line):
                self.port = int(m.group(1))

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_kib(self) -> int:
        """Resident memory of the server process (``VmRSS`` in /proc), in KiB."""
        status = Path(f"/proc/{self.pid}/status").read_text(encoding="ascii")
        m = re.search(r"^VmRSS:\s+(\d+)\s+kB", status, re.M)
        if m is None:
            raise BenchError("no VmRSS in /proc status")
        return int(m.group(1))

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far."""
        return process_cpu(self.pid)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def stop(self) -> int | None:
        proc, self.proc = self.proc, None
        code: int | None = None
        if proc is not None:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=5)
            code = proc.returncode
            if proc.stdout is not None:
                proc.stdout.close()
        return code

    def cleanup(self) -> None:
        self.stop()
        self._tmp.cleanup()


# -- the clients ------------------------------------------------------------------


OPENSSH_CIPHERS = [
    "chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr", "aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
]
OPENSSH_MACS = [
    "umac-64-etm@openssh.com", "umac-128-etm@openssh.com", "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com",
    "hmac-sha1-etm@openssh.com", "umac-64@openssh.com", "umac-128@openssh.com", "hmac-sha2-256", "hmac-sha2-512", "hmac-sha1",
]
"""Offered in OpenSSH's client order (``ssh_config(5)``), so the clients get the
cipher and MAC that ``ssh`` would get from the server (UMAC only where asyncssh
has it: it needs libnettle)."""
OPENSSH_MACS = [mac for mac in OPENSSH_MACS if mac.encode() in asyncssh.mac.get_mac_algs()]


class _Session(asyncssh.SSHClientSession[bytes]):
    def __init__(self, client: BenchClient) -> None:
        self.client = client

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.client._received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.client.closed = True
        self.client._wake()


@dataclass
class BenchClient:
    """One player: an SSH connection with a PTY, reading raw output."""

    name: str
    cols: int = 100
    rows: int = 30
    text: str = ""  # the decoded tail of the output
    offset: int = 0  # characters dropped from the front of ``text``
    received: int = 0  # bytes received in all
    closed: bool = False
    started: float = 0.0
    watchers: list[Callable[[BenchClient, int, float], None]] = field(default_factory=list)
    """Called with (client, start index of the new text in absolute characters, time)."""
    _conn: asyncssh.SSHClientConnection | None = None
    _chan: asyncssh.SSHClientChannel[bytes] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _decoder: Callable[[bytes], str] | None = None
    _all: list[str] = field(default_factory=list)

    async def connect(self, port: int, key: asyncssh.SSHKey, *, lang: str = "C.UTF-8", source: str = "") -> None:
        """Log in; ``source``: the local address to connect from (another
        127.x address is another source to the server)."""
        import codecs

        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self.started = time.monotonic()
        self._conn = await asyncssh.connect(
            "127.0.0.1", port, username=self.name, client_keys=[key],
            known_hosts=None, agent_path=None, preferred_auth="publickey",
            keepalive_interval=0, encryption_algs=OPENSSH_CIPHERS, mac_algs=OPENSSH_MACS,
            local_addr=(source, 0) if source else None,
        )
        self._chan, _ = await self._conn.create_session(
            lambda: _Session(self), term_type="xterm-256color",
            term_size=(self.cols, self.rows), env={"LANG": lang}, encoding=None,
        )

    def _received(self, data: bytes) -> None:
        now = time.monotonic()
        assert self._decoder is not None
        chunk = self._decoder(data)
        self.received += len(data)
        if KEEP_ALL:
            self._all.append(chunk)
        start = self.offset + len(self.text)
        self.text += chunk
        if len(self.text) > TAIL:
            cut = len(self.text) - TAIL // 2
            self.text = self.text[cut:]
            self.offset += cut
        for watcher in self.watchers:
            watcher(self, start, now)
        self._wake()

    def _wake(self) -> None:
        self._changed.set()

    @property
    def end(self) -> int:
        """Absolute index of the end of the output so far."""
        return self.offset + len(self.text)

    def since(self, index: int) -> str:
        """Output from absolute ``index`` on (what is still kept of it)."""
        return self.text[max(0, index - self.offset):]

    async def wait_for(self, marker: str | re.Pattern[str], *, after: int = 0, timeout: float = 20.0) -> float:
        """Wait until ``marker`` appears after absolute index ``after``; returns the time."""
        deadline = time.monotonic() + timeout
        while True:
            hay = self.since(after)
            found = marker.search(hay) if isinstance(marker, re.Pattern) else (marker in hay)
            if found:
                return time.monotonic()
            if self.closed:
                raise BenchError(f"{self.name}: closed while waiting for {marker!r}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchError(f"{self.name}: no {marker!r} within {timeout}s\n{self.screen()}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(left, 1.0))

    async def wait_until(self, predicate: Callable[[], bool], *, what: str, timeout: float = 20.0) -> None:
        """Wait until ``predicate()`` holds (checked after each output chunk)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchError(f"{self.name}: {what}: not within {timeout}s\n{self.screen()}")
            if self.closed:
                raise BenchError(f"{self.name}: closed while waiting: {what}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(left, 1.0))

    def screen(self) -> str:
        """The client's screen (all output rendered with pyte) with ``BENCH_SCREENS=1``,
        else the printable end of its output."""
        if not KEEP_ALL:
            tail = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.text[-1500:])
            return f"output tail: {tail!r} (BENCH_SCREENS=1 shows the screen)"
        import pyte

        screen = pyte.Screen(self.cols, self.rows)
        pyte.Stream(screen).feed("".join(self._all))
        return "\n".join("|" + line.rstrip() for line in screen.display)

    def send(self, keys: str) -> None:
        self.send_bytes(keys.encode("utf-8"))

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes (ones no terminal sends, too)."""
        if self._chan is not None and not self.closed:
            self._chan.write(data)

    def resize(self, cols: int, rows: int) -> None:
        """Tell the server the terminal is now ``cols`` x ``rows``."""
        if self._chan is not None and not self.closed:
            self._chan.change_terminal_size(cols, rows)

    async def settled(self, key: str, *, quiet: float = 0.08, timeout: float = 3.0) -> None:
        """Send ``key``, wait for the screen to answer (any output after it), then
        for a short quiet spell: keys typed into a form stay in step with the
        server however busy it is."""
        mark = self.end
        self.send(key)
        deadline = time.monotonic() + timeout
        last, since = self.end, time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(0.02)
            if self.end != last:
                last, since = self.end, time.monotonic()
            elif last > mark and time.monotonic() - since >= quiet:
                return

    async def press(self, *keys: str, pause: float = 0.12) -> None:
        """Send keys one at a time with a pause (forms move focus between keys)."""
        for key in keys:
            self.send(key)
            await asyncio.sleep(pause)

    async def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(self._conn.wait_closed(), timeout=5)
        self.closed = True


def make_key() -> asyncssh.SSHKey:
    """One ed25519 key for every bench client (a key may own many names)."""
    return asyncssh.generate_private_key("ssh-ed25519")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def machine_speed(seconds: float = 0.5) -> float:
    """This machine's speed now: Sultans actions per second of the engine's
    random playouts (``bench/sultans_speed.py``, one core) for ``seconds``.
    This machine's speed swings by up to twice from one minute to the next
    (the same playouts at 33,000 and at 92,000 actions/s on the same day),
    so a burst's time is printed with the speed measured just before it."""
    from sultans_speed import playouts

    actions, _rounds, _options, elapsed = playouts(15, seconds, views=False)
    return actions / elapsed
