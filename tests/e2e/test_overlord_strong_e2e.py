"""End to end through the real OpenSSH client (issue 48): the host of a Kill the
Overlord room picks the strong bots in the new-room dialog; the waiting room's
line and the table's seats say so, and the strong bots (searching in the
server's thinking pool) play the game on with the player."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import Client, ServerProcess
from roomkit import CLEAR_FIELD, assert_no_traceback, keys
from test_overlord_table_e2e import play_step


@pytest.mark.slow
def test_a_kill_the_overlord_room_with_strong_bots(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    server = make_server()
    c: Client
    with server.client("alice", key=client_key("alice"), cols=80, rows=24) as c:
        c.wait_for(server.fingerprint)
        c.press("c")
        c.wait_for("Room name")
        c.settle(quiet=0.2, timeout=2.0)
        keys(c, "shift+tab", "enter")  # the Game select, opened
        keys(c, "down", "enter")  # Kill the Overlord
        c.wait_for("Round limit")
        # name, seats, round limit, coronation (left), expansion ranks, turn timer,
        # reaction timer, bot delay
        for value in ("Strong", "4", "3", None, "", "0", "30", "0.2"):
            keys(c, "tab")
            if value is not None:
                keys(c, *CLEAR_FIELD)
                c.type_text(value)
            c.settle(quiet=0.1, timeout=2.0)
        keys(c, "tab", "tab", "tab", "enter")  # strict windows, window minimum, the bot level: opened
        c.wait_for("strong")
        keys(c, "down", "enter", "tab")  # strong; then the level by seat (a field: Enter creates)
        c.press("enter")
        c.wait_for("Seats 1/4")
        c.wait_for("bots strong")
        c.press("s")  # start: bots take the empty seats
        c.wait_for("Your hand")
        assert c.text().count("strong") >= 3, c.dump()  # each bot's seat says its level
        deadline = time.monotonic() + 120
        while "Round 2/3" not in c.text() and "Game result" not in c.text():
            assert time.monotonic() < deadline, c.dump()
            play_step(c)
            c.pump(0.1)
    assert server.alive()
    assert_no_traceback(server)
    assert "search for seat" not in server.log_text()  # no search failed or overran
