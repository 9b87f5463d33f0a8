"""The SSH listener (:class:`ThroneServer`): start, warm-up, stop, the open
connections and sessions, and what it needs of the hub and the storage."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import asyncssh

from protocol.contract import Identity, LobbyClient
from server.config import Config
from server.gate import Gate, GateListener
from server.ratelog import WARNINGS
from server.ssh.apphost import RETIRE_RETRY, AppHost, prepare_app
from server.ssh.auth import Connection, allow_any_user_name
from server.sshdriver import SessionTerminal

if TYPE_CHECKING:
    from textual.app import App

    from server.heap import HeapKeeper
    from server.ssh.session import Session

log = logging.getLogger("throneroom.ssh")


class StorageLike(Protocol):
    """What the SSH layer needs from ``server.storage.Storage``."""

    def claim_name(self, name: str, key_fingerprint: str, *, lookalikes: bool = True) -> bool: ...

    def key_owner(self, name: str) -> str | None: ...

    def lookalike_owner(self, name: str, key_fingerprint: str | None = None) -> str | None: ...

    def names_of(self, key_fingerprint: str) -> list[str]: ...

    def claims_since(self, key_fingerprint: str, since: float) -> int: ...

    def get_lang(self, name: str) -> str | None: ...


_Client = TypeVar("_Client", bound=LobbyClient)


class HubLike(Protocol[_Client]):
    """What the SSH layer needs from ``server.hub.Hub``."""

    def connect(self, identity: Identity) -> _Client: ...

    def disconnect(self, client: _Client) -> None: ...

    def guest_seated(self, name: str) -> bool:
        """A guest holds a seat as ``name`` in a room that is still open."""
        ...


class ThroneServer:
    """The asyncssh listener plus the per-connection bookkeeping."""

    def __init__(
        self,
        config: Config,
        *,
        hub: HubLike[Any],
        storage: StorageLike,
        host_key: asyncssh.SSHKey,
        apps: AppHost,
        heap: HeapKeeper | None = None,
    ) -> None:
        self.config = config
        self.heap = heap  # its automatic collections are held while sessions draw their first screen
        self.hub = hub
        self.storage = storage
        self.host_key = host_key
        self.apps = apps
        self.sessions: set[Session] = set()
        self.opened = 0  # sessions opened since start (server.heap lets a burst of logins grow it)
        self.retired = 0  # of them, ended and their App taken apart (server.heap collects what is left)
        self.drawing = 0  # sessions opened whose first frame is not written yet (see drawing_starts)
        self.retire_after = apps.retire_after  # seconds from a session's end to taking its App apart
        self.per_address: Counter[str] = Counter()  # logged-in connections per IP address
        self.gate = Gate(config.limits)
        self.gate_listener = GateListener(self.gate)
        self.connections: set[Connection] = set()  # open SSH connections, logged in or not
        self.active_names: Counter[str] = Counter()
        self._listener: asyncssh.SSHAcceptor | None = None
        self._idle_task: asyncio.Task[None] | None = None
        self.port = 0

    def guest_holds(self, name: str) -> bool:
        """A guest plays as ``name`` now (no key owns it, so any session using it
        is a guest's), or holds a seat as it in an open room."""
        return self.active_names[name.casefold()] > 0 or self.hub.guest_seated(name)

    # -- lifecycle -------------------------------------------------------------

    async def start(self) -> int:
        """Listen; return the bound port."""
        limits = self.config.limits
        WARNINGS.interval = limits.warn_interval
        allow_any_user_name()
        self._listener = await asyncssh.create_server(
            lambda: Connection(self),
            self.config.server.host,
            self.config.server.port,
            server_host_keys=[self.host_key],
            encryption_algs=list(self.config.server.ciphers),
            mac_algs=list(self.config.server.macs),
            encoding=None,
            line_editor=False,
            allow_pty=True,
            x11_forwarding=False,
            agent_forwarding=False,
            sftp_factory=None,
            public_key_auth=True,
            kbdint_auth=True,
            password_auth=False,
            host_based_auth=False,
            gss_host=None,
            login_timeout=limits.login_grace,
            keepalive_interval=limits.keepalive_interval or None,
            keepalive_count_max=limits.keepalive_count_max,
            server_version="throneroom",
            tunnel=self.gate_listener,  # the listener: every connection passes the gate before asyncssh
        )
        sockets = self._listener.sockets
        self.port = sockets[0].getsockname()[1] if sockets else self.config.server.port
        if limits.idle_timeout > 0:
            self._idle_task = asyncio.create_task(self._watch_idle(limits.idle_timeout))
        return self.port

    def drawing_starts(self) -> None:
        """A session opened: until its first frame (:meth:`drawing_ends`) the
        heap keeper holds its automatic collections, and the hub and
        :meth:`_take_apart` let the logins go first."""
        self.drawing += 1
        if self.drawing == 1 and self.heap is not None:
            self.heap.hold()

    def drawing_ends(self) -> None:
        """A session wrote its first frame, or ended before it did."""
        self.drawing -= 1
        if self.drawing == 0 and self.heap is not None:
            self.heap.release()

    def _take_apart(self, ended: weakref.ref[App[Any]], name: str, deadline: float) -> None:
        """Take an ended session's App apart (``AppHost.take_apart``); while sessions
        draw their first screen it waits (freeing an App costs CPU the logins
        need: 0.8 ms in the median, 1.7 ms at most, for 30 that sat at tables,
        in one process; ~10 ms each in py-spy's samples of a burst), until
        ``deadline`` at most. Then the session
        counts as :attr:`retired` (also when its App was freed before)."""
        app = ended()
        if app is not None:
            loop = asyncio.get_running_loop()
            if self.drawing and loop.time() < deadline:
                loop.call_later(RETIRE_RETRY, self._take_apart, ended, name, deadline)
                return
            try:
                self.apps.take_apart(app)
            except Exception:
                log.exception("taking apart the ended session of %s failed", name)
        self.retired += 1

    async def warm_up(self, timeout: float = 10.0) -> float | None:
        """Draw one lobby, for a guest, on a terminal that writes nowhere, and
        end that session; call it before :meth:`start`, while nobody can see
        the guest in the lobby. The first player after a start otherwise paid
        for what the process does once (the games' modules imported, the
        stylesheet parsed, Textual's first-use caches filled): ~250 ms more
        than the logins after it (``./manage bench burst``: its first single
        login). Returns the seconds it took, None if it failed or timed out
        (logged; the server starts all the same)."""
        loop = asyncio.get_running_loop()
        drawn: asyncio.Future[None] = loop.create_future()
        terminal = SessionTerminal(lambda data: None, limits=self.config.limits)
        terminal.on_first_frame = lambda: None if drawn.done() else drawn.set_result(None)
        started = time.monotonic()
        lobby: LobbyClient | None = None
        task: asyncio.Task[Any] | None = None
        try:
            lobby = self.hub.connect(Identity(name="warm-up", guest=True))
            app = self.apps.new_app(lobby, terminal.driver_class)
            prepare_app(app, self.apps)
            task = asyncio.create_task(app.run_async(size=terminal.size), name="warm-up")
            done, _ = await asyncio.wait((drawn, task), timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if drawn not in done:
                log.warning("warm-up: no first frame (%s)", "the app ended" if task in done else "timed out")
                return None
            app.exit()
            await asyncio.wait_for(task, timeout)
            return time.monotonic() - started
        except Exception:
            log.exception("warm-up failed; starting all the same")
            return None
        finally:
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            terminal.close()
            if lobby is not None:
                self.hub.disconnect(lobby)

    async def stop(self, farewell: str = "shutdown") -> None:
        """Close every session (terminals restored, then the ``farewell``
        message, a key of ``ssh.*`` key of the catalogue) and the listener."""
        if self._idle_task is not None:
            self._idle_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._idle_task
            self._idle_task = None
        if self._listener is not None:
            self._listener.close()
        sessions = list(self.sessions)
        for session in sessions:
            session.end(farewell)
        tasks = [s.task for s in sessions if s.task is not None]
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=5)
            for task in pending:
                task.cancel()
        # then the connections: from Python 3.12 on the listener's wait_closed waits
        # for them all, so one still logging in (or a client that did not hang up)
        # kept the server from stopping. Those without a session are closed now; a
        # client whose session ended hangs up itself once it has the farewell (ssh
        # does), or is closed after 3 s (closing at once cut the farewell off)
        in_session = {session.connection for session in sessions}
        self._close_connections(lambda connection: connection not in in_session)
        if not await self._connections_gone(3.0):
            self._close_connections(lambda connection: True)
            await self._connections_gone(2.0)
        if self._listener is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listener.wait_closed(), 5)
            self._listener = None

    def _close_connections(self, which: Callable[[Connection], bool]) -> None:
        for connection in list(self.connections):
            if connection.conn is not None and which(connection):
                connection.conn.close()

    async def _connections_gone(self, timeout: float) -> bool:
        """Wait until every connection is closed, at most ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.connections and loop.time() < deadline:
            await asyncio.sleep(0.05)
        return not self.connections

    async def _watch_idle(self, timeout: float) -> None:
        period = min(30.0, max(0.5, timeout / 4))
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for session in list(self.sessions):
                if session.terminal is not None and now - session.terminal.last_input > timeout:
                    session.end("idle", minutes=max(1, round(timeout / 60)))

    # -- hints -----------------------------------------------------------------

    def connect_hint(self, conn: asyncssh.SSHServerConnection, name: str) -> str:
        """``ssh -p PORT NAME@HOST`` as the player would type it."""
        host = self.config.server.public_host
        if not host:
            sock = conn.get_extra_info("sockname")
            host = str(sock[0]) if sock else "localhost"
            if ":" in host:
                host = f"[{host}]"
        port = self.config.server.public_port or self.port
        port_part = "" if port == 22 else f"-p {port} "
        return f"ssh {port_part}{name}@{host}"
