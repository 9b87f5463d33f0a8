"""Admission before the SSH handshake: who may start one, decided at accept.

Every TCP connection passes :class:`Gate` before asyncssh sees it (no key
exchange, no version string: a refused connection costs an ``accept`` and a
close). Until it authenticates a connection is *pending*, and pending ones
are capped like sshd's, with the same names:

* ``max_startups`` ``start:rate:full`` (sshd's MaxStartups): beyond ``start``
  pending connections a new one is refused with probability ``rate`` %,
  rising linearly to 100 % at ``full``.
* ``per_source_max_startups``: pending connections from one source (an IPv4
  address, an IPv6 /64: ``per_source_netblock``). Authenticated connections
  never count, so players of a venue behind one NAT address are never locked
  out by pending ones.
* At either cap the oldest pending connection (from that source, or any)
  that is silent ``startup_evict_after`` seconds after it opened (no SSH
  version line), or not authenticating five times that long after, is
  closed to make room: silent sockets cannot hold the door shut, while a
  flood of fresh handshakes meets the caps.
* Per-source penalties (sshd's PerSourcePenalties): a source's connections
  that spoke SSH and ended without authenticating add seconds to its
  penalty (``noauth``; ``authfail`` after failed attempts; ``grace`` when
  the login grace ran out). Once a source's penalty reaches ``penalty_min``
  seconds, its connections are refused at accept until the penalty has run
  out (at most ``penalty_max`` ahead). Silent sockets and connections
  refused at a cap add nothing: they cost the server a socket, and an
  attacker behind a venue's NAT must not get the venue's players refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import random
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from typing import Any

from server.config import LimitsSection
from server.metrics import refused
from server.ratelog import WARNINGS

log = logging.getLogger("throneroom.gate")

PENALTY_SOURCES_MAX = 65536
"""Sources with a penalty kept at most (sshd's max-sources); beyond, new ones go unpenalised."""


def source_of(address: str, v4_prefix: int, v6_prefix: int) -> str:
    """The source an address counts for: its network of ``v4_prefix`` / ``v6_prefix``
    bits (an IPv4-mapped IPv6 address counts as the IPv4 one)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = v4_prefix if ip.version == 4 else v6_prefix
    if prefix >= ip.max_prefixlen:
        return str(ip)
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class Ticket:
    """One admitted connection, pending until :meth:`authenticated`."""

    __slots__ = ("attempted", "close", "failures", "gate", "opened_at", "pending", "source", "spoke")

    def __init__(self, gate: Gate, source: str, opened_at: float, close: Callable[[], None]) -> None:
        self.gate = gate
        self.source = source
        self.opened_at = opened_at
        self.close = close
        self.pending = True
        self.failures = 0  # authentication attempts refused
        self.attempted = False  # it began authenticating (its key exchange is done): never evicted
        self.spoke: Callable[[], bool] = lambda: True
        """Whether the client has sent its SSH version line (the server's connection tells)."""

    def authenticated(self) -> None:
        if self.pending:
            self.gate._unpend(self)

    def closed(self) -> None:
        """The connection is gone; a pending one costs its source a penalty."""
        if not self.pending:
            return
        self.gate._unpend(self)
        gate = self.gate
        limits = gate.limits
        if not self.spoke():
            return  # a silent socket cost a socket only; the caps bound those (no penalty for a venue's NAT)
        if self.failures:
            seconds, why = limits.penalty_authfail, "authentication failed"
        elif gate.clock() - self.opened_at >= limits.login_grace:
            seconds, why = limits.penalty_grace, "login grace exceeded"
        else:
            seconds, why = limits.penalty_noauth, "closed without authenticating"
        gate.penalise(self.source, seconds, why)


class Gate:
    """The admission rules of the module docstring, for one listener."""

    def __init__(
        self,
        limits: LimitsSection,
        clock: Callable[[], float] = time.monotonic,
        chance: Callable[[], float] = random.random,
    ) -> None:
        self.limits = limits
        self.clock = clock
        self._chance = chance
        self.start, self.rate, self.full = limits.startups
        self.v4_prefix, self.v6_prefix = limits.netblock
        self._exempt = [ipaddress.ip_network(net, strict=False) for net in limits.penalty_exempt]
        self.pending: OrderedDict[Ticket, None] = OrderedDict()  # oldest first
        self.pending_by_source: dict[str, deque[Ticket]] = {}
        self._penalties: dict[str, tuple[float, bool]] = {}  # source -> (penalty runs out at, enforced)
        self.refused = 0
        self.evicted = 0

    # -- at accept ----------------------------------------------------------------

    def admit(self, address: str, close: Callable[[], None]) -> Ticket | None:
        """A ticket for a new connection from ``address``, or None: refuse it.
        ``close`` closes it (when it is evicted for a newer one)."""
        now = self.clock()
        source = source_of(address, self.v4_prefix, self.v6_prefix)
        if self.penalised(source, now):
            self._refuse(source, "penalised", "its penalty has not run out")
            return None
        mine = self.pending_by_source.get(source)
        if mine is not None and len(mine) >= self.limits.per_source_max_startups:
            silent = self._silent(mine, now)
            if silent is None:
                self._refuse(source, "per-source", f"over per_source_max_startups {self.limits.per_source_max_startups}")
                return None
            self._evict(silent)
        count = len(self.pending)
        if count >= self.start:
            silent = self._silent(self.pending, now)
            if silent is not None:
                self._evict(silent)
            elif count >= self.full:
                self._refuse(source, "full", f"{count} connections not logged in (max_startups full)")
                return None
            else:
                drop = (self.rate + (100 - self.rate) * (count - self.start) / max(1, self.full - self.start)) / 100
                if self._chance() < drop:
                    self._refuse(source, "early-drop", f"{count} connections not logged in (max_startups early drop)")
                    return None
        ticket = Ticket(self, source, now, close)
        self.pending[ticket] = None
        self.pending_by_source.setdefault(source, deque()).append(ticket)
        return ticket

    def _silent(self, tickets: Iterable[Ticket], now: float) -> Ticket | None:
        """The oldest of ``tickets`` (oldest first) that may make room: silent
        (no SSH version line) ``startup_evict_after`` seconds after it opened,
        or not authenticating five times that long after (a client sends its
        version line at once and authenticates a few round trips later)."""
        wait = self.limits.startup_evict_after
        for ticket in tickets:
            age = now - ticket.opened_at
            if age < wait:
                return None
            if not ticket.attempted and (age >= 5 * wait or not ticket.spoke()):
                return ticket
        return None

    def _refuse(self, source: str, kind: str, why: str) -> None:
        """Turn a connection away (cheap: it costs an accept and a close, so it adds no penalty)."""
        self.refused += 1
        refused(f"gate-{kind}")
        WARNINGS.warn(log, f"gate-{kind}", "refused a connection from %s at accept: %s", source, why)

    def _evict(self, ticket: Ticket) -> None:
        """Close a pending connection to make room for a new one."""
        self.evicted += 1
        WARNINGS.warn(log, "gate-evict", "closed a connection from %s that had not logged in after %.0f s, for a newer one",
                      ticket.source, self.clock() - ticket.opened_at)
        self._unpend(ticket)
        if ticket.spoke():
            self.penalise(ticket.source, self.limits.penalty_noauth, "evicted before logging in")
        try:
            ticket.close()
        except Exception:  # already closing
            log.debug("closing an evicted connection failed", exc_info=True)

    def _unpend(self, ticket: Ticket) -> None:
        ticket.pending = False
        self.pending.pop(ticket, None)
        mine = self.pending_by_source.get(ticket.source)
        if mine is not None:
            with contextlib.suppress(ValueError):
                mine.remove(ticket)
            if not mine:
                del self.pending_by_source[ticket.source]

    # -- penalties ----------------------------------------------------------------

    def penalised(self, source: str, now: float | None = None) -> bool:
        """Connections from ``source`` are refused now."""
        entry = self._penalties.get(source)
        if entry is None:
            return False
        until, enforced = entry
        now = self.clock() if now is None else now
        if until <= now:
            del self._penalties[source]
            return False
        return enforced

    def penalise(self, source: str, seconds: float, why: str) -> None:
        """Add ``seconds`` to ``source``'s penalty (enforced once it reaches
        ``penalty_min``; never more than ``penalty_max`` ahead)."""
        if seconds <= 0 or self._is_exempt(source):
            return
        now = self.clock()
        until, enforced = self._penalties.get(source, (now, False))
        until = min(max(until, now) + seconds, now + self.limits.penalty_max)
        if not enforced and until - now >= self.limits.penalty_min:
            enforced = True
            log.warning("penalising %s for %.0f s: %s", source, until - now, why)
        if source not in self._penalties and len(self._penalties) >= PENALTY_SOURCES_MAX:
            self._penalties = {s: e for s, e in self._penalties.items() if e[0] > now}
            if len(self._penalties) >= PENALTY_SOURCES_MAX:
                return  # full of live penalties: new sources go unpenalised (sshd's "permissive")
        self._penalties[source] = (until, enforced)

    def _is_exempt(self, source: str) -> bool:
        if not self._exempt:
            return False
        try:
            net = ipaddress.ip_network(source, strict=False)
        except ValueError:
            return False
        return any(net.version == ex.version and net.subnet_of(ex) for ex in self._exempt)  # type: ignore[arg-type]


class _Quiet:
    """asyncssh logs "... via SSH tunnel" for a listener passed as ``tunnel``: not one."""

    def info(self, *args: object, **kw: object) -> None:
        pass


ACCEPTS_PER_WAKE = 128
"""Connections accepted at most each time a listening socket is readable."""


class GateServer:
    """Listening sockets whose connections see the gate first: each is
    accepted by hand (``socket.accept``), and a refused one is closed right
    there, before asyncio makes a transport of it (a transport is garbage in
    a reference cycle that waits for the collector) and before asyncssh
    makes a connection of it; an admitted one is given to asyncssh's
    protocol with ``loop.connect_accepted_socket``."""

    def __init__(self, listener: GateListener, session_factory: Callable[[str, int], Any],
                 sockets: list[socket.socket]) -> None:
        self._listener = listener
        self._factory = session_factory
        self._sockets = sockets
        self._loop = asyncio.get_running_loop()
        self._tasks: set[asyncio.Task[Any]] = set()
        for sock in sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._sockets)

    def _accept(self, listening: socket.socket) -> None:
        gate = self._listener.gate
        for _ in range(ACCEPTS_PER_WAKE):
            try:
                sock, peer = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # out of file descriptors, say: try again on the next wake
                WARNINGS.warn(log, "accept", "accepting a connection failed: %s", error)
                return
            ticket = gate.admit(str(peer[0]) if peer else "?", lambda: None)
            if ticket is None:
                sock.close()
                continue
            sock.setblocking(False)
            task = self._loop.create_task(self._hand_over(sock, ticket))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _hand_over(self, sock: socket.socket, ticket: Ticket) -> None:
        try:
            key = _socket_key(sock)
        except OSError:  # the client went away already
            sock.close()
            ticket.closed()
            return
        self._listener.tickets[key] = ticket
        try:
            await self._loop.connect_accepted_socket(lambda: self._factory("", 0), sock)
        except OSError:  # the client went away meanwhile
            sock.close()
        if self._listener.tickets.pop(key, None) is not None:  # no connection took it
            ticket.closed()

    def close(self) -> None:
        for sock in self._sockets:
            self._loop.remove_reader(sock.fileno())
            sock.close()
        self._sockets = []

    async def wait_closed(self) -> None:
        pass

    def is_serving(self) -> bool:
        return bool(self._sockets)


def _socket_key(sock: socket.socket) -> tuple[Any, Any]:
    return sock.getpeername(), sock.getsockname()


class GateListener:
    """The listener asyncssh is given: :class:`GateServer` in front of it.

    asyncssh builds its connection for each accepted socket inside its own
    listener; the one hook it offers for another listener is ``tunnel=``
    (an object whose ``create_server(factory, host, port)`` listens and calls
    ``factory`` for each connection to get asyncssh's). This listener is that
    object."""

    logger = _Quiet()

    def __init__(self, gate: Gate, backlog: int = 128) -> None:
        self.gate = gate
        self.backlog = backlog
        self.tickets: dict[tuple[Any, Any], Ticket] = {}
        """Tickets of connections being handed to asyncssh, by (peer, local)
        address: its ``SSHServer`` takes its own in ``connection_made``."""

    def take_ticket(self, peer: Any, local: Any) -> Ticket | None:
        return self.tickets.pop((peer, local), None)

    async def create_server(self, session_factory: Callable[[str, int], Any], host: str, port: int) -> GateServer:
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        sockets: list[socket.socket] = []
        try:
            for family, kind, proto, _name, address in dict.fromkeys(infos):
                sock = socket.socket(family, kind, proto)
                sockets.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
                sock.listen(self.backlog)
                sock.setblocking(False)
        except OSError:
            for sock in sockets:
                sock.close()
            raise
        return GateServer(self, session_factory, sockets)

    def close(self) -> None:
        pass

    async def wait_closed(self) -> None:
        pass
