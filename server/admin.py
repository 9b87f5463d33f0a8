"""The admin screen's client (``protocol.contract.AdminClient``): a club admin's powers
over the running server, each written to the audit log (:mod:`server.club`)."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Literal

from protocol.contract import (
    AdminClient,
    AuditInfo,
    BanInfo,
    ClientError,
    Identity,
    MemberInfo,
    OnlinePlayer,
)
from protocol.i18n import room_title
from protocol.names import name_key
from server.club import ClubError, parse_duration
from server.sanitize import clean_text

if TYPE_CHECKING:
    from server.hub import Hub

MESSAGE_MAX = 300


def _covers(kind: str, value: str, who: Identity) -> bool:
    """Whether a ban of ``kind`` ``value`` would shut out ``who`` (an admin banning themselves)."""
    if kind == "key":
        return value.strip() == who.key_fingerprint
    if kind == "name":
        return name_key(value) == name_key(who.name)
    if kind == "address" and who.address:
        try:
            return ipaddress.ip_address(who.address) in ipaddress.ip_network(value.strip(), strict=False)
        except ValueError:
            return False
    return False


def _club_error(err: ClubError) -> ClientError:
    return ClientError("admin", str(err), reason=err.code, params={"detail": str(err)})


class AdminSession(AdminClient):
    """One admin's session's handle; made by :meth:`server.hub.LobbySession.admin`."""

    def __init__(self, hub: Hub, identity: Identity) -> None:
        self._hub = hub
        self._club = hub.club
        self.actor = f"{identity.name} ({identity.key_fingerprint})"
        self._identity = identity

    # ------------------------------------------------------------------ reading

    def online_players(self) -> list[OnlinePlayer]:
        out = []
        for session in self._hub.sessions:
            ident = session.identity
            room = session._room
            out.append(
                OnlinePlayer(
                    name=ident.name,
                    guest=ident.guest,
                    key_fingerprint=ident.key_fingerprint,
                    address=ident.address,
                    where="lobby" if room is None or room.closed else room.room_id,
                    since=session.since,
                    muted=self._club.muted(ident.name) is not None,
                )
            )
        return sorted(out, key=lambda p: (name_key(p.name), p.since))

    def bans(self) -> list[BanInfo]:
        return [BanInfo(id=b.id, kind=b.kind, value=b.value, reason=b.reason, by=b.by, until=b.until) for b in self._club.bans()]

    def audit(self) -> list[AuditInfo]:
        return [AuditInfo(at=a.at, actor=a.actor, action=a.action, target=a.target, reason=a.reason) for a in self._club.audit()]

    def members(self) -> list[MemberInfo]:
        return [
            MemberInfo(key_fingerprint=m.key_fingerprint, name=m.name, invited_by=m.invited_by, revoked=m.revoked is not None)
            for m in self._club.members()
        ]

    # ------------------------------------------------------------------ acting

    def _online(self, name: str) -> None:
        if not any(name_key(s.identity.name) == name_key(name) for s in self._hub.sessions):
            raise ClientError("admin", f"{name} is not online", reason="not-online", params={"detail": name})

    def message(self, name: str, text: str) -> None:
        clean = clean_text(text, MESSAGE_MAX)
        if not clean:
            raise ClientError("admin", "say what?", reason="empty", params={"detail": ""})
        self._online(name)
        for session in self._hub.sessions:
            if name_key(session.identity.name) == name_key(name):
                session.notices.append(clean)
        self._hub.env.notify(self._hub.sessions)
        self._club.note(self.actor, "message", name, clean)

    def kick(self, name: str, reason: str) -> None:
        self._online(name)
        reason = clean_text(reason, 200) or "-"
        self._club.note(self.actor, "kick", name, reason)
        self._hub.end_player(name, "kicked-admin", reason=reason)

    def mute(self, name: str, reason: str, duration: str) -> None:
        try:
            self._club.mute(self.actor, name, reason, parse_duration(duration))
        except ClubError as err:
            raise _club_error(err) from err
        self._hub.env.notify(self._hub.sessions)

    def unmute(self, name: str) -> None:
        try:
            self._club.unmute(self.actor, name)
        except ClubError as err:
            raise _club_error(err) from err

    def ban(self, kind: Literal["key", "name", "address"], value: str, reason: str, duration: str) -> None:
        if _covers(kind, value, self._identity):
            raise ClientError("admin", "you would ban yourself", reason="self", params={"detail": value})
        try:
            self._club.ban(self.actor, kind, value, reason, parse_duration(duration))
        except ClubError as err:
            raise _club_error(err) from err
        self._hub.enforce()

    def unban(self, ban_id: int) -> None:
        try:
            self._club.unban(self.actor, ban_id)
        except ClubError as err:
            raise _club_error(err) from err

    def free_name(self, name: str) -> None:
        try:
            self._club.free_name(self.actor, name)
        except ClubError as err:
            raise _club_error(err) from err

    def close_room(self, room_id: str, reason: str) -> None:
        room = self._hub.room(room_id)
        reason = clean_text(reason, 200) or "-"
        self._club.note(self.actor, "close-room", room.id, reason)
        room.close_by_admin(reason)
        # the lobby shows no room numbers: the line names the room as the lobby does
        self._hub.system(
            "sys.room_closed_admin_named", room=room.id, reason=reason,
            title=room_title(room.settings.name, room.host, "en"), room_name=room.settings.name, host=room.host,
        )

    def announce(self, text: str) -> None:
        try:
            self._club.note(self.actor, "announce", "everyone", text, required=True)
        except ClubError as err:
            raise _club_error(err) from err
        self._hub.announce(clean_text(text, MESSAGE_MAX))

    def set_motd(self, text: str) -> None:
        self._club.set_motd(self.actor, text)
        self._hub.motd_changed()

    def add_admin(self, key_fingerprint: str) -> None:
        try:
            self._club.add_admin(self.actor, key_fingerprint)
        except ClubError as err:
            raise _club_error(err) from err

    def invite(self, uses: int, expires: str, name: str) -> str:
        try:
            return self._club.invite(self.actor, uses=uses, expires_in=parse_duration(expires), name=name or None).code
        except ClubError as err:
            raise _club_error(err) from err

    def revoke(self, who: str) -> None:
        try:
            self._club.revoke(self.actor, who)
        except ClubError as err:
            raise _club_error(err) from err
        self._hub.enforce()
