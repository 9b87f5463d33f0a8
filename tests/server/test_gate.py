"""Admission before the SSH handshake (server/gate.py): issue 45 finding 5.
The rules with a fake clock; the server's use of them is in test_ssh_server."""

from __future__ import annotations

import pytest

from server.config import LimitsSection
from server.gate import Gate, Ticket, source_of


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make(chance: float = 0.99, **limits: object) -> tuple[Gate, Clock]:
    clock = Clock()
    return Gate(LimitsSection(**limits), clock=clock, chance=lambda: chance), clock  # type: ignore[arg-type]


def admit(gate: Gate, address: str, closed: list[str] | None = None, *, silent: bool = False) -> Ticket | None:
    """Admit a connection; a ``silent`` one never sends its SSH version line."""
    ticket = gate.admit(address, lambda: closed.append(address) if closed is not None else None)
    if ticket is not None and silent:
        ticket.spoke = lambda: False
    return ticket


def test_sources_group_ipv6_by_64_and_map_ipv4() -> None:
    assert source_of("203.0.113.7", 32, 64) == "203.0.113.7"
    assert source_of("2001:db8::1", 32, 64) == source_of("2001:db8::ffff:1", 32, 64) == "2001:db8::/64"
    assert source_of("2001:db8:0:1::1", 32, 64) != source_of("2001:db8::1", 32, 64)
    assert source_of("::ffff:203.0.113.7", 32, 64) == "203.0.113.7"
    assert source_of("203.0.113.7", 24, 64) == "203.0.113.0/24"


def test_pending_connections_per_source_are_capped_and_logged_in_ones_never_count() -> None:
    gate, _clock = make(per_source_max_startups=3, max_startups="100:30:200")
    first = [admit(gate, "198.51.100.1") for _ in range(3)]
    assert all(first)
    assert admit(gate, "198.51.100.1") is None  # a fourth pending one from there
    assert admit(gate, "198.51.100.2") is not None  # another source is not affected
    for ticket in first:  # they log in: a venue behind one NAT can have any number of players
        assert ticket is not None
        ticket.authenticated()
    assert all(admit(gate, "198.51.100.1") for _ in range(3))


def test_silent_connections_yield_to_new_ones_once_old() -> None:
    """50 silent sockets from one address locked a venue out for the login grace."""
    gate, clock = make(per_source_max_startups=3, startup_evict_after=5.0, max_startups="100:30:200")
    closed: list[str] = []
    silent = [admit(gate, "198.51.100.1", closed, silent=True) for _ in range(3)]
    clock.now += 6.0
    player = admit(gate, "198.51.100.1", closed)
    assert player is not None and closed == ["198.51.100.1"]  # the oldest silent one made room
    assert silent[0] is not None and not silent[0].pending
    assert len(gate.pending_by_source["198.51.100.1"]) == 3


def test_a_connection_that_began_authenticating_is_not_evicted() -> None:
    gate, clock = make(per_source_max_startups=2, startup_evict_after=2.0, max_startups="100:30:200")
    closed: list[str] = []
    busy = admit(gate, "198.51.100.1", closed)
    silent = admit(gate, "198.51.100.1", closed, silent=True)
    assert busy is not None and silent is not None
    busy.attempted = True  # its key exchange is done: it is logging in
    clock.now += 3.0
    assert admit(gate, "198.51.100.1", closed) is not None
    assert not silent.pending and busy.pending
    clock.now += 1.0
    assert admit(gate, "198.51.100.1", closed) is None  # only the busy one and a young one are left


def test_a_connection_that_spoke_but_stalls_yields_later_and_costs_a_penalty() -> None:
    gate, clock = make(per_source_max_startups=1, startup_evict_after=1.0, max_startups="100:30:200",
                       penalty_noauth=1.0, penalty_min=15.0)
    closed: list[str] = []
    stalled = admit(gate, "198.51.100.1", closed)  # sent its version line, then nothing
    clock.now += 2.0
    assert admit(gate, "198.51.100.1", closed) is None
    clock.now += 3.5
    assert admit(gate, "198.51.100.1", closed) is not None
    assert stalled is not None and not stalled.pending and closed == ["198.51.100.1"]
    assert gate._penalties["198.51.100.1"][0] > clock.now


def test_silent_sockets_cost_their_source_no_penalty() -> None:
    """An attacker behind a venue's NAT must not get the venue's players refused
    by opening sockets that say nothing: they cost a socket, and the caps bound them."""
    gate, clock = make(per_source_max_startups=3, startup_evict_after=1.0, penalty_noauth=5.0, penalty_min=5.0)
    for _ in range(30):
        ticket = admit(gate, "198.51.100.1", silent=True)
        clock.now += 1.1
        if ticket is not None and ticket.pending:
            ticket.closed()
    assert not gate.penalised("198.51.100.1")
    assert admit(gate, "198.51.100.1") is not None


def test_max_startups_drops_early_at_random_then_refuses_all() -> None:
    """sshd's MaxStartups start:rate:full, here 2:50:4."""
    gate, _clock = make(chance=0.6, max_startups="2:50:4", per_source_max_startups=10)
    assert admit(gate, "192.0.2.1") and admit(gate, "192.0.2.2")
    assert admit(gate, "192.0.2.3") is not None  # p = 0.5 at 2 pending; 0.6 is not under it
    assert admit(gate, "192.0.2.4") is None  # p = 0.75 at 3 pending
    gate._chance = lambda: 0.8
    assert admit(gate, "192.0.2.5") is not None
    gate._chance = lambda: 0.999
    assert admit(gate, "192.0.2.6") is None  # 4 pending: full
    assert len(gate.pending) == 4


def test_max_startups_full_refuses_unless_an_old_one_can_go() -> None:
    gate, clock = make(chance=0.99, max_startups="1:0:2", per_source_max_startups=10, startup_evict_after=5.0)
    closed: list[str] = []
    assert admit(gate, "192.0.2.1", closed, silent=True) and admit(gate, "192.0.2.2", closed, silent=True)
    assert admit(gate, "192.0.2.3", closed) is None  # full
    clock.now += 5.0
    assert admit(gate, "192.0.2.3", closed) is not None  # the oldest, silent for 5 s, made room
    assert closed == ["192.0.2.1"]


def test_penalties_grow_for_sources_that_fail_or_hammer_and_run_out() -> None:
    gate, clock = make(penalty_min=15.0, penalty_authfail=5.0, penalty_noauth=1.0, penalty_max=600.0)
    for _ in range(3):  # three connections that failed to authenticate: 15 s
        ticket = admit(gate, "203.0.113.9")
        assert ticket is not None
        ticket.failures = 1
        ticket.closed()
    assert admit(gate, "203.0.113.9") is None
    assert admit(gate, "203.0.113.10") is not None  # its neighbour is another source
    clock.now += 14.0
    assert admit(gate, "203.0.113.9") is None
    clock.now += 1.5
    assert admit(gate, "203.0.113.9") is not None  # run out
    for _ in range(14):  # silent ones cost less each
        ticket = admit(gate, "203.0.113.11")
        assert ticket is not None
        ticket.closed()
    assert admit(gate, "203.0.113.11") is not None
    ticket = admit(gate, "203.0.113.11")
    assert ticket is not None
    ticket.closed()
    assert admit(gate, "203.0.113.11") is None


def test_a_penalty_never_runs_ahead_past_its_max_and_exempt_networks_get_none() -> None:
    gate, clock = make(penalty_min=15.0, penalty_max=60.0, penalty_exempt=("192.0.2.0/24",))
    for address in ("203.0.113.9", "192.0.2.7"):
        for _ in range(5):
            gate.penalise(address, 50.0, "test")
    assert admit(gate, "203.0.113.9") is None
    assert admit(gate, "192.0.2.7") is not None
    clock.now += 60.5
    assert admit(gate, "203.0.113.9") is not None


@pytest.mark.parametrize("bad", ["10:30", "0:30:100", "10:130:100", "20:30:10", "x"])
def test_max_startups_must_read_like_sshd_s(bad: str) -> None:
    with pytest.raises(ValueError):
        LimitsSection(max_startups=bad)
    assert LimitsSection(max_startups="7").startups == (7, 100, 7)
