"""End-to-end harness: the real server in a subprocess, the real OpenSSH client
in a pseudo-terminal, and a terminal emulator (pyte) that shows what the
player would see.

    server = ServerProcess(tmp_path)          # python -m server.cli serve ...
    server.start()                            # waits for "listening on", learns the port
    key = keygen(tmp_path, "alice")           # ssh-keygen -t ed25519
    with server.client("alice", key=key) as c:
        c.wait_for(server.fingerprint)        # the lobby shows the host key
        c.press("c"); c.type_text("My room"); c.press("enter")
        c.resize(120, 40)
    server.stop()                             # SIGTERM; restart() keeps keys + DB

Tests read the *screen* (``Client.text()``, ``wait_for``), never raw bytes.
Run ``python tests/e2e/harness.py`` to measure the first-screen time of one login.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import pexpect
import pyte
from wcwidth import wcwidth

ROOT = Path(__file__).resolve().parents[2]

KEYS: dict[str, str] = {
    "enter": "\r",
    "escape": "\x1b",
    "tab": "\t",
    "shift+tab": "\x1b[Z",
    "backspace": "\x7f",
    "space": " ",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "delete": "\x1b[3~",
    "f1": "\x1bOP",
    "f2": "\x1bOQ",
    "f3": "\x1bOR",
    "f4": "\x1bOS",
    "f5": "\x1b[15~",
    "f9": "\x1b[20~",
    "ctrl+c": "\x03",
    "ctrl+d": "\x04",
    "ctrl+q": "\x11",
}
"""Key names for :meth:`Client.press`, as an xterm sends them."""

ESCAPE_PAUSE = 0.2
"""After a lone Escape, wait longer than the server's ESCDELAY (100 ms) so the
next key is not read as Alt+key."""


class HarnessError(AssertionError):
    """Something the test waited for did not happen."""


def ssh_binary() -> str | None:
    return shutil.which("ssh")


def running_in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def require_openssh() -> None:
    """Skip when the OpenSSH client is missing -- but FAIL under CI (``CI=true``),
    so a CI image that lost ``ssh`` cannot pass by skipping every e2e test."""
    import pytest

    missing = [tool for tool in ("ssh", "ssh-keygen") if shutil.which(tool) is None]
    if not missing:
        return
    message = f"end-to-end tests need the OpenSSH client ({', '.join(missing)} not found)"
    if running_in_ci():
        pytest.fail(message + "; CI must install openssh-client", pytrace=False)
    pytest.skip(message)


def keygen(folder: Path, name: str) -> Path:
    """A fresh ed25519 key pair (no passphrase) in ``folder``; returns the private key path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"id_{name}"
    if not path.exists():
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)],
            check=True,
            stdin=subprocess.DEVNULL,
        )
    return path


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the server gets SIGTERM if the test process dies, so no server outlives a run."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _in_own_terminal() -> None:  # pragma: no cover - runs in the child
    """The child's stdin (a pty) becomes its controlling terminal: it leads a new
    session (``start_new_session``), so closing the pty's other end hangs it up."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # an operator's shell starts it with the terminal's signals at their defaults,
    # whatever this test run inherited (under nohup SIGHUP is ignored, and a
    # background job ignores SIGINT; the server keeps ignoring what it was started to ignore)
    for sig in (signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    _die_with_parent()


class ServerProcess:
    """``python -m server.cli serve`` on 127.0.0.1 with its own keys and database."""

    def __init__(
        self,
        folder: Path,
        *,
        bot_delay: float = 0.0,
        config: str | None = None,
        extra_args: list[str] | None = None,
        launcher: list[str] | None = None,
        in_terminal: bool = False,
    ) -> None:
        """``launcher`` goes before the command (``["nohup"]``); ``in_terminal``
        runs the server in a pseudo-terminal of its own, as an operator's shell
        would (stdin and stdout; ``close_terminal()`` hangs it up)."""
        self.folder = folder
        self.keys_dir = folder / "keys"
        self.db_path = folder / "data" / "throneroom.db"
        self.log_path = folder / "server.log"
        self.config_path: Path | None = None
        if config is not None:
            folder.mkdir(parents=True, exist_ok=True)
            self.config_path = folder / "throneroom.toml"
            self.config_path.write_text(config, encoding="utf-8")
        self.bot_delay = bot_delay
        self.extra_args = list(extra_args or [])
        self.launcher = list(launcher or [])
        self.in_terminal = in_terminal
        self._terminal: int | None = None  # the pty's master end while in_terminal
        self.port = 0
        self.fingerprint = ""
        self.proc: subprocess.Popen[str] | None = None
        self.clients: list[Client] = []
        self.startup_seconds = 0.0

    # -- lifecycle -------------------------------------------------------------

    def command(self) -> list[str]:
        cmd = [
            sys.executable, "-m", "server.cli", "serve",
            "--host", "127.0.0.1",
            "--port", str(self.port),  # 0 at first start; the same port on restart
            "--keys", str(self.keys_dir),
            "--db", str(self.db_path),
            "--bot-delay", str(self.bot_delay),
        ]
        if self.config_path is not None:
            cmd += ["--config", str(self.config_path)]
        return cmd + self.extra_args

    def start(self, timeout: float = 30.0) -> None:
        """Start and wait until it listens."""
        if self.proc is not None:
            raise HarnessError("server already running")
        self.folder.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("a", encoding="utf-8")
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        started = time.monotonic()
        command = self.launcher + self.command()  # the old port on restart
        self.port = 0
        if self.in_terminal:
            master, child_end = pty.openpty()
            try:
                self.proc = subprocess.Popen(
                    command, cwd=self.folder, stdin=child_end, stdout=child_end, stderr=log,
                    text=True, env=env, start_new_session=True, preexec_fn=_in_own_terminal,
                )
            except BaseException:
                os.close(master)
                raise
            finally:
                os.close(child_end)
                log.close()
            self._terminal = master
            out = master
        else:
            self.proc = subprocess.Popen(
                command,
                cwd=self.folder,
                stdout=subprocess.PIPE,
                stderr=log,
                stdin=subprocess.DEVNULL,
                text=True,
                env=env,
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )
            log.close()
            assert self.proc.stdout is not None
            out = self.proc.stdout.fileno()
        pending = b""  # read from the file descriptor itself: no buffer hides a line from select
        deadline = time.monotonic() + timeout
        while not self.port:
            if b"\n" not in pending:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self.stop()
                    raise HarnessError(f"server did not listen within {timeout}s:\n{self.log_tail()}")
                ready, _, _ = select.select([out], [], [], min(remaining, 0.5))
                if not ready:
                    continue
                try:
                    chunk = os.read(out, 4096)
                except OSError:  # a pty whose child end is gone reads EIO
                    chunk = b""
                if not chunk:
                    code = self.proc.wait(timeout=5)
                    self.stop()
                    raise HarnessError(f"server exited with {code} before listening:\n{self.log_tail()}")
                pending += chunk
                continue
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode("utf-8", "replace")
            if m := re.search(r"host key fingerprint (SHA256:\S+)", line):
                self.fingerprint = m.group(1)
            if m := re.search(r"listening on \S*:(\d+)", line):
                self.port = int(m.group(1))
        self.startup_seconds = time.monotonic() - started

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, wait, SIGKILL if needed; closes clients still open. Returns the exit code."""
        for client in list(self.clients):
            client.close()
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        if proc.stdout is not None:
            proc.stdout.close()
        self._close_terminal()
        return proc.returncode

    def close_terminal(self) -> None:
        """Close the server's terminal (``in_terminal``), as when the operator's
        window or SSH session to the host goes: the kernel sends it SIGHUP."""
        if self._terminal is None:
            raise HarnessError("the server has no terminal of its own (in_terminal=False)")
        self._close_terminal()

    def _close_terminal(self) -> None:
        terminal, self._terminal = self._terminal, None
        if terminal is not None:
            os.close(terminal)

    def restart(self) -> None:
        """Stop and start again with the same port, keys and database."""
        self.stop()
        self.start()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- log -------------------------------------------------------------------

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def wait_for_log(self, pattern: str, timeout: float = 10.0) -> re.Match[str]:
        """Wait until the server log has a line matching ``pattern`` (a regex)."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while True:
            if m := rx.search(self.log_text()):
                return m
            if time.monotonic() > deadline:
                raise HarnessError(f"log never matched {pattern!r}:\n{self.log_tail()}")
            time.sleep(0.05)

    # -- clients ---------------------------------------------------------------

    def client(
        self,
        user: str,
        *,
        key: Path | None = None,
        cols: int = 100,
        rows: int = 30,
        lang: str = "C.UTF-8",
        tty: bool = True,
        command: str | None = None,
        extra_ssh_args: list[str] | None = None,
    ) -> Client:
        """Connect ``ssh -p PORT user@127.0.0.1`` in a pseudo-terminal."""
        if not self.port:
            raise HarnessError("server not started")
        client = Client(
            self, user, key=key, cols=cols, rows=rows, lang=lang, tty=tty,
            command=command, extra_ssh_args=extra_ssh_args,
        )
        self.clients.append(client)
        return client


class Client:
    """The real OpenSSH client in a pseudo-terminal, rendered by pyte."""

    def __init__(
        self,
        server: ServerProcess,
        user: str,
        *,
        key: Path | None,
        cols: int,
        rows: int,
        lang: str,
        tty: bool,
        command: str | None,
        extra_ssh_args: list[str] | None,
    ) -> None:
        ssh = ssh_binary()
        if ssh is None:
            raise HarnessError("the OpenSSH client `ssh` is not installed")
        self.server = server
        self.user = user
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        args = [
            "-F", "/dev/null",  # no user or system config: the same behaviour everywhere
            "-p", str(server.port),
            "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null",
            "-o", "GlobalKnownHostsFile=/dev/null",
            "-o", "IdentityAgent=none",
            "-o", "IdentitiesOnly=yes",
            "-o", "SendEnv=LANG",
            "-o", "ConnectTimeout=10",
            "-o", "ServerAliveInterval=0",
        ]
        if key is not None:
            args += ["-i", str(key)]
        else:
            args += ["-o", "PubkeyAuthentication=no"]
        args += ["-tt"] if tty else ["-T"]
        args += list(extra_ssh_args or [])
        args.append(f"{user}@127.0.0.1")
        if command is not None:
            args.append(command)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(server.folder),
            "TERM": "xterm-256color",
            "LANG": lang,
        }
        self.started = time.monotonic()
        self.child = pexpect.spawn(ssh, args, dimensions=(rows, cols), env=env, echo=False)
        self.eof = False

    # -- reading ---------------------------------------------------------------

    def pump(self, timeout: float = 0.05) -> bool:
        """Read what is available (waiting up to ``timeout``); False at EOF."""
        if self.eof:
            return False
        try:
            data = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            self.eof = True
            return False
        self.raw.extend(data)
        self.stream.feed(data)
        return True

    def lines(self) -> list[str]:
        try:
            return [line.rstrip() for line in self.screen.display]
        except IndexError:
            # pyte leaves the right half of a wide character (an empty cell) when
            # only its left half is overwritten, and its display then fails on that
            # cell; a terminal shows a blank there, and so does this
            return [self._row(y) for y in range(self.screen.lines)]

    def _row(self, y: int) -> str:
        line, out, skip = self.screen.buffer[y], [], False
        for x in range(self.screen.columns):
            if skip:
                skip = False
                continue
            char = line[x].data or " "
            out.append(char)
            skip = wcwidth(char[0]) == 2
        return "".join(out).rstrip()

    def text(self) -> str:
        return "\n".join(self.lines())

    def dump(self) -> str:
        body = "\n".join(f"|{line}" for line in self.lines())
        return f"--- screen of {self.user!r} ---\n{body}\n--- server log ---\n{self.server.log_tail(20)}"

    def wait_until(
        self, predicate: Callable[[Client], bool], timeout: float = 10.0, what: str = "condition"
    ) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            if time.monotonic() > deadline:
                raise HarnessError(f"{what} not met within {timeout}s\n{self.dump()}")
            if not self.pump(0.05) and not predicate(self):
                raise HarnessError(f"connection closed before {what}\n{self.dump()}")

    def wait_for(self, text: str, timeout: float = 10.0) -> float:
        """Wait until ``text`` is on the screen; return seconds since connecting."""
        self.wait_until(lambda c: text in c.text(), timeout, what=f"text {text!r} on screen")
        return time.monotonic() - self.started

    def wait_gone(self, text: str, timeout: float = 10.0) -> None:
        self.wait_until(lambda c: text not in c.text(), timeout, what=f"text {text!r} gone")

    def wait_closed(self, timeout: float = 10.0) -> str:
        """Wait for the session to end; return everything it printed (decoded)."""
        deadline = time.monotonic() + timeout
        while self.pump(0.1):
            if time.monotonic() > deadline:
                raise HarnessError(f"session still open after {timeout}s\n{self.dump()}")
        self.child.close()
        return self.raw.decode("utf-8", "replace")

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Read until no output has arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        last = len(self.raw)
        quiet_since = time.monotonic()
        while time.monotonic() < deadline and self.pump(0.05):
            if len(self.raw) != last:
                last = len(self.raw)
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= quiet:
                return

    # -- writing ---------------------------------------------------------------

    def type_text(self, text: str) -> None:
        """Type text as a player would (UTF-8)."""
        self.child.send(text.encode("utf-8"))
        self.pump(0.02)

    def press(self, *keys: str) -> None:
        """Press named keys (see :data:`KEYS`) or single characters."""
        for key in keys:
            seq = KEYS.get(key, key)
            self.child.send(seq.encode("utf-8"))
            self.pump(ESCAPE_PAUSE if key == "escape" else 0.02)

    def paste(self, text: str) -> None:
        """A bracketed paste, as a terminal sends it."""
        self.child.send(b"\x1b[200~" + text.encode("utf-8") + b"\x1b[201~")
        self.pump(0.02)

    def resize(self, cols: int, rows: int) -> None:
        """Resize the terminal (SIGWINCH to ssh, a window-change to the server)."""
        self.screen.resize(rows, cols)
        self.child.setwinsize(rows, cols)
        self.pump(0.02)

    # -- ending ----------------------------------------------------------------

    def close(self) -> None:
        """Hang up (SIGHUP, then SIGKILL)."""
        if self.child.isalive():
            self.child.close(force=True)
        if self in self.server.clients:
            self.server.clients.remove(self)

    def kill(self) -> None:
        """The client vanishes without a word: SIGKILL the ssh process."""
        if self.child.isalive():
            self.child.kill(signal.SIGKILL)
            with contextlib.suppress(Exception):
                self.child.wait()
        self.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def measure_first_screen(logins: int = 5) -> tuple[list[float], list[float]]:  # pragma: no cover
    """Per login, one at a time on an otherwise empty server: seconds from
    starting ``ssh`` to the lobby on its screen (host key shown), and the
    server's own "first frame" time (session channel open -> first App write)."""
    import tempfile

    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = ServerProcess(folder)
        server.start()
        try:
            key = keygen(folder / "client", "bench")
            for i in range(logins):
                client = server.client(f"bench{i}", key=key)
                times.append(client.wait_for(server.fingerprint))
                client.close()
        finally:
            server.stop()
        frames = [float(ms) / 1000 for ms in re.findall(r"first frame (\d+) ms", server.log_text())]
    return times, frames


def _main(argv: list[str]) -> int:  # pragma: no cover - a tool
    n = int(argv[1]) if len(argv) > 1 else 5

    def summary(values: list[float]) -> str:
        ordered = sorted(values)
        return (
            f"median {ordered[len(ordered) // 2] * 1000:.0f} ms, min {ordered[0] * 1000:.0f}, "
            f"max {ordered[-1] * 1000:.0f} ({len(values)} logins)"
        )

    times, frames = measure_first_screen(n)
    print("ssh start -> lobby on the client's screen:", summary(times))
    if frames:
        print("server: session open -> App's first frame:", summary(frames))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.path.insert(0, str(ROOT))
    raise SystemExit(_main(sys.argv))


__all__ = [
    "KEYS",
    "Client",
    "HarnessError",
    "ServerProcess",
    "keygen",
    "require_openssh",
    "running_in_ci",
    "ssh_binary",
]
