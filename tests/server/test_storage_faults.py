"""Storage faults (issue 45 finding 9): a damaged, read-only or full database
is said plainly, to the operator at start and to the player at the moment,
and a power cut loses nothing committed."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from games import until
from hubs import new_hub
from test_ssh_server import HelloApp, RecordingHub, connect, open_tty

from protocol.contract import ChatLine, ClientError, Identity, RoomSettings
from protocol.i18n import t
from server.cli import app_host
from server.config import Config, ServerSection, StorageSection
from server.ops import RESTORE_HELP
from server.ssh import ThroneServer
from server.storage import LOBBY_CHAT, DatabaseCorrupt, DatabaseReadOnly, Storage

ROOT = Path(__file__).resolve().parents[2]


def _damaged(path: Path) -> None:
    """A database whose chat pages (not read when it opens) are overwritten."""
    st = Storage(path)
    for i in range(300):
        st.keep_chat(LOBBY_CHAT, ChatLine(at=float(i), name="alice", text="x" * 200))
    st.close()
    size = path.stat().st_size
    with path.open("r+b") as fh:
        fh.seek(size - 3 * 4096)
        fh.write(b"\xde\xad\xbe\xef" * 1024)


def _serve(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "serve", "--host", "127.0.0.1", "--port", "0",
         "--keys", str(tmp_path / "keys"), "--db", str(db)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )


def test_a_damaged_database_stops_the_server_with_how_to_restore(tmp_path: Path) -> None:
    """It exited with a bare traceback; now it says the file is damaged and how to
    restore (the words of `throneroom check`), before listening."""
    db = tmp_path / "throneroom.db"
    _damaged(db)
    with pytest.raises(DatabaseCorrupt, match="is damaged"):
        Storage(db).check()
    run = _serve(tmp_path, db)
    out = run.stdout + run.stderr
    assert run.returncode == 2, out
    assert "is damaged" in out and RESTORE_HELP in out
    assert "Traceback" not in out and "listening" not in out


def test_a_read_only_database_is_refused_at_start_with_what_to_do(tmp_path: Path) -> None:
    """It started "listening", then the first write left a match stuck. The check
    writes (and removes) a row before the server listens."""
    db = tmp_path / "throneroom.db"
    st = Storage(db)
    st.check()  # a writable database passes
    st.connection.execute("PRAGMA query_only=ON")  # what a read-only file does to every write (root ignores chmod)
    with pytest.raises(DatabaseReadOnly, match=r"cannot be written .*write access"):
        st.check()
    st.close()
    if os.geteuid() != 0:  # the real thing, where permissions apply
        db.chmod(0o444)
        run = _serve(tmp_path, db)
        assert run.returncode == 2 and "cannot be written" in run.stdout + run.stderr


def test_committed_actions_are_synced_by_default(tmp_path: Path) -> None:
    """synchronous=NORMAL could lose committed actions on a power cut, while the
    README promised a power cut loses nothing: FULL is the default (storage.synchronous)."""
    assert StorageSection().synchronous == "full"
    for mode, level in (("full", 2), ("normal", 1)):
        st = Storage(tmp_path / f"{mode}.db", synchronous=mode)  # type: ignore[arg-type]
        assert st.connection.execute("PRAGMA synchronous").fetchone()[0] == level
        assert st.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        st.close()
    assert Storage(tmp_path / "default.db").connection.execute("PRAGMA synchronous").fetchone()[0] == 2



class _Disk:
    """The database's connection, as a full disk makes it: while ``full``, every
    write fails as SQLite fails on ENOSPC (reads go on)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.full = False
        self.refused = 0

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        if self.full and sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def _disk(st: Storage) -> _Disk:
    disk = _Disk(st.connection)
    st._db = disk  # type: ignore[assignment]
    return disk


async def test_on_a_full_disk_chat_is_refused_to_its_sender_not_dropped(tmp_path: Path) -> None:
    """A full disk dropped chat silently; the line is refused to its sender, who
    is told (both languages) and keeps it to send again; nobody sees a line a
    restart would lose."""
    st = Storage(tmp_path / "db.sqlite")
    disk = _disk(st)
    hub = new_hub(st)
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="alice"))
        room = lobby.create_room(RoomSettings(game="count", seats=2))
        disk.full = True
        for call in (lobby.chat, room.chat):
            with pytest.raises(ClientError) as err:
                call("hello")
            assert err.value.code == "chat-storage"
        assert all(line.text != "hello" for line in lobby.chat_lines() + room.chat_lines())
        assert "disk may be full" in t("err.chat-storage", "en") and "磁碟可能已滿" in t("err.chat-storage", "zh")
        disk.full = False
        lobby.chat("hello")
        room.chat("hello")
        assert [line.text for line in st.chat_lines(LOBBY_CHAT)][-1:] == ["hello"]
        assert any(line.text == "hello" for line in room.chat_lines())
    finally:
        await hub.stop()


async def test_a_bots_match_stopped_by_a_full_disk_goes_on_by_itself_when_space_returns(tmp_path: Path) -> None:
    """After space returned the match stayed stuck until an unrelated event; it
    tries its writes again every storage.retry_interval, and nothing is lost or
    logged twice."""
    st = Storage(tmp_path / "db.sqlite")
    disk = _disk(st)
    hub = new_hub(st, storage_retry=0.05)
    await hub.start()
    try:
        a = hub.connect(Identity(name="alice")).create_room(
            RoomSettings(game="count", seats=3, options={"rounds": 3, "target": 20})
        )
        a.start()
        a.leave()  # bots play every seat
        room = hub.rooms[a.room_id]
        await until(lambda: room.seq >= 3)
        disk.full = True
        stuck = room.seq
        await asyncio.sleep(0.5)  # ten retries' time: still stuck, still playing
        assert room.state == "playing" and room.seq == stuck
        disk.full = False
        await until(lambda: room.state == "finished")  # no event but the retry moved it
        assert room.match_id is not None
        log = st.match_log(room.match_id)
        assert [e.seq for e in log] == list(range(len(log))) and len(log) > stuck
    finally:
        await hub.stop()


async def test_a_new_keyed_player_on_a_full_disk_is_not_told_the_name_is_another_s(tmp_path: Path) -> None:
    """A full disk told a new keyed player their name "belongs to another player's
    SSH key"; it says the database refused, and the same key gets the name once
    space returns."""
    st = Storage(tmp_path / "db.sqlite")
    server = ThroneServer(
        Config(server=ServerSection(host="127.0.0.1", port=0)),
        hub=RecordingHub(), storage=st, host_key=asyncssh.generate_private_key("ssh-ed25519"), apps=replace(app_host(), new_app=HelloApp),
    )
    await server.start()
    disk = _disk(st)
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        disk.full = True
        conn, _ = await connect(server.port, "newbie", key)
        async with conn:
            out = (await (await open_tty(conn)).drain()).decode()
        assert "belongs to another" not in out
        assert "could not check or save your name" in out and "disk may be full" in out
        assert st.key_owner("newbie") is None
        disk.full = False
        conn, _ = await connect(server.port, "newbie", key)
        async with conn:
            await (await open_tty(conn)).wait_for("hello newbie guest=False")
        assert st.key_owner("newbie") == key.get_fingerprint("sha256")
    finally:
        await server.stop()


async def test_creating_a_room_on_a_full_disk_is_refused_not_a_crashed_session(tmp_path: Path) -> None:
    """Creating a room crashed the player's session (an uncaught sqlite3.OperationalError)."""
    st = Storage(tmp_path / "db.sqlite")
    disk = _disk(st)
    hub = new_hub(st)
    await hub.start()
    try:
        lobby = hub.connect(Identity(name="alice"))
        disk.full = True
        with pytest.raises(ClientError) as err:
            lobby.create_room(RoomSettings(game="count", seats=2))
        assert err.value.code == "storage" and hub.rooms == {}
        assert t("err.storage", "zh")
        disk.full = False
        assert lobby.create_room(RoomSettings(game="count", seats=2)).room_id in hub.rooms
    finally:
        await hub.stop()


async def test_a_player_who_left_the_table_is_not_waited_for_again_after_a_restart(tmp_path: Path) -> None:
    """"Left the table" was not kept: after each restart the table waited a new
    grace period for a player who had left it. A bot plays their seat at once
    after the restart, until they come back (and their coming back is kept too)."""
    db = tmp_path / "db.sqlite"
    hub = new_hub(Storage(db), bot_delay=20.0, grace_period=3600.0)  # grace: 3.6 s of test time
    await hub.start()
    carol = Identity(name="carol", key_fingerprint="SHA256:c")
    rc = hub.connect(carol).create_room(RoomSettings(game="count", seats=3, options={"rounds": 5, "target": 40}))
    rc.start()
    rc.leave()  # Escape: a bot plays for her
    room = hub.rooms[rc.room_id]
    await until(lambda: room.seq >= 2)
    assert room.seats[0].autoplay
    await hub.stop()

    again = new_hub(Storage(db), bot_delay=20.0, grace_period=3600.0)
    await again.start()
    try:
        restored = again.rooms[rc.room_id]
        assert restored.state == "playing" and restored.seats[0].autoplay  # no grace period again
        seq = restored.seq
        await until(lambda: restored.seq >= seq + 3, timeout=2.0)  # the table went on (grace: 3.6 s)
        back = again.connect(carol).join(rc.room_id)  # she comes back: kept as back
        assert not restored.seats[0].autoplay and back.my_seat == 0
        assert restored.match_id is not None
        [stored] = [m for m in again.storage.unfinished_matches() if m.id == restored.match_id]
        assert not stored.seats[0].autoplay
    finally:
        await again.stop()
