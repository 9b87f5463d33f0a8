"""The operator's commands: ``throneroom admin ...``, ``backup``, ``check``, ``status``.

They open the host's database directly, so they work whether the server runs or
not: SQLite's WAL journal lets them write beside a running server, which reads
bans and members at every login and picks up what needs it to act (an
announcement, ending a banned player's session) within a few seconds
(:data:`server.club.COMMAND_POLL`). ``backup`` uses SQLite's online backup, a
consistent copy while the server writes.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import TextIO

from server.club import BAN_KINDS, Club, ClubError, parse_duration, when
from server.config import Config
from server.storage import SCHEMA_VERSION, Storage, StorageError

STATUS_FRESH = 15.0  # seconds: an older status row means the server is not running


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The operator's subcommands, beside ``serve``."""

    def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument("--config", type=Path, help="TOML config file (see deploy/throneroom.toml)")
        parser.add_argument("--db", type=Path, help="SQLite database (default: the config's, data/throneroom.db)")
        return parser

    common(sub.add_parser("status", help="players online, rooms, actions/s, loop lag, memory of the running server"))
    common(sub.add_parser("check", help="validate the config and the database and say what is wrong"))
    backup = common(sub.add_parser("backup", help="a consistent copy of the database (also while the server runs)"))
    backup.add_argument("path", type=Path, help="where to write the copy (a new file)")

    admin = common(sub.add_parser("admin", help="bans, members, invites, admins, announcements, the audit log"))
    acts = admin.add_subparsers(dest="action", required=True)
    ban = acts.add_parser("ban", help="ban a key, a name or an address/network")
    ban.add_argument("kind", choices=BAN_KINDS)
    ban.add_argument("value", help="SHA256:... fingerprint, a player name, or 203.0.113.5 / 203.0.113.0/24")
    ban.add_argument("--reason", required=True, help="why (the player is told)")
    ban.add_argument("--for", dest="duration", default="forever", help="30m, 2h, 7d, 1w or forever (default)")
    unban = acts.add_parser("unban", help="lift a ban (its number from `bans`)")
    unban.add_argument("id", type=int)
    acts.add_parser("bans", help="the bans in force")
    mute = acts.add_parser("mute", help="mute a player in chat")
    mute.add_argument("name")
    mute.add_argument("--reason", required=True)
    mute.add_argument("--for", dest="duration", default="1h", help="30m, 2h, 7d, 1w or forever (default 1h)")
    unmute = acts.add_parser("unmute", help="let a muted player chat again")
    unmute.add_argument("name")
    free = acts.add_parser("free-name", help="the key that owns a name loses it")
    free.add_argument("name")
    free.add_argument("--reason", default="")
    acts.add_parser("members", help="members of an invite-only club, and who invited them")
    invite = acts.add_parser("invite", help="make an invite code")
    invite.add_argument("--uses", type=int, default=1, help="how many keys it admits (default 1)")
    invite.add_argument("--expires", default="7d", help="30m, 2h, 7d, 1w or forever (default 7d)")
    invite.add_argument("--name", default="", help="only for this player name")
    acts.add_parser("invites", help="the invite codes still good")
    revoke = acts.add_parser("revoke", help="revoke a member (by name or key fingerprint)")
    revoke.add_argument("who")
    admins = acts.add_parser("admins", help="list admins, or add/remove one added in the app")
    admins.add_argument("--add", metavar="FINGERPRINT")
    admins.add_argument("--remove", metavar="FINGERPRINT")
    announce = acts.add_parser("announce", help="a line to every player now (the server must be running)")
    announce.add_argument("text")
    motd = acts.add_parser("motd", help="the message of the day shown in the lobby ('' to clear)")
    motd.add_argument("text")
    audit = acts.add_parser("audit", help="the admin actions, newest first")
    audit.add_argument("--limit", type=int, default=50)


def run(args: argparse.Namespace, config: Config, out: TextIO = sys.stdout) -> int:
    """Run an operator command; the process's exit code."""
    db = config.server.db_path
    if args.command == "check":
        return check(config, out)
    if not db.exists():
        print(f"throneroom: no database at {db} (the server makes it on first start)", file=out)
        return 2
    if args.command == "backup":
        return backup(db, args.path, out)
    try:
        storage = Storage(db)
    except (sqlite3.Error, StorageError) as exc:
        print(f"throneroom: cannot open {db}: {exc}", file=out)
        return 2
    try:
        if args.command == "status":
            return status(storage, out)
        club = Club(storage, config_admins=config.players.admins)
        return admin(args, club, storage, out)
    except ClubError as exc:
        print(f"throneroom: {exc}", file=out)
        return 1
    finally:
        storage.close()


def _until(at: float | None) -> str:
    return "forever" if at is None else f"until {when(at)}"


def admin(args: argparse.Namespace, club: Club, storage: Storage, out: TextIO) -> int:
    actor = f"cli:{getpass.getuser()}"
    action = args.action
    if action == "ban":
        ban = club.ban(actor, args.kind, args.value, args.reason, parse_duration(args.duration))
        print(f"ban {ban.id}: {ban.kind} {ban.value} {_until(ban.until)} ({ban.reason})", file=out)
    elif action == "unban":
        ban = club.unban(actor, args.id)
        print(f"lifted ban {ban.id}: {ban.kind} {ban.value}", file=out)
    elif action == "bans":
        bans = club.bans()
        for b in bans:
            print(f"{b.id:>4}  {b.kind:<7} {b.value:<45} {_until(b.until):<27} by {b.by}: {b.reason}", file=out)
        if not bans:
            print("no bans in force", file=out)
    elif action == "mute":
        mute = club.mute(actor, args.name, args.reason, parse_duration(args.duration))
        print(f"muted {args.name} {_until(mute.until)}", file=out)
    elif action == "unmute":
        club.unmute(actor, args.name)
        print(f"{args.name} may chat again", file=out)
    elif action == "free-name":
        old = club.free_name(actor, args.name, args.reason)
        print(f"the name {args.name} is free (key {old} lost it)", file=out)
    elif action == "members":
        members = club.members()
        for m in members:
            state = "revoked" if m.revoked is not None else "member"
            print(f"{m.name:<20} {m.key_fingerprint:<52} {state:<8} invited by {m.invited_by}", file=out)
        if not members:
            print("no members yet", file=out)
    elif action == "invite":
        inv = club.invite(actor, uses=args.uses, expires_in=parse_duration(args.expires), name=args.name or None)
        expires = "never expires" if inv.expires is None else f"expires {when(inv.expires)}"
        only = f", only for {inv.name}" if inv.name else ""
        print(f"invite code {inv.code}: {inv.uses_left} use(s), {expires}{only}", file=out)
    elif action == "invites":
        invites = club.invites()
        for inv in invites:
            expires = "never" if inv.expires is None else when(inv.expires)
            print(f"{inv.code}  uses left {inv.uses_left}  expires {expires}  {inv.name or ''}", file=out)
        if not invites:
            print("no invite codes", file=out)
    elif action == "revoke":
        member = club.revoke(actor, args.who)
        print(f"revoked {member.name} ({member.key_fingerprint})", file=out)
    elif action == "admins":
        if args.add:
            club.add_admin(actor, args.add)
        if args.remove:
            club.remove_admin(actor, args.remove)
        for fp, source in club.admins():
            print(f"{fp}  ({source})", file=out)
        if not club.admins():
            print("no admins (name them in the config: [players] admins = [\"SHA256:...\"])", file=out)
    elif action == "announce":
        if _status(storage) is None:
            print("throneroom: the server is not running: nobody would see it", file=out)
            return 1
        club.announce(actor, args.text)
        print("announced (players see it within a few seconds)", file=out)
    elif action == "motd":
        club.set_motd(actor, args.text)
        print("message of the day set" if args.text.strip() else "message of the day cleared", file=out)
    elif action == "audit":
        for a in club.audit(args.limit):
            print(f"{when(a.at)}  {a.actor}  {a.action} {a.target}" + (f": {a.reason}" if a.reason else ""), file=out)
    return 0


def backup(db: Path, path: Path, out: TextIO) -> int:
    if path.exists():
        print(f"throneroom: {path} exists; name a new file", file=out)
        return 2
    path.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        dest = sqlite3.connect(path)
        try:
            src.backup(dest)
            ok = dest.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            dest.close()
    finally:
        src.close()
    if ok != "ok":
        print(f"throneroom: the copy failed its integrity check: {ok}", file=out)
        return 1
    print(f"backed up {db} to {path} ({path.stat().st_size:,} bytes)", file=out)
    return 0


def check(config: Config, out: TextIO) -> int:
    """The config (already loaded and valid if we got here) and the database."""
    problems: list[str] = []
    print("config: ok", file=out)
    db = config.server.db_path
    if not db.exists():
        print(f"database: none yet at {db} (the server makes it on first start)", file=out)
        return 0
    try:
        raw = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            integrity = [r[0] for r in raw.execute("PRAGMA integrity_check").fetchall()]
            row = raw.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        finally:
            raw.close()
    except sqlite3.Error as exc:
        print(f"database: cannot be read: {exc}", file=out)
        print(RESTORE_HELP, file=out)
        return 1
    if integrity != ["ok"]:
        problems.append("integrity check failed: " + "; ".join(integrity[:5]))
    version = int(row[0]) if row else 0
    if version > SCHEMA_VERSION:
        problems.append(f"schema version {version} is newer than this throneroom ({SCHEMA_VERSION}): upgrade throneroom")
    elif version < SCHEMA_VERSION:
        print(f"database: schema version {version}, upgraded to {SCHEMA_VERSION} when the server starts", file=out)
    for problem in problems:
        print(f"database: {problem}", file=out)
    if problems:
        print(RESTORE_HELP, file=out)
        return 1
    print(f"database: ok ({db}, schema version {version})", file=out)
    return 0


RESTORE_HELP = (  # said by `throneroom check` and by a server that finds its database damaged
    "To restore: stop the server, move the damaged file away, copy your latest backup "
    "(`throneroom backup PATH` made it) to the database's path, and start the server "
    "(deploy/README.md, Backups); without a backup, `sqlite3 DB .recover | sqlite3 NEW.db` saves what it can."
)


def _status(storage: Storage) -> dict[str, object] | None:
    row = storage.connection.execute("SELECT value FROM meta WHERE key='status'").fetchone()
    if row is None:
        return None
    data: dict[str, object] = json.loads(row["value"])
    at = data.get("at")
    if not isinstance(at, int | float) or time.time() - at > STATUS_FRESH:
        return None
    return data


def status(storage: Storage, out: TextIO) -> int:
    data = _status(storage)
    if data is None:
        print("throneroom: the server is not running (no status in the last 15 s)", file=out)
        return 1
    rooms = data.get("rooms", {})
    print(f"players online: {data.get('players')}", file=out)
    if isinstance(rooms, dict):
        print("rooms: " + (", ".join(f"{n} {state}" for state, n in sorted(rooms.items())) or "none"), file=out)
    print(f"actions per second: {data.get('actions_per_s')}", file=out)
    print(f"event loop lag: {data.get('loop_lag_ms')} ms (worst in the last interval)", file=out)
    print(f"memory: {data.get('rss_mib')} MiB resident", file=out)
    print(f"pid {data.get('pid')}, up {data.get('uptime_s')} s", file=out)
    return 0
