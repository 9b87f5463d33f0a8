"""The SSH-level protections of issue 45 through the real OpenSSH client:
a paste over the input budget, a paste that never ends, ``ssh -N``."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from harness import ServerProcess


def test_a_long_paste_and_a_paste_without_end_leave_the_session_listening(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    """Finding 3: a paste over ~128 KB (the budget dropped its end marker), or a
    paste start never closed, swallowed every later key."""
    server = make_server(config="[limits]\npaste_timeout = 1.0\n")
    with server.client("pat", key=client_key("pat")) as c:
        c.wait_for(server.fingerprint)
        c.press("t")  # the chat line
        c.paste("x" * 160_000)
        time.sleep(1.0)  # the input budget refills
        c.type_text("\x15")  # Ctrl+U empties the line of the paste
        c.type_text("heard")
        c.wait_for("heard")
        c.type_text("\x15\x1b[200~never ends")
        time.sleep(1.5)  # paste_timeout: the paste ends with what it has
        c.type_text("\x15again")
        c.wait_for("again")
    assert "Traceback" not in server.log_text()


def test_a_connection_without_a_session_is_closed(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    """Finding 4: ``ssh -N`` (no session) was never timed out."""
    server = make_server(config="[limits]\nunused_connection_timeout = 1.0\n")
    with server.client("idle", key=client_key("idle"), tty=False, extra_ssh_args=["-N"]) as c:
        out = c.wait_closed(timeout=15)
    assert "no session opened for 1 s" in out
