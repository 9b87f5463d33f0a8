"""End to end through the real OpenSSH client (issue 43, "Nobody stalls a
table"): a seated player leaves a running match for good with q, a bot plays
the seat on, and the player joins another room at once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness import Client, ServerProcess
from roomkit import assert_no_traceback, create_room, keys, read_truth, start_match, wait_table

from server.storage import Storage

COLS, ROWS = 100, 30


def seat_box(client: Client, label: str) -> str:
    """The Sultans ring's box of the seat shown as ``label`` ("2 bob"): its lines from there down, in its columns."""
    lines = client.lines()
    at = next((i for i, line in enumerate(lines) if label in line), None)
    if at is None:
        return ""
    col = max(0, lines[at].index(label) - 3)
    return " ".join(line[col : col + 24] for line in lines[at : at + 3])


def test_a_player_leaves_a_running_match_and_joins_another_room(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    alice = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    bob = server.client("bob", key=client_key("bob"), cols=COLS, rows=ROWS)
    carol = server.client("carol", key=client_key("carol"), cols=COLS, rows=ROWS)
    for client in (alice, bob, carol):
        client.wait_for(server.fingerprint)
    create_room(alice, name="Arena", seats=5, rounds=2)  # no timers: alice's turns wait for her
    bob.wait_for("Arena")
    bob.press("enter")
    bob.wait_for("Press r when you are ready.")
    keys(bob, "r")
    alice.wait_for("ready ✓")
    start_match(alice, server)
    wait_table(bob, server, seat=1)
    create_room(carol, name="Other", seats=5, rounds=1)  # a room waiting for players
    bob.press("q")
    bob.wait_for("Leave this match for good?")
    bob.press("y")
    bob.wait_until(lambda c: "Other" in c.text() and "Arena" in c.text(), what="bob's lobby with both rooms")
    truth = read_truth(server)
    assert truth is not None  # the match goes on
    alice.wait_for("bob left the match")
    keys(bob, "down", "enter")  # the second room, Other: no "seat in a match being played" refusal
    bob.wait_for("Seats 2/5")
    carol.wait_for("bob sat down")
    match = read_truth(server)
    assert match is not None and match.match_id == truth.match_id
    storage = Storage(server.db_path)
    try:
        [stored] = [m for m in storage.unfinished_matches() if m.id == truth.match_id]
    finally:
        storage.close()
    assert [s.left for s in stored.seats] == [False, True, False, False, False]  # kept for a restart
    alice.wait_until(lambda c: "left" in seat_box(c, "2 bob"), what="bob's seat marked left on alice's table")
    for client in (alice, bob, carol):
        client.close()
    assert server.alive()
    assert_no_traceback(server)
