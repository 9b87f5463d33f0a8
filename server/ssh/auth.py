"""One SSH connection (:class:`Connection`): authentication, the player's name and
identity (keys own names; guests), and the limits on connections and sessions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any, cast

import asyncssh
import asyncssh.connection
from asyncssh.saslprep import SASLPrepError, saslprep

from protocol.contract import Identity
from protocol.i18n import Lang
from server.club import Club, when
from server.gate import Ticket
from server.metrics import refused
from server.ratelog import WARNINGS
from server.sanitize import clean_name, clean_text, lookalike_name
from server.ssh.messages import lang_from_env, message
from server.ssh.session import Session

if TYPE_CHECKING:
    from server.ssh.server import ThroneServer

log = logging.getLogger("throneroom.ssh")


def _user_name(text: str) -> str:
    """asyncssh's SASLprep of a user name, or the name as sent where SASLprep
    refuses it: an emoji is "unassigned" in its Unicode 3.2 tables, and OpenSSH
    printed only "Received disconnect ...: Unassigned character" (the server
    logged nothing). :func:`clean_name` makes a player name of any text, and the
    lobby says when it changed the one asked for (or the session says why none
    is left)."""
    try:
        return saslprep(text)
    except SASLPrepError:
        return text


def allow_any_user_name() -> None:
    """Let user names SASLprep refuses reach :meth:`Connection.begin_auth`."""
    names = vars(asyncssh.connection)  # the module's own name for it, used for the user name
    if names.get("saslprep") is saslprep:
        names["saslprep"] = _user_name


class Connection(asyncssh.SSHServer):
    """One SSH connection: authentication and identity decisions."""

    def __init__(self, server: ThroneServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.raw_user = ""
        self.name = ""
        self.lookalike = False  # the name could pass for another's: refused, and never claimed
        self.lookalike_of: str | None = None  # a name of another key that this one could pass for
        self.key_fingerprint: str | None = None
        self.guest_auth = False
        self.refused_key = False
        self.claim_failed = False
        self.storage_failed = False  # the name could not be checked or claimed (never said as "owned")
        self.names_refusal: tuple[str, list[str], int] | None = None  # too many names: (message, its names, count)
        self.guest_holds = False  # a key found the free name in a guest's use: not claimed, "in use"
        self._banner_sent = False
        self._counted = False
        self.over_limit = False
        self.sessions_open = 0  # session channels open now (limits.sessions_per_connection)
        self.ticket: Ticket | None = None  # from the gate: pending until authenticated
        self.auth_failures = 0
        self._unused_timer: asyncio.TimerHandle | None = None

    # -- connection ------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.server.connections.add(self)
        self.ticket = self.server.gate_listener.take_ticket(conn.get_extra_info("peername"), conn.get_extra_info("sockname"))
        if self.ticket is not None:
            self.ticket.spoke = lambda: conn.get_extra_info("client_version") is not None
            self.ticket.close = conn.abort
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else "?"

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        if self.ticket is not None:
            self.ticket.closed()
        if self._unused_timer is not None:
            self._unused_timer.cancel()
            self._unused_timer = None
        if self._counted:
            self._counted = False
            counts = self.server.per_address
            counts[self.peer] -= 1
            if counts[self.peer] <= 0:
                del counts[self.peer]

    # -- authentication --------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        if self.ticket is not None:
            self.ticket.attempted = True
        self.raw_user = username
        self.name = clean_name(username)
        self.lookalike = bool(self.name) and lookalike_name(self.name)
        limit = self.server.config.limits.max_per_address
        if self.server.per_address[self.peer] >= limit:
            # Logged-in connections count (not those still logging in: the gate
            # caps them). Refused once authentication begins: a disconnect sent
            # before the key exchange shows up in OpenSSH as "invalid format",
            # one sent after it as "Received disconnect ...: too many connections ...".
            self.over_limit = True
            WARNINGS.warn(log, "per-address", "refusing %s: more than %d connections", self.peer, limit)
        if self.over_limit and self.conn is not None:
            limit = self.server.config.limits.max_per_address
            asyncio.get_running_loop().call_soon(
                self.conn.disconnect,
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                f"too many connections from your address (limit {limit})",
            )
        return True  # always authenticate (a key, or keyboard-interactive for guests)

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self.over_limit or self.auth_failures >= self.server.config.limits.max_auth_tries:
            return False
        if not self.name:
            self._auth_failed()
            return False
        if self.lookalike:
            return True  # in, to be told why the name will not do (nothing is claimed)
        fp = key.get_fingerprint("sha256")
        try:
            owner = self.server.storage.key_owner(self.name)
        except Exception:
            log.exception("key_owner(%r) failed", self.name)
            return False
        if owner is None or owner == fp:
            self.key_fingerprint = fp
            return True
        self.refused_key = True
        self._auth_failed()
        self._send_banner(
            message(
                "owned-banner",
                "en",  # the client's locale is only known after authentication
                name=self.name,
                other=self.server.connect_hint(self._conn(), "othername"),
            )
        )
        return False

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # No prompt: whether this client may play as a guest is decided (and
        # explained on screen) when its session starts.
        if self.over_limit:
            return False
        self.key_fingerprint = None
        self.guest_auth = True
        return True

    def password_auth_supported(self) -> bool:
        return False

    def _auth_failed(self) -> None:
        """One more refused attempt; at ``limits.max_auth_tries`` the connection is closed."""
        self.auth_failures += 1
        if self.ticket is not None:
            self.ticket.failures += 1
        limit = self.server.config.limits.max_auth_tries
        if self.auth_failures == limit and self.conn is not None:
            refused("auth-tries")
            WARNINGS.warn(log, "auth-tries", "closing the connection from %s: %d authentication attempts refused",
                          self.peer, limit)
            asyncio.get_running_loop().call_soon(
                self.conn.disconnect, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                "too many authentication failures",
            )

    def auth_completed(self) -> None:
        if self.ticket is not None:
            self.ticket.authenticated()
        self.server.per_address[self.peer] += 1
        self._counted = True
        self._watch_unused()
        fp = self.key_fingerprint
        if fp is None or self.guest_auth or not self.name or self.lookalike:
            return
        storage = self.server.storage
        club: Club | None = getattr(self.server.hub, "club", None)
        try:
            if club is not None and (
                club.ban_for(key=fp, name=self.name, address=self.peer) is not None
                or (self.server.config.players.members == "invite" and not club.is_member(fp))
            ):
                return  # refused in the session, or a member first: no name is claimed for it
            owner = storage.key_owner(self.name)
            if owner is None and self.server.config.players.protect_lookalikes:
                self.lookalike_of = storage.lookalike_owner(self.name, fp)
            if self.lookalike_of is not None:
                log.info("name %r not claimed by key %s (%s): it could pass for %r", self.name, fp, self.peer,
                         self.lookalike_of)
            elif owner is None and self.server.guest_holds(self.name):
                self.guest_holds = True
                log.info("name %r not claimed by key %s (%s): a guest plays as it", self.name, fp, self.peer)
            elif owner is None and (refusal := self._names_refusal(fp)) is not None:
                self.names_refusal = refusal
                log.info("name %r not claimed by key %s (%s): %s", self.name, fp, self.peer, refusal[0])
            elif owner is None:
                if storage.claim_name(self.name, fp, lookalikes=self.server.config.players.protect_lookalikes):
                    log.info("name %r claimed by key %s (%s)", self.name, fp, self.peer)
                else:
                    self.claim_failed = storage.key_owner(self.name) != fp
            elif owner != fp:
                self.claim_failed = True
        except Exception:
            log.exception("claim_name(%r) failed", self.name)
            self.storage_failed = True

    def _names_refusal(self, fp: str) -> tuple[str, list[str], int] | None:
        """Why ``fp`` may not claim another name (players.names_per_key, name_claims_per_hour), if so:
        the message's key, the names it owns, and the count the message gives."""
        players = self.server.config.players
        storage = self.server.storage
        owned = storage.names_of(fp)
        if len(owned) >= players.names_per_key:
            return "too-many-names", owned, len(owned)
        recent = storage.claims_since(fp, time.time() - 3600)
        if recent >= players.name_claims_per_hour:
            return "name-claims-fast", owned, recent
        return None

    def _send_banner(self, text: str) -> None:
        if self._banner_sent or self.conn is None:
            return
        self._banner_sent = True
        with contextlib.suppress(OSError):
            self.conn.send_auth_banner(text)

    def _conn(self) -> asyncssh.SSHServerConnection:
        assert self.conn is not None
        return self.conn

    # -- channels --------------------------------------------------------------

    def session_requested(self) -> Session | bool:
        limit = self.server.config.limits.sessions_per_connection
        if self.sessions_open >= limit:
            refused("sessions-per-connection")
            WARNINGS.warn(log, "sessions-per-connection", "refused a session from %s: %d open on its connection already",
                          self.peer, limit)
            return False
        self.sessions_open += 1
        if self._unused_timer is not None:
            self._unused_timer.cancel()
            self._unused_timer = None
        return Session(self)

    def session_closed(self) -> None:
        """A session channel of this connection closed."""
        self.sessions_open -= 1
        self._watch_unused()

    def _watch_unused(self) -> None:
        """Close the connection if it has no session for ``limits.unused_connection_timeout``."""
        timeout = self.server.config.limits.unused_connection_timeout
        if timeout > 0 and not self.sessions_open and self._unused_timer is None and self.conn is not None:
            self._unused_timer = asyncio.get_running_loop().call_later(timeout, self._close_unused, timeout)

    def _close_unused(self, timeout: float) -> None:
        self._unused_timer = None
        if self.sessions_open or self.conn is None:
            return
        log.info("closing the connection from %s: no session for %g s", self.peer, timeout)
        self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"no session opened for {timeout:g} s")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        WARNINGS.log(log, logging.INFO, "forwarding", "refused port forwarding to %s:%s from %s", dest_host, dest_port, self.peer)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        WARNINGS.log(log, logging.INFO, "remote-forwarding", "refused remote forwarding %s:%s from %s",
                     listen_host, listen_port, self.peer)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> bool:
        return False

    def tap_requested(self, unit: int | None) -> bool:
        return False

    # -- identity --------------------------------------------------------------

    def decide(self, env: Any) -> Identity | str:
        """The session's identity, or the message explaining why there is none."""
        server = self.server
        lang = lang_from_env(env) or "en"
        hint = server.connect_hint(self._conn(), "yourname")
        other = server.connect_hint(self._conn(), "othername")
        if not self.name:
            return self._refusal("bad-name", lang, raw=_printable(self.raw_user), hint=hint)
        if self.lookalike:
            return self._refusal("lookalike", lang, name=self.name, hint=hint)
        club: Club | None = getattr(server.hub, "club", None)  # a test's hub may have none
        keyed = self.key_fingerprint is not None and not self.guest_auth
        if club is not None:  # a ban is said before anything else about the name
            fp = self.key_fingerprint if keyed else None
            try:
                ban = club.ban_for(key=fp, name=self.name, address=self.peer)
            except Exception:
                log.exception("ban_for(%r) failed", self.name)
                return self._refusal("storage-error", lang)
            if ban is not None:
                if ban.until is None:
                    return self._refusal("banned", lang, reason=ban.reason)
                return self._refusal("banned-until", lang, reason=ban.reason, until=when(ban.until))
        members_only = server.config.players.members == "invite"
        if keyed:
            if self.storage_failed:
                return self._refusal("storage-error", lang)
            if self.claim_failed:
                return self._owned(lang, other)
            if self.names_refusal is not None:
                key, owned, count = self.names_refusal
                hint = server.connect_hint(self._conn(), owned[0]) if owned else other
                return self._refusal(key, lang, count=count, names=", ".join(owned), hint=hint)
            if self.lookalike_of is not None:
                return self._refusal("lookalike-owned", lang, name=self.name, owned=self.lookalike_of, other=other)
            if self.guest_holds:  # a key may own a free name, but not take it from a guest playing as it
                return self._refusal("in-use", lang, name=self.name, other=other)
            fp = self.key_fingerprint or ""
            admin = club is not None and club.is_admin(fp)
            if members_only and club is not None and club.revoked(fp):
                return self._refusal("not-member", lang)
            invite_needed = members_only and club is not None and not club.is_member(fp)
            if invite_needed and server.storage.key_owner(self.name) not in (None, fp):
                return self._owned(lang, other)
            if invite_needed and server.config.players.protect_lookalikes:
                like = server.storage.lookalike_owner(self.name, fp)
                if like is not None:
                    return self._refusal("lookalike-owned", lang, name=self.name, owned=like, other=other)
            return Identity(
                name=self.name, guest=False, lang=self._lang(env, stored=True), asked_as=self._asked_as(),
                key_fingerprint=fp, address=self.peer, admin=admin,
                invite_needed=invite_needed,
            )
        if members_only:
            return self._refusal("members-need-key", lang, hint=hint)
        try:
            owner = server.storage.key_owner(self.name)
            like = server.storage.lookalike_owner(self.name) if server.config.players.protect_lookalikes else None
        except Exception:
            log.exception("key_owner(%r) failed", self.name)
            return self._refusal("storage-error", lang)
        if owner is not None:
            return self._owned(lang, other)
        if like is not None:
            return self._refusal("lookalike-owned", lang, name=self.name, owned=like, other=other)
        if not server.config.players.allow_guests:
            return self._refusal("need-key", lang, hint=hint)
        if server.active_names[self.name.casefold()] > 0:
            return self._refusal("in-use", lang, name=self.name, other=other)
        return Identity(
            name=self.name, guest=True, lang=self._lang(env, stored=False), asked_as=self._asked_as(), address=self.peer
        )

    def _owned(self, lang: Lang, other: str) -> str:
        """Why a name owned by another key is refused; not said twice after the auth banner."""
        key = "owned-after-banner" if self._banner_sent else "owned"
        return self._refusal(key, lang, name=self.name, other=other)

    def _refusal(self, key: str, lang: Lang, **values: object) -> str:
        """Why this client may not play (a message of ``ssh.*`` key of the catalogue), counted by cause."""
        refused(key)
        return message(key, lang, **values)

    def _asked_as(self) -> str:
        """The user name asked for, printable, when the player name made of it differs."""
        return "" if self.raw_user == self.name else _printable(self.raw_user)

    def _lang(self, env: Any, *, stored: bool) -> Lang:
        if stored:
            try:
                choice = self.server.storage.get_lang(self.name)
            except Exception:
                log.exception("get_lang(%r) failed", self.name)
                choice = None
            if choice in ("en", "zh"):
                return cast(Lang, choice)
        return lang_from_env(env) or "en"


def _printable(text: str) -> str:
    return clean_text(text, 40) or "(empty)"
