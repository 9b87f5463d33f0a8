"""Running a club (server.club, server.admin, server.ops): bans by key, name and
address with durations, mutes, invite codes and members, the audit log, a room
host's kicks kept over a restart, the command line against a stopped and a running
server, and a backup that a restored server continues from."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from hubs import new_hub

from protocol.contract import ClientError, Identity, RoomSettings
from protocol.i18n import system_line
from server import ops
from server.club import Club, ClubError, parse_duration
from server.config import Config, PlayersSection, ServerSection
from server.hub import Hub
from server.storage import SCHEMA_VERSION, Storage

ALICE = "SHA256:alicekey"
MALLORY = "SHA256:mallorykey"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def club(clock: Clock | None = None) -> tuple[Club, Storage]:
    storage = Storage(":memory:", clock=clock or Clock())
    return Club(storage, clock=clock or storage._clock, config_admins={ALICE}), storage


def test_a_key_ban_covers_every_name_of_the_key_and_a_name_ban_its_owner() -> None:
    c, storage = club()
    storage.claim_name("mallory", MALLORY)
    c.ban("admin", "key", MALLORY, "spam", None)
    assert c.ban_for(key=MALLORY, name="someone-new") is not None  # another name, same key
    assert c.ban_for(name="mallory") is not None  # the name its key owns, even keyless
    assert c.ban_for(key=ALICE, name="alice") is None
    c2, storage2 = club()
    storage2.claim_name("troll", MALLORY)
    c2.ban("admin", "name", "Troll", "rude", None)  # names compare as names do
    assert c2.ban_for(key=MALLORY, name="other") is not None  # the key that owns the banned name
    assert c2.ban_for(key=ALICE, name="troll") is not None  # nobody else takes the name


def test_durations_read_in_either_language() -> None:
    assert parse_duration("30m") == parse_duration("30 分") == 1800
    assert parse_duration("2h") == parse_duration("2 小時") == 7200
    assert parse_duration("1w") == parse_duration("1 週") == 7 * 86400
    assert parse_duration("forever") is parse_duration("永久") is None
    with pytest.raises(ClubError):
        parse_duration("3 days")


def test_an_address_ban_covers_its_network_and_a_timed_ban_ends() -> None:
    clock = Clock()
    c, _ = club(clock)
    c.ban("admin", "address", "203.0.113.7/24", "bots", parse_duration("2h"))
    assert c.ban_for(address="203.0.113.200") is not None
    assert c.ban_for(address="203.0.114.1") is None
    assert c.ban_for(address="::1") is None
    clock.now += 2 * 3600 + 1
    assert c.ban_for(address="203.0.113.200") is None
    assert c.bans() == []


def test_unban_lifts_and_every_change_is_audited() -> None:
    c, _ = club()
    ban = c.ban("alice", "name", "bob", "flood", None)
    c.unban("alice", ban.id)
    assert c.ban_for(name="bob") is None
    assert [(a.actor, a.action, a.target) for a in c.audit()] == [("alice", "unban-name", "bob"), ("alice", "ban-name", "bob")]
    with pytest.raises(ClubError):
        c.unban("alice", ban.id)


@pytest.mark.parametrize("bad", [("key", "not-a-fp", "x"), ("address", "nowhere", "x"), ("name", "bob", " "), ("who", "x", "x")])
def test_bad_bans_are_refused_with_a_reason(bad: tuple[str, str, str]) -> None:
    c, _ = club()
    with pytest.raises(ClubError):
        c.ban("alice", bad[0], bad[1], bad[2], None)
    assert c.bans() == []


def test_an_invite_admits_once_a_revoked_member_is_out() -> None:
    c, _ = club()
    code = c.invite("alice", uses=1).code
    c.redeem(code, "SHA256:newbie", "newbie")
    assert c.is_member("SHA256:newbie")
    with pytest.raises(ClubError, match="not valid"):
        c.redeem(code, "SHA256:other", "other")
    assert [m.invited_by for m in c.members()] == ["alice"]
    c.revoke("alice", "newbie")
    assert not c.is_member("SHA256:newbie") and c.revoked("SHA256:newbie")
    assert c.is_member(ALICE)  # admins are members


def test_an_invite_for_a_name_is_for_that_name_only() -> None:
    c, _ = club()
    code = c.invite("alice", uses=2, name="carol").code
    with pytest.raises(ClubError, match="for the name carol"):
        c.redeem(code, "SHA256:x", "dave")
    c.redeem(code, "SHA256:y", "Carol")


async def test_switching_to_invite_mode_keeps_the_keys_that_own_a_name_as_members() -> None:
    """Players of an open club who own a name are members when the server starts
    in invite mode (not asked for a code); a guest's keyless name, a revoked member
    and a key that never came are not."""
    storage = Storage(":memory:")
    assert storage.claim_name("bob", "SHA256:bob") and storage.claim_name("bobby", "SHA256:bob")
    assert storage.claim_name("carol", "SHA256:carol")
    storage.set_lang("guesty", "zh")  # a guest's language: a name row without a key
    c = Club(storage, config_admins={ALICE})
    c.redeem(c.invite("alice").code, "SHA256:dave", "dave")
    c.revoke("alice", "dave")
    hub = new_hub(storage, club=c, members_only=True)
    await hub.start()
    try:
        assert c.is_member("SHA256:bob") and c.is_member("SHA256:carol")
        assert [(m.name, m.invited_by) for m in c.members() if m.key_fingerprint == "SHA256:bob"] == [("bob", "(open club)")]
        assert c.revoked("SHA256:dave") and not c.is_member("SHA256:stranger")
        assert hub.refusal(Identity(name="bob", key_fingerprint="SHA256:bob")) is None
        assert hub.refusal(Identity(name="dave", key_fingerprint="SHA256:dave")) == ("not-member", {})
        assert c.grandfather() == []  # once: the next start adds nobody
        assert any(e.action == "grandfather" for e in c.audit())
    finally:
        await hub.stop()


async def test_a_muted_player_cannot_chat_in_the_lobby_or_a_room_and_is_told_until_when() -> None:
    hub = new_hub()
    await hub.start()
    try:
        bob = hub.connect(Identity(name="bob"))
        room = bob.create_room(RoomSettings(game="count", seats=3))
        hub.club.mute("alice", "bob", "calm down", 3600)
        for say in (bob.chat, room.chat):
            with pytest.raises(ClientError) as err:
                say("hello")
            assert err.value.code == "muted" and err.value.reason == "timed"
            assert err.value.params["reason"] == "calm down" and err.value.params["until"].endswith("UTC")
        hub.club.unmute("alice", "bob")
        bob.chat("hello again")
        assert hub.chat[-1].text == "hello again"
    finally:
        await hub.stop()


async def test_the_admin_client_is_for_admins_and_a_ban_ends_the_session_at_once() -> None:
    hub = new_hub()
    await hub.start()
    try:
        admin_lobby = hub.connect(Identity(name="alice", key_fingerprint=ALICE, admin=True))
        hub.club.config_admins = frozenset({ALICE})
        plain = hub.connect(Identity(name="bob", key_fingerprint="SHA256:bob"))
        assert plain.admin() is None
        forged = hub.connect(Identity(name="eve", key_fingerprint="SHA256:eve", admin=True))
        assert forged.admin() is None  # the flag alone is not enough: the key must be an admin's
        admin = admin_lobby.admin()
        assert admin is not None
        assert {p.name for p in admin.online_players()} == {"alice", "bob", "eve"}
        ended: list[tuple[str, dict[str, str]]] = []
        plain.ender = lambda key, values: ended.append((key, values))
        admin.ban("key", "SHA256:bob", "cheating", "7d")
        assert ended and ended[0][0] == "banned-until" and ended[0][1]["reason"] == "cheating"
        hub.run_club_commands()  # the ban's "enforce" row, as the hub's poll reads it later: bob is ended once
        assert len(ended) == 1
        with pytest.raises(ClientError) as err:
            admin.ban("key", "SHA256:x", "why", "3 days")
        assert err.value.reason == "bad-duration"
        for kind, value in (("key", ALICE), ("name", "ALICE")):
            with pytest.raises(ClientError) as err:
                admin.ban(kind, value, "oops", "forever")  # type: ignore[arg-type]
            assert err.value.reason == "self"
        admin.message("eve", "please behave")
        assert forged.take_notices() == ["please behave"] and forged.take_notices() == []
        admin.announce("tournament at 8")
        assert hub.chat[-1].key == "sys.announce"
        actions = [a.action for a in admin.audit()]
        assert actions[:3] == ["announce", "message", "ban-key"]
    finally:
        await hub.stop()


async def test_closing_a_room_abandons_its_match_and_tells_its_players_why() -> None:
    hub = new_hub()
    await hub.start()
    try:
        hub.club.config_admins = frozenset({ALICE})
        admin = hub.connect(Identity(name="alice", key_fingerprint=ALICE, admin=True)).admin()
        assert admin is not None
        bob = hub.connect(Identity(name="bob"))
        room = bob.create_room(RoomSettings(game="count", seats=2))
        room.add_bot()
        room.start()
        admin.close_room(room.room_id, "too late tonight")
        with pytest.raises(ClientError) as err:
            room.snapshot()
        assert err.value.code == "closed-admin" and err.value.params["reason"] == "too late tonight"
        assert hub.chat[-1].key == "sys.room_closed_admin_named"
        assert hub.storage.unfinished_matches() == []
    finally:
        await hub.stop()


async def test_the_lobby_is_told_which_room_an_admin_closed_by_its_name() -> None:
    """The lobby does not show room numbers: "An admin closed room 3" left
    everyone else guessing which table it was."""
    hub = new_hub()
    await hub.start()
    try:
        hub.club.config_admins = frozenset({ALICE})
        admin = hub.connect(Identity(name="alice", key_fingerprint=ALICE, admin=True)).admin()
        assert admin is not None
        room = hub.connect(Identity(name="bob")).create_room(RoomSettings(game="count", seats=2))
        admin.close_room(room.room_id, "too late tonight")
        line = hub.chat[-1]
        assert line.text == f"An admin closed room {room.room_id} (bob's table): too late tonight"
        assert system_line(line.key, line.params, "zh") == f"管理員關閉了 {room.room_id} 號房（bob 的牌桌）：too late tonight"
    finally:
        await hub.stop()


async def test_a_room_hosts_kick_is_kept_over_a_restart(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "db.sqlite")
    hub = new_hub(storage)
    await hub.start()
    host = hub.connect(Identity(name="alice"))
    room = host.create_room(RoomSettings(game="count", seats=3))
    hub.connect(Identity(name="bob")).join(room.room_id)
    room.kick(1)
    await hub.stop()
    again = new_hub(storage)
    await again.start()
    try:
        with pytest.raises(ClientError) as err:
            again.connect(Identity(name="bob")).join(room.room_id)
        assert err.value.code == "banned"
    finally:
        await again.stop()


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    ops.add_commands(parser.add_subparsers(dest="command"))
    return parser.parse_args(list(argv))


def _config(db: Path) -> Config:
    return Config(server=ServerSection(db_path=db), players=PlayersSection(admins=(ALICE,)))


def _run(db: Path, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return ops.run(_args(*argv), _config(db), out), out.getvalue()


def test_the_command_line_on_a_stopped_server(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    assert _run(db, "admin", "bans") == (2, f"throneroom: no database at {db} (the server makes it on first start)\n")
    Storage(db).close()
    code, out = _run(db, "admin", "ban", "address", "198.51.100.0/24", "--reason", "scanner", "--for", "1d")
    assert code == 0 and out.startswith("ban 1: address 198.51.100.0/24 until ")
    assert "198.51.100.0/24" in _run(db, "admin", "bans")[1]
    assert _run(db, "admin", "ban", "key", "nope", "--reason", "x")[0] == 1
    code, out = _run(db, "admin", "invite", "--uses", "3", "--expires", "forever")
    assert code == 0 and "3 use(s), never expires" in out
    assert _run(db, "admin", "announce", "hello") == (1, "throneroom: the server is not running: nobody would see it\n")
    assert _run(db, "status")[0] == 1
    code, out = _run(db, "admin", "admins")
    assert f"{ALICE}  (config)" in out
    assert "ban-address" in _run(db, "admin", "audit")[1]
    assert _run(db, "check")[1].endswith(f"database: ok ({db}, schema version {SCHEMA_VERSION})\n")


def test_check_says_what_is_wrong_and_how_to_restore(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    code, out = _run(db, "check")
    assert code == 1
    assert "database: cannot be read" in out and "throneroom backup" in out and ".recover" in out


async def test_the_command_line_beside_a_running_server(tmp_path: Path) -> None:
    """What the CLI leaves is done by the running hub (as its poll would), and
    ``status`` reads what the hub wrote."""
    db = tmp_path / "db.sqlite"
    hub: Hub = new_hub(Storage(db))
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="troll", key_fingerprint="SHA256:troll", address="192.0.2.9"))
        ended: list[str] = []
        lobby.ender = lambda key, values: ended.append(key)
        hub.storage.set_status(hub.status(12.0, 0.004, 3.5))
        code, out = _run(db, "status")
        assert code == 0 and "players online: 1" in out and "event loop lag: 4.0 ms" in out
        assert _run(db, "admin", "announce", "server restarts at midnight")[0] == 0
        assert _run(db, "admin", "ban", "address", "192.0.2.0/24", "--reason", "abuse")[0] == 0
        hub.run_club_commands()
        assert ended == ["banned"]
        assert any(line.key == "sys.announce" and "midnight" in line.text for line in hub.chat)
    finally:
        await hub.stop()


async def test_a_backup_taken_mid_match_restores_the_match(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    hub = new_hub(Storage(db))
    await hub.start()
    bob = hub.connect(Identity(name="bob"))
    room = bob.create_room(RoomSettings(game="count", seats=2))
    room.add_bot()
    room.start()
    room.act(room.legal()[0], room.snapshot().version) if room.pending() else None
    logged = len(hub.storage.unfinished_matches()[0].log)
    copy = tmp_path / "backup.sqlite"
    assert _run(db, "backup", str(copy))[0] == 0
    await hub.stop()
    restored = new_hub(Storage(copy))
    await restored.start()
    try:
        [match] = restored.storage.unfinished_matches()
        assert len(match.log) == logged
        assert restored.rooms[room.room_id].state == "playing"
    finally:
        await restored.stop()


async def test_the_metrics_endpoint_serves_the_status_figures_and_refusals() -> None:
    import urllib.request

    from server.metrics import refused, start_endpoint

    hub = new_hub()
    await hub.start()
    try:
        hub.connect(Identity(name="bob"))
        refused("banned")
        hub.last_status = hub.status(5.0, 0.002, 1.5)
        stop, port = start_endpoint("127.0.0.1", 0, lambda: hub.last_status)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
                text = reply.read().decode()
        finally:
            stop()
        assert "throneroom_players_online 1.0" in text
        assert 'throneroom_refusals_total{cause="banned"}' in text
        assert "throneroom_loop_lag_seconds 0.002" in text
        assert 'throneroom_rooms{state="playing"} 0.0' in text
    finally:
        await hub.stop()
