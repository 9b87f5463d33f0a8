"""Spam past the per-name throttle (issue 45 finding 8): 20 guest names from one
address sent 12.7 chat lines/s (the lobby's 200-line history gone in 16 s); 100
watch/leave cycles wrote 100 "is watching" lines; rooms had no cap per source
or in total. Limits per source (an IPv4 address, an IPv6 /64) from ``[spam]``."""

from __future__ import annotations

import pytest
from hubs import new_hub

from protocol.contract import ClientError, Identity, RoomSettings
from protocol.i18n import t
from server.config import SpamSection
from server.hub import Hub


def _guest(hub: Hub, i: int, address: str = "203.0.113.7") -> Identity:
    return Identity(name=f"spam{i}", guest=True, address=address)


async def test_twenty_names_from_one_address_share_one_chat_budget() -> None:
    """spam.chat_per_source_burst lines at once for all the names of a source, then
    the source's rate; another address (and an IPv6 /64's other half) is not held back."""
    hub = new_hub(spam=SpamSection(chat_per_source_burst=12, chat_per_source_every=1.0))
    await hub.start()
    try:
        lobbies = [hub.connect(_guest(hub, i)) for i in range(20)]
        sent = refused = 0
        for _ in range(3):  # 60 lines tried at once: each name is within its own limit (8 at once)
            for lobby in lobbies:
                try:
                    lobby.chat("buy gold")
                    sent += 1
                except ClientError as err:
                    assert err.code == "chat-fast"
                    refused += 1
        assert sent == 12 and refused == 48
        other = hub.connect(Identity(name="neighbour", guest=True, address="198.51.100.9"))
        other.chat("hello")  # another source is not held back
        v6 = [hub.connect(Identity(name=f"six{i}", address=f"2001:db8:1:2::{i}")) for i in range(13)]
        with pytest.raises(ClientError):
            for lobby in v6:
                lobby.chat("same /64")
        hub.connect(Identity(name="far", address="2001:db8:1:3::1")).chat("another /64")
    finally:
        await hub.stop()


async def test_watch_and_leave_in_a_loop_writes_one_line_not_one_a_cycle() -> None:
    """spam.presence_line_every: 100 watch/leave cycles by one name write one
    "is watching" line (stored chat too); many names of one source share a budget."""
    hub = new_hub(spam=SpamSection(presence_line_every=60.0, presence_per_source_burst=6))
    await hub.start()
    try:
        host = hub.connect(Identity(name="alice", address="198.51.100.1"))
        room = host.create_room(RoomSettings(game="count", seats=3))
        watcher = hub.connect(Identity(name="mallory", guest=True, address="203.0.113.7"))
        for _ in range(100):
            watcher.watch(room.room_id).leave()
        lines = [line for line in room.chat_lines() if line.key == "sys.watching"]
        assert len(lines) == 1
        stored = [line for line in hub.storage.chat_lines(f"room:{room.room_id}") if line.key == "sys.watching"]
        assert len(stored) <= 1
        for i in range(20):  # 20 names of one source: its budget of such lines, not 20
            hub.connect(_guest(hub, i)).watch(room.room_id).leave()
        lines = [line for line in room.chat_lines() if line.key == "sys.watching"]
        assert len(lines) == 1 + 5  # mallory's counted from the same source
        hub.connect(Identity(name="bob", address="198.51.100.2")).watch(room.room_id)
        assert room.chat_lines()[-1].key == "sys.watching"  # another source is announced
    finally:
        await hub.stop()


async def test_rooms_are_capped_per_source_and_in_total() -> None:
    hub = new_hub(spam=SpamSection(rooms_per_source=2, rooms_total=3))
    await hub.start()
    try:
        for i in range(2):
            hub.connect(_guest(hub, i)).create_room(RoomSettings(game="count", seats=2))
        with pytest.raises(ClientError) as err:
            hub.connect(_guest(hub, 2)).create_room(RoomSettings(game="count", seats=2))
        assert err.value.code == "rooms-source"
        assert "2 rooms open" in t("err.rooms-source", "en", **err.value.params)
        hub.connect(Identity(name="elsewhere", address="198.51.100.5")).create_room(RoomSettings(game="count", seats=2))
        with pytest.raises(ClientError) as err:
            hub.connect(Identity(name="late", address="192.0.2.1")).create_room(RoomSettings(game="count", seats=2))
        assert err.value.code == "rooms-full" and "3 個房間" in t("err.rooms-full", "zh", **err.value.params)
    finally:
        await hub.stop()
