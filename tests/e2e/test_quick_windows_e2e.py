"""End to end through the real OpenSSH client: quick windows (S-REACT-5, K-ORD-11).

A player plays a Kill the Overlord game with bots in a new room (quick windows,
the default) until a window opens in which they have nothing to answer: the
screen says so, with no options and no count of who still owes an answer.
Meanwhile, whenever a Plead Guilty or Retaliate window is on the screen and the
player's prompt offers options, they hold a real choice (more than ``pass``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from harness import ServerProcess
from test_overlord_table_e2e import create_overlord_room, options_keys, play_step

WINDOW_LINES = ("Plead Guilty window", "Retaliate window")


def window_on_screen(text: str) -> bool:
    return any(w in text for w in WINDOW_LINES)


def test_a_human_is_never_prompted_for_a_window_where_pass_is_all_they_may_do(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    server = make_server()
    with server.client("alice", key=client_key("alice"), cols=80, rows=24) as c:
        c.wait_for(server.fingerprint)
        create_overlord_room(c, "Quick", seats=5, round_limit=2)
        c.wait_for("quick windows (at least 2 s)")  # the settings line says which windows the room uses
        c.press("s")
        c.wait_for("Your hand")
        deadline = time.monotonic() + 90
        nothing_seen: str | None = None
        while nothing_seen is None and "Game over:" not in c.text():
            assert time.monotonic() < deadline, c.dump()
            text = c.text()
            assert "to answer" not in text.replace("Nothing to answer", ""), text  # no "n/m to answer" count
            opts = options_keys(text)
            if opts and window_on_screen(text):
                assert set(opts) - {"n", "o"}, text  # a real choice, never pass alone
            if "Nothing to answer" in text and window_on_screen(text):
                assert not opts, text
                nothing_seen = nothing_seen or text
            play_step(c)
            c.pump(0.1)
        assert nothing_seen is not None, "no window without a choice for the player opened"
        assert "the window closes by itself" in nothing_seen
    assert "Traceback" not in server.log_text()
