"""End to end through the real OpenSSH client: a purist's Sultans of Karaya room.

The player fills the create-room dialog with the keyboard: first to 3 points
(S-MATCH-1), a turn limit of 60 (S-WIN-4) and the notebook off (S-VIEW-2).
The waiting room names the options, the match the server starts has them
(read back from its database), and the table offers no notebook."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness import ServerProcess
from roomkit import CLEAR_FIELD, keys, start_match, wait_table

COLS, ROWS = 120, 40


def test_a_purist_room_first_to_three_without_notebook(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    alice = server.client("alice", key=client_key("alice"), cols=COLS, rows=ROWS)
    alice.wait_for(server.fingerprint)
    alice.press("c")
    alice.wait_for("Room name")  # the dialog's (the lobby's key bar says "New room")
    alice.settle(quiet=0.2, timeout=2.0)
    alice.type_text("Purists")
    # seats, rounds, turn timer, reaction timer, bot delay: the usual fields first
    for value in ("5", "2", "0", "0", "0"):
        keys(alice, "tab", *CLEAR_FIELD)
        alice.type_text(value)
        alice.settle(quiet=0.1, timeout=2.0)
    keys(alice, "tab", "tab", "enter")  # past the time between rounds: the match mode select, opened
    alice.wait_for("first to N points")
    keys(alice, "down", "enter")  # first to N points
    alice.wait_for("Points to win (15 rounds max)")
    keys(alice, "tab", *CLEAR_FIELD)
    alice.type_text("3")
    keys(alice, "tab", *CLEAR_FIELD)
    alice.type_text("60")
    keys(alice, "tab", "space")  # the notebook box: off
    alice.wait_for("[ ] shows what you have seen")
    keys(alice, "shift+tab", "enter")  # back in the turn limit field: Enter creates the room
    alice.wait_for("Seats 1/5")
    alice.wait_for("5 seats · first to 3 points (at most 15 rounds) · no turn timer")
    alice.wait_for("turn limit 60")  # the line may wrap before the notebook
    alice.wait_for("notebook off")
    truth = start_match(alice, server)
    view = truth.view(0)
    assert (view.first_to, view.max_rounds) == (3, 15)
    assert (view.round.turn_limit, view.round.notebook) == (60, False)
    wait_table(alice, server, seat=0)
    for _ in range(3):  # Tab cycles the table's panes: log, (notebook,) last result
        keys(alice, "tab", pause=0.3)
        assert "Notebook" not in alice.text(), alice.dump()
    alice.close()
    assert "Traceback" not in server.log_text()
