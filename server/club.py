"""Running a club: admins, bans, mutes, members and invite codes, the audit log.

Everything lives in the host's database (:class:`server.storage.Storage`, schema
v5), so the app's admin screen and the command line (``throneroom admin ...``,
which works whether the server runs or not) change the same rows. The running
server reads bans, mutes and memberships when it needs them (at every login,
every chat line), so a change from the command line counts at once; what needs
the server to act (kick a player who was just banned, an announcement) is left
as a command that the server picks up within :data:`COMMAND_POLL` seconds.

A ban is by key (fingerprint), by name (compared as names compare,
:func:`server.storage.name_key`) or by address (an IP address or a network in
CIDR notation); with a duration or forever. A banned key may not come back under
another name, and a banned name may not be taken by another key.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from protocol.names import name_key
from server.storage import Storage

log = logging.getLogger("throneroom.club")

BanKind = Literal["key", "name", "address"]
BAN_KINDS: tuple[BanKind, ...] = ("key", "name", "address")
REASON_MAX = 200
COMMAND_POLL = 2.0  # seconds between the running server's looks at the commands table
INVITE_CODE_BYTES = 6
_DURATION = re.compile(r"^(\d+)\s*(s|m|h|d|w|秒|分鐘|分|小時|時|天|日|週|周)$")
_UNITS = {
    "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400,
    "秒": 1, "分鐘": 60, "分": 60, "小時": 3600, "時": 3600, "天": 86400, "日": 86400, "週": 7 * 86400, "周": 7 * 86400,
}
FOREVER = ("", "forever", "0", "永久")
GRANDFATHERED = "(open club)"  # who "invited" a key that owned a name before invite mode


class ClubError(ValueError):
    """A club request that cannot be done; ``code`` is stable and translatable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_duration(text: str) -> float | None:
    """``30m``, ``2h``, ``7d``, ``1w`` (or 30分, 2小時, 7天, 1週) in seconds; ``forever``
    (永久, or empty) is None."""
    text = text.strip().lower()
    if text in FOREVER:
        return None
    match = _DURATION.match(text)
    if match is None:
        raise ClubError("bad-duration", f"not a duration: {text!r} (say 30m, 2h, 7d, 1w or forever)")
    return float(int(match.group(1)) * _UNITS[match.group(2)])


def normal_address(text: str) -> str:
    """An address or network in one spelling (``10.0.0.0/8``, ``2001:db8::/64``)."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError as exc:
        raise ClubError("bad-address", f"not an address or network: {text!r}") from exc


def when(at: float) -> str:
    """A moment as players read it anywhere: UTC, to the minute."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def _clean_reason(reason: str) -> str:
    cleaned = " ".join("".join(ch for ch in reason if ch.isprintable()).split())
    return cleaned[:REASON_MAX]


@dataclass(frozen=True)
class Ban:
    id: int
    kind: BanKind
    value: str
    reason: str
    by: str
    created: float
    until: float | None  # None: forever

    def describe(self) -> str:
        return f"{self.kind} {self.value}"


@dataclass(frozen=True)
class Mute:
    name: str
    reason: str
    by: str
    until: float | None


@dataclass(frozen=True)
class Member:
    key_fingerprint: str
    name: str
    invited_by: str
    code: str
    created: float
    revoked: float | None


@dataclass(frozen=True)
class Invite:
    code: str
    uses_left: int
    expires: float | None
    name: str | None
    created_by: str
    created: float


@dataclass(frozen=True)
class AuditEntry:
    at: float
    actor: str
    action: str
    target: str
    reason: str


class Club:
    """The club's rules of entry and conduct, on the host's database."""

    def __init__(
        self,
        storage: Storage,
        *,
        config_admins: Iterable[str] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._storage = storage
        self._db = storage.connection
        self._clock = clock
        self.config_admins = frozenset(config_admins)

    # ------------------------------------------------------------------- audit

    def _audit(self, actor: str, action: str, target: str, reason: str = "") -> None:
        self._db.execute(
            "INSERT INTO audit(at, actor, action, target, reason) VALUES (?, ?, ?, ?, ?)",
            (self._clock(), actor, action, target, reason),
        )
        log.info("admin %s: %s %s%s", actor, action, target, f" ({reason})" if reason else "")

    def note(self, actor: str, action: str, target: str, reason: str = "", *, required: bool = False) -> None:
        """Write an admin action that changes nothing here (a kick, a message) to the audit log."""
        reason = _clean_reason(reason)
        if required and not reason:
            raise ClubError("empty", "say what?")
        self._audit(actor, action, target, reason)

    def audit(self, limit: int = 100) -> list[AuditEntry]:
        rows = self._db.execute(
            "SELECT at, actor, action, target, reason FROM audit ORDER BY id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [AuditEntry(r["at"], r["actor"], r["action"], r["target"], r["reason"]) for r in rows]

    # ------------------------------------------------------------------ admins

    def is_admin(self, key_fingerprint: str | None) -> bool:
        if not key_fingerprint:
            return False
        if key_fingerprint in self.config_admins:
            return True
        row = self._db.execute("SELECT 1 FROM admins WHERE key_fingerprint=?", (key_fingerprint,)).fetchone()
        return row is not None

    def admins(self) -> list[tuple[str, str]]:
        """(fingerprint, where from): the config's, then those added by an admin."""
        rows = self._db.execute("SELECT key_fingerprint, added_by FROM admins ORDER BY created").fetchall()
        out = [(fp, "config") for fp in sorted(self.config_admins)]
        out += [(r["key_fingerprint"], f"added by {r['added_by']}") for r in rows if r["key_fingerprint"] not in self.config_admins]
        return out

    def add_admin(self, actor: str, key_fingerprint: str) -> None:
        key_fingerprint = key_fingerprint.strip()
        if not key_fingerprint.startswith("SHA256:"):
            raise ClubError("bad-key", "a key fingerprint looks like SHA256:...")
        with self._storage.transaction():
            self._db.execute(
                "INSERT OR IGNORE INTO admins(key_fingerprint, added_by, created) VALUES (?, ?, ?)",
                (key_fingerprint, actor, self._clock()),
            )
            self._audit(actor, "add-admin", key_fingerprint)

    def remove_admin(self, actor: str, key_fingerprint: str) -> None:
        if key_fingerprint in self.config_admins:
            raise ClubError("config-admin", "that admin is named in the config file: remove them there")
        with self._storage.transaction():
            cur = self._db.execute("DELETE FROM admins WHERE key_fingerprint=?", (key_fingerprint,))
            if cur.rowcount == 0:
                raise ClubError("not-found", f"no admin with key {key_fingerprint}")
            self._audit(actor, "remove-admin", key_fingerprint)

    # -------------------------------------------------------------------- bans

    def ban(self, actor: str, kind: str, value: str, reason: str, duration: float | None) -> Ban:
        if kind not in BAN_KINDS:
            raise ClubError("bad-kind", f"ban by key, name or address, not {kind!r}")
        reason = _clean_reason(reason)
        if not reason:
            raise ClubError("no-reason", "say why (the player is told)")
        if kind == "address":
            value = normal_address(value)
        elif kind == "name":
            value = name_key(value)
        else:
            value = value.strip()
            if not value.startswith("SHA256:"):
                raise ClubError("bad-key", "a key fingerprint looks like SHA256:...")
        if not value:
            raise ClubError("bad-value", "ban whom?")
        now = self._clock()
        until = None if duration is None else now + duration
        with self._storage.transaction():
            cur = self._db.execute(
                "INSERT INTO bans(kind, value, reason, by, created, until) VALUES (?, ?, ?, ?, ?, ?)",
                (kind, value, reason, actor, now, until),
            )
            self._audit(actor, f"ban-{kind}", value, reason)
            self._command("enforce", {})
        return Ban(int(cur.lastrowid or 0), kind, value, reason, actor, now, until)

    def unban(self, actor: str, ban_id: int) -> Ban:
        ban = next((b for b in self.bans() if b.id == ban_id), None)
        if ban is None:
            raise ClubError("not-found", f"no ban in force with number {ban_id}")
        with self._storage.transaction():
            self._db.execute("UPDATE bans SET lifted=? WHERE id=?", (self._clock(), ban_id))
            self._audit(actor, f"unban-{ban.kind}", ban.value)
        return ban

    def bans(self) -> list[Ban]:
        """The bans in force (not lifted, not expired), oldest first."""
        rows = self._db.execute(
            "SELECT * FROM bans WHERE lifted IS NULL AND (until IS NULL OR until > ?) ORDER BY id",
            (self._clock(),),
        ).fetchall()
        return [Ban(r["id"], r["kind"], r["value"], r["reason"], r["by"], r["created"], r["until"]) for r in rows]

    def ban_for(self, *, key: str | None = None, name: str | None = None, address: str | None = None) -> Ban | None:
        """The ban that shuts out a player with this key, name or address, if any;
        a ban of a key also covers the names that key owns, and a ban of a name
        the key that owns it."""
        bans = self.bans()
        if not bans:
            return None
        keys = {key} if key else set()
        names = {name_key(name)} if name else set()
        if name:
            owner = self._storage.key_owner(name)
            if owner:
                keys.add(owner)
        if key:
            names |= {
                r["name"]
                for r in self._db.execute("SELECT name FROM identities WHERE key_fingerprint=?", (key,))
            }
        ip = None
        if address:
            try:
                ip = ipaddress.ip_address(address.split("%")[0])
            except ValueError:
                ip = None
        for ban in bans:
            if ban.kind == "key" and ban.value in keys:
                return ban
            if ban.kind == "name" and ban.value in names:
                return ban
            if ban.kind == "address" and ip is not None:
                network = ipaddress.ip_network(ban.value, strict=False)
                if ip.version == network.version and ip in network:
                    return ban
        return None

    # ------------------------------------------------------------------- mutes

    def mute(self, actor: str, name: str, reason: str, duration: float | None) -> Mute:
        reason = _clean_reason(reason)
        if not reason:
            raise ClubError("no-reason", "say why (the player is told)")
        now = self._clock()
        until = None if duration is None else now + duration
        with self._storage.transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO mutes(name, reason, by, created, until) VALUES (?, ?, ?, ?, ?)",
                (name_key(name), reason, actor, now, until),
            )
            self._audit(actor, "mute", name, reason)
        return Mute(name, reason, actor, until)

    def unmute(self, actor: str, name: str) -> None:
        with self._storage.transaction():
            cur = self._db.execute("DELETE FROM mutes WHERE name=?", (name_key(name),))
            if cur.rowcount == 0:
                raise ClubError("not-found", f"{name} is not muted")
            self._audit(actor, "unmute", name)

    def muted(self, name: str) -> Mute | None:
        row = self._db.execute(
            "SELECT * FROM mutes WHERE name=? AND (until IS NULL OR until > ?)", (name_key(name), self._clock())
        ).fetchone()
        return None if row is None else Mute(row["name"], row["reason"], row["by"], row["until"])

    # ------------------------------------------------------------------- names

    def free_name(self, actor: str, name: str, reason: str = "") -> str | None:
        """The key that owned ``name`` loses it (the name is free for the next key);
        the key it had, or None if no key owned it."""
        owner = self._storage.key_owner(name)
        if owner is None:
            raise ClubError("not-found", f"no key owns the name {name}")
        with self._storage.transaction():
            self._db.execute("UPDATE identities SET key_fingerprint=NULL WHERE name=?", (name_key(name),))
            self._audit(actor, "free-name", name, _clean_reason(reason))
        return owner

    # ------------------------------------------------------- members, invites

    def invite(
        self, actor: str, *, uses: int = 1, expires_in: float | None = None, name: str | None = None
    ) -> Invite:
        if not 1 <= uses <= 1000:
            raise ClubError("bad-uses", "an invite is good for 1 to 1000 uses")
        code = secrets.token_hex(INVITE_CODE_BYTES)
        now = self._clock()
        expires = None if expires_in is None else now + expires_in
        fixed = name_key(name) if name else None
        with self._storage.transaction():
            self._db.execute(
                "INSERT INTO invites(code, uses_left, expires, name, created_by, created) VALUES (?, ?, ?, ?, ?, ?)",
                (code, uses, expires, fixed, actor, now),
            )
            self._audit(actor, "invite", code, f"{uses} use(s)" + (f", for {fixed}" if fixed else ""))
        return Invite(code, uses, expires, fixed, actor, now)

    def invites(self) -> list[Invite]:
        rows = self._db.execute(
            "SELECT * FROM invites WHERE uses_left > 0 AND (expires IS NULL OR expires > ?) ORDER BY created",
            (self._clock(),),
        ).fetchall()
        return [Invite(r["code"], r["uses_left"], r["expires"], r["name"], r["created_by"], r["created"]) for r in rows]

    def redeem(self, code: str, key_fingerprint: str, name: str) -> Member:
        """Make ``key_fingerprint`` a member with ``code`` (used once per call)."""
        code = code.strip().lower()
        now = self._clock()
        with self._storage.transaction():
            row = self._db.execute(
                "SELECT * FROM invites WHERE code=? AND uses_left > 0 AND (expires IS NULL OR expires > ?)",
                (code, now),
            ).fetchone()
            if row is None:
                raise ClubError("bad-invite", "that invite code is not valid (used up, expired or mistyped)")
            if row["name"] and row["name"] != name_key(name):
                raise ClubError("invite-name", f"that invite is for the name {row['name']}")
            self._db.execute("UPDATE invites SET uses_left = uses_left - 1 WHERE code=?", (code,))
            self._db.execute(
                "INSERT OR REPLACE INTO members(key_fingerprint, name, invited_by, code, created, revoked) "
                "VALUES (?, ?, ?, ?, ?, NULL)",
                (key_fingerprint, name, row["created_by"], code, now),
            )
            self._audit(name, "join", key_fingerprint, f"invite {code} by {row['created_by']}")
        return Member(key_fingerprint, name, row["created_by"], code, now, None)

    def grandfather(self) -> list[Member]:
        """Make every key that owns a name and was never a member one (``[players]
        members = "invite"`` is read at start-up, so a club that switches to invite
        mode keeps the players it had; a revoked member stays revoked). The new
        members, in the order their keys first claimed a name."""
        now = self._clock()
        with self._storage.transaction():
            rows = self._db.execute(
                "SELECT key_fingerprint, name FROM identities WHERE key_fingerprint IS NOT NULL "
                "AND key_fingerprint NOT IN (SELECT key_fingerprint FROM members) "
                "ORDER BY claimed, created"
            ).fetchall()
            added: dict[str, Member] = {}
            for r in rows:
                fp = r["key_fingerprint"]
                if fp not in added:
                    added[fp] = Member(fp, r["name"], GRANDFATHERED, "", now, None)
            self._db.executemany(
                "INSERT INTO members(key_fingerprint, name, invited_by, code, created, revoked) "
                "VALUES (?, ?, ?, '', ?, NULL)",
                [(m.key_fingerprint, m.name, m.invited_by, now) for m in added.values()],
            )
            if added:
                self._audit("server", "grandfather", f"{len(added)} key(s)", "they owned a name before invite mode")
        return list(added.values())

    def is_member(self, key_fingerprint: str | None) -> bool:
        if not key_fingerprint:
            return False
        if self.is_admin(key_fingerprint):
            return True
        row = self._db.execute(
            "SELECT 1 FROM members WHERE key_fingerprint=? AND revoked IS NULL", (key_fingerprint,)
        ).fetchone()
        return row is not None

    def revoked(self, key_fingerprint: str | None) -> bool:
        """The key was a member and an admin revoked it."""
        if not key_fingerprint or self.is_member(key_fingerprint):
            return False
        row = self._db.execute(
            "SELECT 1 FROM members WHERE key_fingerprint=? AND revoked IS NOT NULL", (key_fingerprint,)
        ).fetchone()
        return row is not None

    def members(self) -> list[Member]:
        rows = self._db.execute("SELECT * FROM members ORDER BY created").fetchall()
        return [
            Member(r["key_fingerprint"], r["name"], r["invited_by"], r["code"], r["created"], r["revoked"])
            for r in rows
        ]

    def revoke(self, actor: str, who: str, reason: str = "") -> Member:
        """Revoke a member by key fingerprint or by the name they joined with."""
        target = next(
            (m for m in self.members() if m.revoked is None and (m.key_fingerprint == who or name_key(m.name) == name_key(who))),
            None,
        )
        if target is None:
            raise ClubError("not-found", f"no member {who}")
        with self._storage.transaction():
            self._db.execute("UPDATE members SET revoked=? WHERE key_fingerprint=?", (self._clock(), target.key_fingerprint))
            self._audit(actor, "revoke", f"{target.name} {target.key_fingerprint}", _clean_reason(reason))
            self._command("enforce", {})
        return target

    # ---------------------------------------------------------------- commands

    def _command(self, kind: str, payload: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT INTO commands(kind, payload, created) VALUES (?, ?, ?)",
            (kind, json.dumps(payload), self._clock()),
        )

    def announce(self, actor: str, text: str) -> None:
        text = _clean_reason(text)
        if not text:
            raise ClubError("empty", "announce what?")
        with self._storage.transaction():
            self._command("announce", {"text": text, "by": actor})
            self._audit(actor, "announce", "everyone", text)

    def motd(self) -> str:
        row = self._db.execute("SELECT value FROM meta WHERE key='motd'").fetchone()
        return "" if row is None else str(row["value"])

    def set_motd(self, actor: str, text: str) -> None:
        text = _clean_reason(text)
        with self._storage.transaction():
            if text:
                self._db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('motd', ?)", (text,))
            else:
                self._db.execute("DELETE FROM meta WHERE key='motd'")
            self._command("motd", {})
            self._audit(actor, "motd", "everyone", text)

    def take_commands(self) -> list[tuple[str, dict[str, Any]]]:
        """The commands left since the last call, oldest first (the running server's)."""
        with self._storage.transaction():
            rows = self._db.execute("SELECT id, kind, payload FROM commands ORDER BY id").fetchall()
            if rows:
                self._db.execute("DELETE FROM commands WHERE id <= ?", (rows[-1]["id"],))
        return [(r["kind"], json.loads(r["payload"])) for r in rows]
