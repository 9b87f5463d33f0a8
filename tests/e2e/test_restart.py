"""End to end: the server stops mid-match (SIGTERM, then SIGKILL) and a new
server on the same database and keys gives every player the same match back
(issue 3: Persistence -- "a server restarted mid-match restores every
unfinished match by replaying its log; players reconnect to their seats.
Nothing already played is lost"), the room's chat too.

The match is driven to a resting point first: a turn timer makes the
player's turns time out (so bots and timeouts play several turns and rounds),
and the reaction timer is off, so once a reaction (a window, a detention) waits
for the player alone, the whole table waits for them. The state then cannot move while the server is
down or while the player reconnects, and the screens before and after can be
compared piece by piece.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import Client, ServerProcess
from roomkit import (
    Truth,
    assert_no_traceback,
    create_room,
    read_truth,
    screen_cells,
    settle_screen,
    start_match,
    wait_table,
    wait_truth,
)

CONFIG = """
[rooms]
intermission = 0.3
grace_period = 60
away_after = 1000
"""
"""(alice lets her turns run out while she waits for a reaction that asks her alone:
with the default two a stand-in bot would play her seat, and answer it.)"""

COLS, ROWS = 160, 50
CHAT = "mind the vizier"


def _match_waiting_on_alice(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> tuple[ServerProcess, Client, Path, Truth]:
    server = make_server(config=CONFIG)
    key = client_key("alice")
    alice = server.client("alice", key=key, cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    create_room(alice, name="Arena", seats=5, rounds=5, turn_timer=1, window_timer=0)
    start_match(alice, server)  # the empty seats get bots
    wait_truth(
        server,
        lambda t: t.asks_only(0),
        timeout=240,  # (rare in a deal: quick windows ask alice only where she has a real choice)
        what="a reaction that waits for alice alone",
        client=alice,
        play_again=True,  # whether a reaction asks alice depends on the deal
    )
    wait_table(alice, server, seat=0)
    alice.press("t")  # a word at the table, to find again after the restart
    alice.type_text(CHAT)
    alice.press("enter", "escape")
    alice.wait_for(CHAT)
    settle_screen(alice)
    rested = read_truth(server)  # at rest: only alice is asked, nothing moves without her
    assert rested is not None and rested.asks_only(0)
    return server, alice, key, rested


def _after_restart(server: ServerProcess, key: Path, before: Truth, cells: set[str]) -> None:
    after_restore = read_truth(server)
    assert after_restore is not None, "the match was not restored"
    assert after_restore.match_id == before.match_id
    assert [(e.kind, e.seat, e.text) for e in after_restore.log] == [
        (e.kind, e.seat, e.text) for e in before.log
    ], "the restored log differs from the log before the stop"
    server.wait_for_log(rf"room \d+: match {before.match_id} restored after {len(before.log)} log entries")

    alice = server.client("alice", key=key, cols=COLS, rows=ROWS)
    # straight back to the seat: no lobby step, the table with the same state
    truth = wait_table(alice, server, seat=0)
    assert truth.own_card(0) == before.own_card(0)
    assert truth.round_number() == before.round_number()
    assert truth.asks_only(0), "the reaction that waited for alice is gone"
    alice.wait_for(CHAT)  # the room's chat came back with the match
    assert "lost the connection" not in alice.text()  # the stop ended the sessions: no player dropped
    settle_screen(alice)
    missing = cells - screen_cells(alice)
    assert not missing, f"pieces of the table missing after the restart: {sorted(missing)}\n{alice.dump()}"
    assert server.alive()
    assert_no_traceback(server)
    alice.close()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_restart_mid_match_restores_the_same_table(
    how: str,
    make_server: Callable[..., ServerProcess],
    client_key: Callable[[str], Path],
) -> None:
    server, alice, key, before = _match_waiting_on_alice(make_server, client_key)
    cells = screen_cells(alice)
    assert len(cells) >= 8, f"too little of the table to compare:\n{alice.dump()}"
    assert server.proc is not None
    if how == "SIGTERM":
        server.proc.send_signal(signal.SIGTERM)
        out = alice.wait_closed()
        assert "shutting down" in out
        assert server.proc.wait(timeout=10) == 0
    else:
        server.proc.send_signal(signal.SIGKILL)
        alice.wait_closed()
        assert server.proc.wait(timeout=10) == -signal.SIGKILL
    server.stop()  # reap; closes what is left
    server.start()  # same port, keys and database
    _after_restart(server, key, before, cells)


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_a_watcher_comes_back_watching_after_a_restart(
    how: str,
    make_server: Callable[..., ServerProcess],
    client_key: Callable[[str], Path],
) -> None:
    """Issue 44 item 8: seated players reconnected to their seats after a
    restart, but a spectator landed in the lobby. A watcher of a room that
    survives the restart (here a waiting room) connects again and is
    watching it, at 80x24."""
    server = make_server(config=CONFIG)
    alice = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    create_room(alice, name="Arena", seats=5, rounds=1)
    carol_key = client_key("carol")
    carol = server.client("carol", key=carol_key, cols=80, rows=24)
    carol.wait_for("Arena")
    carol.press("w")
    carol.wait_for("You are watching.")
    alice.wait_for("carol is watching")  # the waiting room says who came to watch (item 10)
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM if how == "SIGTERM" else signal.SIGKILL)
    carol.wait_closed()
    alice.wait_closed()
    server.proc.wait(timeout=10)
    server.stop()
    server.start()
    carol = server.client("carol", key=carol_key, cols=80, rows=24)
    carol.wait_for("You are watching.")  # straight back to the room, as its watcher
    assert "Arena" in carol.text() and "Watching: carol" in carol.text()
    assert "New room" not in carol.text()  # not the lobby
    assert server.alive()
    assert_no_traceback(server)
    carol.close()
