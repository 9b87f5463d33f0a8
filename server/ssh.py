"""The SSH front door: authentication, identities, limits, one App per session.

* The SSH user name is the player's name (cleaned by :func:`server.sanitize.clean_name`).
* Public keys are identities: the first key to log in under a name owns it
  (``Storage.claim_name``). Another key is refused for that name.
* Clients without an accepted key get in through keyboard-interactive auth
  with no prompt; the session then either plays as a *guest* (when the
  config allows it and the name is not key-owned) or prints one clear message
  saying why not and how to connect instead, and closes. Refusals are shown
  inside the session because OpenSSH prints what a session writes, while
  auth failures show only "Permission denied"; a key refused for a name also
  gets the message as an auth banner, for clients that never try
  keyboard-interactive (``BatchMode``).
* Each interactive session with a PTY runs one Textual App on the shared
  event loop through :mod:`server.sshdriver`. No PTY, exec requests,
  subsystems (SFTP/SCP), port/agent/X11 forwarding: refused.
* Limits: before login, every connection passes :mod:`server.gate` at accept
  (caps on connections not logged in, per-source penalties); then logged-in
  connections per address, authentication tries, login grace time, sessions
  per connection, connections without a session, idle timeout, maximum
  sessions; keepalives find dead connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import sys
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TextIO, TypeVar, cast

import asyncssh
import asyncssh.connection
import rich.traceback
from asyncssh.saslprep import SASLPrepError, saslprep
from rich.console import Console

from protocol.contract import Identity, LobbyClient
from protocol.i18n import Lang, t
from server.club import Club, when
from server.config import Config
from server.gate import Gate, GateListener, Ticket
from server.metrics import refused
from server.ratelog import WARNINGS
from server.sanitize import clean_name, clean_text, lookalike_name
from server.sshdriver import SessionTerminal

if TYPE_CHECKING:
    from textual.app import App
    from textual.driver import Driver

    from server.heap import HeapKeeper

log = logging.getLogger("throneroom.ssh")
app_log = logging.getLogger("throneroom.app")

RETIRE_WAIT_MAX = 30.0
"""Seconds an ended session's App waits at most, beyond ``retire_after``, for
the sessions drawing their first screen (``ThroneServer._take_apart``)."""
RETIRE_RETRY = 0.5


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


AppFactory = Callable[[LobbyClient, "type[Driver]"], "App[Any]"]


@dataclass(frozen=True)
class AppHost:
    """What the SSH server needs of the screens, given by the composition root
    (:func:`server.cli.app_host`) so that ``server`` imports no screen module."""

    new_app: AppFactory  # the App one session runs, for its lobby client and terminal driver
    share_styles: Callable[[App[Any]], None]  # one parsed stylesheet for every session's App
    take_apart: Callable[[App[Any]], object]  # frees an ended session's App (its reference cycles)
    retire_after: float  # seconds from a session's end to taking its App apart


# -- process-wide output capture ----------------------------------------------


class LogStream(io.TextIOBase):
    """A text stream that sends each complete line to a logger."""

    def __init__(self, logger: logging.Logger, level: int) -> None:
        super().__init__()
        self._logger = logger
        self._level = level
        self._buf = ""
        self._writing = False

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if self._writing:
            # logging wrote back into this stream (no handler configured: its last
            # resort writes to sys.stderr, which is this stream): to the real one
            if sys.__stderr__ is not None:
                sys.__stderr__.write(text)
            return len(text)
        self._writing = True
        try:
            self._write(text)
        finally:
            self._writing = False
        return len(text)

    def _write(self, text: str) -> None:
        self._buf += text
        if "\n" in self._buf:
            *lines, self._buf = self._buf.split("\n")
            for line in lines:
                if line.strip():
                    self._logger.log(self._level, "%s", line.rstrip())
        if len(self._buf) > 8192:
            self.flush()

    def flush(self) -> None:
        if self._buf.strip():
            self._logger.log(self._level, "%s", self._buf.rstrip())
        self._buf = ""


_shared_stdout = LogStream(app_log, logging.INFO)
_shared_stderr = LogStream(app_log, logging.WARNING)


def capture_process_output() -> None:
    """Route ``print`` and stray stderr writes of every session to the log.

    Textual swaps ``sys.stdout``/``sys.stderr`` around each App's message
    loop; overlapping Apps would leave them pointing at a dead App's capture.
    Every App is given the same two streams instead (see :func:`prepare_app`),
    and the process starts with them installed, so every swap is a no-op.
    Logging handlers must write to ``sys.__stderr__``.
    """
    sys.stdout = cast(TextIO, _shared_stdout)
    sys.stderr = cast(TextIO, _shared_stderr)


# -- messages shown outside the App (refusals, farewells) ----------------------




def message(key: str, lang: Lang = "en", **values: object) -> str:
    """A message for a client outside the App, in ``lang`` (the catalogue's ``ssh.<key>``)."""
    return t(f"ssh.{key}", lang, **values)


def _user_name(text: str) -> str:
    """asyncssh's SASLprep of a user name, or the name as sent where SASLprep
    refuses it: an emoji is "unassigned" in its Unicode 3.2 tables, and OpenSSH
    printed only "Received disconnect ...: Unassigned character" (the server
    logged nothing). :func:`clean_name` makes a player name of any text, and the
    lobby says when it changed the one asked for (or the session says why none
    is left)."""
    try:
        return saslprep(text)
    except SASLPrepError:
        return text


def allow_any_user_name() -> None:
    """Let user names SASLprep refuses reach :meth:`Connection.begin_auth`."""
    names = vars(asyncssh.connection)  # the module's own name for it, used for the user name
    if names.get("saslprep") is saslprep:
        names["saslprep"] = _user_name


def lang_from_env(env: dict[str, str] | Any) -> Literal["en", "zh"] | None:
    """Language from the client's locale variables, if it sent any."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = str(env.get(var, "") or "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return None


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


class Connection(asyncssh.SSHServer):
    """One SSH connection: authentication and identity decisions."""

    def __init__(self, server: ThroneServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.raw_user = ""
        self.name = ""
        self.lookalike = False  # the name could pass for another's: refused, and never claimed
        self.lookalike_of: str | None = None  # a name of another key that this one could pass for
        self.key_fingerprint: str | None = None
        self.guest_auth = False
        self.refused_key = False
        self.claim_failed = False
        self.storage_failed = False  # the name could not be checked or claimed (never said as "owned")
        self.names_refusal: tuple[str, list[str], int] | None = None  # too many names: (message, its names, count)
        self.guest_holds = False  # a key found the free name in a guest's use: not claimed, "in use"
        self._banner_sent = False
        self._counted = False
        self.over_limit = False
        self.sessions_open = 0  # session channels open now (limits.sessions_per_connection)
        self.ticket: Ticket | None = None  # from the gate: pending until authenticated
        self.auth_failures = 0
        self._unused_timer: asyncio.TimerHandle | None = None

    # -- connection ------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.server.connections.add(self)
        self.ticket = self.server.gate_listener.take_ticket(conn.get_extra_info("peername"), conn.get_extra_info("sockname"))
        if self.ticket is not None:
            self.ticket.spoke = lambda: conn.get_extra_info("client_version") is not None
            self.ticket.close = conn.abort
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        if self.ticket is not None:
            self.ticket.closed()
        if self._unused_timer is not None:
            self._unused_timer.cancel()
            self._unused_timer = None
        if self._counted:
            self._counted = False
            counts = self.server.per_address
            counts[self.peer] -= 1
            if counts[self.peer] <= 0:
                del counts[self.peer]

    # -- authentication --------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        if self.ticket is not None:
            self.ticket.attempted = True
        self.raw_user = username
        self.name = clean_name(username)
        self.lookalike = bool(self.name) and lookalike_name(self.name)
        limit = self.server.config.limits.max_per_address
        if self.server.per_address[self.peer] >= limit:
            # Logged-in connections count (not those still logging in: the gate
            # caps them). Refused once authentication begins: a disconnect sent
            # before the key exchange shows up in OpenSSH as "invalid format",
            # one sent after it as "Received disconnect ...: too many connections ...".
            self.over_limit = True
            WARNINGS.warn(log, "per-address", "refusing %s: more than %d connections", self.peer, limit)
        if self.over_limit and self.conn is not None:
            limit = self.server.config.limits.max_per_address
            asyncio.get_running_loop().call_soon(
                self.conn.disconnect,
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                f"too many connections from your address (limit {limit})",
            )
        return True  # always authenticate (a key, or keyboard-interactive for guests)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.over_limit or self.auth_failures >= self.server.config.limits.max_auth_tries:
            return False
        if not self.name:
            self._auth_failed()
            return False
        if self.lookalike:
            return True  # in, to be told why the name will not do (nothing is claimed)
        fp = key.get_fingerprint("sha256")
        try:
            owner = self.server.storage.key_owner(self.name)
        except Exception:
            log.exception("key_owner(%r) failed", self.name)
            return False
        if owner is None or owner == fp:
            self.key_fingerprint = fp
            return True
        self.refused_key = True
        self._auth_failed()
        self._send_banner(
            message(
                "owned-banner",
                "en",  # the client's locale is only known after authentication
                name=self.name,
                other=self.server.connect_hint(self._conn(), "othername"),
            )
        )
        return False

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # No prompt: whether this client may play as a guest is decided (and
        # explained on screen) when its session starts.
        if self.over_limit:
            return False
        self.key_fingerprint = None
        self.guest_auth = True
        return True

    def password_auth_supported(self) -> bool:
        return False

    def _auth_failed(self) -> None:
        """One more refused attempt; at ``limits.max_auth_tries`` the connection is closed."""
        self.auth_failures += 1
        if self.ticket is not None:
            self.ticket.failures += 1
        limit = self.server.config.limits.max_auth_tries
        if self.auth_failures == limit and self.conn is not None:
            refused("auth-tries")
            WARNINGS.warn(log, "auth-tries", "closing the connection from %s: %d authentication attempts refused",
                          self.peer, limit)
            asyncio.get_running_loop().call_soon(
                self.conn.disconnect, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                "too many authentication failures",
            )

    def auth_completed(self) -> None:
        if self.ticket is not None:
            self.ticket.authenticated()
        self.server.per_address[self.peer] += 1
        self._counted = True
        self._watch_unused()
        fp = self.key_fingerprint
        if fp is None or self.guest_auth or not self.name or self.lookalike:
            return
        storage = self.server.storage
        club: Club | None = getattr(self.server.hub, "club", None)
        try:
            if club is not None and (
                club.ban_for(key=fp, name=self.name, address=self.peer) is not None
                or (self.server.config.players.members == "invite" and not club.is_member(fp))
            ):
                return  # refused in the session, or a member first: no name is claimed for it
            owner = storage.key_owner(self.name)
            if owner is None and self.server.config.players.protect_lookalikes:
                self.lookalike_of = storage.lookalike_owner(self.name, fp)
            if self.lookalike_of is not None:
                log.info("name %r not claimed by key %s (%s): it could pass for %r", self.name, fp, self.peer,
                         self.lookalike_of)
            elif owner is None and self.server.guest_holds(self.name):
                self.guest_holds = True
                log.info("name %r not claimed by key %s (%s): a guest plays as it", self.name, fp, self.peer)
            elif owner is None and (refusal := self._names_refusal(fp)) is not None:
                self.names_refusal = refusal
                log.info("name %r not claimed by key %s (%s): %s", self.name, fp, self.peer, refusal[0])
            elif owner is None:
                if storage.claim_name(self.name, fp, lookalikes=self.server.config.players.protect_lookalikes):
                    log.info("name %r claimed by key %s (%s)", self.name, fp, self.peer)
                else:
                    self.claim_failed = storage.key_owner(self.name) != fp
            elif owner != fp:
                self.claim_failed = True
        except Exception:
            log.exception("claim_name(%r) failed", self.name)
            self.storage_failed = True

    def _names_refusal(self, fp: str) -> tuple[str, list[str], int] | None:
        """Why ``fp`` may not claim another name (players.names_per_key, name_claims_per_hour), if so:
        the message's key, the names it owns, and the count the message gives."""
        players = self.server.config.players
        storage = self.server.storage
        owned = storage.names_of(fp)
        if len(owned) >= players.names_per_key:
            return "too-many-names", owned, len(owned)
        recent = storage.claims_since(fp, time.time() - 3600)
        if recent >= players.name_claims_per_hour:
            return "name-claims-fast", owned, recent
        return None

    def _send_banner(self, text: str) -> None:
        if self._banner_sent or self.conn is None:
            return
        self._banner_sent = True
        with contextlib.suppress(OSError):
            self.conn.send_auth_banner(text)

    def _conn(self) -> asyncssh.SSHServerConnection:
        assert self.conn is not None
        return self.conn

    # -- channels --------------------------------------------------------------

    def session_requested(self) -> Session | bool:
        limit = self.server.config.limits.sessions_per_connection
        if self.sessions_open >= limit:
            refused("sessions-per-connection")
            WARNINGS.warn(log, "sessions-per-connection", "refused a session from %s: %d open on its connection already",
                          self.peer, limit)
            return False
        self.sessions_open += 1
        if self._unused_timer is not None:
            self._unused_timer.cancel()
            self._unused_timer = None
        return Session(self)

    def session_closed(self) -> None:
        """A session channel of this connection closed."""
        self.sessions_open -= 1
        self._watch_unused()

    def _watch_unused(self) -> None:
        """Close the connection if it has no session for ``limits.unused_connection_timeout``."""
        timeout = self.server.config.limits.unused_connection_timeout
        if timeout > 0 and not self.sessions_open and self._unused_timer is None and self.conn is not None:
            self._unused_timer = asyncio.get_running_loop().call_later(timeout, self._close_unused, timeout)

    def _close_unused(self, timeout: float) -> None:
        self._unused_timer = None
        if self.sessions_open or self.conn is None:
            return
        log.info("closing the connection from %s: no session for %g s", self.peer, timeout)
        self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"no session opened for {timeout:g} s")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        WARNINGS.log(log, logging.INFO, "forwarding", "refused port forwarding to %s:%s from %s", dest_host, dest_port, self.peer)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        WARNINGS.log(log, logging.INFO, "remote-forwarding", "refused remote forwarding %s:%s from %s",
                     listen_host, listen_port, self.peer)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> bool:
        return False

    def tap_requested(self, unit: int | None) -> bool:
        return False

    # -- identity --------------------------------------------------------------

    def decide(self, env: Any) -> Identity | str:
        """The session's identity, or the message explaining why there is none."""
        server = self.server
        lang = lang_from_env(env) or "en"
        hint = server.connect_hint(self._conn(), "yourname")
        other = server.connect_hint(self._conn(), "othername")
        if not self.name:
            return self._refusal("bad-name", lang, raw=_printable(self.raw_user), hint=hint)
        if self.lookalike:
            return self._refusal("lookalike", lang, name=self.name, hint=hint)
        club: Club | None = getattr(server.hub, "club", None)  # a test's hub may have none
        keyed = self.key_fingerprint is not None and not self.guest_auth
        if club is not None:  # a ban is said before anything else about the name
            fp = self.key_fingerprint if keyed else None
            try:
                ban = club.ban_for(key=fp, name=self.name, address=self.peer)
            except Exception:
                log.exception("ban_for(%r) failed", self.name)
                return self._refusal("storage-error", lang)
            if ban is not None:
                if ban.until is None:
                    return self._refusal("banned", lang, reason=ban.reason)
                return self._refusal("banned-until", lang, reason=ban.reason, until=when(ban.until))
        members_only = server.config.players.members == "invite"
        if keyed:
            if self.storage_failed:
                return self._refusal("storage-error", lang)
            if self.claim_failed:
                return self._owned(lang, other)
            if self.names_refusal is not None:
                key, owned, count = self.names_refusal
                hint = server.connect_hint(self._conn(), owned[0]) if owned else other
                return self._refusal(key, lang, count=count, names=", ".join(owned), hint=hint)
            if self.lookalike_of is not None:
                return self._refusal("lookalike-owned", lang, name=self.name, owned=self.lookalike_of, other=other)
            if self.guest_holds:  # a key may own a free name, but not take it from a guest playing as it
                return self._refusal("in-use", lang, name=self.name, other=other)
            fp = self.key_fingerprint or ""
            admin = club is not None and club.is_admin(fp)
            if members_only and club is not None and club.revoked(fp):
                return self._refusal("not-member", lang)
            invite_needed = members_only and club is not None and not club.is_member(fp)
            if invite_needed and server.storage.key_owner(self.name) not in (None, fp):
                return self._owned(lang, other)
            if invite_needed and server.config.players.protect_lookalikes:
                like = server.storage.lookalike_owner(self.name, fp)
                if like is not None:
                    return self._refusal("lookalike-owned", lang, name=self.name, owned=like, other=other)
            return Identity(
                name=self.name, guest=False, lang=self._lang(env, stored=True), asked_as=self._asked_as(),
                key_fingerprint=fp, address=self.peer, admin=admin,
                invite_needed=invite_needed,
            )
        if members_only:
            return self._refusal("members-need-key", lang, hint=hint)
        try:
            owner = server.storage.key_owner(self.name)
            like = server.storage.lookalike_owner(self.name) if server.config.players.protect_lookalikes else None
        except Exception:
            log.exception("key_owner(%r) failed", self.name)
            return self._refusal("storage-error", lang)
        if owner is not None:
            return self._owned(lang, other)
        if like is not None:
            return self._refusal("lookalike-owned", lang, name=self.name, owned=like, other=other)
        if not server.config.players.allow_guests:
            return self._refusal("need-key", lang, hint=hint)
        if server.active_names[self.name.casefold()] > 0:
            return self._refusal("in-use", lang, name=self.name, other=other)
        return Identity(
            name=self.name, guest=True, lang=self._lang(env, stored=False), asked_as=self._asked_as(), address=self.peer
        )

    def _owned(self, lang: Lang, other: str) -> str:
        """Why a name owned by another key is refused; not said twice after the auth banner."""
        key = "owned-after-banner" if self._banner_sent else "owned"
        return self._refusal(key, lang, name=self.name, other=other)

    def _refusal(self, key: str, lang: Lang, **values: object) -> str:
        """Why this client may not play (a message of ``ssh.*`` key of the catalogue), counted by cause."""
        refused(key)
        return message(key, lang, **values)

    def _asked_as(self) -> str:
        """The user name asked for, printable, when the player name made of it differs."""
        return "" if self.raw_user == self.name else _printable(self.raw_user)

    def _lang(self, env: Any, *, stored: bool) -> Lang:
        if stored:
            try:
                choice = self.server.storage.get_lang(self.name)
            except Exception:
                log.exception("get_lang(%r) failed", self.name)
                choice = None
            if choice in ("en", "zh"):
                return cast(Lang, choice)
        return lang_from_env(env) or "en"


def _printable(text: str) -> str:
    return clean_text(text, 40) or "(empty)"


class Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel: a PTY shell runs the game App."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.server = connection.server
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.has_pty = False
        self.size = (80, 24)
        self.terminal: SessionTerminal | None = None
        self.app: App[Any] | None = None
        self.lobby: LobbyClient | None = None
        self.identity: Identity | None = None
        self.task: asyncio.Task[None] | None = None
        self.farewell = ""
        self.lang: Lang = "en"
        self.lost = False
        self.started_at = time.monotonic()
        self._drawing = False  # opened, first frame not written yet (ThroneServer.drawing_starts)

    # -- asyncssh callbacks ----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=256 * 1024, low=64 * 1024)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.has_pty = True
        self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        WARNINGS.log(log, logging.INFO, "exec", "refused exec request from %s: %r", self.connection.peer, command[:80])
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        WARNINGS.log(log, logging.INFO, "subsystem", "refused subsystem %r from %s", subsystem[:40], self.connection.peer)
        return False

    def session_started(self) -> None:
        chan = self.chan
        assert chan is not None
        env = chan.get_environment()
        self.lang = lang_from_env(env) or "en"
        decision = self.connection.decide(env)
        if isinstance(decision, str):  # said first, terminal or not: "ssh -t" with a refused name was no help
            log.info("refused %r from %s: %s", self.connection.raw_user[:40], self.connection.peer, decision.splitlines()[0])
            self._close_with(decision)
            return
        if not self.has_pty:
            hint = self.server.connect_hint(self.connection._conn(), decision.name)
            self._close_with(message("no-pty", self.lang, hint=hint.replace("ssh ", "ssh -t ", 1)))
            return
        if len(self.server.sessions) >= self.server.config.limits.max_sessions:
            WARNINGS.warn(log, "server-full", "server full: refused %r from %s", decision.name, self.connection.peer)
            refused("full")
            self._close_with(message("full", self.lang))
            return
        self.identity = decision
        self.lang = decision.lang
        # The terminal exists from now on, so keys typed while the App starts are kept.
        self.terminal = SessionTerminal(chan.write, self.size, self.server.config.limits)
        self.terminal.on_first_frame = self._first_frame
        self.terminal.on_flood = self._flooded
        self.server.sessions.add(self)
        self.server.opened += 1
        self._drawing = True
        self.server.drawing_starts()
        self.server.active_names[decision.name.casefold()] += 1
        self.task = asyncio.create_task(self._run(), name=f"session {decision.name}")

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.terminal is not None:
            self.terminal.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.terminal is not None:
            self.terminal.resize(width, height)

    def pause_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.pause_writing()

    def resume_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.resume_writing()

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        self.end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self.terminal is not None:
            self.terminal.close()
        self.end()
        self.connection.session_closed()

    # -- running the App -------------------------------------------------------

    def end(self, farewell: str = "", **values: object) -> None:
        """Ask the App to exit; the ``farewell`` message (a key of ``ssh.*`` key of the catalogue)
        is printed after the terminal is restored."""
        if farewell and not self.farewell:
            self.farewell = message(farewell, self._current_lang(), **values)
        app = self.app
        if app is not None:
            app.exit()  # also stops an App that is still starting
        elif self.task is not None and not self.task.done():
            self.task.cancel()

    async def _run(self) -> None:
        identity = self.identity
        assert identity is not None and self.chan is not None
        name = identity.name
        crashed = False
        log.info(
            "session start: %s%s from %s (%dx%d)",
            name, " (guest)" if identity.guest else "", self.connection.peer, *self.size,
        )
        try:
            terminal = self.terminal
            assert terminal is not None
            self.lobby = self.server.hub.connect(identity)
            if hasattr(self.lobby, "ender"):  # the hub may end it: a ban, an admin's kick
                self.lobby.ender = lambda key, values: self.end(key, **values)
            app = self.app = self.server.apps.new_app(self.lobby, terminal.driver_class)
            prepare_app(app, self.server.apps)
            await app.run_async(size=terminal.size)
            error = getattr(app, "_exception", None)
            if error is not None or (app.return_code or 0) != 0:
                crashed = True
                if isinstance(error, BaseException):
                    log.error(
                        "session %s crashed", name,
                        exc_info=(type(error), error, error.__traceback__),
                    )
                else:
                    log.error("session %s ended with return code %s", name, app.return_code)
        except asyncio.CancelledError:
            pass
        except Exception:
            crashed = True
            log.exception("session %s failed", name)
        finally:
            self._finish(crashed)

    def _flooded(self) -> None:
        seconds = self.server.config.limits.input_flood_timeout
        log.warning("session %s: input flood for %.0f s from %s: closed",
                    self.identity.name if self.identity else "?", seconds, self.connection.peer)
        self.end("flood", seconds=f"{seconds:g}")

    def _first_frame(self) -> None:
        self._drawn()
        ms = (time.monotonic() - self.started_at) * 1000
        log.info("session %s: first frame %.0f ms after the session opened", self.identity.name if self.identity else "?", ms)

    def _drawn(self) -> None:
        """The first frame was written, or the session ended before it was."""
        if self._drawing:
            self._drawing = False
            self.server.drawing_ends()

    def _finish(self, crashed: bool) -> None:
        self._drawn()
        identity = self.identity
        name = identity.name if identity else "?"
        lang = self._current_lang()
        if self.terminal is not None:
            self.terminal.close()  # the App is gone: nothing more goes through it
        if self.lobby is not None:
            try:
                self.server.hub.disconnect(self.lobby)
            except Exception:
                log.exception("hub.disconnect failed for %s", name)
            self.lobby = None
        counted = self in self.server.sessions  # counted in server.opened
        if counted:
            self.server.sessions.discard(self)
            folded = name.casefold()
            self.server.active_names[folded] -= 1
            if self.server.active_names[folded] <= 0:
                del self.server.active_names[folded]
        app = self.app
        if app is not None:
            self.app = None
            # its widgets freed by reference counting, not left for a full collection
            # (held weakly meanwhile: a full collection may free it first)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.server.retire_after + RETIRE_WAIT_MAX
            loop.call_later(self.server.retire_after, self.server._take_apart, weakref.ref(app), name, deadline)
        elif counted:
            self.server.retired += 1  # no App: nothing to take apart
        text = self.farewell
        if crashed and not text:
            text = message("crashed", lang)
        log.info("session end: %s after %.0fs%s", name, time.monotonic() - self.started_at, " (crashed)" if crashed else "")
        self._close_with(text, status=1 if crashed else 0)

    def _current_lang(self) -> Lang:
        """The player's language now (they may have switched inside the App)."""
        lobby = self.lobby
        if lobby is not None:
            with contextlib.suppress(Exception):
                return lobby.identity.lang
        return self.lang

    def _close_with(self, text: str, status: int = 1) -> None:
        chan = self.chan
        if chan is None or self.lost:
            return
        try:
            if text:
                chan.write(("\r\n" + text + "\r\n").encode("utf-8", "replace"))
            chan.exit(status)
        except Exception:  # the channel went away meanwhile
            log.debug("channel closed before the farewell", exc_info=True)


def keep_tasks_lazy(loop: asyncio.AbstractEventLoop) -> None:
    """Keep ``asyncio.eager_task_factory`` off the shared event loop.

    On Python 3.12 and later Textual's ``App.run_async`` makes the running
    loop's task factory eager, for the whole loop: every session, room and
    timer of the server. An eager task runs its first step inside
    ``create_task``, so a room that starts its timer or bot task in its own
    context (``context=``, already entered) failed with "cannot enter
    context", and asyncio's record of the current task went wrong for every
    session after it: a server on Python 3.13 hung at the first match. Tasks
    here are started lazily, as on 3.11; Textual does not need eager ones."""
    eager = getattr(asyncio, "eager_task_factory", None)
    if eager is None or getattr(loop, "_throneroom_lazy", False):
        return
    setter = loop.set_task_factory

    def set_task_factory(factory: Any) -> None:
        if factory is not eager:
            setter(factory)

    loop.set_task_factory = set_task_factory  # type: ignore[method-assign]
    loop._throneroom_lazy = True  # type: ignore[attr-defined]
    if loop.get_task_factory() is eager:
        setter(None)


def prepare_app(app: App[Any], apps: AppHost) -> None:
    """Share the process-wide output streams, parsed CSS and style matches; error
    output to the log, a crash's traceback without locals (:func:`tracebacks_without_locals`);
    the running loop's tasks stay lazy (:func:`keep_tasks_lazy`)."""
    with contextlib.suppress(RuntimeError):  # no loop running yet: nothing to guard (the server calls this on its loop)
        keep_tasks_lazy(asyncio.get_running_loop())
    apps.share_styles(app)
    app._capture_stdout = _shared_stdout  # type: ignore[assignment]
    app._capture_stderr = _shared_stderr  # type: ignore[assignment]
    app.error_console = Console(
        file=cast(TextIO, LogStream(app_log, logging.DEBUG)),
        width=120,
        color_system=None,
        force_terminal=False,
        markup=False,
        highlight=False,
    )
    fatal_error = app._fatal_error

    def fatal_error_without_locals() -> None:
        with tracebacks_without_locals():
            fatal_error()

    app._fatal_error = fatal_error_without_locals  # type: ignore[method-assign]


@contextlib.contextmanager
def tracebacks_without_locals() -> Iterator[None]:
    """Rich tracebacks made meanwhile leave out the frames' local variables.

    Textual renders a crashed App's traceback with its locals (the error
    console: the server log at DEBUG); a session's locals hold its seat's
    view, private to that seat, and whoever reads the log may be a player.
    The server's own record of the crash (``session ... crashed``) is a
    plain traceback without locals."""
    original = rich.traceback.Traceback

    class Plain(original):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kw: Any) -> None:
            kw["show_locals"] = False
            super().__init__(*args, **kw)

    rich.traceback.Traceback = Plain  # type: ignore[misc]
    try:
        yield
    finally:
        rich.traceback.Traceback = original  # type: ignore[misc]
