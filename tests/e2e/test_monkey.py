"""Random input through the real OpenSSH client (issue 3: bad input loses
nothing): three players press random keys, click anywhere, paste long text,
send bursts of keys and bytes no terminal sends, resize their terminals (to
a few cells too) and drop their connections for a while, seeded, in the
lobby, dialogs, rooms and at tables with bots. The server must crash no session, log no traceback,
and still serve a new player afterwards."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import Client, ServerProcess

# every key a player might hit, but q (quit): a player who quits is let back in anyway
MONKEY_KEYS = [
    *"abcdefghijklmnoprstuvwxyz0123456789",
    "enter", "escape", "tab", "shift+tab", "backspace", "delete", "space",
    "up", "down", "left", "right", "home", "end", "pageup", "pagedown", "f1", "f2",
]
SECONDS = 25.0
GARBAGE = [b"\xff\xfe", b"\xe4\xb8", b"\x1b[", b"\x1b[999;999R", b"\x00\x01\x02", b"\x9b31m", b"\x1bP+q\x1b\\"]
BURSTS = [b"b\x1b[A\r\r", b"c\r\r", b"l\r\r\r", b"\x1bOP\x1bOP", b"q\rn", b"c\x1b[Z\r\x1b[B\r\t\r"]
"""Keys sent in one write: a dialog opened and closed (or answered twice) before
its screen mounted (crashes seen in a longer random-input run)."""


@pytest.mark.slow
def test_random_input_crashes_nothing(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    server = make_server(bot_delay=0.05)
    rnd = random.Random(20261202)

    def connect(i: int) -> Client:
        key = client_key(f"monkey{i}") if i % 2 == 0 else None  # keyed players and guests
        client = server.client(f"monkey{i}", key=key, cols=rnd.choice([80, 100, 120]), rows=rnd.choice([24, 30, 40]))
        # the lobby, or straight back at the table of a seat kept after a drop
        client.wait_until(lambda c: server.fingerprint in c.text() or "Leave" in c.text(), what="lobby or table")
        return client

    players = [connect(i) for i in range(3)]
    # start where most of the input goes in a game: one plays Sultans with bots, one watches
    players[0].press("c")
    players[0].wait_for("Room name")
    players[0].press("enter")
    players[0].wait_for("Seats")
    players[0].press("s")
    players[0].wait_for("Your card")
    players[1].wait_for("playing")
    players[1].press("w")
    players[1].wait_for("Watching")
    inputs = reconnects = 0
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        i = rnd.randrange(len(players))
        player = players[i]
        if not player.child.isalive():  # it left (Escape, then y): back in, as a player would
            player.close()
            players[i] = connect(i)
            reconnects += 1
            continue
        roll = rnd.random()
        if roll < 0.05:  # a click (press and release) anywhere on the screen
            x, y = rnd.randint(1, player.screen.columns), rnd.randint(1, player.screen.lines)
            player.child.send(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m".encode())
            player.pump(0.02)
        elif roll < 0.08:
            player.paste(rnd.choice(["貼上 ", "[b]x[/b] ", "\x1b]52;c;aGk=\x07", "line\nbreak "]) * rnd.randint(1, 80))
        elif roll < 0.09:
            player.resize(rnd.choice([60, 80, 100, 120]), rnd.choice([20, 24, 30, 40]))
        elif roll < 0.095:  # a terminal dragged very small (a drop-down may be open), then back
            player.resize(rnd.randint(1, 20), rnd.randint(2, 10))
            player.resize(rnd.choice([80, 100]), rnd.choice([24, 30]))
        elif roll < 0.105:  # bytes no terminal sends: broken UTF-8, cut escapes, a terminal's reply
            player.child.send(rnd.choice(GARBAGE))
            player.pump(0.02)
        elif roll < 0.12:  # a burst: a dialog's key and what closes it (or a second Enter) in one write
            player.child.send(rnd.choice(BURSTS))
            player.pump(0.05)
        elif roll < 0.125:  # the connection drops without a word; the player comes back
            player.kill()
            players[i] = connect(i)
            reconnects += 1
        else:
            player.press(rnd.choice(MONKEY_KEYS))
        inputs += 1
    for player in players:
        player.close()
    assert inputs > 100, inputs
    assert server.alive(), server.log_tail()
    log = server.log_text()
    assert "Traceback" not in log and "crashed" not in log, server.log_tail(80)
    with server.client("after") as late:
        late.wait_for(server.fingerprint)
        late.wait_for("after")
    print(f"{inputs} random inputs, {reconnects} reconnects, {log.count('created by')} rooms created")
