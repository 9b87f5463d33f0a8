"""Running a club over the real ssh client: bans, timed bans, invite-only clubs
and mutes, set with ``throneroom admin`` beside the running server."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from harness import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


def admin(server: ServerProcess, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "server", "admin", "--db", str(server.db_path), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def fingerprint(key: Path) -> str:
    out = subprocess.run(["ssh-keygen", "-lf", f"{key}.pub"], capture_output=True, text=True, check=True).stdout
    return out.split()[1]


def test_a_banned_key_is_put_out_and_refused_under_another_name(
    server: ServerProcess, client_key: Callable[[str], Path]
) -> None:
    key = client_key("troll")
    with server.client("troll", key=key) as c:
        c.wait_for(server.fingerprint)
        out = admin(server, "ban", "key", fingerprint(key), "--reason", "spamming the lobby")
        assert out.startswith("ban 1: key SHA256:")
        closing = c.wait_closed(timeout=15)  # the server acts on it within seconds
        assert "You are banned from this club: spamming the lobby" in closing
    with server.client("newname", key=key) as again:
        text = again.wait_closed()
        assert "You are banned from this club: spamming the lobby" in text
    assert "ban-key" in admin(server, "audit")


def test_a_timed_ban_says_until_when_and_expires(server: ServerProcess, client_key: Callable[[str], Path]) -> None:
    key = client_key("brief")
    admin(server, "ban", "name", "brief", "--reason", "cool off", "--for", "3s")
    with server.client("brief", key=key) as c:
        text = c.wait_closed()
        assert "You are banned from this club until" in text and "UTC: cool off" in text
    time.sleep(3.5)
    with server.client("brief", key=key) as c:
        c.wait_for(server.fingerprint)


def test_an_invite_only_club_lets_a_code_in_once_and_refuses_a_revoked_member(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    server = make_server(config='[players]\nmembers = "invite"\n')
    code = admin(server, "invite").split()[2].rstrip(":")
    with server.client("guest1") as c:  # no key: guests are off
        assert "members only" in c.wait_closed()
    first, second = client_key("newbie"), client_key("other")
    with server.client("newbie", key=first) as c:
        c.wait_for("invite code")
        c.type_text(code)
        c.press("enter")
        c.wait_for(server.fingerprint)  # the lobby
    with server.client("other", key=second) as c:
        c.wait_for("invite code")
        c.type_text(code)
        c.press("enter")
        c.wait_for("not valid")  # one use only
    assert "newbie" in admin(server, "members")
    admin(server, "revoke", "newbie")
    with server.client("newbie", key=first) as c:
        assert "members only" in c.wait_closed()


def test_a_muted_player_is_told_so_when_chatting(server: ServerProcess, client_key: Callable[[str], Path]) -> None:
    admin(server, "mute", "loud", "--reason", "too many caps", "--for", "1h")
    with server.client("loud", key=client_key("loud")) as c:
        c.wait_for(server.fingerprint)
        c.press("t")
        c.type_text("HELLO EVERYONE")
        c.press("enter")
        c.wait_for("An admin muted you in chat until")
        assert "too many caps" in c.text()


def test_an_admin_closes_a_room_and_its_player_is_told_why(
    make_server: Callable[..., ServerProcess], client_key: Callable[[str], Path]
) -> None:
    boss = client_key("boss")
    server = make_server(config=f'[players]\nadmins = ["{fingerprint(boss)}"]\n')
    with server.client("player", key=client_key("player")) as p, server.client("boss", key=boss) as b:
        p.wait_for(server.fingerprint)
        p.press("c")
        p.wait_for("New room")
        p.press("enter")  # the dialog's defaults: a room of Sultans
        p.wait_for("not ready")
        b.wait_for("F9")
        b.press("f9")
        b.wait_for("Admin")
        b.press("tab", "tab", "tab")  # online, bans, members, the club
        b.wait_for("Close room")
        b.press("c")
        b.type_text("1")
        b.press("enter")
        b.type_text("closing time")
        b.press("enter")
        b.wait_for("Room closed")
        p.wait_for("An admin closed that room: closing time")
