"""End to end through the real OpenSSH client: the lobby, rooms made through
the create-room dialog, bots, starting a match, reconnecting to a seat, and a
player who vanishes while a reaction window waits for them (issue 3: Lobby
and rooms; "a seat belongs to its identity"; "a client that disconnects
mid-window").

Screens are read like a player reads them; what a table must show (round,
own card, who is asked) is checked against the match replayed from the
server's database (see ``roomkit.py``), so these tests hold for any table
screen the game uses.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import Client, HarnessError, ServerProcess
from roomkit import (
    add_bots,
    assert_no_traceback,
    create_room,
    read_truth,
    round_on_screen,
    screen_cells,
    settle_screen,
    start_match,
    wait_table,
    wait_truth,
)

from server.storage import LogEntry, Storage

COLS, ROWS = 160, 50


def _lobby_row(client: Client, name: str) -> str:
    for line in client.lines():
        if re.search(rf"\b{re.escape(name)}\b", line) and "/" in line:
            return line
    return ""


def _wait_row(client: Client, name: str, pattern: str, what: str) -> None:
    client.wait_until(
        lambda c: re.search(pattern, _lobby_row(c, name)) is not None, timeout=10, what=what
    )


def test_lobby_create_room_with_bots_start_and_reach_the_table(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    alice = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    bob = server.client("bob", key=client_key("bob"), cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    bob.wait_for(server.fingerprint)
    bob.wait_for("No rooms yet")
    create_room(alice, name="Arena", seats=5, rounds=2, turn_timer=0, window_timer=0, bot_delay="0")
    # the waiting room says what was chosen in the dialog
    alice.wait_for("5 seats · 2 rounds · no turn timer · no reaction timer · bots think 0 s")
    alice.wait_for("alice ♛")
    # the lobby of another player lists the room: name, game, seats, state, host
    _wait_row(bob, "Arena", r"Arena\s+Sultans\s+1/5\s+0\s+waiting\s+alice", "the new room in bob's lobby")
    add_bots(alice, 4, seats=5)
    for n in range(2, 6):  # seats 2-5 as players see them
        alice.wait_for(f"Bot {n}")
    _wait_row(bob, "Arena", r"Arena\s+Sultans\s+5/5\s+0\s+waiting\s+alice", "4 bots counted in the lobby")
    truth = start_match(alice, server)
    assert truth.seats == ["alice", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
    _wait_row(bob, "Arena", r"Arena\s+Sultans\s+5/5\s+\d+\s+playing\s+alice", "the room playing in the lobby")
    # alice is at the table: it shows her own card and the round, as the match says
    truth = wait_table(alice, server, seat=0)
    assert truth.round_number() == 1
    assert not re.search(r"Seats \d+/5", alice.text()), "still the waiting room"
    # a match in progress can be watched, not joined
    bob.press("w")
    bob.wait_until(lambda c: round_on_screen(c.text(), 1), what="bob watching round 1")
    alice.close()
    bob.close()
    assert server.alive()
    assert_no_traceback(server)


def test_join_from_the_lobby_ready_and_start_together(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    bob = server.client("bob", key=client_key("bob"), cols=COLS, rows=ROWS)
    alice = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    bob.wait_for(server.fingerprint)
    alice.wait_for(server.fingerprint)
    create_room(bob, name="Duo", seats=5, rounds=1, turn_timer=0, window_timer=0)
    _wait_row(alice, "Duo", r"Duo\s+Sultans\s+1/5\s+0\s+waiting\s+bob", "bob's room in alice's lobby")
    alice.press("enter")  # join the highlighted (only) room
    alice.wait_for("Seats 2/5")
    alice.wait_for("Press r when you are ready.")
    bob.wait_for("Seats 2/5")
    bob.press("s")  # alice is not ready: refused, visibly
    bob.wait_for("Not everyone is ready yet")
    assert read_truth(server) is None
    alice.press("r")
    alice.wait_for("You are ready. Waiting for the host to start.")
    bob.wait_until(lambda c: "ready ✓" in c.text(), what="alice's ready mark on bob's screen")
    start_match(bob, server)
    # both at the table, each with their own seat's card
    wait_table(bob, server, seat=0)
    wait_table(alice, server, seat=1)
    truth = read_truth(server)
    assert truth is not None and truth.seats[:2] == ["bob", "alice"]
    assert_no_traceback(server)


@pytest.mark.slow
def test_reconnect_gets_the_same_seat_and_table_back(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    key = client_key("alice")
    alice = server.client("alice", key=key, cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    create_room(alice, name="Comeback", seats=6, rounds=3, turn_timer=0, window_timer=0)
    start_match(alice, server)
    # timers off: the table rests as soon as it needs alice
    wait_truth(server, lambda t: t.pending() == {0}, 60, "the table waiting for alice", alice)
    before = wait_table(alice, server, seat=0)
    settle_screen(alice)
    cells = screen_cells(alice)
    assert len(cells) >= 8, alice.dump()

    alice.kill()  # the ssh client vanishes mid-match
    server.wait_for_log(r"session end: alice")
    again = server.client("alice", key=key, cols=COLS, rows=ROWS)
    # no lobby step: straight back to the seat, the same match
    truth = wait_table(again, server, seat=0)
    assert truth.match_id == before.match_id
    assert len(truth.log) == len(before.log)
    assert truth.own_card(0) == before.own_card(0)
    assert truth.seats[0] == "alice"
    settle_screen(again)
    missing = cells - screen_cells(again)
    assert not missing, f"pieces of the table missing after reconnecting: {sorted(missing)}\n{again.dump()}"
    assert_no_traceback(server)


def _wait_log(
    server: ServerProcess,
    match_id: int,
    predicate: Callable[[list[LogEntry], bool], bool],
    timeout: float,
    what: str,
) -> list[LogEntry]:
    """Poll the match's action log until ``predicate(log, finished)`` holds
    (``finished``: the match has ended and its results are recorded)."""
    deadline = time.monotonic() + timeout
    log: list[LogEntry] = []
    finished = False
    while time.monotonic() < deadline:
        storage = Storage(server.db_path)
        try:
            log = storage.match_log(match_id)
            finished = bool(storage.match_results(match_id))
        finally:
            storage.close()
        if predicate(log, finished):
            return log
        time.sleep(0.1)
    state = "finished" if finished else "not finished"
    raise HarnessError(f"{what} not reached within {timeout}s (log: {len(log)} entries, {state})\n{server.log_tail()}")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("how", "config", "window_timer"),
    [
        # the reaction timer runs out: the room plays the default answer (alice, idle
        # until then, is kept from going away: a stand-in bot would answer for her)
        pytest.param("timeout", "[rooms]\nintermission = 0.3\ngrace_period = 60\naway_after = 1000\n", 2, id="timeout"),
        # no reaction timer: after the grace period a bot answers for the seat
        pytest.param("grace", "[rooms]\nintermission = 0.3\ngrace_period = 1\naway_after = 1000\n", 0, id="grace"),
    ],
)
def test_a_player_who_vanishes_mid_window_does_not_stop_the_room(
    how: str,
    config: str,
    window_timer: int,
    make_server: Callable[..., ServerProcess],
    client_key: Callable[[str], Path],
) -> None:
    server = make_server(config=config)
    alice = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    create_room(alice, name="Window", seats=5, rounds=5, turn_timer=1, window_timer=window_timer)
    start_match(alice, server)
    # a reaction window opened by someone else is waiting for alice's answer
    # (whether one comes depends on the deal: a match without one is followed by another)
    # (for the timeout, one where she has a real choice: in quick windows the room passes at
    # once for a seat that may only pass, S-REACT-5, and her timer has nothing to answer)
    window = wait_truth(
        server, lambda t: t.window_on(0) and (how != "timeout" or t.table.answers(0) != ["pass"]), 240,
        "a window asking alice", alice, play_again=True,
    )
    alice.kill()
    server.wait_for_log(r"session end: alice")
    # the window closes without her and the match goes on: four more entries,
    # or its end (the answer for her may have been the match's last action)
    _wait_log(
        server,
        window.match_id,
        lambda log, finished: any(e.seat == 0 for e in log[len(window.log):])
        and (finished or len(log) >= len(window.log) + 4),
        30,
        "alice's seat answered for and the match moving on",
    )
    if how == "timeout":  # the room's clock answered for her
        gone = server.log_text().index("session end: alice")
        assert re.search(r"seat 0 timed out, played", server.log_text()[gone:]), server.log_tail()
    # the server serves another player: lobby, the room listed as playing, watchable
    carol = server.client("carol", key=client_key("carol"), cols=COLS, rows=ROWS)
    carol.wait_for(server.fingerprint)
    _wait_row(carol, "Window", r"Window\s+Sultans\s+\d+/5\s+\d+\s+(playing|finished)\s+alice", "the room in carol's lobby")
    carol.press("w")
    carol.wait_until(lambda c: re.search(r"\bRound\s+\d", c.text()) is not None, what="carol watching the table")
    if how == "grace":  # a bot took the seat over, and the room said so
        carol.settle(quiet=0.3, timeout=3.0)
        if re.search(r"Match result|Round \d+ result", carol.text()):  # the match ended: its result covers the chat
            carol.press("escape")  # back to the table
        carol.wait_for("alice is away; a bot plays their seat")
    assert server.alive()
    assert_no_traceback(server)
