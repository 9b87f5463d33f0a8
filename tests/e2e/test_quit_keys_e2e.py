"""Over the real OpenSSH client: Ctrl+C and Ctrl+Q ask before quitting (the
app's own question, in the player's language; Textual's said "Press ctrl+q
to quit the app" in English, and Ctrl+Q quit unasked), and the too-small
notice goes as soon as the terminal fits (it stayed about 10 s)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness import ServerProcess


def test_ctrl_c_and_ctrl_q_ask_before_quitting_in_the_player_s_language(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    with server.client("alice", key=client_key("alice"), cols=80, rows=24) as c:
        c.wait_for(server.fingerprint)
        c.press("ctrl+c")
        c.wait_for("Leave throneroom?")
        assert "ctrl+q" not in c.text().lower()
        c.press("n")
        c.wait_gone("Leave throneroom?")
        c.press("f2")  # 中文
        c.wait_for("English")
        c.press("ctrl+c")
        c.wait_for("要離開 throneroom 嗎？")
        c.press("escape")
        c.wait_gone("要離開 throneroom 嗎？")
        c.press("ctrl+q")  # asks too, and quits only on yes
        c.wait_for("要離開 throneroom 嗎？")
        c.press("y")
        c.wait_closed()


def test_the_too_small_notice_goes_once_the_terminal_fits(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    with server.client("alice", key=client_key("alice"), cols=50, rows=15) as c:
        c.wait_for("50×15")
        c.resize(80, 24)
        c.wait_for(server.fingerprint)
        c.wait_gone("50×15", timeout=3.0)  # at once, not after its 10 s
