"""End to end through the real OpenSSH client: the Kill the Overlord table (issue 5).

A player creates a Kill the Overlord room in the lobby's dialog (game select,
round limit 2, bot delay 0), starts it (bots take the empty seats) and plays
the whole game with the keyboard at 80x24 until the result screen.

The driver reads the table's "Your options:" line: in a window or an optional
prompt it passes (``n Enter``); as the ruler it gives the order to the first
seat offered (``o Enter``); holding the order it plays a card (``c``, Enter
through the card and seat choices); anything else takes the first offered key
and Enter until the choice is sent. It never dies unless dying is all it may do.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import Client, ServerProcess
from roomkit import CLEAR_FIELD, keys


def options_keys(text: str) -> list[str]:
    for line in text.splitlines():
        if "Your options:" in line:
            return re.findall(r"\s([a-z])\s\s\S", line.split("Your options:", 1)[1])
    return []


def create_overlord_room(c: Client, name: str, *, seats: int, round_limit: int) -> None:
    c.press("c")
    c.wait_for("Room name")  # the dialog's (the lobby's key bar says "New room")
    c.settle(quiet=0.2, timeout=2.0)
    keys(c, "shift+tab", "enter")  # the Game select, opened
    keys(c, "down", "enter")  # Kill the Overlord
    c.wait_for("Round limit")
    keys(c, "tab")
    c.type_text(name)
    c.settle(quiet=0.1, timeout=2.0)
    # seats, round limit, coronation (a choice: 40 as the rules say, left), expansion ranks,
    # turn timer, reaction timer, bot delay
    for value in (str(seats), str(round_limit), None, "", "0", "30", "0"):
        keys(c, "tab")
        if value is not None:
            keys(c, *CLEAR_FIELD)
            c.type_text(value)
        c.settle(quiet=0.1, timeout=2.0)
    c.press("enter")
    c.wait_for(f"Seats 1/{seats}")


def play_step(c: Client) -> bool:
    """Answer whatever the table asks of this seat now, with keys. True if it answered."""
    text = c.text()
    opts = options_keys(text)
    if not opts:
        return False
    if "n" in opts:
        c.press("n", "enter")
    elif "o" in opts:
        c.press("o", "enter")
    else:
        c.press("c" if "c" in opts else opts[0])
        for _ in range(6):
            c.settle(0.15)
            if "Enter sends" not in c.text():
                break
            c.press("enter")
    c.settle(0.2)
    return True


@pytest.mark.slow
def test_a_player_plays_a_whole_overlord_game_with_bots_to_the_result(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    server = make_server()
    with server.client("alice", key=client_key("alice"), cols=80, rows=24) as c:
        c.wait_for(server.fingerprint)
        create_overlord_room(c, "E2E overlord", seats=4, round_limit=2)
        assert "Kill the Overlord" in c.text() or "Overlord" in c.text()
        c.press("s")  # start: bots take the empty seats
        c.wait_for("Your hand")
        text = c.text()
        assert "Round 1/2" in text and "crown at 40" in text
        assert "alice" in text
        deadline = time.monotonic() + 100
        answered = 0
        while "Game result" not in c.text():  # the game's end opens its result over the table
            assert time.monotonic() < deadline, c.dump()
            if play_step(c):
                answered += 1
            c.pump(0.1)
        assert answered > 0  # the player really played, by keys
        c.settle(0.5)
        text = c.text()
        assert "Game result" in text and " wins" in text
        # the winner's row in the gold table: a bot's, or the player's own ("alice (0, you)")
        assert re.search(r"★ .+ \(\d(, you)?\) +\S+ \d +\d+ gold", text), text
        assert "gold" in text
        c.press("escape")  # the table: the winner with their gold first (issue 44 item 7)
        c.wait_for("GAME WINNER")
    assert "Traceback" not in server.log_text()
