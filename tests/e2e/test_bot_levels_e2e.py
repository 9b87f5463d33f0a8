"""End to end through the real OpenSSH client (issue 48): the host sets bot levels
in the room's settings dialog (for all bots, and by seat: "4:e" is easy too), and
the waiting room's line, its seats and the table show each bot's level."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness import Client, ServerProcess
from roomkit import CLEAR_FIELD, add_bots, assert_no_traceback, keys, start_match, wait_table

COLS, ROWS = 100, 30


def test_the_host_sets_bot_levels_and_the_seats_show_them(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    alice: Client = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    alice.press("c")
    alice.wait_for("Room name")
    alice.settle(quiet=0.2, timeout=2.0)
    alice.type_text("Levels")
    # seats, rounds, turn timer, reaction timer, bot delay; then the Sultans rows, the
    # window rows, the bot level (left at normal) and the level by seat
    for value in ("5", "1", "0", "0", "0"):
        keys(alice, "tab", *CLEAR_FIELD)
        alice.type_text(value)
    keys(alice, *["tab"] * 8, *CLEAR_FIELD)  # between rounds, match, turn limit, notebook, strict, minimum, level: then by seat
    alice.type_text("2:easy 4:e")
    alice.settle(quiet=0.2, timeout=2.0)
    alice.press("enter")
    alice.wait_for("Seats 1/5")
    alice.wait_for("bots normal (seat 2 easy, seat 4 easy)")
    add_bots(alice, 4, seats=5)
    rows = alice.text()
    assert "Bot 2" in rows and "Bot 3" in rows
    lines = [line for line in alice.lines() if "Bot " in line]
    kinds = {line.split("Bot ")[1].split()[0]: line for line in lines}
    assert "easy" in kinds["2"] and "easy" in kinds["4"] and "normal" in kinds["3"], lines
    start_match(alice, server)
    wait_table(alice, server, seat=0)
    alice.wait_for("easy")  # the table's seats say the level under each bot
    alice.close()
    assert server.alive()
    assert_no_traceback(server)
