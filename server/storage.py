"""SQLite persistence for the host: identities, rooms, matches, the action log, results.

One connection (stdlib :mod:`sqlite3`), WAL journal, a versioned schema.
Every call commits before it returns, so an action appended with
:meth:`Storage.append_action` is on disk before the room publishes it.

The log is the truth for a match: ``seed`` + the ordered entries (actions and
``next-round`` markers) rebuild the engine table exactly
(:meth:`Storage.unfinished_matches` gives restore everything it needs).

All methods are synchronous and meant to be called from the event loop's
thread only (the connection is not shared between threads).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from protocol.contract import ChatLine, LeaderRow, leader_order
from protocol.names import name_key
from server.config import DEFAULT_SYNCHRONOUS
from server.sanitize import name_skeleton

SCHEMA_VERSION = 11
CHAT_HISTORY = 200  # chat lines kept for the lobby and for each room (on screen and in the database)

log = logging.getLogger("throneroom.storage")

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS identities (
    name            TEXT PRIMARY KEY COLLATE NOCASE,
    key_fingerprint TEXT,
    lang            TEXT,
    created         REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    settings TEXT NOT NULL,
    host     TEXT NOT NULL,
    created  REAL NOT NULL,
    closed   REAL
);
CREATE TABLE IF NOT EXISTS matches (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id   INTEGER NOT NULL REFERENCES rooms(id),
    game      TEXT NOT NULL,
    seed      INTEGER NOT NULL,
    options   TEXT NOT NULL,
    seats     TEXT NOT NULL,
    started   REAL NOT NULL,
    finished  REAL,
    abandoned TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('action', 'next-round')),
    seat     INTEGER,
    text     TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('human', 'guest', 'bot')),
    points   INTEGER NOT NULL,
    win      INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS results_name ON results(name);
CREATE INDEX IF NOT EXISTS matches_open ON matches(finished);
"""

# v3: the lobby's and each open room's chat (scope "lobby" or "room:<id>"), the
# newest lines only; a room's lines go when the room closes.
_SCHEMA_V3 = """
CREATE TABLE IF NOT EXISTS chat (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    scope TEXT NOT NULL,
    line  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_scope ON chat(scope, id);
"""

# v4: a room's lineup between matches (its seats, and the finished match it
# shows), so that a restart brings back rooms waiting or showing a result too.
_SCHEMA_V4 = "ALTER TABLE rooms ADD COLUMN lineup TEXT"

# v5: who watches each open room (keyed like a seat: by identity), for a
# restart to put them back; ``away`` is when their last screen of it went.
_SCHEMA_V5 = """
CREATE TABLE IF NOT EXISTS watchers (
    room_id INTEGER NOT NULL REFERENCES rooms(id),
    key     TEXT NOT NULL,
    name    TEXT NOT NULL,
    guest   INTEGER NOT NULL,
    away    REAL,
    PRIMARY KEY (room_id, key)
)
"""

# v6: a seat whose player left the match before its end (a bot played it out):
# the result says so, and the leaderboard counts it a match played, never won.
_SCHEMA_V6 = "ALTER TABLE results ADD COLUMN left_match INTEGER NOT NULL DEFAULT 0"

# v8: running a club (server.club): bans, mutes, admins added in the app,
# members and invite codes, the audit log of admin actions, a room host's kicks,
# and commands the command line leaves for the running server.
_SCHEMA_V8 = """
CREATE TABLE IF NOT EXISTS bans (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    kind    TEXT NOT NULL CHECK (kind IN ('key', 'name', 'address')),
    value   TEXT NOT NULL,
    reason  TEXT NOT NULL,
    by      TEXT NOT NULL,
    created REAL NOT NULL,
    until   REAL,
    lifted  REAL
);
CREATE INDEX IF NOT EXISTS bans_value ON bans(kind, value);
CREATE TABLE IF NOT EXISTS mutes (
    name    TEXT PRIMARY KEY,
    reason  TEXT NOT NULL,
    by      TEXT NOT NULL,
    created REAL NOT NULL,
    until   REAL
);
CREATE TABLE IF NOT EXISTS admins (
    key_fingerprint TEXT PRIMARY KEY,
    added_by        TEXT NOT NULL,
    created         REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS members (
    key_fingerprint TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    invited_by      TEXT NOT NULL,
    code            TEXT NOT NULL,
    created         REAL NOT NULL,
    revoked         REAL
);
CREATE TABLE IF NOT EXISTS invites (
    code       TEXT PRIMARY KEY,
    uses_left  INTEGER NOT NULL,
    expires    REAL,
    name       TEXT,
    created_by TEXT NOT NULL,
    created    REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    at     REAL NOT NULL,
    actor  TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS room_kicks (
    room_id INTEGER NOT NULL,
    name    TEXT NOT NULL,
    PRIMARY KEY (room_id, name)
);
CREATE TABLE IF NOT EXISTS commands (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    kind    TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL
)
"""

# v9: what each name looks like (server.sanitize.name_skeleton), indexed: a
# key-owned name protects every name that could pass for it.
_SCHEMA_V9 = """
ALTER TABLE identities ADD COLUMN skeleton TEXT;
CREATE INDEX IF NOT EXISTS identities_skeleton ON identities(skeleton)
"""

# v10: when a key claimed each name, and the names of a key by an index
# (names per key are capped and claims per key rate-limited).
_SCHEMA_V10 = """
ALTER TABLE identities ADD COLUMN claimed REAL;
CREATE INDEX IF NOT EXISTS identities_key ON identities(key_fingerprint, claimed)
"""

# v11: the language a guest chose, by the name and address they came as (a
# guest's name is nobody's: not kept with the name's identity row, so a key that
# claims the name later, or a guest elsewhere, does not get it).
_SCHEMA_V11 = """
CREATE TABLE IF NOT EXISTS guest_langs (
    name    TEXT NOT NULL,
    address TEXT NOT NULL,
    lang    TEXT NOT NULL,
    at      REAL NOT NULL,
    PRIMARY KEY (name, address)
)
"""
GUEST_LANG_KEPT = 30 * 86400  # seconds a guest's language is kept after they last chose it

NEXT_ROUND = "next-round"


@dataclass(frozen=True)
class LogEntry:
    """One entry of a match's append-only log."""

    seq: int
    kind: Literal["action", "next-round"]
    seat: int | None  # None for a next-round marker
    text: str


@dataclass(frozen=True)
class SeatRecord:
    """Who sat in a seat when a match started."""

    kind: Literal["human", "bot", "empty"]
    name: str = ""
    guest: bool = False
    left: bool = False  # the player left the match before its end (:meth:`Storage.mark_left`)
    autoplay: bool = False  # the player left the table: a bot plays for them until they are back (mark_autoplay)
    gone: float | None = None  # unix time the absent player's grace period began (mark_gone); None: here

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "guest": self.guest}
        if self.left:
            out["left"] = True
        if self.autoplay:
            out["autoplay"] = True
        if self.gone is not None:
            out["gone"] = self.gone
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> SeatRecord:
        kind = data.get("kind", "empty")
        if kind not in ("human", "bot", "empty"):
            raise ValueError(f"bad seat kind {kind!r}")
        return SeatRecord(
            kind=kind, name=str(data.get("name", "")), guest=bool(data.get("guest", False)),
            left=bool(data.get("left", False)), autoplay=bool(data.get("autoplay", False)),
            gone=float(gone) if isinstance(gone := data.get("gone"), (int, float)) else None,
        )


@dataclass(frozen=True)
class SeatResult:
    """A seat's result in a finished match."""

    seat: int
    name: str
    kind: Literal["human", "guest", "bot"]
    points: int
    win: bool
    left: bool = False  # the player left before the end; a bot played the seat out


@dataclass(frozen=True)
class StoredWatcher:
    """Someone who watches a room, or watched it until ``away`` (unix time):
    their connection or the server went while they watched."""

    name: str
    guest: bool
    away: float | None


@dataclass(frozen=True)
class StoredRoom:
    id: str
    settings: dict[str, Any]
    host: str
    created: float
    closed: float | None
    lineup: dict[str, Any] | None = None  # see Storage.save_lineup


@dataclass(frozen=True)
class StoredMatch:
    """An unfinished (or any) match with everything needed to replay it."""

    id: int
    room: StoredRoom
    game: str
    seed: int
    options: dict[str, Any]
    seats: list[SeatRecord]
    started: float
    log: list[LogEntry] = field(default_factory=list)


class StorageError(Exception):
    """The database refused a write (disk full, constraint...)."""


class DatabaseCorrupt(StorageError):
    """The database file is damaged (SQLite: malformed, or not a database)."""


class DatabaseReadOnly(StorageError):
    """The database cannot be written (a read-only file or folder, a full disk)."""


def _corrupt(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.DatabaseError) and ("malformed" in text or "not a database" in text)


class Storage:
    """The host's SQLite database. ``path`` may be ``":memory:"``."""

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: Literal["normal", "full"] = DEFAULT_SYNCHRONOUS,
    ) -> None:
        self._clock = clock
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: autocommit; explicit transactions where several rows go together.
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        try:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: WAL commits are synced, so a committed action survives a power cut
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            # the command line (server.club) writes to a running server's database: wait for
            # its short transactions instead of failing
            self._db.execute("PRAGMA busy_timeout=1000")
            self._migrate()
        except sqlite3.Error as exc:
            self._db.close()
            if _corrupt(exc):
                raise DatabaseCorrupt(f"the database {self.path} is damaged: {exc}") from exc
            raise
        self.actions_logged = 0  # since start (``throneroom status``: actions per second)
        # the whole leaderboard, of every game (None) and of each game read, kept until a match finishes
        self._leaders: dict[str | None, list[LeaderRow]] = {}

    # ------------------------------------------------------------------ schema

    def _migrate(self) -> None:
        self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = int(row["value"]) if row else 0
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"database {self.path} has schema version {version}, newer than this "
                f"server understands ({SCHEMA_VERSION}); upgrade throneroom"
            )
        if version < 1:
            with self._tx():
                self._run(_SCHEMA_V1)
                self._set_version(1)
        if version < 2:  # the bell setting: NULL (never set) rings
            with self._tx():
                self._db.execute("ALTER TABLE identities ADD COLUMN bell INTEGER")
                self._set_version(2)
        if version < 3:
            with self._tx():
                self._run(_SCHEMA_V3)
                self._set_version(3)
        if version < 4:
            with self._tx():
                self._run(_SCHEMA_V4)
                self._set_version(4)
        if version < 5:
            with self._tx():
                self._run(_SCHEMA_V5)
                self._set_version(5)
        if version < 6:
            with self._tx():
                self._run(_SCHEMA_V6)
                self._set_version(6)
        if version < 7:  # "ask me in every window": NULL (never set) is off
            with self._tx():
                self._db.execute("ALTER TABLE identities ADD COLUMN ask_every INTEGER")
                self._set_version(7)
        if version < 8:
            with self._tx():
                self._run(_SCHEMA_V8)
                self._set_version(8)
        if version < 9:
            with self._tx():
                self._run(_SCHEMA_V9)
                for row in self._db.execute("SELECT name FROM identities").fetchall():
                    self._db.execute(
                        "UPDATE identities SET skeleton=? WHERE name=?", (name_skeleton(row["name"]), row["name"])
                    )
                self._set_version(9)
        if version < 10:
            with self._tx():
                self._run(_SCHEMA_V10)
                self._set_version(10)
        if version < 11:
            with self._tx():
                self._run(_SCHEMA_V11)
                self._set_version(11)

    def check(self) -> None:
        """Before the server listens: the file is whole (SQLite's quick_check) and can be
        written (a row of ``meta`` written and removed in one transaction). Raises
        :class:`DatabaseCorrupt` or :class:`DatabaseReadOnly` saying what is wrong."""
        try:
            problems = [r[0] for r in self._db.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.Error as exc:
            problems = [str(exc)]
        if problems != ["ok"]:
            raise DatabaseCorrupt(f"the database {self.path} is damaged: " + "; ".join(problems[:5]))
        try:
            with self._tx():
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('write-check', ?)", (str(self._clock()),))
                self._db.execute("DELETE FROM meta WHERE key='write-check'")
        except sqlite3.Error as exc:
            if _corrupt(exc):
                raise DatabaseCorrupt(f"the database {self.path} is damaged: {exc}") from exc
            raise DatabaseReadOnly(
                f"the database {self.path} cannot be written ({exc}): the server's user needs write access "
                "to the file and its folder (SQLite keeps -wal and -shm files beside it), and the disk free space"
            ) from exc

    def _run(self, script: str) -> None:
        """Each statement of a schema script, in the open transaction (``executescript`` would commit it)."""
        for stmt in script.split(";"):
            if stmt.strip():
                self._db.execute(stmt)

    def _set_version(self, version: int) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(version),))

    @property
    def schema_version(self) -> int:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row["value"]) if row else 0

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        self._db.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """For :mod:`server.club`, whose tables live here too (one file, one backup)."""
        return self._db

    def transaction(self) -> _Transaction:
        return self._tx()

    def set_status(self, status: dict[str, Any]) -> None:
        """The running server's figures for ``throneroom status`` (read by another process)."""
        self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('status', ?)", (json.dumps(status),))

    # -------------------------------------------------------------- identities

    def claim_name(self, name: str, key_fingerprint: str, *, lookalikes: bool = True) -> bool:
        """Give ``name`` to the key unless another key owns it (names compare by :func:`name_key`)
        or, with ``lookalikes``, owns a name that could pass for it (:meth:`lookalike_owner`).

        True if the name was free (now owned by this key), or owned by this key
        already, or known but keyless (e.g. it only set a language as a guest);
        False if another key owns it or a look-alike of it.
        """
        key = name_key(name)
        with self._tx():
            row = self._db.execute(
                "SELECT key_fingerprint FROM identities WHERE name=?", (key,)
            ).fetchone()
            owner = None if row is None else row["key_fingerprint"]
            if owner is not None:
                return bool(owner == key_fingerprint)
            if lookalikes and self.lookalike_owner(name, key_fingerprint) is not None:
                return False
            if row is None:
                self._db.execute(
                    "INSERT INTO identities(name, key_fingerprint, lang, created, skeleton, claimed) "
                    "VALUES (?, ?, NULL, ?, ?, ?)",
                    (key, key_fingerprint, self._clock(), name_skeleton(name), self._clock()),
                )
            else:
                self._db.execute(
                    "UPDATE identities SET key_fingerprint=?, skeleton=?, claimed=? WHERE name=?",
                    (key_fingerprint, name_skeleton(name), self._clock(), key),
                )
            return True

    def names_of(self, key_fingerprint: str) -> list[str]:
        """The names ``key_fingerprint`` owns, oldest claim first."""
        rows = self._db.execute(
            "SELECT name FROM identities WHERE key_fingerprint=? ORDER BY claimed, created", (key_fingerprint,)
        ).fetchall()
        return [str(r["name"]) for r in rows]

    def claims_since(self, key_fingerprint: str, since: float) -> int:
        """How many names ``key_fingerprint`` claimed at ``since`` or later (and still owns)."""
        row = self._db.execute(
            "SELECT COUNT(*) AS n FROM identities WHERE key_fingerprint=? AND claimed>=?", (key_fingerprint, since)
        ).fetchone()
        return int(row["n"])

    def key_owner(self, name: str) -> str | None:
        """The fingerprint of the key owning ``name``, or None if nobody owns it."""
        row = self._db.execute(
            "SELECT key_fingerprint FROM identities WHERE name=?", (name_key(name),)
        ).fetchone()
        return None if row is None else row["key_fingerprint"]

    def lookalike_owner(self, name: str, key_fingerprint: str | None = None) -> str | None:
        """Another name, owned by a key other than ``key_fingerprint``, that ``name``
        could pass for (one :func:`name_skeleton`; the name itself compares
        by :meth:`key_owner`), or None. An index lookup."""
        skeletons = sorted({name_skeleton(name), name_skeleton(name_key(name))})
        marks = ",".join("?" * len(skeletons))
        row = self._db.execute(
            f"SELECT name FROM identities WHERE skeleton IN ({marks}) AND name<>? "
            "AND key_fingerprint IS NOT NULL AND key_fingerprint IS NOT ? ORDER BY created LIMIT 1",
            (*skeletons, name_key(name), key_fingerprint),
        ).fetchone()
        return None if row is None else str(row["name"])

    _SETTINGS = ("lang", "bell", "ask_every")
    """An identity's own settings: columns of ``identities``, NULL until set."""

    def _setting(self, name: str, column: str) -> Any:
        assert column in self._SETTINGS
        row = self._db.execute(f"SELECT {column} FROM identities WHERE name=?", (name_key(name),)).fetchone()
        return None if row is None else row[column]

    def _set_setting(self, name: str, column: str, value: object) -> None:
        """Set one of ``name``'s settings; a name nobody owns yet gets a keyless row."""
        assert column in self._SETTINGS
        key = name_key(name)
        with self._tx():
            cur = self._db.execute(f"UPDATE identities SET {column}=? WHERE name=?", (value, key))
            if cur.rowcount == 0:
                self._db.execute(
                    f"INSERT INTO identities(name, key_fingerprint, {column}, created, skeleton) VALUES (?, NULL, ?, ?, ?)",
                    (key, value, self._clock(), name_skeleton(name)),
                )

    def get_lang(self, name: str) -> str | None:
        lang = self._setting(name, "lang")
        return None if lang is None else str(lang)

    def set_lang(self, name: str, lang: str) -> None:
        self._set_setting(name, "lang", lang)

    def get_guest_lang(self, name: str, address: str) -> str | None:
        """The language a guest chose as ``name`` from ``address`` (kept :data:`GUEST_LANG_KEPT`)."""
        row = self._db.execute(
            "SELECT lang FROM guest_langs WHERE name=? AND address=? AND at>=?",
            (name_key(name), address, self._clock() - GUEST_LANG_KEPT),
        ).fetchone()
        return None if row is None else str(row["lang"])

    def set_guest_lang(self, name: str, address: str, lang: str) -> None:
        now = self._clock()
        with self._tx():
            self._db.execute(
                "INSERT OR REPLACE INTO guest_langs(name, address, lang, at) VALUES (?, ?, ?, ?)",
                (name_key(name), address, lang, now),
            )
            self._db.execute("DELETE FROM guest_langs WHERE at<?", (now - GUEST_LANG_KEPT,))

    def get_bell(self, name: str) -> bool | None:
        """Whether the bell rings on ``name``'s turn; None if never set."""
        bell = self._setting(name, "bell")
        return None if bell is None else bool(bell)

    def set_bell(self, name: str, on: bool) -> None:
        self._set_setting(name, "bell", int(on))

    def get_ask_every(self, name: str) -> bool | None:
        """Whether ``name`` is asked in every reaction window (S-REACT-5, K-ORD-11); None if never set."""
        value = self._setting(name, "ask_every")
        return None if value is None else bool(value)

    def set_ask_every(self, name: str, on: bool) -> None:
        self._set_setting(name, "ask_every", int(on))

    # ------------------------------------------------------------------- rooms

    def create_room(self, settings: dict[str, Any], host: str) -> str:
        """Record a new room; returns its id (a decimal string, never reused)."""
        cur = self._db.execute(
            "INSERT INTO rooms(settings, host, created) VALUES (?, ?, ?)",
            (json.dumps(settings), host, self._clock()),
        )
        return str(cur.lastrowid)

    def update_room(self, room_id: str, settings: dict[str, Any], host: str) -> None:
        self._db.execute(
            "UPDATE rooms SET settings=?, host=? WHERE id=?", (json.dumps(settings), host, int(room_id))
        )

    def save_lineup(self, room_id: str, lineup: dict[str, Any]) -> None:
        """Keep a room's lineup between matches (``Room.lineup``: its seats, and
        the finished match it shows) for a restart to bring the room back."""
        self._db.execute("UPDATE rooms SET lineup=? WHERE id=?", (json.dumps(lineup), int(room_id)))

    def kick_from_room(self, room_id: str, name: str) -> None:
        """The room's host removed ``name``: kept until the room closes."""
        self._db.execute(
            "INSERT OR IGNORE INTO room_kicks(room_id, name) VALUES (?, ?)", (int(room_id), name_key(name))
        )

    def room_kicks(self, room_id: str) -> set[str]:
        rows = self._db.execute("SELECT name FROM room_kicks WHERE room_id=?", (int(room_id),)).fetchall()
        return {r["name"] for r in rows}

    def close_room(self, room_id: str) -> None:
        """Mark the room closed and forget its chat."""
        with self._tx():
            self._db.execute(
                "UPDATE rooms SET closed=? WHERE id=? AND closed IS NULL", (self._clock(), int(room_id))
            )
            self._db.execute("DELETE FROM chat WHERE scope=?", (room_scope(room_id),))
            self._db.execute("DELETE FROM watchers WHERE room_id=?", (int(room_id),))
            self._db.execute("DELETE FROM room_kicks WHERE room_id=?", (int(room_id),))

    def room(self, room_id: str) -> StoredRoom | None:
        row = self._db.execute("SELECT * FROM rooms WHERE id=?", (int(room_id),)).fetchone()
        return None if row is None else _room(row)

    def open_rooms(self) -> list[StoredRoom]:
        rows = self._db.execute("SELECT * FROM rooms WHERE closed IS NULL ORDER BY id").fetchall()
        return [_room(r) for r in rows]

    # ---------------------------------------------------------------- watchers

    def keep_watcher(self, room_id: str, watcher: StoredWatcher) -> None:
        """Record that ``watcher`` watches the room (or went away from it at
        ``watcher.away``); a failed write is logged: only a restart misses it."""
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO watchers(room_id, key, name, guest, away) VALUES (?, ?, ?, ?, ?)",
                (int(room_id), name_key(watcher.name), watcher.name, int(watcher.guest), watcher.away),
            )
        except sqlite3.Error as err:
            log.warning("cannot keep a watcher of room %s: %s", room_id, err)

    def drop_watcher(self, room_id: str, name: str) -> None:
        """``name`` no longer watches the room (they left it, or did not come back)."""
        try:
            self._db.execute("DELETE FROM watchers WHERE room_id=? AND key=?", (int(room_id), name_key(name)))
        except sqlite3.Error as err:
            log.warning("cannot forget a watcher of room %s: %s", room_id, err)

    def watchers(self, room_id: str) -> list[StoredWatcher]:
        rows = self._db.execute(
            "SELECT name, guest, away FROM watchers WHERE room_id=? ORDER BY key", (int(room_id),)
        ).fetchall()
        return [StoredWatcher(name=r["name"], guest=bool(r["guest"]), away=r["away"]) for r in rows]

    # -------------------------------------------------------------------- chat

    def keep_chat(self, scope: str, line: ChatLine) -> None:
        """:meth:`append_chat` that only logs a failed write: the line is still shown, only not kept."""
        try:
            self.append_chat(scope, line)
        except StorageError as err:
            log.warning("%s", err)

    def append_chat(self, scope: str, line: ChatLine, keep: int = CHAT_HISTORY) -> None:
        """Add a chat line to ``scope`` ("lobby" or :func:`room_scope`), keeping its newest ``keep``;
        raises StorageError if the write fails."""
        try:
            with self._tx():
                self._db.execute("INSERT INTO chat(scope, line) VALUES (?, ?)", (scope, line.model_dump_json()))
                self._db.execute(
                    "DELETE FROM chat WHERE scope=? AND id < "
                    "(SELECT id FROM chat WHERE scope=? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (scope, scope, max(keep - 1, 0)),
                )
        except sqlite3.Error as err:
            raise StorageError(f"cannot keep a chat line of {scope}: {err}") from err

    def chat_lines(self, scope: str) -> list[ChatLine]:
        """The stored lines of ``scope``, oldest first (a line that no longer reads is skipped)."""
        rows = self._db.execute("SELECT line FROM chat WHERE scope=? ORDER BY id", (scope,)).fetchall()
        lines: list[ChatLine] = []
        for row in rows:
            try:
                lines.append(ChatLine.model_validate_json(row["line"]))
            except ValueError:
                continue
        return lines

    # ----------------------------------------------------------------- matches

    def start_match(
        self,
        room_id: str,
        game: str,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[SeatRecord],
    ) -> int:
        cur = self._db.execute(
            "INSERT INTO matches(room_id, game, seed, options, seats, started) VALUES (?, ?, ?, ?, ?, ?)",
            (
                int(room_id),
                game,
                seed,
                json.dumps(options),
                json.dumps([s.to_json() for s in seats]),
                self._clock(),
            ),
        )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def append_action(self, match_id: int, seq: int, seat: int, text: str) -> None:
        """Append one played action; raises StorageError if ``seq`` is taken or the write fails."""
        self._append(match_id, seq, "action", seat, text)

    def append_next_round(self, match_id: int, seq: int) -> None:
        """Append a ``next-round`` marker (the room called ``table.next_round()``)."""
        self._append(match_id, seq, "next-round", None, NEXT_ROUND)

    def _append(self, match_id: int, seq: int, kind: str, seat: int | None, text: str) -> None:
        try:
            self._db.execute(
                "INSERT INTO actions(match_id, seq, kind, seat, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, seq, kind, seat, text, self._clock()),
            )
        except sqlite3.Error as err:
            raise StorageError(f"cannot log {kind} #{seq} of match {match_id}: {err}") from err
        self.actions_logged += 1

    def match_log(self, match_id: int) -> list[LogEntry]:
        rows = self._db.execute(
            "SELECT seq, kind, seat, text FROM actions WHERE match_id=? ORDER BY seq", (match_id,)
        ).fetchall()
        return [LogEntry(seq=r["seq"], kind=r["kind"], seat=r["seat"], text=r["text"]) for r in rows]

    def finish_match(self, match_id: int, results: Sequence[SeatResult]) -> None:
        """Mark a match finished and record its results (one transaction)."""
        self._leaders = {}
        with self._tx():
            self._db.execute("UPDATE matches SET finished=? WHERE id=?", (self._clock(), match_id))
            self._db.executemany(
                "INSERT OR REPLACE INTO results(match_id, seat, name, kind, points, win, left_match) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(match_id, r.seat, r.name, r.kind, r.points, int(r.win), int(r.left)) for r in results],
            )

    def mark_left(self, match_id: int, seat: int) -> None:
        """The player of ``seat`` left match ``match_id`` before its end (kept in
        the match's seats, so a restart replays the seat as left)."""
        self._mark_seat(match_id, seat, "left", True)

    def mark_autoplay(self, match_id: int, seat: int, on: bool) -> None:
        """The player of ``seat`` left the table of match ``match_id`` (``on``: a bot
        plays for them) or came back; kept, so a restart does not make the table
        wait a grace period again for a player who had left it."""
        self._mark_seat(match_id, seat, "autoplay", on)

    def mark_gone(self, match_id: int, seat: int, at: float | None) -> None:
        """The player of ``seat`` in match ``match_id`` went at ``at`` (unix time;
        None: came back); kept, so a restart counts their grace period from then
        rather than giving them a new one."""
        self._mark_seat(match_id, seat, "gone", at)

    def _mark_seat(self, match_id: int, seat: int, key: str, on: bool | float | None) -> None:
        with self._tx():
            row = self._db.execute("SELECT seats FROM matches WHERE id=?", (match_id,)).fetchone()
            if row is None:
                raise StorageError(f"no match {match_id}")
            seats = json.loads(row["seats"])
            if not 0 <= seat < len(seats):
                raise StorageError(f"match {match_id} has no seat {seat}")
            if on is None or on is False:
                seats[seat].pop(key, None)
            else:
                seats[seat][key] = on
            self._db.execute("UPDATE matches SET seats=? WHERE id=?", (json.dumps(seats), match_id))

    def abandon_match(self, match_id: int, reason: str) -> None:
        """Close a match that will never finish (its room closed, or its log cannot be replayed)."""
        self._db.execute(
            "UPDATE matches SET finished=?, abandoned=? WHERE id=? AND finished IS NULL",
            (self._clock(), reason, match_id),
        )

    _MATCH_ROWS = (
        "SELECT m.*, r.settings AS r_settings, r.host AS r_host, r.created AS r_created, "
        "r.closed AS r_closed FROM matches m JOIN rooms r ON r.id = m.room_id "
    )

    def unfinished_matches(self) -> list[StoredMatch]:
        """Every match not finished nor abandoned, with its room and full log, oldest first."""
        rows = self._db.execute(self._MATCH_ROWS + "WHERE m.finished IS NULL ORDER BY m.id").fetchall()
        return [self._stored_match(r) for r in rows]

    def finished_match(self, match_id: int) -> StoredMatch | None:
        """A match played to its end (not abandoned), with its full log; None if there is none."""
        row = self._db.execute(
            self._MATCH_ROWS + "WHERE m.id=? AND m.finished IS NOT NULL AND m.abandoned IS NULL", (match_id,)
        ).fetchone()
        return None if row is None else self._stored_match(row)

    def _stored_match(self, r: sqlite3.Row) -> StoredMatch:
        room = StoredRoom(
            id=str(r["room_id"]),
            settings=json.loads(r["r_settings"]),
            host=r["r_host"],
            created=r["r_created"],
            closed=r["r_closed"],
        )
        return StoredMatch(
            id=r["id"],
            room=room,
            game=r["game"],
            seed=r["seed"],
            options=json.loads(r["options"]),
            seats=[SeatRecord.from_json(s) for s in json.loads(r["seats"])],
            started=r["started"],
            log=self.match_log(r["id"]),
        )

    def match_results(self, match_id: int) -> list[SeatResult]:
        rows = self._db.execute(
            "SELECT seat, name, kind, points, win, left_match FROM results WHERE match_id=? ORDER BY seat", (match_id,)
        ).fetchall()
        return [
            SeatResult(
                seat=r["seat"], name=r["name"], kind=r["kind"], points=r["points"], win=bool(r["win"]),
                left=bool(r["left_match"]),
            )
            for r in rows
        ]

    def leaderboard(self, limit: int = 50, game: str | None = None) -> list[LeaderRow]:
        """Players (not bots, not guests) of one ``game``'s matches, or of every
        game's (None), in the boards' order (``protocol.contract.leader_order``: by
        win rate, counting how many matches show it; one game's then by points
        per match. A Sultans point and an Overlord gold do not add up:
        ``points`` is their sum on every game's board, and screens do not show it).
        A seat its player left before the end (``SeatResult.left``) is a match
        played, not won, no points.

        Rows of one identity (names equal under :func:`name_key`) are added up and
        shown under the name it used last. Read from the results once and kept
        until a match finishes: every lobby reads it when it opens and every
        20 s, and the query walks every result (13-16 ms at 24,000 results, a
        club's year, ``./manage bench leaderboard``: a login's whole CPU again)."""
        board = self._leaders.get(game)
        if board is None:
            board = self._leaders[game] = self._read_leaderboard(game)
        return board[:limit]

    def _read_leaderboard(self, game: str | None) -> list[LeaderRow]:
        join, where, args = ("JOIN matches m ON m.id = r.match_id", "AND m.game=?", (game,)) if game else ("", "", ())
        rows = self._db.execute(  # every game's results, or one game's (its matches joined)
            # a seat left before the end counts as a match played, never won, with no points (the bot's are not theirs)
            "SELECT r.name AS name, COUNT(*) AS matches, SUM(CASE WHEN r.left_match THEN 0 ELSE r.win END) AS wins, "
            "SUM(CASE WHEN r.left_match THEN 0 ELSE r.points END) AS points, "
            f"MAX(r.match_id) AS last FROM results r {join} WHERE r.kind='human' {where} GROUP BY r.name",
            args,
        ).fetchall()
        merged: dict[str, list[Any]] = {}
        for r in rows:
            key = name_key(r["name"])
            entry = merged.setdefault(key, [r["name"], 0, 0, 0, -1])
            if r["last"] > entry[4]:
                entry[0], entry[4] = r["name"], r["last"]
            entry[1] += r["matches"]
            entry[2] += r["wins"] or 0
            entry[3] += r["points"] or 0
        board = [LeaderRow(name=e[0], matches=e[1], wins=e[2], points=e[3]) for e in merged.values()]
        return leader_order(board, points=game is not None)


LOBBY_CHAT = "lobby"  # the lobby's chat scope


def room_scope(room_id: str) -> str:
    """The chat scope of a room."""
    return f"room:{int(room_id)}"


def _room(row: sqlite3.Row) -> StoredRoom:
    return StoredRoom(
        id=str(row["id"]),
        settings=json.loads(row["settings"]),
        host=row["host"],
        created=row["created"],
        closed=row["closed"],
        lineup=json.loads(row["lineup"]) if row["lineup"] else None,
    )


class _Transaction:
    """``with storage._tx():`` -- BEGIN IMMEDIATE ... COMMIT, ROLLBACK on error; re-entrant."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._outer = False

    def __enter__(self) -> None:
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
            self._outer = True

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if not self._outer:
            return
        if exc_type is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")
