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
* At either cap a pending connection older than ``startup_evict_after``
  (from that source, or any) is closed to make room: silent sockets cannot
  hold the door shut; a flood of fresh handshakes meets the caps.
* Per-source penalties (sshd's PerSourcePenalties): a source's connections
  that end without authenticating add seconds to its penalty (``noauth``;
  ``authfail`` after failed attempts; ``grace`` when the login grace ran
  out; ``refused`` for each connection turned away at a cap). Once a source's
  penalty reaches ``penalty_min`` seconds, its connections are refused at
  accept until the penalty has run out (at most ``penalty_max`` ahead).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import random
import time
from collections import OrderedDict, deque
from collections.abc import Callable
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

    __slots__ = ("close", "failures", "gate", "opened_at", "pending", "source")

    def __init__(self, gate: Gate, source: str, opened_at: float, close: Callable[[], None]) -> None:
        self.gate = gate
        self.source = source
        self.opened_at = opened_at
        self.close = close
        self.pending = True
        self.failures = 0  # authentication attempts refused

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
            self._refuse(source, "penalised", "its penalty has not run out", penalty=False)
            return None
        mine = self.pending_by_source.get(source)
        if mine is not None and len(mine) >= self.limits.per_source_max_startups:
            if now - mine[0].opened_at < self.limits.startup_evict_after:
                self._refuse(source, "per-source", f"over per_source_max_startups {self.limits.per_source_max_startups}")
                return None
            self._evict(mine[0])
        count = len(self.pending)
        if count >= self.start:
            oldest = next(iter(self.pending), None)
            if oldest is not None and now - oldest.opened_at >= self.limits.startup_evict_after:
                self._evict(oldest)
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

    def _refuse(self, source: str, kind: str, why: str, *, penalty: bool = True) -> None:
        self.refused += 1
        refused(f"gate-{kind}")
        WARNINGS.warn(log, f"gate-{kind}", "refused a connection from %s at accept: %s", source, why)
        if penalty:
            self.penalise(source, self.limits.penalty_refused, "refused at a cap")

    def _evict(self, ticket: Ticket) -> None:
        """Close a pending connection to make room for a new one."""
        self.evicted += 1
        WARNINGS.warn(log, "gate-evict", "closed a connection from %s that had not logged in after %.0f s, for a newer one",
                      ticket.source, self.clock() - ticket.opened_at)
        self._unpend(ticket)
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


class GateProtocol(asyncio.Protocol):
    """What a new TCP connection first talks to: asks the gate, then hands the
    transport to asyncssh's connection, or closes it."""

    def __init__(self, listener: GateListener, session_factory: Callable[[str, int], Any]) -> None:
        self._listener = listener
        self._session_factory = session_factory

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        ticket = self._listener.gate.admit(address, transport.abort)
        if ticket is None:
            transport.abort()
            return
        ssh = self._session_factory("", 0)
        self._listener.handing_over = ticket
        try:
            transport.set_protocol(ssh)
            ssh.connection_made(transport)
        finally:
            self._listener.handing_over = None


class _Quiet:
    """asyncssh logs "... via SSH tunnel" for a listener passed as ``tunnel``: not one."""

    def info(self, *args: object, **kw: object) -> None:
        pass


class GateListener:
    """The listening socket, with :class:`Gate` in front of asyncssh.

    asyncssh builds its connection for each accepted socket inside its own
    listener; the one hook it offers for another listener is ``tunnel=``
    (an object whose ``create_server(factory, host, port)`` listens and calls
    ``factory`` for each connection to get asyncssh's). This listener is that
    object: a plain asyncio server whose connections see the gate first."""

    logger = _Quiet()

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.handing_over: Ticket | None = None
        """The ticket of the connection being handed to asyncssh right now
        (its ``SSHServer`` takes it in ``connection_made``)."""

    async def create_server(self, session_factory: Callable[[str, int], Any], host: str, port: int) -> asyncio.Server:
        loop = asyncio.get_running_loop()
        return await loop.create_server(
            lambda: GateProtocol(self, session_factory), host or None, port, backlog=128, reuse_address=True,
        )

    def close(self) -> None:
        pass

    async def wait_closed(self) -> None:
        pass
