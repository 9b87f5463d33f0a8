"""Players' chat lines: how fast one may send them, how they are cleaned, kept and refused."""

from __future__ import annotations

import logging

from protocol.contract import CHAT_MAX, ChatLine, ClientError
from server.club import Club, when
from server.sanitize import clean_text
from server.storage import Storage, StorageError

log = logging.getLogger("throneroom.room")


CHAT_BURST = 8  # chat lines a player may send at once (lobby and rooms together)...
CHAT_EVERY = 1.5  # ...then one every this many seconds


def keep_said(storage: Storage, scope: str, line: ChatLine) -> None:
    """Keep a player's chat line before anyone sees it; a failed write (a full
    disk) refuses it to its sender, who keeps it in the input to send again,
    rather than showing a line that a restart would lose unsaid."""
    try:
        storage.append_chat(scope, line)
    except StorageError as err:
        log.warning("%s", err)
        raise ClientError("chat-storage", "the server could not save that chat line; try again") from err


def chat_text(text: str) -> str:
    """A player's chat line as others see it (cleaned); refused with
    ClientError("chat-long") when longer than CHAT_MAX: never cut unsaid."""
    clean = clean_text(text, CHAT_MAX + 1)
    if len(clean) > CHAT_MAX:
        raise ClientError("chat-long", f"a chat line holds at most {CHAT_MAX} characters", params={"max": str(CHAT_MAX)})
    return clean


def require_unmuted(club: Club, name: str) -> None:
    """Refuse a chat line from a muted player, saying why and until when."""
    mute = club.muted(name)
    if mute is not None:
        until = "" if mute.until is None else when(mute.until)
        raise ClientError(
            "muted", f"an admin muted you in chat: {mute.reason}", reason="timed" if until else "",
            params={"reason": mute.reason, "until": until},
        )
