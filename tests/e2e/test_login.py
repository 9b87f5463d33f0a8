"""End to end through the real OpenSSH client: logging in, name ownership by
key, hostile names, refusals, and clients that vanish (issue 3: Identities,
Sessions)."""

from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from harness import Client, ServerProcess

from server.config import CIPHERS, MACS


def test_login_shows_the_lobby_with_the_host_key(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    with server.client("alice", key=client_key("alice")) as c:
        seconds = c.wait_for(server.fingerprint)
        c.wait_for("alice")
        print(f"first screen after {seconds:.3f}s (ssh start to lobby)")
    server.wait_for_log(r"name 'alice' claimed by key SHA256:")


def test_second_key_is_refused_for_the_same_name_with_a_visible_message(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    owner, other = client_key("alice"), client_key("mallory")
    with server.client("alice", key=owner) as c:
        c.wait_for(server.fingerprint)
    with server.client("alice", key=other) as c:
        out = c.wait_closed()
        screen = c.text()
    assert "belongs to another player's SSH key" in screen, out
    assert f"ssh -p {server.port} othername@127.0.0.1" in screen
    assert server.fingerprint not in screen  # never reached the lobby
    # the owner still gets in, and the other key can pick another name
    with server.client("alice", key=owner) as c:
        c.wait_for(server.fingerprint)
    with server.client("othername", key=other) as c:
        c.wait_for(server.fingerprint)
        c.wait_for("othername")


def test_guest_without_a_key_may_not_take_a_key_owned_name(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    with server.client("alice", key=client_key("alice")) as c:
        c.wait_for(server.fingerprint)
    with server.client("alice") as c:
        c.wait_closed()
        assert "belongs to another player's SSH key" in c.text()
    with server.client("visitor") as c:  # a free name: in as a guest
        c.wait_for(server.fingerprint)
        c.wait_for("visitor")


def test_hostile_names_render_cleaned_and_crash_nothing(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    key = client_key("h")
    # each is told its cleaned name (a notice that may cover the end of the host key's line)
    with server.client("[/b]", key=key) as markup:
        markup.wait_for("You play as b:")
        with server.client("[bold red]x[/]", key=client_key("h2")) as second:
            second.wait_for("You play as bold_redx")
            # the first sees the second in its online list, cleaned, nothing styled away; the
            # notices quote the names asked for, literally ("you asked for [bold red]x[/]")
            markup.wait_for("bold_redx")
            assert any("bold_redx" in line and "[bold" not in line for line in markup.lines())
            assert second.lines()[0].strip().startswith("throneroom · bold_redx"), second.lines()[0]
            assert "[bold red]" in second.text() or "[bold" in second.text()  # quoted, not styled away
    # a right-to-left override and an emoji, which SASLprep refuses (OpenSSH
    # printed only "Received disconnect ...: Unassigned character"): cleaned
    # away, and the lobby says what the name became
    # (the notice may cover the end of the host key's line: it is what is waited for)
    with server.client("ali\u202eecil", key=client_key("h3")) as bidi:
        bidi.wait_for("You play as aliecil")
        assert "throneroom · aliecil" in bidi.text() and "\u202e" not in bidi.text()
    with server.client("\U0001f451king", key=client_key("h7")) as crowned:
        crowned.wait_for("You play as king")
        assert "throneroom · king" in crowned.text()
    # a name with nothing usable left gets a message, not a session
    with server.client("~!", key=client_key("h4")) as empty:
        empty.wait_closed()
        assert "cannot be used as a player name" in empty.text()
    # nor a name that could pass for another's (a Cyrillic а in "after")
    with server.client("\u0430fter", key=client_key("h6")) as lookalike:
        lookalike.wait_closed()
        assert "could pass for another player's name" in lookalike.text()
    with server.client("after", key=client_key("h5")) as c:
        c.wait_for(server.fingerprint)
    assert server.alive()
    assert "Traceback" not in server.log_text()


def test_a_client_that_vanishes_leaves_the_server_healthy(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    watcher = server.client("watcher", key=client_key("watcher"))
    watcher.wait_for(server.fingerprint)
    gone = server.client("gone", key=client_key("gone"))
    gone.wait_for(server.fingerprint)
    watcher.wait_for("gone")  # in the online list
    gone.kill()  # SIGKILL: no goodbye, the socket just closes
    server.wait_for_log(r"session end: gone")
    watcher.wait_until(lambda c: "gone" not in c.text(), what="'gone' leaves the online list")
    with server.client("later", key=client_key("later")) as c:
        c.wait_for(server.fingerprint)
    watcher.close()
    assert server.alive()
    assert "Traceback" not in server.log_text()


def test_no_pty_exec_and_sftp_are_refused(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    key = client_key("dora")
    with server.client("dora", key=key, tty=False) as c:
        out = c.wait_closed()
    assert "needs a terminal" in out and "ssh -t" in out
    with server.client("dora", key=key, tty=False, command="cat /etc/passwd") as c:
        out = c.wait_closed()
    assert "exec request failed" in out
    assert "root:" not in out
    with server.client("dora", key=key, tty=False, extra_ssh_args=["-s"], command="sftp") as c:
        out = c.wait_closed()
    assert "subsystem request failed" in out


def test_resize_redraws_at_the_new_size(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    with server.client("rita", key=client_key("rita"), cols=100, rows=30) as c:
        c.wait_for(server.fingerprint)
        c.resize(130, 40)
        # the lobby fills the new size: its bottom line moves to row 40
        c.wait_until(lambda cl: cl.lines()[39].strip() != "", what="bottom row drawn after resize")
        c.resize(80, 24)
        c.wait_until(lambda cl: cl.lines()[23].strip() != "", what="bottom row drawn after shrink")
        c.wait_for(server.fingerprint)


def test_server_stop_restores_the_terminal_and_says_goodbye(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    c = server.client("sam", key=client_key("sam"))
    c.wait_for(server.fingerprint)
    assert server.proc is not None
    server.proc.terminate()
    out = c.wait_closed()
    assert "shutting down" in out
    assert out.rfind("\x1b[?1049l") < out.rfind("shutting down")
    assert server.stop() == 0


def test_signals_repeated_while_the_server_stops_leave_a_clean_exit(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    """A supervisor repeating its SIGTERM (or an operator's second Ctrl-C) while
    the server stops: it still finishes its stop and exits 0, not killed by
    the default handler the event loop put back as it closed."""
    c = server.client("sam", key=client_key("sam"))
    c.wait_for(server.fingerprint)
    proc = server.proc
    assert proc is not None
    proc.terminate()
    deadline = time.monotonic() + 20
    while proc.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGINT if int(time.monotonic() * 1000) % 2 else signal.SIGTERM)
        time.sleep(0.002)
    assert proc.poll() == 0
    assert "stopped" in server.log_text()


def test_the_terminal_it_runs_in_closing_stops_the_server_cleanly(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    """An operator runs ``./manage serve`` in a terminal and the terminal goes
    (the window closed, their SSH session to the host dropped): the kernel
    hangs the server up with SIGHUP. It stops as on SIGTERM: players get the
    farewell and their terminals back, the database is closed, exit 0 (it was
    killed outright, the players' connections cut without a word)."""
    server = make_server(in_terminal=True)
    c, proc = _logged_in(server, client_key, "hal")
    server.close_terminal()
    out = c.wait_closed()
    assert "shutting down" in out  # the farewell
    assert out.rfind("\x1b[?1049l") < out.rfind("shutting down")
    assert proc.wait(timeout=20) == 0
    log = server.log_text()
    assert "shutting down (SIGHUP)" in log
    assert "stopped" in log


def test_a_server_started_under_nohup_goes_on_after_a_hangup(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    """``nohup ./manage serve &`` asks for the hang-up to be ignored: SIGHUP
    changes nothing there (the server keeps its players), SIGTERM still stops it."""
    server = make_server(launcher=["nohup"])
    c, proc = _logged_in(server, client_key, "nora")
    proc.send_signal(signal.SIGHUP)
    c.press("f2")  # still served: the lobby answers in Chinese
    c.wait_until(lambda cl: "繁體中文" in cl.lines()[0], what="Chinese header after the hang-up")
    time.sleep(0.5)  # a stop on SIGHUP would have begun by now
    assert server.alive(), server.log_tail()
    assert "shutting down" not in server.log_text()
    assert server.stop() == 0
    assert "shutting down (SIGTERM)" in server.log_text()


def _logged_in(
    server: ServerProcess, client_key: Callable[[str], Path], name: str
) -> tuple[Client, subprocess.Popen[str]]:
    """A player ``name`` in the lobby, and the server's process."""
    c = server.client(name, key=client_key(name))
    c.wait_for(server.fingerprint)
    assert server.proc is not None
    return c, server.proc


def test_language_follows_the_client_lang_until_the_player_chooses(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    def header_says(word: str) -> Callable[[Client], bool]:
        return lambda c: word in c.lines()[0]  # the header names the language in use

    key = client_key("lin")
    with server.client("lin", key=key, lang="zh_TW.UTF-8") as c:
        c.wait_for(server.fingerprint)
        c.wait_until(header_says("繁體中文"), what="Chinese header")
        c.press("f2")  # switch to English: remembered for this key's name
        c.wait_until(header_says("English"), what="English header")
    with server.client("lin", key=key, lang="zh_TW.UTF-8") as c:
        c.wait_for(server.fingerprint)
        c.wait_until(header_says("English"), what="the stored choice wins over LANG")
    with server.client("guest1", lang="zh_TW.UTF-8") as c:  # guests follow LANG
        c.wait_for(server.fingerprint)
        c.wait_until(header_says("繁體中文"), what="Chinese header for a guest")


def test_typed_cjk_pasted_text_and_markup_reach_other_players_literally(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    alice = server.client("alice", key=client_key("alice"))
    bob = server.client("bob", key=client_key("bob"))
    for c in (alice, bob):
        c.wait_for(server.fingerprint)
    alice.press("t")  # lobby chat
    alice.type_text("你好 [/b][red]x")
    alice.press("enter")
    bob.wait_for("alice: 你好 [/b][red]x")
    alice.paste("pasted 世界")
    alice.press("enter")
    bob.wait_for("alice: pasted 世界")
    alice.paste("長篇" + "x" * 400)  # longer than the chat line's 300: cut to fit, not lost
    alice.press("enter")
    bob.wait_for("alice: 長篇")  # a line may break after a Chinese character (tui/runtime/kinsoku.py)
    bob.wait_for("x" * 50)
    # Escape is delivered on its own (the server's Escape timer), and F1 opens help
    alice.press("escape", "f1")
    alice.wait_for("closes help")
    alice.press("escape")
    alice.wait_gone("closes help")
    alice.close()
    bob.close()
    assert "Traceback" not in server.log_text()


def test_port_forwarding_is_refused(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    key = client_key("fwd")
    remote = ["-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9"]
    with server.client("fwd", key=key, extra_ssh_args=remote) as c:
        out = c.wait_closed()
    assert "remote port forwarding failed" in out
    server.wait_for_log(r"refused remote forwarding")
    with server.client("fwd", key=key) as c:  # without it, the same client plays
        c.wait_for(server.fingerprint)


def test_openssh_negotiates_aes_not_chacha20(server: ServerProcess, client_key: Callable[[str], Path]) -> None:
    """chacha20-poly1305 costs ~5x the server CPU of AES per packet, so it is not
    offered (server/config.py CIPHERS); the real client falls back to AES-CTR."""
    with server.client("vera", key=client_key("vera"), tty=False, extra_ssh_args=["-v"]) as c:
        out = c.wait_closed()
    assert "needs a terminal" in out
    chosen = re.findall(r"(server->client|client->server) cipher: (\S+) MAC: (\S+)", out)
    assert len(chosen) == 2, out
    for _direction, cipher, mac in chosen:  # OpenSSH's defaults give aes128-ctr with hmac-sha2-256-etm
        assert cipher in CIPHERS, out  # (a system crypto policy may order them otherwise)
        assert mac in MACS or (cipher.endswith("-gcm@openssh.com") and mac == "<implicit>"), out
